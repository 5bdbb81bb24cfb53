"""BART posteriors for one arm: the project's own Metropolis-within-Gibbs sampler and a stochtree backend.

The model (Chipman, George & McCulloch 2010) for one arm's rewards is

    y_i = sum_{j=1}^m g(x_i; T_j, M_j) + eps_i,   eps_i ~ N(0, sigma^2),

with independent tree priors, leaf values mu ~ N(0, tau^2) on y rescaled to [-0.5, 0.5]
(tau = 0.5 / (k sqrt(m)), k = 2), and a conjugate inverse-gamma prior sigma^2 ~ nu lambda / chi2_nu
calibrated so that P(sigma^2 < var(y)) = q ("naive" specification). A node at depth d splits with

    Chipman prior:            p_split(d) = alpha (1 + d)^(-beta)     (alpha = 0.95, beta = 2)
    depth-exponential prior:  p_split(d) = alpha^d, alpha in (0, 0.5) (the paper's theory; alpha = 0.45)

and a split rule is uniform over the variables that still have a cut-point in the node's cell, then
uniform over those cut-points. Both backends return posterior draws of f(x) with shape (draws, n).
"""

from __future__ import annotations

import math
import warnings
from typing import Protocol

import numpy as np
from scipy import stats

from icml26.bfts.bart_kernel import HAVE_NUMBA, run_sweeps
from icml26.common import check_int

SPLIT_PRIORS = ("chipman", "depth_exponential")
ENGINES = ("auto", "numba", "python")
_MOVES = ("grow", "prune", "change")


class ArmPosterior(Protocol):
    """A fitted BART posterior: ``n_draws`` draws of f, evaluated by ``predict``."""

    n_draws: int

    def fit(self, X: np.ndarray, y: np.ndarray) -> ArmPosterior: ...

    def predict(self, X: np.ndarray) -> np.ndarray: ...

    def predict_draw(self, X: np.ndarray, k: int) -> np.ndarray: ...


def _check_xy(X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    if X.ndim != 2 or y.ndim != 1 or X.shape[0] != y.shape[0] or X.shape[0] < 1:
        raise ValueError(
            f"need X of shape (n, p) and y of shape (n,) with n >= 1, got {X.shape} and {y.shape}"
        )
    if not (np.isfinite(X).all() and np.isfinite(y).all()):
        raise ValueError("X and y must be finite (no NaN or inf)")
    return X, y


def _check_predict_X(model: object, X: np.ndarray, fitted_attr: str) -> np.ndarray:
    """X as a finite float array of shape (n, n_features_in_) for a fitted ``model``; else ``ValueError``."""
    name = type(model).__name__
    if not hasattr(model, fitted_attr):
        raise ValueError(f"this {name} is not fitted yet; call fit(X, y) first")
    X = np.asarray(X, dtype=float)
    n_features = model.n_features_in_  # type: ignore[attr-defined]
    if X.ndim != 2 or X.shape[1] != n_features:
        raise ValueError(f"X must have shape (n, {n_features}), got {X.shape}")
    if not np.isfinite(X).all():
        raise ValueError("X must be finite (no NaN or inf)")
    return X


def cut_grid(x: np.ndarray, max_bins: int) -> np.ndarray:
    """Candidate cut-points of one feature: midpoints of its sorted unique values, or quantiles.

    At most ``max_bins`` cut-points; a split ``x <= c`` sends the observation left. Shape (C,).
    """
    u = np.unique(x)
    if u.size <= 1:
        return np.zeros(0)
    if u.size - 1 <= max_bins:
        return (u[:-1] + u[1:]) / 2.0
    qs = np.quantile(x, np.linspace(0.0, 1.0, max_bins + 2)[1:-1])
    return np.unique(qs)


class _Tree:
    """One tree during MCMC. Nodes are list entries (never reused); ``lo/hi`` bound each node's cell.

    A node's cell for feature j allows cut indices in [lo[j], hi[j]); splitting at cut k sends
    ``xb <= k`` left, where ``xb`` counts the cut-points strictly below x.
    """

    def __init__(self, n_cuts: np.ndarray, p_root: float) -> None:
        self.var = [-1]
        self.cut = [-1]
        self.left = [-1]
        self.right = [-1]
        self.parent = [-1]
        self.depth = [0]
        self.lo = [np.zeros_like(n_cuts)]
        self.hi = [n_cuts.copy()]
        self.psplit = [p_root]
        self.value = [0.0]
        self.leaves = {0}
        self.internal: set[int] = set()
        self._shape: tuple | None = None  # flatten()'s structure, until the tree's shape changes

    def add_children(self, node: int, var: int, cut: int, p_left: float, p_right: float) -> tuple[int, int]:
        ids = []
        for side, p in (("L", p_left), ("R", p_right)):
            lo, hi = self.lo[node].copy(), self.hi[node].copy()
            if side == "L":
                hi[var] = cut
            else:
                lo[var] = cut + 1
            self.var.append(-1)
            self.cut.append(-1)
            self.left.append(-1)
            self.right.append(-1)
            self.parent.append(node)
            self.depth.append(self.depth[node] + 1)
            self.lo.append(lo)
            self.hi.append(hi)
            self.psplit.append(p)
            self.value.append(0.0)
            ids.append(len(self.var) - 1)
        self.var[node], self.cut[node] = var, cut
        self.left[node], self.right[node] = ids
        self.leaves.discard(node)
        self.leaves.update(ids)
        self.internal.add(node)
        self._shape = None
        return ids[0], ids[1]

    def remove_children(self, node: int) -> None:
        self.leaves.discard(self.left[node])
        self.leaves.discard(self.right[node])
        self.leaves.add(node)
        self.internal.discard(node)
        self.var[node] = self.cut[node] = self.left[node] = self.right[node] = -1
        self._shape = None

    def nog(self) -> list[int]:
        """Internal nodes whose two children are both leaves (the prunable / changeable nodes)."""
        return sorted(
            i for i in self.internal if self.left[i] in self.leaves and self.right[i] in self.leaves
        )

    def growable(self) -> list[int]:
        return sorted(i for i in self.leaves if self.psplit[i] > 0.0)

    def flatten(
        self, cuts: list[np.ndarray]
    ) -> tuple[list[int], list[float], list[int], list[int], list[float]]:
        """Depth-first arrays (feature, threshold, left, right, value); feature -1 marks a leaf.

        The structure is kept until the tree's shape changes (most sweeps change only leaf values);
        the returned lists are shared between calls and must not be modified.
        """
        if self._shape is None:
            order, stack = [], [0]
            while stack:
                i = stack.pop()
                order.append(i)
                if i in self.internal:
                    stack.extend((self.right[i], self.left[i]))
            pos = {i: n for n, i in enumerate(order)}
            feat, thr, lef, rig = [], [], [], []
            for i in order:
                if i in self.internal:
                    feat.append(self.var[i])
                    thr.append(float(cuts[self.var[i]][self.cut[i]]))
                    lef.append(pos[self.left[i]])
                    rig.append(pos[self.right[i]])
                else:
                    feat.append(-1)
                    thr.append(0.0)
                    lef.append(-1)
                    rig.append(-1)
            self._shape = (feat, thr, lef, rig, [-1 if i in self.internal else i for i in order])
        feat, thr, lef, rig, leaf_of = self._shape
        value = self.value
        return feat, thr, lef, rig, [0.0 if i < 0 else value[i] for i in leaf_of]


class BARTSampler:
    """The project's own BART sampler: grow / prune / change Metropolis-Hastings moves on each tree
    with its leaf values integrated out, then Gibbs draws of the leaf values and of sigma^2, by
    Bayesian backfitting over the m trees (Chipman et al. 2010; Kapelner & Bleich 2016).

    It offers the depth-exponential split prior alpha^d of the paper's theory
    (``split_prior="depth_exponential"``), which stochtree lacks. numpy only; meant for n up to a few
    thousand. ``sigma2`` fixes the noise variance (original units) instead of sampling it.

    ``engine`` runs the sweeps: ``"python"`` (the reference loop below), ``"numba"`` (``bart_kernel``:
    the same loop compiled, the same draws to the bit, ~10x faster on small arms; compiled once per
    install and cached) or ``"auto"`` (numba when installed).

    After ``fit(X, y)``: ``predict(X)`` returns posterior draws of f, shape (n_draws, n), and
    ``sigma2_draws_`` the noise variances, shape (n_draws,).
    """

    def __init__(
        self,
        n_trees: int = 50,
        n_burnin: int = 200,
        n_draws: int = 100,
        split_prior: str = "chipman",
        alpha: float | None = None,
        beta: float = 2.0,
        k: float = 2.0,
        nu: float = 3.0,
        q: float = 0.9,
        max_bins: int = 100,
        min_samples_leaf: int = 1,
        max_depth: int | None = None,
        sigma2: float | None = None,
        random_state: int | None = None,
        engine: str = "auto",
    ) -> None:
        self.n_trees = check_int("n_trees", n_trees)
        self.n_burnin = check_int("n_burnin", n_burnin, 0)
        self.n_draws = check_int("n_draws", n_draws)
        if engine not in ENGINES:
            raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
        if engine == "numba" and not HAVE_NUMBA:
            raise ValueError(
                "engine='numba' needs the numba package (pip install numba); use 'python' or 'auto'"
            )
        self.engine = engine
        if split_prior not in SPLIT_PRIORS:
            raise ValueError(f"split_prior must be one of {SPLIT_PRIORS}, got {split_prior!r}")
        self.split_prior = split_prior
        if alpha is None:
            alpha = 0.95 if split_prior == "chipman" else 0.45
        if split_prior == "chipman" and not 0.0 < alpha < 1.0:
            raise ValueError(f"alpha must be in (0, 1) for the Chipman prior, got {alpha}")
        if split_prior == "depth_exponential" and not 0.0 < alpha < 0.5:
            raise ValueError(f"alpha must be in (0, 0.5) for the depth-exponential prior, got {alpha}")
        if beta < 0 or k <= 0 or nu <= 0 or not 0 < q < 1:
            raise ValueError(f"need beta >= 0, k > 0, nu > 0 and 0 < q < 1, got {beta}, {k}, {nu}, {q}")
        if sigma2 is not None and not (math.isfinite(sigma2) and sigma2 > 0):
            raise ValueError(f"sigma2 must be a positive finite number or None, got {sigma2!r}")
        self.alpha, self.beta, self.k, self.nu, self.q = (
            float(alpha),
            float(beta),
            float(k),
            float(nu),
            float(q),
        )
        self.max_bins = check_int("max_bins", max_bins)
        self.min_samples_leaf = check_int("min_samples_leaf", min_samples_leaf)
        self.max_depth = None if max_depth is None else check_int("max_depth", max_depth, 0)
        self.sigma2 = sigma2
        self.random_state = random_state

    # --- prior -------------------------------------------------------------------------------
    def split_probability(self, depth: int) -> float:
        """p_split(d): alpha (1 + d)^-beta (Chipman) or alpha^d (depth-exponential); 0 at max_depth."""
        if self.max_depth is not None and depth >= self.max_depth:
            return 0.0
        if self.split_prior == "chipman":
            return self.alpha * (1.0 + depth) ** (-self.beta)
        return self.alpha**depth

    def _p_node(self, depth: int, lo: np.ndarray, hi: np.ndarray) -> float:
        # a node with no cut-point left in its cell is a leaf with probability one
        return self.split_probability(depth) if np.any(hi > lo) else 0.0

    @staticmethod
    def _move_probs(can_grow: bool, can_prune: bool) -> dict[str, float]:
        if can_grow and can_prune:
            return {"grow": 0.4, "prune": 0.4, "change": 0.2}
        if can_grow:
            return {"grow": 1.0, "prune": 0.0, "change": 0.0}
        if can_prune:
            return {"grow": 0.0, "prune": 0.5, "change": 0.5}
        return {"grow": 0.0, "prune": 0.0, "change": 0.0}

    def _log_ml(self, n: float, s: float, sigma2: float) -> float:
        # log marginal likelihood of a leaf with n residuals summing to s, mu integrated out,
        # dropping the terms that cancel in every ratio of the moves below
        tau2 = self.tau_**2
        return -0.5 * math.log1p(n * tau2 / sigma2) + s * s * tau2 / (2.0 * sigma2 * (sigma2 + n * tau2))

    # --- fitting -----------------------------------------------------------------------------
    def fit(self, X: np.ndarray, y: np.ndarray) -> BARTSampler:
        """Run ``n_burnin + n_draws`` sweeps of backfitting MCMC on (X (n, p), y (n,)); keep the last draws."""
        X, y = _check_xy(X, y)
        rng = np.random.default_rng(self.random_state)
        n, p = X.shape
        self.n_features_in_ = p
        self.cuts_ = [cut_grid(X[:, j], self.max_bins) for j in range(p)]
        n_cuts = np.array([c.size for c in self.cuts_], dtype=np.int64)
        xb = np.column_stack([np.searchsorted(self.cuts_[j], X[:, j], side="left") for j in range(p)])
        # rescale y to [-0.5, 0.5] so the prior on the leaves is scale free
        self.y_min_ = float(y.min())
        self.y_range_ = float(y.max() - y.min()) or 1.0
        ys = (y - self.y_min_) / self.y_range_ - 0.5
        self.tau_ = 0.5 / (self.k * math.sqrt(self.n_trees))
        sigma_hat2 = float(np.var(ys, ddof=1)) if n >= 2 else 0.0
        if sigma_hat2 <= 0.0:
            sigma_hat2 = 0.0625  # no spread to calibrate on: a quarter of the unit range as the scale
        # P(sigma^2 < sigma_hat^2) = q for sigma^2 ~ nu lambda / chi2_nu
        lam = sigma_hat2 * stats.chi2.ppf(1.0 - self.q, self.nu) / self.nu
        fixed_s2 = None if self.sigma2 is None else self.sigma2 / self.y_range_**2
        sigma2 = fixed_s2 if fixed_s2 is not None else sigma_hat2

        if self.engine == "numba" or (self.engine == "auto" and HAVE_NUMBA):
            return self._fit_compiled(xb, ys, n_cuts, sigma2, fixed_s2 is not None, lam, rng)
        p_root = self._p_node(0, np.zeros(p, dtype=np.int64), n_cuts)
        trees = [_Tree(n_cuts, p_root) for _ in range(self.n_trees)]
        node_of = np.zeros((self.n_trees, n), dtype=np.int64)
        tree_fit = np.zeros((self.n_trees, n))
        total = tree_fit.sum(axis=0)
        accepted = dict.fromkeys(_MOVES, 0)
        proposed = dict.fromkeys(_MOVES, 0)
        store: list[list[tuple]] = []
        sigma2_draws = []
        for sweep in range(self.n_burnin + self.n_draws):
            for j, tree in enumerate(trees):
                resid = ys - (total - tree_fit[j])
                move = self._propose(tree, node_of[j], resid, xb, sigma2, rng)
                if move is not None:
                    proposed[move[0]] += 1
                    accepted[move[0]] += move[1]
                new_fit = self._draw_leaves(tree, node_of[j], resid, sigma2, rng)
                total += new_fit - tree_fit[j]
                tree_fit[j] = new_fit
            if fixed_s2 is None:
                sse = float(np.sum((ys - total) ** 2))
                sigma2 = 1.0 / rng.gamma((self.nu + n) / 2.0, 2.0 / (self.nu * lam + sse))
            if sweep >= self.n_burnin:
                store.append([t.flatten(self.cuts_) for t in trees])
                sigma2_draws.append(sigma2 * self.y_range_**2)
        self._pack(store)
        self.sigma2_draws_ = np.asarray(sigma2_draws)
        self.acceptance_ = {m: accepted[m] / proposed[m] if proposed[m] else float("nan") for m in _MOVES}
        return self

    def _fit_compiled(
        self,
        xb: np.ndarray,
        ys: np.ndarray,
        n_cuts: np.ndarray,
        sigma2: float,
        fixed: bool,
        lam: float,
        rng: np.random.Generator,
    ) -> BARTSampler:
        """The sweeps below, run by ``bart_kernel.run_sweeps``: the same draws as the Python loop, to the bit."""
        sweeps = self.n_burnin + self.n_draws
        pdepth = np.array([self.split_probability(d) for d in range(sweeps + 2)])
        cuts = np.zeros((len(self.cuts_), max(1, int(n_cuts.max(initial=0)))))
        for j, c in enumerate(self.cuts_):
            cuts[j, : c.size] = c
        out = run_sweeps(
            np.ascontiguousarray(xb, dtype=np.int64),
            np.ascontiguousarray(ys, dtype=np.float64),
            cuts,
            n_cuts,
            pdepth,
            self.tau_**2,
            float(sigma2),
            fixed,
            self.nu,
            float(lam),
            self.n_trees,
            self.n_burnin,
            self.n_draws,
            self.min_samples_leaf,
            rng,
        )
        self.feature_, self.threshold_, self.left_, self.right_, self.value_, self.roots_ = out[:6]
        self.sigma2_draws_ = out[6] * self.y_range_**2
        proposed, accepted = out[7], out[8]
        self.acceptance_ = {
            m: int(accepted[i]) / int(proposed[i]) if proposed[i] else float("nan")
            for i, m in enumerate(_MOVES)
        }
        return self

    def _draw_split(
        self,
        tree: _Tree,
        node: int,
        idx: np.ndarray,
        xb: np.ndarray,
        resid: np.ndarray,
        sigma2: float,
        rng: np.random.Generator,
    ) -> tuple[int, int, np.ndarray, float, float, float] | None:
        """A rule for ``node`` drawn from the prior, splitting its observations ``idx``.

        Returns ``(var, cut, go_left, p_left, p_right, log_fit)`` with the children's split
        probabilities and ``log_fit`` = the children's log marginal likelihoods plus their log prior
        of staying leaves; ``None`` when a child would get fewer than ``min_samples_leaf`` points.
        """
        var, cut = self._draw_rule(tree, node, rng)
        go_left = xb[idx, var] <= cut
        n_left = int(go_left.sum())
        if min(n_left, idx.size - n_left) < self.min_samples_leaf:
            return None
        depth = tree.depth[node] + 1
        lo, hi = tree.lo[node], tree.hi[node]
        hi_l = hi.copy()
        hi_l[var] = cut
        lo_r = lo.copy()
        lo_r[var] = cut + 1
        p_l, p_r = self._p_node(depth, lo, hi_l), self._p_node(depth, lo_r, hi)
        log_fit = (
            self._log_ml(n_left, float(resid[idx[go_left]].sum()), sigma2)
            + self._log_ml(idx.size - n_left, float(resid[idx[~go_left]].sum()), sigma2)
            + _log(1.0 - p_l)
            + _log(1.0 - p_r)
        )
        return var, cut, go_left, p_l, p_r, log_fit

    def _propose(
        self,
        tree: _Tree,
        node_of: np.ndarray,
        resid: np.ndarray,
        xb: np.ndarray,
        sigma2: float,
        rng: np.random.Generator,
    ) -> tuple[str, bool] | None:
        """One Metropolis-Hastings move on the tree structure (leaf values integrated out)."""
        growable, nog = tree.growable(), tree.nog()
        probs = self._move_probs(bool(growable), bool(nog))
        total_p = sum(probs.values())
        if total_p == 0.0:
            return None
        u = rng.random() * total_p
        move = "grow" if u < probs["grow"] else "prune" if u < probs["grow"] + probs["prune"] else "change"
        if move == "grow":
            node = growable[rng.integers(len(growable))]
            idx = np.flatnonzero(node_of == node)
            split = self._draw_split(tree, node, idx, xb, resid, sigma2, rng)
            if split is None:
                return move, False
            var, cut, go_left, p_l, p_r, log_fit = split
            log_r = (
                log_fit
                - self._log_ml(idx.size, float(resid[idx].sum()), sigma2)
                + _log(tree.psplit[node])
                - _log(1.0 - tree.psplit[node])
            )
            shape = tree._shape
            left, right = tree.add_children(node, var, cut, p_l, p_r)
            # the reverse move prunes this node, chosen among the new tree's nog nodes
            nog_new = tree.nog()
            probs_new = self._move_probs(bool(tree.growable()), True)
            log_r += _log(probs_new["prune"] / len(nog_new)) - _log(probs["grow"] / len(growable))
            if _accept(log_r, rng):
                node_of[idx[go_left]] = left
                node_of[idx[~go_left]] = right
                return move, True
            tree.remove_children(node)
            tree._shape = shape  # the tree is as it was
            return move, False
        node = nog[rng.integers(len(nog))]
        left, right = tree.left[node], tree.right[node]
        idx = np.flatnonzero((node_of == left) | (node_of == right))
        in_left = node_of[idx] == left
        n_l = int(in_left.sum())
        s_l, s_r = float(resid[idx[in_left]].sum()), float(resid[idx[~in_left]].sum())
        ml_children = self._log_ml(n_l, s_l, sigma2) + self._log_ml(idx.size - n_l, s_r, sigma2)
        p_children = _log(1.0 - tree.psplit[left]) + _log(1.0 - tree.psplit[right])
        if move == "prune":
            old = (tree.var[node], tree.cut[node], tree.psplit[left], tree.psplit[right])
            log_r = (
                self._log_ml(idx.size, s_l + s_r, sigma2)
                - ml_children
                + _log(1.0 - tree.psplit[node])
                - _log(tree.psplit[node])
                - p_children
            )
            tree.remove_children(node)
            growable_new = tree.growable()
            probs_new = self._move_probs(bool(growable_new), bool(tree.nog()))
            log_r += _log(probs_new["grow"] / len(growable_new)) - _log(probs["prune"] / len(nog))
            if _accept(log_r, rng):
                node_of[idx] = node
                return move, True
            tree.add_children(node, old[0], old[1], old[2], old[3])
            # add_children appended fresh ids; keep the observations pointing at them
            node_of[idx[in_left]], node_of[idx[~in_left]] = tree.left[node], tree.right[node]
            return move, False
        # change: a new rule for a nog node, drawn from the prior's rule distribution (symmetric)
        split = self._draw_split(tree, node, idx, xb, resid, sigma2, rng)
        if split is None:
            return move, False
        var, cut, go_left, p_l, p_r, log_fit = split
        log_r = log_fit - ml_children - p_children
        old = (tree.var[node], tree.cut[node], tree.psplit[left], tree.psplit[right])
        tree.remove_children(node)
        new_left, new_right = tree.add_children(node, var, cut, p_l, p_r)
        probs_new = self._move_probs(bool(tree.growable()), True)
        log_r += _log(probs_new["change"]) - _log(probs["change"])
        if _accept(log_r, rng):
            node_of[idx[go_left]] = new_left
            node_of[idx[~go_left]] = new_right
            return move, True
        tree.remove_children(node)
        tree.add_children(node, old[0], old[1], old[2], old[3])
        node_of[idx[in_left]], node_of[idx[~in_left]] = tree.left[node], tree.right[node]
        return move, False

    @staticmethod
    def _draw_rule(tree: _Tree, node: int, rng: np.random.Generator) -> tuple[int, int]:
        lo, hi = tree.lo[node], tree.hi[node]
        avail = np.flatnonzero(hi > lo)
        var = int(avail[rng.integers(avail.size)])
        return var, int(rng.integers(lo[var], hi[var]))

    def _draw_leaves(
        self, tree: _Tree, node_of: np.ndarray, resid: np.ndarray, sigma2: float, rng: np.random.Generator
    ) -> np.ndarray:
        """Gibbs: mu_leaf | r, sigma^2 ~ N(tau^2 s / (sigma^2 + n tau^2), sigma^2 tau^2 / (sigma^2 + n tau^2))."""
        size = len(tree.var)
        leaves = list(tree.leaves)
        counts = np.bincount(node_of, minlength=size)[leaves].tolist()
        sums = np.bincount(node_of, weights=resid, minlength=size)[leaves].tolist()
        tau2 = self.tau_**2
        # a few leaves: scalar arithmetic, the same IEEE operations in the same order as on arrays
        z = rng.standard_normal(len(leaves)).tolist()
        values = np.zeros(size)
        for leaf, c, s, zi in zip(leaves, counts, sums, z, strict=True):
            var_post = sigma2 * tau2 / (sigma2 + c * tau2)
            mean_post = tau2 * s / (sigma2 + c * tau2)
            values[leaf] = tree.value[leaf] = mean_post + math.sqrt(var_post) * zi
        return values[node_of]

    def _pack(self, store: list[list[tuple]]) -> None:
        feat, thr, lef, rig, val, roots = [], [], [], [], [], []
        for draw in store:
            row = []
            for f, t, left, right, v in draw:
                off = len(feat)
                row.append(off)
                feat.extend(f)
                thr.extend(t)
                lef.extend(x + off if x >= 0 else -1 for x in left)
                rig.extend(x + off if x >= 0 else -1 for x in right)
                val.extend(v)
            roots.append(row)
        self.feature_ = np.asarray(feat, dtype=np.int64)
        self.threshold_ = np.asarray(thr)
        self.left_ = np.asarray(lef, dtype=np.int64)
        self.right_ = np.asarray(rig, dtype=np.int64)
        self.value_ = np.asarray(val)
        self.roots_ = np.asarray(roots, dtype=np.int64)  # (n_draws, n_trees)

    # --- prediction --------------------------------------------------------------------------
    def _route(self, X: np.ndarray, roots: np.ndarray) -> np.ndarray:
        """Sum of leaf values reached by each x in each forest; roots (D, m) -> (D, n), scaled units.

        Each step moves only the (draw, tree, row) paths still at an internal node one level down.
        """
        n, p = X.shape
        cur = np.repeat(roots.reshape(-1), n)  # the node of path (d, j, i) at flat index (d m + j) n + i
        x = np.ascontiguousarray(X).reshape(-1)
        active = np.flatnonzero(self.feature_[cur] >= 0)
        while active.size:
            node = cur[active]
            go_left = x[(active % n) * p + self.feature_[node]] <= self.threshold_[node]
            step = np.where(go_left, self.left_[node], self.right_[node])
            cur[active] = step
            active = active[self.feature_[step] >= 0]
        return self.value_[cur].reshape(*roots.shape, n).sum(axis=1)

    def _check_predict(self, X: np.ndarray) -> np.ndarray:
        return _check_predict_X(self, X, "roots_")

    def _unscale(self, f: np.ndarray) -> np.ndarray:
        return (f + 0.5) * self.y_range_ + self.y_min_

    def predict(self, X: np.ndarray) -> np.ndarray:
        """Posterior draws of f at X (n, p); shape (n_draws, n), original units."""
        X = self._check_predict(X)
        return self._unscale(self._route(X, self.roots_))

    def predict_draw(self, X: np.ndarray, k: int) -> np.ndarray:
        """Draw ``k`` of f at X (n, p); shape (n,)."""
        X = self._check_predict(X)
        if not 0 <= k < self.n_draws:
            raise ValueError(f"draw index k must be in [0, {self.n_draws}), got {k}")
        return self._unscale(self._route(X, self.roots_[k : k + 1]))[0]


def _log(x: float) -> float:
    return math.log(x) if x > 0.0 else -math.inf


def _accept(log_r: float, rng: np.random.Generator) -> bool:
    if math.isnan(log_r):
        return False
    return log_r >= 0.0 or rng.random() < math.exp(log_r)


STOCHTREE_PRIORS = ("official", "stochtree")


class StochtreeBART:
    """BART posterior from ``stochtree`` (fast C++; Chipman prior alpha (1 + d)^-beta only).

    ``n_burnin`` MCMC sweeps from a root-only forest, then ``n_draws`` kept draws per chain
    (``num_chains`` independent chains, draws stacked). ``prior`` sets the leaf and noise priors:

    - ``"official"`` (default): the official agent's ``DefaultBART`` priors, as in :class:`BARTSampler`.
      y is rescaled to [-0.5, 0.5]; leaves mu ~ N(0, 0.25 / (k^2 m)) with the leaf variance fixed;
      sigma^2 ~ IG(nu / 2, nu lambda / 2) with P(sigma^2 < var(y)) = q.
    - ``"stochtree"``: stochtree's own defaults: y standardized; leaf variance ~ IG(3, 1 / m) (stochtree 0.4.5),
      sampled; a flat IG(0, 0) prior on sigma^2.

    stochtree refuses data with n <= 2 min_samples_leaf and returns NaN for constant y; such arms fall
    back to the project's :class:`BARTSampler` with the same tree prior (at most 10 trees, 50 burn-in
    sweeps and 100 draws, reused cyclically), so an arm with very little data never fails and stays cheap.
    """

    def __init__(
        self,
        n_trees: int = 100,
        n_burnin: int = 500,
        n_draws: int = 100,
        alpha: float = 0.95,
        beta: float = 2.0,
        prior: str = "official",
        k: float = 2.0,
        nu: float = 3.0,
        q: float = 0.9,
        num_chains: int = 1,
        min_samples_leaf: int = 5,
        random_state: int | None = None,
        num_threads: int = 1,
    ) -> None:
        self.n_trees = check_int("n_trees", n_trees)
        self.n_burnin = check_int("n_burnin", n_burnin, 0)
        self.n_draws = check_int("n_draws", n_draws)
        if not 0.0 < alpha < 1.0 or beta < 0:
            raise ValueError(f"need 0 < alpha < 1 and beta >= 0, got {alpha}, {beta}")
        if prior not in STOCHTREE_PRIORS:
            raise ValueError(f"prior must be one of {STOCHTREE_PRIORS}, got {prior!r}")
        if not (k > 0 and nu > 0 and 0 < q < 1):
            raise ValueError(f"need k > 0, nu > 0 and 0 < q < 1, got {k}, {nu}, {q}")
        self.alpha, self.beta = float(alpha), float(beta)
        self.prior, self.k, self.nu, self.q = prior, float(k), float(nu), float(q)
        self.num_chains = check_int("num_chains", num_chains)
        self.min_samples_leaf = check_int("min_samples_leaf", min_samples_leaf)
        self.random_state = random_state
        self.num_threads = check_int("num_threads", num_threads)

    @property
    def total_draws(self) -> int:
        """Kept draws over all chains: ``num_chains * n_draws``."""
        return self.num_chains * self.n_draws

    def fit(self, X: np.ndarray, y: np.ndarray) -> StochtreeBART:
        """Sample the posterior on (X (n, p), y (n,))."""
        X, y = _check_xy(X, y)
        n = X.shape[0]
        self.n_features_in_ = X.shape[1]
        self.fallback_ = None
        leaf = min(self.min_samples_leaf, (n - 1) // 2)
        if leaf < 1 or np.ptp(y) == 0.0:
            # cheap on purpose: degenerate arms are refit often early on; draws are reused cyclically
            self.fallback_ = BARTSampler(
                n_trees=min(self.n_trees, 10),
                n_burnin=min(self.n_burnin, 50),
                n_draws=min(self.total_draws, 100),
                alpha=self.alpha,
                beta=self.beta,
                k=self.k,
                nu=self.nu,
                q=self.q,
                random_state=self.random_state,
            ).fit(X, y)
            return self
        from stochtree import BARTModel

        if self.random_state is None:  # stochtree wants a non-negative seed: draw one from OS entropy
            seed = int(np.random.default_rng().integers(2**31 - 1))
        else:
            seed = int(self.random_state) % (2**31 - 1)
        general: dict[str, object] = {
            "random_seed": seed,
            "num_threads": self.num_threads,
            "num_chains": self.num_chains,
        }
        forest: dict[str, object] = {
            "num_trees": self.n_trees,
            "alpha": self.alpha,
            "beta": self.beta,
            "min_samples_leaf": leaf,
        }
        self.y_min_, self.y_range_ = 0.0, 1.0
        if self.prior == "official":
            # the official DefaultBART on y in [-0.5, 0.5] (BARTSampler.fit has the same calibration)
            self.y_min_, self.y_range_ = float(y.min()), float(np.ptp(y))
            y = (y - self.y_min_) / self.y_range_ - 0.5
            sigma_hat2 = float(np.var(y, ddof=1))
            lam = sigma_hat2 * stats.chi2.ppf(1.0 - self.q, self.nu) / self.nu
            general |= {
                "standardize": False,
                "sigma2_init": sigma_hat2,
                "sigma2_global_shape": self.nu / 2.0,
                "sigma2_global_scale": self.nu * lam / 2.0,
            }
            forest |= {"sigma2_leaf_init": 0.25 / (self.k**2 * self.n_trees), "sample_sigma2_leaf": False}
        self.model_ = BARTModel()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self.model_.sample(
                X,
                y,
                num_gfr=0,
                num_burnin=self.n_burnin,
                num_mcmc=self.n_draws,
                general_params=general,
                mean_forest_params=forest,
            )
        return self

    def _check_predict(self, X: np.ndarray) -> np.ndarray:
        return _check_predict_X(self, X, "fallback_")

    def predict(self, X: np.ndarray) -> np.ndarray:
        """Posterior draws of f at X (n, p); shape (num_chains * n_draws, n)."""
        X = self._check_predict(X)
        if self.fallback_ is not None:
            draws = self.fallback_.predict(X)
            return draws[np.arange(self.total_draws) % draws.shape[0]]
        f = np.asarray(self.model_.predict(X, terms="y_hat"), dtype=float).reshape(X.shape[0], -1).T
        if self.prior == "official":
            f = (f + 0.5) * self.y_range_ + self.y_min_
        return f

    def predict_draw(self, X: np.ndarray, k: int) -> np.ndarray:
        """Draw ``k`` of f at X (n, p); shape (n,).

        Only forest ``k`` of stochtree's container is evaluated (its ``predict`` evaluates every
        draw); the arithmetic is ``predict``'s, so the value is the same to the bit.
        """
        if not 0 <= k < self.total_draws:
            raise ValueError(f"draw index k must be in [0, {self.total_draws}), got {k}")
        X = self._check_predict(X)
        if self.fallback_ is not None:
            return self.predict(X)[k]
        from stochtree import Dataset

        model = self.model_
        data = Dataset()
        data.add_covariates(model._covariate_preprocessor.transform(X))
        raw = model.forest_container_mean.predict_raw_single_forest(data, k).reshape(X.shape[0])
        f = raw * model.y_std + model.y_bar  # BARTModel.predict's y_hat without random effects
        if self.prior == "official":
            f = (f + 0.5) * self.y_range_ + self.y_min_
        return f


BACKENDS = ("stochtree", "numpy")


def make_posterior(backend: str, **params: object) -> BARTSampler | StochtreeBART:
    """An unfitted arm posterior of the named backend (``stochtree`` or ``numpy``)."""
    if backend == "stochtree":
        return StochtreeBART(**params)  # type: ignore[arg-type]
    if backend == "numpy":
        return BARTSampler(**params)  # type: ignore[arg-type]
    raise ValueError(f"backend must be one of {BACKENDS}, got {backend!r}")
