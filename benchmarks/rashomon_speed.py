"""Speed of the rashomon method's parts, side by side in one run (2 shared cores; seconds and ratios).

1. The exact tree attack: vectorised over points and leaves beside a per-point, per-leaf loop.
2. Enumerating R(eps) with treefarms (in its limited child process) beside one GOSDT fit of the optimum.
3. CP-SAT reconstruction time per number of disclosed trees k (COMPAS n = 120, depth 3).

Run: ``.venv/bin/python benchmarks/rashomon_speed.py``.
"""

from __future__ import annotations

import time
import warnings

import numpy as np

from icml26.rashomon import (
    RashomonSet,
    ThresholdBinarizer,
    cart,
    evasion_distance,
    evasion_distance_loop,
    gosdt_optimum,
    min_max_scale,
    reconstruct,
)
from icml26.rashomon.datasets import load


def _best_of(fn, repeats: int = 3) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    warnings.filterwarnings("ignore", message="treefarms returned")
    X, y = load("breast_cancer")
    (Xs,) = min_max_scale(X)
    model = cart(Xs, y, None)
    vec = _best_of(lambda: evasion_distance(Xs, y, model))
    loop = _best_of(lambda: evasion_distance_loop(Xs, y, model), 1)
    print(
        f"tree attack, {len(y)} points x {len(model.labels)} leaves: vectorised {vec:.4f} s, loop {loop:.3f} s,"
        f" loop / vectorised = {loop / vec:.0f}x"
    )

    B = ThresholdBinarizer(max_thresholds=16).fit(Xs, y).transform(Xs)
    RashomonSet(0.05, 0.01, 4).fit(B, y)  # warm the imports
    t_r = _best_of(lambda: RashomonSet(0.05, 0.01, 4).fit(B, y))
    t_g = _best_of(lambda: gosdt_optimum(B, y, 0.01, 4))
    size = len(RashomonSet(0.05, 0.01, 4).fit(B, y))
    print(
        f"breast_cancer depth 4: enumerate R (|R| = {size}) {t_r:.3f} s, one GOSDT fit {t_g:.3f} s,"
        f" ratio {t_r / t_g:.1f}x"
    )

    Xc, yc = load("compas")
    idx = np.random.default_rng(0).choice(len(yc), 120, replace=False)
    Xc, yc = Xc[idx], yc[idx]
    R = RashomonSet(0.05, 0.01, 3).fit(Xc, yc)
    order = np.random.default_rng(1).permutation(len(R))
    for k in (1, 2, 4, 8, 16):
        models = [(R[i], R[i].leaf_counts(Xc, yc)) for i in order[:k]]
        t = time.perf_counter()
        sol = reconstruct(models, 120, Xc.shape[1], time_limit=20)
        print(
            f"CP-SAT k = {k:2d}: {time.perf_counter() - t:.2f} s{'' if sol is not None else ' (no solution)'}"
        )


if __name__ == "__main__":
    main()
