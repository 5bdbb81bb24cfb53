"""Robust margins and the perturbation score (C²R's robust-margin view) [read, secondary note].

- logit margin ``g(x, y) = f_y(x) - max_{k != y} f_k(x)``;
- robust margin ``m(x) = min_{||delta||_inf <= eps} g(x + delta, y)`` (images clipped to [0, 1]),
  estimated from above by an attack;
- robust hinge ``v = [1 - m(x)]_+``; Proposition: ``max_i v_i = [1 - min_i m(x_i)]_+``, the largest
  hinge belongs to the smallest margin;
- perturbation score ``s(x) = [1 - g(x + delta_T, y)]_+`` with ``delta_T`` from T-step PGD on the
  cross-entropy: it approximates each sample's robust hinge.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn


def logit_margin(logits: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """``f_y - max_{k != y} f_k`` per row of ``logits`` ``(n, K)``; shape ``(n,)``."""
    true = logits.gather(1, y[:, None]).squeeze(1)
    others = logits.masked_fill(F.one_hot(y, logits.shape[1]).bool(), float("-inf"))
    return true - others.max(dim=1).values


def robust_hinge(margins: torch.Tensor) -> torch.Tensor:
    """``[1 - m]_+`` elementwise."""
    return (1.0 - margins).clamp_min(0.0)


def pgd(
    model: nn.Module,
    x: torch.Tensor,
    y: torch.Tensor,
    eps: float,
    steps: int,
    alpha: float | None = None,
    random_start: bool = True,
    targeted: bool = False,
    generator: torch.Generator | None = None,
) -> torch.Tensor:
    """ℓ∞ PGD on the cross-entropy (Madry et al. 2018): ``delta <- Proj(delta + alpha sign grad)``.

    Returns the perturbed images ``x + delta`` in ``[0, 1]`` with ``||delta||_inf <= eps``. With
    ``targeted=True`` ``y`` are the targets and the step descends their loss. ``alpha`` defaults to
    ``2.5 eps / steps``. The model's parameters get no gradient.
    """
    if eps <= 0 or steps < 1:
        raise ValueError(f"pgd needs eps > 0 and steps >= 1, got eps={eps}, steps={steps}")
    alpha = 2.5 * eps / steps if alpha is None else alpha
    x = x.detach()
    delta = torch.zeros_like(x)
    if random_start:
        delta = (torch.rand(x.shape, generator=generator, device=x.device) * 2 - 1) * eps
    delta = ((x + delta).clamp(0, 1) - x).requires_grad_(True)
    sign = -1.0 if targeted else 1.0
    was_training = model.training
    model.eval()
    for _ in range(steps):
        with torch.enable_grad():  # callers may sit inside no_grad
            loss = F.cross_entropy(model(x + delta), y)
            (grad,) = torch.autograd.grad(loss, delta)
        with torch.no_grad():
            delta += sign * alpha * grad.sign()
            delta.clamp_(-eps, eps)
            delta.copy_((x + delta).clamp(0, 1) - x)
    model.train(was_training)
    return (x + delta).detach()


def perturbation_score(
    model: nn.Module,
    x: torch.Tensor,
    y: torch.Tensor,
    eps: float,
    steps: int = 3,
    alpha: float | None = None,
    generator: torch.Generator | None = None,
) -> torch.Tensor:
    """``s(x) = [1 - g(x + delta_T, y)]_+`` with ``delta_T`` from ``steps``-step PGD; shape ``(n,)``, >= 0."""
    x_adv = pgd(model, x, y, eps, steps, alpha, generator=generator)
    with torch.no_grad():
        return robust_hinge(logit_margin(model(x_adv), y))
