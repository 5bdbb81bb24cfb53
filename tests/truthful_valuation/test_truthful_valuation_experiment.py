"""The experiment's smoke profile runs, measures every claim's metric, and the claims are well formed."""

import math

import pytest

from icml26.common.config import resolve_config
from icml26.truthful_valuation.experiment import EXPERIMENT


@pytest.fixture(scope="module")
def smoke_metrics():
    config = resolve_config(EXPERIMENT, "smoke", {})
    return EXPERIMENT.run(dict(config), 0).metrics


def test_smoke_measures_every_claim_metric_with_an_interval(smoke_metrics):
    for claim in EXPERIMENT.claims:
        for key in (claim.metric, *claim.relative_to, *claim.controls):
            assert key in smoke_metrics and math.isfinite(smoke_metrics[key]), (claim.name, key)
        if claim.scale != "exact":
            assert claim.metric + "_ci" in smoke_metrics, claim.name


def test_smoke_fairness_axioms_hold_exactly_and_controls_break_them(smoke_metrics):
    assert smoke_metrics["max_efficiency_gap"] <= 1e-9
    assert smoke_metrics["max_symmetry_gap"] <= 1e-9
    assert smoke_metrics["max_null_player_gap"] <= 1e-9
    for control in ("banzhaf_efficiency_gap", "fixed_order_symmetry_gap", "equal_split_null_player_gap"):
        assert smoke_metrics[control] > 1e-3


def test_check_rejects_bad_configs():
    config = dict(resolve_config(EXPERIMENT, "smoke", {}))
    for key, value, message in (
        ("sizes", [5] * 11, "at most 10 sources"),
        ("copy_from", 0, "copy_from must name another source"),
        ("strength_classes", 1.5, "flip probability"),
        ("n_trials", 1, "n_trials must be an integer >= 2"),
    ):
        with pytest.raises(ValueError, match=message):
            EXPERIMENT.check({**config, key: value})


def test_units_are_reused_with_the_same_metrics(tmp_path):
    from icml26.common.checkpoint import units_in

    config = dict(resolve_config(EXPERIMENT, "smoke", {}))
    with units_in(tmp_path) as store:
        first = EXPERIMENT.run(dict(config), 0)
    assert "fairness" in store.computed and "gaussian_trials=0-20" in store.computed and not store.reused
    with units_in(tmp_path) as store:
        second = EXPERIMENT.run(dict(config), 0)
    assert not store.computed and "compas_trials=0-10" in store.reused
    assert first.metrics == second.metrics


def test_cost_estimate_is_within_the_quick_budget():
    seconds, memory = EXPERIMENT.cost(dict(EXPERIMENT.profiles["quick"]))
    assert seconds <= 240 and memory > 0
