"""Sources ``p0`` and the two-head networks ``(v_theta, h_theta)(t, x)``.

Both networks return ``(velocity, endpoint)``: ``velocity`` regresses the conditional velocity
``x1 - x0`` (Eq. 2), ``endpoint`` the scaled conditional score ``t grad log p_t(x | x0)`` (Euclidean:
``-grad E(x1)``, Eq. 3). On a manifold both outputs are projected onto the tangent space at ``x``; for
particles the EGNN outputs are E(n)-equivariant and mean-free.
"""

from __future__ import annotations

import math

import torch
from torch import nn

from icml26.flow_sampling.manifolds import Lorentz, Manifold, Sphere


class GaussianSource:
    """``N(0, scale^2 I_d)``."""

    def __init__(self, dim: int, scale: float = 1.0):
        self.dim, self.scale = dim, float(scale)
        self.manifold = None

    def sample(self, n, generator=None):
        return self.scale * torch.randn(n, self.dim, generator=generator, dtype=torch.float64)

    def log_prob(self, x):
        return -0.5 * (x**2).sum(-1) / self.scale**2 - self.dim * (
            math.log(self.scale) + 0.5 * math.log(2 * math.pi)
        )


class MeanFreeGaussianSource:
    """Isotropic Gaussian on the mean-free subspace of ``n_particles`` points in ``spatial`` dimensions."""

    def __init__(self, n_particles: int, spatial: int, scale: float = 1.0):
        self.n_particles, self.spatial, self.scale = n_particles, spatial, float(scale)
        self.dim = n_particles * spatial
        self.manifold = None

    def sample(self, n, generator=None):
        z = torch.randn(n, self.n_particles, self.spatial, generator=generator, dtype=torch.float64)
        return self.scale * (z - z.mean(1, keepdim=True)).reshape(n, self.dim)

    def log_prob(self, x):
        k = (self.n_particles - 1) * self.spatial
        return -0.5 * (x**2).sum(-1) / self.scale**2 - k * (
            math.log(self.scale) + 0.5 * math.log(2 * math.pi)
        )


class UniformSphereSource:
    """The uniform density on ``S^n``."""

    def __init__(self, manifold: Sphere):
        self.manifold = manifold
        self.dim = manifold.dim + 1

    def sample(self, n, generator=None):
        return self.manifold.uniform(n, generator=generator)

    def log_prob(self, x):
        return torch.full((len(x),), -self.manifold.log_volume(), dtype=x.dtype)


class WrappedNormalSource:
    """Wrapped normal at the origin of ``H^n`` (Lorentz model): ``exp_o(v)``, ``v ~ N(0, scale^2 I_n)``."""

    def __init__(self, manifold: Lorentz, scale: float = 1.0):
        self.manifold, self.scale = manifold, float(scale)
        self.dim = manifold.dim + 1

    def sample(self, n, generator=None):
        v = torch.zeros(n, self.dim, dtype=torch.float64)
        v[:, 1:] = self.scale * torch.randn(n, self.dim - 1, generator=generator, dtype=torch.float64)
        o = self.manifold.origin().expand(n, -1)
        return self.manifold.exp(o, v)


def default_source(energy) -> object:
    """The source the issue names for a target: uniform on ``S^n``, wrapped normal on ``H^n``, mean-free
    Gaussian (scale 2 for DW-4 [inferred], 1 for LJ-13) for particles, else ``N(0, I)``."""
    m = energy.manifold
    if isinstance(m, Sphere):
        return UniformSphereSource(m)
    if isinstance(m, Lorentz):
        return WrappedNormalSource(m, 1.0)
    if energy.n_particles:
        return MeanFreeGaussianSource(
            energy.n_particles, energy.spatial, 2.0 if energy.n_particles < 8 else 1.0
        )
    return GaussianSource(energy.dim, 1.0)


def time_features(t: torch.Tensor, n: int = 8) -> torch.Tensor:
    """``(batch, 2n + 1)`` Fourier features of ``t`` in ``[0, 1]``."""
    t = t.reshape(-1, 1)
    freqs = math.pi * torch.arange(1, n + 1, dtype=t.dtype, device=t.device)
    return torch.cat([t, torch.sin(freqs * t), torch.cos(freqs * t)], dim=-1)


class TwoHeadMLP(nn.Module):
    """MLP ``(t, x) -> (velocity, endpoint)``; outputs projected to the tangent space on a manifold."""

    def __init__(self, dim: int, hidden: int = 128, layers: int = 3, manifold: Manifold | None = None):
        super().__init__()
        self.dim, self.manifold = dim, manifold
        width = [dim + 17] + [hidden] * layers
        mods: list[nn.Module] = []
        for a, b in zip(width[:-1], width[1:], strict=True):
            mods += [nn.Linear(a, b), nn.SiLU()]
        self.body = nn.Sequential(*mods)
        self.out = nn.Linear(hidden, 2 * dim)
        nn.init.zeros_(self.out.weight)
        nn.init.zeros_(self.out.bias)

    def forward(self, t: torch.Tensor, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.body(torch.cat([x, time_features(t.expand(len(x)) if t.numel() == 1 else t)], dim=-1))
        v, e = self.out(h).chunk(2, dim=-1)
        if self.manifold is not None:
            v, e = self.manifold.proj(x, v), self.manifold.proj(x, e)
        return v, e


class EGNN(nn.Module):
    """E(n)-equivariant GNN (Satorras et al. 2021) with two equivariant vector heads, mean-free outputs.

    ``layers`` message-passing layers of width ``hidden`` on the complete graph of ``n_particles`` nodes;
    node features start from the time features. Outputs are sums of relative vectors weighted by edge
    MLPs, hence translation-invariant, rotation/permutation-equivariant.
    """

    def __init__(self, n_particles: int, spatial: int, hidden: int = 32, layers: int = 3):
        super().__init__()
        self.p, self.s, self.dim = n_particles, spatial, n_particles * spatial
        self.embed = nn.Linear(17, hidden)
        self.edge = nn.ModuleList(
            nn.Sequential(nn.Linear(2 * hidden + 1, hidden), nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU())
            for _ in range(layers)
        )
        self.coord = nn.ModuleList(
            nn.Sequential(nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, 1)) for _ in range(layers)
        )
        self.node = nn.ModuleList(
            nn.Sequential(nn.Linear(2 * hidden, hidden), nn.SiLU(), nn.Linear(hidden, hidden))
            for _ in range(layers)
        )
        self.heads = nn.Sequential(nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, 2))
        nn.init.zeros_(self.heads[-1].weight)
        nn.init.zeros_(self.heads[-1].bias)
        i, j = torch.meshgrid(torch.arange(n_particles), torch.arange(n_particles), indexing="ij")
        mask = i != j
        self.register_buffer("src", i[mask], persistent=False)
        self.register_buffer("dst", j[mask], persistent=False)

    def forward(self, t, x):
        b = len(x)
        pos = x.reshape(b, self.p, self.s)
        tf = time_features(t.expand(b) if t.numel() == 1 else t)
        h = self.embed(tf)[:, None, :].expand(b, self.p, -1)
        for edge, coord, node in zip(self.edge, self.coord, self.node, strict=True):
            rel = pos[:, self.src] - pos[:, self.dst]
            d2 = (rel**2).sum(-1, keepdim=True)
            m = edge(torch.cat([h[:, self.src], h[:, self.dst], d2], dim=-1))
            w = coord(m) / (self.p - 1)
            upd = torch.zeros_like(pos).index_add_(1, self.src, rel / (1 + d2.sqrt()) * w)
            pos = pos + upd
            agg = torch.zeros(b, self.p, m.shape[-1], dtype=m.dtype, device=m.device).index_add_(
                1, self.src, m
            )
            h = h + node(torch.cat([h, agg], dim=-1))
        rel = pos[:, self.src] - pos[:, self.dst]
        d2 = (rel**2).sum(-1, keepdim=True)
        m = self.edge[-1](torch.cat([h[:, self.src], h[:, self.dst], d2], dim=-1))
        w = self.heads(m)
        out = []
        for k in range(2):
            vec = torch.zeros_like(pos).index_add_(1, self.src, rel * w[..., k : k + 1])
            vec = vec - vec.mean(1, keepdim=True)
            out.append(vec.reshape(b, self.dim))
        return out[0], out[1]
