"""The data-free Flow Sampling objective: conditioned on a noise sample, regress the denoising drift.

Paper's text not available: the equations below are the reconstruction in the issue and notes, labelled
[inferred] (they fit every statement of the abstract; their math is checked by the tests).

For a source sample ``x0 ~ p0`` and an independent target sample ``x1 ~ q`` with its one energy
gradient ``grad E(x1)``, the interpolant ``x_t = (1 - t) x0 + t x1`` defines, conditionally on ``x0``,
the path ``p_t(x | x0) = t^{-d} q((x - (1 - t) x0) / t)``, whose

    conditional velocity  u_t(x | x0) = (x - x0) / t = x1 - x0,                            (Eq. 2)
    conditional score     grad log p_t(x | x0) = -grad E(x1) / t.                          (Eq. 3)

The denoising conditional drift is ``b_t(x | x0) = u_t + (g_t^2 / 2) grad log p_t(x | x0)`` (Eq. 4);
its x0-average is a drift whose SDE ``dX = b_t dt + g_t dW`` carries ``p0`` at t = 0 to ``q`` at t = 1.
With ``g_t^2 = 2 gamma t (1 - t)`` (Eq. 5) the target is ``x1 - x0 - gamma (1 - t) grad E(x1)``:
bounded, and the same ``grad E(x1)`` serves every t. Two heads regress its two parts, so ``g`` can
be chosen when sampling (``g = 0``: the probability-flow ODE):

    L(theta) = E_{t, x0, x1} ||v_theta(t, x_t) - (x1 - x0)||^2 + ||h_theta(t, x_t) + grad E(x1)||^2.   (Eq. 6)

On a manifold the interpolant is geodesic and the targets are Eqs. (M2)-(M3) of ``manifolds``.
"""

from __future__ import annotations

import torch

from icml26.flow_sampling.manifolds import Manifold, conditional_targets


def interpolant_targets(
    x0: torch.Tensor,
    x1: torch.Tensor,
    grad_logq: torch.Tensor,
    t: torch.Tensor,
    manifold: Manifold | None = None,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """``(x_t, u_t(x_t | x0), t grad log p_t(x_t | x0))``; Euclidean: ``(I_t, x1 - x0, grad log q(x1))``."""
    if manifold is None:
        tt = t.reshape(-1, 1)
        return (1 - tt) * x0 + tt * x1, x1 - x0, grad_logq
    return conditional_targets(manifold, x0, x1, t, grad_logq)


def clip_norm(v: torch.Tensor, max_norm: float) -> tuple[torch.Tensor, torch.Tensor]:
    """Rows of ``v`` rescaled to norm ``<= max_norm``; also the boolean mask of the rows clipped."""
    n = v.norm(dim=-1, keepdim=True)
    clipped = (n > max_norm).squeeze(-1)
    return v * torch.clamp(max_norm / n.clamp_min(1e-30), max=1.0), clipped


def flow_sampling_loss(
    model,
    x0: torch.Tensor,
    x1: torch.Tensor,
    grad_logq: torch.Tensor,
    t: torch.Tensor,
    manifold: Manifold | None = None,
    target_clip: float | None = None,
) -> torch.Tensor:
    """Eq. (6) on a batch: ``x0, x1, grad_logq`` of shape ``(b, D)``, ``t`` of shape ``(b,)``."""
    xt, u, ts = interpolant_targets(x0, x1, grad_logq, t, manifold)
    if target_clip is not None:
        ts, _ = clip_norm(ts, target_clip)
    p = next(model.parameters())
    v, h = model(t.to(p), xt.to(p))
    return ((v - u.to(p)) ** 2).sum(-1).mean() + ((h - ts.to(p)) ** 2).sum(-1).mean()


def drift(
    velocity: torch.Tensor, endpoint: torch.Tensor, t: torch.Tensor | float, gamma: float
) -> torch.Tensor:
    """The marginal drift ``v + (g_t^2 / 2) h / t = v + gamma (1 - t) h`` with ``g_t^2 = 2 gamma t (1 - t)``."""
    return velocity + gamma * (1 - t) * endpoint


def diffusion(t: float, gamma: float) -> float:
    """``g_t = sqrt(2 gamma t (1 - t))`` (Eq. 5)."""
    return (2.0 * gamma * t * (1.0 - t)) ** 0.5


class ReplayBuffer:
    """FIFO buffer of ``(x1, grad log q(x1))`` pairs: one energy gradient per stored sample."""

    def __init__(self, capacity: int):
        self.capacity = capacity
        self.x: torch.Tensor | None = None
        self.g: torch.Tensor | None = None

    def __len__(self) -> int:
        return 0 if self.x is None else len(self.x)

    def push(self, x: torch.Tensor, g: torch.Tensor) -> None:
        self.x = x if self.x is None else torch.cat([self.x, x])[-self.capacity :]
        self.g = g if self.g is None else torch.cat([self.g, g])[-self.capacity :]

    def sample(self, n: int, generator: torch.Generator | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        idx = torch.randint(0, len(self), (n,), generator=generator)
        return self.x[idx], self.g[idx]
