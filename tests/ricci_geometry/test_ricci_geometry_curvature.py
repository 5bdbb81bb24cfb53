"""Exact curvatures on graphs solved by hand: complete graphs, cycles, tree edges and the diamond."""

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

from icml26.ricci_geometry import CURVATURES, curvature, triangles_per_edge


def adj(G: nx.Graph) -> sp.csr_matrix:
    return nx.to_scipy_sparse_array(G, nodelist=sorted(G.nodes), weight=None, format="csr")


def edge_values(K: sp.csr_matrix) -> np.ndarray:
    return K.tocoo().data


@pytest.mark.parametrize("n", [3, 4, 6, 9])
def test_complete_graph_every_kind(n):
    A = adj(nx.complete_graph(n))
    expected = {
        "forman": 6.0 - 2 * n,  # 4 - 2(n-1)
        "augmented_forman": float(n),  # 4 - 2(n-1) + 3(n-2)
        "approx_ollivier": (n - 2) / (n - 1),  # the bounds coincide on K_n
        "ollivier": (n - 2) / (n - 1),  # move 1/(n-1) across one edge
    }
    for kind, value in expected.items():
        K = curvature(A, kind)
        assert K.nnz == n * (n - 1)
        np.testing.assert_allclose(edge_values(K), value, atol=1e-12, err_msg=kind)


@pytest.mark.parametrize("n", [4, 5, 8])
def test_cycles_are_flat(n):
    A = adj(nx.cycle_graph(n))
    for kind in CURVATURES:
        np.testing.assert_allclose(edge_values(curvature(A, kind)), 0.0, atol=1e-12, err_msg=kind)


@pytest.mark.parametrize(("a", "b"), [(1, 2), (2, 2), (3, 3), (4, 3), (5, 2)])
def test_tree_edge_every_kind(a, b):
    # Double star: centres 0 and 1 joined, with a-1 and b-1 leaves; (0, 1) has degrees a, b and no triangle.
    G = nx.Graph([(0, 1)])
    G.add_edges_from((0, 10 + i) for i in range(a - 1))
    G.add_edges_from((1, 100 + i) for i in range(b - 1))
    A = adj(G)
    i, j = sorted(G.nodes).index(0), sorted(G.nodes).index(1)
    base = max(1 - 1 / a - 1 / b, 0.0)
    expected = {
        "forman": 4 - a - b,
        "augmented_forman": 4 - a - b,
        "approx_ollivier": -base,
        "ollivier": -2 * base,
    }
    for kind, value in expected.items():
        K = curvature(A, kind)
        assert K[i, j] == pytest.approx(value, abs=1e-12), kind
        assert K[j, i] == pytest.approx(value, abs=1e-12), kind


def test_diamond_hand_computed():
    # K_4 minus edge (2, 3): edge (0, 1) has degrees 3, 3 and 2 triangles; (0, 2) degrees 3, 2 and 1 triangle.
    G = nx.complete_graph(4)
    G.remove_edge(2, 3)
    A = adj(G)
    T = sp.csr_matrix((triangles_per_edge(A), A.indices, A.indptr), shape=A.shape)
    assert (T[0, 1], T[0, 2], T[1, 2]) == (2.0, 1.0, 1.0)
    expected = {
        "forman": {(0, 1): -2.0, (0, 2): -1.0},
        "augmented_forman": {(0, 1): 4.0, (0, 2): 2.0},
        "approx_ollivier": {(0, 1): 2 / 3, (0, 2): 1 / 3},
        "ollivier": {(0, 1): 2 / 3, (0, 2): 1 / 3},
    }
    for kind, values in expected.items():
        K = curvature(A, kind)
        for (i, j), value in values.items():
            assert K[i, j] == pytest.approx(value, abs=1e-12), (kind, i, j)


def test_triangles_per_edge_counts():
    A = adj(nx.complete_graph(5))
    np.testing.assert_array_equal(triangles_per_edge(A), np.full(20, 3.0))


def test_zero_curvature_edges_are_stored():
    A = adj(nx.cycle_graph(6))
    K = curvature(A, "forman")
    np.testing.assert_array_equal(K.indices, A.indices)
    np.testing.assert_array_equal(K.indptr, A.indptr)


def test_accepts_networkx_and_dense():
    G = nx.petersen_graph()
    K1 = curvature(G, "augmented_forman")
    K2 = curvature(nx.to_numpy_array(G), "augmented_forman")
    np.testing.assert_allclose(K1.toarray(), K2.toarray())
    np.testing.assert_allclose(K1.data, 4 - 3 - 3)  # 3-regular, triangle-free


def test_ollivier_bracketed_by_jost_liu_bounds():
    # Non-lazy Ollivier lies between Jost-Liu's lower bound and t / max(d) on every edge.
    G = nx.random_regular_graph(4, 20, seed=1)
    G.add_edges_from([(0, 5), (3, 9), (7, 11)])
    A = adj(G)
    exact = curvature(A, "ollivier").data
    approx = curvature(A, "approx_ollivier").data
    t = triangles_per_edge(A)
    deg = np.diff(A.indptr).astype(float)
    rows = np.repeat(np.arange(A.shape[0]), np.diff(A.indptr))
    dmax = np.maximum(deg[rows], deg[A.indices])
    upper = t / dmax
    lower = 2 * approx - upper
    assert np.all(exact <= upper + 1e-12)
    assert np.all(exact >= lower - 1e-12)


def test_bad_inputs():
    A = adj(nx.cycle_graph(5))
    with pytest.raises(ValueError, match="kind must be one of"):
        curvature(A, "ricci")
    with pytest.raises(TypeError, match="scipy sparse matrix"):
        curvature([[0, 1], [1, 0]], "forman")
    with pytest.raises(ValueError, match="symmetric"):
        curvature(sp.csr_matrix(np.array([[0, 1], [0, 0]])), "forman")
    with pytest.raises(ValueError, match="unweighted"):
        curvature(sp.csr_matrix(np.array([[0, 2.0], [2.0, 0]])), "forman")
    with pytest.raises(ValueError, match="self-loops"):
        curvature(sp.csr_matrix(np.eye(3)), "forman")
    with pytest.raises(ValueError, match="square"):
        curvature(sp.csr_matrix(np.ones((2, 3))), "forman")
    with pytest.raises(ValueError, match="distances must have shape"):
        curvature(A, "ollivier", distances=np.zeros((3, 3)))
