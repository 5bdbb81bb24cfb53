"""Local instructions as templates over a finite-precision node state (the paper's step 1 input).

A node's state is a binary vector made of named bit fields. A **template** is a partial assignment
(required 1s and required 0s on some bits) mapped to the output bits it sets to 1; the ideal update of
a state is the OR of the outputs of every template it matches. The encoder maps a state to
``x in {0,1}^{|T|}`` (``x_j = 1`` iff template ``j`` matches), normalised by ``sqrt(|S|)`` with ``S`` the
matched set; the training set is the ``|T|`` one-hot inputs with their templates' outputs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import networkx as nx
import numpy as np
from scipy import sparse


class Layout:
    """Named bit fields laid out in one flat state vector: ``layout.bit("sent", s, i)``.

    Each field has a shape (a tuple of ints); its bits are numbered row-major from its offset.
    """

    def __init__(self, fields: Sequence[tuple[str, tuple[int, ...]]]) -> None:
        self.offsets: dict[str, int] = {}
        self.shapes: dict[str, tuple[int, ...]] = {}
        offset = 0
        for name, shape in fields:
            if name in self.offsets:
                raise ValueError(f"Layout: field {name!r} is declared twice")
            if not shape or any(not isinstance(k, int) or k < 1 for k in shape):
                raise ValueError(f"Layout: field {name!r} needs a shape of positive ints, got {shape!r}")
            self.offsets[name], self.shapes[name] = offset, tuple(shape)
            offset += int(np.prod(shape))
        self.dim = offset

    def bit(self, name: str, *index: int) -> int:
        """The flat position of bit ``index`` of field ``name``."""
        shape = self.shapes[name]
        if len(index) != len(shape) or any(not 0 <= i < k for i, k in zip(index, shape, strict=True)):
            raise IndexError(f"Layout: field {name!r} has shape {shape}, index {index} is outside it")
        return self.offsets[name] + int(np.ravel_multi_index(index, shape))

    def bits(self, name: str) -> np.ndarray:
        """All flat positions of field ``name``, shaped like the field."""
        size = int(np.prod(self.shapes[name]))
        return np.arange(self.offsets[name], self.offsets[name] + size).reshape(self.shapes[name])


@dataclass(frozen=True)
class Template:
    """Required 1s and required 0s (flat bit positions) -> the output bits set to 1."""

    ones: tuple[int, ...]
    zeros: tuple[int, ...]
    outputs: tuple[int, ...]
    label: str = ""

    def __post_init__(self) -> None:
        if set(self.ones) & set(self.zeros):
            raise ValueError(f"Template {self.label!r}: a bit cannot be required both 1 and 0")
        if not self.ones:
            raise ValueError(
                f"Template {self.label!r}: needs at least one required 1 (an all-zero state is idle)"
            )


@dataclass
class Program:
    """A compiled algorithm: state layout, templates, communicated bits, rounds, init and decoding.

    ``message_bits``: the flat positions exchanged between neighbours (``P_m``); every other bit is
    kept by the node itself (``P_c``). ``rounds(G)``: how many rounds the algorithm runs on ``G``.
    ``init(G, inputs, colours)``: the initial states, shape ``(n, dim)`` in node order ``sorted(G)``.
    ``decode(G, states, colours)``: the algorithm's outputs from final states; ``truth(G, inputs)``:
    the same outputs by ``networkx``.
    """

    name: str
    bits: int
    max_degree: int
    layout: Layout
    templates: list[Template]
    message_bits: np.ndarray
    rounds: Callable[[nx.Graph], int]
    init: Callable[[nx.Graph, Any, dict[Any, int]], np.ndarray]
    decode: Callable[[nx.Graph, np.ndarray, dict[Any, int]], Any]
    truth: Callable[[nx.Graph, Any], Any]
    validate: Callable[[nx.Graph, Any], None]
    variant: str = ""
    _matrices: dict[str, np.ndarray] = field(default_factory=dict, repr=False)

    @property
    def slots(self) -> int:
        """Slots of the distance-2 colouring: ``D^2 + 1``."""
        return self.max_degree**2 + 1

    @property
    def n_templates(self) -> int:
        return len(self.templates)

    def matrices(self) -> tuple[sparse.csr_array, sparse.csr_array, sparse.csr_array]:
        """``(R1, R0, Y)``, each a sparse ``(|T|, dim)`` 0/1 matrix: required ones, required zeros, outputs."""
        if not self._matrices:
            shape = (len(self.templates), self.layout.dim)
            for key, attr in (("r1", "ones"), ("r0", "zeros"), ("y", "outputs")):
                rows = [j for j, t in enumerate(self.templates) for _ in getattr(t, attr)]
                cols = [b for t in self.templates for b in getattr(t, attr)]
                self._matrices[key] = sparse.csr_array((np.ones(len(rows)), (rows, cols)), shape=shape)
            self._matrices["r1_count"] = np.asarray(self._matrices["r1"].sum(axis=1)).ravel()
            self._matrices["r0_count"] = np.asarray(self._matrices["r0"].sum(axis=1)).ravel()
        m = self._matrices
        return m["r1"], m["r0"], m["y"]


def read_bits(states: np.ndarray) -> np.ndarray:
    """A real-valued state read as bits: 1 where the value is at least 1/2 [inferred reading rule]."""
    return (np.asarray(states, dtype=float) >= 0.5).astype(float)


def match(program: Program, states: np.ndarray) -> np.ndarray:
    """``(n, |T|)`` 0/1: template ``j`` matches node ``v``'s state (all required 1s set, 0s clear)."""
    r1, r0, _ = program.matrices()
    x = read_bits(states)
    need_ones, need_zeros = program._matrices["r1_count"], program._matrices["r0_count"]
    ones_ok = need_ones - 0.5 < (r1 @ x.T).T
    zeros_ok = need_zeros - 0.5 < (r0 @ (1.0 - x).T).T
    return (ones_ok & zeros_ok).astype(float)


def encode(program: Program, states: np.ndarray) -> np.ndarray:
    """The paper's encoder: matched-template indicators normalised by ``sqrt(|S|)``; zero when none match."""
    hits = match(program, states)
    size = hits.sum(axis=1, keepdims=True)
    return hits / np.sqrt(np.maximum(size, 1.0))


def ideal_update(program: Program, states: np.ndarray) -> np.ndarray:
    """The ideal local update: the OR of the outputs of all matched templates, ``(n, dim)`` 0/1."""
    _, _, y = program.matrices()
    return ((y.T @ match(program, states).T).T > 0.5).astype(float)


def training_set(program: Program) -> tuple[np.ndarray, np.ndarray]:
    """The small training set: ``|T|`` one-hot inputs ``e_j`` and targets ``Y_j`` (template j's outputs)."""
    _, _, y = program.matrices()
    return np.eye(program.n_templates), y.toarray()


def raw_training_set(program: Program) -> tuple[np.ndarray, np.ndarray]:
    """Ablation: raw-bit inputs, the smallest state matching template j (its required 1s) normalised
    to unit norm [inferred], with the same targets."""
    r1, _, y = program.matrices()
    r1 = r1.toarray()
    return r1 / np.linalg.norm(r1, axis=1, keepdims=True), y.toarray()
