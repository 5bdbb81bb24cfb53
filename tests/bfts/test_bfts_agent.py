"""The BFTS agent and the baselines: exact bookkeeping, probability matching, reproducibility, bad input."""

import numpy as np
import pytest

from icml26.bfts import (
    BanditAgent,
    BFTSAgent,
    EpsilonGreedy,
    LinTS,
    LinUCB,
    NeuralTS,
    RandomAgent,
    TreeEnsembleTS,
    run_bandit,
    synthetic_environment,
)

SMALL = {"n_trees": 5, "n_burnin": 10, "min_draws": 20, "max_draws": 40}


def _fitted_bfts(seed=0, **kwargs):
    env = synthetic_environment("friedman1", 60, np.random.default_rng(seed))
    agent = BFTSAgent(2, 10, random_state=seed, **{**SMALL, **kwargs})
    run_bandit(env, agent, np.random.default_rng(seed))
    return agent


def test_same_seed_gives_identical_traces():
    env = synthetic_environment("friedman1", 80, np.random.default_rng(3))
    runs = [
        run_bandit(env, BFTSAgent(2, 10, random_state=7, **SMALL), np.random.default_rng(1)) for _ in range(2)
    ]
    assert np.array_equal(runs[0]["arms"], runs[1]["arms"])
    assert np.array_equal(runs[0]["regret"], runs[1]["regret"])


def test_probability_matching_with_a_fixed_posterior():
    agent = _fitted_bfts()
    x = np.full(10, 0.5)
    draws = agent.posterior_draws(x[None, :])[:, 0, :]  # (D, K)
    target = np.bincount(draws.argmax(axis=1), minlength=2) / draws.shape[0]
    picks = [agent.choose(x) for _ in range(10 * agent.n_draws_)]
    freq = np.bincount(picks, minlength=2) / len(picks)
    assert freq == pytest.approx(target, abs=0.03)


def test_regret_bookkeeping_is_exact_and_an_oracle_has_none():
    env = synthetic_environment("friedman1", 50, np.random.default_rng(0))

    class Oracle(BanditAgent):
        def _choose(self, x):
            t = int(np.flatnonzero((x == env.X).all(axis=1))[0])
            return int(env.mu[t].argmax())

    out = run_bandit(env, Oracle(2, 10, warm_start_permutations=0), np.random.default_rng(0))
    assert out["regret"].sum() == 0.0
    out = run_bandit(env, RandomAgent(2, 10, random_state=0), np.random.default_rng(0))
    assert out["regret"] == pytest.approx(env.mu.max(1) - env.mu[np.arange(50), out["arms"]])


def test_lints_posterior_is_the_closed_form_ridge_solution():
    rng = np.random.default_rng(0)
    agent = LinTS(3, 4, v=0.7, lam=2.0, random_state=0)
    X, arms, r = rng.normal(size=(60, 4)), rng.integers(3, size=60), rng.normal(size=60)
    for x, a, y in zip(X, arms, r, strict=True):
        agent.update(x, int(a), y)
    for a in range(3):
        Z = np.hstack([X[arms == a], np.ones((np.sum(arms == a), 1))])
        B = 2.0 * np.eye(5) + Z.T @ Z
        mean, cov = agent.posterior(a)
        assert mean == pytest.approx(np.linalg.solve(B, Z.T @ r[arms == a]))
        assert cov == pytest.approx(0.49 * np.linalg.inv(B))


def test_an_arm_with_very_little_data_does_not_crash_the_agent():
    agent = BFTSAgent(3, 2, warm_start_permutations=1, random_state=0, **SMALL)
    for a, r in zip([0, 1, 2], [1.0, 0.0, 0.0], strict=True):  # one observation per arm, two constant
        agent.update(np.array([0.1, 0.2]), a, r)
    assert len(agent.fit_times_) == 1
    assert agent.choose(np.array([0.3, 0.4])) in (0, 1, 2)


@pytest.mark.parametrize("encoding", ["multi", "one-hot"])
def test_pooled_encodings_give_draws_for_every_arm(encoding):
    agent = _fitted_bfts(encoding=encoding)
    draws = agent.posterior_draws(np.full((4, 10), 0.5))
    assert draws.shape == (agent.n_draws_, 4, 2) and np.isfinite(draws).all()
    assert agent.encode(np.ones((2, 3)), np.array([0, 1])).shape == (
        (2, 6) if encoding == "multi" else (2, 5)
    )


def test_feel_good_weights_are_uniform_at_lambda_zero():
    agent = _fitted_bfts(feel_good=True, feel_good_lambda=0.0)
    assert agent.draw_weights_ == pytest.approx(np.full(agent.n_draws_, 1 / agent.n_draws_))
    assert agent.choose(np.full(10, 0.5)) in (0, 1)


def test_numpy_backend_with_the_depth_exponential_prior_runs():
    agent = _fitted_bfts(backend="numpy", bart_params={"split_prior": "depth_exponential"})
    assert agent.posterior_draws(np.full((2, 10), 0.5)).shape[1:] == (2, 2)


@pytest.mark.parametrize(
    "make",
    [
        lambda: RandomAgent(2, 3, random_state=0),
        lambda: LinUCB(2, 3, random_state=0),
        lambda: EpsilonGreedy(2, 3, random_state=0),
        lambda: TreeEnsembleTS(2, 3, model="rf", n_estimators=5, random_state=0),
        lambda: TreeEnsembleTS(2, 3, model="xgb", n_estimators=5, random_state=0),
        lambda: NeuralTS(2, 3, epochs=5, random_state=0),
    ],
)
def test_baselines_share_the_interface_and_warm_start(make):
    agent = make()
    rng = np.random.default_rng(0)
    arms = []
    for _ in range(30):
        x = rng.uniform(size=3)
        a = agent.choose(x)
        arms.append(a)
        agent.update(x, a, float(a == 1) + 0.1 * rng.normal())
    assert sorted(arms[:2]) == [0, 1] and all(a in (0, 1) for a in arms)


def test_bad_inputs_get_clear_errors():
    agent = BFTSAgent(2, 3, random_state=0, **SMALL)
    with pytest.raises(ValueError, match=r"context x must have shape \(3,\)"):
        agent.choose(np.zeros(4))
    with pytest.raises(ValueError, match=r"arm must be an integer in \[0, 2\)"):
        agent.update(np.zeros(3), 2, 1.0)
    with pytest.raises(ValueError, match="reward must be finite"):
        agent.update(np.zeros(3), 0, float("nan"))
    with pytest.raises(TypeError, match="reward must be a real number"):
        agent.update(np.zeros(3), 0, "high")
    with pytest.raises(ValueError, match="context x must be finite"):
        agent.choose(np.array([0.0, np.inf, 0.0]))
    with pytest.raises(ValueError, match="encoding must be one of"):
        BFTSAgent(2, 3, encoding="pairs")
    with pytest.raises(ValueError, match="n_arms must be an integer >= 2"):
        LinTS(1, 3)
    with pytest.raises(ValueError, match="no fitted posterior yet"):
        agent.posterior_draws(np.zeros((1, 3)))


def test_rf_ts_grows_the_trees_scikit_learns_forest_grows():
    """RF-TS's direct tree loop (issue #17, third cut) is node for node scikit-learn's forest."""
    from sklearn.ensemble import RandomForestRegressor

    from icml26.bfts.baselines import _fit_random_forest

    for trial in range(4):
        rng = np.random.default_rng(trial)
        n, p = int(rng.integers(3, 120)), int(rng.integers(1, 8))
        X, y = rng.normal(size=(n, p)), rng.normal(size=n)
        if trial % 2:
            X, y = np.round(X, 1), (y > 0).astype(float)  # ties and binary rewards, as in the suite
        seed = int(rng.integers(2**31 - 1))
        forest = RandomForestRegressor(
            n_estimators=8, min_samples_leaf=2, max_features=0.5, random_state=seed
        ).fit(X, y)
        fast = _fit_random_forest(X, y, 8, seed)
        for ours, theirs in zip(fast.estimators_, forest.estimators_, strict=True):
            for field in (
                "children_left",
                "children_right",
                "feature",
                "threshold",
                "value",
                "n_node_samples",
            ):
                np.testing.assert_array_equal(getattr(ours.tree_, field), getattr(theirs.tree_, field))


def test_xgb_ts_on_one_thread_plays_as_before(monkeypatch):
    """XGB-TS under xgboost's one-thread context (issue #17, third cut) plays as with the default threads."""
    import xgboost

    import icml26.bfts.baselines as baselines

    env = synthetic_environment("friedman1", 60, np.random.default_rng(3))

    def regret() -> np.ndarray:
        agent = TreeEnsembleTS(2, 10, model="xgb", n_estimators=5, random_state=0)
        return run_bandit(env, agent, np.random.default_rng(4))["regret"]

    one_thread = regret()
    monkeypatch.setattr(baselines, "_one_thread", lambda model: xgboost.config_context())
    np.testing.assert_array_equal(one_thread, regret())
