"""How invariant a representation is across environments: the mechanism DIGL's objective acts on.

- :func:`env_w2`: the mean class-conditional W2 distance between environments' embedding distributions,
  on embeddings standardised by their pooled within-class standard deviation (so that a method cannot
  look invariant by shrinking its embedding);
- :func:`env_w2_excess`: the same distance relative to its value under environment ids shuffled within
  each class (the permutation null): between two finite samples of one distribution W2 is far from 0 in
  64 dimensions (about 4 standardised units for 70 graphs a cloud), so only the excess over that floor
  measures environment structure; 0 means indistinguishable from a random relabelling;
- :func:`env_probe`: how well a logistic probe recovers the environment from the embedding within each
  class (5-fold cross-validation), against the within-class majority rate (chance for that class).
"""

from __future__ import annotations

import itertools

import numpy as np
import ot


def _check(z: np.ndarray, y: np.ndarray, env: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    z, y, env = np.asarray(z, dtype=float), np.asarray(y), np.asarray(env)
    if z.ndim != 2 or y.shape != (z.shape[0],) or env.shape != (z.shape[0],):
        raise ValueError(
            f"z must be (n, d) with y and env of shape (n,), got {z.shape}, {y.shape}, {env.shape}"
        )
    return z, y, env


def standardise_within_class(z: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``z / s`` per dimension, ``s`` the pooled within-class standard deviation (dimensions with
    ``s = 0`` are dropped: constant within every class, they carry no environment information)."""
    centred = z.copy()
    for c in np.unique(y):
        centred[y == c] -= z[y == c].mean(0)
    s = centred.std(0)
    keep = s > 1e-12
    return z[:, keep] / s[keep]


def env_w2(z: np.ndarray, y: np.ndarray, env: np.ndarray) -> float:
    """Mean over classes and environment pairs of the exact ``W_2(mu_{e,y}, mu_{e',y})`` (uniform
    weights), on within-class-standardised embeddings. Pairs need both clouds non-empty; ``nan`` if none."""
    z, y, env = _check(z, y, env)
    zs = standardise_within_class(z, y)
    if zs.shape[1] == 0:
        return 0.0
    out = []
    for c in np.unique(y):
        envs = [e for e in np.unique(env) if np.any((y == c) & (env == e))]
        for e1, e2 in itertools.combinations(envs, 2):
            a, b = zs[(y == c) & (env == e1)], zs[(y == c) & (env == e2)]
            out.append(np.sqrt(max(ot.emd2(ot.unif(len(a)), ot.unif(len(b)), ot.dist(a, b)), 0.0)))
    return float(np.mean(out)) if out else float("nan")


def shuffle_within_class(y: np.ndarray, env: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``env`` permuted among the graphs of each class (class sizes and per-class environment counts kept)."""
    out = np.asarray(env).copy()
    for c in np.unique(y):
        idx = np.flatnonzero(y == c)
        out[idx] = rng.permutation(out[idx])
    return out


def env_w2_excess(
    z: np.ndarray, y: np.ndarray, env: np.ndarray, n_perm: int = 20, seed: int = 0
) -> tuple[float, float, float]:
    """``(excess, w2, null)``: ``w2 = env_w2(z, y, env)``, ``null`` its mean over ``n_perm`` within-class
    shuffles of ``env`` (the finite-sample floor), ``excess = (w2 - null) / null`` (0: no more environment
    structure than random labels; it can be negative by chance)."""
    z, y, env = _check(z, y, env)
    if isinstance(n_perm, bool) or not isinstance(n_perm, int) or n_perm < 1:
        raise ValueError(f"n_perm must be an integer >= 1, got {n_perm!r}")
    rng = np.random.default_rng(seed)
    w2 = env_w2(z, y, env)
    null = float(np.mean([env_w2(z, y, shuffle_within_class(y, env, rng)) for _ in range(n_perm)]))
    excess = (w2 - null) / null if null > 0 else 0.0
    return float(excess), float(w2), null


def env_probe(z: np.ndarray, y: np.ndarray, env: np.ndarray, seed: int = 0) -> tuple[float, float]:
    """``(probe accuracy, majority rate)``, each averaged over classes: within class y, a logistic
    regression predicting the environment from z (standardised; 5-fold stratified CV), and the share of
    the most frequent environment in that class. Classes whose rarest environment has < 5 graphs are skipped."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold, cross_val_score
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    z, y, env = _check(z, y, env)
    accs, majors = [], []
    for c in np.unique(y):
        zc, ec = z[y == c], env[y == c]
        counts = np.unique(ec, return_counts=True)[1]
        if counts.size < 2 or counts.min() < 5:
            continue
        probe = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000))
        folds = StratifiedKFold(5, shuffle=True, random_state=seed)
        accs.append(float(cross_val_score(probe, zc, ec, cv=folds).mean()))
        majors.append(float(counts.max() / counts.sum()))
    if not accs:
        return float("nan"), float("nan")
    return float(np.mean(accs)), float(np.mean(majors))
