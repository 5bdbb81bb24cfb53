"""Closed-loop episodes and their summaries: point values, bootstrap intervals over training seeds and
test episodes, and Pareto domination in (mean task cost, violation rate, median latency).

Every episode carries a ``group``: the training seed of the learned parts that produced it (0 for a
controller without learned parts). With one group the bootstrap resamples test episodes; with several
it is hierarchical (resample the training seeds, then each drawn seed's episodes), so the interval
carries the variance over training seeds as well as over test episodes. Controllers run on the same
test episodes are resampled together (a paired bootstrap).
"""

from __future__ import annotations

import numpy as np

from icml26.neuronctrl.baselines import OracleMPC
from icml26.neuronctrl.controller import pad_history
from icml26.neuronctrl.env import make_env
from icml26.neuronctrl.safety import naive_filter

PARETO_KEYS = ("task", "viol", "latency")


def episode(ctrl, morph_seed: int, env_seed: int, steps: int, preference, oracle: bool = False,
            record: bool = False, benchmark: str = "ecs_rd", group: int = 0, oracle_penalty: float = 0.0,
            ) -> dict:  # fmt: skip
    """One closed-loop episode; per-step cost, task, energy, violation, latency (and, with ``record``,
    the observer's estimates, the true fields, the readings and the paired naive-filter ratio)."""
    env = make_env(benchmark, morph_seed, preference, steps)
    y, info = env.reset(seed=env_seed)
    if oracle:
        ctrl = OracleMPC(env.plant, seed=env_seed, penalty=oracle_penalty)
    ys, us, rows = [y], [], {k: [] for k in ("cost", "task", "energy", "viol", "vmax", "latency", "filtered",
                                              "ratio", "naive_ratio", "slack", "nominal_energy", "propose")}  # fmt: skip
    est, true, last = [], [], []
    field, state = info["field"], info["state"]
    for _ in range(steps):
        hist = pad_history(ys, us, env.rig)
        if oracle:
            ctrl.field = state  # the oracle's privilege: the true plant state
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
        if "propose_latency" in ai:
            rows["propose"].append(ai["propose_latency"])
        if "u_nom" in ai:
            rows["nominal_energy"].append(float(np.mean(np.square(ai["u_nom"]))) / env.plant.spec.u_max**2)
        y, r, _, _, ei = env.step(u)
        field, state = ei["field"], ei["state"]
        ys.append(y)
        us.append(u)
        for k, v in (("cost", -r), ("task", ei["task"]), ("energy", ei["energy"]), ("viol", ei["violated"]),
                     ("vmax", max(ei["field_violation"], 0.0)), ("latency", ai["latency"])):  # fmt: skip
            rows[k].append(float(v))
    out = {k: np.asarray(v, float) for k, v in rows.items()}
    out["group"], out["morph"] = int(group), int(morph_seed)
    if record:
        out.update(est=np.asarray(est), true=np.asarray(true), last=np.asarray(last), rig=env.rig)
    return out


def draws(groups, n: int, rng: np.random.Generator) -> list[np.ndarray]:
    """``n`` bootstrap index sets over items labelled by ``groups``: plain resampling with one group,
    hierarchical (groups with replacement, then items within each drawn group) with several."""
    groups = np.asarray(groups)
    if groups.ndim != 1 or groups.size == 0:
        raise ValueError("draws needs a non-empty 1-D array of group labels")
    labels = np.unique(groups)
    members = [np.flatnonzero(groups == g) for g in labels]
    if len(labels) == 1:
        return list(rng.integers(0, groups.size, (n, groups.size)))
    out = []
    for _ in range(n):
        picked = rng.integers(0, len(labels), len(labels))
        out.append(
            np.concatenate([members[k][rng.integers(0, members[k].size, members[k].size)] for k in picked])
        )
    return out


def summaries(runs: dict, n_boot: int, rng) -> tuple[dict, dict]:
    """Point values and bootstrap draws of cost, task, energy, violation rate and maximum, median
    latency per controller (steps pooled over the episodes). The draws are paired: controllers with the
    same number of test episodes share one episode-index matrix (draw i resamples the same episodes for
    each), and a controller with several training seeds also resamples its seeds (hierarchical)."""
    point, boot, shared = {}, {}, {}
    for name, eps in runs.items():
        point[name], boot[name] = {}, {}
        groups = np.asarray([e.get("group", 0) for e in eps])
        members = [np.flatnonzero(groups == g) for g in np.unique(groups)]
        size = members[0].size
        if any(m.size != size for m in members):
            raise ValueError(f"{name}: every training seed must run the same test episodes")
        ep_idx = shared.setdefault(size, rng.integers(0, size, (n_boot, size)))
        if len(members) == 1:
            idx = [members[0][row] for row in ep_idx]
        else:
            idx = [np.concatenate([members[k][row] for k in rng.integers(0, len(members), len(members))])
                   for row in ep_idx]  # fmt: skip
        for key in ("cost", "task", "energy", "viol", "vmax", "latency"):
            vals = [e[key] for e in eps]
            agg = {"vmax": np.max, "latency": np.median}.get(key, np.mean)
            point[name][key] = float(agg(np.concatenate(vals)))
            boot[name][key] = np.array([agg(np.concatenate([vals[i] for i in row])) for row in idx])
    return point, boot


def boot_means(per_ep: list[np.ndarray], groups, n: int, rng) -> np.ndarray:
    """(n,) bootstrap means of the pooled steps (draws over training seeds and episodes)."""
    return np.array([np.concatenate([per_ep[i] for i in row]).mean() for row in draws(groups, n, rng)])


def dominated(a: dict, b: dict) -> bool:
    """Whether b Pareto-dominates a in (task, viol, latency): no worse in all, better in one."""
    return all(b[k] <= a[k] for k in PARETO_KEYS) and any(b[k] < a[k] for k in PARETO_KEYS)


def dominated_by(
    name: str, others, point: dict, boot: dict, n_boot: int, common=None, partial=()
) -> tuple[int, np.ndarray]:
    """How many of ``others`` dominate ``name``: the point count and its bootstrap draws. A pair with a
    controller in ``partial`` (run on fewer episodes) is compared on the common episodes, with
    ``common = (point, boot)`` computed there."""

    def pair(b):
        return common if common is not None and (name in partial or b in partial) else (point, boot)

    count = sum(dominated(pair(b)[0][name], pair(b)[0][b]) for b in others)
    per = [
        sum(
            dominated(
                {k: pair(b)[1][name][k][i] for k in PARETO_KEYS},
                {k: pair(b)[1][b][k][i] for k in PARETO_KEYS},
            )
            for b in others
        )
        for i in range(n_boot)
    ]
    return count, np.asarray(per, float)


def store(metrics: dict, key: str, value: float, boot) -> None:
    """``key`` and its 95% percentile interval (widened to contain the point value)."""
    metrics[key] = float(value)
    lo, hi = np.quantile(boot, [0.025, 0.975])
    metrics[key + "_ci_low"], metrics[key + "_ci_high"] = float(min(lo, value)), float(max(hi, value))


#: the pre-registered scalar trade-off (review nc-rev #8) [inferred, fixed before any run]: cost + LAMBDA *
#: violation rate (a 10-point drop of the violation rate is worth 0.1 of cost, the cost's own scale), against
#: the baselines at matched latency: median latency <= MATCH_TOL x the controller's own
LAMBDA = 1.0
MATCH_TOL = 1.25


def matched_scalar(name: str, others, point: dict, boot: dict, lam: float = LAMBDA, tol: float = MATCH_TOL):
    """(ours, ours' draws, strongest matched baseline's name, its value, its draws, the paired ratio draws)
    of the scalar ``cost + lam * viol``; the baselines of ``others`` whose median latency is at most ``tol``
    times ``name``'s are matched, the strongest is the one with the lowest scalar (``None`` when none is
    matched). ``point``/``boot`` as from ``summaries`` on one common episode set (paired draws)."""
    if not (np.isfinite(lam) and lam >= 0 and np.isfinite(tol) and tol >= 1):
        raise ValueError(f"matched_scalar needs lam >= 0 and tol >= 1 (finite), got lam={lam}, tol={tol}")
    missing = [b for b in (name, *others) if b not in point]
    if missing:
        raise ValueError(f"matched_scalar: no summary for {', '.join(missing)}")

    def scal(p):
        return p["cost"] + lam * p["viol"]

    ours, ours_b = scal(point[name]), scal(boot[name])
    matched = [b for b in others if point[b]["latency"] <= tol * point[name]["latency"]]
    if not matched:
        return ours, ours_b, None, float("nan"), None, None
    best = min(matched, key=lambda b: scal(point[b]))
    best_b = scal(boot[best])
    return ours, ours_b, best, scal(point[best]), best_b, ours_b / np.maximum(best_b, 1e-12)
