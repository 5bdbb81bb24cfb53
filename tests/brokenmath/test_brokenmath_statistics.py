"""Mock solvers with known rates, the exact BrokenArith judge, and the Pass@n bound."""

import numpy as np
import pytest

from icml26.brokenmath import LLMJudge, all_sycophantic_share, brokenarith, evaluate, load
from icml26.brokenmath.backends import MockChat, mock_checker, mock_solver
from icml26.brokenmath.brokenarith import SCRIPTS, ExactJudge, exact_verdict


@pytest.fixture(scope="module")
def items():
    return load()


def test_mock_sycophancy_inside_its_ci(items):
    report = evaluate(
        mock_solver({"incorrect": 0.3, "correct": 0.5, "detected": 0.2}, seed=3),
        LLMJudge(mock_checker(), votes=3),
        items,
    )
    low, high = report.sycophancy_ci
    assert low <= 0.30 <= high
    assert high - low < 0.1  # 451 items: half-width about 0.042
    assert report.counts["unparseable"] == 0 and sum(report.counts.values()) == 451


def test_four_independent_mocks_all_sycophantic(items):
    flags = []
    for seed in range(4):
        rep = evaluate(
            mock_solver({"incorrect": 0.3, "correct": 0.7}, seed=10 + seed),
            LLMJudge(mock_checker(), 1),
            items,
        )
        flags.append(rep.sycophantic_flags())
    assert abs(all_sycophantic_share(flags) - 0.3**4) <= 0.02


def test_unparseable_judge_replies_are_counted_not_sycophantic(items):
    judge = LLMJudge(MockChat(lambda conv, i: "no verdict here"), votes=3)
    report = evaluate(mock_solver({"incorrect": 1.0}), judge, items[:20])
    assert report.counts["unparseable"] == 20 and report.sycophancy == 0.0


def test_by_origin_split(items):
    report = evaluate(mock_solver({"incorrect": 1.0}), LLMJudge(mock_checker(), 1), items)
    assert report.by_origin == {
        "final-answer": {"n": 130, "sycophancy": 1.0},
        "proof": {"n": 321, "sycophancy": 1.0},
    }


def test_generate_pairs_exact():
    pairs = brokenarith.generate(60, seed=5)
    assert len({f.meta["quantity"] for f, _ in pairs}) == 60
    for f, t in pairs:
        assert f.is_adversarial and not t.is_adversarial and f.answer == t.answer and f.claimed != f.answer
        assert f.claimed >= 0 and str(f.claimed) in f.problem
    assert brokenarith.generate(10, seed=5) == pairs[:10]  # deterministic per seed
    by_family = {f.meta["family"]: f for f, _ in pairs}
    assert set(by_family) == set(brokenarith.FAMILIES)


def test_known_values():
    import sympy

    assert int(sympy.divisor_sigma(360)) == 1170
    rng = np.random.default_rng(0)
    assert (
        brokenarith.false_value(10, "double", rng) == 20 and brokenarith.false_value(0, "minus_one", rng) == 1
    )
    for _ in range(50):
        assert (
            brokenarith.false_value(3, "near_miss", rng) not in (3,)
            and brokenarith.false_value(3, "near_miss", rng) >= 0
        )


@pytest.mark.parametrize("category", ["correct", "detected", "corrected", "incorrect"])
def test_exact_judge_agrees_on_scripted_responses(category):
    pairs = brokenarith.generate(12, seed=7)
    responses = [(f, script(f)) for f, _ in pairs for script in SCRIPTS[category]]
    assert len(responses) >= 40
    assert all(exact_verdict(f, r) == category for f, r in responses)


def test_exact_judge_bad_input():
    f, t = brokenarith.generate(1, seed=0)[0]
    with pytest.raises(ValueError, match="false BrokenArith item"):
        exact_verdict(t, "x")
    with pytest.raises(TypeError, match="string"):
        exact_verdict(f, None)
    with pytest.raises(ValueError, match="one response per item"):
        ExactJudge().grade([f], [])
    with pytest.raises(ValueError, match="integer >= 1"):
        brokenarith.generate(0)
    with pytest.raises(ValueError, match="families"):
        brokenarith.generate(3, families=("nope",))


def test_evaluate_bad_input(items):
    with pytest.raises(ValueError, match="non-empty list of Item"):
        evaluate(mock_solver({"incorrect": 1.0}), LLMJudge(mock_checker()), [])
    with pytest.raises(ValueError, match="mitigation"):
        evaluate(mock_solver({"incorrect": 1.0}), LLMJudge(mock_checker()), items[:2], mitigation="pray")
    with pytest.raises(ValueError, match="replies"):
        short = type("Short", (), {"chat": lambda self, convs: ["only one"]})()
        evaluate(short, LLMJudge(mock_checker()), items[:2])
    with pytest.raises(ValueError, match="rates"):
        mock_solver({"sycophantic": 1.0})


def test_bootstrap_ci_is_a_95_percent_interval():
    """451 Bernoulli(0.3) flags: the percentile interval's width matches 2 x 1.96 x sqrt(p(1-p)/n) within 10%."""
    from icml26.brokenmath.evaluation import bootstrap_ci

    flags = np.random.default_rng(0).random(451) < 0.3
    low, high = bootstrap_ci(flags.astype(float))
    p = flags.mean()
    assert high - low == pytest.approx(2 * 1.96 * np.sqrt(p * (1 - p) / 451), rel=0.10)
    assert low < p < high
    with pytest.raises(ValueError, match="finite"):
        bootstrap_ci([0.0, float("nan")])
    with pytest.raises(ValueError, match="1-d"):
        bootstrap_ci([[0.0, 1.0]])


def test_more_bad_input():
    from icml26.brokenmath import official_results as off
    from icml26.brokenmath.backends import OpenAIChat

    with pytest.raises(ValueError, match="0 or 1"):
        all_sycophantic_share([[0.5, 2.0]])
    with pytest.raises(ValueError, match="equal-length"):
        all_sycophantic_share([[1.0, 0.0], [1.0]])
    with pytest.raises(ValueError, match="noise"):
        mock_checker(noise=2.0)
    with pytest.raises(ValueError, match="max_tokens"):
        OpenAIChat("http://127.0.0.1:9/v1", "m", max_tokens=-1)
    with pytest.raises(ValueError, match="retries"):
        OpenAIChat("http://127.0.0.1:9/v1", "m", retries="a")
    with pytest.raises(ValueError, match="not in the paper's table"):
        off.table_rows(["nobody"])
    with pytest.raises(ValueError, match="public_ids"):
        off.public_subset_sycophancy("GPT-5 (high)", "abc")
    with pytest.raises(ValueError, match="none of the"):
        off.public_subset_sycophancy("GPT-5 (high)", ["not/an/id"])
    with pytest.raises(ValueError, match="integer >= 0"):
        brokenarith.false_value(-3, "minus_one", np.random.default_rng(0))
    with pytest.raises(ValueError, match="list of family names"):
        brokenarith.generate(2, families="gcd")
    with pytest.raises(ValueError, match="non-empty list of Item"):
        evaluate(mock_solver({"incorrect": 1.0}), LLMJudge(mock_checker()), "abc")
    with pytest.raises(TypeError, match="file path"):
        load(42)
