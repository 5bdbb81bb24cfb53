"""OOD graph benchmarks generated offline from a seed: GOOD-Motif (basis domain) and Spurious-Motif.

GOOD-Motif follows the published generator logic of the GOOD benchmark (Gui et al., NeurIPS 2022,
``GOOD/data/good_datasets/good_motif.py`` and ``synthetic_structsim.py``), read and re-written here:
a base graph (wheel, tree, ladder, star or path, width 10 +- 5; a tree's height is
``max(1, int(log2(width)) - 1)``), one motif (house, dircycle or crane: the label) attached by one edge
to a random base node, 5% extra random edges with at least one base endpoint, and (GOOD-Motif only) 10% of the labels
replaced by a uniform class. Node features are constant (``x = 1``). Spurious-Motif follows DIR
(Wu et al., ICLR 2022): bases tree/ladder/wheel, the base equals the label with probability ``b``.

Node-order convention: base nodes first (``0 .. n_base - 1``), then the motif's five nodes.

Sizes are this project's CPU scale (3,000 train / 600 val / 600 test by default; GOOD uses 30,000).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import networkx as nx
import numpy as np

from icml26.common import check_int

BASES = ("wheel", "tree", "ladder", "star", "path")
MOTIFS = ("house", "dircycle", "crane")
GOOD_LABEL_NOISE = 0.10
EDGE_PERTURBATION = 0.05
CONCEPT_TRAIN_RATES = (0.99, 0.97, 0.95)


@dataclass
class GraphSet:
    """Graphs with labels and (optionally) environment ids: ``graphs[i]`` has label ``y[i]``, env ``env[i]``.

    ``base[i]`` is the base type index (into :data:`BASES`), the spurious feature, kept for analysis only.
    ``features``: the name of a node attribute holding each node's feature vector (a number or a 1-D
    sequence, one length for all nodes), read by the encoder; ``None`` (GOOD-Motif, SP-Motif): constant
    features ``x = 1``.
    """

    graphs: list[nx.Graph]
    y: np.ndarray
    env: np.ndarray | None = None
    base: np.ndarray | None = None
    name: str = ""
    features: str | None = None

    def __post_init__(self) -> None:
        self.y = np.asarray(self.y, dtype=np.int64)
        if len(self.graphs) != self.y.size:
            raise ValueError(f"GraphSet: {len(self.graphs)} graphs but {self.y.size} labels")
        if self.env is not None:
            self.env = np.asarray(self.env, dtype=np.int64)
            if self.env.size != self.y.size:
                raise ValueError(f"GraphSet: {self.y.size} labels but {self.env.size} environment ids")
        if self.features is not None and not isinstance(self.features, str):
            raise ValueError(
                f"GraphSet: features must be a node attribute name or None, got {self.features!r}"
            )

    def __len__(self) -> int:
        return self.y.size

    def subset(self, index: np.ndarray) -> GraphSet:
        index = np.asarray(index)

        def pick(a: np.ndarray | None) -> np.ndarray | None:
            return None if a is None else a[index]

        return GraphSet(
            [self.graphs[i] for i in index],
            self.y[index],
            pick(self.env),
            pick(self.base),
            self.name,
            self.features,
        )


@dataclass
class Split:
    """A benchmark split: training graphs with env ids, an ID validation set drawn like the training
    environments (held out, with env ids), the OOD validation set and the OOD test set."""

    name: str
    train: GraphSet
    id_val: GraphSet
    val: GraphSet
    test: GraphSet
    info: dict = field(default_factory=dict)


def _base(kind: str, width: int) -> nx.Graph:
    if kind == "wheel":
        return nx.wheel_graph(width)
    if kind == "tree":
        return nx.balanced_tree(2, max(1, int(math.log2(width)) - 1))
    if kind == "ladder":
        return nx.ladder_graph(width)
    if kind == "star":
        return nx.star_graph(width)  # width + 1 nodes, as GOOD's star(start, nb_branches)
    if kind == "path":
        return nx.path_graph(width)
    raise ValueError(f"unknown base {kind!r}; accepted: {', '.join(BASES)}")


# Five-node motifs; node 0 is the one attached to the base.
_MOTIF_EDGES = {
    "house": [(1, 2), (4, 3), (3, 2), (4, 1), (0, 1), (0, 4)],  # a square 1-2-3-4 with roof 0 on 1, 4
    "dircycle": [(0, 1), (1, 2), (3, 2), (0, 4), (4, 3)],  # a 5-cycle
    "crane": [(1, 2), (2, 3), (4, 3), (1, 4), (0, 1), (0, 3)],  # a square with 0 on opposite corners 1, 3
}


def motif_graph(base: str, motif: str, width: int, rng: np.random.Generator) -> nx.Graph:
    """One graph: ``base`` of ``width``, ``motif`` attached to a random base node, 5% added edges.

    Added edges: ``int(0.05 |E|)`` draws of a non-adjacent pair, kept when one end is a base node.
    """
    if motif not in _MOTIF_EDGES:
        raise ValueError(f"unknown motif {motif!r}; accepted: {', '.join(MOTIFS)}")
    g = nx.convert_node_labels_to_integers(_base(base, width))
    n_base = g.number_of_nodes()
    g.add_edges_from((n_base + u, n_base + v) for u, v in _MOTIF_EDGES[motif])
    g.add_edge(n_base, int(rng.integers(n_base)))
    n = g.number_of_nodes()
    for _ in range(int(g.number_of_edges() * EDGE_PERTURBATION)):
        while True:
            u, v = (int(a) for a in rng.integers(n, size=2))
            if u != v and not g.has_edge(u, v):
                break
        if u < n_base or v < n_base:
            g.add_edge(u, v)
    return g


def _draw(
    bases: np.ndarray,
    motifs: np.ndarray,
    rng: np.random.Generator,
    name: str,
    env: np.ndarray | None,
    noise: float,
) -> GraphSet:
    graphs, labels = [], []
    for b, m in zip(bases, motifs, strict=True):
        graphs.append(motif_graph(BASES[b], MOTIFS[m], 10 + int(rng.integers(-5, 6)), rng))
        labels.append(int(rng.integers(3)) if rng.random() < noise else int(m))
    return GraphSet(graphs, np.array(labels), env, np.asarray(bases), name)


def _biased_bases(motifs: np.ndarray, rate: np.ndarray, rng: np.random.Generator, mode: str) -> np.ndarray:
    """Base = motif with probability ``rate`` (per graph); otherwise uniform over the three
    (``mode="good"``, as GOOD's concept split) or over the two other bases (``mode="dir"``, as DIR)."""
    tie = rng.random(motifs.size) < rate
    if mode == "good":
        other = rng.integers(3, size=motifs.size)
    else:
        other = (motifs + rng.integers(1, 3, size=motifs.size)) % 3
    return np.where(tie, motifs, other)


def _check_sizes(n_train: int, n_val: int, n_test: int) -> None:
    check_int("n_train", n_train, 30)
    check_int("n_val", n_val, 3)
    check_int("n_test", n_test, 3)


def good_motif(
    shift: str, seed: int, n_train: int = 3000, n_val: int = 600, n_test: int = 600, n_id_val: int = 600
) -> Split:
    """GOOD-Motif, basis domain, at ``shift`` ``"covariate"`` or ``"concept"``.

    covariate: training bases wheel/tree/ladder (env = base type), OOD val on star, OOD test on path;
    concept: training environments with spurious base = label rates 0.99/0.97/0.95 (env = the rate's
    index), OOD val at rate 0.3, OOD test at 0.0 (a non-tie draws the base uniformly over the three).
    Motif (the true label before noise) uniform over the three.
    """
    if shift not in ("covariate", "concept"):
        raise ValueError(f"shift must be 'covariate' or 'concept', got {shift!r}")
    _check_sizes(n_train, n_val, n_test)
    check_int("seed", seed, 0)
    rng = np.random.default_rng([seed, 0 if shift == "covariate" else 1])
    sets = {}
    for part, size in (("train", n_train), ("id_val", n_id_val), ("val", n_val), ("test", n_test)):
        motifs = rng.integers(3, size=size)
        if shift == "covariate":
            if part in ("train", "id_val"):
                bases = rng.integers(3, size=size)
                env = bases.copy()
            else:
                bases = np.full(size, 3 if part == "val" else 4)
                env = None
        else:
            if part in ("train", "id_val"):
                env = rng.integers(3, size=size)
                rate = np.asarray(CONCEPT_TRAIN_RATES)[env]
            else:
                env, rate = None, np.full(size, 0.3 if part == "val" else 0.0)
            bases = _biased_bases(motifs, rate, rng, "good")
        sets[part] = _draw(bases, motifs, rng, f"good_motif_{shift}_{part}", env, GOOD_LABEL_NOISE)
    return Split(f"good_motif_{shift}", **sets, info={"shift": shift, "seed": seed})


def spurious_motif(
    b: float, seed: int, n_train: int = 3000, n_val: int = 600, n_test: int = 600, n_id_val: int = 600
) -> Split:
    """Spurious-Motif with bias ``b``: three training environments with base = label probability
    ``b``, ``b - 0.1``, ``b - 0.2`` (env = the bias level; otherwise one of the two other bases),
    bases tree/ladder/wheel, GOOD's three motifs, no label noise (as DIR); OOD validation and test with bases uniform (independent of the label).
    [inferred]: the validation set is a second unbiased draw (DIR validates on a biased one)."""
    if isinstance(b, bool) or not isinstance(b, int | float) or not 0.2 <= b <= 1.0:
        raise ValueError(f"b must be a number in [0.2, 1] (so that b - 0.2 >= 0), got {b!r}")
    _check_sizes(n_train, n_val, n_test)
    check_int("seed", seed, 0)
    rng = np.random.default_rng([seed, 2, int(round(b * 1000))])
    sets = {}
    for part, size in (("train", n_train), ("id_val", n_id_val), ("val", n_val), ("test", n_test)):
        motifs = rng.integers(3, size=size)
        if part in ("train", "id_val"):
            env = rng.integers(3, size=size)
            rate = b - 0.1 * env
            bases = _biased_bases(motifs, rate, rng, "dir")
        else:
            env, bases = None, rng.integers(3, size=size)
        sets[part] = _draw(bases, motifs, rng, f"spurious_motif_{b:g}_{part}", env, 0.0)
    return Split(f"spurious_motif_{b:g}", **sets, info={"b": b, "seed": seed})


def load_split(name: str, seed: int, n_train: int = 3000, n_val: int = 600, n_test: int = 600) -> Split:
    """A split by name: ``good_motif_concept``, ``good_motif_covariate`` or ``spurious_motif_<b>``."""
    if name in ("good_motif_concept", "good_motif_covariate"):
        return good_motif(name.rsplit("_", 1)[1], seed, n_train, n_val, n_test, n_id_val=n_val)
    if name.startswith("spurious_motif_"):
        try:
            b = float(name.removeprefix("spurious_motif_"))
        except ValueError:
            b = math.nan
        if math.isfinite(b):
            return spurious_motif(b, seed, n_train, n_val, n_test, n_id_val=n_val)
    raise ValueError(
        f"unknown split {name!r}; accepted: good_motif_concept, good_motif_covariate, spurious_motif_<b>"
    )
