"""The fixed low-rank matrix M = C − b q q_αᵀ, its top eigenspace and spectral gap, and the SBM's M̄.

Sources. The paper's text could not be read (only its abstract): it states that from a small-norm start,
under a spectral-gap assumption, the SGNS embeddings align with the column space of "a fixed low-rank
matrix". The matrix here is **[inferred]**: the first-order expansion of the expected SGNS gradient at
U = V = 0 (``population.py``), with the walk co-occurrence matrix of Qiu et al. (NetMF, WSDM 2018):

    C = (1 / (2 T vol)) Σ_{r=1..T} (D Pʳ + (D Pʳ)ᵀ),   P = D⁻¹ A,   vol = Σ_i d_i,          (C)
    q = d / vol,   q_α = d^α / Σ d^α,   M = C − b q q_αᵀ.                                       (M)

With N = D^{-1/2} A D^{-1/2} = Σ λ_i φ_i φ_iᵀ and α = 1,
M = vol⁻¹ D^{1/2} [(1 − b) φ₁φ₁ᵀ + Σ_{i≥2} f_T(λ_i) φ_iφ_iᵀ] D^{1/2}, f_T(λ) = T⁻¹ Σ_{r≤T} λʳ: with b = 1
the trivial direction D^{1/2}φ₁ ∝ d cancels.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from icml26.deepwalk_dynamics.graphs import GraphLike, adjacency, block_labels, block_probabilities, check_sbm

_DENSE_LIMIT = 5000  # M is dense n × n: population quantities are for small graphs


def _check_window(window: object) -> int:
    if isinstance(window, bool) or not isinstance(window, int | np.integer) or window < 1:
        raise ValueError(f"window T must be an integer >= 1, got {window!r}")
    return int(window)


def _dense_adjacency(graph: GraphLike) -> np.ndarray:
    a = adjacency(graph)
    if a.shape[0] > _DENSE_LIMIT:
        raise ValueError(f"population quantities are dense n × n; n = {a.shape[0]} exceeds {_DENSE_LIMIT}")
    return a.toarray()


def cooccurrence_matrix(graph: GraphLike, window: int) -> np.ndarray:
    """Eq. (C): the expected window-T co-occurrence distribution of stationary walks (n × n, symmetric,
    entries sum to 1, row sums q = d / vol)."""
    window = _check_window(window)
    a = _dense_adjacency(graph)
    degree = a.sum(axis=1)
    vol = degree.sum()
    transition = a / degree[:, None]
    power = np.eye(a.shape[0])
    total = np.zeros_like(a)
    for _ in range(window):
        power = power @ transition
        total += degree[:, None] * power  # D Pʳ
    c = (total + total.T) / (2.0 * window * vol)
    return c


def negative_distribution(graph: GraphLike, alpha: float) -> np.ndarray:
    """q_α ∝ d^α, the negative-sampling distribution (shape (n,), sums to 1)."""
    if isinstance(alpha, bool) or not isinstance(alpha, int | float) or not np.isfinite(alpha):
        raise ValueError(f"alpha must be a finite number, got {alpha!r}")
    degree = np.asarray(adjacency(graph).sum(axis=1)).ravel()
    w = degree**alpha
    return w / w.sum()


def node_frequencies(graph: GraphLike) -> np.ndarray:
    """q = d / vol, the stationary distribution of the walk and the positive pairs' marginal."""
    return negative_distribution(graph, 1.0)


def sgns_matrix(graph: GraphLike, T: int, b: int, alpha: float) -> np.ndarray:
    """Eq. (M): M = C − b q q_αᵀ, the matrix the small-norm SGNS dynamics follow [inferred] (n × n)."""
    if isinstance(b, bool) or not isinstance(b, int | np.integer) or b < 1:
        raise ValueError(f"b (negatives per pair) must be an integer >= 1, got {b!r}")
    c = cooccurrence_matrix(graph, T)
    return c - b * np.outer(node_frequencies(graph), negative_distribution(graph, alpha))


@dataclass(frozen=True)
class Eigenspace:
    """M's top singular space, the subspace its small-norm dynamics amplify.

    basis: Q_k (n × k, orthonormal): the top-k left singular vectors of M (for a symmetric M, the
        eigenvectors of the k largest |μ|). values: the top ``d`` singular values |μ|, descending.
    k: the number of values above the largest gap among the top d. gap: |μ_k| − |μ_{k+1}|;
    gap_ratio: |μ_k| / |μ_{k+1}| (the power-iteration contraction rate per unit growth).
    """

    basis: np.ndarray
    values: np.ndarray
    k: int
    gap: float
    gap_ratio: float


def top_eigenspace(m: np.ndarray, dim: int, k: int | None = None) -> Eigenspace:
    """Q_k of ``m`` with k chosen by the largest gap among its top ``dim`` singular values (or given).

    The linearised dynamics d/dt [U; V] = ½ [[0, M], [Mᵀ, 0]] [U; V] grow along M's singular pairs at
    rate ½σ_i, so U aligns with the top left singular vectors. For the symmetric M of α = 1 these are
    eigenvectors, ordered by |eigenvalue|.
    """
    m = np.asarray(m, dtype=float)
    if m.ndim != 2 or m.shape[0] != m.shape[1] or not np.all(np.isfinite(m)):
        raise ValueError(f"M must be a finite square matrix, got shape {m.shape}")
    n = m.shape[0]
    if isinstance(dim, bool) or not isinstance(dim, int | np.integer) or not 1 <= dim < n:
        raise ValueError(f"dim must be an integer in [1, n) = [1, {n}), got {dim!r}")
    if np.allclose(m, m.T, rtol=0.0, atol=1e-12 * abs(m).max()):
        mu, vec = np.linalg.eigh((m + m.T) / 2)
        order = np.argsort(-np.abs(mu))
        left = vec[:, order]
    else:
        left, values, _ = np.linalg.svd(m)
        mu, order = None, None
    return eigenspace_from_spectrum(mu[order] if mu is not None else values, left, dim, k, sorted_=True)


def eigenspace_from_spectrum(
    mu: np.ndarray, vectors: np.ndarray, dim: int, k: int | None = None, sorted_: bool = False
) -> Eigenspace:
    """An ``Eigenspace`` from eigen- (or singular) values ``mu`` and their vectors (columns): ordered by
    |μ| descending (unless ``sorted_``), k by the largest gap among the top ``dim`` values (or given)."""
    mu = np.asarray(mu, dtype=float)
    order = np.arange(mu.size) if sorted_ else np.argsort(-np.abs(mu), kind="stable")
    values, left = np.abs(mu[order]), vectors[:, order]
    if values.size < dim + 1:
        raise ValueError(f"need the top dim + 1 = {dim + 1} values, got {values.size}")
    top = values[: dim + 1]
    if k is None:
        gaps = top[:dim] - top[1 : dim + 1]
        k = int(np.argmax(gaps[: dim - 1]) + 1) if dim > 1 else 1
    elif isinstance(k, bool) or not isinstance(k, int | np.integer) or not 1 <= k <= dim:
        raise ValueError(f"k must be an integer in [1, dim] = [1, {dim}], got {k!r}")
    k = int(k)
    gap = float(values[k - 1] - values[k])
    ratio = float(values[k - 1] / values[k]) if values[k] > 0 else np.inf
    return Eigenspace(left[:, :k].copy(), top[:dim].copy(), k, gap, ratio)


def trivial_direction(graph: GraphLike) -> np.ndarray:
    """D^{1/2}φ₁ normalised, i.e. d / ‖d‖: the direction that b q q_αᵀ removes when b = α = 1 (shape (n,))."""
    degree = np.asarray(adjacency(graph).sum(axis=1)).ravel()
    return degree / np.linalg.norm(degree)


def block_indicator_basis(labels: Sequence[int] | np.ndarray) -> np.ndarray:
    """An orthonormal basis of span{1_{block j}} (n × K), the column space of the SBM's expected M̄."""
    labels = np.asarray(labels)
    if labels.ndim != 1 or labels.size < 2:
        raise ValueError(f"labels must be a 1-D array of n >= 2 block ids, got shape {labels.shape}")
    blocks = np.unique(labels)
    z = (labels[:, None] == blocks[None, :]).astype(float)
    return z / np.sqrt(z.sum(axis=0))


def expected_sbm_matrix(sizes: Sequence[int], p: float, q: float, T: int, b: int, alpha: float) -> np.ndarray:
    """M̄ of the SBM's expected adjacency Ā = Z B Zᵀ (self-loops of weight p kept, so Ā has rank K):
    Pʳ keeps span(Z) invariant, so M̄'s column space lies in the block-indicator span (n × n)."""
    sizes = check_sbm(sizes, p, q)
    if max(p, q) <= 0:
        raise ValueError(
            f"p, q must not both be 0 (the expected graph would have no edges), got p={p!r}, q={q!r}"
        )
    labels = block_labels(sizes)
    probs = block_probabilities(len(sizes), p, q)
    mean_adjacency = probs[labels][:, labels]
    return sgns_matrix(sp.csr_array(mean_adjacency), T, b, alpha)
