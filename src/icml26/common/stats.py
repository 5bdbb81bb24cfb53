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
