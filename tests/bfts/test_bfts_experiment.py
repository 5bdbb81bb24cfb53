"""The experiment's smoke run, the environments and the MRT simulator with replay evaluation."""

import math

import numpy as np
import pytest

from icml26.bfts import (
    BanditAgent,
    classification_environment,
    replay_evaluation,
    simulate_trial,
    synthetic_environment,
)
from icml26.bfts.calibration import interval_hits, linear_interval_hits, official_sampler_draws
from icml26.bfts.experiment import EXPERIMENT, check
from icml26.bfts.summaries import add_paired, add_replay, rank_position_interval, spread, spread_interval
from icml26.common import comparison_key, verdict
from icml26.common.stats import ratio_of_means_ci


def test_smoke_run_has_every_claims_metric_and_sane_values():
    result = EXPERIMENT.run(dict(EXPERIMENT.profiles["smoke"]), 0)
    m = result.metrics
    verdicts = {}
    for claim in EXPERIMENT.claims:
        if claim.name not in result.blocked:
            for key in (claim.metric, *claim.relative_to, *claim.controls):
                assert key in m, f"{claim.name}: {key}"
        verdicts[claim.name] = v = verdict(claim, m, result.blocked, "smoke")
        # a smoke run never verifies, and only the two claims without data are blocked
        assert v.verdict in ("toy-verified", "refuted", "inconclusive", "blocked"), claim.name
        assert (v.verdict == "blocked") == (claim.name in result.blocked), claim.name
    # comparisons carry the paired interval stored under the contract's key, around the point ratio
    v = verdicts["friedman1_vs_lints"]
    key = comparison_key("friedman1_regret_bfts", "friedman1_regret_lints", "ratio")
    assert v.interval == (m[key + "_ci_low"], m[key + "_ci_high"])
    assert v.interval[0] <= m["friedman1_regret_bfts"] / m["friedman1_regret_lints"] <= v.interval[1]
    assert v.measured == pytest.approx(m["friedman1_regret_bfts"] / m["friedman1_regret_lints"])
    # LinTS is judged by the same rule against Random
    assert verdicts["friedman1_vs_random"].controls["friedman1_regret_lints"] == pytest.approx(
        m["friedman1_regret_lints"] / m["friedman1_regret_random"]
    )
    key = comparison_key("mrt_bfts_replay_value", "mrt_logged_value", "ratio")
    assert verdicts["mrt_lift"].interval == (m[key + "_ci_low"], m[key + "_ci_high"])
    # smoke plays one dataset once: no interval over instances, so the rank claims cannot be decided
    assert verdicts["suite_rank_first"].verdict == "inconclusive"
    assert "no interval" in verdicts["suite_rank_first"].reason
    assert "suite_bfts_rank_position_ci_low" not in m
    # every agent on Friedman1 and Friedman2: BFTS / each agent with its paired interval, the table shows them
    for scenario in ("friedman1", "friedman2"):
        claim = next(c for c in EXPERIMENT.claims if c.name == f"{scenario}_competitive")
        for base in claim.relative_to:
            key = comparison_key(f"{scenario}_regret_bfts", base, "ratio")
            assert m[key + "_ci_low"] <= m[f"{scenario}_regret_bfts"] / m[base] <= m[key + "_ci_high"]
        assert {r["agent"] for r in result.tables[scenario]} == set(
            EXPERIMENT.profiles["smoke"]["friedman_agents"].split(",")
        )
    # the calibration control is LinTS's posterior coverage on the same seeds
    assert 0.0 <= m["calibration_coverage90_lints"] <= 1.0 and "calibration_coverage90_lints_ci" in m
    assert "coverage_90_lints" in result.tables["calibration"][0]
    # the robustness spread carries a bootstrap interval over the shared seeds
    assert m["robust_regret_spread_ci_low"] <= m["robust_regret_spread_ci_high"]
    # the original settings are the run's first seeds / first trial: all of them in smoke (2 seeds, 1 trial)
    assert m["friedman1_regret_bfts_first3"] == pytest.approx(m["friedman1_regret_bfts"])
    assert m["friedman1_regret_lints_first3"] == pytest.approx(m["friedman1_regret_lints"])
    assert m["mrt_bfts_replay_value_trial0"] == pytest.approx(m["mrt_bfts_replay_value"])
    assert m["mrt_logged_value_trial0"] == pytest.approx(m["mrt_logged_value"])
    # the hand-built ratio metrics are gone: the contract computes comparisons
    assert not [k for k in m if k.startswith("friedman1_ratio") or "_replay_lift" in k]
    assert set(result.blocked) == {"openml_nine", "drink_less_real"}
    assert 0.0 <= result.metrics["calibration_coverage90"] <= 1.0
    assert result.metrics["friedman1_regret_bfts"] >= 0
    assert 1 <= result.metrics["suite_bfts_rank_position"] <= 7
    assert all(math.isfinite(x) for x in result.metrics.values())
    assert {"friedman1", "classification_regret", "mrt", "robustness", "speed", "calibration"} <= set(
        result.tables
    )
    # coverage is split by region and uses every draw of the last refit
    row = result.tables["calibration"][0]
    assert {"coverage_better_arm", "coverage_worse_arm", "draws", "last_refit_t"} <= set(row)
    assert row["draws"] >= EXPERIMENT.profiles["smoke"]["min_draws"]
    assert 0.0 <= row["coverage_90_official_sampler"] <= 1.0  # the first seed is refit
    assert "coverage_90_official_sampler" not in result.tables["calibration"][1]
    # the official-forest runs: one row per seed, and the claim's metric is their mean coverage
    official = result.tables["calibration_official_forest"]
    assert len(official) == EXPERIMENT.profiles["smoke"]["calibration_official_seeds"]
    assert official[0]["draws"] >= EXPERIMENT.profiles["smoke"]["min_draws"]
    mean = np.mean([r["coverage_90"] for r in official])
    assert abs(result.metrics["calibration_official_agent_coverage90"] - mean) <= 0.0005
    assert len(result.tables["mrt_trials"]) == 3 * EXPERIMENT.profiles["smoke"]["mrt_trials"]
    assert result.plots and result.plots[0].series["BFTS"][0][0] == 1


def test_claims_under_the_contract_v3():
    claims = {c.name: c for c in EXPERIMENT.claims}
    paper = {n for n, c in claims.items() if c.kind == "paper"}
    assert paper == {
        "friedman1_competitive",
        "friedman2_competitive",
        "suite_rank_first",
        "calibration_official_agent",
        "mrt_lift_paper",
        "openml_nine",
        "drink_less_real",
    }
    # "competitive regret": <= 1.1x the best other agent, against every agent the scenario plays
    others = [a for a in EXPERIMENT.profiles["quick"]["friedman_agents"].split(",") if a != "BFTS"]
    for scenario in ("friedman1", "friedman2"):
        c = claims[f"{scenario}_competitive"]
        assert (c.op, c.threshold, c.form) == ("<=", 1.1, "ratio")
        assert set(c.relative_to) == {f"{scenario}_regret_{a.lower().replace('-', '_')}" for a in others}
    assert claims["friedman1_vs_lints"].kind == "check" and claims["friedman1_vs_lints"].threshold == 0.75
    # the paper's own bars: best rank (position 1, every other agent a control), a lift above 30%
    rank = claims["suite_rank_first"]
    assert (rank.op, rank.threshold) == ("<=", 1.0) and len(rank.controls) == 6
    assert claims["suite_rank"].kind == "check" and claims["suite_rank"].threshold == 2.0
    assert claims["mrt_lift_paper"].op == ">" and claims["mrt_lift_paper"].threshold == 1.30
    # calibration: one two-sided claim per posterior, LinTS's coverage the control
    for name in ("calibration", "calibration_official_agent", "calibration_official"):
        assert claims[name].op == "in" and claims[name].threshold == (0.80, 0.97)
        assert claims[name].controls == ("calibration_coverage90_lints",)
    # sanity rules are checks; the Random bar names LinTS and LinUCB as controls
    assert claims["friedman1_vs_random"].kind == "check" and len(claims["friedman1_vs_random"].controls) == 2
    assert claims["robustness"].kind == "check"
    # every former setting is a Revision of the test it was, with its verdict then (no stored test rows)
    assert not [n for n in claims if n.endswith(("_3seeds", "_20seeds", "_1seed", "_T1000", "_5trials"))]
    assert not {"friedman1_vs_lints_3seeds", "mrt_lift_one_trial", "calibration_original_priors"} & set(
        claims
    )
    history = {n: [(r.verdict, r.run) for r in c.revisions] for n, c in claims.items()}
    assert len(history["robustness"]) == 5 and history["robustness"][0][0] == "refuted"  # the first priors
    assert ("refuted", "920dae3 (quick): coverage 0.769 +- 0.021") in history["calibration_official_agent"]
    assert [v for v, _ in history["suite_rank_best"]] == ["inconclusive", "inconclusive", "refuted"]
    assert "friedman1_regret_bfts_first3" in claims["friedman1_vs_lints"].context  # the 3-seed figure shown
    assert "mrt_bfts_replay_value_trial0" in claims["mrt_lift"].context
    assert {c.supports for c in claims.values() if c.kind == "paper"} == {
        p.id for p in EXPERIMENT.paper_claims
    }
    # every measurement here depends on the seed
    assert not any(c.deterministic for c in EXPERIMENT.claims)


def test_spread_interval_resamples_seeds_and_is_exact_without_seed_noise():
    same = np.array([[100.0, 100.0, 100.0], [120.0, 120.0, 120.0]])
    assert spread(same) == pytest.approx(20 / 110)
    assert spread_interval(same, 0) == pytest.approx((20 / 110, 20 / 110))
    noisy = np.array([[100.0, 140.0, 60.0, 100.0], [100.0, 60.0, 140.0, 100.0]])
    low, high = spread_interval(noisy, 0)
    assert low <= spread(noisy) == 0.0 <= high and high > 0.3  # seed noise alone makes a spread
    with pytest.raises(ValueError, match="seeds >= 2"):
        spread_interval(np.ones((3, 1)), 0)


def test_linear_coverage_is_the_gaussian_interval():
    from icml26.bfts import LinTS

    agent = LinTS(2, 2, random_state=0)
    probes = np.array([[0.0, 0.0]])
    # prior: mean 0, covariance I on [x, 1]: f(probe) ~ N(0, 1), so |truth| <= 1.645 is covered
    hits = linear_interval_hits(agent, probes, np.array([[1.6, 1.7]]))
    assert hits.tolist() == [[True, False]]


def test_rank_position_interval_resamples_instances():
    always_best = np.array([[1.0, 1.0, 1.0, 1.0], [2.0, 2.0, 2.0, 2.0], [3.0, 3.0, 3.0, 3.0]])
    assert rank_position_interval(always_best, 0, 0) == (1.0, 1.0)
    assert rank_position_interval(always_best, 2, 0) == (3.0, 3.0)
    # best on one instance of four, last on the others: a resample can make it first or last
    mixed = np.array([[1.0, 3.0, 3.0, 3.0], [2.0, 1.0, 1.0, 1.0], [3.0, 2.0, 2.0, 2.0]])
    low, high = rank_position_interval(mixed, 0, 0)
    assert low <= 2.0 and high == 3.0


def test_replay_ratio_interval_is_the_delta_method():
    metrics: dict[str, float] = {}
    add_replay(metrics, "logged", "logged", 0.1, 1000, 0.1, 1000)
    add_replay(metrics, "ours", "logged", 0.2, 100, 0.1, 1000)
    assert metrics["logged"] == 0.1 and metrics["logged_ci"] == pytest.approx(1.96 * math.sqrt(0.09 / 1000))
    assert metrics["ours_ci"] == pytest.approx(1.96 * 0.04)
    # se of R / L: hypot(se_R / L, R se_L / L^2) = hypot(0.4, 2 * 0.09487) = 0.4427
    key = comparison_key("ours", "logged", "ratio")
    half = 1.96 * math.hypot(0.04 / 0.1, 0.2 * math.sqrt(0.09 / 1000) / 0.01)
    assert metrics[key + "_ci_low"] == pytest.approx(2.0 - half)
    assert metrics[key + "_ci_high"] == pytest.approx(2.0 + half)


def test_profiles_share_keys_and_check_rejects_bad_configs():
    assert set(EXPERIMENT.profiles["smoke"]) == set(EXPERIMENT.profiles["paper"])
    for profile in ("smoke", "quick", "paper"):
        check(dict(EXPERIMENT.profiles[profile]))
    bad = dict(EXPERIMENT.profiles["smoke"], suite_agents="BFTS,GPUCB")
    with pytest.raises(ValueError, match="suite_agents"):
        check(bad)
    with pytest.raises(ValueError, match="friedman_horizon"):
        check(dict(EXPERIMENT.profiles["smoke"], friedman_horizon=10))
    with pytest.raises(ValueError, match="bart_prior"):
        check(dict(EXPERIMENT.profiles["smoke"], bart_prior="bartMachine"))
    with pytest.raises(ValueError, match="mrt_trials"):
        check(dict(EXPERIMENT.profiles["smoke"], mrt_trials=0))
    with pytest.raises(ValueError, match="calibration_refit_seeds"):
        check(dict(EXPERIMENT.profiles["smoke"], calibration_refit_seeds=-1))
    with pytest.raises(ValueError, match="calibration_official_seeds"):
        check(dict(EXPERIMENT.profiles["smoke"], calibration_official_seeds=-1))


def test_interval_hits_uses_the_central_90_percent():
    draws = np.linspace(0.0, 1.0, 1001)[:, None]  # quantiles 0.05 and 0.95 are exactly 0.05 and 0.95
    truth = np.array([[0.04], [0.05], [0.5], [0.95], [0.96]]).T
    np.testing.assert_array_equal(interval_hits(draws, truth), [[False, True, True, True, False]])


def test_official_sampler_refit_has_one_posterior_per_arm():
    rng = np.random.default_rng(0)
    X = rng.uniform(size=(60, 3))
    arms = np.repeat([0, 1], 30)
    y = np.where(arms == 0, 5.0, -5.0) + 0.1 * rng.normal(size=60)
    draws = official_sampler_draws(X, arms, y, X[:4], 0, n_trees=5, n_burnin=20, n_draws=30)
    assert draws.shape == (30, 4, 2)
    # each arm's draws centre on its own level, so the arms were fit separately
    assert abs(draws[:, :, 0].mean() - 5.0) < 0.5 and abs(draws[:, :, 1].mean() + 5.0) < 0.5


def test_friedman1_arms_are_the_reversal_of_each_other():
    env = synthetic_environment("friedman1", 5, np.random.default_rng(0))
    x = env.X[0]
    f1 = 10 * np.sin(np.pi * x[0] * x[1]) + 20 * (x[2] - 0.5) ** 2 + 10 * x[3] + 5 * x[4]
    assert env.mu[0, 0] == pytest.approx(f1)
    r = x[::-1]
    assert env.mu[0, 1] == pytest.approx(
        10 * np.sin(np.pi * r[0] * r[1]) + 20 * (r[2] - 0.5) ** 2 + 10 * r[3] + 5 * r[4]
    )
    for name in ("friedman2", "friedman3", "linfriedman", "linear", "glm"):
        assert np.isfinite(synthetic_environment(name, 10, np.random.default_rng(0)).mu).all()


def test_classification_bandit_pays_one_for_the_label():
    env = classification_environment("iris", np.random.default_rng(0))
    assert env.mu.shape == (150, 3) and np.all(env.mu.sum(1) == 1)
    assert env.reward(0, int(env.mu[0].argmax()), np.random.default_rng(0)) == 1.0
    with pytest.raises(ValueError, match="dataset must be one of"):
        classification_environment("mnist", np.random.default_rng(0))
    with pytest.raises(ValueError, match="scenario must be one of"):
        synthetic_environment("friedman4", 10, np.random.default_rng(0))


def test_mrt_logs_the_trial_probabilities_and_replay_is_unbiased_for_a_fixed_policy():
    log = simulate_trial(300, 30, np.random.default_rng(0))
    freq = np.bincount(log.actions, minlength=3) / log.actions.size
    assert freq == pytest.approx([0.4, 0.3, 0.3], abs=0.02)  # 9000 rows: sd < 0.006
    # a notification raises the odds of opening by about 3.5 on day 0
    day0 = log.X[:, 0] == 0
    odds = log.p[day0] / (1 - log.p[day0])
    assert 2.0 < np.median(odds[:, 1] / odds[:, 0]) < 6.0

    class Always(BanditAgent):
        def _choose(self, x):
            return 2

    res = replay_evaluation(log, Always(3, 3, warm_start_permutations=0))
    # for a context-free policy, replay = mean reward of the matched rows, unbiased for its value
    assert res["matched"] == np.sum(log.actions == 2)
    assert res["replay_value"] == pytest.approx(res["true_value"], abs=4 * math.sqrt(0.25 / res["matched"]))
    with pytest.raises(ValueError, match="n_users and n_days must be >= 1"):
        simulate_trial(0, 5, np.random.default_rng(0))


def test_river_bundled_sets_become_bandits():
    pytest.importorskip("river")
    env = classification_environment("segment", np.random.default_rng(0), horizon=100)
    assert env.X.shape == (100, 18) and env.mu.shape == (100, 7)
    assert np.all(env.mu.sum(1) == 1)


def test_ratio_interval_is_honest_for_a_handful_of_pairs():
    a, b = np.array([10.0, 14.0]), np.array([10.0, 10.0])
    low, high = ratio_of_means_ci(a, b)
    # r = 1.2, a - r b = (-2, 2): sd 2.83, t(1) = 12.71: half = 12.71 * 2.83 / (sqrt(2) * 10) = 2.54
    assert (low, high) == pytest.approx((1.2 - 2.542, 1.2 + 2.542), abs=1e-3)
    metrics: dict[str, float] = {}
    add_paired(metrics, "ours", "base", a, b, "ratio")
    key = comparison_key("ours", "base", "ratio")
    assert metrics[key + "_ci_low"] <= low and metrics[key + "_ci_high"] >= high  # the wider of the two
    # ours is twice the baseline on every pair: the interval is about 2, on the right side of 1
    b = np.random.default_rng(0).uniform(1.0, 2.0, 12)
    add_paired(metrics, "twice", "base", 2 * b, b, "ratio")
    twice = comparison_key("twice", "base", "ratio")
    assert 1.5 < metrics[twice + "_ci_low"] <= 2.0 <= metrics[twice + "_ci_high"] < 2.5
    with pytest.raises(ValueError, match="2 pairs"):
        ratio_of_means_ci(np.ones(1), np.ones(1))
