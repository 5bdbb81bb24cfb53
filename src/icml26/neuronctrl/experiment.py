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
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from scipy import stats

from icml26.common import Experiment, Resources, Result, unit
from icml26.common.schema import Choice, Float, Int
from icml26.neuronctrl import claims
from icml26.neuronctrl.baselines import CemLearned, NoControl, OpenLoop, OracleMPC, PISensors
from icml26.neuronctrl.controller import NeuronCtrl, RigCache, load_models, pad_history
from icml26.neuronctrl.env import AGGRESSIVE, make_env
from icml26.neuronctrl.observer import laplacian_interpolation
from icml26.neuronctrl.safety import naive_filter
from icml26.neuronctrl.shipped import TRAIN_CONFIG, WEIGHTS
from icml26.neuronctrl.training import random_actions

SWEEP = ((0.1, 0.8, 0.1), (0.3, 0.6, 0.1), (0.5, 0.4, 0.1), (0.7, 0.2, 0.1), (0.9, 0.05, 0.05))
PARETO_SET = ("none", "open", "pi", "cem")  # the baselines run (PPO/SAC: not run, see claims)
OURS = ("multi", "distilled")


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


def episode(ctrl, morph_seed: int, env_seed: int, steps: int, preference, oracle: bool = False,
            record: bool = False) -> dict:  # fmt: skip
    """One closed-loop episode; per-step cost, task, energy, violation, latency (and, with ``record``,
    the observer's estimates, the true fields, the readings and the paired naive-filter ratio)."""
    env = make_env("ecs_rd", morph_seed, preference, steps)
    y, info = env.reset(seed=env_seed)
    if oracle:
        ctrl = OracleMPC(env.plant, seed=env_seed)
    ys, us, rows = [y], [], {k: [] for k in ("cost", "task", "energy", "viol", "vmax", "latency", "filtered",
                                              "ratio", "naive_ratio", "slack")}  # fmt: skip
    est, true, last = [], [], []
    field = info["field"]
    for _ in range(steps):
        hist = pad_history(ys, us, env.rig)
        if oracle:
            ctrl.field = field
        u, ai = ctrl.act(hist, preference)
        if record:
            est.append(ai["field"])
            true.append(field)
            last.append(hist.sensors[-1])
        if ai.get("intervened"):
            rows["filtered"].append(1.0)
            rows["ratio"].append(ai["ratio"])
            if record:  # the control on the same step: the naive filter on the same nominal and rows
                g, h = ai["rows"]
                flt = ctrl.cache(env.rig).filter
                rows["naive_ratio"].append(naive_filter(flt, ai["u_nom"], hist.actions[-1], g, h).ratio)
            rows["slack"].append(ai["slack"])
        else:
            rows["filtered"].append(0.0)
        y, r, _, _, ei = env.step(u)
        field = ei["field"]
        ys.append(y)
        us.append(u)
        for k, v in (("cost", -r), ("task", ei["task"]), ("energy", ei["energy"]), ("viol", ei["violated"]),
                     ("vmax", max(ei["field_violation"], 0.0)), ("latency", ai["latency"])):  # fmt: skip
            rows[k].append(float(v))
    out = {k: np.asarray(v, float) for k, v in rows.items()}
    if record:
        out.update(est=np.asarray(est), true=np.asarray(true), last=np.asarray(last), rig=env.rig)
    return out


def _boot_means(per_ep: list[np.ndarray], n: int, rng) -> np.ndarray:
    """(n,) bootstrap means over episodes (each episode's steps pooled)."""
    k = len(per_ep)
    idx = rng.integers(0, k, (n, k))
    return np.array([np.concatenate([per_ep[i] for i in row]).mean() for row in idx])


def _store(metrics, key, value, boot):
    metrics[key] = float(value)
    lo, hi = np.quantile(boot, [0.025, 0.975])
    metrics[key + "_ci_low"], metrics[key + "_ci_high"] = float(min(lo, value)), float(max(hi, value))


def _summaries(runs: dict, n_boot: int, rng) -> tuple[dict, dict]:
    """Point values and bootstrap draws of (task, viol rate, median latency) etc. per controller."""
    point, boot = {}, {}
    for name, eps in runs.items():
        point[name], boot[name] = {}, {}
        k = len(eps)
        idx = rng.integers(0, k, (n_boot, k))
        for key in ("cost", "task", "energy", "viol", "vmax"):
            vals = [e[key] for e in eps]
            point[name][key] = float(
                np.concatenate(vals).mean() if key != "vmax" else np.concatenate(vals).max()
            )
            agg = np.mean if key != "vmax" else np.max
            boot[name][key] = np.array([agg(np.concatenate([vals[i] for i in row])) for row in idx])
        lat = [e["latency"] for e in eps]
        point[name]["latency"] = float(np.median(np.concatenate(lat)))
        boot[name]["latency"] = np.array([np.median(np.concatenate([lat[i] for i in row])) for row in idx])
    return point, boot


def _dominated(a: dict, b: dict) -> bool:
    """Whether b Pareto-dominates a in (task, viol, latency): no worse in all, better in one."""
    keys = ("task", "viol", "latency")
    return all(b[k] <= a[k] for k in keys) and any(b[k] < a[k] for k in keys)


def run(config: dict[str, Any], seed: int) -> Result:
    torch.set_num_threads(1)
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    _, mods, extra = load_models(WEIGHTS, TRAIN_CONFIG)
    ours = _controllers(mods, extra, config)
    pref = AGGRESSIVE
    eps = [(100 + 1000 * seed + e, 1000 * seed + e) for e in range(config["episodes"])]
    nb = config["baseline_episodes"]
    runs: dict[str, list[dict]] = {}

    def make(name):
        if name in ours or name == "oracle":
            return ours.get(name)  # the oracle is built per episode, on its plant
        return {"none": NoControl, "open": OpenLoop, "pi": PISensors,
                "cem": lambda: CemLearned(mods["observer"], mods["operator"], seed=seed)}[name]()  # fmt: skip

    plan = [(n, eps) for n in ("multi", "distilled", "none", "open", "pi")]
    plan += [(n, eps[:nb]) for n in ("action_only", "unfiltered", "cem", "oracle")]
    for name, episodes in plan:
        runs[name] = [
            unit(f"ep_{name}_{ms}", lambda n=name, ms=ms, es=es: episode(
                make(n), ms, es, config["steps"], pref, oracle=(n == "oracle"), record=(n == "multi")), (rng,))
            for ms, es in episodes
        ]  # fmt: skip
    metrics: dict[str, float] = {}
    point, boot = _summaries(runs, config["bootstrap"], rng)
    for name in runs:
        for key, label in (("cost", "cost"), ("task", "task"), ("energy", "energy"), ("viol", "viol_rate"),
                           ("vmax", "viol_max"), ("latency", "latency")):  # fmt: skip
            _store(metrics, f"{name}_{label}", point[name][key], boot[name][key])
    # Pareto: how many baselines of the run dominate each controller (oracle MPC is a reference)
    for name in (*OURS, *PARETO_SET):
        others = [b for b in PARETO_SET if b != name]
        count = sum(_dominated(point[name], point[b]) for b in others)
        draws = [sum(_dominated({k: boot[name][k][i] for k in boot[name]}, {k: boot[b][k][i] for k in boot[b]})
                     for b in others) for i in range(config["bootstrap"])]  # fmt: skip
        _store(metrics, f"{name}_dominated_by", count, np.asarray(draws, float))
    # intervention: filtered fraction, and the QP's mean ratio on filtered steps vs the naive filter's
    filt = [e["filtered"] for e in runs["multi"]]
    _store(metrics, "multi_filtered_fraction", np.concatenate(filt).mean(), _boot_means(filt, 200, rng))
    qp = [e["ratio"] for e in runs["multi"] if e["ratio"].size]
    nv = [e["naive_ratio"] for e in runs["multi"] if e["naive_ratio"].size]
    if qp:
        _store(metrics, "qp_intervention_ratio", np.concatenate(qp).mean(), _boot_means(qp, 500, rng))
        _store(metrics, "naive_intervention_ratio", np.concatenate(nv).mean(), _boot_means(nv, 500, rng))
        metrics["multi_slack_fraction"] = float(
            np.mean(np.concatenate([e["slack"] for e in runs["multi"]]) > 0)
        )
    metrics.update(_observer_metrics(runs["multi"], rng))
    metrics.update(unit("operator_eval", lambda: _operator_metrics(mods["operator"], config, seed), (rng,)))
    metrics.update(unit("sweep", lambda: _sweep(ours["multi"], mods, extra, config, seed), (rng,)))
    metrics["margin"] = float(extra["margin"])
    tables = {"controllers": [{"controller": n, **{k: round(v, 4) for k, v in point[n].items()},
                               "episodes": len(runs[n])} for n in runs]}  # fmt: skip
    return Result(metrics=metrics, tables=tables, blocked=dict(claims.BLOCKED), notes=[claims.NOTE])


def _observer_metrics(eps: list[dict], rng) -> dict:
    """Relative L2 of the field deviation (pooled over steps, per episode): observer, Laplacian
    interpolation of the last readings, and the resting field (error 1 by definition)."""
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
    for key, vals in (("observer_rel_l2", obs), ("laplacian_rel_l2", lap), ("rest_rel_l2", [1.0] * len(obs))):
        v = np.asarray(vals)
        b = v[rng.integers(0, len(v), (500, len(v)))].mean(1)
        lo, hi = np.quantile(b, [0.025, 0.975])
        out[key], out[key + "_ci_low"], out[key + "_ci_high"] = float(v.mean()), float(lo), float(hi)
    out["rest_rel_l2_ci"] = 0.0
    del out["rest_rel_l2_ci_low"], out["rest_rel_l2_ci_high"]
    return out


def _operator_metrics(op, config, seed) -> dict:
    """One-step error / persistence's, and 20-step relative L2 (and persistence's), on random-action
    rollouts in puff-free windows; unseen morphologies (>= 300) and training ones (0, 1)."""
    rng = np.random.default_rng(7 + seed)
    out = {}
    for tag, seeds in (("unseen", [300 + 1000 * seed + i for i in range(config["operator_episodes"])]),
                       ("seen", [0, 1][: max(1, min(2, config["operator_episodes"]))])):  # fmt: skip
        one, r20 = [], []
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
            with torch.no_grad():
                f = op(xt[:-1], ut, g).numpy()
            ok = ~puff
            one += [
                (np.sum((f[t] - x[t + 1]) ** 2), np.sum((x[t] - x[t + 1]) ** 2)) for t in np.flatnonzero(ok)
            ]
            starts = [t for t in range(0, len(us) - 20 + 1, 5) if not puff[t : t + 20].any()]
            if starts:
                with torch.no_grad():
                    roll = op.rollout(xt[starts], torch.stack([ut[t : t + 20] for t in starts]), g)[
                        :, -1
                    ].numpy()
                end = x[np.asarray(starts) + 20]
                r20 += [(np.sum((roll[i] - end[i]) ** 2), np.sum(end[i] ** 2), np.sum((x[t] - end[i]) ** 2))
                        for i, t in enumerate(starts)]  # fmt: skip
        _ratio_store(out, f"operator_onestep_{tag}", np.asarray(one), 0, 1, rng)
        if r20:
            a = np.asarray(r20)
            _ratio_store(out, f"operator_20step_{tag}", a, 0, 1, rng)
            _ratio_store(out, f"persistence_20step_{tag}", a, 2, 1, rng)
    out["persistence_onestep_unseen"], out["persistence_onestep_unseen_ci"] = 1.0, 0.0  # by definition
    return out


def _ratio_store(out, key, items, num, den, rng, n=500):
    """sqrt(sum num / sum den) over items, with a bootstrap interval over the items (steps, windows)."""
    value = float(np.sqrt(items[:, num].sum() / items[:, den].sum()))
    idx = rng.integers(0, len(items), (n, len(items)))
    draws = np.sqrt(items[idx, num].sum(1) / items[idx, den].sum(1))
    lo, hi = np.quantile(draws, [0.025, 0.975])
    out[key], out[key + "_ci_low"], out[key + "_ci_high"] = (
        value,
        float(min(lo, value)),
        float(max(hi, value)),
    )


def _sweep(multi: NeuronCtrl, mods, extra, config, seed) -> dict:
    """Spearman of the task weight and realised energy over the 5 preferences, for the generator told
    the preference and (control) told the aggressive one whatever the evaluation preference."""
    frozen = _Frozen(multi)
    out, rng = {}, np.random.default_rng(seed)
    for tag, ctrl in (("sweep", multi), ("sweep_frozen", frozen)):
        energies = []
        for i, w in enumerate(SWEEP):
            e = episode(ctrl, 200 + 1000 * seed + i, 5000 + i, config["sweep_steps"], w)
            energies.append(e["energy"])
        rho = float(stats.spearmanr([w[0] for w in SWEEP], [en.mean() for en in energies]).statistic)
        draws = []
        for _ in range(200):
            means = [en[rng.integers(0, en.size, en.size)].mean() for en in energies]
            draws.append(stats.spearmanr([w[0] for w in SWEEP], means).statistic)
        lo, hi = np.nanquantile(draws, [0.025, 0.975])
        out[f"{tag}_spearman"] = rho
        out[f"{tag}_spearman_ci_low"], out[f"{tag}_spearman_ci_high"] = (
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
    "operator_episodes": Int(1, 20),
    "operator_steps": Int(25, 1000),
    "bootstrap": Int(50, 10_000),
    "k_samples": Int(1, 256),
    "ode_steps": Int(1, 100),
    "alpha": Float(0.0, 1.0, low_open=True),
}


def _check(config):
    if config["baseline_episodes"] > config["episodes"]:
        raise ValueError(
            f"baseline_episodes ({config['baseline_episodes']}) must be <= episodes ({config['episodes']})"
        )


def cost(config: dict[str, Any]) -> tuple[float, float]:
    """Rough seconds (2 free cores) and bytes for one runner seed."""
    steps = config["episodes"] * config["steps"]
    ours = steps * (0.04 + 0.03) + 0.001 * 3 * steps
    base = config["baseline_episodes"] * config["steps"] * (0.1 + 0.12 + 2 * 0.025)
    sweep = 2 * len(SWEEP) * config["sweep_steps"] * 0.04
    return ours + base + sweep + 3.0 * config["operator_episodes"] + 5.0, 1.0e9


_COMMON = {"benchmark": "ecs_rd", "bootstrap": 1000, "k_samples": TRAIN_CONFIG["k_samples"],
           "ode_steps": TRAIN_CONFIG["ode_steps"], "alpha": 0.5}  # fmt: skip
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
            "sweep_steps": 40,
            "operator_episodes": 2,
            "operator_steps": 60,
        },
        "paper": {
            **_COMMON,
            "episodes": 10,
            "baseline_episodes": 5,
            "steps": 100,
            "sweep_steps": 100,
            "operator_episodes": 5,
            "operator_steps": 100,
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
