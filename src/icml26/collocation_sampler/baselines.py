"""Baseline PF-ODE solvers on the same score oracle, each reporting score calls and sequential rounds.

- fixed-step Euler / Heun / RK4 on a given time grid (ours: a few lines each);
- ``scipy.integrate.solve_ivp`` (adaptive RK45, DOP853), also the high-precision reference;
- DPM-Solver++(2M) and (3M) (Lu et al. 2022, Alg. 2 and its third-order multistep form) written here in
  float64 on the continuous-time schedule, steps uniform in ``lambda = log(m / sqrt(1 - m^2))``;
- ``torchdiffeq`` adaptive solvers (dopri5, dopri8) in float64 torch, on the solvers' device;
- UniPC-p (Zhao et al. 2023) in float64 on the continuous-time schedule: diffusers' own
  ``UniPCMultistepScheduler`` with its grid replaced by ours (lambda-uniform, float64 ``sigmas``), so the
  library's UniP/UniC arithmetic runs in float64 (:func:`unipc_sample`);
- ``diffusers`` DPM-Solver++ and UniPC multistep schedulers driven by the exact epsilon-model
  ``eps(x, t) = -sqrt(1 - m(t)^2) score(x, t)`` on diffusers' own discrete (linear-beta) schedule: the
  library as shipped (float32 ``alphas_cumprod``/``sigmas``, final step to ``sigma = 0``), whose error
  floors near 1e-4 whatever the step count.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import torch
from scipy.integrate import solve_ivp

from icml26.collocation_sampler.sampler import SampleResult, as_states, checked_score
from icml26.collocation_sampler.schedule import OU, ScoreFn, VPSchedule

FIXED_STEP_METHODS = ("euler", "heun", "rk4")
SCIPY_METHODS = ("RK45", "DOP853")
TORCHDIFFEQ_METHODS = ("dopri5", "dopri8")
DIFFUSERS_METHODS = ("dpmsolver++", "unipc")
DPM_ORDERS = (1, 2, 3)
UNIPC_ORDERS = (1, 2, 3)
UNIPC_VARIANTS = ("bh1", "bh2")


def _check_score(score: object) -> None:
    if not callable(score):
        raise TypeError(f"score must be callable (x, t) -> grad log q_t(x), got {type(score).__name__}")


def _check_span(T: object, t_min: object) -> tuple[float, float]:
    ok = all(isinstance(v, int | float) and not isinstance(v, bool) for v in (T, t_min))
    if not (ok and 0 <= t_min < T < math.inf):
        raise ValueError(f"need 0 <= t_min < T < inf, got t_min={t_min!r}, T={T!r}")
    return float(T), float(t_min)


def fixed_step_sample(
    score: ScoreFn,
    x_T: object,
    times: Sequence[float] | np.ndarray,
    method: str = "rk4",
    schedule: VPSchedule = OU,
) -> SampleResult:
    """Euler (1 call/step), Heun (2) or classical RK4 (4) on the decreasing grid ``times``; every call is
    sequential, so ``n_rounds == n_score_evals``."""
    _check_score(score)
    if method not in FIXED_STEP_METHODS:
        raise ValueError(f"method must be one of {FIXED_STEP_METHODS}, got {method!r}")
    ts = np.asarray(times, dtype=np.float64)
    if ts.ndim != 1 or ts.size < 2 or not (np.diff(ts) < 0).all():
        raise ValueError("times must be a strictly decreasing 1-D grid with >= 2 points")
    y = as_states(x_T)
    f = schedule.velocity(checked_score(score))
    n = y.shape[0]

    def F(x: torch.Tensor, t: float) -> torch.Tensor:
        return f(x, torch.full((n,), t, dtype=torch.float64, device=x.device))

    for a, b in zip(ts[:-1], ts[1:]):
        h = float(b - a)
        if method == "euler":
            y = y + h * F(y, a)
        elif method == "heun":
            k1 = F(y, a)
            k2 = F(y + h * k1, b)
            y = y + 0.5 * h * (k1 + k2)
        else:
            k1 = F(y, a)
            k2 = F(y + 0.5 * h * k1, a + 0.5 * h)
            k3 = F(y + 0.5 * h * k2, a + 0.5 * h)
            k4 = F(y + h * k3, b)
            y = y + h / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)
    calls = {"euler": 1, "heun": 2, "rk4": 4}[method] * (ts.size - 1)
    return SampleResult(y, calls, calls)


def scipy_sample(
    score: ScoreFn,
    x_T: object,
    T: float,
    t_min: float = 0.0,
    method: str = "DOP853",
    rtol: float = 1e-10,
    atol: float = 1e-10,
    schedule: VPSchedule = OU,
    t_eval: Sequence[float] | None = None,
) -> tuple[SampleResult, np.ndarray | None]:
    """Adaptive ``solve_ivp`` on the whole batch as one system (one shared step size).

    Returns the result at ``t_min`` and, if ``t_eval`` (decreasing times in ``[t_min, T]``) is given, the
    states there, shape (len(t_eval), n, d). ``n_score_evals == n_rounds == nfev``.
    """
    _check_score(score)
    if method not in SCIPY_METHODS:
        raise ValueError(f"method must be one of {SCIPY_METHODS}, got {method!r}")
    T, t_min = _check_span(T, t_min)
    y0 = as_states(x_T, "cpu")
    n, d = y0.shape
    f = schedule.velocity(checked_score(score))

    def rhs(t: float, y: np.ndarray) -> np.ndarray:
        x = torch.from_numpy(y.reshape(n, d))
        return f(x, torch.full((n,), t, dtype=torch.float64)).numpy().ravel()

    evals = None
    if t_eval is not None:
        evals = np.asarray(t_eval, dtype=np.float64)
        if evals.ndim != 1 or (evals > T).any() or (evals < t_min).any() or (np.diff(evals) >= 0).any():
            raise ValueError(f"t_eval must be strictly decreasing times within [{t_min}, {T}]")
        evals = np.append(evals, t_min) if evals[-1] > t_min else evals
    sol = solve_ivp(rhs, (T, t_min), y0.numpy().ravel(), method=method, rtol=rtol, atol=atol, t_eval=evals)
    if not sol.success:
        raise RuntimeError(f"solve_ivp({method}) failed: {sol.message}")
    y_end = torch.from_numpy(sol.y[:, -1].reshape(n, d).copy())
    states = None if t_eval is None else sol.y.T.reshape(-1, n, d)[: len(t_eval)]
    return SampleResult(y_end, int(sol.nfev), int(sol.nfev)), states


def torchdiffeq_sample(
    score: ScoreFn,
    x_T: object,
    T: float,
    t_min: float = 0.0,
    method: str = "dopri8",
    rtol: float = 1e-10,
    atol: float = 1e-10,
    schedule: VPSchedule = OU,
    max_calls: int = 10**5,
) -> SampleResult:
    """``torchdiffeq.odeint`` (adaptive dopri5 / dopri8) in float64 on ``x_T``'s device, the whole batch as
    one system. Score calls are counted by a wrapper; ``n_rounds == n_score_evals``. Raises
    ``RuntimeError`` past ``max_calls`` calls (the solver would not finish within the budget) and when
    torchdiffeq's step size collapses (it does at loose tolerances, ~1e-4, on the stiff GMM flows)."""
    from torchdiffeq import odeint

    _check_score(score)
    if method not in TORCHDIFFEQ_METHODS:
        raise ValueError(f"method must be one of {TORCHDIFFEQ_METHODS}, got {method!r}")
    T, t_min = _check_span(T, t_min)
    y0 = as_states(x_T)
    n = y0.shape[0]
    f = schedule.velocity(checked_score(score))
    calls = 0

    def rhs(t: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        nonlocal calls
        calls += 1
        if calls > max_calls:
            raise RuntimeError(f"torchdiffeq {method} needed more than max_calls={max_calls} score calls")
        return f(y, t.to(torch.float64).expand(n))

    span = torch.tensor([T, t_min], dtype=torch.float64, device=y0.device)
    try:
        y = odeint(rhs, y0, span, method=method, rtol=rtol, atol=atol)[-1]
    except AssertionError as exc:  # torchdiffeq signals a collapsed step size by an assertion
        raise RuntimeError(f"torchdiffeq {method} failed at rtol={rtol:g}, atol={atol:g}: {exc}") from exc
    return SampleResult(y, calls, calls)


def _log_snr(t: np.ndarray, schedule: VPSchedule) -> np.ndarray:
    """``lambda(t) = log(m(t) / sigma(t))`` with ``sigma^2 = 1 - m^2`` (Lu et al. 2022, Sec. 2)."""
    tt = torch.as_tensor(t, dtype=torch.float64)
    return (torch.log(schedule.mean_scale(tt)) - 0.5 * torch.log(schedule.noise_var(tt))).numpy()


def _time_of_log_snr(lam: np.ndarray, schedule: VPSchedule) -> np.ndarray:
    """Inverse of :func:`_log_snr`: ``m^2 = sigmoid(2 lambda)``."""
    abar = 1.0 / (1.0 + np.exp(-2.0 * np.asarray(lam, dtype=np.float64)))
    return np.array([schedule.time_of_alpha_bar(float(a)) for a in abar])


def _check_steps(steps: object) -> None:
    if not isinstance(steps, int) or isinstance(steps, bool) or steps < 1:
        raise ValueError(f"steps must be a positive integer, got {steps!r}")


def _log_snr_grid(T: float, t_min: float, steps: int, schedule: VPSchedule) -> tuple[np.ndarray, np.ndarray]:
    """``steps + 1`` log-SNRs evenly spaced from ``lambda(T)`` to ``lambda(t_min)`` and their times (the ends
    set to ``T`` and ``t_min`` exactly)."""
    lam = np.linspace(*_log_snr(np.array([T, t_min]), schedule), steps + 1)
    ts = _time_of_log_snr(lam, schedule)
    ts[0], ts[-1] = T, t_min
    return lam, ts


def dpm_solver_pp_sample(
    score: ScoreFn,
    x_T: object,
    T: float,
    t_min: float,
    steps: int,
    order: int = 2,
    schedule: VPSchedule = OU,
) -> SampleResult:
    """DPM-Solver++(``order``M), the multistep data-prediction solver of Lu et al. (2022), Alg. 2 (2M)
    and its third-order multistep form (3M), in float64 on the continuous schedule.

    Steps are uniform in ``lambda`` from ``T`` to ``t_min > 0`` (``lambda(0) = inf``: stop at a small
    ``t_min``). The data prediction is Tweedie's ``x0 = (x + sigma^2 score) / m``. The first steps use the
    lower orders they have history for. One score call per step: ``n_score_evals == n_rounds == steps``.
    Update, with ``h = lambda_t - lambda_s``, ``r_k`` the ratios of previous steps to ``h``:

        x_t = (sigma_t / sigma_s) x_s - m_t (e^{-h} - 1) D0 + m_t ((e^{-h} - 1)/h + 1) D1
              - m_t ((e^{-h} - 1 + h)/h^2 - 1/2) D2                                       (DPM++)

    (order 2 keeps ``D1`` with the midpoint weight ``-(e^{-h} - 1)/2``, as Alg. 2).
    """
    _check_score(score)
    if order not in DPM_ORDERS:
        raise ValueError(f"order must be one of {DPM_ORDERS}, got {order!r}")
    _check_steps(steps)
    T, t_min = _check_span(T, t_min)
    if t_min <= 0:
        raise ValueError("DPM-Solver++ needs t_min > 0 (lambda(0) is infinite); e.g. t_min=1e-3")
    x = as_states(x_T)
    n = x.shape[0]
    sc = checked_score(score)
    lam, ts = _log_snr_grid(T, t_min, steps, schedule)
    tt = torch.as_tensor(ts, dtype=torch.float64)
    alpha = schedule.mean_scale(tt).tolist()
    sigma = torch.sqrt(schedule.noise_var(tt)).tolist()
    hist: list[torch.Tensor] = []  # data predictions at previous times, newest last
    for i in range(steps):
        t = torch.full((n,), ts[i], dtype=torch.float64, device=x.device)
        x0 = (x + sigma[i] ** 2 * sc(x, t)) / alpha[i]
        hist = [*hist[-2:], x0]
        h = lam[i + 1] - lam[i]
        em1 = math.expm1(-h)
        p = min(order, len(hist))
        x_lin = (sigma[i + 1] / sigma[i]) * x - alpha[i + 1] * em1 * x0
        if p == 1:
            x = x_lin
        elif p == 2:
            r0 = (lam[i] - lam[i - 1]) / h
            x = x_lin - 0.5 * alpha[i + 1] * em1 * (x0 - hist[-2]) / r0
        else:
            r0, r1 = (lam[i] - lam[i - 1]) / h, (lam[i - 1] - lam[i - 2]) / h
            d1_0, d1_1 = (x0 - hist[-2]) / r0, (hist[-2] - hist[-3]) / r1
            d1 = d1_0 + r0 / (r0 + r1) * (d1_0 - d1_1)
            d2 = (d1_0 - d1_1) / (r0 + r1)
            x = x_lin + alpha[i + 1] * (em1 / h + 1.0) * d1 - alpha[i + 1] * ((em1 + h) / h**2 - 0.5) * d2
        if not torch.isfinite(x).all():
            raise ValueError(f"DPM-Solver++({order}M) produced non-finite states at step {i}")
    return SampleResult(x, steps, steps)


def unipc_sample(
    score: ScoreFn,
    x_T: object,
    T: float,
    t_min: float,
    steps: int,
    order: int = 3,
    variant: str = "bh2",
    schedule: VPSchedule = OU,
    times: Sequence[float] | np.ndarray | None = None,
) -> SampleResult:
    """UniPC-``order`` (Zhao, Bai, Rao, Zhou, Lu, NeurIPS 2023) in float64 on the continuous schedule.

    The update is diffusers' ``UniPCMultistepScheduler`` (data prediction, ``predict_x0=True``): the
    predictor UniP-p and the corrector UniC-p of the paper's Sec. 3 (its Algorithms 1-2; the equation
    numbers of the paper could not be read here), with ``B(h) = h`` (``variant="bh1"``) or
    ``B(h) = e^h - 1`` (``"bh2"``). After ``set_timesteps`` the scheduler's grid is replaced by ours:
    ``sigmas`` (diffusers' ``sigma / alpha``) at times uniform in ``lambda = log(m / sigma)`` from ``T`` to
    ``t_min > 0``, cast to float64, with unique integer timesteps as labels. Every coefficient diffusers
    forms (``lambda``, ``h``, ``phi_k(h)``, the ``R``/``b`` systems for the ``rho`` weights) then follows that
    dtype, so the whole update runs in float64. The final step keeps its order
    (``lower_order_final=False``: the float32 default guards few-step stability, not accuracy) and ends
    at ``sigma(t_min)``. The epsilon-model is exact: ``eps(x, t) = -sigma(t) score(x, t)``. ``times``
    (optional) replaces the lambda-uniform grid: ``steps + 1`` strictly decreasing times from ``T`` to
    ``t_min`` (used to run on another scheduler's grid).

    One model call per step; the corrector reuses the next step's call (UniC adds no evaluation), so
    ``n_score_evals == n_rounds == steps``. With an exact model UniPC-p is of order ``p + 1`` (UniC-p raises
    UniP-p's order by one): the error falls by ``2^(p+1)`` when ``steps`` doubles (tested).
    """
    from diffusers import UniPCMultistepScheduler

    _check_score(score)
    if order not in UNIPC_ORDERS:
        raise ValueError(f"order must be one of {UNIPC_ORDERS}, got {order!r}")
    if variant not in UNIPC_VARIANTS:
        raise ValueError(f"variant must be one of {UNIPC_VARIANTS} (B(h) = h or e^h - 1), got {variant!r}")
    _check_steps(steps)
    T, t_min = _check_span(T, t_min)
    if t_min <= 0:
        raise ValueError("UniPC needs t_min > 0 (lambda(0) is infinite); e.g. t_min=1e-3")
    x = as_states(x_T)
    n = x.shape[0]
    sc = checked_score(score)
    if times is None:
        lam, ts = _log_snr_grid(T, t_min, steps, schedule)
    else:
        ts = np.asarray(times, dtype=np.float64)
        if ts.shape != (steps + 1,) or not (np.diff(ts) < 0).all() or ts[0] != T or ts[-1] != t_min:
            raise ValueError(
                f"times must be {steps + 1} (steps + 1) strictly decreasing times from T={T} to t_min={t_min}"
            )
    tt = torch.as_tensor(ts, dtype=torch.float64)
    alpha, sigma = schedule.mean_scale(tt), torch.sqrt(schedule.noise_var(tt))
    sched = UniPCMultistepScheduler(
        solver_order=order,
        solver_type=variant,
        predict_x0=True,
        prediction_type="epsilon",
        lower_order_final=False,
        final_sigmas_type="sigma_min",
    )
    sched.set_timesteps(min(steps, 1000))  # initialises the solver state; its grid is replaced below
    sched.timesteps = torch.arange(steps, 0, -1, dtype=torch.int64)
    sched.sigmas = (sigma / alpha).to(torch.float64)  # diffusers' sigma: sqrt((1 - abar) / abar)
    sched.num_inference_steps = steps
    sched.model_outputs = [None] * order
    sched.timestep_list = [None] * order
    sigma_l = sigma.tolist()
    for i in range(steps):
        t = torch.full((n,), ts[i], dtype=torch.float64, device=x.device)
        eps = -sigma_l[i] * sc(x, t)
        x = sched.step(eps, sched.timesteps[i], x).prev_sample
        if not torch.isfinite(x).all():
            raise ValueError(f"UniPC-{order} ({variant}) produced non-finite states at step {i}")
    if x.dtype != torch.float64:  # diffusers keeps the sample's dtype: a float32 leak would show here
        raise RuntimeError(f"UniPC returned {x.dtype}; expected float64")
    return SampleResult(x, steps, steps)


def reference_solution(
    score: ScoreFn,
    x_T: object,
    T: float,
    t_min: float = 0.0,
    schedule: VPSchedule = OU,
    t_eval: Sequence[float] | None = None,
    tol: float = 1e-13,
) -> tuple[torch.Tensor, np.ndarray | None]:
    """High-precision PF-ODE map: DOP853 at ``rtol = atol = tol`` (1e-13 by default)."""
    res, states = scipy_sample(score, x_T, T, t_min, "DOP853", tol, tol, schedule, t_eval)
    return res.samples, states


def make_diffusers_scheduler(method: str, steps: int, order: int = 2):
    """A diffusers scheduler (default linear-beta, 1000 training steps) ending at sigma = 0."""
    from diffusers import DPMSolverMultistepScheduler, UniPCMultistepScheduler

    if method not in DIFFUSERS_METHODS:
        raise ValueError(f"method must be one of {DIFFUSERS_METHODS}, got {method!r}")
    _check_steps(steps)
    if method == "dpmsolver++":
        sched = DPMSolverMultistepScheduler(
            algorithm_type="dpmsolver++", solver_order=order, final_sigmas_type="zero", lower_order_final=True
        )
    else:
        sched = UniPCMultistepScheduler(solver_order=order, final_sigmas_type="zero", lower_order_final=True)
    sched.set_timesteps(steps)
    return sched


def diffusers_start_time(method: str, steps: int, schedule: VPSchedule = OU) -> float:
    """The time (in ``schedule`` units) of the scheduler's first timestep, where its state must start."""
    sched = make_diffusers_scheduler(method, steps)
    abar = float(sched.alphas_cumprod[int(sched.timesteps[0])])
    return schedule.time_of_alpha_bar(abar)


def diffusers_sample(
    score: ScoreFn,
    x_start: object,
    method: str = "dpmsolver++",
    steps: int = 50,
    order: int = 2,
    schedule: VPSchedule = OU,
) -> SampleResult:
    """Run a diffusers multistep scheduler with the exact epsilon-model of ``score``.

    ``x_start`` (n, d) must be the state at :func:`diffusers_start_time`; the scheduler ends at time 0.
    One model call per step: ``n_score_evals == n_rounds == steps``.
    """
    _check_score(score)
    score = checked_score(score)
    sched = make_diffusers_scheduler(method, steps, order)
    x = as_states(x_start, "cpu")
    n = x.shape[0]
    for ts in sched.timesteps:
        abar = float(sched.alphas_cumprod[int(ts)])
        t = torch.full((n,), schedule.time_of_alpha_bar(abar), dtype=torch.float64)
        eps = -math.sqrt(1.0 - abar) * score(x, t)
        x = sched.step(eps, ts, x).prev_sample.to(torch.float64)
        if not torch.isfinite(x).all():
            raise ValueError(f"{method} produced non-finite states at timestep {int(ts)}")
    return SampleResult(x, len(sched.timesteps), len(sched.timesteps))
