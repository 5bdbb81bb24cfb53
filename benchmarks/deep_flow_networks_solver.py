"""LP solves per second of the warm-started batched highspy solver beside one ``scipy.optimize.linprog``
per sample, and DFN training time per epoch, side by side in one run.

    python benchmarks/deep_flow_networks_solver.py [--layers 12 30 12] [--dim 8] [--solves 300] [--seed 0]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from icml26.deep_flow_networks import DFN, HighsFlowSolver, linprog_flow, random_quadratic, uniform_integers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, nargs="+", default=[12, 30, 12])
    parser.add_argument("--dim", type=int, default=8)
    parser.add_argument("--solves", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    g = random_quadratic(args.dim, rng)
    X = uniform_integers(args.solves, args.dim, -50, 50, rng)
    model = DFN(args.dim, tuple(args.layers), seed=args.seed).fit(X, g(X), epochs=2)
    epoch_s = float(np.mean([h["seconds"] for h in model.history_]))  # the epoch loops, imports excluded
    net, s = model.graph_.network, model.supplies(X)
    start = time.perf_counter()
    fast = HighsFlowSolver(net, model.arc_cost_, model.capacity_).solve(s)
    fast_s = time.perf_counter() - start
    start = time.perf_counter()
    ref = linprog_flow(net, model.arc_cost_, model.capacity_, s)
    ref_s = time.perf_counter() - start
    print(f"network {args.layers}: {net.n_nodes} balance rows, {net.n_arcs} arcs; {args.solves} solves")
    print(f"batched highspy: {args.solves / fast_s:8.1f} solves/s")
    print(f"linprog / sample: {args.solves / ref_s:8.1f} solves/s   ratio {ref_s / fast_s:.2f}x")
    print(
        f"max |value gap| {np.abs(fast.value - ref.value).max():.2e}; training {epoch_s:.2f} s / epoch "
        f"({args.solves} samples, batch 8)"
    )


if __name__ == "__main__":
    main()
