"""Summaries of the experiment's runs: regret tables, paired intervals, rank positions, spreads, replay values.

Each helper writes into a metrics dict under the keys the tests name (a comparison's paired interval under
:func:`icml26.common.comparison_key`), or returns an interval; none of them judges anything.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from icml26.common import ci95, comparison_key, paired_ci
from icml26.common.stats import ratio_of_means_ci


def add_ci(metrics: dict[str, float], key: str, values: np.ndarray) -> None:
    """metrics[key + "_ci"] = 95% t half-width of the mean of ``values`` (needs two or more)."""
    if len(values) > 1:
        metrics[key + "_ci"] = ci95(values)


def add_paired(
    metrics: dict[str, float], ours: str, base: str, a: np.ndarray, b: np.ndarray, form: str
) -> None:
    """The paired 95% interval of mean(a) / mean(b) (or the difference) under the contract's comparison
    key of ``ours`` against ``base`` (needs two or more pairs). A ratio takes the wider of the paired
    bootstrap and ``common.stats.ratio_of_means_ci`` (the bootstrap alone is too narrow below ~10 pairs)."""
    if len(a) > 1:
        low, high = paired_ci(a, b, form, "mean")
        if form == "ratio" and np.mean(b) > 0:
            d_low, d_high = ratio_of_means_ci(a, b)
            low, high = min(low, d_low), max(high, d_high)
        key = comparison_key(ours, base, form)
        metrics[key + "_ci_low"], metrics[key + "_ci_high"] = low, high


def agent_key(name: str) -> str:
    """An agent's display name as a metric key part: ``"RF-TS"`` -> ``"rf_ts"``."""
    return name.lower().replace("-", "_")


def regret_summary(
    scenario: str, curves: dict[str, list[np.ndarray]], t1: int, metrics: dict[str, float]
) -> list[dict[str, Any]]:
    """Each agent's mean cumulative regret at round ``t1`` over the seeds (``curves[agent]``: one (T,)
    curve per seed, the same seeds for every agent) into ``metrics[f"{scenario}_regret_{key}"]`` with
    its 95% t half-width, and BFTS's ratio to each agent with its paired bootstrap interval (by seed).

    Returns the table: one row per agent with the mean, its half-width, the sd and BFTS / agent.
    """
    bfts = np.array(curves["BFTS"])[:, t1 - 1]
    rows = []
    for name, c in curves.items():
        at_t1 = np.array(c)[:, t1 - 1]
        key = f"{scenario}_regret_{agent_key(name)}"
        metrics[key] = float(at_t1.mean())
        add_ci(metrics, key, at_t1)
        row: dict[str, Any] = {
            "agent": name,
            f"regret_T{t1}_mean": round(float(at_t1.mean()), 1),
            "ci95": round(metrics.get(key + "_ci", math.nan), 1),
            "sd": round(float(at_t1.std(ddof=1)), 1) if len(at_t1) > 1 else 0.0,
            "bfts_over_agent": round(float(bfts.mean() / at_t1.mean()), 3) if at_t1.mean() > 0 else None,
            "paired_95": None,
        }
        if name != "BFTS":
            add_paired(metrics, f"{scenario}_regret_bfts", key, bfts, at_t1, "ratio")
            ratio = comparison_key(f"{scenario}_regret_bfts", key, "ratio")
            if ratio + "_ci_low" in metrics:
                row["paired_95"] = f"[{metrics[ratio + '_ci_low']:.3f}, {metrics[ratio + '_ci_high']:.3f}]"
        rows.append(row)
    return rows


def spread(regrets: np.ndarray) -> float:
    """(max - min) / mean of the variants' mean regrets; ``regrets`` ``(variants, seeds)``."""
    means = regrets.mean(axis=1)
    return float((means.max() - means.min()) / means.mean())


def spread_interval(regrets: np.ndarray, seed: int, n_resamples: int = 2000) -> tuple[float, float]:
    """95% percentile-bootstrap interval of :func:`spread`, resampling the seeds (columns of ``regrets``
    ``(variants, seeds)``, every variant on the same seeds) together; needs two or more seeds."""
    if regrets.ndim != 2 or regrets.shape[1] < 2:
        raise ValueError(f"spread_interval needs (variants, seeds >= 2) regrets, got shape {regrets.shape}")
    idx = np.random.default_rng(seed).integers(0, regrets.shape[1], size=(n_resamples, regrets.shape[1]))
    means = regrets[:, idx].mean(axis=2)  # (variants, resamples)
    values = (means.max(axis=0) - means.min(axis=0)) / means.mean(axis=0)
    return float(np.percentile(values, 2.5)), float(np.percentile(values, 97.5))


def binomial_se(p: float, n: float) -> float:
    """The standard error of a proportion ``p`` over ``n`` trials (``n`` floored at 1)."""
    return float(np.sqrt(p * (1 - p) / max(n, 1.0)))


def add_replay(
    metrics: dict[str, float],
    key: str,
    logged_key: str,
    replay: float,
    matched: float,
    logged: float,
    n_logged: int,
) -> None:
    """A policy's replay value ``metrics[key]`` with its 95% half-width, and the 95% interval of its ratio
    to the logged policy's mean reward under the contract's comparison key (delta method, both means
    binomial: the matched rows and all logged rows; their covariance is ignored)."""
    se_r, se_l = binomial_se(replay, matched), binomial_se(logged, n_logged)
    metrics[key] = float(replay)
    metrics[key + "_ci"] = 1.96 * se_r
    if key == logged_key or logged <= 0:
        return
    half = 1.96 * float(np.hypot(se_r / logged, replay * se_l / logged**2))
    ratio = comparison_key(key, logged_key, "ratio")
    metrics[ratio + "_ci_low"], metrics[ratio + "_ci_high"] = replay / logged - half, replay / logged + half


def rank_position_interval(
    rank_matrix: np.ndarray, agent: int, seed: int, n_resamples: int = 2000
) -> tuple[float, float]:
    """95% percentile-bootstrap interval of an agent's position by average rank (1 = best; ties share
    the better position), resampling the instances (columns of ``rank_matrix`` ``(agents, instances)``)."""
    rng = np.random.default_rng(seed)
    n = rank_matrix.shape[1]
    idx = rng.integers(0, n, size=(n_resamples, n))
    avg = rank_matrix[:, idx].mean(axis=2)  # (agents, resamples)
    position = 1 + (avg < avg[agent]).sum(axis=0)
    # the conservative order statistics: positions are integers
    low = np.percentile(position, 2.5, method="lower")
    high = np.percentile(position, 97.5, method="higher")
    return float(low), float(high)
