"""Privacy: membership inference on one model, and dataset reconstruction from k disclosed models.

Reconstruction (DRAFT-style, Ferry et al., 2024, ``vidalt/DRAFT``, rebuilt here for trees over binary
features): a disclosed tree reveals its structure and per-leaf class counts. A CP-SAT model with
booleans ``x[i, j]`` (feature j of row i) and ``y[i]`` and, per tree, one-hot leaf indicators whose
paths are implied by the row's features, matches every disclosed count; any feasible solution is a
reconstruction. Error: mean per-attribute mismatch (features and label) after matching rows by the
Hungarian algorithm [inferred: DRAFT's ``average_error``, with the label counted as an attribute].
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy.optimize import linear_sum_assignment

from icml26.rashomon.trees import Tree, check_binary_data, check_labels


def reconstruct(
    models: Sequence[tuple[Tree, np.ndarray]],
    n: int,
    d: int,
    time_limit: float = 20.0,
    workers: int = 1,
    seed: int = 0,
) -> tuple[np.ndarray, np.ndarray] | None:
    """A dataset (X (n, d), y (n,)) consistent with every disclosed ``(tree, leaf_counts)``; ``None`` when
    CP-SAT finds no solution within ``time_limit`` seconds ("no solution", never an error value).

    ``leaf_counts``: ``(n_leaves, 2)`` class counts per leaf (:meth:`Tree.leaf_counts`), summing to n.
    Raises ``ValueError`` if the counts are inconsistent (a proven-infeasible model).
    """
    from ortools.sat.python import cp_model

    if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 1:
        raise ValueError(f"n (rows to reconstruct) must be an integer >= 1, got {n!r}")
    if isinstance(d, bool) or not isinstance(d, int | np.integer) or d < 1:
        raise ValueError(f"d (binary features) must be an integer >= 1, got {d!r}")
    if not models:
        raise ValueError("reconstruct needs at least one disclosed (tree, leaf_counts) pair")
    for k, (tree, counts) in enumerate(models):
        if not isinstance(tree, Tree):
            raise TypeError(f"models[{k}] must be a (Tree, leaf_counts) pair, got {type(tree).__name__}")
        counts = np.asarray(counts)
        if counts.shape != (tree.n_leaves, 2) or counts.sum() != n or (counts < 0).any():
            raise ValueError(
                f"models[{k}] leaf_counts must be ({tree.n_leaves}, 2) non-negative counts summing to n={n},"
                f" got shape {counts.shape} summing to {counts.sum()}"
            )
        if tree.features and max(tree.features) >= d:
            raise ValueError(f"models[{k}] tests feature {max(tree.features)}, but d={d}")
    m = cp_model.CpModel()
    x = [[m.new_bool_var(f"x{i}_{j}") for j in range(d)] for i in range(n)]
    # Rows are exchangeable, so without loss of generality the positives come first, and within each
    # class the first tree's leaves are filled in order (symmetry breaking; no solution is lost).
    n_pos = int(np.asarray(models[0][1])[:, 1].sum())
    y = np.array([1] * n_pos + [0] * (n - n_pos), dtype=np.int64)
    first_leaf = np.concatenate(
        [np.repeat(np.arange(models[0][0].n_leaves), np.asarray(models[0][1])[:, c]) for c in (1, 0)]
    )
    for k, (tree, counts) in enumerate(models):
        if np.asarray(counts)[:, 1].sum() != n_pos:
            raise ValueError(
                "the disclosed leaf counts are inconsistent: trees disagree on the number of positives"
            )
        reach = [[m.new_bool_var(f"r{k}_{i}_{leaf}") for leaf in range(tree.n_leaves)] for i in range(n)]
        for i in range(n):
            m.add_exactly_one(reach[i])
            if k == 0:
                m.add(reach[i][int(first_leaf[i])] == 1)
            for leaf, node in enumerate(tree.leaves):
                lits = [x[i][f] if v else x[i][f].Not() for f, v in node.tests]
                for lit in lits:  # reaching a leaf is the conjunction of its path's tests
                    m.add_implication(reach[i][leaf], lit)
                m.add_bool_or([reach[i][leaf], *(lit.Not() for lit in lits)])
        for leaf in range(tree.n_leaves):
            for c in (1, 0):
                rows = np.flatnonzero(y == c)
                m.add(sum(reach[i][leaf] for i in rows) == int(np.asarray(counts)[leaf, c]))
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = float(time_limit)
    solver.parameters.num_workers = int(workers)
    solver.parameters.random_seed = int(seed)
    status = solver.solve(m)
    if status == cp_model.INFEASIBLE:
        raise ValueError("the disclosed leaf counts are inconsistent: no dataset matches them")
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    Xh = np.array([[solver.value(v) for v in row] for row in x], dtype=np.int8)
    return Xh, y


def fill_unconstrained(models: Sequence[tuple[Tree, np.ndarray]], X_hat: Any, fill: Any) -> np.ndarray:
    """``X_hat`` with every bit that no disclosed tree constrains set to ``fill[j]``.

    Bit ``(i, j)`` is constrained when feature ``j`` is tested on the path of a leaf that row ``i`` reaches
    in some disclosed tree. The leaves of a tree partition {0, 1}^d, so changing an unconstrained bit keeps
    every row in the same leaves: the result matches every disclosed count as ``X_hat`` did. CP-SAT leaves
    such bits at its default (0, the COMPAS mode for 12 of 14 features); ``fill`` (e.g. the per-feature
    marginal mode, the marginal-mode baseline's knowledge) makes the comparison with that baseline fair.
    ``fill``: ``(d,)`` 0/1 values. Returns an ``(n, d)`` int8 array."""
    Xh = check_binary_data(X_hat, name="X_hat")[0]
    f = np.asarray(fill)
    if f.shape != (Xh.shape[1],) or not np.isin(f, (0, 1)).all():
        raise ValueError(f"fill must be ({Xh.shape[1]},) values in {{0, 1}}, got shape {f.shape}")
    constrained = np.zeros(Xh.shape, dtype=bool)
    for tree, _ in models:
        if not isinstance(tree, Tree):
            raise TypeError(f"models must hold (Tree, leaf_counts) pairs, got {type(tree).__name__}")
        leaf = tree.leaf_index(Xh)
        for i, node in enumerate(tree.leaves):
            rows = leaf == i
            for j, _ in node.tests:
                constrained[rows, j] = True
    return np.where(constrained, Xh, f[None, :].astype(np.int8)).astype(np.int8)


def reconstruction_error(X: Any, y: Any, X_hat: Any, y_hat: Any) -> float:
    """Mean per-attribute mismatch (features and label) between the true and the reconstructed rows after
    the best one-to-one matching of rows (Hungarian algorithm): 0 is exact, about 0.5 a random guess."""
    Xa, ya = check_binary_data(X, y)
    Xh, yh = check_binary_data(X_hat, y_hat, name="X_hat")
    if Xh.shape != Xa.shape:
        raise ValueError(f"X_hat must have the shape of X {Xa.shape}, got {Xh.shape}")
    A = np.column_stack([Xa, ya]).astype(float)
    H = np.column_stack([Xh, yh]).astype(float)
    cost = np.abs(A[:, None, :] - H[None, :, :]).mean(axis=2)
    rows, cols = linear_sum_assignment(cost)
    return float(cost[rows, cols].mean())


def random_guess(n: int, d: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Baseline: every attribute a fair coin."""
    return rng.integers(0, 2, (n, d)).astype(np.int8), rng.integers(0, 2, n)


def marginal_mode_guess(X: Any, y: Any) -> tuple[np.ndarray, np.ndarray]:
    """Baseline: every row is the per-attribute mode of the true data (an attacker who knows the marginals)."""
    Xa, ya = check_binary_data(X, y)
    mode = (Xa.mean(axis=0) >= 0.5).astype(np.int8)
    return np.tile(mode, (Xa.shape[0], 1)), np.full(Xa.shape[0], int(ya.mean() >= 0.5))


def membership_inference(
    predict_proba: Any,
    members: tuple[Any, Any],
    non_members: tuple[Any, Any],
    seed: int = 0,
) -> dict[str, float]:
    """Accuracy of ART's membership-inference attacks on one model, on balanced member/non-member sets.

    ``predict_proba``: a callable ``X -> (n, 2)`` class probabilities, or a fitted scikit-learn classifier.
    ``members``/``non_members``: ``(X, y)`` of equal size (e.g. 500 + 500). ``rule_based``: ART's
    ``MembershipInferenceBlackBoxRuleBased`` (member iff classified correctly) on all points;
    ``black_box``: ART's ``MembershipInferenceBlackBox`` (a random-forest attack model on the
    probabilities and label), trained on half of each set and scored on the other half.
    """
    from art.attacks.inference.membership_inference import (
        MembershipInferenceBlackBox,
        MembershipInferenceBlackBoxRuleBased,
    )
    from art.estimators.classification import BlackBoxClassifier

    fn = predict_proba.predict_proba if hasattr(predict_proba, "predict_proba") else predict_proba
    if not callable(fn):
        raise TypeError("predict_proba must be a callable X -> (n, 2) probabilities or a fitted classifier")
    (Xm, ym), (Xn, yn) = members, non_members
    Xm, Xn = np.asarray(Xm, dtype=float), np.asarray(Xn, dtype=float)
    ym, yn = check_labels(ym, Xm.shape[0]), check_labels(yn, Xn.shape[0])
    if Xm.shape != Xn.shape or Xm.shape[0] < 4:
        raise ValueError(
            f"members and non_members must be balanced sets of >= 4 rows of equal width, got {Xm.shape} and {Xn.shape}"
        )
    probe = np.asarray(fn(Xm[:2]))
    if probe.shape != (2, 2):
        raise ValueError(f"predict_proba must return (n, 2) probabilities, got shape {probe.shape}")
    clf = BlackBoxClassifier(lambda a: np.asarray(fn(a), dtype=float), Xm.shape[1:], 2)
    onehot = np.eye(2)
    rule = MembershipInferenceBlackBoxRuleBased(clf)
    guess = np.concatenate([rule.infer(Xm, onehot[ym]).ravel(), rule.infer(Xn, onehot[yn]).ravel()])
    truth = np.concatenate([np.ones(len(ym)), np.zeros(len(yn))])
    rule_acc = float(np.mean(guess == truth))
    rng = np.random.default_rng(seed)
    pm, pn = rng.permutation(len(ym)), rng.permutation(len(yn))
    tm, em = pm[: len(pm) // 2], pm[len(pm) // 2 :]
    tn, en = pn[: len(pn) // 2], pn[len(pn) // 2 :]
    # ART tests ``if attack_model:``, which an unfitted forest cannot answer: take its default forest, seeded
    bb = MembershipInferenceBlackBox(clf, attack_model_type="rf")
    bb.attack_model.set_params(random_state=seed)
    bb.fit(Xm[tm], onehot[ym[tm]], Xn[tn], onehot[yn[tn]])
    guess_bb = np.concatenate(
        [bb.infer(Xm[em], onehot[ym[em]]).ravel(), bb.infer(Xn[en], onehot[yn[en]]).ravel()]
    )
    truth_bb = np.concatenate([np.ones(len(em)), np.zeros(len(en))])
    return {"rule_based": rule_acc, "black_box": float(np.mean(guess_bb == truth_bb))}


def tree_predict_proba(tree: Tree, X_train: Any, y_train: Any, smoothing: float = 0.0):
    """``X -> (n, 2)`` probabilities of a tree over binary features: its leaves' training class shares."""
    Xa, ya = check_binary_data(X_train, y_train)
    counts = tree.leaf_counts(Xa, ya).astype(float) + smoothing
    totals = counts.sum(axis=1, keepdims=True)
    share = np.where(totals > 0, counts / np.where(totals > 0, totals, 1.0), 0.5)

    def proba(X: np.ndarray) -> np.ndarray:
        return share[tree.leaf_index(np.asarray(X).round().astype(np.int8))]

    return proba
