"""The experiment contract: smoke run, structure, sanity, and config validation."""

import math

import pytest

from icml26.bad_triangles.experiment import EXPERIMENT
from icml26.common import verdict


@pytest.fixture(scope="module")
def smoke_result():
    return EXPERIMENT.run(dict(EXPERIMENT.profiles["smoke"]), 0)


def test_smoke_run_structure(smoke_result):
    r = smoke_result
    for claim in EXPERIMENT.claims:
        assert claim.metric in r.metrics, claim.name
        for b in claim.baselines:
            assert b in r.metrics, b
    assert set(r.tables) == {"summary", "per_instance", "runtime", "real"}
    assert len(r.tables["per_instance"]) == EXPERIMENT.profiles["smoke"]["n_random"]
    assert r.tables["real"][0]["network"] == "highland_tribes"
    assert r.plots and r.plots[0].series


def test_smoke_run_sanity(smoke_result):
    m = smoke_result.metrics
    assert m["infeasible_sets"] == 0 and m["sets_checked"] > 50
    assert 1.0 <= m["max_cost_over_lp"] <= 2.0  # guarantee, rounded to 1e-9
    assert m["packing_max_cost_over_lp"] <= 3.0
    assert m["max_cost_over_eps_lp"] <= 2.0
    assert 1.0 <= m["mean_cost_over_opt"] < m["packing_mean_cost_over_opt"]
    assert m["max_btt_over_cc"] <= 1.0
    assert math.isfinite(m["scale_runtime_s"]) and m["scale_cost_over_lb"] >= 1.0 - 1e-9
    verdicts = {c.name: verdict(c, m, smoke_result.blocked, "smoke").verdict for c in EXPERIMENT.claims}
    assert verdicts["transversal"] == "toy-verified"
    assert verdicts["two_approx_lp"] == "toy-verified"


def test_same_seed_same_metrics():
    cfg = {**EXPERIMENT.profiles["smoke"], "atlas_stride": 200, "n_complete": 1}
    a = EXPERIMENT.run(dict(cfg), 3).metrics
    b = EXPERIMENT.run(dict(cfg), 3).metrics
    for key in ("max_cost_over_lp", "mean_cost_over_opt", "pivot_max_ratio", "scale_cost_over_lb"):
        assert a[key] == b[key] or (math.isnan(a[key]) and math.isnan(b[key]))


def test_profiles_share_keys_and_pass_check():
    for p in ("smoke", "quick", "paper"):
        EXPERIMENT.check(dict(EXPERIMENT.profiles[p]))


@pytest.mark.parametrize(
    ("change", "match"),
    [
        ({"n_random": 0}, "n_random"),
        ({"n_min": 60, "n_max": 30}, "n_min <= n_max"),
        ({"eps": 1.5}, r"eps must be in \(0, 1\)"),
        ({"stc_networks": 3}, "stc_networks"),
        ({"milp_time_limit": 0.0}, "milp_time_limit"),
    ],
)
def test_bad_config(change, match):
    with pytest.raises(ValueError, match=match):
        EXPERIMENT.run({**EXPERIMENT.profiles["smoke"], **change}, 0)


def test_missing_config_key():
    cfg = dict(EXPERIMENT.profiles["smoke"])
    del cfg["eps"]
    with pytest.raises(ValueError, match="missing keys"):
        EXPERIMENT.run(cfg, 0)
