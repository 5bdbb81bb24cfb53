"""Noise schedules of the forward process and the probability-flow ODE they define.

The paper works with the Ornstein-Uhlenbeck (OU) forward process ``dX = -X dt + sqrt(2) dB``. The
variance-preserving (VP) family ``dX = -beta(t)/2 X dt + sqrt(beta(t)) dB`` contains it as
``beta = 2``; for any VP schedule the forward marginal is ``X_t = m(t) X_0 + sqrt(1 - m(t)^2) Z`` with
``m(t) = exp(-B(t)/2)``, ``B(t) = int_0^t beta``, and the probability-flow ODE is

    dx/dt = -beta(t)/2 * (x + grad log q_t(x)).                                   (PF-ODE)

Integrated backwards from ``t = T`` to ``t_min`` it transports ``q_T`` onto ``q_{t_min}``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import torch

ScoreFn = Callable[[torch.Tensor, torch.Tensor], torch.Tensor]
"""``score(x, t) -> grad log q_t(x)``: ``x`` of shape (m, d), ``t`` of shape (m,), output (m, d)."""


@dataclass(frozen=True)
class VPSchedule:
    """A VP schedule with ``beta(t) = beta_min + t (beta_max - beta_min)``.

    ``VPSchedule(2.0, 2.0)`` is the OU process of the paper (time in OU units); ``VPSchedule(0.1, 20.0)``
    is the linear schedule of Song et al. (2021) on ``t in [0, 1]``.
    """

    beta_min: float = 2.0
    beta_max: float = 2.0

    def __post_init__(self) -> None:
        for name in ("beta_min", "beta_max"):
            v = getattr(self, name)
            if not isinstance(v, int | float) or isinstance(v, bool) or not math.isfinite(v) or v <= 0:
                raise ValueError(f"VPSchedule.{name} must be a finite positive number, got {v!r}")

    def beta(self, t: torch.Tensor) -> torch.Tensor:
        """``beta(t)``, elementwise."""
        return self.beta_min + t * (self.beta_max - self.beta_min)

    def integral(self, t: torch.Tensor) -> torch.Tensor:
        """``B(t) = int_0^t beta(s) ds``, elementwise."""
        return self.beta_min * t + 0.5 * (self.beta_max - self.beta_min) * t * t

    def mean_scale(self, t: torch.Tensor) -> torch.Tensor:
        """``m(t) = exp(-B(t)/2)`` so that ``X_t = m X_0 + sqrt(1 - m^2) Z``."""
        return torch.exp(-0.5 * self.integral(t))

    def noise_var(self, t: torch.Tensor) -> torch.Tensor:
        """``1 - m(t)^2``, computed with ``expm1`` for accuracy at small ``t``."""
        return -torch.expm1(-self.integral(t))

    def time_of_alpha_bar(self, alpha_bar: float) -> float:
        """The time ``t`` with ``m(t)^2 = alpha_bar`` (inverse of the schedule), ``0 < alpha_bar <= 1``."""
        if not 0.0 < alpha_bar <= 1.0:
            raise ValueError(f"alpha_bar must lie in (0, 1], got {alpha_bar!r}")
        b = -math.log(alpha_bar)  # B(t) = b, a quadratic in t
        slope = self.beta_max - self.beta_min
        if abs(slope) < 1e-15:
            return b / self.beta_min
        return (-self.beta_min + math.sqrt(self.beta_min**2 + 2.0 * slope * b)) / slope

    def velocity(self, score: ScoreFn) -> Callable[[torch.Tensor, torch.Tensor], torch.Tensor]:
        """The PF-ODE right-hand side ``F(x, t) = -beta(t)/2 (x + score(x, t))``, shapes as ``score``."""

        def f(x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
            return -0.5 * self.beta(t)[:, None] * (x + score(x, t))

        return f


OU = VPSchedule(2.0, 2.0)
"""The paper's forward process ``dX = -X dt + sqrt(2) dB`` (``m(t) = e^{-t}``)."""


def score_from_denoiser(
    denoiser: Callable[[torch.Tensor, torch.Tensor], torch.Tensor], schedule: VPSchedule = OU
) -> ScoreFn:
    """Turn a denoiser ``E[X_0 | X_t = x]`` into a score by Tweedie: ``(m x0_hat - x) / (1 - m^2)``."""
    if not callable(denoiser):
        raise TypeError(f"denoiser must be callable (x, t) -> x0_hat, got {type(denoiser).__name__}")

    def score(x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        m = schedule.mean_scale(t)[:, None]
        return (m * denoiser(x, t) - x) / schedule.noise_var(t)[:, None]

    return score


def score_from_epsilon(
    eps_model: Callable[[torch.Tensor, torch.Tensor], torch.Tensor], schedule: VPSchedule = OU
) -> ScoreFn:
    """Turn a noise predictor ``E[Z | X_t = x]`` into a score: ``-eps / sqrt(1 - m^2)``."""
    if not callable(eps_model):
        raise TypeError(f"eps_model must be callable (x, t) -> eps_hat, got {type(eps_model).__name__}")

    def score(x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        return -eps_model(x, t) / torch.sqrt(schedule.noise_var(t))[:, None]

    return score
