"""Sample-quality metrics: W2 (POT), energy W2, E(n)-invariant geometric W2, interatomic-distance TV,
geodesic-kernel MMD on the sphere, mode weights by posterior responsibility."""

from __future__ import annotations

import itertools

import numpy as np
import ot
import torch


def w2(x: torch.Tensor, y: torch.Tensor) -> float:
    """Exact 2-Wasserstein distance between two empirical measures (squared Euclidean cost, POT emd)."""
    m = ot.dist(np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64))
    return float(np.sqrt(max(ot.emd2([], [], m, numItermax=2_000_000), 0.0)))


def geodesic_w2_sphere(x: torch.Tensor, y: torch.Tensor) -> float:
    """W2 on the unit sphere with the geodesic (great-circle) cost."""
    c = np.arccos(np.clip(np.asarray(x) @ np.asarray(y).T, -1.0, 1.0)) ** 2
    return float(np.sqrt(max(ot.emd2([], [], c, numItermax=2_000_000), 0.0)))


def energy_w2(ex: torch.Tensor, ey: torch.Tensor) -> float:
    """1-D W2 between the energy values of two sample sets (the E(.)W2 of Table 1)."""
    a, b = np.asarray(ex, dtype=np.float64), np.asarray(ey, dtype=np.float64)
    ok_a, ok_b = a[np.isfinite(a)], b[np.isfinite(b)]
    if not len(ok_a) or not len(ok_b):
        return float("inf")
    return float(np.sqrt(ot.wasserstein_1d(ok_a, ok_b, p=2)))


def _kabsch_2d_cost(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """``min_{R in O(2)} ||x - y R||^2`` for centred ``(a, P, 2)`` and ``(b, P, 2)``: ``(a, b)``."""
    xx = (x**2).sum((1, 2))[:, None]
    yy = (y**2).sum((1, 2))[None, :]
    dot = torch.einsum("apk,bpk->ab", x, y)
    cross = torch.einsum("ap,bp->ab", x[..., 0], y[..., 1]) - torch.einsum("ap,bp->ab", x[..., 1], y[..., 0])
    yr = y * torch.tensor([1.0, -1.0], dtype=y.dtype)
    dot_r = torch.einsum("apk,bpk->ab", x, yr)
    cross_r = torch.einsum("ap,bp->ab", x[..., 0], yr[..., 1]) - torch.einsum(
        "ap,bp->ab", x[..., 1], yr[..., 0]
    )
    best = torch.maximum(torch.sqrt(dot**2 + cross**2), torch.sqrt(dot_r**2 + cross_r**2))
    return (xx + yy - 2 * best).clamp_min(0)


def geometric_w2(x: torch.Tensor, y: torch.Tensor, n_particles: int, spatial: int) -> float:
    """E(n)-invariant W2 for 2-D particle systems: the cost between two configurations is the minimum
    over particle permutations and rotations/reflections of the squared distance after centring (exact:
    all permutations with a closed-form 2-D Kabsch), then OT. [inferred: the paper's alignment order is
    not known; this cost is the exact minimum.]"""
    if spatial != 2:
        raise ValueError(f"geometric_w2 is implemented for 2-D particles, got spatial = {spatial}")
    a = x.reshape(len(x), n_particles, 2)
    b = y.reshape(len(y), n_particles, 2)
    a = a - a.mean(1, keepdim=True)
    b = b - b.mean(1, keepdim=True)
    cost = torch.full((len(a), len(b)), float("inf"), dtype=torch.float64)
    for perm in itertools.permutations(range(n_particles)):
        cost = torch.minimum(cost, _kabsch_2d_cost(a, b[:, list(perm)]))
    return float(np.sqrt(max(ot.emd2([], [], cost.numpy(), numItermax=2_000_000), 0.0)))


def distance_tv(
    dx: torch.Tensor, dy: torch.Tensor, bins: int = 100, low: float = 0.0, high: float = 8.0
) -> float:
    """Total variation between histograms of interatomic distances (``bins`` on ``[low, high]``)."""
    hx, _ = np.histogram(np.asarray(dx).ravel(), bins=bins, range=(low, high))
    hy, _ = np.histogram(np.asarray(dy).ravel(), bins=bins, range=(low, high))
    return float(0.5 * np.abs(hx / max(hx.sum(), 1) - hy / max(hy.sum(), 1)).sum())


def mmd2_geodesic(x: torch.Tensor, y: torch.Tensor, bandwidth: float = 0.3) -> float:
    """Biased (V-statistic) MMD^2 on the sphere with kernel ``exp(-d(x, y)^2 / (2 h^2))``, d geodesic."""

    def k(a, b):
        d = torch.arccos((a @ b.T).clamp(-1.0, 1.0))
        return torch.exp(-(d**2) / (2 * bandwidth**2))

    return float(k(x, x).mean() + k(y, y).mean() - 2 * k(x, y).mean())


def mode_weights(responsibilities: torch.Tensor, threshold: float = 0.5) -> tuple[np.ndarray, float]:
    """Fraction of points assigned to each mode (max responsibility >= threshold) and the off-mode fraction."""
    r = np.asarray(responsibilities)
    best = r.argmax(1)
    on = r.max(1) >= threshold
    w = np.bincount(best[on], minlength=r.shape[1]) / len(r)
    return w, float(1 - on.mean())


def mode_weight_tv(responsibilities: torch.Tensor, weights, threshold: float = 0.5) -> float:
    """TV between the sample's mode weights (off-mode points as a mode of their own) and ``weights``."""
    w, off = mode_weights(responsibilities, threshold)
    return float(0.5 * (np.abs(w - np.asarray(weights)).sum() + off))


def gaussian_w2(x: torch.Tensor, y: torch.Tensor) -> float:
    """W2 between the Gaussians with the sample means and covariances of ``x`` and ``y`` (Bures)."""
    from scipy.linalg import sqrtm

    mx, my = x.mean(0).numpy(), y.mean(0).numpy()
    cx, cy = np.cov(x.numpy().T), np.cov(y.numpy().T)
    sx = np.real(sqrtm(cx))
    cross = np.real(sqrtm(sx @ cy @ sx))
    return float(np.sqrt(max(((mx - my) ** 2).sum() + np.trace(cx + cy - 2 * cross), 0.0)))
