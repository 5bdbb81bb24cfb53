"""Exactness of the thresholded NTK mean proved by enumerating a node's reachable states.

For one-hot training inputs the NTK mean of output bit ``k`` at a state whose matched template set is
``S`` (``s = |S|``) is ``f_k = gamma_s t_k + delta_s C_k`` with ``t_k`` the number of matched templates
that write ``k`` and ``C_k`` the column sum of ``Y`` (``ntk.py``). With ``gamma_s > 0 >= delta_s``:

- a bit the template OR leaves 0 has ``t_k = 0`` and ``f_k = delta_s C_k <= 0``: never above the step;
- a bit it sets has ``t_k >= 1`` and is right iff ``gamma_s t_k + delta_s C_k > threshold``.

So the Heaviside of the NTK mean equals the template OR on a state iff every set bit clears that
margin. The encoder reads a node's state as bits (``templates.read_bits``), so if it holds on every
state a node can reach, the NTK executor's trajectory is the ideal executor's on every graph of the
degree bound, whatever the graph: random graphs add nothing [inferred: our derivation, not the
paper's proof].

The reachable set is over-approximated (so the proof is sound): start from every initial state the
program's ``init`` can produce (every slot colour and input), apply the template OR, and OR into the
message bits the writes of up to ``D`` neighbours of distinct other colours, each any write that a
reachable state of that colour makes; iterate to a fixpoint. The fixpoint is exhausted or, above
``max_states``, the proof is out of reach (reported, never guessed).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from icml26.common import check_int
from icml26.exact_gnn.ntk import closed_form_coefficients
from icml26.exact_gnn.templates import Program, ideal_update, match, training_set


@dataclass
class MarginProof:
    """The outcome of :func:`prove_ntk_exact`.

    complete: the fixpoint was exhausted (else ``max_states`` stopped it and nothing is proved);
    states: reachable states found; margin: the smallest ``gamma_s t_k + delta_s C_k`` over every
    reachable state and every bit the OR sets (``inf`` if none); pairs: the distinct reachable
    ``(s, C_k)`` pairs of set bits with ``t_k = 1`` (the worst case of each); proved: complete and the
    margin above ``threshold``.
    """

    complete: bool
    states: int
    margin: float
    pairs: list[tuple[int, int]]
    threshold: float

    @property
    def proved(self) -> bool:
        return self.complete and self.margin > self.threshold


def initial_states(program: Program) -> np.ndarray:
    """Every initial node state of ``program`` (``(m, dim)`` 0/1): each slot colour, each input."""
    lay, d, big_d = program.layout, program.slots, program.max_degree
    rows = []
    for c in range(d):
        base = np.zeros(lay.dim)
        base[lay.bits("my_slot")[c]] = 1.0
        if program.name == "flooding":
            rows.append(base)
            for m in range(2**program.bits):
                x = base.copy()
                x[lay.bits("message")] = [(m >> i) & 1 for i in range(program.bits)]
                rows.append(x)
        elif program.name == "bfs":
            base[lay.bit("on", 0)] = 1.0
            if "one_hot" in program.variant:
                base[lay.bit("clock", 0)] = 1.0
            for visited in (0.0, 1.0):
                x = base.copy()
                x[lay.bit("visited", 0)] = visited
                rows.append(x)
        elif program.name == "bellman_ford":
            base[lay.bit("on", 0)] = 1.0
            weights = lay.shapes["weight"][1]
            others = [s for s in range(d) if s != c]
            for k in range(big_d + 1):
                for slots in itertools.combinations(others, k):
                    for ws in itertools.product(range(weights), repeat=k):
                        x = base.copy()
                        for s, w in zip(slots, ws, strict=True):
                            x[lay.bit("weight", s, w)] = 1.0
                        rows.append(x)
                        src = x.copy()
                        src[lay.bit("best", 0)] = 1.0
                        rows.append(src)
        else:
            raise ValueError(f"initial_states: no initial-state enumeration for program {program.name!r}")
    return np.array(rows)


def _unique(rows: np.ndarray) -> np.ndarray:
    return np.unique(rows.astype(np.uint8), axis=0)


def reachable_states(program: Program, max_states: int = 200_000) -> tuple[np.ndarray, bool]:
    """The over-approximated reachable node states (module docstring) and whether the fixpoint finished."""
    max_states = check_int("max_states", max_states)
    msg = np.asarray(program.message_bits)
    colour_bits = program.layout.bits("my_slot").reshape(program.slots, -1)[:, 0]
    seen = _unique(initial_states(program))
    while True:  # every known state is expanded with every known write, until nothing new appears
        y = ideal_update(program, seen).astype(np.uint8)
        own = np.argmax(seen[:, colour_bits], axis=1)
        writes: dict[int, np.ndarray] = {}
        for c in range(program.slots):
            w = y[own == c][:, msg]
            writes[c] = _unique(w[w.any(axis=1)]) if w.size else w
        new = [seen]
        for c in range(program.slots):
            rows = y[own == c]
            if not rows.size:
                continue
            others = [s for s in range(program.slots) if s != c and len(writes[s])]
            combos = [np.zeros(len(msg), np.uint8)]
            for k in range(1, program.max_degree + 1):
                for slots in itertools.combinations(others, k):
                    for pick in itertools.product(*(writes[s] for s in slots)):
                        combos.append(np.bitwise_or.reduce(np.array(pick), axis=0))
            combos = _unique(np.array(combos))
            if len(rows) * len(combos) > 8 * max_states:
                return seen, False
            nxt = np.repeat(rows, len(combos), axis=0)
            nxt[:, msg] |= np.tile(combos, (len(rows), 1))
            new.append(_unique(nxt))
        merged = _unique(np.concatenate(new))
        if len(merged) > max_states:
            return merged, False
        if len(merged) == len(seen):
            return seen, True
        seen = merged


def prove_ntk_exact(program: Program, threshold: float = 1e-10, max_states: int = 200_000) -> MarginProof:
    """Prove (or fail to prove) that the thresholded NTK mean equals the template OR on every reachable state."""
    states, complete = reachable_states(program, max_states)
    _, y = training_set(program)
    n, col = program.n_templates, y.sum(axis=0)
    coef = np.array([closed_form_coefficients(n, s) for s in range(n + 1)])
    if (coef[1:, 0] <= 0).any() or (coef[1:, 1] > 0).any():
        raise ValueError("prove_ntk_exact: needs gamma_s > 0 >= delta_s for every s >= 1")
    hits = match(program, states)
    s = hits.sum(axis=1).astype(int)
    t = hits @ y  # (states, bits): matched templates writing each bit
    on = t > 0.5
    value = coef[s, 0][:, None] * t + coef[s, 1][:, None] * col[None, :]
    margin = float(value[on].min()) if on.any() else float("inf")
    rows, cols = np.nonzero(on & (t < 1.5))
    pairs = sorted({(int(s[r]), int(col[k])) for r, k in zip(rows, cols, strict=True)})
    return MarginProof(complete, len(states), margin, pairs, float(threshold))
