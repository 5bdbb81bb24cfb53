"""Runs a user can trust: resumable units, the cost estimate, display names, readable claims and plots."""

from __future__ import annotations

import dataclasses
import math

import pytest

from icml26.collocation_sampler.experiment import EXPERIMENT, cost
from icml26.common import Result
from icml26.common.checkpoint import finished_units, units_in
from icml26.common.runner import MAX_SECONDS, run_experiment

# the documented times (docs/methods/collocation_sampler.md, 2 cores shared at load ~5-6): quick 265 s in
# the runner, 279 s for the command with its start-up (104 s of CPU); paper 500 s in the runner
QUICK_MEASURED_S = 264.8
QUICK_COMMAND_S = 278.7
PAPER_MEASURED_S = 500.0


def smoke() -> dict:
    return dict(EXPERIMENT.profiles["smoke"])


def same(a: dict[str, float], b: dict[str, float]) -> bool:
    return a.keys() == b.keys() and all(a[k] == b[k] or (math.isnan(a[k]) and math.isnan(b[k])) for k in a)


@pytest.fixture(scope="module")
def plain():
    return EXPERIMENT.run(smoke(), 0)


def test_units_are_stored_and_reused_with_the_same_results(plain, tmp_path):
    with units_in(tmp_path) as first:
        r1 = EXPERIMENT.run(smoke(), 0)
    assert first.computed and not first.reused
    assert len(set(first.computed)) == len(first.computed)  # every unit has its own name
    cfg = smoke()
    parts = (
        "reference_d=2",
        "degree_sweep_",
        "depth_",
        "fixed_step_",
        "scipy_",
        "dimension_sweep_",
        "ladder_",
        "aniso_dimension_",
        "theorem_windows_",
    )
    assert all(any(name.startswith(p) for name in first.computed) for p in parts)
    assert sum(name.startswith("dimension_sweep_") for name in first.computed) == len(cfg["dims"])
    assert sum(name.startswith("score_error_sweep_") for name in first.computed) == len(cfg["noise_deltas"])
    assert same(r1.metrics, plain.metrics) and r1.tables == plain.tables

    with units_in(tmp_path) as second:
        r2 = EXPERIMENT.run(smoke(), 0)
    assert second.reused == first.computed and not second.computed
    assert same(r2.metrics, r1.metrics) and r2.tables == r1.tables

    # an interrupted run: only the first units finished; the resumed run computes the rest
    kept = first.computed[: len(first.computed) // 2]
    for name in first.computed[len(kept) :]:
        (tmp_path / f"{name}.pkl").unlink()
    assert finished_units(tmp_path) == sorted(kept)
    with units_in(tmp_path) as third:
        r3 = EXPERIMENT.run(smoke(), 0)
    assert third.reused == kept and third.computed == first.computed[len(kept) :]
    assert same(r3.metrics, plain.metrics) and r3.tables == plain.tables


def test_runner_smoke_run_has_the_plain_metrics(plain, tmp_path):
    record = run_experiment("collocation_sampler", "smoke", [0], out=tmp_path)
    assert record.error is None and record.status == "finished"
    assert same(record.metrics, plain.metrics)
    assert not (record.directory / "units" / "seed_0").exists()  # a finished seed is stored whole


def test_cost_estimate_matches_the_documented_times():
    seconds, memory = cost(dict(EXPERIMENT.profiles["quick"]))
    assert QUICK_MEASURED_S / 3 <= seconds <= QUICK_MEASURED_S * 3
    assert QUICK_COMMAND_S / 3 <= seconds <= QUICK_COMMAND_S * 3
    assert 1e8 < memory < 2**31
    paper, _ = cost(dict(EXPERIMENT.profiles["paper"]))
    assert PAPER_MEASURED_S / 3 <= paper <= PAPER_MEASURED_S * 3
    assert cost(smoke())[0] < seconds < paper


ABSURD = {
    "n_samples": 16 * 10**6,
    "n_components": 8 * 10**6,
    "dims": [2, 256 * 10**6],
    "degrees": [4, 16 * 10**6],
    "rk_steps": [128 * 10**6],
    "depth_windows": 17 * 10**6,
    "spectral_windows": 9 * 10**6,
    "diffusers_steps": [100 * 10**6],
    "sigmas": [0.15e-6],
    "dpm_ladder_steps": [10**9],
    "unipc_ladder_steps": [10**9],
    "aniso_dims": [2, 10**5],
    "theorem_sigmas": [0.6, 0.3e-6],
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
        seen.append(config["n_samples"])
        return Result(metrics={}, blocked={c.name: "not run (a stand-in)" for c in EXPERIMENT.claims})

    fake = dataclasses.replace(EXPERIMENT, schema=None, run=fake_run)
    overrides = {"n_samples": ABSURD["n_samples"]}
    with pytest.raises(ValueError, match="--force"):
        run_experiment(fake, "quick", [0], overrides=overrides, out=tmp_path)
    run_experiment(fake, "quick", [0], overrides=overrides, out=tmp_path, force=True)
    assert seen == [ABSURD["n_samples"]]


def test_every_baseline_control_and_context_has_a_display_name():
    for claim in EXPERIMENT.claims:
        for key in (*claim.relative_to, *claim.controls, *claim.context, *claim.shown):
            assert EXPERIMENT.names.get(key, key) != key, (claim.name, key)


def test_statements_name_the_config_that_ran():
    claims = {c.name: c for c in EXPERIMENT.claims}
    quick, smoke_cfg = EXPERIMENT.profiles["quick"], EXPERIMENT.profiles["smoke"]
    assert "over d=2, 16, 64, 256" in claims["dimension_free_error"].describe(quick)
    assert "over d=2, 8" in claims["dimension_free_error"].describe(smoke_cfg)
    assert "W=17 and D=6" in claims["dimension_free_rounds"].describe(quick)
    assert "W=9 and D=6" in claims["dimension_free_rounds"].describe(smoke_cfg)
    assert "D=4, 6, 8)" in claims["spectral_in_degree"].describe(smoke_cfg)
    assert claims["spectral_in_degree"].unit == "decades/node"
    assert all(claims[n].unit == "×" for n in claims if n.startswith("dimension_free"))


def test_plots_name_their_claims_and_rule(plain):
    claims = {c.name: c for c in EXPERIMENT.claims}
    plots = {p.name: p for p in plain.plots}
    assert all(p.claim in claims for p in plots.values() if p.claim)
    assert plots["error_vs_degree"].claim == "spectral_in_degree"
    assert plots["error_vs_score_error"].claim == "score_error_linear"
    rounds = plots["error_vs_rounds"]
    assert rounds.claim == "high_accuracy_depth"
    assert list(rounds.lines.values()) == [claims["high_accuracy_depth"].threshold]
