"""Second pass (issue 44): leaf boxes on hand-built trees, the baselines' values on small cases, the
definitional R(eps) against brute force, the real alternatives to switching, the API asks, bad input."""

from __future__ import annotations

import itertools
import json
import warnings

import numpy as np
import pytest

from icml26.rashomon import (
    BoxModel,
    RashomonSet,
    ThresholdBinarizer,
    Tree,
    adversarial_examples,
    marginal_mode_guess,
    random_guess,
    reactive_defense,
)
from icml26.rashomon.full_set import full_count, full_trees
from icml26.rashomon.robustness import halves, own_attack_selection, pool_selection, select_and_score


def _tiny(seed: int, n: int = 30, d: int = 4) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, (n, d))
    y = (X[:, 0] ^ X[:, 1]).astype(int)
    y[rng.random(n) < 0.2] ^= 1
    return X, y


# ---------------------------------------------------------------- boxes: the side convention


def _hand_tree() -> Tree:
    # feature 0 is x0 <= 0.3, feature 1 is x1 <= 0.6; "true" is the branch where the binary feature is 1
    return Tree.from_json(
        {
            "feature": 0,
            "true": {"prediction": 1},
            "false": {"feature": 1, "true": {"prediction": 0}, "false": {"prediction": 1}},
        }
    )


def test_boxes_follow_the_side_convention_of_each_threshold() -> None:
    binz = ThresholdBinarizer(thresholds=[(0, 0.3), (1, 0.6)]).fit(np.zeros((1, 2)))
    box = binz.boxes(_hand_tree())
    # leaf 0: x0 <= 0.3 (label 1); leaf 1: x0 > 0.3, x1 <= 0.6 (label 0); leaf 2: x0 > 0.3, x1 > 0.6 (1)
    assert box.hi[0, 0] == 0.3 and box.lo[0, 0] == -np.inf and np.isinf(box.hi[0, 1])
    assert box.lo[1, 0] > 0.3 and box.hi[1, 1] == 0.6 and box.lo[2, 1] > 0.6
    pts = np.array([[0.3, 0.9], [0.2999, 0.1], [0.3001, 0.6], [0.3001, 0.5999], [0.3001, 0.6001], [0.9, 0.9]])
    assert box.predict(pts).tolist() == [1, 1, 0, 0, 1, 1]
    tree = _hand_tree()
    rng = np.random.default_rng(0)
    X = rng.random((400, 2))
    assert np.array_equal(box.predict(X), tree.predict(binz.transform(X)))  # both sides of each threshold


def test_boxes_attack_moves_across_the_right_side() -> None:
    binz = ThresholdBinarizer(thresholds=[(0, 0.5)]).fit(np.zeros((1, 1)))
    box = binz.boxes(Tree.from_json({"feature": 0, "true": {"prediction": 0}, "false": {"prediction": 1}}))
    X = np.array([[0.45], [0.55]])
    moved = adversarial_examples(X, np.array([0, 1]), box, 0.1)
    assert moved[0, 0] > 0.5 and moved[1, 0] == 0.5  # label 0 lives at x <= 0.5
    assert box.predict(moved).tolist() == [1, 0]


def test_binarizer_given_thresholds_and_bad_input() -> None:
    binz = ThresholdBinarizer(thresholds=[(1, 0.5), (0, 0.2)]).fit(np.zeros((3, 2)))
    assert binz.transform(np.array([[0.1, 0.7], [0.3, 0.4]])).tolist() == [[0, 1], [1, 0]]
    for bad in ([], [(0,)], [(-1, 0.1)], [(0, float("nan"))], [(True, 0.1)]):
        with pytest.raises(ValueError, match="thresholds must be"):
            ThresholdBinarizer(thresholds=bad)
    with pytest.raises(ValueError, match="width"):
        ThresholdBinarizer(thresholds=[(3, 0.1)]).fit(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="y is needed"):
        ThresholdBinarizer().fit(np.zeros((2, 2)))


# ---------------------------------------------------------------- baselines on small cases


def test_marginal_mode_guess_values() -> None:
    X = np.array([[1, 0, 1], [1, 0, 0], [0, 1, 0], [1, 0, 0]])
    y = np.array([0, 0, 1, 0])
    Xg, yg = marginal_mode_guess(X, y)
    assert Xg.tolist() == [[1, 0, 0]] * 4 and yg.tolist() == [0] * 4
    Xr, yr = random_guess(50, 3, np.random.default_rng(0))
    assert Xr.shape == (50, 3) and set(np.unique(Xr)) <= {0, 1} and 0.2 < Xr.mean() < 0.8


def test_select_and_score_selects_on_a_scores_on_b() -> None:
    ok = np.array([[1, 1, 0, 0], [0, 0, 1, 1], [1, 0, 1, 0]], dtype=bool)
    A, B = np.array([0, 1]), np.array([2, 3])
    assert select_and_score(ok, A, B) == 0.0  # row 0 is best on A and wrong on B
    assert select_and_score(ok, B, A) == 0.0  # row 1 is best on B and wrong on A
    A, B = halves(10, 3)
    assert sorted(np.concatenate([A, B]).tolist()) == list(range(10)) and len(A) == 5


class _Const:
    def __init__(self, label: int) -> None:
        self.label = label

    def predict(self, X: np.ndarray) -> np.ndarray:
        return np.full(len(X), self.label)


def test_pool_and_own_attack_alternatives_small_case() -> None:
    y = np.array([1, 1, 1, 1, 0, 1, 1, 1])
    X = np.zeros((8, 1))
    A, B = halves(8, 0)
    best = pool_selection([_Const(0), _Const(1)], X, y, seed=0)
    assert best == pytest.approx(np.mean(y[B] == 1))

    # two stumps at x <= 0.5: one labels the left side 1 (every point at 0.2 correct, at distance 0.3
    # from the other side), the other at 0.25 with margin 0.05
    def stump(t: float) -> BoxModel:
        return BoxModel(np.array([[-np.inf], [t + 1e-9]]), np.array([[t], [np.inf]]), np.array([1, 0]))

    Xp = np.full((8, 1), 0.2)
    yp = np.ones(8, dtype=int)
    assert own_attack_selection([stump(0.25), stump(0.5)], Xp, yp, 0.1, seed=0) == 1.0
    assert own_attack_selection([stump(0.25)], Xp, yp, 0.1, seed=0) == 0.0


def test_reactive_defense_accepts_pre_attacked_points() -> None:
    binz = ThresholdBinarizer(thresholds=[(0, 0.5), (1, 0.5)]).fit(np.zeros((1, 2)))
    f0 = binz.boxes(Tree.from_json({"feature": 0, "true": {"prediction": 0}, "false": {"prediction": 1}}))
    g = binz.boxes(Tree.from_json({"feature": 1, "true": {"prediction": 0}, "false": {"prediction": 1}}))
    rng = np.random.default_rng(1)
    X = rng.random((40, 2))
    y = (X[:, 0] > 0.5).astype(int)
    X_adv = adversarial_examples(X, y, f0, 0.1)
    a = reactive_defense([f0, g], f0, X, y, 0.1, seed=2)
    b = reactive_defense([f0, g], f0, X, y, 0.1, seed=2, X_adv=X_adv)
    assert a == b
    c = reactive_defense([f0, g], f0, X, y, 0.1, seed=2, X_adv=X)  # "attacked" points that did not move
    assert c["f0_adv"] == c["f0_clean"] == 1.0 and c["f0_adv"] != a["f0_adv"]
    with pytest.raises(ValueError, match="X_adv must be"):
        reactive_defense([f0, g], f0, X, y, 0.1, X_adv=X_adv[:3])


def test_attacks_warn_on_unscaled_features() -> None:
    binz = ThresholdBinarizer(thresholds=[(0, 50.0)]).fit(np.zeros((1, 1)))
    f0 = binz.boxes(Tree.from_json({"feature": 0, "true": {"prediction": 0}, "false": {"prediction": 1}}))
    with pytest.warns(UserWarning, match="min-max units"):
        adversarial_examples(np.array([[10.0], [90.0]]), np.array([0, 1]), f0, 0.1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        adversarial_examples(np.array([[0.1], [1.2]]), np.array([0, 0]), f0, 0.1)


# ---------------------------------------------------------------- the definitional R(eps)


def _brute_force_all_labellings(X: np.ndarray, y: np.ndarray, reg: float, depth: int, bound: float) -> set:
    """Every tree of <= depth splits per path (no feature twice on a path), every leaf labelling."""
    d = X.shape[1]

    def trees(used: frozenset, budget: int) -> list:
        out: list = [0, 1]
        if budget:
            for j in range(d):
                if j not in used:
                    below = trees(used | {j}, budget - 1)
                    out += [[j, t, f] for t, f in itertools.product(below, below)]
        return out

    keep = set()
    for nested in trees(frozenset(), depth):
        t = Tree.from_json(_as_json(nested))
        if t.objective(X, y, reg) <= bound + 1e-9:
            keep.add(t.source)
    return keep


def _as_json(n):
    if isinstance(n, int):
        return {"prediction": n}
    return {"feature": n[0], "true": _as_json(n[1]), "false": _as_json(n[2])}


@pytest.mark.parametrize(("seed", "reg", "bound"), [(0, 0.02, 0.32), (1, 0.05, 0.45), (2, 0.03, 0.40)])
def test_full_rashomon_set_equals_brute_force_with_every_labelling(seed, reg, bound) -> None:
    X, y = _tiny(seed, n=24, d=3)
    brute = _brute_force_all_labellings(X, y, reg, 2, bound)
    listed = {t.source for t in full_trees(X, y, reg, 2, bound)}
    assert listed == brute
    assert full_count(X, y, reg, 2, bound) == len(brute)


def test_full_count_contains_treefarms_set_and_counts_what_it_omits() -> None:
    X, y = _tiny(0)
    R = RashomonSet(0.3, 0.02, 2).fit(X, y)
    full = {t.source for t in full_trees(X, y, 0.02, 2, R.bound + 1e-6)}
    assert {t.source for t in R} <= full
    assert R.full_count() == len(full) == 13 and len(R) == 5  # treefarms omits redundant splits


def test_full_count_exact_tiny_case() -> None:
    # 4 rows, one feature that separates the labels exactly: the optimum is the stump (Obj = 2 reg);
    # within a bound of 2.5 reg with reg = 0.1: the stump only (a leaf costs 0.5 + 0.1, the other
    # labellings of the stump misclassify >= 2 rows)
    X = np.array([[0], [0], [1], [1]])
    y = np.array([0, 0, 1, 1])
    assert full_count(X, y, 0.1, 1, 0.25) == 1
    # a bound of 0.7 also admits the two leaves (0.5 + 0.1) and the two stumps labelling both sides alike
    assert full_count(X, y, 0.1, 1, 0.7) == 5


@pytest.mark.parametrize(
    ("kw", "match"),
    [
        ({"reg": 0.0}, "reg must"),
        ({"bound": -1.0}, "bound must"),
        ({"depth": 0}, "depth"),
        ({"depth": 9}, "depth"),
    ],
)
def test_full_count_rejects_bad_input(kw, match) -> None:
    X, y = _tiny(0)
    args = {"reg": 0.02, "depth": 2, "bound": 0.3, **kw}
    with pytest.raises(ValueError, match=match):
        full_count(X, y, **args)


# ---------------------------------------------------------------- RashomonSet API and bad input


def test_rashomon_set_api_params_predict_score() -> None:
    X, y = _tiny(3)
    R = RashomonSet(0.3, 0.02, 2)
    assert R.get_params()["eps"] == 0.3 and R.get_params()["depth"] == 2
    assert R.set_params(depth=3).depth == 3
    R.set_params(depth=2).fit(X, y)
    P = R.predictions(X)
    maj = R.predict(X)
    share = P.mean(axis=0)
    assert np.array_equal(maj[share > 0.5], np.ones((share > 0.5).sum())) and not maj[share < 0.5].any()
    assert np.array_equal(R.predict(X, vote="optimal"), R[0].predict(X))
    assert R.score(X, y) == pytest.approx(np.mean(maj == y))
    assert R.raw_excess_ >= float(np.max(R.objectives - R.bound)) - 1e-12
    for width in (X.shape[1] - 1, X.shape[1] + 1):  # a point of another width is refused, never labelled
        with pytest.raises(ValueError, match="fitted on"):
            R.predict(np.zeros((2, width), dtype=int))
    assert float(np.max(R.objectives - R.bound)) <= 1e-6  # the filter's invariant
    with pytest.raises(ValueError, match="vote must be"):
        R.predict(X, vote="mean")
    with pytest.raises(ValueError, match="Invalid parameter 'alpha'"):
        R.set_params(alpha=1)
    with pytest.raises(ValueError, match="not fitted"):
        RashomonSet(0.1).predict(X)


@pytest.mark.parametrize(
    ("kw", "match"),
    [({"eps": 0}, "eps"), ({"eps": -0.1}, "eps"), ({"depth": 0}, "depth"), ({"depth": 1.5}, "depth")],
)
def test_rashomon_set_rejects_bad_parameters(kw, match) -> None:
    X, y = _tiny(0)
    with pytest.raises(ValueError, match=match):
        RashomonSet(**{"eps": 0.1, **kw}).fit(X, y)


def test_fit_rejects_non_binary_features_and_a_single_class() -> None:
    X, y = _tiny(0)
    with pytest.raises(ValueError, match="binary features"):
        RashomonSet(0.1).fit(X * 0.5, y)
    with pytest.raises(ValueError, match="single class"):
        RashomonSet(0.1).fit(X, np.ones(30, int))
    with pytest.raises(ValueError, match="labels must be in"):
        RashomonSet(0.1).fit(X, y * 2)


def test_tree_json_roundtrip_for_hand_tree() -> None:
    t = _hand_tree()
    assert json.loads(t.source) == [0, 1, [1, 0, 1]]
