"""Stability of the Rashomon set under small distribution shifts [inferred setting].

D' is D after a shift: a bootstrap resample, labels flipped at a rate, or feature bits flipped at a
rate (a simplification of the predecessor's geometric bit-flip noise). A member f of R(D) "stays" when
Obj_{D'}(f) <= (1 + eps + delta) Obj_{D'}(f*_{D'}), f*_{D'} the optimum on D' (so ``delta = 0`` asks for
membership of R_{D'}(eps) by its definition, not by treefarms' enumeration, which omits equivalent trees).
"""

from __future__ import annotations

import math
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


# ---------------------------------------------------------------- the experiment's stability section

SHIFT_SETTINGS = (
    ("bootstrap", 0.0),
    ("label_flip", 0.01),
    ("label_flip", 0.02),
    ("label_flip", 0.05),
    ("bit_flip", 0.02),
)


def _tag(kind: str, level: float) -> str:
    return (
        "boot" if kind == "bootstrap" else f"{'flip' if kind == 'label_flip' else 'bits'}{round(level * 100)}"
    )


def _stab_data(name: str, config: dict, seed: int, draw: int) -> tuple[np.ndarray, np.ndarray, int]:
    """One draw's data: an independent COMPAS subsample of ``stab_n`` rows per draw (depth 3); the whole
    binarised continuous data set otherwise (its draws differ by the shift's randomness only)."""
    from icml26.rashomon.datasets import load
    from icml26.rashomon.trees import ThresholdBinarizer, min_max_scale

    if name == "compas":
        X, y = load("compas")
        idx = np.random.default_rng([seed, 4, len(name), draw]).choice(
            len(y), config["stab_n"], replace=False
        )
        return X[idx], y[idx], 3
    X, y = load(name)
    (Xs,) = min_max_scale(X)
    return (
        ThresholdBinarizer(max_thresholds=config["max_thresholds"]).fit(Xs, y).transform(Xs),
        y,
        config["depth"],
    )


def _stab_draw(name: str, config: dict, draw: int, seed: int) -> dict[str, float]:
    """R(D) and its fate on every shifted D'. On COMPAS the judged set is the definitional R(eps)
    (``enumerator="exact"``) and D' 's optimum is exact; treefarms' sets give the overlap (shown) and the
    count of what treefarms omits. Elsewhere treefarms' set (a check). The near-miss control is
    treefarms' R(2 eps) minus R(eps) (a subset of the definitional near misses, which number > 20,000)."""
    from icml26.rashomon.full_set import exact_optimum
    from icml26.rashomon.rashomon_set import RashomonLimitError

    Xb, y, depth = _stab_data(name, config, seed, draw)
    eps, reg, cap = config["eps_rashomon"], config["reg"], config["max_trees"]
    exact = name == "compas"
    R_tf = RashomonSet(eps, reg, depth, max_trees=cap).fit(Xb, y)
    R = RashomonSet(eps, reg, depth, max_trees=cap, enumerator="exact").fit(Xb, y) if exact else R_tf
    try:
        wide = RashomonSet(2 * eps, reg, depth, max_trees=cap).fit(Xb, y)
        near_miss = [t for t, o in zip(wide.trees, wide.objectives, strict=True) if o > R.bound + 1e-9]
    except RashomonLimitError:
        near_miss = []  # the control is then unmeasured (nan), and the claim inconclusive
    out: dict[str, float] = {}
    for kind, level in SHIFT_SETTINGS:
        rng = np.random.default_rng([seed, draw, 5, round(level * 1000), len(kind)])
        Xb2, y2 = shift_dataset(Xb, y, kind, level, rng)
        R2 = RashomonSet(eps, reg, depth, max_trees=cap).fit(Xb2, y2)
        opt2 = exact_optimum(Xb2, y2, reg, depth) if exact else R2.optimum
        res = stability(R_tf, R2, Xb2, y2, config["delta"])
        res["stay"] = share_inside(R.trees, Xb2, y2, reg, opt2, eps)
        res["stay_delta"] = share_inside(R.trees, Xb2, y2, reg, opt2, eps, config["delta"])
        res["acc_shifted"] = float(np.mean([np.mean(t.predict(Xb2) == y2) for t in R]))
        res["acc_d"] = float(np.mean([np.mean(t.predict(Xb) == y) for t in R]))
        tag = _tag(kind, level)
        out.update({f"{k}_{tag}": v for k, v in res.items()})
        out[f"nearmiss_stay_{tag}"] = (
            share_inside(near_miss, Xb2, y2, reg, opt2, eps) if near_miss else math.nan
        )
    out["size"] = len(R)
    out["size_treefarms"] = len(R_tf)
    return out


def stability_section(name: str, config: dict, seed: int, metrics: dict, tables: dict) -> None:
    """The experiment's stability part on ``name``: ``stab_draws`` independent draws, metrics
    ``<p>_<stat>_<shift>`` with 95% intervals over draws; on COMPAS also the omitted counts."""
    from icml26.common import mean_ci95, progress, unit

    draws = [
        unit(f"stability_{name}_draw={d}", lambda d=d: _stab_draw(name, config, d, seed))
        for d in progress(range(config["stab_draws"]), f"stability {name}")
    ]
    p = "bc" if name == "breast_cancer" else name
    rows = []
    for kind, level in SHIFT_SETTINGS:
        tag = _tag(kind, level)
        row: dict = {"dataset": name, "shift": kind, "level": level}
        for k in ("overlap", "stay", "stay_delta", "nearmiss_stay", "acc_d", "acc_shifted"):
            v = np.array([d[f"{k}_{tag}"] for d in draws], dtype=float)
            row[k] = round(float(np.nanmean(v)), 4) if np.isfinite(v).any() else "none"
            if np.isfinite(v).all():
                metrics[f"{p}_{k}_{tag}"], metrics[f"{p}_{k}_{tag}_ci"] = mean_ci95(v)
        rows.append(row)
    metrics[f"{p}_stab_size"] = float(np.mean([d["size"] for d in draws]))
    metrics[f"{p}_stab_size_treefarms"] = float(np.mean([d["size_treefarms"] for d in draws]))
    if name == "compas":
        omitted = np.array([d["size"] - d["size_treefarms"] for d in draws], dtype=float)
        metrics["compas_omitted"], metrics["compas_omitted_ci"] = mean_ci95(omitted)
        metrics["compas_omitted_max"] = float(omitted.max())
        tables["full_rashomon_compas"] = [
            {"draw": i, "definitional": d["size"], "treefarms": d["size_treefarms"]}
            for i, d in enumerate(draws)
        ]
    tables[f"stability_{name}"] = rows
