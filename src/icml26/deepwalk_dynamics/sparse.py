"""The sparse engine: M = C − b q q_αᵀ as an operator (never formed), its top eigenspace, and the linear
small-norm dynamics (Eq. (3)) on graphs of 10⁵ nodes and more.

For an undirected graph D Pʳ = A (D⁻¹ A)ʳ⁻¹ is symmetric, so Eq. (C) of ``sgns_matrix`` reads
C X = (1 / (T vol)) Σ_{r=1..T} D Pʳ X, i.e. T products with the sparse A per application, and

    M X = C X − b q (q_αᵀ X),                                                                   (S)

O(T · nnz(A) · d) time and O(nnz(A) + n d) memory. The top eigenspace comes from ``scipy.sparse.linalg
.eigsh`` on (S); the linear dynamics (3) are two applications of (S) per step.

Why only the linear phase: the full population gradient (2) weights C and b q q_αᵀ entrywise by σ(U Vᵀ).
b q q_αᵀ is dense (every pair of nodes) and C has support on every pair within T hops, which for T = 5 on
a graph of mean degree 30 is nearly every pair as well; so one nonlinear step needs all n² entries of
U Vᵀ, 10¹⁰ dot products at n = 10⁵ (minutes per step on one core), whatever the sparsity of A. The dense
engine (``population.py``, n <= 5,000) keeps the nonlinear dynamics; this one covers the small-norm
window, where (3) is the paper's object and the linearisation check bounds its error.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import LinearOperator, eigsh

from icml26.deepwalk_dynamics.graphs import GraphLike, adjacency
from icml26.deepwalk_dynamics.sgns_matrix import Eigenspace, eigenspace_from_spectrum


class SparseSGNSMatrix:
    """M of Eq. (M) as an operator on n × d blocks: ``matmat(X)`` = M X by Eq. (S), never forming M.

    graph: a networkx.Graph (rows in ``sorted(G)``) or a symmetric sparse / dense adjacency; T: window;
    b: negatives per pair; alpha: the negative-sampling exponent. Symmetric for α = 1 (M = Mᵀ only then:
    q q_αᵀ is symmetric iff q_α = q); ``rmatmat`` applies Mᵀ for any α.
    """

    def __init__(self, graph: GraphLike, T: int, b: int, alpha: float) -> None:
        for name, value, low in (("window T", T, 1), ("b (negatives per pair)", b, 1)):
            if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < low:
                raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
        if isinstance(alpha, bool) or not isinstance(alpha, int | float) or not np.isfinite(alpha):
            raise ValueError(f"alpha must be a finite number, got {alpha!r}")
        self.adjacency: sp.csr_array = adjacency(graph)
        self.n = self.adjacency.shape[0]
        self.degree = np.asarray(self.adjacency.sum(axis=1)).ravel()
        self.vol = float(self.degree.sum())
        self.T, self.b, self.alpha = int(T), int(b), float(alpha)
        self.q = self.degree / self.vol
        w = self.degree**self.alpha
        self.q_alpha = w / w.sum()

    def _c(self, x: np.ndarray) -> np.ndarray:
        y, total = x, np.zeros_like(x)
        for _ in range(self.T):
            y = (self.adjacency @ y) / self.degree[:, None]  # P y, P = D⁻¹ A
            total += self.degree[:, None] * y  # D Pʳ x
        return total / (self.T * self.vol)

    def _block(self, x: np.ndarray) -> tuple[np.ndarray, bool]:
        x = np.asarray(x, dtype=float)
        if x.ndim not in (1, 2) or x.shape[0] != self.n:
            raise ValueError(f"X must have n = {self.n} rows, got shape {x.shape}")
        return (x[:, None], True) if x.ndim == 1 else (x, False)

    def matmat(self, x: np.ndarray) -> np.ndarray:
        """M X, Eq. (S) (n × d, or a vector of length n)."""
        x, flat = self._block(x)
        out = self._c(x) - self.b * np.outer(self.q, self.q_alpha @ x)
        return out[:, 0] if flat else out

    def rmatmat(self, x: np.ndarray) -> np.ndarray:
        """Mᵀ X (C is symmetric; the negative term transposes to b q_α (qᵀ X))."""
        x, flat = self._block(x)
        out = self._c(x) - self.b * np.outer(self.q_alpha, self.q @ x)
        return out[:, 0] if flat else out

    def operator(self) -> LinearOperator:
        return LinearOperator(
            (self.n, self.n), matvec=self.matmat, rmatvec=self.rmatmat, matmat=self.matmat, dtype=float
        )


def sparse_top_eigenspace(m: SparseSGNSMatrix, k: int, tol: float = 1e-8) -> Eigenspace:
    """M's top-k eigenspace by |μ| from ``eigsh`` on the operator (α = 1, M symmetric), with μ_{k+1} for
    the gap (``values``: the top k). k is given (e.g. K − 1 blocks for b = 1): choosing it by the
    largest gap among the top d, as ``top_eigenspace`` does, needs d + 1 eigenpairs from the spectrum's
    bulk, where Lanczos converges slowly (minutes at n = 10⁵)."""
    if not isinstance(m, SparseSGNSMatrix):
        raise TypeError(f"m must be a SparseSGNSMatrix, got {type(m).__name__}")
    if m.alpha != 1.0:
        raise ValueError(f"the sparse eigenspace needs alpha = 1 (M symmetric), got alpha = {m.alpha:g}")
    if isinstance(k, bool) or not isinstance(k, int | np.integer) or not 1 <= k < m.n - 2:
        raise ValueError(f"k must be an integer in [1, n - 2) = [1, {m.n - 2}), got {k!r}")
    rng = np.random.default_rng(0)  # eigsh's start vector: fixed, so the basis is reproducible
    mu, vec = eigsh(m.operator(), k=int(k) + 1, which="LM", tol=tol, v0=rng.standard_normal(m.n))
    return eigenspace_from_spectrum(mu, vec, int(k), int(k))


def sparse_linearised_gd(
    m: SparseSGNSMatrix, u0: np.ndarray, v0: np.ndarray, eta: float, steps: int, snapshot_every: int = 1
) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
    """Eq. (3) with M applied by Eq. (S): the same iterates as ``population.linearised_gd`` on the dense M."""
    if not isinstance(m, SparseSGNSMatrix):
        raise TypeError(f"m must be a SparseSGNSMatrix, got {type(m).__name__}")
    if u0.shape != v0.shape or u0.ndim != 2 or u0.shape[0] != m.n:
        raise ValueError(f"U₀, V₀ must both be n × d with n = {m.n}, got {u0.shape}, {v0.shape}")
    if isinstance(eta, bool) or not isinstance(eta, int | float) or not np.isfinite(eta) or eta <= 0:
        raise ValueError(f"step size eta must be a finite number > 0, got {eta!r}")
    for name, value in (("steps", steps), ("snapshot_every", snapshot_every)):
        if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
            raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
    u, v = u0.astype(float).copy(), v0.astype(float).copy()
    yield 0, u.copy(), v.copy()
    for step in range(1, steps + 1):
        u, v = u + (eta / 2) * m.matmat(v), v + (eta / 2) * m.rmatmat(u)
        if step % snapshot_every == 0 or step == steps:
            yield step, u.copy(), v.copy()
