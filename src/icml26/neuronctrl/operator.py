"""Morphology-aware neural operator for the one-step dynamics [inferred].

The abstract: "a morphology-aware neural operator predicts one-step dynamics". Ours, on deviations
x = (z - z_rest) / scale:

    x_{t+1} = x_t + MPNN([x_t, (Phi u_t)_i, geometry features_i], edge geometry)         (O1)

trained with a one-step loss plus a ``rollout``-step loss (the model fed its own predictions)
    L = mean ||x^_{t+1} - x_{t+1}||^2 + mean_k ||x^_{t+k} - x_{t+k}||^2.                (O2)

:func:`conformal_margin` gives the split-conformal (1 - alpha) quantile of the absolute node error of
the operator's one-step prediction on held-out transitions: the field barrier's margin.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

from icml26.neuronctrl.graph import GraphTensors, MessagePassing, mlp


class NeuralOperator(nn.Module):
    def __init__(self, hidden: int = 32, layers: int = 4):
        super().__init__()
        self.lift = mlp([5, hidden, hidden])
        self.mp = nn.ModuleList([MessagePassing(hidden) for _ in range(layers)])
        self.read = mlp([hidden, hidden, 1])

    def forward(self, x: torch.Tensor, u: torch.Tensor, g: GraphTensors) -> torch.Tensor:
        """x: (B, N) deviations / scale; u: (B, m) actions; returns x_{t+1} (B, N), Eq. (O1)."""
        return x + self.increment(x, u, g)

    def increment(self, x: torch.Tensor, u: torch.Tensor, g: GraphTensors) -> torch.Tensor:
        """The MPNN term of Eq. (O1), x_{t+1} - x_t."""
        b = x.shape[0]
        drive = u @ g.kernel.T
        h = self.lift(torch.cat([x[..., None], drive[..., None], g.node.expand(b, -1, -1)], dim=-1))
        for layer in self.mp:
            h = layer(h, g)
        return self.read(h).squeeze(-1)

    def rollout(self, x: torch.Tensor, us: torch.Tensor, g: GraphTensors) -> torch.Tensor:
        """us: (B, K, m); returns (B, K, N) the predicted deviations after each action."""
        out = []
        for k in range(us.shape[1]):
            x = self(x, us[:, k], g)
            out.append(x)
        return torch.stack(out, dim=1)

    @torch.no_grad()
    def jacobian(self, x: torch.Tensor, u: torch.Tensor, g: GraphTensors, eps: float = 1e-2):
        """(F(x, u), dF/du): x (N,), u (m,) -> (N,), (N, m), by central differences in one batch of
        2m + 1 evaluations of the increment (error O(eps^2) plus float32 rounding, about 1% of the
        largest entry; forward-mode autodiff is slower on CPU here)."""
        m = u.shape[0]
        d = eps * torch.eye(m, dtype=u.dtype)
        us = torch.cat([u[None], u + d, u - d])
        f = self.increment(x.expand(2 * m + 1, -1), us, g)  # differences of the increment: no x to cancel
        return x + f[0], ((f[1 : m + 1] - f[m + 1 :]) / (2 * eps)).T


def operator_loss(op: NeuralOperator, xs: torch.Tensor, us: torch.Tensor, g: GraphTensors) -> torch.Tensor:
    """Eq. (O2) on windows xs (B, K+1, N), us (B, K, m)."""
    one = op(xs[:, 0], us[:, 0], g)
    roll = op.rollout(xs[:, 0], us, g)
    return torch.mean((one - xs[:, 1]) ** 2) + torch.mean((roll - xs[:, 1:]) ** 2)


def conformal_margin(residuals: np.ndarray, alpha: float = 0.1) -> float:
    """Split-conformal (1 - alpha) quantile of absolute residuals (the ceil((n+1)(1-alpha)) / n level)."""
    r = np.sort(np.abs(np.asarray(residuals, float)).ravel())
    if r.size == 0 or not 0 < alpha < 1:
        raise ValueError("conformal_margin needs residuals and alpha in (0, 1)")
    k = min(r.size, int(np.ceil((r.size + 1) * (1 - alpha))))
    return float(r[k - 1])
