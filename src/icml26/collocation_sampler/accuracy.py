"""Measuring a solver's accuracy: per-sample errors against the reference, bootstrap intervals, the score
calls and rounds a solver needs to reach eps, and the power-law / polylog fits of those counts.

Every solver sees the same draws ``x_T ~ q_T`` and is compared sample by sample with the DOP853
reference; the 95% intervals resample those per-sample errors (percentile bootstrap over samples).
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np
import torch

from icml26.collocation_sampler.sampler import SampleResult

ERROR_FLOOR = 1e-13  # below the reference's accuracy: excluded from rate fits
ROUND_BUDGET = 200
N_BOOT = 2000  # bootstrap resamples of the per-sample errors (95% intervals)
_SAMPLE_ERRORS = "_sample_errors"  # per-sample errors kept in a row until the tables are returned


def _unit_name(name: str) -> str:
    """``name`` with characters a unit name cannot hold (``+`` of ``1e+03``) replaced by ``_``."""
    return re.sub(r"[^A-Za-z0-9_.=-]", "_", name)


def _row(solver: str, setting: str, res: SampleResult, ref: torch.Tensor, **extra: Any) -> dict[str, Any]:
    """A table row: mean pathwise error ``E||y - y_ref||`` and the W2 coupling bound
    ``sqrt(E||y - y_ref||^2)``; the per-sample errors ride along for the intervals."""
    e = (res.samples.cpu() - ref.cpu()).norm(dim=1).numpy()
    return {
        "solver": solver,
        "setting": setting,
        "nfe": res.n_score_evals,
        "rounds": res.n_rounds,
        "error": float(e.mean()),
        "w2_bound": float(np.sqrt(np.mean(e**2))),
        **extra,
        _SAMPLE_ERRORS: e,
    }


def _table(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k != _SAMPLE_ERRORS} for r in rows]


def _boot_means(rows: list[dict[str, Any]], rng: np.random.Generator, paired: bool) -> np.ndarray | None:
    """``(N_BOOT, len(rows))`` bootstrap means of each row's per-sample errors: the same resampled
    samples for every row when ``paired`` (they share the draws), else each row resampled on its own.
    None below two samples."""
    errs = [np.asarray(r[_SAMPLE_ERRORS], float) for r in rows]
    if not errs or min(e.size for e in errs) < 2:
        return None
    if paired:
        idx = rng.integers(0, errs[0].size, (N_BOOT, errs[0].size))
        return np.stack([e[idx].mean(axis=1) for e in errs], axis=1)
    return np.stack([e[rng.integers(0, e.size, (N_BOOT, e.size))].mean(axis=1) for e in errs], axis=1)


def _percentiles(values: np.ndarray | None) -> tuple[float, float]:
    """The 2.5% and 97.5% percentiles (a 95% percentile-bootstrap interval); nan without values."""
    if values is None:
        return math.nan, math.nan
    low, high = np.percentile(values, [2.5, 97.5])
    return float(low), float(high)


def _slopes(x: list[float], log_y: np.ndarray) -> np.ndarray:
    """Least-squares slopes of each row of ``log_y`` against ``x``."""
    xc = np.asarray(x, float) - np.mean(x)
    return (log_y - log_y.mean(axis=1, keepdims=True)) @ xc / float(xc @ xc)


def _set_interval(metrics: dict[str, float], key: str, interval: tuple[float, float]) -> None:
    metrics[f"{key}_ci_low"], metrics[f"{key}_ci_high"] = interval


def _best_within(rows: list[dict[str, Any]], solver: str, budget: int) -> float | None:
    """The smallest error ``solver`` reached within ``budget`` sequential rounds: ``inf`` when none of its
    settings finished within the budget, None when the solver did not run at all."""
    if not any(r["solver"] == solver for r in rows):
        return None
    errs = [r["error"] for r in rows if r["solver"] == solver and r["rounds"] <= budget]
    return min(errs) if errs else math.inf


def _slope(x: list[float], y: list[float]) -> float:
    """Least-squares slope of ``log10 y`` against ``x``."""
    return float(np.polyfit(np.asarray(x, float), np.log10(np.asarray(y, float)), 1)[0])


# --- the headline: score calls and rounds to reach eps (polylog vs power law) ---------------------
EPS_GRID = 10.0 ** -np.arange(2.0, 10.01, 0.5)  # 1e-2 ... 1e-10 (the reference's floor is ~1e-13)
CALL_CAP = 10**5  # no baseline setting above this many score calls
LADDER_BASELINES = ("rk4", "dpmpp2m", "dpmpp3m", "unipc2", "unipc3", "dop853", "dopri5", "dopri8")
POWER_LAW_CONTROLS = ("rk4", "dpmpp2m", "dpmpp3m", "unipc2", "unipc3", "dop853")  # fixed-order solvers


def calls_to_eps(calls: np.ndarray, errors: np.ndarray, eps: np.ndarray = EPS_GRID) -> np.ndarray:
    """Score calls a solver needs to reach each ``eps``: log-log interpolation along its ladder's lower
    envelope (settings sorted by calls, the running best error). ``nan`` where the ladder does not reach
    ``eps`` or its cheapest setting already does (no bracketing pair: the count would be an upper bound)."""
    order = np.argsort(calls, kind="stable")
    c = np.log(np.asarray(calls, float)[order])
    e = np.log(np.minimum.accumulate(np.maximum(np.asarray(errors, float)[order], 1e-300)))
    out = np.full(len(eps), np.nan)
    for j, target in enumerate(np.log(eps)):
        hit = np.nonzero(e <= target)[0]
        if hit.size == 0 or hit[0] == 0:
            continue
        i = hit[0]
        w = (e[i - 1] - target) / (e[i - 1] - e[i]) if e[i - 1] > e[i] else 1.0
        out[j] = math.exp(c[i - 1] + w * (c[i] - c[i - 1]))
    return out


def _rounds_to_eps(rows: list[dict[str, Any]], eps: np.ndarray = EPS_GRID) -> np.ndarray:
    """Sequential rounds of the cheapest setting (by score calls) that reaches each ``eps``; nan if none.
    (Collocation's rounds hardly change with D, so they are not interpolated.)"""
    ordered = sorted(rows, key=lambda r: r["nfe"])
    out = np.full(len(eps), np.nan)
    for j, target in enumerate(eps):
        hit = [r["rounds"] for r in ordered if r["error"] <= target]
        out[j] = hit[0] if hit else math.nan
    return out


def error_at_calls(calls: np.ndarray, errors: np.ndarray, budget: float) -> float:
    """A solver's error at ``budget`` score calls: log-log interpolation on its ladder's lower envelope,
    clamped to its cheapest setting below the ladder and to its best setting above it (both favour the
    baseline: fewer calls could only do worse, more calls than it ran are not credited as better).
    Errors below ``ERROR_FLOOR`` (the reference's accuracy) count as ``ERROR_FLOOR``."""
    order = np.argsort(calls, kind="stable")
    c = np.log(np.asarray(calls, float)[order])
    e = np.log(np.minimum.accumulate(np.maximum(np.asarray(errors, float)[order], ERROR_FLOOR)))
    return float(np.exp(np.interp(math.log(budget), c, e)))


def power_law_fits(needed: np.ndarray, eps: np.ndarray = EPS_GRID) -> dict[str, float]:
    """Fits of ``log calls`` on the reached ``eps``: ``slope`` against ``log(1/eps)`` (a power law of order
    p has 1/p, polylog tends to 0), ``slope_ratio`` = that slope on the smaller-eps half over the larger-eps
    half of the reached points (a power law: 1; ``(log 1/eps)^k``: about ``L_early / L_late``, 0.5 on 1e-2
    to 1e-10), and ``loglog_slope`` against ``log log(1/eps)`` (bounded, = k, for polylog; grows like
    ``log(1/eps)/p`` for a power law). ``nan`` with fewer than 4 reached points."""
    ok = np.isfinite(needed)
    if ok.sum() < 4:
        return {"slope": math.nan, "slope_ratio": math.nan, "loglog_slope": math.nan}
    x, y = np.log(1.0 / eps[ok]), np.log(needed[ok])
    half = (len(x) + 1) // 2
    early = np.polyfit(x[:half], y[:half], 1)[0]
    late = np.polyfit(x[len(x) - half :], y[len(x) - half :], 1)[0]
    return {
        "slope": float(np.polyfit(x, y, 1)[0]),
        "slope_ratio": float(late / early) if early > 0 else math.nan,
        "loglog_slope": float(np.polyfit(np.log(x), y, 1)[0]),
    }


def _bootstrap_fits(
    solver_rows: dict[str, list[dict[str, Any]]], boot: np.random.Generator, key: str = "nfe"
) -> dict[str, np.ndarray]:
    """Per solver, the (N_BOOT, 3) bootstrap replicates of :func:`power_law_fits` (slope, slope_ratio,
    loglog_slope), every solver's rows resampled with the same samples (they share the draws)."""
    names = list(solver_rows)
    flat = [r for s in names for r in solver_rows[s]]
    means = _boot_means(flat, boot, paired=True)
    out: dict[str, np.ndarray] = {}
    if means is None:
        return out
    start = 0
    for s in names:
        rs = solver_rows[s]
        calls = np.asarray([r[key] for r in rs], float)
        block = means[:, start : start + len(rs)]
        start += len(rs)
        fits = [power_law_fits(calls_to_eps(calls, b)) for b in block]
        out[s] = np.asarray([[f["slope"], f["slope_ratio"], f["loglog_slope"]] for f in fits])
    return out


def _nan_percentiles(values: np.ndarray) -> tuple[float, float]:
    """95% percentile interval of the finite replicates; nan when over 5% are not finite."""
    v = np.asarray(values, float)
    if v.size == 0 or np.isfinite(v).mean() < 0.95:
        return math.nan, math.nan
    low, high = np.nanpercentile(v, [2.5, 97.5])
    return float(low), float(high)
