"""Posterior calibration: the fixed probes, interval coverage of BART draws and of LinTS, the official sampler.

The calibration tests ask whether the central 90% credible interval of f(x, a) covers the truth at fixed
probes about 90% of the time; LinTS's Gaussian posterior is the control.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from icml26.bfts.agent import BFTSAgent
from icml26.bfts.bart import make_posterior
from icml26.bfts.baselines import LinTS
from icml26.bfts.environments import friedman1

# the official agent's forest (bart-playground's DefaultBARTTSAgent): 100 trees, 500 burn-in sweeps
OFFICIAL_TREES, OFFICIAL_BURNIN = 100, 500


def linear_interval_hits(agent: LinTS, probes: np.ndarray, truth: np.ndarray) -> np.ndarray:
    """Whether LinTS's central 90% posterior interval of f(x, a) = theta_a^T [x, 1] covers ``truth``
    ``(n, K)`` at ``probes`` ``(n, p)``: the Gaussian mean +- 1.645 sd (the calibration control)."""
    z = np.column_stack([probes, np.ones(len(probes))])
    hits = np.empty(truth.shape, dtype=bool)
    for a in range(truth.shape[1]):
        mean, cov = agent.posterior(a)
        centre = z @ mean
        sd = np.sqrt(np.einsum("ni,ij,nj->n", z, cov, z))
        hits[:, a] = np.abs(truth[:, a] - centre) <= stats.norm.ppf(0.95) * sd
    return hits


def calibration_probes(n_probes: int) -> tuple[np.ndarray, np.ndarray]:
    """The fixed calibration probes (uniform on [0, 1]^10, seed 12345) and Friedman1's f(x, a) there.

    Shapes ``(n, 10)`` and ``(n, 2)``; arm 1 sees the reversed context (:func:`synthetic_environment`).
    """
    probes = np.random.default_rng(12345).uniform(size=(n_probes, 10))
    return probes, np.column_stack([friedman1(probes), friedman1(probes[:, ::-1])])


def interval_hits(draws: np.ndarray, truth: np.ndarray) -> np.ndarray:
    """Whether the central 90% interval of ``draws`` ``(D, ...)`` covers ``truth`` ``(...)``."""
    lo, hi = np.quantile(draws, [0.05, 0.95], axis=0)
    return (truth >= lo) & (truth <= hi)


def coverage_row(seed: int, hit: np.ndarray, better: np.ndarray, agent: BFTSAgent, n_draws: int) -> dict:
    """One calibration table row: coverage overall, where the arm is the better / worse one, last refit."""
    return {
        "seed": seed,
        "coverage_90": round(float(hit.mean()), 3),
        "coverage_better_arm": round(float(hit[better].mean()), 3),
        "coverage_worse_arm": round(float(hit[~better].mean()), 3),
        "last_refit_t": agent.fit_times_[-1],
        "draws": n_draws,
    }


def official_sampler_draws(
    X: np.ndarray,
    arms: np.ndarray,
    y: np.ndarray,
    probes: np.ndarray,
    seed: int,
    n_trees: int = OFFICIAL_TREES,
    n_burnin: int = OFFICIAL_BURNIN,
    n_draws: int = 500,
) -> np.ndarray:
    """Draws of f(probe, a) ``(D, n_probes, K)`` with the official agent's sampler settings, one fit per arm.

    The official agent (``DefaultBARTTSAgent`` of bart-playground) samples with its own grow / prune /
    change / swap BART: 100 trees, 500 burn-in, up to 500 draws, ``clip(ceil(0.2 t), 100, 2000)``
    cut-points, the same priors. The project's numpy sampler (grow / prune / change) with these
    settings is the nearest posterior we have; the agent itself runs on stochtree for speed.
    """
    params = {
        "n_trees": n_trees,
        "n_burnin": n_burnin,
        "n_draws": n_draws,
        "nu": 1.0,
        "max_bins": int(min(2000, max(100, math.ceil(0.2 * len(y))))),
    }
    fits = [
        make_posterior("numpy", random_state=seed + a, **params).fit(X[arms == a], y[arms == a])
        for a in range(int(arms.max()) + 1)
    ]
    return np.stack([m.predict(probes) for m in fits], axis=2)
