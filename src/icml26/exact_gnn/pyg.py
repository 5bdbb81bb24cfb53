"""Optional executor backend: the sum aggregation ``A Y P_m`` as a ``torch_geometric`` message passing."""

from __future__ import annotations

import numpy as np
import torch


def _layer():  # built lazily: torch_geometric is an optional dependency
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
    return _layer()(x, edge_index).numpy()
