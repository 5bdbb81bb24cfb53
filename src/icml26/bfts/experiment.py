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
from icml26.bfts.bart import STOCHTREE_PRIORS, make_posterior
from icml26.bfts.baselines import EpsilonGreedy, LinTS, LinUCB, NeuralTS, RandomAgent, TreeEnsembleTS
from icml26.bfts.environments import (
    DATASETS,
    classification_environment,
    friedman1,
    run_bandit,
    synthetic_environment,
)
from icml26.bfts.mrt import replay_evaluation, simulate_trial
from icml26.bfts.schedule import SCHEDULES
from icml26.common import (
    Claim,
    Experiment,
    Plot,
    Resources,
    Result,
    check_device,
    ci95,
    comparison_key,
    paired_ci,
    seed_everything,
    unit,
)
from icml26.common.stats import ratio_of_means_ci

AGENTS = ("BFTS", "Random", "LinTS", "LinUCB", "eps-greedy", "RF-TS", "XGB-TS", "NeuralTS")
# the official agent's forest (bart-playground's DefaultBARTTSAgent): 100 trees, 500 burn-in sweeps
OFFICIAL_TREES, OFFICIAL_BURNIN = 100, 500


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


def _add_ci(metrics: dict[str, float], key: str, values: np.ndarray) -> None:
    """metrics[key + "_ci"] = 95% t half-width of the mean of ``values`` (needs two or more)."""
    if len(values) > 1:
        metrics[key + "_ci"] = ci95(values)


def _add_paired(
    metrics: dict[str, float], ours: str, base: str, a: np.ndarray, b: np.ndarray, form: str
) -> None:
    """The paired 95% interval of mean(a) / mean(b) (or the difference) under the contract's comparison
    key of ``ours`` against ``base`` (needs two or more pairs). A ratio takes the wider of the paired
    bootstrap and ``common.stats.ratio_of_means_ci`` (the bootstrap alone is too narrow below ~10 pairs)."""
    if len(a) > 1:
        low, high = paired_ci(a, b, form, "mean")
        if form == "ratio" and np.mean(b) > 0:
            d_low, d_high = ratio_of_means_ci(a, b)
            low, high = min(low, d_low), max(high, d_high)
        key = comparison_key(ours, base, form)
        metrics[key + "_ci_low"], metrics[key + "_ci_high"] = low, high


def agent_key(name: str) -> str:
    """An agent's display name as a metric key part: ``"RF-TS"`` -> ``"rf_ts"``."""
    return name.lower().replace("-", "_")


def regret_summary(
    scenario: str, curves: dict[str, list[np.ndarray]], t1: int, metrics: dict[str, float]
) -> list[dict[str, Any]]:
    """Each agent's mean cumulative regret at round ``t1`` over the seeds (``curves[agent]``: one (T,)
    curve per seed, the same seeds for every agent) into ``metrics[f"{scenario}_regret_{key}"]`` with
    its 95% t half-width, and BFTS's ratio to each agent with its paired bootstrap interval (by seed).

    Returns the table: one row per agent with the mean, its half-width, the sd and BFTS / agent.
    """
    bfts = np.array(curves["BFTS"])[:, t1 - 1]
    rows = []
    for name, c in curves.items():
        at_t1 = np.array(c)[:, t1 - 1]
        key = f"{scenario}_regret_{agent_key(name)}"
        metrics[key] = float(at_t1.mean())
        _add_ci(metrics, key, at_t1)
        row: dict[str, Any] = {
            "agent": name,
            f"regret_T{t1}_mean": round(float(at_t1.mean()), 1),
            "ci95": round(metrics.get(key + "_ci", math.nan), 1),
            "sd": round(float(at_t1.std(ddof=1)), 1) if len(at_t1) > 1 else 0.0,
            "bfts_over_agent": round(float(bfts.mean() / at_t1.mean()), 3) if at_t1.mean() > 0 else None,
            "paired_95": None,
        }
        if name != "BFTS":
            _add_paired(metrics, f"{scenario}_regret_bfts", key, bfts, at_t1, "ratio")
            ratio = comparison_key(f"{scenario}_regret_bfts", key, "ratio")
            if ratio + "_ci_low" in metrics:
                row["paired_95"] = f"[{metrics[ratio + '_ci_low']:.3f}, {metrics[ratio + '_ci_high']:.3f}]"
        rows.append(row)
    return rows


def linear_interval_hits(agent: LinTS, probes: np.ndarray, truth: np.ndarray) -> np.ndarray:
    """Whether LinTS's central 90% posterior interval of f(x, a) = theta_a^T [x, 1] covers ``truth``
    ``(n, K)`` at ``probes`` ``(n, p)``: the Gaussian mean +- 1.645 sd (the calibration control)."""
    z = np.column_stack([probes, np.ones(len(probes))])
    hits = np.empty(truth.shape, dtype=bool)
    for a in range(truth.shape[1]):
        mean, cov = agent.posterior(a)
        centre = z @ mean
        sd = np.sqrt(np.einsum("ni,ij,nj->n", z, cov, z))
        hits[:, a] = np.abs(truth[:, a] - centre) <= stats.norm.ppf(0.95) * sd
    return hits


def spread(regrets: np.ndarray) -> float:
    """(max - min) / mean of the variants' mean regrets; ``regrets`` ``(variants, seeds)``."""
    means = regrets.mean(axis=1)
    return float((means.max() - means.min()) / means.mean())


def spread_interval(regrets: np.ndarray, seed: int, n_resamples: int = 2000) -> tuple[float, float]:
    """95% percentile-bootstrap interval of :func:`spread`, resampling the seeds (columns of ``regrets``
    ``(variants, seeds)``, every variant on the same seeds) together; needs two or more seeds."""
    if regrets.ndim != 2 or regrets.shape[1] < 2:
        raise ValueError(f"spread_interval needs (variants, seeds >= 2) regrets, got shape {regrets.shape}")
    idx = np.random.default_rng(seed).integers(0, regrets.shape[1], size=(n_resamples, regrets.shape[1]))
    means = regrets[:, idx].mean(axis=2)  # (variants, resamples)
    values = (means.max(axis=0) - means.min(axis=0)) / means.mean(axis=0)
    return float(np.percentile(values, 2.5)), float(np.percentile(values, 97.5))


def _binomial_se(p: float, n: float) -> float:
    return float(np.sqrt(p * (1 - p) / max(n, 1.0)))


def _add_replay(
    metrics: dict[str, float],
    key: str,
    logged_key: str,
    replay: float,
    matched: float,
    logged: float,
    n_logged: int,
) -> None:
    """A policy's replay value ``metrics[key]`` with its 95% half-width, and the 95% interval of its ratio
    to the logged policy's mean reward under the contract's comparison key (delta method, both means
    binomial: the matched rows and all logged rows; their covariance is ignored)."""
    se_r, se_l = _binomial_se(replay, matched), _binomial_se(logged, n_logged)
    metrics[key] = float(replay)
    metrics[key + "_ci"] = 1.96 * se_r
    if key == logged_key or logged <= 0:
        return
    half = 1.96 * float(np.hypot(se_r / logged, replay * se_l / logged**2))
    ratio = comparison_key(key, logged_key, "ratio")
    metrics[ratio + "_ci_low"], metrics[ratio + "_ci_high"] = replay / logged - half, replay / logged + half


def rank_position_interval(
    rank_matrix: np.ndarray, agent: int, seed: int, n_resamples: int = 2000
) -> tuple[float, float]:
    """95% percentile-bootstrap interval of an agent's position by average rank (1 = best; ties share
    the better position), resampling the instances (columns of ``rank_matrix`` ``(agents, instances)``)."""
    rng = np.random.default_rng(seed)
    n = rank_matrix.shape[1]
    idx = rng.integers(0, n, size=(n_resamples, n))
    avg = rank_matrix[:, idx].mean(axis=2)  # (agents, resamples)
    position = 1 + (avg < avg[agent]).sum(axis=0)
    # the conservative order statistics: positions are integers
    low = np.percentile(position, 2.5, method="lower")
    high = np.percentile(position, 97.5, method="higher")
    return float(low), float(high)


def calibration_probes(n_probes: int) -> tuple[np.ndarray, np.ndarray]:
    """The fixed calibration probes (uniform on [0, 1]^10, seed 12345) and Friedman1's f(x, a) there.

    Shapes ``(n, 10)`` and ``(n, 2)``; arm 1 sees the reversed context (:func:`synthetic_environment`).
    """
    probes = np.random.default_rng(12345).uniform(size=(n_probes, 10))
    return probes, np.column_stack([friedman1(probes), friedman1(probes[:, ::-1])])


def interval_hits(draws: np.ndarray, truth: np.ndarray) -> np.ndarray:
    """Whether the central 90% interval of ``draws`` ``(D, ...)`` covers ``truth`` ``(...)``."""
    lo, hi = np.quantile(draws, [0.05, 0.95], axis=0)
    return (truth >= lo) & (truth <= hi)


def _coverage_row(seed: int, hit: np.ndarray, better: np.ndarray, agent: BFTSAgent, n_draws: int) -> dict:
    """One calibration table row: coverage overall, where the arm is the better / worse one, last refit."""
    return {
        "seed": seed,
        "coverage_90": round(float(hit.mean()), 3),
        "coverage_better_arm": round(float(hit[better].mean()), 3),
        "coverage_worse_arm": round(float(hit[~better].mean()), 3),
        "last_refit_t": agent.fit_times_[-1],
        "draws": n_draws,
    }


def official_sampler_draws(
    X: np.ndarray,
    arms: np.ndarray,
    y: np.ndarray,
    probes: np.ndarray,
    seed: int,
    n_trees: int = OFFICIAL_TREES,
    n_burnin: int = OFFICIAL_BURNIN,
    n_draws: int = 500,
) -> np.ndarray:
    """Draws of f(probe, a) ``(D, n_probes, K)`` with the official agent's sampler settings, one fit per arm.

    The official agent (``DefaultBARTTSAgent`` of bart-playground) samples with its own grow / prune /
    change / swap BART: 100 trees, 500 burn-in, up to 500 draws, ``clip(ceil(0.2 t), 100, 2000)``
    cut-points, the same priors. The project's numpy sampler (grow / prune / change) with these
    settings is the nearest posterior we have; the agent itself runs on stochtree for speed.
    """
    params = {
        "n_trees": n_trees,
        "n_burnin": n_burnin,
        "n_draws": n_draws,
        "nu": 1.0,
        "max_bins": int(min(2000, max(100, math.ceil(0.2 * len(y))))),
    }
    fits = [
        make_posterior("numpy", random_state=seed + a, **params).fit(X[arms == a], y[arms == a])
        for a in range(int(arms.max()) + 1)
    ]
    return np.stack([m.predict(probes) for m in fits], axis=2)


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
                row = _coverage_row(seed + s, hit, better, agent, draws.shape[0])
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
        _add_ci(metrics, f"friedman1_regret_{key}_first3", at_t1[:n3])
        if name != "BFTS":
            _add_paired(
                metrics,
                "friedman1_regret_bfts_first3",
                f"friedman1_regret_{key}_first3",
                bfts[:n3, t1 - 1],
                at_t1[:n3],
                "ratio",
            )
    second = (bfts[:, -1] - bfts[:, T // 2 - 1]) / bfts[:, T // 2 - 1]
    metrics["friedman1_second_half_ratio"] = float(second.mean())
    _add_ci(metrics, "friedman1_second_half_ratio", second)
    metrics["calibration_coverage90"] = float(np.mean(coverage))
    _add_ci(metrics, "calibration_coverage90", np.array(coverage))
    metrics["calibration_coverage90_lints"] = float(np.mean(lints_coverage))
    _add_ci(metrics, "calibration_coverage90_lints", np.array(lints_coverage))

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
        row = _coverage_row(seed + s, hit, better, agent, draws.shape[0])
        return float(np.mean(hit)), {**row, "regret": round(float(out["regret"].sum()), 1)}

    for s in range(int(config["calibration_official_seeds"])):
        value, row = unit(f"calibration_official_forest_seed={s}", lambda s=s: official_forest_seed(s))
        official_agent_coverage.append(value)
        official_rows.append(row)
    if official_agent_coverage:
        metrics["calibration_official_agent_coverage90"] = float(np.mean(official_agent_coverage))
        _add_ci(metrics, "calibration_official_agent_coverage90", np.array(official_agent_coverage))
    if official_coverage:
        metrics["calibration_official_coverage90"] = float(np.mean(official_coverage))
        _add_ci(metrics, "calibration_official_coverage90", np.array(official_coverage))
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
        _add_ci(metrics, f"suite_avg_rank_{key}", row)
        if a != "BFTS":
            _add_paired(
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
    _add_replay(metrics, "mrt_logged_value", "mrt_logged_value", logged_emp, n_logged, logged_emp, n_logged)
    metrics["mrt_logged_value_trial0"] = float(first.rewards.mean())
    metrics["mrt_logged_value_trial0_ci"] = 1.96 * _binomial_se(
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
                _add_replay(
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
        _add_replay(
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

_FRIEDMAN_OTHERS = ("lints", "linucb", "eps_greedy", "random", "rf_ts", "xgb_ts", "neuralts")
_SUITE_OTHERS = ("lints", "linucb", "rf_ts", "xgb_ts", "neuralts", "random")
_QUICK_BUDGET = "for the 4-minute quick budget (issue #17); the paper profile keeps the larger setting"

# display names of the metrics the claims compare with, control with or show beside
NAMES = {
    **{
        f"{scenario}_regret_{k}": name
        for scenario in ("friedman1", "friedman2")
        for k, name in zip(
            _FRIEDMAN_OTHERS,
            ("LinTS", "LinUCB", "ε-greedy", "Random", "RF-TS", "XGB-TS", "NeuralTS"),
            strict=True,
        )
    },
    "friedman1_regret_lints_first3": "LinTS (first 3 seeds)",
    **{
        f"suite_avg_rank_{k}": name
        for k, name in zip(
            ("bfts", *_SUITE_OTHERS),
            ("BFTS", "LinTS", "LinUCB", "RF-TS", "XGB-TS", "NeuralTS", "Random"),
            strict=True,
        )
    },
    **{
        f"suite_{k}_rank_position": f"{name}'s position"
        for k, name in zip(
            _SUITE_OTHERS, ("LinTS", "LinUCB", "RF-TS", "XGB-TS", "NeuralTS", "Random"), strict=True
        )
    },
    "calibration_coverage90_lints": "LinTS coverage",
    "mrt_logged_value": "logged policy",
    "mrt_lints_replay_value": "LinTS",
    "mrt_random_replay_value": "Random",
    "mrt_bfts_true_lift": "BFTS true lift",
    "mrt_bfts_replay_bias": "BFTS replay bias",
    "mrt_logged_value_trial0": "logged policy (trial 0)",
    "mrt_lints_replay_value_trial0": "LinTS (trial 0)",
    "mrt_random_replay_value_trial0": "Random (trial 0)",
    "openml_magic_regret_lints": "LinTS",
    "openml_magic_regret_random": "Random",
    "drink_less_logged_value": "deployed policy",
    "drink_less_lints_value": "LinTS",
    "drink_less_random_value": "Random",
}


def _competitive(scenario: str, title: str, revised: str = "") -> Claim:
    """The paper's "competitive regret" on a synthetic scenario, by the pre-registered reading of issue #17."""
    return Claim(
        f"{scenario}_competitive",
        f"{title}, T=min(1000, {{friedman_horizon}}), every agent on the same seeds: BFTS mean cumulative regret"
        " <= 1.1x the best other agent's (LinTS, LinUCB, eps-greedy, Random, RF-TS, XGB-TS, NeuralTS)",
        "competitive regret on nonlinear synthetic benchmarks",
        f"{scenario}_regret_bfts",
        "<=",
        1.1,
        kind="paper",
        scale_note="laptop proxy: the profile's forest (quick 50 trees / 200 burn-in, T=500, 6 / 2 seeds; paper"
        " 100 / 500, T=1000, 10 seeds); 'competitive' read as <= 1.1x the strongest agent, written down in"
        " issue #17 before the run",
        relative_to=tuple(f"{scenario}_regret_{k}" for k in _FRIEDMAN_OTHERS),
        form="ratio",
        revised=revised,
    )


def _former(
    name: str,
    of: str,
    setting: str,
    metric: str,
    op: str,
    threshold: float | tuple[float, float],
    stored: str,
) -> Claim:
    """A former quick setting of claim ``of`` (issue #17 resized quick), as its own claim with its stored
    verdict."""
    return Claim(
        name,
        f"A former quick setting of `{of}` (issue #17): {setting}",
        "(see the claim it was)",
        metric,
        op,
        threshold,
        kind="check",
        scale_note="the former quick setting: its stored verdict (the paper profile measures the larger setting)",
        stored=stored,
    )


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
    claims=(
        _competitive("friedman1", "Friedman1"),
        _competitive(
            "friedman2",
            "Friedman2",
            "2026-12-01: (third cut) 3 Friedman2 seeds, verdict then inconclusive (BFTS / XGB-TS 1.252 [0.559,"
            f" 1.944]); 2 seeds in quick {_QUICK_BUDGET}",
        ),
        _former(
            "friedman2_competitive_3seeds",
            "friedman2_competitive",
            "3 Friedman2 seeds at T=500, BFTS <= 1.1x the strongest other agent",
            "friedman2_regret_bfts_3seeds",
            "<=",
            1.1,
            "inconclusive (e6256a1, 2026-12-01): BFTS / XGB-TS 1.252× [0.559, 1.944] over 3 seeds (quick)",
        ),
        Claim(
            "friedman1_vs_lints",
            "Friedman1, T=min(1000, {friedman_horizon}): BFTS mean cumulative regret <= 0.75x LinTS's",
            "BFTS well below LinTS (issue target <= 0.75x; the paper: 'competitive regret')",
            "friedman1_regret_bfts",
            "<=",
            0.75,
            kind="check",
            scale_note="laptop proxy: the profile's forest (quick 50 trees / 200 burn-in, T=500, 6 seeds)",
            relative_to=("friedman1_regret_lints",),
            form="ratio",
            context=("friedman1_regret_linucb", "friedman1_regret_eps_greedy"),
            revised="2026-11-30: 3 Friedman1 seeds, verdict then inconclusive (0.683 +- 0.373; toy-verified"
            " 0.654 +- 0.088 before the official priors and draw rule); raised to 20 seeds after seeing the"
            " 3-seed interval, before the 20-seed result was known. 2026-12-01: quick T=1000, 20 seeds, verdict"
            f" then toy-verified (0.686 [0.640, 0.726]); T=500, 6 seeds {_QUICK_BUDGET}",
        ),
        Claim(
            "friedman1_vs_lints_20seeds",
            "The quick setting of `friedman1_vs_lints` before issue #17: Friedman1, T=1000, 20 seeds, BFTS mean"
            " cumulative regret <= 0.75x LinTS's",
            "BFTS well below LinTS (issue target <= 0.75x)",
            "friedman1_regret_bfts_T1000_20seeds",
            "<=",
            0.75,
            kind="check",
            scale_note="the former quick setting (T=1000, 20 seeds); re-measured in the paper profile (T=1000,"
            " 10 seeds) by friedman1_vs_lints",
            stored="toy-verified (920dae3, 2026-12-01): 0.686× [0.640, 0.726] over 20 seeds (quick)",
        ),
        Claim(
            "friedman1_vs_lints_3seeds",
            "Friedman1, T=min(1000, {friedman_horizon}), the original setting of 3 seeds (the run's first 3):"
            " BFTS mean cumulative regret <= 0.75x LinTS's",
            "BFTS well below LinTS (issue target <= 0.75x, 3 seeds)",
            "friedman1_regret_bfts_first3",
            "<=",
            0.75,
            kind="check",
            scale_note="laptop proxy: the profile's forest, the first 3 seeds of the Friedman1 runs",
            relative_to=("friedman1_regret_lints_first3",),
            form="ratio",
            revised="2026-12-01: T=1000, verdict then inconclusive (0.683 [0.563, 0.856]); T=500 for the 4-minute quick budget (issue #17)",
        ),
        Claim(
            "friedman1_vs_random",
            "Friedman1, T=min(1000, {friedman_horizon}): BFTS mean cumulative regret <= 0.2x Random's (a sanity"
            " check: LinTS and LinUCB pass it too)",
            "issue target <= 0.2x",
            "friedman1_regret_bfts",
            "<=",
            0.2,
            kind="check",
            scale_note="laptop proxy: the profile's forest; LinTS and LinUCB are controls judged by the same bar",
            relative_to=("friedman1_regret_random",),
            form="ratio",
            controls=("friedman1_regret_lints", "friedman1_regret_linucb"),
            revised="2026-12-01: quick T=1000, 20 seeds, LinTS the only control, verdict then toy-verified, non-discriminating (0.114 [0.108, 0.120]); T=500, 6 seeds for the 4-minute quick budget, LinUCB a control too (issue #17)",
        ),
        Claim(
            "friedman1_sublinear",
            "Friedman1: regret in the second half of the horizon <= 60% of the first half (sublinear, O~(sqrt T))",
            "O~(K sqrt T) regret; issue: rounds 1001-2000 <= 60% of rounds 1-1000",
            "friedman1_second_half_ratio",
            "<=",
            0.6,
            kind="check",
            unit="×",
            scale_note="the paper's O~(K sqrt T) is a bound for ideal posterior sampling; the 60% is the issue's;"
            " quick compares rounds 251-500 with 1-250, paper 501-1000 with 1-500",
            revised="2026-12-01: quick T=1000 (rounds 501-1000 vs 1-500), 20 seeds, verdict then toy-verified (0.226 +- 0.024); T=500, 6 seeds for the 4-minute quick budget (issue #17)",
        ),
        _former(
            "friedman1_vs_lints_3seeds_T1000",
            "friedman1_vs_lints_3seeds",
            "T=1000, the first 3 seeds",
            "friedman1_regret_bfts_first3_T1000",
            "<=",
            0.75,
            "inconclusive (920dae3, 2026-12-01): 0.683× [0.563, 0.856] (quick)",
        ),
        _former(
            "friedman1_vs_random_T1000",
            "friedman1_vs_random",
            "T=1000, 20 seeds, <= 0.2x Random",
            "friedman1_regret_bfts_T1000",
            "<=",
            0.2,
            "toy-verified (920dae3, 2026-12-01): 0.114× [0.108, 0.120], non-discriminating: LinTS 0.166× (quick)",
        ),
        _former(
            "friedman1_sublinear_T1000",
            "friedman1_sublinear",
            "T=1000 (rounds 501-1000 vs 1-500), 20 seeds",
            "friedman1_second_half_ratio_T1000",
            "<=",
            0.6,
            "toy-verified (920dae3, 2026-12-01): 0.226 ± 0.024 (quick)",
        ),
        Claim(
            "suite_rank_first",
            "Classification suite ({suite_seeds} seeds per data set): BFTS has the best average rank (position 1;"
            " interval: bootstrap over the data sets and seeds)",
            "best average rank across nine OpenML contextual bandit benchmarks",
            "suite_bfts_rank_position",
            "<=",
            1.0,
            kind="paper",
            unit="rank",
            scale_note="laptop proxy: bundled scikit-learn sets (quick: 3 x 2 seeds, 100 rows each at most; paper: 7"
            " x 3 seeds, every row) instead of the nine OpenML sets; every other agent's position is a control judged by"
            " the same bar",
            controls=tuple(f"suite_{k}_rank_position" for k in _SUITE_OTHERS),
            context=tuple(f"suite_avg_rank_{k}" for k in ("bfts", *_SUITE_OTHERS)),
            revised=f"2026-12-01: quick at most 150 rows per set, verdict then refuted (position 3 [2, 4]); 100 rows {_QUICK_BUDGET}."
            " 2026-12-01 (third cut): 3 seeds per set, verdict then refuted (position 4 [3, 5]); 2 seeds in quick"
            f" {_QUICK_BUDGET}",
        ),
        _former(
            "suite_rank_first_3seeds",
            "suite_rank_first",
            "3 sets x 3 seeds of at most 100 rows, BFTS at position 1",
            "suite_bfts_rank_position_3seeds",
            "<=",
            1.0,
            "refuted (e6256a1, 2026-12-01): position 4 [3, 5] (quick)",
        ),
        _former(
            "suite_rank_first_150rows",
            "suite_rank_first",
            "3 sets x 3 seeds of at most 150 rows, BFTS at position 1",
            "suite_bfts_rank_position_150rows",
            "<=",
            1.0,
            "refuted (19a3412, 2026-12-01): position 3 [2, 4] (quick)",
        ),
        Claim(
            "suite_rank_best",
            "Classification suite ({suite_seeds} seeds per data set): BFTS's average rank minus every other"
            " agent's <= 0 (pairwise, paired by instance)",
            "best average rank across nine OpenML contextual bandit benchmarks",
            "suite_avg_rank_bfts",
            "<=",
            0.0,
            kind="check",
            unit="rank",
            scale_note="laptop proxy: bundled scikit-learn sets instead of the nine OpenML sets; the paper claim"
            " is suite_rank_first",
            relative_to=tuple(f"suite_avg_rank_{k}" for k in _SUITE_OTHERS),
            form="difference",
            revised="2026-12-01: kind paper, 1 seed per data set, verdict then inconclusive (1.333 [-0.10, 2.77]"
            " against NeuralTS); 3 seeds of at most 150 rows (issue #17), and the paper claim moved to suite_rank_first."
            " 2026-12-01 (second cut): 150 rows, verdict then inconclusive (1.389 [-0.15, 2.92] against NeuralTS); 100"
            f" rows in quick {_QUICK_BUDGET}. 2026-12-01 (third cut): 3 seeds per set, verdict then refuted (2.0"
            f" [0.65, 3.35] against NeuralTS); 2 seeds in quick {_QUICK_BUDGET}",
        ),
        _former(
            "suite_rank_best_3seeds",
            "suite_rank_best",
            "3 sets x 3 seeds of at most 100 rows, BFTS's average rank minus every other agent's <= 0",
            "suite_avg_rank_bfts_3seeds",
            "<=",
            0.0,
            "refuted (e6256a1, 2026-12-01): BFTS - NeuralTS 2.0 rank [0.65, 3.35] (quick)",
        ),
        _former(
            "suite_rank_best_150rows",
            "suite_rank_best",
            "3 sets x 3 seeds of at most 150 rows, BFTS's average rank minus every other agent's <= 0",
            "suite_avg_rank_bfts_150rows",
            "<=",
            0.0,
            "inconclusive (19a3412, 2026-12-01): BFTS - NeuralTS 1.389 rank [-0.15, 2.92] (quick)",
        ),
        Claim(
            "suite_rank_best_1seed",
            "The original setting of `suite_rank_best`: one seed per data set (3 instances)",
            "best average rank across nine OpenML contextual bandit benchmarks",
            "suite_avg_rank_bfts_1seed",
            "<=",
            0.0,
            kind="check",
            scale_note="the original one-seed setting: its stored verdict",
            stored="inconclusive (920dae3, 2026-12-01): BFTS - NeuralTS 1.333 rank [-0.10, 2.77] (quick, 1 seed)",
        ),
        Claim(
            "suite_rank",
            "Classification suite ({suite_seeds} seeds per data set): BFTS has the best or second-best average"
            " rank (looser than the paper's bar)",
            "best average rank over nine OpenML sets (this check is looser: <= 2nd)",
            "suite_bfts_rank_position",
            "<=",
            2.0,
            kind="check",
            unit="rank",
            scale_note="laptop proxy: bundled scikit-learn sets instead of the nine OpenML sets",
            revised="2026-12-01: 1 seed per data set, verdict then inconclusive (position 2 [2, 3]); 3 seeds"
            " of at most 150 rows (issue #17). 2026-12-01 (second cut): 150 rows, verdict then inconclusive (position 3"
            f" [2, 4]); 100 rows in quick {_QUICK_BUDGET}. 2026-12-01 (third cut): 3 seeds per set, verdict then"
            f" refuted (position 4 [3, 5]); 2 seeds in quick {_QUICK_BUDGET}",
        ),
        _former(
            "suite_rank_3seeds",
            "suite_rank",
            "3 sets x 3 seeds of at most 100 rows, BFTS at position <= 2",
            "suite_bfts_rank_position_3seeds_le2",
            "<=",
            2.0,
            "refuted (e6256a1, 2026-12-01): position 4 [3, 5] (quick)",
        ),
        _former(
            "suite_rank_150rows",
            "suite_rank",
            "3 sets x 3 seeds of at most 150 rows, BFTS at position <= 2",
            "suite_bfts_rank_position_150rows",
            "<=",
            2.0,
            "inconclusive (19a3412, 2026-12-01): position 3 [2, 4] (quick)",
        ),
        Claim(
            "suite_rank_1seed",
            "The original setting of `suite_rank`: one seed per data set, position <= 2",
            "best average rank over nine OpenML sets (this check is looser: <= 2nd)",
            "suite_bfts_rank_position_1seed",
            "<=",
            2.0,
            kind="check",
            scale_note="the original one-seed setting: its stored verdict",
            stored="inconclusive (920dae3, 2026-12-01): position 2 [2, 3] (quick, 1 seed)",
        ),
        Claim(
            "calibration_official_agent",
            "Coverage of central 90% credible intervals of f(x, a) at 200 fixed probes in [0.80, 0.97] (the"
            " agent with the official forest: stochtree, 100 trees, 500 burn-in, official draw rule, last"
            " refit, T=min(1000, {friedman_horizon}), {calibration_official_seeds} seeds); LinTS's posterior"
            " is the control",
            "near-nominal uncertainty calibration",
            "calibration_official_agent_coverage90",
            "in",
            (0.80, 0.97),
            kind="paper",
            scale_note="laptop proxy: the official forest on our Friedman1 runs; the [0.80, 0.97] band is the"
            " project's reading of 'near-nominal', written down before the first run",
            controls=("calibration_coverage90_lints",),
            revised="2026-12-01: kind check, quick 10 seeds at T=1000 and no control, verdict then refuted"
            f" (0.769 +- 0.021); 3 seeds at T=500 {_QUICK_BUDGET}, and LinTS's coverage as the control."
            " 2026-12-01 (third cut): 3 seeds, verdict then inconclusive (0.655 [0.508, 0.802]); 2 seeds in quick"
            f" {_QUICK_BUDGET}",
        ),
        _former(
            "calibration_official_agent_3seeds",
            "calibration_official_agent",
            "the official forest on the first 3 Friedman1 seeds at T=500, coverage in [0.80, 0.97]",
            "calibration_official_agent_coverage90_3seeds",
            "in",
            (0.80, 0.97),
            "inconclusive (e6256a1, 2026-12-01): coverage 0.655 [0.508, 0.802] over 3 seeds (quick)",
        ),
        Claim(
            "calibration_official_agent_10seeds",
            "The quick setting of `calibration_official_agent` before issue #17: 10 seeds at T=1000",
            "near-nominal uncertainty calibration",
            "calibration_official_agent_coverage90_T1000",
            "in",
            (0.80, 0.97),
            kind="paper",  # the same paper statement at the stronger setting: its refutation counts as the paper's
            scale_note="the former quick setting; re-measured by the paper profile (10 seeds, T=1000)",
            controls=("calibration_coverage90_lints",),
            stored="refuted (920dae3, 2026-12-01): coverage 0.769 ± 0.021 over 10 seeds (quick)",
        ),
        Claim(
            "calibration",
            "Coverage of central 90% credible intervals of f(x, a) at fixed probes in [0.80, 0.97] (the agent's"
            " stochtree posterior, {n_trees} trees / {n_burnin} burn-in, last refit, every Friedman1 seed)",
            "near-nominal calibration",
            "calibration_coverage90",
            "in",
            (0.80, 0.97),
            kind="check",
            scale_note="laptop proxy: quick's forest is 50 trees / 200 burn-in (the official 100 / 500 only in the"
            " paper profile); LinTS's coverage is the control",
            controls=("calibration_coverage90_lints",),
            revised="2026-11-30: stochtree's own priors and clip(rounds to the next refit, 100, 500) draws, verdict"
            " then refuted (0.667 +- 0.072, 3 seeds); priors and draw rule changed to the official agent's after"
            " the calibration investigation. 2026-12-01: quick 20 seeds at T=1000, verdict then refuted (0.701"
            f" +- 0.016); 6 seeds at T=500 {_QUICK_BUDGET}",
        ),
        Claim(
            "calibration_original_priors",
            "The original setting of `calibration`: coverage of central 90% credible intervals in [0.80, 0.97]"
            " under stochtree's own priors and the first draw rule (3 Friedman1 seeds)",
            "near-nominal calibration",
            "calibration_coverage90_original_priors",
            "in",
            (0.80, 0.97),
            kind="check",
            scale_note="the original setting, too costly to re-measure here: its stored verdict",
            stored="refuted (6593c93, 2026-11-30): coverage 0.667 ± 0.072 over 3 seeds (quick, first release)",
        ),
        Claim(
            "calibration_official",
            "Coverage of central 90% credible intervals of f(x, a) at fixed probes in [0.80, 0.97] (the official "
            "agent's sampler: grow/prune/change BART, {refit_trees} trees, {refit_burnin} burn-in,"
            " {refit_draws} draws (the official 500 / 500 in the paper profile), refit at T, first"
            " {calibration_refit_seeds} seeds)",
            "near-nominal calibration",
            "calibration_official_coverage90",
            "in",
            (0.80, 0.97),
            kind="check",
            scale_note="a diagnostic: a fresh refit on the agent's final data, a posterior the agent does not"
            " sample from; LinTS's coverage is the control",
            controls=("calibration_coverage90_lints",),
            revised="2026-12-01: refit on the T=1000 data of quick, 3 seeds, verdict then inconclusive (0.792 +- 0.072);"
            f" 2 seeds on the T=500 data {_QUICK_BUDGET}. 2026-12-01 (third cut): 500 burn-in / 500 draws, verdict"
            f" then inconclusive (0.835 [0.771, 0.899]); 200 / 200 in quick {_QUICK_BUDGET}",
        ),
        _former(
            "calibration_official_500draws",
            "calibration_official",
            "the official 100 trees, 500 burn-in, 500 draws, first 2 seeds, coverage in [0.80, 0.97]",
            "calibration_official_coverage90_500draws",
            "in",
            (0.80, 0.97),
            "inconclusive (e6256a1, 2026-12-01): coverage 0.835 [0.771, 0.899] over 2 seeds (quick)",
        ),
        Claim(
            "mrt_lift",
            "MRT simulator: BFTS replay policy value >= 1.15x the logged policy's mean reward (15% lift),"
            " {mrt_trials} pooled trials",
            "> 30% higher engagement than the deployed Drink Less policy (issue target >= 15% on the simulator)",
            "mrt_bfts_replay_value",
            ">=",
            1.15,
            kind="check",
            scale_note="a simulator modelled on Drink Less (the trial data are private); 1 trial of 200 users in quick,"
            " 5 in paper",
            relative_to=("mrt_logged_value",),
            form="ratio",
            controls=("mrt_lints_replay_value", "mrt_random_replay_value"),
            context=("mrt_bfts_true_lift", "mrt_bfts_replay_bias"),
            revised="2026-11-30: one simulated trial (the first release), verdict then inconclusive (+24.8% +-"
            " 15.0%), and 3 trials, inconclusive (+21.9% +- 8.6%); raised to 5 pooled trials after seeing both."
            " 2026-12-01: 5 trials of 300 users, verdict then toy-verified (1.235x [1.169, 1.302]); 1 trial of 200"
            " users in quick"
            f" {_QUICK_BUDGET}",
        ),
        Claim(
            "mrt_lift_5trials",
            "The quick setting of `mrt_lift` before issue #17: 5 pooled trials",
            "issue target >= 15% on the simulator",
            "mrt_bfts_replay_value_5trials",
            ">=",
            1.15,
            kind="check",
            scale_note="the former quick setting; re-measured by the paper profile (5 trials)",
            stored="toy-verified (920dae3, 2026-12-01): 1.235× [1.169, 1.302] over 5 pooled trials (quick)",
        ),
        Claim(
            "mrt_lift_one_trial",
            "MRT simulator, the original setting of one trial (the run's first): BFTS replay policy value"
            " >= 1.15x the logged policy's mean reward",
            "issue target >= 15% on the simulator, one trial",
            "mrt_bfts_replay_value_trial0",
            ">=",
            1.15,
            kind="check",
            scale_note="a simulator modelled on Drink Less; the first simulated trial alone",
            relative_to=("mrt_logged_value_trial0",),
            form="ratio",
            controls=("mrt_lints_replay_value_trial0", "mrt_random_replay_value_trial0"),
            revised="2026-12-01: 300 users, verdict then inconclusive (1.272x [1.121, 1.423]); 200 users"
            f" {_QUICK_BUDGET}",
        ),
        _former(
            "mrt_lift_one_trial_300users",
            "mrt_lift_one_trial",
            "the first trial of 300 users, lift >= 15%",
            "mrt_bfts_replay_value_trial0_300users",
            ">=",
            1.15,
            "inconclusive (920dae3, 2026-12-01): 1.272× [1.121, 1.423] (quick)",
        ),
        Claim(
            "mrt_lift_paper",
            "MRT simulator: BFTS replay policy value > 1.30x the logged policy's mean reward (the paper's 30% bar),"
            " {mrt_trials} pooled trials",
            "> 30% higher engagement than the deployed Drink Less policy",
            "mrt_bfts_replay_value",
            ">",
            1.30,
            kind="paper",
            scale_note="a simulator modelled on Drink Less (the trial data are private; its effect sizes are the"
            " project's), not the trial's data",
            relative_to=("mrt_logged_value",),
            form="ratio",
            controls=("mrt_lints_replay_value", "mrt_random_replay_value"),
            context=("mrt_bfts_true_lift",),
            revised="2026-12-01: 5 pooled trials in quick, verdict then inconclusive (1.235x [1.169, 1.302]);"
            f" 1 trial of 200 users {_QUICK_BUDGET}",
        ),
        Claim(
            "mrt_lift_paper_5trials",
            "The quick setting of `mrt_lift_paper` before issue #17: 5 pooled trials, lift > 30%",
            "> 30% higher engagement than the deployed Drink Less policy",
            "mrt_bfts_replay_value_5trials",
            ">",
            1.30,
            kind="check",
            scale_note="the former quick setting; re-measured by the paper profile (5 trials)",
            stored="inconclusive (920dae3, 2026-12-01): 1.235× [1.169, 1.302] over 5 pooled trials (quick)",
        ),
        Claim(
            "robustness",
            "Friedman1: regret spread (max - min) / mean <= 20% across the hyperparameter grid ({robust_seeds}"
            " shared seeds, T={robust_horizon}; interval: bootstrap over the seeds)",
            "robust to hyperparameter choices (across OpenML benchmarks)",
            "robust_regret_spread",
            "<=",
            0.20,
            kind="check",
            unit="× mean",
            scale_note="laptop proxy: Friedman1 instead of OpenML, one change at a time; no control (the paper"
            " names no broken variant to compare with)",
            revised="2026-11-30: stochtree's own priors and clip(rounds to the next refit, 100, 500) draws, verdict"
            " then refuted (0.315, 2 seeds); priors and draw rule changed to the official agent's (for"
            " calibration), after which it read 0.177. 2026-12-01: 2 seeds at T=500 and no interval, verdict"
            " then inconclusive (0.177); 4 seeds with a bootstrap interval (issue #17), T=250 in quick"
            f" {_QUICK_BUDGET}. 2026-12-01 (second cut): T=250, verdict then inconclusive (0.086 [0.063, 0.343]);"
            f" T=150 in quick {_QUICK_BUDGET}. 2026-12-01 (third cut): 4 seeds at T=150, verdict then inconclusive"
            " (0.077 [0.052, 0.325]); 3 seeds at T=150 (measured once, at 226 s CPU for the whole run: inconclusive,"
            f" 0.076 [0.076, 0.422]), then T=100, in quick {_QUICK_BUDGET}",
        ),
        _former(
            "robustness_4seeds",
            "robustness",
            "4 shared seeds at T=150, spread <= 20%",
            "robust_regret_spread_4seeds",
            "<=",
            0.20,
            "inconclusive (e6256a1, 2026-12-01): spread 0.077 [0.052, 0.325] (quick)",
        ),
        _former(
            "robustness_T250",
            "robustness",
            "4 shared seeds at T=250, spread <= 20%",
            "robust_regret_spread_T250",
            "<=",
            0.20,
            "inconclusive (19a3412, 2026-12-01): spread 0.086 [0.063, 0.343] (quick)",
        ),
        Claim(
            "robustness_2seeds",
            "The setting of `robustness` before issue #17: 2 seeds at T=500, no interval",
            "robust to hyperparameter choices (across OpenML benchmarks)",
            "robust_regret_spread_2seeds",
            "<=",
            0.20,
            kind="check",
            scale_note="the former quick setting: its stored verdict",
            stored="inconclusive (920dae3, 2026-12-01): spread 0.177 over 2 seeds, no interval (quick)",
        ),
        Claim(
            "robustness_original_priors",
            "The original setting of `robustness`: regret spread (max - min) / mean <= 20% across the grid"
            " under stochtree's own priors and the first draw rule (2 seeds, T=500)",
            "robust to hyperparameter choices (across OpenML benchmarks)",
            "robust_regret_spread_original_priors",
            "<=",
            0.20,
            kind="check",
            scale_note="the original setting, too costly to re-measure here: its stored verdict",
            stored="refuted (6593c93, 2026-11-30): spread 0.315 over 2 seeds (quick, first release)",
        ),
        Claim(
            "openml_nine",
            "Regret on the nine OpenML benchmarks (e.g. MagicTelescope 1.49e3, Mushroom 53.9 at T=8124)",
            "MagicTelescope 1.49e3, Adult 1.54e3, Mushroom 53.9, Shuttle 106.9",
            "openml_magic_regret",
            "<=",
            1490.0,
            kind="paper",
            scale_note="blocked: the OpenML sets cannot be downloaded here",
            controls=("openml_magic_regret_lints", "openml_magic_regret_random"),
        ),
        Claim(
            "drink_less_real",
            "Drink Less trial: BFTS engagement > 30% above the deployed policy (replay OPE on real data)",
            "> 30%",
            "drink_less_bfts_value",
            ">",
            1.30,
            kind="paper",
            scale_note="blocked: the Drink Less trial data are private",
            relative_to=("drink_less_logged_value",),
            form="ratio",
            controls=("drink_less_lints_value", "drink_less_random_value"),
        ),
    ),
    description="Friedman1 regret, classification suite ranks, calibration, a Drink-Less-like MRT, robustness.",
    check=check,
    schema=SCHEMA,
    cost=cost,
    names=NAMES,
    resources=Resources(cpus=1),  # the agents run one after another, torch on one thread; memory from cost()
)
