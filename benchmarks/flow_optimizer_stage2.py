"""How much does longer stage-2 training (deep unfolding) help on Rastrigin-10?

Starts from the shipped stage-1 checkpoint ``rastrigin-10-stage1`` and runs stage 2 with the shipped
settings of ``TRAIN_CONFIG["rastrigin-10"]`` (batch, lr, K = 50, loss weights) for ``--iterations``
iterations in one run (one Adam state), evaluating the median final best f at 3,200 evaluations on
validation instances (generator seed 123, disjoint from the experiment's test seeds 10000+) at the
checkpoints given. Usage::

    OMP_NUM_THREADS=1 python benchmarks/flow_optimizer_stage2.py --iterations 200 --every 25
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import torch

from icml26.flow_optimizer import FlowOptimizer, ProblemClass
from icml26.flow_optimizer.train import TRAIN_CONFIG
from icml26.flow_optimizer.training import stage2_deep_unfolding


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--every", type=int, default=25)
    parser.add_argument("--instances", type=int, default=10)
    parser.add_argument("--lr", type=float, default=None, help="default: the shipped stage-2 lr")
    parser.add_argument("--batch", type=int, default=None, help="default: the shipped stage-2 batch")
    parser.add_argument(
        "--mean-weight", type=float, default=1.0, help="lambda of Eq. (stage 2); 0 = best only"
    )
    parser.add_argument(
        "--step-weights", default="linear", choices=("linear", "final"), help="w_k of Eq. (stage 2)"
    )
    parser.add_argument("--train-seed", type=int, default=None, help="default: the shipped seed")
    args = parser.parse_args()
    torch.set_num_threads(1)
    cfg = TRAIN_CONFIG["rastrigin-10"]
    problem = ProblemClass("rastrigin", 10)
    val = problem.sample(args.instances, torch.Generator().manual_seed(123))
    bounds = [problem.bounds] * 10
    opt = FlowOptimizer.pretrained("rastrigin-10-stage1")

    def median_best() -> float:
        return float(np.median([opt.minimize(val.single(i), bounds, 3200, i).fun for i in range(val.batch)]))

    rows = [{"stage2_iterations": 0, "median_best_f": median_best(), "seconds": 0.0}]
    print(json.dumps(rows[-1]), flush=True)
    start = time.perf_counter()

    def checkpoint(it: int) -> None:
        if (it + 1) % args.every == 0 or it + 1 == args.iterations:
            rows.append(
                {
                    "stage2_iterations": it + 1,
                    "median_best_f": median_best(),
                    "seconds": time.perf_counter() - start,
                    "loss": opt.log_.stage2_loss[-1],
                }
            )
            print(json.dumps(rows[-1]), flush=True)

    train_seed = cfg["seed"] if args.train_seed is None else args.train_seed
    gen = torch.Generator().manual_seed(train_seed + 1)
    torch.manual_seed(train_seed + 1)
    stage2_deep_unfolding(
        opt.model_.train(),
        problem,
        args.iterations,
        gen,
        batch=args.batch or cfg["stage2_batch"],
        population=cfg["population"],
        steps=cfg["steps"],
        lr=args.lr or cfg["stage2_lr"],
        log=opt.log_,
        mean_weight=args.mean_weight,
        callback=checkpoint,
        step_weights=args.step_weights,
    )


if __name__ == "__main__":
    main()
