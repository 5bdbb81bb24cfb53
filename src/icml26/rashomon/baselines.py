"""Baselines: CART at a depth, adversarially retrained CART (the proactive defence), and a Laplace-noised
differentially private tree [inferred]."""

from __future__ import annotations

from typing import Any

import numpy as np

from icml26.rashomon.attacks import adversarial_examples
from icml26.rashomon.trees import BoxModel, Tree, check_binary_data, check_labels, sklearn_boxes


def cart(X: Any, y: Any, depth: int | None, seed: int = 0) -> BoxModel:
    """A scikit-learn CART (Gini) of ``max_depth=depth`` (``None``: grown fully), as leaf boxes."""
    from sklearn.tree import DecisionTreeClassifier

    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 1):
        raise ValueError(f"depth must be an integer >= 1 or None (grown fully), got {depth!r}")
    X = np.asarray(X, dtype=float)
    y = check_labels(y, X.shape[0])
    return sklearn_boxes(DecisionTreeClassifier(max_depth=depth, random_state=seed).fit(X, y))


def adversarial_cart(
    X: Any, y: Any, depth: int | None, eps: float, rounds: int = 1, seed: int = 0
) -> BoxModel:
    """CART retrained on the training set plus its own white-box adversarial examples at ``eps`` (with
    their true labels), ``rounds`` times: the proactive defence the reactive switch is compared with."""
    from sklearn.tree import DecisionTreeClassifier

    X = np.asarray(X, dtype=float)
    y = check_labels(y, X.shape[0])
    model = cart(X, y, depth, seed)
    Xa, ya = X, y
    for _ in range(rounds):
        Xa = np.vstack([Xa, adversarial_examples(X, y, model, eps)])
        ya = np.concatenate([ya, y])
        model = sklearn_boxes(DecisionTreeClassifier(max_depth=depth, random_state=seed).fit(Xa, ya))
    return model


def laplace_tree(
    Xb: Any, y: Any, depth: int, epsilon: float, rng: np.random.Generator
) -> tuple[Tree, np.ndarray]:
    """A differentially private tree [inferred; written here because ``diffprivlib`` does not import with
    the pinned scikit-learn]: a complete tree of ``depth`` whose split features are drawn at random (no
    data used, so the structure costs no privacy), and per-leaf class counts released with Laplace noise
    of scale 1 / ``epsilon`` (each count has sensitivity 1 under adding or removing one row; the leaves
    partition the rows, so the release is ``epsilon``-DP by parallel composition). Leaves predict the
    larger noisy count. Returns the tree and the ``(n_leaves, 2)`` noisy counts."""
    Xb, y = check_binary_data(Xb, y)
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= Xb.shape[1]:
        raise ValueError(
            f"depth must be an integer in 1..{Xb.shape[1]} (the number of features), got {depth!r}"
        )
    if isinstance(epsilon, bool) or not isinstance(epsilon, int | float) or not epsilon > 0:
        raise ValueError(f"epsilon (the privacy budget) must be a number > 0, got {epsilon!r}")

    def build(level: int, used: tuple[int, ...]) -> Any:
        if level == depth:
            return {"prediction": 0}
        f = int(rng.choice([j for j in range(Xb.shape[1]) if j not in used]))
        return {"feature": f, "true": build(level + 1, (*used, f)), "false": build(level + 1, (*used, f))}

    nested = build(0, ())
    shape = Tree.from_json(nested)
    noisy = shape.leaf_counts(Xb, y) + rng.laplace(0.0, 1.0 / epsilon, (shape.n_leaves, 2))
    labels = iter((noisy[:, 1] > noisy[:, 0]).astype(int).tolist())

    def fill(node: dict) -> dict:  # leaves in Tree.from_json's order (true branch first)
        if "prediction" in node:
            return {"prediction": next(labels)}
        return {"feature": node["feature"], "true": fill(node["true"]), "false": fill(node["false"])}

    return Tree.from_json(fill(nested)), noisy


def noisy_count_proba(tree: Tree, noisy: np.ndarray):
    """``X -> (n, 2)`` probabilities of a :func:`laplace_tree` from its noisy counts (clipped at 0)."""
    share = np.clip(noisy, 0.0, None)
    totals = share.sum(axis=1, keepdims=True)
    share = np.where(totals > 0, share / np.where(totals > 0, totals, 1.0), 0.5)
    return lambda X: share[tree.leaf_index(np.asarray(X).round().astype(np.int8))]
