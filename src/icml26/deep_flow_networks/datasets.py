"""Generated ground truths: quadratic, separable norm, max-affine, a concave control, and an M-convex
min-cost-flow value (the stand-in for the paper's vehicle-scheduling task)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from icml26.common import check_int
from icml26.deep_flow_networks.gadgets import FlowFunction
from icml26.deep_flow_networks.solver import FlowNetwork

Truth = Callable[[np.ndarray], np.ndarray]


def random_quadratic(
    dim: int, rng: np.random.Generator, eig_range: tuple[float, float] = (1.0, 15.0), center_box: float = 25.0
) -> Truth:
    """g(x) = (x - c)^T Q (x - c) with eig(Q) uniform in ``eig_range`` and c uniform (real) in
    [-center_box, center_box]^dim [read: eig(Q) in [1, 15]; the law of c is inferred]."""
    dim = check_int("dim", dim)
    u, _ = np.linalg.qr(rng.normal(size=(dim, dim)))
    q = u @ np.diag(rng.uniform(*eig_range, size=dim)) @ u.T
    c = rng.uniform(-center_box, center_box, size=dim)

    def g(X: np.ndarray) -> np.ndarray:
        z = np.asarray(X, dtype=float) - c
        return np.einsum("ni,ij,nj->n", z, q, z)

    g.Q, g.c = q, c  # type: ignore[attr-defined]
    return g


def separable_norm(weights: np.ndarray, center: np.ndarray, power: float = 1.5) -> Truth:
    """g(x) = sum_i w_i |x_i - c_i|^p (separable, convex for p >= 1, w >= 0)."""
    w, c = np.asarray(weights, dtype=float), np.asarray(center, dtype=float)
    return lambda X: (w * np.abs(np.asarray(X, dtype=float) - c) ** power).sum(axis=1)


def max_affine(slopes: np.ndarray, intercepts: np.ndarray) -> Truth:
    """g(x) = max_k a_k^T x + b_k."""
    a, b = np.asarray(slopes, dtype=float), np.asarray(intercepts, dtype=float)
    return lambda X: (np.asarray(X, dtype=float) @ a.T + b).max(axis=1)


def concave_control(q: np.ndarray) -> Truth:
    """g(x) = -x^T Q x: not convex-extendible, so no DFN fits it (the control)."""
    return lambda X: -np.einsum("ni,ij,nj->n", np.asarray(X, float), q, np.asarray(X, float))


def uniform_integers(n: int, dim: int, low: int, high: int, rng: np.random.Generator) -> np.ndarray:
    """(n, dim) integers uniform in [low, high]."""
    return rng.integers(low, high + 1, size=(check_int("n", n), check_int("dim", dim)))


def mconvex_truth(dim: int, n_hidden: int, rng: np.random.Generator, density: float = 0.5) -> FlowFunction:
    """The value of a random integer min-cost-flow network: terminals 0..dim-1 with supplies x, hidden
    nodes, a root; random arcs (integer costs 1..9, capacities 1..6) and slack arcs terminal <-> root
    (cost 30) so every x is feasible. M-natural-convex in x (Murota 2003)."""
    dim, n_hidden = check_int("dim", dim), check_int("n_hidden", n_hidden)
    n = dim + n_hidden
    tail, head = [], []
    for u in range(n + 1):
        for v in range(n + 1):
            if u != v and (u < dim) + (v < dim) < 2 and rng.random() < density:
                tail.append(u)
                head.append(v)
    for i in range(dim):
        tail += [i, n]
        head += [n, i]
    m = len(tail)
    cost = rng.integers(1, 10, size=m).astype(float)
    cap = rng.integers(1, 7, size=m).astype(float)
    cost[-2 * dim :], cap[-2 * dim :] = 30.0, 1e6
    return FlowFunction(FlowNetwork(n, np.array(tail), np.array(head)), cost, cap, np.eye(dim), np.zeros(dim))
