"""Experiment: robust accuracy of networks trained on distilled Fashion-MNIST sets (C²R vs baselines).

For each IPC and distillation seed: distil with random / DM / ROME-like / C²R (and, in ``paper``, the
ablations no-AAC, no-CRL, no-queue and C²R with PGD-10 inside the loop); ROME-like and C²R share the
pool, the iterations, the IPC and the ``eta_grid`` (picked on a held-out real validation split by
mean PGD-10/FGSM robust accuracy); train ``eval_nets`` fresh ConvNet-3 per set under each protocol;
attack ``n_test`` test images at ``eps``. Intervals: a two-way bootstrap (distillation seeds crossed
with test images, ``bootstrap.py``), paired across methods.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from scipy import stats

from icml26.c2r import claims
from icml26.c2r.bootstrap import bootstrap_weights, interval, resampled_means
from icml26.c2r.data import DATASETS, load
from icml26.c2r.distill import METHODS, DistilledSet
from icml26.c2r.evaluate import ATTACKS, PROTOCOLS, correct_under_attack, train_network
from icml26.c2r.margins import logit_margin, perturbation_score, pgd, robust_hinge
from icml26.c2r.pool import load_pool, pool_subset
from icml26.common import Experiment, Resources, Result, check_device, comparison_key, progress, unit
from icml26.common.schema import Bool, Choice, Device, Float, Int, ListOf

BASELINES = ("random", "dm", "rome")
ABLATIONS = {
    "c2r_no_aac": {"curriculum": False},
    "c2r_no_crl": {"contrastive": False},
    "c2r_no_queue": {"queue_size": 0},
    "c2r_pgd10": {"inner_attack": "pgd10"},
}


def _distiller(method: str, config: dict[str, Any], eta: float):
    shared = {
        "iterations": config["iterations"],
        "lr_img": config["lr_img"],
        "real_per_class": config["real_per_class"],
    }
    if method == "random":
        return METHODS["random"](**shared)
    if method == "dm":
        return METHODS["dm"](**shared)
    kw = {**shared, "eta": eta, "eps": config["eps"]}
    if method == "rome":
        return METHODS["rome"](**kw)
    return METHODS["c2r"](**kw, score_steps=config["score_steps"], **ABLATIONS.get(method, {}))


def _robust_on(net, x, y, attacks, eps) -> float:
    return float(np.mean([correct_under_attack(net, x, y, a, eps).mean() for a in attacks]))


def _distil(method, config, ipc, seed, data, pool) -> tuple[DistilledSet, float]:
    """The distilled set, with ``eta`` picked on the validation split when the grid has several values."""
    x, y, xv, yv = data
    grid = config["eta_grid"] if method not in ("random", "dm") else [0.0]
    best = None
    for eta in grid:
        distilled = _distiller(method, config, eta).distill(x, y, ipc, seed, pool)
        if len(grid) == 1:
            return distilled, eta
        net = train_network(distilled.images, distilled.labels, 10_000 + seed, config["eval_epochs"])
        score = _robust_on(net, xv, yv, ("fgsm", "pgd10"), config["eps"])
        if best is None or score > best[0]:
            best = (score, distilled, eta)
    return best[1], best[2]


def _evaluate(distilled: DistilledSet, config, seed, test, protocol, geometry: bool) -> dict[str, np.ndarray]:
    """Per attack, the (eval_nets, n_test) correctness of fresh networks trained on the set; with
    ``geometry``, also each test image's ``invariance`` (cosine of its clean and PGD-10 embeddings) and
    ``margin`` (its logit margin under PGD-10: the separation of the classes where attacks land)."""
    xt, yt = test
    out: dict[str, list[np.ndarray]] = {}
    for e in range(config["eval_nets"]):
        net = train_network(
            distilled.images, distilled.labels, 100 * seed + e, config["eval_epochs"], protocol=protocol
        )
        for attack in ("clean", *config["attacks"]):
            out.setdefault(attack, []).append(correct_under_attack(net, xt, yt, attack, config["eps"], seed))
        if geometry:
            adv = pgd(net, xt, yt, config["eps"], 10, config["eps"] / 4)
            with torch.no_grad():
                cos = torch.nn.functional.cosine_similarity(net.embed(xt), net.embed(adv), dim=1)
                out.setdefault("invariance", []).append(cos.numpy())
                out.setdefault("margin", []).append(logit_margin(net(adv), yt).numpy())
    return {a: np.stack(v) for a, v in out.items()}


def _score_hinge_correlations(distilled: DistilledSet, pool, config, seed) -> tuple[float, float]:
    """Spearman correlation with the robust hinge (PGD-50, 3 restarts: the smallest margin) of the
    perturbation score (PGD-T) and of the clean hinge (no attack), over the synthetic images and pool."""
    scores, clean, robust = [], [], []
    g = torch.Generator().manual_seed(seed)
    for net in pool:
        x, y = distilled.images, distilled.labels
        scores.append(perturbation_score(net, x, y, config["eps"], config["score_steps"], generator=g))
        with torch.no_grad():
            clean.append(robust_hinge(logit_margin(net(x), y)))
            margins = torch.stack(
                [logit_margin(net(pgd(net, x, y, config["eps"], 50, generator=g)), y) for _ in range(3)]
            )
        robust.append(robust_hinge(margins.min(0).values))
    s, c, r = (torch.cat(v).numpy() for v in (scores, clean, robust))
    return float(stats.spearmanr(s, r).statistic), float(stats.spearmanr(c, r).statistic)


def _masking_checks(distilled, config, seed, test, reference) -> dict[str, float]:
    """No gradient masking on C²R's first eval net: robust accuracy along ``eps_sweep`` (largest rise),
    PGD-50x3 minus PGD-10, and transfer from a standard net minus white-box PGD-10."""
    xt, yt = test
    net = train_network(distilled.images, distilled.labels, 100 * seed, config["eval_epochs"])
    sweep = [float(correct_under_attack(net, xt, yt, "pgd10", e, seed).mean()) for e in config["eps_sweep"]]
    pgd10 = float(correct_under_attack(net, xt, yt, "pgd10", config["eps"], seed).mean())
    strong = float(correct_under_attack(net, xt, yt, "pgd50x3", config["eps"], seed).mean())
    adv = pgd(reference, xt, yt, config["eps"], 10, config["eps"] / 4)
    with torch.no_grad():
        transfer = float((net(adv).argmax(1) == yt).float().mean())
    return {
        "eps_sweep_largest_rise": float(max(np.diff(sweep).max(initial=0.0), 0.0)),
        "pgd50x3_minus_pgd10": strong - pgd10,
        "transfer_minus_whitebox": transfer - pgd10,
    }


def experiment_split(x, y, x_test, y_test, n_val: int, n_test: int):
    """The experiment's fixed split: ``(x_train, y_train, x_val, y_val)`` with a held-out validation set of
    ``n_val`` real images (seed 1), and the ``n_test`` test images attacked (seed 0), the same for every run."""
    order = torch.randperm(len(y_test), generator=torch.Generator().manual_seed(0))[:n_test]
    holdout = torch.randperm(len(y), generator=torch.Generator().manual_seed(1))
    val_idx, train_idx = holdout[:n_val], holdout[n_val:]
    return (x[train_idx], y[train_idx], x[val_idx], y[val_idx]), (x_test[order], y_test[order])


def run(config: dict[str, Any], seed: int) -> Result:
    torch.set_num_threads(max(1, torch.get_num_threads()))
    x, y, xt_all, yt_all = load(config["dataset"])
    data, test = experiment_split(x, y, xt_all, yt_all, config["n_val"], config["n_test"])
    pool = unit("pool", lambda: load_pool(x, y, config["dataset"], config["pool_size"]))
    methods = [*BASELINES, "c2r", *(ABLATIONS if config["ablations"] else ())]
    inner = [seed * 1000 + s for s in range(config["inner_seeds"])]
    metrics: dict[str, float] = {}
    tables: dict[str, list[dict[str, Any]]] = {"accuracy": []}
    ref = None
    for ipc in config["ipcs"]:
        per: dict[str, dict[str, list]] = {}  # protocol -> method -> per-seed (attack -> (nets, n) array)
        extra: dict[str, list[float]] = {}
        for s in inner:
            for method in progress(methods, f"c2r IPC {ipc}, seed {s}"):
                distilled, eta = unit(
                    f"distill_{method}_ipc{ipc}_s{s}",
                    lambda m=method, s=s, i=ipc: _distil(m, config, i, s, data, pool),
                )
                for protocol in config["protocols"]:
                    geo = method in ("c2r", "c2r_no_crl") and protocol == "standard"
                    ev = unit(
                        f"eval_{method}_{protocol}_ipc{ipc}_s{s}",
                        lambda d=distilled, s=s, p=protocol, g=geo: _evaluate(d, config, s, test, p, g),
                    )
                    per.setdefault(protocol, {}).setdefault(method, []).append(ev)
                extra.setdefault(f"{method}_cpu_s", []).append(distilled.cpu_seconds)
                extra.setdefault(f"{method}_attack_backward", []).append(distilled.attack_backward_per_sample)
                extra.setdefault(f"{method}_eta", []).append(eta)
                if method == "c2r":
                    sp, cp = unit(
                        f"hinge_ipc{ipc}_s{s}",
                        lambda d=distilled, s=s: _score_hinge_correlations(d, pool, config, s),
                    )
                    extra.setdefault("score_hinge_spearman", []).append(sp)
                    extra.setdefault("clean_hinge_spearman", []).append(cp)
                    if config["masking_checks"] and ipc == _masking_ipc(config):
                        if ref is None:  # one reference net serves every seed's transfer attack
                            ref = unit(
                                "reference_net",
                                lambda: train_network(*[t[pool_subset(y, 2000)] for t in (x, y)], 7, 30),
                            )
                        for k, v in unit(
                            f"masking_s{s}",
                            lambda d=distilled, s=s, r=ref: _masking_checks(d, config, s, test, r),
                        ).items():
                            extra.setdefault(k, []).append(v)
        metrics |= _summarise(per, extra, ipc, config, tables, seed)
    return Result(metrics=metrics, tables=tables, blocked=_blocked(config), notes=[claims.NOTE])


def _summarise(per, extra, ipc, config, tables, seed) -> dict[str, float]:
    """Means with two-way bootstrap intervals (seeds x images), paired comparisons of C²R with each baseline."""
    out: dict[str, float] = {}
    weights = None
    for protocol, by_method in per.items():
        tag = f"ipc{ipc}" if protocol == "standard" else f"pgdat_ipc{ipc}"
        robust = {}
        for method, seeds in by_method.items():
            # per seed and image: mean over eval nets and attacks
            r = np.stack([np.mean([ev[a] for a in config["attacks"]], axis=0).mean(0) for ev in seeds])
            clean = np.stack([ev["clean"].mean(0) for ev in seeds])
            if weights is None:
                weights = bootstrap_weights(*r.shape, seed=seed)
            robust[method] = r
            for name, scores in (("robust", r), ("clean", clean)):
                key = f"{method}_{name}_{tag}"
                out[key] = float(scores.mean())
                out[key + "_ci_low"], out[key + "_ci_high"] = interval(resampled_means(scores, weights))
            for a in config["attacks"]:
                per_image = np.stack([ev[a].mean(0) for ev in seeds])
                out[f"{method}_{a}_{tag}"] = float(per_image.mean())
                out[f"{method}_{a}_{tag}_ci_low"], out[f"{method}_{a}_{tag}_ci_high"] = interval(
                    resampled_means(per_image, weights)
                )
            tables["accuracy"].append(
                {
                    "protocol": protocol,
                    "ipc": ipc,
                    "method": method,
                    "clean": round(out[f"{method}_clean_{tag}"], 4),
                    "robust": round(out[f"{method}_robust_{tag}"], 4),
                    **{a: round(out[f"{method}_{a}_{tag}"], 4) for a in config["attacks"]},
                }
            )
        ours = resampled_means(robust["c2r"], weights)
        for method in robust:
            if method == "c2r":
                continue
            theirs = resampled_means(robust[method], weights)
            for form, rep in (("ratio", ours / theirs), ("difference", ours - theirs)):
                key = comparison_key(f"c2r_robust_{tag}", f"{method}_robust_{tag}", form)
                out[key + "_ci_low"], out[key + "_ci_high"] = interval(rep)
        if "c2r_pgd10" in by_method and "pgd10" in config["attacks"]:  # LS-PGD vs PGD-10 inside the loop
            ls, full = (np.stack([ev["pgd10"].mean(0) for ev in by_method[m]]) for m in ("c2r", "c2r_pgd10"))
            key = comparison_key(f"c2r_pgd10_{tag}", f"c2r_pgd10_pgd10_{tag}", "difference")
            out[key + "_ci_low"], out[key + "_ci_high"] = interval(
                resampled_means(ls, weights) - resampled_means(full, weights)
            )
        if protocol == "standard" and "c2r_no_crl" in by_method:
            out |= _crl_geometry(by_method, tag, weights)
    for key, values in extra.items():
        v = np.asarray(values, dtype=float)
        out[f"{key}_{f'ipc{ipc}'}"] = float(v.mean())
        half = (
            float(stats.t.ppf(0.975, len(v) - 1) * v.std(ddof=1) / np.sqrt(len(v)))
            if len(v) > 1
            else float("nan")
        )
        out[f"{key}_{f'ipc{ipc}'}_ci"] = half
    if "c2r_pgd10_cpu_s" in extra:  # paired per seed: the mean ratio, a Student-t interval over seeds
        ratios = np.asarray(extra["c2r_cpu_s"]) / np.asarray(extra["c2r_pgd10_cpu_s"])
        out[f"lspgd_cpu_ratio_ipc{ipc}"] = float(ratios.mean())
        out[f"lspgd_cpu_ratio_ipc{ipc}_ci"] = (
            float(stats.t.ppf(0.975, len(ratios) - 1) * ratios.std(ddof=1) / np.sqrt(len(ratios)))
            if len(ratios) > 1
            else float("nan")
        )
    return out


def _crl_geometry(by_method, tag, weights) -> dict[str, float]:
    """C²R minus its no-CRL ablation in adversarial invariance and in the margin under PGD-10 (per
    seed and image, averaged over the eval nets), with paired bootstrap intervals."""
    out = {}
    for quantity in ("invariance", "margin"):
        a = np.stack([ev[quantity].mean(0) for ev in by_method["c2r"]])
        b = np.stack([ev[quantity].mean(0) for ev in by_method["c2r_no_crl"]])
        for method, scores in (("c2r", a), ("c2r_no_crl", b)):
            out[f"{method}_{quantity}_{tag}"] = float(scores.mean())
            out[f"{method}_{quantity}_{tag}_ci_low"], out[f"{method}_{quantity}_{tag}_ci_high"] = interval(
                resampled_means(scores, weights)
            )
        key = comparison_key(f"c2r_{quantity}_{tag}", f"c2r_no_crl_{quantity}_{tag}", "difference")
        out[key + "_ci_low"], out[key + "_ci_high"] = interval(
            resampled_means(a, weights) - resampled_means(b, weights)
        )
    return out


def _masking_ipc(config) -> int:
    """The IPC of the gradient-masking checks: 10, the IPC their tests name, when it runs."""
    return 10 if 10 in config["ipcs"] else max(config["ipcs"])


def _blocked(config) -> dict[str, str]:
    blocked = {"cifar_gain_2_8": "CIFAR-10/100, Tiny-ImageNet and ImageNet-1K are not available offline"}
    if 10 not in config["ipcs"]:
        for c in claims.TESTS:
            if "ipc10" in c.metric:
                blocked[c.name] = f"IPC 10 is not among ipcs {config['ipcs']}"
    if 1 not in config["ipcs"]:
        blocked["best_robust_ipc1"] = "IPC 1 runs in the paper profile"
    if "pgd_at" not in config["protocols"]:
        blocked["best_robust_pgdat_ipc10"] = "the PGD-AT protocol runs in the paper profile"
    if not config["ablations"]:
        for name in (
            "no_aac_ablation",
            "crl_ablation",
            "no_queue_ablation",
            "lspgd_matches_pgd",
            "lspgd_cost",
            "crl_invariance",
            "crl_separation",
        ):
            blocked[name] = "the ablations run in the paper profile"
    if not config["masking_checks"]:
        for name in ("no_masking_eps", "no_masking_restarts", "no_masking_transfer"):
            blocked[name] = "the gradient-masking checks run in the paper profile"
    return blocked


def _check(config: dict[str, Any]) -> None:
    """Cross-key rules (each key's own type and range is in SCHEMA)."""
    if "standard" not in config["protocols"]:
        raise ValueError(f"protocols must include standard, got {config['protocols']!r}")
    if config["masking_checks"] and len(config["eps_sweep"]) < 2:
        raise ValueError(f"the masking checks need >= 2 eps_sweep values, got {config['eps_sweep']!r}")
    if config["dataset"] == "digits" and max(config["ipcs"]) > 150:
        raise ValueError(f"digits has about 170 images per class; ipcs {config['ipcs']} is too large")
    check_device(config["device"])


SCHEMA = {  # each profile key's type and range (icml26.common.schema)
    "dataset": Choice(DATASETS),
    "device": Device(),
    "ipcs": ListOf(Int(1, 500), 1, 4, distinct=True),
    "inner_seeds": Int(2, 100),
    ("eval_nets", "pool_size"): Int(1, 20),
    ("iterations", "eval_epochs"): Int(1, 10**5),
    ("n_test", "n_val"): Int(10, 10_000),
    "real_per_class": Int(1, 5000),
    "score_steps": Int(1, 100),
    "eps": Float(0.0, 0.5, low_open=True),
    "lr_img": Float(0.0, 100.0, low_open=True),
    "eta_grid": ListOf(Float(0.0, 1.0), 1, 5, distinct=True),
    "attacks": ListOf(Choice(ATTACKS), 1, len(ATTACKS), distinct=True),
    "protocols": ListOf(Choice(PROTOCOLS), 1, len(PROTOCOLS), distinct=True),
    ("ablations", "masking_checks"): Bool(),
    "eps_sweep": ListOf(Float(0.0, 0.5, low_open=True), 1, 8, increasing=True),
}


# CPU seconds per test image of each attack and per epoch per image-per-class of each training protocol,
# timed on one thread (a Fashion-MNIST ConvNet at IPC 10, 2026-12-04).
_ATTACK_SECONDS = {"clean": 0.0002, "fgsm": 0.001, "pgd10": 0.007, "pgd50x3": 0.116, "cw": 0.039,
                   "vmi": 0.043, "jitter": 0.007, "apgd": 0.096}  # fmt: skip
_EPOCH_SECONDS = {"standard": 0.004, "pgd_at": 0.016}


def cost(config: dict[str, Any]) -> tuple[float, float]:
    """Rough seconds (one thread) and bytes for one runner seed: distillation, then per protocol and eval
    net its training (epochs x IPC) and the attacks on the test images, then the masking checks."""
    scale = 1.0 if config["dataset"] == "fashion_mnist" else 0.1
    methods = 4 + (len(ABLATIONS) if config["ablations"] else 0)
    per_set = config["iterations"] * 0.25 * max(1, len(config["eta_grid"]))
    attacks = sum(_ATTACK_SECONDS[a] for a in ("clean", *config["attacks"])) * config["n_test"]
    seconds = 0.0
    for ipc in config["ipcs"]:
        per_eval = config["eval_nets"] * sum(
            config["eval_epochs"] * ipc * _EPOCH_SECONDS[p] + attacks for p in config["protocols"]
        )
        seconds += config["inner_seeds"] * methods * (per_set + per_eval)
    if config["masking_checks"]:
        sweep = _ATTACK_SECONDS["pgd10"] * (len(config["eps_sweep"]) + 2) + _ATTACK_SECONDS["pgd50x3"]
        train = config["eval_epochs"] * _masking_ipc(config) * _EPOCH_SECONDS["standard"]
        seconds += config["inner_seeds"] * (train + sweep * config["n_test"])
    return scale * seconds + 5.0, 1.5e9


_COMMON = {"device": "cpu", "lr_img": 0.1, "score_steps": 3, "eps": 8 / 255, "pool_size": 5}
EXPERIMENT = Experiment(
    method="c2r",
    title="Mind Your Margin and Boundary: Are Your Distilled Datasets Truly Robust?",
    paper="Muquan Li, Yingyi Ma, Yihong Huang, Hang Gou, Ke Qin, Ming Li, Yuan-Fang Li, Tao He; ICML 2026; arXiv 2605.20606",
    run=run,
    profiles={
        "smoke": {
            **_COMMON,
            "dataset": "digits",
            "ipcs": [10],
            "inner_seeds": 2,
            "eval_nets": 1,
            "iterations": 4,
            "eval_epochs": 30,
            "n_test": 100,
            "n_val": 100,
            "real_per_class": 16,
            "eta_grid": [0.5],
            "attacks": ["fgsm", "pgd10"],
            "protocols": ["standard"],
            "ablations": False,
            "masking_checks": False,
            "eps_sweep": [4 / 255, 8 / 255],
            "pool_size": 2,
        },
        "quick": {
            **_COMMON,
            "dataset": "fashion_mnist",
            "ipcs": [10],
            "inner_seeds": 2,
            "eval_nets": 1,
            "iterations": 50,
            "eval_epochs": 120,
            "n_test": 400,
            "n_val": 500,
            "real_per_class": 32,
            "eta_grid": [0.5],
            "attacks": ["fgsm", "pgd10"],
            "protocols": ["standard"],
            "ablations": False,
            "masking_checks": False,
            "eps_sweep": [2 / 255, 4 / 255, 8 / 255, 16 / 255],
        },
        "paper": {
            **_COMMON,
            "dataset": "fashion_mnist",
            "ipcs": [1, 10],
            "inner_seeds": 3,
            "eval_nets": 2,
            "iterations": 300,
            "eval_epochs": 300,
            "n_test": 1000,
            "n_val": 1000,
            "real_per_class": 64,
            "eta_grid": [0.2, 0.5, 0.8],
            "attacks": ["fgsm", "pgd10", "cw", "vmi", "jitter"],
            "protocols": ["standard", "pgd_at"],
            "ablations": True,
            "masking_checks": True,
            "eps_sweep": [2 / 255, 4 / 255, 8 / 255, 16 / 255],
        },
    },
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
