"""Experiment: the robustness-privacy double edge of Rashomon sets of sparse decision trees.

1. Robustness (breast_cancer, wine; min-max scaled, threshold-guessed binary features), ``n_splits``
   train/test splits: R(eps_R) at reg, depth; f0 = the optimal tree. Attack f0 at L-infinity budgets
   ``attack_eps``; adversarial accuracy of f0, of the member switched to (selected on attacked half A,
   scored on half B), of CART at depths 3, 5 and unbounded and of adversarially retrained CART; the share
   of R that survives (attacked accuracy >= clean - 5 points). |R| against eps_R on one split.
2. Leakage (COMPAS, ``recon_n`` rows, depth-3 trees), ``recon_seeds`` subsamples: CP-SAT reconstruction
   from the first k in {``ks``} members of R, in random and diversity-maximising order; random-guess and
   marginal-mode baselines; timeouts counted as "no solution".
3. Membership inference (COMPAS, ``mia_n`` members + ``mia_n`` non-members), ``mia_seeds`` draws: ART's
   rule-based and black-box attacks on optimal sparse trees of depth 1..4, CART 3, 5, unbounded, and a
   Laplace-noised depth-3 tree (epsilon-DP, ``dp_epsilon``).
4. Stability (COMPAS ``stab_n`` rows, breast_cancer): R on D' after bootstrap, 1/2/5% label flips and 2%
   bit flips; share of R(D) inside R_{D'}(eps) and R_{D'}(eps + delta); a near-miss control (trees of
   R(2 eps) \\ R(eps)).
5. The trade-off: robustness gained by switching among, and leakage from disclosing, the first k members
   (diversity order), against the set's pattern diversity.
"""

from __future__ import annotations

import math
import time
import warnings
from typing import Any

import numpy as np

from icml26.common import (
    Experiment,
    Plot,
    Resources,
    Result,
    comparison_key,
    mean_ci95,
    paired_ci,
    progress,
    unit,
)
from icml26.rashomon.attacks import adversarial_accuracy, adversarial_examples
from icml26.rashomon.baselines import cart, laplace_tree, noisy_count_proba, robust_tree
from icml26.rashomon.claims import BACKGROUND, NAMES, PAPER_CLAIMS, TESTS
from icml26.rashomon.datasets import BINARY, CONTINUOUS, load
from icml26.rashomon.full_set import full_count
from icml26.rashomon.privacy import (
    fill_unconstrained,
    marginal_mode_guess,
    membership_inference,
    random_guess,
    reconstruct,
    reconstruction_error,
    tree_predict_proba,
)
from icml26.rashomon.rashomon_set import (
    BOUND_TOLERANCE,
    RashomonLimitError,
    RashomonSet,
    diverse_order,
    gosdt_optimum,
    pattern_diversity,
)
from icml26.rashomon.robustness import halves, own_attack_selection, pool_selection, reactive_defense
from icml26.rashomon.stability import stability_section
from icml26.rashomon.trees import ThresholdBinarizer, min_max_scale

ORDERS = ("random", "diverse")


def _split(n: int, frac: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    perm = rng.permutation(n)
    cut = int(round(frac * n))
    return perm[:cut], perm[cut:]


# ---------------------------------------------------------------- 1. robustness


def _robust_split(name: str, config: dict, split: int, seed: int) -> dict[str, Any]:
    """One train/test split of a continuous dataset: R, f0, baselines, attacks at every budget."""
    rng = np.random.default_rng([seed, split, 1])
    X, y = load(name)
    tr, te = _split(len(y), config["train_frac"], rng)
    Xtr, Xte = min_max_scale(X[tr], X[te])
    ytr, yte = y[tr], y[te]
    binz = ThresholdBinarizer(max_thresholds=config["max_thresholds"]).fit(Xtr, ytr, seed=split)
    Btr = binz.transform(Xtr)
    R = RashomonSet(
        config["eps_rashomon"], config["reg"], config["depth"], max_trees=config["max_trees"]
    ).fit(Btr, ytr)
    boxes = [binz.boxes(t) for t in R]
    f0 = boxes[0]
    baselines = {f"cart{d or 'full'}": cart(Xtr, ytr, d, seed=split) for d in (3, 5, None)}
    pool, forest, cart3 = _alternatives(Xtr, ytr, config, split)
    # the adversarially trained baseline: a robust tree (Chen et al. 2019's robust split) of f0's depth,
    # trained once against the headline budget and attacked at every budget
    advtree = robust_tree(Xtr, ytr, config["depth"], config["headline_eps"])
    out: dict[str, Any] = {
        "size": len(R),
        "dropped": R.n_dropped_,
        "raw_excess": R.raw_excess_,
        "diversity": R.diversity()["pattern_diversity"],
        "per_eps": {},
    }
    A, B = halves(len(yte), split)
    for eps in config["attack_eps"]:
        base = {"advtree": advtree, **baselines}
        X_adv = adversarial_examples(Xte, yte, f0, eps)
        rd = reactive_defense(boxes, f0, Xte, yte, eps, seed=split, X_adv=X_adv)
        rd.update({f"{k}_adv": adversarial_accuracy(Xte, yte, m, eps) for k, m in base.items()})
        rd.update({f"{k}_clean": adversarial_accuracy(Xte, yte, m, 0.0) for k, m in base.items()})
        # the real alternatives to switching within R (the strongest options, same halves A/B):
        # each member picked for its own robustness under its own white-box attack; an ordinary CART pool
        # and a random forest facing the same attack on f0 (transfer)
        rd["own_adv"] = own_attack_selection(boxes, Xte, yte, eps, seed=split)
        rd["pool_adv"] = pool_selection(pool, X_adv, yte, seed=split)
        rd["rf_adv"] = float(np.mean(forest.predict(X_adv[B]) == yte[B]))
        rd["cart3_f0attack_adv"] = float(np.mean(cart3.predict(X_adv[B]) == yte[B]))
        rd["advtree_f0attack_adv"] = float(np.mean(advtree.predict(X_adv[B]) == yte[B]))
        # the deployed model's worst case over clean and attacked inputs (the defender cannot tell them
        # apart): what "remains accurate" asks of the switched member, and what f0 un-switched fails
        rd["switched_worst"] = min(rd["switched_adv"], rd["switched_clean"])
        rd["f0_worst"] = min(rd["f0_adv"], rd["f0_clean"])
        out["per_eps"][eps] = rd
    # the trade-off: switching among the first k members, diversity order and random orders (f* first)
    preds = R.predictions()
    order = diverse_order(preds)
    eps = config["headline_eps"]
    X_adv = adversarial_examples(Xte, yte, f0, eps)
    orng = np.random.default_rng([seed, split, 6])
    randoms = [[0, *(1 + orng.permutation(len(R) - 1)).tolist()] for _ in range(config["n_orders"])]
    out["tradeoff"] = {}
    for k in config["ks"]:
        kk = min(k, len(R))
        rd = reactive_defense([boxes[i] for i in order[:kk]], f0, Xte, yte, eps, seed=split, X_adv=X_adv)
        gains_r = [
            reactive_defense([boxes[i] for i in o[:kk]], f0, Xte, yte, eps, seed=split, X_adv=X_adv)[
                "switched_adv"
            ]
            - rd["f0_adv"]
            for o in randoms
        ]
        out["tradeoff"][k] = {
            "gain": rd["switched_adv"] - rd["f0_adv"],
            "gain_random": float(np.mean(gains_r)),
            "diversity": pattern_diversity(preds[order[:kk]]),
            "diversity_random": float(np.mean([pattern_diversity(preds[o[:kk]]) for o in randoms])),
        }
    if split == 0:
        tree, opt = gosdt_optimum(Btr, ytr, config["reg"], config["depth"])
        out["gosdt_gap"] = abs(R.optimum - opt)
        out["bound_excess"] = float(np.max(R.objectives - R.bound))
        out["full_count"] = full_count(Btr, ytr, config["reg"], config["depth"], R.bound + BOUND_TOLERANCE)
        out["size_vs_eps"] = {}
        for e in config["eps_grid"]:
            try:
                out["size_vs_eps"][e] = len(
                    RashomonSet(e, config["reg"], config["depth"], max_trees=config["max_trees"]).fit(
                        Btr, ytr
                    )
                )
            except RashomonLimitError:
                out["size_vs_eps"][e] = math.nan
    return out


def _alternatives(Xtr: np.ndarray, ytr: np.ndarray, config: dict, split: int) -> tuple[list, Any, Any]:
    """A pool of ``pool_size`` ordinary CARTs (depths 3, 4, 5, 6, unbounded on bootstrap resamples), a
    random forest of ``rf_trees`` trees and one CART of depth 3, all fitted on the training split."""
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.tree import DecisionTreeClassifier

    rng = np.random.default_rng([split, 7])
    depths = (3, 4, 5, 6, None)
    pool = []
    for i in range(config["pool_size"]):
        idx = rng.integers(0, len(ytr), len(ytr))
        pool.append(
            DecisionTreeClassifier(max_depth=depths[i % len(depths)], random_state=i).fit(Xtr[idx], ytr[idx])
        )
    forest = RandomForestClassifier(n_estimators=config["rf_trees"], random_state=split, n_jobs=1)
    cart3 = DecisionTreeClassifier(max_depth=3, random_state=split)
    return pool, forest.fit(Xtr, ytr), cart3.fit(Xtr, ytr)


def _robustness(name: str, config: dict, seed: int, metrics: dict, tables: dict, plots: list) -> None:
    splits = [
        unit(f"robust_{name}_split={s}", lambda s=s: _robust_split(name, config, s, seed))
        for s in progress(range(config["n_splits"]), f"robustness {name}")
    ]
    p = "bc" if name == "breast_cancer" else name
    rows = []
    for eps in config["attack_eps"]:
        vals = {k: np.array([s["per_eps"][eps][k] for s in splits]) for k in splits[0]["per_eps"][eps]}
        row = {"dataset": name, "attack_eps": eps}
        for k, v in vals.items():
            if k != "best_index":
                row[k] = round(float(v.mean()), 4)
        rows.append(row)
        if eps == config["headline_eps"]:
            for k in (
                "f0_clean",
                "f0_adv",
                "switched_adv",
                "switched_clean",
                "survival",
                "cart3_adv",
                "cart5_adv",
                "cartfull_adv",
                "advtree_adv",
                "advtree_f0attack_adv",
                "switched_worst",
                "f0_worst",
                "own_adv",
                "pool_adv",
                "rf_adv",
                "cart3_f0attack_adv",
            ):
                metrics[f"{p}_{k}"], metrics[f"{p}_{k}_ci"] = mean_ci95(vals[k])
            for base in (
                "f0_adv",
                "f0_clean",
                "advtree_adv",
                "advtree_f0attack_adv",
                "own_adv",
                "pool_adv",
                "rf_adv",
            ):
                lo, hi = paired_ci(vals["switched_adv"], vals[base], form="difference")
                key = comparison_key(f"{p}_switched_adv", f"{p}_{base}", "difference")
                metrics[key + "_ci_low"], metrics[key + "_ci_high"] = lo, hi
            lo, hi = paired_ci(vals["switched_clean"], vals["f0_clean"], form="difference")
            key = comparison_key(f"{p}_switched_clean", f"{p}_f0_clean", "difference")
            metrics[key + "_ci_low"], metrics[key + "_ci_high"] = lo, hi
            for m in ("switched_worst", "f0_worst"):
                lo, hi = paired_ci(vals[m], vals["f0_clean"], form="difference")
                key = comparison_key(f"{p}_{m}", f"{p}_f0_clean", "difference")
                metrics[key + "_ci_low"], metrics[key + "_ci_high"] = lo, hi
            drop = vals["f0_clean"] - vals["f0_adv"]
            metrics[f"{p}_f0_adv_drop"], metrics[f"{p}_f0_adv_drop_ci"] = mean_ci95(drop)
            for b in ("advtree", "cartfull"):
                adv_drop = vals[f"{b}_clean"] - vals[f"{b}_adv"]
                metrics[f"{p}_{b}_adv_drop"], metrics[f"{p}_{b}_adv_drop_ci"] = mean_ci95(adv_drop)
    tables[f"robustness_{name}"] = rows
    surv = np.array([[s["per_eps"][e]["survival"] for e in config["attack_eps"]] for s in splits])
    metrics[f"{p}_survival_max_rise"] = float(np.max(np.diff(surv, axis=1))) if surv.shape[1] > 1 else 0.0
    metrics[f"{p}_rashomon_size"] = float(np.mean([s["size"] for s in splits]))
    metrics[f"{p}_treefarms_dropped"] = float(np.mean([s["dropped"] for s in splits]))
    metrics[f"{p}_treefarms_excess"] = float(np.max([s["raw_excess"] for s in splits]))
    metrics[f"{p}_gosdt_gap"] = splits[0]["gosdt_gap"]
    metrics[f"{p}_bound_excess"] = splits[0]["bound_excess"]
    metrics[f"{p}_full_count"] = float(splits[0]["full_count"])
    metrics[f"{p}_omitted"] = float(splits[0]["full_count"] - splits[0]["size"])
    tables[f"full_rashomon_{name}"] = [
        {
            "split": 0,
            "treefarms_in_bound": splits[0]["size"],
            "treefarms_dropped_above_bound": splits[0]["dropped"],
            "definitional_count": splits[0]["full_count"],
            "omitted_by_treefarms": splits[0]["full_count"] - splits[0]["size"],
        }
    ]
    tables[f"size_vs_eps_{name}"] = [
        {"eps_rashomon": e, "trees": n} for e, n in splits[0]["size_vs_eps"].items()
    ]
    series = {
        k: (list(config["attack_eps"]), [r[k] for r in rows])
        for k in ("f0_adv", "switched_adv", "cart3_adv", "cart5_adv", "cartfull_adv", "advtree_adv")
    }
    plots.append(
        Plot(
            f"adv_{name}",
            f"{name}: adversarial accuracy against the attack budget",
            series,
            "L-inf budget eps (min-max scale)",
            "adversarial accuracy (half B)",
            claim="reactive_gain" if p == "bc" else "",
        )
    )
    kmax = max(config["ks"])
    gain16 = np.array([s["tradeoff"][kmax]["gain"] for s in splits])
    gain16_r = np.array([s["tradeoff"][kmax]["gain_random"] for s in splits])
    metrics[f"{p}_gain_kmax"], metrics[f"{p}_gain_kmax_ci"] = mean_ci95(gain16)
    metrics[f"{p}_gain_kmax_random"], metrics[f"{p}_gain_kmax_random_ci"] = mean_ci95(gain16_r)
    lo, hi = paired_ci(gain16, gain16_r, form="difference")
    key = comparison_key(f"{p}_gain_kmax", f"{p}_gain_kmax_random", "difference")
    metrics[key + "_ci_low"], metrics[key + "_ci_high"] = lo, hi
    tables[f"tradeoff_robust_{name}"] = [
        {
            "k": k,
            **{
                c: round(float(np.mean([s["tradeoff"][k][c] for s in splits])), 4)
                for c in ("diversity", "gain", "diversity_random", "gain_random")
            },
        }
        for k in config["ks"]
    ]


# ---------------------------------------------------------------- 2. leakage


def _recon_seed(config: dict, r: int, seed: int) -> dict[str, Any]:
    rng = np.random.default_rng([seed, r, 2])
    X, y = load("compas")
    idx = rng.choice(len(y), config["recon_n"], replace=False)
    Xs, ys = X[idx], y[idx]
    # the definitional R(eps) (every leaf labelling): treefarms' set omits most of it on COMPAS
    R = RashomonSet(
        config["recon_eps"], config["reg"], 3, max_trees=config["max_trees"], enumerator="exact"
    ).fit(Xs, ys)
    P = R.predictions()
    orders = {"random": list(rng.permutation(len(R))), "diverse": diverse_order(P)}
    mode = marginal_mode_guess(Xs, ys)[0][0]  # the marginal-mode baseline's knowledge, per feature
    out: dict[str, Any] = {"size": len(R)}
    for oname, order in orders.items():
        errs, fair, secs, divs = {}, {}, {}, {}
        for k in config["ks"]:
            chosen = order[: min(k, len(R))]
            models = [(R[i], R[i].leaf_counts(Xs, ys)) for i in chosen]
            t = time.perf_counter()
            sol = reconstruct(models, len(ys), Xs.shape[1], time_limit=config["cpsat_time"], seed=r)
            secs[k] = time.perf_counter() - t
            errs[k] = math.nan if sol is None else reconstruction_error(Xs, ys, *sol)
            # the same solution with the bits no disclosed leaf path constrains set to the marginal mode
            fair[k] = (
                math.nan
                if sol is None
                else reconstruction_error(Xs, ys, fill_unconstrained(models, sol[0], mode), sol[1])
            )
            divs[k] = pattern_diversity(P[chosen])
        out[oname] = {"error": errs, "error_modefill": fair, "seconds": secs, "diversity": divs}
    out["random_guess"] = reconstruction_error(Xs, ys, *random_guess(len(ys), Xs.shape[1], rng))
    out["marginal_mode"] = reconstruction_error(Xs, ys, *marginal_mode_guess(Xs, ys))
    return out


def _leakage(config: dict, seed: int, metrics: dict, tables: dict, plots: list) -> None:
    seeds = [
        unit(f"recon_seed={r}", lambda r=r: _recon_seed(config, r, seed))
        for r in progress(range(config["recon_seeds"]), "reconstruction")
    ]
    ks = config["ks"]
    rows = []
    for oname in ORDERS:
        err = np.array([[s[oname]["error"][k] for k in ks] for s in seeds])  # (seeds, ks), nan = no solution
        fair = np.array([[s[oname]["error_modefill"][k] for k in ks] for s in seeds])
        for j, k in enumerate(ks):
            solved = err[:, j][np.isfinite(err[:, j])]
            solved_fair = fair[:, j][np.isfinite(fair[:, j])]
            rows.append(
                {
                    "order": oname,
                    "k": k,
                    "solved": f"{solved.size}/{len(seeds)}",
                    "error": round(float(solved.mean()), 4) if solved.size else "no solution",
                    "error_modefill": round(float(solved_fair.mean()), 4) if solved.size else "no solution",
                    "diversity": round(float(np.mean([s[oname]["diversity"][k] for s in seeds])), 4),
                    "cpsat_s": round(float(np.mean([s[oname]["seconds"][k] for s in seeds])), 2),
                }
            )
        if oname == "random":
            # a seed whose curve has a timeout ("no solution") is left out of the curve metrics and counted
            metrics["recon_timeouts"] = float(np.sum(~np.isfinite(err)))
            full = np.isfinite(err).all(axis=1)
            metrics["recon_seeds_used"] = float(full.sum())
            if full.sum() >= 2:
                e = err[full]
                for j, k in enumerate(ks):
                    metrics[f"recon_err_k{k}"], metrics[f"recon_err_k{k}_ci"] = mean_ci95(e[:, j])
                metrics["recon_err_kmax"], metrics["recon_err_kmax_ci"] = mean_ci95(e[:, -1])
                metrics["recon_max_rise"] = float(np.max(np.diff(e, axis=1)))
                lo, hi = paired_ci(e[:, -1], e[:, 0], form="difference")
                key = comparison_key("recon_err_kmax", "recon_err_k1", "difference")
                metrics[key + "_ci_low"], metrics[key + "_ci_high"] = lo, hi
                mode = np.array([s["marginal_mode"] for s in seeds])[full]
                metrics["recon_mode_err"], metrics["recon_mode_err_ci"] = mean_ci95(mode)
                lo, hi = paired_ci(e[:, 0], mode, form="difference")
                key = comparison_key("recon_err_k1", "recon_mode_err", "difference")
                metrics[key + "_ci_low"], metrics[key + "_ci_high"] = lo, hi
                f = fair[full]
                metrics["recon_modefill_k1"], metrics["recon_modefill_k1_ci"] = mean_ci95(f[:, 0])
                metrics["recon_modefill_kmax"], metrics["recon_modefill_kmax_ci"] = mean_ci95(f[:, -1])
                lo, hi = paired_ci(f[:, 0], mode, form="difference")
                key = comparison_key("recon_modefill_k1", "recon_mode_err", "difference")
                metrics[key + "_ci_low"], metrics[key + "_ci_high"] = lo, hi
    # diversity order against the random order: the drop in error from k = 1 to the largest k, paired
    # over the seeds whose four solves (two orders, k = 1 and the largest k) all finished
    ends = {o: np.array([[s[o]["error"][ks[0]], s[o]["error"][ks[-1]]] for s in seeds]) for o in ORDERS}
    both = np.all([np.isfinite(e).all(axis=1) for e in ends.values()], axis=0)
    if both.sum() >= 2:
        drops = {o: ends[o][both, 0] - ends[o][both, 1] for o in ORDERS}
        metrics["leak_drop_diverse"], metrics["leak_drop_diverse_ci"] = mean_ci95(drops["diverse"])
        metrics["leak_drop_random"], metrics["leak_drop_random_ci"] = mean_ci95(drops["random"])
        lo, hi = paired_ci(drops["diverse"], drops["random"], form="difference")
        key = comparison_key("leak_drop_diverse", "leak_drop_random", "difference")
        metrics[key + "_ci_low"], metrics[key + "_ci_high"] = lo, hi
    metrics["recon_random_err"], metrics["recon_random_err_ci"] = mean_ci95(
        [s["random_guess"] for s in seeds]
    )
    metrics["recon_rashomon_size"] = float(np.mean([s["size"] for s in seeds]))
    tables["reconstruction_compas"] = rows
    series = {}
    for oname in ("random", "diverse"):
        pts = [(r["k"], r["error"]) for r in rows if r["order"] == oname and r["error"] != "no solution"]
        series[f"{oname} order"] = ([p[0] for p in pts], [p[1] for p in pts])
    plots.append(
        Plot(
            "reconstruction",
            "COMPAS: reconstruction error against disclosed trees k",
            series,
            "k",
            "error",
            logx=True,
            claim="leakage_grows",
            lines={"marginal mode": float(np.mean([s["marginal_mode"] for s in seeds]))},
        )
    )


# ---------------------------------------------------------------- 3. membership inference


def _mia_seed(config: dict, r: int, seed: int) -> dict[str, float]:
    from sklearn.tree import DecisionTreeClassifier

    rng = np.random.default_rng([seed, r, 3])
    X, y = load("compas")
    idx = rng.permutation(len(y))
    n = config["mia_n"]
    mem, non = idx[:n], idx[n : 2 * n]
    Xm, ym, Xn, yn = X[mem], y[mem], X[non], y[non]
    out = {}
    for depth in config["mia_depths"]:
        tree, _ = gosdt_optimum(Xm, ym, config["mia_reg"], depth)
        res = membership_inference(tree_predict_proba(tree, Xm, ym), (Xm, ym), (Xn, yn), seed=r)
        out[f"sparse{depth}"] = max(res.values())
    dp_tree, noisy = laplace_tree(Xm, ym, 3, config["dp_epsilon"], rng)
    res = membership_inference(noisy_count_proba(dp_tree, noisy), (Xm, ym), (Xn, yn), seed=r)
    out["dp_tree3"] = max(res.values())
    out["dp_tree3_acc"] = float(np.mean(dp_tree.predict(Xn) == yn))
    out["sparse3_acc"] = float(np.mean(gosdt_optimum(Xm, ym, config["mia_reg"], 3)[0].predict(Xn) == yn))
    for d in (3, 5, None):
        clf = DecisionTreeClassifier(max_depth=d, random_state=r).fit(Xm, ym)
        res = membership_inference(clf, (Xm, ym), (Xn, yn), seed=r)
        out[f"cart{d or '_full'}"] = max(res.values())
    from sklearn.ensemble import RandomForestClassifier

    forest = RandomForestClassifier(n_estimators=config["rf_trees"], random_state=r, n_jobs=1).fit(Xm, ym)
    out["rf"] = max(membership_inference(forest, (Xm, ym), (Xn, yn), seed=r).values())
    return out


def _mia(config: dict, seed: int, metrics: dict, tables: dict, plots: list) -> None:
    seeds = [
        unit(f"mia_seed={r}", lambda r=r: _mia_seed(config, r, seed))
        for r in progress(range(config["mia_seeds"]), "membership inference")
    ]
    rows = []
    for k in ("dp_tree3_acc", "sparse3_acc"):  # test accuracy beside the attack accuracies
        metrics[f"compas_{k}"], metrics[f"compas_{k}_ci"] = mean_ci95([s[k] for s in seeds])
    for k in (k for k in seeds[0] if not k.endswith("_acc")):
        v = np.array([s[k] for s in seeds])
        name = f"compas_{k}_mia"
        metrics[name], metrics[name + "_ci"] = mean_ci95(v)
        rows.append(
            {"model": k, "mia_accuracy": round(float(v.mean()), 4), "ci95": round(metrics[name + "_ci"], 4)}
        )
    lo, hi = paired_ci([s["sparse3"] for s in seeds], [s["cart_full"] for s in seeds], form="difference")
    key = comparison_key("compas_sparse3_mia", "compas_cart_full_mia", "difference")
    metrics[key + "_ci_low"], metrics[key + "_ci_high"] = lo, hi
    tables["membership_inference_compas"] = rows
    xs = list(range(len(rows)))
    plots.append(
        Plot(
            "mia",
            "COMPAS: membership-inference accuracy (max of ART rule-based and black-box)",
            {
                "models in the table order (sparse depths, DP tree, CART 3, 5, full)": (
                    xs,
                    [r["mia_accuracy"] for r in rows],
                )
            },
            "model (sparser to the left)",
            "attack accuracy",
            claim="sparse_private",
            lines={"rule": 0.55},
        )
    )


# ---------------------------------------------------------------- run


def run(config: dict[str, Any], seed: int) -> Result:
    with warnings.catch_warnings():  # treefarms' trees above the bound are dropped by RashomonSet (see doc)
        warnings.filterwarnings("ignore", message="treefarms returned")
        # test points min-max scaled by the training split's ranges may lie beyond [-1, 2] (outliers)
        warnings.filterwarnings("ignore", message="features span")
        return _run(config, seed)


def _run(config: dict[str, Any], seed: int) -> Result:
    metrics: dict[str, float] = {}
    tables: dict[str, list] = {}
    plots: list[Plot] = []
    for name in config["robust_datasets"]:
        _robustness(name, config, seed, metrics, tables, plots)
    _leakage(config, seed, metrics, tables, plots)
    _mia(config, seed, metrics, tables, plots)
    for name in config["stab_datasets"]:
        stability_section(name, config, seed, metrics, tables)
    # treefarms' completeness where it can fail: the most trees of the definitional R(eps) it omits on
    # any data set measured (robust datasets' split 0, every COMPAS stability draw)
    omitted = [metrics[k] for k in ("bc_omitted", "wine_omitted", "compas_omitted_max") if k in metrics]
    if omitted:
        metrics["treefarms_omitted_max"] = float(max(omitted))
    # the trade-off: both edges move together as the set's diversity grows (diversity order, k = 1 -> max);
    # shown beside the tests that compare the diversity order with random orders
    if "bc_gain_kmax" in metrics and "leak_drop_diverse" in metrics:
        g, gci = metrics["bc_gain_kmax"], metrics["bc_gain_kmax_ci"]
        ld, lci = metrics["leak_drop_diverse"], metrics["leak_drop_diverse_ci"]
        metrics["tradeoff_min_edge"] = min(g, ld)
        metrics["tradeoff_min_edge_ci_low"] = min(g - gci, ld - lci)
        metrics["tradeoff_min_edge_ci_high"] = min(g + gci, ld + lci)
    bc = tables.get("tradeoff_robust_breast_cancer", [])
    rec = [
        r for r in tables["reconstruction_compas"] if r["order"] == "diverse" and r["error"] != "no solution"
    ]
    plots.append(
        Plot(
            "tradeoff",
            "The trade-off: robustness gained (breast_cancer) and leakage (COMPAS) against diversity",
            {
                "robustness gain (bc)": ([r["diversity"] for r in bc], [r["gain"] for r in bc]),
                "1 - reconstruction error (COMPAS)": (
                    [r["diversity"] for r in rec],
                    [1 - r["error"] for r in rec],
                ),
            },
            "pattern diversity of the first k members",
            "gain / leakage",
            claim="tradeoff",
        )
    )
    blocked = {
        "theory_tradeoff": "the paper's theorems (statements and constants) could not be read: only the abstract"
        " and third-party summaries were accessible, so no bound is checked numerically",
    }
    notes = [
        "Reconstructed parts [inferred]: the objective with a multiplicative bound, pattern diversity, the"
        " A/B switching protocol, the survival rule, the DRAFT-style leaf-count threat model, the shift settings.",
        f"CP-SAT runs with 1 worker and a {config['cpsat_time']} s limit; a timeout is 'no solution'.",
        "error_modefill: the same CP-SAT solutions with every bit no disclosed leaf path constrains set to the"
        " per-feature marginal mode (the marginal-mode baseline's knowledge); recon_beats_mode_fair judges it.",
        "|R| (bc_rashomon_size, ...) counts treefarms' model space, a lower bound of the definitional"
        " |R(eps)| (every leaf labelling): bc_full_count and bc_omitted give the exact count on split 0.",
        "reactive_gain's alternatives share the halves A/B of the switch: the member of R picked under its own"
        " white-box attack, the best of pool_size ordinary CARTs and a random forest facing the attack on f0.",
        "GOSDT trees (the optimum cross-check, the MIA sparse trees) have at most `depth` splits per path"
        " (gosdt 1.0.4 counts depth from 0; records before 2026-12-01 16:00 UTC used one level more).",
    ]
    return Result(metrics=metrics, tables=tables, plots=plots, blocked=blocked, notes=notes)


def _check(config: dict[str, Any]) -> None:
    for key in (
        "n_splits",
        "recon_seeds",
        "mia_seeds",
        "stab_draws",
        "recon_n",
        "mia_n",
        "stab_n",
        "depth",
        "max_thresholds",
        "max_trees",
        "n_orders",
        "pool_size",
        "rf_trees",
    ):
        v = config[key]
        if (
            isinstance(v, bool)
            or not isinstance(v, int)
            or v < (2 if key.endswith(("seeds", "splits", "draws")) else 1)
        ):
            raise ValueError(
                f"{key} must be an integer >= {2 if key.endswith(('seeds', 'splits', 'draws')) else 1},"
                f" got {v!r}"
            )

    def number(v: Any) -> bool:
        return not isinstance(v, bool) and isinstance(v, int | float) and math.isfinite(v)

    for key in ("eps_rashomon", "recon_eps", "reg", "mia_reg", "cpsat_time", "dp_epsilon"):
        v = config[key]
        if not number(v) or not v > 0:
            raise ValueError(f"{key} must be a finite number > 0, got {v!r}")
    if not number(config["delta"]) or config["delta"] < 0:
        raise ValueError(f"delta must be a finite number >= 0, got {config['delta']!r}")
    if config["depth"] > 8:
        raise ValueError(f"depth must be an integer in 1..8, got {config['depth']!r}")
    for key, low in (("attack_eps", 0.0), ("eps_grid", None)):
        vals = config[key]
        if not vals or not all(number(v) and (v >= low if low is not None else v > 0) for v in vals):
            raise ValueError(
                f"{key} must be finite numbers {'>= 0' if low is not None else '> 0'}, got {vals!r}"
            )
    for key, allowed in (("robust_datasets", CONTINUOUS), ("stab_datasets", CONTINUOUS + BINARY)):
        names = config[key]
        if not names or len(set(names)) != len(names) or not set(names) <= set(allowed):
            raise ValueError(f"{key} must be distinct names from {', '.join(allowed)}, got {names!r}")
    tf = config["train_frac"]
    sizes = {"breast_cancer": 569, "wine": 178}
    if not number(tf) or not all(
        20 <= round(tf * sizes[n]) <= sizes[n] - 20 for n in config["robust_datasets"]
    ):
        raise ValueError(
            f"train_frac must leave >= 20 training and >= 20 test rows in every robust dataset, got {tf!r}"
        )
    if not all(number(k) and not isinstance(k, float) for k in config["ks"]):
        raise ValueError(f"ks must be integers, got {config['ks']!r}")
    if config["headline_eps"] not in config["attack_eps"]:
        raise ValueError(
            f"headline_eps {config['headline_eps']} must be one of attack_eps {config['attack_eps']}"
        )
    if list(config["ks"]) != sorted(set(config["ks"])) or config["ks"][0] != 1 or len(config["ks"]) < 2:
        raise ValueError(f"ks must be >= 2 increasing integers starting at 1, got {config['ks']!r}")
    if 3 not in config["mia_depths"] or not all(
        isinstance(d, int) and 1 <= d <= 6 for d in config["mia_depths"]
    ):
        raise ValueError(
            f"mia_depths must be depths in 1..6 including 3 (the claim's tree), got {config['mia_depths']!r}"
        )
    if 2 * config["mia_n"] > 7206 or config["recon_n"] > 7206 or config["stab_n"] > 7206:
        raise ValueError("COMPAS has 7206 rows: lower mia_n, recon_n or stab_n")


def _cost(config: dict[str, Any]) -> tuple[float, float]:
    """About 2.5 s per robustness split and dataset, 5 s per reconstruction seed and order, 6 s per MIA
    draw, 10 s per stability draw and dataset (paper run on a shared 2-core machine; quick measured 182 s
    against this estimate's 158 s); memory: the enumerator's limit."""
    seconds = (
        2.5 * config["n_splits"] * len(config["robust_datasets"])
        + 5.0 * 2 * config["recon_seeds"] * config["cpsat_time"] / 20
        + 6.0 * config["mia_seeds"]
        + 10.0 * config["stab_draws"] * len(config["stab_datasets"])
    )
    return seconds, 4.5e9


_BASE = {
    "robust_datasets": ["breast_cancer", "wine"],
    "stab_datasets": ["compas", "breast_cancer"],
    "train_frac": 0.7,
    "max_thresholds": 16,
    "reg": 0.01,
    "depth": 4,
    "eps_rashomon": 0.05,
    "eps_grid": [0.01, 0.02, 0.05, 0.1, 0.2],
    "attack_eps": [0.0, 0.02, 0.05, 0.1, 0.15, 0.2],
    "headline_eps": 0.1,
    "max_trees": 20000,
    "ks": [1, 2, 4, 8, 16],
    "recon_n": 120,
    "recon_eps": 0.05,
    "cpsat_time": 20.0,
    "mia_n": 500,
    "mia_reg": 0.005,
    "mia_depths": [1, 2, 3, 4],
    "dp_epsilon": 1.0,
    "stab_n": 1000,
    "delta": 0.02,
    "n_orders": 20,
    "pool_size": 25,
    "rf_trees": 100,
}
_SMOKE = {
    **_BASE,
    "robust_datasets": ["breast_cancer"],
    "stab_datasets": ["compas"],
    "n_splits": 2,
    "recon_seeds": 2,
    "recon_n": 40,
    "ks": [1, 2, 4],
    "mia_seeds": 2,
    "mia_n": 100,
    "stab_draws": 2,
    "stab_n": 300,
    "eps_grid": [0.02, 0.05],
    "mia_depths": [1, 3],
    "attack_eps": [0.0, 0.1],
    "cpsat_time": 5.0,
    "n_orders": 4,
    "pool_size": 5,
    "rf_trees": 10,
}
_QUICK = {
    **_BASE,
    "n_splits": 8,
    "recon_seeds": 4,
    "mia_seeds": 3,
    "mia_depths": [1, 2, 3],
    "stab_draws": 3,
    "eps_grid": [0.01, 0.02, 0.05, 0.1],
}
_PAPER = {**_BASE, "n_splits": 30, "recon_seeds": 10, "mia_seeds": 10, "stab_draws": 10}

from icml26.common.schema import Choice, Float, Int, ListOf  # noqa: E402 (the schema block sits beside the experiment)

SCHEMA = {  # each profile key's type and range (icml26.common.schema); check() keeps the cross-key rules
    "robust_datasets": ListOf(Choice(tuple(CONTINUOUS)), 1, len(CONTINUOUS), distinct=True),
    "stab_datasets": ListOf(Choice(tuple(CONTINUOUS + BINARY)), 1, len(CONTINUOUS + BINARY), distinct=True),
    "train_frac": Float(0, 1, low_open=True, high_open=True),
    "max_thresholds": Int(1, 1000),
    ("reg", "mia_reg"): Float(0, 1, low_open=True),
    "depth": Int(1, 8),
    ("eps_rashomon", "recon_eps"): Float(0, 10, low_open=True),
    "eps_grid": ListOf(Float(0, 10, low_open=True), 1, 64),
    "attack_eps": ListOf(Float(0, 10), 1, 64),
    "headline_eps": Float(0, 10),
    "max_trees": Int(1, 10**7),
    "ks": ListOf(Int(1, 10**5), 2, 64, increasing=True),
    ("recon_n", "stab_n"): Int(1, 7206),  # COMPAS rows
    "mia_n": Int(1, 3603),
    "cpsat_time": Float(0, 86400, low_open=True),
    "mia_depths": ListOf(Int(1, 6), 1, 6, distinct=True),
    "dp_epsilon": Float(0, 1000, low_open=True),
    "delta": Float(0, 1),
    ("n_splits", "recon_seeds", "mia_seeds", "stab_draws"): Int(2, 1000),
    ("n_orders", "pool_size"): Int(1, 1000),
    "rf_trees": Int(1, 2000),
}


EXPERIMENT = Experiment(
    method="rashomon",
    title="The Double-Edged Nature of the Rashomon Set for Trustworthy ML",
    paper="Hsu, Chen, Zhong & Semenova, ICML 2026, arXiv:2511.21799",
    run=run,
    profiles={"smoke": _SMOKE, "quick": _QUICK, "paper": _PAPER},
    claims=TESTS,
    paper_claims=PAPER_CLAIMS,
    background=BACKGROUND,
    description=__doc__ or "",
    check=_check,
    schema=SCHEMA,
    cost=_cost,
    resources=Resources(cpus=1),
    names=NAMES,
)
