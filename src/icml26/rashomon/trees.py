"""Sparse decision trees on binary features, threshold-guessing binarisation, and leaf boxes.

A :class:`Tree` is the paper's sparse tree over binary features (the model class of the Rashomon set):
each leaf is a conjunction of ``(feature, value)`` tests and a predicted label. With a
:class:`ThresholdBinarizer` (binary feature ``j`` is ``x[:, feature_j] <= threshold_j``) every leaf is
an axis-aligned box in the continuous space, a :class:`BoxModel`, which the L-infinity attacks use.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import numpy as np

MARGIN = 1e-9  # a strict side ``x > t`` of a box is closed at ``t + MARGIN``


def check_binary_data(X: Any, y: Any | None = None, name: str = "X") -> tuple[np.ndarray, np.ndarray | None]:
    """``X`` as an ``(n, d)`` 0/1 int array (and ``y`` as 0/1 labels), or ``ValueError`` saying what was wrong."""
    Xa = np.asarray(X)
    if Xa.ndim != 2 or Xa.shape[0] == 0 or Xa.shape[1] == 0:
        raise ValueError(f"{name} must be a non-empty 2-D array (n, d), got shape {Xa.shape}")
    if not np.isin(Xa, (0, 1)).all():
        raise ValueError(
            f"{name} must hold binary features (only 0 and 1); binarise continuous features first"
            " (ThresholdBinarizer)"
        )
    ya = None if y is None else check_labels(y, Xa.shape[0])
    return Xa.astype(np.int8), ya


def check_labels(y: Any, n: int) -> np.ndarray:
    """``y`` as an ``(n,)`` int array of labels in {0, 1}, or ``ValueError``."""
    ya = np.asarray(y)
    if ya.shape != (n,):
        raise ValueError(f"y must have shape ({n},) to match X, got {ya.shape}")
    if not np.isin(ya, (0, 1)).all():
        raise ValueError(f"labels must be in {{0, 1}}, got values {sorted(set(np.unique(ya).tolist()))[:5]}")
    return ya.astype(np.int64)


@dataclass(frozen=True)
class Leaf:
    """One leaf: the tests on its path, ``((feature, value), ...)``, and its predicted label."""

    tests: tuple[tuple[int, int], ...]
    prediction: int


@dataclass(frozen=True)
class Tree:
    """A decision tree over binary features, stored as its leaves (they partition {0, 1}^d)."""

    leaves: tuple[Leaf, ...]
    source: str  # canonical JSON of the nested tree (identifies the tree)

    @classmethod
    def from_json(cls, tree: dict | str) -> Tree:
        """Parse the nested JSON of ``treefarms``/``gosdt`` (keys ``feature``, ``true``, ``false``,
        ``prediction``; ``true`` is the branch where the feature equals 1)."""
        node = json.loads(tree) if isinstance(tree, str) else tree
        if isinstance(node, list):
            node = node[0]

        def canonical(n: dict) -> Any:
            if "prediction" in n:
                return int(n["prediction"])
            return [int(n["feature"]), canonical(n["true"]), canonical(n["false"])]

        def walk(n: Any, path: tuple[tuple[int, int], ...]) -> list[Leaf]:
            if isinstance(n, int):
                return [Leaf(path, n)]
            f, t, e = n
            return walk(t, (*path, (f, 1))) + walk(e, (*path, (f, 0)))

        nested = canonical(node)
        return cls(tuple(walk(nested, ())), json.dumps(nested))

    def relabel(self, columns: np.ndarray) -> Tree:
        """The same tree with feature ``j`` renamed ``columns[j]`` (trees fitted on a subset of columns)."""
        cols = [int(c) for c in columns]
        if list(range(len(cols))) == cols:
            return self

        def rename(n: Any) -> Any:
            return n if isinstance(n, int) else [cols[n[0]], rename(n[1]), rename(n[2])]

        nested = rename(json.loads(self.source))

        def walk(n: Any, path: tuple[tuple[int, int], ...]) -> list[Leaf]:
            if isinstance(n, int):
                return [Leaf(path, n)]
            return walk(n[1], (*path, (n[0], 1))) + walk(n[2], (*path, (n[0], 0)))

        return Tree(tuple(walk(nested, ())), json.dumps(nested))

    @property
    def n_leaves(self) -> int:
        return len(self.leaves)

    @property
    def depth(self) -> int:
        return max(len(leaf.tests) for leaf in self.leaves)

    @property
    def features(self) -> frozenset[int]:
        """The binary features the tree tests."""
        return frozenset(f for leaf in self.leaves for f, _ in leaf.tests)

    def leaf_index(self, X: np.ndarray) -> np.ndarray:
        """``(n,)`` index of the leaf each row of the binary ``X`` reaches."""
        X = np.asarray(X)
        out = np.full(X.shape[0], -1, dtype=np.int64)
        for i, leaf in enumerate(self.leaves):
            reach = np.ones(X.shape[0], dtype=bool)
            for f, v in leaf.tests:
                reach &= X[:, f] == v
            out[reach] = i
        return out

    def predict(self, X: np.ndarray) -> np.ndarray:
        """``(n,)`` labels of the binary ``X``."""
        labels = np.array([leaf.prediction for leaf in self.leaves])
        return labels[self.leaf_index(X)]

    def objective(self, X: np.ndarray, y: np.ndarray, reg: float) -> float:
        """Obj(f) = 0-1 loss + reg x #leaves (the Rashomon set's objective)."""
        return float(np.mean(self.predict(X) != y) + reg * self.n_leaves)

    def leaf_counts(self, X: np.ndarray, y: np.ndarray) -> np.ndarray:
        """``(n_leaves, 2)`` per-leaf class counts: what disclosing the tree reveals (DRAFT's threat model)."""
        counts = np.zeros((self.n_leaves, 2), dtype=np.int64)
        np.add.at(counts, (self.leaf_index(X), np.asarray(y, dtype=np.int64)), 1)
        return counts


@dataclass(frozen=True)
class BoxModel:
    """A classifier whose decision regions are axis-aligned boxes ``lo <= x <= hi`` (the leaves of a tree).

    ``lo``, ``hi``: ``(L, d)`` bounds (``-inf``/``inf`` where unbounded); ``labels``: ``(L,)``.
    """

    lo: np.ndarray
    hi: np.ndarray
    labels: np.ndarray

    def predict(self, X: np.ndarray) -> np.ndarray:
        X = np.asarray(X, dtype=float)
        inside = np.all((X[:, None, :] >= self.lo[None]) & (X[:, None, :] <= self.hi[None]), axis=2)
        hits = inside.sum(axis=1)
        if not np.all(hits == 1):
            raise ValueError(
                f"boxes do not partition the space: {int(np.sum(hits != 1))} points in 0 or 2+ boxes"
            )
        return self.labels[np.argmax(inside, axis=1)]


class ThresholdBinarizer:
    """Threshold guessing (McTavish et al., 2022, as in the predecessor framework): fit a gradient-boosted
    ensemble (``n_estimators`` trees of depth ``max_depth``), keep its split thresholds, ranked by their
    summed impurity decrease, at most ``max_thresholds``; binary feature ``j`` is ``x[:, f_j] <= t_j``.
    ``thresholds``: given ``[(feature, threshold), ...]`` instead (``fit`` then only checks ``X``'s width).
    """

    def __init__(
        self,
        n_estimators: int = 30,
        max_depth: int = 2,
        learning_rate: float = 0.1,
        max_thresholds: int = 16,
        thresholds: Any = None,
    ) -> None:
        for name, value in (
            ("n_estimators", n_estimators),
            ("max_depth", max_depth),
            ("max_thresholds", max_thresholds),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
        if not (isinstance(learning_rate, int | float) and 0 < learning_rate <= 1):
            raise ValueError(f"learning_rate must be in (0, 1], got {learning_rate!r}")
        self.n_estimators, self.max_depth = n_estimators, max_depth
        self.learning_rate, self.max_thresholds = learning_rate, max_thresholds
        self.thresholds = None
        if thresholds is not None:
            pairs = list(thresholds)
            ok = bool(pairs) and all(
                isinstance(p, tuple | list)
                and len(p) == 2
                and isinstance(p[0], int | np.integer)
                and not isinstance(p[0], bool)
                and p[0] >= 0
                and isinstance(p[1], int | float | np.floating)
                and np.isfinite(p[1])
                for p in pairs
            )
            if not ok:
                raise ValueError(
                    "thresholds must be a non-empty list of (feature index >= 0, finite threshold) pairs,"
                    f" got {thresholds!r}"
                )
            self.thresholds = [(int(f), float(t)) for f, t in pairs]

    def fit(self, X: Any, y: Any = None, seed: int = 0) -> ThresholdBinarizer:
        from sklearn.ensemble import GradientBoostingClassifier

        X = np.asarray(X, dtype=float)
        if X.ndim != 2 or not np.isfinite(X).all():
            raise ValueError(f"X must be a finite 2-D array, got shape {X.shape}")
        if self.thresholds is not None:
            if max(f for f, _ in self.thresholds) >= X.shape[1]:
                raise ValueError(f"a given threshold's feature index is >= X's width {X.shape[1]}")
            self.features_ = np.array([f for f, _ in self.thresholds], dtype=np.int64)
            self.thresholds_ = np.array([t for _, t in self.thresholds])
            self.n_input_ = X.shape[1]
            return self
        if y is None:
            raise ValueError("y is needed to guess thresholds (or give thresholds=[(feature, t), ...])")
        y = check_labels(y, X.shape[0])
        gbdt = GradientBoostingClassifier(
            n_estimators=self.n_estimators,
            max_depth=self.max_depth,
            learning_rate=self.learning_rate,
            random_state=seed,
        ).fit(X, y)
        gain: dict[tuple[int, float], float] = {}
        for est in gbdt.estimators_.ravel():
            t = est.tree_
            for node in np.flatnonzero(t.children_left >= 0):
                left, right = t.children_left[node], t.children_right[node]
                drop = t.weighted_n_node_samples[node] * t.impurity[node] - (
                    t.weighted_n_node_samples[left] * t.impurity[left]
                    + t.weighted_n_node_samples[right] * t.impurity[right]
                )
                key = (int(t.feature[node]), float(t.threshold[node]))
                gain[key] = gain.get(key, 0.0) + float(drop)
        ranked = sorted(gain, key=lambda k: (-gain[k], k))[: self.max_thresholds]
        ranked.sort()
        self.features_ = np.array([f for f, _ in ranked], dtype=np.int64)
        self.thresholds_ = np.array([t for _, t in ranked])
        self.n_input_ = X.shape[1]
        return self

    def transform(self, X: Any) -> np.ndarray:
        """``(n, m)`` 0/1 features ``x[:, f_j] <= t_j``."""
        if not hasattr(self, "thresholds_"):
            raise ValueError("ThresholdBinarizer is not fitted: call fit(X, y) first")
        X = np.asarray(X, dtype=float)
        if X.ndim != 2 or X.shape[1] != self.n_input_:
            raise ValueError(f"X must have shape (n, {self.n_input_}), got {X.shape}")
        return (X[:, self.features_] <= self.thresholds_).astype(np.int8)

    def boxes(self, tree: Tree) -> BoxModel:
        """The tree's leaves as boxes in the continuous space (a strict side closed at ``t + MARGIN``)."""
        L, d = tree.n_leaves, self.n_input_
        lo, hi = np.full((L, d), -np.inf), np.full((L, d), np.inf)
        for i, leaf in enumerate(tree.leaves):
            for j, v in leaf.tests:
                f, t = self.features_[j], self.thresholds_[j]
                if v == 1:
                    hi[i, f] = min(hi[i, f], t)
                else:
                    lo[i, f] = max(lo[i, f], t + MARGIN)
        return BoxModel(lo, hi, np.array([leaf.prediction for leaf in tree.leaves]))


def sklearn_boxes(model: Any) -> BoxModel:
    """The leaves of a fitted scikit-learn ``DecisionTreeClassifier`` (binary) as boxes (``x <= t`` left)."""
    t = model.tree_
    if t.n_outputs != 1 or len(model.classes_) > 2 or not set(model.classes_.tolist()) <= {0, 1}:
        raise ValueError("sklearn_boxes needs a single-output tree classifier with labels in {0, 1}")
    d = model.n_features_in_
    lo_rows, hi_rows, labels = [], [], []

    def walk(node: int, lo: np.ndarray, hi: np.ndarray) -> None:
        if t.children_left[node] < 0:
            lo_rows.append(lo)
            hi_rows.append(hi)
            labels.append(int(model.classes_[np.argmax(t.value[node][0])]))
            return
        f, thr = t.feature[node], t.threshold[node]
        h = hi.copy()
        h[f] = min(h[f], thr)
        walk(t.children_left[node], lo, h)
        low = lo.copy()
        low[f] = max(low[f], thr + MARGIN)
        walk(t.children_right[node], low, hi)

    walk(0, np.full(d, -np.inf), np.full(d, np.inf))
    return BoxModel(np.array(lo_rows), np.array(hi_rows), np.array(labels))


def min_max_scale(train: np.ndarray, *others: np.ndarray) -> tuple[np.ndarray, ...]:
    """Min-max scale with the training set's ranges (a constant column maps to 0); attacks' eps is on this scale."""
    train = np.asarray(train, dtype=float)
    low, span = train.min(axis=0), np.ptp(train, axis=0)
    span = np.where(span > 0, span, 1.0)
    return tuple((np.asarray(a, dtype=float) - low) / span for a in (train, *others))
