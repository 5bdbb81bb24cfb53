"""BFTS's robustness grid on Friedman1 with more seeds than the quick profile runs.

Run: ``python benchmarks/bfts_robustness.py [--seeds 4] [--horizon 500] [--profile quick]``.

The experiment's loop (one change at a time from the profile's forest: trees x0.5 / x2, burn-in
x0.5 / x2, the sqrt schedule), with the same environment and agent seeds, so seeds 0 and 1 reproduce
the profile's two. Prints each variant's regrets, mean, sd and refits, then the spread
(max - min) / mean of the variant means.
"""

from __future__ import annotations

import argparse

import numpy as np

from icml26.bfts import run_bandit, synthetic_environment
from icml26.bfts.experiment import EXPERIMENT, make_agent


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--seeds", type=int, default=4)
    p.add_argument("--horizon", type=int, default=500)
    p.add_argument("--profile", default="quick", choices=tuple(EXPERIMENT.profiles))
    args = p.parse_args()
    config = dict(EXPERIMENT.profiles[args.profile])
    variants: list[tuple[str, dict]] = [("default", {})]
    variants += [(f"trees x{f}", {"n_trees": max(1, round(config["n_trees"] * f))}) for f in (0.5, 2)]
    variants += [(f"burn-in x{f}", {"n_burnin": max(1, round(config["n_burnin"] * f))}) for f in (0.5, 2)]
    variants += [("schedule sqrt", {"schedule": "sqrt"})]
    means = []
    for label, over in variants:
        regrets, refits = [], 0
        for s in range(args.seeds):
            env = synthetic_environment("friedman1", args.horizon, np.random.default_rng(100 + s))
            agent = make_agent("BFTS", 2, 10, config, s, **over)
            regrets.append(float(run_bandit(env, agent, np.random.default_rng(s))["regret"].sum()))
            refits = len(agent.fit_times_) - 1
        means.append(float(np.mean(regrets)))
        print(
            f"{label}: {[round(r, 1) for r in regrets]} mean {means[-1]:.1f} "
            f"sd {np.std(regrets, ddof=1):.1f} refits {refits}",
            flush=True,
        )
    v = np.array(means)
    print(f"spread (max - min) / mean over {args.seeds} seeds: {(v.max() - v.min()) / v.mean():.3f}")


if __name__ == "__main__":
    main()
