"""Empirical Bayes: the mediator's prior fitted on its own validation set (type-II maximum likelihood).

A fixed prior is stated in y's units, so a mediator whose stated noise ``sigma2`` (or slope prior
``tau2``) is wrong for the data makes duplication pay, and a fixed number can only be right at one
scale of y. The default mechanism therefore fits the hyperparameters of its Gaussian linear model by
maximising the marginal likelihood of the validation set ``V`` [inferred: the paper's text could not
be read; this is our construction to close the sigma2 trap]:

    (sigma2, tau2) = argmax log N(y_V; 0, sigma2 I + tau2 Z_V Z_V'),   Z_V the design of X_V.

Only ``V`` enters: the sources never see it and cannot move the prior by what they submit, so the
fitted prior is common to every coalition and every strategy. Scale equivariance: with ``y -> c y``
the fit gives ``(c^2 sigma2, c^2 tau2)`` (we optimise on ``y / s``, ``s = sqrt(mean y_V^2)``, and scale
back), and the log-score DVF (a difference of log densities) is unchanged, so every value is.

With ``Z_V = U S W'`` (thin SVD, singular values ``s_k``), ``q = U'y``, ``r = y'y - |q|^2`` and
``lambda_k = sigma2 + tau2 s_k^2``,

    log p(y) = -1/2 [ m log 2 pi + (m - k) log sigma2 + sum_k log lambda_k + r / sigma2 + sum_k q_k^2 / lambda_k ].

:func:`fit_gp_prior` does the same for Gaussian-process regression with scikit-learn's marginal
likelihood (amplitude, kernel hyperparameters and noise fitted on the standardised ``V``).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import optimize

from icml26.truthful_valuation.models import GaussianLinearModel, check_dataset

# bounds of log(sigma2) and log(tau2) in the standardised units of y (y / s has mean square 1)
_LOG_BOUND = 25.0


def _scale(y: np.ndarray, name: str) -> float:
    """``sqrt(mean y^2)``; ``ValueError`` if it is 0 (an all-zero y sets no scale)."""
    s = float(np.sqrt(np.mean(y**2)))
    if not s > 0:
        raise ValueError(
            f"{name}: y is all zeros, so the noise and the prior scale cannot be estimated from it"
        )
    return s


def _spectrum(Z: np.ndarray, y: np.ndarray) -> tuple[int, np.ndarray, np.ndarray, float]:
    """``(m, s_k^2, q_k^2, r)`` of the thin SVD ``Z = U S W'``: ``q = U'y``, ``r = y'y - |q|^2``."""
    _, s, vt = np.linalg.svd(Z, full_matrices=False)
    q = (y @ Z @ vt.T) / np.where(s > 0, s, 1.0)
    return len(y), s**2, q**2, max(float(y @ y - q @ q), 0.0)


def _log_marginal(
    log_sigma2: float, log_tau2: float, spectrum: tuple[int, np.ndarray, np.ndarray, float]
) -> tuple[float, np.ndarray]:
    m, s2, q2, rest = spectrum
    k = len(s2)
    sigma2, tau2 = math.exp(log_sigma2), math.exp(log_tau2)
    lam = sigma2 + tau2 * s2
    value = -0.5 * (
        m * math.log(2 * math.pi)
        + (m - k) * log_sigma2
        + np.sum(np.log(lam))
        + rest / sigma2
        + np.sum(q2 / lam)
    )
    d_sigma2 = -0.5 * ((m - k) / sigma2 + np.sum(1 / lam) - rest / sigma2**2 - np.sum(q2 / lam**2))
    d_tau2 = -0.5 * (np.sum(s2 / lam) - np.sum(q2 * s2 / lam**2))
    return float(value), np.array([d_sigma2 * sigma2, d_tau2 * tau2])


def linear_log_marginal(
    log_sigma2: float, log_tau2: float, Z: np.ndarray, y: np.ndarray
) -> tuple[float, np.ndarray]:
    """``log N(y; 0, sigma2 I + tau2 Z Z')`` and its gradient in ``(log sigma2, log tau2)``."""
    return _log_marginal(log_sigma2, log_tau2, _spectrum(np.asarray(Z, float), np.asarray(y, float)))


def fit_linear_prior(X: object, y: object, intercept: bool = False) -> tuple[float, float]:
    """Type-II maximum-likelihood ``(sigma2, tau2)`` of the Gaussian linear model on ``(X, y)``."""
    X, y = check_dataset((X, y), "validation")
    if len(y) < 2:
        raise ValueError(
            f"validation: empirical Bayes needs >= 2 points to fit sigma2 and tau2, got {len(y)}"
        )
    if not isinstance(intercept, bool):
        raise TypeError(f"intercept must be True or False, got {intercept!r}")
    s = _scale(y, "validation")
    Z = np.hstack([np.ones((len(X), 1)), X]) if intercept else X
    log_rho, noise = _profile_fit(_spectrum(Z, y / s))
    return noise * s * s, math.exp(log_rho) * noise * s * s


def _profile(log_rho: np.ndarray, spectrum: tuple[int, np.ndarray, np.ndarray, float]) -> tuple:
    """Minus twice the profile log marginal (constants dropped) at ``rho = tau2 / sigma2``, and the
    maximising ``sigma2(rho) = (r + sum_k q_k^2 / (1 + rho s_k^2)) / m``; ``log_rho`` of any shape."""
    m, s2, q2, rest = spectrum
    shrink = 1 + np.exp(np.asarray(log_rho, dtype=float))[..., None] * s2
    sigma2 = (rest + np.sum(q2 / shrink, axis=-1)) / m
    return m * np.log(sigma2) + np.sum(np.log(shrink), axis=-1), sigma2


def _profile_fit(spectrum: tuple[int, np.ndarray, np.ndarray, float]) -> tuple[float, float]:
    """``(log rho, sigma2)`` maximising the marginal likelihood: ``sigma2`` in closed form given ``rho``
    (set d/d sigma2 = 0), ``log rho`` by a grid on ``[-25, 25]`` refined by bounded Brent around the best
    grid point."""
    grid = np.linspace(-_LOG_BOUND, _LOG_BOUND, 201)
    values = _profile(grid, spectrum)[0]
    best = int(np.argmin(values))
    lo, hi = grid[max(best - 1, 0)], grid[min(best + 1, len(grid) - 1)]
    out = optimize.minimize_scalar(
        lambda t: float(_profile(np.array(t), spectrum)[0]),
        bounds=(lo, hi),
        method="bounded",
        options={"xatol": 1e-10},
    )
    log_rho = float(out.x) if out.fun <= values[best] else float(grid[best])
    return log_rho, float(_profile(np.array(log_rho), spectrum)[1])


class EmpiricalBayesLinear:
    """The default prior of :class:`~.mechanism.Mechanism`: a :class:`~.models.GaussianLinearModel` whose
    ``sigma2`` and ``tau2`` are fitted on the validation set by :func:`fit_linear_prior`.

    ``EmpiricalBayesLinear(intercept=False).fit(validation) -> GaussianLinearModel``.
    """

    task = "regression"

    def __init__(self, intercept: bool = False) -> None:
        if not isinstance(intercept, bool):
            raise TypeError(f"intercept must be True or False, got {intercept!r}")
        self.intercept = intercept

    def __repr__(self) -> str:
        return f"EmpiricalBayesLinear(intercept={self.intercept})"

    def fit(self, validation: object) -> GaussianLinearModel:
        """The Gaussian linear model with the hyperparameters that maximise ``p(y_V | X_V)``."""
        if validation is None:
            raise ValueError(
                "the empirical-Bayes prior is fitted on the validation set; got None (pass a validation set,"
                " or a fixed-prior model such as GaussianLinearModel(d, sigma2=..., tau2=...))"
            )
        X, y = check_dataset(validation, "validation")
        if len(y) == 0:
            raise ValueError(
                "validation: the empirical-Bayes prior needs a non-empty validation set; got 0 points"
            )
        sigma2, tau2 = fit_linear_prior(X, y, self.intercept)
        return GaussianLinearModel(X.shape[1], sigma2=sigma2, tau2=tau2, intercept=self.intercept)

    __call__ = fit


def fit_gp_prior(kernel: object, X: np.ndarray, y: np.ndarray) -> tuple[object, float, float]:
    """Type-II ML of ``ConstantKernel * kernel + WhiteKernel`` on the standardised ``(X, y / s)`` with
    scikit-learn; returns ``(signal kernel, noise, s)`` in the standardised units."""
    from sklearn.gaussian_process import GaussianProcessRegressor
    from sklearn.gaussian_process.kernels import ConstantKernel, WhiteKernel

    if len(y) < 2:
        raise ValueError(f"validation: empirical Bayes needs >= 2 points to fit the GP noise, got {len(y)}")
    s = _scale(y, "validation")
    full = ConstantKernel(1.0, (1e-6, 1e6)) * kernel + WhiteKernel(0.1, (1e-10, 1e3))
    gp = GaussianProcessRegressor(full, alpha=1e-10, n_restarts_optimizer=0).fit(X, y / s)
    fitted = gp.kernel_
    return fitted.k1, float(fitted.k2.noise_level), s
