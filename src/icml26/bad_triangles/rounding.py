"""2-approximations for (weighted) BTT by rounding any feasible cover-LP point (paper Sec. 3).

Asymmetric threshold rounding [reconstructed, see docs]: for a feasible ``x`` of the cover LP and a
threshold ``theta in (0, 1/2]`` take::

    F_theta = {p in E+ : x_p >= theta}  U  {n in E- : x_n > 1 - 2 theta}                      (R)

* Feasible for every theta: a bad triangle missed by ``F_theta`` has ``x_p1, x_p2 < theta`` and
  ``x_n <= 1 - 2 theta``, so ``x_n + x_p1 + x_p2 < 1``, contradicting feasibility.
* For ``theta ~ U(0, 1/2]``: ``P[p in F] = min(1, 2 x_p)`` and ``P[n in F] = x_n``, hence
  ``E[w(F)] <= 2 sum_{E+} w x + sum_{E-} w x <= 2 w.x``.                                     (E)
* So the cheapest ``F_theta`` over all thresholds costs at most ``2 w.x``; with an LP-optimal ``x``
  that is ``<= 2 LP <= 2 OPT``, with a (1+eps)-suboptimal ``x`` it is ``<= 2 (1+eps) LP``.

Negative edges are counted once and positive edges twice; that asymmetry is what beats the generic
factor 3 of a 3-uniform hitting set. With undeletable negatives (MinSTC, ``x_n = 0``) the best threshold
is 1/2: the classic MinSTC 2-approximation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from icml26.bad_triangles.graph import SignedGraph
from icml26.bad_triangles.lp import LPSolution, solve_cover_lp, solve_cover_lp_mwu
from icml26.bad_triangles.triangles import bad_triangles

__all__ = ["Transversal", "btt_2approx", "min_stc_2approx", "round_lp_threshold"]

# LP solvers return x with ~1e-9 noise; a naive x_n > 0 at theta = 1/2 would then take every negative
# edge with x_n = 1e-12. Values are snapped to this grid before the strict comparisons of (R).
_DECIMALS = 9


@dataclass(frozen=True)
class Transversal:
    """A bad-triangle transversal ``F`` (a set of edge ids) with its cost and bounds.

    Attributes:
        edge_ids: sorted int array of edge ids in ``F``.
        cost: ``w(F)``.
        lower_bound: a proven lower bound on ``OPT`` (LP value or dual bound; packing size; 0 if none).
        method: which algorithm produced it.
        theta: threshold of (R) when the LP rounding made it, else ``nan``.
    """

    edge_ids: np.ndarray
    cost: float
    lower_bound: float
    method: str
    theta: float = math.nan

    def __len__(self) -> int:
        return int(self.edge_ids.size)

    @property
    def ratio_to_bound(self) -> float:
        """``cost / lower_bound`` (1 when both are 0, inf when only the bound is 0)."""
        if self.cost <= 0:
            return 1.0
        return self.cost / self.lower_bound if self.lower_bound > 0 else math.inf


def _check_x(graph: SignedGraph, x: np.ndarray | LPSolution) -> np.ndarray:
    arr = np.asarray(x.x if isinstance(x, LPSolution) else x, dtype=np.float64)
    if arr.shape != (graph.m,):
        raise ValueError(f"x must have shape (m,) = ({graph.m},), one value per edge id, got {arr.shape}")
    if not np.all(np.isfinite(arr)) or arr.min(initial=0.0) < -1e-9:
        raise ValueError("x must be finite and >= 0 (a feasible point of the bad-triangle cover LP)")
    return np.round(np.clip(arr, 0.0, None), _DECIMALS)


def _select(graph: SignedGraph, xs: np.ndarray, theta: float, just_above: bool) -> np.ndarray:
    """Edge mask of (R) at ``theta`` (or at ``theta + 0``, i.e. the limit from the right)."""
    pos, neg = graph.sign > 0, graph.sign < 0
    half = (1.0 - xs) / 2.0  # n in F  <=>  x_n > 1 - 2 theta  <=>  (1 - x_n) / 2 < theta
    if just_above:
        take_p, take_n = xs > theta, half <= theta
    else:
        take_p, take_n = xs >= theta, half < theta
    return (pos & take_p & (xs > 0)) | (neg & take_n & (xs > 0))


def round_lp_threshold(
    graph: SignedGraph,
    x: np.ndarray | LPSolution,
    triangles: np.ndarray | None = None,
    theta: float | None = None,
) -> Transversal:
    """Round a feasible cover-LP point by the asymmetric threshold rule (R); ``w(F) <= 2 w.x``.

    Args:
        graph: the signed graph.
        x: feasible point of the cover LP, float array ``(m,)`` (or an :class:`LPSolution`).
        triangles: its bad triangles ``(T, 3)``; computed when omitted.
        theta: a fixed threshold in ``(0, 1/2]`` (one draw of the randomized algorithm, guarantee in
            expectation (E)); ``None`` = derandomized: the cheapest feasible ``F_theta`` over every
            breakpoint of the cost, which costs at most the expectation, so ``<= 2 w.x`` always.

    Edges with ``x_e = 0`` are never taken (an edge in no bad triangle has ``x_e = 0``).
    """
    if not isinstance(graph, SignedGraph):
        raise TypeError(f"graph must be a SignedGraph, got {type(graph).__name__}")
    xs = _check_x(graph, x)
    tri = bad_triangles(graph) if triangles is None else np.asarray(triangles, dtype=np.int64).reshape(-1, 3)
    bound = float(x.lower_bound) if isinstance(x, LPSolution) else 0.0
    if theta is not None:
        if isinstance(theta, bool) or not isinstance(theta, int | float) or not 0 < theta <= 0.5:
            raise ValueError(f"theta must be a number in (0, 1/2], got {theta!r}")
        mask = _select(graph, xs, float(theta), just_above=False)
        if tri.size and not mask[tri].any(axis=1).all():
            raise ValueError("x is not feasible for the bad-triangle cover LP: a bad triangle sums to < 1")
        ids = np.flatnonzero(mask)
        return Transversal(ids, graph.cost(ids), bound, "lp_threshold_random", float(theta))
    # Cost of (R) is piecewise constant in theta; its minimum over (0, 1/2] is attained just above a
    # value x_p or (1 - x_n)/2, or at 1/2 exactly. Evaluate every candidate by sorting + cumsum.
    pos = (graph.sign > 0) & (xs > 0)
    neg = (graph.sign < 0) & (xs > 0)
    xp, wp = xs[pos], graph.weight[pos]
    hn, wn = (1.0 - xs[neg]) / 2.0, graph.weight[neg]
    order_p, order_n = np.argsort(xp), np.argsort(hn)
    xp, wp, hn, wn = xp[order_p], wp[order_p], hn[order_n], wn[order_n]
    cum_p = np.concatenate([[0.0], np.cumsum(wp)])  # cum_p[i] = weight of the i smallest x_p
    cum_n = np.concatenate([[0.0], np.cumsum(wn)])
    starts = np.unique(np.concatenate([[0.0], xp, hn]))
    starts = starts[(starts >= 0) & (starts < 0.5)]
    # just above t:  positives with x_p > t,  negatives with (1 - x_n)/2 <= t
    cost_above = (cum_p[-1] - cum_p[np.searchsorted(xp, starts, side="right")]) + cum_n[
        np.searchsorted(hn, starts, side="right")
    ]
    # exactly 1/2: positives with x_p >= 1/2, negatives with (1 - x_n)/2 < 1/2
    cost_half = (cum_p[-1] - cum_p[np.searchsorted(xp, 0.5, side="left")]) + cum_n[
        np.searchsorted(hn, 0.5, side="left")
    ]
    candidates = [(float(c), float(t), True) for c, t in zip(cost_above, starts)] + [
        (float(cost_half), 0.5, False)
    ]
    candidates.sort(key=lambda c: c[0])
    for _, t, above in candidates:
        mask = _select(graph, xs, t, just_above=above)
        if not tri.size or mask[tri].any(axis=1).all():
            ids = np.flatnonzero(mask)
            return Transversal(ids, graph.cost(ids), bound, "lp_threshold", t)
    raise ValueError("x is not feasible for the bad-triangle cover LP: no threshold gives a transversal")


def btt_2approx(
    graph: SignedGraph, solver: str = "highs", eps: float = 0.1, triangles: np.ndarray | None = None
) -> Transversal:
    """Weighted BTT 2-approximation: cover LP + derandomized threshold rounding (R).

    Guarantee: ``w(F) <= 2 LP <= 2 OPT`` with ``solver="highs"`` (exact LP); ``w(F) <= 2 (1+eps) LP`` with
    ``solver="mwu"`` (the fast certified multiplicative-weights solver), in time close to one pass of
    maximal bad-triangle packing per MWU iteration. ``lower_bound`` of the result is the LP value
    (``"highs"``) or the MWU dual bound (``"mwu"``).
    """
    if solver not in ("highs", "mwu"):
        raise ValueError(f"solver must be 'highs' or 'mwu', got {solver!r}")
    tri = bad_triangles(graph) if triangles is None else triangles
    lp = solve_cover_lp(graph, tri) if solver == "highs" else solve_cover_lp_mwu(graph, tri, eps=eps)
    f = round_lp_threshold(graph, lp, tri)
    return Transversal(f.edge_ids, f.cost, lp.lower_bound, f"btt_2approx_{solver}", f.theta)


def min_stc_2approx(graph: SignedGraph, triangles: np.ndarray | None = None) -> Transversal:
    """MinSTC 2-approximation: BTT where negative edges may not be deleted.

    Solves the cover LP with ``x_n = 0`` (every bad triangle needs ``x_p1 + x_p2 >= 1``) and rounds with
    (R); only positive edges are returned and ``w(F) <= 2 LP_STC <= 2 OPT_STC``.
    """
    tri = bad_triangles(graph) if triangles is None else triangles
    lp = solve_cover_lp(graph, tri, forbid_negative=True)
    f = round_lp_threshold(graph, lp, tri)
    return Transversal(f.edge_ids, f.cost, lp.lower_bound, "min_stc_2approx", f.theta)
