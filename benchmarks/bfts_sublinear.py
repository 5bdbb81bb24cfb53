"""The issue's sublinearity check at its own horizon: Friedman1, T = 2000, regret in rounds 1001-2000
over rounds 1-1000, BFTS (the quick profile's forest) beside LinTS.

The quick experiment runs T = 1000 and compares rounds 501-1000 with 1-500; this runs the issue's
version. The first 1000 rounds are the experiment's (same seeds; the horizon does not change them).
Usage::

    OMP_NUM_THREADS=1 python benchmarks/bfts_sublinear.py --seeds 0 1 2
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from icml26.bfts import run_bandit, synthetic_environment
from icml26.bfts.experiment import EXPERIMENT, make_agent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--horizon", type=int, default=2000)
    args = parser.parse_args()
    half = args.horizon // 2
    config = EXPERIMENT.profiles["quick"]
    ratios: dict[str, list[float]] = {}
    for s in args.seeds:
        env = synthetic_environment("friedman1", args.horizon, np.random.default_rng(s))
        for name in ("BFTS", "LinTS"):
            agent = make_agent(name, env.n_arms, env.n_features, config, s)
            start = time.perf_counter()
            regret = np.cumsum(run_bandit(env, agent, np.random.default_rng(s + 10_000))["regret"])
            ratio = (regret[-1] - regret[half - 1]) / regret[half - 1]
            ratios.setdefault(name, []).append(ratio)
            print(
                f"seed {s} {name}: regret 1-{half} {regret[half - 1]:.1f}, {half + 1}-{args.horizon} "
                f"{regret[-1] - regret[half - 1]:.1f}, ratio {ratio:.3f} ({time.perf_counter() - start:.0f} s)",
                flush=True,
            )
    for name, values in ratios.items():
        print(f"{name}: mean second-half / first-half regret {np.mean(values):.3f} over {len(values)} seeds")


if __name__ == "__main__":
    main()
