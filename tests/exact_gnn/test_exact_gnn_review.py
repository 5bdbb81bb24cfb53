"""A second review's cases: the reference under a user's own colouring, the official recipe's member
growth, and the bad inputs it found."""

import warnings

import networkx as nx
import numpy as np
import pytest

from icml26.exact_gnn import (
    Executor,
    compile_algorithm,
    distance2_colouring,
    edge_index_of,
    exact_gnn_layer,
)
from icml26.exact_gnn.experiment import EXPERIMENT, _official


def _is_distance2(graph: nx.Graph, colours: dict) -> bool:
    return all(colours[u] != colours[v] for u, v in nx.power(graph, 2).edges)


@pytest.mark.parametrize(("name", "bits", "inputs"), [("flooding", 1, {"message": 1}), ("bfs", 5, {})])
def test_any_proper_colouring_is_exact(name: str, bits: int, inputs: dict) -> None:
    """A proper distance-2 colouring other than the greedy one changes the slot bits, not the outputs:
    the reference is the template-OR run under the same colouring (was: under the greedy one)."""
    g = nx.path_graph(5)
    greedy = distance2_colouring(g)
    other = {v: (c + 1) % 5 for v, c in greedy.items()}
    assert _is_distance2(g, other) and other != greedy
    p = compile_algorithm(name, bits, 2)
    for learner in ("ideal", "ntk"):
        run = Executor(p, learner).run(g, {"source": 0, **inputs}, colours=other)
        assert run.exact and run.output_correct.all()


def test_one_slot_control_fails_on_its_outputs() -> None:
    """The one-slot colouring is judged by what it computes: BFS parent sets go wrong (all in slot 0),
    while flooding only needs an OR of the neighbours' bits and stays right under the 1/2 reading rule."""
    g = nx.cycle_graph(6)
    one = dict.fromkeys(g, 0)
    bfs = Executor(compile_algorithm("bfs", 5, 2), "ntk").run(g, {"source": 0}, colours=one)
    assert bfs.max_aggregated > 1.0 and not bfs.exact and not bfs.output_correct.all()
    flood = Executor(compile_algorithm("flooding", 1, 2), "ntk").run(
        g, {"source": 0, "message": 1}, colours=one
    )
    assert flood.max_aggregated > 1.0 and flood.output_correct.all()


def test_official_grows_members_until_the_cap_when_never_exact() -> None:
    """Untrained tiny nets are never exact, so members are added to the cap and checked at 1, 2, 4, cap."""
    cfg = {**EXPERIMENT.profiles["smoke"], "official_width": 4, "official_epochs": 0, "official_max_members": 5,
           "official_graphs": 1, "n_max": 6}  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        out = _official(cfg, np.random.default_rng(0))
    assert out["members"] == 5 and sorted(out["curve"]) == [1, 2, 4, 5]
    assert out["exact"] == [False, False] and len(out["untrained"]) == 2


def test_review_bad_inputs_and_exports() -> None:
    p = compile_algorithm("flooding", 1, 2)
    mixed = nx.relabel_nodes(nx.path_graph(3), {0: "a"})
    with pytest.raises(ValueError, match="node labels cannot be sorted"):
        Executor(p, "ntk").run(mixed, {"source": "a", "message": 1})
    with pytest.raises(TypeError, match="model= needs a fitted learner with predict"):
        Executor(p, "ensemble", model=object())
    with pytest.raises(ValueError, match=r"ensemble= must be a dict of MLPEnsemble settings .*\['foo'\]"):
        Executor(p, "ensemble", ensemble={"foo": 1})
    assert callable(exact_gnn_layer) and callable(edge_index_of)


def test_grown_cache_adds_only_the_new_nets() -> None:
    """Rows seen before reuse their sums over the first nets; a net appended later is added to them."""
    from icml26.exact_gnn import MLPEnsemble
    from icml26.exact_gnn.experiment import _Grown

    rng = np.random.default_rng(9)
    x, y = rng.normal(size=(6, 4)), rng.normal(size=(6, 2))
    nets = [MLPEnsemble(1, 8, epochs=0, seed=s, recipe="official").fit(x, y) for s in range(3)]
    grown = _Grown()
    grown.nets = nets[:1]
    np.testing.assert_allclose(grown.predict(x[:4]), nets[0].predict(x[:4]))
    grown.nets.append(nets[1])
    np.testing.assert_allclose(grown.predict(x[2:3]), (nets[0].predict(x[2:3]) + nets[1].predict(x[2:3])) / 2)
    grown.nets.append(nets[2])
    test = np.concatenate([x[5:], x[:2], x[2:3], x[5:]])  # new, twice-seen, once-seen, repeated rows
    np.testing.assert_allclose(grown.predict(test), sum(n.predict(test) for n in nets) / 3, atol=1e-15)


def test_compiled_table_hears_only_neighbours() -> None:
    """Min-propagation with distinct values: a table complete for heard sets of size <= D (what
    compile_table checks) must run; the node's own message is not among the heard ones (it was, so the
    middle node heard 3 values, matched no row and fell idle)."""
    import itertools

    from icml26.exact_gnn import compile_table

    vals = [0, 1, 2, 3]
    table = {
        (q, h): (min({q, *h}), min({q, *h}))
        for q in vals
        for k in range(3)
        for h in map(frozenset, itertools.combinations(vals, k))
    }
    start = {0: 3, 1: 1, 2: 2, 3: 0}
    p = compile_table("min", vals, vals, table, 2, initial=lambda g, i: {v: (start[v],) * 2 for v in g},
                      local_rounds=lambda g: 3, decode_state=int, truth=lambda g, i: dict.fromkeys(g, 0))  # fmt: skip
    for learner in ("ideal", "ntk"):
        run = Executor(p, learner).run(nx.path_graph(4), None)
        assert run.exact and run.outputs == dict.fromkeys(range(4), 0)


def test_encoder_is_unit_norm_over_the_matched_set() -> None:
    """The paper's encoder: x_j = 1/sqrt(|S|) on the matched set S (unit norm), 0 when nothing matches."""
    from icml26.exact_gnn import encode, match

    p = compile_algorithm("flooding", 1, 2)
    b = p.layout.bit
    states = np.zeros((3, p.layout.dim))
    states[0, [b("message", 0), b("my_slot", 2, 0), b("pipe", 4, 0)]] = 1.0  # three templates match
    states[1, b("my_slot", 0, 0)] = 1.0  # one (keep_slot)
    x, hits = encode(p, states), match(p, states)
    assert hits.sum(axis=1).tolist() == [3.0, 1.0, 0.0]
    np.testing.assert_allclose(x[0][hits[0] > 0], 1 / np.sqrt(3))
    np.testing.assert_allclose(np.linalg.norm(x, axis=1), [1.0, 1.0, 0.0])


def test_one_round_aggregates_over_the_closed_neighbourhood() -> None:
    """X_next = Y P_c + (A + I) Y P_m: a node's own message-slot write comes back to it (the self-loop)."""
    p = compile_algorithm("flooding", 1, 2)
    g = nx.path_graph(3)
    colours = distance2_colouring(g)
    ex = Executor(p, "ideal")
    from icml26.exact_gnn import adjacency_with_self_loops

    a = adjacency_with_self_loops(g)
    np.testing.assert_array_equal(a, nx.to_numpy_array(g, nodelist=sorted(g)) + np.eye(3))
    state = p.init(g, {"source": 1, "message": 1}, colours)
    for _ in range(2):  # round 1: the source sets sent[*]; round 2: it writes message_slot[own colour]
        state, _ = ex.step(state, a)
    own = p.layout.bit("message_slot", colours[1], 0)
    assert state[:, own].tolist() == [1.0, 1.0, 1.0]  # the source itself and both neighbours hold it


def test_compiled_rounds_are_three_per_local_round() -> None:
    from icml26.exact_gnn import bfs_table, flooding_table

    g = nx.path_graph(6)
    assert flooding_table(1, 2).rounds(g) == 3 * (nx.diameter(g) + 1)
    assert bfs_table(8, 2).rounds(g) == 3 * (nx.diameter(g) + 1)


def test_bellman_ford_on_random_weighted_graphs_against_networkx() -> None:
    """Random weighted graphs (D = 2, 3, weights 0..3, zero weights included): every distance equals
    networkx's, with a single one-hot distance per node (the select templates' required zeros)."""
    from icml26.exact_gnn import random_bounded_graph

    rng = np.random.default_rng(11)
    for big_d in (2, 3):
        ex = Executor(compile_algorithm("bellman_ford", 6, big_d), "ideal")
        for _ in range(4):
            g = random_bounded_graph(int(rng.integers(4, 10)), big_d, rng, max_weight=3)
            run = ex.run(g, {"source": int(rng.integers(g.number_of_nodes()))})
            assert run.exact and -1 not in run.outputs.values()


def test_bellman_ford_keeps_one_distance_per_node_every_round() -> None:
    """The select templates' required zeros keep ``best`` at most one-hot after every round, not only
    at the end (a missing zero shows as a transient second distance that later heals)."""
    from icml26.exact_gnn import adjacency_with_self_loops, random_bounded_graph

    rng = np.random.default_rng(12)
    p = compile_algorithm("bellman_ford", 6, 3)
    ex, best = Executor(p, "ideal"), p.layout.bits("best")
    for _ in range(4):
        g = random_bounded_graph(int(rng.integers(5, 10)), 3, rng, max_weight=3)
        state = p.init(g, {"source": 0}, distance2_colouring(g))
        a = adjacency_with_self_loops(g)
        for _ in range(p.rounds(g)):
            state, _ = ex.step(state, a)
            assert (state[:, best].sum(axis=1) <= 1).all()
