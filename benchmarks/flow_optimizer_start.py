"""Does the first point matter? CMA-ES and NGOpt from a uniform random start vs from the box centre.

FlowOptimizer starts from a uniform population, whose mean is the box centre and spread width/sqrt(12);
the experiment gives the sampling baselines that start too (``start="centre"``) beside a uniform random
one. This prints the median final best f of both starts, with shipped FlowOptimizer beside them, on the
experiment's own test instances (the wide class, generator seed ``10000 + dim``, the first
``--instances``). Usage::

    OMP_NUM_THREADS=1 python benchmarks/flow_optimizer_start.py --instances 5
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch

from icml26.flow_optimizer import BASELINES, FlowOptimizer, ProblemClass

TASKS = (("rastrigin", 10, 3200), ("ackley", 10, 1280), ("rastrigin", 100, 3200), ("ackley", 100, 3200))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--instances", type=int, default=5)
    args = parser.parse_args()
    torch.set_num_threads(1)
    print("| task | budget | FlowOptimizer | CMA-ES random | CMA-ES centre | NGOpt random | NGOpt centre |")
    print("|---|---|---|---|---|---|---|")
    for cls, dim, budget in TASKS:
        problem = ProblemClass(cls, dim)
        instances = problem.sample(20, torch.Generator().manual_seed(10_000 + dim))
        bounds = [problem.bounds] * dim
        flow = FlowOptimizer.pretrained(f"{cls}-10")
        finals: dict[str, list[float]] = {}
        start = time.perf_counter()
        for i in range(args.instances):
            f = instances.single(i)
            finals.setdefault("flow", []).append(flow.minimize(f, bounds, budget, i, 64).fun)
            for method in ("cma", "ngopt"):
                for where in ("random", "centre"):
                    res = BASELINES[method](f, bounds, budget, i, start=where)
                    finals.setdefault(f"{method} {where}", []).append(res.fun)
        cells = " | ".join(f"{np.median(v):.3g}" for v in finals.values())
        print(f"| {cls}-{dim} | {budget} | {cells} |  ({time.perf_counter() - start:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
