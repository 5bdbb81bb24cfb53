"""The experiment at the smoke profile: structure, sanity of every metric, and config checks."""

import math

import pytest

from icml26.common import verdict
from icml26.ricci_geometry.experiment import EXPERIMENT


@pytest.fixture(scope="module")
def smoke():
    return EXPERIMENT.run(dict(EXPERIMENT.profiles["smoke"]), 0)


def test_every_claim_is_measured(smoke):
    for claim in EXPERIMENT.claims:
        assert claim.metric in smoke.metrics, claim.name
        assert math.isfinite(smoke.metrics[claim.metric]), claim.name
        for b in claim.baselines:
            assert b in smoke.metrics, (claim.name, b)
        v = verdict(claim, smoke.metrics, smoke.blocked, "smoke")
        assert v.verdict in {"toy-verified", "refuted", "inconclusive"}


def test_metrics_are_sane(smoke):
    m = smoke.metrics
    for key in ("syn1_trained_local_mean", "syn1_untrained_local_mean", "mnist_trained_local_mean"):
        assert -1.0 <= m[key] <= 1.0
    for key in ("syn1_trained_negative_share", "identity_edge_jaccard", "relu_edge_jaccard"):
        assert 0.0 <= m[key] <= 1.0
    assert m["loop_vs_vectorised_max_abs_diff"] < 1e-9  # the loop reference agrees with the fast path
    assert m["syn1_untrained_minus_trained"] == pytest.approx(
        m["syn1_untrained_local_mean"] - m["syn1_trained_local_mean"]
    )


def test_tables_and_plots(smoke):
    rows = smoke.tables["per_network"]
    assert {r["dataset"] for r in rows} == {"syn1", "mnist"}
    assert {r["trained"] for r in rows} == {True, False}
    assert smoke.tables["grid"] and smoke.tables["grid"][0]["dataset"] == "syn3"
    assert smoke.tables["community"] and smoke.tables["linear_control"] and smoke.tables["training_time"]
    assert {p.name for p in smoke.plots} >= {"modularity", "training_time"}


def test_repeatable():
    cfg = dict(EXPERIMENT.profiles["smoke"], seeds=1, deep_depth=8, timing_n=0)
    a, b = EXPERIMENT.run(cfg, 3), EXPERIMENT.run(cfg, 3)
    assert a.metrics["syn1_trained_local_mean"] == b.metrics["syn1_trained_local_mean"]


def test_profiles_and_config_check():
    assert set(EXPERIMENT.profiles) == {"smoke", "quick", "paper"}
    bad = dict(EXPERIMENT.profiles["smoke"], k=500)
    with pytest.raises(ValueError, match="k must satisfy"):
        EXPERIMENT.check(bad)
    with pytest.raises(ValueError, match="seeds must be >= 1"):
        EXPERIMENT.check(dict(EXPERIMENT.profiles["smoke"], seeds=0))
    with pytest.raises(ValueError, match="real_k must satisfy"):
        EXPERIMENT.check(dict(EXPERIMENT.profiles["smoke"], real_k=100))
    with pytest.raises(ValueError, match="linear_draws must be >= 1"):
        EXPERIMENT.check(dict(EXPERIMENT.profiles["smoke"], linear_draws=0))
    with pytest.raises(ValueError, match="grid_datasets must be"):
        EXPERIMENT.check(dict(EXPERIMENT.profiles["smoke"], grid_datasets="syn1,cifar"))
    with pytest.raises(ValueError, match="grid_widths must be"):
        EXPERIMENT.check(dict(EXPERIMENT.profiles["smoke"], grid_widths="25,wide"))
    for profile in EXPERIMENT.profiles.values():
        EXPERIMENT.check(dict(profile))
