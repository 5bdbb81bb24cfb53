"""BFTS speed, side by side in one run: BART backends per refit, and agents per 1,000 bandit rounds.

Run: ``python benchmarks/bfts_speed.py [--n 500] [--trees 50] [--burnin 200] [--horizon 1000]``.

1. One arm refit on n Friedman1 points: the project's numpy sampler vs stochtree, same forest and
   burn-in, as a time ratio to stochtree, with both posterior means' RMSE to the truth.
2. Seconds per 1,000 rounds on Friedman1 for every agent (warm start, log refresh schedule), as a
   ratio to LinTS.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from icml26.bfts import BARTSampler, StochtreeBART, friedman1, run_bandit, synthetic_environment
from icml26.bfts.experiment import AGENTS, make_agent


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--n", type=int, default=500)
    p.add_argument("--trees", type=int, default=50)
    p.add_argument("--burnin", type=int, default=200)
    p.add_argument("--horizon", type=int, default=1000)
    args = p.parse_args()
    import torch

    torch.set_num_threads(1)
    rng = np.random.default_rng(0)
    X, Xt = rng.uniform(size=(args.n, 10)), rng.uniform(size=(500, 10))
    y = friedman1(X) + rng.normal(size=args.n)
    rows = []
    StochtreeBART(n_trees=2, n_burnin=1, n_draws=1).fit(X[:20], y[:20])  # import and load before timing
    for name, cls in (("stochtree", StochtreeBART), ("numpy (own)", BARTSampler)):
        start = time.perf_counter()
        model = cls(n_trees=args.trees, n_burnin=args.burnin, n_draws=100, random_state=0).fit(X, y)
        seconds = time.perf_counter() - start
        rmse = float(np.sqrt(np.mean((model.predict(Xt).mean(0) - friedman1(Xt)) ** 2)))
        rows.append((name, seconds, rmse))
    print(f"One refit, n={args.n}, {args.trees} trees, {args.burnin} burn-in + 100 draws")
    print(f"{'backend':<14}{'seconds':>10}{'x stochtree':>13}{'RMSE':>8}")
    for name, seconds, rmse in rows:
        print(f"{name:<14}{seconds:>10.2f}{seconds / rows[0][1]:>13.1f}{rmse:>8.3f}")

    config = {
        "n_trees": args.trees,
        "n_burnin": args.burnin,
        "min_draws": 100,
        "max_draws": 500,
        "ensemble_trees": 50,
        "device": "cpu",
    }
    env = synthetic_environment("friedman1", args.horizon, np.random.default_rng(0))
    timing = {}
    for name in AGENTS:
        out = run_bandit(env, make_agent(name, 2, 10, config, 0), np.random.default_rng(1))
        timing[name] = (1000 * out["seconds"] / args.horizon, float(out["regret"].sum()))
    print(f"\nFriedman1, T={args.horizon}: seconds per 1,000 rounds")
    print(f"{'agent':<12}{'s / 1k':>10}{'x LinTS':>10}{'regret':>9}")
    for name, (s, regret) in timing.items():
        print(f"{name:<12}{s:>10.3f}{s / timing['LinTS'][0]:>10.1f}{regret:>9.1f}")


if __name__ == "__main__":
    main()
