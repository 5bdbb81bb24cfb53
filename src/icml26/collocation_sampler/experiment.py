"""Experiment: accuracy of CollocationDiffusion vs score calls and sequential rounds, against baselines.

Exact-score Gaussian-mixture targets (Assumption 1) let us measure the error of the ODE map exactly:
every solver starts from the same exact draws ``x_T ~ q_T`` and is compared, sample by sample, with a
DOP853 reference at ``rtol = atol = ref_tol``. Since ``law(y_ref) = q_0``, the RMS pathwise error also
bounds ``W2(law(y), q_0)`` (the error of the sampled distribution). Steps:

1. spectral sweep: error vs degree D at fixed windows (+ RK4/Euler/Heun/RK45/DOP853/diffusers curves);
2. depth: best error within 200 sequential rounds; diffusers DPM-Solver++ and UniPC at the same rounds;
3. dimension sweep d in ``dims`` at fixed (W, D, tol): rounds used (on ``dim_round_repeats`` draws) and error;
4. R/sigma sweep: error at fixed (W, D) and the theorem's window count;
5. score error: ``score + delta g`` for ``delta`` in ``noise_deltas``: error vs delta (log-log slope);
6. the headline (issue #18): on ``[t_end, T]``, every solver's ladder in float64 (collocation over D,
   RK4, DPM-Solver++ 2M/3M, UniPC-2/-3 (float64, diffusers' update on our grid), DOP853, torchdiffeq dopri5/dopri8; <= 1e5 score calls a setting), the
   score calls / rounds each needs to reach eps in 1e-2..1e-10, and the power-law vs polylog fits;
   equal-call and equal-round errors; the reference checked against collocation at D = 24; ladder
   rows with an unconverged Picard window are counted and left out of calls-to-eps and its fits;
7. dimension on an anisotropic mixture (d + 1 components spanning all d directions): calls to
   ``aniso_eps`` against d for collocation, DOP853 and RK4;
8. the theorem's windows end to end: score calls against R/sigma (log-log slope over mixtures).

95% intervals: every solver sees the same ``n_samples`` draws, so the per-sample errors behind a metric
are resampled (percentile bootstrap over samples, the mixture drawn by the seed held fixed); the round
counts are per batch, so the dimension sweep's rounds ratio gets a t-interval over fresh draws instead.
"""

from __future__ import annotations

import math
from functools import partial
from typing import Any

import numpy as np
import torch

from icml26.collocation_sampler.accuracy import (
    _SAMPLE_ERRORS,
    CALL_CAP,
    ERROR_FLOOR,
    LADDER_BASELINES,
    N_BOOT,
    ROUND_BUDGET,
    _best_within,
    _boot_means,
    _percentiles,
    _row,
    _set_interval,
    _slope,
    _slopes,
    _table,
    _unit_name,
)
from icml26.collocation_sampler.baselines import (
    diffusers_sample,
    diffusers_start_time,
    fixed_step_sample,
    reference_solution,
    scipy_sample,
)
from icml26.collocation_sampler.claims import BACKGROUND, NAMES, PAPER_CLAIMS, TESTS
from icml26.collocation_sampler.sampler import collocation_sample
from icml26.collocation_sampler.sweeps import (
    _anisotropic_dimension,
    _headline_metrics,
    _ladder,
    _theorem_windows_calls,
    _wall_clock,
)
from icml26.collocation_sampler.targets import GaussianMixture, perturbed_score
from icml26.collocation_sampler.windows import geometric_windows, theorem_windows
from icml26.common import (
    Experiment,
    Plot,
    Resources,
    Result,
    check_device,
    comparison_key,
    mean_ci95,
    paired_ci,
    progress,
    seed_everything,
    unit,
)


def _check(config: dict[str, Any]) -> None:
    if torch.device(check_device(config["device"])).type == "mps":
        raise ValueError(
            "device 'mps' has no float64, which the collocation solvers need; accepted: cpu, cuda"
        )
    for key in ("n_samples", "n_components", "spectral_windows", "depth_windows", "depth_degree"):
        if not isinstance(config[key], int) or config[key] < 1:
            raise ValueError(f"config {key!r} must be a positive integer, got {config[key]!r}")
    if len(config["degrees"]) < 2:
        raise ValueError("config 'degrees' needs at least two degrees to fit a rate")
    if not 0 < config["ref_tol"] < 1e-6:
        raise ValueError(f"config 'ref_tol' must lie in (0, 1e-6), got {config['ref_tol']!r}")
    if not 0 < config["t_end"] < config["T"]:
        raise ValueError(f"config 't_end' must lie in (0, T={config['T']}), got {config['t_end']!r}")
    if config["equal_degree"] not in config["ladder_degrees"]:
        raise ValueError(f"config 'equal_degree' must be one of ladder_degrees {config['ladder_degrees']}")
    if len(config["theorem_sigmas"]) < 2 or config["theorem_seeds"] < 2:
        raise ValueError("config needs >= 2 theorem_sigmas (a slope) and >= 2 theorem_seeds (an interval)")
    if not isinstance(config["dim_round_repeats"], int) or config["dim_round_repeats"] < 2:
        raise ValueError(
            f"config 'dim_round_repeats' must be an integer >= 2 (an interval), got {config['dim_round_repeats']!r}"
        )


def run(config: dict[str, Any], seed: int) -> Result:
    _check(config)
    seed_everything(seed)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # the score calls are tiny: threading only adds contention
    try:
        return _run(config, seed)
    finally:
        torch.set_num_threads(threads)


def _run(cfg: dict[str, Any], seed: int) -> Result:
    T, n, R, sigma, k = cfg["T"], cfg["n_samples"], cfg["radius"], cfg["sigma"], cfg["n_components"]
    # Device placement: every draw is made on the CPU (seeded generators, so results do not depend on the
    # device) and moved to ``dev`` afterwards; the mixture's parameters follow the states' device inside
    # its score, and collocation / fixed-step solvers run on ``dev``. The scipy solvers (reference, RK45,
    # DOP853) and the diffusers schedulers work on CPU tensors/numpy arrays and stay on the CPU.
    dev = torch.device(cfg["device"])
    rows: list[dict[str, Any]] = []
    W_s, W_d, D_d = cfg["spectral_windows"], cfg["depth_windows"], cfg["depth_degree"]

    # --- 1. d = 2 target, exact q_T draws, reference (also at diffusers' start time) --------------
    # Every part below is a resumable unit (common.unit): its result (table rows, per-sample errors) is
    # stored as soon as it finishes and reused by `icml26 run --resume`. The draws are seeded per call
    # (GaussianMixture / perturbed_score take their own seeds), so no generator crosses a unit.
    gm = GaussianMixture.bounded_plus_noise(k, 2, R, sigma, seed=seed)
    score = gm.score_fn()
    x_T = gm.sample(n, t=T, seed=seed + 1, device=dev)  # drawn on the CPU, then moved

    def reference() -> tuple[float | None, torch.Tensor, np.ndarray | None]:
        # diffusers' schedulers start at their own first timestep: take the reference state there
        t_diff = diffusers_start_time("dpmsolver++", 10) if cfg["use_diffusers"] else None
        ref, at_diff = reference_solution(  # scipy DOP853: runs on the CPU, ref is a CPU tensor
            score, x_T, T, t_eval=None if t_diff is None else [t_diff], tol=cfg["ref_tol"]
        )
        return t_diff, ref, at_diff

    t_diff, ref, at_diff = unit("reference_d=2", reference)

    def colloc(setting: str, windows: int, deg: int, **extra: Any) -> dict[str, Any]:
        res = collocation_sample(score, x_T, T=T, windows=windows, degree=deg, device=dev)
        return _row("collocation", setting, res, ref, **extra)

    spectral = []
    for i, deg in enumerate(progress(cfg["degrees"], "degree sweep")):
        rows.append(
            unit(
                f"degree_sweep_{i}_W={W_s}_D={deg}", partial(colloc, f"W={W_s} D={deg}", W_s, deg, degree=deg)
            )
        )
        spectral.append(rows[-1])
    for i, deg in enumerate(cfg["depth_degrees"]):
        rows.append(
            unit(
                f"depth_degrees_{i}_W={W_d}_D={deg}",
                partial(colloc, f"W={W_d} D={deg}", W_d, deg, degree=deg),
            )
        )
    rows.append(unit(f"depth_W={W_d}_D={D_d}", partial(colloc, f"W={W_d} D={D_d}", W_d, D_d)))
    depth_index, depth_err = len(rows) - 1, rows[-1]["error"]
    depth_rounds, depth_nfe = rows[-1]["rounds"], rows[-1]["nfe"]  # res.n_rounds, res.n_score_evals

    def fixed_steps(steps: int) -> list[dict[str, Any]]:
        grid = geometric_windows(T, steps, 0.0, t_small=1e-3)
        out = []
        for method, per in (("euler", 4), ("heun", 2), ("rk4", 1)):
            # equal score calls across the three methods: Euler gets 4x, Heun 2x the steps of RK4
            g = geometric_windows(T, steps * per, 0.0, t_small=1e-3) if per > 1 else grid
            out.append(_row(method, f"{len(g) - 1} steps", fixed_step_sample(score, x_T, g, method), ref))
        return out

    for i, steps in enumerate(progress(cfg["rk_steps"], "fixed-step baselines")):
        rows.extend(unit(f"fixed_step_{i}_steps={steps}", partial(fixed_steps, steps)))

    def adaptive(method: str, tol: float) -> dict[str, Any]:
        res, _ = scipy_sample(score, x_T, T, method=method, rtol=tol, atol=tol)
        return _row(method.lower(), f"tol={tol:g}", res, ref)

    for method in ("RK45", "DOP853"):  # scipy: stays on the CPU (x_T is copied there)
        for i, tol in enumerate(cfg["scipy_tols"]):
            rows.append(unit(_unit_name(f"scipy_{method}_{i}_tol={tol:g}"), partial(adaptive, method, tol)))
    equal_steps = depth_rounds
    blocked: dict[str, str] = {}
    if at_diff is not None:
        # diffusers baselines: kept on the CPU (diffusers_sample moves its states there)
        x_diff = torch.from_numpy(at_diff[0].copy())

        def diffusers_row(key: str, method: str, steps: int) -> dict[str, Any]:
            return _row(key, f"{steps} steps", diffusers_sample(score, x_diff, method, steps), ref)

        for method, key in (("dpmsolver++", "dpmpp"), ("unipc", "unipc")):
            for i, steps in enumerate(progress(sorted({*cfg["diffusers_steps"], equal_steps}), method)):
                rows.append(
                    unit(
                        f"diffusers_{key}_{i}_steps={steps}",
                        partial(diffusers_row, key, method, steps),
                    )
                )
    else:
        blocked["beats_dpm_solver"] = (
            "this profile skips diffusers (use_diffusers=False: its import alone takes ~10 s)"
        )

    metrics: dict[str, float] = {}
    boot = np.random.default_rng([seed, 20260])  # the intervals' resampling, reproducible per seed
    fit = [r for r in spectral if r["error"] > ERROR_FLOOR]
    metrics["decades_per_node"] = (
        -_slope([r["degree"] for r in fit], [r["error"] for r in fit]) if len(fit) >= 2 else math.nan
    )
    # interval: the same fit (same degrees) on resampled samples
    means = _boot_means(fit, boot, paired=True) if len(fit) >= 2 else None
    _set_interval(
        metrics,
        "decades_per_node",
        _percentiles(
            None
            if means is None
            else -_slopes([r["degree"] for r in fit], np.log10(np.maximum(means, np.finfo(float).tiny)))
        ),
    )
    for solver in ("collocation", "rk4", "dop853", "rk45", "dpmpp", "unipc"):
        prefix = "" if solver == "collocation" else f"{solver}_"
        best = _best_within(rows, solver, ROUND_BUDGET)
        if best is not None:  # a solver the profile does not run is not measured (its verdicts say so)
            metrics[f"{prefix}best_error_within_{ROUND_BUDGET}_rounds"] = best
    within = [r for r in rows if r["solver"] == "collocation" and r["rounds"] <= ROUND_BUDGET]
    means = _boot_means(within, boot, paired=True)  # the best setting re-chosen on every resample
    _set_interval(
        metrics,
        f"best_error_within_{ROUND_BUDGET}_rounds",
        _percentiles(None if means is None else means.min(axis=1)),
    )
    metrics["collocation_rounds"] = float(depth_rounds)
    metrics["collocation_nfe"] = float(depth_nfe)
    metrics["collocation_error"] = depth_err
    depth_row = rows[depth_index]
    for key in ("dpmpp", "unipc"):
        same = [r for r in rows if r["solver"] == key and r["rounds"] == equal_steps]
        if same:
            base = f"{key}_error_equal_rounds"
            metrics[base] = same[0]["error"]
            # paired by sample: the diffusers run starts from the reference state of the same draws
            pair = paired_ci(depth_row[_SAMPLE_ERRORS], same[0][_SAMPLE_ERRORS], "ratio", "mean", seed=seed)
            _set_interval(metrics, comparison_key("collocation_error", base, "ratio"), pair)
    for method in ("dop853", "rk45"):  # the adaptive solvers' total calls at their tightest tolerance
        last = [r for r in rows if r["solver"] == method][-1]
        metrics[f"{method}_nfe"], metrics[f"{method}_error"] = float(last["nfe"]), last["error"]

    # --- 3. dimension sweep -------------------------------------------------------------------
    dim_rows = []
    # at dim_degree the error (~1e-8) sits well above the reference's floor, whose per-sample Euclidean
    # size grows like sqrt(d) and would otherwise dominate the comparison. The sweep is also run at
    # depth_degree, its original setting (revised after the first quick run; see the claims' `revised`).
    dim_degrees = list(dict.fromkeys((cfg["dim_degree"], cfg["depth_degree"])))

    def dimension(d: int) -> list[dict[str, Any]]:
        gm_d = GaussianMixture.bounded_plus_noise(k, d, R, sigma, seed=seed)
        x_d = gm_d.sample(n, t=T, seed=seed + 1, device=dev)
        ref_d, _ = reference_solution(gm_d.score_fn(), x_d, T, tol=cfg["ref_tol"])  # CPU (scipy)
        out = []
        for deg in dim_degrees:
            res = collocation_sample(gm_d.score_fn(), x_d, T=T, windows=W_d, degree=deg, device=dev)
            out.append(_row("collocation", f"d={d} D={deg}", res, ref_d, dim=d, degree=deg))
        return out

    def dimension_rounds(d: int) -> list[dict[str, Any]]:
        """Rounds only (no reference needed) on ``dim_round_repeats - 1`` fresh draws of the same target."""
        gm_d = GaussianMixture.bounded_plus_noise(k, d, R, sigma, seed=seed)
        out = []
        for rep in range(1, cfg["dim_round_repeats"]):
            x_d = gm_d.sample(n, t=T, seed=seed + 1 + 7919 * rep, device=dev)
            for deg in dim_degrees:
                res = collocation_sample(gm_d.score_fn(), x_d, T=T, windows=W_d, degree=deg, device=dev)
                out.append({"dim": d, "degree": deg, "repeat": rep, "rounds": res.n_rounds})
        return out

    repeat_rows = []
    for i, d in enumerate(progress(cfg["dims"], "dimension sweep")):
        dim_rows.extend(unit(f"dimension_sweep_{i}_d={d}", partial(dimension, d)))
        repeat_rows.extend(unit(f"dimension_rounds_repeats_{i}_d={d}", partial(dimension_rounds, d)))
    for deg, suffix in ((cfg["dim_degree"], ""), (cfg["depth_degree"], "_depth_degree")):
        at = [r for r in dim_rows if r["degree"] == deg]
        errs = [r["error"] for r in at]
        # the rounds ratio max_d / min_d per draw (draw 0: the sweep's own), mean and t-interval over draws
        draws = [[r["rounds"] for r in at]] + [
            [r["rounds"] for r in repeat_rows if r["degree"] == deg and r["repeat"] == rep]
            for rep in range(1, cfg["dim_round_repeats"])
        ]
        ratio, half = mean_ci95([max(rounds) / min(rounds) for rounds in draws])
        metrics[f"dim_rounds_ratio{suffix}"], metrics[f"dim_rounds_ratio{suffix}_ci"] = ratio, half
        metrics[f"dim_rounds_ratio{suffix}_draw0"] = max(draws[0]) / min(draws[0])
        metrics[f"dim_error_ratio{suffix}"] = max(errs) / max(min(errs), ERROR_FLOOR)
        metrics[f"dim_max_error{suffix}"] = max(errs)
        # each dimension has its own target and draws: resampled independently
        means = _boot_means(at, boot, paired=False)
        _set_interval(
            metrics,
            f"dim_error_ratio{suffix}",
            _percentiles(
                None if means is None else means.max(axis=1) / np.maximum(means.min(axis=1), ERROR_FLOOR)
            ),
        )

    # --- 4. R / sigma sweep (d = 2) -------------------------------------------------------------
    ratio_rows = []

    def r_over_sigma(s: float) -> dict[str, Any]:
        gm_s = GaussianMixture.bounded_plus_noise(k, 2, R, s, seed=seed)
        x_s = gm_s.sample(n, t=T, seed=seed + 1, device=dev)
        ref_s, _ = reference_solution(gm_s.score_fn(), x_s, T, tol=cfg["ref_tol"])  # CPU (scipy)
        res = collocation_sample(gm_s.score_fn(), x_s, T=T, windows=W_d, degree=D_d, device=dev)
        w_thm = len(theorem_windows(T, R, s)) - 1
        return _row(
            "collocation",
            f"R/sigma={R / s:g}",
            res,
            ref_s,
            r_over_sigma=R / s,
            theorem_windows=w_thm,
            theorem_windows_over_ratio_sq=w_thm / (R / s) ** 2,
        )

    for i, s in enumerate(progress(cfg["sigmas"], "R/sigma sweep")):
        ratio_rows.append(unit(_unit_name(f"r_over_sigma_sweep_{i}_sigma={s:g}"), partial(r_over_sigma, s)))

    # --- 5. injected score error (d = 2, fixed rounds so that noise cannot stall the stopping rule) --
    noise_rows = []

    def score_error(delta: float) -> dict[str, Any]:
        noisy = perturbed_score(score, delta, 2, seed=seed + 2)
        res = collocation_sample(noisy, x_T, T=T, windows=W_d, degree=D_d, tol=1e-12, device=dev)
        return _row("collocation", f"delta={delta:g}", res, ref, delta=delta)

    for i, delta in enumerate(progress(cfg["noise_deltas"], "score-error sweep")):
        noise_rows.append(
            unit(_unit_name(f"score_error_sweep_{i}_delta={delta:g}"), partial(score_error, delta))
        )
    nz = [r for r in noise_rows if r["delta"] > 0]
    metrics["noise_slope"] = float(
        np.polyfit(np.log10([r["delta"] for r in nz]), np.log10([r["error"] for r in nz]), 1)[0]
    )
    means = _boot_means(nz, boot, paired=True) if len(nz) >= 2 else None  # every delta uses x_T
    _set_interval(
        metrics,
        "noise_slope",
        _percentiles(
            None
            if means is None
            else _slopes(
                [math.log10(r["delta"]) for r in nz], np.log10(np.maximum(means, np.finfo(float).tiny))
            )
        ),
    )
    metrics["noise_error_over_delta_max"] = max(r["error"] / r["delta"] for r in nz)

    # --- 6. the headline: calls and rounds to eps, float64 baselines on [t_end, T] ---------------
    ladder_rows = _ladder(cfg, score, x_T, dev)
    head, eps_table = _headline_metrics(ladder_rows, cfg, boot, seed)
    metrics.update(head)
    # --- 7. dimension on a target that needs it; 8. the theorem's windows end to end ------------
    aniso, aniso_rows = _anisotropic_dimension(cfg, seed, dev, boot)
    metrics.update(aniso)
    theorem, theorem_rows = _theorem_windows_calls(cfg, seed, dev)
    metrics.update(theorem)
    # --- 9. wall-clock to 1e-10 on the run's device: only meaningful on a parallel device ---------
    wall_rows: list[dict[str, Any]] = []
    if dev.type == "cuda":
        wall, wall_rows = _wall_clock(cfg, score, x_T, dev)
        metrics.update(wall)
    else:
        blocked["gpu_wall_clock"] = (
            f"needs --set device=cuda; no device lent (this run: device={cfg['device']})"
        )

    plots = []
    for xkey, name in (("nfe", "error_vs_nfe"), ("rounds", "error_vs_rounds")):
        series = {}
        for solver in ("collocation", "euler", "heun", "rk4", "rk45", "dop853", "dpmpp", "unipc"):
            groups: dict[str, list[tuple[float, float, float]]] = {}
            for r in rows:
                if r["solver"] == solver and r["error"] > 0:
                    # one curve per window count for collocation (D varies along it), sorted by calls
                    label = f"{solver} {r['setting'].split()[0]}" if solver == "collocation" else solver
                    groups.setdefault(label, []).append((r["nfe"], r[xkey], r["error"]))
            for label, pts in groups.items():
                pts.sort()
                series[label] = ([float(p[1]) for p in pts], [float(p[2]) for p in pts])
        plots.append(
            Plot(
                name,
                f"PF-ODE map error vs {xkey} (d=2, R/sigma={R / sigma:g})",
                series,
                xkey,
                "mean ||y - y_ref||",
                logx=True,
                logy=True,
                # the rounds plot shows the depth claim: error <= 1e-10 within ROUND_BUDGET rounds
                claim="high_accuracy_depth" if xkey == "rounds" else "",
                lines={"rule: error <= 1e-10": 1e-10} if xkey == "rounds" else {},
            )
        )
    plots.append(
        Plot(
            "error_vs_degree",
            "Collocation error vs degree D (fixed windows)",
            {"collocation": ([float(r["degree"]) for r in spectral], [r["error"] for r in spectral])},
            "degree D",
            "mean ||y - y_ref||",
            logy=True,
            claim="spectral_in_degree",
        )
    )
    plots.append(
        Plot(
            "error_vs_score_error",
            "Error vs injected score error delta",
            {"collocation": ([r["delta"] for r in nz], [r["error"] for r in nz])},
            "delta",
            "mean ||y - y_ref||",
            logx=True,
            logy=True,
            claim="score_error_linear",
        )
    )
    calls_series = {}
    for solver in ("collocation", *LADDER_BASELINES):
        pts = [
            (1.0 / r["eps"], r["calls"])
            for r in eps_table
            if r["solver"] == solver and r["interpolated"] == "yes"
        ]
        if pts:
            calls_series[solver] = ([p[0] for p in pts], [p[1] for p in pts])
    plots.append(
        Plot(
            "calls_to_eps",
            f"Score calls to reach eps on [{cfg['t_end']:g}, T] (d=2, R/sigma={R / sigma:g}; float64 solvers)",
            calls_series,
            "1/eps",
            "score calls per sample",
            logx=True,
            logy=True,
            claim="polylog_calls_slope_ratio",
        )
    )
    return Result(
        metrics=metrics,
        tables={
            "solvers": _table(rows),
            "dimension": _table(dim_rows),
            "dimension_rounds_repeats": repeat_rows,
            "r_over_sigma": _table(ratio_rows),
            "score_error": _table(noise_rows),
            "ladder": _table(ladder_rows),
            "calls_to_eps": eps_table,
            "anisotropic_dimension": _table(aniso_rows),
            "theorem_windows": theorem_rows,
            "wall_clock": wall_rows,
        },
        plots=plots,
        blocked=blocked,
        notes=[
            f"Target: {k}-component isotropic Gaussian mixture, means in the ball of radius R={R}, sigma={sigma}"
            f" (Assumption 1), OU process, T={T}, {n} samples drawn exactly from q_T.",
            f"Reference: batched DOP853 at rtol=atol={cfg['ref_tol']:g}; errors below {ERROR_FLOOR:g} are at"
            " the reference's accuracy and are left out of the degree-rate fit.",
            "Error = mean ||y - y_ref|| at t=0; w2_bound = RMS of the same, a bound on W2(law(y), q_0).",
            f"diffusers schedulers run on their own 1000-step linear-beta grid from t={t_diff or math.nan:.4f}"
            " (OU time) with the exact epsilon-model, compared with the reference state there.",
            "Windows: geometric from T to 1e-3 plus [1e-3, 0] (the theorem's contraction rule needs"
            " ~(R/sigma)^2 windows; its count is in table r_over_sigma).",
            f"95% intervals: percentile bootstrap ({N_BOOT} resamples) of the per-sample errors over the"
            f" {n} samples, the mixture drawn by the seed held fixed; round counts are per batch and have"
            " no interval.",
            f"Headline ladders (table ladder / calls_to_eps) run on [t_end={cfg['t_end']:g}, T] in float64:"
            " DPM-Solver++(2M)/(3M) written here on the continuous OU schedule (lambda-uniform steps; their"
            " first steps are lower-order, so 3M is globally second-order), torchdiffeq dopri5/dopri8, scipy"
            f" DOP853, RK4; every setting capped at {CALL_CAP} score calls. Reference: DOP853 at ref_tol,"
            " checked against collocation at D=24 (ladder_reference_disagreement).",
            "calls_to_eps: log-log interpolation along each solver's ladder; nan where the ladder does not"
            " reach eps or its cheapest setting already does. Fits use only the reached points.",
            "Ladder rows with an unconverged Picard window (column unconverged_windows of table ladder; count"
            f" of such rows: ladder_unconverged_rows = {metrics['ladder_unconverged_rows']:g}) are left out of"
            " calls_to_eps and its fits.",
            f"dim_rounds_ratio*: mean and t-interval over {cfg['dim_round_repeats']} draws of the samples"
            " (the sweep's own and fresh ones of the same target; table dimension_rounds_repeats).",
        ],
    )


# --- cost model (Experiment.cost): a rough estimate of one runner seed on 2 CPU cores -----------------
# Calibrated on timed smoke-sized runs (2 shared cores, one torch thread): a batched score call costs
# ~0.1-0.3 ms of Python overhead plus ~2e-8 s per state entry (rows x d, scaled by n_components / 8);
# a collocation window takes ~8.5 Picard rounds; DOP853 needs ~80 * 10^(0.09 k) and RK45
# ~170 * 10^(0.154 (k - 6)) calls at tolerance 10^-k; a diffusers step costs ~1.5 ms and their import
# 5-10 s. Peak memory of a smoke run with diffusers: ~400 MB. The estimate is ~14 s for quick
# (measured 9 s; "about 40 s" with the CLI's start-up) and ~21 s for paper (measured 16 s).
_CALL_S = 2e-4  # per sequential score call: Python and torch overhead
_ENTRY_S = 2e-8  # per state entry of a call (rows x d) for an 8-component mixture
_ROUNDS_PER_WINDOW = 8.5
_DIFFUSERS_STEP_S = 1.5e-3
_DIFFUSERS_IMPORT_S = 8.0
_UNIPC_STEP_S = 1.5e-3  # float64 UniPC: one diffusers scheduler step (its Python and small solves)
_START_S = 1.0  # targets, tables, bootstrap intervals
_BASE_BYTES = 5e8  # torch, scipy and diffusers imported (peak RSS of a smoke run: ~400 MB)
_DOPRI_CALL_S = 1e-3  # torchdiffeq: its Python step logic per score call
_THEOREM_WINDOW_S = 2e-6  # theorem_windows: one loop step per window, ~2.6 (R/sigma)^2 windows


def _dop853_calls(tol: float) -> float:
    return 80.0 * 10 ** (0.09 * -math.log10(tol))


def _rk45_calls(tol: float) -> float:
    return 170.0 * 10 ** (0.154 * (-math.log10(tol) - 6))


def cost(config: dict[str, Any]) -> tuple[float, float]:
    """``(seconds, bytes)``: a rough estimate of one ``run(config, seed)`` on 2 CPU cores."""
    n, k, W_s, W_d = (
        config[key] for key in ("n_samples", "n_components", "spectral_windows", "depth_windows")
    )
    ref_calls = _dop853_calls(config["ref_tol"])

    def call(rows: float, d: float) -> float:
        return _CALL_S + _ENTRY_S * rows * d * k / 8

    def colloc(windows: float, deg: float, d: float = 2) -> float:
        return _ROUNDS_PER_WINDOW * windows * call(n * deg, d)

    dim_degrees = {config["dim_degree"], config["depth_degree"]}
    seconds = _START_S + ref_calls * call(2 * n, 2)  # the d = 2 reference (scipy: ~2x the entries)
    seconds += sum(colloc(W_s, deg) for deg in config["degrees"])
    seconds += sum(colloc(W_d, deg) for deg in [*config["depth_degrees"], config["depth_degree"]])
    seconds += sum(12 * steps * call(n, 2) for steps in config["rk_steps"])  # Euler, Heun, RK4
    seconds += sum((_rk45_calls(tol) + _dop853_calls(tol)) * call(2 * n, 2) for tol in config["scipy_tols"])
    if config["use_diffusers"]:
        steps = sum({*config["diffusers_steps"], round(_ROUNDS_PER_WINDOW * W_d)})
        seconds += _DIFFUSERS_IMPORT_S + 2 * steps * (_DIFFUSERS_STEP_S + call(n, 2))
    for d in config["dims"]:
        seconds += ref_calls * call(2 * n, d) + sum(colloc(W_d, deg, d) for deg in dim_degrees)
        seconds += (config["dim_round_repeats"] - 1) * sum(colloc(W_d, deg, d) for deg in dim_degrees)
    for s in config["sigmas"]:
        theorem = 2.6 * (config["radius"] / s) ** 2 * _THEOREM_WINDOW_S
        seconds += ref_calls * call(2 * n, 2) + colloc(W_d, config["depth_degree"]) + theorem
    seconds += len(config["noise_deltas"]) * colloc(W_d, config["depth_degree"])
    # the headline ladders (d = 2, on [t_end, T]): every sequential call of every setting
    seconds += ref_calls * call(2 * n, 2) + colloc(W_d, 24)
    seconds += sum(colloc(W_s, deg) for deg in config["ladder_degrees"])
    seconds += sum(4 * s for s in config["rk4_ladder_steps"]) * call(n, 2)
    seconds += 2 * sum(config["dpm_ladder_steps"]) * call(n, 2)
    seconds += 2 * sum(config["unipc_ladder_steps"]) * (_UNIPC_STEP_S + call(n, 2))
    seconds += sum(_dop853_calls(tol) for tol in config["dop853_ladder_tols"]) * call(2 * n, 2)
    seconds += 2 * sum(_DOPRI_CALL_S * _rk45_calls(tol) for tol in config["dopri_ladder_tols"])
    n_a = config["aniso_samples"]
    for d in config["aniso_dims"]:  # d + 1 full-covariance components: ~d^2 work per state entry
        call_a = _CALL_S + _ENTRY_S * d * (d + 1) / 8 * n_a * d
        seconds += ref_calls * call_a + sum(
            _ROUNDS_PER_WINDOW * W_s * call_a * deg for deg in config["aniso_degrees"]
        )
        seconds += sum(_dop853_calls(tol) for tol in config["aniso_dop853_tols"]) * call_a
        seconds += 4 * sum(config["aniso_rk4_steps"]) * call_a
    for s in config["theorem_sigmas"]:  # ~2.6 (R/sigma)^2 windows, ~4 rounds each
        windows = 2.6 * (config["radius"] / s) ** 2
        seconds += config["theorem_seeds"] * 4 * windows * call(n * config["theorem_degree"], 2)
    # memory: the largest batch (n (D + 1) nodes x d, with the k mixture components alongside), the
    # integration matrix, and scipy's stored steps (~nfe / 12 states of n x d)
    d_max = max([2, *config["dims"]])
    deg_max = max([*config["degrees"], *config["depth_degrees"], *dim_degrees])
    memory = _BASE_BYTES + 8.0 * (deg_max + 1) ** 2 + 8.0 * 4 * k * n * (deg_max + 1) * d_max
    memory += 8.0 * n * d_max * ref_calls / 12
    return seconds, memory


_BASE = {
    "device": "cpu",  # torch device of the collocation / fixed-step solvers (--set device=cuda)
    "T": 8.0,
    "radius": 3.0,
    "sigma": 0.3,
    "n_components": 8,
    "spectral_windows": 9,
    "depth_windows": 17,
    "depth_degree": 12,
    "dim_degree": 6,
    "noise_deltas": [1e-4, 1e-6, 1e-8],
    "t_end": 1e-3,
    "equal_degree": 16,
    "aniso_sigma_max": 1.2,
    "aniso_eps": 1e-8,
    "theorem_degree": 8,
    "theorem_seeds": 3,
    "dim_round_repeats": 4,  # fresh draws per d for the rounds ratio's t-interval (the first is the sweep's)
}

from icml26.common.schema import Bool, Device, Float, Int, ListOf  # noqa: E402 (the schema block sits beside the experiment)

_TOLERANCE = Float(1e-14, 0.1)  # an ODE solver's tolerance: below ~100 machine epsilons no solver gets there
SCHEMA = {  # each profile key's type and range (icml26.common.schema); check() keeps the cross-key rules
    "device": Device(),
    ("T", "radius", "t_end"): Float(0, 1000, low_open=True),
    ("sigma", "aniso_sigma_max"): Float(0, 100, low_open=True),
    ("n_components", "n_samples", "aniso_samples"): Int(1, 10**5),
    ("spectral_windows", "depth_windows"): Int(1, 1000),
    ("depth_degree", "dim_degree", "equal_degree", "theorem_degree"): Int(1, 64),
    ("theorem_seeds", "dim_round_repeats"): Int(2, 1000),
    "noise_deltas": ListOf(Float(0, 1, low_open=True), 1, 16),
    "aniso_eps": Float(0, 1, low_open=True),
    "use_diffusers": Bool(),
    "ref_tol": Float(0, 1e-6, low_open=True, high_open=True),
    "degrees": ListOf(Int(1, 64), 2, 64),
    ("depth_degrees", "ladder_degrees", "aniso_degrees"): ListOf(Int(1, 64), 1, 64),
    (
        "rk_steps",
        "diffusers_steps",
        "rk4_ladder_steps",
        "aniso_rk4_steps",
        "dpm_ladder_steps",
        "unipc_ladder_steps",
    ): ListOf(Int(1, 10**6), 1, 64),
    ("scipy_tols", "dop853_ladder_tols", "dopri_ladder_tols", "aniso_dop853_tols"): ListOf(_TOLERANCE, 1, 64),
    ("dims", "aniso_dims"): ListOf(Int(1, 4096), 1, 64),
    "sigmas": ListOf(Float(0, 100, low_open=True), 1, 64),
    "theorem_sigmas": ListOf(Float(0, 100, low_open=True), 2, 64),
}


EXPERIMENT = Experiment(
    method="collocation_sampler",
    title="High-accuracy and dimension-free sampling with diffusions (CollocationDiffusion)",
    paper="Gatmiry, Chen, Salim, ICML 2026, arXiv:2601.10708",
    run=run,
    profiles={
        "smoke": {
            **_BASE,
            "n_samples": 2,
            "use_diffusers": False,
            "ref_tol": 1e-10,
            "degrees": [4, 6, 8],
            "depth_degrees": [6],
            "depth_windows": 9,
            "depth_degree": 8,
            "rk_steps": [8],
            "scipy_tols": [1e-6],
            "diffusers_steps": [10],
            "dims": [2, 8],
            "sigmas": [0.6],
            "noise_deltas": [1e-3, 1e-5],
            "ladder_degrees": [4, 6, 8, 10],
            "equal_degree": 8,
            "rk4_ladder_steps": [4, 8, 16, 32],
            "dpm_ladder_steps": [8, 16, 32, 64],
            "unipc_ladder_steps": [8, 16, 32, 64],
            "dop853_ladder_tols": [1e-3, 1e-4, 1e-5, 1e-6],
            "dopri_ladder_tols": [1e-6, 1e-7, 1e-8],
            "aniso_dims": [2, 4],
            "aniso_samples": 2,
            "aniso_eps": 1e-4,
            "aniso_degrees": [2, 4, 6],
            "aniso_dop853_tols": [1e-3, 1e-5, 1e-7],
            "aniso_rk4_steps": [8, 32, 128],
            "theorem_sigmas": [1.0, 0.6],
            "theorem_seeds": 2,
            "theorem_degree": 4,
            "dim_round_repeats": 2,
        },
        "quick": {
            **_BASE,
            "n_samples": 16,
            "use_diffusers": True,
            "ref_tol": 1e-13,
            "degrees": [4, 6, 8, 10, 12, 14, 16],
            "depth_degrees": [4, 6, 8],
            "rk_steps": [8, 16, 32, 64, 128],
            "scipy_tols": [1e-6, 1e-8, 1e-10],
            "diffusers_steps": [25, 50, 100],
            "dims": [2, 16, 64, 256],
            "sigmas": [0.6, 0.3, 0.15],
            "ladder_degrees": [4, 6, 8, 10, 12, 14, 16, 18, 20, 22],
            "rk4_ladder_steps": [4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048],
            "dop853_ladder_tols": [1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11, 1e-12],
            "dopri_ladder_tols": [1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11, 1e-12],
            "aniso_degrees": [4, 6, 8, 10, 12, 14],
            "aniso_dop853_tols": [1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11],
            "aniso_rk4_steps": [16, 32, 64, 128, 256, 512, 1024, 2048],
            "dpm_ladder_steps": [8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384],
            "unipc_ladder_steps": [8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096],
            "aniso_dims": [2, 8, 32],
            "aniso_samples": 8,
            "theorem_sigmas": [0.6, 0.3, 0.15],
        },
        "paper": {
            **_BASE,
            "n_samples": 64,
            "use_diffusers": True,
            "ref_tol": 1e-13,
            "degrees": [4, 6, 8, 10, 12, 14, 16, 18, 20],
            "depth_degrees": [4, 6, 8, 10],
            "rk_steps": [8, 16, 32, 64, 128, 256, 512],
            "scipy_tols": [1e-6, 1e-8, 1e-10, 1e-12],
            "diffusers_steps": [25, 50, 100, 200, 500],
            "dims": [2, 16, 64, 256],
            "sigmas": [0.6, 0.3, 0.15, 0.1],
            "ladder_degrees": [4, 6, 8, 10, 12, 14, 16, 18, 20, 22],
            "rk4_ladder_steps": [4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048],
            "dop853_ladder_tols": [1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11, 1e-12],
            "dopri_ladder_tols": [1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11, 1e-12],
            "aniso_degrees": [4, 6, 8, 10, 12, 14],
            "aniso_dop853_tols": [1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11],
            "aniso_rk4_steps": [16, 32, 64, 128, 256, 512, 1024, 2048],
            "dpm_ladder_steps": [2**k for k in range(3, 17)],
            "unipc_ladder_steps": [2**k for k in range(3, 15)],
            "aniso_dims": [2, 8, 32, 64],
            "aniso_samples": 16,
            "theorem_sigmas": [0.6, 0.3, 0.15, 0.1],
        },
    },
    claims=TESTS,
    paper_claims=PAPER_CLAIMS,
    background=BACKGROUND,
    description=__doc__ or "",
    check=_check,
    schema=SCHEMA,
    cost=cost,
    names=NAMES,
    resources=Resources(cpus=1),  # per seed; memory comes from cost()
)
