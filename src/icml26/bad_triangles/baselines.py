"""Baselines for BTT: maximal packing (3-approximation), exact MILP, MinSTC matching, minimal transversals."""

from __future__ import annotations

import time

import networkx as nx
import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp

from icml26.bad_triangles.graph import SignedGraph
from icml26.bad_triangles.lp import _prepare
from icml26.bad_triangles.rounding import Transversal
from icml26.bad_triangles.triangles import bad_triangles

__all__ = ["exact_btt", "min_stc_matching", "packing_3approx", "random_minimal_transversal"]


def packing_3approx(
    graph: SignedGraph, triangles: np.ndarray | None = None, forbid_negative: bool = False
) -> Transversal:
    """Maximal packing of bad triangles, taking their edges: a 3-approximation (local ratio).

    Bar-Yehuda-Even local ratio over the bad triangles in order: for a triangle whose edges all still
    have residual weight, subtract ``delta = min residual`` from each of its edges; the edges driven to 0
    form ``F``. With unit weights this is exactly "take all 3 edges of a maximal set of edge-disjoint bad
    triangles". ``sum delta`` is a dual-feasible packing, so ``lower_bound = sum delta <= OPT`` and
    ``w(F) <= 3 sum delta``. With ``forbid_negative`` only positive edges are used (2-approx for MinSTC).
    """
    if not isinstance(graph, SignedGraph):
        raise TypeError(f"graph must be a SignedGraph, got {type(graph).__name__}")
    tri = bad_triangles(graph) if triangles is None else np.asarray(triangles, dtype=np.int64).reshape(-1, 3)
    if forbid_negative:
        tri = tri[:, 1:]
    residual = graph.weight.astype(np.float64).copy()
    taken = np.zeros(graph.m, dtype=bool)
    packed = 0.0
    for row in tri.tolist():
        if any(taken[e] for e in row):
            continue
        delta = min(residual[e] for e in row)
        packed += delta
        for e in row:
            residual[e] -= delta
            if residual[e] <= 1e-12 * max(1.0, graph.weight[e]):
                taken[e] = True
    ids = np.flatnonzero(taken)
    return Transversal(ids, graph.cost(ids), packed, "packing_3approx")


def exact_btt(
    graph: SignedGraph,
    triangles: np.ndarray | None = None,
    forbid_negative: bool = False,
    time_limit: float | None = None,
) -> Transversal:
    """Optimal BTT by MILP (HiGHS via ``scipy.optimize.milp``): the cover LP with ``x`` binary.

    ``lower_bound`` is the solver's proven bound (``= cost`` when solved to optimality; ``method`` is
    ``"exact_btt_timeout"`` when ``time_limit`` stopped it first). Raises
    ``RuntimeError`` if no feasible solution is found within ``time_limit`` seconds.
    """
    if time_limit is not None and (not isinstance(time_limit, int | float) or time_limit <= 0):
        raise ValueError(f"time_limit must be a positive number of seconds or None, got {time_limit!r}")
    start = time.perf_counter()
    cols, w, a = _prepare(graph, triangles, forbid_negative)
    if a.shape[0] == 0:
        return Transversal(np.zeros(0, dtype=np.int64), 0.0, 0.0, "exact_btt")
    options: dict[str, float] = {"mip_rel_gap": 0.0}  # prove optimality, not HiGHS's default 1e-4 gap
    if time_limit is not None:
        options["time_limit"] = float(time_limit)
    res = milp(
        c=w,
        constraints=LinearConstraint(a, lb=np.ones(a.shape[0]), ub=np.inf),
        integrality=np.ones(w.size),
        bounds=Bounds(0.0, 1.0),
        options=options,
    )
    if res.x is None:
        raise RuntimeError(f"MILP found no solution after {time.perf_counter() - start:.1f}s: {res.message}")
    ids = np.sort(cols[np.round(res.x) > 0.5])
    cost = graph.cost(ids)
    bound = cost if res.status == 0 else float(getattr(res, "mip_dual_bound", 0.0) or 0.0)
    return Transversal(ids, cost, min(bound, cost), "exact_btt" if res.status == 0 else "exact_btt_timeout")


def min_stc_matching(graph: SignedGraph, triangles: np.ndarray | None = None) -> Transversal:
    """MinSTC baseline (Sintos & Tsaparas, 2014): both edges of every wedge in a maximal matching of the
    wedge graph (nodes = positive edges, links = open wedges). A 2-approximation for unit weights."""
    tri = bad_triangles(graph) if triangles is None else np.asarray(triangles, dtype=np.int64).reshape(-1, 3)
    wedges = nx.Graph()
    wedges.add_edges_from((int(p), int(q)) for p, q in tri[:, 1:].tolist())
    ids = np.array(sorted({e for pair in nx.maximal_matching(wedges) for e in pair}), dtype=np.int64)
    return Transversal(ids, graph.cost(ids), len(ids) / 2.0, "min_stc_matching")


def random_minimal_transversal(
    graph: SignedGraph, rng: np.random.Generator, triangles: np.ndarray | None = None
) -> Transversal:
    """A random *minimal* transversal: start from all edges in bad triangles and, in random order, drop
    each edge whose every bad triangle is still hit by another edge of ``F``."""
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy Generator, got {type(rng).__name__}")
    tri = bad_triangles(graph) if triangles is None else np.asarray(triangles, dtype=np.int64).reshape(-1, 3)
    members: dict[int, list[int]] = {}
    for t, row in enumerate(tri.tolist()):
        for e in row:
            members.setdefault(e, []).append(t)
    hits = np.full(tri.shape[0], 3, dtype=np.int64)
    keep = set(members)
    for e in rng.permutation(np.array(sorted(members), dtype=np.int64)).tolist():
        if all(hits[t] >= 2 for t in members[e]):
            keep.discard(e)
            for t in members[e]:
                hits[t] -= 1
    ids = np.array(sorted(keep), dtype=np.int64)
    return Transversal(ids, graph.cost(ids), 0.0, "random_minimal")
