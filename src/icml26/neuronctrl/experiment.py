"""Experiment: closed-loop control of ecs_rd on unseen morphologies, NeuronCtrl against the baselines.

With the shipped weights (``tools/train_neuronctrl.py``; config hash checked at load):
1. ``episodes`` test episodes of ``steps`` steps, each on an unseen morphology (seeds >= 100), at the
   aggressive preference (0.9, 0.05, 0.05): NeuronCtrl multi-step and distilled (QP filter), its
   no control, open loop, PI on sensors; the ablations (action-only filter, unfiltered), CEM-MPC on
   the learned operator and the unconstrained oracle MPC on the first ``baseline_episodes``. Per controller: cost, task cost, energy, violation rate and maximum (on the
   true field), per-step latency (median, one thread), intervention (the QP's and, on the same steps
   and rows, the naive scale-to-feasible filter's); the number of baselines that
   Pareto-dominate it in (task cost, violation rate, median latency), bootstrapped over episodes.
2. Observer error on the multi-step episodes against Laplacian interpolation and the resting field.
3. Operator one-step and 20-step errors on random-action rollouts (puff-free windows), unseen and
   training morphologies.
4. A 5-value preference sweep (Spearman of the task weight and realised energy), and the same sweep
   with the generator's preference input frozen (the control).
5. (``train_seeds`` > 1) multi-step and distilled NeuronCtrl, observer and operator of each shipped
   training seed on the same test episodes: their intervals are over training seeds and episodes.
6. (``ppo_timesteps`` > 0) PPO and SAC with penalties, trained on the training morphologies, and PPO
   behind the same QP filter, on the test episodes; their own Pareto test against NeuronCtrl.
7. (``other_benchmarks``) dbs and astro_k: multi-step NeuronCtrl (own shipped weights), PI and the
   unfiltered generator on ``episodes`` unseen morphologies.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from scipy import stats

from icml26.common import Experiment, Resources, Result, unit
from icml26.common.experiment import comparison_key
from icml26.common.schema import Bool, Choice, Float, Int
from icml26.neuronctrl import claims
from icml26.neuronctrl.baselines import CemLearned, NoControl, OpenLoop, PISensors
from icml26.neuronctrl.controller import NeuronCtrl, RigCache, load_models
from icml26.neuronctrl.env import AGGRESSIVE, make_env
from icml26.neuronctrl.evaluation import (
    boot_means,
    dominated_by,
    draws,
    episode,
    matched_scalar,
    store,
    summaries,
)
from icml26.neuronctrl.observer import laplacian_interpolation
from icml26.neuronctrl.plant import make_plant
from icml26.neuronctrl.rl import FilteredRL, RLController, train_rl
from icml26.neuronctrl.shipped import TRAIN_CONFIG, TRAIN_SEEDS, train_config, weights_path
from icml26.neuronctrl.training import plateau, random_actions

SWEEP = ((0.1, 0.8, 0.1), (0.3, 0.6, 0.1), (0.5, 0.4, 0.1), (0.7, 0.2, 0.1), (0.9, 0.05, 0.05))
PARETO_SET = claims.BASELINES  # the baselines and ablations of the first Pareto test
RL_SET = ("ppo", "sac", "ppo_filter")  # the RL baselines (paper profile), their own Pareto test
OURS = ("multi", "distilled")
OTHER_BENCHMARKS = ("dbs", "astro_k")
ORACLES = {"oracle": 0.0, "oracle_safe": 1.0}  # references on the true simulator: name -> violation penalty


def _controllers(mods, extra, config):
    kw = dict(k_samples=config["k_samples"], ode_steps=config["ode_steps"], chunk=TRAIN_CONFIG["chunk"],
              alpha=config["alpha"], margin=extra["margin"])  # fmt: skip
    o, p, g = mods["observer"], mods["operator"], mods["generator"]
    multi = NeuronCtrl(o, p, g, "qp", **kw)
    return {
        "multi": multi,
        "distilled": multi.distill(mods["policy"]),
        "action_only": NeuronCtrl(o, p, g, "action", **kw),
        "unfiltered": NeuronCtrl(o, p, g, "none", **kw),
    }


def _load(benchmark: str, tseed: int, config, extras: list | None = None) -> tuple[dict, dict]:
    """(controllers, modules) of the shipped weights of (benchmark, training seed); their stored extra
    (margin, losses, validation curves) is appended to ``extras`` when given."""
    _, mods, extra = load_models(weights_path(benchmark, tseed), train_config(benchmark, tseed))
    if extras is not None:
        extras.append(extra)
    return _controllers(mods, extra, config), mods


CONVERGED_PARTS = ("observer", "operator", "distill")


def convergence_metrics(extras: list[dict]) -> dict[str, float]:
    """``<part>_val_plateau``: the largest, over the training seeds run, of ``plateau`` of the part's stored
    validation curve (the claims' convergence premise); absent (an unmet premise) when any seed's weights
    carry no curve for the part."""
    out = {}
    for part in CONVERGED_PARTS:
        curves = [e.get("val_curves", {}).get(part) for e in extras]
        if extras and all(c is not None and len(c) >= 5 for c in curves):
            out[f"{part}_val_plateau"] = max(plateau(c) for c in curves)
    return out


def _require_weights(config) -> None:
    """Every shipped weight file this config needs, before anything runs (else a clear error)."""
    need = [("ecs_rd", t) for t in range(config["train_seeds"])]
    need += [(b, 0) for b in OTHER_BENCHMARKS] if config["other_benchmarks"] else []
    missing = [f"{b} seed {t}" for b, t in need if not weights_path(b, t).is_file()]
    if missing:
        raise ValueError(
            f"shipped weights missing for {', '.join(missing)}: generate them with"
            " tools/train_neuronctrl.py --benchmark B --seed S"
        )


def run(config: dict[str, Any], seed: int) -> Result:
    _require_weights(config)
    torch.set_num_threads(1)
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    extras: list[dict] = []
    ours, mods = _load("ecs_rd", 0, config, extras)
    pref = AGGRESSIVE
    eps = [(100 + 1000 * seed + e, 1000 * seed + e) for e in range(config["episodes"])]
    nb = config["baseline_episodes"]
    runs: dict[str, list[dict]] = {}
    blocked = dict(claims.BLOCKED)

    def make(name):
        if name in ours or name in ORACLES:
            return ours.get(name)  # the oracle is built per episode, on its plant
        return {"none": NoControl, "open": OpenLoop, "pi": PISensors,
                "cem": lambda: CemLearned(mods["observer"], mods["operator"], seed=seed)}[name]()  # fmt: skip

    def play(name, episodes, ctrl_of, tag="", group=0, record=False, benchmark="ecs_rd"):
        return [unit(f"ep_{name}{tag}_{ms}", lambda ms=ms, es=es: episode(
            ctrl_of(), ms, es, config["steps"], pref, oracle=(name in ORACLES), record=record,
            benchmark=benchmark, group=group, oracle_penalty=ORACLES.get(name, 0.0)), (rng,))
            for ms, es in episodes]  # fmt: skip

    plan = [(n, eps) for n in ("multi", "distilled", "none", "open", "pi")]
    plan += [(n, eps[:nb]) for n in ("action_only", "unfiltered", "cem", *ORACLES)]
    for name, episodes in plan:
        runs[name] = play(name, episodes, lambda n=name: make(n), record=(name == "multi"))
    # training-seed variance: the learned parts of further shipped training seeds on the same episodes
    operators = [mods["operator"]]
    for tseed in range(1, config["train_seeds"]):
        more, more_mods = _load("ecs_rd", tseed, config, extras)
        operators.append(more_mods["operator"])
        for name in OURS:
            runs[name] += play(
                name, eps, lambda c=more[name]: c, f"_t{tseed}", tseed, record=(name == "multi")
            )
    pareto = list(PARETO_SET)
    if config["ppo_timesteps"] > 0:
        runs.update(_rl_runs(config, seed, eps, ours["multi"], play))
        pareto += list(RL_SET)
        for name in claims.RL_GATED:
            del blocked[name]
    metrics: dict[str, float] = {}
    point, boot = summaries(runs, config["bootstrap"], rng)
    for name in runs:
        for key, label in (("cost", "cost"), ("task", "task"), ("energy", "energy"), ("viol", "viol_rate"),
                           ("vmax", "viol_max"), ("latency", "latency")):  # fmt: skip
            store(metrics, f"{name}_{label}", point[name][key], boot[name][key])
    # Pareto: how many run baselines dominate each controller (oracle MPC is a reference); the RL
    # baselines are counted apart (their test), so that the count of the first set keeps its meaning
    nbt = config["bootstrap"]
    # pairs with a controller run on the first baseline_episodes only are compared on those episodes
    first = {ms for ms, _ in eps[:nb]}
    partial = {n for n in runs if len({e["morph"] for e in runs[n]}) < len(eps)}
    common = summaries({n: [e for e in v if e["morph"] in first] for n, v in runs.items()}, nbt, rng)
    for name in (*OURS, *pareto):
        others = [b for b in PARETO_SET if b != name]
        store(metrics, f"{name}_dominated_by", *dominated_by(name, others, point, boot, nbt, common, partial))
        if config["ppo_timesteps"] > 0:
            others = [b for b in RL_SET if b != name]
            store(metrics, f"{name}_dominated_by_rl", *dominated_by(name, others, point, boot, nbt))
    # the scalar trade-off at matched latency, on the common (first baseline_episodes) episodes, paired
    cpoint, cboot = common
    for name in OURS:
        ours_v, ours_b, best, best_v, best_b, ratio_b = matched_scalar(
            name, [b for b in PARETO_SET if b != name], cpoint, cboot
        )
        store(metrics, f"{name}_scalar", ours_v, ours_b)
        if best is not None:
            store(metrics, f"{name}_matched_best_scalar", best_v, best_b)
            key = comparison_key(f"{name}_scalar", f"{name}_matched_best_scalar", "ratio")
            store(metrics, key, ours_v / best_v if best_v > 0 else float("nan"), ratio_b)
            metrics[f"{name}_matched_best_index"] = float(PARETO_SET.index(best))
    # intervention: filtered fraction, and the QP's mean ratio on filtered steps vs the naive filter's
    multi = runs["multi"]
    groups = [e["group"] for e in multi]
    store(metrics, "multi_filtered_fraction", np.concatenate([e["filtered"] for e in multi]).mean(),
          boot_means([e["filtered"] for e in multi], groups, 200, rng))  # fmt: skip
    # judged on the hard-feasible filtered steps only (no slack): there the QP is the minimal-intervention
    # projection; the slack steps are counted apart
    hard = [(e["ratio"][e["slack"] <= 1e-7], e["naive_ratio"][e["slack"] <= 1e-7], e["group"]) for e in multi]
    hard = [h for h in hard if h[0].size]
    if hard:
        hg = [h[2] for h in hard]
        for k, label in ((0, "qp"), (1, "naive")):
            vals = [h[k] for h in hard]
            store(
                metrics,
                f"{label}_intervention_ratio",
                np.concatenate(vals).mean(),
                boot_means(vals, hg, 500, rng),
            )
    for name in OURS:  # the generator's (or student's) share of a step, without observer and filter
        lat = [e["propose"] for e in runs[name]]
        store(metrics, f"{name}_propose_latency", float(np.median(np.concatenate(lat))),
              boot_means(lat, [e["group"] for e in runs[name]], 200, rng))  # fmt: skip
    metrics["qp_hard_steps"] = float(sum(h[0].size for h in hard))
    slack = np.concatenate([e["slack"] for e in multi])
    metrics["multi_slack_fraction"] = float(np.mean(slack > 1e-7)) if slack.size else 0.0
    metrics.update(_observer_metrics(multi, rng))
    metrics.update(unit("operator_eval", lambda: _operator_metrics(operators, config, seed), (rng,)))
    metrics.update(unit("jacobian_eval", lambda: _jacobian_metrics(operators, multi, config), (rng,)))
    metrics.update(unit("sweep", lambda: _sweep(ours["multi"], config, seed), (rng,)))
    metrics["margin"] = float(ours["multi"].margin)
    metrics["train_seeds"] = float(config["train_seeds"])
    metrics.update(convergence_metrics(extras))
    if config["other_benchmarks"]:
        metrics.update(_other_benchmarks(config, seed, play, rng))
        for name in claims.OTHER_GATED:
            del blocked[name]
    tables = {"controllers": [{"controller": n, **{k: round(v, 4) for k, v in point[n].items()},
                               "episodes": len(runs[n])} for n in runs]}  # fmt: skip
    return Result(metrics=metrics, tables=tables, blocked=blocked, notes=[claims.NOTE])


def _rl_runs(config, seed, eps, multi: NeuronCtrl, play) -> dict:
    """PPO and SAC with penalties (trained on the training morphologies) and PPO + the same filter, on
    the test episodes."""
    train = TRAIN_CONFIG["train_morphs"]
    ppo, sac = (unit(f"rl_{a}", lambda a=a: train_rl(a, "ecs_rd", train, config[f"{a}_timesteps"], config["steps"],
                                                     seed).policy) for a in ("ppo", "sac"))  # fmt: skip
    return {
        "ppo": play("ppo", eps, lambda: RLController(ppo)),
        "sac": play("sac", eps, lambda: RLController(sac)),
        "ppo_filter": play("ppo_filter", eps, lambda: FilteredRL(ppo, multi)),
    }


def _other_benchmarks(config, seed, play, rng) -> dict:
    """dbs and astro_k: multi-step NeuronCtrl (its own shipped weights), PI on sensors and the
    unfiltered generator on ``episodes`` unseen morphologies; per benchmark the same metrics, and the
    number of (PI, unfiltered) that dominate NeuronCtrl (and PI) summed over the two benchmarks."""
    out, total, total_pi = {}, [0, []], [0, []]
    eps = [(100 + 1000 * seed + e, 1000 * seed + e) for e in range(config["episodes"])]
    for bench in OTHER_BENCHMARKS:
        ours, _ = _load(bench, 0, config)
        runs = {
            "multi": play("multi", eps, lambda o=ours: o["multi"], f"_{bench}", benchmark=bench),
            "pi": play("pi", eps, PISensors, f"_{bench}", benchmark=bench),
            "unfiltered": play(
                "unfiltered", eps, lambda o=ours: o["unfiltered"], f"_{bench}", benchmark=bench
            ),
        }
        point, boot = summaries(runs, config["bootstrap"], rng)
        for name in runs:
            for key, label in (("cost", "cost"), ("task", "task"), ("energy", "energy"), ("viol", "viol_rate"),
                               ("vmax", "viol_max"), ("latency", "latency")):  # fmt: skip
                store(out, f"{bench}_{name}_{label}", point[name][key], boot[name][key])
        for name, acc in (("multi", total), ("pi", total_pi)):
            count, draws_ = dominated_by(
                name, [b for b in runs if b != name], point, boot, config["bootstrap"]
            )
            store(out, f"{bench}_{name}_dominated_by", count, draws_)
            acc[0] += count
            acc[1].append(draws_)
    store(out, "dbs_astro_dominated_by", total[0], np.sum(total[1], axis=0))
    store(out, "dbs_astro_pi_dominated_by", total_pi[0], np.sum(total_pi[1], axis=0))
    return out


def _observer_metrics(eps: list[dict], rng) -> dict:
    """Relative L2 of the field deviation (pooled over steps, per episode): observer, Laplacian
    interpolation of the last readings, and the resting field (error 1 by definition); the interval
    over training seeds and episodes."""
    obs, lap = [], []
    for e in eps:
        rig = e["rig"]
        dev = e["true"] - rig.rest
        den = np.sum(dev**2)
        obs.append(np.sqrt(np.sum((e["est"] - e["true"]) ** 2) / den))
        lapl = rig.morphology.laplacian()
        interp = np.array([laplacian_interpolation(lapl, rig.sensors, y - rig.rest) for y in e["last"]])
        lap.append(np.sqrt(np.sum((interp - dev) ** 2) / den))
    out = {}
    idx = draws([e["group"] for e in eps], 500, rng)
    for key, vals in (("observer_rel_l2", obs), ("laplacian_rel_l2", lap)):
        v = np.asarray(vals)
        lo, hi = np.quantile([v[i].mean() for i in idx], [0.025, 0.975])
        out[key], out[key + "_ci_low"], out[key + "_ci_high"] = float(v.mean()), float(lo), float(hi)
    out["rest_rel_l2"], out["rest_rel_l2_ci"] = 1.0, 0.0
    return out


def _operator_metrics(ops: list, config, seed) -> dict:
    """One-step error / persistence's, and 20-step relative L2 (and persistence's), on random-action
    rollouts in puff-free windows; unseen morphologies (>= 300) and training ones (0, 1). ``ops``: the
    operators of the training seeds (each on the same rollouts; the interval over seeds and items)."""
    rng = np.random.default_rng(7 + seed)
    out = {}
    for tag, seeds in (("unseen", [300 + 1000 * seed + i for i in range(config["operator_episodes"])]),
                       ("seen", [0, 1][: max(1, min(2, config["operator_episodes"]))])):  # fmt: skip
        one, r20 = [], []  # rows (numerator, denominator[, persistence numerator], training seed)
        for ms in seeds:
            env = make_env("ecs_rd", ms, AGGRESSIVE, config["operator_steps"])
            _, info = env.reset(seed=int(rng.integers(2**31)))
            cs, us = [info["field"]], random_actions(rng, config["operator_steps"], env.rig)
            for u in us:
                cs.append(env.step(u)[4]["field"])
            x = (np.asarray(cs) - env.rig.rest) / env.rig.scale
            puff = np.zeros(len(us), bool)
            puff[[t for t in env.puffs if t < len(us)]] = True
            g = RigCache(env.rig).g
            xt, ut = torch.as_tensor(x, dtype=torch.float32), torch.as_tensor(us, dtype=torch.float32)
            starts = [t for t in range(0, len(us) - 20 + 1, 5) if not puff[t : t + 20].any()]
            end = x[np.asarray(starts, int) + 20]
            for k, op in enumerate(ops):
                with torch.no_grad():
                    f = op(xt[:-1], ut, g).numpy()
                one += [(np.sum((f[t] - x[t + 1]) ** 2), np.sum((x[t] - x[t + 1]) ** 2), 0.0, k)
                        for t in np.flatnonzero(~puff)]  # fmt: skip
                if starts:
                    with torch.no_grad():
                        roll = op.rollout(xt[starts], torch.stack([ut[t : t + 20] for t in starts]), g)[:, -1]
                    roll = roll.numpy()
                    r20 += [(np.sum((roll[i] - end[i]) ** 2), np.sum(end[i] ** 2), np.sum((x[t] - end[i]) ** 2), k)
                            for i, t in enumerate(starts)]  # fmt: skip
        _ratio_store(out, f"operator_onestep_{tag}", np.asarray(one), 0, 1, rng)
        if r20:
            a = np.asarray(r20)
            _ratio_store(out, f"operator_20step_{tag}", a, 0, 1, rng)
            _ratio_store(out, f"persistence_20step_{tag}", a[a[:, 3] == 0], 2, 1, rng)
    out["persistence_onestep_unseen"], out["persistence_onestep_unseen_ci"] = 1.0, 0.0  # by definition
    return out


def _ratio_store(out, key, items, num, den, rng, n=500):
    """sqrt(sum num / sum den) over items (rows ending with their training seed), with a bootstrap
    interval over training seeds and items (steps, windows)."""
    value = float(np.sqrt(items[:, num].sum() / items[:, den].sum()))
    b = np.array([np.sqrt(items[i, num].sum() / items[i, den].sum()) for i in draws(items[:, -1], n, rng)])
    lo, hi = np.quantile(b, [0.025, 0.975])
    out[key], out[key + "_ci_low"], out[key + "_ci_high"] = (
        value,
        float(min(lo, value)),
        float(max(hi, value)),
    )


def _jacobian_metrics(ops: list, eps: list[dict], config) -> dict:
    """Relative error of the operator's action Jacobian dF/du (the field barrier's rows), against the
    central finite difference of the true plant, at closed-loop true fields of the multi-step episodes
    (every 10th step of the first ``baseline_episodes`` episodes of each training seed), u = -0.3 on
    every actuator: sqrt(sum ||J_op - J_true||_F^2 / sum ||J_true||_F^2) (J = 0 gives 1)."""
    rows, cache, h = [], {}, 1e-3
    first = {e["morph"] for e in eps[: config["baseline_episodes"]]}
    for e in eps:
        if e["morph"] not in first:
            continue
        rig = e["rig"]
        plant = cache.setdefault(e["morph"], make_plant("ecs_rd", e["morph"]))
        g = RigCache(rig).g
        u = np.full(rig.m, -0.3)
        for z in e["true"][::10]:
            jt = np.stack(
                [(plant.step(z, u + h * d) - plant.step(z, u - h * d)) / (2 * h) for d in np.eye(rig.m)], 1
            )
            x = torch.as_tensor((z - rig.rest) / rig.scale, dtype=torch.float32)
            _, jo = ops[e["group"]].jacobian(x, torch.as_tensor(u, dtype=torch.float32), g)
            jo = rig.scale * jo.detach().numpy().astype(float)
            rows.append((np.sum((jo - jt) ** 2), np.sum(jt**2), 0.0, e["group"]))
    out: dict = {}
    if rows:
        _ratio_store(out, "operator_jacobian_rel_err", np.asarray(rows), 0, 1, np.random.default_rng(3))
    out["zero_jacobian_rel_err"], out["zero_jacobian_rel_err_ci"] = 1.0, 0.0  # J = 0, by definition
    return out


def _sweep(multi: NeuronCtrl, config, seed) -> dict:
    """A paired sweep: the 5 preferences on each of ``sweep_episodes`` fixed (morphology, env seed)
    episodes; Spearman of the task weight and the episode-averaged energy (after the filter, and of the
    nominal, pre-filter action), bootstrap over episodes; the control: the generator told the aggressive
    preference whatever the evaluation preference."""
    frozen = _Frozen(multi)
    out, rng = {}, np.random.default_rng(seed)
    eps = [(200 + 1000 * seed + i, 5000 + i) for i in range(config["sweep_episodes"])]
    weights = [w[0] for w in SWEEP]
    for tag, ctrl in (("sweep", multi), ("sweep_frozen", frozen)):
        energy = np.zeros((len(eps), len(SWEEP)))
        nominal = np.zeros_like(energy)
        for i, (ms, es) in enumerate(eps):
            for j, w in enumerate(SWEEP):
                e = episode(ctrl, ms, es, config["sweep_steps"], w)
                energy[i, j], nominal[i, j] = e["energy"].mean(), e["nominal_energy"].mean()
        for name, table in ((tag, energy), (f"{tag}_nominal", nominal)):
            rho = float(stats.spearmanr(weights, table.mean(0)).statistic)
            draws_ = [stats.spearmanr(weights, table[rng.integers(0, len(eps), len(eps))].mean(0)).statistic
                      for _ in range(200)]  # fmt: skip
            lo, hi = np.nanquantile(draws_, [0.025, 0.975])
            out[f"{name}_spearman"] = rho
            out[f"{name}_spearman_ci_low"], out[f"{name}_spearman_ci_high"] = (
                float(min(lo, rho)),
                float(max(hi, rho)),
            )
    return out


class _Frozen:
    """NeuronCtrl with its preference input frozen at the aggressive value (the sweep's control)."""

    def __init__(self, ctrl: NeuronCtrl):
        self.ctrl = ctrl

    def act(self, history, preference):
        return self.ctrl.act(history, AGGRESSIVE)

    def cache(self, rig):
        return self.ctrl.cache(rig)


SCHEMA = {  # each profile key's type and range (icml26.common.schema)
    "benchmark": Choice(("ecs_rd",)),
    "episodes": Int(2, 100),
    "baseline_episodes": Int(1, 100),
    "steps": Int(5, 1000),
    "sweep_steps": Int(5, 1000),
    "sweep_episodes": Int(1, 20),
    "operator_episodes": Int(1, 20),
    "operator_steps": Int(25, 1000),
    "bootstrap": Int(50, 10_000),
    "k_samples": Int(1, 256),
    "ode_steps": Int(1, 100),
    "alpha": Float(0.0, 1.0, low_open=True),
    "train_seeds": Int(1, len(TRAIN_SEEDS)),
    "ppo_timesteps": Int(0, 1_000_000),
    "sac_timesteps": Int(0, 1_000_000),
    "other_benchmarks": Bool(),
}


def _check(config):
    if config["ppo_timesteps"] == 0 and config["sac_timesteps"] > 0:
        raise ValueError("sac_timesteps > 0 needs ppo_timesteps > 0 (the RL baselines run together)")
    if config["ppo_timesteps"] > 0 and config["sac_timesteps"] == 0:
        raise ValueError("ppo_timesteps > 0 needs sac_timesteps > 0 (the RL baselines run together)")
    if config["baseline_episodes"] > config["episodes"]:
        raise ValueError(
            f"baseline_episodes ({config['baseline_episodes']}) must be <= episodes ({config['episodes']})"
        )


def cost(config: dict[str, Any]) -> tuple[float, float]:
    """Rough seconds (2 free cores) and bytes for one runner seed."""
    steps = config["episodes"] * config["steps"]
    ours = steps * (0.04 + 0.03) + 0.001 * 3 * steps
    base = config["baseline_episodes"] * config["steps"] * (0.1 + 0.12 + 2 * 0.025)
    sweep = 2 * len(SWEEP) * config["sweep_steps"] * config["sweep_episodes"] * 0.04
    base += config["baseline_episodes"] * config["steps"] * 0.12  # the constrained oracle
    seeds = (config["train_seeds"] - 1) * steps * 0.075
    rl = 0.002 * config["ppo_timesteps"] + 0.006 * config["sac_timesteps"]
    rl += steps * 0.025 if config["ppo_timesteps"] else 0.0
    other = len(OTHER_BENCHMARKS) * steps * 0.085 if config["other_benchmarks"] else 0.0
    total = (
        ours + base + sweep + seeds + rl + other + 3.0 * config["operator_episodes"] * config["train_seeds"]
    )
    return total + 5.0, 1.0e9


_COMMON = {"benchmark": "ecs_rd", "bootstrap": 1000, "k_samples": TRAIN_CONFIG["k_samples"],
           "ode_steps": TRAIN_CONFIG["ode_steps"], "alpha": 0.5, "train_seeds": 1, "ppo_timesteps": 0,
           "sac_timesteps": 0, "other_benchmarks": False}  # fmt: skip
EXPERIMENT = Experiment(
    method="neuronctrl",
    title="Geometry-Aware Safe Closed-Loop Generative Control for Neuronal Microenvironment Dynamics",
    paper="Haowei Xu, Yixin Chen, Wanyi Fu, Hongbin Han, Zhaoheng Xie; ICML 2026; arXiv id not identified",
    run=run,
    profiles={
        "smoke": {
            **_COMMON,
            "episodes": 2,
            "baseline_episodes": 1,
            "steps": 8,
            "sweep_steps": 5,
            "sweep_episodes": 1,
            "operator_episodes": 1,
            "operator_steps": 25,
            "bootstrap": 100,
            "k_samples": 4,
            "ode_steps": 2,
        },
        "quick": {
            **_COMMON,
            "episodes": 5,
            "baseline_episodes": 2,
            "steps": 100,
            "sweep_steps": 20,
            "sweep_episodes": 2,
            "operator_episodes": 2,
            "operator_steps": 60,
        },
        "paper": {
            **_COMMON,
            "episodes": 10,
            "baseline_episodes": 5,
            "steps": 100,
            "sweep_steps": 100,
            "sweep_episodes": 3,
            "operator_episodes": 5,
            "operator_steps": 100,
            "train_seeds": len(TRAIN_SEEDS),
            "ppo_timesteps": 40_000,
            "sac_timesteps": 10_000,
            "other_benchmarks": True,
        },
    },  # fmt: skip
    claims=claims.TESTS,
    paper_claims=claims.PAPER_CLAIMS,
    background=claims.BACKGROUND,
    names=claims.NAMES,
    description=__doc__ or "",
    check=_check,
    schema=SCHEMA,
    cost=cost,
    resources=Resources(cpus=1),
)
