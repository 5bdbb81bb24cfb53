"""Population gradient ascent on the expected SGNS objective, and its linearisation at zero.

The expected SGNS objective of DeepWalk (Levy & Goldberg 2014; Qiu et al. 2018) with X = U Vᵀ:

    ℓ(U, V) = Σ_{w,c} C_wc log σ(X_wc) + b Σ_{w,c} q_w q_{α,c} log σ(−X_wc),                    (1)
    ∇_U ℓ = G V,  ∇_V ℓ = Gᵀ U,  G = C ∘ (1 − σ(X)) − b (q q_αᵀ) ∘ σ(X).                        (2)

At X = 0, G = ½ (C − b q q_αᵀ) = ½ M, so near zero the dynamics are linear [inferred]:

    [U; V] ← [U; V] + (η / 2) [[0, M], [Mᵀ, 0]] [U; V],                                        (3)

a power iteration on M. One step of (2) with step η is the expected first-order effect of
``η / step_size`` SGNS pair updates at rate ``step_size`` (each pair is a draw of C, see ``stochastic.py``).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from scipy.special import expit

from icml26.deepwalk_dynamics.config import SGNSConfig


def initial_embeddings(n: int, config: SGNSConfig) -> tuple[np.ndarray, np.ndarray]:
    """U₀, V₀ (n × d each) from ``config.seed``: Gaussian N(0, s²) both, or word2vec's U ~ Unif(±s/2), V = 0."""
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 2:
        raise ValueError(f"n (number of nodes) must be an integer >= 2, got {n!r}")
    rng = np.random.default_rng([config.seed, 0])
    s, d = config.init_scale, config.dim
    if config.init == "word2vec":
        return rng.uniform(-s / 2, s / 2, size=(n, d)), np.zeros((n, d))
    return rng.normal(0.0, s, size=(n, d)), rng.normal(0.0, s, size=(n, d))


def _check_pair(u: np.ndarray, v: np.ndarray, c: np.ndarray, negative: np.ndarray) -> None:
    n = c.shape[0]
    if c.shape != (n, n) or negative.shape != (n, n):
        raise ValueError(f"C and b q q_αᵀ must be n × n, got {c.shape} and {negative.shape}")
    if u.ndim != 2 or u.shape != v.shape or u.shape[0] != n:
        raise ValueError(f"U and V must both be n × d with n = {n}, got {u.shape} and {v.shape}")


def expected_objective(u: np.ndarray, v: np.ndarray, c: np.ndarray, negative: np.ndarray) -> float:
    """Eq. (1): ℓ(U, V), with ``negative`` = b q q_αᵀ (maximised; ≤ 0)."""
    _check_pair(u, v, c, negative)
    x = u @ v.T
    return float(-(c * np.logaddexp(0.0, -x)).sum() - (negative * np.logaddexp(0.0, x)).sum())


def expected_gradient(
    u: np.ndarray, v: np.ndarray, c: np.ndarray, negative: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Eq. (2): (∇_U ℓ, ∇_V ℓ), each n × d."""
    _check_pair(u, v, c, negative)
    s = expit(u @ v.T)
    g = c * (1.0 - s) - negative * s
    return g @ v, g.T @ u


def _check_run(eta: float, steps: int, every: int) -> None:
    if isinstance(eta, bool) or not isinstance(eta, int | float) or not np.isfinite(eta) or eta <= 0:
        raise ValueError(f"step size eta must be a finite number > 0, got {eta!r}")
    for name, value in (("steps", steps), ("snapshot_every", every)):
        if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
            raise ValueError(f"{name} must be an integer >= 1, got {value!r}")


def population_gd(
    c: np.ndarray,
    negative: np.ndarray,
    u0: np.ndarray,
    v0: np.ndarray,
    eta: float,
    steps: int,
    snapshot_every: int = 1,
) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
    """Gradient ascent on Eq. (1) with simultaneous updates; yields ``(step, U, V)`` at step 0 and every
    ``snapshot_every`` steps (copies). Raises if the iterates stop being finite (step too large)."""
    _check_pair(u0, v0, c, negative)
    _check_run(eta, steps, snapshot_every)
    u, v = u0.copy(), v0.copy()
    both = c + negative  # G = C − (C + b q q_αᵀ) ∘ σ(X), one product fewer per step
    yield 0, u.copy(), v.copy()
    for step in range(1, steps + 1):
        with np.errstate(over="ignore", invalid="ignore"):  # divergence is reported just below
            g = c - both * expit(u @ v.T)
            u, v = u + eta * (g @ v), v + eta * (g.T @ u)
        if not (np.all(np.isfinite(u)) and np.all(np.isfinite(v))):
            raise FloatingPointError(f"population GD diverged at step {step} (eta = {eta:g} too large)")
        if step % snapshot_every == 0 or step == steps:
            yield step, u.copy(), v.copy()


def linearised_gd(
    m: np.ndarray, u0: np.ndarray, v0: np.ndarray, eta: float, steps: int, snapshot_every: int = 1
) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
    """Eq. (3): the linear dynamics from the same start, same step and snapshot schedule as ``population_gd``."""
    n = m.shape[0]
    if m.shape != (n, n) or u0.shape != v0.shape or u0.shape[0] != n:
        raise ValueError(f"M must be n × n and U₀, V₀ n × d, got {m.shape}, {u0.shape}, {v0.shape}")
    _check_run(eta, steps, snapshot_every)
    u, v = u0.copy(), v0.copy()
    yield 0, u.copy(), v.copy()
    for step in range(1, steps + 1):
        u, v = u + (eta / 2) * (m @ v), v + (eta / 2) * (m.T @ u)
        if step % snapshot_every == 0 or step == steps:
            yield step, u.copy(), v.copy()
