"""Reference values that would move if a core function were wrong: the population trajectory's late
(nonlinear) phase, one GD step against Eq. (2), each baseline's value on small graphs, and the variance
of one SGNS update (Eq. (V2)) against exact enumeration."""

import itertools

import networkx as nx
import numpy as np
import pytest
from scipy.special import expit

from icml26.deepwalk_dynamics import (
    SGNSConfig,
    adjacency,
    cooccurrence_matrix,
    deepwalk_trajectory,
    expected_gradient,
    kmeans_ari,
    negative_distribution,
    netmf_embedding,
    node_frequencies,
    normalized_adjacency_embedding,
    population_gd,
    sbm_graph,
    spectral_clustering_ari,
)
from icml26.deepwalk_dynamics.variance import update_noise_ratio


def test_population_late_phase_matches_reference_run():
    """SBM 3x30 (p=0.3, q=0.05), d=4, 300 steps from init 1e-4: alignment peaks near 1 at a small norm, then
    the nonlinear phase grows the norm and lowers the alignment; the values are those of the reference run
    (this code at 2026-12-02, numpy float64: deterministic)."""
    a, labels = sbm_graph([30, 30, 30], 0.3, 0.05, seed=3)
    tr = deepwalk_trajectory(
        a, SGNSConfig(dim=4, init_scale=1e-4, seed=0), "population", labels=labels, steps=300,
        snapshot_every=10, linearised=False, cluster_snapshots=0,
    )  # fmt: skip
    i = tr.peak()
    assert i == 10 and tr.metrics["alignment"][i] == pytest.approx(0.9999043558378182, abs=1e-9)
    assert tr.metrics["mean_row_norm"][i] == pytest.approx(0.16753688547185874, rel=1e-7)
    assert tr.metrics["mean_row_norm"][-1] == pytest.approx(0.852272693353, rel=1e-7)
    assert tr.metrics["alignment"][-1] == pytest.approx(0.797061563355, rel=1e-7)
    assert tr.metrics["ari"][-1] == pytest.approx(0.9664753465150577, abs=1e-9)
    assert tr.metrics["ari"][i] == pytest.approx(0.7197054667351038, abs=1e-9)


def test_population_step_is_eq2_gradient_step_far_from_zero():
    """Each step of population_gd is (U, V) + eta * Eq. (2)'s gradient, checked at O(1) embeddings where the
    sigmoid is far from linear (so U Uᵀ for U Vᵀ, a sign, or a transpose would show)."""
    a, _ = sbm_graph([12, 12], 0.5, 0.1, seed=1)
    c = cooccurrence_matrix(a, 3)
    neg = 2 * np.outer(node_frequencies(a), negative_distribution(a, 0.75))
    rng = np.random.default_rng(4)
    u0, v0 = rng.normal(0, 1.0, (24, 3)), rng.normal(0, 1.0, (24, 3))
    eta = 5.0
    steps = list(population_gd(c, neg, u0, v0, eta, 3, 1))
    u, v = u0, v0
    for k in range(1, 4):
        gu, gv = expected_gradient(u, v, c, neg)
        u, v = u + eta * gu, v + eta * gv
        assert np.allclose(steps[k][1], u, rtol=1e-12, atol=1e-15)
        assert np.allclose(steps[k][2], v, rtol=1e-12, atol=1e-15)


def _joined_cliques(size: int = 6) -> tuple[nx.Graph, np.ndarray]:
    g = nx.disjoint_union(nx.complete_graph(size), nx.complete_graph(size))
    g.add_edge(0, size)
    return g, np.repeat([0, 1], size)


def test_normalized_adjacency_embedding_is_the_top_eigenvectors():
    g, _ = _joined_cliques()
    a = adjacency(g).toarray()
    d = a.sum(axis=1)
    n_mat = a / np.sqrt(np.outer(d, d))
    x = normalized_adjacency_embedding(g, 2)
    top = np.sort(np.linalg.eigvalsh(n_mat))[::-1][:2]
    assert top[0] == pytest.approx(1.0)
    assert np.allclose(n_mat @ x, x * top[None, :], atol=1e-10)  # the largest two, not the smallest
    first = x[:, 0] * np.sign(x[0, 0])
    assert np.allclose(first, np.sqrt(d / d.sum()), atol=1e-10)  # φ₁ ∝ D^{1/2} 1
    assert abs(np.corrcoef(x[:, 1], np.repeat([1, -1], 6))[0, 1]) > 0.99  # the cut between the cliques


def test_baseline_values_on_two_joined_cliques():
    g, labels = _joined_cliques()
    assert spectral_clustering_ari(g, labels, 0) == 1.0
    assert kmeans_ari(normalized_adjacency_embedding(g, 2), labels, 0) == 1.0
    assert kmeans_ari(netmf_embedding(g, 2, 1, 2), labels, 0) == 1.0
    assert kmeans_ari(np.repeat([[0.0], [5.0]], 6, axis=0), 1 - labels) == 1.0
    assert kmeans_ari(np.repeat([[0.0], [5.0]], 6, axis=0)[::-1][np.r_[0:3, 9:12, 3:9]], labels) < 0.5


def test_netmf_matches_its_formula_on_a_path():
    """NetMF's target log max(vol/(bT) Σ_{r<=T} Pʳ D⁻¹, 1) by hand on P5; the embedding's column norms² are
    the target's top singular values."""
    g = nx.path_graph(5)
    a = nx.to_numpy_array(g)
    d = a.sum(axis=1)
    p = a / d[:, None]
    target = np.log(np.maximum(d.sum() / (1 * 2) * (p + p @ p) / d[None, :], 1.0))
    s = np.linalg.svd(target, compute_uv=False)
    x = netmf_embedding(g, 2, 1, 3)
    assert np.allclose((x**2).sum(axis=0), s[:3], rtol=1e-10)


def _exact_second_moment(u, v, c, q_alpha):
    """E‖Δ‖² of Eq. (V1) by enumeration of (w, c, n) for b = 1, and E Δ."""
    n, d = u.shape
    second, mean_u, mean_v = 0.0, np.zeros((n, d)), np.zeros((n, d))
    for w, ctx, m in itertools.product(range(n), range(n), range(n)):
        p = c[w, ctx] * q_alpha[m]
        gp, gn = 1 - expit(u[w] @ v[ctx]), -expit(u[w] @ v[m])
        du = gp * v[ctx] + gn * v[m]
        dv = np.zeros((n, d))
        dv[ctx] += gp * u[w]
        dv[m] += gn * u[w]
        second += p * ((du**2).sum() + (dv**2).sum())
        mean_u[w] += p * du
        mean_v += p * dv
    return second, mean_u, mean_v


def test_update_variance_matches_exact_enumeration():
    a, _ = sbm_graph([3, 3], 0.9, 0.3, seed=2)
    c = cooccurrence_matrix(a, 2)
    q_alpha = negative_distribution(a, 0.75)
    rng = np.random.default_rng(0)
    u, v = rng.normal(0, 0.7, (6, 2)), rng.normal(0, 0.7, (6, 2))
    second, mean_u, mean_v = _exact_second_moment(u, v, c, q_alpha)
    gu, gv = expected_gradient(u, v, c, np.outer(node_frequencies(a), q_alpha))
    assert np.allclose(mean_u, gu, atol=1e-13) and np.allclose(mean_v, gv, atol=1e-13)  # E Δ = ∇ℓ
    got = update_noise_ratio(u, v, c, q_alpha, 1, np.random.default_rng(1), 400_000)
    assert got["mean_sq"] == pytest.approx((gu**2).sum() + (gv**2).sum(), rel=1e-12)
    assert got["second_moment"] == pytest.approx(second, rel=0.01)
    assert got["ratio"] == pytest.approx((second - got["mean_sq"]) / got["mean_sq"], rel=0.02)
