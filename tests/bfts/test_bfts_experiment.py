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
from icml26.bfts.experiment import EXPERIMENT, check, interval_hits, official_sampler_draws
from icml26.common import verdict


def test_smoke_run_has_every_claims_metric_and_sane_values():
    result = EXPERIMENT.run(dict(EXPERIMENT.profiles["smoke"]), 0)
    for claim in EXPERIMENT.claims:
        assert claim.name in result.blocked or claim.metric in result.metrics, claim.name
        for key in claim.baselines:
            assert key in result.metrics, key
        v = verdict(claim, result.metrics, result.blocked, "smoke")
        assert v.verdict in ("toy-verified", "refuted", "inconclusive", "blocked")
    assert set(result.blocked) == {"openml_nine", "drink_less_real"}
    assert 0.0 <= result.metrics["calibration_coverage90"] <= 1.0
    assert result.metrics["friedman1_regret_bfts"] >= 0
    assert 1 <= result.metrics["suite_bfts_rank_position"] <= 7
    assert all(math.isfinite(v) for v in result.metrics.values())
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
