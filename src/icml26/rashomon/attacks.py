"""Exact L-infinity evasion of a single model (the individual-model level of the paper).

Tree: the minimal L-infinity perturbation that changes a tree's decision on ``x`` is the distance to
the nearest leaf box of the other label, ``min_leaf max_j max(lo_j - x_j, x_j - hi_j, 0)`` (exact for a
single tree; the predecessor framework's tree attack). Linear model ``w.x + b``: ``|w.x + b| / ||w||_1``
(closed form, the dual norm of L-infinity). Adversarial accuracy at ``eps``: the share of points
classified correctly and at distance ``> eps`` from the other label. Features are min-max scaled, so
``eps`` is a fraction of each feature's training range.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from icml26.rashomon.trees import BoxModel, check_labels

SCALE_RANGE = (-1.0, 2.0)  # features beyond this are not min-max scaled: eps would mean little


def warn_unscaled(X: np.ndarray) -> None:
    """Warn when ``X`` lies far outside [0, 1]: attack budgets are fractions of each feature's range."""
    if X.size and (X.min() < SCALE_RANGE[0] or X.max() > SCALE_RANGE[1]):
        warnings.warn(
            f"features span [{X.min():.3g}, {X.max():.3g}], far outside [0, 1]: the L-inf budget eps is in"
            " min-max units (scale the features with min_max_scale first)",
            stacklevel=3,
        )


def _check_points(X: Any, model: BoxModel) -> np.ndarray:
    Xa = np.asarray(X, dtype=float)
    if Xa.ndim != 2 or Xa.shape[1] != model.lo.shape[1]:
        raise ValueError(f"X must have shape (n, {model.lo.shape[1]}) to match the model, got {Xa.shape}")
    if not np.isfinite(Xa).all():
        raise ValueError("X must be finite")
    warn_unscaled(Xa)
    return Xa


def _check_eps(eps: Any) -> float:
    if isinstance(eps, bool) or not isinstance(eps, int | float) or not math.isfinite(eps) or eps < 0:
        raise ValueError(f"eps (the L-infinity budget) must be a finite number >= 0, got {eps!r}")
    return float(eps)


def box_distances(X: np.ndarray, model: BoxModel) -> np.ndarray:
    """``(n, L)`` L-infinity distance from each point to each leaf box (``inf`` for an empty box)."""
    X = _check_points(X, model)
    gap = np.maximum(np.maximum(model.lo[None] - X[:, None], X[:, None] - model.hi[None]), 0.0)
    dist = gap.max(axis=2)
    empty = np.any(model.lo > model.hi, axis=1)
    dist[:, empty] = np.inf
    return dist


def evasion_distance(X: Any, y: Any, model: BoxModel) -> np.ndarray:
    """``(n,)`` minimal L-infinity perturbation that makes ``model`` label ``x`` other than ``y``
    (0 where it already does), vectorised over points and leaves."""
    X = _check_points(X, model)
    y = check_labels(y, X.shape[0])
    dist = box_distances(X, model)
    wrong = model.labels[None, :] != y[:, None]
    return np.where(wrong, dist, np.inf).min(axis=1)


def evasion_distance_loop(X: Any, y: Any, model: BoxModel) -> np.ndarray:
    """The same as :func:`evasion_distance`, one point and one leaf at a time (the benchmark's reference)."""
    X = _check_points(X, model)
    y = check_labels(y, X.shape[0])
    out = np.full(X.shape[0], np.inf)
    for i, x in enumerate(X):
        for lo, hi, label in zip(model.lo, model.hi, model.labels, strict=True):
            if label == y[i] or np.any(lo > hi):
                continue
            out[i] = min(out[i], float(np.max(np.maximum(np.maximum(lo - x, x - hi), 0.0))))
    return out


def adversarial_examples(X: Any, y: Any, model: BoxModel, eps: float) -> np.ndarray:
    """The white-box attack on ``model``: each point within ``eps`` of a box of the other label moves to
    its nearest point in the nearest such box (the projection); other points stay."""
    X = _check_points(X, model)
    y = check_labels(y, X.shape[0])
    eps = _check_eps(eps)
    dist = np.where(model.labels[None, :] != y[:, None], box_distances(X, model), np.inf)
    target = dist.argmin(axis=1)
    reach = dist[np.arange(X.shape[0]), target] <= eps
    moved = np.clip(X, model.lo[target], model.hi[target])
    return np.where(reach[:, None], moved, X)


def adversarial_accuracy(X: Any, y: Any, model: BoxModel, eps: float) -> float:
    """Share of points that ``model`` labels correctly under every L-infinity perturbation of size <= eps."""
    return float(np.mean(evasion_distance(X, y, model) > _check_eps(eps)))


def linear_evasion_distance(X: Any, y: Any, w: Any, b: float) -> np.ndarray:
    """``(n,)`` minimal L-infinity perturbation changing the label of ``1[w.x + b > 0]`` away from ``y``:
    ``|w.x + b| / ||w||_1`` for correctly labelled points, 0 for misclassified ones."""
    w = np.asarray(w, dtype=float).ravel()
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] != w.size:
        raise ValueError(f"X must have shape (n, {w.size}) to match w, got {X.shape}")
    y = check_labels(y, X.shape[0])
    norm = np.abs(w).sum()
    if not norm > 0:
        raise ValueError("w must have a nonzero entry (a constant model cannot be evaded)")
    margin = X @ w + float(b)
    correct = (margin > 0) == (y == 1)
    return np.where(correct, np.abs(margin) / norm, 0.0)
