"""Geometric graphs of layer representations (the paper's geometric graphs) and the linear-network preservation bound (Thm 3.1).

Each layer's point cloud ``F`` (shape ``(n, d)``) becomes a symmetrised, unweighted k-nearest-neighbour
graph; distances on it are hop distances (all-pairs shortest paths, ``inf`` between components).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import scipy.sparse as sp
import torch
from scipy.sparse.csgraph import shortest_path
from sklearn.metrics.pairwise import euclidean_distances
from sklearn.neighbors import kneighbors_graph

from icml26.common.graphs import node_order


def check_points(F: object, name: str = "F") -> np.ndarray:
    """Validate a point cloud and return it as a float64 array of shape ``(n, d)``."""
    if isinstance(F, torch.Tensor):
        F = F.detach().cpu().numpy()
    if not isinstance(F, np.ndarray):
        raise TypeError(
            f"{name} must be a numpy array or torch tensor of shape (n, d), got {type(F).__name__}"
        )
    if F.ndim == 1:
        F = F[:, None]
    if F.ndim != 2:
        raise ValueError(f"{name} must have shape (n, d) or (n,), got shape {F.shape}")
    F = F.astype(np.float64, copy=False)
    if not np.all(np.isfinite(F)):
        raise ValueError(f"{name} has non-finite entries (NaN or inf); features must be finite")
    return F


def _check_k(k: object, n: int) -> int:
    if not isinstance(k, int | np.integer) or isinstance(k, bool):
        raise TypeError(f"k must be an int, got {type(k).__name__}")
    if not 1 <= k < n:
        raise ValueError(f"k must satisfy 1 <= k < n = {n} (number of points), got k={k}")
    return int(k)


def knn_graph(F: np.ndarray | torch.Tensor, k: int) -> sp.csr_matrix:
    """Symmetrised unweighted kNN graph of a point cloud (the paper's "geometric graph").

    ``F``: ``(n, d)`` features. Returns the ``(n, n)`` 0/1 CSR adjacency ``max(A, A^T)`` of the directed
    kNN graph (self excluded), i.e. an edge ``{x, y}`` whenever ``y`` is among the ``k`` nearest
    neighbours of ``x`` or vice versa.
    """
    F = check_points(F)
    k = _check_k(k, F.shape[0])
    return _symmetrised(kneighbors_graph(F, k, mode="connectivity", include_self=False))


def _symmetrised(directed: sp.spmatrix) -> sp.csr_matrix:
    """``max(A, Aᵀ)`` of a directed kNN graph as a sorted 0/1 float CSR matrix."""
    A = directed.maximum(directed.T).tocsr().astype(np.float64)
    A.sort_indices()
    return A


def check_adjacency(A: object, name: str = "A") -> sp.csr_matrix:
    """Validate an adjacency (scipy sparse / dense array / networkx graph) as a symmetric 0/1 CSR matrix.

    A networkx graph's rows follow the library's node order ``sorted(G)`` (``icml26.common.graphs``), so the
    same graph built in another insertion order gives the same matrix. Weighted graphs
    are rejected, as weighted matrices are: the paper's geometric graphs are unweighted, and silently
    dropping weights would give curvatures of a different graph. Edges whose ``weight`` attribute is 1
    count as unweighted.
    """
    try:
        import networkx as nx
    except ImportError:  # networkx is part of the method's extra
        nx = None
    if nx is not None and isinstance(A, nx.Graph):
        if A.is_directed():
            raise ValueError(f"{name} must be an undirected graph, got a directed networkx graph")
        if A.is_multigraph():
            raise ValueError(f"{name} must be a simple graph, got a networkx multigraph")
        weights = {w for _, _, w in A.edges(data="weight", default=1)}
        if weights - {1}:
            raise ValueError(
                f"{name} is a weighted networkx graph (edge weights {sorted(map(str, weights))[:5]}); only"
                " unweighted graphs are accepted: the paper's geometric graphs are unweighted (drop the"
                " weights, e.g. nx.Graph(G.edges()), to use the graph's structure)"
            )
        A = nx.to_scipy_sparse_array(A, nodelist=node_order(A), weight=None, format="csr")
    if isinstance(A, np.ndarray):
        A = sp.csr_matrix(A)
    if not sp.issparse(A):
        raise TypeError(
            f"{name} must be a scipy sparse matrix, a dense numpy array or a networkx Graph, got {type(A).__name__}"
        )
    A = sp.csr_matrix(A, dtype=np.float64)
    if A.ndim != 2 or A.shape[0] != A.shape[1]:
        raise ValueError(f"{name} must be a square (n, n) adjacency, got shape {A.shape}")
    A.eliminate_zeros()
    if A.nnz and not np.all(A.data == 1.0):
        raise ValueError(f"{name} must be unweighted (all edge entries 1), got other values")
    if A.diagonal().any():
        raise ValueError(f"{name} must have no self-loops (zero diagonal)")
    if (A != A.T).nnz:
        raise ValueError(f"{name} must be symmetric (an undirected graph)")
    A.sort_indices()
    return A


def hop_distances(A: sp.spmatrix) -> np.ndarray:
    """All-pairs hop distances ``(n, n)`` on an unweighted graph; ``inf`` between components.

    A breadth-first search from all sources at once: the frontier is a dense ``(n, n)`` 0/1 matrix
    advanced by one sparse product per hop, ``O(nnz(A) · n · diameter)`` — several times faster than
    per-source Dijkstra on kNN graphs, whose diameter is small.
    """
    A = check_adjacency(A)
    n = A.shape[0]
    Af = A.astype(np.float32)
    dist = np.full((n, n), np.inf)
    np.fill_diagonal(dist, 0.0)
    frontier = np.eye(n, dtype=np.float32)
    hop = 0
    while True:
        hop += 1
        newly = ((Af @ frontier) > 0) & np.isinf(dist)
        if not newly.any():
            return dist
        dist[newly] = hop
        frontier = newly.astype(np.float32)


def pair_hop_distances(A: sp.spmatrix, sources: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """Hop distances ``d(sources[p], targets[p])`` for ``m`` pairs only, shape ``(m,)``; ``inf`` if disconnected.

    Breadth-first search from the distinct sources at once, dropping each source as soon as all its
    pairs are resolved. The local coefficient only needs next-layer distances between current-layer
    neighbours, which are mostly a few hops, so this stops long before the graph's diameter.
    """
    A = check_adjacency(A)
    n = A.shape[0]
    sources, targets = np.asarray(sources, dtype=np.int64), np.asarray(targets, dtype=np.int64)
    if sources.shape != targets.shape or sources.ndim != 1:
        raise ValueError(
            f"sources and targets must be 1-D of equal length, got {sources.shape} and {targets.shape}"
        )
    if sources.size and (min(sources.min(), targets.min()) < 0 or max(sources.max(), targets.max()) >= n):
        raise ValueError(f"sources and targets must be node indices in [0, {n})")
    out = np.full(sources.size, np.inf)
    out[sources == targets] = 0.0
    uniq, col = np.unique(sources, return_inverse=True)
    Af = A.astype(np.float32)
    frontier = np.zeros((n, uniq.size), dtype=np.float32)
    frontier[uniq, np.arange(uniq.size)] = 1.0
    visited = frontier > 0
    pending = np.flatnonzero(out != 0.0)
    alive = np.arange(uniq.size)  # current column -> original source index
    hop = 0
    while pending.size and alive.size:
        hop += 1
        newly = ((Af @ frontier) > 0) & ~visited
        if not newly.any():
            break
        visited |= newly
        position = np.full(uniq.size, -1)
        position[alive] = np.arange(alive.size)
        hit = newly[targets[pending], position[col[pending]]]
        out[pending[hit]] = hop
        pending = pending[~hit]
        keep = np.isin(alive, col[pending])
        alive, frontier, visited = alive[keep], newly[:, keep].astype(np.float32), visited[:, keep]
    return out


def hop_distances_dijkstra(A: sp.spmatrix) -> np.ndarray:
    """Reference for :func:`hop_distances`: scipy's per-source Dijkstra with unit weights."""
    return shortest_path(check_adjacency(A), method="D", directed=False, unweighted=True)


def layer_features(model: torch.nn.Module, X: np.ndarray | torch.Tensor) -> list[np.ndarray]:
    """Point clouds of every layer: input, each hidden activation and the output, as float64 arrays.

    ``model`` must provide ``features(x) -> list[Tensor]`` (as :class:`~icml26.ricci_geometry.networks.MLP`
    does); ``X``: ``(n, d_in)``. Runs on the model's device.
    """
    if not callable(getattr(model, "features", None)):
        raise TypeError(
            f"model must provide a features(x) method returning per-layer tensors, got {type(model).__name__}"
        )
    X = check_points(X, "X")
    device = next(model.parameters()).device
    try:
        with torch.no_grad():
            feats = model.features(torch.as_tensor(X, dtype=torch.float32, device=device))
    except RuntimeError as err:  # torch's shape mismatch, reported in the API's terms
        raise ValueError(f"X of shape {X.shape} does not match the model's input dimension: {err}") from err
    return [check_points(f, f"features of layer {i}") for i, f in enumerate(feats)]


def feature_graphs(model: torch.nn.Module, X: np.ndarray | torch.Tensor, k: int) -> list[sp.csr_matrix]:
    """kNN graphs ``[G_0, ..., G_{L}]`` of the input, every hidden layer and the output (the paper's geometric graphs)."""
    feats = layer_features(model, X)
    _check_k(k, feats[0].shape[0])
    return [knn_graph(F, k) for F in feats]


def edge_jaccard(A: sp.spmatrix, B: sp.spmatrix) -> float:
    """Jaccard index ``|E_A ∩ E_B| / |E_A ∪ E_B|`` of two graphs' edge sets on the same ``n`` nodes."""
    A, B = check_adjacency(A, "A"), check_adjacency(B, "B")
    if A.shape != B.shape:
        raise ValueError(f"A and B must have the same number of nodes, got shapes {A.shape} and {B.shape}")
    inter = A.multiply(B).nnz
    union = A.maximum(B).nnz
    return float(inter / union) if union else 1.0


def knn_margin(F: np.ndarray | torch.Tensor, k: int) -> float:
    """Thm 3.1's ``ε = min_x (d²_{k+1}(x) − d²_k(x)) / (d²_{k+1}(x) + d²_k(x))`` over all points.

    ``d_k(x)`` is the distance from ``x`` to its ``k``-th nearest neighbour; ``k + 1 < n`` is required.
    """
    F = check_points(F)
    n = F.shape[0]
    k = _check_k(k, n - 1)
    sq = euclidean_distances(F, squared=True)
    np.fill_diagonal(sq, np.inf)
    part = np.sort(sq, axis=1)[:, : k + 1]
    dk, dk1 = part[:, k - 1], part[:, k]
    denom = dk1 + dk
    ratio = np.where(denom > 0, (dk1 - dk) / np.where(denom > 0, denom, 1.0), 0.0)
    return float(ratio.min())


def linear_preservation_width(n: int, eps: float, delta: float) -> float:
    """Width from Thm 3.1: ``m ≥ 4 (ln(n(n−1)) − ln δ) / (ε² − ε³)`` keeps the kNN graph w.p. ≥ 1 − δ.

    ``n``: number of points (>= 2); ``eps`` in ``(0, 1)``: :func:`knn_margin`; ``delta`` in ``(0, 1)``.
    """
    if not isinstance(n, int | np.integer) or isinstance(n, bool) or n < 2:
        raise ValueError(f"n must be an integer >= 2, got {n!r}")
    if not 0.0 < eps < 1.0:
        raise ValueError(f"eps must lie in (0, 1), got {eps}")
    if not 0.0 < delta < 1.0:
        raise ValueError(f"delta must lie in (0, 1), got {delta}")
    return 4.0 * (np.log(n * (n - 1)) - np.log(delta)) / (eps**2 - eps**3)


def linear_preservation_delta(n: int, eps: float, width: float) -> float:
    """Thm 3.1 solved for δ: ``n(n−1) exp(−m (ε² − ε³) / 4)``, so the kNN graph is kept w.p. ``≥ 1 − δ``.

    The inverse of :func:`linear_preservation_width` in ``δ`` (may exceed 1: a vacuous bound). ``n >= 2``,
    ``eps`` in ``(0, 1)``, ``width > 0``.
    """
    if not isinstance(n, int | np.integer) or isinstance(n, bool) or n < 2:
        raise ValueError(f"n must be an integer >= 2, got {n!r}")
    if not 0.0 < eps < 1.0:
        raise ValueError(f"eps must lie in (0, 1), got {eps}")
    if not width > 0:
        raise ValueError(f"width must be positive, got {width}")
    return float(n * (n - 1) * np.exp(-width * (eps**2 - eps**3) / 4.0))


def random_layer_features(
    X: np.ndarray | torch.Tensor,
    width: int,
    activation: str = "identity",
    rng: np.random.Generator | int | None = None,
) -> np.ndarray:
    """One random layer of Thm 3.1's setting: ``σ(X Aᵀ)`` with ``A ∈ R^{m×d}``, i.i.d. ``N(0, 1/m)``.

    ``X``: ``(n, d)`` points; ``width``: ``m``; ``activation``: ``"identity"`` (the theorem's linear map,
    a Johnson–Lindenstrauss projection, no bias) or ``"relu"``. Returns ``(n, m)`` features. The official
    validation (Appendix A.4.1) draws ``A`` this way.
    """
    X = check_points(X, "X")
    if not isinstance(width, int | np.integer) or isinstance(width, bool) or width < 1:
        raise ValueError(f"width must be a positive integer, got {width!r}")
    if activation not in ("identity", "relu"):
        raise ValueError(f"activation must be 'identity' or 'relu', got {activation!r}")
    A = np.random.default_rng(rng).normal(0.0, 1.0 / np.sqrt(width), size=(int(width), X.shape[1]))
    F = X @ A.T
    return np.maximum(F, 0.0) if activation == "relu" else F


def relu_limit_sq_distances(X: np.ndarray | torch.Tensor) -> np.ndarray:
    """Squared distances of ``relu(X Aᵀ)`` in the infinite-width limit of :func:`random_layer_features`.

    With ``A`` i.i.d. ``N(0, 1/m)``, ``‖relu(Ax) − relu(Ay)‖²`` tends to the arc-cosine-kernel distance
    (Cho & Saul, 2009) ``½‖x − y‖² + (1/π)‖x‖‖y‖(θ cos θ − sin θ)``, ``θ = ∠(x, y)``: not a function of
    ``‖x − y‖`` alone, so the kNN graph ReLU converges to can differ from the input's. ``X``: ``(n, d)``;
    returns ``(n, n)``.
    """
    X = check_points(X, "X")
    norms = np.linalg.norm(X, axis=1)
    prod = np.outer(norms, norms)
    cos = np.clip(np.divide(X @ X.T, prod, out=np.ones_like(prod), where=prod > 0), -1.0, 1.0)
    theta = np.arccos(cos)
    sq = 0.5 * euclidean_distances(X, squared=True) + prod * (theta * cos - np.sin(theta)) / np.pi
    np.fill_diagonal(sq, 0.0)
    return np.maximum(sq, 0.0)


def relu_limit_knn_graph(X: np.ndarray | torch.Tensor, k: int) -> sp.csr_matrix:
    """Symmetrised kNN graph (as :func:`knn_graph`) under :func:`relu_limit_sq_distances`: ``(n, n)``."""
    X = check_points(X, "X")
    k = _check_k(k, X.shape[0])
    return _symmetrised(
        kneighbors_graph(relu_limit_sq_distances(X), k, metric="precomputed", include_self=False)
    )


def same_knn_lists(X: np.ndarray | torch.Tensor, F: np.ndarray | torch.Tensor, k: int) -> bool:
    """Thm 3.1's event: every point has the same ``k`` nearest neighbours in ``X`` and in ``F``.

    ``X``: ``(n, d)``, ``F``: ``(n, m)`` (the same points, mapped). Compares the directed kNN graphs, as
    the official validation does (Appendix A.4.1); equal directed graphs imply equal symmetrised ones.
    """
    X, F = check_points(X, "X"), check_points(F, "F")
    if X.shape[0] != F.shape[0]:
        raise ValueError(f"X and F must hold the same points, got {X.shape[0]} and {F.shape[0]} rows")
    k = _check_k(k, X.shape[0])
    a = kneighbors_graph(X, k, mode="connectivity", include_self=False)
    b = kneighbors_graph(F, k, mode="connectivity", include_self=False)
    return (a != b).nnz == 0


def stack_check(graphs: Sequence[sp.spmatrix], minimum: int = 2) -> list[sp.csr_matrix]:
    """Validate a sequence of >= ``minimum`` graphs on the same node set."""
    if sp.issparse(graphs) or isinstance(graphs, np.ndarray) or not isinstance(graphs, Sequence):
        raise TypeError(
            f"graphs must be a list of adjacency matrices, one per layer, got {type(graphs).__name__}"
        )
    if len(graphs) < minimum:
        raise ValueError(
            f"graphs must hold at least {minimum} layers ({minimum - 1} transitions), got {len(graphs)}"
        )
    out = [check_adjacency(G, f"graphs[{i}]") for i, G in enumerate(graphs)]
    sizes = {G.shape[0] for G in out}
    if len(sizes) != 1:
        raise ValueError(f"all graphs must have the same number of nodes, got sizes {sorted(sizes)}")
    return out
