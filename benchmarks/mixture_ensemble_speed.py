"""ME vs CE generation speed, side by side in one run (ratios, not absolute timings).

    python benchmarks/mixture_ensemble_speed.py --model tiny --tokens 32 --repeats 5
    python benchmarks/mixture_ensemble_speed.py --model smollm2 --device cuda

Each repeat runs CE then ME on the same prompt batch; the ratio of tokens per second is taken
within the repeat (paired), and the median over repeats is reported, with forward-call counts.
"""

from __future__ import annotations

import argparse
import statistics

import torch

from icml26.mixture_ensemble import ConventionalEnsemble, MixtureEnsemble
from icml26.mixture_ensemble.experiment import perturbed_copy
from icml26.mixture_ensemble.task import tiny_llama


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=("tiny", "smollm2"), default="tiny")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--tokens", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--batches", default="1,4")
    parser.add_argument("--threads", type=int, default=0, help="torch CPU threads (0 = leave as is)")
    args = parser.parse_args()
    if args.threads > 0:
        torch.set_num_threads(args.threads)
    if args.model == "smollm2":
        from icml26.mixture_ensemble import load_smollm2

        base, tokenizer = load_smollm2()
        prompt = tokenizer.encode("Question: Natalia sold clips to 48 of her friends in April. Answer:")
    else:
        base = tiny_llama(512, hidden=256, layers=4, heads=4, seed=0)
        prompt = list(range(2, 18))
    models = [base] + [perturbed_copy(base, 0.02, s) for s in (1, 2)]
    print("members batch  CE tok/s  ME tok/s  ME/CE  CE calls  ME calls")
    for n in (2, 3):
        ce = ConventionalEnsemble(models[:n], device=args.device)
        me = MixtureEnsemble(models[:n], device=args.device)
        for batch in (int(b) for b in args.batches.split(",")):
            ce.generate(input_ids=[prompt] * batch, max_new_tokens=2)  # warm-up
            me.generate(input_ids=[prompt] * batch, max_new_tokens=2)
            ratios, ce_rates, me_rates = [], [], []
            for r in range(args.repeats):
                a = ce.generate(
                    input_ids=[prompt] * batch,
                    max_new_tokens=args.tokens,
                    top_k=10,
                    seed=r,
                    stop_at_eos=False,
                )
                b = me.generate(
                    input_ids=[prompt] * batch,
                    max_new_tokens=args.tokens,
                    top_k=10,
                    seed=r,
                    stop_at_eos=False,
                )
                ce_rates.append(a.num_tokens / a.seconds)
                me_rates.append(b.num_tokens / b.seconds)
                ratios.append(me_rates[-1] / ce_rates[-1])
            print(
                f"{n:7d} {batch:5d} {statistics.median(ce_rates):9.1f} {statistics.median(me_rates):9.1f}"
                f" {statistics.median(ratios):6.2f} {sum(a.forward_calls):9d} {sum(b.forward_calls):9d}"
            )


if __name__ == "__main__":
    main()
