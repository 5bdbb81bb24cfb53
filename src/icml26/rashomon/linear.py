"""Rashomon sets of linear models.

- Sparse logistic: every support of size <= k is fitted by (L2-regularised) logistic regression; R(eps)
  keeps the fits with mean logistic loss <= (1 + eps) x the best [inferred: the notes' construction].
- Ridge: with L(w) = ||Xw - y||^2 / n + alpha ||w||^2, R(eps) = {w : L(w) <= (1 + eps) L*} is exactly the
  ellipsoid (w - w*)^T H (w - w*) <= eps L*, H = X^T X / n + alpha I (L is quadratic with Hessian 2H).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from icml26.rashomon.trees import check_labels


@dataclass(frozen=True)
class LinearModel:
    """``1[w.x + b > 0]`` with ``w`` zero outside ``support``; ``loss`` its mean logistic loss."""

    support: tuple[int, ...]
    w: np.ndarray
    b: float
    loss: float

    def predict(self, X: np.ndarray) -> np.ndarray:
        return (np.asarray(X, dtype=float) @ self.w + self.b > 0).astype(np.int64)


def sparse_logistic_set(X: Any, y: Any, k: int, eps: float, C: float = 1.0) -> list[LinearModel]:
    """R(eps) of logistic models on supports of size 1..k, best first."""
    from sklearn.linear_model import LogisticRegression

    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or not np.isfinite(X).all():
        raise ValueError(f"X must be a finite 2-D array, got shape {X.shape}")
    y = check_labels(y, X.shape[0])
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= X.shape[1]:
        raise ValueError(f"k (largest support) must be an integer in 1..{X.shape[1]}, got {k!r}")
    if not (isinstance(eps, int | float) and math.isfinite(eps) and eps > 0):
        raise ValueError(f"eps must be a finite number > 0, got {eps!r}")
    n_supports = sum(math.comb(X.shape[1], s) for s in range(1, k + 1))
    if n_supports > 20_000:
        raise ValueError(f"limit reached: {n_supports} supports of size <= {k}; lower k (cap 20000)")
    models = []
    for size in range(1, k + 1):
        for support in itertools.combinations(range(X.shape[1]), size):
            cols = list(support)
            fit = LogisticRegression(C=C, max_iter=1000).fit(X[:, cols], y)
            p = np.clip(fit.predict_proba(X[:, cols])[:, 1], 1e-12, 1 - 1e-12)
            loss = float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
            w = np.zeros(X.shape[1])
            w[cols] = fit.coef_[0]
            models.append(LinearModel(support, w, float(fit.intercept_[0]), loss))
    best = min(m.loss for m in models)
    return sorted((m for m in models if m.loss <= (1 + eps) * best), key=lambda m: m.loss)


def ridge_rashomon_ellipsoid(
    X: Any, y: Any, alpha: float, eps: float
) -> tuple[np.ndarray, np.ndarray, float]:
    """``(w*, H, r)`` with R(eps) = {w : (w - w*)^T H (w - w*) <= r}, r = eps L* (exact for ridge)."""
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    if X.ndim != 2 or y.shape != (X.shape[0],):
        raise ValueError(f"X must be (n, d) and y (n,), got {X.shape} and {y.shape}")
    if not (alpha > 0 and eps > 0):
        raise ValueError(f"alpha and eps must be > 0, got {alpha!r}, {eps!r}")
    n = X.shape[0]
    H = X.T @ X / n + alpha * np.eye(X.shape[1])
    w = np.linalg.solve(H, X.T @ y / n)
    loss = float(np.sum((X @ w - y) ** 2) / n + alpha * w @ w)
    return w, H, eps * loss


def ridge_loss(X: np.ndarray, y: np.ndarray, w: np.ndarray, alpha: float) -> float:
    """L(w) = ||Xw - y||^2 / n + alpha ||w||^2."""
    return float(np.sum((X @ w - y) ** 2) / X.shape[0] + alpha * w @ w)
