"""gensim's Word2Vec (Cython SGNS) on the same walk corpus, with matched settings and the same start.

Settings: ``sg=1, hs=0, negative=b, ns_exponent=α, window=T, shrink_windows=False`` (every distance
1..T weighted equally, as in Eq. (C)), ``sample=0`` (no subsampling), ``min_count=1``, ``workers=1``
(deterministic order). The negative table is rebuilt from node degrees (gensim would use corpus counts),
so q_α ∝ d^α exactly as in the other engines. U₀, V₀ are written into ``wv.vectors`` and ``syn1neg``.

Snapshots: gensim's callbacks fire only at epoch ends, so one pass over the corpus is fed as consecutive
``train`` calls on chunks, each with its slice of the linear step decay (``start_alpha``/``end_alpha``).
gensim packs sentences into jobs of ``batch_words`` words, reseeds its negative sampler per job and sets
the step per job, so a chunk is a whole number of jobs: then, with one worker, the chunked calls replay a
single call's updates exactly (tested), with a snapshot after each chunk. Chunks that split jobs would
not (their trajectory drifts: 0.16 against 0.21 mean norm after one pass in 20 uneven chunks).
Negatives come from gensim's own generator, so its trajectory differs from ours pair by pair.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator

import numpy as np

from icml26.deepwalk_dynamics.config import SGNSConfig
from icml26.deepwalk_dynamics.stochastic import WalkCorpus, chunk_bounds, pairs_per_walk


def gensim_sgd(
    corpus: WalkCorpus,
    degree: np.ndarray,
    u0: np.ndarray,
    v0: np.ndarray,
    config: SGNSConfig,
    snapshot_every: int,
) -> Iterator[tuple[int, np.ndarray, np.ndarray, float]]:
    """Yields ``(pairs done, U, V, train seconds so far)`` at the start and after every chunk (rows in node order)."""
    from gensim.models import Word2Vec

    logging.getLogger("gensim").setLevel(logging.WARNING)
    n, d = u0.shape
    sentences = [[str(w) for w in walk] for walk in corpus.walks.tolist()]
    model = Word2Vec(
        vector_size=d, window=config.window, sg=1, hs=0, negative=config.negatives,
        ns_exponent=config.alpha, sample=0, shrink_windows=False, min_count=1, workers=1,
        alpha=config.step_size, min_alpha=config.min_step_size, seed=config.seed,
    )  # fmt: skip
    model.build_vocab(sentences)
    if len(model.wv) != n:
        raise ValueError(f"the corpus visits {len(model.wv)} of {n} nodes; use more or longer walks")
    nodes = np.array([int(key) for key in model.wv.index_to_key])
    for key in model.wv.index_to_key:
        model.wv.set_vecattr(key, "count", int(max(1, round(1000 * degree[int(key)]))))
    model.make_cum_table()  # q_α ∝ degree^α, as in Eq. (M)
    model.wv.vectors[:] = u0[nodes]
    model.syn1neg[:] = v0[nodes]
    position = np.empty(n, dtype=int)
    position[nodes] = np.arange(n)

    def current() -> tuple[np.ndarray, np.ndarray]:
        return model.wv.vectors[position].astype(float), model.syn1neg[position].astype(float)

    total = corpus.pairs
    per_walk = pairs_per_walk(corpus.walks.shape[1], corpus.window)
    span = config.step_size - config.min_step_size
    done, seconds = 0, 0.0
    yield 0, *current(), 0.0
    walks_per_job = max(1, model.batch_words // corpus.walks.shape[1])  # whole jobs per chunk (see above)
    for a, b in chunk_bounds(corpus, snapshot_every, walks_per_job):
        chunk = sentences[a:b]
        start_alpha = config.step_size - span * done / total
        end_alpha = config.step_size - span * (done + (b - a) * per_walk) / total
        start = time.perf_counter()
        model.train(
            chunk, total_examples=len(chunk), total_words=sum(map(len, chunk)), epochs=1,
            start_alpha=start_alpha, end_alpha=end_alpha,
        )  # fmt: skip
        seconds += time.perf_counter() - start
        done += (b - a) * per_walk
        yield done, *current(), seconds
