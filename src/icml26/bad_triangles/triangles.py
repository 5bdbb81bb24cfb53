"""Bad triangles: enumeration and the transversal check (paper Sec. 2).

A *bad triangle* is a triangle with exactly one negative edge ``n`` and two positive edges ``p1, p2``.
Because it has exactly one negative edge, listing, for every negative edge ``{a, b}``, the common positive
neighbours of ``a`` and ``b`` finds every bad triangle exactly once. The work is
``sum over negative {a,b} of min(deg+(a), deg+(b)) = O(m^1.5)`` (neighbour-set intersection).

Triangles are returned as an int array ``(T, 3)`` of edge ids ``[n, p1, p2]``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import numpy as np
import scipy.sparse as sp

from icml26.bad_triangles.graph import SignedGraph

__all__ = ["bad_triangles", "is_transversal", "iter_bad_triangles", "uncovered_triangles"]


def _check_graph(graph: SignedGraph) -> None:
    if not isinstance(graph, SignedGraph):
        raise TypeError(
            f"graph must be a SignedGraph (see from_networkx / from_edges), got {type(graph).__name__}"
        )


def iter_bad_triangles(graph: SignedGraph, chunk_size: int = 65536) -> Iterator[np.ndarray]:
    """Stream the bad triangles of ``graph`` in chunks of at most ``chunk_size`` rows ``[n, p1, p2]``.

    For a block of negative edges ``{a, b}`` (``a < b``, in edge-id order), the common positive
    neighbours ``c`` are the nonzeros of the elementwise product of rows ``a`` and ``b`` of the positive
    adjacency (``scipy.sparse``), in increasing ``c``; ``p1 = {a, c}``, ``p2 = {b, c}``. Memory is
    ``O(m + chunk_size + the block's positive rows)``.
    """
    _check_graph(graph)
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"chunk_size must be a positive integer, got {chunk_size!r}")
    negatives = np.flatnonzero(graph.sign < 0)
    if negatives.size == 0 or not np.any(graph.sign > 0):
        return
    adj = graph.positive_csr
    binary = sp.csr_matrix((np.ones(adj.nnz, dtype=np.int8), adj.indices, adj.indptr), shape=adj.shape)
    degree = np.diff(adj.indptr)
    codes = np.repeat(np.arange(graph.n, dtype=np.int64), degree) * graph.n + adj.indices
    # blocks of negative edges whose two rows hold about 4 * chunk_size nonzeros together
    cost = np.cumsum(degree[graph.u[negatives]] + degree[graph.v[negatives]])
    budget = max(4 * chunk_size, 1 << 18)
    cuts = np.searchsorted(cost, np.arange(budget, cost[-1] + budget, budget), side="right")
    start = 0
    pending = np.zeros((0, 3), dtype=np.int64)
    for stop in np.unique(np.concatenate([cuts, [negatives.size]])):
        if stop <= start:
            continue
        block = negatives[start:stop]
        a, b = graph.u[block], graph.v[block]
        common = binary[a].multiply(binary[b]).tocsr()
        common.sort_indices()
        row = np.repeat(np.arange(block.size), np.diff(common.indptr))
        c = common.indices.astype(np.int64)
        p1 = adj.data[np.searchsorted(codes, a[row] * graph.n + c)] - 1
        p2 = adj.data[np.searchsorted(codes, b[row] * graph.n + c)] - 1
        rows = np.column_stack([block[row], p1, p2]).astype(np.int64)
        pending = np.concatenate([pending, rows]) if pending.size else rows
        while pending.shape[0] >= chunk_size:
            yield pending[:chunk_size]
            pending = pending[chunk_size:]
        start = stop
    if pending.shape[0]:
        yield pending


def bad_triangles(graph: SignedGraph) -> np.ndarray:
    """All bad triangles of ``graph`` as an int array ``(T, 3)`` of edge ids ``[n, p1, p2]``.

    Rows are ordered by the negative edge's id, then by the third node ``c``.
    """
    chunks = list(iter_bad_triangles(graph, chunk_size=1 << 22))
    return np.concatenate(chunks) if chunks else np.zeros((0, 3), dtype=np.int64)


def _as_mask(graph: SignedGraph, edge_ids: Iterable[int] | np.ndarray) -> np.ndarray:
    ids = np.asarray(list(edge_ids) if not isinstance(edge_ids, np.ndarray) else edge_ids, dtype=np.int64)
    if ids.size and (ids.min() < 0 or ids.max() >= graph.m):
        raise ValueError(f"edge ids must lie in [0, {graph.m}), got values in [{ids.min()}, {ids.max()}]")
    mask = np.zeros(graph.m, dtype=bool)
    mask[ids] = True
    return mask


def uncovered_triangles(
    graph: SignedGraph, edge_ids: Iterable[int] | np.ndarray, triangles: np.ndarray | None = None
) -> np.ndarray:
    """Rows of ``triangles`` (default: all bad triangles) that no edge of ``edge_ids`` hits."""
    _check_graph(graph)
    tri = bad_triangles(graph) if triangles is None else np.asarray(triangles, dtype=np.int64).reshape(-1, 3)
    mask = _as_mask(graph, edge_ids)
    return tri[~mask[tri].any(axis=1)]


def is_transversal(
    graph: SignedGraph, edge_ids: Iterable[int] | np.ndarray, triangles: np.ndarray | None = None
) -> bool:
    """True when the edge set hits every bad triangle (removing it leaves no bad triangle)."""
    return uncovered_triangles(graph, edge_ids, triangles).shape[0] == 0
