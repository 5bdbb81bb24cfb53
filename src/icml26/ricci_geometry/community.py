"""Community structure of the class partition on layer graphs (the paper's community-structure experiments).

Measures how well the true classes form communities of a kNN graph: modularity (networkx), normalised
cut (½ · networkx ``normalized_cut_size``) and the curvature gap
``(κ̄_within − κ̄_between) / sqrt(½ (σ²_within + σ²_between))`` over within- and between-class edges.
"""

from __future__ import annotations

import networkx as nx
import numpy as np
import scipy.sparse as sp

from icml26.ricci_geometry.curvature import CURVATURES, curvature
from icml26.ricci_geometry.graphs import check_adjacency


def _check_labels(y: object, n: int) -> np.ndarray:
    y = np.asarray(y)
    if y.shape != (n,):
        raise ValueError(f"labels y must have shape (n,) = ({n},) matching the graph, got {y.shape}")
    if np.unique(y).size != 2:
        raise ValueError(f"labels y must hold exactly 2 classes, got {np.unique(y).size}")
    return y


def _partition(y: np.ndarray) -> list[set[int]]:
    return [set(np.flatnonzero(y == c).tolist()) for c in np.unique(y)]


def class_modularity(A: sp.spmatrix, y: np.ndarray) -> float:
    """Newman modularity of the two-class partition ``y`` (shape ``(n,)``) on graph ``A``."""
    A = check_adjacency(A)
    y = _check_labels(y, A.shape[0])
    return float(nx.community.modularity(nx.from_scipy_sparse_array(A), _partition(y)))


def normalized_cut(A: sp.spmatrix, y: np.ndarray) -> float:
    """``½ · cut(S, T) (1/vol(S) + 1/vol(T))`` of the class partition; lower = more separated."""
    A = check_adjacency(A)
    y = _check_labels(y, A.shape[0])
    S, T = _partition(y)
    return 0.5 * float(nx.normalized_cut_size(nx.from_scipy_sparse_array(A), S, T))


def curvature_gap(A: sp.spmatrix, y: np.ndarray, kind: str = "approx_ollivier") -> float:
    """Curvature gap between within-class and between-class edges (``NaN`` if either set is empty)."""
    if not isinstance(kind, str) or kind not in CURVATURES:
        raise ValueError(f"kind must be one of {CURVATURES}, got {kind!r}")
    A = check_adjacency(A)
    y = _check_labels(y, A.shape[0])
    K = curvature(A, kind)  # same CSR pattern as A, zero curvatures stored explicitly
    rows = np.repeat(np.arange(A.shape[0]), np.diff(A.indptr))
    upper = rows < A.indices
    same = (y[rows] == y[A.indices])[upper]
    kappa = K.data[upper]
    within, between = kappa[same], kappa[~same]
    if within.size == 0 or between.size == 0:
        return float("nan")
    pooled = np.sqrt(0.5 * (within.var() + between.var()))
    if pooled == 0:
        return float("nan")
    return float((within.mean() - between.mean()) / pooled)
