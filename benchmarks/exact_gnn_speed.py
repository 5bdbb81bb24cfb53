"""Seconds per executed flooding graph by learner, side by side, as ratios to the closed-form NTK mean.

    python benchmarks/exact_gnn_speed.py [--graphs 30] [--bits 2] [--degree 2] [--seed 0]

Learners: the closed-form NTK mean (``O(|S| k)`` per node), the NTK mean by an explicit kernel solve
(``Theta(x, X) solve(Theta(X, X), Y)``, the solve done once), and a trained 16-member ensemble of
width 512. The same graphs and messages for all three, in one run; also the closed form on the
1000-graph grid of the experiment's ``paper`` profile (n = 5..20, D in {2, 3}, l in {1, 2}).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from icml26.exact_gnn import Executor, MLPEnsemble, compile_algorithm, random_bounded_graph, training_set


def _per_graph(executor: Executor, cases: list) -> tuple[float, int]:
    start = time.perf_counter()
    exact = sum(executor.run(g, inputs).exact for g, inputs in cases)
    return (time.perf_counter() - start) / len(cases), exact


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--graphs", type=int, default=30)
    parser.add_argument("--bits", type=int, default=2)
    parser.add_argument("--degree", type=int, default=2)
    parser.add_argument(
        "--grid", type=int, default=1000, help="graphs of the paper-profile grid timed (0: skip)"
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    program = compile_algorithm("flooding", args.bits, args.degree)
    cases = []
    for _ in range(args.graphs):
        g = random_bounded_graph(int(rng.integers(5, 21)), args.degree, rng)
        cases.append((g, {"source": 0, "message": int(rng.integers(2**args.bits))}))
    x, y = training_set(program)
    start = time.perf_counter()
    ensemble = MLPEnsemble(16, 512, epochs=300, seed=args.seed).fit(x, y)
    train_s = time.perf_counter() - start
    rows = {
        "NTK mean, closed form": _per_graph(Executor(program, "ntk"), cases),
        "NTK mean, kernel solve": _per_graph(Executor(program, "ntk_solve"), cases),
        "ensemble M=16, width 512": _per_graph(Executor(program, "ensemble", model=ensemble), cases),
    }
    base = rows["NTK mean, closed form"][0]
    print(
        f"flooding l={args.bits} D={args.degree}, {args.graphs} graphs (n = 5..20); ensemble training {train_s:.1f} s"
    )
    print(f"{'learner':28s} {'s / graph':>10s} {'x closed form':>14s} {'exact':>8s}")
    for name, (seconds, exact) in rows.items():
        print(f"{name:28s} {seconds:10.4f} {seconds / base:14.2f} {exact:>5d}/{args.graphs}")
    if args.grid:
        start, exact, executions = time.perf_counter(), 0, 0
        for _ in range(args.grid):
            big_d, bits = int(rng.choice([2, 3])), int(rng.choice([1, 2]))
            p = compile_algorithm("flooding", bits, big_d)
            g = random_bounded_graph(int(rng.integers(5, 21)), big_d, rng)
            for m in range(2**bits):
                exact += Executor(p, "ntk").run(g, {"source": 0, "message": m}).exact
                executions += 1
        total = time.perf_counter() - start
        print(
            f"paper grid, closed form: {exact}/{executions} exact executions on {args.grid} graphs in {total:.1f} s"
        )


if __name__ == "__main__":
    main()
