"""Runs a user can trust with hours of compute: resumable units, the cost estimate, display names."""

import dataclasses
import math
import os

import pytest

from icml26.bad_triangles.experiment import EXPERIMENT, cost
from icml26.common.checkpoint import finished_units, units_in
from icml26.common.config import resolve_config
from icml26.common.runner import MAX_SECONDS, run_experiment

UNITS = {
    "atlas_graphs=0-20",
    "random_graphs=0-3",
    "complete_graphs=0-2",
    "adversarial",
    "runtime_m=1000",
    "scale_graph",
    "real_network=highland_tribes",
    "sparse_cc",
}


def timings(metrics: dict) -> tuple[str, ...]:
    """Metrics that are wall-clock timings: equal only when their unit is reused, not when recomputed."""
    return tuple(
        k for k in metrics if k.startswith("rt_") or k in ("scale_runtime_s", "adversarial_seconds_used")
    )


def same(a: dict, b: dict, skip: tuple[str, ...] = ()) -> bool:
    """Equal metrics (nan equal to nan), leaving out ``skip``."""
    assert set(a) == set(b)
    return all(a[k] == b[k] or (math.isnan(a[k]) and math.isnan(b[k])) for k in a if k not in skip)


def test_units_are_reused_with_the_same_metrics(tmp_path, capfd):
    config = dict(EXPERIMENT.profiles["smoke"])
    runner = run_experiment("bad_triangles", "smoke", [0], out=tmp_path / "runs")
    assert runner.status == "finished" and runner.error is None
    plain = EXPERIMENT.run(dict(config), 0)
    assert capfd.readouterr() == ("", "")  # no third-party banner or progress bar on the terminal

    d = tmp_path / "units"
    with units_in(d) as store:
        first = EXPERIMENT.run(dict(config), 0)
    assert set(store.computed) == UNITS and not store.reused
    assert set(finished_units(d)) == UNITS
    assert same(first.metrics, plain.metrics, timings(plain.metrics))  # units change no number
    assert same(first.metrics, runner.metrics, timings(plain.metrics))
    assert first.tables["per_instance"] == plain.tables["per_instance"]

    with units_in(d) as store:
        second = EXPERIMENT.run(dict(config), 0)
    assert set(store.reused) == UNITS and not store.computed
    assert same(second.metrics, first.metrics)  # timings too: they come from the stored units
    assert second.tables == first.tables

    # an interrupted run: two units in the middle are missing; the generators' states restored by the
    # reused units before and after them give the same numbers
    for name in ("random_graphs=0-3", "runtime_m=1000"):
        (d / f"{name}.pkl").unlink()
    with units_in(d) as store:
        resumed = EXPERIMENT.run(dict(config), 0)
    assert set(store.computed) == {"random_graphs=0-3", "runtime_m=1000"}
    assert set(store.reused) == UNITS - set(store.computed)
    assert same(resumed.metrics, first.metrics, timings(first.metrics))
    assert resumed.metrics["scale_runtime_s"] == first.metrics["scale_runtime_s"]  # reused
    assert resumed.tables["per_instance"] == first.tables["per_instance"]


def test_cost_quick_and_paper_near_their_documented_wall_times():
    # docs/methods/bad_triangles.md: quick 272 s (91 s CPU), paper 391 s (178 s CPU) on 2 shared CPU cores
    for profile, documented in (("quick", 272.0), ("paper", 391.0)):
        seconds, memory = cost(dict(EXPERIMENT.profiles[profile]))
        assert documented / 3 <= seconds <= documented * 3, (profile, seconds)
        assert 3e8 <= memory <= 4e9, (profile, memory)
    seconds, _ = cost(dict(EXPERIMENT.profiles["smoke"]))
    assert seconds < 30
    assert EXPERIMENT.cost is cost


@pytest.mark.parametrize(
    "key",
    ["n_random", "n_max", "n_complete", "pivot_orders", "random_minimal", "runtime_edges_max", "scale_edges"],
)
def test_cost_of_absurd_sizes_is_over_the_limits(key):
    config = dict(EXPERIMENT.profiles["quick"])
    config[key] *= 10**6
    seconds, memory = cost(config)
    ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    assert seconds > MAX_SECONDS or memory > ram, (key, seconds, memory)


def test_runner_refuses_absurd_sizes_unless_forced(tmp_path):
    with pytest.raises(ValueError, match="--force"):
        run_experiment(
            dataclasses.replace(EXPERIMENT, schema=None), "quick", [0], {"scale_edges": 10**13}, out=tmp_path
        )
    with pytest.raises(ValueError, match="--force"):
        run_experiment(
            dataclasses.replace(EXPERIMENT, schema=None), "quick", [0], {"n_random": 10**9}, out=tmp_path
        )

    def fail_fast(config, seed):
        raise RuntimeError("the run started")

    forced = dataclasses.replace(EXPERIMENT, schema=None, run=fail_fast)
    record = run_experiment(forced, "quick", [0], {"n_random": 10**9}, out=tmp_path, force=True)
    assert record.status == "failed" and "the run started" in record.error


def test_no_device_key():
    # nothing here uses torch (numpy/scipy/HiGHS on CPU), so there is no device to check
    assert all("device" not in p for p in EXPERIMENT.profiles.values())


def test_display_names_and_statements():
    for claim in EXPERIMENT.claims:
        for key in (*claim.relative_to, *claim.controls, *claim.context):
            assert key in EXPERIMENT.names, (claim.name, key)
    claims = {c.name: c for c in EXPERIMENT.claims}
    smoke = resolve_config(EXPERIMENT, "smoke")
    assert "n=20..25" in claims["mean_cost_over_opt"].describe(smoke)
    assert "about 2000 edges" in claims["fast_path_runtime"].describe(smoke)
    assert "n=30..60" in claims["mean_cost_over_opt"].describe(dict(EXPERIMENT.profiles["quick"]))
    assert claims["fast_path_runtime"].unit == "s" and claims["two_approx_lp"].unit == "×"
