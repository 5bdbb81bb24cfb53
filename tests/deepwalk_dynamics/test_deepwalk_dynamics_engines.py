"""The three engines: population GD, our per-pair SGNS, gensim; determinism, walk statistics, agreement."""

import numpy as np
import pytest

from icml26.deepwalk_dynamics import SGNSConfig, cooccurrence_matrix, deepwalk_trajectory, sbm_graph
from icml26.deepwalk_dynamics.stochastic import pairs_per_walk, random_walks


@pytest.fixture(scope="module")
def sbm():
    return sbm_graph([40, 40, 40], 0.25, 0.03, seed=5)


def test_same_seed_identical_trajectories(sbm):
    a, labels = sbm
    cfg = SGNSConfig(init_scale=1e-3, seed=4)
    for engine, kw in (("population", {"steps": 60}), ("sgd", {"walks_per_node": 3, "walk_length": 20})):
        one = deepwalk_trajectory(a, cfg, engine, labels=labels, cluster_snapshots=2, **kw)
        two = deepwalk_trajectory(a, cfg, engine, labels=labels, cluster_snapshots=2, **kw)
        for x, y in zip(one.embeddings, two.embeddings, strict=True):
            assert np.array_equal(x, y)
        other = deepwalk_trajectory(a, SGNSConfig(init_scale=1e-3, seed=5), engine, labels=labels, **kw)
        assert not np.array_equal(one.embeddings[-1], other.embeddings[-1])


def test_gensim_same_seed_identical(sbm):
    a, labels = sbm
    cfg = SGNSConfig(init_scale=1e-3, seed=1)
    runs = [deepwalk_trajectory(a, cfg, "gensim", labels=labels, walks_per_node=2, walk_length=20,
                                cluster_snapshots=0) for _ in range(2)]  # fmt: skip
    assert np.array_equal(runs[0].embeddings[-1], runs[1].embeddings[-1])
    assert not np.array_equal(runs[0].embeddings[0], runs[0].embeddings[-1])  # it trained


def test_walk_pairs_match_the_cooccurrence_matrix(sbm):
    """Pair frequencies of long walks converge to C (Eq. (C)); tolerance from ~1e6 pairs."""
    a, _ = sbm
    rng = np.random.default_rng(0)
    walks = random_walks(a, rng.integers(0, 120, 3000), 60, rng)
    assert walks.shape == (3000, 60)
    adj = a.toarray()
    assert np.all(adj[walks[:, :-1], walks[:, 1:]] > 0)  # every step follows an edge
    counts = np.zeros((120, 120))
    for r in range(1, 4):
        np.add.at(counts, (walks[:, :-r].ravel(), walks[:, r:].ravel()), 1)
        np.add.at(counts, (walks[:, r:].ravel(), walks[:, :-r].ravel()), 1)
    assert counts.sum() == 3000 * pairs_per_walk(60, 3)
    c = cooccurrence_matrix(a, 3)
    block = np.repeat(np.arange(3), 40)
    # block-aggregated frequencies (each entry from >= 1e5 pairs): within 3% relative
    emp = (
        np.array([[counts[block == i][:, block == j].sum() for j in range(3)] for i in range(3)])
        / counts.sum()
    )
    exact = np.array([[c[block == i][:, block == j].sum() for j in range(3)] for i in range(3)])
    assert np.allclose(emp, exact, rtol=0.03)


def test_weighted_walks_follow_weights():
    import scipy.sparse as sp

    adj = sp.csr_array(np.array([[0, 1, 9], [1, 0, 1], [9, 1, 0]], dtype=float))
    rng = np.random.default_rng(0)
    walks = random_walks(adj, np.zeros(20000, dtype=int), 2, rng)
    share = np.mean(walks[:, 1] == 2)
    assert share == pytest.approx(0.9, abs=0.01)  # 9 / 10; binomial sd 0.002


def test_engines_agree_on_the_early_phase(sbm):
    """SGD and gensim on the same corpus and start; both align (>= 0.9) from init 1e-4 and reach
    similar norms; population GD predicts the rise."""
    a, labels = sbm
    cfg = SGNSConfig(init_scale=1e-4, seed=0)
    pop = deepwalk_trajectory(a, cfg, "population", labels=labels, steps=150, cluster_snapshots=0)
    sgd = deepwalk_trajectory(
        a, cfg, "sgd", labels=labels, walks_per_node=20, walk_length=20, cluster_snapshots=0
    )
    gen = deepwalk_trajectory(a, cfg, "gensim", labels=labels, walks_per_node=20, walk_length=20,
                              cluster_snapshots=0)  # fmt: skip
    for tr in (pop, sgd, gen):
        assert tr.at_peak()["alignment"] > 0.9, tr.engine
    assert sgd.pairs[-1] == gen.pairs[-1]  # the same corpus
    assert np.allclose(sgd.embeddings[0], gen.embeddings[0], atol=1e-7)  # the same start (gensim: float32)
    ratio = sgd.final()["mean_row_norm"] / gen.final()["mean_row_norm"]
    assert 0.5 < ratio < 2.0


def test_linearisation_tracks_population_gd_while_small(sbm):
    a, labels = sbm
    tr = deepwalk_trajectory(a, SGNSConfig(init_scale=1e-4), "population", labels=labels, steps=150,
                             snapshot_every=5, cluster_snapshots=0)  # fmt: skip
    small = tr.metrics["mean_row_norm"] < 0.05
    assert small.sum() >= 3
    assert tr.metrics["linear_error"][small].max() < 0.05
    assert tr.metrics["linear_error"][-1] > 0.05  # and leaves it once the norms grow (the nonlinear phase)


def test_gensim_chunked_calls_replay_a_single_call(sbm):
    """Snapshots through whole-job ``train`` chunks leave gensim's updates unchanged (bit for bit)."""
    from icml26.deepwalk_dynamics import initial_embeddings
    from icml26.deepwalk_dynamics.gensim_engine import gensim_sgd
    from icml26.deepwalk_dynamics.stochastic import walk_corpus

    a, _ = sbm
    degree = np.asarray(a.sum(axis=1)).ravel()
    cfg = SGNSConfig(init_scale=1e-3)
    corpus = walk_corpus(a, 8, 40, cfg.window, np.random.default_rng(0))  # 960 walks: 4 gensim jobs
    u0, v0 = initial_embeddings(120, cfg)
    single = list(gensim_sgd(corpus, degree, u0, v0, cfg, corpus.pairs))
    chunked = list(gensim_sgd(corpus, degree, u0, v0, cfg, corpus.pairs // 4))
    assert len(single) == 2 and len(chunked) == 5
    assert np.array_equal(single[-1][1], chunked[-1][1]) and np.array_equal(single[-1][2], chunked[-1][2])


def _reference_sgns(walks, u, v, window, negatives, b, lr_start, lr_end):
    """word2vec's per-pair rule written plainly (the ``stochastic`` module docstring), linear step decay."""
    u, v = u.copy(), v.copy()
    total = walks.shape[0] * pairs_per_walk(walks.shape[1], window)
    pairs, k = 0, 0
    for walk in walks:
        for pos, w in enumerate(walk):
            for j in range(max(0, pos - window), min(len(walk), pos + window + 1)):
                if j == pos:
                    continue
                c = walk[j]
                lr = lr_start - (lr_start - lr_end) * pairs / total
                g = lr * (1 - 1 / (1 + np.exp(-u[w] @ v[c])))
                err = g * v[c]
                v[c] = v[c] + g * u[w]
                for n in negatives[k : k + b]:
                    if n != c:
                        g = -lr / (1 + np.exp(-u[w] @ v[n]))
                        err = err + g * v[n]
                        v[n] = v[n] + g * u[w]
                k += b
                u[w] = u[w] + err
                pairs += 1
    return u, v, pairs


def test_sgns_kernel_matches_the_word2vec_rule_exactly():
    """Our numba kernel against the plain rule on a 2-walk corpus: same pairs, negatives and step decay."""
    from icml26.deepwalk_dynamics.stochastic import _sgns_kernel

    rng = np.random.default_rng(3)
    walks = np.array([[0, 1, 2, 1, 3], [3, 2, 0, 2, 1]], dtype=np.int32)
    u0, v0 = rng.normal(0, 0.5, (4, 3)), rng.normal(0, 0.5, (4, 3))
    b, window = 2, 2
    total = 2 * pairs_per_walk(5, window)
    negatives = rng.integers(0, 4, total * b).astype(np.int32)
    want_u, want_v, want_pairs = _reference_sgns(walks, u0, v0, window, negatives, b, 0.5, 0.01)
    u, v = u0.copy(), v0.copy()
    assert _sgns_kernel(walks, u, v, window, negatives, b, 0.5, 0.01, 0, total) == want_pairs == total
    assert np.allclose(u, want_u, rtol=1e-12, atol=1e-14) and np.allclose(v, want_v, rtol=1e-12, atol=1e-14)
    u2, v2 = u0.copy(), v0.copy()  # a constant step (no decay) gives a different result: the decay matters
    _sgns_kernel(walks, u2, v2, window, negatives, b, 0.5, 0.5, 0, total)
    assert not np.allclose(u2, want_u, rtol=1e-6)
