"""Supply chain: single-commodity supplier -> customer network with concave (economies-of-scale) costs.

Network: a source feeds ``S`` suppliers; supplier ``i`` ships ``x_ij >= 0`` to customer ``j``, and every
customer's demand ``D_j > 0`` must be met exactly (``sum_i x_ij = D_j``); supplier capacities are not
modelled (uncapacitated). Costs are concave in the flows (economies of scale):

    f(x; xi) = sum_i s_i g_b(Y_i) + sum_ij t_ij g_a(x_ij),       Y_i = sum_j x_ij  (supplier throughput),

    g_p(y) = (y + eps)^p - eps^p,   0 < p < 1,                                         (concave arc cost)

``g_p`` is ``y^p`` smoothed at 0 (``eps`` = 1e-3 keeps ``∇f`` finite for gradient methods; it is still
strictly concave, increasing and ``g_p(0) = 0``). The supplier term couples the customers: shipping
everything through few suppliers is cheap per unit, but the transport term ``t_ij`` (distances) pulls
customers to their nearest supplier, so the minimum is combinatorial.

**Decision variable and feasibility.** ``x = u in [0, 1]^(C*S)``, customer-major (``u[j*S + i]`` is the
weight of supplier ``i`` for customer ``j``); inside the objective it is normalised per customer to
allocation fractions ``p_ij = (u_ij + delta) / sum_k (u_kj + delta)`` (``delta`` = 1e-6 keeps an all-zero
row defined) and flows ``x_ij = D_j p_ij``. So *every point of the box is a feasible flow that meets
every demand exactly* (``flows``): population methods need only the box, which all optimizers here keep
by projection/clamping, and no penalty or repair is needed. The map is not one-to-one (scaling a row of
``u`` gives the same flow), which is harmless for minimisation; single-sourcing (a vertex) is reached at
the faces ``u_kj = 0, k != i`` of the box, up to ``delta``.

**Exact optimum (small instances).** ``f`` is concave on the polytope ``P = {x >= 0 : sum_i x_ij = D_j}``
(a sum of concave functions of linear maps), so its minimum is attained at a vertex of ``P``; the
vertices are exactly the single-sourcing assignments ``x_ij = D_j z_ij``, ``z_ij in {0, 1}``,
``sum_i z_ij = 1``. At a vertex the transport term ``t_ij g_a(D_j) z_ij`` is linear in ``z``; the supplier
term ``s_i g_b(Y_i)`` is modelled by its piecewise-linear interpolant on breakpoints ``0 = y_0 < ... <
y_K = sum_j D_j`` (SOS2 by segment binaries) and solved as a MILP with ``highspy``. Because ``g_b`` is
concave, the interpolant is below ``g_b`` and the MILP value ``L`` is a lower bound of the optimum; the
true cost ``U`` of its solution is an upper bound. On a segment of width ``h`` the interpolation error
is at most ``h (g'(y_k) - g'(y_{k+1})) / 4`` (the height of the triangle of the two tangents over the
chord), so ``U - L <= sum_i s_i max_k h_k (g'(y_k) - g'(y_{k+1})) / 4``. :meth:`SupplyChainInstances.exact`
makes this exact: it adds every supplier's load ``Y_i`` of the MILP solution as a breakpoint and solves
again until ``U - L <= tol``. When the loads of the solution are breakpoints its interpolated cost equals
its true cost, so ``U = L`` and it is optimal; there are finitely many assignments, so this terminates.
:func:`brute_force` enumerates all ``S^C`` vertices as a check for tiny instances.

**Instances.** Suppliers and customers are uniform points in the unit square; ``t_ij`` is their distance
times ``transport_scale`` (default 4, so that the optimum typically uses 2-3 of 4 suppliers rather than one);
``s_i ~ U[0.5, 1.5]``; ``D_j ~ U[0.5, 1.5]`` rescaled to a total demand of 1, so ``f`` is O(1) at every
size. Defaults: ``a = 0.7`` (transport), ``b = 0.5`` (supplier). Torch, batched, differentiable (autograd).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np
import torch

from icml26.common import check_int, quiet_native_output

Tensor = torch.Tensor

EPS = 1e-3
DELTA = 1e-6


def concave_cost(y: Tensor, p: float, eps: float = EPS) -> Tensor:
    """``g_p(y) = (y + eps)^p - eps^p`` elementwise for flows ``y >= 0`` (any shape); concave for ``0 < p < 1``."""
    if not 0 < p < 1:
        raise ValueError(f"cost exponent must be in (0, 1) for economies of scale, got {p!r}")
    if not eps > 0:
        raise ValueError(f"smoothing eps must be positive, got {eps!r}")
    return (y + eps) ** p - eps**p


def _g_np(y: np.ndarray | float, p: float, eps: float = EPS) -> np.ndarray:
    return (np.asarray(y, dtype=float) + eps) ** p - eps**p


class SupplyChainInstances:
    """A batch of ``B`` networks; called on box points ``X`` ``(B, N, C*S)`` -> costs ``(B, N)``.

    ``demand``: ``(B, C)`` positive demands; ``transport``: ``(B, S, C)`` per-arc cost factors ``t_ij >= 0``;
    ``supplier``: ``(B, S)`` supplier cost factors ``s_i >= 0``; ``a``/``b``: transport/supplier exponents.
    """

    def __init__(
        self, demand: Tensor, transport: Tensor, supplier: Tensor, a: float = 0.7, b: float = 0.5
    ) -> None:
        if not all(isinstance(t, Tensor) for t in (demand, transport, supplier)):
            raise TypeError("demand, transport and supplier must be torch tensors")
        if demand.dim() != 2 or demand.shape[0] < 1 or demand.shape[1] < 1:
            raise ValueError(f"demand must have shape (B, C) with B, C >= 1, got {tuple(demand.shape)}")
        B, C = demand.shape
        if supplier.dim() != 2 or supplier.shape[0] != B or supplier.shape[1] < 1:
            raise ValueError(f"supplier must have shape (B={B}, S) with S >= 1, got {tuple(supplier.shape)}")
        S = supplier.shape[1]
        if transport.shape != (B, S, C):
            raise ValueError(f"transport must have shape (B={B}, S={S}, C={C}), got {tuple(transport.shape)}")
        if not bool(torch.isfinite(demand).all()) or not bool((demand > 0).all()):
            raise ValueError("demands must all be positive and finite")
        for name, t in (("transport", transport), ("supplier", supplier)):
            if not bool(torch.isfinite(t).all()) or not bool((t >= 0).all()):
                raise ValueError(f"{name} cost factors must all be non-negative and finite")
        for name, p in (("a", a), ("b", b)):
            if not (isinstance(p, int | float) and 0 < p < 1):
                raise ValueError(f"exponent {name} must be in (0, 1) (concave costs), got {p!r}")
        self.demand, self.transport, self.supplier = demand, transport, supplier
        self.a, self.b = float(a), float(b)

    @property
    def batch(self) -> int:
        return self.demand.shape[0]

    @property
    def suppliers(self) -> int:
        return self.supplier.shape[1]

    @property
    def customers(self) -> int:
        return self.demand.shape[1]

    @property
    def dim(self) -> int:
        return self.suppliers * self.customers

    def flows(self, X: Tensor) -> Tensor:
        """Flows ``x_ij`` ``(B, N, S, C)`` of box points ``X`` ``(B, N, C*S)``; ``sum_i x_ij = D_j`` exactly.

        Raises ``ValueError`` for a wrong shape; points outside the box are clamped onto it (so a
        baseline's bound handling can never produce an infeasible flow).
        """
        if not isinstance(X, Tensor):
            raise TypeError("population must be a torch tensor")
        if X.dim() != 3 or X.shape[0] != self.batch or X.shape[2] != self.dim:
            raise ValueError(
                f"population must have shape (B={self.batch}, N, d={self.dim} = customers {self.customers} x "
                f"suppliers {self.suppliers}), got {tuple(X.shape)}"
            )
        B, N = X.shape[:2]
        u = X.clamp(0, 1).reshape(B, N, self.customers, self.suppliers) + DELTA  # (B, N, C, S)
        p = u / u.sum(-1, keepdim=True)
        return (p * self.demand[:, None, :, None].to(X.dtype)).transpose(-1, -2)  # (B, N, S, C)

    def cost_of_flows(self, x: Tensor) -> Tensor:
        """Cost ``(B, N)`` of flows ``x`` ``(B, N, S, C)`` (any non-negative flows, not only feasible ones)."""
        t = self.transport[:, None].to(x.dtype)
        s = self.supplier[:, None].to(x.dtype)
        arcs = (t * concave_cost(x, self.a)).sum((-1, -2))
        return arcs + (s * concave_cost(x.sum(-1), self.b)).sum(-1)

    def __call__(self, X: Tensor) -> Tensor:
        """Cost ``f`` ``(B, N)`` of box points ``X`` ``(B, N, C*S)``."""
        return self.cost_of_flows(self.flows(X))

    def subset(self, idx: Tensor) -> SupplyChainInstances:
        """The instances ``idx`` (a 1-D index tensor) as a smaller batch."""
        return SupplyChainInstances(self.demand[idx], self.transport[idx], self.supplier[idx], self.a, self.b)

    def single(self, b: int) -> Callable[[Tensor], Tensor]:
        """Instance ``b`` as a function of ``(N, C*S)`` populations (the form :meth:`FlowOptimizer.minimize` takes)."""
        if not 0 <= b < self.batch:
            raise ValueError(f"instance index must be in [0, {self.batch}), got {b}")
        one = self.subset(torch.tensor([b]))
        return lambda X: one(X[None])[0]

    def _numpy(self, b: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if not 0 <= b < self.batch:
            raise ValueError(f"instance index must be in [0, {self.batch}), got {b}")
        return (
            self.demand[b].double().cpu().numpy(),
            self.transport[b].double().cpu().numpy(),
            self.supplier[b].double().cpu().numpy(),
        )

    def assignment_cost(self, b: int, assign: np.ndarray | list[int]) -> float:
        """True cost (float64) of instance ``b`` when customer ``j`` is served only by supplier ``assign[j]``."""
        D, T, s = self._numpy(b)
        assign = np.asarray(assign, dtype=int)
        if assign.shape != (self.customers,) or assign.min() < 0 or assign.max() >= self.suppliers:
            raise ValueError(
                f"assignment must be C={self.customers} supplier indices in [0, {self.suppliers})"
            )
        loads = np.bincount(assign, weights=D, minlength=self.suppliers)
        arcs = float(sum(T[assign[j], j] * _g_np(D[j], self.a) for j in range(self.customers)))
        return arcs + float((s * _g_np(loads, self.b)).sum())

    def point_of_assignment(self, assign: np.ndarray | list[int]) -> np.ndarray:
        """A box point ``(C*S,)`` whose flows are (up to ``delta``) the single-sourcing ``assign``."""
        u = np.zeros((self.customers, self.suppliers))
        u[np.arange(self.customers), np.asarray(assign, dtype=int)] = 1.0
        return u.reshape(-1)

    def exact(
        self, b: int, breakpoints: int = 8, tol: float = 1e-9, max_rounds: int = 50
    ) -> tuple[float, np.ndarray, float]:
        """Exact minimum of instance ``b``: ``(f*, assignment (C,), certified gap U - L)``.

        Piecewise-linear MILP over single-sourcing vertices (``highspy``) with ``breakpoints`` uniform
        segments per supplier, refined at the solution's loads until ``U - L <= tol`` (see the module
        docstring). Raises ``RuntimeError`` if HiGHS fails or the loop does not close in ``max_rounds``.
        """
        import highspy

        D, T, s = self._numpy(b)
        S = self.suppliers
        total = float(D.sum())
        bps = [
            set(np.linspace(0.0, total, check_int("breakpoints", breakpoints, 1) + 1).tolist())
            for _ in range(S)
        ]
        for _ in range(max_rounds):
            lower, assign = self._pwl_milp(D, T, s, [np.array(sorted(bp)) for bp in bps], highspy)
            upper = self.assignment_cost(b, assign)
            if upper - lower <= tol * max(1.0, abs(upper)):
                return upper, assign, max(upper - lower, 0.0)
            loads = np.bincount(assign, weights=D, minlength=S)
            for i in range(S):
                bps[i].add(float(loads[i]))
        raise RuntimeError(f"breakpoint refinement did not close the MILP gap in {max_rounds} rounds")

    def _pwl_milp(
        self, D: np.ndarray, T: np.ndarray, s: np.ndarray, bps: list[np.ndarray], highspy
    ) -> tuple[float, np.ndarray]:
        """One MILP: z_ij (binary), per supplier lambda_k (continuous) and segment binaries w_k (SOS2)."""
        S, C = T.shape
        with quiet_native_output():  # Highs() prints its banner before output_flag can be set
            h = highspy.Highs()
        h.setOptionValue("output_flag", False)
        h.setOptionValue("mip_rel_gap", 0.0)
        h.setOptionValue("mip_abs_gap", 1e-12)
        inf = highspy.kHighsInf
        col = 0

        def add(cost: float, ub: float, integer: bool) -> int:
            nonlocal col
            h.addCol(float(cost), 0.0, float(ub), 0, np.array([], dtype=np.int32), np.array([], dtype=float))
            if integer:
                h.changeColIntegrality(col, highspy.HighsVarType.kInteger)
            col += 1
            return col - 1

        z = np.array([[add(T[i, j] * _g_np(D[j], self.a), 1.0, True) for j in range(C)] for i in range(S)])
        for j in range(C):  # single sourcing: sum_i z_ij = 1
            h.addRow(1.0, 1.0, S, z[:, j].astype(np.int32), np.ones(S))
        for i in range(S):
            y = bps[i]
            K = len(y) - 1
            lam = [add(s[i] * float(_g_np(y[k], self.b)), 1.0, False) for k in range(K + 1)]
            w = [add(0.0, 1.0, True) for _ in range(K)]
            h.addRow(1.0, 1.0, K + 1, np.array(lam, dtype=np.int32), np.ones(K + 1))
            h.addRow(1.0, 1.0, K, np.array(w, dtype=np.int32), np.ones(K))
            # load: sum_k lambda_k y_k - sum_j D_j z_ij = 0
            idx = np.array(lam + z[i].tolist(), dtype=np.int32)
            h.addRow(0.0, 0.0, len(idx), idx, np.concatenate([y, -D]))
            for k in range(K + 1):  # lambda_k <= w_{k-1} + w_k (adjacent breakpoints only)
                adj = [w[m] for m in (k - 1, k) if 0 <= m < K]
                idx = np.array([lam[k], *adj], dtype=np.int32)
                h.addRow(-inf, 0.0, len(idx), idx, np.array([1.0] + [-1.0] * len(adj)))
        h.run()
        if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            raise RuntimeError(f"HiGHS did not solve the MILP: {h.modelStatusToString(h.getModelStatus())}")
        sol = np.array(h.getSolution().col_value)
        assign = np.array([int(np.argmax(sol[z[:, j]])) for j in range(C)])
        return float(h.getInfo().objective_function_value), assign


def brute_force(inst: SupplyChainInstances, b: int) -> tuple[float, np.ndarray]:
    """Minimum over all ``S^C`` single-sourcing vertices (tiny instances only): ``(f*, assignment)``."""
    if inst.suppliers**inst.customers > 200_000:
        raise ValueError("brute force is for tiny instances (S^C <= 200,000 vertices)")
    best, arg = np.inf, None
    for assign in itertools.product(range(inst.suppliers), repeat=inst.customers):
        c = inst.assignment_cost(b, list(assign))
        if c < best:
            best, arg = c, np.array(assign)
    return float(best), arg


class SupplyChainClass:
    """Supplier -> customer networks with concave costs, ``suppliers`` x ``customers``, as a problem class.

    Same interface as :class:`~icml26.flow_optimizer.problems.ProblemClass` (``name``, ``dim``,
    ``bounds``, ``lower``, ``upper``, ``with_dim``, ``sample``); ``dim = suppliers * customers`` and the
    box is ``[0, 1]^dim``. ``a``/``b``: transport/supplier cost exponents in (0, 1); ``transport_scale``:
    the factor on the distances (larger: customers go to nearer suppliers, smaller: consolidation).
    """

    name = "supply_chain"

    def __init__(
        self,
        suppliers: int = 4,
        customers: int = 5,
        a: float = 0.7,
        b: float = 0.5,
        transport_scale: float = 4.0,
    ) -> None:
        self.suppliers = check_int("suppliers", suppliers, 1)
        self.customers = check_int("customers", customers, 1)
        for name, p in (("a", a), ("b", b)):
            if isinstance(p, bool) or not (isinstance(p, int | float) and 0 < p < 1):
                raise ValueError(f"exponent {name} must be in (0, 1) (concave costs), got {p!r}")
        self.a, self.b = float(a), float(b)
        if isinstance(transport_scale, bool) or not (
            isinstance(transport_scale, int | float) and 0 <= transport_scale < np.inf
        ):
            raise ValueError(f"transport_scale must be finite and >= 0, got {transport_scale!r}")
        self.transport_scale = float(transport_scale)

    @property
    def dim(self) -> int:
        return self.suppliers * self.customers

    @property
    def lower(self) -> np.ndarray:
        """Lower bounds ``(d,)`` (zeros)."""
        return np.zeros(self.dim)

    @property
    def upper(self) -> np.ndarray:
        """Upper bounds ``(d,)`` (ones)."""
        return np.ones(self.dim)

    @property
    def bounds(self) -> list[tuple[float, float]]:
        """The box as scipy-style ``[(0, 1)] * d``."""
        return [(0.0, 1.0)] * self.dim

    def with_dim(self, dim: int) -> SupplyChainClass:
        """The same class with ``dim / suppliers`` customers (``dim`` must be a multiple of ``suppliers``)."""
        dim = check_int("dim", dim, 1)
        if dim % self.suppliers:
            raise ValueError(f"dim must be a multiple of suppliers={self.suppliers}, got {dim}")
        return SupplyChainClass(self.suppliers, dim // self.suppliers, self.a, self.b, self.transport_scale)

    def sample(
        self, n: int, generator: torch.Generator, dtype: torch.dtype = torch.float32, device: str = "cpu"
    ) -> SupplyChainInstances:
        """Draw ``n`` networks (locations, demands, supplier factors); repeatable for a seeded ``generator``."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"number of instances must be a positive integer, got {n!r}")
        f64 = torch.float64
        ps = torch.rand(n, self.suppliers, 2, generator=generator, dtype=f64)
        pc = torch.rand(n, self.customers, 2, generator=generator, dtype=f64)
        transport = self.transport_scale * torch.cdist(ps, pc)  # (n, S, C)
        supplier = 0.5 + torch.rand(n, self.suppliers, generator=generator, dtype=f64)
        raw = 0.5 + torch.rand(n, self.customers, generator=generator, dtype=f64)
        demand = raw / raw.sum(-1, keepdim=True)
        return SupplyChainInstances(
            demand.to(dtype).to(device),
            transport.to(dtype).to(device),
            supplier.to(dtype).to(device),
            self.a,
            self.b,
        )
