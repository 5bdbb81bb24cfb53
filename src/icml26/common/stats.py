"""Small statistics shared by the experiments: confidence half-widths for claims."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from scipy import stats


def ci95(values: Sequence[float] | np.ndarray) -> float:
    """95% Student-t half-width of the mean of ``values``; ``nan`` for fewer than two values.

    A claim whose threshold lies within ``mean ± ci95`` is ``inconclusive`` (see ``verdict``).
    """
    v = np.asarray(values, dtype=float).ravel()
    if v.size < 2:
        return math.nan
    return float(stats.t.ppf(0.975, v.size - 1) * v.std(ddof=1) / math.sqrt(v.size))


def mean_ci95(values: Sequence[float] | np.ndarray) -> tuple[float, float]:
    """``(mean, ci95(values))``."""
    v = np.asarray(values, dtype=float).ravel()
    if v.size == 0:
        raise ValueError("mean_ci95 needs at least one value")
    return float(v.mean()), ci95(v)


def median_ci95(values: Sequence[float] | np.ndarray) -> tuple[float, float, float]:
    """``(median, low, high)``: the median and its distribution-free 95% confidence interval.

    The interval is ``[x_(j), x_(n+1-j)]`` of the sorted values, with the largest ``j`` such that
    ``P(Binomial(n, 1/2) < j) <= 0.025`` (coverage >= 95% for any continuous distribution); it is
    not symmetric about the median. Below six values no such ``j`` exists and the full range is used
    (coverage ``1 - 2**(1-n)``); ``low = high = nan`` for a single value. Store it as
    ``<metric>_ci_low`` / ``<metric>_ci_high``: a threshold inside makes a claim ``inconclusive``.
    """
    v = np.sort(np.asarray(values, dtype=float).ravel())
    if v.size == 0:
        raise ValueError("median_ci95 needs at least one value")
    median = float(np.median(v))
    if v.size < 2:
        return median, math.nan, math.nan
    j = int(stats.binom.ppf(0.025, v.size, 0.5))  # P(B <= j) >= 0.025 > P(B <= j - 1)
    if stats.binom.cdf(j, v.size, 0.5) > 0.025:
        j -= 1  # now P(B <= j) <= 0.025, i.e. P(B < j + 1) <= 0.025: the lower end is x_(j+1)
    j = max(j, 0)
    return median, float(v[j]), float(v[v.size - 1 - j])


def ratio_of_means_ci(
    ours: Sequence[float] | np.ndarray, base: Sequence[float] | np.ndarray, nonnegative: bool = False
) -> tuple[float, float]:
    """95% interval of ``mean(ours) / mean(base)`` over pairs: the delta method with a Student-t quantile,
    ``r +- t_{n-1} sd(a_i - r b_i) / (sqrt(n) mean(b))``. Honest for a handful of pairs, where a percentile
    bootstrap runs narrow (two pairs give three distinct resamples). ``nonnegative``: the ratio of
    non-negative values cannot be negative, so the lower end is cut at 0."""
    a, b = np.asarray(ours, dtype=float).ravel(), np.asarray(base, dtype=float).ravel()
    if a.shape != b.shape or a.size < 2 or not b.mean() > 0:
        raise ValueError(
            f"ratio_of_means_ci needs >= 2 pairs of equal length with mean(base) > 0, got {a.size} and {b.size}"
        )
    r = a.mean() / b.mean()
    half = stats.t.ppf(0.975, a.size - 1) * np.std(a - r * b, ddof=1) / (np.sqrt(a.size) * b.mean())
    return float(max(r - half, 0.0) if nonnegative else r - half), float(r + half)


def paired_ci(
    ours: Sequence[float] | np.ndarray,
    base: Sequence[float] | np.ndarray,
    form: str = "ratio",
    statistic: str = "mean",
    n_resamples: int = 2000,
    seed: int = 0,
) -> tuple[float, float]:
    """95% paired percentile-bootstrap interval of ``stat(ours) / stat(base)`` (``form="ratio"``) or
    ``stat(ours) - stat(base)`` (``form="difference"``), ``stat`` the mean or median over instances.

    ``ours[i]`` and ``base[i]`` are measured on the same instance or seed. A difference of means uses the
    paired Student-t interval of the per-pair differences (exact for normal differences, and honest for
    a handful of pairs); every other comparison resamples the pairs together
    (``scipy.stats.bootstrap(..., paired=True)``, percentile), which runs narrow below about ten pairs. Store the result under
    ``common.comparison_key(metric, baseline, form) + "_ci_low"`` / ``"_ci_high"``; the verdict uses it
    for the comparison against that baseline. ``(nan, nan)`` for fewer than two pairs.
    """
    a, b = np.asarray(ours, dtype=float).ravel(), np.asarray(base, dtype=float).ravel()
    if a.shape != b.shape:
        raise ValueError(f"paired_ci needs as many baseline values as ours, got {a.size} and {b.size}")
    if form not in ("ratio", "difference") or statistic not in ("mean", "median"):
        raise ValueError(
            f"paired_ci: form must be ratio|difference and statistic mean|median, got {form!r}, {statistic!r}"
        )
    if a.size < 2:
        return math.nan, math.nan
    if form == "difference" and statistic == "mean":
        mean, half = mean_ci95(a - b)
        return (mean, mean) if half == 0 else (mean - half, mean + half)
    stat = np.mean if statistic == "mean" else np.median

    def compare(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
        sx, sy = stat(x, axis=axis), stat(y, axis=axis)
        if form == "difference":
            return sx - sy
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(sy > 0, sx / np.where(sy > 0, sy, 1.0), np.where(sx > 0, np.inf, 1.0))

    if np.all(a == a[0]) and np.all(b == b[0]):  # no variation: the interval is the point
        point = float(compare(a, b))
        return point, point
    res = stats.bootstrap(
        (a, b),
        compare,
        paired=True,
        vectorized=True,
        n_resamples=n_resamples,
        method="percentile",
        random_state=np.random.default_rng(seed),
    )
    return float(res.confidence_interval.low), float(res.confidence_interval.high)
