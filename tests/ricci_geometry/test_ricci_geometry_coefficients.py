"""Local, layer and global Ricci coefficients: hand-solved cases, NaN handling, vectorised == loop."""

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

from icml26.ricci_geometry import (
    curvature,
    expansion,
    global_ricci_coefficient,
    hop_distances,
    knn_graph,
    layer_ricci_coefficients,
    local_ricci_coefficients,
    local_ricci_coefficients_loop,
    pair_hop_distances,
    pearson_columns,
    ricci_coefficients,
    scalar_curvature,
)
from icml26.ricci_geometry.graphs import hop_distances_dijkstra


def adj(G: nx.Graph) -> sp.csr_matrix:
    return nx.to_scipy_sparse_array(G, nodelist=sorted(G.nodes), weight=None, format="csr")


C4, K4 = adj(nx.cycle_graph(4)), adj(nx.complete_graph(4))
SPLIT = adj(nx.Graph([(0, 1), (2, 3)]))  # two components


def test_pearson_columns_matches_numpy_and_nan_on_constant():
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=(6, 4)), rng.normal(size=(6, 4))
    expected = [np.corrcoef(a[:, j], b[:, j])[0, 1] for j in range(4)]
    np.testing.assert_allclose(pearson_columns(a, b), expected, atol=1e-12)
    const = np.ones((5, 1))
    assert np.isnan(pearson_columns(const, rng.normal(size=(5, 1)))[0])
    assert np.isnan(pearson_columns(rng.normal(size=(5, 1)), const * 3.0)[0])
    with_nan = rng.normal(size=(5, 1))
    with_nan[2] = np.nan
    assert np.isnan(pearson_columns(with_nan, rng.normal(size=(5, 1)))[0])
    assert pearson_columns([1.0, 2.0, 3.0], [3.0, 2.0, 1.0])[0] == pytest.approx(-1.0)


def test_hop_distances_match_dijkstra_and_inf_between_components():
    G = nx.connected_watts_strogatz_graph(40, 4, 0.2, seed=3)
    A = adj(G)
    np.testing.assert_array_equal(hop_distances(A), hop_distances_dijkstra(A))
    D = hop_distances(SPLIT)
    assert D[0, 1] == 1 and np.isinf(D[0, 2]) and D[2, 3] == 1


def test_scalar_curvature_and_expansion_by_hand():
    s = scalar_curvature(K4, curvature(K4, "augmented_forman"))
    np.testing.assert_allclose(s, 4.0)
    # K4 neighbours (3 of them, distance 1) measured in C4: distances 1, 1, 2 -> mean growth 1/3.
    np.testing.assert_allclose(expansion(K4, hop_distances(K4), hop_distances(C4)), 1 / 3)
    # Neighbours split apart by the next layer -> undefined.
    eta = expansion(K4, hop_distances(K4), hop_distances(SPLIT))
    assert np.all(np.isnan(eta))


def test_local_coefficient_hand_case():
    # C4 -> K4 -> C4 with AF: s = (0, 4), eta = (0, 1/3) for every point -> correlation +1 everywhere.
    rho = local_ricci_coefficients([C4, K4, C4], "augmented_forman")
    np.testing.assert_allclose(rho, 1.0)
    # The layer coefficient correlates across points, which are all alike here -> NaN (constant series).
    assert np.all(np.isnan(layer_ricci_coefficients([C4, K4, C4], "augmented_forman")))


def test_disconnected_layer_gives_nan():
    rho = local_ricci_coefficients([C4, K4, SPLIT], "forman")
    assert np.all(np.isnan(rho))
    assert np.isnan(global_ricci_coefficient([C4, K4, SPLIT]))


def test_global_coefficient_by_hand():
    # Forman totals: C4 -> 0, K4 -> 6 * (-2) = -12; g: C4 -> 8, K4 -> 6; diffs (-2, +2) -> Pearson -1.
    assert global_ricci_coefficient([C4, K4, C4]) == pytest.approx(-1.0)


@pytest.mark.parametrize("kind", ["forman", "augmented_forman", "approx_ollivier", "ollivier"])
def test_vectorised_equals_loop(kind):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(40, 3))
    feats = [
        X,
        np.tanh(X @ rng.normal(size=(3, 4))),
        np.maximum(X @ rng.normal(size=(3, 2)), 0),
        X[:, :1] ** 2,
    ]
    graphs = [knn_graph(F, 5) for F in feats]
    fast = local_ricci_coefficients(graphs, kind)
    slow = local_ricci_coefficients_loop(graphs, kind)
    np.testing.assert_allclose(fast, slow, atol=1e-10, equal_nan=True)
    assert np.isfinite(fast).sum() > 0


def test_ricci_analysis_summary_and_plots():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(30, 2))
    graphs = [knn_graph(F, 4) for F in (X, X * [1.0, 3.0], X**3, np.abs(X))]
    an = ricci_coefficients(graphs, "augmented_forman")
    assert an.local.shape == (30,) and an.layer.shape == (3,)
    assert an.scalar_curvature.shape == an.expansion.shape == (3, 30)
    summary = an.summary()
    assert set(summary) >= {"local_mean", "negative_share", "nan_share", "global"}
    assert 0.0 <= summary["negative_share"] <= 1.0
    assert {p.name for p in an.plots("x")} == {"x_layer", "x_local_sorted"}


def test_bad_inputs():
    with pytest.raises(ValueError, match="at least 3 layers"):
        local_ricci_coefficients([C4, K4])
    with pytest.raises(ValueError, match="same number of nodes"):
        local_ricci_coefficients([C4, K4, adj(nx.cycle_graph(5))])
    with pytest.raises(TypeError, match="list of adjacency"):
        local_ricci_coefficients(C4)
    with pytest.raises(ValueError, match="kind must be one of"):
        ricci_coefficients([C4, K4, C4], "scalar")
    with pytest.raises(ValueError, match="same 2-D shape"):
        pearson_columns(np.ones((3, 2)), np.ones((3, 3)))
    with pytest.raises(ValueError, match="D and D_next must have shape"):
        expansion(C4, np.zeros((3, 3)), np.zeros((4, 4)))
    with pytest.raises(ValueError, match="distances must hold one"):
        ricci_coefficients([C4, K4, C4], "forman", distances=[hop_distances(C4)])


def test_pair_distances_match_all_pairs():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(120, 2))
    A, B = knn_graph(X, 4), knn_graph(np.sin(3 * X), 4)
    rows = np.repeat(np.arange(120), np.diff(B.indptr))
    np.testing.assert_array_equal(pair_hop_distances(A, rows, B.indices), hop_distances(A)[rows, B.indices])
    np.testing.assert_array_equal(pair_hop_distances(SPLIT, [0, 0, 3], [1, 3, 3]), [1.0, np.inf, 0.0])
    with pytest.raises(ValueError, match="node indices"):
        pair_hop_distances(SPLIT, [0], [4])
    with pytest.raises(ValueError, match="equal length"):
        pair_hop_distances(SPLIT, [0, 1], [1])


def test_pair_path_equals_all_pairs_path():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(60, 3))
    graphs = [knn_graph(F, 6) for F in (X, np.maximum(X, 0), X[:, :2] * [1, 4], np.abs(X).sum(1))]
    full = ricci_coefficients(graphs, "approx_ollivier")
    np.testing.assert_allclose(
        local_ricci_coefficients(graphs, "approx_ollivier"), full.local, equal_nan=True
    )
    np.testing.assert_allclose(
        layer_ricci_coefficients(graphs, "approx_ollivier"), full.layer, equal_nan=True
    )


def test_analyse_untrained_network_shapes():
    import torch

    from icml26.ricci_geometry import MLP, analyse

    torch.manual_seed(0)
    an = analyse(MLP(2, 10, 3), np.random.default_rng(6).normal(size=(50, 2)), k=5)
    assert an.local.shape == (50,) and an.layer.shape == (4,)  # input, 3 hidden, output -> 4 transitions
    assert np.isfinite(an.mean_local)
