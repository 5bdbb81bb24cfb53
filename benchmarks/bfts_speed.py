"""BFTS speed, side by side in one run: BART backends per refit, and agents per 1,000 bandit rounds.

Run: ``python benchmarks/bfts_speed.py [--n 500] [--trees 50] [--burnin 200] [--horizon 1000]
[--parts refit,agents,classification]``.

1. One arm refit on n Friedman1 points: the project's numpy sampler vs stochtree, same forest and
   burn-in, as a time ratio to stochtree, with both posterior means' RMSE to the truth.
2. Seconds per 1,000 rounds on Friedman1 for every agent (warm start, log refresh schedule), as a
   ratio to LinTS.
3. BFTS on the digits classification bandit (K = 10 arms, 20 PCA features; the quick profile's forest),
   once with the compiled BARTSampler engine and once with its Python reference loop (the engine of the
   fallback arms, whose rewards are still constant, or which have too few rows for stochtree). Each run's
   seconds per 1,000 rounds are split into stochtree's own sampler (its fits), the fallback fits and
   the per-round draws; the two runs' arm sequences and last posteriors must be identical.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import time

import numpy as np

from icml26.bfts import BARTSampler, StochtreeBART, friedman1, run_bandit, synthetic_environment
from icml26.bfts import bart as bart_module
from icml26.bfts.environments import classification_environment
from icml26.bfts.experiment import AGENTS, EXPERIMENT, make_agent


def _timed_classification(horizon: int, compiled: bool) -> dict:
    """One BFTS run on digits; seconds split by where they went, and the arms it played."""
    spent = {"stochtree": 0.0, "fallback": 0.0, "draws": 0.0, "stochtree fits": 0, "fallback fits": 0}
    fit, draw = StochtreeBART.fit, StochtreeBART.predict_draw

    def timed_fit(self, X, y):
        start = time.perf_counter()
        out = fit(self, X, y)
        key = "fallback" if self.fallback_ is not None else "stochtree"
        spent[key] += time.perf_counter() - start
        spent[key + " fits"] += 1
        return out

    def timed_draw(self, X, k):
        start = time.perf_counter()
        out = draw(self, X, k)
        spent["draws"] += time.perf_counter() - start
        return out

    config = dict(EXPERIMENT.profiles["quick"])
    env = classification_environment("digits", np.random.default_rng(0), horizon=horizon)
    agent = make_agent("BFTS", env.n_arms, env.n_features, config, 0)
    StochtreeBART.fit, StochtreeBART.predict_draw = timed_fit, timed_draw
    have = bart_module.HAVE_NUMBA
    bart_module.HAVE_NUMBA = have and compiled  # engine "auto": compiled only when allowed here
    try:
        out = run_bandit(env, agent, np.random.default_rng(1))
    finally:
        StochtreeBART.fit, StochtreeBART.predict_draw = fit, draw
        bart_module.HAVE_NUMBA = have
    spent["total"] = out["seconds"]
    spent["arms"] = out["arms"]
    spent["last draws"] = agent.posterior_draws(env.X[:50])
    return spent


def classification_part(horizon: int) -> None:
    BARTSampler(n_trees=2, n_burnin=2, n_draws=2, random_state=0).fit(np.ones((4, 1)), np.zeros(4))  # compile
    runs = {
        "compiled": _timed_classification(horizon, True),
        "reference": _timed_classification(horizon, False),
    }
    scale = 1000 / horizon
    fast = runs["compiled"]
    print(f"\ndigits bandit (K=10, p=20), BFTS with the quick forest, T={horizon}: seconds per 1,000 rounds")
    print(
        f"{'fallback engine':<16}{'total':>8}{'x compiled':>12}{'stochtree':>11}{'fallback':>10}"
        f"{'draws':>8}{'other':>8}{'fits (st/fb)':>14}"
    )
    for name, r in runs.items():
        other = r["total"] - r["stochtree"] - r["fallback"] - r["draws"]
        print(
            f"{name:<16}{r['total'] * scale:>8.2f}{r['total'] / fast['total']:>12.2f}{r['stochtree'] * scale:>11.2f}"
            f"{r['fallback'] * scale:>10.2f}{r['draws'] * scale:>8.2f}{other * scale:>8.2f}"
            f"{r['stochtree fits']:>7}/{r['fallback fits']:<6}"
        )
    same_arms = np.array_equal(fast["arms"], runs["reference"]["arms"])
    same_draws = np.array_equal(fast["last draws"], runs["reference"]["last draws"])
    print(f"identical arm sequences: {same_arms}; identical last posterior draws: {same_draws}")
    print(
        f"BFTS total / stochtree's own sampler time: compiled x{fast['total'] / fast['stochtree']:.2f},"
        f" reference x{runs['reference']['total'] / runs['reference']['stochtree']:.2f}"
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--n", type=int, default=500)
    p.add_argument("--trees", type=int, default=50)
    p.add_argument("--burnin", type=int, default=200)
    p.add_argument("--horizon", type=int, default=1000)
    p.add_argument("--parts", default="refit,agents,classification")
    args = p.parse_args()
    parts = set(args.parts.split(","))
    import torch

    torch.set_num_threads(1)
    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print(f"load: {load}; OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}, torch threads 1")
    if "classification" in parts:
        classification_part(args.horizon)
    if not parts & {"refit", "agents"}:
        return
    rng = np.random.default_rng(0)
    X, Xt = rng.uniform(size=(args.n, 10)), rng.uniform(size=(500, 10))
    y = friedman1(X) + rng.normal(size=args.n)
    rows = []
    StochtreeBART(n_trees=2, n_burnin=1, n_draws=1).fit(X[:20], y[:20])  # import and load before timing
    variants = (
        ("stochtree", StochtreeBART, {}),
        ("own, compiled", BARTSampler, {"engine": "auto"}),
        ("own, python", BARTSampler, {"engine": "python"}),
    )
    for name, cls, extra in variants:
        start = time.perf_counter()
        model = cls(n_trees=args.trees, n_burnin=args.burnin, n_draws=100, random_state=0, **extra).fit(X, y)
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
