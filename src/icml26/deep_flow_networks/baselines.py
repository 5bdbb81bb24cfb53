"""Baselines: a ReLU MLP with its big-M MILP, a max-affine convex regressor and an input-convex network
(ICNN), each with its exact MILP.

Both fit standardised inputs and targets with Adam on the MSE (PyTorch) and minimise over the same
integer box (+ budget) as ``DFN.minimize``, with the same HiGHS MILP helper.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.sparse as sp

from icml26.common import check_int
from icml26.deep_flow_networks.milp import MilpResult, solve_milp
from icml26.deep_flow_networks.model import box_bounds, check_integer_inputs


def _budget_point(lb: np.ndarray, ub: np.ndarray, budget: int | None) -> np.ndarray:
    """A feasible integer point of the box (+ budget): lb raised coordinate by coordinate."""
    x = lb.copy()
    need = 0.0 if budget is None else budget - x.sum()
    for i in range(x.size):
        step = min(need, ub[i] - x[i])
        x[i] += step
        need -= step
    return x


class _TorchRegressor:
    """Shared fit loop: standardise x and y, Adam on the MSE, minibatches."""

    def __init__(self, input_dim: int, seed: int = 0) -> None:
        self.input_dim = check_int("input_dim", input_dim)
        self.seed = check_int("seed", seed, minimum=0)

    def _module(self) -> Any:
        raise NotImplementedError

    def fit(
        self, X: Any, y: Any, epochs: int = 200, batch_size: int = 8, lr: float = 1e-3
    ) -> _TorchRegressor:
        import torch

        X = check_integer_inputs(X, self.input_dim).astype(float)
        y = np.asarray(y, dtype=float).ravel()
        if y.shape != (len(X),) or not np.all(np.isfinite(y)):
            raise ValueError(f"y must be finite with one target per row of X ({len(X)}), got shape {y.shape}")
        epochs, batch_size = check_int("epochs", epochs, 0), check_int("batch_size", batch_size)
        self.x_mean_, self.x_std_ = X.mean(0), np.where(X.std(0) > 0, X.std(0), 1.0)
        self.y_mean_, self.y_std_ = float(y.mean()), float(y.std()) or 1.0
        torch.manual_seed(self.seed)
        self.net_ = self._module().double()
        xt = torch.tensor((X - self.x_mean_) / self.x_std_)
        yt = torch.tensor((y - self.y_mean_) / self.y_std_)
        opt = torch.optim.Adam(self.net_.parameters(), lr=lr, eps=1e-8)
        gen = torch.Generator().manual_seed(self.seed)
        for _ in range(epochs):
            for idx in torch.randperm(len(X), generator=gen).split(batch_size):
                opt.zero_grad()
                loss = torch.mean((self.net_(xt[idx]).ravel() - yt[idx]) ** 2)
                loss.backward()
                opt.step()
                self._after_step()
        return self

    def _after_step(self) -> None:
        """A projection after each Adam step (none by default)."""

    def _check_fitted(self) -> None:
        if not hasattr(self, "net_"):
            raise RuntimeError(f"this {type(self).__name__} is not fitted yet; call fit(X, y) first")

    def predict(self, X: Any) -> np.ndarray:
        import torch

        self._check_fitted()
        X = check_integer_inputs(X, self.input_dim).astype(float)
        with torch.no_grad():
            z = self.net_(torch.tensor((X - self.x_mean_) / self.x_std_)).numpy().ravel()
        return z * self.y_std_ + self.y_mean_

    def _input_map(
        self, lb: np.ndarray, ub: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The first layer on raw x: W' x + c' with W' = W / std, c' = c - W mean / std, and its interval bounds."""
        return lb, ub, 1.0 / self.x_std_, -self.x_mean_ / self.x_std_

    @property
    def n_params(self) -> int:
        return int(sum(p.numel() for p in self.net_.parameters()))


class MLPRegressor(_TorchRegressor):
    """ReLU MLP (``hidden`` widths; [50, 50] is parameter-matched to a [12, 30, 12] DFN on d = 8)."""

    def __init__(self, input_dim: int, hidden: tuple[int, ...] = (50, 50), seed: int = 0) -> None:
        super().__init__(input_dim, seed)
        if not hidden or not all(isinstance(h, int) and h >= 1 for h in hidden):
            raise ValueError(f"hidden must be a non-empty tuple of integers >= 1, got {hidden!r}")
        self.hidden = tuple(hidden)

    def _module(self) -> Any:
        import torch

        layers, width = [], self.input_dim
        for h in self.hidden:
            layers += [torch.nn.Linear(width, h), torch.nn.ReLU()]
            width = h
        return torch.nn.Sequential(*layers, torch.nn.Linear(width, 1))

    def minimize(self, lb: Any, ub: Any, budget: int | None = None, time_limit: float = 600.0) -> MilpResult:
        """Big-M MILP of the network over the integer box (+ budget): per hidden unit ``h = max(0, z)`` with
        a binary and the interval bounds [L, U] of z (units with U <= 0 or L >= 0 need no binary)."""
        self._check_fitted()
        lb, ub = box_bounds(lb, ub, self.input_dim, budget)
        linears = [m for m in self.net_ if hasattr(m, "weight")]
        ws = [m.weight.detach().numpy().astype(float) for m in linears]
        bs = [m.bias.detach().numpy().astype(float) for m in linears]
        scale, shift = 1.0 / self.x_std_, -self.x_mean_ / self.x_std_
        ws[0], bs[0] = ws[0] * scale, bs[0] + ws[0] @ shift
        # variables: x (d), then per hidden layer: h (k) and delta (k)
        d = self.input_dim
        cols_lo, cols_hi, integer = list(lb), list(ub), [True] * d
        rows: list[tuple[dict[int, float], float, float]] = []
        prev_idx, prev_lo, prev_hi = list(range(d)), lb, ub
        start_x = _budget_point(lb, ub, budget)
        start, prev_val = list(start_x), start_x
        for w, b in zip(ws[:-1], bs[:-1], strict=True):
            z_val = w @ prev_val + b
            z_lo = b + np.minimum(w * prev_lo, w * prev_hi).sum(1)
            z_hi = b + np.maximum(w * prev_lo, w * prev_hi).sum(1)
            h_idx = []
            for j in range(w.shape[0]):
                hj = len(cols_lo)
                cols_lo.append(0.0)
                cols_hi.append(max(z_hi[j], 0.0))
                integer.append(False)
                h_idx.append(hj)
                start.append(max(z_val[j], 0.0))
                zrow = {i: w[j, k] for k, i in enumerate(prev_idx)}
                if z_hi[j] <= 0:
                    cols_hi[hj] = 0.0
                    start[hj] = 0.0
                    continue
                if z_lo[j] >= 0:  # h = z
                    rows.append(({**{i: -v for i, v in zrow.items()}, hj: 1.0}, b[j], b[j]))
                    continue
                dj = len(cols_lo)
                cols_lo.append(0.0)
                cols_hi.append(1.0)
                integer.append(True)
                start.append(float(z_val[j] > 0))
                rows.append(({**{i: -v for i, v in zrow.items()}, hj: 1.0}, b[j], math.inf))  # h >= z
                # h <= z - L (1 - delta):  h - z - L delta <= b - L
                rows.append(
                    ({**{i: -v for i, v in zrow.items()}, hj: 1.0, dj: -z_lo[j]}, -math.inf, b[j] - z_lo[j])
                )
                rows.append(({hj: 1.0, dj: -z_hi[j]}, -math.inf, 0.0))  # h <= U delta
            prev_idx, prev_lo, prev_hi = h_idx, np.zeros(len(h_idx)), np.array([cols_hi[i] for i in h_idx])
            prev_val = np.maximum(z_val, 0.0)
        n_cols = len(cols_lo)
        c = np.zeros(n_cols)
        c[prev_idx] = ws[-1][0]
        if budget is not None:
            rows.append(({i: 1.0 for i in range(d)}, float(budget), float(budget)))
        a = sp.lil_matrix((len(rows), n_cols))
        for r, (coefs, _, _) in enumerate(rows):
            for col, v in coefs.items():
                a[r, col] = v
        res = solve_milp(
            c,
            a,
            np.array([r[1] for r in rows]),
            np.array([r[2] for r in rows]),
            np.array(cols_lo),
            np.array(cols_hi),
            np.array(integer),
            "mlp big-M",
            time_limit,
            start=np.array(start),
        )
        res.x = np.round(res.x[:d]).astype(np.int64)
        res.value = float((res.value + bs[-1][0]) * self.y_std_ + self.y_mean_)
        return res


class MaxAffineRegressor(_TorchRegressor):
    """f(x) = max_k a_k^T x + b_k (``pieces`` affine pieces): a convex regressor with an exact MILP."""

    def __init__(self, input_dim: int, pieces: int = 24, seed: int = 0) -> None:
        super().__init__(input_dim, seed)
        self.pieces = check_int("pieces", pieces)

    def _module(self) -> Any:
        import torch

        class MaxAffine(torch.nn.Module):
            def __init__(self, d: int, k: int) -> None:
                super().__init__()
                self.weight = torch.nn.Linear(d, k)

            def forward(self, x: Any) -> Any:
                return self.weight(x).max(dim=1, keepdim=True).values

        return MaxAffine(self.input_dim, self.pieces)

    def minimize(self, lb: Any, ub: Any, budget: int | None = None, time_limit: float = 600.0) -> MilpResult:
        """``min t  s.t.  t >= a_k^T x + b_k`` over the integer box (+ budget)."""
        self._check_fitted()
        lb, ub = box_bounds(lb, ub, self.input_dim, budget)
        w = self.net_.weight.weight.detach().numpy() / self.x_std_
        b = self.net_.weight.bias.detach().numpy() - w @ self.x_mean_
        d, k = self.input_dim, self.pieces
        a = np.hstack([-w, np.ones((k, 1))])
        lo, hi = np.full(k, 0.0) + b, np.full(k, math.inf)
        if budget is not None:
            a = np.vstack([a, np.r_[np.ones(d), 0.0]])
            lo, hi = np.r_[lo, budget], np.r_[hi, budget]
        c = np.r_[np.zeros(d), 1.0]
        res = solve_milp(
            c,
            sp.csc_matrix(a),
            lo,
            hi,
            np.r_[lb, -1e9],
            np.r_[ub, 1e9],
            np.r_[np.ones(d, bool), False],
            "max-affine",
            time_limit,
        )
        res.x = np.round(res.x[:d]).astype(np.int64)
        res.value = float(res.value * self.y_std_ + self.y_mean_)
        return res


def icnn_width(n_params: int, input_dim: int) -> int:
    """The hidden width h of a two-layer ICNN (h, h) whose parameter count ``h^2 + (2d + 3) h + d + 1`` is
    closest to ``n_params`` (an equal-parameter-count baseline)."""
    d = check_int("input_dim", input_dim)
    n_params = check_int("n_params", n_params)
    counts = {h: h * h + (2 * d + 3) * h + d + 1 for h in range(1, 4097)}
    return min(counts, key=lambda h: abs(counts[h] - n_params))


class ICNNRegressor(_TorchRegressor):
    """Input-convex ReLU network (Amos et al. 2017), two hidden layers of width ``width``:
    ``z1 = relu(W0 x + b0)``, ``z2 = relu(U1 z1 + W1 x + b1)``, ``f = u2 . z2 + w2 . x + b2`` with
    ``U1, u2 >= 0`` (projected after every Adam step), so f is convex in x. Its minimum over an integer box
    is a MILP with integer x only: the epigraph LP ``z >= W x + U z_prev + b, z >= 0`` is exact for a
    minimisation because every weight on z is non-negative."""

    def __init__(self, input_dim: int, width: int = 46, seed: int = 0) -> None:
        super().__init__(input_dim, seed)
        self.width = check_int("width", width)

    def _module(self) -> Any:
        import torch

        d, h = self.input_dim, self.width

        class ICNN(torch.nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.x0 = torch.nn.Linear(d, h)
                self.x1 = torch.nn.Linear(d, h)
                self.z1 = torch.nn.Linear(h, h, bias=False)
                self.x2 = torch.nn.Linear(d, 1)
                self.z2 = torch.nn.Linear(h, 1, bias=False)
                with torch.no_grad():
                    self.z1.weight.abs_().mul_(1.0 / h)
                    self.z2.weight.abs_()

            def forward(self, x: Any) -> Any:
                z1 = torch.relu(self.x0(x))
                z2 = torch.relu(self.z1(z1) + self.x1(x))
                return self.z2(z2) + self.x2(x)

            def project(self) -> None:
                with torch.no_grad():
                    self.z1.weight.clamp_(min=0.0)
                    self.z2.weight.clamp_(min=0.0)

        return ICNN()

    def _after_step(self) -> None:
        self.net_.project()

    def minimize(self, lb: Any, ub: Any, budget: int | None = None, time_limit: float = 600.0) -> MilpResult:
        """``min u2 . z2 + w2 . x`` s.t. ``z1 >= W0 x + b0``, ``z2 >= U1 z1 + W1 x + b1``, ``z >= 0``, x integer
        in the box (+ budget); the first-layer maps are folded onto raw x."""
        self._check_fitted()
        lb, ub = box_bounds(lb, ub, self.input_dim, budget)
        net, d, h = self.net_, self.input_dim, self.width

        def raw(layer: Any) -> tuple[np.ndarray, np.ndarray]:
            w = layer.weight.detach().numpy().astype(float)
            b = layer.bias.detach().numpy().astype(float)
            return w / self.x_std_, b - (w / self.x_std_) @ self.x_mean_

        w0, b0 = raw(net.x0)
        w1, b1 = raw(net.x1)
        w2, b2 = raw(net.x2)
        u1 = net.z1.weight.detach().numpy().astype(float)
        u2 = net.z2.weight.detach().numpy().astype(float)[0]
        # columns: x (d), z1 (h), z2 (h); rows: z1 - W0 x >= b0 ; z2 - U1 z1 - W1 x >= b1
        eye = np.eye(h)
        top = np.hstack([-w0, eye, np.zeros((h, h))])
        mid = np.hstack([-w1, -u1, eye])
        a, lo, hi = np.vstack([top, mid]), np.r_[b0, b1], np.full(2 * h, math.inf)
        if budget is not None:
            a = np.vstack([a, np.r_[np.ones(d), np.zeros(2 * h)]])
            lo, hi = np.r_[lo, budget], np.r_[hi, budget]
        res = solve_milp(
            np.r_[w2[0], np.zeros(h), u2],
            sp.csc_matrix(a),
            lo,
            hi,
            np.r_[lb, np.zeros(2 * h)],
            np.r_[ub, np.full(2 * h, math.inf)],
            np.r_[np.ones(d, bool), np.zeros(2 * h, bool)],
            "icnn",
            time_limit,
        )
        res.x = np.round(res.x[:d]).astype(np.int64)
        res.value = float((res.value + b2[0]) * self.y_std_ + self.y_mean_)
        return res
