"""The experiment contract: a smoke run measures every claim's metrics, and config validation."""

import math

import pytest

from icml26.common import verdict
from icml26.deep_flow_networks.experiment import EXPERIMENT, _check


@pytest.fixture(scope="module")
def smoke():
    return EXPERIMENT.run(dict(EXPERIMENT.profiles["smoke"]), 0)


def test_smoke_measures_every_claim(smoke):
    for c in EXPERIMENT.claims:
        if c.name in smoke.blocked:
            continue
        for key in (c.metric, *c.relative_to, *c.controls, *c.context, *c.shown):
            assert key in smoke.metrics, (c.name, key)
    assert set(smoke.blocked) == {"resource_allocation_row", "mdvsp_row", "lset_baseline"}


def test_smoke_sanity(smoke):
    m = smoke.metrics
    assert m["gadget_max_error"] < 1e-9 < m["gadget_wrong_costs_max_error"]
    assert m["convexity_violations"] == 0 and m["dfns_checked"] == 6
    assert m["lp_fractionality_identity"] <= 1e-7 < m["lp_fractionality_perturbed"]  # the control can fail
    assert m["batched_vs_linprog_value_gap"] < 1e-6
    assert m["dfn_quality"] >= 1.0 and m["mlp_quality"] >= 1.0  # the best known minimum is below every argmin
    assert all(math.isfinite(r["log_sqrt_det"]) for r in smoke.tables["e5_schedule"])
    dets = [r["log_sqrt_det"] for r in smoke.tables["e5_schedule"]]
    assert dets[0] == 0.0 and dets == sorted(dets) and dets[-1] > 0  # the schedule moves away from identity
    v = {c.name: verdict(c, m, smoke.blocked, "smoke") for c in EXPERIMENT.claims}
    assert v["gadgets_exact"].verdict == "toy-verified" and not v["gadgets_exact"].non_discriminating
    assert v["mdvsp_row"].verdict == "blocked"


def test_check_rejects_bad_configs():
    cfg = dict(EXPERIMENT.profiles["smoke"])
    with pytest.raises(ValueError, match="quad_epochs"):
        _check({**cfg, "quad_epochs": 0})
    with pytest.raises(ValueError, match="first layer"):
        _check({**cfg, "quad_layers": [1, 4, 1]})
    for key, value in (
        ("lr", float("nan")),
        ("lr", -1.0),
        ("lr_baselines", 0.0),
        ("milp_time_limit", 0.0),
        ("det_step", float("inf")),
        ("quad_box", -3),
        ("gadget_range", 0),
        ("mconvex_hidden", 0),
        ("maxaffine_pieces", 0),
        ("convexity_pairs", 0),
        ("grid_layers", []),
        ("mconvex_layers", [2, 0, 2]),
        ("quad_dim", True),
    ):
        with pytest.raises(ValueError, match=key):
            _check({**cfg, key: value})
    with pytest.raises(ValueError, match="budget"):
        _check({**cfg, "quad_dim": 2, "quad_box": 5, "quad_layers": [2, 4, 2]})
    _check(dict(EXPERIMENT.profiles["quick"]))
    _check(dict(EXPERIMENT.profiles["paper"]))


def test_identities_are_checks_with_their_history():
    """The construction's identities cannot fail, so they are checks; their paper verdict is a Revision."""
    tests = {c.name: c for c in EXPERIMENT.claims}
    for name in ("gadgets_exact", "convex_by_construction", "e4_lp_integral"):
        assert tests[name].kind == "check" and not tests[name].supports, name
        assert [(r.old, r.verdict) for r in tests[name].revisions] == [("kind paper", "verified")], name
    assert "batched_solver_faster" not in tests  # the one-timing original lives in the paired test's history
    assert tests["batched_solver_faster_paired"].revisions[0].verdict == "inconclusive"
