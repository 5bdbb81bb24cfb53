"""The paper's experiments at CPU scale: synthetic regret, the classification suite,
posterior calibration, the Drink-Less-like MRT with replay evaluation, and hyperparameter robustness.
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np
from scipy import stats

from icml26.bfts.agent import BanditAgent, BFTSAgent
from icml26.bfts.bart import STOCHTREE_PRIORS
from icml26.bfts.baselines import EpsilonGreedy, LinTS, LinUCB, NeuralTS, RandomAgent, TreeEnsembleTS
from icml26.bfts.calibration import (
    OFFICIAL_BURNIN,
    OFFICIAL_TREES,
    calibration_probes,
    coverage_row,
    interval_hits,
    linear_interval_hits,
    official_sampler_draws,
)
from icml26.bfts.claims import BACKGROUND, NAMES, PAPER_CLAIMS, TESTS
from icml26.bfts.environments import (
    DATASETS,
    classification_environment,
    run_bandit,
    synthetic_environment,
)
from icml26.bfts.mrt import replay_evaluation, simulate_trial
from icml26.bfts.schedule import SCHEDULES
from icml26.bfts.summaries import (
    add_ci,
    add_paired,
    add_replay,
    agent_key,
    binomial_se,
    rank_position_interval,
    regret_summary,
    spread,
    spread_interval,
)
from icml26.common import (
    Experiment,
    Plot,
    Resources,
    Result,
    check_device,
    seed_everything,
    unit,
)

AGENTS = ("BFTS", "Random", "LinTS", "LinUCB", "eps-greedy", "RF-TS", "XGB-TS", "NeuralTS")


def make_agent(
    name: str, n_arms: int, n_features: int, config: dict[str, Any], seed: int, **bfts_overrides: Any
) -> BanditAgent:
    """An agent by its display name, with the profile's forest size for BFTS; every agent gets the warm start."""
    common = {"warm_start_permutations": 5, "random_state": seed}
    if name == "BFTS":
        params = {
            "n_trees": config["n_trees"],
            "n_burnin": config["n_burnin"],
            "min_draws": config["min_draws"],
            "max_draws": config["max_draws"],
            "schedule": "log",
            "bart_params": {"prior": config["bart_prior"], "num_chains": config["num_chains"]},
            **bfts_overrides,
        }
        return BFTSAgent(n_arms, n_features, **params, **common)
    simple = {"Random": RandomAgent, "LinTS": LinTS, "LinUCB": LinUCB, "eps-greedy": EpsilonGreedy}
    if name in simple:
        return simple[name](n_arms, n_features, **common)
    if name in ("RF-TS", "XGB-TS"):
        model = "rf" if name == "RF-TS" else "xgb"
        return TreeEnsembleTS(
            n_arms, n_features, model=model, n_estimators=config["ensemble_trees"], **common
        )
    if name == "NeuralTS":
        return NeuralTS(n_arms, n_features, device=config["device"], **common)
    raise ValueError(f"agent must be one of {AGENTS}, got {name!r}")


def _names(text: str, allowed: tuple[str, ...], key: str) -> list[str]:
    names = [s.strip() for s in text.split(",") if s.strip()]
    bad = [n for n in names if n not in allowed]
    if bad or not names:
        raise ValueError(f"config {key!r}: {bad or 'empty'} not in {allowed}")
    return names


def check(config: dict[str, Any]) -> None:
    """Reject an out-of-range config with a message naming the key."""
    for key in (
        "friedman_horizon",
        "friedman_seeds",
        "n_trees",
        "min_draws",
        "max_draws",
        "num_chains",
        "mrt_users",
        "mrt_trials",
        "refit_trees",
        "refit_draws",
        "friedman2_seeds",
        "calibration_probes",
        "suite_seeds",
        "ensemble_trees",
        "mrt_days",
        "robust_horizon",
        "robust_seeds",
    ):
        if int(config[key]) < 1:
            raise ValueError(f"config {key!r} must be >= 1, got {config[key]}")
    for key in ("calibration_refit_seeds", "calibration_official_seeds", "refit_burnin"):
        if int(config[key]) < 0:
            raise ValueError(f"config {key!r} must be >= 0, got {config[key]}")
    if int(config["friedman_horizon"]) < 40:
        raise ValueError(f"config 'friedman_horizon' must be >= 40, got {config['friedman_horizon']}")
    if config["bart_prior"] not in STOCHTREE_PRIORS:
        raise ValueError(
            f"config 'bart_prior' must be one of {STOCHTREE_PRIORS}, got {config['bart_prior']!r}"
        )
    if int(config["max_draws"]) < int(config["min_draws"]):
        raise ValueError("config 'max_draws' must be >= 'min_draws'")
    _names(config["suite_agents"], AGENTS, "suite_agents")
    _names(config["suite_datasets"], DATASETS, "suite_datasets")
    friedman = _names(config["friedman_agents"], AGENTS, "friedman_agents")
    if "BFTS" not in friedman or "LinTS" not in friedman or "BFTS" not in config["suite_agents"]:
        raise ValueError(
            "config 'friedman_agents' must include BFTS and LinTS (the calibration control), and"
            " 'suite_agents' BFTS"
        )
    check_device(config["device"])  # NeuralTS's torch device: an unusable one is rejected before the run


def run(config: dict[str, Any], seed: int) -> Result:
    """Run every part of the experiment for one base seed; see the module docstring and docs/methods/bfts.md.

    Each Friedman1 seed, official-forest calibration seed, (dataset, seed) of the suite, (agent, trial)
    of the MRT and (variant, seed) of the robustness grid is a resumable :func:`icml26.common.unit`.
    """
    check(config)
    seed_everything(seed)
    import torch

    torch.set_num_threads(1)  # the agents are sequential; threads only contend on a shared CPU
    metrics: dict[str, float] = {}
    tables: dict[str, list[dict[str, Any]]] = {}
    plots: list[Plot] = []
    notes: list[str] = []
    seconds: dict[str, list[float]] = {}
    rounds: dict[str, int] = {}

    def play(env: Any, name: str, agent_seed: int, label: str, timing: list) -> tuple[dict, BanditAgent]:
        """Play one agent; its (name, seconds, rounds) go to ``timing`` (a unit's result, then :func:`record`)."""
        agent = make_agent(name, env.n_arms, env.n_features, config, agent_seed)
        out = run_bandit(env, agent, np.random.default_rng(agent_seed + 10_000), label=label)
        timing.append((name, out["seconds"], env.horizon))
        return out, agent

    def record(timing: list) -> None:
        for name, s, n in timing:
            seconds.setdefault(name, []).append(s)
            rounds[name] = rounds.get(name, 0) + n

    # 1. Friedman1 (K = 2, p = 10) with every agent on the same seeds: cumulative regret, and calibration
    # at the end (BFTS's posterior and, as the calibration control, LinTS's Gaussian posterior).
    T = int(config["friedman_horizon"])
    t1 = min(1000, T)
    agents = _names(config["friedman_agents"], AGENTS, "friedman_agents")
    curves: dict[str, list[np.ndarray]] = {a: [] for a in agents}
    probes, truth = calibration_probes(int(config["calibration_probes"]))
    coverage, official_coverage, calib_rows, lints_coverage = [], [], [], []
    better = truth == truth.max(axis=1, keepdims=True)  # (probe, arm) pairs where the arm is the better one

    def friedman_seed(s: int) -> dict[str, Any]:
        """One Friedman1 seed: every agent's regret curve, BFTS's calibration row and official-settings refit,
        and LinTS's coverage (the calibration control)."""
        env = synthetic_environment("friedman1", T, np.random.default_rng(seed + s))
        part: dict[str, Any] = {"curves": {}, "timing": [], "official": None}
        for name in agents:
            out, agent = play(env, name, seed + s, f"friedman1 seed {s}", part["timing"])
            part["curves"][name] = np.cumsum(out["regret"])
            if name == "LinTS":
                part["coverage_lints"] = float(np.mean(linear_interval_hits(agent, probes, truth)))
            if name == "BFTS":
                # the last refit's full posterior, every draw it kept (num_chains x n_draws)
                draws = agent.posterior_draws(probes)  # (D, n_probes, K)
                hit = interval_hits(draws, truth)
                part["coverage"] = float(np.mean(hit))
                row = coverage_row(seed + s, hit, better, agent, draws.shape[0])
                row["mean_width"] = round(
                    float(np.diff(np.quantile(draws, [0.05, 0.95], axis=0), axis=0).mean()), 3
                )
                if s < int(config["calibration_refit_seeds"]):
                    start = time.perf_counter()
                    draws_official = official_sampler_draws(
                        np.asarray(agent.X_),
                        np.asarray(agent.arms_),
                        np.asarray(agent.rewards_),
                        probes,
                        seed + s,
                        int(config["refit_trees"]),
                        int(config["refit_burnin"]),
                        int(config["refit_draws"]),
                    )
                    hit_official = interval_hits(draws_official, truth)
                    part["official"] = float(np.mean(hit_official))
                    row["coverage_90_official_sampler"] = round(part["official"], 3)
                    row["official_refit_seconds"] = round(time.perf_counter() - start, 1)
                part["row"] = row
                part["refits"] = float(len(agent.fit_times_) - 1)
        return part

    for s in range(int(config["friedman_seeds"])):
        part = unit(f"friedman1_seed={s}", lambda s=s: friedman_seed(s))
        record(part["timing"])
        for name in agents:
            curves[name].append(part["curves"][name])
        coverage.append(part["coverage"])
        lints_coverage.append(part["coverage_lints"])
        if part["official"] is not None:
            official_coverage.append(part["official"])
        calib_rows.append({**part["row"], "coverage_90_lints": round(part["coverage_lints"], 3)})
        metrics.setdefault("friedman1_bfts_refits", part["refits"])
    tables["friedman1"] = regret_summary("friedman1", curves, t1, metrics)
    bfts = np.array(curves["BFTS"])
    # the original 3-seed setting of friedman1_vs_lints: the run's first 3 seeds
    n3 = min(3, len(bfts))
    for name in agents:
        key = agent_key(name)
        at_t1 = np.array(curves[name])[:, t1 - 1]
        metrics[f"friedman1_regret_{key}_first3"] = float(at_t1[:n3].mean())
        add_ci(metrics, f"friedman1_regret_{key}_first3", at_t1[:n3])
        if name != "BFTS":
            add_paired(
                metrics,
                "friedman1_regret_bfts_first3",
                f"friedman1_regret_{key}_first3",
                bfts[:n3, t1 - 1],
                at_t1[:n3],
                "ratio",
            )
    second = (bfts[:, -1] - bfts[:, T // 2 - 1]) / bfts[:, T // 2 - 1]
    metrics["friedman1_second_half_ratio"] = float(second.mean())
    add_ci(metrics, "friedman1_second_half_ratio", second)
    metrics["calibration_coverage90"] = float(np.mean(coverage))
    add_ci(metrics, "calibration_coverage90", np.array(coverage))
    metrics["calibration_coverage90_lints"] = float(np.mean(lints_coverage))
    add_ci(metrics, "calibration_coverage90_lints", np.array(lints_coverage))

    # Friedman2 (K = 2, p = 4): the same agents on their own seeds.
    curves2: dict[str, list[np.ndarray]] = {a: [] for a in agents}

    def friedman2_seed(s: int) -> dict[str, Any]:
        """One Friedman2 seed: every agent's regret curve."""
        env = synthetic_environment("friedman2", T, np.random.default_rng(seed + 500 + s))
        part: dict[str, Any] = {"curves": {}, "timing": []}
        for name in agents:
            out, _ = play(env, name, seed + 500 + s, f"friedman2 seed {s}", part["timing"])
            part["curves"][name] = np.cumsum(out["regret"])
        return part

    for s in range(int(config["friedman2_seeds"])):
        part = unit(f"friedman2_seed={s}", lambda s=s: friedman2_seed(s))
        record(part["timing"])
        for name in agents:
            curves2[name].append(part["curves"][name])
    tables["friedman2"] = regret_summary("friedman2", curves2, t1, metrics)
    # The same agent with the official forest (100 trees, 500 burn-in) on the first seeds, T = t1.
    official_agent_coverage, official_rows = [], []

    def official_forest_seed(s: int) -> tuple[float, dict[str, Any]]:
        """The agent with the official forest on Friedman1 seed ``s``: its coverage and table row."""
        env = synthetic_environment("friedman1", t1, np.random.default_rng(seed + s))
        agent = make_agent("BFTS", 2, 10, config, seed + s, n_trees=OFFICIAL_TREES, n_burnin=OFFICIAL_BURNIN)
        out = run_bandit(
            env, agent, np.random.default_rng(seed + s + 10_000), label=f"calibration official seed {s}"
        )
        draws = agent.posterior_draws(probes)
        hit = interval_hits(draws, truth)
        row = coverage_row(seed + s, hit, better, agent, draws.shape[0])
        return float(np.mean(hit)), {**row, "regret": round(float(out["regret"].sum()), 1)}

    for s in range(int(config["calibration_official_seeds"])):
        value, row = unit(f"calibration_official_forest_seed={s}", lambda s=s: official_forest_seed(s))
        official_agent_coverage.append(value)
        official_rows.append(row)
    if official_agent_coverage:
        metrics["calibration_official_agent_coverage90"] = float(np.mean(official_agent_coverage))
        add_ci(metrics, "calibration_official_agent_coverage90", np.array(official_agent_coverage))
    if official_coverage:
        metrics["calibration_official_coverage90"] = float(np.mean(official_coverage))
        add_ci(metrics, "calibration_official_coverage90", np.array(official_coverage))
    tables["calibration"] = calib_rows
    tables["calibration_official_forest"] = official_rows
    xs = list(range(1, T + 1, max(1, T // 200)))
    # the friedman1_competitive rule on the regret scale: BFTS's curve must end below it at round t1
    best_other = min(metrics[f"friedman1_regret_{agent_key(a)}"] for a in agents if a != "BFTS")
    plots.append(
        Plot(
            "friedman1_regret",
            f"Friedman1 cumulative regret (mean of {len(bfts)} seeds)",
            {a: (xs, [float(np.mean(curves[a], 0)[x - 1]) for x in xs]) for a in agents},
            "round",
            "cumulative regret",
            claim="friedman1_competitive",
            lines={f"rule: 1.1 x the best other agent at round {t1}": 1.1 * best_other},
        )
    )

    # 2. Classification suite: K = classes, reward 1 for the right label; average rank by regret.
    suite_agents = _names(config["suite_agents"], AGENTS, "suite_agents")
    datasets = _names(config["suite_datasets"], DATASETS, "suite_datasets")
    suite_rows, ranks = [], {a: [] for a in suite_agents}

    def suite_instance(d: str, s: int) -> tuple[dict[str, float], list, int]:
        """Every suite agent on data set ``d``, seed ``s``: cumulative regrets, timing, horizon."""
        horizon = int(config["suite_horizon"]) or None  # 0: every row
        env = classification_environment(d, np.random.default_rng(seed + s), horizon)
        timing: list = []
        regrets = {
            a: float(play(env, a, seed + s, f"{d} seed {s}", timing)[0]["regret"].sum()) for a in suite_agents
        }
        return regrets, timing, env.horizon

    for d in datasets:
        for s in range(int(config["suite_seeds"])):
            regrets, timing, env_horizon = unit(f"suite_{d}_seed={s}", lambda d=d, s=s: suite_instance(d, s))
            record(timing)
            r = stats.rankdata([regrets[a] for a in suite_agents])
            for a, rank in zip(suite_agents, r, strict=True):
                ranks[a].append(float(rank))
            suite_rows.append(
                {
                    "dataset": d,
                    "seed": seed + s,
                    "T": env_horizon,
                    **{a: round(regrets[a], 1) for a in suite_agents},
                }
            )
    tables["classification_regret"] = suite_rows
    avg_rank = {a: float(np.mean(ranks[a])) for a in suite_agents}
    for a in suite_agents:
        metrics[f"suite_avg_rank_{a.lower().replace('-', '_')}"] = avg_rank[a]
    # intervals over the (dataset, seed) instances: each average rank (t), BFTS minus each baseline
    # paired by instance (bootstrap), and BFTS's position among the agents (bootstrap of instances)
    rank_matrix = np.array([ranks[a] for a in suite_agents])  # (agents, instances)
    for a, row in zip(suite_agents, rank_matrix, strict=True):
        key = a.lower().replace("-", "_")
        add_ci(metrics, f"suite_avg_rank_{key}", row)
        if a != "BFTS":
            add_paired(
                metrics,
                "suite_avg_rank_bfts",
                f"suite_avg_rank_{key}",
                np.array(ranks["BFTS"]),
                row,
                "difference",
            )
    # every agent's position by average rank (1 = best, ties share it), with its bootstrap interval
    for i, a in enumerate(suite_agents):
        key = f"suite_{agent_key(a)}_rank_position"
        metrics[key] = float(1 + sum(v < avg_rank[a] for v in avg_rank.values()))
        if rank_matrix.shape[1] > 1:
            metrics[key + "_ci_low"], metrics[key + "_ci_high"] = rank_position_interval(rank_matrix, i, seed)
    tables["classification_avg_rank"] = [
        {
            "agent": a,
            "average_rank": round(avg_rank[a], 2),
            "position": metrics[f"suite_{agent_key(a)}_rank_position"],
            "position_95": (
                f"[{metrics[f'suite_{agent_key(a)}_rank_position_ci_low']:.0f}, "
                f"{metrics[f'suite_{agent_key(a)}_rank_position_ci_high']:.0f}]"
                if rank_matrix.shape[1] > 1
                else None
            ),
        }
        for a in suite_agents
    ]

    # 3. Drink-Less-like MRT: replay evaluation against the logged policy, and the replay bias, pooled
    # over ``mrt_trials`` independent simulated trials (each the trial's size; each agent starts afresh).
    trials = [
        simulate_trial(
            int(config["mrt_users"]), int(config["mrt_days"]), np.random.default_rng(seed + 777 + i)
        )
        for i in range(int(config["mrt_trials"]))
    ]
    n_logged = sum(log.rewards.size for log in trials)
    logged_emp = sum(float(log.rewards.sum()) for log in trials) / n_logged
    logged_true = float(np.mean([log.logged_value for log in trials]))
    mrt_rows = [
        {
            "policy": "logged",
            "replay_value": round(logged_emp, 4),
            "true_value": round(logged_true, 4),
            "bias": None,
            "replay_lift": 0.0,
            "matched": n_logged,
        }
    ]
    trial_rows: list[dict[str, Any]] = []
    first = trials[0]
    add_replay(metrics, "mrt_logged_value", "mrt_logged_value", logged_emp, n_logged, logged_emp, n_logged)
    metrics["mrt_logged_value_trial0"] = float(first.rewards.mean())
    metrics["mrt_logged_value_trial0_ci"] = 1.96 * binomial_se(
        float(first.rewards.mean()), first.rewards.size
    )

    def mrt_replay(name: str, i: int, log: Any) -> tuple[dict[str, float], float]:
        """Replay evaluation of a fresh ``name`` agent on simulated trial ``i``, and its wall time."""
        agent = make_agent(name, 3, 3, config, seed + i)
        start = time.perf_counter()
        res = replay_evaluation(log, agent, label=f"MRT {name} trial {i}")
        return res, time.perf_counter() - start

    for name in ("BFTS", "LinTS", "Random"):
        matched, reward_sum, true_values = 0.0, 0.0, []
        for i, log in enumerate(trials):
            res, elapsed = unit(
                f"mrt_{name.lower()}_trial={i}", lambda name=name, i=i, log=log: mrt_replay(name, i, log)
            )
            seconds.setdefault(name, []).append(elapsed)
            rounds[name] = rounds.get(name, 0) + log.X.shape[0]
            matched += res["matched"]
            reward_sum += res["replay_value"] * res["matched"]
            true_values.append(res["true_value"])
            trial_rows.append(
                {
                    "policy": name,
                    "trial": i,
                    "replay_lift": round(res["replay_value"] / float(log.rewards.mean()) - 1.0, 3),
                    "true_lift": round(res["true_value"] / log.logged_value - 1.0, 3),
                    "matched": int(res["matched"]),
                }
            )
            if i == 0:  # the original one-trial setting (the first release ran one trial)
                add_replay(
                    metrics,
                    f"mrt_{name.lower()}_replay_value_trial0",
                    "mrt_logged_value_trial0",
                    res["replay_value"],
                    res["matched"],
                    float(log.rewards.mean()),
                    log.rewards.size,
                )
        replay = reward_sum / max(matched, 1.0)
        true_value = float(np.mean(true_values))
        lift = replay / logged_emp - 1.0
        key = name.lower()
        add_replay(
            metrics, f"mrt_{key}_replay_value", "mrt_logged_value", replay, matched, logged_emp, n_logged
        )
        metrics[f"mrt_{key}_true_lift"] = true_value / logged_true - 1.0
        metrics[f"mrt_{key}_replay_bias"] = replay - true_value
        mrt_rows.append(
            {
                "policy": name,
                "replay_value": round(replay, 4),
                "true_value": round(true_value, 4),
                "bias": round(replay - true_value, 4),
                "replay_lift": round(lift, 3),
                "matched": int(matched),
            }
        )
    tables["mrt"] = mrt_rows
    tables["mrt_trials"] = trial_rows

    # 4. Robustness on Friedman1: one change at a time from the profile's forest, every variant on the
    # same seeds; the spread's interval resamples the seeds (bootstrap).
    T_r = int(config["robust_horizon"])
    variants = [("default", {})]
    variants += [(f"trees x{f}", {"n_trees": max(1, round(config["n_trees"] * f))}) for f in (0.5, 2)]
    variants += [(f"burn-in x{f}", {"n_burnin": max(1, round(config["n_burnin"] * f))}) for f in (0.5, 2)]
    variants += [
        (f"schedule {s}", {"schedule": s})
        for s in SCHEDULES
        if s != "log" and s in config["robust_schedules"]
    ]
    robust_rows, robust_regrets = [], []

    def robust_run(label: str, over: dict[str, Any], s: int) -> tuple[float, int]:
        """BFTS with one change ``over`` on Friedman1 robustness seed ``s``: its regret and refit count."""
        env = synthetic_environment("friedman1", T_r, np.random.default_rng(seed + 100 + s))
        agent = make_agent("BFTS", 2, 10, config, seed + s, **over)
        regret = float(
            run_bandit(env, agent, np.random.default_rng(seed + s), label=f"robust {label}")["regret"].sum()
        )
        return regret, len(agent.fit_times_) - 1

    for label, over in variants:
        regrets = []
        for s in range(int(config["robust_seeds"])):
            unit_name = f"robust_{label.replace(' ', '_')}_seed={s}"
            regret, refits = unit(unit_name, lambda label=label, over=over, s=s: robust_run(label, over, s))
            regrets.append(regret)
        robust_regrets.append(regrets)
        robust_rows.append(
            {
                "variant": label,
                "regret_mean": round(float(np.mean(regrets)), 1),
                "regret_sd": round(float(np.std(regrets, ddof=1)), 1) if len(regrets) > 1 else 0.0,
                "refits": refits,
            }
        )
    robust = np.array(robust_regrets)  # (variants, seeds)
    metrics["robust_regret_spread"] = spread(robust)
    if robust.shape[1] > 1:
        low, high = spread_interval(robust, seed)
        metrics["robust_regret_spread_ci_low"], metrics["robust_regret_spread_ci_high"] = low, high
    tables["robustness"] = robust_rows

    # 5. Speed: agent seconds per 1,000 rounds, over every run above.
    perf = []
    for name in seconds:
        s_per_k = 1000.0 * sum(seconds[name]) / rounds[name]
        metrics[f"seconds_per_1k_rounds_{agent_key(name)}"] = s_per_k
        perf.append({"agent": name, "seconds_per_1000_rounds": round(s_per_k, 3), "rounds": rounds[name]})
    tables["speed"] = perf

    notes += [
        f"Friedman1: T={T}, {config['friedman_seeds']} seeds, and Friedman2: {config['friedman2_seeds']} seeds, every "
        f"agent ({', '.join(agents)}) on the same seeds; BFTS uses stochtree with {config['n_trees']} trees and "
        f"{config['n_burnin']} burn-in sweeps (the official agent: {OFFICIAL_TREES} and {OFFICIAL_BURNIN}); the T={t1} "
        "figures are the first rounds; BFTS / agent ratios carry paired bootstrap intervals over the seeds.",
        f"Calibration: the agent's own posterior (stochtree, last refit) on every seed; the same agent with the "
        f"official forest ({OFFICIAL_TREES} trees, {OFFICIAL_BURNIN} burn-in, T={t1}) on the first "
        f"{config['calibration_official_seeds']} seeds; the official agent's sampler "
        f"settings ({config['refit_trees']} trees, {config['refit_burnin']} burn-in, {config['refit_draws']} draws, "
        f"the project's grow/prune/change sampler) refit on each arm's data at T on the first "
        f"{config['calibration_refit_seeds']} seeds; the control is LinTS's Gaussian posterior of f(x, a) at the "
        "same probes at T (mean +- 1.645 sd).",
        f"Sublinearity: regret in rounds {T // 2 + 1}-{T} over rounds 1-{T // 2} (the issue's 1001-2000 vs 1-1000 at T=2000).",
        "Classification suite: datasets bundled in scikit-learn (and river, in the paper profile) stand in for the nine "
        "OpenML sets, which are not available offline.",
        "MRT: a simulator modelled on Drink Less (the trial data are private); replay lift is relative to the logged mean "
        "reward, with a delta-method 95% half-width; true values come from the simulator's outcome probabilities.",
        "Robustness: one change at a time from the profile's forest (trees x0.5/x2, burn-in x0.5/x2, schedules); "
        f"spread = (max - min) / mean regret over {config['robust_seeds']} shared seeds at T={config['robust_horizon']},"
        " with a bootstrap interval over the seeds.",
    ]
    blocked = {
        "openml_nine": "MagicTelescope, adult, mushroom, covertype, mnist_784, wine-quality-red, heart-disease and "
        "shuttle are downloaded from OpenML at run time and cannot be fetched here (no network); river's bundled "
        "shuttle is a 2-class anomaly version, not the 7-class set.",
        "drink_less_real": "the Drink Less trial data are private; only a simulator with the trial's structure is run.",
    }
    return Result(metrics=metrics, tables=tables, plots=plots, blocked=blocked, notes=notes)


# The cost model (docs/methods/bfts.md, "Resuming and cost"): rough seconds of one runner seed on two shared
# CPU cores. A BFTS run refits every arm's forest about 1 + 8 ln(T / 5K) times (the log schedule after the
# K.5-round warm start), and the refits see about 8.5 (T - 5K) rows in all; each tree sweep costs a fixed part
# per arm and refit plus a part per row. Calibrated on the documented quick run (690 s; about 8 s per
# Friedman1 BFTS run with 50 trees / 200 burn-in, about 25 s with the official 100 / 500, about 40 s per
# official-settings refit, about 25 s of BFTS per MRT trial) and on timed smoke runs.
_SWEEP_ARM_S = 7.3e-7  # stochtree: seconds per tree sweep, per arm and refit
_SWEEP_ROW_S = 3.0e-8  # stochtree: seconds per tree sweep and data row
# the project's numpy sampler: per tree update (+ per row); re-timed 2026-12-01 (~17 s CPU per T=500 refit)
_NUMPY_UPDATE_S, _NUMPY_UPDATE_ROW_S = 6e-5, 1.2e-7
_BASE_S = 5.0  # imports, the probes, the MRT simulator, the summaries
# seconds per 1,000 rounds of the other agents (the documented quick run's speed table; RF-TS and XGB-TS
# with 50 trees, scaled by ensemble_trees / 50)
_AGENT_S_PER_1K = {
    "Random": 0.009,
    "LinTS": 0.045,
    "LinUCB": 0.065,
    "eps-greedy": 0.06,
    "RF-TS": 11.0,
    "XGB-TS": 6.3,
    "NeuralTS": 4.22,
}
_SUITE_SIZES = {  # rows and classes (arms) of the suite's data sets
    "iris": (150, 3),
    "wine": (178, 3),
    "breast_cancer": (569, 2),
    "digits": (1797, 10),
    "segment": (2310, 7),
    "phishing": (1250, 2),
    "banana": (5300, 2),
}
_MRT_MATCHED = 0.31  # the share of logged rows a replayed agent matches (and learns from)


def _bfts_seconds(T: float, K: int, n_trees: float, sweeps: float, chains: int) -> float:
    """Rough seconds of one BFTS run of ``T`` rounds with ``K`` arms (log schedule)."""
    warm = 5 * K
    refits = 1.0 + 8.0 * math.log(max(T, warm) / warm)
    rows = 8.5 * max(T - warm, 0.0)
    return n_trees * sweeps * chains * (_SWEEP_ARM_S * K * refits + _SWEEP_ROW_S * rows)


def _other_seconds(name: str, T: float, config: dict[str, Any]) -> float:
    scale = int(config["ensemble_trees"]) / 50 if name in ("RF-TS", "XGB-TS") else 1.0
    return _AGENT_S_PER_1K[name] * scale * T / 1000


def cost(config: dict[str, Any]) -> tuple[float, float]:
    """A rough ``(seconds, bytes)`` estimate of one runner seed on two CPU cores, from the config's sizes."""
    trees, burnin = int(config["n_trees"]), int(config["n_burnin"])
    chains = int(config["num_chains"])
    draws = (int(config["min_draws"]) + int(config["max_draws"])) / 2

    def run_s(name: str, T: float, K: int, n_trees: float = trees, n_burnin: float = burnin) -> float:
        if name == "BFTS":
            return _bfts_seconds(T, K, n_trees, n_burnin + draws, chains)
        return _other_seconds(name, T, config)

    T = int(config["friedman_horizon"])
    t1 = min(1000, T)
    seconds = _BASE_S
    # 1. Friedman1 and the calibration runs
    friedman = _names(config["friedman_agents"], AGENTS, "friedman_agents")
    seeds = int(config["friedman_seeds"]) + int(config["friedman2_seeds"])  # Friedman1 and Friedman2
    seconds += seeds * sum(run_s(a, T, 2) for a in friedman)
    seconds += int(config["calibration_official_seeds"]) * run_s(
        "BFTS", t1, 2, OFFICIAL_TREES, OFFICIAL_BURNIN
    )
    updates = int(config["refit_trees"]) * (int(config["refit_burnin"]) + int(config["refit_draws"]))
    refits = min(int(config["calibration_refit_seeds"]), int(config["friedman_seeds"]))
    seconds += refits * 2 * updates * (_NUMPY_UPDATE_S + _NUMPY_UPDATE_ROW_S * T / 2)
    # 2. the classification suite
    suite = _names(config["suite_agents"], AGENTS, "suite_agents")
    horizon = int(config["suite_horizon"])
    suite_rows = []
    for d in _names(config["suite_datasets"], DATASETS, "suite_datasets"):
        n, K = _SUITE_SIZES[d]
        n = min(n, horizon) if horizon else n
        suite_rows.append(n)
        seconds += int(config["suite_seeds"]) * sum(run_s(a, n, K) for a in suite)
    # 3. the MRT replay (an agent learns from the matched rows only)
    rows = int(config["mrt_users"]) * int(config["mrt_days"])
    seconds += int(config["mrt_trials"]) * sum(
        run_s(a, _MRT_MATCHED * rows, 3) if a == "BFTS" else _other_seconds(a, rows, config)
        for a in ("BFTS", "LinTS", "Random")
    )
    # 4. the robustness grid: the default, trees x0.5 / x2, burn-in x0.5 / x2, the extra schedules
    T_r = int(config["robust_horizon"])
    grid = [
        (trees, burnin),
        (trees / 2, burnin),
        (trees * 2, burnin),
        (trees, burnin / 2),
        (trees, burnin * 2),
    ]
    schedules = [s for s in SCHEDULES if s != "log" and s in config["robust_schedules"]]
    grid += [(trees, burnin)] * len(schedules)
    seconds += int(config["robust_seeds"]) * sum(run_s("BFTS", T_r, 2, m, b) for m, b in grid)
    # memory: the interpreter with torch, stochtree, xgboost; each round's stored context; the kept forests
    largest = max([T, T_r, int(config["mrt_trials"]) * rows, *suite_rows])
    k_max = max(
        [3, *(_SUITE_SIZES[d][1] for d in _names(config["suite_datasets"], DATASETS, "suite_datasets"))]
    )
    forests = 2_000 * max(trees * 2, OFFICIAL_TREES) * int(config["max_draws"]) * chains * k_max
    curves = 16 * int(config["friedman_seeds"]) * len(friedman) * T
    return float(seconds), float(6e8 + 2_000 * largest + curves + forests)


_PROFILE_KEYS: dict[str, dict[str, Any]] = {
    "smoke": {
        "friedman_horizon": 50,
        "friedman_seeds": 2,
        "friedman_agents": "BFTS,LinTS,LinUCB,eps-greedy,Random,RF-TS,XGB-TS,NeuralTS",
        "friedman2_seeds": 2,
        "n_trees": 10,
        "n_burnin": 20,
        "min_draws": 10,
        "max_draws": 20,
        "bart_prior": "official",
        "num_chains": 1,
        "calibration_probes": 20,
        "calibration_official_seeds": 1,  # the agent with the official forest (first seeds, T = min(1000, horizon))
        "calibration_refit_seeds": 1,  # refit with the official sampler settings (first seeds)
        "refit_trees": 5,
        "refit_burnin": 10,
        "refit_draws": 10,
        "suite_datasets": "iris",
        "suite_horizon": 30,
        "suite_seeds": 1,
        "suite_agents": "BFTS,Random,LinTS,LinUCB,RF-TS,XGB-TS,NeuralTS",
        "ensemble_trees": 10,
        "device": "cpu",
        "mrt_users": 8,
        "mrt_days": 4,
        "mrt_trials": 1,
        "robust_horizon": 30,
        "robust_seeds": 2,
        "robust_schedules": "sqrt",
    },
    "quick": {
        "friedman_horizon": 500,  # issue #17: a slice of the paper profile within the 4-minute budget
        "friedman_seeds": 6,
        "friedman_agents": "BFTS,LinTS,LinUCB,eps-greedy,Random,RF-TS,XGB-TS,NeuralTS",
        "friedman2_seeds": 2,  # 3 before 2026-12-01's third cut
        "n_trees": 50,
        "n_burnin": 200,
        "min_draws": 100,
        "max_draws": 500,
        "bart_prior": "official",
        "num_chains": 1,
        "calibration_probes": 200,
        "calibration_official_seeds": 2,  # the agent with the official forest (first seeds, T = min(1000, horizon)); 3 before the third cut
        "calibration_refit_seeds": 2,  # refit with the official sampler settings (first seeds)
        "refit_trees": 100,
        "refit_burnin": 200,  # 500 (the official) before 2026-12-01's third cut
        "refit_draws": 200,  # 500 (the official) before the third cut
        "suite_datasets": "iris,wine,breast_cancer",
        "suite_horizon": 100,  # every set cut to 100 rows for the budget (150 before 2026-12-01's second cut)
        "suite_seeds": 2,  # 3 before 2026-12-01's third cut
        "suite_agents": "BFTS,Random,LinTS,LinUCB,RF-TS,XGB-TS,NeuralTS",
        "ensemble_trees": 50,
        "device": "cpu",
        "mrt_users": 200,
        "mrt_days": 30,
        "mrt_trials": 1,
        "robust_horizon": 100,  # 250 before 2026-12-01's second cut, 150 before its third
        "robust_seeds": 3,  # 4 before 2026-12-01's third cut
        "robust_schedules": "sqrt",
    },
    "paper": {
        "friedman_horizon": 1000,
        "friedman_seeds": 10,
        "friedman_agents": "BFTS,LinTS,LinUCB,eps-greedy,Random,RF-TS,XGB-TS,NeuralTS",
        "friedman2_seeds": 10,
        "n_trees": 100,
        "n_burnin": 500,
        "min_draws": 100,
        "max_draws": 500,
        "bart_prior": "official",
        "num_chains": 1,
        "calibration_probes": 200,
        "calibration_official_seeds": 10,  # the agent with the official forest (first seeds, T = min(1000, horizon))
        "calibration_refit_seeds": 3,  # refit with the official sampler settings (first seeds)
        "refit_trees": 100,
        "refit_burnin": 500,
        "refit_draws": 500,
        "suite_datasets": "iris,wine,breast_cancer,digits,segment,phishing,banana",
        "suite_horizon": 10000,
        "suite_seeds": 3,
        "suite_agents": "BFTS,Random,LinTS,LinUCB,RF-TS,XGB-TS,NeuralTS",
        "ensemble_trees": 100,
        "device": "cpu",
        "mrt_users": 350,
        "mrt_days": 30,
        "mrt_trials": 5,
        "robust_horizon": 1000,
        "robust_seeds": 5,
        "robust_schedules": "sqrt,hybrid",
    },
}

from icml26.common.schema import Choice, Device, Int, Names  # noqa: E402 (the schema block sits beside the experiment)

SCHEMA = {  # each profile key's type and range (icml26.common.schema); check() keeps the cross-key rules
    "friedman_horizon": Int(40, 10**6),
    ("suite_horizon", "robust_horizon"): Int(1, 10**6),
    ("friedman_seeds", "friedman2_seeds", "suite_seeds", "robust_seeds", "mrt_trials"): Int(1, 1000),
    ("calibration_official_seeds", "calibration_refit_seeds"): Int(0, 1000),
    ("n_trees", "refit_trees", "ensemble_trees"): Int(1, 10**4),
    ("n_burnin", "refit_burnin"): Int(0, 10**5),
    ("min_draws", "max_draws", "refit_draws", "calibration_probes", "mrt_users"): Int(1, 10**5),
    "num_chains": Int(1, 64),
    "mrt_days": Int(1, 3650),
    "bart_prior": Choice(tuple(STOCHTREE_PRIORS)),
    ("friedman_agents", "suite_agents"): Names(Choice(tuple(AGENTS)), 1, len(AGENTS)),
    "suite_datasets": Names(Choice(tuple(DATASETS)), 1, len(DATASETS)),
    "robust_schedules": Names(Choice(tuple(s for s in SCHEDULES if s != "log")), 1, len(SCHEDULES)),
    "device": Device(),
}


EXPERIMENT = Experiment(
    method="bfts",
    title="BFTS: Thompson Sampling with Bayesian Additive Regression Trees",
    paper="Deng, Chakraborty, Chen, Tan. ICML 2026. arXiv:2602.07767",
    run=run,
    profiles=_PROFILE_KEYS,
    claims=TESTS,
    paper_claims=PAPER_CLAIMS,
    background=BACKGROUND,
    description="Friedman1 regret, classification suite ranks, calibration, a Drink-Less-like MRT, robustness.",
    check=check,
    schema=SCHEMA,
    cost=cost,
    names=NAMES,
    resources=Resources(cpus=1),  # the agents run one after another, torch on one thread; memory from cost()
)
