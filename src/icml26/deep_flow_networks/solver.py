"""Min-cost-flow solves with their sensitivities: HiGHS (``highspy``, warm-started) and ``linprog``.

A network is ``n`` balance rows (the non-root nodes; the root's row is implied, since supplies sum
to zero over all nodes) and ``m`` arcs ``tail -> head``. The value of supplies ``s`` is

    V(s) = min c^T xi   s.t.  N xi = s,  0 <= xi <= u,                               (LP)

with ``N[v, e] = +1`` if ``v = tail(e)``, ``-1`` if ``v = head(e)``. LP sensitivity gives, at a
non-degenerate optimum, ``dV/dc = xi*``, ``dV/ds = pi`` (the balance rows' duals, the node potentials)
and ``dV/du = mu <= 0`` (the capacity bounds' duals, nonzero on saturated arcs only).
"""

from __future__ import annotations

from dataclasses import dataclass

import highspy
import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

from icml26.common import quiet_native_output


class SolverError(RuntimeError):
    """A solve that did not reach a proven optimum; the message names the instance."""


@dataclass(frozen=True)
class FlowNetwork:
    """The graph of a flow network: ``n_nodes`` balance nodes plus an implicit root (index ``n_nodes``).

    tail, head: (m,) arc end points in ``0..n_nodes`` (the root included).
    """

    n_nodes: int
    tail: np.ndarray
    head: np.ndarray

    def __post_init__(self) -> None:
        tail, head = np.asarray(self.tail), np.asarray(self.head)
        if tail.ndim != 1 or tail.shape != head.shape or tail.size == 0:
            raise ValueError(
                f"tail and head must be equal-length non-empty 1-D arrays, got {tail.shape}, {head.shape}"
            )
        if min(tail.min(), head.min()) < 0 or max(tail.max(), head.max()) > self.n_nodes:
            raise ValueError(f"arc end points must lie in 0..{self.n_nodes} (the root is {self.n_nodes})")
        if np.any(tail == head):
            raise ValueError("an arc may not be a loop (tail == head)")

    @property
    def n_arcs(self) -> int:
        return int(np.asarray(self.tail).size)

    def incidence(self) -> sp.csc_matrix:
        """``N``: (n_nodes, m), +1 at the tail and -1 at the head, the root's row dropped."""
        m = self.n_arcs
        rows = np.concatenate([self.tail, self.head])
        vals = np.concatenate([np.ones(m), -np.ones(m)])
        cols = np.concatenate([np.arange(m), np.arange(m)])
        keep = rows < self.n_nodes
        return sp.csc_matrix((vals[keep], (rows[keep], cols[keep])), shape=(self.n_nodes, m))


@dataclass
class FlowSolution:
    """Solves of one network at a batch of supplies: value (B,), flow (B, m), potential (B, n),
    capacity_dual (B, m) (``dV/du``, <= 0), iterations (B,) simplex iterations."""

    value: np.ndarray
    flow: np.ndarray
    potential: np.ndarray
    capacity_dual: np.ndarray
    iterations: np.ndarray


def _check_costs_caps(
    network: FlowNetwork, cost: np.ndarray, cap: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    cost, cap = np.asarray(cost, dtype=float), np.asarray(cap, dtype=float)
    m = network.n_arcs
    if cost.shape != (m,) or cap.shape != (m,):
        raise ValueError(f"cost and cap must have shape ({m},), got {cost.shape} and {cap.shape}")
    if not (np.all(np.isfinite(cost)) and np.all(np.isfinite(cap)) and np.all(cap > 0)):
        raise ValueError("costs must be finite and capacities finite and > 0")
    return cost, cap


def _check_supplies(network: FlowNetwork, supplies: np.ndarray) -> np.ndarray:
    s = np.asarray(supplies, dtype=float)
    if s.ndim == 1:
        s = s[None, :]
    if s.ndim != 2 or s.shape[1] != network.n_nodes or not np.all(np.isfinite(s)):
        raise ValueError(
            f"supplies must be finite with shape (B, {network.n_nodes}), got {np.shape(supplies)}"
        )
    return s


class HighsFlowSolver:
    """The network LP built once in ``highspy``; costs, capacities and supplies change in place and each
    solve starts from the previous optimal basis (dual simplex warm start). The batched solver."""

    def __init__(self, network: FlowNetwork, cost: np.ndarray, cap: np.ndarray) -> None:
        cost, cap = _check_costs_caps(network, cost, cap)
        self.network = network
        n, m = network.n_nodes, network.n_arcs
        with quiet_native_output():
            h = highspy.Highs()
        h.setOptionValue("output_flag", False)
        h.setOptionValue("presolve", "off")  # keeps the basis between solves
        inc = network.incidence()
        lp = highspy.HighsLp()
        lp.num_col_, lp.num_row_ = m, n
        lp.col_cost_ = cost
        lp.col_lower_ = np.zeros(m)
        lp.col_upper_ = cap
        lp.row_lower_ = np.zeros(n)
        lp.row_upper_ = np.zeros(n)
        lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
        lp.a_matrix_.start_ = inc.indptr.astype(np.int32)
        lp.a_matrix_.index_ = inc.indices.astype(np.int32)
        lp.a_matrix_.value_ = inc.data
        h.passModel(lp)
        self._h, self._cols, self._rows = h, np.arange(m, dtype=np.int32), np.arange(n, dtype=np.int32)

    def update(self, cost: np.ndarray, cap: np.ndarray) -> None:
        """New arc costs and capacities (the basis is kept)."""
        cost, cap = _check_costs_caps(self.network, cost, cap)
        m = self.network.n_arcs
        self._h.changeColsCost(m, self._cols, cost)
        self._h.changeColsBounds(m, self._cols, np.zeros(m), cap)

    def solve(self, supplies: np.ndarray) -> FlowSolution:
        """Solve (LP) at each row of ``supplies`` (B, n); raise :class:`SolverError` naming the first
        row that did not solve to optimality."""
        s = _check_supplies(self.network, supplies)
        h, n, m = self._h, self.network.n_nodes, self.network.n_arcs
        out = FlowSolution(
            np.empty(len(s)),
            np.empty((len(s), m)),
            np.empty((len(s), n)),
            np.empty((len(s), m)),
            np.empty(len(s)),
        )
        for i, row in enumerate(s):
            h.changeRowsBounds(n, self._rows, row, row)
            h.run()
            status = h.getModelStatus()
            if status != highspy.HighsModelStatus.kOptimal:
                # a warm start can end "Unknown" on numerical trouble: solve once more from scratch
                h.clearSolver()
                h.run()
                status = h.getModelStatus()
            if status != highspy.HighsModelStatus.kOptimal:
                raise SolverError(
                    f"HiGHS: instance {i} of {len(s)} (supplies {row.tolist()}) ended {h.modelStatusToString(status)}"
                )
            sol = h.getSolution()
            out.value[i] = h.getInfo().objective_function_value
            out.flow[i] = sol.col_value
            out.potential[i] = sol.row_dual
            out.capacity_dual[i] = np.minimum(np.asarray(sol.col_dual), 0.0)
            out.iterations[i] = h.getInfo().simplex_iteration_count
        return out


def linprog_flow(
    network: FlowNetwork, cost: np.ndarray, cap: np.ndarray, supplies: np.ndarray
) -> FlowSolution:
    """The reference: one ``scipy.optimize.linprog(method="highs")`` per row of ``supplies``, built from scratch."""
    cost, cap = _check_costs_caps(network, cost, cap)
    s = _check_supplies(network, supplies)
    inc = network.incidence()
    n, m = network.n_nodes, network.n_arcs
    out = FlowSolution(
        np.empty(len(s)),
        np.empty((len(s), m)),
        np.empty((len(s), n)),
        np.empty((len(s), m)),
        np.empty(len(s)),
    )
    for i, row in enumerate(s):
        res = linprog(cost, A_eq=inc, b_eq=row, bounds=np.column_stack([np.zeros(m), cap]), method="highs")
        if res.status != 0:
            raise SolverError(
                f"linprog: instance {i} of {len(s)} (supplies {row.tolist()}) failed: {res.message}"
            )
        out.value[i] = res.fun
        out.flow[i] = res.x
        out.potential[i] = res.eqlin.marginals
        out.capacity_dual[i] = res.upper.marginals
        out.iterations[i] = res.nit
    return out
