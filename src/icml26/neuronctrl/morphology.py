"""Irregular 3-D morphologies: seeded synthetic branching neurons and their extracellular shell [inferred].

The paper's plant lives on "irregular 3D morphologies"; its geometry pipeline is not readable here, so
we build a stand-in: a random 3-D branching cable (the compartment graph) and an extracellular shell of
points scattered in a tube around it (1-5 um from the membrane), thinned to a minimum spacing and joined
by a k-nearest-neighbour graph. Each node has a 3-D position and a volume ``V_i`` (its local spacing
cubed); each edge a conductance ``g_ij = a_ij / d_ij`` (interface area over length), so that the
finite-volume diffusion operator is ``V dc/dt = -D L c`` with ``L`` the conductance-weighted Laplacian.

Node order convention: nodes are ``0..N-1``; :meth:`Morphology.to_networkx` and
:func:`from_networkx` keep that order (``sorted(G.nodes)``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx
import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components
from scipy.spatial import cKDTree


@dataclass(frozen=True)
class Morphology:
    """A graph of control volumes in 3-D.

    positions: (N, 3) um; volumes: (N,) > 0; edges: (E, 2) int, i < j, no duplicates;
    conductances: (E,) > 0 (area / length); cable: (C, 3) the neuron's compartment centres (for
    geometry features and plotting; may be empty); soma: (3,) the soma centre.
    """

    positions: np.ndarray
    volumes: np.ndarray
    edges: np.ndarray
    conductances: np.ndarray
    cable: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    soma: np.ndarray = field(default_factory=lambda: np.zeros(3))

    def __post_init__(self):
        p, v = np.asarray(self.positions, float), np.asarray(self.volumes, float)
        e, g = np.asarray(self.edges), np.asarray(self.conductances, float)
        if p.ndim != 2 or p.shape[1] != 3 or p.shape[0] < 2:
            raise ValueError(f"positions must be (N, 3) with N >= 2, got shape {p.shape}")
        n = p.shape[0]
        if v.shape != (n,) or not np.all(np.isfinite(v)) or np.any(v <= 0):
            raise ValueError(f"volumes must be {n} positive finite values, got shape {v.shape}")
        if e.ndim != 2 or e.shape[1] != 2 or e.shape[0] == 0:
            raise ValueError(f"edges must be (E, 2) with E >= 1, got shape {e.shape}")
        if np.any(e < 0) or np.any(e >= n) or np.any(e[:, 0] == e[:, 1]):
            raise ValueError(f"edges must join two different nodes among 0..{n - 1}")
        if g.shape != (e.shape[0],) or not np.all(np.isfinite(g)) or np.any(g <= 0):
            raise ValueError(f"conductances must be {e.shape[0]} positive finite values")
        for name, arr in (("positions", p), ("volumes", v), ("edges", e), ("conductances", g)):
            object.__setattr__(self, name, arr)
        object.__setattr__(self, "cable", np.asarray(self.cable, float).reshape(-1, 3))
        object.__setattr__(self, "soma", np.asarray(self.soma, float).reshape(3))

    @property
    def n(self) -> int:
        return self.positions.shape[0]

    def n_components(self) -> int:
        """Number of connected components of the node graph."""
        return connected_components(self.adjacency(), directed=False)[0]

    def adjacency(self) -> sp.csr_matrix:
        """(N, N) symmetric conductance matrix W (W_ij = g_ij)."""
        i, j = self.edges[:, 0], self.edges[:, 1]
        w = sp.coo_matrix((self.conductances, (i, j)), shape=(self.n, self.n))
        return (w + w.T).tocsr()

    def laplacian(self) -> sp.csr_matrix:
        """Conductance-weighted graph Laplacian L = diag(W 1) - W: symmetric PSD, L 1 = 0, and its
        nullity is the number of connected components."""
        w = self.adjacency()
        return (sp.diags(np.asarray(w.sum(axis=1)).ravel()) - w).tocsr()

    def require_connected(self) -> None:
        k = self.n_components()
        if k != 1:
            raise ValueError(f"morphology is disconnected ({k} components); a connected graph is required")

    def to_networkx(self) -> nx.Graph:
        """Undirected graph, nodes 0..N-1 with ``pos`` and ``volume``, edges with ``conductance``."""
        g = nx.Graph()
        for i in range(self.n):
            g.add_node(i, pos=tuple(self.positions[i]), volume=float(self.volumes[i]))
        for (a, b), c in zip(self.edges, self.conductances, strict=True):
            g.add_edge(int(a), int(b), conductance=float(c))
        return g


def from_networkx(graph: nx.Graph) -> Morphology:
    """A :class:`Morphology` from a networkx graph with node attributes ``pos`` (3-vector), ``volume``
    and edge attribute ``conductance``; nodes are taken in ``sorted(graph.nodes)`` order."""
    if not isinstance(graph, nx.Graph) or graph.is_directed():
        raise ValueError("graph must be an undirected networkx.Graph")
    nodes = sorted(graph.nodes)
    index = {v: k for k, v in enumerate(nodes)}
    try:
        pos = np.array([graph.nodes[v]["pos"] for v in nodes], float)
        vol = np.array([graph.nodes[v]["volume"] for v in nodes], float)
        edges = np.array([sorted((index[a], index[b])) for a, b in graph.edges], int).reshape(-1, 2)
        cond = np.array([graph.edges[a, b]["conductance"] for a, b in graph.edges], float)
    except KeyError as exc:
        raise ValueError(
            f"graph is missing attribute {exc}; nodes need pos, volume; edges conductance"
        ) from exc
    return Morphology(pos, vol, edges, cond)


def _branching_cable(rng: np.random.Generator, n_compartments: int, step: float) -> np.ndarray:
    """Compartment centres of a random 3-D branching tree grown from a soma at the origin."""
    pts = [np.zeros(3)]
    tips = []
    for _ in range(rng.integers(3, 5)):  # primary dendrites
        d = rng.normal(size=3)
        tips.append((0, d / np.linalg.norm(d)))
    while len(pts) < n_compartments and tips:
        k = rng.integers(len(tips))
        parent, d = tips.pop(k)
        d = d + 0.35 * rng.normal(size=3)
        d /= np.linalg.norm(d)
        pts.append(pts[parent] + step * d)
        tips.append((len(pts) - 1, d))
        if rng.random() < 0.12:  # a branch point
            b = d + 0.9 * rng.normal(size=3)
            tips.append((len(pts) - 1, b / np.linalg.norm(b)))
    return np.asarray(pts)


def branching_morphology(
    seed: int, n_compartments: int = 48, step: float = 6.0, per_compartment: int = 10, spacing: float = 2.6
) -> Morphology:
    """Seeded synthetic neuron: a branching cable plus its extracellular shell [inferred].

    Shell points are drawn in a tube 1-5 um outside the membrane (radius 3 um at the soma tapering to
    1 um), thinned greedily so no two lie within ``spacing``, and joined by a 6-nearest-neighbour graph
    (components bridged by their closest pair). V_i = s_i^3 with s_i the mean distance to the
    neighbours; g_ij = a_ij / d_ij with a_ij = ((V_i^(1/3) + V_j^(1/3)) / 2)^2.
    """
    if not isinstance(seed, int | np.integer) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    rng = np.random.default_rng(int(seed))
    cable = _branching_cable(rng, n_compartments, step)
    radius = np.clip(3.0 - np.linalg.norm(cable, axis=1) / 30.0, 1.0, 3.0)
    pts = []
    for i, c in enumerate(cable):
        for _ in range(per_compartment):
            off = rng.normal(size=3)
            off /= np.linalg.norm(off)
            pts.append(c + off * (radius[i] + rng.uniform(1.0, 5.0)) + rng.uniform(-0.5, 0.5, 3) * step)
    pts = np.asarray(pts)
    keep: list[int] = []
    tree_all = cKDTree(pts)
    taken = np.zeros(len(pts), bool)
    for i in rng.permutation(len(pts)):
        if taken[i]:
            continue
        keep.append(i)
        taken[tree_all.query_ball_point(pts[i], spacing)] = True
    pos = pts[np.sort(keep)]
    return knn_morphology(pos, k=6, cable=cable, soma=cable[0])


def knn_morphology(positions: np.ndarray, k: int = 6, cable=None, soma=None) -> Morphology:
    """k-nearest-neighbour control-volume graph on points (components bridged by closest pairs)."""
    pos = np.asarray(positions, float)
    tree = cKDTree(pos)
    dist, idx = tree.query(pos, k=k + 1)
    pairs = {tuple(sorted((i, int(j)))) for i in range(len(pos)) for j in idx[i, 1:]}
    edges = np.array(sorted(pairs), int)
    w = sp.coo_matrix((np.ones(len(edges)), (edges[:, 0], edges[:, 1])), shape=(len(pos),) * 2)
    ncomp, labels = connected_components(w + w.T, directed=False)
    extra = []
    while ncomp > 1:  # bridge component 0 to its nearest other component
        a = np.flatnonzero(labels == 0)
        b = np.flatnonzero(labels != 0)
        d, j = cKDTree(pos[b]).query(pos[a])
        i = int(np.argmin(d))
        extra.append(tuple(sorted((int(a[i]), int(b[j[i]])))))
        labels[labels == labels[b[j[i]]]] = 0
        ncomp = len(np.unique(labels))
    if extra:
        edges = np.array(sorted(set(map(tuple, edges)) | set(extra)), int)
    s = dist[:, 1:].mean(axis=1)
    vol = s**3
    d = np.linalg.norm(pos[edges[:, 0]] - pos[edges[:, 1]], axis=1)
    area = ((s[edges[:, 0]] + s[edges[:, 1]]) / 2) ** 2
    return Morphology(pos, vol, edges, area / d, cable=np.zeros((0, 3)) if cable is None else cable,
                      soma=pos.mean(0) if soma is None else soma)  # fmt: skip


def chain_morphology(n: int, h: float = 1.0, area: float = 1.0) -> Morphology:
    """A straight uniform cable of ``n`` volumes of length ``h``: V_i = area h, g = area / h, so that
    ``-D V^-1 L`` is the 1-D second difference D (c_{i+1} - 2c_i + c_{i-1}) / h^2 inside."""
    if n < 2:
        raise ValueError(f"a chain needs n >= 2 nodes, got {n}")
    pos = np.zeros((n, 3))
    pos[:, 0] = np.arange(n) * h
    edges = np.stack([np.arange(n - 1), np.arange(1, n)], 1)
    return Morphology(pos, np.full(n, area * h), edges, np.full(n - 1, area / h))


def geometry_features(m: Morphology) -> tuple[np.ndarray, np.ndarray]:
    """Node features (N, 3): log-volume (standardised), degree / 6, distance to soma / 50 um; edge
    features (2E, 4) for both directions: delta position / 5 um (3) and length / 5 um."""
    deg = np.bincount(m.edges.ravel(), minlength=m.n)
    lv = np.log(m.volumes)
    node = np.stack(
        [
            (lv - lv.mean()) / (lv.std() + 1e-9),
            deg / 6.0,
            np.linalg.norm(m.positions - m.soma, axis=1) / 50.0,
        ],
        axis=1,
    )
    src = np.concatenate([m.edges[:, 0], m.edges[:, 1]])
    dst = np.concatenate([m.edges[:, 1], m.edges[:, 0]])
    dp = (m.positions[dst] - m.positions[src]) / 5.0
    edge = np.concatenate([dp, np.linalg.norm(dp, axis=1, keepdims=True)], axis=1)
    return node.astype(np.float32), edge.astype(np.float32)
