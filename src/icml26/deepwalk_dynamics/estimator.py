"""``DeepWalkDynamics``: the scikit-learn-style estimator over ``deepwalk_trajectory``.

``DeepWalkDynamics(dim=16, engine="sgd").fit(G)`` trains DeepWalk/SGNS on a networkx graph from a
small-norm start and keeps the trajectory. Rows follow the library's node order ``sorted(G)``
(``icml26.common.graphs``): ``embedding_`` maps node -> vector, ``embedding_array_`` holds the same rows in
``nodes_`` order. Weighted graphs are supported (walks step in proportion to the ``weight`` attribute);
directed graphs and multigraphs are rejected.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

import networkx as nx
import numpy as np
from sklearn.base import BaseEstimator
from sklearn.cluster import KMeans
from sklearn.metrics import adjusted_rand_score

from icml26.common.graphs import labels_in_order
from icml26.deepwalk_dynamics.config import SGNSConfig
from icml26.deepwalk_dynamics.graphs import GraphLike, adjacency, graph_nodes
from icml26.deepwalk_dynamics.trajectory import ENGINES, Trajectory, deepwalk_trajectory


class DeepWalkDynamics(BaseEstimator):
    """DeepWalk (uniform walks + skip-gram with negative sampling) with its optimisation trajectory.

    dim, window, negatives, alpha, step_size, min_step_size, init, init_scale, seed: as ``SGNSConfig``.
    engine: ``"sgd"`` (our per-pair SGNS, default), ``"gensim"`` (Word2Vec on the same walks) or
        ``"population"`` (gradient ascent on the expected objective; dense, n <= 5,000).
    walks_per_node, walk_length: the corpus of the stochastic engines. steps: population-GD steps.
    cluster_snapshots: snapshots that get ARI/NMI when ``labels`` are given to ``fit``.

    After ``fit``: ``nodes_`` (row order, ``sorted(G)``), ``embedding_`` (node -> U row at the end),
    ``embedding_array_`` (n × d, rows in ``nodes_`` order), ``peak_embedding_`` (node -> U row at the
    snapshot of peak alignment with M's top-k space), ``trajectory_`` (``Trajectory``).
    """

    def __init__(
        self,
        dim: int = 16,
        window: int = 5,
        negatives: int = 1,
        alpha: float = 1.0,
        step_size: float = 0.025,
        min_step_size: float = 0.0001,
        init: str = "gaussian",
        init_scale: float = 1e-4,
        engine: str = "sgd",
        walks_per_node: int = 10,
        walk_length: int = 40,
        steps: int = 400,
        cluster_snapshots: int = 6,
        seed: int = 0,
    ) -> None:
        self.dim = dim
        self.window = window
        self.negatives = negatives
        self.alpha = alpha
        self.step_size = step_size
        self.min_step_size = min_step_size
        self.init = init
        self.init_scale = init_scale
        self.engine = engine
        self.walks_per_node = walks_per_node
        self.walk_length = walk_length
        self.steps = steps
        self.cluster_snapshots = cluster_snapshots
        self.seed = seed

    def config(self) -> SGNSConfig:
        """The ``SGNSConfig`` of these parameters (every bad value rejected here, with its name)."""
        return SGNSConfig(
            dim=self.dim, window=self.window, negatives=self.negatives, alpha=self.alpha,
            step_size=self.step_size, min_step_size=self.min_step_size, init=self.init,
            init_scale=self.init_scale, seed=self.seed,
        )  # fmt: skip

    def fit(self, graph: GraphLike, labels: Mapping[Hashable, Any] | Any | None = None) -> DeepWalkDynamics:
        """Train on ``graph`` (networkx.Graph or symmetric adjacency matrix); ``labels`` (a mapping node ->
        block, or one per row in ``sorted(G)`` order) add ARI/NMI per snapshot to the trajectory."""
        cfg = self.config()
        if self.engine not in ENGINES:
            raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {self.engine!r}")
        adjacency(graph)  # directed, multigraph, negative weights, isolated nodes: rejected before training
        nodes = graph_nodes(graph)
        insertion = list(graph) if isinstance(graph, nx.Graph) else None
        y = None if labels is None else labels_in_order(labels, nodes, insertion)
        tr: Trajectory = deepwalk_trajectory(
            graph, cfg, self.engine, labels=y, steps=self.steps, walks_per_node=self.walks_per_node,
            walk_length=self.walk_length, linearised=False, cluster_snapshots=self.cluster_snapshots,
        )  # fmt: skip
        self.nodes_ = nodes
        self.insertion_order_ = insertion  # list(G), where a sequence of labels is refused if it differs
        self.trajectory_ = tr
        self.embedding_array_ = tr.embeddings[-1]
        self.embedding_ = {v: row for v, row in zip(nodes, self.embedding_array_, strict=True)}
        self.peak_embedding_ = {v: row for v, row in zip(nodes, tr.embeddings[tr.peak()], strict=True)}
        return self

    def _fitted(self) -> None:
        if not hasattr(self, "embedding_"):
            raise ValueError("DeepWalkDynamics is not fitted: call fit(G) first")

    def transform(self, nodes: list[Hashable] | None = None) -> np.ndarray:
        """The final embedding rows of ``nodes`` (default: all, in ``nodes_`` order), len(nodes) × d."""
        self._fitted()
        if nodes is None:
            return self.embedding_array_.copy()
        missing = [v for v in nodes if v not in self.embedding_]
        if missing:
            raise ValueError(f"{len(missing)} node(s) were not in the fitted graph, e.g. {missing[0]!r}")
        return np.stack([self.embedding_[v] for v in nodes])

    def fit_transform(self, graph: GraphLike, labels: Any = None) -> np.ndarray:
        return self.fit(graph, labels).transform()

    def score(self, labels: Mapping[Hashable, Any] | Any) -> float:
        """ARI of k-means (K = number of distinct labels, 10 restarts) on the final embedding against
        ``labels`` (a mapping node -> block, or one per row in ``nodes_`` order)."""
        self._fitted()
        y = labels_in_order(labels, self.nodes_, self.insertion_order_)
        k = int(np.unique(y).size)
        if k < 2:
            raise ValueError("labels must name at least two blocks")
        pred = KMeans(k, n_init=10, random_state=self.seed).fit_predict(self.embedding_array_)
        return float(adjusted_rand_score(y, pred))
