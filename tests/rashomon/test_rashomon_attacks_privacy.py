"""Attacks against brute force on 2-D grids, reactive defence, reconstruction exactness, MIA, stability, data."""

from __future__ import annotations

import numpy as np
import pytest

from icml26.rashomon import (
    BoxModel,
    RashomonSet,
    Tree,
    adversarial_accuracy,
    adversarial_examples,
    evasion_distance,
    evasion_distance_loop,
    linear_evasion_distance,
    marginal_mode_guess,
    membership_inference,
    reactive_defense,
    reconstruct,
    reconstruction_error,
    shift_dataset,
    sklearn_boxes,
    stability,
    tree_predict_proba,
)


def _grid_model(seed: int) -> BoxModel:
    from sklearn.tree import DecisionTreeClassifier

    rng = np.random.default_rng(seed)
    X = rng.random((60, 2))
    y = ((X[:, 0] > 0.5) ^ (X[:, 1] > 0.3)).astype(int)
    y[rng.random(60) < 0.15] ^= 1
    return sklearn_boxes(DecisionTreeClassifier(max_depth=4, random_state=0).fit(X, y))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_box_attack_distance_matches_brute_force_on_grid(seed: int) -> None:
    """The exact L-inf distance to the other label equals a brute-force search over a fine 2-D grid
    (within the grid's step), and the vectorised and loop versions agree exactly."""
    model = _grid_model(seed)
    rng = np.random.default_rng(seed + 10)
    pts = rng.random((25, 2))
    y = model.predict(pts)
    exact = evasion_distance(pts, y, model)
    np.testing.assert_array_equal(exact, evasion_distance_loop(pts, y, model))
    step = 1 / 400
    g = np.arange(-0.5, 1.5 + step, step)
    G = np.stack(np.meshgrid(g, g), axis=-1).reshape(-1, 2)
    labels = model.predict(G)
    for x, yi, d in zip(pts, y, exact, strict=True):
        other = G[labels != yi]
        brute = np.abs(other - x).max(axis=1).min()
        assert abs(brute - d) <= step + 1e-9
    # moving to the adversarial example flips exactly the points within budget
    eps = float(np.median(exact))
    adv = adversarial_examples(pts, y, model, eps)
    flipped = model.predict(adv) != y
    np.testing.assert_array_equal(flipped, exact <= eps)
    assert np.all(np.abs(adv - pts).max(axis=1) <= eps + 1e-6)
    assert adversarial_accuracy(pts, y, model, eps) == pytest.approx(np.mean(exact > eps))


def test_linear_min_perturbation_closed_form() -> None:
    w, b = np.array([2.0, -1.0]), 0.5
    X = np.array([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]])
    y = np.array([1, 0, 1])
    d = linear_evasion_distance(X, y, w, b)
    np.testing.assert_allclose(d, [2.5 / 3, 0.5 / 3, 0.5 / 3])
    # the perturbation -d sign(w) (for label 1) lands on the boundary
    np.testing.assert_allclose((X[0] - d[0] * np.sign(w)) @ w + b, 0.0, atol=1e-12)
    assert linear_evasion_distance(X, 1 - y, w, b).tolist() == [0.0, 0.0, 0.0]
    with pytest.raises(ValueError, match="nonzero"):
        linear_evasion_distance(X, y, np.zeros(2), 0.0)


def test_attack_rejects_bad_input() -> None:
    model = _grid_model(0)
    with pytest.raises(ValueError, match="shape"):
        evasion_distance(np.zeros((3, 5)), np.zeros(3, int), model)
    with pytest.raises(ValueError, match="labels must be in"):
        evasion_distance(np.zeros((3, 2)), np.array([0, 1, 3]), model)
    with pytest.raises(ValueError, match="eps"):
        adversarial_accuracy(np.zeros((3, 2)), np.zeros(3, int), model, -0.1)


def test_reactive_defense_switches_to_a_robust_member() -> None:
    """f0 splits at 0.5 on x0 (fragile for points near 0.5); a member splitting at 0.2 on the same feature
    sees the same labels on these points and is not moved by the attack on f0."""
    f0 = BoxModel(
        np.array([[-np.inf, -np.inf], [0.5 + 1e-9, -np.inf]]),
        np.array([[0.5, np.inf], [np.inf, np.inf]]),
        np.array([0, 1]),
    )
    robust = BoxModel(
        np.array([[-np.inf, -np.inf], [-np.inf, 0.5 + 1e-9]]),
        np.array([[np.inf, 0.5], [np.inf, np.inf]]),
        np.array([0, 1]),
    )
    X = np.array([[0.45, 0.1], [0.55, 0.9]] * 10)
    y = np.array([0, 1] * 10)
    out = reactive_defense([f0, robust], f0, X, y, eps=0.1)
    assert out["f0_clean"] == 1.0 and out["f0_adv"] == 0.0
    assert out["switched_adv"] == 1.0 and out["best_index"] == 1.0
    assert out["survival"] == 0.5
    with pytest.raises(TypeError, match="BoxModel"):
        reactive_defense([f0], "f0", X, y, 0.1)


def _full_tree(d: int) -> Tree:
    def build(level: int):
        if level == d:
            return {"prediction": 0}
        return {"feature": level, "true": build(level + 1), "false": build(level + 1)}

    return Tree.from_json(build(0))


def test_reconstruction_exact_when_all_leaf_cells_disclosed() -> None:
    rng = np.random.default_rng(0)
    n, d = 25, 4
    X = rng.integers(0, 2, (n, d)).astype(np.int8)
    y = rng.integers(0, 2, n)
    tree = _full_tree(d)  # 2^d leaves: every cell of {0,1}^d
    assert tree.n_leaves == 2**d
    sol = reconstruct([(tree, tree.leaf_counts(X, y))], n, d, time_limit=20)
    assert sol is not None
    assert reconstruction_error(X, y, *sol) == 0.0


def test_reconstruction_consistent_and_bad_input() -> None:
    rng = np.random.default_rng(1)
    X = rng.integers(0, 2, (40, 5)).astype(np.int8)
    y = (X[:, 0] | X[:, 1]).astype(int)
    R = RashomonSet(0.2, 0.02, 2).fit(X, y)
    models = [(t, t.leaf_counts(X, y)) for t in R.trees[:3]]
    Xh, yh = reconstruct(models, 40, 5)
    for t, c in models:  # the reconstruction reproduces every disclosed count
        np.testing.assert_array_equal(t.leaf_counts(Xh, yh), c)
    assert (
        0.0
        <= reconstruction_error(X, y, Xh, yh)
        <= reconstruction_error(X, y, *marginal_mode_guess(X, y)) + 0.2
    )
    with pytest.raises(ValueError, match="summing to n"):
        reconstruct(models, 41, 5)
    with pytest.raises(ValueError, match="at least one"):
        reconstruct([], 40, 5)
    t, c = models[0]
    no_positives = np.column_stack([c.sum(axis=1), np.zeros(len(c), int)])
    with pytest.raises(ValueError, match="inconsistent"):
        reconstruct([models[0], (t, no_positives)], 40, 5)


def test_reconstruction_error_exact_small_case() -> None:
    X = np.array([[0, 0], [1, 1]])
    y = np.array([0, 1])
    assert reconstruction_error(X, y, X[::-1], y[::-1]) == 0.0  # rows matched, not compared in order
    assert reconstruction_error(X, y, np.array([[0, 1], [1, 1]]), y) == pytest.approx(1 / 6)


def test_membership_inference_separates_memorising_model() -> None:
    """A lookup table that is confident on members only is caught by both attacks; a constant model is not."""
    rng = np.random.default_rng(0)
    Xm, Xn = rng.random((200, 3)), rng.random((200, 3))
    ym, yn = rng.integers(0, 2, 200), rng.integers(0, 2, 200)

    def memorise(X):  # ART passes float32: match members by distance, not by exact value
        X = np.asarray(X, dtype=float)
        near = np.abs(X[:, None, :] - Xm[None]).max(axis=2)
        hit = near.min(axis=1) < 1e-5
        return np.where(hit[:, None], np.eye(2)[ym[near.argmin(axis=1)]], 0.5)

    res = membership_inference(memorise, (Xm, ym), (Xn, yn))
    assert res["black_box"] >= 0.9
    const = membership_inference(lambda X: np.tile([0.5, 0.5], (len(X), 1)), (Xm, ym), (Xn, yn))
    assert const["black_box"] <= 0.6
    with pytest.raises(ValueError, match="balanced"):
        membership_inference(memorise, (Xm, ym), (Xn[:10], yn[:10]))
    with pytest.raises(ValueError, match=r"\(n, 2\)"):
        membership_inference(lambda X: np.zeros(len(X)), (Xm, ym), (Xn, yn))


def test_tree_predict_proba_is_leaf_share() -> None:
    t = Tree.from_json({"feature": 0, "true": {"prediction": 1}, "false": {"prediction": 0}})
    X = np.array([[1], [1], [1], [0]])
    y = np.array([1, 1, 0, 0])
    np.testing.assert_allclose(
        tree_predict_proba(t, X, y)(np.array([[1], [0]])), [[1 / 3, 2 / 3], [1.0, 0.0]]
    )


def test_shifts_and_stability() -> None:
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, (200, 5)).astype(np.int8)
    y = (X[:, 0] & X[:, 1]).astype(int)
    X2, y2 = shift_dataset(X, y, "label_flip", 0.02, np.random.default_rng(1))
    assert (y2 != y).sum() == 4 and (X2 == X).all()
    X3, _ = shift_dataset(X, y, "bit_flip", 0.1, np.random.default_rng(1))
    assert 0.05 < (X3 != X).mean() < 0.15
    R = RashomonSet(0.1, 0.01, 2).fit(X, y)
    same = stability(R, R, X, y, 0.0)
    assert same["overlap"] == 1.0 and same["stay"] == 1.0 and same["acc_d"] == same["acc_shifted"]
    R2 = RashomonSet(0.1, 0.01, 2).fit(X2, y2)
    s = stability(R, R2, X2, y2, 0.05)
    assert 0.0 <= s["stay"] <= s["stay_delta"] <= 1.0
    with pytest.raises(ValueError, match="shift kind"):
        shift_dataset(X, y, "rotate", 0.1, rng)


def test_compas_carried_file() -> None:
    from icml26.rashomon.datasets import load

    X, y = load("compas")
    assert X.shape == (7206, 14) and set(np.unique(X)) <= {0, 1} and set(np.unique(y)) == {0, 1}
    Xw, yw = load("wine")
    assert Xw.shape == (178, 13) and yw.sum() == 59
    with pytest.raises(ValueError, match="not one of"):
        load("iris")


def test_ridge_ellipsoid_is_exact() -> None:
    from icml26.rashomon.linear import ridge_loss, ridge_rashomon_ellipsoid

    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(50, 3)), rng.normal(size=50)
    w, H, r = ridge_rashomon_ellipsoid(X, y, 0.1, 0.2)
    L = ridge_loss(X, y, w, 0.1)
    for _ in range(5):  # points on the ellipsoid's boundary have loss exactly (1 + eps) L*
        u = rng.normal(size=3)
        v = w + u * np.sqrt(r / (u @ H @ u))
        assert ridge_loss(X, y, v, 0.1) == pytest.approx(1.2 * L, rel=1e-10)
        assert ridge_loss(X, y, w + 0.5 * (v - w), 0.1) < 1.2 * L


def test_sparse_logistic_set() -> None:
    from icml26.rashomon.linear import sparse_logistic_set

    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 4))
    y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    R = sparse_logistic_set(X, y, 2, 0.5)
    assert R[0].support == (0, 1) and all(m.loss <= 1.5 * R[0].loss for m in R)
    assert all(len(m.support) <= 2 and np.count_nonzero(m.w) <= 2 for m in R)
    d = linear_evasion_distance(X, y, R[0].w, R[0].b)
    assert np.all(d >= 0) and np.mean(R[0].predict(X) == y) > 0.9
    with pytest.raises(ValueError, match="k"):
        sparse_logistic_set(X, y, 5, 0.5)


def test_laplace_tree_known_answers() -> None:
    """Without noise (huge epsilon) the leaves predict the majority label; the noise of every released count
    is Laplace(1/epsilon): variance 2/epsilon^2 within 10% over 4000 draws."""
    from icml26.rashomon.baselines import laplace_tree, noisy_count_proba

    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, (300, 4)).astype(np.int8)
    y = (X[:, 0] & X[:, 1]).astype(int)
    tree, noisy = laplace_tree(X, y, 2, 1e9, np.random.default_rng(1))
    counts = tree.leaf_counts(X, y)
    np.testing.assert_allclose(noisy, counts, atol=1e-6)
    assert all(leaf.prediction == int(c[1] > c[0]) for leaf, c in zip(tree.leaves, counts, strict=True))
    eps = 0.5
    g = np.random.default_rng(2)
    noise = []
    for _ in range(1000):
        t, nz = laplace_tree(X, y, 1, eps, g)
        noise.append((nz - t.leaf_counts(X, y)).ravel())
    assert np.var(np.concatenate(noise)) == pytest.approx(2 / eps**2, rel=0.1)
    p = noisy_count_proba(tree, noisy)(X[:3])
    np.testing.assert_allclose(p.sum(axis=1), 1.0)
    with pytest.raises(ValueError, match="epsilon"):
        laplace_tree(X, y, 2, 0.0, rng)
    with pytest.raises(ValueError, match="depth"):
        laplace_tree(X, y, 5, 1.0, rng)


def test_stability_judges_against_the_shifted_optimum() -> None:
    """'stay' is the share of R(D) with Obj_D'(f) <= (1 + eps) Obj_D'(f*_D'), f*_D' the optimum recomputed
    on D' (GOSDT here, independently of treefarms): a known answer under a large label shift, where the
    optimum of D' is far above that of D."""
    from icml26.rashomon import gosdt_optimum

    rng = np.random.default_rng(3)
    X = rng.integers(0, 2, (300, 5)).astype(np.int8)
    y = ((X[:, 0] & X[:, 1]) | X[:, 2]).astype(int)
    R = RashomonSet(0.5, 0.01, 2).fit(X, y)
    X2, y2 = shift_dataset(X, y, "label_flip", 0.15, np.random.default_rng(4))
    R2 = RashomonSet(0.5, 0.01, 2).fit(X2, y2)
    _, opt2 = gosdt_optimum(X2, y2, 0.01, 2)
    assert R2.optimum == pytest.approx(opt2, abs=1e-12) and opt2 > 1.5 * R.optimum
    objs = np.array([t.objective(X2, y2, 0.01) for t in R])
    s = stability(R, R2, X2, y2, 0.1)
    assert s["stay"] == pytest.approx(np.mean(objs <= 1.5 * opt2 + 1e-9), abs=1e-12)
    assert s["stay_delta"] == pytest.approx(np.mean(objs <= 1.6 * opt2 + 1e-9), abs=1e-12)
    assert s["stay"] > 0.0 and s["acc_shifted"] < s["acc_d"]


def test_reactive_defense_selects_on_half_a_and_scores_on_half_b() -> None:
    """Known answer by an independent recomputation: the member best on attacked half A (first half of
    the seeded permutation) is scored on half B; the members are CARTs on different noisy labels, so the
    best on A and the best on B differ for this seed."""
    from sklearn.tree import DecisionTreeClassifier

    rng = np.random.default_rng(5)
    X = rng.random((120, 2))
    y = (X[:, 0] + 0.3 * X[:, 1] > 0.6).astype(int)
    members = []
    for k in range(12):
        yk = y.copy()
        yk[rng.random(120) < 0.25] ^= 1
        members.append(sklearn_boxes(DecisionTreeClassifier(max_depth=3, random_state=k).fit(X, yk)))
    f0 = members[0]
    out = reactive_defense(members, f0, X, y, eps=0.05, seed=7)
    X_adv = adversarial_examples(X, y, f0, 0.05)
    perm = np.random.default_rng(7).permutation(120)
    A, B = perm[:60], perm[60:]
    ok = np.array([m.predict(X_adv) == y for m in members])
    best_a = int(np.argmax(ok[:, A].mean(axis=1)))
    assert best_a != int(np.argmax(ok[:, B].mean(axis=1)))  # the case tells A from B
    assert out["best_index"] == best_a
    assert out["switched_adv"] == pytest.approx(ok[best_a, B].mean())
    assert out["f0_adv"] == pytest.approx(ok[0, B].mean())
    clean = np.array([m.predict(X) == y for m in members])
    assert out["switched_clean"] == pytest.approx(clean[best_a, B].mean())
    assert out["survival"] == pytest.approx(np.mean(ok.mean(axis=1) >= clean.mean(axis=1) - 0.05))


def test_fill_unconstrained_keeps_counts_and_fills_only_free_bits() -> None:
    from icml26.rashomon import fill_unconstrained

    # one tree: x0 ? (x1 ? 1 : 0) : 0 ; row 0 reaches (x0=1, x1=1), row 1 reaches (x0=0)
    t = Tree.from_json(
        {
            "feature": 0,
            "true": {"feature": 1, "true": {"prediction": 1}, "false": {"prediction": 0}},
            "false": {"prediction": 0},
        }
    )
    Xh = np.array([[1, 1, 0], [0, 0, 0]], dtype=np.int8)
    out = fill_unconstrained([(t, t.leaf_counts(Xh, np.array([1, 0])))], Xh, np.array([1, 1, 1]))
    assert out.tolist() == [[1, 1, 1], [0, 1, 1]]  # row 1's x1 is not on its path: free
    rng = np.random.default_rng(2)
    X = rng.integers(0, 2, (40, 5)).astype(np.int8)
    y = (X[:, 0] | X[:, 1]).astype(int)
    R = RashomonSet(0.2, 0.02, 2).fit(X, y)
    models = [(tr, tr.leaf_counts(X, y)) for tr in R.trees[:3]]
    Xr, yr = reconstruct(models, 40, 5)
    mode = marginal_mode_guess(X, y)[0][0]
    filled = fill_unconstrained(models, Xr, mode)
    for tr, c in models:
        np.testing.assert_array_equal(tr.leaf_counts(filled, yr), c)
    used = sorted(set().union(*(tr.features for tr, _ in models)))
    untested = [j for j in range(5) if j not in used]
    assert all((filled[:, j] == mode[j]).all() for j in untested)
    with pytest.raises(ValueError, match="fill must be"):
        fill_unconstrained(models, Xr, np.array([0, 1]))
