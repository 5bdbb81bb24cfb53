"""ME vs CE generation speed, side by side in one run (ratios, not absolute timings).

    python benchmarks/mixture_ensemble_speed.py --model smollm2 --tokens 48 --repeats 15 --batches 1
    python benchmarks/mixture_ensemble_speed.py --model smollm2 --device cuda

Runs ``experiment.speed_comparison`` (the experiment's own speed part) with more repeats or other
settings: each repeat runs CE then ME on the same prompt batch, the tokens-per-second ratio is taken
within the repeat, and the median over repeats is printed with its 95% order-statistic interval.
"""

from __future__ import annotations

import argparse

import torch

from icml26.mixture_ensemble.experiment import perturbed_copy, speed_comparison
from icml26.mixture_ensemble.task import tiny_llama


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=("tiny", "smollm2"), default="tiny")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--tokens", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--batches", default="1,4", help="comma-separated batch sizes (at most one above 1)")
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads (0 = leave as is)")
    args = parser.parse_args()
    if args.threads > 0:
        torch.set_num_threads(args.threads)
    if args.model == "smollm2":
        from icml26.mixture_ensemble import load_smollm2

        base, tokenizer = load_smollm2(args.device)
        prompt = tokenizer.encode("Question: Natalia sold clips to 48 of her friends in April. Answer:")
    else:
        base = tiny_llama(512, hidden=256, layers=4, heads=4, seed=0).to(args.device)
        prompt = list(range(2, 18))
    models = [base] + [perturbed_copy(base, 0.02, s) for s in (1, 2)]
    batches = tuple(int(b) for b in args.batches.split(","))
    _, rows = speed_comparison(models, prompt, args.tokens, args.repeats, batches, args.device)
    columns = list(rows[0])
    print(" | ".join(columns))
    for row in rows:
        print(" | ".join(f"{v:.3g}" if isinstance(v, float) else str(v) for v in row.values()))


if __name__ == "__main__":
    main()
