"""Flow-matching conditional generator of action chunks, its one-step distillation, and planning costs.

The abstract: "a flow-matching conditional flow proposes actions conditioned on user preferences";
"the multi-step generator is distilled into a single-step policy". Ours [inferred]:

- chunk a in [-1, 1]^{m H_a} (normalised actions), condition c = (pooled latent field, u_prev, w);
- rectified-flow loss  E ||v_theta(tau, (1 - tau) a0 + tau a1 | c) - (a1 - a0)||^2, a0 ~ N(0, I)   (G1)
  with expert chunks a1 from sampling MPC (CEM) on the learned operator under random preferences w;
- inference: K samples, ``ode_steps`` Euler steps of da/dtau = v_theta, each ranked by its predicted
  cost under the operator (:func:`chunk_cost`), the best kept;                                    (G2)
- distillation: a deterministic student pi(c) regressed onto the teacher's best-of-K choice.      (G3)
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

from icml26.neuronctrl.env import Rig
from icml26.neuronctrl.graph import GraphTensors, mlp


class ActionScale:
    """Maps actions u in [u_low, u_high] to a in [-1, 1] and back."""

    def __init__(self, rig: Rig):
        self.low, self.high = rig.u_low, rig.u_high

    def to_unit(self, u):
        return 2 * (u - self.low) / (self.high - self.low) - 1

    def from_unit(self, a):
        return self.low + (a + 1) * (self.high - self.low) / 2


def condition(x: torch.Tensor, u_prev: torch.Tensor, w: torch.Tensor, g: GraphTensors, roi: torch.Tensor,
              scale: ActionScale) -> torch.Tensor:  # fmt: skip
    """Pooled latent field + previous action + preference: (B, 3m + 5).

    Per actuator: the kernel-weighted mean and the soft minimum of the field deviation near it; the
    field's mean and its maximum over the protected nodes; u_prev (normalised); w.
    """
    k = g.kernel / g.kernel.sum(0, keepdim=True)
    near = x @ k
    soft_min = -torch.logsumexp(-x[..., None] * 20 + torch.log(g.kernel + 1e-6), dim=1) / 20
    return torch.cat([near * 10, soft_min * 10, x.mean(1, keepdim=True) * 10,
                      x[:, roi].max(1, keepdim=True).values * 10, scale.to_unit(u_prev), w], dim=1)  # fmt: skip


class FlowGenerator(nn.Module):
    """v_theta(tau, a_tau | c), Eq. (G1)."""

    def __init__(self, dim: int, cond_dim: int, hidden: int = 128):
        super().__init__()
        self.dim = dim
        self.net = mlp([dim + 1 + cond_dim, hidden, hidden, hidden, dim])

    def forward(self, a: torch.Tensor, tau: torch.Tensor, c: torch.Tensor) -> torch.Tensor:
        return self.net(torch.cat([a, tau, c], dim=-1))

    def loss(self, a1: torch.Tensor, c: torch.Tensor) -> torch.Tensor:
        a0 = torch.randn_like(a1)
        tau = torch.rand(a1.shape[0], 1)
        return torch.mean((self(tau * a1 + (1 - tau) * a0, tau, c) - (a1 - a0)) ** 2)

    @torch.no_grad()
    def sample(self, c: torch.Tensor, k: int, steps: int, noise: torch.Tensor | None = None) -> torch.Tensor:
        """(B, C) conditions -> (B, k, dim) chunks by ``steps`` Euler steps from N(0, I), clipped to [-1, 1]."""
        b = c.shape[0]
        a = torch.randn(b * k, self.dim) if noise is None else noise.reshape(b * k, self.dim)
        cc = c.repeat_interleave(k, dim=0)
        for i in range(steps):
            tau = torch.full((b * k, 1), i / steps)
            a = a + self(a, tau, cc) / steps
        return a.clamp(-1, 1).reshape(b, k, self.dim)


class OneStepPolicy(nn.Module):
    """The distilled student pi(c) -> chunk in [-1, 1]^dim, Eq. (G3)."""

    def __init__(self, dim: int, cond_dim: int, hidden: int = 128):
        super().__init__()
        self.net = mlp([cond_dim, hidden, hidden, dim])

    def forward(self, c: torch.Tensor) -> torch.Tensor:
        return torch.tanh(self.net(c))


def project_actions(us: np.ndarray, u_prev: np.ndarray, rig: Rig) -> np.ndarray:
    """Sequential projection of action sequences (P, K, m) onto the box, rate and budget (the budget by
    scaling towards zero, feasible since the box contains 0): a cheap planner-side feasibility map."""
    out = np.empty_like(us)
    prev = np.broadcast_to(u_prev, (us.shape[0], us.shape[2]))
    for k in range(us.shape[1]):
        u = np.clip(us[:, k], np.maximum(rig.u_low, prev - rig.rate), np.minimum(rig.u_high, prev + rig.rate))
        tot = np.abs(u).sum(axis=1, keepdims=True)
        u = np.where(tot > rig.budget, u * rig.budget / np.maximum(tot, 1e-12), u)
        out[:, k] = prev = u
    return out


def chunk_cost(op, x: torch.Tensor, us: torch.Tensor, u_prev: torch.Tensor, w: torch.Tensor, g: GraphTensors,
               volumes: torch.Tensor, bounds: tuple[torch.Tensor, torch.Tensor], rig: Rig,
               penalty: float = 10.0) -> torch.Tensor:  # fmt: skip
    """Predicted cost of action sequences us (P, K, m) from deviations x (P, N) under preference w (3,):
    sum_k w . (task(x_k), energy(u_k), smoothness(u_k - u_{k-1})) + penalty * predicted bound excess,
    with task = volume-weighted mean deviation (the plant's task cost on the latent field)."""
    lo, hi = bounds
    xs = op.rollout(x, us, g)  # (P, K, N)
    task = (xs @ volumes) / volumes.sum()
    umax = max(abs(rig.u_low), abs(rig.u_high))
    energy = torch.mean(us**2, dim=2) / umax**2
    prev = torch.cat([u_prev.expand(us.shape[0], 1, -1), us[:, :-1]], dim=1)
    smooth = torch.mean((us - prev) ** 2, dim=2) / umax**2
    excess = torch.relu(lo - xs).amax(dim=2) + torch.relu(xs - hi).amax(dim=2)
    return (w[0] * task + w[1] * energy + w[2] * smooth + penalty * excess).sum(dim=1)
