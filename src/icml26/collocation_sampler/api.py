"""Entry points a diffusion user expects, beside :func:`collocation_sample`.

- :func:`solve`: ``torchdiffeq.odeint``-style, ``solve(velocity, y0, t_grid, method="collocation")``
  with ``velocity(t, y)`` (``t`` a 0-d tensor, ``y`` of ``y0``'s shape); every interval of ``t_grid`` is one
  collocation window, and ``"dopri5"``/``"dopri8"``/``"rk4"`` go to torchdiffeq.
- :func:`score_from_diffusers_unet`: the score of a diffusers ``UNet2DModel``-style epsilon-predictor
  trained on a discrete ``alphas_cumprod``, for the flat ``(m, d)`` states of the samplers.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import torch

from icml26.collocation_sampler.collocation import _check_degree, collocation_window, integration_matrix
from icml26.collocation_sampler.schedule import OU, ScoreFn, VPSchedule

TimeVelocity = Callable[[torch.Tensor, torch.Tensor], torch.Tensor]
SOLVE_METHODS = ("collocation", "dopri5", "dopri8", "rk4")


def _node_major(
    velocity: TimeVelocity, shape: tuple[int, ...]
) -> Callable[[torch.Tensor, torch.Tensor], torch.Tensor]:
    """Adapt ``velocity(t, y)`` to the collocation window's ``F(x, t)`` on node-major rows.

    The first call (a window's first Picard round, every node) evaluates each node on its own, as
    ``torchdiffeq`` would (``t`` 0-d, ``y`` of ``y0``'s shape), and checks the shape. It then tries the
    same nodes in one call with the node states stacked along the first axis and one time per row (``t``
    of shape ``(m,)``, then ``(m, 1, ...)``, the forms ``t.expand(len(y))`` and ``t * y`` accept); if one
    form reproduces the per-node values, every later round is one call in that form, else one call per
    node (a velocity that needs a scalar time)."""
    n = shape[0] if len(shape) > 1 else 1
    rest = shape[1:] if len(shape) > 1 else shape
    form: list[int | None] = []  # [] before the first call; then [trailing ones of t's shape] or [None]

    def per_node(x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        out = []
        for j in range(x.shape[0] // n):
            v = velocity(t[j * n], x[j * n : (j + 1) * n].reshape(shape))
            if not form and (not torch.is_tensor(v) or tuple(v.shape) != tuple(shape)):
                got = tuple(v.shape) if torch.is_tensor(v) else type(v).__name__
                raise ValueError(f"velocity(t, y) must return a tensor of y's shape {shape}, got {got}")
            out.append(v.to(torch.float64).reshape(n, -1))
        return torch.cat(out)

    def stacked(x: torch.Tensor, t: torch.Tensor, ones: int) -> torch.Tensor:
        y = x.reshape(x.shape[0], *rest)  # the nodes' rows stacked: (m * n, *y0.shape[1:])
        v = velocity(t.reshape(x.shape[0], *([1] * ones)), y)
        if not torch.is_tensor(v) or tuple(v.shape) != tuple(y.shape):
            raise ValueError("stacked call returned another shape")
        return v.to(torch.float64).reshape(x.shape[0], -1)

    def f(x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        if form and form[0] is not None:
            return stacked(x, t, form[0])
        reference = per_node(x, t)
        if not form:
            form.append(None)
            for ones in (0, len(rest)):  # t of shape (m,), then (m, 1, ..., 1)
                try:
                    v = stacked(x, t, ones)
                except Exception:  # noqa: BLE001 (this velocity takes no stacked call in this form)
                    continue
                scale = 1.0 + float(reference.abs().max())
                if torch.allclose(v, reference, rtol=0.0, atol=1e-12 * scale):
                    form[0] = ones
                    break
        return reference

    return f


def solve(
    velocity: TimeVelocity,
    y0: torch.Tensor,
    t_grid: Sequence[float] | np.ndarray | torch.Tensor,
    method: str = "collocation",
    *,
    degree: int = 12,
    max_rounds: int = 50,
    tol: float = 1e-12,
    rtol: float = 1e-10,
    atol: float = 1e-10,
) -> torch.Tensor:
    """Solve ``dy/dt = velocity(t, y)`` through the times ``t_grid`` (monotone, either direction), as
    ``torchdiffeq.odeint``: returns the states at every grid time, shape ``(len(t_grid), *y0.shape)``.

    ``method="collocation"`` takes each grid interval as one window of (Coll) with ``degree`` and the
    Picard rule ``(max_rounds, tol)``; an unconverged window raises ``RuntimeError``. The other methods are
    torchdiffeq's (``rtol``, ``atol`` for the adaptive ones). Float64 throughout.
    """
    if not callable(velocity):
        raise TypeError(f"velocity must be callable (t, y) -> dy/dt, got {type(velocity).__name__}")
    if method not in SOLVE_METHODS:
        raise ValueError(f"method must be one of {SOLVE_METHODS}, got {method!r}")
    if not torch.is_tensor(y0) or y0.ndim < 1 or y0.numel() < 1 or not y0.is_floating_point():
        raise TypeError("y0 must be a non-empty floating torch.Tensor (e.g. shape (n, d))")
    y0 = y0.to(torch.float64)
    if not torch.isfinite(y0).all():
        raise ValueError("y0 must be finite")
    ts = torch.as_tensor(np.asarray(t_grid, dtype=np.float64) if not torch.is_tensor(t_grid) else t_grid)
    ts = ts.to(dtype=torch.float64, device="cpu")
    steps = torch.diff(ts)
    if (
        ts.ndim != 1
        or ts.numel() < 2
        or not torch.isfinite(ts).all()
        or not ((steps > 0).all() or (steps < 0).all())
    ):
        raise ValueError("t_grid must be a finite, strictly monotone 1-D grid with >= 2 times")
    if method != "collocation":
        from torchdiffeq import odeint

        kw = {"rtol": rtol, "atol": atol} if method != "rk4" else {}
        return odeint(velocity, y0, ts.to(y0.device), method=method, **kw)
    degree = _check_degree(degree)
    a_mat, c = integration_matrix(degree)
    a_mat, nodes = torch.as_tensor(a_mat, device=y0.device), torch.as_tensor(c, device=y0.device)
    f = _node_major(velocity, tuple(y0.shape))
    y = y0.reshape(y0.shape[0] if y0.ndim > 1 else 1, -1)
    out = [y0]
    for a, b in zip(ts[:-1].tolist(), ts[1:].tolist()):
        y, _, _, converged = collocation_window(
            f, y, a, b, a_mat, nodes, max_rounds, tol, return_converged=True
        )
        if not converged:
            raise RuntimeError(
                f"Picard rounds did not converge on [{a:.6g}, {b:.6g}] within max_rounds={max_rounds};"
                " refine t_grid or raise max_rounds"
            )
        out.append(y.reshape(y0.shape))
    return torch.stack(out)


def score_from_diffusers_unet(
    unet: torch.nn.Module,
    alphas_cumprod: Sequence[float] | np.ndarray | torch.Tensor,
    sample_shape: tuple[int, ...],
    schedule: VPSchedule = OU,
) -> ScoreFn:
    """Score ``-eps / sqrt(1 - m(t)^2)`` of a diffusers epsilon-predicting model for flat states.

    unet: called as ``unet(images, timesteps).sample`` (``UNet2DModel``) or returning a tensor; it is run
        in its own dtype and its output cast to float64.
    alphas_cumprod: the training schedule's ``alpha_bar`` per discrete timestep (``scheduler.alphas_cumprod``).
    sample_shape: one sample's shape, e.g. ``(C, H, W)``; states are ``(m, prod(sample_shape))``.
    The continuous time ``t`` is mapped to the fractional timestep with the same ``alpha_bar = m(t)^2``
    (linear interpolation of ``log alpha_bar`` [inferred: the model was trained on integer timesteps only]).
    """
    if not callable(unet):
        raise TypeError(f"unet must be a callable module, got {type(unet).__name__}")
    abar = torch.as_tensor(np.asarray(alphas_cumprod, dtype=np.float64))
    if (
        abar.ndim != 1
        or abar.numel() < 2
        or not ((abar > 0) & (abar <= 1)).all()
        or not (torch.diff(abar) < 0).all()
    ):
        raise ValueError("alphas_cumprod must be a strictly decreasing 1-D sequence in (0, 1]")
    if not (
        isinstance(sample_shape, tuple)
        and sample_shape
        and all(isinstance(s, int) and s > 0 for s in sample_shape)
    ):
        raise ValueError(
            f"sample_shape must be a tuple of positive ints, e.g. (1, 8, 8), got {sample_shape!r}"
        )
    dim = math.prod(sample_shape)
    log_abar = torch.log(abar).flip(0).numpy()  # increasing, for np.interp
    steps = np.arange(abar.numel(), dtype=np.float64)[::-1].copy()
    param = next(iter(unet.parameters()), None) if isinstance(unet, torch.nn.Module) else None
    dtype = param.dtype if param is not None else torch.float32

    def score(x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        if x.ndim != 2 or x.shape[1] != dim:
            raise ValueError(
                f"states must have shape (m, {dim}) for sample_shape {sample_shape}, got {tuple(x.shape)}"
            )
        m2 = schedule.mean_scale(t) ** 2
        tau = np.interp(torch.log(m2).cpu().numpy(), log_abar, steps)
        lo, hi = float(log_abar[0]), float(log_abar[-1])
        if (torch.log(m2).cpu().numpy() < lo - 1e-9).any() or (torch.log(m2).cpu().numpy() > hi + 1e-9).any():
            raise ValueError("t lies outside the model's training schedule (alphas_cumprod range)")
        images = x.reshape(-1, *sample_shape).to(dtype)
        timesteps = torch.as_tensor(tau, dtype=dtype, device=x.device)
        with torch.no_grad():
            out = unet(images, timesteps)
        eps = getattr(out, "sample", out).to(torch.float64).reshape(x.shape[0], dim)
        return -eps / torch.sqrt(schedule.noise_var(t))[:, None]

    return score
