"""Generate NeuronCtrl's shipped weights (src/icml26/neuronctrl/weights/ecs_rd.pt) from TRAIN_CONFIG.

Usage: /work/heavy env PYTHONPATH=src python tools/train_neuronctrl.py [--benchmark B] [--seed S] [--small]
(``--small`` shrinks every count for a test of the script; its output goes to a temporary path.)
"""

import argparse
import json
import time
from pathlib import Path

import numpy as np
import torch

from icml26.neuronctrl.controller import NeuronCtrl, build_modules, save_models
from icml26.neuronctrl.shipped import train_config, weights_path
from icml26.neuronctrl.training import (
    distill,
    distill_targets,
    make_labels,
    margin_from,
    rollouts,
    train_generator,
    train_observer,
    train_operator,
)


def train(config: dict, out: Path) -> dict:
    torch.set_num_threads(1)
    torch.manual_seed(config["seed"])
    times, t0 = {}, time.time()
    bench = config["benchmark"]
    data = rollouts(config["train_morphs"], config["episodes"], config["steps"], config["seed"], bench)
    val = rollouts(config["val_morphs"], 2, config["steps"], config["seed"] + 1, bench)
    m = data[0]["rig"].m
    mods = build_modules(config, m)
    times["data"] = time.time() - t0
    curves = {"observer": [], "operator": [], "distill": []}  # validation curves (the convergence premise)
    obs_loss = train_observer(mods["observer"], data, config["obs_iters"], config["batch"], config["seed"],
                              val=val, curve=curves["observer"])  # fmt: skip
    times["observer"] = time.time() - t0
    op_loss = train_operator(
        mods["operator"], data, config["op_iters"], config["batch"], config["rollout"], config["seed"],
        val=val, curve=curves["operator"],
    )  # fmt: skip
    times["operator"] = time.time() - t0
    labels = make_labels(
        mods["observer"],
        mods["operator"],
        data,
        config["labels"],
        config["chunk"],
        config["label_horizon"],
        config["label_pop"],
        config["label_iters"],
        config["seed"],
    )
    times["labels"] = time.time() - t0
    gen_loss = train_generator(mods["generator"], labels, config["gen_iters"], 128, config["seed"])
    times["generator"] = time.time() - t0
    margin = margin_from(mods["operator"], val, config["conformal_alpha"])
    ctrl = NeuronCtrl(
        mods["observer"],
        mods["operator"],
        mods["generator"],
        k_samples=config["k_samples"],
        ode_steps=config["ode_steps"],
        chunk=config["chunk"],
        margin=margin,
    )
    # held-out conditions (validation morphologies) and the validation controller draw from a forked
    # generator, so the training draws are unchanged
    with torch.random.fork_rng():
        vlab = make_labels(mods["observer"], mods["operator"], val, max(4, config["labels"] // 5), config["chunk"],
                           config["label_horizon"], config["label_pop"], config["label_iters"],
                           config["seed"] + 2)  # fmt: skip
        vctrl = NeuronCtrl(mods["observer"], mods["operator"], mods["generator"], k_samples=config["k_samples"],
                           ode_steps=config["ode_steps"], chunk=config["chunk"], margin=margin)  # fmt: skip
        vset = (vlab["cond"], distill_targets(vctrl, vlab, val))
    dis_loss = distill(ctrl, mods["policy"], labels, data, config["distill_iters"], 128, config["seed"],
                       val=vset, curve=curves["distill"])  # fmt: skip
    times["distill"] = time.time() - t0
    extra = {
        "m": m,
        "margin": margin,
        "times": times,
        "val_curves": curves,
        "losses": {
            k: [float(np.mean(v[:20])), float(np.mean(v[-20:]))]
            for k, v in (
                ("observer", obs_loss),
                ("operator", op_loss),
                ("generator", gen_loss),
                ("distill", dis_loss),
            )
        },
    }
    save_models(out, config, mods, extra)
    return extra


def recompute_margin(config: dict, path: Path) -> float:
    """Only the margin, from the stored weights (what a full run of ``train`` would compute, cheaply)."""
    from icml26.neuronctrl.controller import load_models

    torch.set_num_threads(1)
    torch.manual_seed(config["seed"])
    bench = config["benchmark"]
    rollouts(config["train_morphs"], config["episodes"], config["steps"], config["seed"], bench)  # same draws
    val = rollouts(config["val_morphs"], 2, config["steps"], config["seed"] + 1, bench)
    cfg, mods, extra = load_models(path, config)
    extra["margin"] = margin_from(mods["operator"], val, config["conformal_alpha"])
    save_models(path, cfg, mods, extra)
    return extra["margin"]


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--small", action="store_true")
    ap.add_argument("--margin-only", action="store_true")
    ap.add_argument("--benchmark", default="ecs_rd", choices=("ecs_rd", "dbs", "astro_k"))
    ap.add_argument("--seed", type=int, default=0, help="training seed of the learned parts")
    ap.add_argument("--out", type=Path, default=None, help="default: the shipped path of (benchmark, seed)")
    args = ap.parse_args()
    cfg = train_config(args.benchmark, args.seed)
    args.out = args.out or weights_path(args.benchmark, args.seed)
    if args.small:
        cfg.update(
            train_morphs=[0],
            val_morphs=[50],
            episodes=1,
            steps=12,
            obs_iters=3,
            op_iters=3,
            labels=4,
            gen_iters=3,
            distill_iters=3,
        )
    if args.margin_only:
        print(json.dumps({"margin": recompute_margin(cfg, args.out)}))
    else:
        print(json.dumps(train(cfg, args.out), indent=1))
