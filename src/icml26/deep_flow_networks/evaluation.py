"""Evaluation helpers: midpoint convexity on integer pairs, and the best known integer minimum of a
quadratic truth over a box with a budget (the denominator of the solution-quality ratio)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy.optimize import minimize as scipy_minimize


def midpoint_convexity_violations(
    f: Callable[[np.ndarray], np.ndarray],
    lb: np.ndarray,
    ub: np.ndarray,
    pairs: int,
    rng: np.random.Generator,
    rtol: float = 1e-9,
) -> tuple[int, int]:
    """Count pairs x, y (integers in the box, x + y even so the midpoint is an integer) with
    ``f((x+y)/2) > (f(x) + f(y)) / 2 + rtol * scale``; returns (violations, pairs checked)."""
    lb, ub = np.asarray(lb, dtype=np.int64), np.asarray(ub, dtype=np.int64)
    x = rng.integers(lb, ub + 1, size=(pairs, lb.size))
    y = rng.integers(lb, ub + 1, size=(pairs, lb.size))
    odd = (x + y) % 2 != 0
    y = np.where(odd & (y < ub), y + 1, np.where(odd, y - 1, y))  # make x + y even, staying in the box
    fx, fy, fm = f(x), f(y), f((x + y) // 2)
    scale = max(1.0, float(np.abs(np.r_[fx, fy]).max()))
    return int(np.sum(fm > 0.5 * (fx + fy) + rtol * scale)), pairs


def best_integer_minimum(
    g: Callable[[np.ndarray], np.ndarray],
    lb: np.ndarray,
    ub: np.ndarray,
    budget: int,
    starts: list[np.ndarray],
) -> tuple[np.ndarray, float]:
    """Best known integer minimiser of a convex g over ``lb <= x <= ub, sum x = budget`` [not certified]:
    the continuous optimum (SLSQP) rounded and repaired to the budget, plus ``starts``, each improved by
    exchange moves ``x + e_i - e_j`` (and unit moves with their opposite) until none improves."""
    lb, ub = np.asarray(lb, dtype=float), np.asarray(ub, dtype=float)
    d = lb.size
    cont = scipy_minimize(
        lambda z: float(g(z[None])[0]),
        np.clip(np.full(d, budget / d), lb, ub),
        method="SLSQP",
        bounds=list(zip(lb, ub, strict=True)),
        constraints=[{"type": "eq", "fun": lambda z: z.sum() - budget}],
    ).x
    x0 = np.clip(np.round(cont), lb, ub)
    while x0.sum() != budget:  # repair the budget one unit at a time
        step = 1 if x0.sum() < budget else -1
        free = np.flatnonzero((x0 < ub) if step > 0 else (x0 > lb))
        x0[free[np.argmax(step * (cont[free] - x0[free]))]] += step
    best_x, best = None, np.inf
    moves = [(i, j) for i in range(d) for j in range(d) if i != j]
    for start in [x0, *map(np.asarray, starts)]:
        x = np.asarray(start, dtype=float).copy()
        value = float(g(x[None])[0])
        while True:
            cand = np.repeat(x[None], len(moves), axis=0)
            for k, (i, j) in enumerate(moves):
                cand[k, i] += 1
                cand[k, j] -= 1
            ok = np.all((cand >= lb) & (cand <= ub), axis=1)
            if not ok.any():
                break
            vals = np.where(ok, g(cand), np.inf)
            k = int(np.argmin(vals))
            if vals[k] >= value - 1e-12 * max(1.0, abs(value)):
                break
            x, value = cand[k], float(vals[k])
        if value < best:
            best_x, best = x, value
    return best_x.astype(np.int64), best


def hierarchical_ci(
    ours: list[np.ndarray],
    base: list[np.ndarray] | None = None,
    n_resamples: int = 2000,
    seed: int = 0,
) -> tuple[float, float]:
    """95% percentile interval of the pooled mean of ``ours`` (or, with ``base``, of the ratio of pooled
    means ``mean(ours) / mean(base)``) from a two-level bootstrap: training seeds drawn with replacement,
    then points drawn with replacement within each drawn seed (pairs kept together), so the interval
    carries the training-seed variance as well as the test points'. ``ours[s]``: the values of seed ``s``.
    With one seed only the points are resampled (no seed variance can be shown); ``(nan, nan)`` when
    there is a single value in all."""
    a = [np.asarray(v, dtype=float).ravel() for v in ours]
    b = a if base is None else [np.asarray(v, dtype=float).ravel() for v in base]
    if not a or len(a) != len(b) or any(x.shape != y.shape or x.size == 0 for x, y in zip(a, b, strict=True)):
        raise ValueError("hierarchical_ci needs, per seed, a non-empty array (and as many baseline values)")
    if sum(x.size for x in a) < 2:
        return float("nan"), float("nan")
    rng = np.random.default_rng(seed)
    stats_ = np.empty(n_resamples)
    for r in range(n_resamples):
        num = den = count = 0.0
        for s in rng.integers(len(a), size=len(a)):
            idx = rng.integers(a[s].size, size=a[s].size)
            num += a[s][idx].sum()
            den += b[s][idx].sum()
            count += idx.size
        if base is None:
            stats_[r] = num / count
        else:
            stats_[r] = num / den if den > 0 else (np.inf if num > 0 else 1.0)
    low, high = np.percentile(stats_, [2.5, 97.5])
    return float(low), float(high)
