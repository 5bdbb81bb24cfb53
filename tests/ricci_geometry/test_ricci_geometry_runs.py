"""Runs a user can trust: resumable units, the cost estimate, the device check, display names, readable
claims and plots."""

from __future__ import annotations

import dataclasses
import math

import pytest

from icml26.common import Result
from icml26.common.checkpoint import finished_units, units_in
from icml26.common.config import resolve_config
from icml26.common.runner import MAX_SECONDS, run_experiment
from icml26.ricci_geometry.experiment import EXPERIMENT, cost

# The documented wall times (docs/methods/ricci_geometry.md): quick 115 s for one seed on the 2-core
# machine ("2-5 minutes depending on the machine's load"), paper 729 s.
QUICK_MEASURED_S = 115.0
PAPER_MEASURED_S = 729.0
# The one measurement that is a wall-clock time: equal only when the unit is reused.
TIMINGS = ("vectorised_seconds_per_net", "loop_seconds_per_net")


def smoke() -> dict:
    return dict(EXPERIMENT.profiles["smoke"])


def same(a: dict[str, float], b: dict[str, float], skip: tuple[str, ...] = ()) -> bool:
    return a.keys() == b.keys() and all(
        a[k] == b[k] or (math.isnan(a[k]) and math.isnan(b[k])) for k in a if k not in skip
    )


def same_tables(a: Result, b: Result) -> bool:
    return repr(a.tables) == repr(b.tables)  # repr: NaNs compare equal, floats exactly


@pytest.fixture(scope="module")
def plain():
    return EXPERIMENT.run(smoke(), 0)


def test_units_are_stored_and_reused_with_the_same_results(plain, tmp_path):
    with units_in(tmp_path) as first:
        r1 = EXPERIMENT.run(smoke(), 0)
    assert first.computed and not first.reused
    assert len(set(first.computed)) == len(first.computed)  # every unit has its own name
    cfg = smoke()
    assert sum(n.startswith("syn1_main_depth=7_seed=") for n in first.computed) == cfg["seeds"]
    assert sum(n.startswith("syn1_deep_depth=9_seed=") for n in first.computed) == cfg["seeds"]
    assert sum(n.startswith("mnist_1v7_seed=") for n in first.computed) == cfg["real_seeds"]
    assert "grid_syn3_w15_d5_seed=0" in first.computed
    assert sum(n.startswith("training_time_mnist_seed=") for n in first.computed) == cfg["track_seeds"]
    assert sum(n.startswith("linear_mlp_original_seed=") for n in first.computed) == cfg["seeds"]
    assert {"linear_control_draws", "thm31_width_sweep", "timing_vectorised_vs_loop"} <= set(first.computed)
    # the same numbers as without units (only the wall-clock timings differ)
    assert same(r1.metrics, plain.metrics, skip=TIMINGS) and same_tables(r1, plain)

    with units_in(tmp_path) as second:
        r2 = EXPERIMENT.run(smoke(), 0)
    assert second.reused == first.computed and not second.computed
    assert same(r2.metrics, r1.metrics) and same_tables(r2, r1)  # timings too: the unit is reused

    # an interrupted run: only the first units finished; the resumed run computes the rest, and the
    # later units draw the same random numbers as in an uninterrupted run
    kept = first.computed[: len(first.computed) // 2]
    for name in first.computed[len(kept) :]:
        (tmp_path / f"{name}.pkl").unlink()
    assert finished_units(tmp_path) == sorted(kept)
    with units_in(tmp_path) as third:
        r3 = EXPERIMENT.run(smoke(), 0)
    assert third.reused == kept and third.computed == first.computed[len(kept) :]
    assert same(r3.metrics, plain.metrics, skip=TIMINGS) and same_tables(r3, plain)

    # the modularity plot illustrates its claim, with the check's bar on its own scale
    claims = {c.name: c for c in EXPERIMENT.claims}
    plots = {p.name: p for p in r1.plots}
    assert all(p.claim in claims for p in plots.values() if p.claim)
    modularity = plots["modularity"]
    assert modularity.claim == "modularity_rises"
    (bar,) = modularity.lines.values()
    assert bar == pytest.approx(modularity.series["trained"][1][0] + claims["modularity_rises"].threshold)


def test_runner_smoke_run_has_the_plain_metrics(plain, tmp_path):
    record = run_experiment("ricci_geometry", "smoke", [0], out=tmp_path)
    assert record.error is None and record.status == "finished"
    assert same(record.metrics, plain.metrics, skip=TIMINGS)
    assert not (record.directory / "units" / "seed_0").exists()  # a finished seed is stored whole


def test_cost_estimate_matches_the_documented_times():
    seconds, memory = cost(dict(EXPERIMENT.profiles["quick"]))
    assert QUICK_MEASURED_S / 3 <= seconds <= QUICK_MEASURED_S * 3
    assert 1e8 < memory < 2**32
    paper, _ = cost(dict(EXPERIMENT.profiles["paper"]))
    assert PAPER_MEASURED_S / 3 <= paper <= PAPER_MEASURED_S * 3
    assert cost(smoke())[0] < seconds < paper


ABSURD = {
    "n_train": 1000 * 10**6,
    "n_test": 1000 * 10**6,
    "seeds": 5 * 10**6,
    "width": 25 * 10**6,
    "depth": 7 * 10**6,
    "deep_depth": 15 * 10**6,
    "real_seeds": 10 * 10**6,
    "linear_n": 50 * 10**6,
    "linear_width": 40_000 * 10**6,
    "linear_draws": 50 * 10**6,
    "track_width": 50 * 10**6,
    "track_epochs": 60 * 10**6,
    "timing_n": 500 * 10**6,
    "grid_widths": str(25 * 10**6),
    "grid_depths": str(7 * 10**6),
    "grid_seeds": 2 * 10**6,
    "track_seeds": 3 * 10**6,
    "thm31_draws": 100 * 10**6,
}


@pytest.mark.parametrize("key", sorted(ABSURD))
def test_absurd_sizes_are_refused_before_the_run(key, tmp_path):
    overrides = {key: ABSURD[key]}
    seconds, memory = cost({**EXPERIMENT.profiles["quick"], **overrides})
    assert seconds > MAX_SECONDS or memory > 2**40, (seconds, memory)
    with pytest.raises(ValueError, match="--force"):
        run_experiment(
            dataclasses.replace(EXPERIMENT, schema=None), "quick", [0], overrides=overrides, out=tmp_path
        )
    assert not any(tmp_path.iterdir())  # nothing ran, no run directory


def test_force_skips_the_cost_check(tmp_path):
    seen = []

    def fake_run(config, seed):
        seen.append(config["linear_width"])
        return Result(metrics={})

    fake = dataclasses.replace(EXPERIMENT, schema=None, run=fake_run)
    overrides = {"linear_width": ABSURD["linear_width"]}
    with pytest.raises(ValueError, match="--force"):
        run_experiment(fake, "quick", [0], overrides=overrides, out=tmp_path)
    with pytest.warns(UserWarning):  # the fake run measures nothing: every claim says "not measured"
        run_experiment(fake, "quick", [0], overrides=overrides, out=tmp_path, force=True)
    assert seen == [ABSURD["linear_width"]]


def test_an_unusable_device_is_rejected_before_the_run():
    with pytest.raises(ValueError, match="cuda:7"):
        resolve_config(EXPERIMENT, "smoke", {"device": "cuda:7"})
    with pytest.raises(ValueError, match="not a torch device"):
        resolve_config(EXPERIMENT, "smoke", {"device": "gpu-please"})
    assert resolve_config(EXPERIMENT, "smoke", {"device": "cpu"})["device"] == "cpu"


def test_every_baseline_control_and_context_has_a_display_name():
    for claim in EXPERIMENT.claims:
        for key in (*claim.relative_to, *claim.controls, *claim.context, *claim.shown):
            assert EXPERIMENT.names.get(key, key) != key, (claim.name, key)


def test_statements_name_the_config_that_ran():
    claims = {c.name: c for c in EXPERIMENT.claims}
    quick, smoke_cfg = EXPERIMENT.profiles["quick"], EXPERIMENT.profiles["smoke"]
    assert claims["syn1_local_paper"].describe(quick).startswith("Syn-I (w25, d7, k=50, AF)")
    assert claims["syn1_local_paper"].describe(smoke_cfg).startswith("Syn-I (w25, d7, k=10, AF)")
    assert "depth 15 gives" in claims["deeper_more_negative"].describe(quick)
    assert "depth 9 gives" in claims["deeper_more_negative"].describe(smoke_cfg)
    assert "k = 25 on 500 test digits" in claims["mnist_share_paper_k25"].describe(quick)
    assert "the pre-registered k = 50 on 500 test digits" in claims["mnist_share_paper"].describe(quick)
    assert "depths 7,15)" in claims["grid_deeper_more_negative"].describe(quick)
    assert "100 draws" in claims["thm31_keeps_knn_lists"].describe(quick)
    assert "k = 100" in claims["modularity_rises_paper"].describe(quick)
    assert "(k = 5, m = 250000)" in claims["linear_keeps_knn_graph"].describe(EXPERIMENT.profiles["paper"])
    assert claims["vectorised_faster"].form == "ratio"  # shown in ×; every other claim is unitless
