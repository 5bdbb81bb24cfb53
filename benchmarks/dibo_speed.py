"""DiBO speed, side by side in one run: seconds per training step of each stage, and seconds to decode
128 prompts by one-step decoding, low-confidence remasking and the matched causal (AR) model (ratios to
one-step). Timing only: the AR model is untrained here (its cost does not depend on its weights).

    nice .venv/bin/python benchmarks/dibo_speed.py [--steps 10] [--repeats 3]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch

from icml26.dibo import DiBO, DiBOConfig, tasks
from icml26.dibo.corpus import encode_items


def seconds_per_step(model: DiBO, stage: str, steps: int) -> float:
    cfg = model.config
    model.config = DiBOConfig(**{**cfg.__dict__, f"{stage}_steps": steps})
    getattr(model, stage)()
    model.config = cfg
    return model.history_[stage]["seconds"] / steps


def decode_seconds(model: DiBO, prompts: torch.Tensor, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        model.fill(prompts)
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    torch.set_num_threads(1)
    task = tasks.tfbind8()
    mdm = DiBO(task).load_shipped("sft")
    print("seconds per training step (batch 16, one thread):")
    for stage in ("adapt", "sft", "rl"):
        print(f"  {stage:6s} {seconds_per_step(mdm, stage, args.steps):.3f}")
    rng = np.random.default_rng(0)
    p = mdm.pool
    prompt = p.random_prompts(128, rng)
    rows = torch.as_tensor(
        encode_items(
            mdm.eval_layouts, np.zeros(128, int), p.x[prompt], p.y[prompt], p.x[prompt[:, 0]], "ACGT"
        )
    )
    one = decode_seconds(mdm, rows, args.repeats)
    print("seconds to decode 128 prompts (median of repeats), ratio to one-step:")
    print(f"  one-step         {one:.3f}  1.00x")
    for steps in (4, 10):
        remask = DiBO(task, DiBOConfig(decoding="remask", remask_steps=steps))
        remask.model = mdm.model
        t = decode_seconds(remask, rows, args.repeats)
        print(f"  remask {steps:2d} steps  {t:.3f}  {t / one:.2f}x")
    ar = DiBO(task, DiBOConfig(causal=True)).model.eval()
    ar_model = DiBO(task, DiBOConfig(causal=True))
    ar_model.model = ar
    t = decode_seconds(ar_model, rows, args.repeats)
    print(f"  matched AR       {t:.3f}  {t / one:.2f}x")


if __name__ == "__main__":
    main()
