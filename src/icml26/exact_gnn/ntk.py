"""The infinite-width, infinite-ensemble limit of the MLP ensemble: the NTK mean, in closed form.

The network is a one-hidden-layer ReLU MLP in NTK parameterisation (weights N(0, 1), scaled by
``1/sqrt(fan_in)``, no biases). Its neural tangent kernel is [inferred: the standard arc-cosine form]

    Theta(x, x') = K2(x, x') + (x . x' / d) * Kdot(x, x'),
    K2   = sqrt(q q') / (2 pi) * (sin t + (pi - t) cos t),     q = |x|^2 / d,
    Kdot = (pi - t) / (2 pi),                                  t = angle(x, x'),

and gradient descent on MSE to convergence, averaged over initialisations, predicts the kernel
regression mean ``f(x) = Theta(x, X) Theta(X, X)^{-1} Y``. For one-hot training inputs ``e_1..e_n``,
``Theta(X, X) = (a - b) I + b 11^T`` and a test input ``1_S / sqrt(s)`` gives [inferred, derivation in
the docs]

    f(x_S) = gamma_s * sum_{j in S} Y_j + delta_s * sum_j Y_j,
    gamma_s = (c_s - b) / (a - b),   delta_s = b / (a - b + n b) * (1 - s (c_s - b) / (a - b)),

with ``a = Theta(e, e)``, ``b = Theta(e_i, e_j)``, ``c_s = Theta`` at cosine ``1/sqrt(s)``.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import sparse


def ntk_relu(x1: np.ndarray, x2: np.ndarray) -> np.ndarray:
    """``Theta(x1, x2)``, ``(n1, n2)``, of the one-hidden-layer ReLU MLP (NTK parameterisation, no bias)."""
    x1, x2 = np.atleast_2d(np.asarray(x1, float)), np.atleast_2d(np.asarray(x2, float))
    if x1.ndim != 2 or x2.ndim != 2 or x1.shape[1] != x2.shape[1]:
        raise ValueError(f"ntk_relu: inputs need shapes (n1, d) and (n2, d), got {x1.shape} and {x2.shape}")
    if not (np.isfinite(x1).all() and np.isfinite(x2).all()):
        raise ValueError("ntk_relu: inputs contain NaN or infinity")
    d = x1.shape[1]
    dot = x1 @ x2.T / d
    n1 = np.sqrt(np.sum(x1 * x1, axis=1) / d)[:, None]
    n2 = np.sqrt(np.sum(x2 * x2, axis=1) / d)[None, :]
    norms = n1 * n2
    with np.errstate(invalid="ignore", divide="ignore"):
        cos = np.where(norms > 0, dot / np.where(norms > 0, norms, 1.0), 0.0)
    cos = np.where(cos > 1.0 - 1e-12, 1.0, cos)  # arccos loses ~sqrt(eps) next to 1: parallel inputs snap
    theta = np.arccos(np.clip(cos, -1.0, 1.0))
    k2 = norms / (2 * math.pi) * (np.sin(theta) + (math.pi - theta) * np.cos(theta))
    kdot = (math.pi - theta) / (2 * math.pi)
    return k2 + dot * kdot


def _ntk_at_cosine(cos: float, d: int) -> float:
    """``Theta`` of two unit vectors in ``d`` dimensions at cosine ``cos``."""
    t = math.acos(min(1.0, max(-1.0, cos)))
    return (math.sin(t) + (math.pi - t) * math.cos(t)) / (2 * math.pi * d) + cos / d * (math.pi - t) / (
        2 * math.pi
    )


def closed_form_coefficients(n: int, s: int) -> tuple[float, float]:
    """``(gamma_s, delta_s)`` of the NTK mean for ``n`` one-hot training inputs and ``s`` matched templates."""
    if n < 1 or s < 0 or s > n:
        raise ValueError(f"closed_form_coefficients needs 0 <= s <= n with n >= 1, got n={n}, s={s}")
    if s == 0:
        return 0.0, 0.0
    a, b = _ntk_at_cosine(1.0, n), _ntk_at_cosine(0.0, n)
    gamma = (_ntk_at_cosine(1.0 / math.sqrt(s), n) - b) / (a - b)
    delta = b / (a - b + n * b) * (1.0 - s * gamma)
    return gamma, delta


class NTKClosedForm:
    """The NTK-mean learner on one-hot training data in closed form: ``O(|S| k)`` per prediction."""

    def fit(self, x: np.ndarray, y: np.ndarray) -> NTKClosedForm:
        x, y = np.asarray(x, float), np.asarray(y, float)
        if x.ndim != 2 or x.shape[0] != x.shape[1] or not np.array_equal(x, np.eye(x.shape[0])):
            raise ValueError(
                "NTKClosedForm: training inputs must be the one-hot basis e_1..e_n (use NTKSolve)"
            )
        if y.ndim != 2 or y.shape[0] != x.shape[0] or not np.isfinite(y).all():
            raise ValueError(f"NTKClosedForm: targets must be finite, shape ({x.shape[0]}, k), got {y.shape}")
        self.n_ = x.shape[0]
        self.y_ = sparse.csr_array(y)
        self.column_sums_ = y.sum(axis=0)
        self.coefficients_ = np.array([closed_form_coefficients(self.n_, s) for s in range(self.n_ + 1)])
        return self

    def predict(self, x: np.ndarray) -> np.ndarray:
        """``f(x)`` for encoded inputs ``x`` (rows ``1_S / sqrt(s)`` or 0), shape ``(m, k)``."""
        x = np.asarray(x, float)
        if x.ndim != 2 or x.shape[1] != self.n_:
            raise ValueError(f"NTKClosedForm: inputs need shape (m, {self.n_}), got {x.shape}")
        hits = x > 0
        s = hits.sum(axis=1)
        expected = hits / np.sqrt(np.maximum(s, 1))[:, None]
        if not np.allclose(x, expected, rtol=0, atol=1e-12):
            raise ValueError(
                "NTKClosedForm: every input row must be an encoder output 1_S / sqrt(|S|) (or all zeros); "
                "use NTKSolve for other inputs"
            )
        gamma, delta = self.coefficients_[s, 0], self.coefficients_[s, 1]
        return (
            gamma[:, None] * (self.y_.T @ hits.T.astype(float)).T
            + delta[:, None] * self.column_sums_[None, :]
        )


class NTKSolve:
    """The NTK-mean learner by an explicit kernel solve ``Theta(x, X) solve(Theta(X, X), Y)`` (any inputs)."""

    def fit(self, x: np.ndarray, y: np.ndarray) -> NTKSolve:
        x, y = np.asarray(x, float), np.asarray(y, float)
        if x.ndim != 2 or y.ndim != 2 or x.shape[0] != y.shape[0]:
            raise ValueError(f"NTKSolve: need x (n, d) and y (n, k), got {x.shape} and {y.shape}")
        if not np.isfinite(y).all():
            raise ValueError("NTKSolve: targets contain NaN or infinity")
        kernel = ntk_relu(x, x)
        if np.linalg.cond(kernel) > 1e12:
            raise ValueError("NTKSolve: the training kernel is singular (duplicate training inputs?)")
        self.x_ = x
        self.alpha_ = np.linalg.solve(kernel, y)
        return self

    def predict(self, x: np.ndarray) -> np.ndarray:
        return ntk_relu(np.asarray(x, float), self.x_) @ self.alpha_
