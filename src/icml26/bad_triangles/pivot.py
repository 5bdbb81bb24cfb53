"""From transversals to clusterings on complete signed graphs (paper Sec. 5), and CC baselines.

On a complete signed graph the mistakes of any clustering form a bad-triangle transversal, so
``BTT* <= CC*``. The paper shows the converse up to 3/2: every transversal ``F`` can be turned by a pivot
procedure (its Algorithm 4) into a clustering with at most ``3/2 |F|`` disagreements in expectation, hence
``CC* <= 3/2 BTT*``.

* :func:`budget_pivot` is Algorithm 4 as a third-party summary of the paper describes it [read there, not
  in the paper]: a uniformly random pivot ``u`` takes an unclustered ``v`` when ``uv`` is a positive edge
  outside ``F``, never when ``uv`` is a negative edge outside ``F``, with probability 1/4 when
  ``uv in F cap E+`` and with probability 3/4 when ``uv in F cap E-``. Its claim is
  ``E[cost] <= 3/2 |F|`` (unit weights); :func:`budget_pivot_expected_cost` computes that expectation
  exactly (dynamic programme over the unclustered sets) for small graphs.
* :func:`transversal_to_clustering` is our own deterministic candidate [inferred, written before the
  paper's rule was found]: pivot on ``B = G with the edges of F flipped`` (Veldt's 2|F| procedure), taking
  at each step the unclustered pivot whose step has the smallest ratio ``mistakes made / edges of F
  settled``. Summed over the steps, ``cost <= (max step ratio) * |F|``; the returned ``max_step_ratio``
  certifies the bound the run achieved.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import scipy.sparse as sp
from scipy.optimize import Bounds, LinearConstraint, linprog, milp
from scipy.sparse.csgraph import connected_components

from icml26.bad_triangles.graph import SignedGraph
from icml26.bad_triangles.triangles import is_transversal

__all__ = [
    "Clustering",
    "budget_pivot",
    "budget_pivot_expected_cost",
    "clustering_mistakes",
    "disagreements",
    "exact_cc",
    "flip_pivot",
    "flip_pivot_expected_cost",
    "kwik_cluster",
    "lp_pivot",
    "transversal_to_clustering",
]


@dataclass(frozen=True)
class Clustering:
    """A clustering of a complete signed graph.

    Attributes:
        labels: int array ``(n,)``, cluster id of each node index.
        cost: weighted disagreements (positive pairs split + negative pairs joined).
        method: which algorithm produced it.
        max_step_ratio: for :func:`transversal_to_clustering`, the largest per-step
            ``mistakes / F-edges settled`` (so ``cost <= max_step_ratio * |F|``); else ``nan``.
    """

    labels: np.ndarray
    cost: float
    method: str
    max_step_ratio: float = math.nan


def _complete(graph: SignedGraph, what: str) -> None:
    if not isinstance(graph, SignedGraph):
        raise TypeError(f"graph must be a SignedGraph, got {type(graph).__name__}")
    if not graph.is_complete():
        raise ValueError(
            f"{what} needs a complete signed graph (every pair of nodes signed); got {graph.m} edges on "
            f"{graph.n} nodes, expected {graph.n * (graph.n - 1) // 2}. Use complete_from_positive()."
        )


def _matrices(graph: SignedGraph) -> tuple[np.ndarray, np.ndarray]:
    """Dense positive-pair indicator and weight matrices ``(n, n)`` (zero diagonal)."""
    pos = graph.sign_matrix() > 0
    w = np.zeros((graph.n, graph.n))
    w[graph.u, graph.v] = graph.weight
    w[graph.v, graph.u] = graph.weight
    return pos, w


def disagreements(graph: SignedGraph, labels: np.ndarray) -> float:
    """Weighted CC cost of ``labels`` ``(n,)``: positive edges split plus negative edges joined (pairs that
    are not edges cost nothing either way, so this is correlation clustering on a general signed graph)."""
    if not isinstance(graph, SignedGraph):
        raise TypeError(f"graph must be a SignedGraph, got {type(graph).__name__}")
    return float(graph.weight[clustering_mistakes(graph, labels)].sum())


def clustering_mistakes(graph: SignedGraph, labels: np.ndarray) -> np.ndarray:
    """Edge ids the clustering gets wrong (a bad-triangle transversal on complete graphs)."""
    lab = np.asarray(labels)
    if lab.shape != (graph.n,):
        raise ValueError(f"labels must have shape (n,) = ({graph.n},), got {lab.shape}")
    same = lab[graph.u] == lab[graph.v]
    return np.flatnonzero((same & (graph.sign < 0)) | (~same & (graph.sign > 0)))


def _pivot_run(graph: SignedGraph, joined: np.ndarray, order: np.ndarray) -> np.ndarray:
    """Pivot in ``order``: each unclustered pivot takes its unclustered ``joined`` neighbours."""
    labels = np.full(graph.n, -1, dtype=np.int64)
    for c, k in enumerate(order.tolist()):
        if labels[k] >= 0:
            continue
        members = np.flatnonzero(joined[k] & (labels < 0))
        labels[members] = c
        labels[k] = c
    return labels


def _order(graph: SignedGraph, rng: np.random.Generator) -> np.ndarray:
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy Generator, got {type(rng).__name__}")
    return rng.permutation(graph.n)


def _flip_matrix(graph: SignedGraph, edge_ids: np.ndarray | list[int]) -> tuple[np.ndarray, np.ndarray]:
    ids = np.asarray(edge_ids, dtype=np.int64).ravel()
    if ids.size and (ids.min() < 0 or ids.max() >= graph.m):
        raise ValueError(f"edge ids must lie in [0, {graph.m})")
    if not is_transversal(graph, ids):
        raise ValueError("edge_ids is not a bad-triangle transversal: some bad triangle has no edge in it")
    in_f = np.zeros((graph.n, graph.n), dtype=bool)
    in_f[graph.u[ids], graph.v[ids]] = True
    in_f[graph.v[ids], graph.u[ids]] = True
    return in_f, ids


def kwik_cluster(graph: SignedGraph, rng: np.random.Generator) -> Clustering:
    """KwikCluster / Pivot (Ailon, Charikar & Newman, 2008): random pivot takes its positive neighbours.
    Expected 3-approximation for unweighted complete graphs."""
    _complete(graph, "kwik_cluster")
    pos, _ = _matrices(graph)
    labels = _pivot_run(graph, pos, _order(graph, rng))
    return Clustering(labels, disagreements(graph, labels), "kwik_cluster")


def flip_pivot(graph: SignedGraph, edge_ids: np.ndarray | list[int], rng: np.random.Generator) -> Clustering:
    """Veldt's procedure: random-order pivot on ``B = G xor F``; ``E[cost] <= 2 |F|`` for a transversal F."""
    _complete(graph, "flip_pivot")
    in_f, _ = _flip_matrix(graph, edge_ids)
    pos, _ = _matrices(graph)
    labels = _pivot_run(graph, pos ^ in_f, _order(graph, rng))
    return Clustering(labels, disagreements(graph, labels), "flip_pivot")


def transversal_to_clustering(graph: SignedGraph, edge_ids: np.ndarray | list[int]) -> Clustering:
    """Deterministic min-ratio pivot on ``B = G xor F`` (our reconstruction of the paper's 3/2 procedure).

    At each step every unclustered node ``k`` is a candidate pivot with cluster
    ``C_k = {k} U {unclustered j : B(k, j) = +}``. The step settles the pairs inside ``C_k`` (joined)
    and between ``C_k`` and the other unclustered nodes (cut). Its ratio is
    ``(settled pairs the clustering gets wrong) / (settled pairs in F)`` (0 when nothing is wrong). The
    candidate with the smallest ratio is taken. Since every pair is settled exactly once,
    ``cost <= max_step_ratio * w(F)``; the paper's theorem is that 3/2 is always achievable.

    Args:
        graph: complete signed graph.
        edge_ids: a bad-triangle transversal ``F`` (edge ids); checked.
    Returns:
        :class:`Clustering` with ``max_step_ratio``. ``O(n)`` steps of ``O(n^3)`` dense algebra.
    """
    _complete(graph, "transversal_to_clustering")
    in_f, _ = _flip_matrix(graph, edge_ids)
    pos, w = _matrices(graph)
    joined_b = pos ^ in_f
    wrong_if_joined = np.where(~pos, w, 0.0)  # negative pairs put together
    wrong_if_cut = np.where(pos, w, 0.0)  # positive pairs split
    budget = np.where(in_f, w, 0.0)
    np.fill_diagonal(wrong_if_joined, 0.0)
    labels = np.full(graph.n, -1, dtype=np.int64)
    worst = 0.0
    cluster = 0
    while (labels < 0).any():
        free = labels < 0
        cand = np.flatnonzero(free)
        c = (joined_b[cand] & free).astype(np.float64)  # (K, n): C_k without k
        c[np.arange(cand.size), cand] = 1.0
        rest = free.astype(np.float64) - c
        cost = 0.5 * ((c @ wrong_if_joined) * c).sum(1) + ((c @ wrong_if_cut) * rest).sum(1)
        paid = 0.5 * ((c @ budget) * c).sum(1) + ((c @ budget) * rest).sum(1)
        ratio = np.where(
            cost <= 1e-12, 0.0, np.divide(cost, paid, out=np.full_like(cost, np.inf), where=paid > 0)
        )
        best = int(np.argmin(ratio))
        worst = max(worst, float(ratio[best]))
        labels[c[best] > 0] = cluster
        cluster += 1
    return Clustering(labels, disagreements(graph, labels), "min_ratio_pivot", worst)


def _cc_model(graph: SignedGraph) -> tuple[np.ndarray, float, sp.csr_matrix, list[tuple[int, int]]]:
    """CC as ``min c.d + const`` over pair distances ``d_ij`` (1 = apart) with triangle inequalities."""
    n = graph.n
    pairs = list(combinations(range(n), 2))
    col = {p: i for i, p in enumerate(pairs)}
    pos, w = _matrices(graph)
    c = np.array([w[i, j] if pos[i, j] else -w[i, j] for i, j in pairs])
    const = float(sum(w[i, j] for i, j in pairs if not pos[i, j]))
    rows, cols, vals = [], [], []
    r = 0
    for i, j, k in combinations(range(n), 3):
        ij, ik, jk = col[(i, j)], col[(i, k)], col[(j, k)]
        for a, b, d in ((ij, ik, jk), (ik, ij, jk), (jk, ij, ik)):
            rows += [r, r, r]
            cols += [a, b, d]
            vals += [1.0, -1.0, -1.0]  # d_a <= d_b + d_d
            r += 1
    a_ub = sp.csr_matrix((vals, (rows, cols)), shape=(r, len(pairs)))
    return c, const, a_ub, pairs


def exact_cc(graph: SignedGraph, max_nodes: int = 16) -> Clustering:
    """Optimal correlation clustering by ILP (triangle-inequality model, HiGHS). For ``n <= max_nodes``.

    Works on any signed graph: a distance variable for every pair of nodes, transitivity over every
    triple, and cost only on edges (a pair that is not an edge costs nothing joined or apart), so on a
    sparse network it is the general-graph CC optimum with ``BTT* <= CC*``.
    """
    if not isinstance(graph, SignedGraph):
        raise TypeError(f"graph must be a SignedGraph, got {type(graph).__name__}")
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1:
        raise ValueError(f"max_nodes must be a positive integer, got {max_nodes!r}")
    if graph.n > max_nodes:
        raise ValueError(f"exact_cc is for small graphs: n = {graph.n} > max_nodes = {max_nodes}")
    if graph.n < 3:
        together = graph.m == 1 and graph.sign[0] > 0
        labels = np.zeros(graph.n, dtype=np.int64) if together else np.arange(graph.n)
        return Clustering(labels, disagreements(graph, labels), "exact_cc")
    c, _, a_ub, pairs = _cc_model(graph)
    res = milp(
        c=c,
        constraints=LinearConstraint(a_ub, lb=-np.inf, ub=0.0),
        integrality=np.ones(c.size),
        bounds=Bounds(0.0, 1.0),
    )
    if res.x is None:
        raise RuntimeError(f"CC ILP failed: {res.message}")
    together = [p for p, d in zip(pairs, res.x) if d < 0.5]
    adj = sp.coo_matrix(
        (np.ones(len(together)), ([p[0] for p in together], [p[1] for p in together])),
        shape=(graph.n, graph.n),
    )
    _, labels = connected_components(adj, directed=False)
    return Clustering(labels, disagreements(graph, labels), "exact_cc")


def lp_pivot(graph: SignedGraph, rng: np.random.Generator, max_nodes: int = 40) -> Clustering:
    """LP-Pivot: solve the CC LP relaxation, then pivot in random order taking the unclustered nodes at
    LP distance ``< 1/2`` (threshold rounding of the CC LP; cf. Ailon et al., 2008)."""
    _complete(graph, "lp_pivot")
    if graph.n > max_nodes:
        raise ValueError(
            f"lp_pivot builds all n^3 triangle inequalities: n = {graph.n} > max_nodes = {max_nodes}"
        )
    order = _order(graph, rng)
    if graph.n < 3:
        return kwik_cluster(graph, rng)
    c, _, a_ub, pairs = _cc_model(graph)
    res = linprog(c=c, A_ub=a_ub, b_ub=np.zeros(a_ub.shape[0]), bounds=(0.0, 1.0), method="highs-ipm")
    if res.status != 0:
        raise RuntimeError(f"CC LP failed: {res.message}")
    close = np.zeros((graph.n, graph.n), dtype=bool)
    for (i, j), d in zip(pairs, res.x):
        close[i, j] = close[j, i] = d < 0.5
    labels = _pivot_run(graph, close, order)
    return Clustering(labels, disagreements(graph, labels), "lp_pivot")


def _budget_probabilities(graph: SignedGraph, edge_ids: np.ndarray | list[int]) -> np.ndarray:
    """``(n, n)`` probability that a pivot takes each other node under Algorithm 4's rule."""
    _complete(graph, "budget_pivot")
    in_f, _ = _flip_matrix(graph, edge_ids)
    pos, _ = _matrices(graph)
    prob = np.where(pos, np.where(in_f, 0.25, 1.0), np.where(in_f, 0.75, 0.0))
    np.fill_diagonal(prob, 0.0)
    return prob


def budget_pivot(
    graph: SignedGraph, edge_ids: np.ndarray | list[int], rng: np.random.Generator
) -> Clustering:
    """Algorithm 4 (as summarised, see the module docstring): one run of the F-dependent random pivot.

    Claimed guarantee: ``E[cost] <= 3/2 |F|`` for every bad-triangle transversal ``F`` of a complete
    signed graph (unit weights); one run can exceed it.
    """
    prob = _budget_probabilities(graph, edge_ids)
    order = _order(graph, rng)
    labels = np.full(graph.n, -1, dtype=np.int64)
    for c, k in enumerate(order.tolist()):
        if labels[k] >= 0:
            continue
        free = labels < 0
        take = free & (rng.random(graph.n) < prob[k])
        labels[take] = c
        labels[k] = c
    return Clustering(labels, disagreements(graph, labels), "budget_pivot")


def _expected_pivot_cost(graph: SignedGraph, prob: np.ndarray) -> float:
    """Exact expected cost of a uniformly random pivot that takes each unclustered ``v`` with
    probability ``prob[u, v]``, by a programme over the unclustered sets (unit weights):
    ``E(S) = mean_{u in S} sum_C P(C | u, S) [mistakes settled by C + E(S minus C)]``."""
    if graph.is_weighted:
        raise ValueError("the exact pivot expectation is for unit weights (the setting of the 3/2 claim)")
    pos = graph.sign_matrix() > 0
    n = graph.n
    pos_mask = [sum(1 << j for j in range(n) if pos[i, j]) for i in range(n)]
    neg_mask = [((1 << n) - 1) & ~pos_mask[i] & ~(1 << i) for i in range(n)]

    def settled(cluster: int, rest: int) -> int:
        """Negative pairs inside ``cluster`` plus positive pairs from ``cluster`` to ``rest``."""
        inside = across = 0
        c = cluster
        while c:
            low = c & -c
            i = low.bit_length() - 1
            c ^= low
            inside += (neg_mask[i] & cluster).bit_count()
            across += (pos_mask[i] & rest).bit_count()
        return inside // 2 + across

    @functools.cache
    def expect(s: int) -> float:
        if s & (s - 1) == 0:
            return 0.0
        members = [i for i in range(n) if s >> i & 1]
        total = 0.0
        for u in members:
            sure = 1 << u
            coins: list[tuple[int, float]] = []
            for v in members:
                p = prob[u, v] if v != u else 0.0
                if p >= 1.0:
                    sure |= 1 << v
                elif p > 0.0:
                    coins.append((1 << v, float(p)))
            for pick in range(1 << len(coins)):
                cluster, pr = sure, 1.0
                for b, (bit, p) in enumerate(coins):
                    if pick >> b & 1:
                        cluster |= bit
                        pr *= p
                    else:
                        pr *= 1.0 - p
                rest = s & ~cluster
                total += pr * (settled(cluster, rest) + expect(rest))
        return total / len(members)

    return expect((1 << n) - 1)


def _check_small(graph: SignedGraph, max_nodes: int, what: str) -> None:
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1:
        raise ValueError(f"max_nodes must be a positive integer, got {max_nodes!r}")
    if graph.n > max_nodes:
        raise ValueError(f"{what} enumerates subsets of nodes: n = {graph.n} > max_nodes = {max_nodes}")


def budget_pivot_expected_cost(
    graph: SignedGraph, edge_ids: np.ndarray | list[int], max_nodes: int = 10
) -> float:
    """Exact ``E[cost]`` of :func:`budget_pivot` over pivot order and coins (exponential: small ``n``)."""
    _check_small(graph, max_nodes, "budget_pivot_expected_cost")
    prob = _budget_probabilities(graph, edge_ids)
    return _expected_pivot_cost(graph, prob)


def flip_pivot_expected_cost(
    graph: SignedGraph, edge_ids: np.ndarray | list[int], max_nodes: int = 10
) -> float:
    """Exact ``E[cost]`` of :func:`flip_pivot` (Veldt: ``<= 2 |F|``) over the pivot order, for small ``n``."""
    _complete(graph, "flip_pivot_expected_cost")
    _check_small(graph, max_nodes, "flip_pivot_expected_cost")
    in_f, _ = _flip_matrix(graph, edge_ids)
    pos, _ = _matrices(graph)
    prob = (pos ^ in_f).astype(np.float64)
    np.fill_diagonal(prob, 0.0)
    return _expected_pivot_cost(graph, prob)
