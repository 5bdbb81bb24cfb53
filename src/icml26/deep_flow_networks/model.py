"""The Deep Flow Network: f(x) = alpha * V(A x + b) + beta, V a layered min-cost-flow value.

Architecture [inferred from the released parameter and constraint counts, see the method doc]:
nodes in layers ``layer_sizes`` plus a root; learnable arcs (cost, capacity) in both directions between
consecutive layers and between the last layer and the root; fixed slack arcs (``big_cost``,
``big_cap``) between every first-layer node and the root, so every input is feasible. The first layer
holds the terminals: supplies ``A x + b`` (A integer, (L1, d)); the root absorbs their sum. ``A``
starts as the selection ``A[i, i] = 1`` (the M-convex regime). Convex in x by construction (an LP value
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
    arr = np.asarray(X)
    if arr.ndim == 1 and input_dim == 1:
        arr = arr[:, None]
    if arr.ndim != 2 or arr.shape[1] != input_dim or arr.shape[0] == 0:
        raise ValueError(f"{name} must have shape (N, {input_dim}) with N >= 1, got {arr.shape}")
    if arr.dtype == bool or not np.issubdtype(arr.dtype, np.number):
        raise TypeError(f"{name} must hold integers, got dtype {arr.dtype}")
    if not np.all(np.isfinite(arr)) or not np.array_equal(arr, np.round(arr)):
        raise ValueError(f"{name} must hold integer values (DFNs are defined on Z^d); got non-integers")
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
    statistics, whether its LP relaxation was already integral, and ``log sqrt det(A^T A)``."""

    x: np.ndarray
    value: float
    seconds: float
    nodes: int
    iterations: int
    lp_relaxation_integral: bool
    lp_fractionality: float
    log_sqrt_det: float


class DFN:
    """Deep Flow Network regressor on Z^d (scikit-learn style: ``fit`` returns ``self``).

    input_dim: d; layer_sizes: nodes per layer (the first, the terminals, needs >= d nodes);
    learn_A: train the integer input matrix through a latent real matrix with straight-through rounding
    [inferred]; False keeps the selection (M-convex regime); big_cost / big_cap: the slack arcs.
    """

    def __init__(
        self,
        input_dim: int,
        layer_sizes: tuple[int, ...] = (12, 30, 12),
        seed: int = 0,
        learn_A: bool = False,
        big_cost: float = 1e3,
        big_cap: float = 1e6,
    ) -> None:
        self.input_dim = check_int("input_dim", input_dim)
        sizes = tuple(layer_sizes)
        if not sizes or not all(
            isinstance(s, int | np.integer) and not isinstance(s, bool) and s >= 1 for s in sizes
        ):
            raise ValueError(
                f"layer_sizes must be a non-empty sequence of integers >= 1, got {layer_sizes!r}"
            )
        if sizes[0] < self.input_dim:
            raise ValueError(
                f"layer_sizes[0] = {sizes[0]} must be >= input_dim = {self.input_dim} (one terminal per input)"
            )
        if not (math.isfinite(big_cost) and big_cost > 0 and math.isfinite(big_cap) and big_cap > 0):
            raise ValueError(f"big_cost and big_cap must be finite and > 0, got {big_cost}, {big_cap}")
        self.layer_sizes = tuple(int(s) for s in sizes)
        self.seed = check_int("seed", seed, minimum=0)
        self.learn_A = bool(learn_A)
        self.big_cost, self.big_cap = float(big_cost), float(big_cap)

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_highs"] = None  # the native solver is rebuilt on first use
        return state

    # ----- parameters -----------------------------------------------------------------------------
    def _init_params(self, X: np.ndarray) -> None:
        rng = np.random.default_rng(self.seed)
        self.graph_ = layered_network(self.layer_sizes)
        net, learn = self.graph_.network, self.graph_.learnable
        # parameters live in units of the input scale sigma, so that Adam's steps are scale-free [inferred]
        self.input_scale_ = sigma = max(1.0, float(np.abs(X).max()))
        cap0 = 2.0 * self.input_dim / min(self.layer_sizes)
        self.cost_ = np.where(learn, rng.uniform(0.0, 1.0, net.n_arcs), self.big_cost * sigma)
        self.log_cap_ = np.where(
            learn, np.log(cap0) + rng.normal(0.0, 0.3, net.n_arcs), math.log(self.big_cap / sigma)
        )
        self.A_latent_ = np.eye(self.graph_.n_terminals, self.input_dim)
        self.b_ = np.zeros(self.graph_.n_terminals)
        self.log_alpha_, self.beta_ = 0.0, 0.0

    @property
    def A_(self) -> np.ndarray:
        """The integer input matrix (L1, d): ``round`` of the latent matrix."""
        return np.round(self.A_latent_)

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
        """The min-cost-flow solves of the network at each input (value ``V``, flow, potentials)."""
        self._check_fitted()
        return self._solver().solve(self.supplies(check_integer_inputs(X, self.input_dim)))

    # ----- training -------------------------------------------------------------------------------
    def fit(
        self,
        X: Any,
        y: Any,
        epochs: int = 100,
        batch_size: int = 8,
        lr: float = 1e-2,
        callback: Any = None,
    ) -> DFN:
        """Adam on the MSE of standardised targets, gradients from LP sensitivity (one solve per sample):
        ``dV/dc = xi*``, ``dV/dlog u = mu * u``, ``dV/db = pi``, ``dV/dA = pi x^T`` (straight-through)."""
        import torch

        X = check_integer_inputs(X, self.input_dim)
        y = np.asarray(y, dtype=float).ravel()
        if y.shape != (len(X),):
            raise ValueError(f"y must hold one target per row of X ({len(X)}), got shape {np.shape(y)}")
        if not np.all(np.isfinite(y)):
            raise ValueError("y must be finite (found NaN or inf)")
        epochs, batch_size = check_int("epochs", epochs, 0), check_int("batch_size", batch_size)
        if not (isinstance(lr, int | float) and math.isfinite(lr) and lr > 0):
            raise ValueError(f"lr must be a finite number > 0, got {lr!r}")
        self.y_mean_, self.y_std_ = float(y.mean()), float(y.std()) or 1.0
        z = self.standardise(y)
        self._init_params(X)
        self._highs = None
        v0 = self.flow_value(X[: min(len(X), 256)]).value
        self.log_alpha_ = -math.log(max(float(v0.std()), 1e-6))
        self.beta_ = -math.exp(self.log_alpha_) * float(v0.mean())
        learn = self.graph_.learnable
        params = {
            k: torch.tensor(np.asarray(getattr(self, k), dtype=float))
            for k in ("cost_", "log_cap_", "A_latent_", "b_", "log_alpha_", "beta_")
        }
        if not self.learn_A:
            params.pop("A_latent_")
        opt = torch.optim.Adam(list(params.values()), lr=lr, eps=1e-8)
        rng = np.random.default_rng(self.seed + 1)
        self.history_: list[dict[str, float]] = []
        for epoch in range(epochs):
            start, losses = time.perf_counter(), []
            for batch in np.array_split(rng.permutation(len(X)), max(1, math.ceil(len(X) / batch_size))):
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
            self.history_.append(
                {
                    "epoch": epoch,
                    "train_mse": float(np.sum(losses) / len(X)),
                    "seconds": time.perf_counter() - start,
                }
            )
            if callback is not None:
                callback(self, epoch)
        return self

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
            raise RuntimeError("this DFN is not fitted yet; call fit(X, y) or load(path) first")

    # ----- optimisation ---------------------------------------------------------------------------
    def minimize(
        self, lb: Any, ub: Any, budget: int | None = None, time_limit: float = 600.0, name: str = "dfn"
    ) -> Minimum:
        """The integer argmin of the DFN over the box ``lb <= x <= ub`` (and ``sum x = budget``) as one
        MILP over (flow, x): ``min c^T xi  s.t.  N xi - [A; 0] x = [b; 0]``. With A a selection the
        constraint matrix is a network matrix (totally unimodular) and the LP relaxation is integral."""
        self._check_fitted()
        lb, ub = box_bounds(lb, ub, self.input_dim, budget)
        net, d = self.graph_.network, self.input_dim
        n, m, k = net.n_nodes, net.n_arcs, self.graph_.n_terminals
        a_in = np.zeros((n, d))
        a_in[:k] = self.A_
        rows = [sp.hstack([net.incidence(), sp.csc_matrix(-a_in)])]
        rhs = np.zeros(n)
        rhs[:k] = self.offset_
        lo_rows, hi_rows = [rhs], [rhs]
        if budget is not None:
            rows.append(sp.csc_matrix(np.concatenate([np.zeros(m), np.ones(d)])[None, :]))
            lo_rows.append(np.array([float(budget)]))
            hi_rows.append(np.array([float(budget)]))
        a = sp.vstack(rows).tocsc()
        c = np.concatenate([self.arc_cost_, np.zeros(d)])
        lo = np.concatenate([np.zeros(m), lb])
        hi = np.concatenate([self.capacity_, ub])
        integer = np.r_[np.zeros(m, bool), np.ones(d, bool)]
        args = (c, a, np.concatenate(lo_rows), np.concatenate(hi_rows), lo, hi, integer)
        res: MilpResult = solve_milp(*args, name=name, time_limit=time_limit)
        relax = solve_milp(*args, name=name + " (LP relaxation)", time_limit=time_limit, relax=True)
        frac = float(np.max(np.abs(relax.x[m:] - np.round(relax.x[m:]))))
        x = np.round(res.x[m:]).astype(np.int64)
        value = float(self.unstandardise(math.exp(self.log_alpha_) * res.value + self.beta_))
        return Minimum(
            x, value, res.seconds, res.nodes, res.iterations, frac <= 1e-7, frac, log_sqrt_det(self.A_)
        )

    # ----- persistence ----------------------------------------------------------------------------
    def save(self, path: str | Path) -> None:
        """Write hyperparameters and learned state to a ``.npz`` file."""
        self._check_fitted()
        hyper = {
            "input_dim": self.input_dim,
            "layer_sizes": list(self.layer_sizes),
            "seed": self.seed,
            "learn_A": self.learn_A,
            "big_cost": self.big_cost,
            "big_cap": self.big_cap,
        }
        np.savez(
            path,
            hyper=json.dumps(hyper),
            cost=self.cost_,
            log_cap=self.log_cap_,
            A_latent=self.A_latent_,
            b=self.b_,
            out=np.array([self.log_alpha_, self.beta_, self.y_mean_, self.y_std_, self.input_scale_]),
        )

    @classmethod
    def load(cls, path: str | Path) -> DFN:
        with np.load(path) as f:
            hyper = json.loads(str(f["hyper"]))
            model = cls(**{**hyper, "layer_sizes": tuple(hyper["layer_sizes"])})
            model.graph_ = layered_network(model.layer_sizes)
            model.cost_, model.log_cap_ = f["cost"].copy(), f["log_cap"].copy()
            model.A_latent_, model.b_ = f["A_latent"].copy(), f["b"].copy()
            model.log_alpha_, model.beta_, model.y_mean_, model.y_std_, model.input_scale_ = map(
                float, f["out"]
            )
        model._highs = None
        return model


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
