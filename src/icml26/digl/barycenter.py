"""The invariant prototype: Wasserstein-2 barycenters of environment distributions, and distortions.

Notation (DIGL-style W2-barycenter invariance, [inferred] from the abstract; the paper's body was not
available): ``mu_e`` is the empirical distribution of one environment's graph embeddings (of one class),
``nu`` the prototype, the W2 barycenter

    nu = argmin_nu  sum_e lambda_e W_2^2(nu, mu_e),      lambda_e >= 0, sum_e lambda_e = 1     (B)

and each ``mu_e`` is a *distortion* of it: ``mu_e = (T_e)_# nu`` with ``T_e`` the optimal map, whose
transport energy ``int |x - T_e(x)|^2 d nu`` is ``W_2^2(nu, mu_e)`` (D). Three barycenter solvers:

- ``free_support``: exact, discrete (Cuturi & Doucet 2014 fixed point; ``ot.lp.free_support_barycenter``),
  distances by the network simplex (``ot.emd2``);
- ``bures``: each ``mu_e`` replaced by the Gaussian ``N(m_e, S_e)``; the barycenter is Gaussian with the
  weighted mean and the Bures fixed point (``ot.gaussian.bures_wasserstein_barycenter``) as covariance;
- ``sinkhorn``: entropic (``ot.bregman.free_support_sinkhorn_barycenter``, ``ot.sinkhorn2``).

Every distance takes torch tensors and is differentiable in the environment's points (the plan is held
fixed by the envelope theorem); the barycenter is computed without gradient (a stop-gradient, ``sg``).
"""

from __future__ import annotations

import contextlib
import io
import warnings
from dataclasses import dataclass

import numpy as np
import ot
import torch

BARYCENTERS = ("free_support", "bures", "sinkhorn")


@dataclass
class Prototype:
    """A barycenter: a discrete measure (``support`` (k, d), ``weights`` (k,)) or, for ``bures``, a
    Gaussian (``mean`` (d,), ``cov`` (d, d)); ``support`` then holds the mean as one point."""

    support: torch.Tensor
    weights: torch.Tensor
    mean: torch.Tensor | None = None
    cov: torch.Tensor | None = None
    kind: str = "free_support"


def _check_clouds(clouds: list[torch.Tensor], weights: torch.Tensor | np.ndarray | None) -> np.ndarray:
    if not isinstance(clouds, list | tuple) or len(clouds) == 0:
        raise ValueError("clouds must be a non-empty list of (n_e, d) tensors")
    dims = {c.shape[1] if c.ndim == 2 else -1 for c in clouds}
    if len(dims) != 1 or -1 in dims or any(c.shape[0] == 0 for c in clouds):
        raise ValueError(
            f"clouds must be non-empty (n_e, d) tensors of one d, got {[tuple(c.shape) for c in clouds]}"
        )
    if weights is None:
        return np.full(len(clouds), 1.0 / len(clouds))
    w = np.asarray(weights.detach().cpu() if isinstance(weights, torch.Tensor) else weights, dtype=float)
    if w.shape != (len(clouds),) or not np.all(np.isfinite(w)) or np.any(w < 0) or w.sum() <= 0:
        raise ValueError(
            f"weights must be {len(clouds)} finite non-negative numbers with a positive sum, got {w}"
        )
    return w / w.sum()


def w2_squared(
    x: torch.Tensor, y: torch.Tensor, a: torch.Tensor | None = None, b: torch.Tensor | None = None
) -> torch.Tensor:
    """Exact ``W_2^2`` between discrete measures ``sum_i a_i delta_{x_i}`` and ``sum_j b_j delta_{y_j}``
    (uniform weights by default): ``min_P <P, C>`` with ``C_ij = |x_i - y_j|^2``; x (n, d), y (m, d).

    Differentiable in ``x`` and ``y`` (``ot.emd2``: gradient ``2 sum_j P_ij (x_i - y_j)``)."""
    a = torch.full((x.shape[0],), 1.0 / x.shape[0], dtype=x.dtype) if a is None else a
    b = torch.full((y.shape[0],), 1.0 / y.shape[0], dtype=x.dtype) if b is None else b
    return ot.emd2(a, b, ot.dist(x, y))


def sinkhorn_w2_squared(
    x: torch.Tensor, y: torch.Tensor, reg: float, a: torch.Tensor | None = None, b: torch.Tensor | None = None
) -> torch.Tensor:
    """Entropic ``W_2^2``: ``<P_eps, C>`` with ``P_eps`` the Sinkhorn plan (50 iterations) at
    ``eps = reg * mean(C)``, held fixed for the gradient (as ``ot.emd2`` holds the exact plan) [inferred]."""
    a = torch.full((x.shape[0],), 1.0 / x.shape[0], dtype=x.dtype) if a is None else a
    b = torch.full((y.shape[0],), 1.0 / y.shape[0], dtype=x.dtype) if b is None else b
    cost = ot.dist(x, y)
    c = cost.detach().double().cpu().numpy()
    with warnings.catch_warnings():  # a truncated Sinkhorn is the entropic variant's known approximation
        warnings.simplefilter("ignore", UserWarning)
        plan = ot.sinkhorn(_np(a), _np(b), c, reg * max(c.mean(), 1e-12), method="sinkhorn", numItermax=50)
    return (torch.as_tensor(plan, dtype=cost.dtype, device=cost.device) * cost).sum()


def _np(t: torch.Tensor) -> np.ndarray:
    return t.detach().double().cpu().numpy()


def gaussian_moments(x: torch.Tensor, ridge: float = 1e-4) -> tuple[torch.Tensor, torch.Tensor]:
    """Mean (d,) and covariance (d, d) of the points ``x`` (n, d) (biased, plus ``ridge * I``)."""
    mean = x.mean(0)
    centred = x - mean
    cov = centred.T @ centred / x.shape[0]
    return mean, cov + ridge * torch.eye(x.shape[1], dtype=x.dtype)


def _psd_sqrt(c: torch.Tensor) -> torch.Tensor:
    vals, vecs = torch.linalg.eigh(c)
    return (vecs * vals.clamp_min(0).sqrt()) @ vecs.T


def bures_w2_squared(
    mean: torch.Tensor, cov: torch.Tensor, target_mean: torch.Tensor, target_cov: torch.Tensor
) -> torch.Tensor:
    """``W_2^2(N(m, S), N(m', S')) = |m - m'|^2 + tr S + tr S' - 2 tr (S'^1/2 S S'^1/2)^1/2``.

    The target ``(m', S')`` is the (stop-gradient) prototype; the trace of the square root is the sum of
    the square roots of ``eigvalsh(S'^1/2 S S'^1/2)``, whose gradient stays finite at repeated eigenvalues."""
    root = _psd_sqrt(target_cov.detach())
    middle = root @ cov @ root
    cross = torch.linalg.eigvalsh((middle + middle.T) / 2).clamp_min(1e-12).sqrt().sum()
    return ((mean - target_mean) ** 2).sum() + torch.trace(cov) + torch.trace(target_cov) - 2 * cross


def gaussian_barycenter(
    means: torch.Tensor,
    covs: torch.Tensor,
    weights: np.ndarray | torch.Tensor | None = None,
    n_iter: int = 10,
) -> tuple[torch.Tensor, torch.Tensor]:
    """The W2 barycenter of Gaussians ``N(m_e, S_e)`` (means (E, d), covs (E, d, d)): Gaussian, with mean
    ``sum_e lambda_e m_e`` and the covariance ``S`` solving ``S = sum_e lambda_e (S^1/2 S_e S^1/2)^1/2``
    (the fixed point of Alvarez-Esteban et al. 2016, ``ot.gaussian.bures_wasserstein_barycenter``, ``n_iter``
    steps). For commuting ``S_e`` it is ``(sum_e lambda_e S_e^1/2)^2``."""
    if means.ndim != 2 or covs.shape != (*means.shape, means.shape[1]):
        raise ValueError(
            f"means must be (E, d) and covs (E, d, d), got {tuple(means.shape)}, {tuple(covs.shape)}"
        )
    lam = torch.as_tensor(_check_clouds(list(means[:, None, :]), weights), dtype=means.dtype)
    with contextlib.redirect_stdout(io.StringIO()):  # POT prints when the fixed point stops early
        cov = ot.gaussian.bures_wasserstein_barycenter(means, covs, lam, num_iter=n_iter)[1]
    return (lam[:, None] * means).sum(0), (cov + cov.T) / 2


def barycenter(
    clouds: list[torch.Tensor],
    weights: torch.Tensor | np.ndarray | None = None,
    kind: str = "free_support",
    n_support: int | None = None,
    n_iter: int = 10,
    reg: float = 0.1,
    init: torch.Tensor | None = None,
) -> Prototype:
    """The W2 barycenter (B) of ``clouds`` (a list of (n_e, d) tensors, uniform weights within each).

    ``weights``: the ``lambda_e`` (normalised here; default uniform). ``free_support`` / ``sinkhorn``:
    ``n_support`` points (default: the largest cloud's size), initialised at ``init`` or at the points of
    the heaviest cloud (repeated or cut to size), ``n_iter`` fixed-point steps. ``bures``: Gaussian.
    Computed without gradient (the prototype is a stop-gradient target)."""
    if kind not in BARYCENTERS:
        raise ValueError(f"barycenter must be one of {', '.join(BARYCENTERS)}, got {kind!r}")
    lam = _check_clouds(clouds, weights)
    dtype = clouds[0].dtype
    with torch.no_grad():
        if kind == "bures":
            moments = [gaussian_moments(c.detach().double()) for c in clouds]
            mean, cov = gaussian_barycenter(
                torch.stack([m for m, _ in moments]), torch.stack([c for _, c in moments]), lam, n_iter
            )
            return Prototype(
                mean[None].to(dtype), torch.ones(1, dtype=dtype), mean.to(dtype), cov.to(dtype), kind
            )
        k = int(n_support or max(c.shape[0] for c in clouds))
        if init is None:
            heaviest = clouds[int(np.argmax(lam * np.array([c.shape[0] for c in clouds])))].detach()
            init = heaviest[torch.arange(k) % heaviest.shape[0]]
        if init.shape != (k, clouds[0].shape[1]):
            raise ValueError(f"init must have shape {(k, clouds[0].shape[1])}, got {tuple(init.shape)}")
        locations = [c.detach().double().cpu().numpy() for c in clouds]
        masses = [np.full(c.shape[0], 1.0 / c.shape[0]) for c in clouds]
        x0 = init.detach().double().cpu().numpy()
        if kind == "free_support":
            support = ot.lp.free_support_barycenter(locations, masses, x0, weights=lam, numItermax=n_iter)
        else:
            scale = float(np.mean([ot.dist(x0, loc).mean() for loc in locations])) or 1.0
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)
                support = ot.bregman.free_support_sinkhorn_barycenter(
                    locations,
                    masses,
                    x0,
                    reg * scale,
                    weights=lam,
                    numItermax=n_iter,
                    numInnerItermax=50,
                    method="sinkhorn",
                )
        return Prototype(
            torch.as_tensor(support, dtype=dtype), torch.full((k,), 1.0 / k, dtype=dtype), kind=kind
        )


def distance_to(prototype: Prototype, x: torch.Tensor, reg: float = 0.1) -> torch.Tensor:
    """``W_2^2(mu, nu)`` between the cloud ``x`` (n, d) and the prototype, by the prototype's kind."""
    if prototype.kind == "bures":
        mean, cov = gaussian_moments(x)
        return bures_w2_squared(mean, cov, prototype.mean, prototype.cov)
    if prototype.kind == "sinkhorn":
        return sinkhorn_w2_squared(prototype.support, x, reg, prototype.weights)
    return w2_squared(prototype.support, x, prototype.weights)


def barycentric_energy(
    clouds: list[torch.Tensor], prototype: Prototype, weights=None, reg: float = 0.1
) -> torch.Tensor:
    """``sum_e lambda_e W_2^2(mu_e, sg[nu])``: the objective of (B) at ``nu``, the total distortion energy."""
    lam = torch.as_tensor(_check_clouds(clouds, weights), dtype=clouds[0].dtype)
    return sum(lam[e] * distance_to(prototype, c, reg) for e, c in enumerate(clouds))


def distortion(prototype: Prototype, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """The environment as a distortion of the prototype (D): the optimal plan ``P`` from ``nu`` to the
    cloud ``x`` (n, d), its barycentric map ``T(nu_i) = sum_j P_ij x_j / b_i`` ((k, d), a Monge map when
    ``P`` is a permutation) and its energy ``sum_ij P_ij |nu_i - x_j|^2 = W_2^2(nu, mu)``."""
    if prototype.kind == "bures":
        raise ValueError("distortion needs a discrete prototype (free_support or sinkhorn), got bures")
    a = prototype.weights
    b = torch.full((x.shape[0],), 1.0 / x.shape[0], dtype=x.dtype)
    cost = ot.dist(prototype.support, x)
    plan = ot.emd(a, b, cost.detach())
    return plan @ x / a[:, None], (plan * cost).sum()


def geodesic_step(old: torch.Tensor, new: torch.Tensor, rate: float) -> torch.Tensor:
    """The EMA memory bank's update: move the support ``old`` (k, d) a fraction ``rate`` along the W2
    geodesic (McCann interpolation) towards ``new`` (k, d), the points matched by the optimal assignment."""
    plan = ot.emd(
        torch.full((old.shape[0],), 1.0 / old.shape[0], dtype=old.dtype),
        torch.full((new.shape[0],), 1.0 / new.shape[0], dtype=old.dtype),
        ot.dist(old, new),
    )
    matched = plan @ new * old.shape[0]
    return (1 - rate) * old + rate * matched
