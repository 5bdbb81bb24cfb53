"""Aggregating per-seed metrics over runner seeds by each claim's statistic, with 95% intervals.
Re-exported by :mod:`icml26.common.runner`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from icml26.common.experiment import _compare, comparison_key, metric_interval
from icml26.common.stats import ci95


def _combine(values: np.ndarray, lows: np.ndarray, highs: np.ndarray) -> tuple[float, float]:
    """The 95% interval of the mean of independent per-seed estimates: their own intervals combined
    (normal approximation, each side separately) or the Student-t interval over the seeds, whichever is
    wider on each side, so that seeds that disagree more than their intervals say widen it."""
    k, centre = len(values), float(values.mean())
    between = ci95(values)
    return (
        centre - max(float(np.sqrt(np.sum((values - lows) ** 2))) / k, between),
        centre + max(float(np.sqrt(np.sum((highs - values) ** 2))) / k, between),
    )


_SUFFIXES = ("_ci", "_ci_low", "_ci_high")


def aggregate(
    per_seed: Sequence[Mapping[str, float]],
    statistics: Mapping[str, str] | None = None,
    comparisons: Sequence[tuple[str, str, str]] = (),
) -> dict[str, float]:
    """Aggregate each metric over runner seeds by its claim's statistic (``statistics``: key ->
    ``mean`` | ``max`` | ``min``; ``mean`` when a metric names no claim).

    - ``max`` / ``min``: the extreme seed's value, with that seed's own interval if it has one;
    - ``mean`` over one seed: the value and its own interval, as measured;
    - ``mean`` over several seeds: the mean, and as its 95% interval either the per-seed intervals
      combined (when every seed has one) or the Student-t interval over the seeds (``<key>_ci``).

    ``comparisons`` lists the claims' ``(metric, baseline, form)``; each paired comparison interval is
    combined the same way around the per-seed comparisons, or, without one, taken as the Student-t
    interval of the per-seed comparisons.
    """
    statistics = statistics or {}
    if len(per_seed) == 1:
        return {k: float(v) for k, v in per_seed[0].items()}
    keys = list(dict.fromkeys(k for m in per_seed for k in m))
    base_keys = [k for k in keys if not k.endswith(_SUFFIXES) or k[: k.rfind("_ci")] not in keys]
    compared = {comparison_key(*c) for c in comparisons}
    out: dict[str, float] = {}
    for key in base_keys:
        if key in compared:
            continue
        seeds = [m for m in per_seed if key in m]
        if key.endswith(_SUFFIXES):  # an interval whose value is not a metric (e.g. of a comparison)
            out[key] = float(np.mean([float(m[key]) for m in seeds]))
            continue
        values = np.array([float(m[key]) for m in seeds])
        how = statistics.get(key, "mean")
        if how in ("max", "min"):
            best = seeds[int(np.argmax(values) if how == "max" else np.argmin(values))]
            out[key] = float(best[key])
            out |= {key + s: float(best[key + s]) for s in _SUFFIXES if key + s in best}
            continue
        out[key] = float(values.mean())
        intervals = [metric_interval(m, key) for m in seeds]
        if len(seeds) > 1 and all(intervals):
            out[key + "_ci_low"], out[key + "_ci_high"] = _combine(
                values, np.array([i[0] for i in intervals]), np.array([i[1] for i in intervals])
            )
        elif len(seeds) > 1:
            out[key + "_ci"] = ci95(values)
    for metric, baseline, form in comparisons:
        pairs = [m for m in per_seed if metric in m and baseline in m]
        if len(pairs) < 2:
            continue
        values = np.array([_compare(float(m[metric]), float(m[baseline]), form) for m in pairs])
        key = comparison_key(metric, baseline, form)
        intervals = [metric_interval(m, key) for m in pairs]
        if not np.all(np.isfinite(values)):
            continue
        if all(intervals):
            lows, highs = np.array([i[0] for i in intervals]), np.array([i[1] for i in intervals])
            out[key + "_ci_low"], out[key + "_ci_high"] = _combine(values, lows, highs)
        else:
            half = ci95(values)
            out[key + "_ci_low"], out[key + "_ci_high"] = values.mean() - half, values.mean() + half
    return out
