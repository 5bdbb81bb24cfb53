"""AutoAttack (APGD-CE + APGD-T) on C²R and the strongest baseline at IPC 10, standard training: the issue's
supplementary evaluation, beside PGD-10 on the same images.

    python benchmarks/c2r_autoattack.py [--seeds 0 1 2] [--n 500] [--out FILE.json]

It distils the IPC-10 sets again with the paper record's settings (``docs/runs/c2r/20261203T100852912814Z``): the same
Fashion-MNIST split (test order seed 0, validation seed 1), the shipped pool, 300 iterations, the eta each
method picked on the validation split in that record for every seed (C²R 0.2, ROME-like 0.8; ROME-like
is the record's strongest baseline at IPC 10, standard training), distillation seeds 0, 1, 2, and two
eval nets per set trained as the experiment trains them (seeds 100 s + e, 300 epochs). The first ``--n``
of the record's 1,000 test images are attacked at eps = 8/255. Prints and optionally writes per method
the clean, PGD-10 and AutoAttack accuracy (mean over seeds, nets and images; 95% two-way bootstrap over
seeds x images, paired across methods) and the C²R / baseline ratio under each attack. One torch thread.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import torch

from icml26.c2r import C2R, ROMELike, correct_under_attack, load, load_pool, train_network
from icml26.c2r.bootstrap import bootstrap_weights, interval, resampled_means
from icml26.c2r.experiment import experiment_split

EPS = 8 / 255
ETA = {"c2r": 0.2, "rome": 0.8}  # the record's validation picks, the same for every seed


def _distiller(method: str, iterations: int):
    shared = {"iterations": iterations, "lr_img": 0.1, "real_per_class": 64, "eta": ETA[method], "eps": EPS}
    return C2R(**shared, score_steps=3) if method == "c2r" else ROMELike(**shared)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument(
        "--n", type=int, default=500, help="test images attacked (the first n of the record's)"
    )
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--eval-epochs", type=int, default=300)
    parser.add_argument("--eval-nets", type=int, default=2)
    parser.add_argument("--out", type=Path, default=None, help="write the figures to this JSON file")
    args = parser.parse_args()
    if (
        not 1 <= args.n <= 1000
        or min(args.seeds) < 0
        or min(args.iterations, args.eval_epochs, args.eval_nets) < 1
    ):
        parser.error("--n must lie in 1..1000; seeds >= 0; iterations, eval-epochs, eval-nets >= 1")
    torch.set_num_threads(1)
    start = time.process_time()
    x, y, xt_all, yt_all = load("fashion_mnist")
    (x_train, y_train, _, _), (xt, yt) = experiment_split(x, y, xt_all, yt_all, 1000, args.n)
    pool = load_pool(x, y, "fashion_mnist", 5)
    attacks = ("clean", "pgd10", "apgd")
    scores = {m: {a: [] for a in attacks} for m in ETA}
    for s in args.seeds:
        for method in ETA:
            distilled = _distiller(method, args.iterations).distill(x_train, y_train, 10, s, pool)
            per = {a: [] for a in attacks}
            for e in range(args.eval_nets):
                net = train_network(distilled.images, distilled.labels, 100 * s + e, args.eval_epochs)
                for a in attacks:
                    per[a].append(correct_under_attack(net, xt, yt, a, EPS, s).astype(float))
            for a in attacks:
                scores[method][a].append(np.mean(per[a], axis=0))  # per image, mean over the eval nets
            print(
                f"seed {s} {method}: " + ", ".join(f"{a} {np.mean(per[a]):.4f}" for a in attacks), flush=True
            )
    weights = bootstrap_weights(len(args.seeds), args.n, seed=0)
    out: dict[str, object] = {"seeds": args.seeds, "n_images": args.n, "eps": EPS, "eta": ETA}
    for a in attacks:
        reps = {m: resampled_means(np.stack(scores[m][a]), weights) for m in ETA}
        for m in ETA:
            out[f"{m}_{a}"] = [float(np.mean(scores[m][a])), *interval(reps[m])]
        out[f"c2r_over_rome_{a}"] = [
            float(np.mean(scores["c2r"][a]) / np.mean(scores["rome"][a])),
            *interval(reps["c2r"] / reps["rome"]),
        ]
    out["cpu_seconds"] = time.process_time() - start
    for key, value in out.items():
        print(f"{key}: {value}")
    if args.out is not None:
        args.out.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
