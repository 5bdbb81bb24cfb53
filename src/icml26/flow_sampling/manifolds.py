"""Constant-curvature manifolds in ambient coordinates and the closed-form conditional drift on them.

Points are rows of an ``(n, n + 1)`` tensor: the unit sphere ``S^n`` in ``R^{n+1}`` (curvature +1) and
the hyperboloid (Lorentz) model of ``H^n`` (curvature -1), ``<x, x>_L = -1``, ``x_0 > 0``. Tangent
vectors are ambient vectors. ``Euclidean`` (curvature 0) is the flat case, used to check the flat limit.

The geodesic interpolant ``I_t(x0, x1) = exp_{x0}(t log_{x0} x1)`` pushes the target ``q`` forward to
``p_t(. | x0)``. In geodesic polar coordinates around ``x0`` (``r1 = d(x0, x1)``, ``r = t r1``, volume
``sn(r)^{n-1} dr dtheta``) its density is [inferred: derived here, the paper's text was not available]

    p_t(x | x0) = q(x1) t^{-1} [sn(r1) / sn(r)]^{n-1},                                  (M1)

and with ``G = grad log q(x1)`` (Riemannian), ``e(y) = -log_y(x0) / d(x0, y)`` the unit radial vector,
``G_par = <G, e(x1)>`` and ``G_perp = G - G_par e(x1)`` (perpendicular to the geodesic's plane, hence
parallel-transported unchanged in ambient coordinates on ``S^n`` and on the Lorentz model):

    u_t(x | x0)            = r1 e(x) = -log_x(x0) / t,                                    (M2)
    grad log p_t(x | x0)   = G_par e(x) / t + [sn(r1)/sn(r)] G_perp
                             + (n - 1) [ct(r1) / t - ct(r)] e(x),                          (M3)

with ``sn, ct = sin, cot`` (sphere) or ``sinh, coth`` (hyperbolic). Flat (``sn(r) = r``) it reduces to
``G / t = -grad E(x1) / t``. The network's endpoint head learns ``t * (M3)``, bounded as ``t -> 0``.
"""

from __future__ import annotations

import math

import torch

_EPS = 1e-12


def _series_ratio(theta: torch.Tensor, fn) -> torch.Tensor:
    """``theta / fn(theta)`` with the limit 1 at ``theta = 0`` (``fn`` is sin or sinh)."""
    small = theta < 1e-6
    safe = torch.where(small, torch.ones_like(theta), theta)
    return torch.where(small, torch.ones_like(theta), safe / fn(safe))


class Manifold:
    """Interface: ``inner, proj, exp, log, dist, sn, ct, check``; ``dim`` is the intrinsic dimension n."""

    name = "manifold"
    curvature = 0.0

    def __init__(self, dim: int):
        if not isinstance(dim, int) or isinstance(dim, bool) or dim < 1:
            raise ValueError(f"{type(self).__name__}: dim must be an integer >= 1, got {dim!r}")
        self.dim = dim

    @property
    def ambient_dim(self) -> int:
        return self.dim + (0 if self.curvature == 0 else 1)

    def norm(self, x: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        return self.inner(x, v, v).clamp_min(0).sqrt()

    def check(self, x: torch.Tensor, name: str = "x", tol: float = 1e-4) -> torch.Tensor:
        """``x`` if it is an ``(n, ambient_dim)`` tensor of finite points on the manifold, else ``ValueError``."""
        if not isinstance(x, torch.Tensor) or x.ndim != 2 or x.shape[1] != self.ambient_dim:
            shape = tuple(x.shape) if isinstance(x, torch.Tensor) else type(x).__name__
            raise ValueError(
                f"{name} must be a tensor of shape (n, {self.ambient_dim}) on {self}, got {shape}"
            )
        if not torch.isfinite(x).all():
            raise ValueError(f"{name} holds non-finite values")
        err = self.constraint_error(x)
        if err > tol:
            raise ValueError(f"{name} is off the manifold {self}: constraint error {err:.3g} > {tol:g}")
        return x

    def constraint_error(self, x: torch.Tensor) -> float:
        return 0.0

    def random_tangent(self, x: torch.Tensor, generator: torch.Generator | None = None) -> torch.Tensor:
        """Standard Gaussian tangent noise at ``x`` (identity metric on the tangent space)."""
        return self.proj(x, torch.randn(x.shape, generator=generator, dtype=x.dtype, device=x.device))

    def __repr__(self) -> str:
        return f"{self.name}^{self.dim}"


class Euclidean(Manifold):
    """``R^n``: the flat limit (``sn(r) = r``, ``ct(r) = 1/r``)."""

    name = "R"
    curvature = 0.0

    def inner(self, x, u, v):
        return (u * v).sum(-1)

    def proj(self, x, u):
        return u

    def exp(self, x, v):
        return x + v

    def log(self, x, y):
        return y - x

    def dist(self, x, y):
        return (y - x).norm(dim=-1)

    def sn(self, r):
        return r

    def ct(self, r):
        return 1.0 / r

    def riemannian_grad(self, x, g):
        return g


class Sphere(Manifold):
    """Unit sphere ``S^n`` in ``R^{n+1}``."""

    name = "S"
    curvature = 1.0

    def inner(self, x, u, v):
        return (u * v).sum(-1)

    def proj(self, x, u):
        return u - (x * u).sum(-1, keepdim=True) * x

    def exp(self, x, v):
        n = v.norm(dim=-1, keepdim=True)
        return torch.cos(n) * x + torch.sin(n) * v / n.clamp_min(_EPS)

    def log(self, x, y):
        c = (x * y).sum(-1, keepdim=True).clamp(-1.0, 1.0)
        theta = torch.arccos(c)
        return _series_ratio(theta, torch.sin) * (y - c * x)

    def dist(self, x, y):
        return torch.arccos((x * y).sum(-1).clamp(-1.0, 1.0))

    def sn(self, r):
        return torch.sin(r)

    def ct(self, r):
        return torch.cos(r) / torch.sin(r)

    def riemannian_grad(self, x, g):
        """Riemannian gradient from the ambient Euclidean gradient ``g``."""
        return self.proj(x, g)

    def constraint_error(self, x):
        return float((x.norm(dim=-1) - 1).abs().max()) if len(x) else 0.0

    def uniform(self, n: int, generator=None, dtype=torch.float64) -> torch.Tensor:
        z = torch.randn(n, self.dim + 1, generator=generator, dtype=dtype)
        return z / z.norm(dim=-1, keepdim=True)

    def log_volume(self) -> float:
        """``log |S^n| = log(2 pi^{(n+1)/2} / Gamma((n+1)/2))``."""
        k = (self.dim + 1) / 2
        return math.log(2) + k * math.log(math.pi) - math.lgamma(k)


class Lorentz(Manifold):
    """Hyperboloid model of ``H^n`` in ``R^{n+1}``: ``<u, v>_L = -u_0 v_0 + sum_i u_i v_i``."""

    name = "H"
    curvature = -1.0

    def inner(self, x, u, v):
        p = u * v
        return p[..., 1:].sum(-1) - p[..., 0]

    def proj(self, x, u):
        return u + self.inner(x, x, u).unsqueeze(-1) * x

    def exp(self, x, v):
        n = self.norm(x, v).unsqueeze(-1)
        return torch.cosh(n) * x + torch.sinh(n) * v / n.clamp_min(_EPS)

    def log(self, x, y):
        c = (-self.inner(x, x, y)).clamp_min(1.0).unsqueeze(-1)
        theta = torch.arccosh(c)
        return _series_ratio(theta, torch.sinh) * (y - c * x)

    def dist(self, x, y):
        return torch.arccosh((-self.inner(x, x, y)).clamp_min(1.0))

    def sn(self, r):
        return torch.sinh(r)

    def ct(self, r):
        return torch.cosh(r) / torch.sinh(r)

    def riemannian_grad(self, x, g):
        """Riemannian gradient from the ambient Euclidean gradient ``g``: ``proj(J g)``, J = diag(-1, 1, ...)."""
        jg = g.clone()
        jg[..., 0] = -jg[..., 0]
        return self.proj(x, jg)

    def constraint_error(self, x):
        if not len(x):
            return 0.0
        return float(max((self.inner(x, x, x) + 1).abs().max(), (x[:, 0] <= 0).any().float()))

    def origin(self, dtype=torch.float64) -> torch.Tensor:
        o = torch.zeros(self.dim + 1, dtype=dtype)
        o[0] = 1.0
        return o

    def random_tangent(self, x: torch.Tensor, generator: torch.Generator | None = None) -> torch.Tensor:
        """Standard Gaussian tangent noise at ``x`` in the Lorentz metric: drawn at the origin, transported.

        (Projecting an ambient Gaussian is not isotropic here: the ambient metric is not the Lorentz one.)"""
        v = torch.zeros_like(x)
        v[..., 1:] = torch.randn(
            x.shape[:-1] + (self.dim,), generator=generator, dtype=x.dtype, device=x.device
        )
        return self.transport_from_origin(x, v)

    def transport_from_origin(self, y: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        """Parallel transport of ``v`` (tangent at the origin) to ``y`` along the geodesic."""
        o = self.origin(dtype=y.dtype).expand_as(y)
        coef = self.inner(y, y, v) / (1.0 - self.inner(y, o, y))
        return v + coef.unsqueeze(-1) * (o + y)


def geodesic_interpolant(
    manifold: Manifold, x0: torch.Tensor, x1: torch.Tensor, t: torch.Tensor
) -> torch.Tensor:
    """``I_t = exp_{x0}(t log_{x0} x1)``; ``t`` of shape ``(n,)`` or ``(n, 1)``."""
    return manifold.exp(x0, t.reshape(-1, 1) * manifold.log(x0, x1))


def conditional_targets(
    manifold: Manifold, x0: torch.Tensor, x1: torch.Tensor, t: torch.Tensor, grad_logq_x1: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """``(x_t, u_t(x_t | x0), t * grad log p_t(x_t | x0))`` by Eqs. (M2)-(M3), without autograd.

    ``x0, x1, grad_logq_x1``: ``(n, D)`` (``grad_logq_x1`` the Riemannian gradient of ``log q`` at ``x1``),
    ``t``: ``(n,)`` in ``(0, 1]``. Pairs with ``x1 == x0`` get the flat value (``G / t`` scaled by t: ``G``).
    """
    t = t.reshape(-1, 1)
    n = manifold.dim
    r1 = manifold.dist(x0, x1).unsqueeze(-1)
    x = geodesic_interpolant(manifold, x0, x1, t)
    r = t * r1
    degenerate = r1 < 1e-9
    r1s = torch.where(degenerate, torch.ones_like(r1), r1)
    rs = torch.where(degenerate, torch.ones_like(r), r)
    e_x = -manifold.log(x, x0) / rs
    e_1 = -manifold.log(x1, x0) / r1s
    g = grad_logq_x1
    g_par = manifold.inner(x1, g, e_1).unsqueeze(-1)
    g_perp = g - g_par * e_1
    ratio = manifold.sn(r1s) / manifold.sn(rs)
    curv = (n - 1) * (manifold.ct(r1s) - t * manifold.ct(rs))
    scaled_score = g_par * e_x + t * ratio * g_perp + curv * e_x
    velocity = r1 * e_x
    scaled_score = torch.where(degenerate, g, scaled_score)
    velocity = torch.where(degenerate, torch.zeros_like(velocity), velocity)
    return x, velocity, scaled_score


def conditional_score(
    manifold: Manifold, x0: torch.Tensor, x1: torch.Tensor, t: torch.Tensor, grad_logq_x1: torch.Tensor
) -> torch.Tensor:
    """``grad_x log p_t(x_t | x0)`` at ``x_t = I_t(x0, x1)``, Eq. (M3)."""
    _, _, ts = conditional_targets(manifold, x0, x1, t, grad_logq_x1)
    return ts / t.reshape(-1, 1)


def conditional_log_density(
    manifold: Manifold, x0: torch.Tensor, x: torch.Tensor, t: float, log_q
) -> torch.Tensor:
    """``log p_t(x | x0)`` by Eq. (M1), with ``x1 = exp_{x0}(log_{x0}(x) / t)`` (the inverse of I_t)."""
    x1 = manifold.exp(x0, manifold.log(x0, x) / t)
    r = manifold.dist(x0, x)
    r1 = r / t
    return (
        log_q(x1)
        - math.log(t)
        + (manifold.dim - 1) * (torch.log(manifold.sn(r1)) - torch.log(manifold.sn(r)))
    )
