"""Independent cross-checks of the curvatures: exact Ollivier against a transport LP written with
scipy.optimize.linprog (our exact path uses POT) and against GraphRicciCurvature; the approximate
Ollivier and (augmented) Forman curvatures against values computed by hand; networkx input handling."""

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import linprog

from icml26.ricci_geometry import curvature, knn_graph

N_GRAPHS = 10


def random_knn_graphs() -> list[sp.csr_matrix]:
    """Ten symmetrised kNN graphs of random point clouds (fixed seeds; n, k and dimension vary)."""
    graphs = []
    for seed in range(N_GRAPHS):
        rng = np.random.default_rng(seed)
        n, k, d = int(rng.integers(15, 31)), int(rng.integers(2, 6)), int(rng.integers(2, 5))
        graphs.append(knn_graph(rng.normal(size=(n, d)), k))
    return graphs


def ollivier_by_linprog(G: nx.Graph, x: int, y: int) -> float:
    """``1 − W₁(μ_x, μ_y)``, μ uniform on the neighbours (α = 0), W₁ as a transport LP on hop distances."""
    nx_, ny_ = list(G[x]), list(G[y])
    hops = dict(nx.all_pairs_shortest_path_length(G))
    cost = np.array([[hops[u][v] for v in ny_] for u in nx_], dtype=float)
    p, q = len(nx_), len(ny_)
    rows = np.kron(np.eye(p), np.ones(q))  # sum_j P_ij = 1/p
    cols = np.kron(np.ones(p), np.eye(q))  # sum_i P_ij = 1/q
    res = linprog(
        cost.ravel(),
        A_eq=np.vstack([rows, cols]),
        b_eq=np.concatenate([np.full(p, 1 / p), np.full(q, 1 / q)]),
        bounds=(0, None),
        method="highs",
        options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10},
    )
    assert res.status == 0, res.message
    return 1.0 - res.fun


def test_exact_ollivier_matches_a_linprog_transport_lp():
    worst = 0.0
    for A in random_knn_graphs():
        G = nx.from_scipy_sparse_array(A)
        K = curvature(A, "ollivier")
        for x, y in G.edges():
            worst = max(worst, abs(K[x, y] - ollivier_by_linprog(G, x, y)))
    assert worst <= 1e-9


def test_exact_ollivier_matches_graph_ricci_curvature():
    orc_module = pytest.importorskip("GraphRicciCurvature.OllivierRicci")
    worst = 0.0
    for A in random_knn_graphs():
        G = nx.from_scipy_sparse_array(A)
        nx.set_edge_attributes(G, 1.0, "weight")  # unit weights: hop distances
        orc = orc_module.OllivierRicci(G, alpha=0.0, method="OTD", proc=1, verbose="ERROR")
        orc.compute_ricci_curvature()
        K = curvature(A, "ollivier")
        for x, y, kappa in orc.G.edges(data="ricciCurvature"):
            worst = max(worst, abs(K[x, y] - kappa))
    assert worst <= 1e-9


def test_paw_graph_by_hand():
    # Triangle 0-1-2 with a pendant 3 on node 0: degrees 3, 2, 2, 1.
    # (0, 1): t = 1, base 1 - 1/3 - 1/2 = 1/6, both positive parts vanish -> approx Ollivier 1/3.
    # (1, 2): t = 1, degrees 2, 2, base 0 -> 1/2. (0, 3): t = 0, base < 0 -> 0; exact: W1 = 1 -> 0.
    G = nx.Graph([(0, 1), (1, 2), (2, 0), (0, 3)])
    expected = {
        "forman": {(0, 1): -1.0, (1, 2): 0.0, (0, 3): 0.0},
        "augmented_forman": {(0, 1): 2.0, (1, 2): 3.0, (0, 3): 0.0},
        "approx_ollivier": {(0, 1): 1 / 3, (1, 2): 1 / 2, (0, 3): 0.0},
        "ollivier": {(0, 1): 1 / 3, (1, 2): 1 / 2, (0, 3): 0.0},
    }
    for kind, values in expected.items():
        K = curvature(G, kind)
        for (i, j), value in values.items():
            assert K[i, j] == pytest.approx(value, abs=1e-12), (kind, i, j)
            assert K[j, i] == pytest.approx(value, abs=1e-12), (kind, j, i)


def test_star_and_k4_augmented_forman_by_hand():
    # Star K_{1,4}: every edge has degrees 4, 1 and no triangle -> F = AF = -1; approx Ollivier: base < 0 -> 0.
    star = curvature(nx.star_graph(4), "augmented_forman")
    np.testing.assert_allclose(star.data, -1.0)
    np.testing.assert_allclose(curvature(nx.star_graph(4), "approx_ollivier").data, 0.0, atol=1e-12)
    # K_4: degrees 3, 3 and 2 triangles per edge -> AF = 4 - 6 + 6 = 4.
    np.testing.assert_allclose(curvature(nx.complete_graph(4), "augmented_forman").data, 4.0)


def test_networkx_rows_follow_sorted_node_order():
    # Nodes inserted as 5, 2, 9, 0: row i of the result is the i-th node of sorted(G), the library's node
    # order (icml26.common.graphs), not insertion order.
    G = nx.Graph()
    G.add_nodes_from([5, 2, 9, 0])
    G.add_edges_from([(5, 2), (2, 9), (9, 0), (0, 5), (5, 9)])
    assert list(G) != sorted(G)
    K = curvature(G, "augmented_forman").toarray()
    order = sorted(G)
    for u, v in G.edges():
        t = len(set(G[u]) & set(G[v]))
        assert K[order.index(u), order.index(v)] == 4 - G.degree(u) - G.degree(v) + 3 * t
    # The same graph with the nodes relabelled 0..n-1 in sorted order gives the same matrix.
    H = nx.relabel_nodes(G, {node: i for i, node in enumerate(order)})
    np.testing.assert_array_equal(curvature(H, "augmented_forman").toarray(), K)


def test_shuffled_insertion_gives_the_same_curvature():
    # The same graph built from its edges in a shuffled order (another insertion order of the nodes).
    G = nx.Graph(nx.karate_club_graph().edges())  # unweighted
    edges = list(G.edges())
    rng = np.random.default_rng(3)
    H = nx.Graph([edges[i] for i in rng.permutation(len(edges))])
    assert list(H) != list(G) and sorted(H) == sorted(G)
    for kind in ("augmented_forman", "ollivier"):
        np.testing.assert_allclose(curvature(H, kind).toarray(), curvature(G, kind).toarray(), atol=1e-12)


def test_weighted_networkx_graphs_are_rejected_unit_weights_accepted():
    G = nx.cycle_graph(5)
    nx.set_edge_attributes(G, 1.0, "weight")
    np.testing.assert_allclose(curvature(G, "forman").data, 0.0)  # weight 1 is unweighted
    G[0][1]["weight"] = 2.5
    with pytest.raises(ValueError, match="weighted networkx graph"):
        curvature(G, "forman")
    with pytest.raises(ValueError, match="multigraph"):
        curvature(nx.MultiGraph([(0, 1), (0, 1)]), "forman")
    with pytest.raises(ValueError, match="directed"):
        curvature(nx.DiGraph([(0, 1)]), "forman")
