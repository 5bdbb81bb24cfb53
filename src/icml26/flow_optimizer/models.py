"""FlowOptimizer's and L2O-DM's models for the experiment: the shipped weights, or both stages trained here."""

from __future__ import annotations

from typing import Any

from icml26.common import unit
from icml26.flow_optimizer.l2o import L2OOptimizer
from icml26.flow_optimizer.mixture import MixtureClass
from icml26.flow_optimizer.optimizer import FlowOptimizer
from icml26.flow_optimizer.power_grid import DCOPFClass
from icml26.flow_optimizer.problems import ProblemClass
from icml26.flow_optimizer.robotics import IKClass
from icml26.flow_optimizer.supply_chain import SupplyChainClass
from icml26.flow_optimizer.train import L2O_TRAIN_CONFIG, TRAIN_CONFIG


def train_or_load(
    key: str,
    problem: ProblemClass | MixtureClass | DCOPFClass | IKClass | SupplyChainClass,
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
        if isinstance(problem, MixtureClass):
            base = TRAIN_CONFIG["mixture-10-gradfree"]
        elif isinstance(problem, DCOPFClass):
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


def load_models(config: dict[str, Any], seed: int) -> tuple[dict[str, Any], dict[str, float], list[str]]:
    """The FlowOptimizer (and L2O-DM) models per class, their training seconds per stage, and notes."""
    d = config["dim"]
    models: dict[str, Any] = {}
    seconds, notes = {}, []
    use_l2o = "l2o" in config["baselines"].split(",") + config["baselines_zero_shot"].split(",")
    for name in ("rastrigin", "ackley"):
        wide, narrow = ProblemClass(name, d), ProblemClass(name, d, prior="narrow")
        models[name], models[name + "_stage1"] = unit(
            f"model_{name}", lambda name=name, wide=wide: train_or_load(f"{name}-{d}", wide, config, seed)
        )
        models[name + "_gf"], _ = unit(
            f"model_{name}_gradfree",
            lambda name=name, wide=wide: train_or_load(f"{name}-{d}-gradfree", wide, config, seed, False),
        )
        models[name + "_narrow"], _ = unit(
            f"model_{name}_narrow",
            lambda name=name, narrow=narrow: train_or_load(f"{name}-{d}-narrow", narrow, config, seed),
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
        lambda: train_or_load(f"rastrigin-{d}-long", ProblemClass("rastrigin", d), config, seed, True, 10),
    )
    seconds["train_stage2_seconds_rastrigin_long"] = models["rastrigin_long"].log_.stage2_seconds
    seconds["stage2_iterations_rastrigin_long"] = float(len(models["rastrigin_long"].log_.stage2_loss))
    if config["pretrained"]:
        notes.append(
            "models: shipped weights from python -m icml26.flow_optimizer.train (training times are theirs)"
        )
    return models, seconds, notes
