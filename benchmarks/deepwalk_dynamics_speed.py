"""SGNS engines side by side in one run: pair updates per second of our numba engine and gensim's Cython
Word2Vec (same corpus, same start, one core), and seconds per population-GD step at n = 300 and 1,000.

    OMP_NUM_THREADS=1 python benchmarks/deepwalk_dynamics_speed.py [--walks 40] [--repeats 3] [--dim 16]

Prints one row per engine with the median pairs/s over ``repeats`` and the ratio ours / gensim.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from threadpoolctl import threadpool_limits

from icml26.deepwalk_dynamics import SGNSConfig, initial_embeddings, node_frequencies, sbm_graph
from icml26.deepwalk_dynamics.gensim_engine import gensim_sgd
from icml26.deepwalk_dynamics.population import population_gd
from icml26.deepwalk_dynamics.sgns_matrix import cooccurrence_matrix, negative_distribution
from icml26.deepwalk_dynamics.stochastic import sgns_sgd, walk_corpus, warm_up


def engine_rates(walks: int, repeats: int, dim: int) -> dict[str, float]:
    a, _ = sbm_graph([100] * 3, 0.10, 0.02, seed=0)
    config = SGNSConfig(dim=dim, init_scale=1e-4)
    degree = np.asarray(a.sum(axis=1)).ravel()
    corpus = walk_corpus(a, walks, 40, config.window, np.random.default_rng(0))
    u0, v0 = initial_embeddings(300, config)
    warm_up()
    rates: dict[str, list[float]] = {"ours (numba)": [], "gensim": []}
    for r in range(repeats):
        *_, (pairs, _, _, seconds) = sgns_sgd(
            corpus, degree / degree.sum(), u0, v0, config, corpus.pairs, np.random.default_rng(r)
        )
        rates["ours (numba)"].append(pairs / seconds)
        *_, (pairs, _, _, seconds) = gensim_sgd(corpus, degree, u0, v0, config, corpus.pairs)
        rates["gensim"].append(pairs / seconds)
    return {name: float(np.median(v)) for name, v in rates.items()}


def step_seconds(n: int, steps: int = 5) -> float:
    a, _ = sbm_graph([n // 3] * 3, 0.10, 0.02, seed=0)
    c = cooccurrence_matrix(a, 5)
    neg = np.outer(node_frequencies(a), negative_distribution(a, 1.0))
    u0, v0 = initial_embeddings(a.shape[0], SGNSConfig(init_scale=1e-4))
    start = time.perf_counter()
    for _ in population_gd(c, neg, u0, v0, 1.0, steps, steps):
        pass
    return (time.perf_counter() - start) / steps


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--walks", type=int, default=40, help="walks per node (corpus size)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--dim", type=int, default=16)
    args = parser.parse_args()
    with threadpool_limits(1):
        rates = engine_rates(args.walks, args.repeats, args.dim)
        for name, rate in rates.items():
            print(f"{name:14s} {rate:12.3e} pairs/s   ratio to gensim {rate / rates['gensim']:.2f}x")
        for n in (300, 1000):
            print(f"population GD step, n = {n:5d}: {step_seconds(n) * 1e3:8.2f} ms")


if __name__ == "__main__":
    main()
