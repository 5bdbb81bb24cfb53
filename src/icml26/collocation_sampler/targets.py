"""Exact-score targets: Gaussian mixtures whose noised marginals and scores are closed-form.

The paper's Assumption 1 ("bounded plus noise") asks for ``q_0 = law(X + sigma Z)`` with
``||X|| <= R``. A mixture ``sum_k w_k N(mu_k, sigma^2 I)`` with ``||mu_k|| <= R`` is exactly of that form,
and under a VP/OU forward process every marginal stays a Gaussian mixture:

    q_t = sum_k w_k N(m(t) mu_k, m(t)^2 Sigma_k + (1 - m(t)^2) I),                       (GMM-t)

so ``grad log q_t`` is known to machine precision and solver errors can be measured exactly.
"""

from __future__ import annotations

import math

import numpy as np
import torch

from icml26.collocation_sampler.schedule import OU, ScoreFn, VPSchedule


def _as_tensor(name: str, value: object, ndim: int) -> torch.Tensor:
    try:
        out = torch.as_tensor(np.asarray(value, dtype=np.float64) if not torch.is_tensor(value) else value)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be an array of numbers, got {type(value).__name__}") from exc
    out = out.to(torch.float64)
    if out.ndim != ndim:
        raise ValueError(f"{name} must have {ndim} dimensions, got shape {tuple(out.shape)}")
    if not torch.isfinite(out).all():
        raise ValueError(f"{name} must be finite")
    return out


class GaussianMixture:
    """``q_0 = sum_k w_k N(mu_k, Sigma_k)`` with closed-form noised scores (GMM-t).

    Parameters
    ----------
    means: (K, d) component means.
    weights: (K,) positive mixture weights (normalised here); uniform if ``None``.
    sigma: shared isotropic standard deviation (``Sigma_k = sigma^2 I``), or
    covs: (K, d, d) symmetric positive-definite covariances. Give exactly one of ``sigma``/``covs``.
    """

    def __init__(
        self,
        means: object,
        weights: object | None = None,
        sigma: float | None = None,
        covs: object | None = None,
    ) -> None:
        self.means = _as_tensor("means", means, 2)
        k, d = self.means.shape
        if k < 1 or d < 1:
            raise ValueError(f"means must have at least one component and one dimension, got shape {(k, d)}")
        if weights is None:
            w = torch.full((k,), 1.0 / k, dtype=torch.float64)
        else:
            w = _as_tensor("weights", weights, 1)
            if w.shape != (k,) or (w <= 0).any():
                raise ValueError(f"weights must be {k} positive numbers, got {w.tolist()}")
        self.weights = w / w.sum()
        if (sigma is None) == (covs is None):
            raise ValueError("give exactly one of sigma (isotropic components) or covs (K, d, d)")
        if sigma is not None:
            if isinstance(sigma, bool) or not isinstance(sigma, int | float) or not (0 < sigma < math.inf):
                raise ValueError(f"sigma must be a finite positive number, got {sigma!r}")
            self.sigma: float | None = float(sigma)
            self.eigvals = torch.full((k, d), float(sigma) ** 2, dtype=torch.float64)
            self.eigvecs: torch.Tensor | None = None  # identity: skip the rotation
            # orthonormal basis of span(means): distances to the means are then computed in <= K
            # coordinates, without the cancellation of ||x||^2 - 2<x, mu> + ||mu||^2 in high d
            self._basis = torch.linalg.qr(self.means.T, mode="reduced").Q  # (d, min(d, K))
            self._means_in_basis = self.means @ self._basis  # (K, r)
        else:
            c = _as_tensor("covs", covs, 3)
            if c.shape != (k, d, d):
                raise ValueError(f"covs must have shape {(k, d, d)}, got {tuple(c.shape)}")
            if not torch.allclose(c, c.transpose(1, 2), atol=1e-12):
                raise ValueError("covs must be symmetric")
            lam, vec = torch.linalg.eigh(c)
            if (lam <= 0).any():
                raise ValueError("covs must be positive definite")
            self.sigma, self.eigvals, self.eigvecs = None, lam, vec

    @classmethod
    def bounded_plus_noise(
        cls, n_components: int, dim: int, radius: float, sigma: float, seed: int = 0
    ) -> GaussianMixture:
        """Random isotropic mixture of Assumption 1: means in the ball of radius ``radius``, the farthest
        exactly at ``radius`` (so ``R/sigma`` is the stated ratio), uniform weights, shared ``sigma``."""
        for name, v in (("n_components", n_components), ("dim", dim)):
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                raise ValueError(f"{name} must be a positive integer, got {v!r}")
        if not (isinstance(radius, int | float) and 0 < radius < math.inf):
            raise ValueError(f"radius must be a finite positive number, got {radius!r}")
        rng = np.random.default_rng(seed)
        u = rng.standard_normal((n_components, dim))
        u /= np.linalg.norm(u, axis=1, keepdims=True)
        r = rng.uniform(0.5, 1.0, n_components)
        r *= radius / r.max()
        return cls(u * r[:, None], sigma=sigma)

    @classmethod
    def anisotropic(
        cls, n_components: int, dim: int, radius: float, sigma_min: float, sigma_max: float, seed: int = 0
    ) -> GaussianMixture:
        """A mixture whose effective dimension grows with ``dim``: ``n_components`` means in the ball of
        radius ``radius`` (the farthest on its boundary; they span all ``dim`` directions when
        ``n_components > dim``), each component with a randomly rotated covariance whose standard
        deviations run geometrically from ``sigma_min`` to ``sigma_max``. ``R / sigma_min`` stays fixed as
        ``dim`` grows [inferred: the anisotropic part is the 'bounded' part of Assumption 1 only in law]."""
        if (
            isinstance(sigma_min, bool)
            or not isinstance(sigma_min, int | float)
            or not 0 < sigma_min <= sigma_max
        ):
            raise ValueError(f"need 0 < sigma_min <= sigma_max, got {sigma_min!r}, {sigma_max!r}")
        base = cls.bounded_plus_noise(n_components, dim, radius, sigma_min, seed=seed)
        rng = np.random.default_rng([seed, 7])
        q, _ = np.linalg.qr(rng.standard_normal((n_components, dim, dim)))
        sd = np.geomspace(float(sigma_min), float(sigma_max), dim)
        covs = np.einsum("kij,j,klj->kil", q, sd**2, q)
        return cls(base.means, covs=0.5 * (covs + covs.transpose(0, 2, 1)))

    @property
    def dim(self) -> int:
        return int(self.means.shape[1])

    def _check_xt(self, x: torch.Tensor, t: torch.Tensor) -> None:
        if x.ndim != 2 or x.shape[1] != self.dim:
            raise ValueError(f"x must have shape (m, {self.dim}), got {tuple(x.shape)}")
        if t.ndim != 1 or t.shape[0] != x.shape[0]:
            raise ValueError(f"t must have shape ({x.shape[0]},), got {tuple(t.shape)}")

    def _logits_and_parts(self, x: torch.Tensor, t: torch.Tensor, schedule: VPSchedule):
        """Component log-densities plus ``log w_k`` (m, K) of (GMM-t), and what the score needs.

        Isotropic components use ``||x - m mu_k||^2 = ||x||^2 - 2 m <x, mu_k> + m^2 ||mu_k||^2`` (matmuls,
        O(m K d)); general covariances work in each component's eigenbasis (O(m K d^2)).
        """
        self._check_xt(x, t)
        dev, d = x.device, self.dim
        mu, logw = self.means.to(dev), torch.log(self.weights.to(dev))
        m = schedule.mean_scale(t)[:, None]  # (m, 1)
        v = schedule.noise_var(t)[:, None]
        if self.eigvecs is None:
            e = m * m * self.sigma**2 + v  # (m, 1): the same variance for every component
            xc = x @ self._basis.to(dev)  # (m, r)
            diff = xc[:, None, :] - m[:, :, None] * self._means_in_basis.to(dev)[None]  # (m, K, r)
            perp = ((x * x).sum(1) - (xc * xc).sum(1)).clamp_min(0.0)[:, None]  # common to all k
            sq = (diff * diff).sum(-1) + perp
            logp = -0.5 * (sq / e + d * torch.log(2 * math.pi * e))
            return logw[None] + logp, (m, e)
        diff = x[:, None, :] - m[:, :, None] * mu[None]  # (m, K, d)
        vecs = self.eigvecs.to(dev)
        z = torch.einsum("nkd,kde->nke", diff, vecs)  # whitening basis of each component
        e = (m * m)[:, :, None] * self.eigvals.to(dev)[None] + v[:, :, None]  # (m, K, d)
        logp = -0.5 * ((z * z / e).sum(-1) + torch.log(2 * math.pi * e).sum(-1))
        return logw[None] + logp, (z, e, vecs)

    def log_prob(self, x: torch.Tensor, t: torch.Tensor, schedule: VPSchedule = OU) -> torch.Tensor:
        """``log q_t(x)`` of (GMM-t), shape (m,); differentiable in ``x`` (used to test the score)."""
        logits, _ = self._logits_and_parts(x, t, schedule)
        return torch.logsumexp(logits, dim=1)

    def score(self, x: torch.Tensor, t: torch.Tensor, schedule: VPSchedule = OU) -> torch.Tensor:
        """``grad log q_t(x) = sum_k r_k(x) (-C_k(t)^{-1} (x - m(t) mu_k))``, responsibilities ``r_k``.

        ``x`` (m, d), ``t`` (m,) -> (m, d), float64, in closed form (no autograd).
        """
        logits, parts = self._logits_and_parts(x, t, schedule)
        r = torch.softmax(logits, dim=1)  # (m, K)
        if self.eigvecs is None:
            m, e = parts
            return (m * (r @ self.means.to(x.device)) - x) / e
        z, e, vecs = parts
        g = torch.einsum("nke,kde->nkd", -z / e, vecs)
        return (r[:, :, None] * g).sum(1)

    def score_fn(self, schedule: VPSchedule = OU) -> ScoreFn:
        """The closed-form score as a ``score(x, t)`` callable for the samplers."""
        return lambda x, t: self.score(x, t, schedule)

    def sample(
        self, n: int, t: float = 0.0, schedule: VPSchedule = OU, seed: int = 0, device: str = "cpu"
    ) -> torch.Tensor:
        """``n`` exact draws from ``q_t`` (GMM-t), shape (n, d), float64."""
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise ValueError(f"n must be a positive integer, got {n!r}")
        if not (isinstance(t, int | float) and 0 <= t < math.inf):
            raise ValueError(f"t must be a finite time >= 0, got {t!r}")
        gen = torch.Generator().manual_seed(seed)
        comp = torch.multinomial(self.weights, n, replacement=True, generator=gen)
        tt = torch.full((n,), float(t), dtype=torch.float64)
        m, v = schedule.mean_scale(tt)[:, None], schedule.noise_var(tt)[:, None]
        xi = torch.randn(n, self.dim, dtype=torch.float64, generator=gen)
        std = torch.sqrt(m * m * self.eigvals[comp] + v)
        noise = std * xi
        if self.eigvecs is not None:
            noise = torch.einsum("nde,ne->nd", self.eigvecs[comp], noise)
        return (m * self.means[comp] + noise).to(device)


def perturbed_score(score: ScoreFn, delta: float, dim: int, seed: int = 0, n_features: int = 4) -> ScoreFn:
    """``score + delta * g``: a fixed, smooth score error of size ``delta`` (the theorem's score-error term).

    ``g_j(x, t) = mean_f cos(<omega_jf, x> + nu_jf t + phi_jf)`` with Gaussian frequencies; a deterministic
    function of ``(x, t)`` (like a learned score's error), bounded by 1 per coordinate.
    """
    if not callable(score):
        raise TypeError(f"score must be callable (x, t) -> (m, d), got {type(score).__name__}")
    if isinstance(delta, bool) or not isinstance(delta, int | float) or not (0 <= delta < math.inf):
        raise ValueError(f"delta must be a finite number >= 0, got {delta!r}")
    if not isinstance(dim, int) or isinstance(dim, bool) or dim < 1:
        raise ValueError(f"dim must be a positive integer, got {dim!r}")
    gen = torch.Generator().manual_seed(seed)
    omega = torch.randn(dim, n_features, dim, dtype=torch.float64, generator=gen)  # (out j, f, in)
    nu = torch.randn(dim, n_features, dtype=torch.float64, generator=gen)
    phi = 2 * math.pi * torch.rand(dim, n_features, dtype=torch.float64, generator=gen)

    def noisy(x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        arg = torch.einsum("jfi,ni->njf", omega.to(x.device), x) + t[:, None, None] * nu.to(x.device)
        return score(x, t) + delta * torch.cos(arg + phi.to(x.device)).mean(-1)

    return noisy
