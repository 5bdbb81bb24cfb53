"""Signed graphs: the input of Bad Triangle Transversal (Adriaens & Tatti, ICML 2026, Sec. 2).

A signed graph ``G = (V, E+, E-)`` is simple and undirected; every edge carries a sign in {+1, -1} and a
non-negative weight (1 when unweighted). Edges are stored as parallel arrays indexed by an *edge id*
``0..m-1``, which is what every other module of this package works with: transversals are sets of edge
ids, LP solutions are vectors over edge ids.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations
from typing import Any

import networkx as nx
import numpy as np
import scipy.sparse as sp

from icml26.common.graphs import node_order

__all__ = ["SignedGraph", "complete_from_positive", "from_arrays", "from_edges", "from_networkx"]


@dataclass(frozen=True, eq=False)
class SignedGraph:
    """A simple undirected signed graph with non-negative edge weights.

    Attributes:
        nodes: node labels, position = node index.
        u, v: int arrays ``(m,)`` of node indices with ``u < v``.
        sign: int8 array ``(m,)`` with values +1 / -1.
        weight: float array ``(m,)``, finite and ``>= 0``.

    Build it with :func:`from_networkx`, :func:`from_edges` or :func:`complete_from_positive`; they
    validate the input once.
    """

    nodes: tuple[Hashable, ...]
    u: np.ndarray
    v: np.ndarray
    sign: np.ndarray
    weight: np.ndarray

    # The lookups below are built on first use (a graph of 10^6 edges that only goes through the
    # vectorised paths never pays for a Python dict of its edges).
    @cached_property
    def _eid(self) -> dict[tuple[int, int], int]:
        return {(int(a), int(b)): e for e, (a, b) in enumerate(zip(self.u.tolist(), self.v.tolist()))}

    @cached_property
    def _pos_nbrs(self) -> list[set[int]]:
        pos: list[set[int]] = [set() for _ in self.nodes]
        for a, b, s in zip(self.u.tolist(), self.v.tolist(), self.sign.tolist()):
            if s > 0:
                pos[a].add(b)
                pos[b].add(a)
        return pos

    @cached_property
    def positive_csr(self) -> sp.csr_matrix:
        """The positive edges as a symmetric ``(n, n)`` CSR matrix whose entry ``(a, c)`` is 1 + the edge id
        (sorted column indices; row ``a`` lists the positive neighbours of node index ``a``)."""
        pos = np.flatnonzero(self.sign > 0)
        rows = np.concatenate([self.u[pos], self.v[pos]])
        cols = np.concatenate([self.v[pos], self.u[pos]])
        data = np.concatenate([pos, pos]).astype(np.int64) + 1
        a = sp.csr_matrix((data, (rows, cols)), shape=(self.n, self.n))
        a.sort_indices()
        return a

    @property
    def n(self) -> int:
        """Number of nodes."""
        return len(self.nodes)

    @property
    def m(self) -> int:
        """Number of edges (positive and negative)."""
        return int(self.u.shape[0])

    @property
    def is_weighted(self) -> bool:
        """True unless every weight equals 1."""
        return bool(np.any(self.weight != 1.0))

    def edge_id(self, a: int, b: int) -> int:
        """Edge id of the pair of node *indices* ``{a, b}``; ``-1`` when they are not adjacent."""
        return self._eid.get((a, b) if a < b else (b, a), -1)

    def positive_neighbours(self, a: int) -> set[int]:
        """Node indices joined to node index ``a`` by a positive edge (do not mutate)."""
        return self._pos_nbrs[a]

    def is_complete(self) -> bool:
        """True when every pair of distinct nodes is an edge (the cluster-editing setting)."""
        return self.m == self.n * (self.n - 1) // 2

    def cost(self, edge_ids: Iterable[int]) -> float:
        """Total weight ``w(F)`` of a set of edge ids."""
        ids = np.fromiter(edge_ids, dtype=np.int64)
        return float(self.weight[ids].sum()) if ids.size else 0.0

    def edge_labels(self, edge_ids: Iterable[int]) -> frozenset[tuple[Hashable, Hashable]]:
        """The node-label pairs ``(a, b)`` of a set of edge ids."""
        return frozenset((self.nodes[int(self.u[e])], self.nodes[int(self.v[e])]) for e in edge_ids)

    def sign_matrix(self) -> np.ndarray:
        """Dense ``(n, n)`` int8 matrix: +1 / -1 on edges, 0 on non-edges and the diagonal."""
        s = np.zeros((self.n, self.n), dtype=np.int8)
        s[self.u, self.v] = self.sign
        s[self.v, self.u] = self.sign
        return s

    def to_networkx(self) -> nx.Graph:
        """A ``networkx.Graph`` with edge attributes ``sign`` and ``weight``."""
        g = nx.Graph()
        g.add_nodes_from(self.nodes)
        for a, b, s, w in zip(self.u.tolist(), self.v.tolist(), self.sign.tolist(), self.weight.tolist()):
            g.add_edge(self.nodes[a], self.nodes[b], sign=int(s), weight=float(w))
        return g


def _check_sign(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise TypeError(f"sign of {where} must be the number +1 or -1, got {value!r}")
    if value not in (1, -1):
        raise ValueError(f"sign of {where} must be +1 or -1, got {value!r}")
    return int(value)


def _check_weight(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise TypeError(f"weight of {where} must be a real number, got {value!r}")
    w = float(value)
    if not math.isfinite(w) or w < 0:
        raise ValueError(f"weight of {where} must be finite and >= 0, got {value!r}")
    return w


def _build(nodes: Sequence[Hashable], rows: Iterable[tuple[Hashable, Hashable, Any, Any]]) -> SignedGraph:
    index = {label: i for i, label in enumerate(nodes)}
    if len(index) != len(nodes):
        raise ValueError("node labels must be distinct")
    seen: set[tuple[int, int]] = set()
    us: list[int] = []
    vs: list[int] = []
    signs: list[int] = []
    weights: list[float] = []
    for a, b, s, w in rows:
        where = f"edge ({a!r}, {b!r})"
        if a == b:
            raise ValueError(f"self-loop at node {a!r}: a signed graph here must be simple (no self-loops)")
        if a not in index or b not in index:
            raise ValueError(f"{where} uses a node that is not in the node list")
        i, j = index[a], index[b]
        key = (i, j) if i < j else (j, i)
        if key in seen:
            raise ValueError(f"{where} appears twice: a signed graph here must be simple")
        seen.add(key)
        us.append(key[0])
        vs.append(key[1])
        signs.append(_check_sign(s, where))
        weights.append(_check_weight(w, where))
    return SignedGraph(
        nodes=tuple(nodes),
        u=np.asarray(us, dtype=np.int64),
        v=np.asarray(vs, dtype=np.int64),
        sign=np.asarray(signs, dtype=np.int8),
        weight=np.asarray(weights, dtype=np.float64),
    )


def from_arrays(
    u: np.ndarray, v: np.ndarray, sign: np.ndarray, weight: np.ndarray | None = None, n: int | None = None
) -> SignedGraph:
    """Signed graph on nodes ``0..n-1`` from parallel arrays, validated with numpy (for large graphs).

    The same graph as ``from_edges(zip(u, v, sign, weight), nodes=range(n))``: edge ``e`` joins
    ``min(u[e], v[e])`` and ``max(u[e], v[e])``; signs must be +1 / -1, weights finite and ``>= 0``
    (default 1), no self-loops and no pair twice. ``n`` defaults to ``max(u, v) + 1``.
    """
    arrays = []
    for name, arr in (("u", u), ("v", v)):
        a = np.asarray(arr)
        if a.ndim != 1 or (a.size and not np.issubdtype(a.dtype, np.integer)):
            raise ValueError(
                f"{name} must be a 1-d integer array of node indices, got {a.dtype} shape {a.shape}"
            )
        arrays.append(a.astype(np.int64))
    a, b = arrays
    s = np.asarray(sign)
    w = np.ones(a.size) if weight is None else np.asarray(weight, dtype=np.float64)
    if not (b.shape == a.shape == s.shape == w.shape):
        raise ValueError(
            f"u, v, sign and weight must have one entry per edge, got {a.shape}, {b.shape}, {s.shape}, {w.shape}"
        )
    n = int(max(a.max(initial=-1), b.max(initial=-1)) + 1) if n is None else n
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 0:
        raise ValueError(f"n must be a non-negative integer, got {n!r}")
    if a.size and (min(a.min(), b.min()) < 0 or max(a.max(), b.max()) >= n):
        raise ValueError(f"node indices must lie in [0, {n})")
    if np.any(a == b):
        e = int(np.flatnonzero(a == b)[0])
        raise ValueError(f"self-loop at node {int(a[e])}: a signed graph here must be simple (no self-loops)")
    if s.size and not np.all((s == 1) | (s == -1)):
        raise ValueError("sign must hold only +1 and -1")
    if not np.all(np.isfinite(w)) or np.any(w < 0):
        raise ValueError("weight must be finite and >= 0")
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    if np.unique(lo * max(n, 1) + hi).size != lo.size:
        raise ValueError("an edge appears twice: a signed graph here must be simple")
    return SignedGraph(tuple(range(n)), lo, hi, s.astype(np.int8), w.copy())


def from_networkx(graph: nx.Graph, sign: str = "sign", weight: str | None = "weight") -> SignedGraph:
    """Signed graph from a ``networkx.Graph`` whose edges carry a ``sign`` attribute (+1 / -1).

    Args:
        graph: an undirected simple ``networkx.Graph`` (not a multigraph, not directed).
        sign: name of the edge attribute holding +1 / -1.
        weight: name of the edge attribute holding weights ``>= 0`` (default ``"weight"``, networkx's
            convention); edges without it weigh 1 only when *no* edge has it (a graph with the attribute
            on some edges and not others is rejected). ``None`` = all weights 1, ignoring any attribute.

    Node ``i`` is the ``i``-th of ``sorted(graph)`` (the library's node order, ``icml26.common.graphs``)
    and edges are numbered in order of their (smaller, larger) node index: the same graph built in another
    insertion order gives the same signed graph.
    """
    if not isinstance(graph, nx.Graph) or graph.is_directed() or graph.is_multigraph():
        raise TypeError(f"graph must be an undirected simple networkx.Graph, got {type(graph).__name__}")
    if weight is not None and not isinstance(weight, str):
        raise TypeError(f"weight must be an edge attribute name (str) or None, got {weight!r}")
    edges = list(graph.edges(data=True))
    weighted = [weight is not None and weight in data for _, _, data in edges]
    if any(weighted) and not all(weighted):
        a, b, _ = edges[weighted.index(False)]
        raise ValueError(
            f"edge ({a!r}, {b!r}) has no {weight!r} attribute while other edges have one; give every edge "
            f"a weight, or pass weight=None to ignore weights"
        )
    rows = []
    for (a, b, data), has_weight in zip(edges, weighted):
        if sign not in data:
            raise ValueError(f"edge ({a!r}, {b!r}) has no {sign!r} attribute; every edge needs a sign +1/-1")
        rows.append((a, b, data[sign], data[weight] if has_weight else 1.0))
    nodes = node_order(graph)  # the library's node order sorted(G), not insertion order
    index = {x: i for i, x in enumerate(nodes)}
    rows.sort(key=lambda r: tuple(sorted((index[r[0]], index[r[1]]))))  # edge ids in node-index order too
    return _build(nodes, rows)


def from_edges(edges: Iterable[Sequence[Any]], nodes: Sequence[Hashable] | None = None) -> SignedGraph:
    """Signed graph from rows ``(a, b, sign)`` or ``(a, b, sign, weight)``.

    Args:
        edges: iterable of 3- or 4-tuples; ``sign`` in {+1, -1}, ``weight >= 0`` (default 1).
        nodes: node labels (adds isolated nodes and fixes the order); default = order of appearance.
    """
    rows = []
    for row in edges:
        if not isinstance(row, Sequence) or len(row) not in (3, 4):
            raise ValueError(f"each edge must be (a, b, sign) or (a, b, sign, weight), got {row!r}")
        rows.append((row[0], row[1], row[2], row[3] if len(row) == 4 else 1.0))
    if nodes is None:
        order: dict[Hashable, None] = {}
        for a, b, _, _ in rows:
            order.setdefault(a)
            order.setdefault(b)
        nodes = list(order)
    return _build(list(nodes), rows)


def complete_from_positive(
    graph: nx.Graph | None = None,
    *,
    nodes: Sequence[Hashable] | None = None,
    positive_edges: Iterable[tuple[Hashable, Hashable]] = (),
) -> SignedGraph:
    """Complete signed graph: the given edges are positive, every other pair of nodes is negative.

    This is the cluster-editing view of an unsigned graph (Sec. 2 of the paper): pass either a
    ``networkx.Graph`` (its edges are the positive pairs; nodes in ``sorted(graph)`` order, the library's
    convention) or ``nodes`` with ``positive_edges`` (nodes in the order given).
    """
    if graph is not None:
        if not isinstance(graph, nx.Graph) or graph.is_directed() or graph.is_multigraph():
            raise TypeError(f"graph must be an undirected simple networkx.Graph, got {type(graph).__name__}")
        if nodes is not None:
            raise ValueError("pass either graph or nodes/positive_edges, not both")
        nodes = node_order(graph)  # sorted(G): the library's node order (icml26.common.graphs)
        positive_edges = list(graph.edges())
    if nodes is None:
        raise ValueError("complete_from_positive needs a networkx graph or a list of nodes")
    nodes = list(nodes)
    index = {label: i for i, label in enumerate(nodes)}
    pos: set[tuple[int, int]] = set()
    for a, b in positive_edges:
        if a == b:
            raise ValueError(f"self-loop at node {a!r}: a signed graph here must be simple (no self-loops)")
        if a not in index or b not in index:
            raise ValueError(f"positive edge ({a!r}, {b!r}) uses a node that is not in the node list")
        i, j = index[a], index[b]
        pos.add((min(i, j), max(i, j)))
    rows = [
        (nodes[i], nodes[j], 1 if (i, j) in pos else -1, 1.0) for i, j in combinations(range(len(nodes)), 2)
    ]
    return _build(nodes, rows)
