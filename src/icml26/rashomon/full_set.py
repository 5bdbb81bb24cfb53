"""The definitional Rashomon set: every tree within the bound, whatever its leaf labels.

R(eps) as defined is the set of *all* trees f of at most ``depth`` splits per path with
Obj(f) = 0-1 loss + reg x #leaves <= (1 + eps) Obj(f*). ``treefarms`` enumerates a model space with
pruning rules of its own (see the method doc), so ``len(RashomonSet)`` is a lower bound of |R(eps)|.
:func:`full_count` counts the definitional set exactly (a dynamic programme over the subsets the
root-to-node tests select: the trees below a node are counted by their misclassified rows and leaves),
and :func:`full_trees` lists it on small problems. Model space [inferred, the standard one of sparse
trees over binary features]: an internal node tests a binary feature that no node above it tests; a
leaf predicts 0 or 1, whatever the majority of its rows (an empty leaf may predict either).
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

import numpy as np

from icml26.rashomon.trees import Leaf, Tree, check_binary_data

BOUND_TOLERANCE = 1e-9


def _prepare(X: Any, y: Any, reg: float, depth: int, bound: float) -> tuple[np.ndarray, np.ndarray, int, int]:
    Xb, ya = check_binary_data(X, y)
    for name, v in (("reg", reg), ("bound", bound)):
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v) or v <= 0:
            raise ValueError(f"{name} must be a finite number > 0, got {v!r}")
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= 8:
        raise ValueError(f"depth (splits on a root-to-leaf path) must be an integer in 1..8, got {depth!r}")
    n = Xb.shape[0]
    max_leaves = int(math.floor(bound / reg + BOUND_TOLERANCE))  # every leaf costs reg
    max_mis = int(math.floor(bound * n + BOUND_TOLERANCE))  # every misclassified row costs 1 / n
    return Xb, ya, max_leaves, max_mis


def full_count(X: Any, y: Any, reg: float, depth: int, bound: float) -> int:
    """|{f : depth(f) <= depth, mis(f) / n + reg x leaves(f) <= bound}| over every leaf labelling.

    The trees below a node are tallied in a table ``H[m, l]`` (how many subtrees misclassify ``m`` of
    the node's rows with ``l`` leaves), a leaf contributing ``H[#y=1, 1] += 1`` (label 0) and
    ``H[#y=0, 1] += 1`` (label 1), a split the 2-D convolution of its children's tables; entries over
    the global budget are cut, since the rest of a tree costs >= 0.
    """
    Xb, ya, max_leaves, max_mis = _prepare(X, y, reg, depth, bound)
    n, d = Xb.shape
    if max_leaves < 1:
        return 0
    cols = [Xb[:, j].astype(bool) for j in range(d)]

    @cache
    def table(tests: frozenset, budget: int) -> np.ndarray:
        reach = np.ones(n, dtype=bool)
        for f, v in tests:
            reach &= cols[f] if v else ~cols[f]
        ones = int(ya[reach].sum())
        zeros = int(reach.sum()) - ones
        H = np.zeros((max_mis + 1, max_leaves + 1), dtype=object)
        for mis in (ones, zeros):  # label 0 misclassifies the ones, label 1 the zeros
            if mis <= max_mis:
                H[mis, 1] += 1
        if budget == 0:
            return H
        used = {f for f, _ in tests}
        for j in range(d):
            if j in used:
                continue
            left = table(tests | {(j, 1)}, budget - 1)
            right = table(tests | {(j, 0)}, budget - 1)
            H += _convolve(left, right)
        return H

    H = table(frozenset(), depth)
    total = 0
    for m in range(max_mis + 1):
        for leaves in range(1, max_leaves + 1):
            if H[m, leaves] and m / n + reg * leaves <= bound + BOUND_TOLERANCE:
                total += int(H[m, leaves])
    return total


def _convolve(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """``C[m, l] = sum A[m1, l1] B[m - m1, l - l1]``, truncated to ``A``'s shape."""
    M, L = A.shape
    C = np.zeros_like(A)
    ia, ja = np.nonzero(A)
    ib, jb = np.nonzero(B)
    for a_m, a_l in zip(ia.tolist(), ja.tolist(), strict=True):
        for b_m, b_l in zip(ib.tolist(), jb.tolist(), strict=True):
            m, leaves = a_m + b_m, a_l + b_l
            if m < M and leaves < L:
                C[m, leaves] += A[a_m, a_l] * B[b_m, b_l]
    return C


def full_trees(X: Any, y: Any, reg: float, depth: int, bound: float, limit: int = 100_000) -> list[Tree]:
    """Every tree of the definitional set (small problems: raises ``ValueError`` past ``limit``)."""
    Xb, ya, max_leaves, _ = _prepare(X, y, reg, depth, bound)
    n, d = Xb.shape

    def subtrees(used: frozenset, budget: int) -> list[Any]:  # nested [feature, true, false] or a label
        out: list[Any] = [0, 1]
        if budget == 0:
            return out
        for j in range(d):
            if j in used:
                continue
            below = subtrees(used | {j}, budget - 1)
            out += [[j, t, f] for t in below for f in below if _leaves(t) + _leaves(f) <= max_leaves]
            if len(out) > limit:
                raise ValueError(f"the model space has over {limit} trees: use full_count")
        return out

    keep = []
    for nested in subtrees(frozenset(), depth):
        if _leaves(nested) > max_leaves:
            continue
        tree = _to_tree(nested)
        if tree.objective(Xb, ya, reg) <= bound + BOUND_TOLERANCE:
            keep.append(tree)
    return keep


def _leaves(nested: Any) -> int:
    return 1 if isinstance(nested, int) else _leaves(nested[1]) + _leaves(nested[2])


def _to_tree(nested: Any) -> Tree:
    import json

    def walk(node: Any, path: tuple[tuple[int, int], ...]) -> list[Leaf]:
        if isinstance(node, int):
            return [Leaf(path, node)]
        return walk(node[1], (*path, (node[0], 1))) + walk(node[2], (*path, (node[0], 0)))

    return Tree(tuple(walk(nested, ())), json.dumps(nested))


class _Space:
    """The definitional model space on one data set, explored by branch and bound: ``min_cost`` is the
    least objective of any subtree below a node (the tests on its path and the splits left), exact by
    dynamic programming, and ``subtrees`` lists every subtree whose objective share is within an
    allowance, pruning a split whose children's least costs already exceed it."""

    def __init__(self, Xb: np.ndarray, ya: np.ndarray, reg: float) -> None:
        self.n, self.d = Xb.shape
        self.reg = reg
        self.cols = [Xb[:, j].astype(bool) for j in range(self.d)]
        self.ya = ya.astype(bool)
        self._min: dict = {}
        self._leaf: dict = {}

    def leaf_costs(self, tests: frozenset) -> tuple[float, float]:
        """(cost of a leaf labelled 0, of a leaf labelled 1) at this node: misclassified share + reg."""
        if tests not in self._leaf:
            reach = np.ones(self.n, dtype=bool)
            for f, v in tests:
                reach &= self.cols[f] if v else ~self.cols[f]
            ones = int(self.ya[reach].sum())
            zeros = int(reach.sum()) - ones
            self._leaf[tests] = (ones / self.n + self.reg, zeros / self.n + self.reg)
        return self._leaf[tests]

    def min_cost(self, tests: frozenset, budget: int) -> float:
        key = (tests, budget)
        if key not in self._min:
            best = min(self.leaf_costs(tests))
            if budget > 0:
                used = {f for f, _ in tests}
                for j in range(self.d):
                    if j not in used:
                        c = self.min_cost(tests | {(j, 1)}, budget - 1) + self.min_cost(
                            tests | {(j, 0)}, budget - 1
                        )
                        best = min(best, c)
            self._min[key] = best
        return self._min[key]

    def subtrees(
        self, tests: frozenset, budget: int, allowance: float, limit: int
    ) -> list[tuple[float, Any]]:
        """Every (cost, nested tree) below this node with cost <= ``allowance`` (``ValueError`` past ``limit``)."""
        tol = BOUND_TOLERANCE
        out = [(c, label) for label, c in enumerate(self.leaf_costs(tests)) if c <= allowance + tol]
        if budget == 0:
            return out
        used = {f for f, _ in tests}
        for j in range(self.d):
            if j in used:
                continue
            t1, t0 = tests | {(j, 1)}, tests | {(j, 0)}
            m1, m0 = self.min_cost(t1, budget - 1), self.min_cost(t0, budget - 1)
            if m1 + m0 > allowance + tol:
                continue
            ones = self.subtrees(t1, budget - 1, allowance - m0, limit)
            zeros = sorted(self.subtrees(t0, budget - 1, allowance - m1, limit), key=lambda p: p[0])
            costs0 = [c for c, _ in zeros]
            for c1, s1 in ones:
                for k in range(int(np.searchsorted(costs0, allowance - c1 + tol, side="right"))):
                    out.append((c1 + costs0[k], [j, s1, zeros[k][1]]))
                if len(out) > limit:
                    raise ValueError(f"over {limit} trees within the allowance")
        return out


def exact_optimum(X: Any, y: Any, reg: float, depth: int) -> float:
    """min Obj(f) over every tree of at most ``depth`` splits per path (any leaf labels), exactly."""
    Xb, ya, _, _ = _prepare(X, y, reg, depth, 1.0)
    return _Space(Xb, ya, reg).min_cost(frozenset(), depth)


def enumerate_full(
    X: Any, y: Any, reg: float, depth: int, eps: float, limit: int = 20_000
) -> tuple[list[Tree], float]:
    """The definitional R(eps) = {f : Obj(f) <= (1 + eps) Obj*} (every tree of the depth budget, any leaf
    labels) by branch and bound, with Obj* the exact optimum; returns (trees, Obj*), the trees sorted by
    objective. ``ValueError`` when the set holds more than ``limit`` trees."""
    Xb, ya, _, _ = _prepare(X, y, reg, depth, 1.0)
    if isinstance(eps, bool) or not isinstance(eps, int | float) or not math.isfinite(eps) or eps <= 0:
        raise ValueError(f"eps must be a finite number > 0, got {eps!r}")
    space = _Space(Xb, ya, reg)
    opt = space.min_cost(frozenset(), depth)
    found = space.subtrees(frozenset(), depth, (1 + eps) * opt, limit)
    if len(found) > limit:
        raise ValueError(f"R(eps) holds over {limit} trees")
    found.sort(key=lambda p: p[0])
    return [_to_tree(nested) for _, nested in found], opt
