"""Cross-check of the hand-written LinTS / LinUCB against a maintained implementation (mabwiser).

Both are disjoint per-arm ridge models on z = [x, 1] with lambda = 1 and exploration 1; the mabwiser
wrapper gets the same warm start. LinUCB is deterministic given the data, so the two play the same arms;
LinTS draws differ, so its regret is compared over seeds within a stated tolerance.
"""

import numpy as np
import pytest

mabwiser = pytest.importorskip("mabwiser.mab")

from icml26.bfts import BanditAgent, LinTS, LinUCB, run_bandit, synthetic_environment  # noqa: E402

T, SEEDS = 500, (0, 1, 2, 3)


class MabwiserLinear(BanditAgent):
    """mabwiser's LinTS or LinUCB behind the project's agent interface (features [x, 1])."""

    def __init__(self, n_arms: int, n_features: int, policy: str, random_state: int) -> None:
        super().__init__(n_arms, n_features, random_state=random_state)
        lp = mabwiser.LearningPolicy
        learning = (
            lp.LinTS(alpha=1.0, l2_lambda=1.0) if policy == "LinTS" else lp.LinUCB(alpha=1.0, l2_lambda=1.0)
        )
        self.mab = mabwiser.MAB(arms=list(range(n_arms)), learning_policy=learning, seed=random_state)
        self.fitted = False

    def _choose(self, x: np.ndarray) -> int:
        return int(self.mab.predict(np.append(x, 1.0)[None, :]))

    def _learn(self, x: np.ndarray, arm: int, reward: float) -> None:
        fit = self.mab.partial_fit if self.fitted else self.mab.fit
        fit([arm], [reward], np.append(x, 1.0)[None, :])
        self.fitted = True


def _play(agent, seed):
    env = synthetic_environment("friedman1", T, np.random.default_rng(seed))
    return run_bandit(env, agent, np.random.default_rng(seed + 10_000))


def test_ridge_posterior_matches_mabwiser_on_the_same_data():
    rng = np.random.default_rng(0)
    ours, theirs = LinTS(2, 10, random_state=0), MabwiserLinear(2, 10, "LinTS", 0)
    for _ in range(200):
        x, arm, r = rng.uniform(size=10), int(rng.integers(2)), float(rng.normal())
        ours.update(x, arm, r)
        theirs.update(x, arm, r)
    for arm in range(2):
        model = theirs.mab._imp.arm_to_model[arm]
        mean, cov = ours.posterior(arm)
        assert mean == pytest.approx(model.beta, abs=1e-8)
        assert cov == pytest.approx(model.A_inv, abs=1e-8)


def test_linucb_plays_the_same_arms_as_mabwiser():
    for seed in SEEDS[:2]:
        a = _play(LinUCB(2, 10, random_state=seed), seed)
        b = _play(MabwiserLinear(2, 10, "LinUCB", seed), seed)
        assert (a["arms"] == b["arms"]).mean() >= 0.99  # floating-point near-ties may differ
        assert a["regret"].sum() == pytest.approx(b["regret"].sum(), rel=0.02)


def test_lints_regret_matches_mabwiser_over_seeds():
    ours = np.mean([_play(LinTS(2, 10, random_state=s), s)["regret"].sum() for s in SEEDS])
    theirs = np.mean([_play(MabwiserLinear(2, 10, "LinTS", s), s)["regret"].sum() for s in SEEDS])
    # fixed seeds (measured 317 vs 289); the seed-to-seed sd is ~25%, so 20% on 4-seed means is a loose
    # check, ~1.2 sd of the difference; the exact checks are the posterior and LinUCB above
    assert ours == pytest.approx(theirs, rel=0.20)
