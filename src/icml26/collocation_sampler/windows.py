"""Time windows that shrink toward ``t = 0``, where the score's Lipschitz constant peaks.

Under Assumption 1 (``q_0 = law(X + sigma Z)``, ``||X|| <= R``) the Hessian of ``log q_t`` is bounded,
dimension-free, by

    ||grad^2 log q_t||_op <= L(t) = max(1 / s_t^2, m(t)^2 R^2 / s_t^4),   s_t^2 = m(t)^2 sigma^2 + 1 - m(t)^2,

which is O(1) for large ``t`` and ~ R^2 / sigma^4 near ``t = 0``. Picard rounds contract on a window
of length ``h`` when ``h * beta/2 * (1 + L) <= c < 1``; summing, the number of windows is
``O(int beta/2 (1 + L) dt) = O~((R/sigma)^2)``, the paper's complexity. ``theorem_windows`` follows this
rule; ``geometric_windows`` is the cheaper practical choice used in the experiments.
"""

from __future__ import annotations

import math

import numpy as np
import torch

from icml26.collocation_sampler.schedule import OU, VPSchedule


def _positive(name: str, v: object) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float) or not (0 < v < math.inf):
        raise ValueError(f"{name} must be a finite positive number, got {v!r}")
    return float(v)


def lipschitz_bound(t: float, radius: float, sigma: float, schedule: VPSchedule = OU) -> float:
    """``L(t)`` above: the dimension-free bound on ``||grad^2 log q_t||_op`` under Assumption 1."""
    tt = torch.tensor([float(t)], dtype=torch.float64)
    m2 = float(schedule.mean_scale(tt)[0]) ** 2
    s2 = m2 * sigma**2 + float(schedule.noise_var(tt)[0])
    return max(1.0 / s2, m2 * radius**2 / s2**2)


def geometric_windows(T: float, n_windows: int, t_min: float = 0.0, t_small: float = 1e-3) -> np.ndarray:
    """Breakpoints ``T = t_0 > ... > t_W = t_min``: ``W - 1`` windows geometric from ``T`` down to
    ``t_small``, then one last window ``[t_small, t_min]``. Shape (W + 1,)."""
    T, t_small = _positive("T", T), _positive("t_small", t_small)
    if not isinstance(n_windows, int) or isinstance(n_windows, bool) or n_windows < 2:
        raise ValueError(f"n_windows must be an integer >= 2, got {n_windows!r}")
    if not (isinstance(t_min, int | float) and 0 <= t_min < t_small < T):
        raise ValueError(f"need 0 <= t_min < t_small < T, got t_min={t_min!r}, t_small={t_small}, T={T}")
    return np.append(np.geomspace(T, t_small, n_windows), float(t_min))


def theorem_windows(
    T: float,
    radius: float,
    sigma: float,
    t_min: float = 0.0,
    contraction: float = 0.25,
    schedule: VPSchedule = OU,
) -> np.ndarray:
    """Breakpoints from the contraction rule ``h * beta/2 * (1 + L) <= contraction`` (``L`` on the
    window's small-``t`` end), from ``T`` down to ``t_min``. Shape (W + 1,)."""
    T, radius, sigma = _positive("T", T), _positive("radius", radius), _positive("sigma", sigma)
    c = _positive("contraction", contraction)
    if not (isinstance(t_min, int | float) and 0 <= t_min < T):
        raise ValueError(f"t_min must satisfy 0 <= t_min < T={T}, got {t_min!r}")

    def rate(t: float) -> float:
        beta = float(schedule.beta(torch.tensor(t, dtype=torch.float64)))
        return 0.5 * beta * (1.0 + lipschitz_bound(t, radius, sigma, schedule))

    out, t = [T], T
    while t > t_min:
        h = c / rate(t)
        h = c / rate(max(t - h, t_min))  # one fixed-point pass: use L at the window's lower end
        t = max(t - h, t_min)
        if len(out) > 1_000_000:
            raise ValueError("theorem_windows: more than 1e6 windows; increase contraction or sigma")
        out.append(t)
    return np.asarray(out)


def check_windows(windows: object, T: float, t_min: float) -> np.ndarray:
    """Validate breakpoints: strictly decreasing, finite, from exactly ``T`` to exactly ``t_min``."""
    w = np.asarray(windows, dtype=np.float64)
    if w.ndim != 1 or w.size < 2:
        raise ValueError(f"windows must be a 1-D sequence of >= 2 breakpoints, got shape {w.shape}")
    if not np.isfinite(w).all():
        raise ValueError("windows must be finite")
    if not (np.diff(w) < 0).all():
        raise ValueError("windows must be strictly decreasing breakpoints (from T down to t_min)")
    if abs(w[0] - T) > 1e-12 * max(1.0, abs(T)) or abs(w[-1] - t_min) > 1e-12 * max(1.0, abs(T)):
        raise ValueError(
            f"windows must cover [t_min, T] = [{t_min:g}, {T:g}] exactly, got [{w[-1]:g}, {w[0]:g}]"
        )
    return w
