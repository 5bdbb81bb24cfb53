"""Instances for the experiment: random and planted-partition signed graphs, the networkx atlas as
complete signed graphs, and the Highland tribes network (Read, 1954).
"""

from __future__ import annotations

import csv
import json
from importlib import resources

import networkx as nx
import numpy as np

from icml26.bad_triangles.graph import SignedGraph, complete_from_positive, from_arrays, from_edges

__all__ = [
    "atlas_complete_graphs",
    "binding_instances",
    "highland_tribes",
    "planted_partition",
    "random_signed_graph",
]


def _check_common(n: int, density: float, rng: np.random.Generator) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < 3:
        raise ValueError(f"n must be an integer >= 3, got {n!r}")
    if not isinstance(density, int | float) or not 0 < density <= 1:
        raise ValueError(f"density must be in (0, 1], got {density!r}")
    if not isinstance(rng, np.random.Generator):
        raise TypeError(
            f"rng must be a numpy Generator (np.random.default_rng(seed)), got {type(rng).__name__}"
        )


def _sample_pairs(n: int, density: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Edges of G(n, density), sampled without building all n^2 pairs when density is small."""
    expected = density * n * (n - 1) / 2
    if density > 0.2 or n < 500:
        iu, ju = np.triu_indices(n, k=1)
        keep = rng.random(iu.size) < density
        return iu[keep], ju[keep]
    k = rng.binomial(n * (n - 1) // 2, density) if expected > 0 else 0
    a = rng.integers(0, n, size=int(k * 1.2) + 16)
    b = rng.integers(0, n, size=a.size)
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    code = np.unique(lo[lo != hi] * n + hi[lo != hi])
    code = rng.permutation(code)[:k]
    return code // n, code % n


def _weights(size: int, weighted: bool, rng: np.random.Generator) -> np.ndarray:
    return rng.integers(1, 11, size=size).astype(float) if weighted else np.ones(size)


def random_signed_graph(
    n: int, density: float, p_negative: float, rng: np.random.Generator, weighted: bool = False
) -> SignedGraph:
    """G(n, density) support with independent signs (negative with probability ``p_negative``);
    integer weights in 1..10 when ``weighted``."""
    _check_common(n, density, rng)
    if not 0 <= p_negative <= 1:
        raise ValueError(f"p_negative must be in [0, 1], got {p_negative!r}")
    iu, ju = _sample_pairs(n, density, rng)
    sign = np.where(rng.random(iu.size) < p_negative, -1, 1)
    w = _weights(iu.size, weighted, rng)
    return from_arrays(iu, ju, sign, w, n)


def planted_partition(
    n: int, k: int, density: float, noise: float, rng: np.random.Generator, weighted: bool = False
) -> SignedGraph:
    """Signed graph with ``k`` planted groups: an edge is positive inside a group and negative across,
    then each sign is flipped with probability ``noise``; support is G(n, density)."""
    _check_common(n, density, rng)
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= n:
        raise ValueError(f"k must be an integer in [1, n], got {k!r}")
    if not 0 <= noise <= 1:
        raise ValueError(f"noise must be in [0, 1], got {noise!r}")
    group = rng.integers(0, k, size=n)
    iu, ju = _sample_pairs(n, density, rng)
    sign = np.where(group[iu] == group[ju], 1, -1)
    sign = np.where(rng.random(iu.size) < noise, -sign, sign)
    w = _weights(iu.size, weighted, rng)
    return from_arrays(iu, ju, sign, w, n)


def atlas_complete_graphs(min_nodes: int = 3, max_nodes: int = 7) -> list[SignedGraph]:
    """Every graph of ``networkx.graph_atlas_g()`` (all graphs up to 7 nodes, up to isomorphism) with
    ``min_nodes..max_nodes`` nodes, as complete signed graphs (edge = positive, non-edge = negative)."""
    if not 1 <= min_nodes <= max_nodes <= 7:
        raise ValueError(f"need 1 <= min_nodes <= max_nodes <= 7, got {min_nodes}, {max_nodes}")
    return [
        complete_from_positive(g) for g in nx.graph_atlas_g() if min_nodes <= g.number_of_nodes() <= max_nodes
    ]


def highland_tribes() -> SignedGraph:
    """The Gahuku-Gama Highland tribes network: 16 tribes, 58 signed relations (29 + / 29 -).

    Read, K. E. (1954). Cultures of the Central Highlands, New Guinea. Southwestern Journal of
    Anthropology 10(1), 1-43; signed graph as in Hage & Harary (1983), KONECT ``ucidata-gama``.
    """
    text = resources.files("icml26.bad_triangles").joinpath("highland_tribes.csv").read_text()
    rows = [r for r in csv.reader(line for line in text.splitlines() if not line.startswith("#"))][1:]
    return from_edges([(int(a), int(b), int(s)) for a, b, s in rows], nodes=list(range(1, 17)))


def binding_instances() -> list[tuple[SignedGraph, dict]]:
    """Complete signed graphs where ``CC* > BTT*`` (the 3/2 structure binds), found by the search of
    ``benchmarks/bad_triangles_binding_search.py`` and stored in ``binding_instances.json``.

    Returns ``(graph, record)`` pairs; ``record`` holds ``n``, ``positive`` (the positive pairs), the
    optima ``cc`` and ``btt`` the search measured, and ``found_by`` (search seed and evaluations).
    """
    text = resources.files("icml26.bad_triangles").joinpath("binding_instances.json").read_text()
    records = json.loads(text)["instances"]
    return [
        (
            complete_from_positive(
                nodes=list(range(r["n"])), positive_edges=[tuple(p) for p in r["positive"]]
            ),
            r,
        )
        for r in records
    ]
