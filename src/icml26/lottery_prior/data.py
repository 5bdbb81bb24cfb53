"""Test images: fixed 256 x 256 regions of photos bundled in the scikit-image wheel (never downloaded),
resized to the working size with anti-aliasing. Kodak, Set5/Set14 and the DIP set are not available
offline."""

from __future__ import annotations

import numpy as np

__all__ = ["IMAGES", "load"]

# name -> (skimage.data function, top, left); each region is 256 x 256
IMAGES: dict[str, tuple[str, int, int]] = {
    "astronaut": ("astronaut", 0, 128),
    "coffee": ("coffee", 100, 200),
    "camera": ("camera", 64, 128),
    "chelsea": ("chelsea", 20, 100),
    "coins": ("coins", 0, 0),
    "moon": ("moon", 100, 100),
}


def load(name: str, size: int) -> np.ndarray:
    """Image ``name`` at ``size x size``: float64 in [0, 1], ``(H, W)`` grey or ``(H, W, 3)`` colour."""
    if name not in IMAGES:
        raise ValueError(f"unknown image {name!r}; accepted: {', '.join(IMAGES)}")
    if isinstance(size, bool) or not isinstance(size, int) or not 8 <= size <= 256:
        raise ValueError(f"size must be an integer in [8, 256], got {size!r}")
    from skimage import data
    from skimage.transform import resize

    func, top, left = IMAGES[name]
    img = getattr(data, func)()[top : top + 256, left : left + 256].astype(np.float64) / 255.0
    if size != 256:
        img = resize(img, (size, size, *img.shape[2:]), order=3, anti_aliasing=True)
    return np.clip(img, 0.0, 1.0)
