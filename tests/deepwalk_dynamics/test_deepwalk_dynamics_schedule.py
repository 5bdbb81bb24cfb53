"""The SGNS step schedule: linear decay over the whole pass, whatever the snapshot chunks (issue #45)."""

import numpy as np
import pytest

from icml26.deepwalk_dynamics import SGNSConfig, sbm_graph
from icml26.deepwalk_dynamics.population import initial_embeddings
from icml26.deepwalk_dynamics.sgns_matrix import negative_distribution
from icml26.deepwalk_dynamics.stochastic import _sgns_kernel, sgns_sgd, walk_corpus


@pytest.mark.parametrize("offset", [0, 1, 7, 19])
def test_kernel_step_at_offset(offset):
    """One pair (w=0, c=1) with U = 1, V = 0 and its negative equal to c (skipped): v_c moves by exactly
    η_t (1 − σ(0)) = η_t / 2, so v_c reads the step η_t = η₀ − (η₀ − η_min) · offset / total."""
    walks = np.array([[0, 1]], dtype=np.int32)
    u, v = np.ones((2, 1)), np.zeros((2, 1))
    negs = np.array([1, 0], dtype=np.int32)  # pair 1 (0 -> 1): negative 1 = c, skipped
    lr0, lr1, total = 0.04, 0.002, 20
    done = _sgns_kernel(walks, u, v, 1, negs, 1, lr0, lr1, offset, total)
    assert done == 2
    expected = lr0 - (lr0 - lr1) * offset / total
    assert v[1, 0] == pytest.approx(expected / 2, rel=1e-12)


def test_chunked_pass_equals_one_pass():
    """The same corpus, start and seed: snapshots every few pairs or one snapshot at the end give the same
    final U, V (the step decays over the whole pass, not per chunk), and the step reaches min_step_size."""
    a, _ = sbm_graph([15, 15], 0.4, 0.05, seed=2)
    cfg = SGNSConfig(dim=4, init_scale=0.1, step_size=0.05, min_step_size=0.001, seed=3)
    q_alpha = negative_distribution(a, cfg.alpha)
    u0, v0 = initial_embeddings(a.shape[0], cfg)
    corpus = walk_corpus(a, 4, 12, cfg.window, np.random.default_rng(9))
    one = list(sgns_sgd(corpus, q_alpha, u0, v0, cfg, corpus.pairs, np.random.default_rng(11)))
    many = list(sgns_sgd(corpus, q_alpha, u0, v0, cfg, corpus.pairs // 12, np.random.default_rng(11)))
    assert len(one) == 2 and len(many) > 8
    assert one[-1][0] == many[-1][0] == corpus.pairs
    np.testing.assert_allclose(one[-1][1], many[-1][1], rtol=0, atol=1e-13)
    np.testing.assert_allclose(one[-1][2], many[-1][2], rtol=0, atol=1e-13)
    assert not np.allclose(one[-1][1], u0)  # it trained
