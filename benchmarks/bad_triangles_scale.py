"""The fastest 2-approximation at 10^6 edges: time and cost against the certified LP bound, side by side.

    python benchmarks/bad_triangles_scale.py [--edges 1000000] [--eps 0.1] [--seed 0] [--exact-lp]

A planted-partition graph (4 groups, sign noise 0.2, edge density 0.05) with ``--edges`` edges.
Times, in one run: bad-triangle enumeration; Algorithm 3 from the certified MWU LP (the fast path,
``<= 2(1+eps) LP``); the packing 3-approximation; with ``--exact-lp`` also the exact HiGHS LP with
Algorithms 2 and 3 (slow and memory-hungry at this size). Each path's time is printed as a ratio to the
fast path's, and each cost against the MWU path's certified lower bound on LP (so on OPT).
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from icml26.bad_triangles import (
    bad_triangles,
    packing_3approx,
    planted_partition,
    round_lp_support,
    round_lp_threshold,
    solve_cover_lp,
    solve_cover_lp_mwu,
)


def _time(fn, *args, **kwargs):
    start = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edges", type=int, default=1_000_000)
    parser.add_argument("--eps", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--exact-lp", action="store_true")
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    n = int(math.sqrt(2 * args.edges / 0.05))
    g, t_build = _time(planted_partition, n, 4, 2 * args.edges / (n * (n - 1)), 0.2, rng)
    tri, t_tri = _time(bad_triangles, g)
    print(f"n={g.n} m={g.m} bad triangles={tri.shape[0]}  build {t_build:.1f}s  enumeration {t_tri:.1f}s")
    mwu, t_mwu = _time(solve_cover_lp_mwu, g, tri, args.eps)
    fast, t_round = _time(round_lp_threshold, g, mwu, tri)
    pack, t_pack = _time(packing_3approx, g, tri)
    bound = mwu.lower_bound
    paths = {
        "Alg. 3 from MWU LP": (t_tri + t_mwu + t_round, fast.cost),
        "packing 3-approx": (t_tri + t_pack, pack.cost),
    }
    if args.exact_lp:
        lp, t_lp = _time(solve_cover_lp, g, tri)
        a2, t_a2 = _time(round_lp_support, g, lp, tri)
        a3, t_a3 = _time(round_lp_threshold, g, lp, tri)
        paths["Alg. 2 (HiGHS LP)"] = (t_tri + t_lp + t_a2, a2.cost)
        paths["Alg. 3 (HiGHS LP)"] = (t_tri + t_lp + t_a3, a3.cost)
        bound = max(bound, lp.lower_bound)
    base = paths["Alg. 3 from MWU LP"][0]
    print(f"certified LP lower bound {bound:.1f} (MWU gap {mwu.gap:.4f}, {mwu.iterations} iterations)")
    for name, (sec, cost) in paths.items():
        print(
            f"  {name:20s} {sec:8.2f}s  x{sec / base:6.2f} of the fast path   cost {cost:.0f}  cost/LB {cost / bound:.3f}"
        )


if __name__ == "__main__":
    main()
