"""The Rashomon set of sparse decision trees, R(eps) = {f : Obj(f) <= (1 + eps) Obj(f*)}.

Obj(f) = 0-1 loss + reg x #leaves under a depth budget (the paper's sparse-tree objective; the
multiplicative bound as in the predecessor framework, ``rashomon_bound_multiplier`` of ``treefarms``).
The set is enumerated by ``treefarms`` in a child process with a memory limit, a time limit and a cap
on the number of trees, so that a configuration whose set is too large raises
:class:`RashomonLimitError` ("limit reached") instead of exhausting the machine. ``gosdt`` gives the
optimum Obj(f*) as a cross-check.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import resource
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin

from icml26.common.validation import check_positive
from icml26.rashomon.trees import Tree, check_binary_data

ENUMERATORS = ("treefarms", "exact")
BOUND_TOLERANCE = 1e-6  # treefarms works in float32: an objective may exceed the bound by float error


class RashomonLimitError(RuntimeError):
    """The enumeration reached a limit (number of trees, memory or time) before finishing."""


def _check_depth(depth: Any) -> int:
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= 8:
        raise ValueError(f"depth (splits on a root-to-leaf path) must be an integer in 1..8, got {depth!r}")
    return depth


def _enumerate(Xb: np.ndarray, y: np.ndarray, config: dict, max_trees: int) -> tuple[int, list[str]]:
    """Run treefarms (stdout silenced); return the number of trees and, within the cap, their JSON."""
    import pandas as pd
    from treefarms import TREEFARMS

    from icml26.common import quiet_native_output

    with quiet_native_output():
        model = TREEFARMS(config)
        model.fit(pd.DataFrame(Xb), pd.Series(y))
        count = int(model.get_tree_count())
        if count > max_trees:
            return count, []
        return count, [model[i].json() for i in range(count)]


def _mapped_bytes() -> int:
    """This process's address space now (``VmSize``: /proc/self/statm's first field), 0 where unknown."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _child(conn: Any, Xb: np.ndarray, y: np.ndarray, config: dict, max_trees: int, memory_mb: int) -> None:
    import faulthandler

    faulthandler.disable()  # an abort under the memory limit is expected: no traceback dump (pytest enables it)
    null = os.open(os.devnull, os.O_WRONLY)  # a child that aborts on a failed allocation stays silent
    os.dup2(null, 1)
    os.dup2(null, 2)
    # the budget bounds what the enumeration adds: a child forked from a process that already maps more
    # than the budget (torch, transformers, Ray, a notebook) inherits that mapping and must keep it
    limit = _mapped_bytes() + memory_mb * 2**20
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    try:
        conn.send(("ok", _enumerate(Xb, y, config, max_trees)))
    except MemoryError:
        conn.send(("memory", None))
    except BaseException as exc:  # noqa: BLE001 (reported to the parent, which raises)
        conn.send(("error", f"{type(exc).__name__}: {exc}"))
    finally:
        conn.close()


def enumerate_trees(
    Xb: np.ndarray,
    y: np.ndarray,
    eps: float,
    reg: float,
    depth: int,
    max_trees: int = 20_000,
    memory_mb: int = 4096,
    time_limit: float = 120.0,
    isolate: bool = True,
) -> list[Tree]:
    """All trees of R(eps) by treefarms; ``isolate`` runs it in a forked child that may map ``memory_mb``
    of address space beyond what it inherited from this process, for ``time_limit`` seconds. Raises :class:`RashomonLimitError` at any limit."""
    # treefarms re-encodes constant and duplicate columns, which would shift the feature indices of its
    # trees: pass only distinct non-constant columns, and map the trees back (``keep``)
    _, first = np.unique(Xb.T, axis=0, return_index=True)
    keep = np.array(sorted(j for j in first.tolist() if 0 < Xb[:, j].sum() < Xb.shape[0]), dtype=np.int64)
    if keep.size == 0:
        keep = np.array([0], dtype=np.int64)
    Xb = np.ascontiguousarray(Xb[:, keep])
    config = {
        "regularization": reg,
        "rashomon_bound_multiplier": eps,
        "depth_budget": depth + 1,  # treefarms counts the leaf level
        "verbose": False,
    }
    if not isolate:
        count, sources = _enumerate(Xb, y, config, max_trees)
    else:
        import treefarms  # noqa: F401 (imported once here, so that each forked child starts fast)

        ctx = mp.get_context("fork")
        parent, child = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_child, args=(child, Xb, y, config, max_trees, memory_mb), daemon=True)
        proc.start()
        child.close()
        got = parent.poll(time_limit)
        try:
            message = parent.recv() if got else None
        except EOFError:  # the child died (e.g. aborted on a failed allocation) without answering
            message = None
        proc.join(5 if got else 0)
        if proc.is_alive():
            proc.kill()
            proc.join()
        if message is None:
            reason = f"{time_limit:g} s time limit" if not got else f"child exited with code {proc.exitcode}"
            raise RashomonLimitError(
                f"limit reached: the enumeration of R(eps={eps}, reg={reg}, depth={depth}) stopped ({reason};"
                f" memory limit {memory_mb} MB beyond the parent's mapping); lower eps or depth, or raise reg"
            )
        status, payload = message
        if status == "memory":
            raise RashomonLimitError(
                f"limit reached: the enumeration of R(eps={eps}, reg={reg}, depth={depth}) exceeded"
                f" {memory_mb} MB; lower eps or depth, or raise reg"
            )
        if status == "error":
            raise RuntimeError(f"treefarms failed: {payload}")
        count, sources = payload
    if count > max_trees:
        raise RashomonLimitError(
            f"limit reached: R(eps={eps}, reg={reg}, depth={depth}) holds {count} trees, over the cap"
            f" max_trees={max_trees}; lower eps or depth, or raise reg or max_trees"
        )
    return [Tree.from_json(s).relabel(keep) for s in sources]


def gosdt_optimum(Xb: Any, y: Any, reg: float, depth: int) -> tuple[Tree, float]:
    """The optimal tree of at most ``depth`` splits per path and Obj(f*) by GOSDT (its ``predict`` breaks on the pinned scikit-learn, so the
    fitted tree is read from its JSON and the objective recomputed from its predictions)."""
    import pandas as pd
    from gosdt import GOSDTClassifier

    from icml26.common import quiet_native_output

    Xb, y = check_binary_data(Xb, y)
    reg, depth = check_positive("reg", reg), _check_depth(depth)
    with quiet_native_output():
        # gosdt 1.0.4 counts the root alone as depth 0 (depth_budget = splits per path), unlike treefarms,
        # which counts the leaf level (its depth_budget is depth + 1)
        model = GOSDTClassifier(regularization=reg, depth_budget=depth, allow_small_reg=True)
        model.fit(pd.DataFrame(Xb), pd.Series(y))
    if (
        str(model.result_.status).upper().find("CONVERGE") < 0
        and "OPTIMAL" not in str(model.result_.status).upper()
    ):
        warnings.warn(f"GOSDT status {model.result_.status}: the optimum may not be proven", stacklevel=2)
    # gosdt relabels classes through a label binarizer; read the prediction back in the original labels
    tree = Tree.from_json(model.result_.model)
    classes = np.asarray(model.classes_)
    if not np.array_equal(classes, [0, 1]):
        raise RuntimeError(f"gosdt classes {classes.tolist()} are not [0, 1]")
    return tree, tree.objective(Xb, y, reg)


class RashomonSet(ClassifierMixin, BaseEstimator):
    """R(eps) of sparse decision trees: ``RashomonSet(eps, reg, depth).fit(X, y)`` (a scikit-learn estimator:
    the parameters are stored as given and validated in :meth:`fit`, so ``sklearn.base.clone`` works).

    ``eps`` > 0 (multiplicative), ``reg`` > 0 (per-leaf penalty), ``depth`` (splits per path, 1..8).
    ``enumerator``: ``"treefarms"`` (the default, treefarms' model space, in a child process under
    ``memory_mb`` / ``time_limit``) or ``"exact"`` (the definitional set, every tree of the depth budget
    with any leaf labels within the bound, by :func:`icml26.rashomon.full_set.enumerate_full`).
    After ``fit``: ``len(R)``, iteration and indexing over :class:`Tree` s, ``R.objectives`` (recomputed from
    each tree's predictions), ``R.optimum`` (min objective), ``R.diversity()``, ``R.predict(X, vote=...)``.
    With treefarms ``len(R)`` is a lower bound of the definitional |R(eps)|: :meth:`full_count` gives the
    latter. ``raw_excess_`` is the largest Obj - bound over the trees the enumerator returned before the
    ones above the bound were dropped (``n_dropped_``). Binary labels only: the attacks, the leaf-count
    reconstruction and the definitional count are written for two classes, so ``fit`` refuses more.
    """

    _PARAMS = ("eps", "reg", "depth", "max_trees", "memory_mb", "time_limit", "isolate", "enumerator")

    def __init__(
        self,
        eps: float = 0.05,
        reg: float = 0.01,
        depth: int = 3,
        max_trees: int = 20_000,
        memory_mb: int = 4096,
        time_limit: float = 120.0,
        isolate: bool = True,
        enumerator: str = "treefarms",
    ) -> None:
        self.eps = eps
        self.reg = reg
        self.depth = depth
        self.max_trees = max_trees
        self.memory_mb = memory_mb
        self.time_limit = time_limit
        self.isolate = isolate
        self.enumerator = enumerator

    def _validated(self) -> tuple[float, float, int, int, int, float]:
        """The parameters checked (one message naming the bad one and what is accepted)."""
        eps, reg = check_positive("eps", self.eps), check_positive("reg", self.reg)
        depth = _check_depth(self.depth)
        for name in ("max_trees", "memory_mb"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int | np.integer) or v < 1:
                raise ValueError(f"{name} must be an integer >= 1, got {v!r}")
        time_limit = check_positive("time_limit", self.time_limit)
        if not isinstance(self.isolate, bool | np.bool_):
            raise ValueError(f"isolate must be True or False, got {self.isolate!r}")
        if self.enumerator not in ENUMERATORS:
            raise ValueError(f"enumerator must be one of {', '.join(ENUMERATORS)}, got {self.enumerator!r}")
        return eps, reg, depth, int(self.max_trees), int(self.memory_mb), time_limit

    def fit(self, X: Any, y: Any) -> RashomonSet:
        """Enumerate R(eps) on binary ``X`` (n, d) and labels ``y`` in {0, 1}."""
        eps, reg, depth, max_trees, memory_mb, time_limit = self._validated()
        ya = np.asarray(y)
        if ya.ndim == 1 and ya.size and np.unique(ya).size > 2:
            raise ValueError(
                f"y holds {np.unique(ya).size} classes: RashomonSet is binary only (labels 0 and 1; the attacks,"
                " the leaf-count reconstruction and the definitional count are written for two classes);"
                " fit one set per class against the rest"
            )
        Xb, ya = check_binary_data(X, y)
        if len(np.unique(ya)) < 2:
            raise ValueError(
                f"y holds a single class ({int(ya[0])}): a Rashomon set needs both labels 0 and 1"
            )
        if self.enumerator == "exact":
            from icml26.rashomon.full_set import enumerate_full

            try:
                trees, _ = enumerate_full(Xb, ya, reg, depth, eps, limit=max_trees)
            except ValueError as exc:
                raise RashomonLimitError(
                    f"limit reached: the definitional R(eps={eps}, reg={reg}, depth={depth}) holds over"
                    f" max_trees={max_trees} trees ({exc}); lower eps or depth, or raise reg or max_trees"
                ) from None
        else:
            trees = enumerate_trees(
                Xb, ya, eps, reg, depth, max_trees, memory_mb, time_limit, bool(self.isolate)
            )
        if not trees:
            raise RuntimeError("the enumerator returned an empty Rashomon set")
        self.X_, self.y_ = Xb, ya
        self.classes_ = np.array([0, 1])
        self.n_features_in_ = Xb.shape[1]
        objectives = np.array([t.objective(Xb, ya, reg) for t in trees])
        order = np.argsort(objectives, kind="stable")
        self.trees_ = [trees[i] for i in order]
        self.objectives = objectives[order]
        self.optimum = float(self.objectives[0])
        self.bound_ = (1 + eps) * self.optimum
        # treefarms sometimes returns trees above (1 + eps) x the optimum it reports (its bound is taken
        # from a looser internal objective): those are not in R(eps) by definition and are dropped
        over = self.objectives > self.bound_ + BOUND_TOLERANCE
        self.n_dropped_ = int(over.sum())
        self.raw_size_ = len(self.trees_)
        self.raw_excess_ = float(np.max(self.objectives - self.bound_))
        if self.n_dropped_:
            warnings.warn(
                f"treefarms returned {self.n_dropped_} trees above the Rashomon bound; they are dropped",
                stacklevel=2,
            )
            self.trees_ = [t for t, o in zip(self.trees_, over, strict=True) if not o]
            self.objectives = self.objectives[~over]
        return self

    @property
    def trees(self) -> list[Tree]:
        """The members, by objective (the optimum first); empty before ``fit``."""
        return getattr(self, "trees_", [])

    @property
    def bound(self) -> float:
        """(1 + eps) Obj(f*) of the fitted set."""
        self._check_fitted()
        return self.bound_

    def __len__(self) -> int:
        return len(self.trees)

    def __iter__(self) -> Iterator[Tree]:
        return iter(self.trees)

    def __getitem__(self, i: int) -> Tree:
        return self.trees[i]

    def predict(self, X: Any, vote: str = "majority") -> np.ndarray:
        """``(n,)`` labels of binary ``X`` by the set: ``vote="majority"`` (the members' majority, ties to
        the optimal tree's label) or ``"optimal"`` (the optimal tree f* alone)."""
        self._check_fitted()
        if vote not in ("majority", "optimal"):
            raise ValueError(f"vote must be 'majority' or 'optimal', got {vote!r}")
        P = self.predictions(X)
        if vote == "optimal":
            return P[0]
        share = P.mean(axis=0)
        return np.where(share > 0.5, 1, np.where(share < 0.5, 0, P[0])).astype(np.int64)

    def score(self, X: Any, y: Any, vote: str = "majority") -> float:
        """Accuracy of :meth:`predict` on binary ``X`` and labels ``y``."""
        Xb, ya = check_binary_data(X, y)
        return float(np.mean(self.predict(Xb, vote) == ya))

    def full_count(self) -> int:
        """|R(eps)| as defined (every tree of the depth budget, any leaf labels, Obj <= bound) on the
        training data, by :func:`icml26.rashomon.full_set.full_count`; ``len(self)`` is a lower bound."""
        from icml26.rashomon.full_set import full_count

        self._check_fitted()
        return full_count(self.X_, self.y_, float(self.reg), int(self.depth), self.bound + BOUND_TOLERANCE)

    def predictions(self, X: Any | None = None) -> np.ndarray:
        """``(|R|, n)`` predictions of every member (on the training set by default)."""
        self._check_fitted()
        Xb = self.X_ if X is None else check_binary_data(X)[0]
        if Xb.shape[1] != self.X_.shape[1]:
            raise ValueError(
                f"X has {Xb.shape[1]} binary feature(s) but the set was fitted on {self.X_.shape[1]}"
            )
        return np.array([t.predict(Xb) for t in self.trees])

    def diversity(self, X: Any | None = None) -> dict[str, float]:
        """``size`` |R|; ``pattern_diversity``, the mean pairwise disagreement of the members' predictions
        [inferred: the predecessor's definition]; ``feature_entropy``, the entropy (nats) of how often each
        binary feature is used across members."""
        self._check_fitted()
        return set_diversity(self.trees, self.predictions(X))

    def _check_fitted(self) -> None:
        if not self.trees:
            raise ValueError("RashomonSet is not fitted: call fit(X, y) first")


def pattern_diversity(predictions: np.ndarray) -> float:
    """Mean over pairs of members of the fraction of points they label differently (0 for one member)."""
    P = np.asarray(predictions)
    m = P.shape[0]
    if m < 2:
        return 0.0
    ones = P.sum(axis=0)
    disagreeing_pairs = ones * (m - ones)  # per point: pairs with different labels
    return float(disagreeing_pairs.mean() / (m * (m - 1) / 2))


def feature_entropy(trees: list[Tree]) -> float:
    """Entropy (nats) of the distribution of feature usage over all members' splits (0 if no splits)."""
    counts: dict[int, int] = {}
    for t in trees:
        for f in t.features:
            counts[f] = counts.get(f, 0) + 1
    c = np.array(list(counts.values()), dtype=float)
    if c.sum() == 0:
        return 0.0
    p = c / c.sum()
    return float(-(p * np.log(p)).sum())


def set_diversity(trees: list[Tree], predictions: np.ndarray) -> dict[str, float]:
    """The three diversity measures of a list of trees and their ``(m, n)`` predictions."""
    return {
        "size": float(len(trees)),
        "pattern_diversity": pattern_diversity(predictions),
        "feature_entropy": feature_entropy(trees),
    }


def diverse_order(predictions: np.ndarray, first: int = 0) -> list[int]:
    """Disclosure order that greedily maximises diversity: start at ``first`` (the optimum), then add the
    member with the largest mean disagreement with those already chosen [inferred]."""
    P = np.asarray(predictions)
    m = P.shape[0]
    chosen = [first]
    total = (P[first] != P).mean(axis=1).astype(float)
    left = set(range(m)) - {first}
    while left:
        nxt = max(left, key=lambda i: (total[i], -i))
        chosen.append(nxt)
        left.remove(nxt)
        total += (P[nxt] != P).mean(axis=1)
    return chosen
