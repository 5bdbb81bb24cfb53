"""The experiment's smoke run: every declared metric of the smoke targets, the contract declarations."""

from __future__ import annotations

import math

import pytest

from icml26.flow_sampling.experiment import EXPERIMENT, cost


@pytest.fixture(scope="module")
def smoke_result():
    return EXPERIMENT.run(dict(EXPERIMENT.profiles["smoke"]), 0)


def test_smoke_run_measures_the_smoke_targets_and_blocks_the_infeasible_tests(smoke_result):
    m = smoke_result.metrics
    assert m["fd_max_error"] <= 1e-6 < m["fd_flat_max_error"]
    assert m["max_calls_mismatch"] == 0.0 and m["min_terms_per_gradient"] >= 10
    for key in ("gauss2d_fs_w2", "gauss2d_as_w2", "gauss2d_mala_w2", "gauss2d_ptmala_w2", "vmf_s2_fs_mode_tv",
                "vmf_s2_gl_mode_tv", "vmf_s2_source_mode_tv", "vmf_s2_fs_mmd2_over_p95", "gauss10_drift_rel_mse"):  # fmt: skip
        assert math.isfinite(m[key]), key
        assert key + "_ci" in m
    blocked = smoke_result.blocked
    assert {"lj55_energy_w2", "conformer_recall", "dw4_energy_w2", "grid9_w2", "h2_mode_tv"} <= set(blocked)
    assert "not in this profile" in blocked["dw4_energy_w2"] and "gauss2d_w2" not in blocked


def test_every_baseline_and_control_has_a_display_name():
    for claim in EXPERIMENT.claims:
        for key in (*claim.relative_to, *claim.controls):
            assert EXPERIMENT.names.get(key, key) != key, (claim.name, key)


def test_cost_estimate_orders_the_profiles():
    s, q, p = (cost(EXPERIMENT.profiles[k])[0] for k in ("smoke", "quick", "paper"))
    assert s < q < p and q < 240


def test_the_cost_model_scales_an_egnn_step_with_particle_pairs():
    """Per optimiser step: DW-4 ~25 ms and LJ-13 ~0.32 s, as the paper record measured (12 and 156
    ordered pairs); the budget is equal so both train 2 x 40,000 steps."""
    cfg = dict(EXPERIMENT.profiles["paper"], seeds=1, ref_budget=0, regression_steps=0, lj13_budget=200_000)
    overhead = cost(dict(cfg, targets=[]))[0]
    per_step = {t: (cost(dict(cfg, targets=[t]))[0] - overhead - 10) / (2 * 40_000) for t in ("dw4", "lj13")}
    assert per_step["dw4"] == pytest.approx(0.025, rel=0.1)
    assert per_step["lj13"] == pytest.approx(0.32, rel=0.1)


@pytest.mark.parametrize(
    ("name", "parts"), [("gauss2d", [".as", ".chains", ".fs"]), ("vmf_s2", [".chains", ".fs"])]
)
def test_each_method_of_a_target_is_its_own_resumable_unit(tmp_path, name, parts):
    from icml26.common.checkpoint import _pack, finished_units, read_unit, units_in, write_atomic
    from icml26.flow_sampling.energies import make_target
    from icml26.flow_sampling.experiment import reference, run_target

    cfg = dict(EXPERIMENT.profiles["smoke"], n_eval=100, curve_points=2)
    ref = reference(name, make_target(name), cfg)
    with units_in(tmp_path):
        first = run_target(name, cfg, 3, ref)
    assert finished_units(tmp_path) == [f"{name}_seed=3{p}" for p in parts]
    assert list(first["metrics"])[:2] == ["fs", "untrained"]
    # a stored part is read back, not recomputed: mark the chains part and resume
    path = tmp_path / f"{name}_seed=3.chains.pkl"
    value, states = read_unit(path)
    key = next(iter(value["metrics"]))
    value["metrics"][key] = {"marked": 1.0}
    write_atomic(path, _pack((value, states)))
    with units_in(tmp_path):
        again = run_target(name, cfg, 3, ref)
    assert again["metrics"][key] == {"marked": 1.0}
    for meth in first["metrics"]:
        if meth != key:
            assert again["metrics"][meth] == first["metrics"][meth], meth
    assert again["curves"] == first["curves"] and again["accounting"] == first["accounting"]
    # without a store every part is computed afresh, equal to the first run
    assert run_target(name, cfg, 3, ref)["metrics"] == first["metrics"]
