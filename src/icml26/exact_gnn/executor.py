"""Step 2: the learned local update run as a GNN.

Each round ``Y = H(f(encode(X)))`` and ``X_next = Y P_c + A Y P_m``: ``P_m`` keeps only the
communicated message slots, ``P_c`` every other bit, ``A`` is the adjacency with self-loops and
aggregation is a plain sum. The slots come from a greedy distance-2 colouring (at most ``D^2 + 1``
colours), so each slot of a node's closed neighbourhood is written by at most one node and the sums
stay binary.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import networkx as nx
import numpy as np

from icml26.common import check_int
from icml26.exact_gnn.ensemble import MLPEnsemble
from icml26.exact_gnn.ntk import NTKClosedForm, NTKSolve
from icml26.exact_gnn.templates import (
    Program,
    encode,
    ideal_update,
    raw_training_set,
    read_bits,
    training_set,
)

LEARNERS = ("ideal", "ntk", "ntk_solve", "ensemble")
ENCODINGS = ("templates", "raw")
HEAVISIDES = ("before", "after", "none")
BACKENDS = ("numpy", "pyg")


def distance2_colouring(graph: nx.Graph) -> dict[Any, int]:
    """Greedy colouring of ``G^2`` (largest degree first): nodes within distance 2 get distinct colours.

    Uses at most ``Delta(G^2) + 1 <= D^2 + 1`` colours.
    """
    return nx.greedy_color(nx.power(graph, 2), strategy="largest_first")


def adjacency_with_self_loops(graph: nx.Graph) -> np.ndarray:
    """``A + I`` in node order ``sorted(G)``, ``(n, n)``."""
    nodes = sorted(graph)
    return nx.to_numpy_array(graph, nodelist=nodes, weight=None) + np.eye(len(nodes))


@dataclass
class Execution:
    """The outcome of one run: final states ``(n, dim)``, rounds, outputs and per-node correctness.

    ``node_correct[v]``: node v's final state equals the ideal (template-OR) execution's under the same
    colouring and its
    decoded output equals the ``networkx`` ground truth; ``output_correct[v]``: only the latter (auxiliary
    bits may differ). ``max_aggregated``: the largest value any
    message bit took after aggregation (1 when the colouring keeps sums binary).
    """

    states: np.ndarray
    rounds: int
    outputs: Any
    truth: Any
    node_correct: np.ndarray
    max_aggregated: float
    output_correct: np.ndarray | None = None

    @property
    def exact(self) -> bool:
        """Every node's final bits correct."""
        return bool(self.node_correct.all())


class Executor:
    """Run a compiled :class:`Program` as a GNN whose update is a learner of its local instruction.

    learner: ``"ideal"`` (the template OR), ``"ntk"`` (closed-form NTK mean), ``"ntk_solve"`` (NTK mean
        by an explicit kernel solve) or ``"ensemble"`` (a trained :class:`MLPEnsemble`; pass a fitted
        one as ``model`` or its settings as ``ensemble``).
    encoding: ``"templates"`` (the paper's encoder) or ``"raw"`` (ablation: raw state bits in).
    heaviside: ``"before"`` aggregation (the paper's), ``"after"`` it, or ``"none"`` (ablations). With
        ``"none"`` the state stays real-valued, but the encoder still reads each bit as ``value >= 1/2``
        (``templates.read_bits``) [inferred], so it is "no Heaviside in the update", not "no thresholding".
    threshold: the Heaviside's step (default 1e-10 for the NTK mean, 5e-3 for an ensemble).
    backend: ``"numpy"`` or ``"pyg"`` (``torch_geometric`` ``MessagePassing(aggr="add")``).
    """

    def __init__(
        self,
        program: Program,
        learner: str = "ntk",
        *,
        encoding: str = "templates",
        heaviside: str = "before",
        threshold: float | None = None,
        backend: str = "numpy",
        model: MLPEnsemble | None = None,
        ensemble: dict[str, Any] | None = None,
    ) -> None:
        if not isinstance(program, Program):
            raise TypeError(f"Executor needs a Program from compile_algorithm, got {type(program).__name__}")
        for name, value, accepted in (
            ("learner", learner, LEARNERS),
            ("encoding", encoding, ENCODINGS),
            ("heaviside", heaviside, HEAVISIDES),
            ("backend", backend, BACKENDS),
        ):
            if value not in accepted:
                raise ValueError(f"Executor: {name} {value!r} is not one of {', '.join(accepted)}")
        if encoding == "raw" and learner not in ("ntk_solve", "ensemble"):
            raise ValueError(
                "Executor: encoding 'raw' needs learner 'ntk_solve' or 'ensemble' (no closed form)"
            )
        if model is not None and learner != "ensemble":
            raise ValueError("Executor: model= is only used with learner='ensemble'")
        if model is not None and not callable(getattr(model, "predict", None)):
            raise TypeError(
                f"Executor: model= needs a fitted learner with predict(x) (an MLPEnsemble), got {type(model).__name__}"
            )
        if ensemble is not None:
            accepted = MLPEnsemble().get_params()
            unknown = set(ensemble) - set(accepted) if isinstance(ensemble, dict) else {repr(ensemble)}
            if unknown:
                raise ValueError(
                    f"Executor: ensemble= must be a dict of MLPEnsemble settings ({', '.join(accepted)}),"
                    f" got {sorted(map(str, unknown))}"
                )
        if threshold is not None and (
            isinstance(threshold, bool) or not (isinstance(threshold, int | float) and 0 <= threshold < 0.5)
        ):
            raise ValueError(f"Executor: threshold must be a number in [0, 0.5), got {threshold!r}")
        self.program, self.learner, self.encoding = program, learner, encoding
        self.heaviside, self.backend = heaviside, backend
        self.threshold = float(
            threshold if threshold is not None else (5e-3 if learner == "ensemble" else 1e-10)
        )
        x, y = raw_training_set(program) if encoding == "raw" else training_set(program)
        self.model: Any = None
        if learner == "ntk":
            self.model = NTKClosedForm().fit(x, y)
        elif learner == "ntk_solve":
            self.model = NTKSolve().fit(x, y)
        elif learner == "ensemble":
            self.model = model if model is not None else MLPEnsemble(**(ensemble or {})).fit(x, y)

    def local_update(self, states: np.ndarray) -> np.ndarray:
        """The learner's real-valued next state ``f(encode(X))`` (or the ideal OR), ``(n, dim)``."""
        if self.learner == "ideal":
            return ideal_update(self.program, states)
        if self.encoding == "raw":
            x = read_bits(states) if self.heaviside == "before" else np.asarray(states, float)
            norm = np.linalg.norm(x, axis=1, keepdims=True)
            return self.model.predict(x / np.maximum(norm, 1e-300))
        return self.model.predict(encode(self.program, states))

    def step(self, states: np.ndarray, adjacency: np.ndarray) -> tuple[np.ndarray, float]:
        """One round: ``X_next = Y P_c + A Y P_m``; returns it and the largest aggregated message value."""
        y = self.local_update(states)
        if self.heaviside == "before":
            y = (y > self.threshold).astype(float)
        m = self.program.message_bits
        nxt = y.copy()
        nxt[:, m] = self._aggregate(y[:, m], adjacency)
        peak = float(nxt[:, m].max(initial=0.0))
        if self.heaviside == "after":
            nxt = (nxt > self.threshold).astype(float)
        return nxt, peak

    def _aggregate(self, messages: np.ndarray, adjacency: np.ndarray) -> np.ndarray:
        if self.backend == "numpy":
            return adjacency @ messages
        from icml26.exact_gnn.pyg import sum_aggregate

        return sum_aggregate(messages, adjacency)

    def run(
        self,
        graph: nx.Graph,
        inputs: Any = None,
        rounds: int | None = None,
        colours: dict[Any, int] | None = None,
    ) -> Execution:
        """Execute the program on ``graph`` from ``inputs`` for ``rounds`` (default: the program's count).

        Checks the degree bound, connectivity and input range first (``ValueError`` naming what failed).
        ``colours`` overrides the distance-2 colouring (any proper one gives the same outputs; a broken one
        is a control: sums can exceed 1 and the outputs can go wrong). The reference for ``node_correct``
        is the template-OR execution under the same colouring.
        """
        self.program.validate(graph, inputs)
        colours = distance2_colouring(graph) if colours is None else dict(colours)
        if set(colours) != set(graph) or not all(
            isinstance(c, int | np.integer) and not isinstance(c, bool) and 0 <= c < self.program.slots
            for c in colours.values()
        ):
            raise ValueError(f"colours must map every node to a slot in 0..{self.program.slots - 1}")
        colours = {v: int(c) for v, c in colours.items()}
        total = self.program.rounds(graph) if rounds is None else check_int("rounds", rounds, minimum=0)
        adjacency = adjacency_with_self_loops(graph)
        start = self.program.init(graph, inputs, colours)
        states, peak = start.copy(), 0.0
        for _ in range(total):
            states, top = self.step(states, adjacency)
            peak = max(peak, top)
        if self.learner == "ideal":
            ideal = read_bits(states)
        else:  # the reference: the template-OR execution under the same colouring
            ideal = _ideal_twin(self.program).run(graph, inputs, total, colours).states
        outputs = self.program.decode(graph, read_bits(states), colours)
        truth = self.program.truth(graph, inputs)
        same_state = np.all(read_bits(states) == ideal, axis=1)
        same_output = np.array([outputs[v] == truth[v] for v in sorted(graph)])
        return Execution(states, total, outputs, truth, same_state & same_output, peak, same_output)


def _ideal_twin(program: Program) -> Executor:
    return Executor(program, "ideal")
