"""The experiment's three sweeps on ``[t_end, T]``: every solver's accuracy ladder and the headline metrics
from it (calls and rounds to eps, the rate fits, equal-call and equal-round errors), the dimension sweep
on an anisotropic mixture, and the theorem's windows end to end (score calls against R/sigma).
"""

from __future__ import annotations

import contextlib
import math
import time
from functools import partial
from typing import Any

import numpy as np
import torch

from icml26.collocation_sampler.accuracy import (
    CALL_CAP,
    EPS_GRID,
    LADDER_BASELINES,
    N_BOOT,
    _boot_means,
    _bootstrap_fits,
    _nan_percentiles,
    _percentiles,
    _rounds_to_eps,
    _row,
    _set_interval,
    _unit_name,
    calls_to_eps,
    error_at_calls,
    power_law_fits,
)
from icml26.collocation_sampler.baselines import (
    dpm_solver_pp_sample,
    fixed_step_sample,
    reference_solution,
    scipy_sample,
    torchdiffeq_sample,
    unipc_sample,
)
from icml26.collocation_sampler.sampler import collocation_sample, small_time_split
from icml26.collocation_sampler.targets import GaussianMixture
from icml26.collocation_sampler.windows import geometric_windows, theorem_windows
from icml26.common import comparison_key, mean_ci95, progress, unit


def _ladder(cfg: dict[str, Any], score: Any, x_T: torch.Tensor, dev: torch.device) -> list[dict[str, Any]]:
    """Every solver's accuracy ladder on ``[t_end, T]`` against the DOP853 reference there, and that
    reference checked against high-degree collocation (two independent solvers). Float64 throughout."""
    T, t_end, W = cfg["T"], cfg["t_end"], cfg["spectral_windows"]
    ref, _ = unit("ladder_reference", lambda: reference_solution(score, x_T, T, t_end, tol=cfg["ref_tol"]))
    rows: list[dict[str, Any]] = []

    def check_ref() -> dict[str, Any]:
        res = collocation_sample(
            score, x_T, T=T, t_min=t_end, windows=cfg["depth_windows"], degree=24, device=dev
        )
        setting = f"collocation W={cfg['depth_windows']} D=24 vs DOP853"
        return _row("reference_check", setting, res, ref, unconverged_windows=len(res.unconverged_windows))

    rows.append(unit("ladder_reference_check", check_ref))

    def colloc(deg: int) -> dict[str, Any]:
        res = collocation_sample(score, x_T, T=T, t_min=t_end, windows=W, degree=deg, device=dev)
        return _row(
            "collocation",
            f"W={W} D={deg}",
            res,
            ref,
            degree=deg,
            unconverged_windows=len(res.unconverged_windows),
        )

    def rk4(steps: int) -> dict[str, Any]:
        grid = geometric_windows(T, steps, t_end, t_small=small_time_split(T, t_end))
        return _row("rk4", f"{steps} steps", fixed_step_sample(score, x_T, grid, "rk4"), ref)

    def dpm(order: int, steps: int) -> dict[str, Any]:
        res = dpm_solver_pp_sample(score, x_T, T, t_end, steps, order)
        return _row(f"dpmpp{order}m", f"{steps} steps", res, ref)

    def unipc(order: int, steps: int) -> dict[str, Any]:
        res = unipc_sample(score, x_T, T, t_end, steps, order)  # float64 UniPC-p, B(h) = e^h - 1
        return _row(f"unipc{order}", f"{steps} steps", res, ref)

    def dop853(tol: float) -> dict[str, Any]:
        res, _ = scipy_sample(score, x_T, T, t_end, "DOP853", tol, tol)
        return _row("dop853", f"tol={tol:g}", res, ref)

    def dopri(method: str, tol: float) -> dict[str, Any] | None:
        try:
            res = torchdiffeq_sample(score, x_T, T, t_end, method, tol, tol, max_calls=CALL_CAP)
        except RuntimeError:  # over the call cap or a collapsed step: the setting is not in the ladder
            return None
        return _row(method, f"tol={tol:g}", res, ref)

    jobs: list[tuple[str, Any]] = [
        (f"ladder_collocation_D={d}", partial(colloc, d)) for d in cfg["ladder_degrees"]
    ]
    jobs += [(f"ladder_rk4_steps={s}", partial(rk4, s)) for s in cfg["rk4_ladder_steps"] if 4 * s <= CALL_CAP]
    for order in (2, 3):
        jobs += [
            (f"ladder_dpmpp{order}m_steps={s}", partial(dpm, order, s))
            for s in cfg["dpm_ladder_steps"]
            if s <= CALL_CAP
        ]
    for order in (2, 3):
        jobs += [
            (f"ladder_unipc{order}_steps={s}", partial(unipc, order, s))
            for s in cfg["unipc_ladder_steps"]
            if s <= CALL_CAP
        ]
    jobs += [(_unit_name(f"ladder_dop853_tol={t:g}"), partial(dop853, t)) for t in cfg["dop853_ladder_tols"]]
    for method in ("dopri5", "dopri8"):
        jobs += [
            (_unit_name(f"ladder_{method}_tol={t:g}"), partial(dopri, method, t))
            for t in cfg["dopri_ladder_tols"]
        ]
    for name, job in progress(jobs, "accuracy ladders"):
        row = unit(name, job)
        if row is not None:
            rows.append({"unconverged_windows": 0, **row})  # only collocation has Picard windows
    return rows


def _headline_metrics(
    rows: list[dict[str, Any]], cfg: dict[str, Any], boot: np.random.Generator, seed: int
) -> tuple[dict[str, float], list[dict[str, Any]]]:
    """Calls- and rounds-to-eps, the power-law / polylog fits with intervals, and equal-call / equal-round
    error ratios of collocation (at ``equal_degree``) against every float64 baseline."""
    metrics: dict[str, float] = {}
    check = [r for r in rows if r["solver"] == "reference_check"][0]
    metrics["ladder_reference_disagreement"] = check["error"]
    _set_interval(metrics, "ladder_reference_disagreement", _percentiles(_boot_means([check], boot, True)))
    # rows with an unconverged Picard window are not the method as specified: out of calls-to-eps and its fits
    metrics["ladder_unconverged_rows"] = float(sum(r.get("unconverged_windows", 0) > 0 for r in rows))
    fit_rows = [r for r in rows if r.get("unconverged_windows", 0) == 0]
    solvers = {s: [r for r in fit_rows if r["solver"] == s] for s in ("collocation", *LADDER_BASELINES)}
    solvers = {s: rs for s, rs in solvers.items() if rs}
    table = []
    for s, rs in solvers.items():
        errs = np.asarray([r["error"] for r in rs])
        calls = calls_to_eps(np.asarray([r["nfe"] for r in rs], float), errs)
        rounds = _rounds_to_eps(rs)
        cheapest = _rounds_to_eps([{**r, "rounds": r["nfe"]} for r in rs])  # calls of the first setting
        for e, c, c0, k in zip(EPS_GRID, calls, cheapest, rounds):
            if math.isfinite(k):  # reached: interpolated calls, or the cheapest setting's when unbracketed
                row = {"solver": s, "eps": float(e), "calls": float(c if math.isfinite(c) else c0)}
                table.append({**row, "interpolated": "yes" if math.isfinite(c) else "no", "rounds": float(k)})
        for key, v in power_law_fits(calls).items():
            metrics[f"{s}_calls_{key}"] = v
        finite = rounds[np.isfinite(rounds)]
        metrics[f"{s}_max_rounds_to_reach"] = float(finite.max()) if finite.size else math.nan
    for s, reps in _bootstrap_fits(solvers, boot).items():
        for j, key in enumerate(("slope", "slope_ratio", "loglog_slope")):
            _set_interval(metrics, f"{s}_calls_{key}", _nan_percentiles(reps[:, j]))

    ours = [r for r in rows if r["solver"] == "collocation" and r["degree"] == cfg["equal_degree"]][0]
    metrics["ladder_collocation_error"] = ours["error"]
    metrics["ladder_collocation_calls"] = float(ours["nfe"])
    metrics["ladder_collocation_rounds"] = float(ours["rounds"])
    base_rows = {s: rs for s, rs in solvers.items() if s != "collocation"}
    flat = [ours, *[r for rs in base_rows.values() for r in rs]]
    means = _boot_means(flat, boot, paired=True)
    _set_interval(metrics, "ladder_collocation_error", _percentiles(None if means is None else means[:, 0]))
    for what, budget in (("calls", ours["nfe"]), ("rounds", ours["rounds"])):
        start = 1
        for s, rs in base_rows.items():
            calls = np.asarray([r["nfe"] for r in rs], float)  # sequential baselines: rounds == calls
            key = f"{s}_error_at_equal_{what}"
            metrics[key] = error_at_calls(calls, np.asarray([r["error"] for r in rs]), budget)
            if means is not None:
                block = means[:, start : start + len(rs)]
                ratio = means[:, 0] / np.asarray([error_at_calls(calls, b, budget) for b in block])
                _set_interval(
                    metrics, comparison_key("ladder_collocation_error", key, "ratio"), _percentiles(ratio)
                )
            start += len(rs)
    return metrics, table


WALL_CLOCK_TARGET = 1e-10


def _wall_clock(
    cfg: dict[str, Any], score: Any, x_T: torch.Tensor, dev: torch.device, target: float = WALL_CLOCK_TARGET
) -> tuple[dict[str, float], list[dict[str, Any]]]:
    """Wall-clock seconds each solver needs to reach mean error ``<= target`` on ``[t_end, T]`` on ``dev``:
    collocation (over ``ladder_degrees``), torchdiffeq dopri5 / dopri8 (over ``dopri_ladder_tols``) and
    float64 UniPC-3 (over ``unipc_ladder_steps``), each timed at the cheapest setting of its ladder that
    reaches ``target`` (settings tried cheapest first), after one untimed warm-up call per solver (CUDA
    start-up and kernel caches). ``inf`` when no setting reaches ``target``. Not a resumable unit: a
    timing is only meaningful inside one process."""
    T, t_end, W = cfg["T"], cfg["t_end"], cfg["spectral_windows"]
    ref, _ = reference_solution(score, x_T, T, t_end, tol=cfg["ref_tol"])
    x = x_T.to(dev)

    def sync() -> None:
        if dev.type == "cuda":
            torch.cuda.synchronize(dev)

    solvers: dict[str, list[tuple[str, Any]]] = {
        "collocation": [
            (f"W={W} D={d}", partial(collocation_sample, score, x, T=T, t_min=t_end, windows=W, degree=d))
            for d in sorted(cfg["ladder_degrees"])
        ],
        **{
            m: [
                (f"tol={t:g}", partial(torchdiffeq_sample, score, x, T, t_end, m, t, t, max_calls=CALL_CAP))
                for t in sorted(cfg["dopri_ladder_tols"], reverse=True)
            ]
            for m in ("dopri5", "dopri8")
        },
        "unipc3": [
            (f"{s} steps", partial(unipc_sample, score, x, T, t_end, s, 3))
            for s in sorted(cfg["unipc_ladder_steps"])
        ],
    }
    metrics: dict[str, float] = {}
    rows: list[dict[str, Any]] = []
    for name, settings in solvers.items():
        with contextlib.suppress(RuntimeError):  # a warm-up that fails is tried again, timed, below
            settings[0][1]()  # warm-up, untimed
        metrics[f"wall_clock_{name}_s"] = math.inf
        for setting, job in settings:
            sync()
            t0 = time.perf_counter()
            try:
                res = job()
            except RuntimeError:  # torchdiffeq over its call cap or with a collapsed step
                continue
            sync()
            wall = time.perf_counter() - t0
            err = float((res.samples.cpu() - ref.cpu()).norm(dim=1).mean())
            if err <= target:
                metrics[f"wall_clock_{name}_s"] = wall
                rows.append(
                    {
                        "solver": name,
                        "setting": setting,
                        "nfe": res.n_score_evals,
                        "rounds": res.n_rounds,
                        "error": err,
                        "wall_s": wall,
                        "device": str(dev),
                    }
                )
                break
    return metrics, rows


def _anisotropic_dimension(
    cfg: dict[str, Any], seed: int, dev: torch.device, boot: np.random.Generator
) -> tuple[dict[str, float], list[dict[str, Any]]]:
    """Score calls to reach ``aniso_eps`` against d on a target whose effective dimension grows with d
    (``d + 1`` anisotropic components, ``R / sigma_min`` fixed), for collocation, DOP853 and RK4."""
    T, t_end, W, n = cfg["T"], cfg["t_end"], cfg["spectral_windows"], cfg["aniso_samples"]
    eps = np.array([cfg["aniso_eps"]])
    rows: list[dict[str, Any]] = []

    def one_dim(d: int) -> list[dict[str, Any]]:
        gm = GaussianMixture.anisotropic(
            d + 1, d, cfg["radius"], cfg["sigma"], cfg["aniso_sigma_max"], seed=seed
        )
        score = gm.score_fn()
        x = gm.sample(n, t=T, seed=seed + 1, device=dev)
        ref, _ = reference_solution(score, x, T, t_end, tol=cfg["ref_tol"])
        out = []
        for deg in cfg["aniso_degrees"]:
            res = collocation_sample(score, x, T=T, t_min=t_end, windows=W, degree=deg, device=dev)
            out.append(_row("collocation", f"d={d} D={deg}", res, ref, dim=d))
        for tol in cfg["aniso_dop853_tols"]:
            out.append(
                _row(
                    "dop853",
                    f"d={d} tol={tol:g}",
                    scipy_sample(score, x, T, t_end, "DOP853", tol, tol)[0],
                    ref,
                    dim=d,
                )
            )
        for steps in cfg["aniso_rk4_steps"]:
            grid = geometric_windows(T, steps, t_end, t_small=small_time_split(T, t_end))
            out.append(
                _row("rk4", f"d={d} {steps} steps", fixed_step_sample(score, x, grid, "rk4"), ref, dim=d)
            )
        return out

    for i, d in enumerate(progress(cfg["aniso_dims"], "anisotropic dimension sweep")):
        rows.extend(unit(f"aniso_dimension_{i}_d={d}", partial(one_dim, d)))
    metrics: dict[str, float] = {}
    for s in ("collocation", "dop853", "rk4"):
        needed, reps = [], []
        for d in cfg["aniso_dims"]:
            rs = [r for r in rows if r["solver"] == s and r["dim"] == d]
            calls = np.asarray([r["nfe"] for r in rs], float)
            needed.append(calls_to_eps(calls, np.asarray([r["error"] for r in rs]), eps)[0])
            means = _boot_means(rs, boot, paired=True)  # each d its own target and draws
            reps.append(
                np.full(N_BOOT, math.nan)
                if means is None
                else np.array([calls_to_eps(calls, b, eps)[0] for b in means])
            )
            metrics[f"aniso_{s}_calls_d={d}"] = needed[-1]
        needed_a, reps_a = np.asarray(needed), np.stack(reps, axis=1)
        metrics[f"aniso_{s}_calls_spread"] = float(needed_a.max() / needed_a.min())
        _set_interval(
            metrics, f"aniso_{s}_calls_spread", _nan_percentiles(reps_a.max(axis=1) / reps_a.min(axis=1))
        )
    return metrics, rows


def _theorem_windows_calls(
    cfg: dict[str, Any], seed: int, dev: torch.device
) -> tuple[dict[str, float], list[dict[str, Any]]]:
    """Collocation on :func:`theorem_windows` end to end: score calls against R/sigma on ``theorem_seeds``
    mixtures per sigma; the log-log slope of calls vs R/sigma per mixture, mean and t-interval over them."""
    T, t_end, R, n, deg = cfg["T"], cfg["t_end"], cfg["radius"], cfg["n_samples"], cfg["theorem_degree"]
    rows = []

    def one(s: float, j: int) -> dict[str, Any]:
        gm = GaussianMixture.bounded_plus_noise(cfg["n_components"], 2, R, s, seed=1000 * seed + j)
        x = gm.sample(n, t=T, seed=seed + 1, device=dev)
        w = theorem_windows(T, R, s, t_end)
        res = collocation_sample(gm.score_fn(), x, T=T, t_min=t_end, windows=w, degree=deg, device=dev)
        return {
            "r_over_sigma": R / s,
            "mixture": j,
            "windows": len(w) - 1,
            "calls": res.n_score_evals,
            "rounds": res.n_rounds,
        }

    for s in progress(cfg["theorem_sigmas"], "theorem windows"):
        for j in range(cfg["theorem_seeds"]):
            rows.append(unit(_unit_name(f"theorem_windows_sigma={s:g}_mixture={j}"), partial(one, s, j)))
    slopes = []
    for j in range(cfg["theorem_seeds"]):
        rs = [r for r in rows if r["mixture"] == j]
        slopes.append(
            np.polyfit(np.log([r["r_over_sigma"] for r in rs]), np.log([r["calls"] for r in rs]), 1)[0]
        )
    mean, half = mean_ci95(slopes)
    metrics = {"theorem_calls_slope": mean, "theorem_calls_slope_ci": half}
    metrics["theorem_windows_slope"] = float(
        np.polyfit(np.log([r["r_over_sigma"] for r in rows]), np.log([r["windows"] for r in rows]), 1)[0]
    )
    return metrics, rows
