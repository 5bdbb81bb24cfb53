"""``deepwalk_trajectory``: one SGNS run from a small-norm start by any engine, with per-snapshot metrics."""

from __future__ import annotations

import math
import numbers
import time
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field

import networkx as nx
import numpy as np

from icml26.common import Plot
from icml26.common.graphs import labels_in_order, node_order
from icml26.deepwalk_dynamics.config import SGNSConfig
from icml26.deepwalk_dynamics.graphs import GraphLike, adjacency
from icml26.deepwalk_dynamics.metrics import (
    alignment,
    cluster_scores,
    mean_row_norm,
    sin_theta,
    trivial_energy,
)
from icml26.deepwalk_dynamics.population import initial_embeddings, linearised_gd, population_gd
from icml26.deepwalk_dynamics.sgns_matrix import (
    Eigenspace,
    block_indicator_basis,
    cooccurrence_matrix,
    negative_distribution,
    node_frequencies,
    top_eigenspace,
    trivial_direction,
)

ENGINES = ("population", "sgd", "gensim")


@dataclass
class Trajectory:
    """Snapshots of U along one run and their metrics.

    pairs: SGNS pair updates done at each snapshot (population GD: ``step × pairs_per_step``, the pairs
        whose expected effect one step takes). steps: engine steps (population) or chunks (sgd, gensim).
    embeddings: U at each snapshot (n × d). metrics: name -> one value per snapshot (``mean_row_norm``,
        ``alignment`` with M's Q_k, ``alignment_blocks`` with the block-indicator span, ``sin_theta``,
        ``trivial_energy``, ``ari``/``nmi`` raw and ``_rownorm``, and for population GD ``linear_error``
        ‖U − U^lin‖_F / ‖U‖_F). eigenspace: M's Q_k, k, top singular values and gap.
    update_seconds: time spent in the updates (kernel / train calls / GD steps) over ``pairs[-1]`` pairs.
    """

    engine: str
    config: SGNSConfig
    pairs: np.ndarray
    steps: np.ndarray
    embeddings: list[np.ndarray]
    metrics: dict[str, np.ndarray]
    eigenspace: Eigenspace
    update_seconds: float
    notes: list[str] = field(default_factory=list)

    @property
    def pairs_per_second(self) -> float:
        return float(self.pairs[-1] / self.update_seconds) if self.update_seconds > 0 else math.inf

    def peak(self, key: str = "alignment") -> int:
        """Index of the snapshot where ``metrics[key]`` is largest (the first, on ties)."""
        return int(np.argmax(self.metrics[key]))

    def at_peak(self, key: str = "alignment") -> dict[str, float]:
        """Every metric at the peak of ``key``."""
        i = self.peak(key)
        return {name: float(values[i]) for name, values in self.metrics.items()} | {
            "pairs": float(self.pairs[i])
        }

    def final(self) -> dict[str, float]:
        return {name: float(values[-1]) for name, values in self.metrics.items()} | {
            "pairs": float(self.pairs[-1])
        }

    def plots(self, prefix: str = "") -> list[Plot]:
        """Alignment, mean row norm and ARI against pairs (log x)."""
        x = [max(float(p), 1.0) for p in self.pairs]
        name = f"{prefix}{self.engine}"
        keys = [k for k in ("alignment", "alignment_blocks", "trivial_energy") if k in self.metrics]
        out = [
            Plot(f"{name}_alignment", f"{self.engine}: alignment with M's top-{self.eigenspace.k} space",
                 {k: (x, self.metrics[k].tolist()) for k in keys}, "pairs", "share of ‖U‖²", logx=True),
            Plot(f"{name}_norm", f"{self.engine}: mean row norm", {"mean ‖u_w‖": (x, self.metrics["mean_row_norm"].tolist())},
                 "pairs", "norm", logx=True, logy=True),
        ]  # fmt: skip
        if "ari" in self.metrics:
            done = np.flatnonzero(np.isfinite(self.metrics["ari"]))
            series = {
                k: ([x[i] for i in done], self.metrics[k][done].tolist()) for k in ("ari", "ari_rownorm")
            }
            out.append(
                Plot(f"{name}_ari", f"{self.engine}: ARI of k-means on U", series, "pairs", "ARI", logx=True)
            )
        return out


def _integer(name: str, value: object, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def deepwalk_trajectory(
    graph: GraphLike,
    config: SGNSConfig,
    engine: str = "population",
    *,
    labels: np.ndarray | Mapping[Hashable, object] | None = None,
    steps: int = 400,
    pairs_per_step: float | None = None,
    snapshot_every: int | None = None,
    walks_per_node: int = 10,
    walk_length: int = 40,
    linearised: bool = True,
    k: int | None = None,
    cluster_snapshots: int = 12,
) -> Trajectory:
    """Train DeepWalk/SGNS on ``graph`` from ``config``'s small-norm start and record its trajectory.

    engine: ``"population"`` (gradient ascent on the expected objective, ``steps`` steps of
        ``pairs_per_step`` pairs each; default: the count that makes η σ₁(M) = 0.2), ``"sgd"`` (our numba
        per-pair SGNS, one pass over ``walks_per_node`` walks of ``walk_length`` from every node) or
        ``"gensim"`` (Word2Vec on the same corpus). Rows of every array follow ``sorted(G)`` for a networkx
        graph (``icml26.common.graphs``); ``labels``: a mapping node -> block, or one per row in that order. snapshot_every: steps (population, default steps/40)
        or pairs (sgd/gensim, default corpus/40). labels: true blocks, for the block-span alignment and
        ARI/NMI. k: the eigenspace dimension (default: the largest gap among M's top d).
    cluster_snapshots: k-means (ARI/NMI) runs on this many evenly spaced snapshots plus the
        peak-alignment and last ones (NaN elsewhere: k-means dominates the cost).
    """
    if not isinstance(config, SGNSConfig):
        raise TypeError(f"config must be an SGNSConfig, got {type(config).__name__}")
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    a = adjacency(graph)
    n = a.shape[0]
    if config.dim >= n:
        raise ValueError(f"dim d = {config.dim} must be below the number of nodes n = {n}")
    if labels is not None:
        labels = labels_in_order(labels, node_order(graph) if isinstance(graph, nx.Graph) else list(range(n)))
    c = cooccurrence_matrix(a, config.window)
    q_alpha = negative_distribution(a, config.alpha)
    negative = config.negatives * np.outer(node_frequencies(a), q_alpha)
    eig = top_eigenspace(c - negative, config.dim, k)
    u0, v0 = initial_embeddings(n, config)
    notes: list[str] = []
    lin: list[np.ndarray] = []
    if engine == "population":
        steps = _integer("steps", steps, 1)
        every = _integer("snapshot_every", snapshot_every or max(1, steps // 40), 1)
        if pairs_per_step is None:
            pairs_per_step = 0.2 / (config.step_size * eig.values[0])
        if (
            isinstance(pairs_per_step, bool)
            or not isinstance(pairs_per_step, numbers.Real)
            or not pairs_per_step > 0
        ):
            raise ValueError(f"pairs_per_step must be a number > 0, got {pairs_per_step!r}")
        eta = config.step_size * float(pairs_per_step)
        start = time.perf_counter()
        runs = list(population_gd(c, negative, u0, v0, eta, steps, every))
        seconds = time.perf_counter() - start
        step_ids = np.array([s for s, _, _ in runs])
        pairs = step_ids * float(pairs_per_step)
        embeddings = [u for _, u, _ in runs]
        if linearised:
            lin = [u for _, u, _ in linearised_gd(c - negative, u0, v0, eta, steps, every)]
    else:
        from icml26.deepwalk_dynamics.stochastic import sgns_sgd, walk_corpus

        rng = np.random.default_rng([config.seed, 1])
        corpus = walk_corpus(
            a, _integer("walks_per_node", walks_per_node, 1), walk_length, config.window, rng
        )
        every = _integer("snapshot_every", snapshot_every or max(1, corpus.pairs // 40), 1)
        if engine == "sgd":
            runs4 = list(sgns_sgd(corpus, q_alpha, u0, v0, config, every, rng))
        else:
            from icml26.deepwalk_dynamics.gensim_engine import gensim_sgd

            degree = np.asarray(a.sum(axis=1)).ravel()
            runs4 = list(gensim_sgd(corpus, degree, u0, v0, config, every))
            notes.append("gensim: its own negative draws; chunked train calls replay one pass")
        pairs = np.array([p for p, _, _, _ in runs4], dtype=float)
        step_ids = np.arange(len(runs4))
        embeddings = [u for _, u, _, _ in runs4]
        seconds = runs4[-1][3]
    cluster_snapshots = _integer("cluster_snapshots", cluster_snapshots, 0)
    metrics = snapshot_metrics(embeddings, eig, trivial_direction(a), labels, config.seed, cluster_snapshots)
    if lin:
        metrics["linear_error"] = np.array(
            [np.linalg.norm(u - ul) / np.linalg.norm(u) for u, ul in zip(embeddings, lin, strict=True)]
        )
    return Trajectory(engine, config, pairs, step_ids, embeddings, metrics, eig, seconds, notes)


def snapshot_metrics(
    embeddings: list[np.ndarray],
    eig: Eigenspace,
    trivial: np.ndarray,
    labels: np.ndarray | None,
    seed: int = 0,
    cluster_snapshots: int = 12,
) -> dict[str, np.ndarray]:
    """The metrics of ``Trajectory`` for each snapshot (see its docstring); clustering scores on
    ``cluster_snapshots`` evenly spaced snapshots plus the peak-alignment and last ones, NaN elsewhere."""
    rows: dict[str, list[float]] = {}
    for u in embeddings:
        for key, value in (
            ("mean_row_norm", mean_row_norm(u)),
            ("alignment", alignment(u, eig.basis)),
            ("sin_theta", sin_theta(u, eig.basis)),
            ("trivial_energy", trivial_energy(u, trivial)),
        ):
            rows.setdefault(key, []).append(value)
    out = {key: np.array(values) for key, values in rows.items()}
    if labels is None:
        return out
    blocks = block_indicator_basis(labels)
    out["alignment_blocks"] = np.array([alignment(u, blocks) for u in embeddings])
    last = len(embeddings) - 1
    chosen = {int(np.argmax(out["alignment"])), last}
    chosen |= (
        set(np.linspace(0, last, cluster_snapshots).round().astype(int).tolist())
        if cluster_snapshots
        else set()
    )
    for i in sorted(chosen):
        for key, value in cluster_scores(embeddings[i], labels, seed).items():
            out.setdefault(key, np.full(len(embeddings), np.nan))[i] = value
    return out
