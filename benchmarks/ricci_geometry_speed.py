"""Speed of the local Ricci coefficient: vectorised vs a straightforward per-point loop, side by side.

One trained Syn-I network (width 25, depth 7), n test points, kNN graphs with k neighbours; both paths
start from the same layer graphs and return the same coefficients (checked). Also times the
all-sources BFS hop distances against scipy's per-source Dijkstra.

    python benchmarks/ricci_geometry_speed.py --n 1000 --k 50
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch
from threadpoolctl import threadpool_limits

from icml26.ricci_geometry import (
    knn_graph,
    layer_features,
    load_dataset,
    local_ricci_coefficients,
    ricci_coefficients,
    train_mlp,
)
from icml26.ricci_geometry.coefficients import local_ricci_coefficients_loop
from icml26.ricci_geometry.graphs import hop_distances, hop_distances_dijkstra


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--k", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(1)
    with threadpool_limits(1):
        Xtr, ytr, Xte, _ = load_dataset("syn1", 1000, args.n, seed=args.seed)
        model = train_mlp(Xtr, ytr, 25, 7, seed=args.seed).model
        graphs = [knn_graph(F, args.k) for F in layer_features(model, Xte)]
        t0 = time.perf_counter()
        fast = local_ricci_coefficients(graphs, "augmented_forman")
        t1 = time.perf_counter()
        slow = local_ricci_coefficients_loop(graphs, "augmented_forman")
        t2 = time.perf_counter()
        bfs = [hop_distances(A) for A in graphs]
        t3 = time.perf_counter()
        dij = [hop_distances_dijkstra(A) for A in graphs]
        t4 = time.perf_counter()
        full = ricci_coefficients(graphs, "augmented_forman", distances=bfs)
        t5 = time.perf_counter()
    assert np.allclose(fast, slow, equal_nan=True, atol=1e-10)
    assert np.allclose(full.local, slow, equal_nan=True, atol=1e-10)
    assert all(np.array_equal(a, b) for a, b in zip(bfs, dij))
    print(f"n={args.n} k={args.k} layers={len(graphs)} (one network)")
    print("| step | vectorised s | reference s | reference / vectorised |")
    print("|---|---|---|---|")
    rows = [
        ("local coefficients (AF) from graphs", t1 - t0, t2 - t1, "APSP + per-point loop"),
        ("hop distances, all layers", t3 - t2, t4 - t3, "per-source Dijkstra"),
    ]
    for step, fast_s, slow_s, ref in rows:
        print(f"| {step} | {fast_s:.2f} | {slow_s:.2f} ({ref}) | {slow_s / fast_s:.1f} |")
    print(f"| local + layer + global coefficients, given all-pairs distances | {t5 - t4:.2f} | - | - |")


if __name__ == "__main__":
    main()
