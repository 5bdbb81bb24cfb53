"""The population velocity field v_theta(X, t, ctx) and one unfolded iteration.

A population is ``X`` of shape ``(B, N, d)``: ``B`` problem instances, ``N`` members, ``d`` coordinates.
The field works on one token per (member i, coordinate j) with features built from the member's
objective value and gradient and from population statistics (mean, spread, best member, rank-weighted
elite mean, ranks), and on time ``t``. Every weight is shared across members and coordinates and the
only interactions are means over members and over coordinates, so the field is

* permutation-equivariant over members (and over coordinates), and
* dimension-agnostic: the same weights run at any ``d`` (train at d, run at 10 d).

The output is in units of the per-coordinate spread ``s_j``: ``v_ij = s_j * u_ij``, so steps scale with
the population and it can contract geometrically. Ranks and z-scores make it invariant to the scale of
``f``. This architecture is our reconstruction of the abstract ("a velocity field that operates on a
population ... conditioned on objective values and gradients, as well as population-level statistics").
"""

from __future__ import annotations

import math

import torch
from torch import nn

Tensor = torch.Tensor

N_FEATURES = 9
_CLIP = 5.0


def rank_weights(f: Tensor) -> tuple[Tensor, Tensor]:
    """Ranks ``r_i / (N - 1)`` in ``[0, 1]`` (0 = best) and CMA-style elite weights, both ``(B, N)``.

    Elite weights are ``w ∝ log((N + 1) / 2) - log(rank + 1)`` on the better half, 0 elsewhere, summing to 1.
    """
    n = f.shape[-1]
    order = torch.argsort(f, dim=-1)
    ranks = torch.empty_like(order)
    ranks.scatter_(-1, order, torch.arange(n, device=f.device).expand_as(order))
    ranks = ranks.to(f.dtype)
    raw = torch.clamp(math.log((n + 1) / 2) - torch.log(ranks + 1), min=0.0)
    weights = raw / raw.sum(-1, keepdim=True).clamp_min(1e-12)
    return ranks / max(n - 1, 1), weights


def population_features(
    X: Tensor, f: Tensor, g: Tensor | None, t: Tensor, width: Tensor
) -> tuple[Tensor, Tensor]:
    """Token features ``phi_ij`` ``(B, N, d, 9)`` and the spread ``s`` ``(B, 1, d)``.

    Features: ``(x - mu)/s``, ``(x - x_best)/s``, ``(x - m_elite)/s``, ``log(s / width)``, the gradient
    normalised per coordinate over members ``g / mean_i |g|``, the gradient times the spread over the
    spread of ``f`` (expected change of ``f`` over one spread), rank, z-score of ``f``, and ``t``.
    ``f``, ``g`` are treated as context (stop-gradient); ``X`` keeps its graph for deep unfolding.
    """
    B, N, d = X.shape
    f = f.detach()
    tiny = 1e-12 * width
    mu = X.mean(1, keepdim=True)
    s = X.std(1, keepdim=True, unbiased=False) + tiny
    ranks, w = rank_weights(f)
    best = X.gather(1, torch.argmin(f, 1)[:, None, None].expand(B, 1, d))
    elite = (w[..., None] * X).sum(1, keepdim=True)
    f_sd = f.std(1, keepdim=True, unbiased=False) + 1e-12 * (f.abs().mean(1, keepdim=True) + 1)
    z = ((f - f.mean(1, keepdim=True)) / f_sd).clamp(-_CLIP, _CLIP)
    if g is None:
        g_norm = torch.zeros_like(X)
        g_scaled = torch.zeros_like(X)
    else:
        g = g.detach()
        g_norm = (g / (g.abs().mean(1, keepdim=True) + 1e-12)).clamp(-_CLIP, _CLIP)
        g_scaled = (g * s.detach() / f_sd[..., None]).clamp(-_CLIP, _CLIP)
    t = t.reshape(B, 1, 1).to(X.dtype).expand(B, N, d)
    feats = [
        (X - mu) / s,
        (X - best) / s,
        (X - elite) / s,
        torch.log(s / width).clamp(min=-30.0).expand(B, N, d) / 10.0,
        g_norm,
        g_scaled,
        ranks[..., None].expand(B, N, d),
        z[..., None].expand(B, N, d),
        t,
    ]
    return torch.stack(feats, -1), s


class VelocityField(nn.Module):
    """``v_theta``: population ``(B, N, d)`` and context -> velocity ``(B, N, d)`` in units of the spread.

    Token encoder (shared MLP) -> [token, mean over members, mean over coordinates] mixed -> MLP -> ``u``.
    ``n_steps_table`` learnable step sizes ``eta(t)`` (log-parametrised, initialised to 1) are looked up by
    ``t`` so the unrolled scheme runs for any number of iterations.
    """

    def __init__(self, hidden: int = 64, n_steps_table: int = 10) -> None:
        super().__init__()
        if isinstance(hidden, bool) or not isinstance(hidden, int) or hidden < 4:
            raise ValueError(f"hidden must be an integer >= 4, got {hidden!r}")
        if isinstance(n_steps_table, bool) or not isinstance(n_steps_table, int) or n_steps_table < 1:
            raise ValueError(f"n_steps_table must be a positive integer, got {n_steps_table!r}")
        self.hidden = hidden
        self.encoder = nn.Sequential(
            nn.Linear(N_FEATURES, hidden), nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU()
        )
        # the first head layer acts on concat(h, mean_members h, mean_coords h); written as three maps
        # so the pooled terms are transformed once per pool, not once per token
        self.mix_token = nn.Linear(hidden, hidden)
        self.mix_members = nn.Linear(hidden, hidden, bias=False)
        self.mix_coords = nn.Linear(hidden, hidden, bias=False)
        self.head = nn.Sequential(nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, 1))
        self.log_eta = nn.Parameter(torch.zeros(n_steps_table))

    def normalized(
        self, X: Tensor, f: Tensor, g: Tensor | None, t: Tensor, width: Tensor
    ) -> tuple[Tensor, Tensor]:
        """The velocity in spread units ``u`` ``(B, N, d)`` and the spread ``s`` ``(B, 1, d)``."""
        phi, s = population_features(X, f, g, t, width)
        h = self.encoder(phi)
        mixed = (
            self.mix_token(h)
            + self.mix_members(h.mean(1, keepdim=True))
            + self.mix_coords(h.mean(2, keepdim=True))
        )
        return self.head(mixed).squeeze(-1), s

    def forward(self, X: Tensor, f: Tensor, g: Tensor | None, t: Tensor, width: Tensor) -> Tensor:
        """``v_theta(X, t, ctx) = s * u``: the displacement of each member, ``(B, N, d)``."""
        u, s = self.normalized(X, f, g, t, width)
        return u * s

    def step_size(self, t: Tensor) -> Tensor:
        """``eta(t)`` for ``t`` in ``[0, 1]``, shape of ``t``."""
        idx = (t.clamp(0, 1) * (len(self.log_eta) - 1e-6)).long()
        return self.log_eta.exp()[idx]


def flow_step(
    model: nn.Module,
    X: Tensor,
    f: Tensor,
    g: Tensor | None,
    t: Tensor,
    lower: Tensor,
    upper: Tensor,
    detach_context: bool = False,
) -> Tensor:
    """One unfolded iteration ``X_{k+1} = Pi_box(X_k + eta(t_k) v_theta(X_k, t_k, ctx_k))`` (update).

    ``detach_context`` feeds ``X_k`` to the field as stop-gradient, so backpropagation through the
    unrolled scheme follows the residual path and the parameters, not the chaotic feature Jacobians.
    """
    v = model(X.detach() if detach_context else X, f, g, t, upper - lower)
    eta = model.step_size(t).reshape(-1, 1, 1) if hasattr(model, "step_size") else 1.0
    return torch.minimum(torch.maximum(X + eta * v, lower), upper)
