"""The experiment's units, one network or one draw each: a trained Syn-I net and the same net at
initialisation, a width x depth grid cell, an MNIST 1v7 net, the random-layer draws of App. A.4.1, the
Thm 3.1 width sweep, a net tracked over training, and the timing of the vectorised coefficient; with
the interval helpers they share."""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import torch
from scipy import stats

from icml26.common import (
    comparison_key,
    mean_ci95,
    progress,
)
from icml26.ricci_geometry.coefficients import (
    RicciAnalysis,
    local_ricci_coefficients,
    local_ricci_coefficients_loop,
    ricci_coefficients,
)
from icml26.ricci_geometry.community import class_modularity, curvature_gap, normalized_cut
from icml26.ricci_geometry.datasets import load_dataset
from icml26.ricci_geometry.graphs import (
    edge_jaccard,
    hop_distances,
    knn_graph,
    layer_features,
    random_layer_features,
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
