"""Experiment: personalised accuracy, communication and computation of FedPissa and five LoRA baselines.

Text track: WordNet noun glosses -> the 10 most frequent supersenses, all-MiniLM-L6-v2 with its bottom
layers frozen and cached, LoRA (rank ``r``) on ``query``/``value`` of the top ``n_top`` layers, a local
head; ``n_clients`` clients with Dirichlet(``alpha``) label skew, each split 80/20 into personal
train/test. Every method gets the same rank, rounds, local steps and learning-rate grid; with more than
one learning rate, each method's is chosen per seed on a validation fifth of every client's train split
(the reported accuracy is then of the models trained on the other four fifths). Intervals: a paired
bootstrap over seeds and clients (the same resamples for every method). The vision track (Fashion-MNIST,
a tiny ViT) is not built: its tests are blocked.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from icml26.common import (
    Experiment,
    Resources,
    Result,
    check_device,
    comparison_key,
    progress,
    unit,
)
from icml26.common.schema import Bool, Choice, Device, Float, Int, ListOf
from icml26.fedpissa import claims
from icml26.fedpissa.data import ClientData, make_clients, supersense_task
from icml26.fedpissa.federation import (
    BASELINES,
    FedPissa,
    FedPissaConfig,
    count_correct,
    local_train,
)

VARIANTS: dict[str, dict[str, Any]] = {
    "fedpissa": {"method": "fedpissa", "init": "pissa"},
    **{b: {"method": b, "init": "lora"} for b in BASELINES},
}
ABLATIONS: dict[str, dict[str, Any]] = {
    "abl_noconflict": {"method": "fedpissa", "init": "pissa", "conflict": "none"},
    "abl_nomap": {"method": "fedpissa", "init": "pissa", "map": "none"},
    "abl_lorainit": {"method": "fedpissa", "init": "lora"},
    "abl_selecta": {"method": "fedpissa", "init": "pissa", "select": "A"},
}


def alpha_tag(alpha: float) -> str:
    return "a" + f"{alpha:g}".replace(".", "")


def _split_val(clients: list[ClientData], seed: int) -> list[ClientData]:
    """Each client's train split cut 80/20 into train' and a validation set (held in ``test``)."""
    out = []
    for k, c in enumerate(clients):
        perm = torch.randperm(c.n_train, generator=torch.Generator().manual_seed(seed * 7919 + k))
        n_val = max(1, c.n_train // 5)
        va, tr = perm[:n_val], perm[n_val:]
        out.append(
            ClientData(
                tuple(t[tr] for t in c.train_x),
                c.train_y[tr],
                tuple(t[va] for t in c.train_x),
                c.train_y[va],
            )
        )
    return out


def _evaluate(fed: FedPissa, clients: list[ClientData]) -> np.ndarray:
    correct = []
    for k, c in enumerate(clients):
        with torch.no_grad():
            for name, p in fed.model_.named_parameters():
                if name in fed.states_[k]:
                    p.copy_(fed.states_[k][name])
        correct.append(count_correct(fed.model_, c.test_x, c.test_y))
    return np.asarray(correct, dtype=np.float64)


def _one(variant: dict[str, Any], config, clients, seed, model_fn, track: dict[str, Any]) -> dict[str, Any]:
    """Run a variant over the learning-rate grid; returns its test correct counts and counters."""
    base = {k: config[k] for k in ("local_steps", "batch", "warmup")}
    base |= {
        "r": track["r"],
        "alpha": float(track["r"]),
        "targets": track["targets"],
    }  # alpha = r
    grid = config["lr_grid"]
    train_on = _split_val(clients, seed) if len(grid) > 1 else clients
    best = None
    for lr in grid:
        fed = FedPissa(FedPissaConfig(**base, **variant, lr=lr))
        res = fed.run(
            train_on,
            config["rounds"],
            seed,
            model_fn,
            max_seconds=config["max_seconds"],
        )
        score = res.accuracy
        if best is None or score > best[0]:
            best = (score, lr, fed, res)
    _, lr, fed, res = best
    correct = res.correct if len(grid) == 1 else _evaluate(fed, clients)
    return {"correct": correct, "lr": lr, "res": res}


def _bootstrap(correct: dict[str, np.ndarray], n_test: np.ndarray, draws: int, seed: int):
    """Paired bootstrap over seeds and clients: per draw, seeds with replacement and, within each, clients
    with replacement; returns per variant the draws of (weighted accuracy, mean worst-client accuracy)."""
    rng = np.random.default_rng(seed)
    s, k = n_test.shape
    acc = {v: np.empty(draws) for v in correct}
    worst = {v: np.empty(draws) for v in correct}
    for b in range(draws):
        seeds = rng.integers(0, s, s)
        cl = rng.integers(0, k, (s, k))
        n = n_test[seeds[:, None], cl]
        for v, c in correct.items():
            cc = c[seeds[:, None], cl]
            acc[v][b] = cc.sum() / n.sum()
            worst[v][b] = (cc / n).min(axis=1).mean()
    return acc, worst


def _timing(config, clients, model_fn, seed, track) -> dict[str, list[float]]:
    """CPU seconds per local step of FedPissa's and dual-LoRA's models: ``timing_repeats`` interleaved
    repeats of ``timing_steps`` steps on the first client."""
    base = {
        "r": track["r"],
        "alpha": float(track["r"]),
        "batch": config["batch"],
        "targets": track["targets"],
    }
    models = {
        "fedpissa": FedPissa(FedPissaConfig(method="fedpissa", init="pissa", **base)).build(model_fn, seed),
        "dual": FedPissa(FedPissaConfig(method="dual", init="lora", **base)).build(model_fn, seed),
    }
    c = clients[0]
    out: dict[str, list[float]] = {m: [] for m in models}
    for rep in range(config["timing_repeats"]):
        for name, (model, params) in models.items():
            g = torch.Generator().manual_seed(rep)
            steps = config["timing_steps"]
            cpu = local_train(
                model,
                list(params.values()),
                c.train_x,
                c.train_y,
                steps,
                1e-3,
                config["batch"],
                g,
            )
            out[name].append(cpu / steps)
    return out


def _track(
    tag,
    make,
    model_fn,
    track,
    variants,
    config,
    seed,
    seeds,
    metrics,
    tables,
    first: bool,
) -> None:
    """All variants on one track and label skew: accuracies, worst clients, paired bootstrap intervals."""
    correct: dict[str, list[np.ndarray]] = {v: [] for v in variants}
    n_test = []
    for s in progress(seeds, f"fedpissa {tag}"):
        clients = make(s)
        n_test.append(np.asarray([len(c.test_y) for c in clients], dtype=np.float64))
        fractions = []
        for v, spec in variants.items():
            out = unit(
                f"{tag}_{v}_seed={s}",
                lambda spec=spec, clients=clients, s=s: _one(spec, config, clients, s, model_fn, track),
            )
            correct[v].append(out["correct"])
            res = out["res"]
            tables["runs"].append({"track": tag, "seed": s, "variant": v, "lr": out["lr"],
                                   "accuracy": float(out["correct"].sum() / n_test[-1].sum()),
                                   "floats_per_round": res.floats_per_round,
                                   "trainable_params": res.trainable_params})  # fmt: skip
            if v == "fedpissa":
                for m, f in res.mask.items():
                    tables["mask"].append(
                        {
                            "track": tag,
                            "seed": s,
                            "module": m,
                            "shared": f,
                            **res.dynamics[m],
                        }
                    )
                fractions.append(np.mean([f == "A" for f in res.mask.values()]))
            if first and s == seeds[0] and v in ("fedpissa", "dual"):
                name = tag.split("_")[0]
                metrics[f"{v}_floats_{name}"] = res.floats_per_round
                metrics[f"{v}_trainable_{name}"] = float(res.trainable_params)
        metrics.setdefault(f"_fractions_{tag}", []).extend(fractions)
    nt = np.stack(n_test)
    cor = {v: np.stack(c) for v, c in correct.items()}
    acc_draws, worst_draws = _bootstrap(cor, nt, config["bootstrap"], seed)
    for v in variants:
        metrics[f"{v}_acc_{tag}"] = float(cor[v].sum() / nt.sum())
        metrics[f"{v}_worst_{tag}"] = float((cor[v] / nt).min(axis=1).mean())
        for stat, draws in (("acc", acc_draws), ("worst", worst_draws)):
            lo, hi = np.quantile(draws[v], [0.025, 0.975])
            (
                metrics[f"{v}_{stat}_{tag}_ci_low"],
                metrics[f"{v}_{stat}_{tag}_ci_high"],
            ) = float(lo), float(hi)
    for v in variants:
        if v == "fedpissa":
            continue
        for stat, draws in (("acc", acc_draws), ("worst", worst_draws)):
            ours, theirs = f"fedpissa_{stat}_{tag}", f"{v}_{stat}_{tag}"
            with np.errstate(divide="ignore", invalid="ignore"):
                ratio = draws["fedpissa"] / draws[v]
            for form, vals in (("ratio", ratio), ("difference", draws["fedpissa"] - draws[v])):
                vals = np.where(np.isfinite(vals), vals, np.nan)  # a draw where the baseline scored 0
                lo, hi = np.nanquantile(vals, [0.025, 0.975]) if np.isfinite(vals).any() else (np.nan, np.nan)
                key = comparison_key(ours, theirs, form)
                metrics[key + "_ci_low"], metrics[key + "_ci_high"] = (
                    float(lo),
                    float(hi),
                )
    fr = metrics.pop(f"_fractions_{tag}")
    metrics[f"share_a_fraction_{tag}"] = float(np.mean(fr))
    if len(fr) > 1:
        (
            metrics[f"share_a_fraction_{tag}_ci_low"],
            metrics[f"share_a_fraction_{tag}_ci_high"],
        ) = min(fr), max(fr)


def run(config: dict[str, Any], seed: int) -> Result:
    metrics: dict[str, float] = {}
    tables: dict[str, list[dict[str, Any]]] = {"runs": [], "mask": []}
    seeds = [seed * 1000 + i for i in range(config["n_seeds"])]
    notes = [f"seeds {seeds}"]
    if "text" in config["tracks"]:
        from icml26.fedpissa.text import TextTop, frozen_features

        texts, labels, names = unit(
            "wordnet",
            lambda: supersense_task(config["n_classes"], config["per_class"], 0),
        )
        hidden, mask, top = frozen_features(texts, config["n_top"], config["max_len"])
        y = torch.from_numpy(labels)

        def text_model(s: int):
            return TextTop(top, config["n_classes"], s)

        def text_clients(s: int, alpha: float):
            return make_clients((hidden, mask), y, config["n_clients"], alpha, s)

        text = {"r": config["r"], "targets": ("query", "value")}
        for a_i, alpha in enumerate(config["alphas"]):
            variants = dict(VARIANTS) | (ABLATIONS if config["ablations"] and a_i == 0 else {})
            _track(f"text_{alpha_tag(alpha)}", lambda s, alpha=alpha: text_clients(s, alpha), text_model, text,
                   variants, config, seed, seeds, metrics, tables, a_i == 0)  # fmt: skip
        timing = unit(
            "timing",
            lambda: _timing(
                config,
                text_clients(seeds[0], config["alphas"][0]),
                text_model,
                seed,
                text,
            ),
        )
        _timing_metrics(metrics, timing, "text")
        notes.append(f"text classes: {', '.join(names)}; {len(texts)} glosses")
    if "vision" in config["tracks"]:
        from icml26.fedpissa.vision import load_backbone, make_vision_clients

        vision = {"r": config["vision_r"], "targets": ("qkv", "fc1")}
        va = config["vision_alpha"]

        def vision_clients(s: int):
            return make_vision_clients(config["vision_clients"], va, s, per_client_cap=config["vision_cap"])

        _track(f"vision_{alpha_tag(va)}", vision_clients, load_backbone, vision, dict(VARIANTS), config, seed,
               seeds, metrics, tables, True)  # fmt: skip
        timing = unit(
            "timing_vision",
            lambda: _timing(config, vision_clients(seeds[0]), load_backbone, seed, vision),
        )
        _timing_metrics(metrics, timing, "vision")
    blocked = {}
    if "vision" not in config["tracks"] or config["vision_alpha"] != 0.3:
        blocked |= {name: "the vision track at Dir(0.3) is not in this profile's tracks"
                    for name in ("accuracy_vision_a03", "vision_vs_fedavg_plus3")}  # fmt: skip
    if "text" not in config["tracks"]:
        blocked |= {
            c.name: "the text track is not in this profile's tracks"
            for c in claims.TESTS
            if "text" in c.metric
        }
    if not config["ablations"]:
        blocked |= {
            name: "ablations are off in this profile (ablations=false)" for name in claims.ABLATION_TESTS
        }
    if 0.5 not in config["alphas"]:
        blocked["accuracy_text_a05"] = "Dir(0.5) is not in this profile's alphas"
    return Result(metrics=metrics, tables=tables, blocked=blocked, notes=notes)


def _timing_metrics(metrics: dict[str, float], timing: dict[str, list[float]], name: str) -> None:
    for v, vals in timing.items():
        metrics[f"{v}_cpu_step_{name}"] = float(np.median(vals))
        (
            metrics[f"{v}_cpu_step_{name}_ci_low"],
            metrics[f"{v}_cpu_step_{name}_ci_high"],
        ) = min(vals), max(vals)
    ratios = np.asarray(timing["fedpissa"]) / np.asarray(timing["dual"])
    key = comparison_key(f"fedpissa_cpu_step_{name}", f"dual_cpu_step_{name}", "ratio")
    metrics[key + "_ci_low"], metrics[key + "_ci_high"] = (
        float(ratios.min()),
        float(ratios.max()),
    )


def check(config: dict[str, Any]) -> None:
    if config["warmup"] >= config["rounds"]:
        raise ValueError(f"warmup ({config['warmup']}) must be below rounds ({config['rounds']})")
    if config["r"] > 384:
        raise ValueError(f"r must be at most 384 (MiniLM's width), got {config['r']}")
    if config["n_clients"] * 10 > config["n_classes"] * config["per_class"]:
        raise ValueError("too few glosses for the clients: n_classes * per_class must be >= 10 * n_clients")
    if config["vision_clients"] % 4:
        raise ValueError(
            f"vision_clients must be a multiple of 4 (four rotations), got {config['vision_clients']}"
        )
    check_device(config["device"])


def cost(config: dict[str, Any]) -> tuple[float, float]:
    """CPU seconds of one seed on one core: about 45 ms per text local step (batch 32, length 16, one
    layer) and 20 ms per vision step, plus feature extraction (5 ms a gloss, once) and the timing."""
    total = 10.0
    reps = len(config["lr_grid"]) * config["n_seeds"] * config["rounds"] * config["local_steps"] * 1.1
    timing = 2 * config["timing_repeats"] * config["timing_steps"]
    if "text" in config["tracks"]:
        step = 0.045 * config["n_top"] * (config["batch"] / 32) * (config["max_len"] / 16)
        runs = len(VARIANTS) * len(config["alphas"]) + (len(ABLATIONS) if config["ablations"] else 0)
        total += runs * config["n_clients"] * reps * step + 0.005 * config["n_classes"] * config["per_class"]
        total += timing * step
    if "vision" in config["tracks"]:
        step = 0.02 * config["batch"] / 32
        total += len(VARIANTS) * config["vision_clients"] * reps * step + timing * step + 5
    return total, 3e9


_COMMON = {"tracks": ["text"], "vision_clients": 20, "vision_alpha": 0.3, "vision_r": 4, "vision_cap": 600,
           "n_classes": 10, "n_clients": 10, "r": 8, "warmup": 3, "local_steps": 5, "batch": 32, "max_len": 16,
           "bootstrap": 1000, "max_seconds": 3600.0, "device": "cpu"}  # fmt: skip
_SMOKE = {**_COMMON, "per_class": 30, "n_clients": 4, "alphas": [0.1], "n_seeds": 1, "rounds": 4, "warmup": 2,
          "local_steps": 2, "batch": 16, "max_len": 8, "n_top": 1, "lr_grid": [3e-3], "ablations": False,
          "timing_repeats": 2, "timing_steps": 2, "bootstrap": 100}  # fmt: skip
_QUICK = {**_COMMON, "per_class": 300, "alphas": [0.1], "n_seeds": 1, "rounds": 10, "n_top": 1,
          "lr_grid": [3e-3], "ablations": False, "timing_repeats": 3, "timing_steps": 20}  # fmt: skip
_PAPER = {**_COMMON, "tracks": ["text", "vision"], "per_class": 600, "alphas": [0.1, 0.5], "n_seeds": 3, "rounds": 20, "n_top": 2,
          "lr_grid": [1e-3, 3e-3, 1e-2], "ablations": True, "timing_repeats": 5, "timing_steps": 50}  # fmt: skip

SCHEMA = {  # each profile key's type and range (icml26.common.schema); check() keeps the cross-key rules
    "tracks": ListOf(Choice(("text", "vision")), 1, 2, distinct=True),
    "vision_clients": Int(4, 100),  # check(): a multiple of 4 (one rotation per quarter of the clients)
    "vision_alpha": Float(0, 100, low_open=True),
    "vision_r": Int(1, 64),
    "vision_cap": Int(20, 30_000),  # at most this many images per client (drawn with the seed)
    "n_classes": Int(2, 26),
    "per_class": Int(5, 2900),  # the 10th class (noun.substance) has 2,983 glosses
    "n_clients": Int(1, 100),
    "alphas": ListOf(Float(0, 100, low_open=True), 1, 4, distinct=True),  # Dirichlet concentration > 0
    "n_seeds": Int(1, 10),
    "rounds": Int(2, 500),
    "warmup": Int(1, 100),
    "local_steps": Int(1, 1000),
    "batch": Int(1, 1024),
    "r": Int(1, 384),
    "n_top": Int(1, 6),
    "max_len": Int(4, 128),
    "lr_grid": ListOf(Float(0, 1, low_open=True), 1, 5, distinct=True),
    "ablations": Bool(),
    "timing_repeats": Int(1, 20),
    "timing_steps": Int(1, 1000),
    "bootstrap": Int(50, 100_000),
    "max_seconds": Float(1, 1e6),
    "device": Device(),
}


EXPERIMENT = Experiment(
    method="fedpissa",
    title="FedPissa: Towards Federated Personalized Adaptation of Foundation Models via LoRA Subspace Mapping",
    paper="He, Huang, Liu, Liang, Li, Pang, Ye; ICML 2026; OpenReview ZEWN40uNEh (only the abstract is public)",
    run=run,
    profiles={"smoke": _SMOKE, "quick": _QUICK, "paper": _PAPER},
    check=check,
    schema=SCHEMA,
    cost=cost,
    resources=Resources(cpus=1),
    names=claims.NAMES,
    claims=claims.TESTS,
    paper_claims=claims.PAPER_CLAIMS,
    background=claims.BACKGROUND,
)
