"""Graphs for DeepWalk: validated adjacency matrices and the generated stochastic block models."""

from __future__ import annotations

import numbers
from collections.abc import Sequence

import networkx as nx
import numpy as np
import scipy.sparse as sp

from icml26.common.graphs import node_order

GraphLike = nx.Graph | np.ndarray | sp.sparray | sp.spmatrix


def adjacency(graph: GraphLike) -> sp.csr_array:
    """The weighted adjacency matrix A (n × n CSR, float64) of an undirected graph with no isolated node.

    Accepts a ``networkx.Graph`` (edge attribute ``weight``, default 1; rows in the library's node order
    ``sorted(G)``, ``icml26.common.graphs.node_order``) or a symmetric square numpy / scipy matrix. Rejects directed graphs and multigraphs, negative or
    non-finite weights, and nodes of degree 0 (a random walk from them is undefined).
    """
    if isinstance(graph, nx.Graph):
        if graph.is_directed():
            raise ValueError("graph is directed; DeepWalk here needs an undirected graph (networkx.Graph)")
        if graph.is_multigraph():
            raise ValueError("graph is a multigraph; merge parallel edges into weights (networkx.Graph)")
        if graph.number_of_nodes() < 2:
            raise ValueError(f"graph needs at least 2 nodes, got {graph.number_of_nodes()}")
        for u, v, w in graph.edges(data="weight", default=1.0):
            if isinstance(w, bool) or not isinstance(w, numbers.Real):
                raise ValueError(
                    f"edge ({u!r}, {v!r}) has a non-numeric weight {w!r}; weights must be numbers >= 0"
                )
        nodes = node_order(graph)
        a = sp.csr_array(
            nx.to_scipy_sparse_array(graph, nodelist=nodes, weight="weight", dtype=float, format="csr")
        )
    elif isinstance(graph, np.ndarray | sp.sparray | sp.spmatrix):
        a = sp.csr_array(graph, dtype=float)
        if a.ndim != 2 or a.shape[0] != a.shape[1] or a.shape[0] < 2:
            raise ValueError(f"adjacency matrix must be square with n >= 2, got shape {a.shape}")
        if abs(a - a.T).max() > 1e-12 * max(1.0, abs(a).max()):
            raise ValueError(
                "adjacency matrix is not symmetric: a directed graph; DeepWalk here needs undirected"
            )
    else:
        raise TypeError(
            f"graph must be a networkx.Graph or a square numpy/scipy adjacency matrix, got {type(graph).__name__}"
        )
    a.eliminate_zeros()
    if a.nnz and not np.all(np.isfinite(a.data)):
        raise ValueError("adjacency has non-finite weights; weights must be finite numbers >= 0")
    if a.nnz and a.data.min() < 0:
        raise ValueError(f"adjacency has a negative weight ({a.data.min():g}); weights must be >= 0")
    degree = np.asarray(a.sum(axis=1)).ravel()
    isolated = np.flatnonzero(degree <= 0)
    if isolated.size:
        raise ValueError(
            f"{isolated.size} isolated node(s) (degree 0, e.g. index {int(isolated[0])}): a random walk "
            "from them is undefined; remove them or add edges"
        )
    return a


def graph_nodes(graph: GraphLike) -> list:
    """The node of each row of ``adjacency(graph)``: ``sorted(G)`` for a networkx graph, ``0..n-1`` for a
    matrix."""
    if isinstance(graph, nx.Graph):
        return node_order(graph)
    return list(range(adjacency(graph).shape[0]))


def block_labels(sizes: Sequence[int]) -> np.ndarray:
    """Ground-truth block of each node, ``[0]*sizes[0] + [1]*sizes[1] + ...`` (shape (n,))."""
    return np.repeat(np.arange(len(sizes)), sizes)


def check_sbm(sizes: Sequence[int], p: float, q: float) -> list[int]:
    """``sizes`` as a list of ints >= 1, with p and q probabilities; else ``ValueError``."""
    if isinstance(sizes, int | str) or len(sizes) < 1:
        raise ValueError(f"sizes must be a sequence of block sizes, got {sizes!r}")
    out = []
    for s in sizes:
        if isinstance(s, bool) or not isinstance(s, numbers.Integral) or s < 1:
            raise ValueError(f"block sizes must be integers >= 1, got {sizes!r}")
        out.append(int(s))
    for name, value in (("p", p), ("q", q)):
        if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0 <= value <= 1:
            raise ValueError(f"{name} must be a probability in [0, 1], got {value!r}")
    return out


def block_probabilities(k: int, p: float, q: float) -> np.ndarray:
    """The K × K planted-partition matrix: p on the diagonal, q off it."""
    return np.full((k, k), q) + (p - q) * np.eye(k)


def sbm_graph(
    sizes: Sequence[int], p: float, q: float, seed: int, theta: np.ndarray | None = None
) -> tuple[sp.csr_array, np.ndarray]:
    """A planted-partition stochastic block model: adjacency and block labels.

    Edge (i, j) with probability p inside a block and q across (``networkx.stochastic_block_model``).
    With ``theta`` (a degree-corrected SBM, Karrer & Newman 2011), the probability is
    ``min(1, theta_i theta_j P[z_i, z_j])``, sampled directly. Isolated nodes raise (see ``adjacency``).
    """
    sizes = check_sbm(sizes, p, q)
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ValueError(f"seed must be an integer >= 0, got {seed!r}")
    probs = block_probabilities(len(sizes), p, q)
    if theta is None:
        g = nx.stochastic_block_model(sizes, probs.tolist(), seed=int(seed))
        return adjacency(g), block_labels(sizes)
    labels = block_labels(sizes)
    theta = np.asarray(theta, dtype=float)
    if theta.shape != (labels.size,) or not np.all(np.isfinite(theta)) or theta.min() <= 0:
        raise ValueError(
            f"theta must be {labels.size} positive finite numbers (one per node), got shape {theta.shape}"
        )
    rng = np.random.default_rng(seed)
    pij = np.minimum(1.0, np.outer(theta, theta) * probs[labels][:, labels])
    upper = np.triu(rng.random(pij.shape) < pij, k=1)
    return adjacency(sp.csr_array((upper | upper.T).astype(float))), labels


def degree_correction(n: int, seed: int, spread: float = 0.5) -> np.ndarray:
    """Degree-correction factors theta (mean 1): log-normal with log-sd ``spread``, normalised to mean 1."""
    theta = np.random.default_rng(seed).lognormal(0.0, spread, size=n)
    return theta / theta.mean()


def two_cliques(size: int = 10) -> tuple[sp.csr_array, np.ndarray]:
    """Two disjoint complete graphs K_size (the exact small case): adjacency and component labels."""
    g = nx.disjoint_union(nx.complete_graph(size), nx.complete_graph(size))
    return adjacency(g), block_labels([size, size])


def sparse_sbm(sizes: Sequence[int], p: float, q: float, seed: int) -> tuple[sp.csr_array, np.ndarray]:
    """A planted-partition SBM for large n, sampled in O(edges) (``sbm_graph`` goes through networkx):
    for each block pair the edge count is Binomial(pairs, p or q) and the endpoints are uniform; repeated
    pairs are merged, so a block pair with m edges of N possible loses about m² / 2N of them (under 0.1%
    at n = 10⁵, mean degree 30). Adjacency (CSR, 0/1) and labels; an isolated node raises."""
    sizes = check_sbm(sizes, p, q)
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ValueError(f"seed must be an integer >= 0, got {seed!r}")
    rng = np.random.default_rng(seed)
    starts = np.concatenate(([0], np.cumsum(sizes)))
    rows, cols = [], []
    for i, si in enumerate(sizes):
        for j in range(i, len(sizes)):
            sj = sizes[j]
            pairs = si * (si - 1) // 2 if i == j else si * sj
            m = rng.binomial(pairs, p if i == j else q)
            a = starts[i] + rng.integers(0, si, m)
            b = starts[j] + rng.integers(0, sj, m)
            keep = a != b
            rows.append(a[keep])
            cols.append(b[keep])
    r, c = np.concatenate(rows), np.concatenate(cols)
    n = int(starts[-1])
    a = sp.coo_array((np.ones(r.size), (r, c)), shape=(n, n)).tocsr()
    a = ((a + a.T) > 0).astype(float)
    return adjacency(sp.csr_array(a)), block_labels(sizes)
