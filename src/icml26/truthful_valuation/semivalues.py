"""Semivalues: Shapley, Banzhaf and Beta(alpha, beta) weights, exact and Monte Carlo.

A semivalue of player ``i`` in an ``n``-player game ``v`` is

    phi_i = sum_{S subset N \\ {i}} w(|S|) [v(S + i) - v(S)],   with  sum_c C(n-1, c) w(c) = 1,

so it is an expected marginal contribution. Every weight here is a mixture over ``t`` in [0, 1] of
"each other player joins independently with probability t": ``w(c) = E_t[t^c (1 - t)^(n-1-c)]``.

- Shapley: ``t ~ U(0, 1)``, ``w(c) = c! (n-1-c)! / n!``;
- Banzhaf: ``t = 1/2``, ``w(c) = 2^-(n-1)``;
- Beta(alpha, beta) in Kwon & Zou's (2022) convention: ``t ~ Beta(beta, alpha)``,
  ``w(c) = B(c + beta, n - 1 - c + alpha) / B(alpha, beta)``; Beta(1, 1) is Shapley and Beta(4, 1)
  weights small coalitions more.

Games are tables indexed by bitmask: ``table[mask]`` is ``v`` of the coalition whose members are the
set bits of ``mask`` (``table[0] = v(empty)``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy import special

from icml26.common import check_int

EXACT_LIMIT = 10  # players; 2^10 = 1024 coalitions from cached sufficient statistics
_BETA = re.compile(r"^beta\(\s*([0-9.eE+-]+)\s*,\s*([0-9.eE+-]+)\s*\)$")


@dataclass(frozen=True)
class Semivalue:
    """A semivalue's weights: ``kind`` is ``"shapley"``, ``"banzhaf"`` or ``"beta"`` (with ``alpha, beta > 0``)."""

    kind: str
    alpha: float = 1.0
    beta: float = 1.0

    def __post_init__(self) -> None:
        if self.kind not in ("shapley", "banzhaf", "beta"):
            raise ValueError(f"semivalue kind must be shapley, banzhaf or beta, got {self.kind!r}")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not (math.isfinite(value) and value > 0)
            ):
                raise ValueError(f"Beta semivalue: {name} must be a finite number > 0, got {value!r}")

    @classmethod
    def parse(cls, spec: str | Semivalue) -> Semivalue:
        """``"shapley"``, ``"banzhaf"``, ``"beta(4,1)"`` or a :class:`Semivalue`."""
        if isinstance(spec, Semivalue):
            return spec
        if not isinstance(spec, str):
            raise TypeError(f"semivalue must be a string or Semivalue, got {type(spec).__name__}")
        s = spec.strip().lower()
        if s in ("shapley", "banzhaf"):
            return cls(s)
        match = _BETA.match(s)
        if not match:
            raise ValueError(f"semivalue {spec!r} is not one of 'shapley', 'banzhaf', 'beta(alpha,beta)'")
        try:
            alpha, beta = float(match.group(1)), float(match.group(2))
        except ValueError:
            raise ValueError(f"semivalue {spec!r}: alpha and beta must be numbers") from None
        return cls("beta", alpha, beta)

    @property
    def name(self) -> str:
        return self.kind if self.kind != "beta" else f"beta({self.alpha:g},{self.beta:g})"

    def weights(self, n: int) -> np.ndarray:
        """``w(c)`` for ``c = 0..n-1`` other players in the coalition (length ``n``)."""
        n = check_int("n (players)", n)
        c = np.arange(n)
        if self.kind == "banzhaf":
            return np.full(n, 0.5 ** (n - 1))
        a, b = (1.0, 1.0) if self.kind == "shapley" else (self.alpha, self.beta)
        return np.exp(special.betaln(c + b, n - 1 - c + a) - special.betaln(a, b))

    def sample_inclusion(self, rng: np.random.Generator) -> float:
        """One draw of the inclusion probability ``t`` whose mixture gives the weights."""
        if self.kind == "banzhaf":
            return 0.5
        a, b = (1.0, 1.0) if self.kind == "shapley" else (self.alpha, self.beta)
        return float(rng.beta(b, a))


def weight_total(weights: np.ndarray) -> float:
    """``sum_c C(n-1, c) w(c)``: 1 for every semivalue."""
    n = len(weights)
    return float(sum(math.comb(n - 1, c) * w for c, w in enumerate(weights)))


def popcount(masks: np.ndarray) -> np.ndarray:
    """Number of set bits of each mask (coalition sizes)."""
    return np.bitwise_count(np.asarray(masks, dtype=np.int64)).astype(np.int64)


def exact_semivalues(table: np.ndarray, semivalue: str | Semivalue = "shapley") -> np.ndarray:
    """Semivalues of every player from a full game table of length ``2^n``; ``(n,)``."""
    table = np.asarray(table, dtype=float)
    n = int(round(math.log2(len(table)))) if len(table) else 0
    if len(table) < 2 or 2**n != len(table):
        raise ValueError(f"a game table needs 2^n entries (n >= 1), got {len(table)}")
    if table.ndim != 1 or not np.isfinite(table).all():
        raise ValueError(
            "a game table must be a 1-D array of finite coalition values (found NaN, inf or >1-D)"
        )
    w = Semivalue.parse(semivalue).weights(n)
    masks = np.arange(2**n)
    sizes = popcount(masks)
    phi = np.empty(n)
    for i in range(n):
        without = masks[(masks >> i) & 1 == 0]
        phi[i] = np.sum(w[sizes[without]] * (table[without | (1 << i)] - table[without]))
    return phi


def monte_carlo_semivalues(
    value: Callable[[int], float],
    n: int,
    semivalue: str | Semivalue,
    n_samples: int,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray]:
    """Unbiased Monte Carlo semivalues and their standard errors, ``(n,)`` each.

    Shapley: ``n_samples`` random permutations, each giving every player's marginal contribution to
    its predecessors (Castro et al. 2009). Banzhaf and Beta: per sample and player, draw ``t`` (see
    :meth:`Semivalue.sample_inclusion`), let each other player join with probability ``t``, and take the
    marginal contribution. ``value(mask)`` is the coalition value (cache it: masks repeat).
    """
    if not callable(value):
        raise TypeError(f"value must be a callable value(mask) -> float, got {type(value).__name__}")
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy Generator, got {type(rng).__name__}")
    n = check_int("n (players)", n)
    n_samples = check_int("n_samples", n_samples, minimum=2)
    sv = Semivalue.parse(semivalue)
    draws = np.empty((n_samples, n))

    def value(mask: int, _value: Callable[[int], float] = value) -> float:
        out = np.asarray(_value(mask), dtype=float)
        if out.shape not in ((), (1,)) or not np.isfinite(out).all():
            raise ValueError(f"value(mask) must return one finite number, got {out!r} for mask {mask}")
        return float(out.reshape(()))

    for s in range(n_samples):
        if sv.kind == "shapley":
            mask, prev = 0, value(0)
            for i in rng.permutation(n):
                mask |= 1 << int(i)
                current = value(mask)
                draws[s, i], prev = current - prev, current
        else:
            for i in range(n):
                t = sv.sample_inclusion(rng)
                others = [j for j in range(n) if j != i and rng.random() < t]
                mask = sum(1 << j for j in others)
                draws[s, i] = value(mask | (1 << i)) - value(mask)
    return draws.mean(0), draws.std(0, ddof=1) / math.sqrt(n_samples)
