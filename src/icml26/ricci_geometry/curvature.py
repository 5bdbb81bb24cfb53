"""Discrete Ricci curvatures of an unweighted graph's edges (the paper's background on discrete Ricci curvature).

All kinds return a sparse ``(n, n)`` matrix with the adjacency's sparsity pattern, holding the curvature
``κ(x, y)`` of every edge in both ``(x, y)`` and ``(y, x)`` (zeros are stored explicitly). Degrees exclude
self; ``t(x, y)`` is the number of triangles on the edge.

- ``forman``:            ``F(x, y) = 4 − d_x − d_y``
- ``augmented_forman``:  ``AF(x, y) = 4 − d_x − d_y + 3 t``
- ``approx_ollivier``:   the mean of Jost–Liu's lower bound and the triangle upper bound of the non-lazy
  Ollivier curvature (Tian et al., 2023):
  ``½ t/(d_x∨d_y) − ½[(1 − 1/d_x − 1/d_y − t/(d_x∧d_y))₊ + (1 − 1/d_x − 1/d_y − t/(d_x∨d_y))₊ − t/(d_x∨d_y)]``
- ``ollivier``:          ``κ(x, y) = 1 − W₁(μ_x, μ_y)`` with ``μ_x`` uniform on the neighbours of ``x``
  (non-lazy, α = 0), hop-distance cost, exact optimal transport (``ot.emd2``).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from icml26.common import progress
from icml26.ricci_geometry.graphs import check_adjacency, hop_distances

CURVATURES = ("forman", "augmented_forman", "approx_ollivier", "ollivier")


def _edge_arrays(A: sp.csr_matrix) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Row index, column index of every stored entry (CSR order), and node degrees."""
    deg = np.diff(A.indptr)
    rows = np.repeat(np.arange(A.shape[0]), deg)
    return rows, A.indices, deg.astype(np.float64)


def triangles_per_edge(A: sp.csr_matrix) -> np.ndarray:
    """Number of triangles ``t(x, y) = (A²)_{xy}`` on every stored entry of ``A`` (CSR order)."""
    rows, cols, _ = _edge_arrays(A)
    A2 = (A @ A).tocsr()
    return np.asarray(A2[rows, cols]).ravel()


def _ollivier_exact(A: sp.csr_matrix, D: np.ndarray | None) -> np.ndarray:
    import ot

    if D is None:
        D = hop_distances(A)
    elif D.shape != A.shape:
        raise ValueError(f"distances must have shape {A.shape} (n, n), got {D.shape}")
    rows, cols, deg = _edge_arrays(A)
    values = np.empty(rows.size)
    upper = np.flatnonzero(rows < cols)
    kappa = {}
    for e in progress(upper, "Ollivier curvature (exact EMD)"):
        x, y = rows[e], cols[e]
        nx_ = A.indices[A.indptr[x] : A.indptr[x + 1]]
        ny_ = A.indices[A.indptr[y] : A.indptr[y + 1]]
        a = np.full(nx_.size, 1.0 / deg[x])
        b = np.full(ny_.size, 1.0 / deg[y])
        kappa[(x, y)] = 1.0 - float(ot.emd2(a, b, D[np.ix_(nx_, ny_)]))
    for e in range(rows.size):
        x, y = rows[e], cols[e]
        values[e] = kappa[(x, y)] if x < y else kappa[(y, x)]
    return values


def curvature(
    G: object, kind: str = "augmented_forman", distances: np.ndarray | None = None
) -> sp.csr_matrix:
    """Edge curvature ``κ`` of an unweighted undirected graph, vectorised over edges.

    ``G``: ``(n, n)`` scipy sparse / dense 0/1 adjacency or an unweighted networkx Graph (rows in ``sorted(G)``
    order, the library's convention; weighted graphs are rejected).
    ``kind``: one of :data:`CURVATURES`. ``distances``: optional ``(n, n)`` hop distances, reused by
    ``ollivier`` (computed when omitted). Returns a CSR matrix with ``G``'s pattern holding ``κ``.
    """
    if not isinstance(kind, str) or kind not in CURVATURES:
        raise ValueError(f"kind must be one of {CURVATURES}, got {kind!r}")
    A = check_adjacency(G, "G")
    rows, cols, deg = _edge_arrays(A)
    dx, dy = deg[rows], deg[cols]
    if kind == "forman":
        values = 4.0 - dx - dy
    elif kind == "augmented_forman":
        values = 4.0 - dx - dy + 3.0 * triangles_per_edge(A)
    elif kind == "approx_ollivier":
        t = triangles_per_edge(A)
        dmax, dmin = np.maximum(dx, dy), np.minimum(dx, dy)
        base = 1.0 - 1.0 / dx - 1.0 / dy
        lower = -np.maximum(base - t / dmin, 0.0) - np.maximum(base - t / dmax, 0.0) + t / dmax
        upper = t / dmax
        values = 0.5 * (upper + lower)
    else:
        values = _ollivier_exact(A, distances)
    K = sp.csr_matrix((values, A.indices.copy(), A.indptr.copy()), shape=A.shape)
    return K
