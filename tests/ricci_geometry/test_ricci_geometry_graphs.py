"""Geometric graphs, Thm 3.1's preservation bound, networks, datasets and community measures."""

import networkx as nx
import numpy as np
import pytest
import torch

from icml26.ricci_geometry import (
    MLP,
    class_modularity,
    curvature_gap,
    edge_jaccard,
    feature_graphs,
    knn_graph,
    knn_margin,
    layer_features,
    linear_preservation_delta,
    linear_preservation_width,
    load_dataset,
    normalized_cut,
    octahedral_clusters,
    octahedral_margin,
    random_layer_features,
    relu_limit_knn_graph,
    relu_limit_sq_distances,
    same_knn_lists,
    train_mlp,
    unit_ball_points,
)

pytestmark = pytest.mark.usefixtures("one_torch_thread")


def test_knn_graph_symmetric_unweighted_min_degree():
    X = np.random.default_rng(0).normal(size=(60, 3))
    A = knn_graph(X, 7)
    assert (A != A.T).nnz == 0
    assert set(np.unique(A.data)) == {1.0}
    assert A.diagonal().sum() == 0
    assert np.diff(A.indptr).min() >= 7


def test_knn_graph_on_a_line_by_hand():
    # Points 0, 1, 3, 7 with k = 1: nearest neighbours 1, 0, 1, 3 -> edges {0,1}, {1,3}, {3,7}.
    A = knn_graph(np.array([0.0, 1.0, 3.0, 7.0]), 1)
    assert sorted(zip(*A.nonzero())) == [(0, 1), (1, 0), (1, 2), (2, 1), (2, 3), (3, 2)]


def test_thm31_margin_and_width_by_hand():
    # Line 0, 1, 3, k = 1: ratios 8/10, 3/5, 5/13 -> eps = 5/13.
    assert knn_margin(np.array([0.0, 1.0, 3.0]), 1) == pytest.approx(5 / 13)
    assert linear_preservation_width(10, 0.5, 0.1) == pytest.approx(32 * np.log(900))


def test_identity_network_keeps_knn_graph_relu_rewires():
    # Thm 3.1 (statistical, fixed seeds): a wide random linear net nearly preserves the kNN graph.
    X = load_dataset("syn1", 2, 150, seed=0)[2]
    A = knn_graph(X, 5)
    kept = {}
    for act in ("identity", "relu"):
        torch.manual_seed(0)
        net = MLP(2, 1000, 2, act)
        kept[act] = edge_jaccard(A, knn_graph(layer_features(net, X)[-2], 5))
    assert kept["identity"] >= 0.9
    assert kept["relu"] < kept["identity"]


def test_feature_graphs_one_per_layer():
    torch.manual_seed(0)
    net = MLP(2, 8, 3)
    graphs = feature_graphs(net, np.random.default_rng(0).normal(size=(30, 2)), 4)
    assert len(graphs) == 3 + 2
    assert all(G.shape == (30, 30) for G in graphs)


def test_train_mlp_reaches_target_and_tracks():
    Xtr, ytr, _, _ = load_dataset("syn1", 200, 10, seed=0)
    calls = []
    fit = train_mlp(
        Xtr,
        ytr,
        16,
        3,
        seed=0,
        target_accuracy=0.95,
        max_epochs=3000,
        track_every=50,
        track=lambda m, e: calls.append(e) or {"e": float(e)},
    )
    assert fit.reached_target and fit.train_accuracy >= 0.95
    assert calls[0] == 0 and all(c % 50 == 0 for c in calls)
    again = train_mlp(Xtr, ytr, 16, 3, seed=0, target_accuracy=0.95, max_epochs=3000)
    assert again.epochs == fit.epochs  # seeded: repeatable


@pytest.mark.parametrize("name", ["syn1", "syn2", "syn3", "syn4", "digits"])
def test_datasets_shapes_and_labels(name):
    Xtr, ytr, Xte, yte = load_dataset(name, 60, 40, seed=1)
    assert Xtr.shape[0] == ytr.shape[0] and Xte.shape == (40, Xtr.shape[1])
    assert set(np.unique(np.concatenate([ytr, yte]))) == {0.0, 1.0}
    if name == "digits":
        assert yte.sum() == 20  # balanced test set


def test_community_measures_on_two_cliques():
    G = nx.disjoint_union(nx.complete_graph(5), nx.complete_graph(5))
    G.add_edge(0, 5)
    A = nx.to_scipy_sparse_array(G, weight=None, format="csr")
    y = np.array([0] * 5 + [1] * 5)
    m = 21  # edges
    expected_q = 2 * (10 / m - (21 / (2 * m)) ** 2)  # each side: 10 inner edges, degree sum 21
    assert class_modularity(A, y) == pytest.approx(expected_q)
    assert normalized_cut(A, y) == pytest.approx(0.5 * (1 / 21 + 1 / 21))
    assert curvature_gap(A, y, "augmented_forman") > 0


def test_bad_inputs():
    X = np.random.default_rng(0).normal(size=(10, 2))
    with pytest.raises(ValueError, match="k must satisfy 1 <= k < n"):
        knn_graph(X, 10)
    with pytest.raises(TypeError, match="k must be an int"):
        knn_graph(X, 2.5)
    bad = X.copy()
    bad[3, 1] = np.nan
    with pytest.raises(ValueError, match="non-finite"):
        knn_graph(bad, 3)
    with pytest.raises(TypeError, match="numpy array or torch tensor"):
        knn_graph([[0.0, 1.0]], 1)
    with pytest.raises(ValueError, match="y must have shape"):
        train_mlp(X, np.zeros(9), 4, 2)
    with pytest.raises(ValueError, match="binary labels"):
        train_mlp(X, np.full(10, 2.0), 4, 2)
    with pytest.raises(ValueError, match="activation must be one of"):
        MLP(2, 4, 2, "gelu")
    with pytest.raises(ValueError, match="labels y must have shape"):
        class_modularity(knn_graph(X, 3), np.zeros(9))
    with pytest.raises(ValueError, match="same number of nodes"):
        edge_jaccard(knn_graph(X, 3), knn_graph(X[:9], 3))
    with pytest.raises(ValueError, match="dataset must be one of"):
        load_dataset("cifar", 10, 10)
    with pytest.raises(ValueError, match="eps must lie in"):
        linear_preservation_width(10, 1.5, 0.1)
    with pytest.raises(TypeError, match="features"):
        feature_graphs(torch.nn.Linear(2, 2), X, 3)


def test_mismatched_model_input():
    torch.manual_seed(0)
    with pytest.raises(ValueError, match="does not match the model's input dimension"):
        feature_graphs(MLP(3, 4, 2), np.zeros((10, 2)), 3)


def test_random_linear_layer_keeps_knn_graph_relu_converges_elsewhere():
    # Thm 3.1 / App. A.4.1 setting (fixed seeds): a wide N(0, 1/m) linear layer keeps the kNN graph;
    # ReLU on the same layer converges to the arc-cosine-kernel graph, which differs from the input's.
    X = unit_ball_points(40, seed=0)
    A = knn_graph(X, 4)
    F = random_layer_features(X, 200_000, "identity", 0)
    R = random_layer_features(X, 200_000, "relu", 0)
    assert np.allclose(R, np.maximum(F, 0.0))  # same draw of A for the same seed
    assert edge_jaccard(A, knn_graph(F, 4)) >= 0.97
    limit = relu_limit_knn_graph(X, 4)
    assert edge_jaccard(A, limit) < 0.95
    assert edge_jaccard(limit, knn_graph(R, 4)) > edge_jaccard(A, knn_graph(R, 4))
    assert same_knn_lists(X, 3.0 * X + 1.0, 4)  # similarity maps keep every kNN list
    assert not same_knn_lists(X, R, 4)


def test_relu_limit_distance_by_hand_and_by_sampling():
    # x = (1, 0), y = (0, 1), z = (2, 0): θ(x, y) = θ(y, z) = π/2, θ(x, z) = 0, so
    # d²(x, y) = 1 − 1/π, d²(x, z) = ½, d²(y, z) = 5/2 − 2/π.
    X = np.array([[1.0, 0.0], [0.0, 1.0], [2.0, 0.0]])
    D = relu_limit_sq_distances(X)
    assert D[0, 1] == pytest.approx(1 - 1 / np.pi)
    assert D[0, 2] == pytest.approx(0.5)
    assert D[1, 2] == pytest.approx(2.5 - 2 / np.pi)
    R = random_layer_features(X, 400_000, "relu", 3)
    sampled = ((R[:, None, :] - R[None, :, :]) ** 2).sum(-1)
    assert np.allclose(sampled, D, rtol=0.02, atol=1e-9)


def test_unit_ball_points_and_random_layer_bad_input():
    X = unit_ball_points(100, seed=1)
    assert X.shape == (100, 3) and np.all(np.linalg.norm(X, axis=1) <= 1.0)
    with pytest.raises(ValueError, match="n must be an integer >= 2"):
        unit_ball_points(1)
    with pytest.raises(ValueError, match="width must be a positive integer"):
        random_layer_features(X, 0)
    with pytest.raises(ValueError, match="activation must be 'identity' or 'relu'"):
        random_layer_features(X, 10, "tanh")
    with pytest.raises(ValueError, match="same points"):
        same_knn_lists(X, X[:50], 3)


def test_octahedral_clusters_margin_and_theorem_width():
    # Closed-form margin at k = 5: ((1 - r)^2 - r^2) / ((1 - r)^2 + r^2); r = 0.49 gives 0.04.
    for r in (0.2, 0.4, 0.49):
        X = octahedral_clusters(r)
        assert X.shape == (48, 3)
        assert knn_margin(X, 5) == pytest.approx(octahedral_margin(r), rel=1e-9)
        assert octahedral_margin(r) == pytest.approx(((1 - r) ** 2 - r**2) / ((1 - r) ** 2 + r**2))
        A = knn_graph(X, 5)
        assert np.diff(A.indptr).min() == 5 and np.diff(A.indptr).max() == 5  # kNN = its own cluster
    eps = octahedral_margin(0.49)
    assert eps == pytest.approx(0.04, abs=1e-4)
    m = linear_preservation_width(48, eps, 0.1)
    assert 2.6e4 < m < 2.62e4
    assert linear_preservation_delta(48, eps, m) == pytest.approx(0.1)  # the inverse in delta
    assert linear_preservation_delta(48, eps, 1.0) > 1.0  # narrow widths: a vacuous bound
    with pytest.raises(ValueError, match="radius must be a number in"):
        octahedral_clusters(0.5)
    with pytest.raises(ValueError, match="width must be positive"):
        linear_preservation_delta(48, eps, 0.0)


def test_thm31_holds_on_octahedral_clusters_and_relu_is_not_covered():
    # Fixed seed: at the theorem's width (delta = 0.1) every one of 20 linear draws keeps all kNN lists;
    # at 1/4096 of it (width 6, twice the input dimension) most do not; ReLU of the same draws converges to a different graph.
    X = octahedral_clusters(0.49)
    m = int(np.ceil(linear_preservation_width(48, octahedral_margin(0.49), 0.1)))
    rng = np.random.default_rng(0)
    wide = [random_layer_features(X, m, "identity", rng) for _ in range(20)]
    assert all(same_knn_lists(X, F, 5) for F in wide)
    assert sum(same_knn_lists(X, np.maximum(F, 0.0), 5) for F in wide) <= 2
    narrow = [random_layer_features(X, m // 4096, "identity", rng) for _ in range(20)]
    assert sum(same_knn_lists(X, F, 5) for F in narrow) <= 15
    assert edge_jaccard(knn_graph(X, 5), relu_limit_knn_graph(X, 5)) < 0.95
