"""Seeding: every run is a function of (config, seed)."""

from __future__ import annotations

import random

import numpy as np


def seed_everything(seed: int) -> np.random.Generator:
    """Seed Python, NumPy and (if installed) PyTorch; return a NumPy ``Generator`` for ``seed``."""
    if not isinstance(seed, int | np.integer) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    random.seed(seed)
    np.random.seed(seed % 2**32)
    try:
        import torch
    except ImportError:  # torch is a core dependency, but keep seeding usable without it
        pass
    else:
        torch.manual_seed(seed)
    return np.random.default_rng(seed)
