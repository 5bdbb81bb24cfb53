"""Rashomon set: exact small cases against brute force and GOSDT, the bound, diversity, bad input."""

from __future__ import annotations

import json

import numpy as np
import pytest

from icml26.rashomon import (
    RashomonLimitError,
    RashomonSet,
    ThresholdBinarizer,
    Tree,
    diverse_order,
    feature_entropy,
    gosdt_optimum,
    pattern_diversity,
)


def _tiny(seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, (30, 4))
    y = (X[:, 0] ^ X[:, 1]).astype(int)
    y[rng.random(30) < 0.2] ^= 1
    return X, y


def _all_trees(depth: int, d: int, used: tuple[int, ...] = ()) -> list:
    """Every tree of at most ``depth`` splits per path over ``d`` binary features, as nested lists."""
    out: list = [0, 1]
    if depth == 0:
        return out
    for f in range(d):
        if f in used:
            continue
        subs = _all_trees(depth - 1, d, (*used, f))
        out += [[f, a, b] for a in subs for b in subs]
    return out


def _as_tree(node) -> Tree:
    def js(n):
        return (
            {"prediction": n}
            if isinstance(n, int)
            else {"feature": n[0], "true": js(n[1]), "false": js(n[2])}
        )

    return Tree.from_json(js(node))


def _function(tree: Tree) -> tuple[int, ...]:
    grid = np.array([[(i >> j) & 1 for j in range(4)] for i in range(16)])
    return tuple(tree.predict(grid).tolist())


def _treefarms_form(tree: Tree, X: np.ndarray, y: np.ndarray) -> bool:
    """The trees treefarms lists: every leaf predicts its majority label (a tie, an empty leaf included,
    predicts 1) and no two sibling leaves predict the same label (treefarms drops "trivial extensions")."""
    for leaf in tree.leaves:
        m = np.ones(len(y), dtype=bool)
        for f, v in leaf.tests:
            m &= X[:, f] == v
        n1, n0 = int((y[m] == 1).sum()), int((y[m] == 0).sum())
        if leaf.prediction != int(n1 >= n0):
            return False

    def trivial(n) -> bool:
        if isinstance(n, int):
            return False
        return (isinstance(n[1], int) and n[1] == n[2]) or trivial(n[1]) or trivial(n[2])

    return not trivial(json.loads(tree.source))


_ALL_DEPTH2 = [_as_tree(n) for n in _all_trees(2, 4)]


@pytest.mark.parametrize("seed", range(12))
def test_rashomon_set_equals_brute_force(seed: int) -> None:
    """n=30, 4 binary features, depth 2: treefarms' set equals, tree for tree, the brute-force set of all
    trees with Obj <= (1+eps)Obj* in treefarms' form (leaves labelled by majority, ties 1; no trivial
    extension); trees within 1e-6 of the bound may go either way (treefarms works in float32). At the level
    of classifiers it is a subset of the definitional set, strict where a near-optimal classifier needs a
    leaf against its majority (e.g. seed 2: the stump x0 ? 0 : 1, Obj 0.50 <= bound 0.54, is never listed)."""
    X, y = _tiny(seed)
    eps, reg = 0.3, 0.05
    R = RashomonSet(eps, reg, 2).fit(X, y)
    objs = np.array([t.objective(X, y, reg) for t in _ALL_DEPTH2])
    best = objs.min()
    bound = (1 + eps) * best
    assert R.optimum == pytest.approx(best, abs=1e-12)
    g_tree, g_opt = gosdt_optimum(X, y, reg, 2)  # GOSDT at the same depth (its depth_budget counts splits)
    assert g_opt == pytest.approx(best, abs=1e-12) and g_tree.depth <= 2
    ours = {t.source for t in R}
    assert len(ours) == len(R)  # no tree twice
    form = {
        t.source
        for t, o in zip(_ALL_DEPTH2, objs, strict=True)
        if o <= bound + 1e-9 and _treefarms_form(t, X, y)
    }
    on_bound = {t.source for t, o in zip(_ALL_DEPTH2, objs, strict=True) if abs(o - bound) <= 1e-6}
    assert ours - on_bound == form - on_bound
    assert ours <= form
    # classifiers: treefarms' are definitional members; the definitional set may hold more
    definitional = {_function(t) for t, o in zip(_ALL_DEPTH2, objs, strict=True) if o <= bound + 1e-9}
    assert {_function(t) for t in R} <= definitional
    if seed == 2:
        stump = _as_tree([0, 0, 1])
        assert stump.objective(X, y, reg) < bound - 1e-6 and _function(stump) not in {_function(t) for t in R}


def test_every_member_satisfies_bound_and_optimum_matches_gosdt() -> None:
    from sklearn.datasets import load_breast_cancer

    data = load_breast_cancer()
    Xb = ThresholdBinarizer(max_thresholds=10).fit(data.data, data.target).transform(data.data)
    R = RashomonSet(0.05, 0.01, 3).fit(Xb, data.target)
    recomputed = np.array([np.mean(t.predict(Xb) != data.target) + 0.01 * t.n_leaves for t in R])
    np.testing.assert_allclose(recomputed, R.objectives, atol=1e-12)
    assert np.all(recomputed <= 1.05 * recomputed.min() + 1e-9)
    _, opt = gosdt_optimum(Xb, data.target, 0.01, 3)
    assert R.optimum == pytest.approx(opt, abs=1e-9)
    assert all(t.depth <= 3 for t in R)
    assert len(R) == len(list(iter(R))) > 1 and R[0].objective(Xb, data.target, 0.01) == R.optimum


def test_diversity_measures_exact() -> None:
    P = np.array([[0, 0, 1, 1], [0, 1, 1, 1], [1, 1, 1, 1]])
    # pairs: (0,1) 1/4, (0,2) 2/4, (1,2) 1/4 -> mean 1/3
    assert pattern_diversity(P) == pytest.approx(1 / 3)
    assert pattern_diversity(P[:1]) == 0.0
    t1 = _as_tree([0, 0, 1])
    t2 = _as_tree([1, 0, 1])
    assert feature_entropy([t1, t2]) == pytest.approx(np.log(2))
    assert feature_entropy([t1, t1]) == 0.0
    order = diverse_order(P)
    assert order[0] == 0 and order[1] == 2 and sorted(order) == [0, 1, 2]
    X, y = _tiny(0)
    d = RashomonSet(0.3, 0.05, 2).fit(X, y).diversity()
    assert set(d) == {"size", "pattern_diversity", "feature_entropy"} and d["size"] >= 2


def test_tree_parsing_and_leaf_counts() -> None:
    t = _as_tree([0, [1, 1, 0], 0])
    X = np.array([[1, 1], [1, 0], [0, 1], [0, 0]])
    assert t.predict(X).tolist() == [1, 0, 0, 0]
    assert t.n_leaves == 3 and t.depth == 2 and t.features == frozenset({0, 1})
    counts = t.leaf_counts(X, np.array([1, 1, 0, 1]))
    assert counts.tolist() == [[0, 1], [0, 1], [1, 1]]


def test_binarizer_keeps_thresholds() -> None:
    rng = np.random.default_rng(0)
    X = rng.random((200, 3))
    y = (X[:, 0] > 0.6).astype(int)
    b = ThresholdBinarizer(max_thresholds=4).fit(X, y)
    B = b.transform(X)
    assert B.shape == (200, len(b.thresholds_)) and len(b.thresholds_) <= 4
    assert set(np.unique(B)) <= {0, 1}
    assert 0 in b.features_.tolist()  # the informative feature is split on
    j = int(np.argmin(np.abs(b.thresholds_ - 0.6) + 10 * (b.features_ != 0)))
    assert abs(b.thresholds_[j] - 0.6) < 0.05


@pytest.mark.parametrize(
    ("X", "y", "kw", "match"),
    [
        (np.array([[0.5, 1.0], [0.0, 1.0]]), np.array([0, 1]), {}, "binary features"),
        (np.array([[0, 1], [1, 0]]), np.array([0, 2]), {}, r"labels must be in \{0, 1\}"),
        (np.array([[0, 1], [1, 0]]), np.array([0]), {}, "shape"),
        (np.array([0, 1]), np.array([0, 1]), {}, "2-D"),
    ],
)
def test_fit_rejects_bad_input(X, y, kw, match) -> None:
    with pytest.raises(ValueError, match=match):
        RashomonSet(0.1, 0.05, 2, **kw).fit(X, y)


@pytest.mark.parametrize(
    ("kw", "match"),
    [
        ({"eps": 0.0}, "eps must be a finite number > 0"),
        ({"eps": -0.1}, "eps must be a finite number > 0"),
        ({"eps": float("nan")}, "eps must be a finite number > 0"),
        ({"eps": 0.1, "reg": 0}, "reg must be"),
        ({"eps": 0.1, "depth": 0}, "depth"),
        ({"eps": 0.1, "depth": 2.5}, "depth"),
    ],
)
def test_fit_rejects_bad_parameters(kw, match) -> None:
    """Parameters are stored as given (scikit-learn's idiom) and refused by fit, before any enumeration."""
    X, y = _tiny(0)
    R = RashomonSet(**kw)
    with pytest.raises(ValueError, match=match):
        R.fit(X, y)
    assert not hasattr(R, "trees_")


def test_tree_cap_gives_limit_reached() -> None:
    X, y = _tiny(0)
    with pytest.raises(RashomonLimitError, match="limit reached.*cap max_trees=3"):
        RashomonSet(2.0, 0.01, 2, max_trees=3).fit(X, y)


def test_memory_limit_gives_limit_reached() -> None:
    """A large set under a small address-space limit: the child fails, the parent raises 'limit reached'."""
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, (400, 14))
    y = rng.integers(0, 2, 400)
    with pytest.raises(RashomonLimitError, match="limit reached"):
        RashomonSet(1.0, 0.001, 4, memory_mb=600, time_limit=30).fit(X, y)


def test_single_class_is_rejected() -> None:
    X, _ = _tiny(0)
    with pytest.raises(ValueError, match="single class"):
        RashomonSet(0.5, 0.05, 2).fit(X, np.zeros(30, int))


def test_enumeration_runs_from_a_process_that_maps_more_than_the_budget() -> None:
    """The child's memory limit bounds what the enumeration adds, not the address space it inherits: a
    parent mapping 6 GiB (an untouched anonymous mmap, as a process holding torch and Ray maps) still
    enumerates under the default 4096 MB budget (a bare RLIMIT_AS of 4 GiB killed the child at once)."""
    import mmap

    X, y = _tiny(0)
    big = mmap.mmap(-1, 6 * 2**30, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)  # reserved, never touched
    try:
        R = RashomonSet(0.5, 0.05, 2, time_limit=30).fit(X, y)
    finally:
        big.close()
    assert len(R) >= 1
