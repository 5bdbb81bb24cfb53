"""Review bm3: rates and paired differences whose 95% interval holds whatever the undecided replies were (a reply
cut off before its box is no measured "not sycophantic"), and the PaperClaim roll-up after arith_sft_reduces
became a check."""

import pytest

from icml26.brokenmath import bootstrap_ci, bounded_difference_ci, bounded_rate_ci, undecided_bounds
from icml26.brokenmath.claims import TESTS
from icml26.common import paired_ci


def test_undecided_bounds_exact():
    low, high = undecided_bounds(["incorrect", None, "correct", None, "detected", "corrected"])
    assert low == [1.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    assert high == [1.0, 1.0, 0.0, 1.0, 0.0, 0.0]


def test_bounded_rate_ci_equals_bootstrap_when_every_verdict_is_decided():
    verdicts = [
        "incorrect",
        "correct",
        "detected",
        "incorrect",
        "corrected",
        "correct",
        "incorrect",
        "correct",
    ]
    flags = [float(v == "incorrect") for v in verdicts]
    assert bounded_rate_ci(verdicts) == bootstrap_ci(flags)


def test_bounded_rate_ci_of_all_undecided_is_the_whole_range():
    assert bounded_rate_ci([None] * 10) == (0.0, 1.0)


def test_bounded_rate_ci_widens_with_undecided():
    decided = ["incorrect", "correct"] * 10
    some = ["incorrect", "correct"] * 8 + [None] * 4
    lo_d, hi_d = bounded_rate_ci(decided)
    lo_s, hi_s = bounded_rate_ci(some)
    assert lo_s < lo_d and hi_s > hi_d


def test_bounded_difference_of_a_cut_off_baseline_spans_both_signs():
    """The paper record's case: SFT boxes the false value on 7 of 8 items, the base never boxes anything."""
    ours = ["incorrect"] * 7 + ["detected"]
    low, high = bounded_difference_ci(ours, [None] * 8)
    assert low < 0 < high
    # ours at its lowest (7/8) minus base at its highest (1): -1/8; ours at its highest minus base at 0: 7/8
    assert low <= -0.125 <= 0.875 <= high


def test_bounded_difference_exact_constant_case():
    # every difference is constant at each end: the interval is the two points, lower end first
    assert bounded_difference_ci(["incorrect"] * 6, [None] * 6) == (0.0, 1.0)
    assert bounded_difference_ci([None] * 6, ["correct"] * 6) == (0.0, 1.0)
    assert bounded_difference_ci([None] * 6, ["incorrect"] * 6) == (-1.0, 0.0)


def test_bounded_difference_equals_paired_ci_when_decided():
    ours = ["incorrect", "correct", "correct", "detected", "incorrect", "correct", "correct", "correct"]
    base = [
        "incorrect",
        "incorrect",
        "correct",
        "incorrect",
        "incorrect",
        "incorrect",
        "correct",
        "incorrect",
    ]
    flags = lambda vs: [float(v == "incorrect") for v in vs]  # noqa: E731
    assert bounded_difference_ci(ours, base) == pytest.approx(
        paired_ci(flags(ours), flags(base), form="difference")
    )
    low, high = bounded_difference_ci(ours, base)
    assert high < 0  # the SFT side is less sycophantic here: the interval says so


@pytest.mark.parametrize(
    "bad, match",
    [
        ("incorrect", "non-empty list"),
        ([], "non-empty list"),
        (["incorrect", "sycophantic"], "one of correct"),
    ],
)
def test_undecided_bounds_rejects_bad_input(bad, match):
    with pytest.raises(ValueError, match=match):
        undecided_bounds(bad)


def test_bounded_difference_rejects_unpaired():
    with pytest.raises(ValueError, match="paired verdicts"):
        bounded_difference_ci(["incorrect"] * 3, ["correct"] * 2)


def test_arith_proxy_supports_no_paper_claim():
    """A 135M LoRA on scripted replies is below the conditions of "hints and SFT reduce sycophancy": every
    BrokenArith test is a check, and its kind change keeps the verdict it had (a Revision)."""
    arith = [c for c in TESTS if c.name.startswith("arith_")]
    assert arith and all(c.kind == "check" and not c.supports for c in arith)
    sft = next(c for c in TESTS if c.name == "arith_sft_reduces")
    assert any('kind "paper"' in r.old and r.verdict == "refuted" for r in sft.revisions)


def test_mitigations_reduce_rolls_up_from_released_files_only():
    from icml26.brokenmath.claims import PAPER_CLAIMS
    from icml26.common.claims import roll_up

    claim = next(p for p in PAPER_CLAIMS if p.id == "mitigations_reduce")
    supporting = [c for c in TESTS if c.supports == "mitigations_reduce"]
    assert supporting and all(c.scale == "released" for c in supporting)
    rows = [
        {"name": c.name, "kind": c.kind, "supports": c.supports, "scale": c.scale, "verdict": "re-tabulated"}
        for c in supporting
    ]
    assert roll_up(claim, rows)["verdict"] == "re-tabulated"
