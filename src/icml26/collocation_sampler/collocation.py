"""The collocation method (Lee, Song, Vempala 2018) on one time window, as used by the paper.

On a window ``[a, a + h]`` the velocity ``tau -> F(y(tau), tau)`` is replaced by its degree-``D``
interpolant at Chebyshev nodes ``c_0 = 0 < c_1 < ... < c_D = 1`` (the paper's "low-degree
approximation": along the true flow this interpolant is ``eps``-accurate once ``D = Theta(log 1/eps)``).
Integrating the interpolant gives the collocation equations

    Y_i = y_a + h * sum_j A_ij F(Y_j, a + h c_j),     A_ij = int_0^{c_i} l_j(s) ds,      (Coll)

with ``l_j`` the Lagrange basis. They are solved by Picard iteration ``Y^(k+1) = y_a + h A F(Y^(k))``,
a contraction when ``|h| Lip(F) ||A||_inf < 1``; all ``D`` node evaluations of one round are independent
and go to the score as one batch, so one round is one sequential step. The window's endpoint is the
node ``c_D = 1``: ``y_{a+h} = Y_D``.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import torch
from numpy.polynomial import chebyshev as C

Velocity = Callable[[torch.Tensor, torch.Tensor], torch.Tensor]


def _check_degree(degree: object) -> int:
    if not isinstance(degree, int | np.integer) or isinstance(degree, bool) or degree < 1:
        raise ValueError(f"degree must be an integer >= 1, got {degree!r}")
    return int(degree)


def chebyshev_nodes(degree: int) -> np.ndarray:
    """Chebyshev-Lobatto nodes ``c_j = (1 - cos(pi j / D)) / 2``, ``j = 0..D``, on [0, 1]; shape (D+1,).

    Both endpoints are nodes, so the window's end value is read off without an extra score call.
    """
    d = _check_degree(degree)
    c = 0.5 * (1.0 - np.cos(np.pi * np.arange(d + 1) / d))
    c[0], c[-1] = 0.0, 1.0
    return c


def integration_matrix(degree: int) -> tuple[np.ndarray, np.ndarray]:
    """The collocation matrix ``A`` of (Coll), shape (D+1, D+1), and its nodes, shape (D+1,).

    ``A @ f(c)`` equals ``int_0^{c_i} f`` exactly for every polynomial ``f`` of degree <= D. Built in the
    Chebyshev basis (interpolate each Lagrange basis function by ``chebvander``, integrate with
    ``chebint``): the monomial Vandermonde route loses ~7 digits at D >= 16.
    """
    d = _check_degree(degree)
    c = chebyshev_nodes(d)
    x = 2.0 * c - 1.0  # nodes on [-1, 1]
    coef = np.linalg.solve(C.chebvander(x, d), np.eye(d + 1))  # column j: Chebyshev coefficients of l_j
    integ = C.chebint(coef, lbnd=-1.0, axis=0)  # antiderivatives vanishing at x = -1
    a = 0.5 * C.chebval(x, integ).T  # rows: nodes i, columns: basis j; 1/2 from ds = dx / 2
    a[0] = 0.0
    return a, c


def collocation_window(
    velocity: Velocity,
    y_a: torch.Tensor,
    a: float,
    b: float,
    matrix: torch.Tensor,
    nodes: torch.Tensor,
    max_rounds: int = 50,
    tol: float = 1e-12,
    return_converged: bool = False,
) -> tuple[torch.Tensor, int, int] | tuple[torch.Tensor, int, int, bool]:
    """Solve (Coll) on the window from ``a`` to ``b`` (``b < a`` integrates backwards) by Picard rounds.

    velocity: ``F(x, t)`` with ``x`` (m, d), ``t`` (m,) -> (m, d).
    y_a: (n, d) states at time ``a``. matrix, nodes: from :func:`integration_matrix`, on ``y_a``'s device.
    Stops when the largest node update is ``<= tol * (1 + max|y_a|)`` or after ``max_rounds`` rounds.
    Returns ``(y_b, rounds, score_evals_per_sample)``, and whether the stopping rule held when
    ``return_converged``.
    """
    n, d = y_a.shape
    k = nodes.shape[0]
    h = b - a
    t_nodes = a + h * nodes  # (D+1,)
    t_flat = t_nodes.repeat_interleave(n)  # node-major: rows [i*n:(i+1)*n] are node i
    scale = 1.0 + float(y_a.abs().max())
    ys = y_a.expand(k, n, d).clone()  # Y^(0): constant initial guess
    f = torch.empty_like(ys)
    evals, converged = 0, False
    for rnd in range(1, max_rounds + 1):
        # node 0 is y_a itself (A's first row is 0): evaluate it once, in the first round only
        lo = 0 if rnd == 1 else 1
        f_new = velocity(ys[lo:].reshape(-1, d), t_flat[lo * n :]).reshape(k - lo, n, d)
        if not torch.isfinite(f_new).all():
            raise ValueError(
                f"score returned non-finite values on the window [{a:.6g}, {b:.6g}] (round {rnd}); "
                "a finite score is required"
            )
        f[lo:] = f_new
        evals += k - lo
        y_new = y_a + h * torch.einsum("ij,jnd->ind", matrix, f)
        change = float((y_new - ys).abs().max())
        ys = y_new
        if change <= tol * scale:
            converged = True
            break
    if not math.isfinite(change):
        raise ValueError(f"Picard iteration diverged on the window [{a:.6g}, {b:.6g}]; use shorter windows")
    return (ys[-1], rnd, evals, converged) if return_converged else (ys[-1], rnd, evals)
