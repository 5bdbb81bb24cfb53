"""Why BFTS's 90% credible intervals of f(x, a) undercover on Friedman1: agent runs and refits.

Run: ``python benchmarks/bfts_calibration.py [--horizon 1000] [--seeds 0 1 2] [--trees 50] [--burnin 200]
[--prior official|stochtree] [--chains 1] [--backend stochtree|numpy] [--refit]``.

1. BFTS plays Friedman1 (K = 2, p = 10) for ``horizon`` rounds exactly as in the experiment (same seeds,
   same 200 probe points). At the end, the coverage of the central 90% intervals of f(x, a) from the
   last refit's draws, overall and split by whether arm a is the better arm at the probe (the region
   where BFTS collected most of that arm's data).
2. With ``--refit``, each arm's final data are refit once by other posteriors: stochtree with the
   official priors (100 trees, 500 burn-in; 1 and 4 chains), stochtree's own priors, and the project's
   numpy sampler with the official priors. Same data, so the difference is the posterior alone.
3. ``--iid``: the same posteriors on n i.i.d. uniform Friedman1 points (no bandit at all).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from icml26.bfts import BFTSAgent, friedman1, make_posterior, run_bandit, synthetic_environment
from icml26.bfts.calibration import calibration_probes, interval_hits, official_sampler_draws


def summary(hit: np.ndarray, truth: np.ndarray) -> str:
    """Coverage overall, at (probe, arm) pairs where the arm is the better one, and where it is not."""
    best = truth == truth.max(axis=1, keepdims=True)
    return f"all {hit.mean():.3f}  better-arm {hit[best].mean():.3f}  worse-arm {hit[~best].mean():.3f}"


REFITS: dict[str, dict] = {
    "stochtree official 100/500, 1 chain": {"backend": "stochtree", "n_trees": 100, "n_burnin": 500},
    "stochtree official 100/500, 4 chains": {
        "backend": "stochtree",
        "n_trees": 100,
        "n_burnin": 500,
        "num_chains": 4,
    },
    "stochtree own priors 100/500, 1 chain": {
        "backend": "stochtree",
        "n_trees": 100,
        "n_burnin": 500,
        "prior": "stochtree",
    },
    # the experiment's official_sampler_draws (100 / 500, 500 draws, cut-points clip(ceil(0.2 t), 100, 2000))
    "numpy (own) official 100/500, 1 chain": {"backend": "numpy"},
}


def refit_draws(
    spec: dict, X: np.ndarray, y: np.ndarray, arms: np.ndarray, P: np.ndarray, seed: int
) -> np.ndarray:
    """Posterior draws of f(probe, a) from a fresh fit of each arm's data; shape (D, n_probes, 2)."""
    if spec["backend"] == "numpy":
        return official_sampler_draws(X, arms, y, P, seed)
    spec = dict(spec)
    backend = spec.pop("backend")
    chains = spec.get("num_chains", 1)
    out = []
    for a in range(2):
        model = make_posterior(backend, n_draws=500 // chains, nu=1.0, random_state=seed + a, **spec)
        out.append(model.fit(X[arms == a], y[arms == a]).predict(P))
    return np.stack(out, axis=2)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--horizon", type=int, default=1000)
    p.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    p.add_argument("--trees", type=int, default=50)
    p.add_argument("--burnin", type=int, default=200)
    p.add_argument("--prior", default="official", choices=("official", "stochtree"))
    p.add_argument("--chains", type=int, default=1)
    p.add_argument(
        "--backend",
        default="stochtree",
        choices=("stochtree", "numpy"),
        help="the agent's BART; numpy = the project's grow/prune/change sampler, like the official agent's own",
    )
    p.add_argument("--refit", action="store_true")
    p.add_argument("--refit-only", nargs="*", default=None, help="names in REFITS to run (default: all)")
    p.add_argument("--iid", type=int, default=0, help="n i.i.d. points: run the refits there instead")
    args = p.parse_args()
    P, truth = calibration_probes(200)
    refits = {k: v for k, v in REFITS.items() if args.refit_only is None or k in args.refit_only}
    if args.iid:
        for s in args.seeds:
            rng = np.random.default_rng(s)
            X = rng.uniform(size=(2 * args.iid, 10))
            arms = np.repeat([0, 1], args.iid)
            y = np.where(arms == 0, friedman1(X), friedman1(X[:, ::-1])) + rng.normal(size=2 * args.iid)
            for name, spec in refits.items():
                start = time.perf_counter()
                hit = interval_hits(refit_draws(spec, X, y, arms, P, s), truth)
                print(
                    f"iid n={args.iid}/arm seed {s} | {name}: {summary(hit, truth)}  "
                    f"({time.perf_counter() - start:.0f} s)",
                    flush=True,
                )
        return
    config = f"{args.prior} priors, {args.trees} trees, {args.burnin} burn-in, {args.chains} chain(s)"
    bart_params = {"prior": args.prior, "num_chains": args.chains}
    if args.backend == "numpy":  # official priors are the sampler's own; one chain; cut-points by the agent
        config = f"numpy sampler, official priors, {args.trees} trees, {args.burnin} burn-in, 1 chain"
        bart_params = {}
    for s in args.seeds:
        env = synthetic_environment("friedman1", args.horizon, np.random.default_rng(s))
        agent = BFTSAgent(
            2,
            10,
            n_trees=args.trees,
            n_burnin=args.burnin,
            backend=args.backend,
            bart_params=bart_params,
            random_state=s,
        )
        start = time.perf_counter()
        out = run_bandit(env, agent, np.random.default_rng(s + 10_000))
        seconds = time.perf_counter() - start
        hit = interval_hits(agent.posterior_draws(P), truth)
        arms = np.asarray(agent.arms_)
        print(
            f"seed {s} | agent ({config}): regret {out['regret'].sum():.1f}, last refit at t={agent.fit_times_[-1]} "
            f"with {agent.n_draws_} draws, arm sizes {np.bincount(arms, minlength=2).tolist()} | "
            f"coverage {summary(hit, truth)} ({seconds:.0f} s)",
            flush=True,
        )
        if args.refit:
            X, y = np.asarray(agent.X_), np.asarray(agent.rewards_)
            for name, spec in refits.items():
                start = time.perf_counter()
                hit = interval_hits(refit_draws(spec, X, y, arms, P, s), truth)
                print(
                    f"seed {s} | refit {name}: {summary(hit, truth)} ({time.perf_counter() - start:.0f} s)",
                    flush=True,
                )


if __name__ == "__main__":
    main()
