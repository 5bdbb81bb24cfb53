"""Speed of the BTT algorithms side by side, as ratios to the fast path (MWU LP + rounding).

    python benchmarks/bad_triangles_speed.py [--edges 100000] [--milp-n 94] [--seed 0]

Part 1: a planted-partition graph with ``--edges`` edges: enumeration, MWU path, HiGHS-LP path, packing.
Part 2: a random signed graph small enough for the exact MILP: MILP time / each algorithm's time.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from icml26.bad_triangles import (
    bad_triangles,
    exact_btt,
    packing_3approx,
    planted_partition,
    random_signed_graph,
    round_lp_threshold,
    solve_cover_lp,
    solve_cover_lp_mwu,
)


def _time(fn, *args, **kwargs):
    start = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - start


def _paths(g, tri, eps: float) -> dict[str, tuple[float, float]]:
    """name -> (seconds, cost) for each algorithm, triangle enumeration excluded."""
    mwu, t_mwu = _time(solve_cover_lp_mwu, g, tri, eps)
    f_mwu, t_r1 = _time(round_lp_threshold, g, mwu, tri)
    lp, t_lp = _time(solve_cover_lp, g, tri)
    f_lp, t_r2 = _time(round_lp_threshold, g, lp, tri)
    pack, t_pack = _time(packing_3approx, g, tri)
    return {
        "2approx (MWU LP)": (t_mwu + t_r1, f_mwu.cost),
        "2approx (HiGHS LP)": (t_lp + t_r2, f_lp.cost),
        "packing 3-approx": (t_pack, pack.cost),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edges", type=int, default=100_000)
    parser.add_argument("--milp-n", type=int, default=94)
    parser.add_argument("--eps", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)

    n = int(math.sqrt(2 * args.edges / 0.05))
    g = planted_partition(n, 4, 2 * args.edges / (n * (n - 1)), 0.2, rng)
    tri, t_tri = _time(bad_triangles, g)
    print(f"[scale] n={g.n} m={g.m} bad triangles={tri.shape[0]} enumeration {t_tri:.2f}s")
    paths = _paths(g, tri, args.eps)
    base = paths["2approx (MWU LP)"][0]
    for name, (sec, cost) in paths.items():
        print(f"  {name:20s} {sec:8.3f}s  x{sec / base:7.2f} of MWU   cost {cost:.0f}")

    g = random_signed_graph(args.milp_n, min(0.5, 40.0 / args.milp_n), 0.3, rng)
    tri = bad_triangles(g)
    opt, t_opt = _time(exact_btt, g, tri, time_limit=120.0)
    print(
        f"[milp] n={g.n} m={g.m} bad triangles={tri.shape[0]} MILP {t_opt:.2f}s ({opt.method}) OPT {opt.cost:.0f}"
    )
    for name, (sec, cost) in _paths(g, tri, args.eps).items():
        print(f"  {name:20s} {sec:8.3f}s  MILP/this x{t_opt / sec:7.2f}   cost/OPT {cost / opt.cost:.3f}")


if __name__ == "__main__":
    main()
