"""The experiment's work units beside the trajectories: SBM samples, the update variance, the karate club,
timings, the exact two-cliques case and the sparse engine's benchmark at 10⁵ nodes."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from icml26.deepwalk_dynamics.config import SGNSConfig
from icml26.deepwalk_dynamics.graphs import degree_correction, sbm_graph, sparse_sbm, two_cliques
from icml26.deepwalk_dynamics.metrics import alignment
from icml26.deepwalk_dynamics.population import initial_embeddings, population_gd
from icml26.deepwalk_dynamics.real_graph import karate_graph
from icml26.deepwalk_dynamics.sgns_matrix import (
    cooccurrence_matrix,
    negative_distribution,
    node_frequencies,
    sgns_matrix,
    top_eigenspace,
)
from icml26.deepwalk_dynamics.sparse import SparseSGNSMatrix, sparse_linearised_gd, sparse_top_eigenspace
from icml26.deepwalk_dynamics.trajectory import deepwalk_trajectory
from icml26.deepwalk_dynamics.variance import update_noise_ratio


def sgns_config(cfg: dict[str, Any], scale: float, seed: int) -> SGNSConfig:
    """The profile's ``SGNSConfig`` at init ``scale`` and ``seed``."""
    return SGNSConfig(
        dim=cfg["dim"], window=cfg["window"], negatives=cfg["negatives"], alpha=cfg["alpha"],
        step_size=cfg["step_size"], init_scale=scale, seed=seed,
    )  # fmt: skip


_REDRAWS = 20  # a sample with an isolated node (walks undefined) is redrawn from the next graph seed


def sbm_sample(k: int, size: int, p: float, q: float, seed: int, dc: bool = False) -> tuple[Any, np.ndarray]:
    """An SBM sample; one with an isolated node is redrawn (seed + 10⁶ r), which only sparse or
    degree-corrected cells need."""
    for redraw in range(_REDRAWS):
        s = seed + 10**6 * redraw
        theta = degree_correction(k * size, s + 7919) if dc else None
        try:
            return sbm_graph([size] * k, p, q, s, theta)
        except ValueError as exc:
            if "isolated" not in str(exc):
                raise
    raise ValueError(f"SBM {k}x{size} p={p} q={q}: every one of {_REDRAWS} samples had an isolated node")


_VARIANCE_SAMPLES = 100_000  # Monte-Carlo draws of one SGNS update (Eq. (V2) of variance.py)


def variance_unit(cfg: dict[str, Any], graph: Any, scale: float, seed: int) -> float:
    """Eq. (V2): noise-to-signal ratio of one SGNS update at the start U₀, V₀ of ``scale`` on ``graph``."""
    c = cooccurrence_matrix(graph, cfg["window"])
    u0, v0 = initial_embeddings(c.shape[0], sgns_config(cfg, scale, seed))
    rng = np.random.default_rng([seed, 7])
    q_alpha = negative_distribution(graph, cfg["alpha"])
    return update_noise_ratio(u0, v0, c, q_alpha, cfg["negatives"], rng, _VARIANCE_SAMPLES)["ratio"]


def karate_unit(cfg: dict[str, Any], scale: float, seed: int) -> dict[str, Any]:
    """Our SGNS on the karate club from one init (corpus and init from ``seed``): peak alignment, ARI."""
    g, labels = karate_graph()
    tr = deepwalk_trajectory(
        g, sgns_config(cfg, scale, seed), "sgd", labels=labels, walks_per_node=cfg["walks_per_node"],
        walk_length=cfg["walk_length"], linearised=False, cluster_snapshots=0,
    )  # fmt: skip
    i = tr.peak()
    return {
        "peak_alignment": float(tr.metrics["alignment"][i]),
        "peak_ari": float(tr.metrics["ari"][i]),
        "final_ari": float(tr.metrics["ari"][-1]),
        "k": tr.eigenspace.k,
        "gap_ratio": tr.eigenspace.gap_ratio,
    }


def timing_unit(n: int, cfg: dict[str, Any], seed: int) -> float:
    """Seconds per population-GD step (the mean of ``timing_steps`` steps) on a 3-block SBM of ``n`` nodes."""
    a, _ = sbm_sample(3, n // 3, cfg["p"], cfg["q"], seed)
    c = cooccurrence_matrix(a, cfg["window"])
    negative = cfg["negatives"] * np.outer(node_frequencies(a), negative_distribution(a, cfg["alpha"]))
    u0, v0 = initial_embeddings(a.shape[0], sgns_config(cfg, 1e-4, seed))
    steps = cfg["timing_steps"]
    start = time.perf_counter()
    for _ in population_gd(c, negative, u0, v0, 1.0, steps, steps):
        pass
    return (time.perf_counter() - start) / steps


def cliques_unit(cfg: dict[str, Any]) -> dict[str, float]:
    """The exact small case: two disjoint K₁₀, b = 1, α = 1, T = 5 (deterministic)."""
    a, labels = two_cliques(10)
    m = sgns_matrix(a, 5, 1, 1.0)
    eig = top_eigenspace(m, 4, k=1)
    tr = deepwalk_trajectory(
        a, SGNSConfig(dim=4, window=5, negatives=1, alpha=1.0, init_scale=1e-4, seed=0), "population",
        labels=labels, steps=150, snapshot_every=5, cluster_snapshots=0,
    )  # fmt: skip
    i = tr.peak()
    return {
        "cliques_eig_ratio": float(eig.values[0] / eig.values[1]),
        "cliques_peak_alignment": float(tr.metrics["alignment"][i]),
        "cliques_ari": float(tr.metrics["ari"][i]),
    }


def sparse_benchmark(n: int, cfg: dict[str, Any], seed: int) -> dict[str, float]:
    """The sparse engine (``sparse.py``) on a 3-block SBM of ``n`` nodes, mean degree 30 (20 inside the
    block, 5 to each other block; Kesten-Stigum SNR 7.5): seconds to sample the graph, to find M's top-2
    eigenspace (b = 1: K − 1 = 2), per linear step (Eq. (3)), and the alignment after
    ``sparse_steps`` steps of η = 1 / μ₁ from init 1e-4 (the linear phase: its power iteration)."""
    size = n // 3
    start = time.perf_counter()
    a, _ = sparse_sbm([size, size, n - 2 * size], 20 / size, 5 / size, seed)
    graph_s = time.perf_counter() - start
    m = SparseSGNSMatrix(a, cfg["window"], cfg["negatives"], 1.0)
    start = time.perf_counter()
    eig = sparse_top_eigenspace(m, 2)
    eig_s = time.perf_counter() - start
    u0, v0 = initial_embeddings(a.shape[0], sgns_config(cfg, 1e-4, seed))
    steps = cfg["sparse_steps"]
    start = time.perf_counter()
    *_, (_, u, _) = sparse_linearised_gd(m, u0, v0, 1.0 / eig.values[0], steps, steps)
    step_s = (time.perf_counter() - start) / steps
    return {
        f"sparse_graph_s_n{n}": graph_s,
        f"sparse_eig_s_n{n}": eig_s,
        f"sparse_step_s_n{n}": step_s,
        f"sparse_linear_align_n{n}": alignment(u, eig.basis),
        f"sparse_gap_ratio_n{n}": eig.gap_ratio,
        f"sparse_edges_n{n}": float(a.nnz // 2),
    }
