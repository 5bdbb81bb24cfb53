"""The library's one node-order convention for networkx graphs: rows follow ``sorted(G)``.

A method that turns a ``networkx`` graph into arrays (adjacency, embeddings, labels) puts node ``v`` in
row ``node_order(G).index(v)``: the sorted node list, as ``exact_gnn`` does. Insertion order
(``G.nodes``) is not used, because the same graph built from its edges in another order would otherwise
give permuted rows while labels given by node id stayed put (a silent wrong result). Labels are accepted
as a mapping node -> label (any order) or as a sequence already in ``sorted(G)`` order.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np


def node_order(graph: Any) -> list[Hashable]:
    """``sorted(graph)``: the row order of every array built from ``graph``; ``ValueError`` when the node
    names cannot be sorted together (e.g. ints mixed with strings): relabel them first."""
    try:
        return sorted(graph)
    except TypeError as exc:
        raise ValueError(
            f"graph nodes must be mutually sortable (the row order is sorted(G)), got {exc}; relabel "
            "them, e.g. networkx.convert_node_labels_to_integers(G, ordering='sorted')"
        ) from None


def labels_in_order(
    labels: Mapping[Hashable, Any] | Sequence[Any] | np.ndarray,
    nodes: list[Hashable],
    insertion: Sequence[Hashable] | None = None,
) -> np.ndarray:
    """Labels as an array in the order ``nodes`` (from ``node_order``).

    A mapping must name every node (extra keys are rejected too); a sequence / array must have one entry
    per node and is read as already in ``nodes`` order. ``insertion`` (the graph's own ``list(G)``): where
    it differs from ``nodes`` a sequence is ambiguous (``[y[v] for v in G]`` follows insertion order) and
    is refused, asking for a mapping.
    """
    if isinstance(labels, Mapping):
        missing = [v for v in nodes if v not in labels]
        if missing:
            raise ValueError(
                f"labels (a mapping node -> label) miss {len(missing)} node(s), e.g. {missing[0]!r}"
            )
        if len(labels) != len(nodes):
            extra = next(k for k in labels if k not in set(nodes))
            raise ValueError(f"labels name a node not in the graph: {extra!r}")
        return np.asarray([labels[v] for v in nodes])
    if isinstance(labels, str | bytes):
        raise ValueError("labels must be a mapping node -> label or one label per node, got a string")
    if insertion is not None and list(insertion) != list(nodes):
        raise ValueError(
            "labels given as a sequence are ambiguous here: this graph's insertion order (list(G)) differs"
            " from sorted(G), the row order; pass a mapping node -> label, e.g. dict(zip(G, labels))"
        )
    out = np.asarray(labels)
    if out.shape != (len(nodes),):
        raise ValueError(
            f"labels must be a mapping node -> label or one label per node in sorted(G) order "
            f"({len(nodes)} entries), got shape {out.shape}"
        )
    return out
