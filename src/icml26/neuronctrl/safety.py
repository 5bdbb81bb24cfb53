"""Barrier-based safety with minimal intervention: one QP with OSQP [structure read; details inferred].

The abstract: "Safety is enforced via complementary barrier-based mechanisms at both the action and
field levels, with minimal intervention". Our form [inferred]:

action level (hard):   u_low <= u <= u_high,  |u - u_prev| <= rate,  sum_j |u_j| <= budget;
field level (soft):    discrete CBF per bounded node, h(z) = z - lower >= 0 and upper - z >= 0,
                       h(F(z, u)) >= (1 - alpha) h(z) + margin,                               (S1)
                       linearised at the nominal action through the operator's Jacobian,
                       F(z, u) ~ F(z, u_nom) + J (u - u_nom),  J = dF/du  (N x m);            (S2)
QP:                    min ||u - u_nom||^2 + rho sum(xi)   s.t. the above, G u - xi <= h, xi >= 0.  (S3)

A nominal action that already satisfies every row is returned unchanged (minimal intervention). When
the field rows cannot all hold, the slack xi > 0 is used and the result says so (``message``).
``margin`` is the conformal bound on the operator's one-step error (``operator.conformal_margin``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import osqp
import scipy.sparse as sp


@dataclass
class FilterResult:
    u: np.ndarray  # the filtered action
    intervened: bool
    ratio: float  # ||u - u_nom|| / max(||u_nom||, 1e-12)
    slack: float  # largest slack used on a field row (0 when every row holds)
    residual: float  # largest violation of an action or field row by u (the slack's rows included)
    message: str = ""


def field_rows(z, f_nom, jac, u_nom, lower, upper, alpha: float, margin) -> tuple[np.ndarray, np.ndarray]:
    """Rows G u <= h of the linearised discrete barrier (S1)-(S2) for every node with a finite bound.

    z: (N,) current field estimate; f_nom: (N,) F(z, u_nom); jac: (N, m) dF/du at u_nom; margin:
    scalar or (N,) >= 0. Lower bound: -J u <= f_nom - J u_nom - lower - (1 - a)(z - lower) - margin;
    upper bound: J u <= upper - f_nom + J u_nom - (1 - a)(upper - z) - margin.
    """
    if not 0.0 < alpha <= 1.0:
        raise ValueError(f"alpha must be in (0, 1], got {alpha}")
    margin = np.broadcast_to(np.asarray(margin, float), z.shape)
    ju = jac @ u_nom
    lo = np.isfinite(lower)
    up = np.isfinite(upper)
    g_lo = -jac[lo]
    h_lo = f_nom[lo] - ju[lo] - lower[lo] - (1 - alpha) * (z[lo] - lower[lo]) - margin[lo]
    g_up = jac[up]
    h_up = upper[up] - f_nom[up] + ju[up] - (1 - alpha) * (upper[up] - z[up]) - margin[up]
    return np.vstack([g_lo, g_up]), np.concatenate([h_lo, h_up])


class SafetyFilter:
    """The minimal-intervention QP (S3) over box, rate, budget and linearised field rows."""

    def __init__(
        self, u_low, u_high, rate: float, budget: float, slack_penalty: float = 1e4, tol: float = 1e-9
    ):
        self.u_low, self.u_high = np.asarray(u_low, float), np.asarray(u_high, float)
        if self.u_low.shape != self.u_high.shape or self.u_low.ndim != 1 or self.u_low.size == 0:
            raise ValueError("u_low and u_high must be 1-D arrays of the same length (one per actuator)")
        if np.any(self.u_low > self.u_high):
            raise ValueError(f"contradictory box: u_low {self.u_low} exceeds u_high {self.u_high}")
        if not (rate > 0) or not (budget >= 0):
            raise ValueError(f"rate must be > 0 and budget >= 0, got rate={rate}, budget={budget}")
        lo_abs = np.where(
            (self.u_low <= 0) & (self.u_high >= 0), 0.0, np.minimum(abs(self.u_low), abs(self.u_high))
        )
        if lo_abs.sum() > budget:
            raise ValueError(
                f"contradictory constraints: the box needs sum |u| >= {lo_abs.sum()} > budget {budget}"
            )
        self.rate, self.budget, self.rho, self.tol = (
            float(rate),
            float(budget),
            float(slack_penalty),
            float(tol),
        )

    @property
    def m(self) -> int:
        return self.u_low.size

    def window(self, u_prev) -> tuple[np.ndarray, np.ndarray, str]:
        lo = np.maximum(self.u_low, u_prev - self.rate)
        hi = np.minimum(self.u_high, u_prev + self.rate)
        if np.any(lo > hi):  # u_prev far outside the box: drop the rate limit there
            bad = lo > hi
            lo[bad], hi[bad] = self.u_low[bad], self.u_high[bad]
            return lo, hi, "rate window empty (previous action outside the box): rate limit relaxed"
        return lo, hi, ""

    def residual(self, u, u_prev, g=None, h=None) -> float:
        lo, hi, _ = self.window(np.asarray(u_prev, float))
        r = max(0.0, float(np.max(lo - u)), float(np.max(u - hi)), float(np.abs(u).sum() - self.budget))
        if g is not None and len(h):
            r = max(r, float(np.max(g @ u - h)))
        return r

    def _check(self, u_nom, u_prev, g, h):
        u_nom, u_prev = np.asarray(u_nom, float), np.asarray(u_prev, float)
        if u_nom.shape != (self.m,) or u_prev.shape != (self.m,):
            raise ValueError(
                f"u_nom and u_prev must have {self.m} entries, got {u_nom.shape} and {u_prev.shape}"
            )
        if not (np.all(np.isfinite(u_nom)) and np.all(np.isfinite(u_prev))):
            raise ValueError("u_nom and u_prev must be finite")
        if g is None:
            g, h = np.zeros((0, self.m)), np.zeros(0)
        g, h = np.asarray(g, float).reshape(-1, self.m), np.asarray(h, float).ravel()
        if g.shape[0] != h.size:
            raise ValueError(f"field rows: G has {g.shape[0]} rows, h has {h.size}")
        return u_nom, u_prev, g, h

    def filter(self, u_nom, u_prev, g=None, h=None) -> FilterResult:
        """Solve (S3); a safe ``u_nom`` comes back unchanged."""
        u_nom, u_prev, g, h = self._check(u_nom, u_prev, g, h)
        lo, hi, msg = self.window(u_prev)
        if self.residual(u_nom, u_prev, g, h) <= self.tol:
            return FilterResult(u_nom.copy(), False, 0.0, 0.0, 0.0, msg)
        # exact pruning: a row cannot bind if it holds for every u in the window
        reach = np.maximum(np.abs(lo - u_nom), np.abs(hi - u_nom))
        keep = g @ u_nom + np.abs(g) @ reach > h - 1e-12 if len(h) else np.zeros(0, bool)
        norm = np.linalg.norm(g, axis=1)
        dead = keep & (norm <= 1e-10 * max(1.0, float(norm.max(initial=0.0))))  # rows u cannot move
        stuck = float(max(0.0, -np.min(h[dead], initial=0.0)))  # violated whatever u is
        keep &= ~dead
        g_k, h_k, norm = g[keep], h[keep], norm[keep]
        g_k, h_k = g_k / norm[:, None], h_k / norm  # unit rows: bounded multipliers, so the slack
        # penalty is exact whenever the rows are feasible
        u = self._solve(u_nom, lo, hi, g_k, h_k, soft=False)  # hard rows first; slack only if infeasible
        if u is None:
            u = self._solve(u_nom, lo, hi, g_k, h_k, soft=True)
        slack = float(max(0.0, np.max((g_k @ u - h_k) * norm))) if len(h_k) else 0.0
        slack = max(slack if slack > 1e-9 else 0.0, stuck)
        if slack > 1e-7:
            msg = (
                msg + "; " if msg else ""
            ) + f"field rows infeasible: slack fallback used (max slack {slack:.3g})"
        ratio = float(np.linalg.norm(u - u_nom) / max(np.linalg.norm(u_nom), 1e-12))
        return FilterResult(u, True, ratio, slack, self.residual(u, u_prev, g, h) if slack <= 1e-7 else
                            self.residual(u, u_prev), msg)  # fmt: skip

    def _solve(self, u_nom, lo, hi, g, h, soft: bool) -> np.ndarray | None:
        m, k = self.m, g.shape[0]
        sign = 1.0 if np.all(self.u_low >= 0) else (-1.0 if np.all(self.u_high <= 0) else 0.0)
        nt = 0 if sign else m  # with a sign-definite box, sum |u| = sign * sum u is linear
        # variables x = [u (m), t (nt), xi (k)]; t >= |u|, sum |u| <= budget, G u - xi <= h, xi >= 0
        eye = sp.eye(m)
        ks = k if soft else 0
        blocks = [2 * eye] + ([1e-6 * sp.eye(nt)] if nt else []) + ([sp.eye(ks)] if ks else [])
        p = sp.block_diag(blocks).tocsc()
        q = np.concatenate([-2 * u_nom, np.zeros(nt), np.full(ks, self.rho)])
        z = sp.csr_matrix
        rows = [sp.hstack([eye, z((m, nt + ks))])]
        low, up = [lo], [hi]
        if nt:
            rows += [sp.hstack([-eye, sp.eye(nt), z((m, ks))]), sp.hstack([eye, sp.eye(nt), z((m, ks))]),
                     sp.hstack([z((1, m)), z(np.ones((1, nt))), z((1, ks))])]  # fmt: skip
            low += [np.zeros(m), np.zeros(m), [-np.inf]]
            up += [np.full(m, np.inf), np.full(m, np.inf), [self.budget]]
        else:
            rows.append(sp.hstack([z(np.full((1, m), sign)), z((1, ks))]))
            low.append([-np.inf])
            up.append([self.budget])
        if ks:
            rows += [sp.hstack([z(g), z((k, nt)), -sp.eye(k)]), sp.hstack([z((k, m + nt)), sp.eye(k)])]
            low += [np.full(k, -np.inf), np.zeros(k)]
            up += [h, np.full(k, np.inf)]
        elif k:
            rows.append(sp.hstack([z(g), z((k, nt))]))
            low.append(np.full(k, -np.inf))
            up.append(h)
        a = sp.vstack(rows).tocsc()
        solver = osqp.OSQP()
        solver.setup(p, q, a, np.concatenate(low), np.concatenate(up), verbose=False, polishing=True,
                     eps_abs=1e-5, eps_rel=1e-5, max_iter=4000, polish_refine_iter=10)  # fmt: skip
        res = solver.solve(raise_error=False)
        ok = res.x is not None and np.all(np.isfinite(res.x[:m]))
        if not soft and (not ok or "infeasible" in res.info.status and "inaccurate" not in res.info.status):
            return None
        u = np.asarray(res.x[:m], float) if ok else np.clip(u_nom, lo, hi)
        u = np.clip(u, lo, hi)  # exact box and rate
        excess = np.abs(u).sum() - self.budget
        if excess > 0:  # exact budget: shrink towards the window point of least |u|
            anchor = np.clip(0.0, lo, hi)
            u = anchor + (u - anchor) * (self.budget - np.abs(anchor).sum()) / max(
                np.abs(u).sum() - np.abs(anchor).sum(), 1e-300
            )
        return u


def naive_filter(flt: SafetyFilter, u_nom, u_prev, g=None, h=None, iters: int = 40) -> FilterResult:
    """The control: scale towards the previous (feasible) action, u = u_ref + theta (u_nom - u_ref),
    with the largest theta in [0, 1] (bisection) meeting every row; u_ref = u_prev clipped to the box."""
    u_nom, u_prev, g, h = flt._check(u_nom, u_prev, g, h)
    if flt.residual(u_nom, u_prev, g, h) <= flt.tol:
        return FilterResult(u_nom.copy(), False, 0.0, 0.0, 0.0)
    ref = np.clip(u_prev, flt.u_low, flt.u_high)
    lo_t, hi_t = 0.0, 1.0
    for _ in range(iters):
        mid = (lo_t + hi_t) / 2
        if flt.residual(ref + mid * (u_nom - ref), u_prev, g, h) <= flt.tol:
            lo_t = mid
        else:
            hi_t = mid
    u = ref + lo_t * (u_nom - ref)
    ratio = float(np.linalg.norm(u - u_nom) / max(np.linalg.norm(u_nom), 1e-12))
    return FilterResult(u, True, ratio, 0.0, flt.residual(u, u_prev, g, h))
