"""The experiment contract: smoke run structure, sanity, and config validation."""

from __future__ import annotations

import math

import pytest

from icml26.common import verdict
from icml26.rashomon.experiment import EXPERIMENT, _check

QUICK_ONLY = {"stable_bc", "theory_tradeoff"}  # smoke runs stability on COMPAS only; theory is blocked


@pytest.fixture(scope="module")
def smoke_result():
    return EXPERIMENT.run(dict(EXPERIMENT.profiles["smoke"]), 0)


def test_smoke_run_structure_and_sanity(smoke_result):
    m = smoke_result.metrics
    for claim in EXPERIMENT.claims:
        if claim.name in QUICK_ONLY:
            continue
        for key in (claim.metric, *claim.relative_to, *claim.controls, *claim.context, *claim.shown):
            assert key in m, (claim.name, key)
    assert m["bc_gosdt_gap"] <= 1e-9 and m["bc_bound_excess"] <= 1e-9
    assert 0.0 <= m["bc_f0_adv"] <= m["bc_f0_clean"] <= 1.0
    assert m["bc_switched_adv"] >= m["bc_f0_adv"] - 0.2
    assert 0.0 <= m["recon_err_k1"] <= 0.5 and m["recon_random_err"] > m["recon_err_k1"]
    assert 0.3 <= m["compas_sparse3_mia"] <= 0.7
    assert 0.0 <= m["compas_stay_flip2"] <= 1.0
    assert math.isfinite(m["tradeoff_min_edge"])
    for k in ("bc_own_adv", "bc_pool_adv", "bc_rf_adv", "bc_cart3_f0attack_adv", "bc_gain_kmax_random"):
        assert -1.0 <= m[k] <= 1.0, k
    assert m["bc_own_adv"] <= m["bc_f0_clean"] + 0.2  # a member under its own attack: no transfer gift
    assert m["bc_omitted"] >= 0 and m["bc_full_count"] >= 1
    assert m["bc_treefarms_excess"] >= m["bc_bound_excess"] - 1e-12
    assert "theory_tradeoff" in smoke_result.blocked
    verdicts = {c.name: verdict(c, m, smoke_result.blocked, "smoke") for c in EXPERIMENT.claims}
    assert verdicts["optimum_matches_gosdt"].verdict == "toy-verified"
    assert verdicts["theory_tradeoff"].verdict == "blocked"
    assert {t for t in smoke_result.tables} >= {
        "robustness_breast_cancer",
        "reconstruction_compas",
        "membership_inference_compas",
        "stability_compas",
    }


@pytest.mark.parametrize(
    ("change", "match"),
    [
        ({"n_splits": 1}, "n_splits"),
        ({"eps_rashomon": 0}, "eps_rashomon"),
        ({"headline_eps": 0.3}, "headline_eps"),
        ({"ks": [2, 4]}, "ks must"),
        ({"mia_depths": [1, 2]}, "mia_depths"),
        ({"mia_n": 4000}, "COMPAS has 7206 rows"),
        ({"eps_rashomon": float("inf")}, "eps_rashomon must be a finite"),
        ({"mia_reg": float("nan")}, "mia_reg must be a finite"),
        ({"dp_epsilon": float("inf")}, "dp_epsilon must be a finite"),
        ({"delta": -1.0}, "delta must be"),
        ({"depth": 9}, "depth must be"),
        ({"attack_eps": [0.1, float("nan")]}, "attack_eps must be finite"),
        ({"eps_grid": [0.0, 0.1]}, "eps_grid must be finite"),
        ({"robust_datasets": ["iris"]}, "robust_datasets must be"),
        ({"stab_datasets": ["compas", "compas"]}, "stab_datasets must be"),
        ({"train_frac": 0.0}, "train_frac must"),
        ({"train_frac": 2.0}, "train_frac must"),
    ],
)
def test_check_rejects_bad_config(change, match):
    config = {**EXPERIMENT.profiles["quick"], **change}
    with pytest.raises(ValueError, match=match):
        _check(config)
    _check(dict(EXPERIMENT.profiles["quick"]))
