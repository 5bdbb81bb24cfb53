"""``SGNSConfig``: the settings shared by the three engines (population GD, numba SGNS, gensim)."""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

from icml26.common.validation import check_positive

INITS = ("gaussian", "word2vec")


def _integer(name: str, value: object, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


@dataclass(frozen=True)
class SGNSConfig:
    """Skip-gram with negative sampling on uniform random walks (DeepWalk).

    dim: embedding dimension d. window: T, contexts at distance 1..T on both sides of a node.
    negatives: b, negatives per (node, context) pair, drawn from q_alpha ∝ degree**alpha.
    alpha: the negative-sampling exponent (1 in the theory, 0.75 in word2vec).
    step_size: the per-pair learning rate of SGNS (word2vec's ``alpha``); a population-GD step of
        ``pairs_per_step`` pairs moves by ``step_size * pairs_per_step`` times the expected gradient.
    min_step_size: the rate the stochastic engines decay to linearly (word2vec's ``min_alpha``).
    init: ``"gaussian"`` (U and V with i.i.d. N(0, init_scale²) entries) or ``"word2vec"``
        (U uniform on ±init_scale/2 per coordinate, V = 0; ``init_scale = 1/d`` is word2vec's own).
    init_scale: the initialisation's scale (small-norm start: << 1).
    seed: the seed of the initialisation, walks and negatives.
    """

    dim: int = 16
    window: int = 5
    negatives: int = 1
    alpha: float = 1.0
    step_size: float = 0.025
    min_step_size: float = 0.0001
    init: str = "gaussian"
    init_scale: float = 1e-4
    seed: int = 0

    def __post_init__(self) -> None:
        _integer("dim (the embedding dimension d)", self.dim, 1)
        _integer("window (T)", self.window, 1)
        _integer("negatives (b)", self.negatives, 1)
        _integer("seed", self.seed, 0)
        if (
            isinstance(self.alpha, bool)
            or not isinstance(self.alpha, numbers.Real)
            or not math.isfinite(self.alpha)
        ):
            raise ValueError(
                f"alpha (negative-sampling exponent) must be a finite number, got {self.alpha!r}"
            )
        check_positive("step_size", self.step_size)
        check_positive("min_step_size", self.min_step_size)
        if self.min_step_size > self.step_size:
            raise ValueError(
                f"min_step_size must be <= step_size, got {self.min_step_size!r} > {self.step_size!r}"
            )
        if self.init not in INITS:
            raise ValueError(f"init must be one of {', '.join(INITS)}, got {self.init!r}")
        check_positive("init_scale", self.init_scale)
