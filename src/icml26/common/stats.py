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
