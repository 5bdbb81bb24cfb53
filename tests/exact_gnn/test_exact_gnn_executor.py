"""Templates, the colouring, one round against the template-OR ideal, and whole executions."""

import networkx as nx
import numpy as np
import pytest

from icml26.exact_gnn import (
    Executor,
    Layout,
    Template,
    adjacency_with_self_loops,
    compile_algorithm,
    distance2_colouring,
    ideal_update,
    match,
    random_bounded_graph,
)


def test_layout_and_template_basics() -> None:
    lay = Layout([("a", (2,)), ("b", (3, 2))])
    assert lay.dim == 8 and lay.bit("b", 1, 0) == 4
    with pytest.raises(IndexError, match="outside"):
        lay.bit("b", 3, 0)
    with pytest.raises(ValueError, match="both 1 and 0"):
        Template((1,), (1,), (2,))


def test_flooding_template_count_and_one_hand_round() -> None:
    p = compile_algorithm("flooding", 1, 2)  # d = 5 slots
    assert p.n_templates == 1 * (1 + 4 * 5) and p.layout.dim == 21
    state = np.zeros((1, p.layout.dim))
    b = p.layout.bit
    state[0, [b("message", 0), b("my_slot", 2, 0), b("pipe", 4, 0)]] = 1.0
    hits = match(p, state)[0]
    labels = sorted(p.templates[j].label for j in np.flatnonzero(hits))
    assert labels == ["cascade", "keep_slot", "message[0]"]
    nxt = ideal_update(p, state)[0]
    expected = {b("message", 0), *(b("sent", s, 0) for s in range(5)), b("my_slot", 2, 0)}
    assert set(np.flatnonzero(nxt)) == expected


@pytest.mark.parametrize("degree", [2, 3, 4])
def test_colouring_is_distance_two_within_bound(degree: int) -> None:
    rng = np.random.default_rng(degree)
    for _ in range(30):
        g = random_bounded_graph(int(rng.integers(2, 30)), degree, rng)
        colours = distance2_colouring(g)
        assert max(colours.values()) + 1 <= degree**2 + 1
        for u, v in nx.power(g, 2).edges:
            assert colours[u] != colours[v]


def test_random_graphs_are_connected_and_bounded() -> None:
    rng = np.random.default_rng(0)
    for n in range(2, 25):
        g = random_bounded_graph(n, 3, rng, max_weight=3)
        assert nx.is_connected(g) and max(d for _, d in g.degree) <= 3 and g.number_of_nodes() == n
        assert all(0 <= w <= 3 for *_, w in g.edges(data="weight"))


@pytest.mark.parametrize("name,bits", [("flooding", 2), ("bfs", 5), ("bellman_ford", 5)])
def test_one_round_equals_template_or(name: str, bits: int) -> None:
    rng = np.random.default_rng(1)
    p = compile_algorithm(name, bits, 3)
    ntk, ideal = Executor(p, "ntk"), Executor(p, "ideal")
    for _ in range(5):
        g = random_bounded_graph(8, 3, rng, 3 if name == "bellman_ford" else None)
        inputs = {"source": 0, "message": 3} if name == "flooding" else {"source": 0}
        x = p.init(g, inputs, distance2_colouring(g))
        a = adjacency_with_self_loops(g)
        for _ in range(6):
            y_ntk, peak = ntk.step(x, a)
            y_ideal, _ = ideal.step(x, a)
            assert np.array_equal(y_ntk, y_ideal) and peak <= 1.0
            x = y_ideal


def test_flooding_path_exact_and_sums_binary() -> None:
    g = nx.path_graph(4)
    p = compile_algorithm("flooding", 2, 2)
    run = Executor(p, "ntk").run(g, {"source": 0, "message": 2})
    assert run.exact and run.outputs == {0: 2, 1: 2, 2: 2, 3: 2}
    assert run.rounds == (3 + 1) * (5 + 3) and run.max_aggregated == 1.0
    short = Executor(p, "ntk").run(g, {"source": 0, "message": 2}, rounds=3)
    assert short.outputs[3] == 0 and not short.exact  # the message has not arrived yet
    assert list(short.output_correct) == [True, False, False, False] and run.output_correct.all()


def test_bfs_and_bellman_ford_small_cases() -> None:
    g = nx.cycle_graph(5)
    run = Executor(compile_algorithm("bfs", 4, 2), "ntk").run(g, {"source": 0})
    assert run.exact and run.outputs[2] == (2, frozenset({1})) and run.outputs[0] == (0, frozenset())
    for u, v, w in [(0, 1, 3), (1, 2, 0), (2, 3, 1), (3, 4, 2), (4, 0, 1)]:
        g[u][v]["weight"] = w
    run = Executor(compile_algorithm("bellman_ford", 4, 2), "ntk").run(g, {"source": 0})
    assert run.exact and run.outputs == {0: 0, 1: 3, 2: 3, 3: 3, 4: 1}


def test_broken_colouring_is_caught() -> None:
    g = nx.star_graph(3)
    p = compile_algorithm("bfs", 4, 3)
    run = Executor(p, "ntk").run(g, {"source": 1}, colours=dict.fromkeys(g, 0))
    assert run.max_aggregated > 1.0 and not run.exact


def test_pyg_backend_matches_numpy() -> None:
    pytest.importorskip("torch_geometric")
    rng = np.random.default_rng(2)
    p = compile_algorithm("flooding", 1, 3)
    g = random_bounded_graph(12, 3, rng)
    a = Executor(p, "ntk").run(g, {"source": 0, "message": 1})
    b = Executor(p, "ntk", backend="pyg").run(g, {"source": 0, "message": 1})
    assert np.array_equal(a.states, b.states) and b.exact


def test_bad_input_messages() -> None:
    p = compile_algorithm("flooding", 1, 2)
    ex = Executor(p, "ntk")
    with pytest.raises(ValueError, match="node 0 has degree 3, above the program's degree bound D = 2"):
        ex.run(nx.star_graph(3), {"source": 0, "message": 1})
    two = nx.Graph([(0, 1), (2, 3)])
    with pytest.raises(ValueError, match="disconnected"):
        ex.run(two, {"source": 0, "message": 1})
    with pytest.raises(ValueError, match=r"message must be an integer in 0..1 \(l = 1 bits\)"):
        ex.run(nx.path_graph(3), {"source": 0, "message": 2})
    with pytest.raises(ValueError, match="source 9 is not a node"):
        ex.run(nx.path_graph(3), {"source": 9, "message": 1})
    with pytest.raises(TypeError, match="undirected simple"):
        ex.run(nx.DiGraph([(0, 1)]), {"source": 0, "message": 1})
    bf = Executor(compile_algorithm("bellman_ford", 3, 2), "ntk")
    g = nx.path_graph(3)
    nx.set_edge_attributes(g, 4, "weight")
    with pytest.raises(ValueError, match="weight 4; accepted: integers 0..3"):
        bf.run(g, {"source": 0})
    nx.set_edge_attributes(g, 1.5, "weight")
    with pytest.raises(ValueError, match="weight 1.5"):
        bf.run(g, {"source": 0})
    long = nx.path_graph(5)
    nx.set_edge_attributes(long, 3, "weight")
    with pytest.raises(ValueError, match="above the representable 2\\^l - 1 = 7"):
        bf.run(long, {"source": 0})
    with pytest.raises(ValueError, match="unknown algorithm 'dfs'"):
        compile_algorithm("dfs", 2, 2)
    with pytest.raises(ValueError, match="learner 'mlp' is not one of"):
        Executor(p, "mlp")
    with pytest.raises(ValueError, match="encoding 'raw' needs learner"):
        Executor(p, "ntk", encoding="raw")
    with pytest.raises(TypeError, match="needs a Program"):
        Executor("flooding")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="colours must map every node"):
        ex.run(nx.path_graph(3), {"source": 0, "message": 1}, colours={0: 0, 1: 9, 2: 1})
    with pytest.raises(ValueError, match="threshold must be a number"):
        Executor(p, "ntk", threshold=True)
    numpy_colours = {v: np.int64(c) for v, c in distance2_colouring(nx.path_graph(3)).items()}
    assert ex.run(nx.path_graph(3), {"source": 0, "message": 1}, colours=numpy_colours).exact
