"""The stochastic SGNS engine: uniform random walks, window-T pairs, b negatives per pair, per-pair
updates with word2vec semantics and a linear step decay (the high-variance updates the paper analyses).

DeepWalk (Perozzi et al. 2014) with SGNS (Mikolov et al. 2013): for each node w at a walk position and
each context c at distance 1..T, with step η_t decaying linearly from ``step_size`` to ``min_step_size``:

    g = η_t (1 − σ(u_w·v_c));  e = g v_c;  v_c += g u_w
    for each negative n ~ q_α (skipped when n = c, as word2vec does):
        g = −η_t σ(u_w·v_n);  e += g v_n;  v_n += g u_w
    u_w += e

Each pair is a draw from C (``sgns_matrix.cooccurrence_matrix``) and its negatives from q_w q_α, so the
expected update of N pairs is η N ∇ℓ (``population.py``, Eq. (2)) up to the skipped n = c term.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

import numba
import numpy as np
import scipy.sparse as sp

from icml26.deepwalk_dynamics.config import SGNSConfig


def pairs_per_walk(length: int, window: int) -> int:
    """Number of (node, context) pairs of one walk of ``length`` nodes with window T (both sides)."""
    return 2 * sum(length - r for r in range(1, min(window, length - 1) + 1))


def random_walks(adj: sp.csr_array, starts: np.ndarray, length: int, rng: np.random.Generator) -> np.ndarray:
    """Uniform random walks (transition ∝ edge weight), all walkers stepped together on the CSR arrays.

    Returns an int32 array (len(starts), length); row i starts at ``starts[i]``. The next node is found by
    ``searchsorted`` on the global cumulative edge weights, inside the current node's row.
    """
    if isinstance(length, bool) or not isinstance(length, int | np.integer) or length < 2:
        raise ValueError(f"walk length must be an integer >= 2, got {length!r}")
    indptr, indices = adj.indptr, adj.indices
    cumulative = np.cumsum(adj.data)
    row_start = np.concatenate(([0.0], cumulative))[indptr[:-1]]
    row_weight = np.asarray(adj.sum(axis=1)).ravel()
    walks = np.empty((len(starts), length), dtype=np.int32)
    current = np.asarray(starts, dtype=np.int64)
    walks[:, 0] = current
    for step in range(1, length):
        target = row_start[current] + rng.random(current.size) * row_weight[current]
        slot = np.searchsorted(cumulative, target, side="right")
        slot = np.clip(slot, indptr[current], indptr[current + 1] - 1)  # float round-off at a row's end
        current = indices[slot].astype(np.int64)
        walks[:, step] = current
    return walks


@numba.njit(cache=False, fastmath=False)
def _sgns_kernel(
    walks: np.ndarray,
    u: np.ndarray,
    v: np.ndarray,
    window: int,
    negatives: np.ndarray,
    n_negatives: int,
    lr_start: float,
    lr_end: float,
    pair_offset: int,
    total_pairs: int,
) -> int:
    """Per-pair SGNS updates over ``walks`` in order (the module docstring's rule), in place; returns
    the number of pairs processed. ``negatives`` holds ``n_negatives`` draws per pair, consumed in order."""
    d = u.shape[1]
    err = np.empty(d)
    pairs = 0
    k = 0
    for i in range(walks.shape[0]):
        length = walks.shape[1]
        for pos in range(length):
            w = walks[i, pos]
            for off in range(-window, window + 1):
                j = pos + off
                if off == 0 or j < 0 or j >= length:
                    continue
                c = walks[i, j]
                lr = lr_start - (lr_start - lr_end) * (pair_offset + pairs) / total_pairs
                f = 0.0
                for t in range(d):
                    f += u[w, t] * v[c, t]
                g = lr * (1.0 - 1.0 / (1.0 + np.exp(-f)))
                for t in range(d):
                    err[t] = g * v[c, t]
                    v[c, t] += g * u[w, t]
                for _ in range(n_negatives):
                    neg = negatives[k]
                    k += 1
                    if neg == c:
                        continue
                    f = 0.0
                    for t in range(d):
                        f += u[w, t] * v[neg, t]
                    g = -lr / (1.0 + np.exp(-f))
                    for t in range(d):
                        err[t] += g * v[neg, t]
                        v[neg, t] += g * u[w, t]
                for t in range(d):
                    u[w, t] += err[t]
                pairs += 1
    return pairs


@dataclass
class WalkCorpus:
    """DeepWalk's corpus: ``walks_per_node`` walks from every node (shuffled order), each ``length`` long."""

    walks: np.ndarray
    window: int

    @property
    def pairs(self) -> int:
        return self.walks.shape[0] * pairs_per_walk(self.walks.shape[1], self.window)


def walk_corpus(
    adj: sp.csr_array, walks_per_node: int, length: int, window: int, rng: np.random.Generator
) -> WalkCorpus:
    """``walks_per_node`` rounds of one walk from each node, each round in a fresh random order."""
    if (
        isinstance(walks_per_node, bool)
        or not isinstance(walks_per_node, int | np.integer)
        or walks_per_node < 1
    ):
        raise ValueError(f"walks_per_node must be an integer >= 1, got {walks_per_node!r}")
    n = adj.shape[0]
    starts = np.concatenate([rng.permutation(n) for _ in range(walks_per_node)])
    return WalkCorpus(random_walks(adj, starts, length, rng), int(window))


def chunk_bounds(corpus: WalkCorpus, snapshot_every: int, multiple: int = 1) -> list[tuple[int, int]]:
    """Consecutive walk ranges of about ``snapshot_every`` pairs each, a multiple of ``multiple`` walks."""
    if (
        isinstance(snapshot_every, bool)
        or not isinstance(snapshot_every, int | np.integer)
        or snapshot_every < 1
    ):
        raise ValueError(f"snapshot_every (pairs) must be an integer >= 1, got {snapshot_every!r}")
    per_walk = pairs_per_walk(corpus.walks.shape[1], corpus.window)
    step = multiple * max(1, int(round(snapshot_every / (per_walk * multiple))))
    w = corpus.walks.shape[0]
    return [(a, min(a + step, w)) for a in range(0, w, step)]


def negative_sampler(q_alpha: np.ndarray) -> np.ndarray:
    """The cumulative table of q_α that ``searchsorted`` on uniforms draws negatives from."""
    cumulative = np.cumsum(q_alpha)
    return cumulative / cumulative[-1]


def sgns_sgd(
    corpus: WalkCorpus,
    q_alpha: np.ndarray,
    u0: np.ndarray,
    v0: np.ndarray,
    config: SGNSConfig,
    snapshot_every: int,
    rng: np.random.Generator,
) -> Iterator[tuple[int, np.ndarray, np.ndarray, float]]:
    """One pass of per-pair SGNS over ``corpus``; yields ``(pairs done, U, V, update seconds so far)`` at
    the start and after every chunk of about ``snapshot_every`` pairs (seconds: negatives drawn + kernel)."""
    n, d = u0.shape
    if v0.shape != (n, d) or q_alpha.shape != (n,):
        raise ValueError(
            f"U₀, V₀ must be n × d and q_α length n, got {u0.shape}, {v0.shape}, {q_alpha.shape}"
        )
    if corpus.walks.size and corpus.walks.max() >= n:
        raise ValueError(f"walks visit node {int(corpus.walks.max())} but U₀ has only {n} rows")
    table = negative_sampler(q_alpha)
    u, v = np.ascontiguousarray(u0, dtype=float).copy(), np.ascontiguousarray(v0, dtype=float).copy()
    total, done, seconds = corpus.pairs, 0, 0.0
    per_walk = pairs_per_walk(corpus.walks.shape[1], corpus.window)
    yield 0, u.copy(), v.copy(), 0.0
    for a, b in chunk_bounds(corpus, snapshot_every):
        start = (
            time.perf_counter()
        )  # the negatives' draws count as update time (gensim's are inside its calls)
        count = (b - a) * per_walk * config.negatives
        negatives = np.searchsorted(table, rng.random(count), side="right").astype(np.int32)
        negatives = np.minimum(negatives, n - 1)
        done += _sgns_kernel(
            corpus.walks[a:b], u, v, corpus.window, negatives, config.negatives,
            config.step_size, config.min_step_size, done, total,
        )  # fmt: skip
        seconds += time.perf_counter() - start
        if not (np.all(np.isfinite(u)) and np.all(np.isfinite(v))):
            raise FloatingPointError(
                f"SGNS diverged after {done} pairs (step_size {config.step_size:g} too large)"
            )
        yield done, u.copy(), v.copy(), seconds


def warm_up() -> None:
    """Compile the numba kernel once (a few seconds) so that timed runs measure updates only."""
    walks = np.zeros((1, 3), dtype=np.int32)
    walks[0] = [0, 1, 0]
    u, v = np.zeros((2, 2)), np.zeros((2, 2))
    _sgns_kernel(walks, u, v, 1, np.zeros(8, dtype=np.int32), 1, 0.01, 0.001, 0, 4)
