"""Target energies ``E(x)`` (``q(x) ∝ exp(-E(x))``), each with its energy-gradient call counter.

Every energy takes an ``(n, dim)`` float tensor and returns ``(n,)`` energies; :meth:`Energy.energy_and_grad`
is the one costly call a sampler pays for (``calls`` counts the points it was evaluated at). Targets
with exact samples have ``sample(n, generator)``. Particle systems hold ``n_particles`` and ``spatial``
(the coordinate dimension); their points are flattened ``(n, n_particles * spatial)``.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import torch

from icml26.flow_sampling.manifolds import Lorentz, Manifold, Sphere


class Energy:
    """Base class: subclasses define ``dim``, ``energy(x)`` and optionally ``manifold`` and ``sample``."""

    dim: int = 0
    manifold: Manifold | None = None
    name = "energy"
    n_particles = 0
    spatial = 0

    def __init__(self) -> None:
        self.calls = 0

    def energy(self, x: torch.Tensor) -> torch.Tensor:  # pragma: no cover - abstract
        raise NotImplementedError

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        return self.energy(x)

    def energy_and_grad(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``(E(x), grad E(x))`` (ambient Euclidean gradient), counted as ``len(x)`` energy calls."""
        self.calls += len(x)
        with torch.enable_grad():
            y = x.detach().requires_grad_(True)
            e = self.energy(y)
            (g,) = torch.autograd.grad(e.sum(), y)
        return e.detach(), g.detach()

    def log_prob_unnormalised(self, x: torch.Tensor) -> torch.Tensor:
        return -self.energy(x)

    @property
    def is_particles(self) -> bool:
        return self.n_particles > 0


class CallableEnergy(Energy):
    """Wraps a user callable ``x -> E(x)`` of shape ``(n,)`` (torch-differentiable)."""

    def __init__(
        self, fn: Callable[[torch.Tensor], torch.Tensor], dim: int, manifold: Manifold | None = None
    ):
        super().__init__()
        self.fn = fn
        self.dim = dim
        self.manifold = manifold
        self.name = getattr(fn, "__name__", "callable")

    def energy(self, x):
        return self.fn(x)


class GaussianEnergy(Energy):
    """``N(mean, cov)``: ``E = (x - m)^T C^{-1} (x - m) / 2``; exact samples and log Z."""

    name = "gaussian"

    def __init__(self, mean, cov):
        super().__init__()
        self.mean = torch.as_tensor(mean, dtype=torch.float64)
        self.cov = torch.as_tensor(cov, dtype=torch.float64)
        self.dim = len(self.mean)
        self.prec = torch.linalg.inv(self.cov)
        self.chol = torch.linalg.cholesky(self.cov)
        self.log_z = 0.5 * self.dim * math.log(2 * math.pi) + 0.5 * float(torch.logdet(self.cov))

    def energy(self, x):
        d = x - self.mean.to(x)
        return 0.5 * ((d @ self.prec.to(x)) * d).sum(-1)

    def sample(self, n, generator=None):
        z = torch.randn(n, self.dim, generator=generator, dtype=torch.float64)
        return self.mean + z @ self.chol.T


def anisotropic_gaussian_2d() -> GaussianEnergy:
    """2-D Gaussian with standard deviations 0.5 and 2, axes rotated by 30 degrees [inferred]."""
    a = math.pi / 6
    rot = torch.tensor([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]], dtype=torch.float64)
    cov = rot @ torch.diag(torch.tensor([0.25, 4.0], dtype=torch.float64)) @ rot.T
    e = GaussianEnergy(torch.tensor([1.0, -1.0]), cov)
    e.name = "gauss2d"
    return e


class GMMEnergy(Energy):
    """Isotropic Gaussian mixture ``sum_k w_k N(mu_k, s_k^2 I)``; exact samples, modes and log Z = 0."""

    name = "gmm"

    def __init__(self, means, stds, weights=None):
        super().__init__()
        self.means = torch.as_tensor(means, dtype=torch.float64)
        k, self.dim = self.means.shape
        self.stds = torch.as_tensor(stds, dtype=torch.float64).expand(k).clone()
        w = torch.full((k,), 1.0 / k, dtype=torch.float64) if weights is None else torch.as_tensor(weights)
        self.weights = (w / w.sum()).to(torch.float64)
        self.log_z = 0.0

    def component_log_probs(self, x):
        d2 = ((x[:, None, :] - self.means.to(x)[None]) ** 2).sum(-1)
        s = self.stds.to(x)
        return (
            torch.log(self.weights.to(x))
            - 0.5 * d2 / s**2
            - self.dim * torch.log(s)
            - 0.5 * self.dim * math.log(2 * math.pi)
        )

    def energy(self, x):
        return -torch.logsumexp(self.component_log_probs(x), dim=-1)

    def responsibilities(self, x):
        return torch.softmax(self.component_log_probs(x), dim=-1)

    def sample(self, n, generator=None):
        k = torch.multinomial(self.weights, n, replacement=True, generator=generator)
        z = torch.randn(n, self.dim, generator=generator, dtype=torch.float64)
        return self.means[k] + self.stds[k, None] * z


def grid_gmm_2d(spacing: float = 4.0, std: float = 0.6) -> GMMEnergy:
    """9 equal modes on the grid ``{-s, 0, s}^2`` with std 0.6 [inferred: the paper's grid is not known]."""
    c = torch.tensor([-spacing, 0.0, spacing])
    means = torch.cartesian_prod(c, c)
    e = GMMEnergy(means, std)
    e.name = "grid9"
    return e


def gmm40(seed: int = 0) -> GMMEnergy:
    """GMM-40 in the FAB/DEM convention: 40 means uniform in ``[-40, 40]^2``, std ``softplus(1)``.

    The means are drawn with our own generator (``seed``), so they are not FAB's exact means [inferred].
    """
    g = torch.Generator().manual_seed(seed)
    means = (torch.rand(40, 2, generator=g, dtype=torch.float64) - 0.5) * 80.0
    e = GMMEnergy(means, math.log1p(math.e))
    e.name = "gmm40"
    return e


class FunnelEnergy(Energy):
    """Neal's funnel in d dimensions: ``x_0 ~ N(0, 3^2)``, ``x_i | x_0 ~ N(0, e^{x_0})``; exact samples."""

    name = "funnel"

    def __init__(self, dim: int = 10):
        super().__init__()
        self.dim = dim
        self.log_z = 0.0

    def energy(self, x):
        v = x[:, 0]
        rest = x[:, 1:]
        lp0 = -0.5 * v**2 / 9.0 - math.log(3.0) - 0.5 * math.log(2 * math.pi)
        lpr = -0.5 * (rest**2).sum(-1) * torch.exp(-v) - 0.5 * (self.dim - 1) * (v + math.log(2 * math.pi))
        return -(lp0 + lpr)

    def sample(self, n, generator=None):
        v = 3.0 * torch.randn(n, 1, generator=generator, dtype=torch.float64)
        rest = torch.randn(n, self.dim - 1, generator=generator, dtype=torch.float64) * torch.exp(v / 2)
        return torch.cat([v, rest], dim=1)


def _pair_distances(x: torch.Tensor, n_particles: int, spatial: int) -> torch.Tensor:
    """``(n, P(P-1)/2)`` interparticle distances of flattened configurations."""
    p = x.reshape(len(x), n_particles, spatial)
    i, j = torch.triu_indices(n_particles, n_particles, offset=1)
    return (p[:, i] - p[:, j]).norm(dim=-1)


class DoubleWellEnergy(Energy):
    """DW-4: 4 particles in 2-D, ``E = sum_{i<j} 0.9 (d_ij - 4)^4 - 4 (d_ij - 4)^2`` (FAB/DEM/ASBS)."""

    name = "dw4"

    def __init__(
        self, n_particles: int = 4, spatial: int = 2, a: float = 0.0, b: float = -4.0, c: float = 0.9, d0=4.0
    ):
        super().__init__()
        self.n_particles, self.spatial = n_particles, spatial
        self.dim = n_particles * spatial
        self.a, self.b, self.c, self.d0 = a, b, c, d0

    def energy(self, x):
        r = _pair_distances(x, self.n_particles, self.spatial) - self.d0
        return (self.a * r + self.b * r**2 + self.c * r**4).sum(-1)

    def pair_distances(self, x):
        return _pair_distances(x, self.n_particles, self.spatial)


class LennardJonesEnergy(Energy):
    """LJ-13: 13 particles in 3-D, ``eps = r_m = 1``; the LJ term summed over ordered pairs (each pair twice)
    plus the harmonic term ``0.5 ||x - mean(x)||^2`` (the DEM/ASBS definition)."""

    name = "lj13"

    def __init__(self, n_particles: int = 13, spatial: int = 3, oscillator: float = 1.0):
        super().__init__()
        self.n_particles, self.spatial = n_particles, spatial
        self.dim = n_particles * spatial
        self.oscillator = oscillator

    def energy(self, x):
        r = _pair_distances(x, self.n_particles, self.spatial).clamp_min(1e-6)
        inv6 = r.pow(-6)
        lj = 2.0 * (inv6**2 - 2.0 * inv6).sum(-1)
        p = x.reshape(len(x), self.n_particles, self.spatial)
        osc = 0.5 * (p - p.mean(1, keepdim=True)).pow(2).sum((1, 2))
        return lj + self.oscillator * osc

    def pair_distances(self, x):
        return _pair_distances(x, self.n_particles, self.spatial)


class VMFMixtureEnergy(Energy):
    """Mixture of von Mises-Fisher densities on ``S^2`` (``(n, 3)`` unit vectors); exact samples (SciPy)."""

    name = "vmf"

    def __init__(self, mus, kappa: float, weights):
        super().__init__()
        mus = torch.as_tensor(mus, dtype=torch.float64)
        self.mus = mus / mus.norm(dim=-1, keepdim=True)
        self.kappa = float(kappa)
        w = torch.as_tensor(weights, dtype=torch.float64)
        self.weights = w / w.sum()
        self.dim = self.mus.shape[1]
        self.manifold = Sphere(self.dim - 1)
        k = self.kappa
        # S^2: C(k) = k / (4 pi sinh k); log sinh k = k + log(1 - e^{-2k}) - log 2
        self._log_c = math.log(k) - math.log(4 * math.pi) - (k + math.log1p(-math.exp(-2 * k)) - math.log(2))
        self.log_z = 0.0

    def component_log_probs(self, x):
        return torch.log(self.weights.to(x)) + self._log_c + self.kappa * x @ self.mus.to(x).T

    def energy(self, x):
        return -torch.logsumexp(self.component_log_probs(x), dim=-1)

    def responsibilities(self, x):
        return torch.softmax(self.component_log_probs(x), dim=-1)

    def sample(self, n, generator=None):
        from scipy.stats import vonmises_fisher

        seed = int(torch.randint(0, 2**31 - 1, (1,), generator=generator))
        rng = np.random.default_rng(seed)
        k = rng.choice(len(self.weights), size=n, p=self.weights.numpy())
        out = np.empty((n, self.dim))
        for c in range(len(self.weights)):
            idx = np.flatnonzero(k == c)
            if len(idx):
                out[idx] = vonmises_fisher(self.mus[c].numpy(), self.kappa).rvs(len(idx), random_state=rng)
        return torch.as_tensor(out, dtype=torch.float64)


def vmf_mixture_s2(kappa: float = 30.0) -> VMFMixtureEnergy:
    """The issue's S^2 target: weights 0.4/0.3/0.2/0.1, kappa 30, means at four spread directions [inferred]."""
    mus = [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [-0.5, 0.8, -0.3], [-0.3, -0.7, -0.6]]
    return VMFMixtureEnergy(mus, kappa, [0.4, 0.3, 0.2, 0.1])


class WrappedNormalMixtureEnergy(Energy):
    """Mixture of wrapped normals on ``H^n`` (Lorentz model): ``v ~ N(0, s^2 I)`` at the origin,
    transported to ``mu_k`` and mapped by ``exp``; density ``N(v) (r / sinh r)^{n-1}``; exact samples."""

    name = "wnormal"

    def __init__(self, mus, std: float, weights):
        super().__init__()
        self.manifold = Lorentz(len(mus[0]) - 1)
        self.mus = self.manifold.check(torch.as_tensor(mus, dtype=torch.float64), "mus")
        self.std = float(std)
        w = torch.as_tensor(weights, dtype=torch.float64)
        self.weights = w / w.sum()
        self.dim = self.mus.shape[1]
        self.log_z = 0.0

    def component_log_probs(self, x):
        m, n = self.manifold, self.manifold.dim
        out = []
        for mu in self.mus.to(x):
            r = m.dist(mu.expand_as(x), x).clamp_min(1e-12)
            log_jac = (n - 1) * (torch.log(r) - torch.log(torch.sinh(r)))
            lp = -0.5 * r**2 / self.std**2 - n * math.log(self.std) - 0.5 * n * math.log(2 * math.pi)
            out.append(lp + log_jac)
        return torch.log(self.weights.to(x)) + torch.stack(out, dim=-1)

    def energy(self, x):
        return -torch.logsumexp(self.component_log_probs(x), dim=-1)

    def responsibilities(self, x):
        return torch.softmax(self.component_log_probs(x), dim=-1)

    def sample(self, n, generator=None):
        m = self.manifold
        k = torch.multinomial(self.weights, n, replacement=True, generator=generator)
        v = torch.zeros(n, self.dim, dtype=torch.float64)
        v[:, 1:] = self.std * torch.randn(n, self.dim - 1, generator=generator, dtype=torch.float64)
        mu = self.mus[k]
        return m.exp(mu, m.transport_from_origin(mu, v))


def wrapped_normal_mixture_h2() -> WrappedNormalMixtureEnergy:
    """Three wrapped normals on H^2 (std 0.4, weights 0.5/0.3/0.2) at distance 1.5 from the origin [inferred]."""
    m = Lorentz(2)
    o = m.origin()
    mus = []
    for a in (0.0, 2 * math.pi / 3, 4 * math.pi / 3):
        v = torch.tensor([0.0, 1.5 * math.cos(a), 1.5 * math.sin(a)], dtype=torch.float64)
        mus.append(m.exp(o[None], v[None])[0].tolist())
    return WrappedNormalMixtureEnergy(mus, 0.4, [0.5, 0.3, 0.2])


TARGETS: dict[str, Callable[[], Energy]] = {
    "gauss2d": anisotropic_gaussian_2d,
    "grid9": grid_gmm_2d,
    "gmm40": gmm40,
    "funnel10": lambda: FunnelEnergy(10),
    "dw4": DoubleWellEnergy,
    "lj13": LennardJonesEnergy,
    "vmf_s2": vmf_mixture_s2,
    "wn_h2": wrapped_normal_mixture_h2,
}


def make_target(name: str) -> Energy:
    """The target called ``name``; ``ValueError`` naming the accepted ones otherwise."""
    if name not in TARGETS:
        raise ValueError(f"unknown target {name!r}; accepted: {', '.join(TARGETS)}")
    return TARGETS[name]()
