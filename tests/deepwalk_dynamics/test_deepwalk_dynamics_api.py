"""The estimator ``DeepWalkDynamics`` and the node-order convention ``sorted(G)`` (icml26.common.graphs)."""

import random

import networkx as nx
import numpy as np
import pytest

from icml26.common.graphs import labels_in_order, node_order
from icml26.deepwalk_dynamics import DeepWalkDynamics, SGNSConfig, adjacency, deepwalk_trajectory
from icml26.deepwalk_dynamics.real_graph import karate_graph


def _sbm_and_shuffled():
    g = nx.stochastic_block_model([25, 25], [[0.35, 0.03], [0.03, 0.35]], seed=5)
    edges = list(g.edges())
    random.Random(0).shuffle(edges)
    h = nx.Graph()
    h.add_edges_from(edges)  # the same graph, nodes inserted in another order
    assert list(h.nodes) != sorted(h) and set(h.edges) | {(v, u) for u, v in h.edges} >= set(g.edges)
    labels = {v: int(v >= 25) for v in h}  # a mapping in h's (shuffled) insertion order
    return g, h, labels


@pytest.mark.parametrize("engine", ["population", "sgd"])
def test_shuffled_edges_give_the_same_embedding_by_node(engine):
    g, h, labels = _sbm_and_shuffled()
    kw = dict(dim=4, engine=engine, steps=60, walks_per_node=4, walk_length=20, seed=2)
    a = DeepWalkDynamics(**kw).fit(g, labels)
    b = DeepWalkDynamics(**kw).fit(h, labels)
    assert a.nodes_ == b.nodes_ == sorted(g)
    for v in g:
        assert np.array_equal(a.embedding_[v], b.embedding_[v])
    assert np.array_equal(a.trajectory_.metrics["ari"][-1], b.trajectory_.metrics["ari"][-1])
    assert a.score(labels) == b.score(labels) > 0.9


def test_adjacency_rows_follow_sorted_nodes():
    g = nx.Graph([(3, 1), (1, 2), (2, 0)])
    assert list(g.nodes) == [3, 1, 2, 0]
    a = adjacency(g).toarray()
    assert a[1, 3] == 1 and a[0, 2] == 1 and a[0, 3] == 0  # row i is node sorted(G)[i] = i


def test_labels_mapping_equals_array_in_sorted_order():
    g, h, labels = _sbm_and_shuffled()
    cfg = SGNSConfig(dim=4, seed=1)
    by_map = deepwalk_trajectory(h, cfg, "population", labels=labels, steps=40, linearised=False)
    by_array = deepwalk_trajectory(
        h, cfg, "population", labels=[labels[v] for v in sorted(h)], steps=40, linearised=False
    )
    assert np.array_equal(by_map.metrics["ari"], by_array.metrics["ari"], equal_nan=True)
    assert np.array_equal(labels_in_order(labels, node_order(h)), np.array([labels[v] for v in sorted(h)]))


def test_a_label_list_is_refused_where_insertion_order_differs_from_sorted_order():
    """``[block[v] for v in G]`` follows insertion order: on a graph whose list(G) is not sorted(G) a
    sequence of labels is ambiguous and refused (it used to be read in sorted order: ARI 0.01, silently)."""
    g, h, labels = _sbm_and_shuffled()
    in_insertion_order = [labels[v] for v in h]
    with pytest.raises(ValueError, match="ambiguous.*mapping node -> label"):
        DeepWalkDynamics(dim=4, steps=10).fit(h, in_insertion_order)
    with pytest.raises(ValueError, match="ambiguous"):
        labels_in_order(in_insertion_order, node_order(h), list(h))
    est = DeepWalkDynamics(dim=4, steps=10).fit(h)
    with pytest.raises(ValueError, match="ambiguous"):
        est.score(in_insertion_order)
    # where insertion and sorted order agree, a sequence is unambiguous and accepted
    assert labels_in_order([labels[v] for v in g], node_order(g), list(g)).shape == (len(g),)


def test_estimator_api_and_karate():
    g, labels = karate_graph()
    est = DeepWalkDynamics(dim=8, walks_per_node=20, seed=0)
    assert est.get_params()["dim"] == 8 and est.set_params(dim=4) is est and est.dim == 4
    x = est.fit_transform(g, labels)
    assert x.shape == (34, 4) and set(est.embedding_) == set(g) and len(est.peak_embedding_) == 34
    assert np.array_equal(est.transform([5, 0]), np.stack([est.embedding_[5], est.embedding_[0]]))
    assert np.array_equal(x, est.embedding_array_)
    tr = est.trajectory_
    assert tr.metrics["alignment"].max() > 0.8 and tr.pairs[-1] == tr.pairs.max()
    assert -0.5 <= est.score(labels) <= 1.0
    assert g.number_of_edges() == 78 and not nx.get_edge_attributes(g, "weight")


def test_weighted_graph_is_supported():
    g = nx.Graph()
    g.add_weighted_edges_from([(0, 1, 2.0), (1, 2, 1.0), (2, 3, 3.0), (3, 0, 1.0), (0, 2, 0.5)])
    est = DeepWalkDynamics(dim=2, engine="population", steps=20).fit(g)
    assert est.embedding_array_.shape == (4, 2)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"window": 0}, "window"),
        ({"negatives": 0}, "negatives"),
        ({"init_scale": 0.0}, "init_scale"),
        ({"init_scale": -1e-3}, "init_scale"),
        ({"dim": 0}, "dim"),
        ({"engine": "torch"}, "engine must be one of"),
        ({"init": "xavier"}, "init must be one of"),
    ],
)
def test_estimator_rejects_bad_parameters(kwargs, match):
    with pytest.raises(ValueError, match=match):
        DeepWalkDynamics(**kwargs).fit(nx.cycle_graph(10))


def test_estimator_rejects_bad_graphs_and_labels():
    with pytest.raises(ValueError, match="directed"):
        DeepWalkDynamics(dim=2).fit(nx.DiGraph([(0, 1), (1, 2), (2, 0)]))
    with pytest.raises(ValueError, match="multigraph"):
        DeepWalkDynamics(dim=2).fit(nx.MultiGraph([(0, 1), (1, 2), (2, 0)]))
    with pytest.raises(ValueError, match="mutually sortable"):
        DeepWalkDynamics(dim=2).fit(nx.Graph([(0, "a"), ("a", 2), (2, 0)]))
    with pytest.raises(ValueError, match="miss 1 node"):
        DeepWalkDynamics(dim=2).fit(nx.cycle_graph(6), {i: i % 2 for i in range(5)})
    with pytest.raises(ValueError, match="not in the graph"):
        DeepWalkDynamics(dim=2).fit(nx.cycle_graph(6), {i: i % 2 for i in range(7)})
    with pytest.raises(ValueError, match="one label per node"):
        DeepWalkDynamics(dim=2).fit(nx.cycle_graph(6), [0, 1, 0])
    with pytest.raises(ValueError, match="not fitted"):
        DeepWalkDynamics().transform()
    est = DeepWalkDynamics(dim=2, engine="population", steps=5).fit(nx.cycle_graph(6))
    with pytest.raises(ValueError, match="not in the fitted graph"):
        est.transform([99])
