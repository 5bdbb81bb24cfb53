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


def _gini(pos: np.ndarray, tot: np.ndarray) -> np.ndarray:
    """Gini impurity x size of nodes with ``pos`` positives among ``tot`` points (0 for empty nodes)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(tot > 0, pos / np.where(tot > 0, tot, 1), 0.0)
    return 2.0 * tot * p * (1.0 - p)


def robust_tree(
    X: Any, y: Any, depth: int, eps: float, n_thresholds: int = 16, min_leaf: int = 5
) -> BoxModel:
    """An adversarially trained tree (Chen et al., 2019, "Robust decision trees against adversarial
    examples", its approximate robust split [inferred from the paper's description, no code read]): a
    point within ``eps`` of a threshold is *uncertain* (an L-inf attacker can move it to either side);
    each candidate split is scored by the worst of four routings of the uncertain points (as they lie,
    all left, all right, each to the other side), the weighted Gini of the children, and the split with
    the smallest worst case is taken when it is below the node's own impurity. Candidates: the midpoints
    between a feature's consecutive distinct values, at most ``n_thresholds`` evenly spread over them; leaves of < ``2 min_leaf`` points are not split; a leaf predicts
    its majority (ties and empty leaves: the parent's). Returned as leaf boxes (``x <= t`` left, the
    right box from the next float after ``t``)."""
    X = np.asarray(X, dtype=float)
    y = check_labels(y, X.shape[0])
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise ValueError(f"depth must be an integer >= 1, got {depth!r}")
    if isinstance(eps, bool) or not isinstance(eps, int | float) or not np.isfinite(eps) or eps < 0:
        raise ValueError(f"eps (the attack budget trained against) must be a finite number >= 0, got {eps!r}")
    n, d = X.shape
    lo_rows, hi_rows, labels = [], [], []

    def best_split(idx: np.ndarray) -> tuple[int, float, float] | None:
        yy = y[idx]
        best: tuple[int, float, float] | None = None
        for f in range(d):
            v = X[idx, f]
            u = np.unique(v)
            if u.size < 2:
                continue
            # midpoints between consecutive distinct values: all of them, or n_thresholds evenly spread
            at = np.arange(u.size - 1)
            if at.size > n_thresholds:
                at = np.unique(np.round(np.linspace(0, u.size - 2, n_thresholds)).astype(int))
            cand = (u[at] + u[at + 1]) / 2
            T = cand[:, None]
            left = v[None] <= T
            unc = np.abs(v[None] - T) <= eps
            sure_l = left & ~unc
            cases = (left, sure_l | unc, sure_l, sure_l | (unc & ~left))  # as lie, all left, all right, swap
            worst = np.zeros(cand.size)
            for L in cases:
                nl, pl = L.sum(axis=1), (L & (yy[None] == 1)).sum(axis=1)
                score = _gini(pl, nl) + _gini(yy.sum() - pl, len(idx) - nl)
                worst = np.maximum(worst, score)
            ok = (left.sum(axis=1) >= min_leaf) & ((~left).sum(axis=1) >= min_leaf)
            if not ok.any():
                continue
            k = int(np.argmin(np.where(ok, worst, np.inf)))
            if best is None or worst[k] < best[2] - 1e-12:
                best = (f, float(cand[k]), float(worst[k]))
        return best

    def grow(idx: np.ndarray, level: int, lo: np.ndarray, hi: np.ndarray, parent: int) -> None:
        pos = int(y[idx].sum())
        label = parent if 2 * pos == len(idx) else int(2 * pos > len(idx))
        split = None
        if level < depth and len(idx) >= 2 * min_leaf and 0 < pos < len(idx):
            split = best_split(idx)
            if split is not None and split[2] >= float(_gini(np.array(pos), np.array(len(idx)))) - 1e-12:
                split = None
        if split is None:
            lo_rows.append(lo)
            hi_rows.append(hi)
            labels.append(label)
            return
        f, t, _ = split
        go_left = X[idx, f] <= t
        h = hi.copy()
        h[f] = min(h[f], t)
        grow(idx[go_left], level + 1, lo, h, label)
        low = lo.copy()
        # the right side x > t starts at the next float after t: no gap between the boxes, so every point
        # (an attack's projection onto another model's box edge t' + 1e-9 included) lies in exactly one
        low[f] = max(low[f], float(np.nextafter(t, np.inf)))
        grow(idx[~go_left], level + 1, low, hi, label)

    grow(np.arange(n), 0, np.full(d, -np.inf), np.full(d, np.inf), int(2 * y.sum() >= n))
    return BoxModel(np.array(lo_rows), np.array(hi_rows), np.array(labels))
