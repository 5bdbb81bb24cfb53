"""Intervals that carry the distillation seeds' variance and the test images' (two-way bootstrap).

A method's per-image score ``R[s, i]`` (seed ``s``, test image ``i``; already averaged over the eval
networks and attacks) is resampled on both crossed factors at once: the seeds with replacement and,
independently, the images with replacement (every seed sees the same test images); with 2-3 seeds the
seed factor's bootstrap is coarse and somewhat narrow, so the intervals are optimistic there;
every method is resampled with the same draws, so a comparison's interval is paired.
"""

from __future__ import annotations

import numpy as np

N_BOOT = 2000


def bootstrap_weights(
    n_seeds: int, n_images: int, seed: int = 0, n_boot: int = N_BOOT
) -> tuple[np.ndarray, np.ndarray]:
    """Multinomial resampling counts ``(n_boot, n_seeds)`` and ``(n_boot, n_images)``."""
    rng = np.random.default_rng(seed)
    ws = rng.multinomial(n_seeds, np.full(n_seeds, 1 / n_seeds), size=n_boot).astype(float)
    wi = rng.multinomial(n_images, np.full(n_images, 1 / n_images), size=n_boot).astype(float)
    return ws, wi


def resampled_means(scores: np.ndarray, weights: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """The bootstrap replicates ``(n_boot,)`` of the mean of ``scores`` ``(n_seeds, n_images)``."""
    ws, wi = weights
    return ((ws @ scores) * wi).sum(1) / (ws.sum(1) * wi.sum(1))


def interval(replicates: np.ndarray) -> tuple[float, float]:
    """The 95% percentile interval of bootstrap replicates."""
    low, high = np.percentile(replicates, [2.5, 97.5])
    return float(low), float(high)
