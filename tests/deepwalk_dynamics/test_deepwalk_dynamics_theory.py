"""The matrix M = C − b q q_αᵀ: exact small cases and invariants; the population gradient against autograd."""

import networkx as nx
import numpy as np
import pytest
import torch

from icml26.deepwalk_dynamics import (
    SGNSConfig,
    alignment,
    block_indicator_basis,
    cluster_scores,
    cooccurrence_matrix,
    deepwalk_trajectory,
    expected_gradient,
    expected_objective,
    expected_sbm_matrix,
    initial_embeddings,
    negative_distribution,
    node_frequencies,
    sbm_graph,
    sgns_matrix,
    top_eigenspace,
    trivial_direction,
    two_cliques,
)


@pytest.fixture(scope="module")
def sbm():
    return sbm_graph([30, 30, 30], 0.3, 0.05, seed=3)


def test_cooccurrence_is_symmetric_sums_to_one_with_marginal_q(sbm):
    a, _ = sbm
    for window in (1, 3, 5):
        c = cooccurrence_matrix(a, window)
        assert np.allclose(c, c.T, atol=1e-15)
        assert c.sum() == pytest.approx(1.0, abs=1e-12)
        assert np.allclose(c.sum(axis=1), node_frequencies(a), atol=1e-14)
        assert c.min() >= 0


def test_cooccurrence_window_one_is_the_edge_distribution():
    g = nx.path_graph(4)
    c = cooccurrence_matrix(g, 1)
    a = nx.to_numpy_array(g)
    assert np.allclose(c, a / a.sum())  # T = 1: C = A / vol exactly


def test_negative_distribution_powers_the_degree():
    g = nx.star_graph(3)  # degrees 3, 1, 1, 1
    assert np.allclose(negative_distribution(g, 1.0), np.array([3, 1, 1, 1]) / 6)
    assert np.allclose(negative_distribution(g, 0.0), np.full(4, 0.25))
    w = np.array([3.0, 1, 1, 1]) ** 0.75
    assert np.allclose(negative_distribution(g, 0.75), w / w.sum())


def test_two_cliques_exact_case():
    """K10 ∪ K10, b = α = 1, T = 5: the trivial direction cancels; the top eigenvector of M is the ±1
    component indicator with eigenvalue f_T(1)/n = 1/20, the next f_T(−1/9)/n; ratio 50."""
    a, labels = two_cliques(10)
    m = sgns_matrix(a, 5, 1, 1.0)
    trivial = trivial_direction(a)
    assert np.allclose(m @ trivial, 0.0, atol=1e-15)  # regular graph: d ∝ 1, and M 1 = 0
    eig = top_eigenspace(m, 4, k=1)
    indicator = np.where(labels == 0, 1.0, -1.0) / np.sqrt(20)
    assert abs(eig.basis[:, 0] @ indicator) == pytest.approx(1.0, abs=1e-12)
    f_t = np.mean([(-1 / 9) ** r for r in range(1, 6)])
    assert eig.values[0] == pytest.approx(1 / 20, rel=1e-12)
    assert eig.values[1] == pytest.approx(abs(f_t) / 20, rel=1e-10)
    assert 40 <= eig.values[0] / eig.values[1] <= 60
    tr = deepwalk_trajectory(a, SGNSConfig(dim=4, init_scale=1e-4), "population", labels=labels, steps=150,
                             snapshot_every=5, k=1)  # fmt: skip
    peak = tr.at_peak()
    assert peak["alignment"] > 0.999
    assert peak["ari"] == 1.0
    assert peak["trivial_energy"] < 1e-6
    assert {p.name for p in tr.plots()} == {"population_alignment", "population_norm", "population_ari"}


def test_b_not_one_keeps_the_trivial_direction():
    a, _ = two_cliques(10)
    m = sgns_matrix(a, 5, 2, 1.0)  # (1 − b) = −1 on the trivial direction
    t = trivial_direction(a)
    assert t @ m @ t == pytest.approx(-1 / 20, rel=1e-12)


def test_expected_sbm_matrix_lives_in_the_block_span():
    sizes, p, q = [20, 30, 25], 0.4, 0.1
    z = block_indicator_basis(np.repeat([0, 1, 2], sizes))
    for b in (1, 2):
        m = expected_sbm_matrix(sizes, p, q, 4, b, 1.0)
        residual = m - z @ (z.T @ m)
        assert np.abs(residual).max() < 1e-14
        rank = np.linalg.matrix_rank(m, tol=1e-12 * np.abs(m).max())
        assert rank <= 3
    m1 = expected_sbm_matrix([30, 30, 30], p, q, 4, 1, 1.0)  # equal blocks, b = 1: rank K − 1
    assert np.linalg.matrix_rank(m1, tol=1e-12 * np.abs(m1).max()) == 2


def test_spectral_gap_selection_on_sbm(sbm):
    a, labels = sbm
    eig = top_eigenspace(sgns_matrix(a, 5, 1, 1.0), 16)
    assert eig.k == 2  # K − 1 with b = 1
    assert eig.gap == pytest.approx(eig.values[1] - eig.values[2])
    assert alignment(eig.basis, block_indicator_basis(labels)) > 0.8


def test_population_gradient_equals_autograd(sbm):
    a, _ = sbm
    c = cooccurrence_matrix(a, 3)
    neg = 2 * np.outer(node_frequencies(a), negative_distribution(a, 0.75))
    rng = np.random.default_rng(0)
    u, v = rng.normal(0, 0.3, (90, 5)), rng.normal(0, 0.3, (90, 5))
    gu, gv = expected_gradient(u, v, c, neg)
    tu, tv = torch.tensor(u, requires_grad=True), torch.tensor(v, requires_grad=True)
    x = tu @ tv.T
    loss = (torch.tensor(c) * torch.nn.functional.logsigmoid(x)).sum() + (
        torch.tensor(neg) * torch.nn.functional.logsigmoid(-x)
    ).sum()
    loss.backward()
    assert np.allclose(gu, tu.grad.numpy(), rtol=1e-10, atol=1e-14)
    assert np.allclose(gv, tv.grad.numpy(), rtol=1e-10, atol=1e-14)
    assert expected_objective(u, v, c, neg) == pytest.approx(loss.item(), rel=1e-12)


def test_gradient_at_zero_is_half_m(sbm):
    """Eq. (3)'s basis: at X = 0 the gradient is ½ M V (first order in U, V)."""
    a, _ = sbm
    c = cooccurrence_matrix(a, 5)
    neg = np.outer(node_frequencies(a), negative_distribution(a, 1.0))
    rng = np.random.default_rng(1)
    u, v = 1e-6 * rng.normal(size=(90, 4)), 1e-6 * rng.normal(size=(90, 4))
    gu, _ = expected_gradient(u, v, c, neg)
    assert np.allclose(gu, 0.5 * (c - neg) @ v, rtol=1e-5)


def test_initialisations():
    u, v = initial_embeddings(50, SGNSConfig(dim=8, init="word2vec", init_scale=1 / 8, seed=2))
    assert np.all(v == 0) and np.abs(u).max() <= 0.5 / 8
    u, v = initial_embeddings(4000, SGNSConfig(dim=8, init_scale=1e-3, seed=2))
    assert u.std() == pytest.approx(1e-3, rel=0.02) and v.std() == pytest.approx(1e-3, rel=0.02)


def test_cluster_scores_exact():
    labels = np.repeat([0, 1], 10)
    u = np.zeros((20, 2))
    u[:10, 0], u[10:, 1] = 1.0, 1.0
    scores = cluster_scores(u + 1e-3 * np.random.default_rng(0).normal(size=u.shape), labels)
    assert scores["ari"] == 1.0 and scores["nmi"] == pytest.approx(1.0) and scores["ari_rownorm"] == 1.0


def test_smoothed_peak():
    from icml26.deepwalk_dynamics import smoothed_peak

    x = np.array([0.1, 0.2, 0.9, 0.3, 0.4, 0.5, 0.6, 0.5])
    assert smoothed_peak(x, 1) == pytest.approx(0.9)
    assert smoothed_peak(x, 3) == pytest.approx(max(np.mean(x[i : i + 3]) for i in range(6)))
    assert smoothed_peak(x, 5) == pytest.approx(0.54)  # (0.9 + 0.3 + 0.4 + 0.5 + 0.6) / 5 < max 0.9
    assert smoothed_peak(x[:2], 5) == pytest.approx(0.15)  # fewer snapshots than the width: their mean
    with pytest.raises(ValueError, match="width"):
        smoothed_peak(x, 0)
    with pytest.raises(ValueError, match="finite"):
        smoothed_peak(np.array([0.1, np.nan]), 2)
