"""The graph encoder f_theta (GIN, ``torch_geometric``), the head g_w, and the shared training loop.

Every method of the experiment (DIGL and the baselines) is a :class:`GraphOODClassifier`: the same GIN,
head, optimiser, batches and model selection; a subclass overrides only :meth:`objective`, the training
loss of one mini-batch (the torchcfm pattern: one override per difference). The estimators follow
scikit-learn (``get_params``, ``fit(train, val) -> self``, ``predict``, ``score``, learned state with a
trailing underscore); graphs come in as :class:`~icml26.digl.datasets.GraphSet` (networkx graphs with
nodes ``0 .. n - 1``; node features from ``GraphSet.features``, constant ``1`` by default as in
GOOD-Motif).
"""

from __future__ import annotations

import copy
import math
import numbers

import numpy as np
import torch
import torch.nn.functional as F
from sklearn.base import BaseEstimator, ClassifierMixin

from icml26.common import check_device, check_int, check_positive
from icml26.digl.datasets import GraphSet

POOLS = ("mean", "sum")


def _node_features(g, n: int, key: str, index: int) -> np.ndarray:
    rows = []
    for v in range(n):
        if key not in g.nodes[v]:
            raise ValueError(f"graph {index}: node {v} has no feature attribute {key!r} (GraphSet.features)")
        rows.append(np.atleast_1d(np.asarray(g.nodes[v][key], dtype=np.float32)))
    if any(r.ndim != 1 or r.shape != rows[0].shape for r in rows) or not np.all(np.isfinite(rows)):
        raise ValueError(f"graph {index}: node attribute {key!r} must be finite vectors of one length")
    return np.stack(rows) if rows else np.zeros((0, 1), dtype=np.float32)


class _Packed:
    """A set's graphs packed once: node counts (n_graphs,), each graph's edges, both directions (2, m_i),
    and its node features (n_i, f): ``GraphSet.features``'s attribute, or constant ``1`` (f = 1)."""

    def __init__(self, graphs: GraphSet) -> None:
        self.nodes = np.array([g.number_of_nodes() for g in graphs.graphs], dtype=np.int64)
        self.edges, self.x = [], []
        for i, (g, n) in enumerate(zip(graphs.graphs, self.nodes, strict=True)):
            if sorted(g.nodes()) != list(range(n)):
                raise ValueError(
                    "graphs must have nodes 0 .. n - 1 (networkx.convert_node_labels_to_integers)"
                )
            e = np.asarray(list(g.edges()), dtype=np.int64).reshape(-1, 2)
            self.edges.append(np.concatenate([e, e[:, ::-1]]).T)
            if graphs.features is not None:
                self.x.append(_node_features(g, n, graphs.features, i))
        dims = {x.shape[1] for x in self.x}
        if len(dims) > 1:
            raise ValueError(
                f"node attribute {graphs.features!r} has different lengths across graphs: {dims}"
            )
        self.dim = dims.pop() if dims else 1

    def batch(self, index: list[int], device: str):
        """A PyG ``Data`` holding the graphs ``index`` as one disjoint union: ``x = 1`` (N, 1),
        ``edge_index`` (2, M), ``batch`` (N,) (graph of each node, in the order of ``index``), ``num_graphs``."""
        from torch_geometric.data import Data

        counts = self.nodes[index]
        offsets = np.concatenate([[0], np.cumsum(counts)[:-1]])
        edges = np.concatenate([self.edges[i] + o for i, o in zip(index, offsets, strict=True)], axis=1)
        x = torch.as_tensor(np.concatenate([self.x[i] for i in index])) if self.x else None
        out = Data(
            x=torch.ones(int(counts.sum()), 1) if x is None else x,
            edge_index=torch.as_tensor(edges),
            batch=torch.as_tensor(np.repeat(np.arange(len(index)), counts)),
        )
        out.num_graphs = len(index)
        return out.to(device)


def to_pyg(graphs: GraphSet) -> _Packed:
    """The set's graphs packed for batching (cached on the set): ``to_pyg(s).batch(index, device)``."""
    cached = getattr(graphs, "_packed", None)
    if cached is None:
        cached = graphs._packed = _Packed(graphs)  # type: ignore[attr-defined]
    return cached


class GINEncoder(torch.nn.Module):
    """f_theta: ``num_layers`` GIN layers (2-layer MLPs, ReLU) of width ``hidden``, then a global pool:
    a PyG ``Batch`` with ``in_channels`` node features -> graph embeddings z_G (n_graphs, hidden)."""

    def __init__(
        self, hidden: int = 64, num_layers: int = 3, pool: str = "mean", in_channels: int = 1
    ) -> None:
        super().__init__()
        from torch_geometric.nn import GIN

        if pool not in POOLS:
            raise ValueError(f"pool must be one of {', '.join(POOLS)}, got {pool!r}")
        self.hidden, self.pool = check_int("hidden", hidden), pool
        self.gnn = GIN(
            check_int("in_channels", in_channels), self.hidden, check_int("num_layers", num_layers)
        )

    def forward(self, batch) -> torch.Tensor:
        from torch_geometric.nn import global_add_pool, global_mean_pool

        h = self.gnn(batch.x, batch.edge_index)
        return (global_mean_pool if self.pool == "mean" else global_add_pool)(
            h, batch.batch, batch.num_graphs
        )


def _check_set(name: str, graphs: object, need_env: bool = False) -> GraphSet:
    if not isinstance(graphs, GraphSet):
        raise ValueError(f"{name} must be a GraphSet (icml26.digl.datasets), got {type(graphs).__name__}")
    if len(graphs) == 0:
        raise ValueError(f"{name} is empty")
    if need_env and graphs.env is None:
        raise ValueError(f"{name} has no environment ids (GraphSet.env)")
    return graphs


class GraphOODClassifier(BaseEstimator, ClassifierMixin):
    """A GIN graph classifier trained by Adam on mini-batches with env ids; the base of every method.

    Parameters (hyperparameters only; nothing is computed here): ``encoder`` (a ``torch.nn.Module``
    mapping a batch (PyG ``Data`` with ``x``, ``edge_index``, ``batch``, ``num_graphs``) to (n, d) embeddings, deep-copied by ``fit``; ``None``: a :class:`GINEncoder`
    of ``hidden`` x ``num_layers`` with ``pool``), ``epochs``, ``batch_size``, ``lr``, ``random_state``
    (seeds the initialisation and the batch order), ``device``.

    Learned: ``encoder_``, ``head_``, ``classes_``, ``history_`` (per epoch: loss, penalty, validation
    accuracy), ``best_epoch_`` (the epoch kept: best accuracy on ``val``; the last one without ``val``).
    """

    def __init__(
        self,
        encoder: torch.nn.Module | None = None,
        hidden: int = 64,
        num_layers: int = 3,
        pool: str = "mean",
        epochs: int = 20,
        batch_size: int = 128,
        lr: float = 1e-3,
        random_state: int = 0,
        device: str = "cpu",
    ) -> None:
        self.encoder = encoder
        self.hidden = hidden
        self.num_layers = num_layers
        self.pool = pool
        self.epochs = epochs
        self.batch_size = batch_size
        self.lr = lr
        self.random_state = random_state
        self.device = device

    # -- the one override point ------------------------------------------------------------------
    def objective(
        self, z: torch.Tensor, y: torch.Tensor, env: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """``(loss, penalty)`` of one mini-batch: embeddings z (n, d), labels y (n,), env ids env (n,).

        ERM: the mean cross-entropy ``sum_e (n_e / n) R_e`` and no penalty."""
        return F.cross_entropy(self.head_(z), y), z.new_zeros(())

    def _check_params(self) -> None:
        """Raise ``ValueError`` for out-of-range hyperparameters (subclasses extend)."""
        check_int("epochs", self.epochs)
        check_int("batch_size", self.batch_size, 2)
        check_positive("lr", self.lr)
        check_int("random_state", self.random_state, 0)
        check_device(self.device)
        if self.encoder is not None and not isinstance(self.encoder, torch.nn.Module):
            raise ValueError(f"encoder must be a torch.nn.Module or None, got {type(self.encoder).__name__}")

    def _setup(self, train: GraphSet) -> None:
        """Hook run after the model is built and before the first epoch (state of a subclass)."""

    def _environments(self, train: GraphSet) -> np.ndarray:
        """Training env ids, as given; a subclass may infer them."""
        if train.env is None:
            raise ValueError(
                f"{type(self).__name__} needs environment ids (GraphSet.env) on the training set"
            )
        return train.env

    # -- fitting ---------------------------------------------------------------------------------
    def _build(self, n_classes: int, train: GraphSet | None = None) -> None:
        """The encoder (for ``train``'s node features; constant ones without it) and the head."""
        torch.manual_seed(self.random_state)
        probe = _tiny() if train is None else train
        self.in_channels_ = to_pyg(probe).dim
        if self.encoder is None:
            self.encoder_ = GINEncoder(self.hidden, self.num_layers, self.pool, self.in_channels_)
        else:
            self.encoder_ = copy.deepcopy(self.encoder)
        self.encoder_.to(self.device)
        with torch.no_grad():
            dim = self.encoder_(to_pyg(probe).batch([0], self.device)).shape[1]
        self.head_ = torch.nn.Linear(dim, n_classes).to(self.device)

    def fit(self, train: GraphSet, val: GraphSet | None = None) -> GraphOODClassifier:
        """Train for ``epochs`` epochs; keep the parameters of the epoch with the best ``val`` accuracy."""
        self._check_params()
        train = _check_set("train", train)
        if val is not None:
            val = _check_set("val", val)
        classes = np.unique(train.y)
        if classes[0] < 0 or not np.array_equal(classes, np.arange(classes[-1] + 1)) or classes.size < 2:
            raise ValueError(
                f"training labels must be 0 .. C - 1 with every class present and C >= 2, got classes {classes.tolist()}"
            )
        env = self._environments(train)
        if np.unique(env).size < 2:
            raise ValueError(
                f"{type(self).__name__} needs >= 2 training environments, got {np.unique(env).tolist()}"
            )
        self.classes_, self.env_ids_ = classes, np.unique(env)
        self._build(classes.size, train)
        self._setup(train)
        params = list(self.encoder_.parameters()) + list(self.head_.parameters())
        opt = torch.optim.Adam(params, lr=self.lr)
        data = to_pyg(train)
        y_all, env_all = torch.as_tensor(train.y), torch.as_tensor(env)
        gen = torch.Generator().manual_seed(self.random_state)
        self.history_, best, self.best_epoch_, self.best_state_ = [], -math.inf, 0, None
        for epoch in range(1, self.epochs + 1):
            self.encoder_.train()
            order = torch.randperm(len(train), generator=gen)
            losses, penalties = [], []
            for start in range(0, len(train), self.batch_size):
                idx = order[start : start + self.batch_size]
                if idx.numel() < 2:
                    continue
                z = self.encoder_(data.batch(idx.tolist(), self.device))
                loss, penalty = self.objective(z, y_all[idx].to(self.device), env_all[idx].to(self.device))
                opt.zero_grad()
                loss.backward()
                opt.step()
                losses.append(float(loss.detach()))
                penalties.append(float(penalty.detach()))
            row = {"epoch": epoch, "loss": float(np.mean(losses)), "penalty": float(np.mean(penalties))}
            if val is not None:
                row["val_acc"] = self.score(val)
                if row["val_acc"] > best:
                    best, self.best_epoch_ = row["val_acc"], epoch
                    self.best_state_ = (
                        copy.deepcopy(self.encoder_.state_dict()),
                        copy.deepcopy(self.head_.state_dict()),
                    )
            self.history_.append(row)
        if val is None:
            self.best_epoch_ = self.epochs
        else:
            self.encoder_.load_state_dict(self.best_state_[0])
            self.head_.load_state_dict(self.best_state_[1])
        self.best_state_ = None
        return self

    # -- inference -------------------------------------------------------------------------------
    def embed(self, graphs: GraphSet) -> np.ndarray:
        """Graph embeddings z_G = f_theta(G): (n_graphs, d)."""
        return self._embed(graphs).cpu().numpy()

    def _check_fitted(self) -> None:
        if not hasattr(self, "head_"):
            raise ValueError(f"{type(self).__name__} is not fitted; call fit(train, val) first")

    @torch.no_grad()
    def _embed(self, graphs: GraphSet) -> torch.Tensor:
        self._check_fitted()
        graphs = _check_set("graphs", graphs)
        self.encoder_.eval()
        data = to_pyg(graphs)
        if data.dim != getattr(self, "in_channels_", data.dim):
            raise ValueError(
                f"graphs have {data.dim} node features (GraphSet.features={graphs.features!r}); the model was"
                f" trained on {self.in_channels_}"
            )
        n = len(graphs)
        return torch.cat(
            [
                self.encoder_(data.batch(list(range(s, min(s + 512, n))), self.device))
                for s in range(0, n, 512)
            ]
        )

    @torch.no_grad()
    def predict_proba(self, graphs: GraphSet) -> np.ndarray:
        """Class probabilities (n_graphs, C) from the head g_w."""
        self._check_fitted()
        return torch.softmax(self.head_(self._embed(graphs)), 1).cpu().numpy()

    def predict(self, graphs: GraphSet) -> np.ndarray:
        """Predicted labels (n_graphs,)."""
        return self.predict_proba(graphs).argmax(1)

    def score(self, graphs: GraphSet, y: np.ndarray | None = None) -> float:
        """Accuracy on ``graphs`` (labels ``graphs.y`` unless ``y`` is given)."""
        truth = graphs.y if y is None else np.asarray(y)
        return float(np.mean(self.predict(graphs) == truth))


def _tiny() -> GraphSet:
    import networkx as nx

    return GraphSet([nx.path_graph(2)], np.zeros(1))


def check_weight(name: str, value: object, zero: bool = True) -> float:
    """A penalty weight: a finite real ``>= 0`` (``> 0`` when ``zero`` is False)."""
    if (
        isinstance(value, bool)
        or not isinstance(value, numbers.Real)
        or not math.isfinite(value)
        or value < 0
    ):
        raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")
    if not zero and value == 0:
        raise ValueError(f"{name} must be > 0, got {value!r}")
    return float(value)
