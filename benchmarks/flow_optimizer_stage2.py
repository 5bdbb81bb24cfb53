"""The stage-2 study: how far does longer deep unfolding get on Rastrigin-10 (wide prior)?

Starts from the shipped stage-1 checkpoint ``rastrigin-10-stage1`` and runs stage 2 with the shipped
settings of ``TRAIN_CONFIG["rastrigin-10"]`` (batch, lr, K = 50, loss weights) for ``--iterations``
iterations in one run (one Adam state), the default 300 being 10x the shipped 30.

Checkpoint selection, written down before the run (docs/methods/flow_optimizer.md, "Stage-2 study"):
every ``--every`` iterations (and at 0, the stage-1 checkpoint itself) the median final best f at 3,200
evaluations is measured on 10 validation instances of the wide class (generator seed 123, disjoint
from the experiment's test seeds 10000+); the checkpoint with the lowest validation median is selected
(the earliest on a tie) and saved as ``weights/rastrigin-10-long.pt``; the curve goes to ``--curve``
(JSON). The claim ``stage2_gain_long`` judges the selected checkpoint on the experiment's test
instances. Usage::

    nice python benchmarks/flow_optimizer_stage2.py --iterations 300 --every 30 \
        --curve docs/runs/flow_optimizer/stage2_curve.json
"""

from __future__ import annotations

import argparse
import copy
import json
import time
from pathlib import Path

import numpy as np
import torch

from icml26.flow_optimizer import FlowOptimizer, ProblemClass
from icml26.flow_optimizer.train import TRAIN_CONFIG, WEIGHTS_DIR
from icml26.flow_optimizer.training import stage2_deep_unfolding


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--every", type=int, default=30)
    parser.add_argument("--instances", type=int, default=10)
    parser.add_argument("--curve", type=Path, default=None, help="write the curve (JSON) here")
    parser.add_argument("--save", default="rastrigin-10-long", help="weights name of the selected checkpoint")
    args = parser.parse_args()
    torch.set_num_threads(1)
    cfg = TRAIN_CONFIG["rastrigin-10"]
    problem = ProblemClass("rastrigin", 10)
    val = problem.sample(args.instances, torch.Generator().manual_seed(123))
    bounds = [problem.bounds] * 10
    opt = FlowOptimizer.pretrained("rastrigin-10-stage1")

    def median_best() -> float:
        opt.model_.eval()
        out = float(np.median([opt.minimize(val.single(i), bounds, 3200, i).fun for i in range(val.batch)]))
        opt.model_.train()
        return out

    rows = [{"stage2_iterations": 0, "val_median_best_f": median_best(), "seconds": 0.0}]
    states = {0: copy.deepcopy(opt.model_.state_dict())}
    print(json.dumps(rows[-1]), flush=True)
    start = time.perf_counter()

    def write_curve(selected: int | None = None) -> None:
        if args.curve is not None:
            args.curve.parent.mkdir(parents=True, exist_ok=True)
            blob = {
                "rule": "lowest validation median final best f (10 instances, seed 123, 3200 evaluations);"
                " earliest on ties",
                "iterations": args.iterations,
                "every": args.every,
                "selected": selected,
                "rows": rows,
            }
            args.curve.write_text(json.dumps(blob, indent=1))

    def checkpoint(it: int) -> None:
        if (it + 1) % args.every == 0 or it + 1 == args.iterations:
            rows.append(
                {
                    "stage2_iterations": it + 1,
                    "val_median_best_f": median_best(),
                    "seconds": time.perf_counter() - start,
                    "loss": opt.log_.stage2_loss[-1],
                }
            )
            states[it + 1] = copy.deepcopy(opt.model_.state_dict())
            print(json.dumps(rows[-1]), flush=True)
            write_curve()

    gen = torch.Generator().manual_seed(cfg["seed"] + 1)
    torch.manual_seed(cfg["seed"] + 1)
    stage2_deep_unfolding(
        opt.model_.train(),
        problem,
        args.iterations,
        gen,
        batch=cfg["stage2_batch"],
        population=cfg["population"],
        steps=cfg["steps"],
        lr=cfg["stage2_lr"],
        log=opt.log_,
        callback=checkpoint,
    )
    best = min(rows, key=lambda r: (r["val_median_best_f"], r["stage2_iterations"]))
    selected = best["stage2_iterations"]
    opt.model_.load_state_dict(states[selected])
    opt.model_.eval()
    opt.log_.stage2_loss = opt.log_.stage2_loss[:selected]
    opt.save(WEIGHTS_DIR / f"{args.save}.pt")
    write_curve(selected)
    print(f"selected checkpoint: {selected} iterations (validation median {best['val_median_best_f']:.4g})")


if __name__ == "__main__":
    main()
