"""Resumable units, the cost estimate, display names and the device check of the bfts experiment."""

import dataclasses
import json

import pytest

from icml26.bfts.experiment import EXPERIMENT, NAMES, cost
from icml26.common.checkpoint import units_in
from icml26.common.runner import resolve_config, run_experiment

QUICK_WALL_S = 582.0  # the recorded quick run of one seed (docs/runs/bfts/, issue #17; 243 s CPU)


def _untimed(metrics):
    """The metrics that do not measure wall time (the speed metrics differ between two computations)."""
    return {k: v for k, v in metrics.items() if not k.startswith("seconds_per_1k_rounds_")}


def test_smoke_run_reuses_every_unit_and_ends_with_the_same_metrics(tmp_path):
    config = dict(EXPERIMENT.profiles["smoke"])
    plain = EXPERIMENT.run(dict(config), 0)
    with units_in(tmp_path / "units") as store:
        first = EXPERIMENT.run(dict(config), 0)
    computed = list(store.computed)
    assert (
        "friedman1_seed=1" in computed and "friedman2_seed=1" in computed and "suite_iris_seed=0" in computed
    )
    assert "calibration_official_forest_seed=0" in computed and "mrt_bfts_trial=0" in computed
    assert "robust_schedule_sqrt_seed=0" in computed and not store.reused
    with units_in(tmp_path / "units") as store:
        second = EXPERIMENT.run(dict(config), 0)
    assert store.computed == [] and sorted(store.reused) == sorted(computed)
    assert second.metrics == first.metrics  # the stored units carry their timings too
    assert second.tables == first.tables
    assert list(first.metrics) == list(plain.metrics)
    assert _untimed(first.metrics) == _untimed(plain.metrics)
    # the runner's own run of the same seed (units in its run directory) gives the same numbers
    record = run_experiment("bfts", "smoke", [0], out=tmp_path / "runs")
    assert record.status == "finished", record.error
    stored = json.loads((record.directory / "result.json").read_text())["per_seed_metrics"]["0"]
    assert _untimed(stored) == _untimed(first.metrics)


def test_quick_cost_is_near_the_documented_wall_time():
    seconds, memory = cost(dict(EXPERIMENT.profiles["quick"]))
    assert QUICK_WALL_S / 3 <= seconds <= QUICK_WALL_S * 3
    assert 2**28 < memory < 8 * 2**30
    smoke, _ = cost(dict(EXPERIMENT.profiles["smoke"]))
    paper, _ = cost(dict(EXPERIMENT.profiles["paper"]))
    assert smoke < 60 < seconds < paper  # smoke runs in seconds, paper needs hours
    assert 3600 < paper < 12 * 3600


@pytest.mark.parametrize(
    "key", ["friedman_horizon", "friedman_seeds", "n_trees", "mrt_users", "suite_seeds", "robust_horizon"]
)
def test_absurd_sizes_are_refused_before_the_run_unless_forced(key, tmp_path):
    quick = EXPERIMENT.profiles["quick"]
    big = {key: quick[key] * 10**6}
    seconds, memory = cost({**quick, **big})
    assert seconds > 12 * 3600
    ran = []

    def fails_fast(config, seed):
        ran.append(seed)
        raise RuntimeError("the experiment ran")

    experiment = dataclasses.replace(EXPERIMENT, schema=None, run=fails_fast)
    with pytest.raises(ValueError, match="--force"):
        run_experiment(experiment, "quick", [0], overrides=big, out=tmp_path)
    assert not ran
    record = run_experiment(experiment, "quick", [0], overrides=big, out=tmp_path, force=True)
    assert ran == [0] and "the experiment ran" in record.error


def test_every_baseline_control_and_context_metric_has_a_display_name():
    named = {k for c in EXPERIMENT.claims for k in (*c.relative_to, *c.controls, *c.context)}
    assert named <= set(NAMES), sorted(named - set(NAMES))
    assert EXPERIMENT.names == NAMES


def test_an_unusable_device_is_rejected_before_the_run():
    with pytest.raises(ValueError, match="cuda:7"):
        resolve_config(EXPERIMENT, "smoke", {"device": "cuda:7"})
    with pytest.raises(ValueError, match="not-a-device"):
        resolve_config(EXPERIMENT, "smoke", {"device": "not-a-device"})
    assert resolve_config(EXPERIMENT, "smoke", {"device": "cpu"})["device"] == "cpu"


def test_statements_name_the_settings_that_ran():
    claims = {c.name: c for c in EXPERIMENT.claims}
    smoke, quick = EXPERIMENT.profiles["smoke"], EXPERIMENT.profiles["quick"]
    assert "T=min(1000, 50)" in claims["friedman1_vs_lints"].describe(smoke)
    assert "T=min(1000, 500)" in claims["friedman1_vs_lints"].describe(quick)
    assert "2 seeds per data set" in claims["suite_rank_first"].describe(quick)
    assert "3 shared seeds, T=100" in claims["robustness"].describe(quick)
    assert "5 trees, 10 burn-in, 10 draws" in claims["calibration_official"].describe(smoke)
    assert "100 trees, 200 burn-in, 200 draws" in claims["calibration_official"].describe(quick)
    assert "50 trees / 200 burn-in" in claims["calibration"].describe(quick)
