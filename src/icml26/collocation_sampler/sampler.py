"""``CollocationDiffusion``: the paper's sampler, collocation window by window along the PF-ODE."""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import torch

from icml26.collocation_sampler.collocation import _check_degree, collocation_window, integration_matrix
from icml26.collocation_sampler.schedule import OU, ScoreFn, VPSchedule
from icml26.collocation_sampler.windows import check_windows, geometric_windows
from icml26.common import progress


@dataclass
class SampleResult:
    """Output of a sampler.

    samples: (n, d) states at ``t_min``.
    n_score_evals: score calls per sample (the theorem's complexity measure).
    n_rounds: sequential rounds (batched score calls one after another: the parallel depth).
    rounds_per_window: Picard rounds used on each window (collocation only).
    unconverged_windows: indices of windows whose Picard rounds hit ``max_rounds`` before the stopping
        rule held (collocation only; empty when every window converged).
    """

    samples: torch.Tensor
    n_score_evals: int
    n_rounds: int
    rounds_per_window: list[int] = field(default_factory=list)
    unconverged_windows: list[int] = field(default_factory=list)


def checked_score(score: ScoreFn, what: str = "score") -> ScoreFn:
    """``score`` with its output checked on the first call: a tensor of the input's shape (m, d) and a
    floating dtype. A lower-precision output is cast to float64 with a warning (it limits the accuracy)."""
    if not callable(score):
        raise TypeError(f"{what} must be callable (x, t) -> (m, d) tensor, got {type(score).__name__}")
    checked = False

    def wrapped(x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        nonlocal checked
        out = score(x, t)
        if not checked:
            if not torch.is_tensor(out):
                raise TypeError(f"{what} must return a torch.Tensor, got {type(out).__name__}")
            if tuple(out.shape) != tuple(x.shape):
                raise ValueError(
                    f"{what} returned shape {tuple(out.shape)} for states of shape {tuple(x.shape)};"
                    " it must return one value per state entry, shape (m, d)"
                )
            if not out.is_floating_point():
                raise TypeError(f"{what} must return a floating tensor, got dtype {out.dtype}")
            if out.dtype != torch.float64:
                warnings.warn(
                    f"{what} returned {out.dtype}; cast to float64, accuracy is limited to {out.dtype}",
                    stacklevel=2,
                )
            checked = True
        return out.to(torch.float64)

    return wrapped


def small_time_split(T: float, t_min: float) -> float:
    """Where the last geometric window ends: ``t_min + min(1e-3, (T - t_min) / 2)`` (any ``t_min < T``)."""
    return t_min + min(1e-3, (T - t_min) / 2)


def as_states(x: object, device: str | torch.device | None = None) -> torch.Tensor:
    """Validate and convert initial states to a float64 (n, d) tensor on ``device``."""
    if not torch.is_tensor(x):
        try:
            x = torch.as_tensor(np.asarray(x, dtype=np.float64))
        except (TypeError, ValueError) as exc:
            raise TypeError(f"x_T must be an (n, d) array of numbers, got {type(x).__name__}") from exc
    if x.ndim != 2 or x.shape[0] < 1 or x.shape[1] < 1:
        raise ValueError(f"x_T must have shape (n, d) with n, d >= 1, got {tuple(x.shape)}")
    x = x.to(device=device if device is not None else x.device, dtype=torch.float64)
    if not torch.isfinite(x).all():
        raise ValueError("x_T must be finite")
    return x


def collocation_sample(
    score: ScoreFn,
    x_T: object,
    *,
    T: float,
    t_min: float = 0.0,
    windows: int | Sequence[float] | np.ndarray = 16,
    degree: int = 12,
    max_rounds: int = 50,
    tol: float = 1e-12,
    schedule: VPSchedule = OU,
    device: str | torch.device | None = None,
    strict: bool = False,
) -> SampleResult:
    """Integrate the PF-ODE from ``T`` down to ``t_min`` by collocation (CollocationDiffusion).

    score: ``score(x, t)``, ``x`` (m, d), ``t`` (m,) float64 tensors -> (m, d) (an estimate of
        ``grad log q_t``; wrap denoisers with :func:`score_from_denoiser`).
    x_T: (n, d) initial states (``N(0, I)`` draws, or exact ``q_T`` draws to measure the ODE map).
    windows: number of windows (geometric from ``T`` to ``t_min + min(1e-3, (T - t_min)/2)``, then one
        last window to ``t_min``: :func:`geometric_windows`) or explicit breakpoints from ``T`` down to
        ``t_min`` (e.g. :func:`theorem_windows`).
    degree: polynomial degree ``D`` (``D + 1`` Chebyshev-Lobatto nodes, ``D`` new score calls per round).
    max_rounds, tol: Picard stopping rule per window (:func:`collocation_window`). A window that hits
        ``max_rounds`` unconverged raises ``RuntimeError`` when ``strict``, else warns and is listed in
        ``SampleResult.unconverged_windows``.
    Returns a :class:`SampleResult`; ``n_rounds`` counts one per Picard round.
    """
    if not callable(score):
        raise TypeError(f"score must be callable (x, t) -> grad log q_t(x), got {type(score).__name__}")
    if not isinstance(strict, bool):
        raise TypeError(f"strict must be a bool, got {type(strict).__name__}")
    degree = _check_degree(degree)
    if isinstance(T, bool) or not isinstance(T, int | float) or not (0 < T < math.inf):
        raise ValueError(f"T must be a finite positive time, got {T!r}")
    if isinstance(t_min, bool) or not isinstance(t_min, int | float) or not (0 <= t_min < T):
        raise ValueError(f"t_min must satisfy 0 <= t_min < T={T}, got {t_min!r}")
    if not isinstance(max_rounds, int) or isinstance(max_rounds, bool) or max_rounds < 1:
        raise ValueError(f"max_rounds must be an integer >= 1, got {max_rounds!r}")
    if isinstance(tol, bool) or not isinstance(tol, int | float) or not (0 <= tol < math.inf):
        raise ValueError(f"tol must be a finite number >= 0, got {tol!r}")
    if isinstance(windows, int | np.integer) and not isinstance(windows, bool):
        t_small = small_time_split(float(T), float(t_min))
        breaks = geometric_windows(float(T), int(windows), float(t_min), t_small=t_small)
    else:
        breaks = check_windows(windows, float(T), float(t_min))
    y = as_states(x_T, device)
    a_mat, c = integration_matrix(degree)
    a_mat = torch.as_tensor(a_mat, device=y.device)
    nodes = torch.as_tensor(c, device=y.device)
    velocity = schedule.velocity(checked_score(score))
    evals, per_window, unconverged = 0, [], []
    for i, (a, b) in enumerate(progress(list(zip(breaks[:-1], breaks[1:])), "collocation windows")):
        y, rounds, e, converged = collocation_window(
            velocity, y, float(a), float(b), a_mat, nodes, max_rounds, tol, return_converged=True
        )
        evals += e
        per_window.append(rounds)
        if not converged:
            message = (
                f"Picard rounds did not converge on window {i} [{a:.6g}, {b:.6g}] within max_rounds="
                f"{max_rounds} (tol={tol:g}); use more or shorter windows, or raise max_rounds"
            )
            if strict:
                raise RuntimeError(message)
            warnings.warn(message, RuntimeWarning, stacklevel=2)
            unconverged.append(i)
    return SampleResult(y, evals, sum(per_window), per_window, unconverged)
