"""Bayesian Forest Thompson Sampling and the agent interface all baselines share.

Every agent answers ``choose(x) -> arm`` and learns from ``update(x, arm, reward)``. The first
``n_arms * warm_start_permutations`` rounds play consecutive random permutations of the arms (the
official agent's warm start, given to every agent so comparisons are fair).

BFTS models each arm's mean reward with its own BART forest, f(x, a) = g_{theta_a}(x) (the paper's model),
refits all forests from scratch on a refresh schedule (``schedule.py``), and at each round plays
argmax_a g_a^{(k)}(x) for one posterior draw index k, shared by all arms and taken from a queue
without repetition.
"""

from __future__ import annotations

import math
import time

import numpy as np

from icml26.bfts.bart import BACKENDS, BARTSampler, StochtreeBART, make_posterior
from icml26.bfts.schedule import SCHEDULES, DrawQueue, draws_needed, refresh_fires, warm_start_arms
from icml26.common import check_int

ENCODINGS = ("separate", "multi", "one-hot")


class BanditAgent:
    """Base class: input validation, the shared warm start, and the observed data.

    Subclasses implement ``_choose(x)`` (after the warm start) and may extend ``_learn(x, arm, r)``.
    ``t`` counts the observations seen so far.
    """

    name = "agent"

    def __init__(
        self,
        n_arms: int,
        n_features: int,
        warm_start_permutations: int = 5,
        random_state: int | None = None,
    ) -> None:
        self.n_arms = check_int("n_arms", n_arms, 2)
        self.n_features = check_int("n_features", n_features)
        self.warm_start_permutations = check_int("warm_start_permutations", warm_start_permutations, 0)
        self.rng = np.random.default_rng(random_state)
        self.warm_arms_ = warm_start_arms(self.n_arms, self.warm_start_permutations, self.rng)
        self.t = 0
        self.X_: list[np.ndarray] = []
        self.arms_: list[int] = []
        self.rewards_: list[float] = []

    @property
    def n_warm(self) -> int:
        return len(self.warm_arms_)

    def _check_x(self, x: np.ndarray) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        if x.ndim == 2 and x.shape[0] == 1:
            x = x[0]
        if x.ndim != 1 or x.shape[0] != self.n_features:
            raise ValueError(f"context x must have shape ({self.n_features},), got {x.shape}")
        if not np.isfinite(x).all():
            raise ValueError("context x must be finite (no NaN or inf)")
        return x

    def choose(self, x: np.ndarray) -> int:
        """The arm to play for context ``x`` of shape (n_features,)."""
        x = self._check_x(x)
        if self.t < self.n_warm:
            return int(self.warm_arms_[self.t])
        return int(self._choose(x))

    def update(self, x: np.ndarray, arm: int, reward: float) -> None:
        """Record that ``arm`` was played at ``x`` and paid ``reward``."""
        x = self._check_x(x)
        if not isinstance(arm, int | np.integer) or isinstance(arm, bool) or not 0 <= arm < self.n_arms:
            raise ValueError(f"arm must be an integer in [0, {self.n_arms}), got {arm!r}")
        try:
            reward = float(reward)
        except (TypeError, ValueError):
            raise TypeError(f"reward must be a real number, got {type(reward).__name__}") from None
        if not math.isfinite(reward):
            raise ValueError(f"reward must be finite, got {reward}")
        self.X_.append(x)
        self.arms_.append(int(arm))
        self.rewards_.append(reward)
        self.t += 1
        self._learn(x, int(arm), reward)

    def _choose(self, x: np.ndarray) -> int:
        raise NotImplementedError

    def _learn(self, x: np.ndarray, arm: int, reward: float) -> None:
        """Hook after each observation; the data are already stored."""


class BFTSAgent(BanditAgent):
    """Bayesian Forest Thompson Sampling.

    Parameters
    ----------
    backend: ``"stochtree"`` (default, fast) or ``"numpy"`` (the project's sampler, which also
        offers ``split_prior="depth_exponential"``, alpha^d).
    encoding: ``"separate"`` (one forest per arm, the paper's model), ``"multi"`` (one forest on x
        placed in arm a's block of a length K*p vector) or ``"one-hot"`` (one forest on [x, e_a]).
    schedule: refresh schedule (``log``, ``sqrt``, ``hybrid``, ``rev_hybrid``).
    n_trees, n_burnin: forest size and MCMC burn-in of every refit.
    min_draws, max_draws: kept draws per refit = clip(2 x rounds until the next refit, min, max), the
        official agent's rule (``schedule.draws_needed``).
    feel_good: reweight the draws by exp(lambda_t S(theta)) with S = sum_i min(0.5, max_a f(x_i, a))
        on rewards rescaled to [-0.5, 0.5], lambda_t = feel_good_lambda / sqrt(t), and resample
        the draw indices with replacement (the feel-good TS variant of the paper's frequentist result).
    bart_params: further keyword arguments for the backend (e.g. ``alpha``, ``beta``, ``split_prior``,
        stochtree's ``prior`` and ``num_chains``); ``nu`` defaults to 1, the official agent's.
    """

    name = "BFTS"

    def __init__(
        self,
        n_arms: int,
        n_features: int,
        backend: str = "stochtree",
        encoding: str = "separate",
        schedule: str = "log",
        n_trees: int = 100,
        n_burnin: int = 500,
        min_draws: int = 100,
        max_draws: int = 500,
        feel_good: bool = False,
        feel_good_lambda: float = 1.0,
        warm_start_permutations: int = 5,
        bart_params: dict | None = None,
        random_state: int | None = None,
    ) -> None:
        super().__init__(n_arms, n_features, warm_start_permutations, random_state)
        if backend not in BACKENDS:
            raise ValueError(f"backend must be one of {BACKENDS}, got {backend!r}")
        if encoding not in ENCODINGS:
            raise ValueError(f"encoding must be one of {ENCODINGS}, got {encoding!r}")
        if schedule not in SCHEDULES:
            raise ValueError(f"schedule must be one of {SCHEDULES}, got {schedule!r}")
        self.backend, self.encoding, self.schedule = backend, encoding, schedule
        self.n_trees = check_int("n_trees", n_trees)
        self.n_burnin = check_int("n_burnin", n_burnin, 0)
        self.min_draws = check_int("min_draws", min_draws)
        self.max_draws = check_int("max_draws", max_draws, self.min_draws)
        if not (math.isfinite(feel_good_lambda) and feel_good_lambda >= 0):
            raise ValueError(f"feel_good_lambda must be a finite number >= 0, got {feel_good_lambda!r}")
        self.feel_good, self.feel_good_lambda = bool(feel_good), float(feel_good_lambda)
        self.bart_params = dict(bart_params or {})
        self.models_: list[BARTSampler | StochtreeBART] = []
        self.fit_times_: list[int] = []
        self.fit_seconds_ = 0.0
        self.queue_: DrawQueue | None = None
        self.draw_weights_: np.ndarray | None = None

    # --- encodings -----------------------------------------------------------------------------
    def encode(self, X: np.ndarray, arms: np.ndarray) -> np.ndarray:
        """Rows for the pooled encodings: ``multi`` (n, K*p) with x in arm a's block; ``one-hot`` (n, p+K)."""
        n, p = X.shape
        if self.encoding == "multi":
            Z = np.zeros((n, self.n_arms * p))
            for a in range(self.n_arms):
                rows = arms == a
                Z[rows, a * p : (a + 1) * p] = X[rows]
            return Z
        return np.hstack([X, np.eye(self.n_arms)[arms]])

    # --- fitting -------------------------------------------------------------------------------
    def _ready(self) -> bool:
        if self.t < max(self.n_warm, 1):
            return False
        if self.encoding == "separate":
            return len(set(self.arms_)) == self.n_arms
        return True

    def _learn(self, x: np.ndarray, arm: int, reward: float) -> None:
        if not self._ready():
            return
        # the first fit comes as soon as the warm start ends; refits when the refresh index jumps
        if not self.models_ or refresh_fires(self.t, self.schedule):
            self.refit()

    def refit(self) -> None:
        """Refit every forest from scratch on all data (full MCMC with burn-in); reset the draw queue."""
        start = time.perf_counter()
        X = np.asarray(self.X_)
        y = np.asarray(self.rewards_)
        arms = np.asarray(self.arms_)
        n_draws = draws_needed(self.t, self.schedule, self.min_draws, self.max_draws)
        seed = int(self.rng.integers(2**31 - 1))
        # nu = 1: the official agent's sigma^2 prior (DefaultBARTTSAgent sets eps_nu = 1.0; DefaultBART has 3)
        params = {
            "n_trees": self.n_trees,
            "n_burnin": self.n_burnin,
            "n_draws": n_draws,
            "nu": 1.0,
            **self.bart_params,
        }
        if self.backend == "numpy":
            params.setdefault("max_bins", int(min(2000, max(100, math.ceil(0.2 * self.t)))))
        if self.encoding == "separate":
            self.models_ = [
                make_posterior(self.backend, random_state=seed + a, **params).fit(X[arms == a], y[arms == a])
                for a in range(self.n_arms)
            ]
        else:
            self.models_ = [
                make_posterior(self.backend, random_state=seed, **params).fit(self.encode(X, arms), y)
            ]
        n_draws = int(getattr(self.models_[0], "total_draws", n_draws))  # num_chains * n_draws
        self.n_draws_ = n_draws
        self.draw_weights_ = None
        if self.feel_good:
            self.draw_weights_ = self._feel_good_weights(X, y)
        self.queue_ = DrawQueue(n_draws, self.rng)
        self.fit_times_.append(self.t)
        self.fit_seconds_ += time.perf_counter() - start

    def _feel_good_weights(self, X: np.ndarray, y: np.ndarray) -> np.ndarray:
        """w_j proportional to exp(lambda_t S(theta_j)), S = sum_i min(0.5, max_a f_j(x_i, a)) (scaled)."""
        f = self.posterior_draws(X)  # (D, n, K)
        lo, span = float(y.min()), float(np.ptp(y)) or 1.0
        score = np.minimum(0.5, ((f - lo) / span - 0.5).max(axis=2)).sum(axis=1)  # (D,)
        logw = self.feel_good_lambda / math.sqrt(self.t) * score
        w = np.exp(logw - logw.max())
        return w / w.sum()

    # --- acting --------------------------------------------------------------------------------
    def posterior_draws(self, X: np.ndarray) -> np.ndarray:
        """Posterior draws of f(x, a) at contexts X (n, p); shape (n_draws, n, n_arms)."""
        if not self.models_:
            raise ValueError("the agent has no fitted posterior yet; it fits once the warm start is over")
        X = np.asarray(X, dtype=float)
        if X.ndim != 2 or X.shape[1] != self.n_features:
            raise ValueError(f"X must have shape (n, {self.n_features}), got {X.shape}")
        if self.encoding == "separate":
            return np.stack([m.predict(X) for m in self.models_], axis=2)
        n = X.shape[0]
        rows = self.encode(np.repeat(X, self.n_arms, axis=0), np.tile(np.arange(self.n_arms), n))
        return self.models_[0].predict(rows).reshape(-1, n, self.n_arms)

    def sample_values(self, x: np.ndarray, k: int) -> np.ndarray:
        """f^{(k)}(x, a) for every arm a from draw k; shape (n_arms,)."""
        X = x[None, :]
        if self.encoding == "separate":
            return np.array([m.predict_draw(X, k)[0] for m in self.models_])
        rows = self.encode(np.repeat(X, self.n_arms, axis=0), np.arange(self.n_arms))
        return self.models_[0].predict_draw(rows, k)

    def next_draw(self) -> int:
        """The draw index for this round: from the no-repeat queue, or resampled by the feel-good weights."""
        if self.draw_weights_ is not None:
            return int(self.rng.choice(self.draw_weights_.size, p=self.draw_weights_))
        assert self.queue_ is not None
        return self.queue_.pop()

    def _choose(self, x: np.ndarray) -> int:
        if not self.models_:
            return int(self.rng.integers(self.n_arms))
        values = self.sample_values(x, self.next_draw())
        best = np.flatnonzero(values == values.max())
        return int(best[0] if best.size == 1 else self.rng.choice(best))
