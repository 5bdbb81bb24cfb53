"""The official training recipe, predict on non-square inputs, the all-bits exactness rule and the
proof by enumeration of reachable states."""

import networkx as nx
import numpy as np
import pytest

from icml26.exact_gnn import (
    MLPEnsemble,
    NTKClosedForm,
    adjacency_with_self_loops,
    compile_algorithm,
    distance2_colouring,
    ideal_update,
    random_bounded_graph,
    training_set,
)
from icml26.exact_gnn.executor import Executor
from icml26.exact_gnn.proof import initial_states, prove_ntk_exact, reachable_states
from icml26.exact_gnn.templates import encode


def _data(rng: np.random.Generator, n: int = 5, d: int = 8, k: int = 3) -> tuple[np.ndarray, np.ndarray]:
    return rng.normal(size=(n, d)), rng.normal(size=(n, k))


@pytest.mark.parametrize("recipe", ["ntk", "official"])
def test_predict_on_non_square_inputs_is_the_hand_formula(recipe: str) -> None:
    """x has 5 rows and 8 columns, predictions on 3 rows: a normaliser by the row count would differ."""
    rng = np.random.default_rng(0)
    x, y = _data(rng)
    ens = MLPEnsemble(members=3, width=16, epochs=4, lr=1e-3, seed=2, recipe=recipe).fit(x, y)
    test = rng.normal(size=(3, 8))
    outs = []
    for i in range(3):
        if recipe == "ntk":
            h = np.maximum(test @ ens.w_[i] / np.sqrt(8), 0.0)
            outs.append(h @ ens.v_[i] / np.sqrt(16))
        else:
            h = np.maximum(test @ ens.w_[i] + ens.b_[i], 0.0)
            outs.append(h @ ens.v_[i] + ens.c_[i])
    np.testing.assert_allclose(ens.predict(test), np.mean(outs, axis=0), atol=1e-12)
    np.testing.assert_allclose(ens.predict(test, 2), np.mean(outs[:2], axis=0), atol=1e-12)


def test_official_recipe_init_bias_loss_and_defaults() -> None:
    rng = np.random.default_rng(1)
    x, y = _data(rng, n=6, d=4, k=2)
    untrained = MLPEnsemble(members=2, width=20_000, epochs=0, recipe="official", seed=0).fit(x, y)
    assert np.all(untrained.b_ == 0) and np.all(untrained.c_ == 0)  # sigma_b = 0
    assert untrained.w_.std() == pytest.approx(1 / np.sqrt(4), rel=0.02)  # N(0, 1 / fan_in)
    assert untrained.v_.std() == pytest.approx(1 / np.sqrt(20_000), rel=0.02)
    with pytest.warns(RuntimeWarning):
        trained = MLPEnsemble(members=1, width=64, epochs=3, recipe="official", seed=0).fit(x, y)
    assert np.any(trained.b_ != 0) and np.any(trained.c_ != 0)  # biases are trainable
    # one SGD step at lr on the mean squared error: the output bias moves by -lr * 2 mean(pred - y)
    one = MLPEnsemble(members=1, width=8, epochs=1, lr=0.1, recipe="official", seed=5)
    start = MLPEnsemble(members=1, width=8, epochs=0, recipe="official", seed=5).fit(x, y)
    with pytest.warns(RuntimeWarning):
        one.fit(x, y)
    grad_c = 2 * (start.predict(x) - y).mean(axis=0) / y.shape[1]
    np.testing.assert_allclose(one.c_[0, 0], -0.1 * grad_c, atol=1e-12)
    px, py = training_set(compile_algorithm("flooding", 1, 2))
    default = MLPEnsemble(members=1, epochs=0, recipe="official").fit(px, py)
    assert (
        default.width_ == 2000 * 21 and default.lr == 1e-3 and MLPEnsemble(recipe="official").epochs == 7000
    )
    assert default.get_params()["recipe"] == "official"


def test_recipe_and_device_bad_input() -> None:
    with pytest.raises(ValueError, match="recipe 'sgd' is not one of official, ntk"):
        MLPEnsemble(recipe="sgd")
    with pytest.raises(ValueError, match="device 'cuda:9'"):
        MLPEnsemble(device="cuda:9")
    with pytest.raises(ValueError, match="not fitted"):
        MLPEnsemble().predict(np.eye(3))
    with pytest.raises(ValueError, match="lr must be a positive"):
        MLPEnsemble(lr=True)


class _AuxiliaryFlip:
    """The NTK mean, except that on the last round it also sets one auxiliary bit (pipe[0][0])."""

    def __init__(self, program, rounds: int) -> None:
        x, y = training_set(program)
        self.inner, self.rounds, self.calls = NTKClosedForm().fit(x, y), rounds, 0
        self.bit = program.layout.bit("pipe", 0, 0)

    def predict(self, x: np.ndarray) -> np.ndarray:
        self.calls += 1
        out = self.inner.predict(x)
        if self.calls == self.rounds:
            out[:, self.bit] = 1.0
        return out


def test_exactness_counts_auxiliary_bits() -> None:
    """Only an auxiliary bit differs at the end: the decoded outputs are right, the run is not exact."""
    p = compile_algorithm("flooding", 1, 2)
    g = nx.path_graph(4)
    rounds = p.rounds(g)
    run = Executor(p, "ensemble", model=_AuxiliaryFlip(p, rounds)).run(g, {"source": 0, "message": 0})
    assert run.output_correct.all() and not run.node_correct.any() and not run.exact
    assert Executor(p, "ntk").run(g, {"source": 0, "message": 0}).exact


def test_proof_flooding_is_complete_and_matches_direct_thresholding() -> None:
    p = compile_algorithm("flooding", 1, 2)
    proof = prove_ntk_exact(p)
    assert proof.complete and proof.proved and proof.states == 6512
    states, complete = reachable_states(p)
    assert complete and len(states) == proof.states
    # independent of the margin algebra: threshold the closed form on every reachable state
    x, y = training_set(p)
    pred = NTKClosedForm().fit(x, y).predict(encode(p, states))
    assert np.array_equal(pred > 1e-10, ideal_update(p, states) > 0.5)
    on = ideal_update(p, states) > 0.5
    assert proof.margin == pytest.approx(pred[on].min(), abs=1e-12)
    # every executed state lies in the enumerated set (soundness on a sample of runs)
    known = {r.tobytes() for r in states.astype(np.uint8)}
    rng = np.random.default_rng(4)
    for _ in range(5):
        g = random_bounded_graph(int(rng.integers(5, 12)), 2, rng)
        ex = Executor(p, "ideal")
        cur = p.init(g, {"source": 0, "message": 1}, distance2_colouring(g))
        a = adjacency_with_self_loops(g)
        for _ in range(p.rounds(g)):
            assert all(r.tobytes() in known for r in (cur > 0.5).astype(np.uint8))
            cur, _ = ex.step(cur, a)


def test_proof_reports_an_unexhausted_fixpoint_and_bad_programs() -> None:
    p = compile_algorithm("flooding", 1, 2)
    proof = prove_ntk_exact(p, max_states=50)
    assert not proof.complete and not proof.proved
    assert len(initial_states(p)) == 5 * 3  # 5 colours x (no message, message 0, message 1)
    with pytest.raises(ValueError, match="max_states must be an integer >= 1"):
        prove_ntk_exact(p, max_states=0)


def test_pyg_layer_equals_the_executor() -> None:
    pytest.importorskip("torch_geometric")
    import torch

    from icml26.exact_gnn.pyg import edge_index_of, exact_gnn_layer

    rng = np.random.default_rng(6)
    for name, bits, degree, inputs in (("flooding", 1, 3, {"message": 1}), ("bfs", 4, 2, {})):
        p = compile_algorithm(name, bits, degree)
        g = random_bounded_graph(7, degree, rng)
        inputs = {"source": 3, **inputs}
        ex = Executor(p, "ntk")
        layer, edges = exact_gnn_layer(ex), edge_index_of(g)
        x = torch.as_tensor(p.init(g, inputs, distance2_colouring(g)))
        for _ in range(p.rounds(g)):
            x = layer(x, edges)
        assert np.array_equal(x.numpy(), ex.run(g, inputs).states)
    with pytest.raises(ValueError, match="heaviside must be 'before'"):
        exact_gnn_layer(Executor(p, "ntk", heaviside="after"))


def test_grown_ensemble_caches_rows_without_reordering() -> None:
    from icml26.exact_gnn.experiment import _Grown

    rng = np.random.default_rng(7)
    x, y = _data(rng, n=6, d=4, k=2)
    grown = _Grown()
    grown.nets = [MLPEnsemble(1, 8, epochs=0, seed=s, recipe="official").fit(x, y) for s in (1, 2)]
    test = np.concatenate([x[3:], x[:3], x[3:4]])  # repeated and unsorted rows
    np.testing.assert_allclose(
        grown.predict(test), (grown.nets[0].predict(test) + grown.nets[1].predict(test)) / 2
    )


def test_table_compiler_equals_the_hand_built_programs() -> None:
    from icml26.exact_gnn import bfs_table, compile_table, flooding_table

    rng = np.random.default_rng(8)
    flood, bfs = flooding_table(2, 3), bfs_table(10, 3)
    hand_flood, hand_bfs = (
        Executor(compile_algorithm("flooding", 2, 3), "ideal"),
        Executor(compile_algorithm("bfs", 5, 3), "ideal"),
    )
    for _ in range(4):
        g = random_bounded_graph(int(rng.integers(4, 10)), 3, rng)
        src = int(rng.integers(g.number_of_nodes()))
        for m in range(4):
            run = Executor(flood, "ntk").run(g, {"source": src, "message": m})
            assert run.exact and run.outputs == hand_flood.run(g, {"source": src, "message": m}).outputs
        run = Executor(bfs, "ideal").run(g, {"source": src})
        assert run.exact and run.outputs == {
            v: o[0] for v, o in hand_bfs.run(g, {"source": src}).outputs.items()
        }
    states, msgs = ["a", "b"], ["x"]
    good = {(q, h): ("a", None) for q in states for h in (frozenset(), frozenset({"x"}))}
    kwargs = dict(initial=lambda g, i: dict.fromkeys(g, ("a", None)), local_rounds=lambda g: 1,
                  decode_state=str, truth=lambda g, i: dict.fromkeys(g, "a"))  # fmt: skip
    assert compile_table("t", states, msgs, good, 2, **kwargs).n_templates > 0
    with pytest.raises(ValueError, match="unknown messages"):
        compile_table("t", states, msgs, {**good, ("a", frozenset({"y"})): ("a", None)}, 2, **kwargs)
    with pytest.raises(ValueError, match="names a state outside"):
        compile_table("t", states, msgs, {**good, ("c", frozenset()): ("a", None)}, 2, **kwargs)
    with pytest.raises(ValueError, match="no row for 1"):
        compile_table(
            "t", states, msgs, {k: v for k, v in good.items() if k != ("b", frozenset())}, 2, **kwargs
        )
    with pytest.raises(ValueError, match="degree bound"):
        Executor(flood, "ideal").run(nx.star_graph(4), {"source": 0, "message": 1})
