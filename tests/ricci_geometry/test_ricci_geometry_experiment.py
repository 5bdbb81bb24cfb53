"""The experiment at the smoke profile: structure, sanity of every metric, and config checks."""

import math

import pytest

from icml26.common import comparison_key, verdict
from icml26.ricci_geometry.experiment import EXPERIMENT
from icml26.ricci_geometry.studies import _share_ci, _store_paired

CLAIMS = {c.name: c for c in EXPERIMENT.claims}


@pytest.fixture(scope="module")
def smoke():
    return EXPERIMENT.run(dict(EXPERIMENT.profiles["smoke"]), 0)


def test_every_claim_is_measured(smoke):
    for claim in (c for c in EXPERIMENT.claims if not c.stored):  # stored originals are not re-measured
        for key in (claim.metric, *claim.relative_to, *claim.controls, *claim.context, *claim.shown):
            assert key in smoke.metrics, (claim.name, key)
        assert math.isfinite(smoke.metrics[claim.metric]), claim.name
        v = verdict(claim, smoke.metrics, smoke.blocked, "smoke")
        assert v.verdict in {"toy-verified", "refuted", "inconclusive"}, (
            claim.name,
            v,
        )  # smoke never verifies
        assert "not measured" not in v.reason and "not finite" not in v.reason, (claim.name, v.reason)


def test_claims_under_contract_v2():
    """Kinds, scales and rules; the pre-registered settings keep the primary names and their own verdicts."""
    paper = {c.name for c in EXPERIMENT.claims if c.kind == "paper"}
    assert paper == {
        "syn1_local_paper",
        "syn1_share_paper",
        "syn1_untrained_near_zero_paper",
        "syn1_trained_below_untrained",
        "mnist_local_paper",
        "mnist_share_paper",
        "mnist_local_paper_k25",
        "mnist_share_paper_k25",
        "lrc_bottoms_out_at_saturation",
        "deeper_more_negative",
        "grid_deeper_more_negative",
        "late_layers_lose_negativity",
        "modularity_rises_paper",
        "linear_keeps_knn_graph",
        "relu_rewires",
        "thm31_keeps_knn_lists",
    }
    assert all(c.scale == "proxy" and c.scale_note for c in EXPERIMENT.claims)
    assert not any(c.deterministic or c.stored for c in EXPERIMENT.claims)  # everything is re-measured
    for c in EXPERIMENT.claims:
        if c.kind == "paper" and not c.relative_to:
            assert c.controls, c.name
    # The project's thresholds stay as checks; the paper's bars sit beside them, in the same direction.
    for check, paper_claim in (
        ("syn1_local_negative", "syn1_local_paper"),
        ("syn1_share_negative", "syn1_share_paper"),
        ("syn1_untrained_near_zero", "syn1_untrained_near_zero_paper"),
        ("syn1_trained_gap", "syn1_trained_below_untrained"),
        ("mnist_local_negative", "mnist_local_paper"),
        ("mnist_share_negative", "mnist_share_paper"),
        ("mnist_local_negative_k25", "mnist_local_paper_k25"),
        ("modularity_rises", "modularity_rises_paper"),
    ):
        a, b = CLAIMS[check], CLAIMS[paper_claim]
        assert a.kind == "check" and (a.metric, a.relative_to) == (b.metric, b.relative_to)
        assert a.op[0] == b.op[0]
    assert CLAIMS["vectorised_faster"].kind == "check"
    # Comparisons are first-class: ours vs the baseline, in the ours/baseline direction.
    assert CLAIMS["relu_rewires"].rule == "relu_edge_jaccard - strongest(identity_edge_jaccard) < 0"
    assert (
        CLAIMS["deeper_more_negative"].rule == "syn1_deep_local_mean - strongest(syn1_trained_local_mean) < 0"
    )
    assert (
        CLAIMS["vectorised_faster"].rule == "vectorised_seconds_per_net / strongest(loop_seconds_per_net) < 1"
    )
    assert CLAIMS["lrc_bottoms_out_at_saturation"].rule == (
        "tracking_lrc_bottom_epoch - strongest(tracking_acc_saturation_epoch) in [-10, 10]"
    )
    # Untrained nets: two-sided bands; the one-sided originals are their Revisions (one test per value).
    for name in ("syn1_untrained_near_zero", "syn1_untrained_near_zero_paper", "mnist_untrained_near_zero"):
        assert (CLAIMS[name].op, CLAIMS[name].threshold) == ("in", (-0.10, 0.10)), name
    for name in ("syn1_untrained_near_zero", "syn1_untrained_near_zero_paper"):
        (rev,) = CLAIMS[name].revisions
        assert rev.verdict == "toy-verified" and rev.old.startswith("one-sided"), name
    assert "syn1_untrained_flat" not in CLAIMS and "syn1_untrained_flat_paper" not in CLAIMS
    assert "syn1_untrained_global" in CLAIMS["syn1_untrained_near_zero_paper"].controls
    # MNIST: the pre-registered k = 50 claims keep the primary names; k = real_k is the marked sensitivity.
    for name in ("mnist_local_negative", "mnist_share_negative", "mnist_local_paper", "mnist_share_paper"):
        original, sensitivity = CLAIMS[name], CLAIMS[name + "_k25"]
        assert original.metric.endswith("_syn1_k") and not original.revisions
        assert sensitivity.metric + "_syn1_k" == original.metric
        (rev,) = sensitivity.revisions
        assert rev.old.startswith("k = 50") and name in rev.old
        assert (original.op, original.threshold, original.kind) == (
            sensitivity.op,
            sensitivity.threshold,
            sensitivity.kind,
        )
        assert "half the size" in original.scale_note
    # The circles-MLP settings of the linear control are Revisions, their values shown as context.
    assert [r.verdict for r in CLAIMS["relu_rewires"].revisions] == ["inconclusive"]
    assert [r.verdict for r in CLAIMS["linear_preserves_knn"].revisions] == ["toy-verified"]
    assert {"relu_edge_jaccard_mlp", "identity_edge_jaccard_mlp"} <= set(CLAIMS["relu_rewires"].context)
    assert CLAIMS["linear_keeps_knn_graph"].requires == (("linear_width", ">=", 40000),)
    # Thm 3.1 as stated: judged at the bound 1 - delta, with a ReLU and a too-narrow linear control.
    thm = CLAIMS["thm31_keeps_knn_lists"]
    assert (thm.op, thm.threshold) == (">=", 0.90)
    assert set(thm.controls) == {"thm31_relu_share_at_width", "thm31_identity_share_narrow"}


def test_metrics_are_sane(smoke):
    m = smoke.metrics
    for key in ("syn1_trained_local_mean", "syn1_untrained_local_mean", "mnist_trained_local_mean"):
        assert -1.0 <= m[key] <= 1.0
    for key in ("syn1_trained_negative_share", "identity_edge_jaccard", "relu_edge_jaccard"):
        assert 0.0 <= m[key] <= 1.0
    assert m["loop_vs_vectorised_max_abs_diff"] < 1e-9  # the loop reference agrees with the fast path
    for gone in (
        "syn1_untrained_minus_trained",
        "syn1_deep_minus_shallow",
        "identity_minus_relu_jaccard",
        "loop_over_vectorised",
    ):
        assert gone not in m
    # Smoke uses k == real_k, so the pre-registered (k = Syn-I k) MNIST metrics equal the sensitivity's.
    assert m["mnist_trained_negative_share_syn1_k"] == pytest.approx(m["mnist_trained_negative_share"])
    assert m["mnist_untrained_local_mean_syn1_k"] == pytest.approx(m["mnist_untrained_local_mean"])
    # Thm 3.1: the sweep ends at the theorem's width, where the bound is 1 - delta; ReLU is not covered.
    rows = smoke.tables["thm31_width_sweep"]
    assert rows[-1]["width"] == math.ceil(m["thm31_theorem_width"]) and rows[-1]["bound"] >= 0.9
    assert all(r["bound"] == 0.0 for r in rows[:-1])  # below about 0.77 m_thm the bound is vacuous
    assert 2.5e4 < m["thm31_theorem_width"] < 2.7e4
    assert m["thm31_identity_share_at_width"] >= 0.9 and m["thm31_relu_share_at_width"] <= 0.5
    # Training time: epochs lie on the tracking grid; network count as configured.
    for key in ("tracking_lrc_bottom_epoch", "tracking_acc_saturation_epoch"):
        assert 0.0 <= m[key] <= 10.0
    assert m["networks_trained"] == 2 * 2 + 2 + 1 + 2 + 1


def test_intervals(smoke):
    """Every claim with more than one network or draw behind it gets its 95% interval; the paired
    intervals of comparisons bracket the measured difference; one timing has none."""
    m = smoke.metrics
    for name in (
        "syn1_trained_below_untrained",
        "deeper_more_negative",
        "relu_rewires",
        "late_layers_lose_negativity",
        "lrc_bottoms_out_at_saturation",
    ):
        c = CLAIMS[name]
        key = comparison_key(c.metric, c.relative_to[0], c.form)
        low, high = m[key + "_ci_low"], m[key + "_ci_high"]
        assert (
            low <= m[c.metric] - m[c.relative_to[0]] + 1e-12
            and m[c.metric] - m[c.relative_to[0]] <= high + 1e-12
        )
        v = verdict(c, m, {}, "smoke")
        assert v.interval == (low, high) and v.baseline == c.relative_to[0]
    for name in (
        "syn1_local_paper",
        "syn1_share_paper",
        "modularity_rises_paper",
        "linear_keeps_knn_graph",
        "thm31_keeps_knn_lists",
        "syn1_untrained_near_zero_paper",
    ):
        assert verdict(CLAIMS[name], m, {}, "smoke").interval is not None, name
    low, high = m["identity_same_knn_share_ci_low"], m["identity_same_knn_share_ci_high"]
    assert 0.0 <= low <= m["identity_same_knn_share"] <= high <= 1.0
    # Smoke trains one MNIST network and times once: those claims say "no interval", never pass.
    for name in (
        "mnist_share_paper",
        "mnist_local_negative_k25",
        "vectorised_faster",
        "grid_deeper_more_negative",
    ):
        v = verdict(CLAIMS[name], m, {}, "smoke")
        assert v.verdict == "inconclusive" and "no interval" in v.reason, name


def test_interval_helpers():
    low, high = _share_ci([True] * 4)
    assert high == 1.0 and low == pytest.approx(0.025**0.25)  # Clopper-Pearson, all hits
    low, high = _share_ci([False] * 10)
    assert low == 0.0 and high == pytest.approx(1 - 0.025**0.1)
    assert all(math.isnan(x) for x in _share_ci([]))
    metrics = {}
    _store_paired(metrics, "a", "b", [(1.0, 0.0), (2.0, 0.0), (3.0, 1.0), (float("nan"), 0.0)])
    key = comparison_key("a", "b", "difference")
    # differences 1, 2, 2: mean 5/3, t(0.975, 2) * sd / sqrt(3)
    half = 4.302652729911275 * (1 / 3) ** 0.5 / 3**0.5
    assert metrics[key + "_ci_low"] == pytest.approx(5 / 3 - half)
    assert metrics[key + "_ci_high"] == pytest.approx(5 / 3 + half)
    _store_paired(metrics, "a", "b", [(1.0, 0.0)])
    assert math.isnan(metrics[key + "_ci_low"]) and math.isnan(metrics[key + "_ci_high"])


def test_tables_and_plots(smoke):
    rows = smoke.tables["per_network"]
    assert {r["dataset"] for r in rows} == {"syn1", "mnist"}
    assert {r["trained"] for r in rows} == {True, False}
    assert smoke.tables["grid"] and smoke.tables["grid"][0]["dataset"] == "syn3"
    assert smoke.tables["community"] and smoke.tables["linear_control"] and smoke.tables["training_time"]
    assert {p.name for p in smoke.plots} >= {"modularity", "training_time", "thm31_width_sweep"}
    assert len(smoke.tables["linear_mlp_original"]) == 2  # one per Syn-I data seed


def test_thm31_blocked_past_the_memory_cap():
    cfg = dict(EXPERIMENT.profiles["smoke"], seeds=1, deep_depth=8, timing_n=0, thm31_max_width=1000)
    result = EXPERIMENT.run(cfg, 0)
    assert "26,1" in result.blocked["thm31_keeps_knn_lists"]  # the width it needs
    assert (
        verdict(CLAIMS["thm31_keeps_knn_lists"], result.metrics, result.blocked, "smoke").verdict == "blocked"
    )


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
    with pytest.raises(ValueError, match="thm31_radius must lie in"):
        EXPERIMENT.check(dict(EXPERIMENT.profiles["smoke"], thm31_radius=0.5))
    with pytest.raises(ValueError, match="track_seeds must be >= 1"):
        EXPERIMENT.check(dict(EXPERIMENT.profiles["smoke"], track_seeds=0))
    with pytest.raises(ValueError, match="grid_widths must be"):
        EXPERIMENT.check(dict(EXPERIMENT.profiles["smoke"], grid_widths="25,wide"))
    for profile in EXPERIMENT.profiles.values():
        EXPERIMENT.check(dict(profile))
