"""ME vs CE generation speed, side by side in one run (ratios, not absolute timings), with the profile split.

    python benchmarks/mixture_ensemble_speed.py --model smollm2 --tokens 48 --repeats 12 --batches 1,4
    python benchmarks/mixture_ensemble_speed.py --model smollm2 --members 2,3,4 --device cuda

Runs ``speed.speed_comparison`` (the experiment's own speed part) with more repeats or other
settings: repeat ``r`` runs CE then ME (``r`` even) or ME then CE (``r`` odd) on the same prompt
batch, the tokens-per-second ratio is taken within the repeat, and the median over repeats is
printed with its 95% order-statistic interval, its fraction of the ideal ``n×``, and where one
generation's time goes (prefill, one-token decode, catch-up chunks, sampling, Python). First it
prints what a cached forward pass over a chunk of k tokens costs relative to one token
(``speed.chunk_costs``), the cost model behind the ratio to the ideal.
"""

from __future__ import annotations

import argparse

import torch

from icml26.mixture_ensemble.experiment import perturbed_copy
from icml26.mixture_ensemble.speed import chunk_costs, speed_comparison
from icml26.mixture_ensemble.task import tiny_llama


def _print(rows: list[dict]) -> None:
    print(" | ".join(rows[0]))
    for row in rows:
        print(" | ".join(f"{v:.3g}" if isinstance(v, float) else str(v) for v in row.values()))
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=("tiny", "smollm2"), default="tiny")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--tokens", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=6)
    parser.add_argument("--batches", default="1,4", help="comma-separated batch sizes (at most one above 1)")
    parser.add_argument("--members", default="2,3", help="comma-separated member counts (each >= 2)")
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads (0 = leave as is)")
    parser.add_argument(
        "--chunks-only", action="store_true", help="only the cost of a k-token catch-up chunk"
    )
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
    costs = chunk_costs(base, prompt, (1, 2, 3, 4, 6, 8))
    _print([{"chunk tokens": k, "seconds": v, "relative to 1 token": v / costs[1]} for k, v in costs.items()])
    if args.chunks_only:
        return
    members = tuple(int(n) for n in args.members.split(","))
    models = [base] + [perturbed_copy(base, 0.02, s) for s in range(1, max(members))]
    batches = tuple(int(b) for b in args.batches.split(","))
    _, rows, profile = speed_comparison(
        models, prompt, args.tokens, args.repeats, batches, members, args.device
    )
    _print(rows)
    _print(profile)


if __name__ == "__main__":
    main()
