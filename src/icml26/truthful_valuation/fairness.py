"""(F) collaborative fairness: the semivalue axioms as checkable functions on a game table.

``table[mask]`` is ``v`` of the coalition of ``mask``'s set bits (see :mod:`.semivalues`). Each check
returns the largest violation (0 when the axiom holds exactly); a caller compares it with a tolerance.

- symmetry: players ``i, j`` with ``v(S + i) = v(S + j)`` for every ``S`` not holding them get equal values;
- null player: a player with ``v(S + i) = v(S)`` for every ``S`` gets 0;
- efficiency (Shapley only): ``sum_i phi_i = v(N) - v(empty)``.
"""

from __future__ import annotations

import math

import numpy as np


def _players(table: np.ndarray) -> int:
    n = int(round(math.log2(len(table)))) if len(table) else 0
    if len(table) < 2 or 2**n != len(table):
        raise ValueError(f"a game table needs 2^n entries (n >= 1), got {len(table)}")
    return n


def symmetric_pairs(table: np.ndarray, atol: float = 1e-9) -> list[tuple[int, int]]:
    """Pairs ``(i, j)`` interchangeable in the game: ``|v(S + i) - v(S + j)| <= atol`` for all ``S``."""
    table = np.asarray(table, dtype=float)
    n = _players(table)
    masks = np.arange(2**n)
    pairs = []
    for i in range(n):
        for j in range(i + 1, n):
            rest = masks[((masks >> i) & 1 == 0) & ((masks >> j) & 1 == 0)]
            if np.all(np.abs(table[rest | 1 << i] - table[rest | 1 << j]) <= atol):
                pairs.append((i, j))
    return pairs


def null_players(table: np.ndarray, atol: float = 1e-9) -> list[int]:
    """Players whose every marginal contribution is within ``atol`` of 0."""
    table = np.asarray(table, dtype=float)
    n = _players(table)
    masks = np.arange(2**n)
    return [
        i
        for i in range(n)
        if np.all(
            np.abs(table[masks[(masks >> i) & 1 == 0] | 1 << i] - table[masks[(masks >> i) & 1 == 0]]) <= atol
        )
    ]


def symmetry_gap(values: np.ndarray, table: np.ndarray, atol: float = 1e-9) -> float:
    """``max |phi_i - phi_j|`` over symmetric pairs (0 if there are none)."""
    values = np.asarray(values, dtype=float)
    return max((abs(values[i] - values[j]) for i, j in symmetric_pairs(table, atol)), default=0.0)


def null_player_gap(values: np.ndarray, table: np.ndarray, atol: float = 1e-9) -> float:
    """``max |phi_i|`` over null players (0 if there are none)."""
    values = np.asarray(values, dtype=float)
    return max((abs(values[i]) for i in null_players(table, atol)), default=0.0)


def efficiency_gap(values: np.ndarray, table: np.ndarray) -> float:
    """``|sum_i phi_i - (v(N) - v(empty))|``."""
    table = np.asarray(table, dtype=float)
    _players(table)
    return abs(float(np.sum(values)) - float(table[-1] - table[0]))


def fixed_order_contributions(table: np.ndarray) -> np.ndarray:
    """Broken allocation (a control): each player's marginal contribution in the one order 0, 1, ..., n-1.

    Efficient and null-player-proof, but not symmetric: a later player is paid less for the same data.
    """
    table = np.asarray(table, dtype=float)
    n = _players(table)
    prefix = [(1 << k) - 1 for k in range(n + 1)]
    return np.array([table[prefix[i + 1]] - table[prefix[i]] for i in range(n)])


def equal_split(table: np.ndarray) -> np.ndarray:
    """Broken allocation (a control): ``v(N) / n`` to everyone, so a null player is paid."""
    table = np.asarray(table, dtype=float)
    n = _players(table)
    return np.full(n, (table[-1] - table[0]) / n)
