"""Graphs, enumeration, LPs and the 2-approximations: exact small cases, invariants, statistics."""

from itertools import combinations

import networkx as nx
import numpy as np
import pytest

from icml26.bad_triangles import (
    bad_triangles,
    btt_2approx,
    complete_from_positive,
    cover_matrix,
    exact_btt,
    from_edges,
    from_networkx,
    highland_tribes,
    is_transversal,
    iter_bad_triangles,
    min_stc_2approx,
    min_stc_matching,
    packing_3approx,
    planted_partition,
    random_minimal_transversal,
    random_signed_graph,
    round_lp_threshold,
    solve_cover_lp,
    solve_cover_lp_mwu,
)


def _brute_triangles(g):
    """Bad triangles by checking every node triple (reference for the O(m^1.5) enumeration)."""
    out = set()
    for a, b, c in combinations(range(g.n), 3):
        ids = [g.edge_id(a, b), g.edge_id(a, c), g.edge_id(b, c)]
        if min(ids) >= 0 and int((g.sign[ids] < 0).sum()) == 1:
            out.add(frozenset(ids))
    return out


def _brute_opt(g):
    """Minimum-weight transversal by trying every edge subset (tiny graphs only)."""
    tri = bad_triangles(g)
    edges = sorted(set(np.unique(tri).tolist()))
    best = np.inf
    for r in range(len(edges) + 1):
        for subset in combinations(edges, r):
            if is_transversal(g, list(subset), tri):
                best = min(best, g.cost(subset))
    return best


@pytest.fixture(scope="module")
def random_graphs():
    rng = np.random.default_rng(7)
    graphs = [random_signed_graph(25, 0.3, 0.35, rng, weighted=bool(i % 2)) for i in range(6)]
    graphs += [planted_partition(30, 3, 0.35, 0.2, rng, weighted=bool(i % 2)) for i in range(6)]
    return graphs


def test_one_bad_triangle_exact():
    g = from_edges([(0, 1, 1), (1, 2, 1), (0, 2, -1)])
    tri = bad_triangles(g)
    assert tri.shape == (1, 3)
    assert g.sign[tri[0, 0]] == -1 and (g.sign[tri[0, 1:]] == 1).all()
    assert exact_btt(g).cost == 1.0
    assert solve_cover_lp(g).value == pytest.approx(1.0)
    assert btt_2approx(g).cost == 1.0
    assert packing_3approx(g).cost == 3.0  # the packing takes the whole triangle


def test_k4_one_negative_edge_exact():
    g = complete_from_positive(nodes=range(4), positive_edges=[(0, 2), (0, 3), (1, 2), (1, 3), (2, 3)])
    tri = bad_triangles(g)
    assert tri.shape[0] == 2
    neg = g.edge_id(0, 1)
    assert set(tri[:, 0].tolist()) == {neg}
    opt = exact_btt(g)
    assert opt.cost == 1.0 and opt.edge_ids.tolist() == [neg]
    assert solve_cover_lp(g).value == pytest.approx(1.0)
    alg = btt_2approx(g)
    assert alg.cost == 1.0 and alg.edge_ids.tolist() == [neg]


def test_weighted_triangle_prefers_cheap_edge():
    g = from_edges([(0, 1, 1, 1.0), (1, 2, 1, 4.0), (0, 2, -1, 10.0)])
    assert exact_btt(g).cost == 1.0
    assert btt_2approx(g).cost == 1.0


def test_balanced_graph_has_no_bad_triangle():
    g = complete_from_positive(nx.disjoint_union(nx.complete_graph(3), nx.complete_graph(4)))
    assert bad_triangles(g).shape == (0, 3)
    assert btt_2approx(g).cost == 0.0 and exact_btt(g).cost == 0.0


def test_enumeration_matches_brute_force_and_streams():
    rng = np.random.default_rng(3)
    for _ in range(5):
        g = random_signed_graph(14, 0.5, 0.4, rng)
        tri = bad_triangles(g)
        found = [frozenset(r) for r in tri.tolist()]
        assert len(found) == len(set(found))  # each bad triangle exactly once
        assert set(found) == _brute_triangles(g)
        chunks = list(iter_bad_triangles(g, chunk_size=3))
        assert all(c.shape[0] <= 3 for c in chunks)
        assert np.array_equal(np.concatenate(chunks) if chunks else np.zeros((0, 3)), tri)


def test_exact_btt_matches_brute_force():
    rng = np.random.default_rng(11)
    checked = 0
    while checked < 4:
        g = random_signed_graph(7, 0.7, 0.35, rng, weighted=checked % 2 == 1)
        if np.unique(bad_triangles(g)).size > 12:
            continue
        assert exact_btt(g).cost == pytest.approx(_brute_opt(g))
        checked += 1


def test_two_approx_bounds_on_random_graphs(random_graphs):
    for g in random_graphs:
        tri = bad_triangles(g)
        lp = solve_cover_lp(g, tri)
        opt = exact_btt(g, tri)
        alg = btt_2approx(g, triangles=tri)
        pack = packing_3approx(g, tri)
        assert is_transversal(g, alg.edge_ids, tri) and is_transversal(g, pack.edge_ids, tri)
        assert lp.value <= opt.cost + 1e-6
        assert alg.cost <= 2 * lp.value + 1e-6
        assert pack.lower_bound <= opt.cost + 1e-9 and pack.cost <= 3 * pack.lower_bound + 1e-9


def test_every_threshold_is_feasible_and_expectation_is_2lp(random_graphs):
    """(R) is feasible for every theta; for theta ~ U(0, 1/2] its mean cost matches the closed form
    E = sum_+ w min(1, 2x) + sum_- w x <= 2 w.x (Monte Carlo, 4000 draws, 4 standard errors)."""
    g = random_graphs[1]  # weighted
    tri = bad_triangles(g)
    lp = solve_cover_lp(g, tri)
    x = np.round(lp.x, 9)
    rng = np.random.default_rng(0)
    costs = []
    for theta in 0.5 * (1.0 - rng.random(4000)):  # uniform on (0, 1/2]
        f = round_lp_threshold(g, lp, tri, theta=float(theta))
        costs.append(f.cost)
    for theta in (1e-6, 0.25, 1 / 3, 0.5):
        assert is_transversal(g, round_lp_threshold(g, lp, tri, theta=theta).edge_ids, tri)
    pos = g.sign > 0
    expected = float((g.weight * np.where(pos, np.minimum(1.0, 2 * x), x)).sum())
    sem = np.std(costs) / np.sqrt(len(costs))
    assert abs(np.mean(costs) - expected) <= 4 * sem + 1e-9
    assert expected <= 2 * lp.value + 1e-6
    assert round_lp_threshold(g, lp, tri).cost <= min(costs) + 1e-9  # derandomized = best threshold


def test_rounding_of_suboptimal_points(random_graphs):
    eps = 0.2
    rng = np.random.default_rng(5)
    for g in random_graphs[:6]:
        tri = bad_triangles(g)
        lp = solve_cover_lp(g, tri)
        extra = np.zeros(g.m)
        pick = rng.choice(np.unique(tri), size=10, replace=False)
        extra[pick] = rng.random(10)
        extra *= eps * lp.value / (g.weight @ extra)
        for x in ((1 + eps) * lp.x, lp.x + extra):
            f = round_lp_threshold(g, x, tri)
            assert is_transversal(g, f.edge_ids, tri)
            assert f.cost <= 2 * (1 + eps) * lp.value + 1e-6


def test_mwu_is_feasible_and_certified(random_graphs):
    for g in random_graphs:
        tri = bad_triangles(g)
        exact = solve_cover_lp(g, tri).value
        sol = solve_cover_lp_mwu(g, tri, eps=0.1)
        cols, a = cover_matrix(g, tri)
        assert (a @ sol.x[cols]).min() >= 1 - 1e-9  # feasible
        assert sol.lower_bound <= exact + 1e-6 <= sol.value + 2e-6  # weak duality both ways
        assert sol.value <= 1.1 * sol.lower_bound + 1e-9  # the certificate the loop stops on
        f = btt_2approx(g, solver="mwu", eps=0.1, triangles=tri)
        assert is_transversal(g, f.edge_ids, tri) and f.cost <= 2 * 1.1 * exact + 1e-6


def test_float_noise_does_not_take_zero_negatives():
    """x_n = 1e-12 must count as 0: taking every such negative edge at theta = 1/2 would blow up the cost."""
    g = complete_from_positive(nodes=range(4), positive_edges=[(0, 1), (1, 2), (2, 3)])
    tri = bad_triangles(g)
    x = np.full(g.m, 1e-12)
    for row in tri:
        x[row[1:]] = 0.5
    f = round_lp_threshold(g, x, tri)
    assert (g.sign[f.edge_ids] > 0).all()
    assert f.cost <= 2 * float(g.weight @ np.round(x, 9)) + 1e-9


def test_min_stc_special_case():
    g = complete_from_positive(nx.karate_club_graph())
    tri = bad_triangles(g)
    f = min_stc_2approx(g, tri)
    lp = solve_cover_lp(g, tri, forbid_negative=True)
    assert (g.sign[f.edge_ids] > 0).all()  # negative edges are never deleted
    assert is_transversal(g, f.edge_ids, tri)
    assert f.cost <= 2 * lp.value + 1e-6
    m = min_stc_matching(g, tri)
    assert (g.sign[m.edge_ids] > 0).all() and is_transversal(g, m.edge_ids, tri)


def test_random_minimal_transversal_is_minimal():
    rng = np.random.default_rng(2)
    g = random_signed_graph(12, 0.6, 0.4, rng)
    tri = bad_triangles(g)
    f = random_minimal_transversal(g, rng, tri)
    assert is_transversal(g, f.edge_ids, tri)
    for e in f.edge_ids.tolist():
        assert not is_transversal(g, [d for d in f.edge_ids.tolist() if d != e], tri)


def test_highland_tribes_data():
    g = highland_tribes()
    assert (g.n, g.m) == (16, 58)
    assert int((g.sign > 0).sum()) == 29
    assert exact_btt(g).cost <= btt_2approx(g).cost <= 2 * solve_cover_lp(g).value + 1e-9


def test_networkx_round_trip():
    g = from_edges([("a", "b", 1, 2.0), ("b", "c", -1, 0.5)], nodes=["a", "b", "c", "d"])
    h = from_networkx(g.to_networkx(), weight="weight")
    assert h.nodes == ("a", "b", "c", "d")
    assert h.edge_labels(range(h.m)) == g.edge_labels(range(g.m))
    assert h.weight.tolist() == [2.0, 0.5] and h.is_weighted


@pytest.mark.parametrize(
    ("edges", "error", "match"),
    [
        ([(0, 0, 1)], ValueError, "self-loop"),
        ([(0, 1, 2)], ValueError, r"sign .* must be \+1 or -1"),
        ([(0, 1, "+")], TypeError, r"sign .* must be the number"),
        ([(0, 1, 1, -1.0)], ValueError, "weight .* finite and >= 0"),
        ([(0, 1, 1, float("nan"))], ValueError, "weight .* finite and >= 0"),
        ([(0, 1, 1), (1, 0, -1)], ValueError, "appears twice"),
        ([(0, 1)], ValueError, r"\(a, b, sign\)"),
    ],
)
def test_bad_graph_input(edges, error, match):
    with pytest.raises(error, match=match):
        from_edges(edges)


def test_bad_networkx_input():
    with pytest.raises(TypeError, match="undirected simple networkx.Graph"):
        from_networkx(nx.DiGraph([(0, 1)]))
    with pytest.raises(ValueError, match="has no 'sign' attribute"):
        from_networkx(nx.Graph([(0, 1)]))
    loop = nx.Graph()
    loop.add_edge(0, 0)
    with pytest.raises(ValueError, match="self-loop"):
        complete_from_positive(loop)


def test_bad_solver_and_rounding_input():
    g = from_edges([(0, 1, 1), (1, 2, 1), (0, 2, -1)])
    lp = solve_cover_lp(g)
    with pytest.raises(ValueError, match=r"theta must be a number in \(0, 1/2\]"):
        round_lp_threshold(g, lp, theta=0.7)
    with pytest.raises(ValueError, match=r"x must have shape \(m,\)"):
        round_lp_threshold(g, np.zeros(5))
    with pytest.raises(ValueError, match="not feasible"):
        round_lp_threshold(g, np.zeros(3))
    with pytest.raises(ValueError, match=r"eps must be a number in \(0, 1\)"):
        solve_cover_lp_mwu(g, eps=1.5)
    with pytest.raises(ValueError, match="solver must be 'highs' or 'mwu'"):
        btt_2approx(g, solver="gurobi")
    with pytest.raises(TypeError, match="SignedGraph"):
        bad_triangles(nx.Graph())
    with pytest.raises(ValueError, match="chunk_size must be a positive integer"):
        next(iter_bad_triangles(g, chunk_size=0))


def test_networkx_input_follows_sorted_node_order():
    """The library's node order (icml26.common.graphs): node i is the i-th of sorted(G), so the same graph
    built from shuffled edges (another insertion order) gives the same signed graph and, with the same
    seed, the same pivot clustering."""
    from icml26.bad_triangles import kwik_cluster

    g = nx.relabel_nodes(nx.les_miserables_graph(), lambda s: s.lower())  # string nodes, 77 of them
    g = nx.Graph(g.edges())  # unweighted
    edges = list(g.edges())
    rng = np.random.default_rng(5)
    h = nx.Graph([edges[i][::-1] for i in rng.permutation(len(edges))])
    assert list(h) != list(g) and sorted(h) == sorted(g)
    a, b = complete_from_positive(g), complete_from_positive(h)
    assert a.nodes == b.nodes == tuple(sorted(g))
    assert np.array_equal(a.u, b.u) and np.array_equal(a.v, b.v) and np.array_equal(a.sign, b.sign)
    ca, cb = kwik_cluster(a, np.random.default_rng(0)), kwik_cluster(b, np.random.default_rng(0))
    assert np.array_equal(ca.labels, cb.labels) and ca.cost == cb.cost
    nx.set_edge_attributes(g, 1, "sign")
    nx.set_edge_attributes(h, 1, "sign")
    fa, fb = from_networkx(g), from_networkx(h)
    assert fa.nodes == fb.nodes == tuple(sorted(g)) and np.array_equal(fa.u, fb.u)
