"""Clustering baselines: spectral clustering, top-K eigenvectors of the normalised adjacency, NetMF."""

from __future__ import annotations

import warnings
from typing import Any

import networkx as nx
import numpy as np
from sklearn.cluster import KMeans, SpectralClustering
from sklearn.metrics import adjusted_rand_score

from icml26.common.graphs import labels_in_order
from icml26.deepwalk_dynamics.graphs import GraphLike, adjacency, graph_nodes


def _k(labels: np.ndarray) -> int:
    k = int(np.unique(labels).size)
    if k < 2:
        raise ValueError("labels must name at least two blocks")
    return k


def _rank(name: str, value: object, n: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or not 1 <= value <= n:
        raise ValueError(f"{name} must be an integer in [1, n] = [1, {n}], got {value!r}")
    return int(value)


def spectral_clustering_ari(graph: GraphLike, labels: Any, seed: int = 0) -> float:
    """ARI of ``sklearn`` spectral clustering (precomputed affinity A, K clusters) against ``labels`` (a
    mapping node -> block, or one per row in ``sorted(G)`` order)."""
    a = adjacency(graph)
    insertion = list(graph) if isinstance(graph, nx.Graph) else None
    labels = labels_in_order(labels, graph_nodes(graph), insertion)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Graph is not fully connected")
        pred = SpectralClustering(_k(labels), affinity="precomputed", random_state=seed).fit_predict(
            a.toarray()
        )
    return float(adjusted_rand_score(labels, pred))


def normalized_adjacency_embedding(graph: GraphLike, k: int) -> np.ndarray:
    """The top-k eigenvectors (by eigenvalue) of N = D^{-1/2} A D^{-1/2} (n × k)."""
    a = adjacency(graph).toarray()
    k = _rank("k (eigenvectors)", k, a.shape[0])
    scale = 1.0 / np.sqrt(a.sum(axis=1))
    vals, vecs = np.linalg.eigh(scale[:, None] * a * scale[None, :])
    return vecs[:, np.argsort(vals)[::-1][:k]]


def netmf_embedding(graph: GraphLike, window: int, negatives: int, dim: int) -> np.ndarray:
    """NetMF (Qiu et al. 2018, small-T): SVD of log max(vol/(bT) Σ_{r≤T} Pʳ D⁻¹, 1); U_d Σ_d^{1/2} (n × d)."""
    a = adjacency(graph).toarray()
    dim = _rank("dim", dim, a.shape[0])
    if isinstance(window, bool) or not isinstance(window, int | np.integer) or window < 1:
        raise ValueError(f"window T must be an integer >= 1, got {window!r}")
    if isinstance(negatives, bool) or not isinstance(negatives, int | np.integer) or negatives < 1:
        raise ValueError(f"negatives b must be an integer >= 1, got {negatives!r}")
    degree = a.sum(axis=1)
    p = a / degree[:, None]
    power, total = np.eye(a.shape[0]), np.zeros_like(a)
    for _ in range(window):
        power = power @ p
        total += power
    target = np.log(np.maximum(degree.sum() / (negatives * window) * total / degree[None, :], 1.0))
    u, s, _ = np.linalg.svd(target)
    return u[:, :dim] * np.sqrt(s[:dim])


def kmeans_ari(x: np.ndarray, labels: np.ndarray, seed: int = 0) -> float:
    """ARI of k-means (K true blocks, 10 restarts) on the rows of ``x``."""
    labels, x = np.asarray(labels), np.asarray(x, dtype=float)
    if x.ndim != 2 or x.shape[0] != labels.size or not np.all(np.isfinite(x)):
        raise ValueError(
            f"x must be a finite n × d array with n = {labels.size} (one row per label), got {x.shape}"
        )
    pred = KMeans(_k(labels), n_init=10, random_state=seed).fit_predict(x)
    return float(adjusted_rand_score(labels, pred))
