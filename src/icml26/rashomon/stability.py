"""Stability of the Rashomon set under small distribution shifts [inferred setting].

D' is D after a shift: a bootstrap resample, labels flipped at a rate, or feature bits flipped at a
rate (a simplification of the predecessor's geometric bit-flip noise). A member f of R(D) "stays" when
Obj_{D'}(f) <= (1 + eps + delta) Obj_{D'}(f*_{D'}), f*_{D'} the optimum on D' (so ``delta = 0`` asks for
membership of R_{D'}(eps) by its definition, not by treefarms' enumeration, which omits equivalent trees).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from icml26.rashomon.rashomon_set import RashomonSet
from icml26.rashomon.trees import Tree, check_binary_data

SHIFTS = ("bootstrap", "label_flip", "bit_flip")


def shift_dataset(
    Xb: np.ndarray, y: np.ndarray, kind: str, level: float, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """D' from D: ``bootstrap`` (``level`` ignored), ``label_flip`` or ``bit_flip`` at rate ``level``."""
    Xb, y = check_binary_data(Xb, y)
    if kind not in SHIFTS:
        raise ValueError(f"shift kind {kind!r} is not one of {', '.join(SHIFTS)}")
    if not (isinstance(level, int | float) and 0 <= level <= 0.5):
        raise ValueError(f"shift level must be a rate in [0, 0.5], got {level!r}")
    if kind == "bootstrap":
        idx = rng.integers(0, len(y), len(y))
        return Xb[idx], y[idx]
    if kind == "label_flip":
        flip = rng.permutation(len(y))[: int(round(level * len(y)))]
        y2 = y.copy()
        y2[flip] ^= 1
        return Xb, y2
    return (Xb ^ (rng.random(Xb.shape) < level)).astype(np.int8), y


def share_inside(
    trees: Sequence[Tree],
    Xb2: np.ndarray,
    y2: np.ndarray,
    reg: float,
    optimum2: float,
    eps: float,
    delta: float = 0.0,
) -> float:
    """Share of ``trees`` with Obj_{D'} <= (1 + eps + delta) x ``optimum2``."""
    objs = np.array([t.objective(Xb2, y2, reg) for t in trees])
    return float(np.mean(objs <= (1 + eps + delta) * optimum2 + 1e-9))


def stability(
    R: RashomonSet, R2: RashomonSet, Xb2: np.ndarray, y2: np.ndarray, delta: float
) -> dict[str, float]:
    """``overlap`` |R(D) n R(D')| / |R(D)| (same trees enumerated), ``stay`` (share of R(D) inside
    R_{D'}(eps)), ``stay_delta`` (inside R_{D'}(eps + delta)) and the mean accuracy of R(D)'s members on
    D and on D'."""
    same = {t.source for t in R2}
    return {
        "overlap": float(np.mean([t.source in same for t in R])),
        "stay": share_inside(R.trees, Xb2, y2, R.reg, R2.optimum, R.eps),
        "stay_delta": share_inside(R.trees, Xb2, y2, R.reg, R2.optimum, R.eps, delta),
        "acc_d": float(np.mean([np.mean(t.predict(R.X_) == R.y_) for t in R])),
        "acc_shifted": float(np.mean([np.mean(t.predict(Xb2) == y2) for t in R])),
    }
