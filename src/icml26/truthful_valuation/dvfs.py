"""User DVFs (the :class:`~.valuation.DVF` protocol) for models without additive sufficient statistics.

Each values a coalition from its raw datasets by the posterior-predictive log score on the mediator's
validation set relative to the prior, as :func:`~.valuation.coalition_values` does for the conjugate
models, so ``v(empty) = 0``:

- :class:`GaussianProcessLogScore`: Gaussian-process regression (scikit-learn's
  ``GaussianProcessRegressor``): predictive ``N(mu(x), s(x)^2 + noise)`` against the prior
  ``N(0, k(x, x) + noise)``. By default the amplitude, kernel hyperparameters and noise are fitted by
  type-II maximum likelihood on the *validation set* (empirical Bayes), never on the submissions: a
  kernel tuned on the submissions would no longer be the common prior the truthfulness argument needs,
  and a fixed noise is a fixed number in y's units (wrong at other scales). ``noise=<float>`` keeps the
  fixed prior.
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
from icml26.truthful_valuation.empirical_bayes import fit_gp_prior
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
    """GP-regression log-score DVF. ``noise="empirical_bayes"`` (the default): the amplitude, the
    hyperparameters of ``kernel`` (default ``RBF(1.0)``) and the noise are fitted on the validation set by
    type-II maximum likelihood (:func:`~.empirical_bayes.fit_gp_prior`, on ``y / s`` with
    ``s = sqrt(mean y_V^2)``; every ``y`` is divided by the same ``s``, so the DVF is invariant to the
    scale of y). ``noise=<float>``: the fixed prior, ``kernel`` and the noise variance used as given (in
    y's units; a wrong one breaks truthfulness as a wrong sigma2 does)."""

    def __init__(self, kernel: object | None = None, noise: float | str = "empirical_bayes") -> None:
        from sklearn.gaussian_process.kernels import RBF, Kernel

        if kernel is None:
            kernel = RBF(1.0)
        if not isinstance(kernel, Kernel):
            raise TypeError(f"kernel must be a scikit-learn Kernel, got {type(kernel).__name__}")
        if isinstance(noise, str):
            if noise != "empirical_bayes":
                raise ValueError(f"noise must be 'empirical_bayes' or a variance > 0, got {noise!r}")
        else:
            noise = check_positive("noise", noise)
        self.kernel, self.noise = kernel, noise
        self._fitted: tuple[bytes, object, float, float] | None = None

    def __repr__(self) -> str:
        noise = repr(self.noise) if isinstance(self.noise, str) else f"{self.noise:g}"
        return f"GaussianProcessLogScore(kernel={self.kernel!r}, noise={noise})"

    def prior(self, validation: Dataset) -> tuple[object, float, float]:
        """``(signal kernel, noise variance, y scale s)`` that value coalitions on ``validation``: fitted on it
        (cached per validation set) or the fixed ones with ``s = 1``."""
        Xv, yv = _validation(validation, "GaussianProcessLogScore")
        if not isinstance(self.noise, str):
            return self.kernel, self.noise, 1.0
        key = Xv.tobytes() + yv.tobytes()
        if self._fitted is None or self._fitted[0] != key:
            self._fitted = (key, *fit_gp_prior(self.kernel, Xv, yv))
        return self._fitted[1:]

    def __call__(self, coalition: Sequence[Dataset], validation: Dataset | None) -> float:
        from sklearn.gaussian_process import GaussianProcessRegressor

        Xv, yv = _validation(validation, "GaussianProcessLogScore")
        X, y = _stack(coalition, Xv.shape[1])
        if X.shape[1] != Xv.shape[1]:
            raise ValueError(f"the sources have {X.shape[1]} features, the validation set {Xv.shape[1]}")
        if len(y) == 0:
            return 0.0
        kernel, noise, s = self.prior((Xv, yv))
        yv, y = yv / s, y / s  # the log-score difference is unchanged by a common scale
        prior = norm.logpdf(yv, 0.0, np.sqrt(kernel.diag(Xv) + noise))
        gp = GaussianProcessRegressor(kernel, alpha=noise, optimizer=None).fit(X, y)
        mean, std = gp.predict(Xv, return_std=True)  # std of the latent f; add the noise
        return float(np.sum(norm.logpdf(yv, mean, np.sqrt(std**2 + noise)) - prior))


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
