"""The bad-triangle cover LP (paper Sec. 3) and two ways to solve it.

For a signed graph with weights ``w`` and bad triangles ``t = {n, p1, p2}``::

    LP:    min  sum_e w_e x_e   s.t.  x_n + x_p1 + x_p2 >= 1  for every bad triangle,  x >= 0   (LP)
    dual:  max  sum_t y_t       s.t.  sum_{t ni e} y_t <= w_e  for every edge,          y >= 0

:func:`solve_cover_lp` solves (LP) exactly with HiGHS (through ``scipy.optimize.linprog``).
:func:`solve_cover_lp_mwu` is the fast path: a multiplicative-weights covering solver that returns a
*feasible* ``x`` together with a dual-feasible ``y``, so ``sum_t y_t <= LP <= w.x`` certifies how
suboptimal ``x`` is. The paper uses the near-linear-time solver of Cao et al. for this step; that solver
was not available to us, so this is our substitute with the same contract (feasible, (1+eps)-optimal).

With ``forbid_negative=True`` negative edges cannot be deleted (``x_n = 0``): this is the MinSTC
special case, where every bad triangle (open wedge) needs ``x_p1 + x_p2 >= 1``.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

from icml26.bad_triangles.graph import SignedGraph
from icml26.bad_triangles.triangles import bad_triangles

__all__ = ["LPSolution", "cover_matrix", "solve_cover_lp", "solve_cover_lp_mwu"]

_EXP_CAP = 700.0  # MWU weights exp(-z) with z capped here: exp(-700) ~ 1e-304 is still a normal double


@dataclass(frozen=True)
class LPSolution:
    """A feasible point of the bad-triangle cover LP.

    Attributes:
        x: float array ``(m,)`` over all edge ids (0 on edges in no bad triangle); feasible for (LP).
        value: ``w . x``.
        lower_bound: a proven lower bound on the LP optimum (= ``value`` for the exact solver, the dual
            objective ``sum_t y_t`` for the MWU solver).
        method: ``"highs"`` or ``"mwu"``.
        iterations: solver iterations.
        seconds: wall-clock time of the solve.
    """

    x: np.ndarray
    value: float
    lower_bound: float
    method: str
    iterations: int
    seconds: float

    @property
    def gap(self) -> float:
        """Certified relative suboptimality ``value / lower_bound - 1`` (0 when both are 0)."""
        if self.value <= 0:
            return 0.0
        return self.value / self.lower_bound - 1.0 if self.lower_bound > 0 else math.inf


def _prepare(
    graph: SignedGraph, triangles: np.ndarray | None, forbid_negative: bool
) -> tuple[np.ndarray, np.ndarray, sp.csr_matrix]:
    """Column edge ids, their weights and the 0/1 matrix ``(T, k)`` of (LP) over deletable edges."""
    if not isinstance(graph, SignedGraph):
        raise TypeError(f"graph must be a SignedGraph, got {type(graph).__name__}")
    tri = bad_triangles(graph) if triangles is None else np.asarray(triangles, dtype=np.int64)
    if tri.ndim != 2 or tri.shape[1] != 3:
        raise ValueError(f"triangles must be an int array of shape (T, 3), got shape {tri.shape}")
    if tri.size and (tri.min() < 0 or tri.max() >= graph.m):
        raise ValueError(f"triangle edge ids must lie in [0, {graph.m})")
    if forbid_negative:
        if tri.size and np.any(graph.sign[tri[:, 1:]] < 0):
            raise ValueError(
                "triangles must be rows [negative, positive, positive] when forbid_negative=True"
            )
        tri = tri[:, 1:]
    cols = np.unique(tri)
    col_of = np.full(graph.m, -1, dtype=np.int64)
    col_of[cols] = np.arange(cols.size)
    rows = np.repeat(np.arange(tri.shape[0]), tri.shape[1])
    data = np.ones(rows.size)
    a = sp.csr_matrix((data, (rows, col_of[tri.ravel()])), shape=(tri.shape[0], cols.size))
    a.sum_duplicates()
    a.data[:] = 1.0  # a repeated edge in one row still counts once
    return cols, graph.weight[cols], a


def cover_matrix(
    graph: SignedGraph, triangles: np.ndarray | None = None, forbid_negative: bool = False
) -> tuple[np.ndarray, sp.csr_matrix]:
    """The constraint matrix of (LP): ``(cols, A)`` with ``A`` sparse 0/1 of shape ``(T, len(cols))``.

    ``cols`` maps column ``j`` to edge id ``cols[j]``; only edges in some bad triangle (and deletable
    ones, when ``forbid_negative``) get a column.
    """
    cols, _, a = _prepare(graph, triangles, forbid_negative)
    return cols, a


def solve_cover_lp(
    graph: SignedGraph, triangles: np.ndarray | None = None, forbid_negative: bool = False
) -> LPSolution:
    """Solve (LP) exactly with HiGHS (interior point + crossover, via ``scipy.optimize.linprog``).

    IPM rather than dual simplex: the cover LP is highly degenerate and dual simplex can take 30x longer.

    Returns the optimal ``x`` (shape ``(m,)``) with ``value = lower_bound = LP*``.
    """
    start = time.perf_counter()
    cols, w, a = _prepare(graph, triangles, forbid_negative)
    x = np.zeros(graph.m)
    if a.shape[0] == 0:
        return LPSolution(x, 0.0, 0.0, "highs", 0, time.perf_counter() - start)
    res = linprog(c=w, A_ub=-a, b_ub=-np.ones(a.shape[0]), bounds=(0.0, 1.0), method="highs-ipm")
    if res.status != 0:
        raise RuntimeError(f"HiGHS failed on the bad-triangle cover LP: {res.message}")
    xc = np.clip(res.x, 0.0, 1.0)
    low = float((a @ xc).min())  # HiGHS meets rows to its 1e-7 tolerance; scale up to exact feasibility
    if low <= 0:
        raise RuntimeError(f"HiGHS returned a point that covers a bad triangle by {low}: not feasible")
    x[cols] = np.minimum(xc / low, 1.0) if low < 1.0 else xc
    value = float(graph.weight @ x)
    return LPSolution(x, value, float(res.fun), "highs", int(res.nit), time.perf_counter() - start)


def solve_cover_lp_mwu(
    graph: SignedGraph,
    triangles: np.ndarray | None = None,
    eps: float = 0.1,
    max_iter: int = 50_000,
    forbid_negative: bool = False,
) -> LPSolution:
    """Fast approximate (LP) solver by multiplicative weights; certified ``w.x <= (1+eps) * LP``.

    Each iteration puts weight ``p_t = exp(-eta * cover_t)`` on every bad triangle (``cover = A x``,
    ``eta = ln(T) / eps``), and raises ``x`` on the edges whose weighted hit count per unit weight
    ``(A^T p)_e / w_e`` is within ``1 + eps`` of the largest, by a step that raises no triangle's cover by
    more than ``1 / eta``. Two certificates come for free at every iteration:

    * ``x / min_t cover_t`` is feasible for (LP): an upper bound;
    * ``y_t = p_t / max_{e in t} (A^T p)_e / w_e`` is feasible for the dual: ``sum_t y_t`` is a lower
      bound (each triangle is scaled by its own tightest edge, which beats one global scale).

    The loop stops once ``best upper <= (1 + eps) * best lower``, so the guarantee holds whatever the
    convergence speed; if ``max_iter`` runs out first the returned ``gap`` says what was reached.
    Costs ``O(T)`` per iteration (two sparse mat-vecs). Edges of weight 0 are taken for free.
    """
    if isinstance(eps, bool) or not isinstance(eps, int | float) or not 0 < eps < 1:
        raise ValueError(f"eps must be a number in (0, 1), got {eps!r}")
    if isinstance(max_iter, bool) or not isinstance(max_iter, int) or max_iter < 1:
        raise ValueError(f"max_iter must be a positive integer, got {max_iter!r}")
    start = time.perf_counter()
    cols, w, a = _prepare(graph, triangles, forbid_negative)
    x_full = np.zeros(graph.m)
    free = w <= 0
    if free.any():  # zero-weight edges cost nothing: take them and drop the triangles they hit
        x_full[cols[free]] = 1.0
        keep = np.asarray(a[:, free].sum(axis=1)).ravel() == 0
        a = a[keep][:, ~free].tocsr()
        cols, w = cols[~free], w[~free]
    n_tri = a.shape[0]
    if n_tri == 0:
        return LPSolution(x_full, float(graph.weight @ x_full), 0.0, "mwu", 0, time.perf_counter() - start)
    at = a.T.tocsr()
    lengths = np.diff(a.indptr)
    if np.all(lengths == lengths[0]):
        by_row = a.indices.reshape(n_tri, lengths[0])
    else:  # rows shortened by dropping free edges: pad each row by repeating its own columns
        by_row = np.array([np.resize(a.indices[a.indptr[i] : a.indptr[i + 1]], 3) for i in range(n_tri)])
    tri_cols = [np.ascontiguousarray(c) for c in by_row.T]  # column j of every triangle row
    eta = max(1.0, math.log(n_tri)) / eps
    x = np.zeros(a.shape[1])
    cover = np.zeros(n_tri)
    best_ub, best_x, best_lb = math.inf, np.ones(a.shape[1]), 0.0
    z, p = np.empty(n_tri), np.empty(n_tri)
    iterations = 0
    for _ in range(max_iter):
        iterations += 1
        low = cover.min()
        # shifted by the minimum for numerical range (cancels in y); exponents capped at 700, where
        # exp stays a normal number: exp's subnormal range is ~20x slower, and any p > 0 certifies
        np.subtract(cover, low, out=z)
        z *= eta
        np.minimum(z, _EXP_CAP, out=z)
        np.negative(z, out=z)
        p = np.exp(z, out=p)
        gain = (at @ p) / w
        top = gain.max()
        # y_t = p_t / max_{e in t} gain_e is dual feasible: sum_{t ni e} y_t <= sum_{t ni e} p_t / gain_e = w_e
        tightest = gain[tri_cols[0]]
        for c in tri_cols[1:]:
            np.maximum(tightest, gain[c], out=tightest)
        best_lb = max(best_lb, float((p / tightest).sum()))
        if low > 0 and (w @ x) / low < best_ub:
            best_ub, best_x = (w @ x) / low, x / low
        if best_ub <= (1.0 + eps) * best_lb:
            break
        chosen = (gain >= top / (1.0 + eps)).astype(np.float64)
        rise = a @ chosen
        step = 1.0 / (eta * rise.max())
        x += step * chosen
        cover += step * rise
    x_full[cols] = np.minimum(best_x, 1.0)  # capping at 1 keeps feasibility and lowers cost
    value = float(graph.weight @ x_full)
    return LPSolution(x_full, value, float(best_lb), "mwu", iterations, time.perf_counter() - start)
