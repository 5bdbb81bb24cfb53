"""The executor as ``torch_geometric`` message passing: the aggregation alone, and a reusable layer.

- :func:`sum_aggregate`: ``(A + I) @ messages`` by ``MessagePassing(aggr="add")`` (the executor's
  ``backend="pyg"``).
- :func:`exact_gnn_layer`: a ``MessagePassing`` layer carrying a whole compiled program and its learner:
  ``forward(x, edge_index)`` is one round ``X_next = Y P_c + A Y P_m`` with ``Y = H(f(encode(X)))``;
  iterating it ``program.rounds(G)`` times from ``program.init`` equals :meth:`Executor.run`'s states.
"""

from __future__ import annotations

from typing import Any

import networkx as nx
import numpy as np
import torch


def _sum_layer():  # built lazily: torch_geometric is an optional dependency
    from torch_geometric.nn import MessagePassing

    class SumAggregation(MessagePassing):
        """``out_v = sum_{u in N(v)} x_u`` over the given edges (self-loops included by the caller)."""

        def __init__(self) -> None:
            super().__init__(aggr="add")

        def forward(self, x: torch.Tensor, edge_index: torch.Tensor) -> torch.Tensor:
            return self.propagate(edge_index, x=x)

    return SumAggregation()


def sum_aggregate(messages: np.ndarray, adjacency: np.ndarray) -> np.ndarray:
    """``(A + I) @ messages`` computed by ``MessagePassing(aggr="add")``; ``adjacency`` includes self-loops."""
    target, source = np.nonzero(adjacency)
    edge_index = torch.as_tensor(np.stack([source, target]), dtype=torch.long)
    x = torch.as_tensor(messages, dtype=torch.float64)
    return _sum_layer()(x, edge_index).numpy()


def edge_index_of(graph: nx.Graph) -> torch.Tensor:
    """Both directions of every edge plus a self-loop per node, in node order ``sorted(G)``, ``(2, E)``."""
    index = {v: r for r, v in enumerate(sorted(graph))}
    pairs = [(index[u], index[v]) for u, v in graph.edges] + [(index[v], index[u]) for u, v in graph.edges]
    pairs += [(r, r) for r in range(len(index))]
    return torch.tensor(pairs, dtype=torch.long).T.reshape(2, -1)


def exact_gnn_layer(executor: Any):
    """A ``torch_geometric`` ``MessagePassing`` layer running ``executor``'s program and learner one round
    per call (``heaviside="before"`` only: the paper's placement)."""
    from torch_geometric.nn import MessagePassing

    from icml26.exact_gnn.executor import Executor

    if not isinstance(executor, Executor):
        raise TypeError(f"exact_gnn_layer needs an Executor, got {type(executor).__name__}")
    if executor.heaviside != "before":
        raise ValueError(f"exact_gnn_layer: heaviside must be 'before', got {executor.heaviside!r}")

    class ExactGNNLayer(MessagePassing):
        """One round: the learned local update on every node, then the sum over the closed neighbourhood
        of the communicated bits (``edge_index`` must include self-loops: :func:`edge_index_of`)."""

        def __init__(self) -> None:
            super().__init__(aggr="add")
            self.executor = executor
            self.message_bits = torch.as_tensor(np.asarray(executor.program.message_bits), dtype=torch.long)

        def forward(self, x: torch.Tensor, edge_index: torch.Tensor) -> torch.Tensor:
            y = self.executor.local_update(x.detach().cpu().numpy())
            y = torch.as_tensor((y > self.executor.threshold).astype(float), dtype=torch.float64)
            out = y.clone()
            out[:, self.message_bits] = self.propagate(edge_index, x=y[:, self.message_bits])
            return out

    return ExactGNNLayer()
