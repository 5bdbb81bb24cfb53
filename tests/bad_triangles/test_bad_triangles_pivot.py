"""Transversal -> clustering pivot, correlation-clustering baselines and the exact CC ILP."""

import networkx as nx
import numpy as np
import pytest

from icml26.bad_triangles import (
    bad_triangles,
    budget_pivot,
    clustering_mistakes,
    complete_from_positive,
    disagreements,
    exact_btt,
    exact_cc,
    flip_pivot,
    from_edges,
    is_transversal,
    kwik_cluster,
    lp_pivot,
    packing_3approx,
    planted_partition,
    random_minimal_transversal,
    transversal_to_clustering,
)


def _partitions(items):
    """All set partitions of ``items`` (Bell(n) of them)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in _partitions(rest):
        for i in range(len(part)):
            yield part[:i] + [[first, *part[i]]] + part[i + 1 :]
        yield [[first], *part]


def _brute_cc(g):
    best = np.inf
    for part in _partitions(list(range(g.n))):
        labels = np.empty(g.n, dtype=int)
        for c, block in enumerate(part):
            labels[block] = c
        best = min(best, disagreements(g, labels))
    return best


@pytest.fixture(scope="module")
def atlas_sample():
    graphs = [h for h in nx.graph_atlas_g() if 4 <= h.number_of_nodes() <= 7][::23]
    return [complete_from_positive(h) for h in graphs]


def test_exact_cc_matches_brute_force():
    for h in [h for h in nx.graph_atlas_g() if h.number_of_nodes() == 5][::4]:
        g = complete_from_positive(h)
        assert exact_cc(g).cost == pytest.approx(_brute_cc(g))


def test_mistakes_of_a_clustering_form_a_transversal(atlas_sample):
    rng = np.random.default_rng(0)
    for g in atlas_sample:
        labels = rng.integers(0, 3, size=g.n)
        assert is_transversal(g, clustering_mistakes(g, labels))


def test_pivot_three_halves_on_atlas(atlas_sample):
    """cost <= 3/2 |F| for optimal, packing and random minimal transversals; BTT* <= CC* <= 1.5 BTT*."""
    rng = np.random.default_rng(1)
    tested = 0
    for g in atlas_sample:
        tri = bad_triangles(g)
        opt = exact_btt(g, tri)
        cc = exact_cc(g)
        assert opt.cost <= cc.cost <= 1.5 * opt.cost + 1e-9
        for f in (opt, packing_3approx(g, tri), random_minimal_transversal(g, rng, tri)):
            if len(f) == 0:
                continue
            c = transversal_to_clustering(g, f.edge_ids)
            assert c.cost <= c.max_step_ratio * len(f) + 1e-9  # the per-step certificate
            assert c.cost <= 1.5 * len(f) + 1e-9
            tested += 1
    assert tested >= 30


def test_pivot_empty_transversal_gives_perfect_clustering():
    g = complete_from_positive(nx.disjoint_union(nx.complete_graph(3), nx.complete_graph(2)))
    c = transversal_to_clustering(g, [])
    assert c.cost == 0.0 and len(set(c.labels.tolist())) == 2


def test_flip_pivot_mean_within_twice_f():
    """Veldt: E[cost] <= 2|F| over random orders (mean of 200 orders, with slack for sampling)."""
    rng = np.random.default_rng(4)
    g = planted_partition(10, 3, 1.0, 0.3, rng)
    f = packing_3approx(g)
    costs = [flip_pivot(g, f.edge_ids, rng).cost for _ in range(200)]
    assert np.mean(costs) <= 2 * len(f)


def test_cc_baselines_are_valid_clusterings():
    rng = np.random.default_rng(8)
    g = planted_partition(10, 2, 1.0, 0.2, rng)
    best = exact_cc(g).cost
    for c in (kwik_cluster(g, rng), lp_pivot(g, rng)):
        assert c.labels.shape == (10,)
        assert c.cost == disagreements(g, c.labels) >= best


def test_pivot_bad_input():
    partial = from_edges([(0, 1, 1), (1, 2, 1)])
    with pytest.raises(ValueError, match="needs a complete signed graph"):
        transversal_to_clustering(partial, [])
    assert exact_cc(partial).cost == 0.0  # general graphs: the missing pair 0-2 costs nothing
    with pytest.raises(ValueError, match="needs a complete signed graph"):
        budget_pivot(partial, [], np.random.default_rng(0))
    g = complete_from_positive(nodes=range(3), positive_edges=[(0, 1), (1, 2)])
    with pytest.raises(ValueError, match="not a bad-triangle transversal"):
        transversal_to_clustering(g, [])
    with pytest.raises(ValueError, match=r"edge ids must lie in \[0, 3\)"):
        transversal_to_clustering(g, [7])
    with pytest.raises(TypeError, match="numpy Generator"):
        kwik_cluster(g, rng=3)
    with pytest.raises(ValueError, match=r"labels must have shape \(n,\)"):
        disagreements(g, np.zeros(5))
    with pytest.raises(ValueError, match="exact_cc is for small graphs"):
        exact_cc(complete_from_positive(nx.complete_graph(20)))
