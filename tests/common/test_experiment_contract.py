"""The experiment contract: claims, verdict rules, profiles and config resolution."""

import math

import pytest
import toy_experiment

from icml26.common import Claim, Experiment, Result, verdict
from icml26.common.config import coerce_value, parse_overrides, resolve_config

CLAIM = Claim("c", "ratio at most 2", "<= 2", "ratio", "<=", 2.0, kind="check", deterministic=True)


@pytest.mark.parametrize(
    ("metrics", "blocked", "profile", "expected"),
    [
        ({"ratio": 1.5}, {}, "quick", "toy-verified"),
        ({"ratio": 1.5}, {}, "paper", "toy-verified"),  # a proxy-scale claim never verifies
        ({"ratio": 2.0}, {}, "smoke", "toy-verified"),  # the rule is inclusive
        ({"ratio": 2.5}, {}, "quick", "refuted"),
        ({}, {}, "quick", "inconclusive"),
        ({"ratio": math.nan}, {}, "quick", "inconclusive"),
        ({"ratio": 2.1, "ratio_ci": 0.2}, {}, "quick", "inconclusive"),  # interval on both sides
        ({"ratio": 2.0, "ratio_ci": 0.0}, {}, "quick", "toy-verified"),  # zero width never straddles
        ({"ratio": 2.5, "ratio_ci": 0.2}, {}, "quick", "refuted"),
        ({"ratio": 1.0}, {"c": "needs a GPU"}, "quick", "blocked"),
    ],
)
def test_verdict_follows_the_rule(metrics, blocked, profile, expected):
    assert verdict(CLAIM, metrics, blocked, profile).verdict == expected


def test_strict_rule_excludes_the_threshold():
    claim = Claim("s", "below 1", "< 1", "x", "<", 1.0, kind="check", deterministic=True)
    assert verdict(claim, {"x": 1.0}, {}, "quick").verdict == "refuted"
    assert verdict(claim, {"x": 0.999}, {}, "quick").verdict == "toy-verified"
    # an interval ending at the threshold of a strict rule holds a failing value
    assert (
        verdict(claim, {"x": 0.9, "x_ci_low": 0.8, "x_ci_high": 1.0}, {}, "quick").verdict == "inconclusive"
    )


def test_claim_rejects_unknown_operator_and_nonfinite_threshold():
    with pytest.raises(ValueError, match="op '=='"):
        Claim("c", "s", "p", "m", "==", 1.0, kind="check")
    with pytest.raises(ValueError, match="threshold must be finite"):
        Claim("c", "s", "p", "m", "<", math.inf, kind="check")


def _run(config, seed):
    return Result()


def test_experiment_requires_three_profiles_with_equal_keys():
    with pytest.raises(ValueError, match="missing profiles"):
        Experiment("m", "t", "p", _run, {"smoke": {}, "quick": {}}, ())
    with pytest.raises(ValueError, match="differ from quick"):
        Experiment(
            "m", "t", "p", _run, {"smoke": {"a": 1}, "quick": {"a": 1, "b": 2}, "paper": {"a": 1, "b": 2}}, ()
        )


def test_config_overrides_are_coerced_to_the_profile_types():
    exp = toy_experiment.EXPERIMENT
    config = resolve_config(exp, "smoke", parse_overrides(["n=128", "levels=2"]))
    assert config == {"n": 128, "levels": 2}
    assert coerce_value("flag", "yes", False) is True
    assert coerce_value("xs", "1, 2,3", [0]) == [1, 2, 3]
    assert coerce_value("rate", "1e-3", 0.5) == pytest.approx(1e-3)


@pytest.mark.parametrize(
    ("profile", "overrides", "message"),
    [
        ("fast", {}, "unknown profile 'fast'; accepted: smoke, quick, paper"),
        ("smoke", {"m": "3"}, "unknown config key 'm' for toy_pi; accepted: levels, n"),
        ("smoke", {"n": "lots"}, "--set n=lots: expected an integer"),
        ("smoke", {"n": "8"}, "n must be >= 16, got 8"),
    ],
)
def test_bad_config_is_rejected_with_one_clear_message(profile, overrides, message):
    with pytest.raises(ValueError) as info:
        resolve_config(toy_experiment.EXPERIMENT, profile, overrides)
    assert str(info.value) == message


def test_override_without_equals_sign_is_rejected():
    with pytest.raises(ValueError, match="expected key=value"):
        parse_overrides(["n"])


def test_median_ci95_uses_order_statistics():
    from icml26.common import median_ci95

    # n = 11: P(Bin(11, 1/2) <= 1) = 0.006 <= 0.025 < P(<= 2) = 0.033, so the interval is [x_(2), x_(10)]
    assert median_ci95(list(range(1, 12))) == (6.0, 2.0, 10.0)
    # n = 15: [x_(4), x_(12)], not symmetric about the median
    assert median_ci95([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 30, 31, 32, 33]) == (8.0, 4.0, 30.0)
    # below six values the whole range is the interval
    assert median_ci95([1.0, 2.0, 10.0]) == (2.0, 1.0, 10.0)
    assert all(math.isnan(x) for x in median_ci95([3.0])[1:])
    with pytest.raises(ValueError, match="at least one value"):
        median_ci95([])


def test_verdict_uses_an_asymmetric_interval_when_given():
    from icml26.common import Claim, verdict

    claim = Claim("c", "ratio >= 1.4", "-", "ratio", ">=", 1.4, kind="check")
    # the interval [1.45, 1.9] excludes 1.4 although 1.4 is within the larger side's distance of 1.55
    m = {"ratio": 1.55, "ratio_ci_low": 1.45, "ratio_ci_high": 1.9}
    assert verdict(claim, m, {}, "quick").verdict == "toy-verified"
    assert verdict(claim, {**m, "ratio_ci_low": 1.3}, {}, "quick").verdict == "inconclusive"
    # the interval replaces the half-width; without it the half-width decides
    assert verdict(claim, {**m, "ratio_ci": 0.5}, {}, "quick").verdict == "toy-verified"
    assert verdict(claim, {"ratio": 1.55, "ratio_ci": 0.5}, {}, "quick").verdict == "inconclusive"
    assert (
        verdict(claim, {"ratio": 1.3, "ratio_ci_low": 1.2, "ratio_ci_high": 1.35}, {}, "quick").verdict
        == "refuted"
    )


def test_aggregate_combines_own_intervals_of_independent_seeds():
    from icml26.common import ci95
    from icml26.common.runner import aggregate

    seeds = [{"r": 1.5, "r_ci_low": 1.0, "r_ci_high": 2.0}, {"r": 1.5, "r_ci_low": 1.0, "r_ci_high": 2.0}]
    half = (0.5**2 + 0.5**2) ** 0.5 / 2  # the mean of two agreeing estimates with half-widths 0.5
    assert aggregate(seeds) == pytest.approx({"r": 1.5, "r_ci_low": 1.5 - half, "r_ci_high": 1.5 + half})
    # seeds that disagree more than their own intervals say: the spread over seeds decides
    apart = aggregate([{"x": 0.5, "x_ci": 0.01}, {"x": 1.5, "x_ci": 0.01}])
    assert apart["x_ci_high"] - 1.0 == pytest.approx(ci95([0.5, 1.5]))
    assert "s_ci" in aggregate([{"s": 1.0}, {"s": 2.0}])
    assert aggregate([{"s": 1.0, "s_ci": 0.2}]) == {"s": 1.0, "s_ci": 0.2}  # one seed: as measured


def test_aggregate_follows_the_claims_statistic():
    from icml26.common.runner import aggregate

    seeds = [{"worst": 1.2, "best": 0.9, "m": 1.0}, {"worst": 1.9, "best": 0.4, "m": 3.0}]
    out = aggregate(seeds, {"worst": "max", "best": "min"})
    assert out["worst"] == 1.9 and out["best"] == 0.4 and out["m"] == 2.0
    assert "worst_ci" not in out and "m_ci" in out


def test_two_seeds_at_the_bound_are_not_inconclusive():
    """The README's two-seed example: a claim measured exactly at its bound on every seed."""
    from icml26.common.runner import aggregate

    claim = Claim(
        "b",
        "cost <= 2 LP",
        "<= 2",
        "r",
        "<=",
        2.0,
        kind="paper",
        scale="exact",
        scale_note="x",
        controls=("c",),
    )
    out = aggregate([{"r": 2.0, "c": 2.5}, {"r": 2.0, "c": 3.0}], {"r": claim.aggregate_by, "c": "max"})
    assert verdict(claim, out, {}, "quick").verdict == "verified"
    mean_claim = Claim("m", "s", "p", "r", "<=", 2.0, kind="check")
    assert verdict(mean_claim, aggregate([{"r": 2.0}, {"r": 2.0}]), {}, "quick").verdict == "toy-verified"


def test_aggregate_intervals_of_comparisons_over_seeds():
    from icml26.common import comparison_key
    from icml26.common.runner import aggregate

    key = comparison_key("f", "b", "ratio")
    seeds = [{"f": 1.0, "b": 2.0}, {"f": 1.5, "b": 2.0}, {"f": 1.2, "b": 2.0}]
    out = aggregate(seeds, comparisons=[("f", "b", "ratio")])
    ratios = [0.5, 0.75, 0.6]
    from icml26.common import ci95

    assert out[key + "_ci_low"] == pytest.approx(sum(ratios) / 3 - ci95(ratios))
    assert out[key + "_ci_high"] == pytest.approx(sum(ratios) / 3 + ci95(ratios))


def test_ci95_is_the_student_t_half_width():
    from icml26.common import ci95, mean_ci95

    assert math.isnan(ci95([1.0]))
    # n = 4, sd = 1.2909944, t(0.975, 3) = 3.182446
    assert ci95([1.0, 2.0, 3.0, 4.0]) == pytest.approx(3.182446 * 1.2909944 / 2, rel=1e-6)
    assert mean_ci95([2.0, 2.0])[0] == 2.0 and mean_ci95([2.0, 2.0])[1] == 0.0
    with pytest.raises(ValueError, match="at least one value"):
        mean_ci95([])


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "3", None])
def test_check_int_rejects_non_integers_and_small_values(bad):
    from icml26.common import check_int

    with pytest.raises(ValueError, match=r"n_trees must be an integer >= 1, got"):
        check_int("n_trees", bad)


def test_check_device_accepts_cpu_and_names_usable_devices():
    import torch

    from icml26.common import check_device

    assert check_device("cpu") == "cpu"
    with pytest.raises(ValueError, match=r"device 'gpu0' is not a torch device; accepted: cpu"):
        check_device("gpu0")
    if torch.cuda.device_count() <= 7:
        with pytest.raises(ValueError, match=r"device 'cuda:7' is not available here; accepted: cpu"):
            check_device("cuda:7")
