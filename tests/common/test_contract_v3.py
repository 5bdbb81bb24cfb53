"""The verdict contract v3: PaperClaims, their roll-up, declarations, revisions and the lock file."""

import dataclasses

import pytest

from icml26.common import Claim, Experiment, PaperClaim, Result, Revision, verdict
from icml26.common.claims import (
    Background,
    check_declarations,
    conditions_unmet,
    lock_of,
    roll_up,
    unrecorded_changes,
)
from icml26.common.runner import judge

H, V, N, R, U, B, T = "holds", "verified", "nondisc", "refuted", "inconclusive", "blocked", "retab"


def row(name: str, outcome: str, kind: str = "paper") -> dict:
    verdicts = {
        H: ("toy-verified", False),
        V: ("verified", False),
        N: ("toy-verified", True),
        R: ("refuted", False),
        U: ("inconclusive", False),
        B: ("blocked", False),
        T: ("re-tabulated", False),
    }
    v, nd = verdicts[outcome]
    return {"name": name, "supports": "c", "kind": kind, "verdict": v, "non_discriminating": nd}


def claim(quantifier: str, headline: str = "") -> PaperClaim:
    return PaperClaim("c", "the words", quantifier, title="a claim", headline=headline)


# quantifier, the tests' outcomes, the PaperClaim's verdict, holds of measured
ROLL_UP = [
    ("all", [V, V], "verified", (2, 2)),
    ("all", [V, H], "toy-verified", (2, 2)),
    ("all", [H, H, H], "toy-verified", (3, 3)),
    ("all", [H, N], "non-discriminating", (2, 2)),
    ("all", [N, N], "non-discriminating", (2, 2)),
    ("all", [H, R], "refuted", (1, 2)),
    ("all", [R, U], "refuted", (0, 2)),
    ("all", [H, U], "inconclusive", (1, 2)),
    ("all", [N, U], "inconclusive", (1, 2)),
    ("all", [H, B], "toy-verified", (1, 1)),
    ("all", [B, B], "blocked", (0, 0)),
    ("all", [T], "re-tabulated", (0, 0)),
    ("all", [T, H], "toy-verified", (1, 1)),
    ("most", [H, H, R], "toy-verified", (2, 3)),
    ("most", [V, V, H], "verified", (3, 3)),
    ("most", [V, V, R], "verified", (2, 3)),
    ("most", [V, H, R], "toy-verified", (2, 3)),
    ("most", [H, R], "refuted", (1, 2)),
    ("most", [H, R, R], "refuted", (1, 3)),
    ("most", [H, U, R], "inconclusive", (1, 3)),
    ("most", [H, N, R], "non-discriminating", (2, 3)),
    ("most", [U, U, U], "inconclusive", (0, 3)),
    ("most", [R, R, U], "refuted", (0, 3)),
    ("most", [B, H], "toy-verified", (1, 1)),
    ("most", [B], "blocked", (0, 0)),
    ("any", [R, R, H], "toy-verified", (1, 3)),
    ("any", [R, V], "verified", (1, 2)),
    ("any", [R, R], "refuted", (0, 2)),
    ("any", [R, U], "inconclusive", (0, 2)),
    ("any", [R, N], "non-discriminating", (1, 2)),
    ("any", [B, R], "refuted", (0, 1)),
    ("any", [B, B], "blocked", (0, 0)),
    ("any", [T, T], "re-tabulated", (0, 0)),
]


@pytest.mark.parametrize(("quantifier", "outcomes", "expected", "counts"), ROLL_UP)
def test_roll_up_by_quantifier(quantifier, outcomes, expected, counts):
    rows = [row(f"t{i}", o) for i, o in enumerate(outcomes)]
    got = roll_up(claim(quantifier), rows)
    assert got["verdict"] == expected
    assert (got["holds"], got["of"]) == counts


@pytest.mark.parametrize("outcome", [V, H, N, R, U, B, T])
def test_headline_takes_the_named_test_whatever_the_others(outcome):
    expected = {
        V: "verified",
        H: "toy-verified",
        N: "non-discriminating",
        R: "refuted",
        U: "inconclusive",
        B: "blocked",
        T: "re-tabulated",
    }[outcome]
    for others in ([R, R], [V, V], [U]):
        rows = [row("main", outcome)] + [row(f"o{i}", o) for i, o in enumerate(others)]
        got = roll_up(claim("headline", headline="main"), rows)
        assert got["verdict"] == expected, (outcome, others)
        assert got["deciding"] == "main"


def test_a_test_run_outside_its_conditions_counts_for_nothing():
    rows = [row("wide", R, kind="check"), row("ok", H)]
    assert roll_up(claim("all"), rows)["verdict"] == "toy-verified"
    only_outside = roll_up(claim("all"), [row("wide", R, kind="check")])
    assert only_outside["verdict"] == "inconclusive"
    assert "outside its conditions" in only_outside["reason"]


def test_the_deciding_test_is_one_that_decided():
    rows = [row("a", H), row("b", R), row("c", H)]
    assert roll_up(claim("all"), rows)["deciding"] == "b"
    assert roll_up(claim("any"), rows)["deciding"] == "a"
    rows = [row("a", H), row("b", V)]
    assert roll_up(claim("any"), rows)["deciding"] == "b"


def test_review_vocabulary():
    words = {roll_up(claim("any"), [row("a", o)])["review_verdict"] for o in (V, H, R, U, N, B, T)}
    assert words == {"verified", "toy-scale", "falsified", "inconclusive"}


# ---- declarations -----------------------------------------------------------------------------


def make_test(name="t", supports="c", kind="paper", **kw):
    kw.setdefault("controls", ("ctl",))
    return Claim(name, "s", "p", "m", "<=", 1.0, kind=kind, supports=supports, title="a test", **kw)


def experiment(tests, paper_claims=None, method="toy_v3"):
    def run(config, seed):
        return Result()

    profiles = {p: {"n": 3} for p in ("smoke", "quick", "paper")}
    paper_claims = (claim("all"),) if paper_claims is None else paper_claims
    return Experiment(method, "t", "p", run, profiles, tuple(tests), paper_claims=paper_claims)


def test_declarations_are_checked():
    experiment([make_test()])  # fine
    with pytest.raises(ValueError, match="supports 'nope'"):
        experiment([make_test(supports="nope")])
    with pytest.raises(ValueError, match="supports ''"):
        experiment([make_test(supports="")])
    with pytest.raises(ValueError, match="has no test"):
        experiment([make_test()], paper_claims=(claim("all"), PaperClaim("d", "w", "any", title="d")))
    with pytest.raises(ValueError, match="quantifier 'some'"):
        PaperClaim("c", "w", "some", title="x")
    with pytest.raises(ValueError, match="headline 'x' is not one of its tests"):
        experiment([make_test()], paper_claims=(claim("headline", headline="x"),))
    with pytest.raises(ValueError, match="only a paper test supports"):
        make_test(kind="check")
    with pytest.raises(ValueError, match="title"):
        experiment([dataclasses.replace(make_test(), title="x" * 81)])
    with pytest.raises(ValueError, match="has context"):
        experiment([make_test(context=("baseline_m",))])
    experiment([make_test(shown=("descriptive",))])
    with pytest.raises(ValueError, match="band"):
        experiment([make_test("a"), Claim("b", "s", "p", "m", "in", (0.0, 2.0), kind="check", title="b")])


def test_quotes_must_be_the_abstracts_words():
    ok = PaperClaim(
        "x", "NP-hard to approximate with factor better than", "headline", title="t", headline="t"
    )
    check_declarations("bad_triangles", [ok], [make_test(supports="x")])
    wrong = dataclasses.replace(ok, quote="NP-hard to approximate, always")
    with pytest.raises(ValueError, match="not verbatim"):
        check_declarations("bad_triangles", [wrong], [make_test(supports="x")])


def test_background_and_revision_need_their_reasons():
    Background("Because evaluating the energy function is often costly", "motivation")
    with pytest.raises(ValueError):
        Background("x", " ")
    Revision("2026-12-01", "k = 50", "refuted", "k/n as the paper", run="abc1234")
    with pytest.raises(ValueError, match="YYYY-MM-DD"):
        Revision("1 Dec", "k = 50", "refuted", "why")
    with pytest.raises(ValueError, match="verdict 'bad'"):
        Revision("2026-12-01", "k = 50", "bad", "why")


# ---- verdict forms ----------------------------------------------------------------------------


def test_released_scale_is_re_tabulated_never_verified():
    c = Claim("r", "s", "p", "m", "<=", 1.0, kind="check", scale="released", scale_note="CSV", title="t")
    for value in (0.5, 2.0):
        v = verdict(c, {"m": value, "m_ci": 0.0}, {}, "paper")
        assert v.verdict == "re-tabulated"
    assert "does not hold" in verdict(c, {"m": 2.0, "m_ci": 0.0}, {}, "paper").reason


def test_pvalue_form_needs_no_interval_and_decides_by_alpha():
    c = Claim("p", "s", "x", "p_chi2", ">", 0.05, kind="check", pvalue=("chi-squared", 0.05), title="t")
    assert verdict(c, {"p_chi2": 0.3}, {}, "quick").verdict == "toy-verified"
    assert verdict(c, {"p_chi2": 0.01}, {}, "quick").verdict == "refuted"
    assert "chi-squared" in c.rule
    with pytest.raises(ValueError, match="p-value rule"):
        Claim("p", "s", "x", "p_chi2", ">", 0.1, kind="check", pvalue=("chi-squared", 0.05))
    with pytest.raises(ValueError, match="alpha in"):
        Claim("p", "s", "x", "p_chi2", ">", 1.5, kind="check", pvalue=("chi-squared", 1.5))


def test_requires_turns_a_run_outside_its_conditions_into_a_check():
    assert conditions_unmet((("width", ">=", 4096),), {"width": 512}) == ["width = 512 (needs >= 4096)"]
    assert conditions_unmet((("width", ">=", 4096),), {"width": 8192}) == []
    assert conditions_unmet((("width", ">=", 4096),), {"width": float("nan")})
    t = make_test(requires=(("n", ">=", 10),))
    exp = experiment([t])
    rows = judge(exp, {"m": 0.5, "m_ci": 0.1, "ctl": 5.0, "ctl_ci": 0.1}, {}, "quick", {"n": 3})
    assert rows[0]["kind"] == "check" and rows[0]["declared_kind"] == "paper"
    assert rows[0]["outside_conditions"] == ["n = 3 (needs >= 10)"]
    rows = judge(exp, {"m": 0.5, "m_ci": 0.1, "ctl": 5.0, "ctl_ci": 0.1}, {}, "quick", {"n": 30})
    assert rows[0]["kind"] == "paper" and not rows[0]["outside_conditions"]
    # a statement naming a key that an older record's config lacks keeps it in braces (re-judging works)
    assert Claim("s", "n = {n}, k = {k}", "x", "m", "<=", 1.0, kind="check", title="t").describe(
        {"n": 3}
    ) == ("n = 3, k = {k}")
    # a precondition on a measured metric (not a config key) is read from the metrics; missing is unmet
    t = make_test(requires=(("drift", ">", 0),))
    exp = experiment([t])
    measured = {"m": 0.5, "m_ci": 0.1, "ctl": 5.0, "ctl_ci": 0.1}
    assert judge(exp, {**measured, "drift": 3.0}, {}, "quick", {"n": 3})[0]["kind"] == "paper"
    assert judge(exp, {**measured, "drift": 0.0}, {}, "quick", {"n": 3})[0]["kind"] == "check"
    assert judge(exp, measured, {}, "quick", {"n": 3})[0]["kind"] == "check"


# ---- the lock file ----------------------------------------------------------------------------


def test_a_change_after_the_lock_needs_a_revision():
    exp = experiment([make_test(), make_test("u")])
    locked = lock_of(exp)
    assert unrecorded_changes(exp, locked) == []
    changed = experiment([dataclasses.replace(make_test(), threshold=2.0), make_test("u")])
    assert unrecorded_changes(changed, locked) == ["t: rule changed since the lock without a new Revision"]
    revised = experiment(
        [
            dataclasses.replace(
                make_test(), threshold=2.0, revisions=(Revision("2026-12-01", "m <= 1", "refuted", "why"),)
            ),
            make_test("u"),
        ]
    )
    assert unrecorded_changes(revised, locked) == []
    kind_changed = experiment(
        [make_test(), Claim("u", "s", "p", "m", "<=", 1.0, kind="check", title="a test")]
    )
    assert any(p.startswith("u: ") and "kind" in p for p in unrecorded_changes(kind_changed, locked))
    assert unrecorded_changes(experiment([make_test()]), locked) == [
        "u: locked but no longer declared (record why as a Revision of a test)"
    ]


def test_a_released_test_never_counts_as_measured_whatever_its_verdict():
    released = {**row("r", U), "scale": "released"}
    got = roll_up(claim("all"), [released, row("m", H)])
    assert (got["verdict"], got["holds"], got["of"]) == ("toy-verified", 1, 1)
    assert roll_up(claim("all"), [released])["verdict"] == "re-tabulated"
