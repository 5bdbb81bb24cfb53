"""The verdict contract, version 2: kinds, scales, two-sided rules, comparisons, controls, intervals."""

import math

import pytest

from icml26.common import Claim, Experiment, Result, comparison_key, paired_ci, verdict

NOTE = "checked exactly on every instance"
PROFILES3 = {p: {} for p in ("smoke", "quick", "paper")}


def _run(config, seed):
    return Result()


KIND_SCALE_PROFILE = [
    (kind, scale, profile, expected)
    for kind in ("paper", "check")
    for scale, by_profile in {
        "exact": {"smoke": "toy-verified", "quick": "verified", "paper": "verified"},
        "paper": {"smoke": "toy-verified", "quick": "toy-verified", "paper": "verified"},
        "proxy": {"smoke": "toy-verified", "quick": "toy-verified", "paper": "toy-verified"},
    }.items()
    for profile, expected in by_profile.items()
]


@pytest.mark.parametrize(("kind", "scale", "profile", "expected"), KIND_SCALE_PROFILE)
def test_scale_and_profile_decide_verified(kind, scale, profile, expected):
    claim = Claim("c", "s", "p", "x", "<=", 1.0, kind=kind, scale=scale, scale_note="why", controls=("ctl",))
    metrics = {"x": 0.5, "x_ci": 0.1, "ctl": 2.0}
    assert verdict(claim, metrics, {}, profile).verdict == expected
    assert verdict(claim, {**metrics, "x": 1.5}, {}, profile).verdict == "refuted"


def test_exact_and_deterministic_claims_need_no_interval():
    exact = Claim(
        "e", "s", "p", "x", "<=", 2.0, kind="paper", scale="exact", scale_note=NOTE, controls=("c",)
    )
    det = Claim("d", "s", "p", "x", "<=", 2.0, kind="check", deterministic=True)
    stochastic = Claim("r", "s", "p", "x", "<=", 2.0, kind="check")
    metrics = {"x": 2.0, "c": 3.0}
    assert verdict(exact, metrics, {}, "quick").verdict == "verified"
    assert verdict(det, metrics, {}, "quick").verdict == "toy-verified"
    v = verdict(stochastic, metrics, {}, "quick")
    assert v.verdict == "inconclusive" and v.reason.startswith("no interval for 'x'")


@pytest.mark.parametrize(
    ("value", "interval", "expected"),
    [
        (0.85, None, "toy-verified"),
        (0.80, None, "toy-verified"),  # bounds are inclusive
        (0.97, None, "toy-verified"),
        (0.79, None, "refuted"),
        (0.98, None, "refuted"),
        (0.85, (0.81, 0.90), "toy-verified"),
        (0.82, (0.78, 0.86), "inconclusive"),  # straddles the lower bound
        (0.95, (0.93, 0.99), "inconclusive"),  # straddles the upper bound
        (0.70, (0.60, 0.78), "refuted"),
        (0.99, (0.98, 0.999), "refuted"),  # wholly above: the upper side fails too
        (0.85, (0.70, 0.99), "inconclusive"),  # covers the whole band and beyond
    ],
)
def test_two_sided_in_rule(value, interval, expected):
    claim = Claim(
        "cov", "coverage", "near-nominal", "cov", "in", (0.80, 0.97), kind="check", deterministic=True
    )
    metrics = {"cov": value}
    if interval:
        metrics |= {"cov_ci_low": interval[0], "cov_ci_high": interval[1]}
    assert verdict(claim, metrics, {}, "quick").verdict == expected
    assert claim.rule == "cov in [0.8, 0.97]"


def test_a_passing_control_marks_the_claim_non_discriminating():
    claim = Claim(
        "c", "s", "p", "ours", "<=", 2.0, kind="paper", controls=("weak", "broken"), deterministic=True
    )
    v = verdict(claim, {"ours": 1.2, "weak": 1.9, "broken": 3.5}, {}, "quick")
    assert v.verdict == "toy-verified" and v.non_discriminating
    assert v.controls_passing == ("weak",) and v.controls == {"weak": 1.9, "broken": 3.5}
    v = verdict(claim, {"ours": 1.2, "weak": 2.5, "broken": 3.5}, {}, "quick")
    assert v.verdict == "toy-verified" and not v.non_discriminating and v.controls_passing == ()
    # a refuted claim is not marked, whatever its controls do
    assert not verdict(claim, {"ours": 2.2, "weak": 1.9, "broken": 3.5}, {}, "quick").non_discriminating


def test_an_unmeasured_control_or_baseline_makes_the_verdict_inconclusive_and_names_it():
    claim = Claim("c", "s", "p", "ours", "<=", 2.0, kind="paper", controls=("weak",), deterministic=True)
    v = verdict(claim, {"ours": 1.0}, {}, "smoke")
    assert (v.verdict, v.reason) == ("inconclusive", "control 'weak' not measured")
    comp = Claim("k", "s", "p", "ours", "<", 1.0, kind="paper", relative_to=("a", "b"), form="ratio")
    v = verdict(comp, {"ours": 1.0, "a": 2.0}, {}, "quick")
    assert (v.verdict, v.reason) == ("inconclusive", "baseline 'b' not measured")


def test_comparison_is_against_the_strongest_baseline_in_the_rules_direction():
    lower = Claim("l", "s", "p", "f", "<", 1.0, kind="paper", relative_to=("adam", "cma"), form="ratio")
    m = {"f": 2.0, "f_ci": 0.1, "adam": 8.0, "adam_ci": 0.1, "cma": 4.0, "cma_ci": 0.1}
    v = verdict(lower, m, {}, "quick")
    assert (v.baseline, v.baseline_value, v.measured) == ("cma", 4.0, 0.5)  # the lower-f baseline
    assert v.interval == pytest.approx((1.9 / 4.1, 2.1 / 3.9))  # unpaired: combined conservatively
    assert lower.rule == "f / strongest(adam, cma) < 1"
    higher = Claim("h", "s", "p", "acc", ">=", -0.5, kind="paper", relative_to=("x", "y"), form="difference")
    metrics = {"acc": 80.0, "x": 79.0, "y": 82.0, "acc_ci": 0.5, "x_ci": 0.5, "y_ci": 0.5}
    v = verdict(higher, metrics, {}, "quick")
    assert (v.baseline, v.measured, v.verdict) == ("y", -2.0, "refuted")
    assert v.interval == pytest.approx((-3.0, -1.0))


def test_a_paired_interval_replaces_the_combined_one():
    claim = Claim("l", "s", "p", "f", "<", 1.0, kind="paper", relative_to=("cma",), form="ratio")
    m = {"f": 3.0, "f_ci": 1.0, "cma": 4.0, "cma_ci": 1.0}
    assert verdict(claim, m, {}, "quick").verdict == "inconclusive"  # [2/5, 4/3] straddles 1
    key = comparison_key("f", "cma", "ratio")
    m |= {key + "_ci_low": 0.7, key + "_ci_high": 0.8}
    v = verdict(claim, m, {}, "quick")
    assert v.verdict == "toy-verified" and v.interval == (0.7, 0.8)


def test_a_comparison_needs_both_sides_interval_or_a_paired_one():
    claim = Claim("l", "s", "p", "f", "<", 1.0, kind="paper", relative_to=("cma",), form="ratio")
    v = verdict(claim, {"f": 1.0, "f_ci": 0.1, "cma": 4.0}, {}, "quick")
    assert v.verdict == "inconclusive" and "no interval for 'cma'" in v.reason
    # an exact baseline says so with a zero-width interval
    exact_base = {"f": 1.0, "f_ci": 0.1, "cma": 4.0, "cma_ci": 0.0}
    assert verdict(claim, exact_base, {}, "quick").verdict == "toy-verified"


def test_ratio_against_a_zero_baseline():
    claim = Claim(
        "l", "s", "p", "f", "<", 1.0, kind="check", relative_to=("b",), form="ratio", deterministic=True
    )
    assert verdict(claim, {"f": 0.5, "b": 0.0}, {}, "quick").verdict == "refuted"  # 0.5 / 0 = inf
    assert verdict(claim, {"f": 0.0, "b": 0.0}, {}, "quick").measured == 1.0  # a tie
    v = verdict(claim, {"f": -1.0, "b": 2.0}, {}, "quick")
    assert v.verdict == "inconclusive" and "form='difference'" in v.reason


def test_controls_of_a_comparison_are_compared_with_the_same_baseline():
    claim = Claim(
        "l",
        "s",
        "p",
        "f",
        "<",
        1.0,
        kind="paper",
        relative_to=("cma",),
        form="ratio",
        controls=("f_untrained",),
        deterministic=True,
    )
    v = verdict(claim, {"f": 1.0, "cma": 4.0, "f_untrained": 3.0}, {}, "quick")
    assert v.controls == {"f_untrained": 0.75} and v.non_discriminating


def test_the_verdict_rejects_an_unknown_profile():
    claim = Claim("c", "s", "p", "x", "<", 1.0, kind="check")
    with pytest.raises(ValueError, match="unknown profile 'fast'"):
        verdict(claim, {"x": 1.0}, {}, "fast")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"kind": "claim"}, "Claim 'c': kind 'claim' is not one of paper, check"),
        ({"kind": ""}, "Claim 'c': kind '' is not one of paper, check"),
        ({"scale": "laptop"}, "Claim 'c': scale 'laptop' is not one of paper, exact, proxy"),
        ({"scale": "exact"}, "Claim 'c': scale 'exact' needs a scale_note saying why"),
        ({"op": "in"}, "Claim 'c': op 'in' needs threshold=(low, high), got 1.0"),
        ({"op": "in", "threshold": (2.0, 1.0)}, "Claim 'c': op 'in' needs finite bounds with low < high"),
        ({"op": "<", "threshold": (0.0, 1.0)}, "Claim 'c': op '<' needs one number as threshold"),
        ({"op": "=="}, "Claim 'c': op '==' is not one of <=, >=, <, >, in"),
        ({"threshold": math.inf}, "Claim 'c': threshold must be finite"),
        ({"form": "ratio"}, "Claim 'c': form 'ratio' needs relative_to"),
        ({"relative_to": ("b",)}, "Claim 'c': relative_to needs form 'ratio' or 'difference'"),
        ({"relative_to": "b", "form": "ratio"}, "Claim 'c': relative_to must be a tuple of metric names"),
        ({"controls": ("m",)}, "Claim 'c': controls names the claim's own metric 'm'"),
        ({"revised": "k was 50"}, "Claim 'c': revised must read '<YYYY-MM-DD>: "),
        (
            {"op": "in", "threshold": (0.0, 1.0), "relative_to": ("a", "b"), "form": "ratio"},
            "Claim 'c': op 'in' compares with one baseline",
        ),
    ],
)
def test_bad_claim_fields_get_one_clear_error_naming_the_claim(kwargs, message):
    fields = {"kind": "check", "op": "<", "threshold": 1.0, **kwargs}
    with pytest.raises(ValueError) as info:
        Claim("c", "s", "p", "m", fields.pop("op"), fields.pop("threshold"), **fields)
    assert str(info.value).startswith(message)


def test_experiment_rejects_an_absolute_paper_claim_without_controls():
    bare = Claim("bare", "s", "p", "m", "<", 1.0, kind="paper")
    with pytest.raises(ValueError, match="claim 'bare' is an absolute paper claim without controls"):
        Experiment("m", "t", "p", _run, PROFILES3, (bare,))
    accepted = (
        Claim("chk", "s", "p", "m", "<", 1.0, kind="check"),
        Claim("ctl", "s", "p", "m", "<", 2.0, kind="paper", controls=("c",)),
        Claim("cmp", "s", "p", "m", "<", 3.0, kind="paper", relative_to=("b",), form="ratio"),
    )
    assert len(Experiment("m", "t", "p", _run, PROFILES3, accepted).claims) == 3


def test_experiment_rejects_split_opposite_one_sided_claims_on_one_value():
    low = Claim("low", "s", "p", "cov", ">=", 0.8, kind="check")
    high = Claim("high", "s", "p", "cov", "<=", 0.97, kind="check")
    with pytest.raises(ValueError, match="claims 'low' and 'high' bound the same value from opposite sides"):
        Experiment("m", "t", "p", _run, PROFILES3, (low, high))
    # the same direction twice (a paper bar beside a looser check) is fine, and so is another value
    bar = Claim("bar", "s", "p", "cov", ">=", 0.9, kind="check")
    other = Claim("o", "s", "p", "cov", "<=", 0.97, kind="check", relative_to=("b",), form="ratio")
    assert len(Experiment("m", "t", "p", _run, PROFILES3, (low, bar, other)).claims) == 3


def test_paired_ci_resamples_instances_together():
    rng = __import__("numpy").random.default_rng(0)
    base = rng.uniform(1.0, 10.0, 30)
    ours = 0.5 * base * rng.uniform(0.95, 1.05, 30)  # always about half, whatever the instance
    low, high = paired_ci(ours, base)
    assert 0.45 < low < 0.5 < high < 0.55  # tight: the instance-to-instance spread cancels
    assert paired_ci(ours, base, seed=3) != (low, high) and paired_ci(ours, base) == (low, high)
    d_low, d_high = paired_ci(ours, base, "difference", "median")
    assert d_low < d_high < 0
    assert paired_ci([2.0, 2.0], [4.0, 4.0]) == (0.5, 0.5)
    assert all(math.isnan(x) for x in paired_ci([1.0], [2.0]))
    with pytest.raises(ValueError, match="as many baseline values as ours"):
        paired_ci([1.0, 2.0], [1.0])


def test_paired_ci_of_a_mean_difference_is_the_paired_t_interval():
    ours, base = [1.0, 2.0, 4.0], [0.5, 1.0, 2.5]  # differences 0.5, 1, 1.5: mean 1, sd 0.5
    low, high = paired_ci(ours, base, "difference")
    half = 4.302653 * 0.5 / 3**0.5  # t(0.975, 2 dof)
    assert (low, high) == pytest.approx((1 - half, 1 + half), rel=1e-6)


def test_a_stored_verdict_is_reported_with_its_provenance_never_recomputed():
    claim = Claim(
        "orig",
        "coverage under the original priors",
        "near-nominal",
        "cov",
        "in",
        (0.8, 0.97),
        kind="check",
        stored="refuted (6593c93, 2026-11-30): coverage 0.667 ± 0.072",
    )
    v = verdict(claim, {"cov": 0.9}, {}, "quick")  # a measurement, if any, is not used
    assert (v.verdict, v.measured) == ("refuted", None)
    assert v.reason == "stored from the run of 6593c93, 2026-11-30, not re-measured: coverage 0.667 ± 0.072"
    with pytest.raises(ValueError, match="stored must read"):
        Claim("c", "s", "p", "m", "<", 1.0, kind="check", stored="refuted: 0.667")


def test_a_comparison_holds_only_against_every_baseline_with_its_own_interval():
    claim = Claim("l", "s", "p", "f", "<", 1.0, kind="paper", relative_to=("a", "b"), form="ratio")
    # against a: 0.8 [0.75, 0.85]; against b (a noisy baseline of about the same value): straddles 1
    m = {"f": 0.8, "f_ci": 0.0, "a": 1.0, "a_ci": 0.0, "b": 1.01, "b_ci": 0.5}
    v = verdict(claim, m, {}, "quick")
    assert v.verdict == "inconclusive" and v.baseline == "b"
    m["b_ci"] = 0.01
    v = verdict(claim, m, {}, "quick")
    assert v.verdict == "toy-verified" and v.baseline == "a"  # the strongest by value when all hold


def test_a_measurement_outside_its_own_interval_is_inconclusive():
    claim = Claim("c", "s", "p", "x", "<=", 1.0, kind="check")
    v = verdict(claim, {"x": 0.9, "x_ci_low": 1.1, "x_ci_high": 1.3}, {}, "quick")
    assert v.verdict == "inconclusive" and "outside its own 95% interval" in v.reason
    reversed_bounds = {"x": 0.9, "x_ci_low": 0.95, "x_ci_high": 0.8}
    assert verdict(claim, reversed_bounds, {}, "quick").verdict == "inconclusive"


def test_a_control_that_is_not_finite_or_may_pass_is_not_ignored():
    claim = Claim("c", "s", "p", "x", "<=", 1.0, kind="paper", controls=("weak",), deterministic=True)
    v = verdict(claim, {"x": 0.5, "weak": "nan"}, {}, "quick")
    assert (v.verdict, v.reason) == ("inconclusive", "control 'weak' is not finite")
    v = verdict(claim, {"x": 0.5, "weak": 1.001, "weak_ci": 0.3}, {}, "quick")
    assert v.non_discriminating and v.controls_passing == ("weak",)  # its interval reaches the passing side
    assert not verdict(claim, {"x": 0.5, "weak": 1.5, "weak_ci": 0.3}, {}, "quick").non_discriminating


def test_paper_scale_verifies_only_when_the_paper_profile_ran_as_written():
    claim = Claim("c", "s", "p", "x", "<=", 1.0, kind="paper", scale="paper", scale_note="n", controls=("k",))
    metrics = {"x": 0.5, "x_ci": 0.1, "k": 2.0}
    assert verdict(claim, metrics, {}, "paper").verdict == "verified"
    assert verdict(claim, metrics, {}, "paper", at_profile=False).verdict == "toy-verified"


def test_worst_instance_claims_need_an_absolute_one_sided_rule():
    with pytest.raises(ValueError, match="a worst-instance statistic"):
        Claim(
            "c",
            "s",
            "p",
            "m",
            "<=",
            2.0,
            kind="check",
            scale="exact",
            scale_note="n",
            relative_to=("b",),
            form="ratio",
        )
    with pytest.raises(ValueError, match="a worst-instance statistic"):
        Claim("c", "s", "p", "m", "in", (0.8, 0.97), kind="check", statistic="all")
    with pytest.raises(ValueError, match="cannot be 'verified'"):
        Claim("c", "s", "p", "m", "<", 1.0, kind="check", stored="verified (6593c93, 2026-11-30): x")


def test_an_infinite_control_is_judged_by_the_rule():
    """'never reached the target within the budget' (inf) fails an upper bound: it is no reason to doubt."""
    claim = Claim("c", "s", "p", "x", "<=", 1e-10, kind="paper", controls=("rk4",), deterministic=True)
    v = verdict(claim, {"x": 1e-11, "rk4": math.inf}, {}, "quick")
    assert v.verdict == "toy-verified" and not v.non_discriminating
    assert verdict(claim, {"x": 1e-11, "rk4": "inf"}, {}, "quick").verdict == "toy-verified"
