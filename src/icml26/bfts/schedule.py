"""When BFTS refits its forests, how many draws it keeps, and the order it plays them in.

BFTS does not update the BART posterior every round ("batched MCMC"): it refits every arm's model
from scratch, burn-in included, whenever a refresh index jumps. The default ``log`` schedule refits
when ``ceil(8 ln t)`` increments, so there are about ``8 ln(T / t0)`` refits after a warm start of
``t0`` rounds. Between refits the kept draws are played through a shuffled queue without repetition.
"""

from __future__ import annotations

import math

import numpy as np

SCHEDULES = ("log", "sqrt", "hybrid", "rev_hybrid")


def refresh_index(t: int, schedule: str = "log") -> int:
    """The refresh index at time ``t`` (the number of observations so far); a refit fires when it jumps.

    ``log``: ceil(8 ln t). ``sqrt``: ceil(0.57 sqrt t). ``hybrid``: sqrt until t = 100, then log
    (continuous at the switch). ``rev_hybrid``: log until t = 200, then sqrt. The constants put about
    56 refits by t = 10^4 for every schedule.
    """
    if not isinstance(t, int | np.integer) or isinstance(t, bool) or t < 1:
        raise ValueError(f"t must be a positive integer, got {t!r}")
    if schedule == "log":
        return math.ceil(8.0 * math.log(t))
    if schedule == "sqrt":
        return math.ceil(0.57 * math.sqrt(t))
    if schedule == "hybrid":
        return math.ceil(1.848 * math.sqrt(t)) if t <= 100 else math.ceil(9.240 * math.log(t) - 24.072)
    if schedule == "rev_hybrid":
        return math.ceil(3.620 * math.log(t)) if t <= 200 else math.ceil(0.512 * math.sqrt(t) + 11.940)
    raise ValueError(f"schedule must be one of {SCHEDULES}, got {schedule!r}")


def refresh_fires(t: int, schedule: str = "log") -> bool:
    """Whether the refresh index jumps at ``t``: ``index(t) > index(t - 1)`` (always true at t = 1)."""
    if not isinstance(t, int | np.integer) or isinstance(t, bool) or t < 1:
        raise ValueError(f"t must be a positive integer, got {t!r}")
    return t == 1 or refresh_index(t, schedule) > refresh_index(t - 1, schedule)


def steps_until_next_refresh(t: int, schedule: str = "log") -> int:
    """Rounds played on the posterior fitted at ``t`` before the next refit fires (>= 1)."""
    steps = 1
    while not refresh_fires(t + steps, schedule):
        steps += 1
    return steps


def draws_needed(
    t: int,
    schedule: str = "log",
    min_draws: int = 100,
    max_draws: int = 500,
    choices_per_round: int = 1,
) -> int:
    """Posterior draws to keep at a refit at ``t``: clip((choices_per_round + 1) * steps, min, max).

    ``steps`` is the number of rounds until the next refit. The official agent keeps
    ``max(100, min(ndpost, steps * (choices_per_iter + 1)))`` draws with one choice per round, i.e.
    twice the draws the queue needs before the next refit, within the MCMC budget.
    """
    if min_draws < 1 or max_draws < min_draws:
        raise ValueError(f"need 1 <= min_draws <= max_draws, got {min_draws}, {max_draws}")
    if choices_per_round < 1:
        raise ValueError(f"choices_per_round must be >= 1, got {choices_per_round}")
    needed = (choices_per_round + 1) * steps_until_next_refresh(t, schedule)
    return int(min(max_draws, max(min_draws, needed)))


def refit_times(horizon: int, warm_start: int, schedule: str = "log") -> list[int]:
    """The ``t`` at which a refit fires in rounds ``warm_start .. horizon``.

    The first entry is the initial fit at the end of the warm start (``t = warm_start``, which fires
    for the log schedule); the rest are refits. For K = 2 arms (warm start 10) and ``log``, there are
    37 refits after the initial fit by t = 1000.
    """
    if warm_start < 1 or horizon < warm_start:
        raise ValueError(f"need 1 <= warm_start <= horizon, got {warm_start}, {horizon}")
    return [t for t in range(warm_start, horizon + 1) if t == warm_start or refresh_fires(t, schedule)]


def warm_start_arms(n_arms: int, n_permutations: int, rng: np.random.Generator) -> np.ndarray:
    """The warm start: ``n_permutations`` consecutive random permutations of the arms, shape (n_arms*n_perm,).

    Every arm is played exactly ``n_permutations`` times, so each arm model has data at its first fit.
    """
    if n_arms < 1 or n_permutations < 0:
        raise ValueError(f"need n_arms >= 1 and n_permutations >= 0, got {n_arms}, {n_permutations}")
    if n_permutations == 0:
        return np.zeros(0, dtype=int)
    return np.concatenate([rng.permutation(n_arms) for _ in range(n_permutations)])


class DrawQueue:
    """The posterior draw indices, shuffled and popped without repetition; reshuffled when exhausted.

    Thompson sampling needs one fresh posterior draw per round; between refits the kept draws are used
    in a random order, each once before any is reused.
    """

    def __init__(self, n_draws: int, rng: np.random.Generator) -> None:
        if not isinstance(n_draws, int | np.integer) or n_draws < 1:
            raise ValueError(f"n_draws must be a positive integer, got {n_draws!r}")
        self.n_draws = int(n_draws)
        self._rng = rng
        self._order = rng.permutation(self.n_draws)
        self._pos = 0
        self.reshuffles = 0

    def pop(self) -> int:
        """The next draw index."""
        if self._pos == self.n_draws:
            self._order = self._rng.permutation(self.n_draws)
            self._pos = 0
            self.reshuffles += 1
        k = int(self._order[self._pos])
        self._pos += 1
        return k
