"""FlowOptimizer's headline experiment: learned population optimizer vs classical methods, equal budgets.

Steps (the issue's experiment, scaled to a shared CPU):
1. Get FlowOptimizer models: the shipped weights (``pretrained``) or both stages trained here. Rastrigin-d
   and Ackley-d on the wide prior (optimum s ~ U[-0.8h, 0.8h]^d), with gradient-free twins
   (``flow_gf``: no gradient, every evaluation charged) and the narrow-prior controls (``flow_narrow``);
   the stage-1-only Rastrigin checkpoint and the stage-2 study's checkpoint (``flow_long``).
2. Draw unseen test instances of the wide class at d and at 10 d.
3. On every instance run FlowOptimizer and the baselines (CMA-ES and IPOP-CMA-ES from a random start and
   from FlowOptimizer's start information, ``*_centre``; Adam multistart; scipy DE; NGOpt, both starts,
   in ``paper``; the L2O-DM coordinatewise LSTM meta-trained on the same class) at the same evaluation
   budget; record the best f, its history and the wall time. The generalisation table: the optimum at a
   fixed offset (``gen_fractions`` of the half-width, and the edge) against the centred-start baselines.
   DC-OPF (pandapower case30 at loads x U[1.1, 1.3], where line limits bind): penalised-objective gap,
   cost gap and violation against the exact optimum of ``pandapower.rundcopp``. Planar n-link IK:
   trained at ``ik_links`` links, run there and zero-shot at 10x the links; final end-effector distances
   re-evaluated in float64. Supply chain (suppliers -> customers, concave costs): optimality gap (%) on
   unseen networks against the exact optimum of the piecewise-linear MILP (``highspy``).
4. Report medians (means for the gaps) per task and method under profile-independent keys
   (``rastrigin_flow`` is Rastrigin at the trained d, ``ackley_zero_shot_cma_centre`` CMA-ES from the
   centre on Ackley at 10 d, ``gen_rastrigin_s80_flow_narrow`` the narrow-prior control with the optimum
   at 0.8 h), the 95% intervals the claims need (verdict contract v2: each claim metric's own interval
   and a paired-bootstrap interval of each comparison, from the per-instance values), time per 1,000
   evaluations versus CMA-ES, and training time per stage. The comparisons themselves (ours / or - the
   strongest baseline) are computed by the contract.
"""

from __future__ import annotations

import math
import time
from dataclasses import replace
from functools import partial
from typing import Any

import numpy as np
import torch

from icml26.common import (
    Claim,
    Experiment,
    Plot,
    Resources,
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
from icml26.common.stats import ratio_of_means_ci
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


def _solve_instance(method, flows, inst, inst_dev, inst64, i, bounds, budget, seed, config):
    """Minimise instance ``i`` with ``method`` (a key of ``flows``, the FlowOptimizer models such as
    ``"flow"`` and ``"flow_gf"``, or a baseline name) at an equal evaluation budget.

    FlowOptimizer runs on ``config["device"]``; the baselines run on the CPU (they call f on tensors made
    from numpy). Returns the optimiser's result, its best x as a float64 tensor (1, 1, d), and instance
    ``i`` in float64 for re-evaluating it.
    """
    if method in flows:
        res = flows[method].minimize(
            inst_dev.single(i), bounds, budget, seed * 1000 + i, config["population"]
        )
    else:
        kw = {"population": config["population"]} if method in ("adam", "de") else {}
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
            model = models[cls + method.removeprefix("flow")]  # flow -> rastrigin, flow_gf -> rastrigin_gf
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
    ``<key>_ci``). For every comparison of a claim: :func:`paired_interval` of ours / or - that
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
                low, high = paired_interval(ours, theirs, claim.form, stat, seed)
                put(comparison_key(claim.metric, base, claim.form), low, high)
    return out


def paired_interval(
    ours: np.ndarray, theirs: np.ndarray, form: str, statistic: str, seed: int = 0
) -> tuple[float, float]:
    """95% interval of ``stat(ours)`` / or - ``stat(theirs)`` over paired instances, honest for a handful.

    The wider (union) of ``common.paired_ci``'s paired percentile bootstrap, which runs narrow below about
    ten pairs, and a small-sample interval: for a difference of means the paired Student-t interval (which
    ``paired_ci`` already is); for a ratio of means the delta method with a t quantile,
    ``r +- t_{n-1} sd(a_i - r b_i) / (sqrt(n) mean(b))``; for a median the distribution-free
    order-statistic interval (``common.median_ci95``) of the per-pair differences or ratios (ratios only
    when every ``theirs`` is positive). ``(nan, nan)`` for fewer than two pairs.
    """
    a, b = np.asarray(ours, dtype=float).ravel(), np.asarray(theirs, dtype=float).ravel()
    with np.errstate(invalid="ignore", divide="ignore"):  # an infinite ratio (median 0) is dropped later
        low, high = paired_ci(a, b, form, statistic, seed=seed)
    if a.size < 2:
        return low, high
    small: tuple[float, float] | None = None
    if statistic == "mean" and form == "ratio" and b.mean() > 0:
        small = ratio_of_means_ci(a, b, nonnegative=bool(np.all(a >= 0)))
    elif statistic == "median" and form == "difference":
        small = median_ci95(a - b)[1:]
    elif statistic == "median" and form == "ratio" and np.all(b > 0):
        small = median_ci95(a / b)[1:]
    if small is None:
        return low, high
    return float(min(low, small[0])), float(max(high, small[1]))


def _train_or_load(
    key: str,
    problem: ProblemClass | DCOPFClass | IKClass | SupplyChainClass,
    config: dict[str, Any],
    seed: int,
    use_gradients: bool = True,
    stage2_factor: int = 1,
) -> tuple[FlowOptimizer, FlowOptimizer]:
    """The stage-2 model and its stage-1-only checkpoint (on ``config["device"]``): shipped weights
    ``key`` / ``key-stage1`` or trained here (``use_gradients`` as given, ``stage2_factor`` times the
    profile's stage-2 iterations)."""
    device = config["device"]
    if config["pretrained"]:
        stage1 = key.removesuffix("-long") + "-stage1"
        return (
            FlowOptimizer.pretrained(key, device=device),
            FlowOptimizer.pretrained(stage1, device=device),
        )
    base = TRAIN_CONFIG.get(key.removesuffix("-long"))
    if base is None:  # another dimension or case: the training settings of the shipped class
        if isinstance(problem, DCOPFClass):
            base = TRAIN_CONFIG["dcopf-case30"]
        elif isinstance(problem, SupplyChainClass):
            base = TRAIN_CONFIG["supply_chain-20"]
        else:
            base = TRAIN_CONFIG[f"{problem.name}-10"]
    opt = FlowOptimizer(
        base["hidden"],
        config["population"],
        config["steps"],
        base["sampler"],
        base["n_candidates"],
        use_gradients=use_gradients,
        device=device,
    )
    opt.fit_stage1(problem, config["stage1_iterations"], seed, base["stage1_batch"], base["stage1_lr"])
    stage1 = FlowOptimizer(**opt.get_params(), device=device)
    stage1.model_ = type(opt.model_)(opt.hidden).to(device)
    stage1.model_.load_state_dict(opt.model_.state_dict())
    stage1.log_.stage1_seconds = opt.log_.stage1_seconds
    iterations = config["stage2_iterations"] * stage2_factor
    opt.fit_stage2(problem, iterations, seed, base["stage2_batch"], base["stage2_lr"])
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
        wide, narrow = ProblemClass(name, d), ProblemClass(name, d, prior="narrow")
        models[name], models[name + "_stage1"] = unit(
            f"model_{name}", lambda name=name, wide=wide: _train_or_load(f"{name}-{d}", wide, config, seed)
        )
        models[name + "_gf"], _ = unit(
            f"model_{name}_gradfree",
            lambda name=name, wide=wide: _train_or_load(f"{name}-{d}-gradfree", wide, config, seed, False),
        )
        models[name + "_narrow"], _ = unit(
            f"model_{name}_narrow",
            lambda name=name, narrow=narrow: _train_or_load(f"{name}-{d}-narrow", narrow, config, seed),
        )
        for variant, suffix in (("", ""), ("_gf", "_gradfree"), ("_narrow", "_narrow")):
            seconds[f"train_stage1_seconds_{name}{suffix}"] = models[name + variant].log_.stage1_seconds
            seconds[f"train_stage2_seconds_{name}{suffix}"] = models[name + variant].log_.stage2_seconds
        if use_l2o:
            models[name + "_l2o"] = unit(f"l2o_{name}", lambda name=name: _l2o_model(name, config, seed))
            seconds[f"train_seconds_l2o_{name}"] = models[name + "_l2o"].log_["seconds"]
    # the stage-2 study's selected checkpoint (benchmarks/flow_optimizer_stage2.py; trained here: 10x stage 2)
    models["rastrigin_long"], _ = unit(
        "model_rastrigin_long",
        lambda: _train_or_load(f"rastrigin-{d}-long", ProblemClass("rastrigin", d), config, seed, True, 10),
    )
    seconds["train_stage2_seconds_rastrigin_long"] = models["rastrigin_long"].log_.stage2_seconds
    seconds["stage2_iterations_rastrigin_long"] = float(len(models["rastrigin_long"].log_.stage2_loss))
    if config["pretrained"]:
        notes.append(
            "models: shipped weights from python -m icml26.flow_optimizer.train (training times are theirs)"
        )
    return models, seconds, notes


_DCOPF_METHODS = ("flow", "flow_gf", "cma", "cma_centre", "adam")


def _dcopf(
    config: dict[str, Any], seed: int, samples: Samples
) -> tuple[dict[str, float], list[dict[str, Any]], str | None]:
    """DC-OPF: mean optimality gaps (%) and max violation (p.u.) vs pandapower's exact optimum, per method.

    Gaps: of the generation cost (``dcopf_gap_percent``) and of the penalised objective every method
    minimises (``dcopf_objective_gap_percent``: a violating point pays its penalty). The number of
    line limits binding at each instance's exact optimum is counted (``dcopf_binding_lines_min``).
    The per-instance gaps go to ``samples`` (statistic: mean).
    """
    try:
        import pandapower  # noqa: F401
    except ImportError:
        return {}, [], "pandapower is not installed (pip install pandapower)"
    case = config["dcopf_case"]
    problem = DCOPFClass(case, config["dcopf_load_low"], config["dcopf_load_high"])
    opt, _ = unit("model_dcopf", lambda: _train_or_load(f"dcopf-{case}", problem, config, seed))
    opt_gf, _ = unit(
        "model_dcopf_gradfree", lambda: _train_or_load(f"dcopf-{case}-gradfree", problem, config, seed, False)
    )
    flows = {"flow": opt, "flow_gf": opt_gf}
    n = config["dcopf_instances"]
    inst = problem.sample(n, torch.Generator().manual_seed(20_000 + seed))
    # the same instances on the device for FlowOptimizer (drawn on the CPU generator, then moved)
    inst_dev = problem.sample(n, torch.Generator().manual_seed(20_000 + seed), device=config["device"])
    inst64 = problem.sample(n, torch.Generator().manual_seed(20_000 + seed), dtype=torch.float64)

    def exact_optima() -> list[tuple[float, float, int]]:
        """Per instance: the exact cost, the penalised objective there (float64) and the binding lines."""
        out = []
        for i in progress(range(n), "DC-OPF exact (pandapower)"):
            cost, x = inst64.exact(i)
            one, X = inst64.subset(torch.tensor([i])), torch.as_tensor(x, dtype=torch.float64)[None, None]
            out.append((cost, float(one(X)), int(one.binding_lines(X))))
        return out

    exact = unit("dcopf_exact", exact_optima)
    binding = np.array([e[2] for e in exact])
    metrics: dict[str, float] = {
        "train_stage1_seconds_dcopf": opt.log_.stage1_seconds,
        "train_stage2_seconds_dcopf": opt.log_.stage2_seconds,
        "dcopf_binding_lines_min": float(binding.min()),
        "dcopf_binding_lines_mean": float(binding.mean()),
    }
    rows = []

    def solve(method: str) -> tuple[list[float], list[float], list[float]]:
        gaps, objective_gaps, viols = [], [], []
        for i in range(n):
            _, x, one = _solve_instance(
                method, flows, inst, inst_dev, inst64, i, problem.bounds, config["budget"], seed, config
            )
            cost, f_star, _ = exact[i]
            gaps.append(100 * (float(one.cost(x)) - cost) / cost)
            objective_gaps.append(100 * (float(one(x)) - f_star) / f_star)
            viols.append(float(one.violation(x)))
        return gaps, objective_gaps, viols

    for method in _DCOPF_METHODS:
        gaps, objective_gaps, viols = unit(f"dcopf_method={method}", lambda method=method: solve(method))
        suffix = "" if method == "flow" else f"_{method}"
        for key, values in (("dcopf_gap_percent", gaps), ("dcopf_objective_gap_percent", objective_gaps)):
            metrics[key + suffix] = float(np.mean(values))
            samples[key + suffix] = (np.array(values), "mean")
        metrics[f"dcopf_max_violation_pu{suffix}"] = float(np.max(viols))
        # a maximum over the instances, each violation computed exactly (float64): no sampling interval
        metrics[f"dcopf_max_violation_pu{suffix}_ci"] = 0.0
        rows.append(
            {
                "case": f"{case} (loads x U[{problem.load_low:g}, {problem.load_high:g}])",
                "method": method,
                "budget": config["budget"],
                "mean_objective_gap_percent": float(np.mean(objective_gaps)),
                "mean_gap_percent": float(np.mean(gaps)),
                "max_gap_percent": float(np.max(gaps)),
                "max_violation_pu": float(np.max(viols)),
                "binding_lines_at_optimum": f"{binding.min()}..{binding.max()}",
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
    opt_gf, _ = unit(
        "model_ik_gradfree", lambda: _train_or_load(f"ik-{links}-gradfree", problem, config, seed, False)
    )
    flows = {"flow": opt, "flow_gf": opt_gf}
    budget = config["budget"]
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
                method, flows, inst, inst_dev, inst64, i, cls.bounds, budget, seed, config
            )
            distances.append(float(one.distance(x)))
            curves.append(np.sqrt(np.maximum(_history_on_grid(res.history, grid), 0.0)))
        return distances, curves

    for m in progress((links, big), "IK tasks"):
        n = config["n_instances"] if m == links else config["n_zero_shot"]
        cls = problem.with_dim(m)
        gen_seed = 30_000 + seed + m  # unseen by training
        inst = cls.sample(n, torch.Generator().manual_seed(gen_seed))
        inst_dev = cls.sample(n, torch.Generator().manual_seed(gen_seed), device=config["device"])
        inst64 = cls.sample(n, torch.Generator().manual_seed(gen_seed), dtype=torch.float64)
        task = f"ik{m}"
        tag = "ik" if m == links else "ik_zero_shot"
        per: dict[str, list[float]] = {}
        series = {}
        for method in ("flow", "flow_gf", "cma", "adam"):
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


# every gradient-free baseline the 4x5 cell runs within quick's budget joins CMA-ES (random start) and
# Adam: CMA-ES from FlowOptimizer's start information (equal information) and DE; IPOP-CMA-ES is left out
# (at 1,280 evaluations its first run never terminates, so it would equal CMA-ES)
_SC_METHODS = ("flow", "flow_gf", "cma", "cma_centre", "de", "adam")


def _supply_chain(
    config: dict[str, Any], seed: int, samples: Samples
) -> tuple[dict[str, float], list[dict[str, Any]]]:
    """Supply chain: optimality gap (%) per method vs the exact MILP optimum on unseen networks; the
    per-instance gaps behind the mean go to ``samples``."""
    problem = SupplyChainClass(config["sc_suppliers"], config["sc_customers"])
    opt, _ = unit(
        "model_supply_chain", lambda: _train_or_load(f"supply_chain-{problem.dim}", problem, config, seed)
    )
    opt_gf, _ = unit(
        "model_supply_chain_gradfree",
        lambda: _train_or_load(f"supply_chain-{problem.dim}-gradfree", problem, config, seed, False),
    )
    flows = {"flow": opt, "flow_gf": opt_gf}
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
                method, flows, inst, inst_dev, inst64, i, problem.bounds, budget, seed, config
            )
            per.append(max(100 * (float(one(x)) - exact[i]) / exact[i], 0.0))
        return per

    for method in _SC_METHODS:
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


def _generalisation_cells(config: dict[str, Any]) -> list[tuple[str, float, str]]:
    """The generalisation table's columns: ``(tag, fraction of the half-width, side)``; ``s20`` puts the
    optimum at 0.2 h from the centre on every coordinate (random signs), ``edge`` at 0.95 h towards the
    lower corner (outside the wide prior's support, 0.8 h)."""
    cells = [
        (f"s{round(100 * float(f)):02d}", float(f), "random") for f in config["gen_fractions"].split(",") if f
    ]
    return cells + ([("edge", 0.95, "lower")] if config["gen_edge"] else [])


def _generalisation(
    config: dict[str, Any], seed: int, models: dict[str, Any], samples: Samples
) -> tuple[dict[str, float], list[dict[str, Any]]]:
    """Median final best f against where the optimum sits in the box (keys ``gen_<fn>[_zero_shot]_<cell>_<method>``).

    Methods: FlowOptimizer (wide prior), the control trained on the narrow prior (``flow_narrow``), the
    gradient-free weights (``flow_gf``) and the centred-start baselines of ``gen_baselines``, all at
    ``budget`` evaluations on ``gen_instances`` instances per cell; zero-shot at 10 d when ``gen_zero_shot``.
    """
    d, n, budget = config["dim"], config["gen_instances"], config["budget"]
    baselines = [b for b in config["gen_baselines"].split(",") if b]
    dims = [(d, "")] + ([(d * config["zero_shot_factor"], "_zero_shot")] if config["gen_zero_shot"] else [])
    metrics: dict[str, float] = {}
    rows: list[dict[str, Any]] = []
    for fn in ("rastrigin", "ackley"):
        flows = (fn, f"{fn}_narrow", f"{fn}_gf")
        methods = ["flow" + m.removeprefix(fn) for m in flows] + baselines
        for dim, suffix in dims:
            problem = ProblemClass(fn, dim)
            bounds = [problem.bounds] * dim
            for cell, fraction, side in progress(_generalisation_cells(config), f"generalisation {fn}{dim}"):
                gen_seed = 50_000 + seed + dim + round(100 * fraction)  # unseen by training
                inst = problem.sample_at_offset(n, fraction, torch.Generator().manual_seed(gen_seed), side)
                inst_dev = problem.sample_at_offset(
                    n, fraction, torch.Generator().manual_seed(gen_seed), side, device=config["device"]
                )
                tag = f"gen_{fn}{suffix}_{cell}"
                finals: dict[str, list[float]] = {}
                for i in range(n):
                    solved = unit(
                        f"{tag}_instance={i}",
                        partial(
                            _solve_task_instance,
                            *(methods, models, fn, inst, inst_dev, i, bounds, budget, seed, config),
                        ),
                    )
                    for method, res, _ in solved:
                        finals.setdefault(method, []).append(res.fun)
                for method, values in finals.items():
                    v = np.array(values)
                    metrics[f"{tag}_{method}"] = float(np.median(v))
                    samples[f"{tag}_{method}"] = (v, "median")
                    rows.append(
                        {
                            "function": f"{fn}{dim}",
                            "optimum": cell if cell == "edge" else f"{fraction:g} h",
                            "method": method,
                            "median_best_f": float(np.median(v)),
                            "q25": float(np.quantile(v, 0.25)),
                            "q75": float(np.quantile(v, 0.75)),
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


# FlowOptimizer's models per task: shipped (wide prior, gradients), stage 1 only, the stage-2 study's
# checkpoint, and the gradient-free weights (no gradient at all, every evaluation charged)
_FLOWS_RASTRIGIN = ("rastrigin", "rastrigin_stage1", "rastrigin_long", "rastrigin_gf")
_FLOWS_BIG = (("rastrigin", "rastrigin_gf"), ("ackley", "ackley_gf"))


def _run(config: dict[str, Any], seed: int, rng: np.random.Generator) -> Result:
    d, big, n = config["dim"], config["dim"] * config["zero_shot_factor"], config["n_instances"]
    n_big = config["n_zero_shot"]
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
        (f"rastrigin{d}", "rastrigin", "rastrigin", d, budget, _FLOWS_RASTRIGIN, baselines, n),
        (f"ackley{d}", "ackley", "ackley", d, budget, ("ackley", "ackley_gf"), baselines, n),
        (
            f"ackley{d}_b{small}",
            "ackley_small_budget",
            "ackley",
            d,
            small,
            ("ackley", "ackley_gf"),
            baselines,
            n,
        ),
        (
            f"rastrigin{big}",
            "rastrigin_zero_shot",
            "rastrigin",
            big,
            budget,
            _FLOWS_BIG[0],
            big_baselines,
            n_big,
        ),
        (f"ackley{big}", "ackley_zero_shot", "ackley", big, budget, _FLOWS_BIG[1], big_baselines, n_big),
    ]
    metrics: dict[str, float] = dict(train_seconds)
    samples: Samples = {}
    rows, plots = [], []
    finals: dict[str, dict[str, np.ndarray]] = {}
    seconds: dict[str, list[float]] = {}
    for task, tag, cls, dim, task_budget, flows, task_baselines, n_task in progress(tasks, "tasks"):
        problem = ProblemClass(cls, dim)
        instances = problem.sample(
            n_task, torch.Generator().manual_seed(10_000 + seed + dim)
        )  # unseen by training
        instances_dev = problem.sample(
            n_task, torch.Generator().manual_seed(10_000 + seed + dim), device=config["device"]
        )  # the same draws, moved to the device for FlowOptimizer
        bounds = [problem.bounds] * dim
        grid = np.linspace(config["population"], task_budget, 40)
        results: dict[str, list[OptimizeResult]] = {}
        methods = ["flow" + m.removeprefix(cls) for m in flows] + list(task_baselines)
        for i in range(n_task):
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
                f"{task}: median best f vs evaluations (n={n_task})",
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
        f"{n} unseen instances per task at d={d} and {n_big} at d={big} (wide class: shifts U[-0.8h, 0.8h]^d "
        f"for the box half-width h, the class the shipped weights are trained on), population "
        f"{config['population']}, budgets {budget} and {small}; zero-shot tasks run the d={d} models at d={big}"
    )
    notes.append(
        "flow: gradient weights, given free autograd gradients (one f and one grad per evaluation, like Adam "
        "and L2O-DM); flow_gf: gradient-free weights, no gradient at all, every evaluation charged, like "
        "CMA-ES, DE and NGOpt"
    )
    notes.append(
        "*_centre baselines start with FlowOptimizer's start information, the mean and spread of its "
        "uniform first population (CMA-ES x0 = box centre, sigma0 = width/sqrt(12); NGOpt its centre "
        "default; IPOP's restarts random); the others from a uniform random point (sigma0 = 0.3 width)"
    )
    gen_metrics, gen_rows = _generalisation(config, seed, models, samples)
    metrics.update(gen_metrics)
    notes.append(
        f"generalisation: {config['gen_instances']} instances per cell with the optimum at "
        f"{config['gen_fractions']} of the half-width from the centre on every coordinate (random signs)"
        + (", and at 0.95 h towards the lower corner (edge)" if config["gen_edge"] else "")
        + (f", at d={d} and zero-shot d={big}" if config["gen_zero_shot"] else f", at d={d}")
        + "; flow_narrow is the control trained on the narrow prior U[-min(2, 0.4h), min(2, 0.4h)]^d"
    )
    if any(m.endswith("_l2o") for m in models):
        notes.append(
            "l2o: L2O-DM coordinatewise LSTM (Andrychowicz et al. 2016) meta-trained on the same class at "
            f"d={d} for about FlowOptimizer's stage 1 + stage 2 wall time, run as a multistart of "
            f"{config['population']} starts; zero-shot tasks run the d={d} LSTM"
        )
    opf_metrics, opf_rows, opf_blocked = _dcopf(config, seed, samples)
    metrics.update(opf_metrics)
    notes.append(
        f"DC-OPF: {config['dcopf_case']} with per-bus loads x U[{config['dcopf_load_low']:g}, "
        f"{config['dcopf_load_high']:g}], {config['dcopf_instances']} draws; dcopf_binding_lines_min counts the "
        "line limits binding at each exact optimum (pandapower rundcopp); dcopf_objective_gap_percent is the "
        "gap of the penalised objective every method minimises, dcopf_gap_percent that of the cost alone"
    )
    ik_metrics, ik_rows, ik_plots = _ik(config, seed, samples)
    metrics.update(ik_metrics)
    plots.extend(ik_plots)
    notes.append(
        f"IK: {n} and {n_big} unseen instances, links {config['ik_links']} (trained) and "
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
    dcopf_claims = [c.name for c in CLAIMS if c.metric.startswith("dcopf") and not c.stored]
    blocked = {} if opf_blocked is None else dict.fromkeys(dcopf_claims, opf_blocked)
    return Result(
        metrics=metrics,
        tables={
            "median_best_f": rows,
            "generalisation": gen_rows,
            "dcopf": opf_rows,
            "ik": ik_rows,
            "supply_chain": sc_rows,
        },
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
_RATES.update({m + "_centre": _RATES[m] for m in ("cma", "cma_ipop", "ngopt")})
_RATES.update({m: _RATES["flow"] for m in ("flow_long", "flow_gf", "flow_narrow")})
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
    n_big, n_gen = config["n_zero_shot"], config["gen_instances"]
    big = d * config["zero_shot_factor"]
    budget, small = config["budget"], config["budget_small"]
    baselines = [b for b in config["baselines"].split(",") if b]
    big_baselines = [b for b in config["baselines_zero_shot"].split(",") if b]
    gen_methods = ["flow", "flow_narrow", "flow_gf", *(b for b in config["gen_baselines"].split(",") if b)]
    seconds = _OVERHEAD_S
    for dim, task_budget, count, methods in (
        (d, budget, n, ["flow", "flow_stage1", "flow_long", "flow_gf", *baselines]),  # Rastrigin-d
        (d, budget, n, ["flow", "flow_gf", *baselines]),  # Ackley-d
        (d, small, n, ["flow", "flow_gf", *baselines]),  # Ackley-d at the small budget
        (big, budget, n_big, ["flow", "flow_gf", *big_baselines]),  # zero-shot Rastrigin
        (big, budget, n_big, ["flow", "flow_gf", *big_baselines]),  # zero-shot Ackley
    ):
        seconds += count * sum(_run_seconds(m, dim, task_budget) for m in methods)
    cells = len(_generalisation_cells(config))
    for dim in [d] + ([big] if config["gen_zero_shot"] else []):
        seconds += 2 * cells * n_gen * sum(_run_seconds(m, dim, budget) for m in gen_methods)
    opf_dim = _DCOPF_DIMS[config["dcopf_case"]]
    seconds += config["dcopf_instances"] * (
        0.1 + sum(_run_seconds(m, opf_dim, budget) for m in _DCOPF_METHODS)
    )
    links, big_links = config["ik_links"], config["ik_links"] * config["zero_shot_factor"]
    for m_links, count, methods in (
        (links, n, ("flow", "flow_gf", "cma", "adam")),
        (big_links, n_big, ("flow", "flow_gf", "cma", "adam")),
        (links, _IK_ORIGINAL_INSTANCES, ("flow", "adam")),
    ):
        seconds += count * sum(_run_seconds(m, m_links, budget) for m in methods)
    sc_dim = config["sc_suppliers"] * config["sc_customers"]
    seconds += n * (
        0.3 * max(sc_dim / 20, 1.0) ** 2
        + sum(_run_seconds(m, sc_dim, config["sc_budget"]) for m in _SC_METHODS)
    )
    memory = 0.75 * 2**30 + 4 * pop * max(big, big_links, opf_dim, sc_dim) * 64 * 16
    if not config["pretrained"]:
        dims = (d, d, opf_dim, links, sc_dim)
        # every class with and without gradients, the narrow-prior controls, 10x stage 2 for the study
        seconds += 2 * sum(_train_seconds(config, dim) for dim in dims) + 2 * _train_seconds(config, d)
        seconds += 9 * config["stage2_iterations"] * 1.8 * pop / 64 * max(d / 10, 0.1) ** 0.5
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
    if config["pretrained"] and (
        config["dcopf_case"],
        config["dcopf_load_low"],
        config["dcopf_load_high"],
    ) != ("case30", 1.1, 1.3):
        raise ValueError(
            "pretrained DC-OPF weights exist for case30 at loads x U[1.1, 1.3] only; set pretrained=false to train"
        )
    for key in ("dcopf_load_low", "dcopf_load_high"):
        if isinstance(config[key], bool) or not isinstance(config[key], int | float) or config[key] <= 0:
            raise ValueError(f"config {key!r} must be a number > 0, got {config[key]!r}")
    if config["dcopf_load_low"] > config["dcopf_load_high"]:
        raise ValueError("config 'dcopf_load_low' must be <= 'dcopf_load_high'")
    for key in ("gen_zero_shot", "gen_edge"):
        if not isinstance(config[key], bool):
            raise ValueError(f"config {key!r} must be true or false, got {config[key]!r}")
    try:
        fractions = [float(f) for f in config["gen_fractions"].split(",") if f]
    except (AttributeError, ValueError) as exc:
        raise ValueError(
            f"config 'gen_fractions' must be comma-separated numbers in [0, 1), got {config['gen_fractions']!r}"
        ) from exc
    if not fractions or not all(0 <= f < 1 for f in fractions):
        raise ValueError(f"config 'gen_fractions' must be numbers in [0, 1), got {config['gen_fractions']!r}")
    for key in (
        "dim",
        "n_instances",
        "n_zero_shot",
        "gen_instances",
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
    for key in ("baselines", "baselines_zero_shot", "gen_baselines"):
        unknown = [b for b in config[key].split(",") if b and b not in BASELINES]
        if unknown:
            raise ValueError(f"config {key!r}: unknown baselines {unknown}; accepted: {', '.join(BASELINES)}")
        needed = ("cma_centre",) if key == "gen_baselines" else ("cma_centre", "adam")
        if not set(needed) <= set(config[key].split(",")):
            raise ValueError(
                f"config {key!r} must include {' and '.join(needed)} (the claims compare against them)"
            )


_COMMON = {
    "dcopf_case": "case30",
    "dcopf_load_low": 1.1,
    "dcopf_load_high": 1.3,
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
_PROXY = (
    "laptop proxy: CPU-trained shipped weights (the paper profile reuses them), unseen instances of the wide"
    " class (shifts U[-0.8h, 0.8h]^d)"
)
_PROXY_GEN = (
    "laptop proxy: shipped weights, unseen instances with the optimum at a fixed offset from the centre"
)
_PROXY_IK = "laptop proxy: our planar n-link IK reconstruction, shipped ik-10 weights, unseen instances"
_PROXY_SC = "laptop proxy: our 4x5 concave-cost network with an exact MILP optimum, unseen networks"
_PROXY_OPF = (
    "laptop proxy: our DC-OPF reconstruction on pandapower case30 at loads x U[1.1, 1.3], unseen load draws"
)
_OUTPERFORMS = (
    "consistently outperforms well-established sampling-based/gradient-based traditional optimization"
    " and learning-to-optimize methods"
)
_GENERALIZE = "trained on low-dimensional problems, successfully generalizes to x10 higher-dimensional ones"
_WIDE = "the wide class (optimum s ~ U[-0.8h, 0.8h]^d, h the box half-width)"
# the baselines quick runs at the trained d (every sampling one from both starts) and the paper-only ones
_ALL_D = ("cma", "cma_centre", "cma_ipop", "cma_ipop_centre", "adam", "de", "l2o")
_PAPER_D = ("ngopt", "ngopt_centre")
_ALL_ZERO_SHOT = ("cma_centre", "adam", "l2o")  # quick at 10 d; paper adds the rest
_PAPER_ZERO_SHOT = ("cma", "cma_ipop", "cma_ipop_centre", "de", "ngopt", "ngopt_centre")
_GRADIENT_FREE = ("cma", "cma_centre", "cma_ipop", "cma_ipop_centre", "de")  # no gradient, like flow_gf
_GEN_BASELINES = ("cma_centre", "cma_ipop_centre")  # quick; paper adds ngopt_centre
# IPOP-CMA-ES's first run is CMA-ES's run (same seed, same start); pycma stops it (tolfunhist/tolx) after
# 2,200-3,200 of 3,200 evaluations or never (1,280), and the doubled-population restart, with what is left,
# has never improved on it: its rows equal CMA-ES's, so the pair is one baseline, not two
_IPOP_NOTE = (
    " (IPOP-CMA-ES's first run is CMA-ES's, and at these budgets its restart never improves on it: one"
    " baseline, not two)"
)


def _outperforms(
    name: str, tag: str, what: str, methods: tuple[str, ...], paper_only: tuple[str, ...]
) -> Claim:
    return Claim(
        name,
        f"{what} the median final best f of FlowOptimizer (gradient weights) is below every baseline's run there"
        f" in quick ({', '.join(methods)}; sampling baselines from both starts)" + _IPOP_NOTE,
        _OUTPERFORMS,
        f"{tag}_flow",
        "<",
        0.0,
        kind="paper",
        scale_note=_PROXY,
        relative_to=tuple(f"{tag}_{b}" for b in methods),
        form="difference",
        context=tuple(f"{tag}_{b}" for b in (*paper_only, "flow_gf")),
    )


def _blackbox(name: str, tag: str, what: str, methods: tuple[str, ...], paper_only: tuple[str, ...]) -> Claim:
    return Claim(
        name,
        f"black box: {what} the gradient-free weights (no gradient, every evaluation charged) reach a median"
        f" final best f below every gradient-free baseline's run there in quick ({', '.join(methods)})"
        + (_IPOP_NOTE if "cma_ipop" in methods else ""),
        _OUTPERFORMS + " (its sampling-based part, at equal information)",
        f"{tag}_flow_gf",
        "<",
        0.0,
        kind="paper",
        scale_note=_PROXY,
        relative_to=tuple(f"{tag}_{b}" for b in methods),
        form="difference",
        context=tuple(f"{tag}_{b}" for b in paper_only),
    )


def _generalises(fn: str, cell: str, fraction: float) -> Claim:
    where = f"{fraction:g} of the half-width from the centre on every coordinate"
    inside = "inside" if fraction <= 0.8 else "outside"
    return Claim(
        f"gen_outperforms_{fn}10_{cell}",
        f"{fn.capitalize()}-{{dim}} with the optimum at {where} ({inside} the wide training prior), {{budget}}"
        " evaluations: FlowOptimizer's median final best f is below CMA-ES's and IPOP-CMA-ES's, both started"
        " with FlowOptimizer's start information (centre, its spread)" + _IPOP_NOTE,
        _OUTPERFORMS,
        f"gen_{fn}_{cell}_flow",
        "<",
        0.0,
        kind="paper",
        scale_note=_PROXY_GEN,
        relative_to=tuple(f"gen_{fn}_{cell}_{b}" for b in _GEN_BASELINES),
        form="difference",
        controls=(f"gen_{fn}_{cell}_flow_narrow",),
        context=(f"gen_{fn}_{cell}_flow_gf", f"gen_{fn}_{cell}_ngopt_centre"),
    )


def _wide_beats_narrow(fn: str, cell: str) -> Claim:
    return Claim(
        f"wide_prior_beats_narrow_{fn}10_{cell}",
        f"{fn.capitalize()}-{{dim}} with the optimum at 0.8 of the half-width (in the wide class): the field"
        " trained on the wide prior has a lower median final best f than the one trained on the narrow prior"
        " (a ratio only: it does not say that either field solves the cell; see CMA-ES's value as context)",
        "ours (issue 16: the wins must survive a moved optimum)",
        f"gen_{fn}_{cell}_flow",
        "<",
        1.0,
        kind="check",
        scale_note=_PROXY_GEN,
        relative_to=(f"gen_{fn}_{cell}_flow_narrow",),
        form="ratio",
        # how far both fields are from the optimum (f* = 0): on Ackley both sit on the plateau (f ~ 20),
        # where a ratio below 1 says nothing about which prior solves the class
        context=(f"gen_{fn}_{cell}_cma_centre",),
    )


_NEW_CLAIMS = (
    Claim(
        "stage2_gain",
        "stage 2 (the shipped 30 iterations) lowers the median final best f on Rastrigin-{dim} of "
        + _WIDE
        + " by >= 30% vs stage 1 alone",
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
        "stage2_gain_long",
        "the stage-2 study's checkpoint (300 iterations, 10x the shipped, selected on validation by the rule"
        " written before the run) lowers the median final best f on Rastrigin-{dim} of "
        + _WIDE
        + " by >= 30% vs stage 1 alone",
        ">= 30% lower (our acceptance target A1; the paper gives no number)",
        "rastrigin_flow_long",
        "<=",
        0.7,
        kind="check",
        scale_note=_PROXY,
        relative_to=("rastrigin_flow_stage1",),
        form="ratio",
        context=("rastrigin_flow", "stage2_iterations_rastrigin_long"),
    ),
    Claim(
        "beats_adam_rastrigin10",
        "at {budget} evaluations beats Adam multistart on Rastrigin-{dim} of "
        + _WIDE
        + " (median final best f)",
        "better than Adam (our minimum bar A2)",
        "rastrigin_flow",
        "<",
        1.0,
        kind="check",
        scale_note=_PROXY,
        relative_to=("rastrigin_adam",),
        form="ratio",
        context=("rastrigin_l2o",),
    ),
    _outperforms(
        "outperforms_rastrigin10",
        "rastrigin",
        f"Rastrigin-{{dim}} of {_WIDE}, {{budget}} evaluations:",
        _ALL_D,
        _PAPER_D,
    ),
    Claim(
        "beats_adam_ackley10",
        "at {budget} evaluations beats Adam multistart on Ackley-{dim} of "
        + _WIDE
        + " (median final best f)",
        "better than Adam (our minimum bar A2)",
        "ackley_flow",
        "<",
        1.0,
        kind="check",
        scale_note=_PROXY,
        relative_to=("ackley_adam",),
        form="ratio",
        context=("ackley_l2o",),
    ),
    _outperforms(
        "outperforms_ackley10",
        "ackley",
        f"Ackley-{{dim}} of {_WIDE}, {{budget}} evaluations:",
        _ALL_D,
        _PAPER_D,
    ),
    Claim(
        "zero_shot_rastrigin100",
        "trained at d={dim}, beats Adam and CMA-ES (centred start) zero-shot on Rastrigin at {zero_shot_factor}x"
        " that d, " + _WIDE + " (median final best f)",
        "better than both (our minimum bar A2)",
        "rastrigin_zero_shot_flow",
        "<",
        1.0,
        kind="check",
        scale_note=_PROXY,
        relative_to=("rastrigin_zero_shot_adam", "rastrigin_zero_shot_cma_centre"),
        form="ratio",
        context=("rastrigin_zero_shot_l2o",),
    ),
    _outperforms(
        "zero_shot_outperforms_rastrigin100",
        "rastrigin_zero_shot",
        f"trained at d={{dim}}, zero-shot on Rastrigin at {{zero_shot_factor}}x that d ({_WIDE}):",
        _ALL_ZERO_SHOT,
        _PAPER_ZERO_SHOT,
    ),
    Claim(
        "zero_shot_ackley100",
        "trained at d={dim}, beats Adam and CMA-ES (centred start) zero-shot on Ackley at {zero_shot_factor}x"
        " that d, " + _WIDE + " (median final best f)",
        "better than both (our minimum bar A2)",
        "ackley_zero_shot_flow",
        "<",
        1.0,
        kind="check",
        scale_note=_PROXY,
        relative_to=("ackley_zero_shot_adam", "ackley_zero_shot_cma_centre"),
        form="ratio",
        context=("ackley_zero_shot_l2o",),
    ),
    _outperforms(
        "zero_shot_outperforms_ackley100",
        "ackley_zero_shot",
        f"trained at d={{dim}}, zero-shot on Ackley at {{zero_shot_factor}}x that d ({_WIDE}):",
        _ALL_ZERO_SHOT,
        _PAPER_ZERO_SHOT,
    ),
    Claim(
        "orders_rastrigin10",
        "headline: median final best f >= 10x below CMA-ES and IPOP-CMA-ES (both starts) on Rastrigin-{dim} of "
        + _WIDE
        + " at {budget} evaluations"
        + _IPOP_NOTE,
        "often by orders of magnitude",
        "rastrigin_flow",
        "<=",
        0.1,
        kind="paper",
        scale_note=_PROXY,
        relative_to=tuple(f"rastrigin_{b}" for b in ("cma", "cma_centre", "cma_ipop", "cma_ipop_centre")),
        form="ratio",
        context=("rastrigin_ngopt_centre",),
    ),
    Claim(
        "orders_ackley10",
        "headline: median final best f >= 10x below CMA-ES and IPOP-CMA-ES (both starts) on Ackley-{dim} of "
        + _WIDE
        + " at {budget_small} evaluations"
        + _IPOP_NOTE,
        "often by orders of magnitude",
        "ackley_small_budget_flow",
        "<=",
        0.1,
        kind="paper",
        scale_note=_PROXY,
        relative_to=tuple(
            f"ackley_small_budget_{b}" for b in ("cma", "cma_centre", "cma_ipop", "cma_ipop_centre")
        ),
        form="ratio",
        context=("ackley_small_budget_ngopt_centre",),
    ),
    Claim(
        "orders_ackley100",
        "headline: trained at d={dim}, median final best f >= 10x below CMA-ES (centred start) zero-shot on"
        " Ackley at {zero_shot_factor}x that d, " + _WIDE + ", {budget} evaluations (the random start and"
        " IPOP-CMA-ES run there in the paper profile only)",
        "often by orders of magnitude",
        "ackley_zero_shot_flow",
        "<=",
        0.1,
        kind="paper",
        scale_note=_PROXY,
        relative_to=("ackley_zero_shot_cma_centre",),
        form="ratio",
        context=("ackley_zero_shot_cma", "ackley_zero_shot_cma_ipop", "ackley_zero_shot_ngopt_centre"),
    ),
    _blackbox(
        "blackbox_outperforms_rastrigin10",
        "rastrigin",
        f"Rastrigin-{{dim}} of {_WIDE}, {{budget}} evaluations:",
        _GRADIENT_FREE,
        _PAPER_D,
    ),
    _blackbox(
        "blackbox_outperforms_ackley10",
        "ackley",
        f"Ackley-{{dim}} of {_WIDE}, {{budget}} evaluations:",
        _GRADIENT_FREE,
        _PAPER_D,
    ),
    _blackbox(
        "blackbox_zero_shot_rastrigin100",
        "rastrigin_zero_shot",
        f"trained at d={{dim}} only, zero-shot on Rastrigin at {{zero_shot_factor}}x that d ({_WIDE}):",
        ("cma_centre",),
        ("cma", "cma_ipop", "cma_ipop_centre", "de", "ngopt", "ngopt_centre"),
    ),
    _blackbox(
        "blackbox_zero_shot_ackley100",
        "ackley_zero_shot",
        f"trained at d={{dim}} only, zero-shot on Ackley at {{zero_shot_factor}}x that d ({_WIDE}):",
        ("cma_centre",),
        ("cma", "cma_ipop", "cma_ipop_centre", "de", "ngopt", "ngopt_centre"),
    ),
    _generalises("rastrigin", "s20", 0.2),
    _generalises("rastrigin", "s80", 0.8),
    _generalises("ackley", "s20", 0.2),
    _generalises("ackley", "s80", 0.8),
    _wide_beats_narrow("rastrigin", "s80"),
    _wide_beats_narrow("ackley", "s80"),
    Claim(
        "dcopf_binds",
        "DC-OPF ({dcopf_case}, loads x U[{dcopf_load_low}, {dcopf_load_high}]): at least one line limit binds at"
        " the exact optimum of every test instance",
        "ours (issue 16: a DC-OPF where the line limits matter)",
        "dcopf_binding_lines_min",
        ">=",
        1.0,
        kind="check",
        scale="exact",
        scale_note="counted on every test instance at pandapower's exact optimum (|F| >= (1 - 1e-6) rate)",
        context=("dcopf_binding_lines_mean",),
    ),
    Claim(
        "dcopf_gap",
        "DC-OPF ({dcopf_case}, loads x U[{dcopf_load_low}, {dcopf_load_high}]): mean cost gap vs the exact optimum"
        " <= 0.5% at {budget} evaluations",
        "<= 0.5% (our target A4; the paper gives no number)",
        "dcopf_gap_percent",
        "<=",
        0.5,
        kind="check",
        scale_note=_PROXY_OPF,
        unit="%",
        controls=("dcopf_gap_percent_cma", "dcopf_gap_percent_cma_centre", "dcopf_gap_percent_adam"),
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
        scale_note=_PROXY_OPF
        + "; a maximum over the instances, each violation computed exactly in float64, so an"
        " exact per-instance check (<key>_ci = 0) taken at the worst runner seed",
        unit="p.u.",
        statistic="max",
        controls=(
            "dcopf_max_violation_pu_cma",
            "dcopf_max_violation_pu_cma_centre",
            "dcopf_max_violation_pu_adam",
        ),
    ),
    Claim(
        "dcopf_outperforms",
        "DC-OPF ({dcopf_case}, loads x U[{dcopf_load_low}, {dcopf_load_high}], binding line limits) at {budget}"
        " evaluations: mean gap of the penalised objective below the strongest of CMA-ES (both starts) and Adam"
        " (difference in percentage points)",
        _OUTPERFORMS,
        "dcopf_objective_gap_percent",
        "<",
        0.0,
        kind="paper",
        scale_note=_PROXY_OPF,
        relative_to=(
            "dcopf_objective_gap_percent_cma",
            "dcopf_objective_gap_percent_cma_centre",
            "dcopf_objective_gap_percent_adam",
        ),
        form="difference",
        unit="pp",
        context=(
            "dcopf_objective_gap_percent_flow_gf",
            "dcopf_max_violation_pu",
            "dcopf_max_violation_pu_cma",
        ),
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
        context=("ik_cma", "ik_flow_gf"),
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
        context=("ik_flow_gf",),
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
        context=("ik_zero_shot_flow_gf",),
    ),
    Claim(
        "sc_gap_vs_cma",
        "supply chain {sc_suppliers}x{sc_customers}, concave costs ({sc_budget} evaluations): mean optimality"
        " gap vs the exact MILP optimum of FlowOptimizer <= CMA-ES's",
        "<= CMA-ES (ours; the paper reports no number)",
        "sc_mean_gap_percent_flow",
        "<=",
        1.0,
        kind="check",
        scale_note=_PROXY_SC,
        relative_to=("sc_mean_gap_percent_cma",),
        form="ratio",
        context=("sc_mean_gap_percent_adam", "sc_mean_gap_percent_flow_gf"),
    ),
    Claim(
        "sc_outperforms",
        "supply chain {sc_suppliers}x{sc_customers}, concave costs ({sc_budget} evaluations): mean optimality"
        " gap vs the exact MILP optimum below the strongest of CMA-ES (random start and FlowOptimizer's start"
        " information), differential evolution and Adam",
        _OUTPERFORMS,
        "sc_mean_gap_percent_flow",
        "<",
        1.0,
        kind="paper",
        scale_note=_PROXY_SC,
        relative_to=tuple(f"sc_mean_gap_percent_{b}" for b in ("cma", "cma_centre", "de", "adam")),
        form="ratio",
        context=("sc_mean_gap_percent_flow_gf",),
    ),
)

# Issue 16 (2026-12-01) changed the setting of every claim measured before: the benchmark classes moved
# to the wide prior (with re-trained weights), sampling baselines gained the centred start, DC-OPF moved
# to case30 at loads x U[1.1, 1.3] (binding limits), and quick was cut to 4 minutes (fewer instances).
# Each such claim carries `revised`, and its original is kept as "<name>_v1" with the verdict of the
# last quick run under the old setting (commit e1ff0c1, 2026-12-01), stored, not re-measured.
_V1_COMMIT = "e1ff0c1"
_V1 = {  # name: (verdict, measured, rule) from docs/runs/flow_optimizer/20261201T102829507224Z (quick)
    "stage2_gain": ("refuted", 0.8949, "rastrigin_flow / strongest(rastrigin_flow_stage1) <= 0.7"),
    "beats_adam_rastrigin10": ("toy-verified", 0.2372, "rastrigin_flow / strongest(rastrigin_adam) < 1"),
    "outperforms_rastrigin10": (
        "toy-verified",
        -7.809,
        "rastrigin_flow - strongest(rastrigin_cma, rastrigin_cma_ipop, rastrigin_adam, rastrigin_de,"
        " rastrigin_ngopt, rastrigin_l2o) < 0",
    ),
    "beats_adam_ackley10": ("toy-verified", 0.08352, "ackley_flow / strongest(ackley_adam) < 1"),
    "outperforms_ackley10": (
        "refuted",
        1.539,
        "ackley_flow - strongest(ackley_cma, ackley_cma_ipop, ackley_adam, ackley_de, ackley_ngopt,"
        " ackley_l2o) < 0",
    ),
    "zero_shot_rastrigin100": (
        "toy-verified",
        0.2325,
        "rastrigin_zero_shot_flow / strongest(rastrigin_zero_shot_adam, rastrigin_zero_shot_cma) < 1",
    ),
    "zero_shot_outperforms_rastrigin100": (
        "toy-verified",
        -547.9,
        "rastrigin_zero_shot_flow - strongest(rastrigin_zero_shot_cma, rastrigin_zero_shot_adam,"
        " rastrigin_zero_shot_ngopt, rastrigin_zero_shot_l2o) < 0",
    ),
    "zero_shot_ackley100": (
        "inconclusive",
        0.8886,
        "ackley_zero_shot_flow / strongest(ackley_zero_shot_adam, ackley_zero_shot_cma) < 1",
    ),
    "zero_shot_outperforms_ackley100": (
        "inconclusive",
        -1.052,
        "ackley_zero_shot_flow - strongest(ackley_zero_shot_cma, ackley_zero_shot_adam, ackley_zero_shot_ngopt,"
        " ackley_zero_shot_l2o) < 0",
    ),
    "orders_rastrigin10": (
        "refuted",
        0.4937,
        "rastrigin_flow / strongest(rastrigin_cma, rastrigin_cma_ipop) <= 0.1",
    ),
    "orders_ackley10": (
        "refuted",
        199.4,
        "ackley_small_budget_flow / strongest(ackley_small_budget_cma, ackley_small_budget_cma_ipop) <= 0.1",
    ),
    "orders_ackley100": ("refuted", 0.8886, "ackley_zero_shot_flow / strongest(ackley_zero_shot_cma) <= 0.1"),
    "dcopf_gap": ("toy-verified", 0.01416, "dcopf_gap_percent <= 0.5"),
    "dcopf_violation": ("inconclusive", 0.0, "dcopf_max_violation_pu <= 0.001"),
    "dcopf_outperforms": (
        "toy-verified",
        -0.03168,
        "dcopf_gap_percent - strongest(dcopf_gap_percent_cma, dcopf_gap_percent_adam) < 0",
    ),
    "ik_beats_adam10": ("inconclusive", 0.4397, "ik_flow / strongest(ik_adam) < 1"),
    "ik_outperforms10": ("refuted", 4128.0, "ik_flow / strongest(ik_cma, ik_adam) < 1"),
    "ik_zero_shot100": (
        "toy-verified",
        0.2098,
        "ik_zero_shot_flow / strongest(ik_zero_shot_adam, ik_zero_shot_cma) < 1",
    ),
    "sc_gap_vs_cma": (
        "toy-verified",
        0.1468,
        "sc_mean_gap_percent_flow / strongest(sc_mean_gap_percent_cma) <= 1",
    ),
    "sc_outperforms": (
        "toy-verified",
        0.2282,
        "sc_mean_gap_percent_flow / strongest(sc_mean_gap_percent_cma, sc_mean_gap_percent_adam) < 1",
    ),
}
_V1_SETTING = {
    "dcopf": "DC-OPF on case118 at loads x U[0.8, 1.2] (no line limit binds), cost gap, 20 draws",
    "ik": "20 instances per IK task in quick",
    "sc": "20 networks in quick",
}
_V1_BENCHMARK = (
    "narrow class (shifts U[-2, 2]^d), weights trained on it, every sampling baseline from a random start,"
    " 20 instances per task in quick"
)


def _v1_setting(name: str) -> str:
    return _V1_SETTING.get(name.split("_")[0], _V1_BENCHMARK)


def _with_revision(claim: Claim) -> Claim:
    if claim.name not in _V1:
        return claim
    verdict, measured, rule = _V1[claim.name]
    revision = (
        f"2026-12-01: {rule} on the {_v1_setting(claim.name)}, verdict then {verdict} (quick, commit"
        f" {_V1_COMMIT}); issue 16 asked for a setting that survives a moved optimum, equal start information"
        f" and a 4-minute quick; the original is {claim.name}_v1 (stored)"
    )
    return replace(claim, revised=f"{claim.revised}; then {revision}" if claim.revised else revision)


def _original(name: str) -> Claim:
    """The claim ``name`` as it was before issue 16, its verdict stored (its rule parsed back from ``_V1``)."""
    verdict, measured, rule = _V1[name]
    new = next(c for c in _NEW_CLAIMS if c.name == name)
    baselines = rule.split("strongest(")[1].split(")")[0].split(", ") if "strongest(" in rule else []
    return Claim(
        f"{name}_v1",
        f"original setting of {name} (until 2026-12-01): {rule} on the {_v1_setting(name)}",
        new.paper_value,
        rule.split(" ")[0],
        new.op,
        new.threshold,
        kind=new.kind,
        scale_note=new.scale_note,
        relative_to=tuple(baselines),
        form=("difference" if " - " in rule else "ratio") if baselines else "",
        statistic=new.statistic,  # one aggregation per metric across claims
        stored=f"{verdict} ({_V1_COMMIT}, 2026-12-01): measured {measured:.4g}, rule {rule}",
    )


# The review of 2026-12-01 (after quick run 20261201T124256866744Z, commit 19a3412) widened every
# small-sample comparison interval (paired_interval: the wider of the bootstrap and a t / delta-method /
# order-statistic interval), gave sc_outperforms the gradient-free baselines the equal-information
# item asks for, and made dcopf_violation an exact per-instance check. name: verdict in that run.
_REVIEW_RUN = "quick run 20261201T124256866744Z, commit 19a3412"
_REVIEW_VERDICTS = {
    "stage2_gain": "refuted",
    "stage2_gain_long": "refuted",
    "beats_adam_rastrigin10": "toy-verified",
    "outperforms_rastrigin10": "refuted",
    "beats_adam_ackley10": "inconclusive",
    "outperforms_ackley10": "refuted",
    "zero_shot_rastrigin100": "toy-verified",
    "zero_shot_outperforms_rastrigin100": "toy-verified",
    "zero_shot_ackley100": "refuted",
    "zero_shot_outperforms_ackley100": "refuted",
    "orders_rastrigin10": "refuted",
    "orders_ackley10": "refuted",
    "orders_ackley100": "refuted",
    "blackbox_outperforms_rastrigin10": "refuted",
    "blackbox_outperforms_ackley10": "refuted",
    "blackbox_zero_shot_rastrigin100": "refuted",
    "blackbox_zero_shot_ackley100": "refuted",
    "gen_outperforms_rastrigin10_s20": "toy-verified",
    "gen_outperforms_rastrigin10_s80": "refuted",
    "gen_outperforms_ackley10_s20": "refuted",
    "gen_outperforms_ackley10_s80": "refuted",
    "wide_prior_beats_narrow_rastrigin10_s80": "toy-verified",
    "wide_prior_beats_narrow_ackley10_s80": "toy-verified",
    "ik_beats_adam10": "inconclusive",
    "ik_beats_adam10_n10": "inconclusive",
    "ik_outperforms10": "refuted",
    "ik_zero_shot100": "inconclusive",
    "sc_gap_vs_cma": "toy-verified",
    "sc_outperforms": "toy-verified",
    "dcopf_violation": "inconclusive",
}
_REVIEW_CHANGE = {
    "sc_outperforms": "baselines CMA-ES (random start) and Adam only, now also CMA-ES from FlowOptimizer's"
    " start information and DE (equal information), and the comparison interval the paired bootstrap"
    " alone, now the wider of it and the t delta-method interval",
    "dcopf_violation": "no interval (so always inconclusive), now statistic max over runner seeds with"
    " <key>_ci = 0, an exact per-instance check",
}
_WIDENED = (
    "comparison interval the paired percentile bootstrap alone (too narrow below ~10 pairs), now the"
    " wider of it and a small-sample interval (paired_interval)"
)


def _with_review(claim: Claim) -> Claim:
    if claim.name not in _REVIEW_VERDICTS:
        return claim
    change = _REVIEW_CHANGE.get(claim.name, _WIDENED)
    note = (
        f"2026-12-01: {change}, verdict then {_REVIEW_VERDICTS[claim.name]} ({_REVIEW_RUN}); a review"
        " found the old interval or baseline set too weak; the rule and threshold are unchanged"
    )
    return replace(claim, revised=f"{claim.revised}; then {note}" if claim.revised else note)


CLAIMS = tuple(_with_review(_with_revision(c)) for c in _NEW_CLAIMS) + tuple(_original(name) for name in _V1)

_METHOD_NAMES = {
    "flow": "FlowOptimizer",
    "flow_stage1": "FlowOptimizer, stage 1 only",
    "flow_long": "FlowOptimizer, stage-2 study checkpoint",
    "flow_gf": "FlowOptimizer, gradient-free weights",
    "flow_narrow": "FlowOptimizer trained on the narrow prior",
    "cma": "CMA-ES",
    "cma_centre": "CMA-ES (centred start)",
    "cma_ipop": "IPOP-CMA-ES",
    "cma_ipop_centre": "IPOP-CMA-ES (centred start)",
    "ngopt_centre": "NGOpt (centre start)",
    "adam": "Adam multistart",
    "de": "differential evolution",
    "ngopt": "NGOpt",
    "l2o": "L2O-DM",
}


_SPECIAL_NAMES = {
    "stage2_iterations_rastrigin_long": "stage-2 iterations of the selected checkpoint",
    "dcopf_binding_lines_mean": "mean binding line limits at the optimum",
}


def _display_name(key: str) -> str:
    """The report's name of a baseline, control or context metric, e.g. ``rastrigin_cma_ipop`` -> IPOP-CMA-ES."""
    if key in _SPECIAL_NAMES:
        return _SPECIAL_NAMES[key]
    if key.startswith("dcopf_max_violation_pu"):
        method = key.removeprefix("dcopf_max_violation_pu").lstrip("_") or "flow"
        return f"{_METHOD_NAMES[method]} max violation"
    for method in sorted(_METHOD_NAMES, key=len, reverse=True):  # cma_ipop before cma
        if key.endswith("_" + method):
            return _METHOD_NAMES[method]
    raise KeyError(f"no display name for metric {key!r}")


NAMES = {k: _display_name(k) for c in CLAIMS for k in (*c.relative_to, *c.controls, *c.context)}

from icml26.common.schema import Bool, Choice, Device, Float, Int, Names  # noqa: E402 (the schema block sits beside the experiment)

SCHEMA = {  # each profile key's type and range (icml26.common.schema); check() keeps the cross-key rules
    "dcopf_case": Choice(tuple(CASES)),
    ("dcopf_load_low", "dcopf_load_high"): Float(0, 10, low_open=True),
    ("ik_links", "sc_suppliers", "sc_customers"): Int(1, 1000),
    ("sc_budget", "budget", "budget_small"): Int(1, 10**7),
    "zero_shot_factor": Int(1, 10**4),
    ("population", "steps"): Int(1, 10**5),
    "threads": Int(1, 256),
    "device": Device(),
    "dim": Int(2, 10**4),
    ("n_instances", "n_zero_shot", "dcopf_instances", "gen_instances"): Int(1, 10**4),
    "gen_fractions": Names(Float(0, 1, high_open=True), 1, 16),
    ("gen_edge", "gen_zero_shot", "pretrained"): Bool(),
    ("stage1_iterations", "stage2_iterations", "l2o_iterations"): Int(0, 10**6),
    ("baselines", "baselines_zero_shot", "gen_baselines"): Names(Choice(tuple(BASELINES)), 1, len(BASELINES)),
}


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
            "n_zero_shot": 2,
            "gen_instances": 2,
            "gen_fractions": "0.2,0.8",
            "gen_edge": True,
            "gen_zero_shot": False,
            "budget": 64,
            "budget_small": 32,
            "population": 8,
            "steps": 8,
            "pretrained": False,
            "stage1_iterations": 3,
            "dcopf_case": "case9",
            "dcopf_load_low": 0.8,
            "dcopf_load_high": 1.2,
            "dcopf_instances": 1,
            "stage2_iterations": 1,
            "l2o_iterations": 2,
            "baselines": "cma,cma_centre,cma_ipop,cma_ipop_centre,adam,de,l2o",
            "baselines_zero_shot": "cma_centre,adam,l2o",
            "gen_baselines": "cma_centre,cma_ipop_centre",
        },
        "quick": {  # sized for 4 minutes on the shared 2 cores; the full set is the paper profile
            **_COMMON,
            "dim": 10,
            "n_instances": 10,
            "n_zero_shot": 5,
            "dcopf_instances": 10,
            "gen_instances": 5,
            "gen_fractions": "0.2,0.8",
            "gen_edge": False,
            "gen_zero_shot": False,
            "pretrained": True,
            "stage1_iterations": 0,
            "stage2_iterations": 0,
            "l2o_iterations": 0,
            "baselines": "cma,cma_centre,cma_ipop,cma_ipop_centre,adam,de,l2o",
            "baselines_zero_shot": "cma_centre,adam,l2o",
            "gen_baselines": "cma_centre,cma_ipop_centre",
        },
        "paper": {
            **_COMMON,
            "dim": 10,
            "n_instances": 20,
            "n_zero_shot": 20,
            "dcopf_instances": 20,
            "gen_instances": 20,
            "gen_fractions": "0.2,0.4,0.6,0.8",
            "gen_edge": True,
            "gen_zero_shot": True,
            "pretrained": True,
            "stage1_iterations": 0,
            "stage2_iterations": 0,
            "l2o_iterations": 0,
            "baselines": "cma,cma_centre,cma_ipop,cma_ipop_centre,adam,de,l2o,ngopt,ngopt_centre",
            "baselines_zero_shot": "cma,cma_centre,cma_ipop,cma_ipop_centre,adam,de,l2o,ngopt,ngopt_centre",
            "gen_baselines": "cma_centre,cma_ipop_centre,ngopt_centre",
        },
    },
    claims=CLAIMS,
    description=__doc__ or "",
    check=check,
    schema=SCHEMA,
    cost=cost,
    names=NAMES,
    resources=Resources(cpus=1),  # torch on one thread per seed (config key threads); memory from cost()
)
