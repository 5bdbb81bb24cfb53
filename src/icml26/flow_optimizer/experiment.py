"""FlowOptimizer's headline experiment: learned population optimizer vs classical methods, equal budgets.

Steps (the issue's experiment, scaled to a shared CPU):
1. Get FlowOptimizer models for Rastrigin-d and Ackley-d: the shipped weights (``pretrained``), or train
   both stages here. Keep the stage-1-only checkpoint of Rastrigin for the stage-2 ablation.
2. Draw unseen test instances (random shifts) at d and at 10 d.
3. On every instance run FlowOptimizer and the baselines (CMA-ES, IPOP-CMA-ES, Adam multistart, scipy
   DE, nevergrad NGOpt, and the L2O-DM coordinatewise LSTM meta-trained on the same class) at the same
   evaluation budget; record the
   best f, its history and the wall time. DC-OPF (pandapower case118): optimality gap and violation
   of FlowOptimizer, CMA-ES and Adam against the exact optimum of ``pandapower.rundcopp``. Planar
   n-link IK: trained at ``ik_links`` links, run on unseen instances there and zero-shot at 10x the
   links, against CMA-ES and Adam; final end-effector distances re-evaluated in float64. Supply chain
   (suppliers -> customers, concave costs): optimality gap (%) of FlowOptimizer, CMA-ES and Adam on
   unseen networks against the exact optimum of the piecewise-linear MILP (``highspy``).
4. Report medians (means for the gaps) per task and method under profile-independent keys
   (``rastrigin_flow`` is Rastrigin at the trained d, ``ackley_zero_shot_cma`` CMA-ES on Ackley at
   10 d, ``ik_flow`` IK at the trained links), the 95% intervals the claims need (verdict contract
   v2: each claim metric's own interval and a paired-bootstrap interval of each comparison, from the
   per-instance values), time per 1,000 evaluations versus CMA-ES, and training time per stage. The
   comparisons themselves (ours / or - the strongest baseline) are computed by the contract.
"""

from __future__ import annotations

import math
import time
from functools import partial
from typing import Any

import numpy as np
import torch

from icml26.common import (
    Claim,
    Experiment,
    Plot,
    Result,
    check_device,
    comparison_key,
    mean_ci95,
    median_ci95,
    paired_ci,
    progress,
    seed_everything,
    unit,
)
from icml26.flow_optimizer.baselines import BASELINES
from icml26.flow_optimizer.l2o import L2OOptimizer
from icml26.flow_optimizer.optimizer import FlowOptimizer, OptimizeResult
from icml26.flow_optimizer.power_grid import CASES, DCOPFClass
from icml26.flow_optimizer.problems import ProblemClass
from icml26.flow_optimizer.robotics import IKClass
from icml26.flow_optimizer.supply_chain import SupplyChainClass
from icml26.flow_optimizer.train import L2O_TRAIN_CONFIG, TRAIN_CONFIG

# Device (config "device"): FlowOptimizer's models, its instances and its rollouts run on
# ``config["device"]``; random draws stay on CPU generators and are moved afterwards, so a CPU run is
# unchanged. The baselines stay on the CPU: pycma, IPOP-CMA-ES and scipy's differential evolution work
# on numpy (their objective wrapper builds CPU tensors), and Adam multistart takes no device. The
# float64 re-evaluations and the exact optima (pandapower, HiGHS) also stay on the CPU.


def _solve_instance(method, opt, inst, inst_dev, inst64, i, bounds, budget, seed, config):
    """Minimise instance ``i`` with ``method`` ("flow" or a baseline name) at an equal evaluation budget.

    FlowOptimizer runs on ``config["device"]``; the baselines run on the CPU (they call f on tensors made
    from numpy). Returns the optimiser's result, its best x as a float64 tensor (1, 1, d), and instance
    ``i`` in float64 for re-evaluating it.
    """
    if method == "flow":
        res = opt.minimize(inst_dev.single(i), bounds, budget, seed * 1000 + i, config["population"])
    else:
        kw = {"population": config["population"]} if method == "adam" else {}
        res = BASELINES[method](inst.single(i), bounds, budget, seed * 1000 + i, **kw)
    x = torch.as_tensor(res.x, dtype=torch.float64)[None, None]
    return res, x, inst64.subset(torch.tensor([i]))


def _solve_task_instance(
    methods: list[str],
    models: dict[str, Any],
    cls: str,
    instances: Any,
    instances_dev: Any,
    i: int,
    bounds: list[tuple[float, float]],
    budget: int,
    seed: int,
    config: dict[str, Any],
) -> list[tuple[str, OptimizeResult, float]]:
    """Every method of a benchmark task on instance ``i``: ``(method, result, seconds per 1,000 evaluations)``."""
    f, f_dev = instances.single(i), instances_dev.single(i)
    out = []
    for method in methods:
        start = time.perf_counter()
        if method.startswith("flow"):
            model = models[cls if method == "flow" else cls + "_stage1"]
            res = model.minimize(f_dev, bounds, budget, seed * 1000 + i, config["population"])
        else:
            kw: dict[str, Any] = {"population": config["population"]} if method in ("adam", "de") else {}
            if method == "l2o":
                kw = {"population": config["population"], "model": models[cls + "_l2o"]}
            res = BASELINES[method](f, bounds, budget, seed * 1000 + i, **kw)
        out.append((method, res, (time.perf_counter() - start) / res.nfev * 1000))
    return out


def _median_ratio(
    num: np.ndarray, den: np.ndarray, rng: np.random.Generator, n_boot: int = 1000
) -> tuple[float, float]:
    """``median(num) / median(den)`` and its paired-bootstrap 95% half-width (over instances)."""
    est = float(np.median(num) / max(np.median(den), 1e-300))
    idx = rng.integers(0, len(num), size=(n_boot, len(num)))
    boots = np.median(num[idx], 1) / np.maximum(np.median(den[idx], 1), 1e-300)
    lo, hi = np.quantile(boots, [0.025, 0.975])
    return est, float((hi - lo) / 2)


def _history_on_grid(history: list[tuple[int, float]], grid: np.ndarray) -> np.ndarray:
    nfev = np.array([h[0] for h in history], dtype=float)
    best = np.array([h[1] for h in history], dtype=float)
    idx = np.searchsorted(nfev, grid, side="right") - 1
    return np.where(idx >= 0, best[np.clip(idx, 0, None)], np.nan)


# per-instance values behind a metric: key -> (values, the statistic the metric takes of them)
Samples = dict[str, tuple[np.ndarray, str]]


def _claim_intervals(claims: tuple[Claim, ...], samples: Samples, seed: int) -> dict[str, float]:
    """The 95% intervals the claims need, from the per-instance values in ``samples``.

    For every claim metric and baseline with per-instance values: its own interval (the median's
    order-statistic interval as ``<key>_ci_low``/``_ci_high``, the mean's Student-t half-width as
    ``<key>_ci``). For every comparison of a claim: the paired-bootstrap interval of ours / or - that
    baseline (same instances, same statistic) under ``comparison_key(...)``. Non-finite bounds (a
    median of 0 under a ratio, a single instance) are left out, so the contract falls back or says
    "no interval".
    """
    out: dict[str, float] = {}

    def put(key: str, low: float, high: float) -> None:
        if math.isfinite(low) and math.isfinite(high):
            out[key + "_ci_low"], out[key + "_ci_high"] = float(low), float(high)

    for claim in claims:
        for key in (claim.metric, *claim.relative_to):
            if key not in samples:
                continue
            values, stat = samples[key]
            if stat == "median":
                put(key, *median_ci95(values)[1:])
            elif math.isfinite(half := mean_ci95(values)[1]):
                out[key + "_ci"] = half
        for base in claim.relative_to:
            if claim.metric in samples and base in samples:
                (ours, stat), (theirs, stat_b) = samples[claim.metric], samples[base]
                assert stat == stat_b, (claim.name, stat, stat_b)
                with np.errstate(invalid="ignore"):  # an infinite ratio (median 0) is dropped below
                    low, high = paired_ci(ours, theirs, claim.form, stat, seed=seed)
                put(comparison_key(claim.metric, base, claim.form), low, high)
    return out


def _train_or_load(
    key: str,
    problem: ProblemClass | DCOPFClass | IKClass | SupplyChainClass,
    config: dict[str, Any],
    seed: int,
) -> tuple[FlowOptimizer, FlowOptimizer]:
    """The stage-2 model and its stage-1-only checkpoint (on ``config["device"]``): shipped weights or trained."""
    device = config["device"]
    if config["pretrained"]:
        return (
            FlowOptimizer.pretrained(key, device=device),
            FlowOptimizer.pretrained(key + "-stage1", device=device),
        )
    if key not in TRAIN_CONFIG:  # another dimension or case: the training settings of the shipped class
        if isinstance(problem, DCOPFClass):
            key = "dcopf-case118"
        elif isinstance(problem, SupplyChainClass):
            key = "supply_chain-20"
        else:
            key = f"{problem.name}-10"
    base = TRAIN_CONFIG[key]
    opt = FlowOptimizer(
        base["hidden"],
        config["population"],
        config["steps"],
        base["sampler"],
        base["n_candidates"],
        device=device,
    )
    opt.fit_stage1(problem, config["stage1_iterations"], seed, base["stage1_batch"], base["stage1_lr"])
    stage1 = FlowOptimizer(**opt.get_params(), device=device)
    stage1.model_ = type(opt.model_)(opt.hidden).to(device)
    stage1.model_.load_state_dict(opt.model_.state_dict())
    stage1.log_.stage1_seconds = opt.log_.stage1_seconds
    opt.fit_stage2(problem, config["stage2_iterations"], seed, base["stage2_batch"], base["stage2_lr"])
    return opt, stage1


def _l2o_model(name: str, config: dict[str, Any], seed: int) -> L2OOptimizer:
    """The L2O-DM baseline for class ``name`` at ``config["dim"]``: shipped weights or meta-trained here."""
    if config["pretrained"]:
        return L2OOptimizer.pretrained(f"l2o-{name}-{config['dim']}")
    base = L2O_TRAIN_CONFIG[f"l2o-{name}-10"]
    l2o = L2OOptimizer(
        base["hidden"], base["out_scale"], config["budget"] // config["population"], base["unroll"]
    )
    return l2o.fit(
        ProblemClass(name, config["dim"]),
        config["l2o_iterations"],
        seed,
        base["batch"],
        base["starts"],
        base["lr"],
    )


def _models(config: dict[str, Any], seed: int) -> tuple[dict[str, Any], dict[str, float], list[str]]:
    """The FlowOptimizer (and L2O-DM) models per class, their training seconds per stage, and notes."""
    d = config["dim"]
    models: dict[str, Any] = {}
    seconds, notes = {}, []
    use_l2o = "l2o" in config["baselines"].split(",") + config["baselines_zero_shot"].split(",")
    for name in ("rastrigin", "ackley"):
        models[name], models[name + "_stage1"] = unit(
            f"model_{name}",
            lambda name=name: _train_or_load(f"{name}-{d}", ProblemClass(name, d), config, seed),
        )
        seconds[f"train_stage1_seconds_{name}"] = models[name].log_.stage1_seconds
        seconds[f"train_stage2_seconds_{name}"] = models[name].log_.stage2_seconds
        if use_l2o:
            models[name + "_l2o"] = unit(f"l2o_{name}", lambda name=name: _l2o_model(name, config, seed))
            seconds[f"train_seconds_l2o_{name}"] = models[name + "_l2o"].log_["seconds"]
    if config["pretrained"]:
        notes.append(
            "models: shipped weights from python -m icml26.flow_optimizer.train (training times are theirs)"
        )
    return models, seconds, notes


def _dcopf(
    config: dict[str, Any], seed: int, samples: Samples
) -> tuple[dict[str, float], list[dict[str, Any]], str | None]:
    """DC-OPF: mean optimality gap (%) and max violation (p.u.) vs pandapower's exact optimum, per method.

    The per-instance gaps go to ``samples`` (statistic: mean).
    """
    try:
        import pandapower  # noqa: F401
    except ImportError:
        return {}, [], "pandapower is not installed (pip install pandapower)"
    problem = DCOPFClass(config["dcopf_case"])
    opt, _ = unit(
        "model_dcopf", lambda: _train_or_load(f"dcopf-{config['dcopf_case']}", problem, config, seed)
    )
    n = config["dcopf_instances"]
    inst = problem.sample(n, torch.Generator().manual_seed(20_000 + seed))
    # the same instances on the device for FlowOptimizer (drawn on the CPU generator, then moved)
    inst_dev = problem.sample(n, torch.Generator().manual_seed(20_000 + seed), device=config["device"])
    inst64 = problem.sample(n, torch.Generator().manual_seed(20_000 + seed), dtype=torch.float64)
    exact = unit(
        "dcopf_exact", lambda: [inst.exact(i)[0] for i in progress(range(n), "DC-OPF exact (pandapower)")]
    )
    metrics: dict[str, float] = {
        "train_stage1_seconds_dcopf": opt.log_.stage1_seconds,
        "train_stage2_seconds_dcopf": opt.log_.stage2_seconds,
    }
    rows = []

    def solve(method: str) -> tuple[list[float], list[float]]:
        gaps, viols = [], []
        for i in range(n):
            res, x, one = _solve_instance(
                method, opt, inst, inst_dev, inst64, i, problem.bounds, config["budget"], seed, config
            )
            gaps.append(100 * (float(one.cost(x)) - exact[i]) / exact[i])
            viols.append(float(one.violation(x)))
        return gaps, viols

    for method in ("flow", "cma", "adam"):
        gaps, viols = unit(f"dcopf_method={method}", lambda method=method: solve(method))
        suffix = "" if method == "flow" else f"_{method}"
        metrics[f"dcopf_gap_percent{suffix}"] = float(np.mean(gaps))
        samples[f"dcopf_gap_percent{suffix}"] = (np.array(gaps), "mean")
        metrics[f"dcopf_max_violation_pu{suffix}"] = float(np.max(viols))
        rows.append(
            {
                "case": config["dcopf_case"],
                "method": method,
                "budget": config["budget"],
                "mean_gap_percent": float(np.mean(gaps)),
                "max_gap_percent": float(np.max(gaps)),
                "max_violation_pu": float(np.max(viols)),
            }
        )
    return metrics, rows, None


_IK_ORIGINAL_INSTANCES = 10  # quick's instances per IK task until 2026-11-30 (claim ik_beats_adam10_n10)


def _ik(
    config: dict[str, Any], seed: int, samples: Samples
) -> tuple[dict[str, float], list[dict[str, Any]], list[Plot]]:
    """Planar IK: median final end-effector distance per method at ``ik_links`` (keys ``ik_<method>``)
    and zero-shot at 10x (``ik_zero_shot_<method>``); per-instance distances go to ``samples``.

    Also FlowOptimizer and Adam at ``ik_links`` on a draw of 10 instances (``ik_n10_<method>``): the
    quick profile's setting before it moved to 20 instances, kept for the original claim.
    """
    links = config["ik_links"]
    big = links * config["zero_shot_factor"]
    problem = IKClass(links)
    opt, _ = unit("model_ik", lambda: _train_or_load(f"ik-{links}", problem, config, seed))
    n, budget = config["n_instances"], config["budget"]
    metrics: dict[str, float] = {
        "train_stage1_seconds_ik": opt.log_.stage1_seconds,
        "train_stage2_seconds_ik": opt.log_.stage2_seconds,
    }
    rows: list[dict[str, Any]] = []
    plots: list[Plot] = []
    grid = np.linspace(config["population"], budget, 40)

    def solve(method: str, cls: IKClass, inst, inst_dev, inst64, count: int):
        """``method`` on the first ``count`` instances: final distances and best-distance curves on ``grid``."""
        distances, curves = [], []
        for i in range(count):
            res, x, one = _solve_instance(
                method, opt, inst, inst_dev, inst64, i, cls.bounds, budget, seed, config
            )
            distances.append(float(one.distance(x)))
            curves.append(np.sqrt(np.maximum(_history_on_grid(res.history, grid), 0.0)))
        return distances, curves

    for m in progress((links, big), "IK tasks"):
        cls = problem.with_dim(m)
        gen_seed = 30_000 + seed + m  # unseen by training
        inst = cls.sample(n, torch.Generator().manual_seed(gen_seed))
        inst_dev = cls.sample(n, torch.Generator().manual_seed(gen_seed), device=config["device"])
        inst64 = cls.sample(n, torch.Generator().manual_seed(gen_seed), dtype=torch.float64)
        task = f"ik{m}"
        tag = "ik" if m == links else "ik_zero_shot"
        per: dict[str, list[float]] = {}
        series = {}
        for method in ("flow", "cma", "adam"):
            distances, curves = unit(
                f"ik_links={m}_method={method}", partial(solve, method, cls, inst, inst_dev, inst64, n)
            )
            per.setdefault(method, []).extend(distances)
            c = np.stack(curves)
            seen = np.isfinite(c).all(0)
            series[method] = (grid[seen].tolist(), np.maximum(np.median(c[:, seen], 0), 1e-12).tolist())
            d = np.array(per[method])
            metrics[f"{tag}_{method}"] = float(np.median(d))
            samples[f"{tag}_{method}"] = (d, "median")
            rows.append(
                {
                    "task": task,
                    "links": m,
                    "budget": budget,
                    "method": method,
                    "median_distance": float(np.median(d)),
                    "q25": float(np.quantile(d, 0.25)),
                    "q75": float(np.quantile(d, 0.75)),
                }
            )
        plots.append(
            Plot(
                f"distance_{task}",
                f"IK {m} links: median end-effector distance vs evaluations (n={n})",
                series,
                "evaluations",
                "distance",
                logy=True,
                claim=_PLOT_CLAIMS[tag],
                lines=_rule_line(_PLOT_CLAIMS[tag], metrics),
            )
        )
    # the original setting: the same generator seed and optimiser seeds, 10 instances
    cls, gen_seed, n0 = problem.with_dim(links), 30_000 + seed + links, _IK_ORIGINAL_INSTANCES
    inst = cls.sample(n0, torch.Generator().manual_seed(gen_seed))
    inst_dev = cls.sample(n0, torch.Generator().manual_seed(gen_seed), device=config["device"])
    inst64 = cls.sample(n0, torch.Generator().manual_seed(gen_seed), dtype=torch.float64)
    for method in ("flow", "adam"):
        d, _ = unit(f"ik_n10_method={method}", partial(solve, method, cls, inst, inst_dev, inst64, n0))
        metrics[f"ik_n10_{method}"] = float(np.median(d))
        samples[f"ik_n10_{method}"] = (np.array(d), "median")
    return metrics, rows, plots


def _supply_chain(
    config: dict[str, Any], seed: int, samples: Samples
) -> tuple[dict[str, float], list[dict[str, Any]]]:
    """Supply chain: optimality gap (%) per method vs the exact MILP optimum on unseen networks; the
    per-instance gaps behind the mean go to ``samples``."""
    problem = SupplyChainClass(config["sc_suppliers"], config["sc_customers"])
    opt, _ = unit(
        "model_supply_chain", lambda: _train_or_load(f"supply_chain-{problem.dim}", problem, config, seed)
    )
    n, budget = config["n_instances"], config["sc_budget"]
    gen_seed = 40_000 + seed  # unseen by training
    inst = problem.sample(n, torch.Generator().manual_seed(gen_seed))
    inst_dev = problem.sample(n, torch.Generator().manual_seed(gen_seed), device=config["device"])
    inst64 = problem.sample(n, torch.Generator().manual_seed(gen_seed), dtype=torch.float64)
    exact = unit(
        "supply_chain_exact",
        lambda: [inst64.exact(i)[0] for i in progress(range(n), "supply chain exact (MILP)")],
    )
    metrics: dict[str, float] = {
        "train_stage1_seconds_supply_chain": opt.log_.stage1_seconds,
        "train_stage2_seconds_supply_chain": opt.log_.stage2_seconds,
    }
    rows: list[dict[str, Any]] = []
    gaps: dict[str, np.ndarray] = {}

    def solve(method: str) -> list[float]:
        per = []
        for i in range(n):
            _, x, one = _solve_instance(
                method, opt, inst, inst_dev, inst64, i, problem.bounds, budget, seed, config
            )
            per.append(max(100 * (float(one(x)) - exact[i]) / exact[i], 0.0))
        return per

    for method in ("flow", "cma", "adam"):
        gaps[method] = np.array(unit(f"supply_chain_method={method}", lambda method=method: solve(method)))
        metrics[f"sc_gap_percent_{method}"] = float(np.median(gaps[method]))
        metrics[f"sc_mean_gap_percent_{method}"] = float(np.mean(gaps[method]))
        samples[f"sc_mean_gap_percent_{method}"] = (gaps[method], "mean")
        rows.append(
            {
                "network": f"{problem.suppliers}x{problem.customers}",
                "method": method,
                "budget": budget,
                "median_gap_percent": float(np.median(gaps[method])),
                "mean_gap_percent": float(np.mean(gaps[method])),
                "max_gap_percent": float(np.max(gaps[method])),
                "n_at_optimum": int((gaps[method] <= 1e-6).sum()),
            }
        )
    return metrics, rows


def run(config: dict[str, Any], seed: int) -> Result:
    rng = seed_everything(seed)
    threads = torch.get_num_threads()
    torch.set_num_threads(config["threads"])  # one thread is faster than two on a busy 2-core machine
    try:
        return _run(config, seed, rng)
    finally:
        torch.set_num_threads(threads)


# the claim each plot illustrates, by the metric tag of its task
_PLOT_CLAIMS = {
    "rastrigin": "orders_rastrigin10",
    "ackley": "outperforms_ackley10",
    "ackley_small_budget": "orders_ackley10",
    "rastrigin_zero_shot": "zero_shot_outperforms_rastrigin100",
    "ackley_zero_shot": "orders_ackley100",
    "ik": "ik_outperforms10",
    "ik_zero_shot": "ik_zero_shot100",
}


def _rule_line(name: str, metrics: dict[str, float]) -> dict[str, float]:
    """Claim ``name``'s rule on its plot's scale: the value FlowOptimizer's final median must stay below,
    from the strongest (lowest) of the claim's baselines measured in this run; none if it is not positive
    (the plots are on a log scale)."""
    claim = next(c for c in CLAIMS if c.name == name)
    assert claim.op in ("<", "<=") and claim.relative_to, name  # upper bounds against baselines
    measured = {b: metrics[b] for b in claim.relative_to if b in metrics}
    if not measured:
        return {}
    best = min(measured, key=measured.__getitem__)
    value = measured[best] * claim.threshold if claim.form == "ratio" else measured[best] + claim.threshold
    scale = f"{claim.threshold:g} × " if claim.form == "ratio" and claim.threshold != 1 else "below "
    return {f"rule: {scale}{_display_name(best)}": value} if value > 0 else {}


def _run(config: dict[str, Any], seed: int, rng: np.random.Generator) -> Result:
    d, big, n = config["dim"], config["dim"] * config["zero_shot_factor"], config["n_instances"]
    budget, small = config["budget"], config["budget_small"]
    baselines = [b for b in config["baselines"].split(",") if b]
    big_baselines = [b for b in config["baselines_zero_shot"].split(",") if b]
    models, train_seconds, notes = _models(config, seed)
    if config["device"] != "cpu":  # CPU runs keep their notes unchanged
        notes.append(
            f"FlowOptimizer (training, models, rollouts) ran on {config['device']}; the baselines, float64 "
            "re-evaluations and exact optima on the CPU, so seconds per 1,000 evaluations compare devices"
        )

    # (task as shown, metric tag independent of the profile's d, class, dim, budget, FlowOptimizer
    # models, baselines): metrics are "<tag>_<method>", e.g. rastrigin_flow, ackley_zero_shot_cma
    tasks = [
        (f"rastrigin{d}", "rastrigin", "rastrigin", d, budget, ("rastrigin", "rastrigin_stage1"), baselines),
        (f"ackley{d}", "ackley", "ackley", d, budget, ("ackley",), baselines),
        (f"ackley{d}_b{small}", "ackley_small_budget", "ackley", d, small, ("ackley",), baselines),
        (f"rastrigin{big}", "rastrigin_zero_shot", "rastrigin", big, budget, ("rastrigin",), big_baselines),
        (f"ackley{big}", "ackley_zero_shot", "ackley", big, budget, ("ackley",), big_baselines),
    ]
    metrics: dict[str, float] = dict(train_seconds)
    samples: Samples = {}
    rows, plots = [], []
    finals: dict[str, dict[str, np.ndarray]] = {}
    seconds: dict[str, list[float]] = {}
    for task, tag, cls, dim, task_budget, flows, task_baselines in progress(tasks, "tasks"):
        problem = ProblemClass(cls, dim)
        instances = problem.sample(
            n, torch.Generator().manual_seed(10_000 + seed + dim)
        )  # unseen by training
        instances_dev = problem.sample(
            n, torch.Generator().manual_seed(10_000 + seed + dim), device=config["device"]
        )  # the same draws, moved to the device for FlowOptimizer
        bounds = [problem.bounds] * dim
        grid = np.linspace(config["population"], task_budget, 40)
        results: dict[str, list[OptimizeResult]] = {}
        methods = [("flow" if m == cls else "flow_stage1") for m in flows] + list(task_baselines)
        for i in range(n):
            solved = unit(
                f"task={task}_instance={i}",
                partial(
                    _solve_task_instance,
                    *(methods, models, cls, instances, instances_dev, i, bounds, task_budget, seed, config),
                ),
            )
            for method, res, per_1000 in solved:
                seconds.setdefault(method, []).append(per_1000)
                results.setdefault(method, []).append(res)
        finals[task] = {m: np.array([r.fun for r in rs]) for m, rs in results.items()}
        series = {}
        for m, rs in results.items():
            curves = np.stack([_history_on_grid(r.history, grid) for r in rs])
            seen = np.isfinite(curves).all(
                0
            )  # grid points every run has reached (a first batch may be larger)
            med = np.median(curves[:, seen], 0)
            series[m] = (grid[seen].tolist(), np.maximum(med, 1e-12).tolist())
            metrics[f"{tag}_{m}"] = float(np.median(finals[task][m]))
            samples[f"{tag}_{m}"] = (finals[task][m], "median")
            rows.append(
                {
                    "task": task,
                    "budget": task_budget,
                    "method": m,
                    "median_best_f": metrics[f"{tag}_{m}"],
                    "q25": float(np.quantile(finals[task][m], 0.25)),
                    "q75": float(np.quantile(finals[task][m], 0.75)),
                }
            )
        plots.append(
            Plot(
                f"best_f_{task}",
                f"{task}: median best f vs evaluations (n={n})",
                series,
                "evaluations",
                "best f",
                logy=True,
                claim=_PLOT_CLAIMS[tag],
                lines=_rule_line(_PLOT_CLAIMS[tag], metrics),
            )
        )

    # FlowOptimizer / L2O-DM median ratios, shown in the docs (no claim uses them; the claims'
    # comparisons are computed by the contract from the medians and _claim_intervals)
    for task, tag, *_ in tasks:
        if tag != "ackley_small_budget" and {"flow", "l2o"} <= set(finals[task]):
            key = f"flow_over_l2o_{tag}"
            metrics[key], metrics[key + "_ci"] = _median_ratio(finals[task]["flow"], finals[task]["l2o"], rng)
    for m, per in seconds.items():
        metrics[f"seconds_per_1000_evals_{m}"] = float(np.median(per))
    if "cma" in seconds:
        metrics["time_ratio_flow_over_cma"] = float(np.median(seconds["flow"]) / np.median(seconds["cma"]))
    notes.append(
        f"{n} unseen instances per task (shifts U[-2,2]^d), population {config['population']}, "
        f"budgets {budget} and {small}; zero-shot tasks run the d={d} models at d={big}"
    )
    notes.append(
        "gradient evaluations are not charged to gradient-free baselines (FlowOptimizer, Adam and L2O-DM "
        "use one f and one grad per evaluation)"
    )
    if any(m.endswith("_l2o") for m in models):
        notes.append(
            "l2o: L2O-DM coordinatewise LSTM (Andrychowicz et al. 2016) meta-trained on the same class at "
            f"d={d} for about FlowOptimizer's stage 1 + stage 2 wall time, run as a multistart of "
            f"{config['population']} starts; zero-shot tasks run the d={d} LSTM"
        )
    opf_metrics, opf_rows, opf_blocked = _dcopf(config, seed, samples)
    metrics.update(opf_metrics)
    ik_metrics, ik_rows, ik_plots = _ik(config, seed, samples)
    metrics.update(ik_metrics)
    plots.extend(ik_plots)
    notes.append(
        f"IK: {n} unseen instances per task, links {config['ik_links']} (trained) and "
        f"{config['ik_links'] * config['zero_shot_factor']} (zero-shot), joint limits +-pi/2 as box bounds, "
        f"budget {budget}; the table 'ik' reports the final end-effector distance (reach 1), re-evaluated in float64; "
        f"ik_n10_* repeat FlowOptimizer and Adam at {config['ik_links']} links on a draw of "
        f"{_IK_ORIGINAL_INSTANCES} instances (quick's setting until 2026-11-30)"
    )
    sc_metrics, sc_rows = _supply_chain(config, seed, samples)
    metrics.update(sc_metrics)
    metrics.update(_claim_intervals(CLAIMS, samples, seed))
    notes.append(
        f"supply chain: {n} unseen networks of {config['sc_suppliers']} suppliers x {config['sc_customers']} "
        f"customers (concave costs, exact optimum by piecewise-linear MILP in highspy with breakpoint "
        f"refinement), budget {config['sc_budget']}; gaps re-evaluated in float64 (table 'supply_chain')"
    )
    dcopf_claims = ("dcopf_gap", "dcopf_violation", "dcopf_outperforms")
    blocked = {} if opf_blocked is None else dict.fromkeys(dcopf_claims, opf_blocked)
    return Result(
        metrics=metrics,
        tables={"median_best_f": rows, "dcopf": opf_rows, "ik": ik_rows, "supply_chain": sc_rows},
        plots=plots,
        blocked=blocked,
        notes=notes,
    )


# Cost model (Experiment.cost), calibrated on the quick run of 2026-11-30 (657 s on the shared 2-core
# machine, docs "Measured (quick profile)") and its medians of seconds per 1,000 evaluations at d = 10
# (docs "Speed"); the growth with d from one timed run per method at d = 10 and d = 100 (2026-12-01).
# method -> (seconds per 1,000 evaluations at d = 10, exponent of d / 10)
_RATES = {
    "flow": (0.041, 0.5),
    "flow_stage1": (0.041, 0.5),
    "cma": (0.20, 0.75),
    "cma_ipop": (0.17, 0.75),
    "adam": (0.013, 0.25),
    "de": (0.016, 0.25),
    "ngopt": (1.53, 0.0),
    "l2o": (0.041, 0.5),
}
_DCOPF_DIMS = {"case9": 2, "case30": 5, "case118": 53}  # DCOPFClass(case).dim: the non-slack units
_OVERHEAD_S = 5.0  # imports, pandapower's case, shipped weights


def _run_seconds(method: str, dim: int, budget: int) -> float:
    rate, exponent = _RATES[method]
    return budget / 1000 * rate * max(dim / 10, 0.1) ** exponent


def _train_seconds(config: dict[str, Any], dim: int) -> float:
    """Training one class here (``pretrained=false``): per-iteration seconds of the shipped training
    (stage 1 about 0.12 s, stage 2 about 1.8 s at population 64, K = 50, d = 10; docs, training times)."""
    size = config["population"] / 64 * max(dim / 10, 0.1) ** 0.5
    stage1 = config["stage1_iterations"] * max(0.12 * size, 0.01)
    stage2 = config["stage2_iterations"] * max(1.8 * size * config["steps"] / 50, 0.01)
    return stage1 + stage2


def cost(config: dict[str, Any]) -> tuple[float, float]:
    """A rough estimate ``(seconds, bytes)`` of one runner seed on 2 shared CPU cores.

    Seconds: every run of every method at its budget (per-evaluation rates by method and d), the exact
    optima (pandapower, HiGHS), the training when ``pretrained`` is false, and a fixed overhead. Bytes:
    the process (torch, pandapower, nevergrad; a smoke run peaks at 0.5 GB) plus FlowOptimizer's activations at the largest d
    (population x d tokens of width 64), with the backpropagation through all K steps in stage 2 when
    it trains here.
    """
    d, n, pop = config["dim"], config["n_instances"], config["population"]
    big = d * config["zero_shot_factor"]
    budget, small = config["budget"], config["budget_small"]
    baselines = [b for b in config["baselines"].split(",") if b]
    big_baselines = [b for b in config["baselines_zero_shot"].split(",") if b]
    seconds = _OVERHEAD_S
    for dim, task_budget, methods in (
        (d, budget, ["flow", "flow_stage1", *baselines]),  # Rastrigin-d
        (d, budget, ["flow", *baselines]),  # Ackley-d
        (d, small, ["flow", *baselines]),  # Ackley-d at the small budget
        (big, budget, ["flow", *big_baselines]),  # zero-shot Rastrigin
        (big, budget, ["flow", *big_baselines]),  # zero-shot Ackley
    ):
        seconds += n * sum(_run_seconds(m, dim, task_budget) for m in methods)
    opf_dim = _DCOPF_DIMS[config["dcopf_case"]]
    seconds += config["dcopf_instances"] * (
        0.1 + sum(_run_seconds(m, opf_dim, budget) for m in ("flow", "cma", "adam"))
    )
    links, big_links = config["ik_links"], config["ik_links"] * config["zero_shot_factor"]
    for m_links, count, methods in (
        (links, n, ("flow", "cma", "adam")),
        (big_links, n, ("flow", "cma", "adam")),
        (links, _IK_ORIGINAL_INSTANCES, ("flow", "adam")),
    ):
        seconds += count * sum(_run_seconds(m, m_links, budget) for m in methods)
    sc_dim = config["sc_suppliers"] * config["sc_customers"]
    seconds += n * (
        0.3 * max(sc_dim / 20, 1.0) ** 2
        + sum(_run_seconds(m, sc_dim, config["sc_budget"]) for m in ("flow", "cma", "adam"))
    )
    memory = 0.75 * 2**30 + 4 * pop * max(big, big_links, opf_dim, sc_dim) * 64 * 16
    if not config["pretrained"]:
        dims = (d, d, opf_dim, links, sc_dim)
        seconds += sum(_train_seconds(config, dim) for dim in dims)
        use_l2o = "l2o" in baselines + big_baselines
        seconds += 2 * use_l2o * config["l2o_iterations"] * 0.8 * (budget // pop) / 50
        memory += 4 * 8 * pop * max(dims) * 64 * 16 * config["steps"]
    return seconds, float(memory)


def check(config: dict[str, Any]) -> None:
    """Reject out-of-range configs before running."""
    check_device(config["device"])
    if config["dcopf_case"] not in CASES:
        raise ValueError(
            f"config 'dcopf_case' must be one of {', '.join(CASES)}, got {config['dcopf_case']!r}"
        )
    if config["pretrained"] and config["dcopf_case"] != "case118":
        raise ValueError("pretrained DC-OPF weights exist for case118 only; set pretrained=false to train")
    for key in (
        "dim",
        "n_instances",
        "dcopf_instances",
        "budget",
        "budget_small",
        "population",
        "steps",
        "threads",
        "ik_links",
        "sc_suppliers",
        "sc_customers",
        "sc_budget",
    ):
        if not isinstance(config[key], int) or config[key] < 1:
            raise ValueError(f"config {key!r} must be a positive integer, got {config[key]!r}")
    if not isinstance(config["l2o_iterations"], int) or config["l2o_iterations"] < 0:
        raise ValueError(f"config 'l2o_iterations' must be an integer >= 0, got {config['l2o_iterations']!r}")
    if config["dim"] < 2:
        raise ValueError(f"config 'dim' must be >= 2, got {config['dim']}")
    if min(config["budget"], config["budget_small"]) < config["population"]:
        raise ValueError("config budgets must be at least the population size")
    if config["pretrained"] and config["ik_links"] != 10:
        raise ValueError("pretrained IK weights exist for ik_links=10 only; set pretrained=false to train")
    if config["sc_budget"] < config["population"]:
        raise ValueError("config 'sc_budget' must be at least the population size")
    if config["pretrained"] and (config["sc_suppliers"], config["sc_customers"]) != (4, 5):
        raise ValueError(
            "pretrained supply-chain weights exist for 4 suppliers x 5 customers only; set pretrained=false"
        )
    if config["pretrained"] and config["dim"] != 10:
        raise ValueError(
            "pretrained weights exist for dim=10 only; set pretrained=false to train at another dim"
        )
    for key in ("baselines", "baselines_zero_shot"):
        unknown = [b for b in config[key].split(",") if b and b not in BASELINES]
        if unknown:
            raise ValueError(f"config {key!r}: unknown baselines {unknown}; accepted: {', '.join(BASELINES)}")
        if "cma" not in config[key].split(",") or "adam" not in config[key].split(","):
            raise ValueError(
                f"config {key!r} must include 'cma' and 'adam' (the claims compare against them)"
            )


_COMMON = {
    "dcopf_case": "case118",
    "ik_links": 10,
    "sc_suppliers": 4,
    "sc_customers": 5,
    "sc_budget": 1280,
    "zero_shot_factor": 10,
    "budget": 3200,
    "budget_small": 1280,
    "population": 64,
    "steps": 50,
    "threads": 1,
    "device": "cpu",  # where FlowOptimizer runs (--set device=cuda); baselines stay on the CPU
}
_PROXY = "laptop proxy: CPU-trained shipped weights (the paper profile reuses them), 20 shifted instances"
_PROXY_IK = "laptop proxy: our planar n-link IK reconstruction, shipped ik-10 weights, 20 unseen instances"
_PROXY_SC = "laptop proxy: our 4x5 concave-cost network with an exact MILP optimum, 20 unseen networks"
_PROXY_OPF = "laptop proxy: our DC-OPF reconstruction on pandapower case118, 20 load draws"
_OUTPERFORMS = (
    "consistently outperforms well-established sampling-based/gradient-based traditional optimization"
    " and learning-to-optimize methods"
)
_GENERALIZE = "trained on low-dimensional problems, successfully generalizes to x10 higher-dimensional ones"
_ALL_D = ("cma", "cma_ipop", "adam", "de", "ngopt", "l2o")  # the baselines quick runs at the trained d
_ALL_ZERO_SHOT = ("cma", "adam", "ngopt", "l2o")  # ... and zero-shot (paper adds cma_ipop and de)
CLAIMS = (
    Claim(
        "stage2_gain",
        "stage 2 lowers the median final best f on Rastrigin-{dim} by >= 30% vs stage 1 alone",
        ">= 30% lower (our acceptance target A1; the paper gives no number)",
        "rastrigin_flow",
        "<=",
        0.7,
        kind="check",
        scale_note=_PROXY,
        relative_to=("rastrigin_flow_stage1",),
        form="ratio",
    ),
    Claim(
        "beats_adam_rastrigin10",
        "at {budget} evaluations beats Adam multistart on Rastrigin-{dim} (median final best f)",
        "better than Adam (our minimum bar A2)",
        "rastrigin_flow",
        "<",
        1.0,
        kind="check",
        scale_note=_PROXY,
        relative_to=("rastrigin_adam",),
        form="ratio",
        context=("rastrigin_l2o", "rastrigin_ngopt"),
    ),
    Claim(
        "outperforms_rastrigin10",
        "at {budget} evaluations the median final best f on Rastrigin-{dim} is below every baseline's"
        " (CMA-ES, IPOP-CMA-ES, Adam, DE, NGOpt, L2O-DM)",
        _OUTPERFORMS,
        "rastrigin_flow",
        "<",
        0.0,
        kind="paper",
        scale_note=_PROXY,
        relative_to=tuple(f"rastrigin_{b}" for b in _ALL_D),
        form="difference",
    ),
    Claim(
        "beats_adam_ackley10",
        "at {budget} evaluations beats Adam multistart on Ackley-{dim} (median final best f)",
        "better than Adam (our minimum bar A2)",
        "ackley_flow",
        "<",
        1.0,
        kind="check",
        scale_note=_PROXY,
        relative_to=("ackley_adam",),
        form="ratio",
        context=("ackley_l2o", "ackley_ngopt"),
    ),
    Claim(
        "outperforms_ackley10",
        "at {budget} evaluations the median final best f on Ackley-{dim} is below every baseline's"
        " (CMA-ES, IPOP-CMA-ES, Adam, DE, NGOpt, L2O-DM)",
        _OUTPERFORMS,
        "ackley_flow",
        "<",
        0.0,
        kind="paper",
        scale_note=_PROXY,
        relative_to=tuple(f"ackley_{b}" for b in _ALL_D),
        form="difference",
    ),
    Claim(
        "zero_shot_rastrigin100",
        "trained at d={dim}, beats Adam and CMA-ES zero-shot on Rastrigin at {zero_shot_factor}x that d"
        " (median final best f)",
        "better than both (our minimum bar A2)",
        "rastrigin_zero_shot_flow",
        "<",
        1.0,
        kind="check",
        scale_note=_PROXY,
        relative_to=("rastrigin_zero_shot_adam", "rastrigin_zero_shot_cma"),
        form="ratio",
        context=("rastrigin_zero_shot_l2o", "rastrigin_zero_shot_ngopt"),
    ),
    Claim(
        "zero_shot_outperforms_rastrigin100",
        "trained at d={dim}, zero-shot on Rastrigin at {zero_shot_factor}x that d the median final best f"
        " is below every baseline's"
        " run there in quick (CMA-ES, Adam, NGOpt, L2O-DM)",
        f"{_GENERALIZE}; {_OUTPERFORMS}",
        "rastrigin_zero_shot_flow",
        "<",
        0.0,
        kind="paper",
        scale_note=_PROXY,
        relative_to=tuple(f"rastrigin_zero_shot_{b}" for b in _ALL_ZERO_SHOT),
        form="difference",
        context=("rastrigin_zero_shot_cma_ipop", "rastrigin_zero_shot_de"),
    ),
    Claim(
        "zero_shot_ackley100",
        "trained at d={dim}, beats Adam and CMA-ES zero-shot on Ackley at {zero_shot_factor}x that d"
        " (median final best f)",
        "better than both (our minimum bar A2)",
        "ackley_zero_shot_flow",
        "<",
        1.0,
        kind="check",
        scale_note=_PROXY,
        relative_to=("ackley_zero_shot_adam", "ackley_zero_shot_cma"),
        form="ratio",
        context=("ackley_zero_shot_l2o", "ackley_zero_shot_ngopt"),
    ),
    Claim(
        "zero_shot_outperforms_ackley100",
        "trained at d={dim}, zero-shot on Ackley at {zero_shot_factor}x that d the median final best f"
        " is below every baseline's"
        " run there in quick (CMA-ES, Adam, NGOpt, L2O-DM)",
        f"{_GENERALIZE}; {_OUTPERFORMS}",
        "ackley_zero_shot_flow",
        "<",
        0.0,
        kind="paper",
        scale_note=_PROXY,
        relative_to=tuple(f"ackley_zero_shot_{b}" for b in _ALL_ZERO_SHOT),
        form="difference",
        context=("ackley_zero_shot_cma_ipop", "ackley_zero_shot_de"),
    ),
    Claim(
        "orders_rastrigin10",
        "headline: median final best f >= 10x below CMA-ES and IPOP-CMA-ES on Rastrigin-{dim} at {budget}"
        " evaluations",
        "often by orders of magnitude",
        "rastrigin_flow",
        "<=",
        0.1,
        kind="paper",
        scale_note=_PROXY,
        relative_to=("rastrigin_cma", "rastrigin_cma_ipop"),
        form="ratio",
        context=("rastrigin_l2o", "rastrigin_ngopt"),
    ),
    Claim(
        "orders_ackley10",
        "headline: median final best f >= 10x below CMA-ES and IPOP-CMA-ES on Ackley-{dim} at {budget_small}"
        " evaluations",
        "often by orders of magnitude",
        "ackley_small_budget_flow",
        "<=",
        0.1,
        kind="paper",
        scale_note=_PROXY,
        relative_to=("ackley_small_budget_cma", "ackley_small_budget_cma_ipop"),
        form="ratio",
        context=("ackley_small_budget_l2o", "ackley_small_budget_ngopt"),
    ),
    Claim(
        "orders_ackley100",
        "headline: trained at d={dim}, median final best f >= 10x below CMA-ES zero-shot on Ackley at"
        " {zero_shot_factor}x that d, {budget} evaluations (IPOP-CMA-ES runs there in the paper profile only)",
        "often by orders of magnitude",
        "ackley_zero_shot_flow",
        "<=",
        0.1,
        kind="paper",
        scale_note=_PROXY,
        relative_to=("ackley_zero_shot_cma",),
        form="ratio",
        context=("ackley_zero_shot_cma_ipop", "ackley_zero_shot_l2o", "ackley_zero_shot_ngopt"),
    ),
    Claim(
        "dcopf_gap",
        "DC-OPF ({dcopf_case}): mean optimality gap vs the exact optimum <= 0.5% at {budget} evaluations",
        "<= 0.5% (our target A4; the paper gives no number)",
        "dcopf_gap_percent",
        "<=",
        0.5,
        kind="check",
        scale_note=_PROXY_OPF,
        unit="%",
        controls=("dcopf_gap_percent_cma", "dcopf_gap_percent_adam"),
    ),
    Claim(
        "dcopf_violation",
        "DC-OPF ({dcopf_case}): max constraint violation (slack limits, line flows) over the instances"
        " <= 1e-3 p.u.",
        "<= 1e-3 p.u. (our target A4; the paper gives no number)",
        "dcopf_max_violation_pu",
        "<=",
        1e-3,
        kind="check",
        scale_note=_PROXY_OPF + "; a maximum over instances, so no interval",
        unit="p.u.",
        controls=("dcopf_max_violation_pu_cma", "dcopf_max_violation_pu_adam"),
    ),
    Claim(
        "dcopf_outperforms",
        "DC-OPF ({dcopf_case}) at {budget} evaluations: mean optimality gap below CMA-ES's and Adam's"
        " (difference in percentage points)",
        _OUTPERFORMS,
        "dcopf_gap_percent",
        "<",
        0.0,
        kind="paper",
        scale_note=_PROXY_OPF,
        relative_to=("dcopf_gap_percent_cma", "dcopf_gap_percent_adam"),
        form="difference",
        unit="pp",
        context=("dcopf_max_violation_pu", "dcopf_max_violation_pu_cma", "dcopf_max_violation_pu_adam"),
    ),
    Claim(
        "ik_beats_adam10",
        "planar IK at {ik_links} links ({budget} evaluations): beats Adam multistart (median final"
        " end-effector distance)",
        "better than Adam (our minimum bar)",
        "ik_flow",
        "<",
        1.0,
        kind="check",
        scale_note=_PROXY_IK,
        relative_to=("ik_adam",),
        form="ratio",
        revised=(
            "2026-11-30: quick profile on 10 instances per task, verdict then inconclusive (ratio 0.517,"
            " half-width 0.738); quick moved to the acceptance's 20 instances (the paper profile always had 20)"
            " with every other task; the original setting is claim ik_beats_adam10_n10"
        ),
        context=("ik_cma",),
    ),
    Claim(
        "ik_beats_adam10_n10",
        "original setting of ik_beats_adam10 (quick until 2026-11-30): planar IK at {ik_links} links on a draw of"
        " 10 instances beats Adam multistart (median final end-effector distance)",
        "better than Adam (our minimum bar)",
        "ik_n10_flow",
        "<",
        1.0,
        kind="check",
        scale_note="laptop proxy: our planar n-link IK reconstruction, shipped ik-10 weights, 10 unseen instances",
        relative_to=("ik_n10_adam",),
        form="ratio",
    ),
    Claim(
        "ik_outperforms10",
        "planar IK at {ik_links} links ({budget} evaluations): median final end-effector distance below"
        " CMA-ES's and Adam's",
        _OUTPERFORMS,
        "ik_flow",
        "<",
        1.0,
        kind="paper",
        scale_note=_PROXY_IK,
        relative_to=("ik_cma", "ik_adam"),
        form="ratio",
    ),
    Claim(
        "ik_zero_shot100",
        "planar IK: trained at {ik_links} links, beats Adam and CMA-ES zero-shot at {zero_shot_factor}x the"
        " links (median final distance)",
        f"{_GENERALIZE}; {_OUTPERFORMS}",
        "ik_zero_shot_flow",
        "<",
        1.0,
        kind="paper",
        scale_note=_PROXY_IK,
        relative_to=("ik_zero_shot_adam", "ik_zero_shot_cma"),
        form="ratio",
    ),
    Claim(
        "sc_gap_vs_cma",
        "supply chain {sc_suppliers}x{sc_customers}, concave costs ({sc_budget} evaluations): mean optimality"
        " gap vs the exact MILP "
        "optimum of FlowOptimizer <= CMA-ES's",
        "<= CMA-ES (ours; the paper reports no number)",
        "sc_mean_gap_percent_flow",
        "<=",
        1.0,
        kind="check",
        scale_note=_PROXY_SC,
        relative_to=("sc_mean_gap_percent_cma",),
        form="ratio",
        context=("sc_mean_gap_percent_adam",),
    ),
    Claim(
        "sc_outperforms",
        "supply chain {sc_suppliers}x{sc_customers}, concave costs ({sc_budget} evaluations): mean optimality"
        " gap vs the exact MILP optimum"
        " below CMA-ES's and Adam's",
        _OUTPERFORMS,
        "sc_mean_gap_percent_flow",
        "<",
        1.0,
        kind="paper",
        scale_note=_PROXY_SC,
        relative_to=("sc_mean_gap_percent_cma", "sc_mean_gap_percent_adam"),
        form="ratio",
    ),
)
_METHOD_NAMES = {
    "flow": "FlowOptimizer",
    "flow_stage1": "FlowOptimizer, stage 1 only",
    "cma": "CMA-ES",
    "cma_ipop": "IPOP-CMA-ES",
    "adam": "Adam multistart",
    "de": "differential evolution",
    "ngopt": "NGOpt",
    "l2o": "L2O-DM",
}


def _display_name(key: str) -> str:
    """The report's name of a baseline, control or context metric, e.g. ``rastrigin_cma_ipop`` -> IPOP-CMA-ES."""
    if key.startswith("dcopf_max_violation_pu"):
        method = key.removeprefix("dcopf_max_violation_pu").lstrip("_") or "flow"
        return f"{_METHOD_NAMES[method]} max violation"
    for method in sorted(_METHOD_NAMES, key=len, reverse=True):  # cma_ipop before cma
        if key.endswith("_" + method):
            return _METHOD_NAMES[method]
    raise KeyError(f"no display name for metric {key!r}")


NAMES = {k: _display_name(k) for c in CLAIMS for k in (*c.relative_to, *c.controls, *c.context)}

EXPERIMENT = Experiment(
    method="flow_optimizer",
    title="FlowOptimizer: Learning-to-Optimize via Deep Unfolded Flows",
    paper=(
        "FlowOptimizer: Learning-to-Optimize via Deep Unfolded Flows, Saravanos, So, Ahmad, Fan, ICML 2026 "
        "(OpenReview ZOtOq7hxJP)"
    ),
    run=run,
    profiles={
        "smoke": {
            **_COMMON,
            "dim": 3,
            "ik_links": 3,
            "sc_suppliers": 2,
            "sc_customers": 2,
            "sc_budget": 32,
            "n_instances": 2,
            "budget": 64,
            "budget_small": 32,
            "population": 8,
            "steps": 8,
            "pretrained": False,
            "stage1_iterations": 3,
            "dcopf_case": "case9",
            "dcopf_instances": 1,
            "stage2_iterations": 1,
            "l2o_iterations": 2,
            "baselines": "cma,cma_ipop,adam,de,l2o",
            "baselines_zero_shot": "cma,adam,l2o",
        },
        "quick": {
            **_COMMON,
            "dim": 10,
            "n_instances": 20,  # the acceptance's 20 unseen instances per task
            "dcopf_instances": 20,
            "pretrained": True,
            "stage1_iterations": 0,
            "stage2_iterations": 0,
            "l2o_iterations": 0,
            "baselines": "cma,cma_ipop,adam,de,l2o,ngopt",
            "baselines_zero_shot": "cma,adam,l2o,ngopt",
        },
        "paper": {
            **_COMMON,
            "dim": 10,
            "n_instances": 20,
            "dcopf_instances": 20,
            "pretrained": True,
            "stage1_iterations": 0,
            "stage2_iterations": 0,
            "l2o_iterations": 0,
            "baselines": "cma,cma_ipop,adam,de,l2o,ngopt",
            "baselines_zero_shot": "cma,cma_ipop,adam,de,l2o,ngopt",
        },
    },
    claims=CLAIMS,
    description=__doc__ or "",
    check=check,
    cost=cost,
    names=NAMES,
)
