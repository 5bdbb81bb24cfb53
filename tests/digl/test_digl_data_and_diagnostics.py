"""The offline GOOD-Motif / SP-Motif generators and the invariance diagnostics."""

import networkx as nx
import numpy as np
import pytest

from icml26.digl import BASES, good_motif, load_split, motif_graph, spurious_motif
from icml26.digl.diagnostics import env_probe, env_w2


def test_motif_graph_structure_and_node_order():
    rng = np.random.default_rng(0)
    g = motif_graph("path", "house", 8, rng)
    assert sorted(g.nodes()) == list(range(13)) and nx.is_connected(g)
    motif = g.subgraph(range(8, 13))
    assert motif.number_of_edges() == 6 and sorted(d for _, d in motif.degree()) == [2, 2, 2, 3, 3]
    cycle = motif_graph("wheel", "dircycle", 6, rng).subgraph(range(6, 11))
    assert nx.is_isomorphic(cycle, nx.cycle_graph(5))
    # a tree of width w has height max(1, int(log2 w) - 1), as GOOD: width 8 -> height 2 (7 nodes), 7 -> 1 (3)
    assert motif_graph("tree", "crane", 8, rng).number_of_nodes() == 7 + 5
    assert motif_graph("tree", "crane", 7, rng).number_of_nodes() == 3 + 5


def test_covariate_split_has_the_good_bases_per_part():
    s = good_motif("covariate", 0, n_train=150, n_val=30, n_test=30, n_id_val=30)
    assert set(s.train.base) <= {0, 1, 2} and np.array_equal(s.train.env, s.train.base)
    assert set(s.val.base) == {BASES.index("star")} and set(s.test.base) == {BASES.index("path")}
    assert s.val.env is None and len(s.train) == 150


def test_concept_split_spurious_rates_and_label_noise():
    s = good_motif("concept", 1, n_train=1500, n_val=300, n_test=300, n_id_val=3)
    # base = motif at the rate r, else uniform: P(base = motif) = r + (1 - r) / 3; labels carry 10% noise
    for e, r in enumerate((0.99, 0.97, 0.95)):
        tie = np.mean(s.train.base[s.train.env == e] == s.train.y[s.train.env == e])
        assert tie == pytest.approx(0.9 * (r + (1 - r) / 3) + 0.1 / 3, abs=0.04)
    assert np.mean(s.test.base == s.test.y) == pytest.approx(1 / 3, abs=0.08)
    assert np.mean(s.val.base == s.val.y) == pytest.approx(0.3 + 0.7 / 3, abs=0.09)


def test_spurious_motif_bias_levels_and_reproducibility():
    s = spurious_motif(0.9, 2, n_train=1500, n_val=3, n_test=300, n_id_val=3)
    for e, b in enumerate((0.9, 0.8, 0.7)):  # no label noise: the label is the motif
        assert np.mean(s.train.base[s.train.env == e] == s.train.y[s.train.env == e]) == pytest.approx(
            b, abs=0.05
        )
    assert np.mean(s.test.base == s.test.y) == pytest.approx(1 / 3, abs=0.08)
    again = spurious_motif(0.9, 2, n_train=1500, n_val=3, n_test=300, n_id_val=3)
    assert np.array_equal(again.train.y, s.train.y) and all(
        nx.utils.graphs_equal(a, b) for a, b in zip(again.test.graphs[:20], s.test.graphs[:20], strict=True)
    )
    assert not np.array_equal(spurious_motif(0.9, 3, n_train=30, n_val=3, n_test=3).train.y, s.train.y[:30])


def test_generators_reject_bad_input():
    with pytest.raises(ValueError, match="shift must be 'covariate' or 'concept'"):
        good_motif("size", 0)
    with pytest.raises(ValueError, match="b must be a number in"):
        spurious_motif(0.1, 0)
    with pytest.raises(ValueError, match="n_train must be an integer >= 30"):
        good_motif("concept", 0, n_train=5)
    with pytest.raises(ValueError, match="unknown split"):
        load_split("good_motif_size", 0)
    with pytest.raises(ValueError, match="unknown motif"):
        motif_graph("path", "star", 5, np.random.default_rng(0))


def test_env_w2_is_zero_for_identical_environments_and_scale_free():
    rng = np.random.default_rng(0)
    z = rng.normal(size=(20, 3))
    y = np.tile([0, 1], 10)
    same = np.concatenate([z, z])
    env = np.repeat([0, 1], 20)
    assert env_w2(same, np.tile(y, 2), env) == pytest.approx(0.0, abs=1e-6)
    apart = np.concatenate([z, z + 2.0])
    d = env_w2(apart, np.tile(y, 2), env)
    assert d > 0.5 and env_w2(10 * apart, np.tile(y, 2), env) == pytest.approx(d)


def test_env_probe_finds_environment_information_only_where_it_is():
    rng = np.random.default_rng(1)
    y, env = np.tile([0, 1], 60), np.repeat([0, 1], 60)
    noise = rng.normal(size=(120, 4))
    acc, major = env_probe(noise, y, env)
    assert major == pytest.approx(0.5) and acc - major < 0.2
    leaky = noise + 5.0 * env[:, None]
    acc, _ = env_probe(leaky, y, env)
    assert acc > 0.95
    with pytest.raises(ValueError, match="z must be"):
        env_probe(noise, y[:5], env)
