"""The Deep Flow Network: f(x) = alpha * V(A x + b) + beta, V a layered min-cost-flow value.

Architecture [inferred from the released parameter and constraint counts, see the method doc]:
nodes in layers ``layer_sizes`` plus a root; learnable arcs (cost, capacity) in both directions between
consecutive layers and between the last layer and the root; fixed slack arcs (``big_cost``,
``big_cap``) between every first-layer node and the root, so every input is feasible. The first layer
holds the terminals: supplies ``A x + b`` (A integer, (L1, d)); the root absorbs their sum. ``A``
starts as the selection ``A[i, i] = 1`` (the M-convex regime) and is learned (``learn_A=True``, the
default: the paper learns A; its training curve logs A's drift and log sqrt det). Convex in x by construction (an LP value
is convex in its right-hand side).
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.exceptions import NotFittedError

from icml26.common import check_int
from icml26.deep_flow_networks.milp import MilpResult, solve_milp
from icml26.deep_flow_networks.solver import FlowNetwork, FlowSolution, HighsFlowSolver


@dataclass(frozen=True)
class LayeredNetwork:
    """The graph of a DFN: the network, which arcs are learnable, and the first layer (the terminals)."""

    network: FlowNetwork
    learnable: np.ndarray  # (m,) bool
    n_terminals: int


def layered_network(layer_sizes: tuple[int, ...]) -> LayeredNetwork:
    """Layers of nodes, complete bipartite arcs both ways between consecutive layers and between the
    last layer and the root (learnable), and fixed slack arcs first layer <-> root [inferred]."""
    offsets = np.cumsum([0, *layer_sizes])
    root = int(offsets[-1])
    tail: list[int] = []
    head: list[int] = []
    blocks = [range(offsets[i], offsets[i + 1]) for i in range(len(layer_sizes))] + [range(root, root + 1)]
    for left, right in zip(blocks[:-1], blocks[1:], strict=True):
        for u in left:
            for v in right:
                tail += [u, v]
                head += [v, u]
    n_learn = len(tail)
    for u in blocks[0]:
        tail += [u, root]
        head += [root, u]
    learnable = np.arange(len(tail)) < n_learn
    return LayeredNetwork(FlowNetwork(root, np.array(tail), np.array(head)), learnable, layer_sizes[0])


def check_integer_inputs(X: Any, input_dim: int, name: str = "X") -> np.ndarray:
    """``X`` as an (N, input_dim) int64 array; ValueError for a wrong width or non-integer values."""
    if sp.issparse(X):
        raise TypeError(
            f"Sparse data was passed for {name}, but dense data is required (sparse input is not supported):"
            " a DFN takes a dense array of integers; use X.toarray()"
        )
    arr = np.asarray(X)
    if arr.ndim == 1 and input_dim == 1:
        arr = arr[:, None]
    if arr.ndim != 2 or arr.shape[1] != input_dim or arr.shape[0] == 0:
        raise ValueError(f"{name} must have shape (N, {input_dim}) with N >= 1, got {arr.shape}")
    if np.iscomplexobj(arr):
        raise TypeError(f"{name} must hold real integers, got complex dtype {arr.dtype}")
    if arr.dtype == bool or not np.issubdtype(arr.dtype, np.number):
        raise TypeError(f"{name} must hold integers, got dtype {arr.dtype}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or inf; DFNs take finite integer inputs")
    if not np.array_equal(arr, np.round(arr)):
        raise ValueError(f"{name} must hold integer values (DFNs are defined on Z^d); got non-integers")
    if arr.dtype.kind in "fc" and np.abs(arr).max() >= 2.0**63:
        raise ValueError(f"{name} has an entry with |x| >= 2^63, outside the int64 range DFNs compute in")
    return arr.astype(np.int64)


def log_sqrt_det(a: np.ndarray) -> float:
    """``log sqrt(det(A^T A))``: the deviation of A from the unimodular regime (0 for a selection);
    ``-inf`` when A has dependent columns."""
    a = np.asarray(a, dtype=float)
    if a.ndim != 2 or a.size == 0:
        raise ValueError(f"A must be a non-empty 2-D matrix, got shape {a.shape}")
    sign, logdet = np.linalg.slogdet(a.T @ a)
    return 0.5 * logdet if sign > 0 else -math.inf


@dataclass
class Minimum:
    """``DFN.minimize``: the integer argmin, the model's value there (target units), the MILP's
    statistics, whether its LP relaxation was already integral, ``log sqrt det(A^T A)``, and ``capped``:
    True when HiGHS stopped at the time limit with an incumbent (then ``x`` is feasible, not proven
    optimal)."""

    x: np.ndarray
    value: float
    seconds: float
    nodes: int
    iterations: int
    lp_relaxation_integral: bool
    lp_fractionality: float
    log_sqrt_det: float
    capped: bool = False


@dataclass(frozen=True)
class DFNNetwork:
    """A trained DFN as plain data (``DFN.network()``), with the contract

        predict(x) = alpha * V(A x + b) + beta,   V(s) = min cost . xi  s.t.  N xi = [s; 0],  0 <= xi <= capacity,

    N the incidence of ``tail -> head`` (+1 at the tail, -1 at the head) over the nodes ``0..n_nodes-1``;
    the root (index ``n_nodes``) has no balance row (it absorbs the total supply). The terminals are nodes
    ``0..k-1`` (``A``: (k, d), ``b``: (k,)); every other node has supply 0."""

    n_nodes: int
    tail: np.ndarray
    head: np.ndarray
    cost: np.ndarray
    capacity: np.ndarray
    A: np.ndarray
    b: np.ndarray
    alpha: float
    beta: float

    @property
    def root(self) -> int:
        return self.n_nodes

    @property
    def terminals(self) -> np.ndarray:
        return np.arange(self.A.shape[0])


A_INITS = ("selection", "differences")


def initial_A(k: int, d: int, how: str) -> np.ndarray:
    """The starting integer input matrix (k, d) [inferred: the paper's initialisation is not public].

    ``selection``: ``A[i, i] = 1`` for i < d, other rows 0 (the M-natural-convex regime);
    ``differences``: the selection, then rows ``e_i - e_j`` (i < j, in order) on the remaining terminals, so
    that kinks along ``x_i - x_j`` are representable from the start (still a network-like matrix).
    """
    if how not in A_INITS:
        raise ValueError(f"A_init must be one of {', '.join(A_INITS)}, got {how!r}")
    a = np.eye(k, d)
    if how == "differences":
        pairs = [(i, j) for i in range(d) for j in range(i + 1, d)]
        for row, (i, j) in zip(range(d, k), pairs, strict=False):
            a[row] = 0.0
            a[row, i], a[row, j] = 1.0, -1.0
    return a


def _check_number(name: str, value: Any, positive: bool = True) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise ValueError(f"{name} must be a finite number{' > 0' if positive else ''}, got {value!r}")
    if not math.isfinite(value) or (positive and not value > 0):
        raise ValueError(f"{name} must be a finite number{' > 0' if positive else ''}, got {value!r}")
    return float(value)


class DFN(RegressorMixin, BaseEstimator):
    """Deep Flow Network regressor on Z^d, a scikit-learn estimator (``clone``, ``get_params``,
    ``cross_val_score``, ``score`` = R^2; every hyper-parameter is a constructor argument).

    input_dim: d, or None to take it from ``X`` in ``fit``; layer_sizes: nodes per layer (the first layer,
    the terminals, needs >= d nodes); learn_A: train the integer input matrix (the paper's model; False keeps
    ``A_init`` fixed: with ``"selection"`` the M-natural-convex ablation); A_init: ``"selection"`` or
    ``"differences"`` (see :func:`initial_A`); epochs, batch_size, lr: Adam on the MSE of standardised
    targets; lr_A: the step size of the latent real matrix behind A [inferred]; seed; big_cost / big_cap:
    the slack arcs that keep every input feasible.
    """

    def __init__(
        self,
        input_dim: int | None = None,
        layer_sizes: tuple[int, ...] = (12, 30, 12),
        seed: int = 0,
        learn_A: bool = True,
        A_init: str = "selection",
        epochs: int = 100,
        batch_size: int = 8,
        lr: float = 1e-2,
        lr_A: float = 2e-2,
        big_cost: float = 1e3,
        big_cap: float = 1e6,
    ) -> None:
        self.input_dim = input_dim
        self.layer_sizes = layer_sizes
        self.seed = seed
        self.learn_A = learn_A
        self.A_init = A_init
        self.epochs = epochs
        self.batch_size = batch_size
        self.lr = lr
        self.lr_A = lr_A
        self.big_cost = big_cost
        self.big_cap = big_cap

    def _validate(self, d: int | None, source: str = "X has {d} columns") -> tuple[int, tuple[int, ...]]:
        """Check every hyper-parameter (ValueError naming the first bad one); returns (d, layer sizes).
        ``source`` says where ``d`` came from, for the message when it conflicts with ``input_dim``."""
        if self.input_dim is not None:
            dim = check_int("input_dim", self.input_dim)
            if d is not None and d != dim:
                raise ValueError(
                    f"{source.format(d=d)} but this DFN was built with input_dim = {dim}; give the same d,"
                    " or input_dim=None"
                )
        elif d is None:
            raise ValueError("input_dim is None: give input_dim, or fit(X, y) to take it from X")
        else:
            dim = d
        try:
            sizes = tuple(self.layer_sizes)
        except TypeError:
            sizes = ()
        if not sizes or not all(
            isinstance(s, int | np.integer) and not isinstance(s, bool) and s >= 1 for s in sizes
        ):
            raise ValueError(
                f"layer_sizes must be a non-empty sequence of integers >= 1, got {self.layer_sizes!r}"
            )
        if sizes[0] < dim:
            raise ValueError(
                f"layer_sizes[0] = {sizes[0]} must be >= input_dim = {dim} (one terminal per input)"
            )
        check_int("seed", self.seed, minimum=0)
        check_int("epochs", self.epochs, 0)
        check_int("batch_size", self.batch_size)
        for name in ("lr", "lr_A", "big_cost", "big_cap"):
            _check_number(name, getattr(self, name))
        if not isinstance(self.learn_A, bool | np.bool_):
            raise ValueError(f"learn_A must be True or False, got {self.learn_A!r}")
        if self.A_init not in A_INITS:
            raise ValueError(f"A_init must be one of {', '.join(A_INITS)}, got {self.A_init!r}")
        return dim, tuple(int(s) for s in sizes)

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_highs"] = None  # the native solver is rebuilt on first use
        return state

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = False
        return tags

    # ----- parameters -----------------------------------------------------------------------------
    def initialise(self, d: int | None = None, input_scale: float = 1.0) -> DFN:
        """Initialised parameters without data (``alpha = 1``, ``beta = 0``, targets unscaled): a valid
        DFN to predict with, export or minimise; ``input_scale`` is the largest |x| expected (>= 1)."""
        dim, sizes = self._validate(
            None if d is None else check_int("d", d), "initialise(d={d}) asks for d = {d}"
        )
        scale = _check_number("input_scale", input_scale)
        self._init_params(dim, sizes, max(1.0, scale))
        self.y_mean_, self.y_std_ = 0.0, 1.0
        self.log_alpha_, self.beta_ = 0.0, 0.0
        self.history_ = []
        return self

    def _init_params(self, dim: int, sizes: tuple[int, ...], sigma: float) -> None:
        rng = np.random.default_rng(self.seed)
        self.input_dim_, self.layer_sizes_ = dim, sizes
        self.n_features_in_ = dim
        self.graph_ = layered_network(sizes)
        net, learn = self.graph_.network, self.graph_.learnable
        # parameters live in units of the input scale sigma, so that Adam's steps are scale-free [inferred]
        self.input_scale_ = sigma
        cap0 = 2.0 * dim / min(sizes)
        self.cost_ = np.where(learn, rng.uniform(0.0, 1.0, net.n_arcs), float(self.big_cost) * sigma)
        self.log_cap_ = np.where(
            learn, np.log(cap0) + rng.normal(0.0, 0.3, net.n_arcs), math.log(float(self.big_cap) / sigma)
        )
        self.A_latent_ = initial_A(self.graph_.n_terminals, dim, self.A_init)
        self.A_int_ = np.round(self.A_latent_)
        self.b_ = np.zeros(self.graph_.n_terminals)
        self.log_alpha_, self.beta_ = 0.0, 0.0
        self._highs = None

    @property
    def A_(self) -> np.ndarray:
        """The integer input matrix (L1, d) in use: the last accepted rounding of the latent matrix."""
        return self.A_int_

    @property
    def n_params_(self) -> int:
        """Learnable parameters: a cost and a capacity per learnable arc, A (when learned), b, alpha, beta."""
        self._check_fitted()
        a = self.A_int_.size if self.learn_A else 0
        return int(2 * self.graph_.learnable.sum() + a + self.b_.size + 2)

    @property
    def capacity_(self) -> np.ndarray:
        """Arc capacities in input units: ``sigma * exp(log_cap)`` (> 0)."""
        return self.input_scale_ * np.exp(self.log_cap_)

    @property
    def arc_cost_(self) -> np.ndarray:
        """Arc costs per unit of flow in input units: ``cost / sigma``."""
        return self.cost_ / self.input_scale_

    @property
    def offset_(self) -> np.ndarray:
        """The supply offset b in input units: ``sigma * b``."""
        return self.input_scale_ * self.b_

    def supplies(self, X: np.ndarray) -> np.ndarray:
        """Node supplies (N, n): ``A x + b`` on the first layer, 0 elsewhere (the root takes the rest)."""
        s = np.zeros((len(X), self.graph_.network.n_nodes))
        s[:, : self.graph_.n_terminals] = X @ self.A_.T + self.offset_
        return s

    def _solver(self) -> HighsFlowSolver:
        if getattr(self, "_highs", None) is None:
            self._highs = HighsFlowSolver(self.graph_.network, self.arc_cost_, self.capacity_)
        else:
            self._highs.update(self.arc_cost_, self.capacity_)
        return self._highs

    def flow_value(self, X: Any) -> FlowSolution:
        """The min-cost-flow solves of the network at each input (value ``V``, flow, potentials); ValueError
        when a terminal's supply ``|A x + b|`` exceeds ``big_cap`` (its slack arc) plus its learned arcs'
        capacity, so that no flow exists."""
        self._check_fitted()
        s = self.supplies(check_integer_inputs(X, self.input_dim_))
        self._check_supplies(s)
        return self._solver().solve(s)

    def _check_supplies(self, s: np.ndarray) -> None:
        """Refuse supplies no flow can route: a terminal can ship at most ``big_cap`` (its slack arc) plus the
        capacity of its learnable arcs out (in, for a demand)."""
        net, k = self.graph_.network, self.graph_.n_terminals
        learn, cap = self.graph_.learnable, self.capacity_
        out_cap = np.bincount(np.asarray(net.tail)[learn], cap[learn], minlength=net.n_nodes + 1)[:k]
        in_cap = np.bincount(np.asarray(net.head)[learn], cap[learn], minlength=net.n_nodes + 1)[:k]
        sup = s[:, :k]
        over = np.maximum(sup - out_cap, -sup - in_cap) - float(self.big_cap)
        if np.any(over > 0):
            worst = float(np.abs(sup).max())
            raise ValueError(
                f"an input's terminal supply |A x + b| = {worst:g} exceeds big_cap = {float(self.big_cap):g} (the"
                " slack arcs' capacity) plus the terminal's learned capacity, so no flow can route it; give"
                " smaller inputs or a larger big_cap"
            )

    def network(self) -> DFNNetwork:
        """The DFN as plain arrays (nodes, arcs, costs, capacities, A, b, alpha, beta), in target units:
        ``predict(x) == alpha * V(A x + b) + beta`` (see :class:`DFNNetwork`)."""
        self._check_fitted()
        net = self.graph_.network
        scale = self.y_std_ * math.exp(self.log_alpha_)
        return DFNNetwork(
            net.n_nodes,
            np.asarray(net.tail).copy(),
            np.asarray(net.head).copy(),
            self.arc_cost_.copy(),
            self.capacity_.copy(),
            self.A_.copy(),
            self.offset_.copy(),
            float(scale),
            float(self.beta_ * self.y_std_ + self.y_mean_),
        )

    # ----- training -------------------------------------------------------------------------------
    def fit(self, X: Any, y: Any, callback: Any = None) -> DFN:
        """Adam on the MSE of standardised targets, gradients from LP sensitivity (one solve per sample):
        ``dV/dc = xi*``, ``dV/dlog u = mu * u``, ``dV/db = pi``, ``dV/dA = pi x^T``.

        Learned A [inferred, the paper's update is not public]: a latent real matrix receives the
        straight-through gradient ``pi x^T`` with its own step size ``lr_A``; the integer A in use changes only
        at an epoch's end, to the rounding of the latent matrix, and only when that (with the readout alpha,
        beta refitted by least squares) does not raise the training loss on up to 256 training points;
        otherwise the latent matrix is re-rounded to the A in use. So a rounding jump can never blow the fit up (the failure of plain straight-through rounding).
        ``callback(model, epoch)`` runs after every epoch. ``history_`` holds per epoch the training MSE, the
        seconds, ``a_proposed`` (1 when the rounding of the latent matrix differed from the A in use, so a
        proposal was made), ``a_accepted`` (1 when it was taken) and ``a_changed`` (entries changed).
        """
        import torch

        if sp.issparse(X):
            check_integer_inputs(X, 0)
        if y is None:
            raise ValueError("DFN requires y to be passed, but the target y is None")
        arr = np.asarray(X)
        if arr.ndim == 2 and arr.shape[1] == 0:
            raise ValueError(f"0 feature(s) (shape={arr.shape}) while a minimum of 1 is required.")
        dim, sizes = self._validate(arr.shape[1] if arr.ndim == 2 else None)
        X = check_integer_inputs(X, dim)
        y = np.asarray(y, dtype=float)
        if y.ndim == 2 and y.shape[1] == 1:
            y = y.ravel()
        if y.shape != (len(X),):
            raise ValueError(f"y must hold one target per row of X ({len(X)}), got shape {np.shape(y)}")
        if not np.all(np.isfinite(y)):
            raise ValueError("y must be finite (found NaN or inf)")
        self.y_mean_, self.y_std_ = float(y.mean()), float(y.std()) or 1.0
        z = self.standardise(y)
        self._init_params(dim, sizes, max(1.0, float(np.abs(X).max())))
        self._check_supplies(self.supplies(X))
        v0 = self.flow_value(X[: min(len(X), 256)]).value
        self.log_alpha_ = -math.log(max(float(v0.std()), 1e-6))
        self.beta_ = -math.exp(self.log_alpha_) * float(v0.mean())
        learn = self.graph_.learnable
        names = ["cost_", "log_cap_", "b_", "log_alpha_", "beta_"]
        params = {k: torch.tensor(np.asarray(getattr(self, k), dtype=float)) for k in names}
        groups = [{"params": list(params.values()), "lr": float(self.lr)}]
        if self.learn_A:
            params["A_latent_"] = torch.tensor(self.A_latent_.copy())
            groups.append({"params": [params["A_latent_"]], "lr": float(self.lr_A)})
        opt = torch.optim.Adam(groups, eps=1e-8)
        rng = np.random.default_rng(self.seed + 1)
        probe = rng.permutation(len(X))[:256]
        self.history_: list[dict[str, float]] = []
        for epoch in range(self.epochs):
            start, losses = time.perf_counter(), []
            for batch in np.array_split(rng.permutation(len(X)), max(1, math.ceil(len(X) / self.batch_size))):
                grads, loss = self._batch_gradient(X[batch], z[batch])
                losses.append(loss * len(batch))
                grads["cost_"][~learn] = 0.0
                grads["log_cap_"][~learn] = 0.0
                opt.zero_grad()
                for k, p in params.items():
                    p.grad = torch.as_tensor(grads[k], dtype=p.dtype).reshape(p.shape)
                opt.step()
                for k, p in params.items():
                    setattr(self, k, p.detach().numpy().copy() if p.ndim else float(p))
            proposed = bool(self.learn_A and np.any(np.round(self.A_latent_) != self.A_int_))
            accepted = self._propose_A(X[probe], z[probe], params) if self.learn_A else 0
            self.history_.append(
                {
                    "epoch": epoch,
                    "train_mse": float(np.sum(losses) / len(X)),
                    "seconds": time.perf_counter() - start,
                    "a_changed": float(accepted),
                    "a_proposed": float(proposed),
                    "a_accepted": float(accepted > 0),
                }
            )
            if callback is not None:
                callback(self, epoch)
        return self

    def _propose_A(self, X: np.ndarray, z: np.ndarray, params: dict[str, Any]) -> int:
        """Epoch-end re-rounding: adopt ``round(A_latent)`` if, with its least-squares readout (alpha > 0,
        beta refitted on ``X``), it does not raise the loss on ``X``; else put the latent matrix back on the A
        in use. Returns the number of entries that changed."""
        proposal = np.round(self.A_latent_)
        changed = int(np.sum(proposal != self.A_int_))
        if changed == 0:
            return 0
        current = self._loss(X, z)
        kept = self.A_int_
        self.A_int_ = proposal
        # the proposal with its best readout alpha > 0, beta (least squares on the probe points)
        v = self._solver().solve(self.supplies(X)).value
        slope, icpt = np.polyfit(v, z, 1) if np.ptp(v) > 0 else (0.0, 0.0)
        if slope > 0 and float(np.mean((slope * v + icpt - z) ** 2)) <= current:
            self.log_alpha_, self.beta_ = math.log(slope), float(icpt)
            for key in ("log_alpha_", "beta_"):
                if key in params:
                    params[key].data.fill_(getattr(self, key))
            return changed
        self.A_int_ = kept
        self.A_latent_ = kept.copy()
        params["A_latent_"].data.copy_(params["A_latent_"].new_tensor(kept))
        return 0

    def _loss(self, X: np.ndarray, z: np.ndarray) -> float:
        v = self._solver().solve(self.supplies(X)).value
        return float(np.mean((math.exp(self.log_alpha_) * v + self.beta_ - z) ** 2))

    def _batch_gradient(self, X: np.ndarray, z: np.ndarray) -> tuple[dict[str, np.ndarray], float]:
        """Gradient of ``mean (alpha V + beta - z)^2`` over a batch, from one LP solve per sample (chain rule
        through ``cost / sigma``, ``sigma exp(log_cap)`` and ``sigma b``)."""
        sol = self._solver().solve(self.supplies(X))
        alpha = math.exp(self.log_alpha_)
        r = 2.0 * (alpha * sol.value + self.beta_ - z) / len(X)
        pi = sol.potential[:, : self.graph_.n_terminals]
        grads = {
            "cost_": alpha * r @ sol.flow / self.input_scale_,
            "log_cap_": alpha * (r @ sol.capacity_dual) * self.capacity_,
            "b_": alpha * self.input_scale_ * r @ pi,
            "A_latent_": alpha * (pi * r[:, None]).T @ X,
            "log_alpha_": np.array(float(np.sum(r * alpha * sol.value))),
            "beta_": np.array(float(np.sum(r))),
        }
        return grads, float(np.mean((alpha * sol.value + self.beta_ - z) ** 2))

    # ----- prediction -----------------------------------------------------------------------------
    def standardise(self, y: Any) -> np.ndarray:
        return (np.asarray(y, dtype=float) - self.y_mean_) / self.y_std_

    def unstandardise(self, z: Any) -> np.ndarray:
        return np.asarray(z, dtype=float) * self.y_std_ + self.y_mean_

    def predict(self, X: Any) -> np.ndarray:
        """``alpha V(A x + b) + beta`` in target units, (N,)."""
        v = self.flow_value(X).value
        return self.unstandardise(math.exp(self.log_alpha_) * v + self.beta_)

    def _check_fitted(self) -> None:
        if not hasattr(self, "cost_"):
            raise NotFittedError(
                "this DFN is not fitted yet; call fit(X, y), initialise(d) or load(path) first"
            )

    # ----- optimisation ---------------------------------------------------------------------------
    def flow_constraints(self) -> tuple[sp.csc_matrix, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The DFN as linear constraints over (flow xi (m), x (d)): ``(M, rhs, cost, xi_upper, m)`` with
        ``M [xi; x] = rhs`` (``N xi - [A; 0] x = [b; 0]``), ``0 <= xi <= xi_upper``; the model's value at x
        is ``alpha * min cost . xi + beta`` (``network()`` gives alpha and beta)."""
        self._check_fitted()
        net, d = self.graph_.network, self.input_dim_
        n, k = net.n_nodes, self.graph_.n_terminals
        a_in = np.zeros((n, d))
        a_in[:k] = self.A_
        rows = sp.hstack([net.incidence(), sp.csc_matrix(-a_in)]).tocsc()
        rhs = np.zeros(n)
        rhs[:k] = self.offset_
        return rows, rhs, self.arc_cost_.copy(), self.capacity_.copy(), net.n_arcs

    def add_to_highs(self, highs: Any, x_columns: Any) -> np.ndarray:
        """Add the DFN to a user's ``highspy.Highs`` model whose integer inputs are the columns ``x_columns``
        (d indices): m flow columns (cost ``alpha * c``, bounds ``[0, u]``) and one balance row per node.
        The model's objective then contains ``f(x) - beta``; returns the new flow columns' indices."""
        mat, rhs, cost, upper, m = self.flow_constraints()
        cols = np.asarray(x_columns, dtype=np.int64)
        if cols.shape != (self.input_dim_,) or cols.min() < 0 or cols.max() >= highs.getNumCol():
            raise ValueError(
                f"x_columns must name {self.input_dim_} existing columns of the model (0..{highs.getNumCol() - 1}),"
                f" got {x_columns!r}"
            )
        first = highs.getNumCol()
        alpha = self.network().alpha
        highs.addVars(m, np.zeros(m), upper)
        new = np.arange(first, first + m, dtype=np.int32)
        highs.changeColsCost(m, new, alpha * cost)
        flows, xs = mat[:, :m].tocsr(), mat[:, m:].tocsr()
        for r in range(mat.shape[0]):
            f_row, x_row = flows.getrow(r), xs.getrow(r)
            idx = np.r_[new[f_row.indices], cols[x_row.indices]].astype(np.int32)
            val = np.r_[f_row.data, x_row.data]
            highs.addRow(rhs[r], rhs[r], len(idx), idx, val)
        return new

    def minimize(
        self,
        lb: Any,
        ub: Any,
        budget: int | None = None,
        time_limit: float = 600.0,
        name: str = "dfn",
        constraints: Any = None,
    ) -> Minimum:
        """The integer argmin of the DFN over the box ``lb <= x <= ub`` (and ``sum x = budget``, and each
        ``(a, lo, hi)`` of ``constraints``: ``lo <= a . x <= hi``) as one MILP over (flow, x):
        ``min c^T xi  s.t.  N xi - [A; 0] x = [b; 0]``. With A a selection the constraint matrix is a network
        matrix (totally unimodular) and, with integer data, the LP relaxation is integral."""
        self._check_fitted()
        d = self.input_dim_
        lb, ub = box_bounds(lb, ub, d, budget)
        extra = linear_constraints(constraints, d)
        mat, rhs, cost, upper, m = self.flow_constraints()
        rows, lo_rows, hi_rows = [mat], [rhs], [rhs]
        if budget is not None:
            extra.append((np.ones(d), float(budget), float(budget)))
        for a, lo_c, hi_c in extra:
            rows.append(sp.csc_matrix(np.concatenate([np.zeros(m), a])[None, :]))
            lo_rows.append(np.array([lo_c]))
            hi_rows.append(np.array([hi_c]))
        a = sp.vstack(rows).tocsc()
        c = np.concatenate([cost, np.zeros(d)])
        lo = np.concatenate([np.zeros(m), lb])
        hi = np.concatenate([upper, ub])
        integer = np.r_[np.zeros(m, bool), np.ones(d, bool)]
        args = (c, a, np.concatenate(lo_rows), np.concatenate(hi_rows), lo, hi, integer)
        res: MilpResult = solve_milp(*args, name=name, time_limit=time_limit)
        relax = solve_milp(*args, name=name + " (LP relaxation)", time_limit=time_limit, relax=True)
        frac = float(np.max(np.abs(relax.x[m:] - np.round(relax.x[m:]))))
        x = np.round(res.x[m:]).astype(np.int64)
        value = float(self.unstandardise(math.exp(self.log_alpha_) * res.value + self.beta_))
        return Minimum(
            x,
            value,
            res.seconds,
            res.nodes,
            res.iterations,
            frac <= 1e-7,
            frac,
            log_sqrt_det(self.A_),
            bool(res.capped),
        )

    # ----- persistence ----------------------------------------------------------------------------
    def save(self, path: str | Path) -> None:
        """Write hyperparameters and learned state to a ``.npz`` file."""
        self._check_fitted()
        hyper = {k: v for k, v in self.get_params().items()}
        hyper["layer_sizes"] = list(self.layer_sizes_)
        hyper["input_dim"] = self.input_dim_
        np.savez(
            path,
            hyper=json.dumps(hyper),
            cost=self.cost_,
            log_cap=self.log_cap_,
            A_latent=self.A_latent_,
            A_int=self.A_int_,
            b=self.b_,
            out=np.array([self.log_alpha_, self.beta_, self.y_mean_, self.y_std_, self.input_scale_]),
        )

    @classmethod
    def load(cls, path: str | Path) -> DFN:
        with np.load(path) as f:
            hyper = json.loads(str(f["hyper"]))
            model = cls(**{**hyper, "layer_sizes": tuple(hyper["layer_sizes"])})
            dim, sizes = model._validate(None)
            model._init_params(dim, sizes, float(f["out"][4]))
            model.cost_, model.log_cap_ = f["cost"].copy(), f["log_cap"].copy()
            model.A_latent_, model.A_int_, model.b_ = f["A_latent"].copy(), f["A_int"].copy(), f["b"].copy()
            model.log_alpha_, model.beta_, model.y_mean_, model.y_std_, model.input_scale_ = map(
                float, f["out"]
            )
        model.history_ = []
        model._highs = None
        return model


def linear_constraints(constraints: Any, d: int) -> list[tuple[np.ndarray, float, float]]:
    """``[(a, lo, hi), ...]`` checked: a of shape (d,) finite, lo <= hi (either may be +-inf, not both
    NaN); ValueError naming the bad entry."""
    if constraints is None:
        return []
    out = []
    for i, item in enumerate(constraints):
        try:
            a, lo, hi = item
        except (TypeError, ValueError):
            raise ValueError(f"constraints[{i}] must be a triple (a, lb, ub), got {item!r}") from None
        a = np.asarray(a, dtype=float)
        if a.shape != (d,) or not np.all(np.isfinite(a)):
            raise ValueError(
                f"constraints[{i}]: a must be a finite vector of length {d}, got shape {a.shape}"
            )
        lo = -math.inf if lo is None else float(lo)
        hi = math.inf if hi is None else float(hi)
        if math.isnan(lo) or math.isnan(hi) or lo > hi or lo == math.inf or hi == -math.inf:
            raise ValueError(f"constraints[{i}]: need lb <= ub (lb < inf, ub > -inf), got {lo}, {hi}")
        out.append((a, lo, hi))
    return out


def box_bounds(lb: Any, ub: Any, d: int, budget: int | None) -> tuple[np.ndarray, np.ndarray]:
    """Integer box bounds of width d; ValueError for lb > ub or a budget outside [sum lb, sum ub]."""
    bounds = []
    for name, value in (("lb", lb), ("ub", ub)):
        arr = np.asarray(value)
        if arr.shape not in ((), (d,)):
            raise ValueError(f"{name} must be a scalar or have shape ({d},), got shape {arr.shape}")
        bounds.append(check_integer_inputs(np.broadcast_to(arr, (d,))[None, :], d, name)[0].astype(float))
    lb, ub = bounds
    if np.any(lb > ub):
        raise ValueError(f"lb must be <= ub in every coordinate, got lb={lb.tolist()} ub={ub.tolist()}")
    if budget is not None:
        if (
            isinstance(budget, bool)
            or not isinstance(budget, int | float | np.integer | np.floating)
            or not math.isfinite(budget)
            or not float(budget).is_integer()
        ):
            raise ValueError(f"budget must be an integer or None, got {budget!r}")
        if not lb.sum() <= budget <= ub.sum():
            raise ValueError(
                f"budget {budget} is infeasible: sum x lies in [{lb.sum():g}, {ub.sum():g}] on this box"
            )
    return lb, ub
