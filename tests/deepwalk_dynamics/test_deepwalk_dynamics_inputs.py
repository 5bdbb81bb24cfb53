"""Bad input: one clear error naming what was wrong."""

import networkx as nx
import numpy as np
import pytest

from icml26.deepwalk_dynamics import (
    SGNSConfig,
    adjacency,
    alignment,
    deepwalk_trajectory,
    sbm_graph,
    sgns_matrix,
    top_eigenspace,
)
from icml26.deepwalk_dynamics.experiment import EXPERIMENT, check, parse_cell


def test_graph_errors():
    g = nx.path_graph(4)
    g.add_node(9)
    with pytest.raises(ValueError, match="isolated node"):
        adjacency(g)
    with pytest.raises(ValueError, match="directed"):
        adjacency(nx.DiGraph([(0, 1), (1, 0)]))
    with pytest.raises(ValueError, match="directed"):
        adjacency(np.array([[0, 1.0], [0, 0]]))
    neg = nx.Graph()
    neg.add_edge(0, 1, weight=-1.0)
    neg.add_edge(1, 2)
    with pytest.raises(ValueError, match="negative weight"):
        adjacency(neg)
    with pytest.raises(ValueError, match="multigraph"):
        adjacency(nx.MultiGraph([(0, 1), (0, 1)]))
    with pytest.raises(TypeError, match="networkx.Graph"):
        adjacency([[0, 1], [1, 0]])
    with pytest.raises(ValueError, match="square"):
        adjacency(np.ones((2, 3)))
    bad = nx.Graph()
    bad.add_edge(0, 1, weight="heavy")
    with pytest.raises(ValueError, match="non-numeric weight"):
        adjacency(bad)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"dim": 0}, "dim"),
        ({"window": 0}, "window"),
        ({"negatives": 0}, "negatives"),
        ({"step_size": 0.0}, "step_size"),
        ({"step_size": -1.0}, "step_size"),
        ({"init_scale": 0.0}, "init_scale"),
        ({"init": "xavier"}, "init"),
        ({"alpha": float("nan")}, "alpha"),
        ({"dim": 2.5}, "dim"),
        ({"min_step_size": 1.0}, "min_step_size"),
    ],
)
def test_config_errors(kwargs, match):
    with pytest.raises(ValueError, match=match):
        SGNSConfig(**kwargs)


def test_trajectory_errors():
    a, labels = sbm_graph([10, 10], 0.6, 0.1, seed=0)
    with pytest.raises(ValueError, match="engine"):
        deepwalk_trajectory(a, SGNSConfig(dim=2), "adam")
    with pytest.raises(TypeError, match="SGNSConfig"):
        deepwalk_trajectory(a, {"dim": 2})
    with pytest.raises(ValueError, match="dim d = 30"):
        deepwalk_trajectory(a, SGNSConfig(dim=30))
    with pytest.raises(ValueError, match="labels"):
        deepwalk_trajectory(a, SGNSConfig(dim=2), labels=labels[:5])
    with pytest.raises(ValueError, match="steps"):
        deepwalk_trajectory(a, SGNSConfig(dim=2), steps=0)
    with pytest.raises(ValueError, match="pairs_per_step"):
        deepwalk_trajectory(a, SGNSConfig(dim=2), pairs_per_step=-3.0)
    with pytest.raises(ValueError, match="walk length"):
        deepwalk_trajectory(a, SGNSConfig(dim=2), "sgd", walk_length=1)
    with pytest.raises(FloatingPointError, match="diverged"):
        deepwalk_trajectory(a, SGNSConfig(dim=2, init_scale=1.0), steps=50, pairs_per_step=1e12)


def test_matrix_and_metric_errors():
    a, _ = sbm_graph([10, 10], 0.6, 0.1, seed=0)
    with pytest.raises(ValueError, match="window T"):
        sgns_matrix(a, 0, 1, 1.0)
    with pytest.raises(ValueError, match="b \\(negatives"):
        sgns_matrix(a, 2, 0, 1.0)
    with pytest.raises(ValueError, match="dim"):
        top_eigenspace(np.eye(4), 4)
    with pytest.raises(ValueError, match="zero"):
        alignment(np.zeros((4, 2)), np.eye(4)[:, :1])
    with pytest.raises(ValueError, match="probabilit"):
        sbm_graph([10, 10], 1.5, 0.1, seed=0)
    with pytest.raises(ValueError, match="block sizes"):
        sbm_graph([10, 0], 0.5, 0.1, seed=0)


def test_experiment_config_errors():
    good = dict(EXPERIMENT.profiles["smoke"])
    for key, value, match in (
        ("seeds", 1, "seeds"),
        ("init_scales", [1e-4, 0.1], "1.0"),
        ("q", 0.5, "q < p"),
        ("grid_cells", ["3x:0.1"], "grid cell"),
        ("walk_length", 1, "walk_length"),
        ("alpha", float("inf"), "alpha"),
        ("alpha", float("nan"), "alpha"),
        ("grid_cells", ["3x5:1.0:0.0"], "K \\* size"),
        ("large_block_size", 5, "large_block_size"),
        ("fine_step_size", 0.0, "fine_step_size"),
        ("fine_walks_per_node", 0, "fine_walks_per_node"),
        ("sparse_sizes", [100], "sparse_sizes"),
        ("sparse_steps", 0, "sparse_steps"),
    ):
        with pytest.raises(ValueError, match=match):
            check(good | {key: value})
    assert parse_cell("dc3x100:0.10:0.02") == (True, 3, 100, 0.10, 0.02)


def test_baseline_errors():
    from icml26.deepwalk_dynamics import kmeans_ari, netmf_embedding, normalized_adjacency_embedding

    a, labels = sbm_graph([10, 10], 0.6, 0.1, seed=0)
    with pytest.raises(ValueError, match="dim"):
        netmf_embedding(a, 3, 1, 0)
    with pytest.raises(ValueError, match="window"):
        netmf_embedding(a, 0, 1, 2)
    with pytest.raises(ValueError, match="k \\(eigenvectors\\)"):
        normalized_adjacency_embedding(a, 0)
    with pytest.raises(ValueError, match="one row per label"):
        kmeans_ari(np.ones((5, 2)), labels)
    with pytest.raises(ValueError, match="seed"):
        sbm_graph([10, 10], 0.5, 0.1, seed="a")
