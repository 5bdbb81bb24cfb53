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

from icml26.bad_triangles.graph import SignedGraph

__all__ = ["bad_triangles", "is_transversal", "iter_bad_triangles", "uncovered_triangles"]


def _check_graph(graph: SignedGraph) -> None:
    if not isinstance(graph, SignedGraph):
        raise TypeError(
            f"graph must be a SignedGraph (see from_networkx / from_edges), got {type(graph).__name__}"
        )


def iter_bad_triangles(graph: SignedGraph, chunk_size: int = 65536) -> Iterator[np.ndarray]:
    """Stream the bad triangles of ``graph`` in chunks of at most ``chunk_size`` rows ``[n, p1, p2]``.

    Memory is ``O(m + chunk_size)``, so graphs with more bad triangles than fit in memory can be
    processed chunk by chunk.
    """
    _check_graph(graph)
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"chunk_size must be a positive integer, got {chunk_size!r}")
    pos = [graph.positive_neighbours(a) for a in range(graph.n)]
    eid = graph.edge_id
    buf: list[tuple[int, int, int]] = []
    negatives = np.flatnonzero(graph.sign < 0)
    for e, a, b in zip(negatives.tolist(), graph.u[negatives].tolist(), graph.v[negatives].tolist()):
        small, large = (pos[a], pos[b]) if len(pos[a]) <= len(pos[b]) else (pos[b], pos[a])
        for c in small & large:
            buf.append((e, eid(a, c), eid(b, c)))
        if len(buf) >= chunk_size:
            yield np.asarray(buf[:chunk_size], dtype=np.int64)
            buf = buf[chunk_size:]
    while buf:
        yield np.asarray(buf[:chunk_size], dtype=np.int64).reshape(-1, 3)
        buf = buf[chunk_size:]


def bad_triangles(graph: SignedGraph) -> np.ndarray:
    """All bad triangles of ``graph`` as an int array ``(T, 3)`` of edge ids ``[n, p1, p2]``."""
    chunks = list(iter_bad_triangles(graph))
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
