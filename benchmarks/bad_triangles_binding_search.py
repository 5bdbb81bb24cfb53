"""Search complete signed graphs for CC* > BTT* (where the paper's 3/2 bound can bind).

    python benchmarks/bad_triangles_binding_search.py [--seed 0] [--restarts 400] [--seconds 600]
        [--n-min 8] [--n-max 12] [--moves 40] [--out found.json]

Each restart draws a complete signed graph (planted clusters with sign noise, or a random positive
density), then hill-climbs by single sign flips on ``(CC* - BTT*, CC*/BTT*)``, accepting ties; BTT* by
MILP, CC* by the triangle-inequality ILP. The restart count and the seconds cap are fixed in advance; the
instances with CC* > BTT* are written (largest ratio first) in the format of
``src/icml26/bad_triangles/binding_instances.json``, with the evaluations the search spent.
"""

from __future__ import annotations

import argparse
import json
import time
from itertools import combinations

import numpy as np

from icml26.bad_triangles import bad_triangles, complete_from_positive, exact_btt, exact_cc


def optima(n: int, positive: set[tuple[int, int]]) -> tuple[float, float]:
    """(CC*, BTT*) of the complete signed graph on ``n`` nodes with these positive pairs."""
    g = complete_from_positive(nodes=list(range(n)), positive_edges=positive)
    tri = bad_triangles(g)
    if not tri.size:
        return 0.0, 0.0
    return exact_cc(g).cost, exact_btt(g, tri).cost


def start_graph(n: int, rng: np.random.Generator) -> set[tuple[int, int]]:
    pairs = list(combinations(range(n), 2))
    if rng.random() < 0.5:  # planted clusters with sign noise
        group = rng.integers(0, int(rng.integers(2, 5)), size=n)
        noise = rng.uniform(0.1, 0.35)
        return {(i, j) for i, j in pairs if (group[i] == group[j]) != (rng.random() < noise)}
    density = rng.uniform(0.25, 0.65)
    return {p for p in pairs if rng.random() < density}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--restarts", type=int, default=400)
    ap.add_argument("--seconds", type=float, default=600.0)
    ap.add_argument("--n-min", type=int, default=8)
    ap.add_argument("--n-max", type=int, default=12)
    ap.add_argument("--moves", type=int, default=40)
    ap.add_argument("--out", default="binding_search.json")
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    start = time.perf_counter()
    found: dict[tuple, dict] = {}
    evaluations = restarts = 0
    best_ratio = 1.0  # CC* >= BTT* always: 1.0 until a graph with CC* > BTT* turns up
    for _ in range(args.restarts):
        if time.perf_counter() - start > args.seconds:
            break
        restarts += 1
        n = int(rng.integers(args.n_min, args.n_max + 1))
        pairs = list(combinations(range(n), 2))
        positive = start_graph(n, rng)
        cc, btt = optima(n, positive)
        evaluations += 1
        score = (cc - btt, cc / btt if btt else 1.0)
        for _ in range(args.moves):
            if time.perf_counter() - start > args.seconds:
                break
            candidate = positive ^ {pairs[int(rng.integers(len(pairs)))]}
            cc2, btt2 = optima(n, candidate)
            evaluations += 1
            score2 = (cc2 - btt2, cc2 / btt2 if btt2 else 1.0)
            best_ratio = max(best_ratio, score2[1])
            if cc2 > btt2:
                key = (n, tuple(sorted(candidate)))
                found[key] = {
                    "n": n,
                    "positive": [list(p) for p in sorted(candidate)],
                    "cc": cc2,
                    "btt": btt2,
                }
                print(f"n={n} CC*={cc2:g} BTT*={btt2:g} ratio={cc2 / btt2:.4f}", flush=True)
            if score2 >= score:
                positive, score = candidate, score2
    seconds = time.perf_counter() - start
    tag = f"seed {args.seed}, {evaluations} evaluations, {restarts} restarts, {seconds:.0f} s"
    instances = sorted(found.values(), key=lambda r: -r["cc"] / r["btt"])
    for r in instances:
        r["found_by"] = tag
    out = {
        "search": f"benchmarks/bad_triangles_binding_search.py --seed {args.seed} --restarts {args.restarts} "
        f"--seconds {args.seconds:g} --n-min {args.n_min} --n-max {args.n_max} --moves {args.moves}: {tag}",
        "records": [
            {
                "script": "benchmarks/bad_triangles_binding_search.py",
                "seed": args.seed,
                "n_min": args.n_min,
                "n_max": args.n_max,
                "moves": args.moves,
                "restarts": restarts,
                "seconds": round(seconds),
                "evaluations": evaluations,
                "found": len(instances),
                "best_cc_over_btt": best_ratio,
            }
        ],
        "instances": instances,
    }
    with open(args.out, "w") as fh:
        json.dump(out, fh, indent=1)
    print(f"{len(instances)} instances with CC* > BTT* ({tag}) -> {args.out}")


if __name__ == "__main__":
    main()
