"""A statistical test that BFTS learns by sampling its posterior, shown to fail for two broken agents.

The learning test (:func:`learning_failures`) asks two things of an agent on Friedman1 with fixed seeds:

1. *It samples its posterior*: with the posterior of the first seed's run held fixed, its choices at a
   context where the posterior is unsure (0.25 <= P(arm 0 best) <= 0.75) match that probability within
   0.03 (the draw queue makes them exact over whole cycles). Greedy-on-the-posterior-mean fails this.
2. *It learns*: its mean cumulative regret over ``SEEDS`` at ``T`` is below LinTS's and below 0.5x
   Random's on the same environments. Uniformly random arms fail this.

Issue #17 proposed T ~ 300; there a correct BFTS does not beat LinTS (measured: 226 vs 215, 6 seeds with the
quick forest), so the test plays T = 800, where the nonlinearity tells (the small forest: 374 vs 426, 4 seeds).
Greedy on the posterior mean does not fail the regret part on Friedman1 (greedy is strong with diverse
contexts); it fails the sampling part.
"""

import numpy as np
import pytest

from icml26.bfts import BFTSAgent, LinTS, RandomAgent, run_bandit, synthetic_environment
from icml26.bfts.schedule import DrawQueue

T, SEEDS = 800, (0, 1, 2, 3)
FOREST = {
    "n_trees": 20,
    "n_burnin": 50,
    "min_draws": 20,
    "max_draws": 50,
    "bart_params": {"prior": "official"},
}


class GreedyBFTS(BFTSAgent):
    """Broken on purpose: plays argmax of the posterior mean instead of a posterior draw."""

    def _choose(self, x: np.ndarray) -> int:
        if not self.models_:
            return int(self.rng.integers(self.n_arms))
        return int(np.argmax(self.posterior_draws(x[None, :])[:, 0, :].mean(axis=0)))


def _regret(make, seed: int) -> tuple[float, object]:
    env = synthetic_environment("friedman1", T, np.random.default_rng(seed))
    agent = make(seed)
    return float(run_bandit(env, agent, np.random.default_rng(seed + 10_000))["regret"].sum()), agent


def sampling_failure(agent: object) -> str | None:
    """Why ``agent``'s choices do not match its fixed posterior's argmax probabilities (None if they do)."""
    if not hasattr(agent, "posterior_draws"):
        return "the agent has no posterior to sample"
    probes = np.random.default_rng(12345).uniform(size=(300, 10))
    draws = agent.posterior_draws(probes)  # (D, n, K)
    p0 = (draws.argmax(axis=2) == 0).mean(axis=0)  # P(arm 0 best) at each probe
    unsure = np.flatnonzero((p0 >= 0.25) & (p0 <= 0.75))
    if unsure.size == 0:
        return "no probe where the posterior is unsure"
    x = probes[unsure[0]]
    if getattr(agent, "queue_", None) is not None:  # a fresh draw queue: 4 whole cycles below
        agent.queue_ = DrawQueue(draws.shape[0], agent.rng)
    picks = np.array([agent.choose(x) for _ in range(4 * draws.shape[0])])
    freq = float((picks == 0).mean())
    if abs(freq - p0[unsure[0]]) > 0.03:
        return f"arm 0 chosen with frequency {freq:.2f}, the posterior says {p0[unsure[0]]:.2f}"
    return None


def learning_failures(make) -> list[str]:
    """The reasons ``make(seed) -> agent`` fails the learning test (empty when it passes)."""
    regret, agent = _regret(make, SEEDS[0])
    why = sampling_failure(agent)
    failures = [why] if why else []
    ours = np.mean([regret] + [_regret(make, s)[0] for s in SEEDS[1:]])
    lints = np.mean([_regret(lambda s: LinTS(2, 10, random_state=s), s)[0] for s in SEEDS])
    random = np.mean([_regret(lambda s: RandomAgent(2, 10, random_state=s), s)[0] for s in SEEDS])
    if not ours < lints:
        failures.append(f"mean regret {ours:.0f} is not below LinTS's {lints:.0f}")
    if not ours < 0.5 * random:
        failures.append(f"mean regret {ours:.0f} is not below 0.5x Random's {random:.0f}")
    return failures


def test_bfts_learns_by_sampling_its_posterior():
    assert learning_failures(lambda s: BFTSAgent(2, 10, random_state=s, **FOREST)) == []


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda s: RandomAgent(2, 10, random_state=s), id="uniformly-random-arms"),
        pytest.param(lambda s: GreedyBFTS(2, 10, random_state=s, **FOREST), id="greedy-on-posterior-mean"),
    ],
)
def test_the_learning_test_fails_for_broken_agents(make):
    failures = learning_failures(make)
    assert failures
    # uniform arms fail both parts; greedy fails the sampling part (its regret passes on Friedman1)
    assert any("posterior" in f for f in failures)
