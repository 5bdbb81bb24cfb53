"""Universality's constructive gadgets and the general min-cost-flow function they build.

Theorem (universality) [read, poster]: for a convex-extendible g on Z^d, a finite grid I and eps > 0
there are theta, alpha, beta with max_I |g - (alpha f_theta + beta)| <= eps. Its constructive pieces
[read]: a 1-D convex g on {lo..hi} is two nodes joined by unit-capacity parallel arcs whose costs are
the successive increments g(lo+k) - g(lo+k-1) (convexity sorts them, so a flow of t = x - lo takes the
first t); a separable sum is disjoint gadgets (sharing only the root here).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from icml26.deep_flow_networks.solver import FlowNetwork, HighsFlowSolver, linprog_flow


@dataclass
class FlowFunction:
    """x -> V(A x + b) + offset, V the min-cost-flow value of ``network`` with ``cost`` and ``cap``;
    the supplies A x + b sit on nodes ``0..k-1`` (A: (k, d)), other nodes have supply 0."""

    network: FlowNetwork
    cost: np.ndarray
    cap: np.ndarray
    A: np.ndarray
    b: np.ndarray
    offset: float = 0.0

    def __post_init__(self) -> None:
        self.A = np.atleast_2d(np.asarray(self.A, dtype=float))
        self.b = np.asarray(self.b, dtype=float)
        if self.b.shape != (self.A.shape[0],) or self.A.shape[0] > self.network.n_nodes:
            raise ValueError(
                f"A (k, d) and b (k,) must agree with k <= n_nodes, got {self.A.shape}, {self.b.shape}"
            )

    @property
    def input_dim(self) -> int:
        return self.A.shape[1]

    def supplies(self, X: np.ndarray) -> np.ndarray:
        X = np.asarray(X, dtype=float).reshape(-1, self.input_dim)
        s = np.zeros((len(X), self.network.n_nodes))
        s[:, : self.A.shape[0]] = X @ self.A.T + self.b
        return s

    def value(self, X: np.ndarray, reference: bool = False) -> np.ndarray:
        """(N,) values; ``reference=True`` solves each with ``scipy.optimize.linprog`` instead of highspy."""
        s = self.supplies(X)
        if reference:
            return linprog_flow(self.network, self.cost, self.cap, s).value + self.offset
        return HighsFlowSolver(self.network, self.cost, self.cap).solve(s).value + self.offset


def separable_convex_gadget(tables: list[np.ndarray], lows: list[int], big_cost: float = 1e6) -> FlowFunction:
    """The exact DFN of ``g(x) = sum_i g_i(x_i)`` on the box ``lows[i] .. lows[i] + len(tables[i]) - 1``.

    tables[i]: g_i's values on its range (convex: non-decreasing increments, else ValueError). Terminal i
    sends t_i = x_i - lo_i to the root through len-1 unit arcs costed by the increments; slack arcs
    (``big_cost``) keep every input feasible outside the box.
    """
    if len(tables) != len(lows) or not tables:
        raise ValueError(
            f"tables and lows must be non-empty and of equal length, got {len(tables)} and {len(lows)}"
        )
    d = len(tables)
    tail, head, cost, cap = [], [], [], []
    for i, table in enumerate(tables):
        t = np.asarray(table, dtype=float)
        if t.ndim != 1 or t.size < 2 or not np.all(np.isfinite(t)):
            raise ValueError(f"tables[{i}] must be a finite 1-D array of >= 2 values, got shape {t.shape}")
        inc = np.diff(t)
        if np.any(np.diff(inc) < -1e-12 * max(1.0, np.abs(inc).max())):
            raise ValueError(f"tables[{i}] is not convex (its increments decrease)")
        tail += [i] * inc.size
        head += [d] * inc.size
        cost += inc.tolist()
        cap += [1.0] * inc.size
        tail += [i, d]
        head += [d, i]
        cost += [big_cost, big_cost]
        cap += [1e9, 1e9]
    offset = float(sum(np.asarray(t, dtype=float)[0] for t in tables))
    return FlowFunction(
        FlowNetwork(d, np.array(tail), np.array(head)),
        np.array(cost),
        np.array(cap),
        np.eye(d),
        -np.asarray(lows, dtype=float),
        offset,
    )
