"""The experiment contract: smoke run, structure, sanity, and config validation."""

import math

import numpy as np
import pytest

from icml26.bad_triangles import binding_instances
from icml26.bad_triangles.experiment import EXPERIMENT
from icml26.bad_triangles.instances import _ratio
from icml26.bad_triangles.studies import _proportion_ci, _runtime_metrics, _runtime_size
from icml26.common import comparison_key, verdict


@pytest.fixture(scope="module")
def smoke_result():
    return EXPERIMENT.run(dict(EXPERIMENT.profiles["smoke"]), 0)


def test_smoke_run_structure(smoke_result):
    r = smoke_result
    for claim in EXPERIMENT.claims:
        assert claim.metric in r.metrics, claim.name
        for b in (*claim.relative_to, *claim.controls, *claim.context, *claim.shown):
            assert b in r.metrics, (claim.name, b)
    assert set(r.tables) == {"summary", "per_instance", "runtime", "real", "binding"}
    assert len(r.tables["runtime"]) == EXPERIMENT.profiles["smoke"]["runtime_graphs"]
    assert len(r.tables["per_instance"]) == EXPERIMENT.profiles["smoke"]["n_random"]
    assert r.tables["real"][0]["network"] == "highland_tribes"
    assert r.plots and r.plots[0].series


def test_smoke_run_sanity(smoke_result):
    m = smoke_result.metrics
    assert m["infeasible_sets"] == 0 and m["sets_checked"] > 50
    assert 1.0 <= m["max_cost_over_lp"] <= 2.0  # guarantee, rounded to 1e-9
    assert 1.0 <= m["support_max_cost_over_lp"] <= 2.0 and m["krivelevich_max_cost_over_lp"] <= 2.0
    assert m["two_approx_algorithms_within_2"] == 2.0
    assert m["packing_max_cost_over_lp"] <= 3.0 and m["third_max_cost_over_lp"] <= 3.0
    assert m["max_cost_over_eps_lp"] <= 2.0
    assert 1.0 <= m["mean_cost_over_opt"] < m["packing_mean_cost_over_opt"]
    assert m["max_btt_over_cc"] <= 1.0 and m["sparse_max_btt_over_cc"] <= 1.0
    assert m["budget_pivot_max_ratio"] <= 1.5 and m["budget_transversals_tested"] > 0
    assert m["adversarial_restarts_done"] >= 1 and m["adversarial_best_budget_ratio"] <= 1.5
    assert math.isfinite(m["scale_runtime_s"]) and m["scale_cost_over_lb"] >= 1.0 - 1e-9
    assert m["packing_max_cost_over_eps_lp"] <= m["packing_max_cost_over_lp"] + 1e-9
    assert m["scale_packing_cost_over_eps_lb"] < m["scale_packing_cost_over_lb"]
    assert m["frac_below_packing_ci_low"] <= m["frac_below_packing"] <= m["frac_below_packing_ci_high"]
    assert m["rt_graphs"] == 2 and m["rt_krivelevich_s"] > 0
    key = comparison_key("rt_support_s", "rt_krivelevich_s", "ratio")
    assert m[key + "_ci_low"] <= m[key + "_ci_high"]
    # smoke skips the recursive Krivelevich (runtime_recursive_edges_max = 0): no timing, no verdict
    assert m["rt_recursive_graphs"] == 0 and math.isnan(m["rt_krivelevich_recursive_s"])
    verdicts = {c.name: verdict(c, m, smoke_result.blocked, "smoke") for c in EXPERIMENT.claims}
    assert verdicts["transversal"].verdict == "toy-verified"  # exact scale, but a smoke run never verifies
    two = verdicts["two_approx_lp"]
    assert two.verdict == "toy-verified" and two.controls["packing_max_cost_over_lp"] == pytest.approx(3.0)
    assert verdicts["several_two_approx"].verdict == "toy-verified"
    assert verdicts["budget_pivot_three_halves"].verdict == "toy-verified"
    # 4 random graphs in smoke: the exact binomial interval of "below packing" cannot clear 95%
    assert m["frac_below_packing"] == 1.0 and verdicts["below_packing"].verdict == "inconclusive"
    assert "interval" in verdicts["below_packing"].reason
    # one timing has no interval
    assert verdicts["fast_path_runtime"].verdict == "inconclusive"
    assert "no interval" in verdicts["fast_path_runtime"].reason
    if not binding_instances():
        assert verdicts["cc_le_three_halves_binding"].verdict == "blocked"


def test_claim_kinds_and_controls():
    claims = {c.name: c for c in EXPERIMENT.claims}
    paper = {n for n, c in claims.items() if c.kind == "paper"}
    assert paper == {
        "several_two_approx",
        "two_approx_lp",
        "two_approx_support",
        "two_approx_weighted",
        "two_approx_eps",
        "budget_pivot_three_halves",
        "adversarial_pivot",
        "cc_le_three_halves_binding",
        "binding_pivot",
        "fast_path_bound",
    }
    for name in paper:  # absolute, with a control each
        assert not claims[name].relative_to and claims[name].controls, name
        assert claims[name].scale == "exact", name
    for name in ("v1_faster_support", "v1_faster_threshold"):  # v1's comparator: recursive Krivelevich
        c = claims[name]
        assert c.kind == "check" and c.relative_to == ("rt_krivelevich_recursive_s",) and "v1" in c.statement
        # history as data: the batch comparator (the original setting), then the kind change
        assert [r.verdict for r in c.revisions] == ["inconclusive", "toy-verified"]
        assert "batch" in c.revisions[0].old and c.revisions[1].old == "kind paper"
        assert "rt_krivelevich_s" in c.context  # the batch variant shown beside the claim
        assert name + "_batch" not in claims
    first = claims["adversarial_pivot"].revisions[0]
    assert "150 restarts" in first.old and "adversarial_pivot_first" not in claims
    assert "adversarial_best_min_ratio" in claims["adversarial_pivot"].controls
    identities = ("transversal", "btt_le_cc", "btt_le_cc_sparse", "cc_le_three_halves_btt")
    targets = ("mean_cost_over_opt", "below_packing", "fast_path_runtime", "pivot_three_halves")
    for name in (*identities, *targets, "krivelevich_factor", "minstc_two_approx"):
        assert claims[name].kind == "check", name
    assert [c.name for c in EXPERIMENT.claims if c.deterministic] == ["minstc_two_approx"]
    assert all(c.scale in ("exact", "proxy") for c in EXPERIMENT.claims)  # no claim at the paper's scale


def test_ratio_of_costs():
    """cost / LP rounded to 1e-9; nothing to hit (both 0) is ratio 1, a cost over a zero bound is inf."""
    assert _ratio(0.0, 0.0) == 1.0 and _ratio(2.0, 0.0) == float("inf")
    assert _ratio(3.0, 2.0) == 1.5 and _ratio(1.0, 3.0) == 0.333333333


def test_proportion_ci_is_clopper_pearson():
    low, high = _proportion_ci([1.0] * 60)
    assert high == 1.0 and low == pytest.approx(0.025 ** (1 / 60))
    low, high = _proportion_ci([1.0] * 59 + [0.0])
    assert low < 59 / 60 < high < 1.0 and low < 0.95  # 59/60 does not clear 95% at 95% confidence
    assert all(math.isnan(v) for v in _proportion_ci([]))


def test_minstc_claim_is_seed_independent():
    cfg = {
        **EXPERIMENT.profiles["smoke"],
        "atlas_stride": 120,
        "n_random": 1,
        "n_complete": 0,
        "runtime_graphs": 1,
    }
    a = EXPERIMENT.run(dict(cfg), 0).metrics
    b = EXPERIMENT.run(dict(cfg), 1).metrics
    assert a["minstc_max_cost_over_lp"] == b["minstc_max_cost_over_lp"]


def test_same_seed_same_metrics():
    cfg = {**EXPERIMENT.profiles["smoke"], "atlas_stride": 200, "n_complete": 1, "runtime_graphs": 1}
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
        ({"runtime_edges_max": 500}, "runtime_edges_max must be >= 1000"),
        ({"adversarial_seconds": 0.0}, "adversarial_seconds"),
        ({"binding_instances": -1}, "binding_instances"),
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


def test_runtime_times_the_recursive_krivelevich_on_small_sizes():
    """v1's comparator (one edge per LP solve) is timed on the same graphs as Algorithms 2-3, paired."""
    cfg = {**EXPERIMENT.profiles["smoke"], "runtime_recursive_edges_max": 1000}
    tally, rows = _runtime_size(1000, cfg, np.random.default_rng(0))
    assert len(rows) == 2
    for row in rows:
        assert row["krivelevich_recursive LP solves"] > row["krivelevich LP solves"]
        assert 1.0 - 1e-9 <= row["krivelevich_recursive cost/LP"] <= 2.0 + 1e-9
    m = _runtime_metrics(tally)
    assert m["rt_recursive_graphs"] == 2
    ours = m["rt_support_vs_recursive_s"]
    assert ours == pytest.approx(np.mean([r["t_support_s"] for r in rows]), abs=1e-3)
    key = comparison_key("rt_support_vs_recursive_s", "rt_krivelevich_recursive_s", "ratio")
    assert m[key + "_ci_low"] <= ours / m["rt_krivelevich_recursive_s"] <= m[key + "_ci_high"]
    skipped, rows = _runtime_size(3000, {**cfg, "runtime_graphs": 1}, np.random.default_rng(0))
    assert "t_krivelevich_recursive_s" not in rows[0]  # above the cap: batch variant only
    assert "rt_krivelevich_recursive_s" not in skipped.values
