"""Exact semivalues for n = 10 sources: cached sufficient statistics beside refitting every coalition.

    python benchmarks/truthful_valuation_speed.py [--sources 10] [--size 50] [--features 5] [--repeats 3]

Both paths value all 2^n coalitions with the log-score DVF on |V| = 200 and then compute the exact
Shapley, Banzhaf and Beta(4,1) values; the table is checked equal (to 1e-8) before timing is reported.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from icml26.truthful_valuation import (
    GaussianLinearModel,
    NaiveBayesModel,
    exact_semivalues,
    game_table,
    refit_game_table,
    synthetic_trial,
)


def _best(fn, repeats: int) -> tuple[np.ndarray, float]:
    best, out = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return out, best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sources", type=int, default=10)
    parser.add_argument("--size", type=int, default=50)
    parser.add_argument("--features", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"n = {args.sources} sources x {args.size} points, d = {args.features}, |V| = 200, 2^n coalitions")
    print(f"{'model':<22}{'cached (s)':>12}{'refit (s)':>12}{'refit / cached':>16}")
    for model in (GaussianLinearModel(args.features), NaiveBayesModel(args.features)):
        rng = np.random.default_rng(0)
        sources, validation = synthetic_trial(model, [args.size] * args.sources, 200, rng)

        def cached(model=model, sources=sources, validation=validation):
            stats = np.stack([model.statistics(X, y) for X, y in sources])
            table = game_table(model, stats, "log_score", validation)
            return table, [exact_semivalues(table, s) for s in ("shapley", "banzhaf", "beta(4,1)")]

        def refit(model=model, sources=sources, validation=validation):
            table = refit_game_table(model, sources, "log_score", validation)
            return table, [exact_semivalues(table, s) for s in ("shapley", "banzhaf", "beta(4,1)")]

        (t_fast, _), s_fast = _best(cached, args.repeats)
        (t_slow, _), s_slow = _best(refit, args.repeats)
        np.testing.assert_allclose(t_fast, t_slow, rtol=1e-8, atol=1e-8)
        print(f"{type(model).__name__:<22}{s_fast:>12.4f}{s_slow:>12.4f}{s_slow / s_fast:>15.1f}x")


if __name__ == "__main__":
    main()
