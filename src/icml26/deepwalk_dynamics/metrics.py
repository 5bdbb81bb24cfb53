"""Per-snapshot metrics of an embedding U (n × d): norm, alignment, principal angles, trivial energy, clustering."""

from __future__ import annotations

import numpy as np
from scipy.linalg import subspace_angles
from sklearn.cluster import KMeans
from sklearn.metrics import adjusted_rand_score, normalized_mutual_info_score


def _check_embedding(u: np.ndarray, n: int | None = None) -> np.ndarray:
    u = np.asarray(u, dtype=float)
    if u.ndim != 2 or (n is not None and u.shape[0] != n) or not np.all(np.isfinite(u)):
        raise ValueError(
            f"U must be a finite n × d array{f' with n = {n}' if n else ''}, got shape {u.shape}"
        )
    return u


def mean_row_norm(u: np.ndarray) -> float:
    """(1/n) Σ_w ‖u_w‖."""
    return float(np.linalg.norm(_check_embedding(u), axis=1).mean())


def alignment(u: np.ndarray, basis: np.ndarray) -> float:
    """‖Qᵀ U‖²_F / ‖U‖²_F: the share of U's energy in span(Q) (Q orthonormal, n × k); in [0, 1]."""
    basis = np.asarray(basis, dtype=float)
    u = _check_embedding(u, basis.shape[0])
    total = float((u**2).sum())
    if total == 0:
        raise ValueError("U is zero: alignment is undefined")
    return float(((basis.T @ u) ** 2).sum() / total)


def sin_theta(u: np.ndarray, basis: np.ndarray) -> float:
    """sin of the largest principal angle between U's top-k left singular space and span(Q) (k = Q's rank)."""
    basis = np.asarray(basis, dtype=float)
    u = _check_embedding(u, basis.shape[0])
    k = basis.shape[1]
    left = np.linalg.svd(u, full_matrices=False)[0][:, :k]
    return float(np.sin(subspace_angles(left, basis).max()))


def trivial_energy(u: np.ndarray, direction: np.ndarray) -> float:
    """Share of U's energy along the unit vector ``direction`` (the trivial D^{1/2}φ₁ direction)."""
    direction = np.asarray(direction, dtype=float).ravel()
    u = _check_embedding(u, direction.size)
    return float((direction @ u) @ (direction @ u) / (u**2).sum())


def smoothed_peak(values: np.ndarray, width: int = 5) -> float:
    """The largest centred moving average of ``width`` consecutive snapshots' ``values`` (all of them when
    fewer): a peak less flattering than the plain maximum to a noisy trajectory."""
    v = np.asarray(values, dtype=float)
    if v.ndim != 1 or v.size < 1 or not np.all(np.isfinite(v)):
        raise ValueError(f"values must be a non-empty 1-D array of finite numbers, got shape {v.shape}")
    if isinstance(width, bool) or not isinstance(width, int | np.integer) or width < 1:
        raise ValueError(f"width must be an integer >= 1, got {width!r}")
    w = min(int(width), v.size)
    return float(np.convolve(v, np.full(w, 1.0 / w), mode="valid").max())


def cluster_scores(u: np.ndarray, labels: np.ndarray, seed: int = 0, n_init: int = 4) -> dict[str, float]:
    """ARI and NMI of k-means (K = number of true blocks) on U, raw and with rows normalised to unit length."""
    labels = np.asarray(labels)
    u = _check_embedding(u, labels.size)
    k = int(np.unique(labels).size)
    if k < 2:
        raise ValueError("labels must name at least two blocks for clustering scores")
    out: dict[str, float] = {}
    rows = np.linalg.norm(u, axis=1, keepdims=True)
    for suffix, x in (("", u), ("_rownorm", u / np.where(rows > 0, rows, 1.0))):
        pred = KMeans(k, n_init=n_init, random_state=seed).fit_predict(x)
        out["ari" + suffix] = float(adjusted_rand_score(labels, pred))
        out["nmi" + suffix] = float(normalized_mutual_info_score(labels, pred))
    return out
