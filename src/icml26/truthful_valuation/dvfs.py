"""User DVFs (the :class:`~.valuation.DVF` protocol) for models without additive sufficient statistics.

Each values a coalition from its raw datasets by the posterior-predictive log score on the mediator's
validation set relative to the prior, as :func:`~.valuation.coalition_values` does for the conjugate
models, so ``v(empty) = 0``:

- :class:`GaussianProcessLogScore`: Gaussian-process regression (scikit-learn's
  ``GaussianProcessRegressor`` with a *fixed* kernel and noise): predictive
  ``N(mu(x), s(x)^2 + noise)`` against the prior ``N(0, k(x, x) + noise)``. The hyperparameters are
  not fitted to the coalition's data: a kernel tuned on the submissions would no longer be the common
  prior the truthfulness argument needs.
- :class:`LaplaceLogisticLogScore` [inferred: the paper's classification case could not be read]:
  Bayesian logistic regression ``w ~ N(0, tau2 I)``, ``p(y = 1 | x, w) = sigmoid(x.w)``, with the
  Laplace approximation ``N(w_MAP, H^{-1})`` (``H`` the Hessian of the negative log posterior at the
  MAP, found by Newton's method) and the probit approximation of the predictive,
  ``p(y = 1 | x, D) ~ sigmoid(kappa(s^2) x.w_MAP)``, ``s^2 = x' H^{-1} x``,
  ``kappa(s^2) = (1 + pi s^2 / 8)^{-1/2}`` (MacKay 1992; Bishop 2006, eqs. 4.153-4.155). The prior's
  predictive is 1/2 for every point.

Use with ``Mechanism(dvf=GaussianProcessLogScore()).value(sources, validation)``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from scipy import special
from scipy.stats import norm

from icml26.common.validation import check_positive
from icml26.truthful_valuation.models import Dataset, check_dataset


def _stack(coalition: Sequence[Dataset], width: int) -> tuple[np.ndarray, np.ndarray]:
    if not coalition:
        return np.empty((0, width)), np.empty(0)
    return np.concatenate([c[0] for c in coalition]), np.concatenate([c[1] for c in coalition])


def _validation(validation: object, name: str) -> Dataset:
    if validation is None:
        raise ValueError(f"{name} needs a non-empty validation set (X, y); got None")
    X, y = check_dataset(validation, "validation")
    if len(y) == 0:
        raise ValueError(f"{name} needs a non-empty validation set (X, y); got 0 points")
    return X, y


class GaussianProcessLogScore:
    """GP-regression log-score DVF; ``kernel`` a scikit-learn kernel (default ``RBF(1.0)``), ``noise`` the
    observation noise variance (stated: not estimated)."""

    def __init__(self, kernel: object | None = None, noise: float = 0.1) -> None:
        from sklearn.gaussian_process.kernels import RBF, Kernel

        if kernel is None:
            kernel = RBF(1.0)
        if not isinstance(kernel, Kernel):
            raise TypeError(f"kernel must be a scikit-learn Kernel, got {type(kernel).__name__}")
        self.kernel, self.noise = kernel, check_positive("noise", noise)

    def __repr__(self) -> str:
        return f"GaussianProcessLogScore(kernel={self.kernel!r}, noise={self.noise:g})"

    def __call__(self, coalition: Sequence[Dataset], validation: Dataset | None) -> float:
        from sklearn.gaussian_process import GaussianProcessRegressor

        Xv, yv = _validation(validation, "GaussianProcessLogScore")
        X, y = _stack(coalition, Xv.shape[1])
        if X.shape[1] != Xv.shape[1]:
            raise ValueError(f"the sources have {X.shape[1]} features, the validation set {Xv.shape[1]}")
        prior = norm.logpdf(yv, 0.0, np.sqrt(self.kernel.diag(Xv) + self.noise))
        if len(y) == 0:
            return 0.0
        gp = GaussianProcessRegressor(self.kernel, alpha=self.noise, optimizer=None).fit(X, y)
        mean, std = gp.predict(Xv, return_std=True)  # std of the latent f; add the noise
        return float(np.sum(norm.logpdf(yv, mean, np.sqrt(std**2 + self.noise)) - prior))


class LaplaceLogisticLogScore:
    """Laplace-approximated Bayesian logistic regression, log-score DVF (labels 0/1); ``intercept`` adds
    a column of ones with the same ``N(0, tau2)`` prior."""

    def __init__(self, tau2: float = 1.0, intercept: bool = True, max_iter: int = 100) -> None:
        if not isinstance(intercept, bool):
            raise TypeError(f"intercept must be True or False, got {intercept!r}")
        if isinstance(max_iter, bool) or not isinstance(max_iter, int) or max_iter < 1:
            raise ValueError(f"max_iter must be an integer >= 1, got {max_iter!r}")
        self.tau2, self.intercept, self.max_iter = check_positive("tau2", tau2), intercept, max_iter

    def __repr__(self) -> str:
        return f"LaplaceLogisticLogScore(tau2={self.tau2:g}, intercept={self.intercept})"

    def _design(self, X: np.ndarray) -> np.ndarray:
        return np.hstack([np.ones((len(X), 1)), X]) if self.intercept else X

    def posterior(self, X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The Laplace posterior: MAP weights and the Hessian ``H`` (precision) at the MAP."""
        X, y = check_dataset((X, y), "data")
        self._check_labels(y, "data")
        Z = self._design(X)
        w = np.zeros(Z.shape[1])
        prior_precision = np.eye(Z.shape[1]) / self.tau2
        for _ in range(self.max_iter):
            p = special.expit(Z @ w)
            gradient = Z.T @ (y - p) - prior_precision @ w
            hessian = (Z * (p * (1 - p))[:, None]).T @ Z + prior_precision
            step = np.linalg.solve(hessian, gradient)
            w = w + step
            if np.max(np.abs(step)) < 1e-10:
                break
        p = special.expit(Z @ w)
        return w, (Z * (p * (1 - p))[:, None]).T @ Z + prior_precision

    def log_predictive(self, X: np.ndarray, y: np.ndarray, Xv: np.ndarray, yv: np.ndarray) -> np.ndarray:
        """``log p(y_j | x_j, D)`` under the probit-approximated Laplace predictive, per validation point."""
        w, hessian = self.posterior(X, y)
        Zv = self._design(Xv)
        s2 = np.einsum("md,dm->m", Zv, np.linalg.solve(hessian, Zv.T))
        a = (Zv @ w) / np.sqrt(1 + math.pi * s2 / 8)
        return np.where(yv == 1, special.log_expit(a), special.log_expit(-a))

    def _check_labels(self, y: np.ndarray, name: str) -> None:
        if not np.isin(y, (0.0, 1.0)).all():
            raise ValueError(f"{name}: LaplaceLogisticLogScore needs binary labels 0/1")

    def __call__(self, coalition: Sequence[Dataset], validation: Dataset | None) -> float:
        Xv, yv = _validation(validation, "LaplaceLogisticLogScore")
        self._check_labels(yv, "validation")
        X, y = _stack(coalition, Xv.shape[1])
        if X.shape[1] != Xv.shape[1]:
            raise ValueError(f"the sources have {X.shape[1]} features, the validation set {Xv.shape[1]}")
        if len(y) == 0:
            return 0.0
        return float(np.sum(self.log_predictive(X, y, Xv, yv) - math.log(0.5)))
