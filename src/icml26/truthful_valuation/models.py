"""Bayesian models with closed-form posteriors, built on additive sufficient statistics.

Every model maps a dataset ``(X, y)`` to a flat vector of sufficient statistics whose sum over
datasets is the statistic of their union, so a coalition's posterior is the posterior of the summed
statistics (no refit on raw data). The posterior predictive ``p(y | x, D)`` is closed form:

- :class:`GaussianLinearModel`: ``theta ~ N(0, tau2 I)``, ``y | x ~ N(x.theta, sigma2)`` with a
  *stated* ``sigma2`` (no default: a wrong one breaks truthfulness; :mod:`.empirical_bayes` fits it and
  ``tau2`` on the validation set, the Mechanism's default); Gaussian predictive
  ``N(x.m, sigma2 + x' A^{-1} x)``.
- :class:`NormalInverseGammaModel`: ``sigma2 ~ IG(a0, b0)``, ``theta | sigma2 ~ N(0, sigma2 tau2 I)``;
  Student-t predictive with ``2 a_n`` degrees of freedom; the noise is estimated from the coalition's
  data under a fixed prior (``a0, b0, tau2`` in y's units: not scale-equivariant).
- Both linear models take ``intercept=True``: a leading column of ones in the design, with the same
  ``N(0, tau2)`` prior as the slopes.
- :class:`NaiveBayesModel`: Dirichlet-categorical class prior and Beta-Bernoulli binary features per
  class; the predictive ``p(y | x, D) = p(x, y | D) / sum_k p(x, k | D)`` is exact because the per-class
  feature posteriors are independent.

Statistic vectors may carry leading batch axes (``(..., k)``): every coalition of a game is evaluated
in one vectorised call.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod

import numpy as np
from scipy import special
from scipy.stats import norm
from scipy.stats import t as student_t

from icml26.common.validation import check_positive

Dataset = tuple[np.ndarray, np.ndarray]


def check_dataset(data: object, name: str = "data", width: int | None = None) -> Dataset:
    """``data`` as float ``(X, y)`` arrays: a pair, ``X`` 2-D and finite (``width`` columns if given), ``y``
    1-D, real, finite, one per row; else ``ValueError``/``TypeError`` naming the problem."""
    if not (isinstance(data, tuple | list) and len(data) == 2):
        raise TypeError(f"{name} must be a pair (X, y), got {type(data).__name__}")
    X = np.asarray(data[0], dtype=float)
    y = np.asarray(data[1])
    if X.ndim != 2:
        raise ValueError(f"{name}: X must be 2-D (points, features), got shape {X.shape}")
    if width is not None and X.shape[1] != width:
        raise ValueError(
            f"{name}: X has {X.shape[1]} features but the model has {width}; every source and"
            " the validation set must share the model's feature width"
        )
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise ValueError(f"{name}: y must be 1-D with one label per row of X, got shape {y.shape}")
    if not np.issubdtype(y.dtype, np.number) or np.issubdtype(y.dtype, np.complexfloating):
        raise TypeError(f"{name}: y must be real numbers, got dtype {y.dtype}")
    if not (np.isfinite(X).all() and np.isfinite(y.astype(float)).all()):
        raise ValueError(f"{name}: X and y must be finite (found NaN or inf)")
    return X, y.astype(float)


class BayesianModel(ABC):
    """A conjugate model: additive sufficient statistics and a closed-form posterior predictive."""

    task: str  # "regression" or "classification"
    n_features: int

    @property
    @abstractmethod
    def n_statistics(self) -> int:
        """Length of one sufficient-statistic vector."""

    def check_data(self, data: object, name: str = "data") -> Dataset:
        """``data`` as ``(X, y)`` arrays after validation; ``ValueError``/``TypeError`` naming the problem."""
        X, y = check_dataset(data, name, self.n_features)
        return X, self._check_labels(y, name)

    def _check_labels(self, y: np.ndarray, name: str) -> np.ndarray:
        return y

    @abstractmethod
    def statistics(self, X: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Sufficient statistics of ``(X, y)``, shape ``(n_statistics,)``; additive over datasets."""

    @abstractmethod
    def log_predictive(self, stats: np.ndarray, X: np.ndarray, y: np.ndarray) -> np.ndarray:
        """``log p(y_j | x_j, D)`` for the posterior of ``stats`` (shape ``(..., k)``) -> ``(..., m)``."""

    @abstractmethod
    def point_prediction(self, stats: np.ndarray, X: np.ndarray) -> np.ndarray:
        """The posterior's point prediction: predictive mean (regression) or mode (classes); ``(..., m)``."""

    @abstractmethod
    def sample_parameter(self, rng: np.random.Generator) -> object:
        """A parameter drawn from the prior."""

    @abstractmethod
    def sample_posterior(self, stats: np.ndarray, rng: np.random.Generator) -> object:
        """A parameter drawn from the posterior of ``stats`` (shape ``(k,)``)."""

    @abstractmethod
    def sample_data(
        self, parameter: object, m: int, rng: np.random.Generator, X: np.ndarray | None = None
    ) -> Dataset:
        """``m`` points from the likelihood at ``parameter`` (regression: at covariates ``X`` if given,
        else ``X ~ N(0, I)``)."""

    @abstractmethod
    def perturb_labels(self, y: np.ndarray, strength: float, rng: np.random.Generator) -> np.ndarray:
        """Label noise of the given strength."""

    @abstractmethod
    def perturb_features(self, X: np.ndarray, strength: float, rng: np.random.Generator) -> np.ndarray:
        """Feature noise of the given strength."""

    def count(self, stats: np.ndarray) -> np.ndarray:
        """Number of points behind ``stats`` (``(..., k)`` -> ``(...)``)."""
        return stats[..., self._count_index]

    _count_index: int


class _LinearModel(BayesianModel):
    """Shared parts of the two linear-regression models: statistics ``[X'X, X'y, n, y'y]``."""

    task = "regression"

    def __init__(self, n_features: int, tau2: float = 1.0, intercept: bool = False) -> None:
        if isinstance(n_features, bool) or not isinstance(n_features, int) or n_features < 1:
            raise ValueError(f"n_features must be an integer >= 1, got {n_features!r}")
        if not isinstance(intercept, bool):
            raise TypeError(f"intercept must be True or False, got {intercept!r}")
        self.n_features = n_features
        self.tau2 = check_positive("tau2", tau2)
        self.intercept = intercept
        p = self._width
        self._count_index = p * p + p

    @property
    def _width(self) -> int:
        """Columns of the design: the features, plus a leading column of ones with ``intercept``."""
        return self.n_features + int(self.intercept)

    def _design(self, X: np.ndarray) -> np.ndarray:
        return np.hstack([np.ones((len(X), 1)), X]) if self.intercept else X

    @property
    def n_statistics(self) -> int:
        return self._width**2 + self._width + 2

    def statistics(self, X: np.ndarray, y: np.ndarray) -> np.ndarray:
        Z = self._design(X)
        return np.concatenate([(Z.T @ Z).ravel(), Z.T @ y, [len(y), y @ y]])

    def _split(self, stats: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        d = self._width
        xtx = stats[..., : d * d].reshape(*stats.shape[:-1], d, d)
        return xtx, stats[..., d * d : d * d + d], stats[..., d * d + d], stats[..., d * d + d + 1]

    def _posterior(self, stats: np.ndarray, noise: float) -> tuple[np.ndarray, np.ndarray]:
        """Posterior precision ``A = I / tau2 + X'X / noise`` and mean ``m = A^{-1} X'y / noise``."""
        xtx, xty, _, _ = self._split(stats)
        precision = np.eye(self._width) / self.tau2 + xtx / noise
        mean = np.linalg.solve(precision, (xty / noise)[..., None])[..., 0]
        return precision, mean

    def _leverage(self, precision: np.ndarray, X: np.ndarray) -> np.ndarray:
        """``x_j' A^{-1} x_j`` for every row of ``X`` (the design with its intercept column): ``(..., m)``."""
        solved = np.linalg.solve(precision, np.broadcast_to(X.T, (*precision.shape[:-2], *X.T.shape)))
        return np.einsum("md,...dm->...m", X, solved)

    def information_gain(self, stats: np.ndarray) -> np.ndarray:
        """``1/2 log det(I + tau2 X'X / sigma2)`` (Sim et al. 2020): ignores ``y`` (``(..., k)`` -> ``(...)``)."""
        xtx = self._split(stats)[0]
        return 0.5 * np.linalg.slogdet(np.eye(self._width) + self.tau2 * xtx / self._ig_noise)[1]

    _ig_noise: float

    def sample_data(
        self, parameter: object, m: int, rng: np.random.Generator, X: np.ndarray | None = None
    ) -> Dataset:
        theta, sigma2 = parameter  # type: ignore[misc]
        if X is None:
            X = rng.standard_normal((m, self.n_features))
        return X, self._design(X) @ theta + math.sqrt(sigma2) * rng.standard_normal(len(X))

    def perturb_labels(self, y: np.ndarray, strength: float, rng: np.random.Generator) -> np.ndarray:
        """``y + N(0, strength^2)``."""
        return y + strength * rng.standard_normal(y.shape)

    def perturb_features(self, X: np.ndarray, strength: float, rng: np.random.Generator) -> np.ndarray:
        """``X + N(0, strength^2)`` elementwise."""
        return X + strength * rng.standard_normal(X.shape)


class GaussianLinearModel(_LinearModel):
    """Conjugate Bayesian linear regression with known noise: ``theta ~ N(0, tau2 I)``,
    ``y = x.theta + N(0, sigma2)``.

    Posterior ``N(m, A^{-1})``, ``A = I/tau2 + X'X/sigma2``, ``m = A^{-1} X'y / sigma2``; predictive
    ``N(x.m, sigma2 + x' A^{-1} x)``.
    """

    def __init__(
        self, n_features: int, sigma2: float | None = None, tau2: float = 1.0, intercept: bool = False
    ) -> None:
        super().__init__(n_features, tau2, intercept)
        if sigma2 is None:
            raise ValueError(
                "GaussianLinearModel needs the noise variance stated (sigma2 > 0): with a wrong sigma2 the"
                " log score is no longer truthful (data with sigma2 = 0.25 valued at sigma2 = 1 make"
                " duplication pay); when sigma2 is unknown leave Mechanism(model=None), which fits sigma2 and"
                " tau2 on the validation set by empirical Bayes (EmpiricalBayesLinear)"
            )
        self.sigma2 = check_positive("sigma2", sigma2)
        self._ig_noise = self.sigma2

    def __repr__(self) -> str:
        return (
            f"GaussianLinearModel(n_features={self.n_features}, sigma2={self.sigma2:g}, tau2={self.tau2:g},"
            f" intercept={self.intercept})"
        )

    def predictive(self, stats: np.ndarray, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Predictive mean and variance at the rows of ``X``: ``(..., m)`` each."""
        precision, mean = self._posterior(stats, self.sigma2)
        Z = self._design(X)
        return mean @ Z.T, self.sigma2 + self._leverage(precision, Z)

    def log_predictive(self, stats: np.ndarray, X: np.ndarray, y: np.ndarray) -> np.ndarray:
        loc, var = self.predictive(stats, X)
        return norm.logpdf(y, loc=loc, scale=np.sqrt(var))

    def point_prediction(self, stats: np.ndarray, X: np.ndarray) -> np.ndarray:
        return self._posterior(stats, self.sigma2)[1] @ self._design(X).T

    def sample_parameter(self, rng: np.random.Generator) -> tuple[np.ndarray, float]:
        return math.sqrt(self.tau2) * rng.standard_normal(self._width), self.sigma2

    def sample_posterior(self, stats: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, float]:
        precision, mean = self._posterior(stats, self.sigma2)
        chol = np.linalg.cholesky(precision)  # A = L L'; theta = m + L^{-T} z has covariance A^{-1}
        return mean + np.linalg.solve(chol.T, rng.standard_normal(self._width)), self.sigma2


class NormalInverseGammaModel(_LinearModel):
    """Bayesian linear regression with unknown noise: ``sigma2 ~ IG(a0, b0)``,
    ``theta | sigma2 ~ N(0, sigma2 tau2 I)``.

    ``L_n = I/tau2 + X'X``, ``mu_n = L_n^{-1} X'y``, ``a_n = a0 + n/2``,
    ``b_n = b0 + (y'y - mu_n' L_n mu_n)/2``; predictive Student-t with ``2 a_n`` degrees of freedom,
    location ``x.mu_n`` and squared scale ``(b_n / a_n)(1 + x' L_n^{-1} x)``. Its information gain uses
    ``sigma2 = 1`` (the prior of ``theta`` is on the noise scale).
    """

    def __init__(
        self, n_features: int, a0: float = 2.0, b0: float = 1.0, tau2: float = 1.0, intercept: bool = False
    ) -> None:
        super().__init__(n_features, tau2, intercept)
        self.a0, self.b0 = check_positive("a0", a0), check_positive("b0", b0)
        self._ig_noise = 1.0

    def __repr__(self) -> str:
        return (
            f"NormalInverseGammaModel(n_features={self.n_features}, a0={self.a0:g}, b0={self.b0:g},"
            f" tau2={self.tau2:g}, intercept={self.intercept})"
        )

    def _nig(self, stats: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        _, xty, n, yty = self._split(stats)
        precision, mean = self._posterior(stats, 1.0)
        a_n = self.a0 + n / 2
        b_n = self.b0 + 0.5 * np.maximum(yty - np.einsum("...d,...d->...", mean, xty), 0.0)
        return precision, mean, a_n, b_n

    def log_predictive(self, stats: np.ndarray, X: np.ndarray, y: np.ndarray) -> np.ndarray:
        precision, mean, a_n, b_n = self._nig(stats)
        Z = self._design(X)
        df = 2 * a_n[..., None]
        scale2 = (b_n / a_n)[..., None] * (1 + self._leverage(precision, Z))
        return student_t.logpdf(y, df=df, loc=mean @ Z.T, scale=np.sqrt(scale2))

    def point_prediction(self, stats: np.ndarray, X: np.ndarray) -> np.ndarray:
        return self._posterior(stats, 1.0)[1] @ self._design(X).T

    def noise_estimate(self, stats: np.ndarray) -> np.ndarray:
        """The posterior mean of ``sigma2``, ``b_n / (a_n - 1)`` (``a_n > 1``): the noise the model estimates."""
        _, _, a_n, b_n = self._nig(np.asarray(stats, dtype=float))
        return b_n / np.maximum(a_n - 1, 1e-12)

    def sample_parameter(self, rng: np.random.Generator) -> tuple[np.ndarray, float]:
        sigma2 = self.b0 / rng.gamma(self.a0)
        return math.sqrt(sigma2 * self.tau2) * rng.standard_normal(self._width), sigma2

    def sample_posterior(self, stats: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, float]:
        precision, mean, a_n, b_n = self._nig(stats)
        sigma2 = float(b_n / rng.gamma(float(a_n)))
        chol = np.linalg.cholesky(precision / sigma2)
        return mean + np.linalg.solve(chol.T, rng.standard_normal(self._width)), sigma2


class NaiveBayesModel(BayesianModel):
    """Naive Bayes on binary features: ``pi ~ Dir(alpha)``, ``p_kj ~ Beta(beta, beta)``,
    ``y ~ Cat(pi)``, ``x_j | y=k ~ Bernoulli(p_kj)``.

    Statistics ``[N_k (K), ones_kj (K*d)]``. With ``pbar_k = (alpha + N_k)/(K alpha + N)`` and
    ``qbar_kj = (beta + ones_kj)/(2 beta + N_k)``,
    ``log p(x, k | D) = log pbar_k + sum_j [x_j log qbar_kj + (1 - x_j) log(1 - qbar_kj)]``.
    """

    task = "classification"

    def __init__(self, n_features: int, n_classes: int = 2, alpha: float = 1.0, beta: float = 1.0) -> None:
        if isinstance(n_features, bool) or not isinstance(n_features, int) or n_features < 1:
            raise ValueError(f"n_features must be an integer >= 1, got {n_features!r}")
        if isinstance(n_classes, bool) or not isinstance(n_classes, int) or n_classes < 2:
            raise ValueError(f"n_classes must be an integer >= 2, got {n_classes!r}")
        self.n_features, self.n_classes = n_features, n_classes
        self.alpha, self.beta = check_positive("alpha", alpha), check_positive("beta", beta)

    def __repr__(self) -> str:
        return f"NaiveBayesModel(n_features={self.n_features}, n_classes={self.n_classes}, alpha={self.alpha:g}, beta={self.beta:g})"

    @property
    def n_statistics(self) -> int:
        return self.n_classes * (self.n_features + 1)

    def count(self, stats: np.ndarray) -> np.ndarray:
        return stats[..., : self.n_classes].sum(-1)

    def check_data(self, data: object, name: str = "data") -> Dataset:
        X, y = super().check_data(data, name)
        if not np.isin(X, (0.0, 1.0)).all():
            raise ValueError(f"{name}: NaiveBayesModel needs binary features (0/1); binarise X first")
        return X, y

    def _check_labels(self, y: np.ndarray, name: str) -> np.ndarray:
        if not (np.all(y == np.round(y)) and np.all((y >= 0) & (y < self.n_classes))):
            raise ValueError(f"{name}: labels must be integers in 0..{self.n_classes - 1}")
        return y.astype(int)

    def statistics(self, X: np.ndarray, y: np.ndarray) -> np.ndarray:
        onehot = np.eye(self.n_classes)[np.asarray(y, dtype=int)]
        return np.concatenate([onehot.sum(0), (onehot.T @ X).ravel()])

    def _joint_log(self, stats: np.ndarray, X: np.ndarray) -> np.ndarray:
        """``log p(x_j, k | D)``: ``(..., m, K)``."""
        K, d = self.n_classes, self.n_features
        counts = stats[..., :K]
        ones = stats[..., K:].reshape(*stats.shape[:-1], K, d)
        log_prior = np.log(self.alpha + counts) - np.log(K * self.alpha + counts.sum(-1, keepdims=True))
        q = (self.beta + ones) / (2 * self.beta + counts[..., None])
        # (..., K, d) x (m, d) -> (..., m, K)
        feat = np.einsum("md,...kd->...mk", X, np.log(q)) + np.einsum("md,...kd->...mk", 1 - X, np.log1p(-q))
        return log_prior[..., None, :] + feat

    def log_predictive(self, stats: np.ndarray, X: np.ndarray, y: np.ndarray) -> np.ndarray:
        joint = self._joint_log(stats, X)
        index = np.broadcast_to(np.asarray(y, dtype=int)[:, None], (*joint.shape[:-1], 1))
        chosen = np.take_along_axis(joint, index, axis=-1)[..., 0]
        return chosen - special.logsumexp(joint, axis=-1)

    def point_prediction(self, stats: np.ndarray, X: np.ndarray) -> np.ndarray:
        return np.argmax(self._joint_log(stats, X), axis=-1)

    def sample_parameter(self, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        pi = rng.dirichlet(np.full(self.n_classes, self.alpha))
        return pi, rng.beta(self.beta, self.beta, size=(self.n_classes, self.n_features))

    def sample_posterior(self, stats: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        K, d = self.n_classes, self.n_features
        counts, ones = stats[:K], stats[K:].reshape(K, d)
        pi = rng.dirichlet(self.alpha + counts)
        return pi, rng.beta(self.beta + ones, self.beta + counts[:, None] - ones)

    def sample_data(
        self, parameter: object, m: int, rng: np.random.Generator, X: np.ndarray | None = None
    ) -> Dataset:
        pi, p = parameter  # type: ignore[misc]
        y = rng.choice(self.n_classes, size=m, p=pi)
        return (rng.random((m, self.n_features)) < p[y]).astype(float), y

    def perturb_labels(self, y: np.ndarray, strength: float, rng: np.random.Generator) -> np.ndarray:
        """Each label replaced, with probability ``strength``, by a uniformly drawn *other* class."""
        flip = rng.random(y.shape) < strength
        shift = rng.integers(1, self.n_classes, size=y.shape)
        return np.where(flip, (y + shift) % self.n_classes, y)

    def perturb_features(self, X: np.ndarray, strength: float, rng: np.random.Generator) -> np.ndarray:
        """Each bit flipped with probability ``strength``."""
        return np.abs(X - (rng.random(X.shape) < strength))
