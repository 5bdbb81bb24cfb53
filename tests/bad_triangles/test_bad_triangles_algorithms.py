"""Algorithms 1-4 of the paper, the two silent-wrong-result fixes, general-graph CC, stored instances."""

import json
from importlib.resources import files
from itertools import combinations, permutations, product

import networkx as nx
import numpy as np
import pytest

from icml26.bad_triangles import (
    LPSolution,
    bad_triangles,
    binding_instances,
    budget_pivot,
    budget_pivot_expected_cost,
    complete_from_positive,
    exact_btt,
    exact_cc,
    flip_pivot_expected_cost,
    from_edges,
    from_networkx,
    is_transversal,
    krivelevich_2approx,
    packing_3approx,
    planted_partition,
    random_minimal_transversal,
    random_signed_graph,
    round_lp_support,
    round_lp_threshold,
    solve_cover_lp,
    solve_cover_lp_mwu,
)
from icml26.bad_triangles.pivot import _flip_matrix, _matrices, _pivot_run, disagreements
from icml26.bad_triangles.rounding import _greedy_max_cut

TRIANGLE = [(0, 1, 1), (1, 2, 1), (0, 2, -1)]


@pytest.fixture(scope="module")
def instances():
    """Atlas graphs n = 4..7 (complete) and random signed graphs, weighted and not."""
    rng = np.random.default_rng(11)
    atlas = [complete_from_positive(h) for h in nx.graph_atlas_g() if 4 <= h.number_of_nodes() <= 7][::37]
    random = [random_signed_graph(25, 0.35, 0.35, rng, weighted=bool(i % 2)) for i in range(6)]
    random += [planted_partition(30, 3, 0.4, 0.25, rng, weighted=bool(i % 2)) for i in range(6)]
    return atlas + random


# --- the two silent wrong results of issue #19 -------------------------------------------------


def test_infeasible_lp_point_is_rejected():
    """x = 0.01 everywhere promised w(F) <= 0.02 but returned cost 1; now it is refused."""
    g = from_edges(TRIANGLE)
    with pytest.raises(ValueError, match=r"not feasible .* sums to 0.03 < 1"):
        round_lp_threshold(g, np.full(3, 0.01))
    with pytest.raises(ValueError, match="not feasible"):
        round_lp_threshold(g, np.full(3, 0.01), theta=0.5)
    x = np.full(3, 1 / 3)  # exactly feasible: accepted, and within 2 w.x
    assert round_lp_threshold(g, x).cost <= 2.0
    assert round_lp_threshold(g, x - 1e-10).cost <= 2.0  # within the 1e-9 tolerance


def test_from_networkx_reads_weight_by_default():
    h = nx.Graph()
    h.add_edge("a", "b", sign=1, weight=2.5)
    h.add_edge("b", "c", sign=-1, weight=0.5)
    assert from_networkx(h).weight.tolist() == [2.5, 0.5]
    assert from_networkx(h, weight=None).weight.tolist() == [1.0, 1.0]  # explicit opt-out
    h.add_edge("c", "d", sign=1)  # some edges weighted, one not: ambiguous, so refused
    with pytest.raises(ValueError, match=r"edge \('c', 'd'\) has no 'weight' attribute"):
        from_networkx(h)
    with pytest.raises(TypeError, match="weight must be an edge attribute name"):
        from_networkx(h, weight=3)
    plain = nx.Graph()
    plain.add_edge(0, 1, sign=-1)
    assert not from_networkx(plain).is_weighted


# --- Algorithms 2 (support) and 1 (Krivelevich) ------------------------------------------------


def test_support_rounding_exact_cases():
    g = from_edges(TRIANGLE)
    f = round_lp_support(g, solve_cover_lp(g))
    assert f.cost == 1.0 and is_transversal(g, f.edge_ids)
    # K4 with one negative edge: 2 bad triangles on it, LP puts 1 on the negative edge
    k4 = complete_from_positive(nodes=range(4), positive_edges=[(0, 2), (0, 3), (1, 2), (1, 3), (2, 3)])
    f = round_lp_support(k4, solve_cover_lp(k4))
    assert f.cost == 1.0 and k4.sign[f.edge_ids[0]] < 0


def test_support_and_krivelevich_within_two_lp(instances):
    for g in instances:
        tri = bad_triangles(g)
        lp = solve_cover_lp(g, tri)
        for f in (round_lp_support(g, lp, tri), krivelevich_2approx(g, tri), krivelevich_2approx(g, tri, lp)):
            assert is_transversal(g, f.edge_ids, tri), f.method
            assert f.cost <= 2 * lp.value + 1e-6, (f.method, f.cost, lp.value)


def test_krivelevich_one_edge_per_solve():
    rng = np.random.default_rng(12)
    g = planted_partition(20, 2, 0.6, 0.25, rng)
    tri = bad_triangles(g)
    lp = solve_cover_lp(g, tri)
    single, batch = krivelevich_2approx(g, tri, batch=False), krivelevich_2approx(g, tri)
    assert is_transversal(g, single.edge_ids, tri) and single.cost <= 2 * lp.value + 1e-6
    assert single.theta >= batch.theta and single.theta >= 2  # more LP solves than the batch variant
    with pytest.raises(TypeError, match="batch must be True or False"):
        krivelevich_2approx(g, tri, batch=1)


def test_support_and_krivelevich_match_optimum_on_tiny_graphs():
    rng = np.random.default_rng(5)
    for _ in range(20):
        g = random_signed_graph(7, 0.7, 0.35, rng)
        tri = bad_triangles(g)
        opt = exact_btt(g, tri).cost
        assert opt <= round_lp_support(g, solve_cover_lp(g, tri), tri).cost <= 2 * opt + 1e-9
        assert opt <= krivelevich_2approx(g, tri).cost <= 2 * opt + 1e-9


def test_support_rounding_needs_an_optimum():
    g = planted_partition(30, 3, 0.4, 0.25, np.random.default_rng(2))
    with pytest.raises(ValueError, match="needs an optimal LP point"):
        round_lp_support(g, solve_cover_lp_mwu(g, eps=0.5))
    with pytest.raises(TypeError, match="must be an LPSolution"):
        round_lp_support(g, np.ones(g.m))


def test_greedy_max_cut_cuts_at_least_half():
    rng = np.random.default_rng(3)
    for weighted in (False, True):
        g = random_signed_graph(40, 0.3, 0.5, rng, weighted=weighted)
        edges = np.arange(g.m)
        side = _greedy_max_cut(g, edges)
        crossing = g.weight[side[g.u] != side[g.v]].sum()
        assert crossing >= g.weight.sum() / 2


def test_krivelevich_cut_finish_on_a_fractional_optimum():
    """An optimal LP point with every value < 1/2 (x = 1/3 on two bad triangles) sends Algorithm 1 to its
    max-cut finish: one edge per triangle, within 2 LP."""
    g = from_edges([*TRIANGLE, (3, 4, 1), (4, 5, 1), (3, 5, -1)])
    third = LPSolution(np.full(6, 1 / 3), 2.0, 2.0, "highs", 0, 0.0)
    f = krivelevich_2approx(g, lp=third)
    assert is_transversal(g, f.edge_ids) and f.cost == 2.0 and f.theta == 1.0  # one LP "solve" (the given)
    with pytest.raises(ValueError, match="exact \\(HiGHS\\) LPSolution"):
        krivelevich_2approx(g, lp=LPSolution(np.full(6, 1 / 3), 2.0, 1.9, "mwu", 0, 0.0))


# --- Algorithm 4 and its exact expectation ----------------------------------------------------


def _expected_by_orders(g, prob01):
    """Mean cost of a deterministic-rule pivot over all n! orders (exact for 0/1 rules)."""
    costs = [disagreements(g, _pivot_run(g, prob01, np.array(order))) for order in permutations(range(g.n))]
    return float(np.mean(costs))


def test_flip_expectation_matches_all_orders():
    rng = np.random.default_rng(4)
    for _ in range(6):
        g = planted_partition(6, 2, 1.0, 0.3, rng)
        f = random_minimal_transversal(g, rng)
        in_f, _ = _flip_matrix(g, f.edge_ids)
        pos, _ = _matrices(g)
        assert flip_pivot_expected_cost(g, f.edge_ids) == pytest.approx(_expected_by_orders(g, pos ^ in_f))


def test_budget_expectation_matches_monte_carlo():
    rng = np.random.default_rng(6)
    g = planted_partition(7, 2, 1.0, 0.3, rng)
    f = packing_3approx(g)
    exact = budget_pivot_expected_cost(g, f.edge_ids)
    runs = np.array([budget_pivot(g, f.edge_ids, rng).cost for _ in range(4000)])
    half = 1.96 * runs.std(ddof=1) / np.sqrt(runs.size)
    assert abs(runs.mean() - exact) <= max(half, 1e-9) * 1.5  # 4000 runs, fixed seed
    assert exact <= 1.5 * len(f)


def test_budget_pivot_three_halves_on_atlas_sample():
    for h in [h for h in nx.graph_atlas_g() if 4 <= h.number_of_nodes() <= 6][::9]:
        g = complete_from_positive(h)
        tri = bad_triangles(g)
        if not tri.size:
            continue
        for f in (exact_btt(g, tri), packing_3approx(g, tri)):
            assert budget_pivot_expected_cost(g, f.edge_ids) <= 1.5 * len(f) + 1e-9


def test_budget_pivot_bad_input():
    g = from_edges(TRIANGLE)
    with pytest.raises(ValueError, match="not a bad-triangle transversal"):
        budget_pivot(g, [], np.random.default_rng(0))
    with pytest.raises(ValueError, match="enumerates subsets"):
        budget_pivot_expected_cost(complete_from_positive(nx.path_graph(12)), [], max_nodes=10)
    w = from_edges([(0, 1, 1, 2.0), (1, 2, 1), (0, 2, -1)])
    with pytest.raises(ValueError, match="unit weights"):
        budget_pivot_expected_cost(w, [2])


# --- correlation clustering on general signed graphs ------------------------------------------


def test_exact_cc_general_graphs():
    cycle = from_edges([(0, 1, 1), (1, 2, 1), (2, 3, 1), (3, 0, -1)])  # no triangle: BTT* = 0
    assert exact_btt(cycle).cost == 0.0 and exact_cc(cycle).cost == 1.0
    path = from_edges([(0, 1, 1), (1, 2, 1), (2, 3, -1)])  # 0-2 missing: joining 0,1,2 is free
    c = exact_cc(path)
    assert c.cost == 0.0 and c.labels[0] == c.labels[1] == c.labels[2] != c.labels[3]
    rng = np.random.default_rng(7)
    for _ in range(5):
        g = random_signed_graph(9, 0.4, 0.4, rng)
        assert exact_btt(g).cost <= exact_cc(g).cost  # BTT* <= CC* on general graphs too


# --- stored binding instances -------------------------------------------------------------------


def _partitions(items: list[int]):
    if not items:
        yield []
        return
    first, *rest = items
    for part in _partitions(rest):
        for i in range(len(part)):
            yield part[:i] + [[first] + part[i]] + part[i + 1 :]
        yield [[first]] + part


def _brute_force_gaps(n: int, complete: bool) -> list[tuple[dict, int, int]]:
    """Every signed graph on ``n`` nodes (complete: each pair + or -; else +, - or absent) with
    ``CC* > BTT*``, as ``(signs, CC*, BTT*)``: CC* over all partitions, BTT* over all edge subsets by
    size, both by bit masks over the pairs (independent of the package's MILPs)."""
    pairs = list(combinations(range(n), 2))
    bit = {p: 1 << i for i, p in enumerate(pairs)}
    together = []
    for part in _partitions(list(range(n))):
        label = {v: i for i, block in enumerate(part) for v in block}
        together.append(sum(bit[p] for p in pairs if label[p[0]] == label[p[1]]))
    together = np.array(together, dtype=np.int64)
    triples = [(bit[(a, b)], bit[(a, c)], bit[(b, c)]) for a, b, c in combinations(range(n), 3)]
    subsets = np.arange(1 << len(pairs), dtype=np.int64)
    subsets = subsets[np.argsort(np.bitwise_count(subsets), kind="stable")]
    sizes = np.bitwise_count(subsets)
    gaps = []
    for choice in product((1, -1) if complete else (1, -1, 0), repeat=len(pairs)):
        present = sum(bit[p] for p, c in zip(pairs, choice) if c)
        positive = sum(bit[p] for p, c in zip(pairs, choice) if c == 1)
        cc = int(np.bitwise_count((positive ^ together) & present).min())
        bad = [
            sum(t) for t in triples if all(present & e for e in t) and sum(bool(positive & e) for e in t) == 2
        ]
        if cc == 0:
            continue
        hits = np.ones(subsets.size, dtype=bool)
        for mask in bad:
            hits &= (subsets & mask) != 0
        btt = int(sizes[np.argmax(hits)])
        if cc > btt:
            gaps.append(({p: c for p, c in zip(pairs, choice) if c}, cc, btt))
    return gaps


def test_gap_detector_finds_cc_above_btt_on_general_graphs():
    """The brute-force detector finds CC* > BTT* where it exists (4-node general graphs: a cycle with
    one negative edge has no triangle, so BTT* = 0 < CC* = 1), and the package's exact solvers agree."""
    gaps = _brute_force_gaps(4, complete=False)
    cycle = {(0, 1): 1, (1, 2): 1, (2, 3): 1, (0, 3): -1}
    assert (cycle, 1, 0) in gaps
    for signs, cc, btt in gaps[:: max(1, len(gaps) // 4)]:
        g = from_edges([(a, b, c) for (a, b), c in signs.items()], nodes=list(range(4)))
        assert (exact_cc(g).cost, exact_btt(g).cost) == (cc, btt)


def test_no_complete_graph_up_to_six_nodes_has_cc_above_btt():
    """Exhaustive over all 2^15 complete signed graphs on <= 6 nodes: CC* = BTT* on every one, so a
    binding instance (CC* > BTT*) needs n >= 7 (the stored search looked at n = 8..14)."""
    for n in range(3, 7):
        assert _brute_force_gaps(n, complete=True) == [], n


def test_binding_instances_have_cc_above_btt():
    text = (files("icml26.bad_triangles") / "binding_instances.json").read_text()
    records = json.loads(text)["records"]
    stored = binding_instances()
    assert sum(r["found"] for r in records) == len(stored)
    for r in records:  # the search record: what was spent, and the best ratio it saw
        assert r["seconds"] > 0 and r["evaluations"] > 0 and r["n_min"] <= r["n_max"]
        assert r["best_cc_over_btt"] >= 1.0 and (r["found"] > 0) == (r["best_cc_over_btt"] > 1.0)
    main = records[0]
    assert (main["restarts"], main["seconds"], main["evaluations"]) == (51, 780, 1568)
    assert (main["n_min"], main["n_max"], main["best_cc_over_btt"]) == (9, 14, 1.0)
    assert sum(r["evaluations"] for r in records) == 1568 + 8761
    for g, record in stored[:3]:
        assert g.is_complete() and g.n == record["n"]
        btt, cc = exact_btt(g).cost, exact_cc(g).cost
        assert (btt, cc) == (record["btt"], record["cc"]) and btt < cc <= 1.5 * btt
