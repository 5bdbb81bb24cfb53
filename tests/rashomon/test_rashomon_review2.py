"""Second look at issue 44: the definitional R(eps) by branch and bound against brute force, the filter that
defines R(eps), the recovery rule and its failing control, the robust-tree baseline, independent stability
draws, scikit-learn's estimator idiom, and the multi-class refusal."""

from __future__ import annotations

import json

import numpy as np
import pytest

from icml26.common import comparison_key, verdict
from icml26.rashomon import RashomonSet, Tree, adversarial_accuracy
from icml26.rashomon import rashomon_set as rs
from icml26.rashomon.baselines import robust_tree
from icml26.rashomon.claims import TESTS
from icml26.rashomon.full_set import enumerate_full, exact_optimum, full_count
from icml26.rashomon.stability import _stab_data


def _tiny(seed: int, n: int = 30, d: int = 4) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, (n, d))
    y = (X[:, 0] ^ X[:, 1]).astype(int)
    y[rng.random(n) < 0.2] ^= 1
    return X, y


def _brute_force_all_labellings(X: np.ndarray, y: np.ndarray, reg: float, depth: int, bound: float) -> set:
    """Every tree of <= depth splits per path (no feature twice on a path), every leaf labelling, as the
    JSON of its nested ``[feature, true, false]`` lists, kept when Obj <= bound (written here, independently)."""
    d = X.shape[1]

    def trees(used: frozenset, budget: int) -> list:
        out: list = [0, 1]
        if budget:
            for j in range(d):
                if j not in used:
                    below = trees(used | {j}, budget - 1)
                    out += [[j, t, f] for t in below for f in below]
        return out

    return {
        json.dumps(t) for t in trees(frozenset(), depth) if _obj(json.dumps(t), X, y, reg) <= bound + 1e-9
    }


CLAIMS = {c.name: c for c in TESTS}


# ---------------------------------------------------------------- the definitional set, enumerated


@pytest.mark.parametrize(
    ("seed", "reg", "eps"), [(0, 0.02, 0.2), (1, 0.05, 0.3), (2, 0.03, 0.15), (4, 0.01, 0.1)]
)
def test_exact_enumeration_equals_brute_force_with_every_labelling(seed, reg, eps) -> None:
    X, y = _tiny(seed, n=24, d=3)
    trees, opt = enumerate_full(X, y, reg, 2, eps)
    # the optimum over every tree (brute force: the least objective of all trees within a loose bound)
    everything = _brute_force_all_labellings(X, y, reg, 2, 10.0)
    objs = {s: _obj(s, X, y, reg) for s in everything}
    assert opt == pytest.approx(min(objs.values()), abs=1e-12)
    assert exact_optimum(X, y, reg, 2) == pytest.approx(opt, abs=1e-12)
    want = {s for s, o in objs.items() if o <= (1 + eps) * opt + 1e-9}
    assert {t.source for t in trees} == want
    assert full_count(X, y, reg, 2, (1 + eps) * opt + 1e-9) == len(want)
    got = [t.objective(X, y, reg) for t in trees]
    assert got == sorted(got)  # by objective, the optimum first
    R = RashomonSet(eps, reg, 2, enumerator="exact").fit(X, y)
    assert {t.source for t in R} == want and R.optimum == pytest.approx(opt) and R.n_dropped_ == 0


def _obj(source: str, X, y, reg) -> float:
    def as_json(n):
        return (
            {"prediction": n}
            if isinstance(n, int)
            else {"feature": n[0], "true": as_json(n[1]), "false": as_json(n[2])}
        )

    return Tree.from_json(as_json(json.loads(source))).objective(X, y, reg)


def test_exact_enumeration_contains_treefarms_set() -> None:
    X, y = _tiny(0)
    R_tf = RashomonSet(0.3, 0.02, 2).fit(X, y)
    R = RashomonSet(0.3, 0.02, 2, enumerator="exact").fit(X, y)
    assert R.optimum == pytest.approx(R_tf.optimum)
    assert len(R) == R_tf.full_count() == 13 and len(R_tf) == 5
    assert all(t.objective(X, y, 0.02) <= R.bound + 1e-9 for t in R)


def test_exact_enumeration_cap_gives_limit_reached() -> None:
    X, y = _tiny(0)
    with pytest.raises(rs.RashomonLimitError, match="limit reached.*definitional"):
        RashomonSet(2.0, 0.01, 2, max_trees=3, enumerator="exact").fit(X, y)


# ---------------------------------------------------------------- the filter that defines R(eps)


def test_fit_drops_every_tree_the_enumerator_returns_above_the_bound(monkeypatch) -> None:
    """The filter is R(eps)'s definition: a tree treefarms returns above (1 + eps) Obj* is dropped, counted
    and warned about; a tree at the bound is kept (a fit without the filter keeps the bad tree)."""
    X, y = _tiny(0)
    good = RashomonSet(0.3, 0.02, 2).fit(X, y)
    bad = Tree.from_json({"prediction": 0})  # a single leaf: Obj = share of ones + reg, far above the bound
    assert bad.objective(X, y, 0.02) > good.bound + 1e-3
    real = rs.enumerate_trees
    monkeypatch.setattr(rs, "enumerate_trees", lambda *a, **k: [*real(*a, **k), bad])
    with pytest.warns(UserWarning, match="above the Rashomon bound"):
        R = RashomonSet(0.3, 0.02, 2).fit(X, y)
    assert R.n_dropped_ == 1 and R.raw_size_ == len(good) + 1 and len(R) == len(good)
    assert bad.source not in {t.source for t in R}
    assert float(np.max(R.objectives)) <= R.bound + rs.BOUND_TOLERANCE
    assert R.raw_excess_ == pytest.approx(bad.objective(X, y, 0.02) - R.bound)
    assert {t.source for t in R} == {t.source for t in good}


# ---------------------------------------------------------------- recovery: f0 un-switched must fail


def _with_interval(m: dict) -> dict:
    key = comparison_key("bc_switched_worst", "bc_f0_clean", "difference")
    diff = m["bc_switched_worst"] - m["bc_f0_clean"]
    return {**m, key + "_ci_low": diff - 0.01, key + "_ci_high": diff + 0.01}


def test_recovery_rule_fails_for_f0_unswitched_and_its_control() -> None:
    claim = CLAIMS["reactive_recovers_clean"]
    assert claim.metric == "bc_switched_worst" and claim.controls == ("bc_f0_worst",)
    # f0 as "the switched member": clean 0.93, attacked 0.60 -> its worst case is the attacked accuracy
    no_switch = {"bc_f0_clean": 0.93, "bc_switched_worst": 0.60, "bc_f0_worst": 0.60}
    no_switch |= {"bc_switched_adv": 0.60, "bc_switched_clean": 0.93}
    assert verdict(claim, _with_interval(no_switch), {}, "quick").verdict == "refuted"
    # a member that recovers on attacked points and stays accurate on clean ones passes; the control fails
    good = {**no_switch, "bc_switched_worst": 0.92, "bc_switched_adv": 0.92, "bc_switched_clean": 0.94}
    v = verdict(claim, _with_interval(good), {}, "quick")
    assert v.verdict == "toy-verified" and v.controls_passing == ()
    # one that is robust but lost clean accuracy fails (the worst case is the clean accuracy)
    lossy = {**no_switch, "bc_switched_worst": 0.85, "bc_switched_adv": 0.92, "bc_switched_clean": 0.85}
    assert verdict(claim, _with_interval(lossy), {}, "quick").verdict == "refuted"


def test_worst_case_metrics_in_the_experiment_are_the_minimum() -> None:
    from icml26.rashomon.experiment import EXPERIMENT, _robust_split

    cfg = {**EXPERIMENT.profiles["smoke"], "attack_eps": [0.1], "ks": [1, 2], "n_orders": 1, "pool_size": 1}
    out = _robust_split("wine", {**cfg, "eps_grid": [0.05]}, 1, 0)
    rd = out["per_eps"][0.1]
    assert rd["switched_worst"] == min(rd["switched_adv"], rd["switched_clean"])
    assert rd["f0_worst"] == min(rd["f0_adv"], rd["f0_clean"]) == rd["f0_adv"]
    assert 0.0 <= rd["advtree_f0attack_adv"] <= 1.0 and 0.0 <= rd["advtree_adv"] <= rd["advtree_clean"]


# ---------------------------------------------------------------- the adversarially trained baseline


def _margin_data() -> tuple[np.ndarray, np.ndarray]:
    """Feature 0 separates the classes exactly but with a 0.02 gap; feature 1 separates 90% of them with a
    wide gap: plain Gini takes feature 0, a split robust to eps = 0.1 takes feature 1."""
    rng = np.random.default_rng(0)
    n = 16  # few distinct values: every midpoint is a candidate
    y = np.repeat([0, 1], n // 2)
    x0 = np.where(y == 1, 0.51 + 0.01 * rng.random(n), 0.48 + 0.01 * rng.random(n))
    x1 = np.where(y == 1, 0.8 + 0.1 * rng.random(n), 0.1 + 0.1 * rng.random(n))
    flip = np.array([0, 15])
    x1[flip] = 0.95 - x1[flip]  # 2 of 16 on the wrong side of feature 1
    return np.column_stack([x0, x1]), y


def test_robust_tree_trades_clean_fit_for_robustness() -> None:
    X, y = _margin_data()
    plain = robust_tree(X, y, 1, 0.0)
    robust = robust_tree(X, y, 1, 0.1)
    assert np.isfinite(plain.hi[0, 0]) and np.isinf(plain.hi[0, 1])  # splits on feature 0
    assert np.isfinite(robust.hi[0, 1]) and np.isinf(robust.hi[0, 0])  # splits on feature 1
    assert adversarial_accuracy(X, y, plain, 0.0) == 1.0
    assert adversarial_accuracy(X, y, plain, 0.1) == 0.0  # every point is within 0.1 of the threshold
    assert adversarial_accuracy(X, y, robust, 0.1) == pytest.approx(14 / 16)
    assert adversarial_accuracy(X, y, robust, 0.0) == pytest.approx(14 / 16)


def test_robust_tree_labels_and_bad_input() -> None:
    X, y = _margin_data()
    t = robust_tree(X, y, 3, 0.1)
    assert set(t.labels.tolist()) == {0, 1} and np.mean(t.predict(X) == y) >= 14 / 16
    flipped = robust_tree(X, 1 - y, 3, 0.1)
    assert np.array_equal(flipped.predict(X), 1 - t.predict(X))
    with pytest.raises(ValueError, match="depth"):
        robust_tree(X, y, 0, 0.1)
    with pytest.raises(ValueError, match="eps"):
        robust_tree(X, y, 2, -0.1)


# ---------------------------------------------------------------- stability draws


def test_compas_stability_draws_are_independent_subsamples() -> None:
    cfg = {"stab_n": 300, "max_thresholds": 16, "depth": 3}
    a, ya, _ = _stab_data("compas", cfg, 0, 0)
    b, yb, _ = _stab_data("compas", cfg, 0, 1)
    a2, _, _ = _stab_data("compas", cfg, 0, 0)
    assert np.array_equal(a, a2)  # seeded
    assert not np.array_equal(a, b)


# ---------------------------------------------------------------- scikit-learn's idiom, multi-class


def test_clone_and_estimator_checks() -> None:
    from sklearn.base import clone
    from sklearn.utils.estimator_checks import (
        check_get_params_invariance,
        check_no_attributes_set_in_init,
        check_parameters_default_constructible,
        check_set_params,
    )

    R = RashomonSet(0.2, 0.02, 2, enumerator="exact")
    c = clone(R)
    assert c is not R and c.get_params() == R.get_params()
    X, y = _tiny(1)
    R.fit(X, y)
    c = clone(R)
    assert not hasattr(c, "trees_") and len(c) == 0  # a clone is unfitted
    assert len(c.fit(X, y)) == len(R)
    bad = clone(RashomonSet(eps=-1.0))  # stored as given; refused at fit
    assert bad.eps == -1.0
    with pytest.raises(ValueError, match="eps"):
        bad.fit(X, y)
    for check in (
        check_no_attributes_set_in_init,
        check_parameters_default_constructible,
        check_get_params_invariance,
        check_set_params,
    ):
        check("RashomonSet", RashomonSet())


def test_multiclass_is_refused_with_one_message() -> None:
    X, y = _tiny(0)
    y3 = y.copy()
    y3[:5] = 2
    with pytest.raises(ValueError, match="3 classes: RashomonSet is binary only"):
        RashomonSet(0.1).fit(X, y3)


@pytest.mark.parametrize(
    ("kw", "match"),
    [
        ({"enumerator": "gosdt"}, "enumerator must be one of"),
        ({"max_trees": 0}, "max_trees"),
        ({"isolate": 1}, "isolate"),
    ],
)
def test_fit_refuses_bad_new_parameters(kw, match) -> None:
    X, y = _tiny(0)
    with pytest.raises(ValueError, match=match):
        RashomonSet(0.1, **kw).fit(X, y)


def test_robust_tree_boxes_leave_no_gap() -> None:
    """A point just above a threshold (e.g. an attack's projection onto another model's box edge t + 1e-9,
    which the robust tree's own threshold may sit a hair below) falls in exactly one box."""
    X, y = _margin_data()
    robust = robust_tree(X, y, 1, 0.1)
    t = float(robust.hi[0, 1])
    pts = np.array([[0.5, t], [0.5, np.nextafter(t, 1.0)], [0.5, t + 1e-10], [0.5, t + 5e-10]])
    assert robust.predict(pts).tolist() == [robust.labels[0]] + [robust.labels[1]] * 3
