"""The experiment contract: the smoke run's structure, sanity of its figures, and its verdicts."""

import math

import pytest

from icml26.common import verdict
from icml26.deepwalk_dynamics.experiment import EXPERIMENT, ks_snr


@pytest.fixture(scope="module")
def smoke():
    return EXPERIMENT.run(dict(EXPERIMENT.profiles["smoke"]), 0)


def test_smoke_measures_every_claim(smoke):
    for c in EXPERIMENT.claims:
        for key in (c.metric, *c.relative_to, *c.controls, *c.context, *c.shown):
            assert key in smoke.metrics, (c.name, key)
    assert {"trajectories", "grid"} <= set(smoke.tables)
    assert smoke.plots and all(p.series for p in smoke.plots)


def test_smoke_figures(smoke):
    m = smoke.metrics
    assert m["pop_peak_align_1e-04"] > 0.99 and m["pop_peak_align_1e+00"] < 0.6
    assert m["pop_linear_error_window"] < 0.05 and m["pop_window_snapshots"] >= 1
    assert m["pop_trivial_at_peak"] < 0.01
    assert m["cliques_eig_ratio"] == pytest.approx(50, rel=0.01) and m["cliques_ari"] == 1.0
    assert m["sgd_pairs_per_s"] > 0 and m["gensim_pairs_per_s"] > 0
    assert 0 <= m["spectral_ari"] <= 1 and math.isfinite(m["netmf_ari"])
    v = {c.name: verdict(c, m, smoke.blocked, "smoke") for c in EXPERIMENT.claims}
    assert v["cliques_eigen_ratio"].verdict == "toy-verified"
    assert v["peak_alignment_099"].verdict == "toy-verified"
    assert not v["peak_alignment_099"].non_discriminating  # the init-1.0 control fails the rule


def test_history_is_on_record():
    """The SGNS alignment test is a paper test again, its move to a check (after a refutation) a Revision;
    the worst-sample originals of two checks live in their Revisions with their verdict then."""
    tests = {c.name: c for c in EXPERIMENT.claims}
    sgns = tests["sgns_aligns_from_small_init"]
    assert sgns.kind == "paper" and sgns.supports == "embeddings_align"
    assert [r.verdict for r in sgns.revisions] == ["refuted", "refuted", "refuted"]
    assert "kind check" in sgns.revisions[1].old
    # the step-size condition stated after the default-step refutation (issue #45, second pass)
    assert "0.025" in sgns.revisions[2].old and sgns.metric == "sgd_fine_peak_align_1e-04"
    assert ("fine_step_size", "<=", 0.005) in sgns.requires
    assert tests["sgns_aligns_default_step"].metric == "sgd_peak_align_1e-04"
    # the per-update variance ratio cannot fail: a check, its paper verdict kept; the SGNS-vs-population
    # comparison tests the PaperClaim instead, with the small-step arm as its control
    var, gap = tests["sgns_update_variance"], tests["sgns_matches_population"]
    assert var.kind == "check" and var.revisions[0].verdict == "toy-verified"
    assert gap.kind == "paper" and gap.supports == "updates_high_variance"
    assert gap.controls == ("sgd_fine_peak_align_1e-04",) and gap.revisions[0].verdict == "refuted"
    for name in ("linearisation", "trivial_direction"):
        assert (
            tests[name].revisions[0].verdict == "verified" and "worst sample" in tests[name].revisions[0].old
        )
        assert f"{name}_worst_sample" not in tests


def test_ks_snr():
    assert ks_snr(3, 100, 0.10, 0.02) == pytest.approx(300 * 0.08**2 / (3 * 0.14))


def test_every_paper_claim_is_judged_on_sgns():
    """Each PaperClaim has a paper test measured on the stochastic SGNS engine (metric sgd_*, separated_sgd_*
    or karate_sgd_*), besides the population-GD tests (the expected dynamics)."""
    sgns = {
        c.supports
        for c in EXPERIMENT.claims
        if c.kind == "paper" and c.metric.startswith(("sgd_", "separated_sgd_", "karate_sgd_"))
    }
    assert sgns == {p.id for p in EXPERIMENT.paper_claims}
