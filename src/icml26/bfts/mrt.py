"""A simulated micro-randomized trial modelled on Drink Less, and replay off-policy evaluation.

The real Drink Less trial data (Bell et al. 2020) are private, so this is a
simulator with the trial's structure: each user, each day since download, gets one of three actions
at 8pm (0 = no message, 1 = standard message, 2 = new message) with the trial's logged probabilities
0.4 / 0.3 / 0.3; the reward is whether the user opens the app between 8 and 9pm. The context is the
paper's: days since download, whether the user opened the app before 8pm that day, and whether they
opened it after 9pm the day before. A latent per-user engagement, unseen by the agents, drives all
three. A notification multiplies the odds of opening by about 3.5 in the first days (the trial's
published effect), with habituation: the standard message wears off over the month and the new
message works best on users already engaged that day. Every constant is fixed below, before any
agent is run.

Replay evaluation (Li et al. 2011): stream the logged rows; when the agent's choice equals the logged
action, the agent sees the logged reward and learns; the policy value estimate is the mean reward of
the matched rows. Because the simulator knows every row's true outcome probabilities, the estimator's
bias can be measured against the agent's true value on all rows.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from icml26.bfts.agent import BanditAgent
from icml26.common import progress

LOGGED_PROBS = (0.4, 0.3, 0.3)
ACTIONS = ("none", "standard", "new")


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-z))


@dataclass
class TrialLog:
    """A simulated trial, rows in time order (day-major).

    X (n, 3): days since download / 30, opened before 8pm, opened after 9pm the day before.
    p (n, 3): true probability of opening 8-9pm under each action. actions (n,), rewards (n,) logged.
    """

    X: np.ndarray
    p: np.ndarray
    actions: np.ndarray
    rewards: np.ndarray

    @property
    def logged_value(self) -> float:
        """True value of the logged policy: mean over rows of sum_a pi_log(a) p(x, a)."""
        return float(np.mean(self.p @ np.asarray(LOGGED_PROBS)))


def simulate_trial(n_users: int, n_days: int, rng: np.random.Generator) -> TrialLog:
    """Simulate a Drink-Less-like MRT with ``n_users`` users over ``n_days`` days; ``n_users * n_days`` rows."""
    if not isinstance(n_users, int | np.integer) or not isinstance(n_days, int | np.integer):
        raise TypeError(
            f"n_users and n_days must be integers, got {type(n_users).__name__}, {type(n_days).__name__}"
        )
    if n_users < 1 or n_days < 1:
        raise ValueError(f"n_users and n_days must be >= 1, got {n_users}, {n_days}")
    engagement = rng.normal(size=n_users)
    days = np.repeat(np.arange(n_days), n_users)
    users = np.tile(np.arange(n_users), n_days)
    e = engagement[users]
    before8 = (rng.random(days.size) < _sigmoid(-1.0 + e - 0.05 * days)).astype(float)
    after9 = (rng.random(days.size) < _sigmoid(-1.5 + e - 0.05 * days)).astype(float)
    base = -3.0 + 0.8 * e - 0.03 * days + 1.0 * before8 + 0.7 * after9
    # log(3.5) = 1.25: the notification effect on the odds of opening in the hour after 8pm
    effect_standard = 1.5 * np.exp(-days / 15.0) * (1.0 - 0.6 * before8)
    effect_new = 0.9 * (0.5 + 0.5 * before8) + 0.3 * after9
    p = _sigmoid(np.column_stack([base, base + effect_standard, base + effect_new]))
    actions = rng.choice(3, size=days.size, p=LOGGED_PROBS)
    rewards = (rng.random(days.size) < p[np.arange(days.size), actions]).astype(float)
    X = np.column_stack([days / 30.0, before8, after9])
    return TrialLog(X=X, p=p, actions=actions, rewards=rewards)


def replay_evaluation(log: TrialLog, agent: BanditAgent, label: str = "") -> dict[str, float]:
    """Replay OPE of ``agent`` on ``log``.

    Returns ``replay_value`` (mean logged reward over matched rows), ``true_value`` (mean over all
    rows of p(x, agent's choice)), ``bias`` = replay - true, and ``matched`` (number of matched rows).
    """
    n = log.X.shape[0]
    rewards, true = [], np.zeros(n)
    for i in progress(range(n), f"replay {label or type(agent).__name__}", total=n):
        a = int(agent.choose(log.X[i]))
        true[i] = log.p[i, a]
        if a == log.actions[i]:
            rewards.append(log.rewards[i])
            agent.update(log.X[i], a, log.rewards[i])
    replay = float(np.mean(rewards)) if rewards else float("nan")
    return {
        "replay_value": replay,
        "true_value": float(true.mean()),
        "bias": replay - float(true.mean()),
        "matched": float(len(rewards)),
    }
