"""The sparse engine (sparse.py) equals the dense one on small graphs; the sparse SBM sampler's statistics."""

import networkx as nx
import numpy as np
import pytest

from icml26.deepwalk_dynamics import (
    SGNSConfig,
    SparseSGNSMatrix,
    initial_embeddings,
    linearised_gd,
    sbm_graph,
    sgns_matrix,
    sparse_linearised_gd,
    sparse_sbm,
    sparse_top_eigenspace,
    top_eigenspace,
)


@pytest.fixture(scope="module")
def sbm():
    return sbm_graph([30, 30, 30], 0.3, 0.04, seed=7)[0]


@pytest.mark.parametrize(("T", "b", "alpha"), [(5, 1, 1.0), (3, 2, 0.75), (1, 1, 1.0)])
def test_operator_equals_dense_m(sbm, T, b, alpha):
    m = sgns_matrix(sbm, T, b, alpha)
    op = SparseSGNSMatrix(sbm, T, b, alpha)
    x = np.random.default_rng(0).standard_normal((90, 4))
    np.testing.assert_allclose(op.matmat(x), m @ x, rtol=0, atol=1e-14 * np.abs(m @ x).max() + 1e-18)
    np.testing.assert_allclose(op.rmatmat(x), m.T @ x, rtol=0, atol=1e-14 * np.abs(m @ x).max() + 1e-18)
    np.testing.assert_allclose(op.matmat(x[:, 0]), m @ x[:, 0], rtol=1e-12)


def test_eigenspace_equals_dense(sbm):
    dense = top_eigenspace(sgns_matrix(sbm, 5, 1, 1.0), 8, k=2)
    sparse = sparse_top_eigenspace(SparseSGNSMatrix(sbm, 5, 1, 1.0), 2)
    assert sparse.k == dense.k == 2
    np.testing.assert_allclose(sparse.values, dense.values[:2], rtol=1e-8)
    assert sparse.gap_ratio == pytest.approx(dense.gap_ratio, rel=1e-8)
    proj = sparse.basis @ sparse.basis.T - dense.basis @ dense.basis.T
    assert np.abs(proj).max() < 1e-7


def test_linear_trajectory_equals_dense(sbm):
    cfg = SGNSConfig(dim=4, init_scale=1e-3, seed=2)
    u0, v0 = initial_embeddings(90, cfg)
    m = sgns_matrix(sbm, 5, 1, 1.0)
    eta = 0.7 / np.abs(np.linalg.eigvalsh(m)).max()
    dense = list(linearised_gd(m, u0, v0, eta, 30, 7))
    sparse = list(sparse_linearised_gd(SparseSGNSMatrix(sbm, 5, 1, 1.0), u0, v0, eta, 30, 7))
    assert [s for s, _, _ in dense] == [s for s, _, _ in sparse] == [0, 7, 14, 21, 28, 30]
    for (_, ud, vd), (_, us, vs) in zip(dense, sparse, strict=True):
        np.testing.assert_allclose(us, ud, rtol=1e-10, atol=1e-16)
        np.testing.assert_allclose(vs, vd, rtol=1e-10, atol=1e-16)
    assert np.linalg.norm(dense[-1][1]) > 2 * np.linalg.norm(u0)  # it moved


def test_networkx_input_in_sorted_order():
    g = nx.Graph([(3, 1), (1, 2), (2, 0), (0, 3), (3, 2)])
    h = nx.relabel_nodes(g, {v: i for i, v in enumerate(sorted(g))})
    x = np.arange(8.0).reshape(4, 2)
    np.testing.assert_allclose(SparseSGNSMatrix(g, 2, 1, 1.0).matmat(x), sgns_matrix(h, 2, 1, 1.0) @ x)


def test_sparse_sbm_statistics():
    a, labels = sparse_sbm([2000, 2000, 2000], 0.01, 0.002, seed=1)
    assert a.shape == (6000, 6000) and (a != a.T).nnz == 0 and a.diagonal().sum() == 0
    assert set(np.unique(a.data)) == {1.0}
    same = labels[:, None] == labels[None, :]
    dense = a.toarray()
    inside = dense[same].sum() / 2 / (3 * 2000 * 1999 / 2)
    across = dense[~same].sum() / 2 / (3 * 2000 * 2000)
    assert inside == pytest.approx(0.01, rel=0.03)  # ~60k edges: 3 sd is about 1.2%
    assert across == pytest.approx(0.002, rel=0.03)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda g: SparseSGNSMatrix(g, 0, 1, 1.0), "window T"),
        (lambda g: SparseSGNSMatrix(g, 5, 0, 1.0), "negatives"),
        (lambda g: SparseSGNSMatrix(nx.DiGraph([(0, 1), (1, 0)]), 5, 1, 1.0), "directed"),
        (lambda g: sparse_top_eigenspace(SparseSGNSMatrix(g, 5, 1, 0.75), 2), "alpha = 1"),
        (lambda g: sparse_top_eigenspace(SparseSGNSMatrix(g, 5, 1, 1.0), 0), "k must be"),
        (lambda g: SparseSGNSMatrix(g, 5, 1, 1.0).matmat(np.ones((3, 2))), "rows"),
        (lambda g: sparse_sbm([10, 10], 1.5, 0.1, 0), "probability"),
    ],
)
def test_bad_input(sbm, call, match):
    with pytest.raises(ValueError, match=match):
        call(sbm)
