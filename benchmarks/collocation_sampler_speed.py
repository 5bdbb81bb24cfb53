"""Wall-clock to reach a target accuracy: collocation vs torch-native adaptive solvers on the same device
(torchdiffeq dopri5 / dopri8, float64) and scipy's DOP853 / RK45 (CPU, a Python loop: labelled), side by
side in one run.

Run: ``python benchmarks/collocation_sampler_speed.py [--dim 64] [--n 32] [--device cpu]``.
Each solver's setting is the cheapest in a small ladder that reaches ``--target`` (mean pathwise error
against a DOP853 reference at 1e-13); times are reported as ratios to collocation's. Collocation's
advantage is depth: its ``rounds`` column is what a parallel score oracle (a GPU batch) pays for.
"""

from __future__ import annotations

import argparse
import time

import torch

from icml26.collocation_sampler import (
    GaussianMixture,
    collocation_sample,
    reference_solution,
    scipy_sample,
    torchdiffeq_sample,
)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--dim", type=int, default=64)
    p.add_argument("--n", type=int, default=32)
    p.add_argument("--target", type=float, default=1e-10)
    p.add_argument("--device", default="cpu")
    args = p.parse_args()
    torch.set_num_threads(1)
    T = 8.0
    gm = GaussianMixture.bounded_plus_noise(8, args.dim, 3.0, 0.3, seed=0)
    x_T = gm.sample(args.n, t=T, seed=1)
    ref, _ = reference_solution(gm.score_fn(), x_T, T)
    x_dev = x_T.to(args.device)

    def err(y: torch.Tensor) -> float:
        return float((y.cpu() - ref).norm(dim=1).mean())

    rows = []
    for degree in (6, 8, 10, 12, 14):
        t0 = time.perf_counter()
        res = collocation_sample(gm.score_fn(), x_dev, T=T, windows=17, degree=degree)
        wall = time.perf_counter() - t0
        if err(res.samples) <= args.target:
            rows.append(("collocation", f"W=17 D={degree}", res, wall))
            break
    for method in ("dopri5", "dopri8"):  # torch-native, on the same device as collocation
        for tol in (1e-8, 1e-9, 1e-10, 1e-11, 1e-12):
            t0 = time.perf_counter()
            try:
                res = torchdiffeq_sample(gm.score_fn(), x_dev, T, 0.0, method, tol, tol)
            except RuntimeError:
                continue
            wall = time.perf_counter() - t0
            if err(res.samples) <= args.target:
                rows.append((f"{method} ({args.device})", f"tol={tol:g}", res, wall))
                break
    for method in ("DOP853", "RK45"):
        for tol in (1e-8, 1e-9, 1e-10, 1e-11, 1e-12):
            t0 = time.perf_counter()
            res, _ = scipy_sample(gm.score_fn(), x_T, T, method=method, rtol=tol, atol=tol)
            wall = time.perf_counter() - t0
            if err(res.samples) <= args.target:
                rows.append((f"{method.lower()} (scipy)", f"tol={tol:g}", res, wall))
                break
    base = rows[0][3] if rows and rows[0][0] == "collocation" else float("nan")
    print(f"d={args.dim} n={args.n} target={args.target:g}")
    print(
        f"{'solver':16s} {'setting':12s} {'nfe':>6s} {'rounds':>6s} {'error':>9s} {'wall s':>7s} {'time/coll':>9s}"
    )
    for name, setting, res, wall in rows:
        print(
            f"{name:16s} {setting:12s} {res.n_score_evals:6d} {res.n_rounds:6d} {err(res.samples):9.2e}"
            f" {wall:7.2f} {wall / base:9.2f}"
        )


if __name__ == "__main__":
    main()
