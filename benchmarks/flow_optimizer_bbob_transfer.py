"""Zero-shot BBOB transfer of the mixture-class weights, all 24 functions, over training seeds (issue 49).

The experiment's test ``bbob_transfer_vs_ipop`` (``claims_transfer.py``) runs the seed-0 mixture weights;
its verdict comes only from a record (quick: a six-function slice, a check; paper: all 24). This script
measures the same rule outside a record, on every BBOB function and several training seeds, so the
interval carries training-seed variance as well as the spread over functions and instances.

Rule (the test's, written before its first run and not changed here): on each (function, instance)
pair, through ``ioh`` at d = ``--dim`` and ``--budget`` evaluations counted by ``ioh``, a FlowOptimizer
model wins when its final precision ``best f - f_opt`` (floored at 1e-8) is below both IPOP-CMA-ES
runs' (random start and centred start; ties one half); the claim holds when the win fraction is
> 0.5. The weights are gradient-free (``ioh`` gives values only), so every evaluation of every method
is counted and no gradient goes uncharged. Reported: each model's win fraction, the pooled fraction
over the ``--weights`` training seeds with :func:`~icml26.flow_optimizer.bbob.seed_clustered_interval`
(seeds and functions resampled), per-function wins and median log10 precisions; the shipped Rastrigin
gradient-free weights are the control. Usage (about 3 s per pair and model on a loaded core)::

    /work/heavy env PYTHONPATH=src python benchmarks/flow_optimizer_bbob_transfer.py --instances 5 \\
        --out docs/runs/flow_optimizer/bbob_transfer_24.json
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import torch

from icml26.flow_optimizer import FlowOptimizer
from icml26.flow_optimizer.bbob import IPOP, clustered_interval, seed_clustered_interval, transfer_pair, wins

SEEDS = ("mixture-10-gradfree", "mixture-10-gradfree-s1")
CONTROL = "rastrigin-10-gradfree"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--weights", nargs="+", default=list(SEEDS), help="one shipped name per training seed"
    )
    parser.add_argument("--functions", type=int, nargs="+", default=list(range(1, 25)))
    parser.add_argument("--instances", type=int, default=5)
    parser.add_argument("--dim", type=int, default=10)
    parser.add_argument("--budget", type=int, default=3200)
    parser.add_argument("--seed", type=int, default=0, help="run seed (starts, CMA-ES seeds)")
    parser.add_argument("--out", type=Path, default=None, help="write the result (JSON) here")
    args = parser.parse_args()
    if args.instances < 1 or not set(args.functions) <= set(range(1, 25)):
        parser.error("--instances must be >= 1 and --functions within 1..24")
    torch.set_num_threads(1)
    start = time.perf_counter()
    flows = {f"flow_s{i}": FlowOptimizer.pretrained(name) for i, name in enumerate(args.weights)}
    flows["flow_control"] = FlowOptimizer.pretrained(CONTROL)
    rows, fn = [], []
    for fid in args.functions:
        for iid in range(1, args.instances + 1):
            out = transfer_pair(fid, iid, args.dim, args.budget, flows, args.seed)
            for method, r in out.items():
                if r["nfev"] != r["counted"] or r["nfev"] > args.budget:
                    raise RuntimeError(
                        f"{method} f{fid} i{iid}: {r['nfev']} reported, {r['counted']} counted"
                    )
            rows.append({"function": fid, "instance": iid, **{m: r["precision"] for m, r in out.items()}})
            fn.append(fid)
            print(
                f"f{fid} i{iid}: " + ", ".join(f"{m} {r['precision']:.3g}" for m, r in out.items()),
                flush=True,
            )
    fn_arr = np.array(fn)
    ipop = [np.array([r[m] for r in rows]) for m in IPOP]
    won = {m: wins(np.array([r[m] for r in rows]), ipop) for m in flows}
    seeds = np.stack([won[f"flow_s{i}"] for i in range(len(args.weights))])
    summary: dict = {
        "rule": "a win: precision below both IPOP-CMA-ES starts' (ties 1/2); the claim holds when > 0.5",
        "weights": args.weights,
        "control": CONTROL,
        "dim": args.dim,
        "budget": args.budget,
        "functions": args.functions,
        "instances": args.instances,
        "pairs": len(rows),
        "win_fraction": {m: float(w.mean()) for m, w in won.items()},
        "win_fraction_interval_functions": {
            m: clustered_interval(w, fn_arr, args.seed) for m, w in won.items()
        },
        "pooled_win_fraction": float(seeds.mean()),
        "pooled_interval_seeds_and_functions": seed_clustered_interval(seeds, fn_arr, args.seed),
        "holds": bool(seeds.mean() > 0.5),
        "wins_per_function": {
            m: {int(f): float(w[fn_arr == f].sum()) for f in args.functions} for m, w in won.items()
        },
        "median_log10_precision": {
            m: float(np.median(np.log10([r[m] for r in rows]))) for m in (*flows, *IPOP)
        },
        "seconds": time.perf_counter() - start,
        "rows": rows,
    }
    print(json.dumps({k: v for k, v in summary.items() if k not in ("rows", "wins_per_function")}, indent=1))
    if args.out:
        args.out.write_text(json.dumps(summary, indent=1) + "\n")


if __name__ == "__main__":
    main()
