"""Intervals over instances: each test's own 95% interval and the paired interval of each comparison.

A metric is a median (or a mean) over test instances; its interval is the median's order-statistic
interval (or the mean's Student-t half-width), and a comparison's is :func:`paired_interval` over the same
instances. The contract reads them under ``<key>_ci*`` and ``comparison_key(...)``.
"""

from __future__ import annotations

import math

import numpy as np

from icml26.common import Claim, comparison_key, mean_ci95, median_ci95, paired_ci
from icml26.common.stats import ratio_of_means_ci


def median_ratio(
    num: np.ndarray, den: np.ndarray, rng: np.random.Generator, n_boot: int = 1000
) -> tuple[float, float]:
    """``median(num) / median(den)`` and its paired-bootstrap 95% half-width (over instances)."""
    est = float(np.median(num) / max(np.median(den), 1e-300))
    idx = rng.integers(0, len(num), size=(n_boot, len(num)))
    boots = np.median(num[idx], 1) / np.maximum(np.median(den[idx], 1), 1e-300)
    lo, hi = np.quantile(boots, [0.025, 0.975])
    return est, float((hi - lo) / 2)


def history_on_grid(history: list[tuple[int, float]], grid: np.ndarray) -> np.ndarray:
    nfev = np.array([h[0] for h in history], dtype=float)
    best = np.array([h[1] for h in history], dtype=float)
    idx = np.searchsorted(nfev, grid, side="right") - 1
    return np.where(idx >= 0, best[np.clip(idx, 0, None)], np.nan)


# per-instance values behind a metric: key -> (values, the statistic the metric takes of them)
Samples = dict[str, tuple[np.ndarray, str]]


def claim_intervals(
    claims: tuple[Claim, ...],
    samples: Samples,
    seed: int,
    former: tuple[tuple[str, tuple[str, ...], str], ...] = (),
) -> dict[str, float]:
    """The 95% intervals the claims need, from the per-instance values in ``samples``.

    ``former``: ``(metric, baselines, form)`` of the former tests folded into Revisions, whose intervals a
    run still reports (``history.FORMER_COMPARISONS``).

    For every claim metric and baseline with per-instance values: its own interval (the median's
    order-statistic interval as ``<key>_ci_low``/``_ci_high``, the mean's Student-t half-width as
    ``<key>_ci``). For every comparison of a claim: :func:`paired_interval` of ours / or - that
    baseline (same instances, same statistic) under ``comparison_key(...)``. Non-finite bounds (a
    median of 0 under a ratio, a single instance) are left out, so the contract falls back or says
    "no interval".
    """
    out: dict[str, float] = {}

    def put(key: str, low: float, high: float) -> None:
        if math.isfinite(low) and math.isfinite(high):
            out[key + "_ci_low"], out[key + "_ci_high"] = float(low), float(high)

    rules = [(c.name, c.metric, c.relative_to, c.form) for c in claims]
    rules += [(f"former {metric}", metric, bases, form) for metric, bases, form in former]
    for name, metric, relative_to, form in rules:
        for key in (metric, *relative_to):
            if key not in samples:
                continue
            values, stat = samples[key]
            if stat == "median":
                put(key, *median_ci95(values)[1:])
            elif math.isfinite(half := mean_ci95(values)[1]):
                out[key + "_ci"] = half
        for base in relative_to:
            if metric in samples and base in samples:
                (ours, stat), (theirs, stat_b) = samples[metric], samples[base]
                assert stat == stat_b, (name, stat, stat_b)
                low, high = paired_interval(ours, theirs, form, stat, seed)
                put(comparison_key(metric, base, form), low, high)
    return out


def paired_interval(
    ours: np.ndarray, theirs: np.ndarray, form: str, statistic: str, seed: int = 0
) -> tuple[float, float]:
    """95% interval of ``stat(ours)`` / or - ``stat(theirs)`` over paired instances, honest for a handful.

    The wider (union) of ``common.paired_ci``'s paired percentile bootstrap, which runs narrow below about
    ten pairs, and a small-sample interval: for a difference of means the paired Student-t interval (which
    ``paired_ci`` already is); for a ratio of means the delta method with a t quantile,
    ``r +- t_{n-1} sd(a_i - r b_i) / (sqrt(n) mean(b))``; for a median the distribution-free
    order-statistic interval (``common.median_ci95``) of the per-pair differences or ratios (ratios only
    when every ``theirs`` is positive). ``(nan, nan)`` for fewer than two pairs.
    """
    a, b = np.asarray(ours, dtype=float).ravel(), np.asarray(theirs, dtype=float).ravel()
    with np.errstate(invalid="ignore", divide="ignore"):  # an infinite ratio (median 0) is dropped later
        low, high = paired_ci(a, b, form, statistic, seed=seed)
    if a.size < 2:
        return low, high
    small: tuple[float, float] | None = None
    if statistic == "mean" and form == "ratio" and b.mean() > 0:
        small = ratio_of_means_ci(a, b, nonnegative=bool(np.all(a >= 0)))
    elif statistic == "median" and form == "difference":
        small = median_ci95(a - b)[1:]
    elif statistic == "median" and form == "ratio" and np.all(b > 0):
        small = median_ci95(a / b)[1:]
    if small is None:
        return low, high
    return float(min(low, small[0])), float(max(high, small[1]))
