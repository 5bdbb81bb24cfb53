"""The variance of the stochastic SGNS updates beside their mean (the abstract: "the variance of the
stochastic updates turns out to be very large").

One SGNS update draws a pair (w, c) from the co-occurrence distribution C (Eq. (C)) and b negatives
n_1..n_b from q_α; its gradient (without word2vec's skip of n_j = c, so that its mean is exact) is

    Δu_w = (1 − σ(u_w·v_c)) v_c − Σ_j σ(u_w·v_{n_j}) v_{n_j},
    Δv_c = (1 − σ(u_w·v_c)) u_w,   Δv_{n_j} = −σ(u_w·v_{n_j}) u_w   (summed where rows coincide),   (V1)

and E[Δ] = ∇ℓ of Eq. (2) (``population.expected_gradient``). The noise-to-signal ratio of one update is

    R = tr Cov(Δ) / ‖E Δ‖²_F = (E ‖Δ‖²_F − ‖∇ℓ‖²_F) / ‖∇ℓ‖²_F,                                   (V2)

independent of the step size [our measure of "variance": the paper's definition was not readable,
``[inferred]``]. E ‖Δ‖² is a Monte-Carlo mean over ``samples`` draws; ‖∇ℓ‖² is exact.
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit

from icml26.common.validation import check_int
from icml26.deepwalk_dynamics.population import expected_gradient


def update_noise_ratio(
    u: np.ndarray,
    v: np.ndarray,
    c: np.ndarray,
    q_alpha: np.ndarray,
    negatives: int,
    rng: np.random.Generator,
    samples: int = 100_000,
) -> dict[str, float]:
    """Eq. (V2) at (U, V): ``ratio`` R, ``second_moment`` E‖Δ‖², ``mean_sq`` ‖∇ℓ‖² (per-pair units)."""
    n = c.shape[0]
    b = check_int("negatives (b)", negatives, 1)
    samples = check_int("samples", samples, 2)
    if c.shape != (n, n) or u.shape != v.shape or u.shape[0] != n or q_alpha.shape != (n,):
        raise ValueError(f"need C n × n, U, V n × d and q_α of length n, got {c.shape}, {u.shape}, {v.shape}")
    flat = np.cumsum(c.ravel())
    pick = np.minimum(np.searchsorted(flat, rng.random(samples) * flat[-1], side="right"), n * n - 1)
    w, ctx = pick // n, pick % n
    table = np.cumsum(q_alpha)
    neg = np.minimum(np.searchsorted(table, rng.random((samples, b)) * table[-1], side="right"), n - 1)
    rows = np.concatenate([ctx[:, None], neg], axis=1)  # the V rows one update touches: c, n_1..n_b
    dots = np.einsum("sd,sjd->sj", u[w], v[rows])
    g = np.concatenate([1.0 - expit(dots[:, :1]), -expit(dots[:, 1:])], axis=1)  # (V1)'s coefficients
    du = np.einsum("sj,sjd->sd", g, v[rows])
    same = rows[:, :, None] == rows[:, None, :]
    dv_sq = np.einsum("sj,sk,sjk->s", g, g, same) * (u[w] ** 2).sum(axis=1)
    second = float(((du**2).sum(axis=1) + dv_sq).mean())
    # the mean update per pair: ∇ℓ of Eq. (2) with negative = b q q_αᵀ and q the marginal of C
    q = c.sum(axis=1)
    gu, gv = expected_gradient(u, v, c, b * np.outer(q, q_alpha))
    mean_sq = float((gu**2).sum() + (gv**2).sum())
    return {"ratio": (second - mean_sq) / mean_sq, "second_moment": second, "mean_sq": mean_sq}
