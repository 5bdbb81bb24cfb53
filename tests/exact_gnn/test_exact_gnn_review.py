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
