"""The LOCAL-model learnability result and its ensemble-size bound.

[read, abstract] Any algorithm of the LOCAL model of distributed computation with bounded message
size, memory and degree is learnable exactly by this scheme: compile each node's step into templates
over a finite state, learn them from the |T| one-hot examples, and run the learned update as a GNN.
[code, inferred form] With ``n0 = |T|`` templates, ``T`` rounds and a per-output signal ``mu`` with
per-member variance ``sigma^2``, a Hoeffding/Bernstein-type union bound over the ``2^{n0}`` possible
encoder inputs, the ``n0`` outputs and the ``T`` rounds gives that an ensemble of

    M >= 8 (sigma^2 / mu^2) ln(2 n0 T 2^{n0})

members make every thresholded output of every round right with high probability [inferred reading
of `bounds/bounds_ell.py`]; the theory's worst case takes
``sigma^2 / mu^2 <= n0``.
"""

from __future__ import annotations

import math


def ensemble_size_bound(variance_over_signal2: float, n_templates: int, rounds: int) -> float:
    """``8 (sigma^2 / mu^2) ln(2 n0 T 2^{n0})`` (``ln 2^{n0}`` computed as ``n0 ln 2``)."""
    if not (isinstance(variance_over_signal2, int | float) and math.isfinite(variance_over_signal2)) or (
        variance_over_signal2 <= 0
    ):
        raise ValueError(
            f"variance_over_signal2 must be a positive finite number, got {variance_over_signal2!r}"
        )
    for name, value in (("n_templates", n_templates), ("rounds", rounds)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
    return 8.0 * variance_over_signal2 * (math.log(2 * n_templates * rounds) + n_templates * math.log(2.0))


def theoretical_ensemble_size(n_templates: int, rounds: int) -> float:
    """The theory's form: ``sigma^2 / mu^2`` replaced by its worst case ``n0``."""
    return ensemble_size_bound(float(n_templates), n_templates, rounds)
