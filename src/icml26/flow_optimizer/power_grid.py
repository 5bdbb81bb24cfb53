"""Power grid: DC optimal power flow on IEEE cases from ``pandapower``, as a problem class.

Instance xi: per-bus load factors ``a_b ~ U[lo, hi]`` on the case's demand ``D``. Decision ``x``: the
active power (MW) of every generator except the slack, in its box ``[Pmin, Pmax]``; the slack
generator closes the lossless DC balance, ``P_slack = sum(a D) - sum(x)``. With line flows
``F = PTDF (P_bus - a D) / baseMVA`` (p.u.), the objective is

    f(x; xi) = C(P) / C_ref + rho * V(x; xi),                                            (DC-OPF)

``C`` the polynomial generation cost, ``C_ref`` the cost of the proportional dispatch of the base case
(a fixed scale, no optimisation involved), and ``V`` the violation in p.u.: slack outside its limits
plus line overloads ``sum relu(|F| - rate)``. The exact optimum of each instance comes from
``pandapower.rundcopp``, used only to report the gap.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

import numpy as np
import torch

Tensor = torch.Tensor
CASES = ("case9", "case30", "case118")


def _load_case(case: str):
    import pandapower as pp
    import pandapower.networks as pn

    if case not in CASES:
        raise ValueError(f"unknown power case {case!r}; accepted: {', '.join(CASES)}")
    net = getattr(pn, case)()
    pp.rundcopp(net)  # builds the internal ppc arrays (and the base-case optimum)
    return net


@dataclass
class GridData:
    """Arrays of a case in internal bus order (numpy, float64)."""

    net: object
    base_mva: float
    ptdf: np.ndarray  # (n_branch, n_bus)
    rate: np.ndarray  # (n_branch,) p.u.
    demand: np.ndarray  # (n_bus,) MW
    gen_bus: np.ndarray  # (n_gen,) internal bus of each generator, slack first
    pmin: np.ndarray
    pmax: np.ndarray
    cost: np.ndarray  # (n_gen, 3): c2, c1, c0 on P in MW
    load_bus: np.ndarray = field(
        default_factory=lambda: np.zeros(0, dtype=int)
    )  # internal bus of each net.load


def grid_data(case: str = "case118") -> GridData:
    """Read a pandapower case into :class:`GridData`; the slack generator (at the REF bus) comes first."""
    from pandapower.pypower.idx_brch import RATE_A
    from pandapower.pypower.idx_bus import BUS_TYPE, PD, REF
    from pandapower.pypower.idx_cost import COST, NCOST
    from pandapower.pypower.idx_gen import GEN_BUS, PMAX, PMIN
    from pandapower.pypower.makePTDF import makePTDF

    net = _load_case(case)
    ppc = net._ppc
    ref = int(np.where(ppc["bus"][:, BUS_TYPE] == REF)[0][0])
    gen = ppc["gen"]
    order = np.argsort(gen[:, GEN_BUS] != ref, kind="stable")  # slack first
    gencost = ppc["gencost"][order]
    if not np.all(gencost[:, NCOST] == 3):
        raise ValueError(f"{case}: only quadratic polynomial generator costs are supported")
    rate = ppc["branch"][:, RATE_A] / ppc["baseMVA"]
    rate = np.where(rate > 0, rate, np.inf)
    return GridData(
        net=net,
        base_mva=float(ppc["baseMVA"]),
        ptdf=np.asarray(makePTDF(ppc["baseMVA"], ppc["bus"], ppc["branch"], ref)),
        rate=rate,
        demand=ppc["bus"][:, PD].copy(),
        gen_bus=gen[order, GEN_BUS].astype(int),
        pmin=gen[order, PMIN].clip(min=0.0),
        pmax=gen[order, PMAX],
        cost=gencost[:, COST : COST + 3],
        load_bus=net._pd2ppc_lookups["bus"][net.load.bus.values],
    )


class DCOPFInstances:
    """A batch of DC-OPF instances; called on ``X`` ``(B, N, d)`` (MW of non-slack generators) -> ``(B, N)``."""

    def __init__(self, data: GridData, factors: Tensor, c_ref: float, penalty: float) -> None:
        self.data, self.factors, self.c_ref, self.penalty = data, factors, c_ref, penalty
        dt, dev = factors.dtype, factors.device
        self._ptdf = torch.as_tensor(data.ptdf, dtype=dt, device=dev)
        self._rate = torch.as_tensor(np.minimum(data.rate, 1e6), dtype=dt, device=dev)
        self._cost = torch.as_tensor(data.cost, dtype=dt, device=dev)
        self._demand = factors * torch.as_tensor(data.demand, dtype=dt, device=dev)  # (B, n_bus)
        n_bus, n_gen = len(data.demand), len(data.gen_bus)
        incidence = np.zeros((n_gen, n_bus))
        incidence[np.arange(n_gen), data.gen_bus] = 1.0
        self._incidence = torch.as_tensor(incidence, dtype=dt, device=dev)
        self._slack_lim = (float(data.pmin[0]), float(data.pmax[0]))

    @property
    def batch(self) -> int:
        return self.factors.shape[0]

    def dispatch(self, X: Tensor) -> Tensor:
        """All generators' MW ``(B, N, n_gen)``, slack first, from the non-slack decision ``X``."""
        slack = self._demand.sum(-1)[:, None, None] - X.sum(-1, keepdim=True)
        return torch.cat([slack, X], -1)

    def line_flows(self, X: Tensor) -> Tensor:
        """DC line flows ``F = PTDF (P_bus - a D) / baseMVA`` in p.u. ``(B, N, n_branch)``."""
        inject = (self.dispatch(X) @ self._incidence - self._demand[:, None, :]) / self.data.base_mva
        return inject @ self._ptdf.T

    def binding_lines(self, X: Tensor, tol: float = 1e-6) -> Tensor:
        """How many line limits bind at ``X``: ``|F| >= (1 - tol) rate``, ``(B, N)`` integers."""
        return (self.line_flows(X).abs() >= (1 - tol) * self._rate).sum(-1)

    def violation(self, X: Tensor) -> Tensor:
        """``V`` in p.u. ``(B, N)``: slack limit excess plus line overloads."""
        P = self.dispatch(X)
        lo, hi = self._slack_lim
        slack = (torch.relu(P[..., 0] - hi) + torch.relu(lo - P[..., 0])) / self.data.base_mva
        return slack + torch.relu(self.line_flows(X).abs() - self._rate).sum(-1)

    def cost(self, X: Tensor) -> Tensor:
        """Generation cost ``C(P)`` in $/h ``(B, N)``."""
        P = self.dispatch(X)
        c = self._cost
        return (c[:, 0] * P**2 + c[:, 1] * P + c[:, 2]).sum(-1)

    def __call__(self, X: Tensor) -> Tensor:
        d = len(self.data.gen_bus) - 1
        if X.dim() != 3 or X.shape[0] != self.batch or X.shape[2] != d:
            raise ValueError(f"population must have shape (B={self.batch}, N, d={d}), got {tuple(X.shape)}")
        return self.cost(X) / self.c_ref + self.penalty * self.violation(X)

    def subset(self, idx: Tensor) -> DCOPFInstances:
        return DCOPFInstances(self.data, self.factors[idx], self.c_ref, self.penalty)

    def single(self, b: int):
        """Instance ``b`` as a function of ``(N, d)`` populations."""
        if not 0 <= b < self.batch:
            raise ValueError(f"instance index must be in [0, {self.batch}), got {b}")
        one = self.subset(torch.tensor([b]))
        return lambda X: one(X[None])[0]

    def exact(self, b: int) -> tuple[float, np.ndarray]:
        """The exact DC-OPF optimum of instance ``b`` by ``pandapower.rundcopp``: (cost $/h, non-slack MW)."""
        import pandapower as pp

        net = copy.deepcopy(self.data.net)
        factors = self.factors[b].detach().cpu().double().numpy()
        net.load["p_mw"] = net.load["p_mw"].values * factors[self.data.load_bus]
        pp.rundcopp(net)
        P = np.concatenate([net.res_ext_grid.p_mw.values, net.res_gen.p_mw.values])
        return float(net.res_cost), P[1:]


class DCOPFClass:
    """DC-OPF instances of a pandapower case: load factors ``U[load_low, load_high]`` per bus.

    Same interface as :class:`ProblemClass` (``name``, ``dim``, ``lower``, ``upper``, ``sample``).
    """

    def __init__(
        self, case: str = "case118", load_low: float = 0.8, load_high: float = 1.2, penalty: float = 10.0
    ):
        if not (0 < load_low <= load_high):
            raise ValueError(f"load factors need 0 < load_low <= load_high, got {load_low}, {load_high}")
        if not penalty > 0:
            raise ValueError(f"penalty must be > 0, got {penalty}")
        self.case, self.load_low, self.load_high, self.penalty = case, load_low, load_high, penalty
        self.data = grid_data(case)
        self.name = f"dcopf_{case}"
        self.dim = len(self.data.gen_bus) - 1
        # proportional dispatch of the base case: every generator at the same fraction of its Pmax
        share = self.data.demand.sum() / self.data.pmax.sum()
        P = share * self.data.pmax
        c = self.data.cost
        self.c_ref = float((c[:, 0] * P**2 + c[:, 1] * P + c[:, 2]).sum())

    @property
    def lower(self) -> np.ndarray:
        return self.data.pmin[1:].copy()

    @property
    def upper(self) -> np.ndarray:
        return self.data.pmax[1:].copy()

    @property
    def bounds(self) -> list[tuple[float, float]]:
        return list(zip(self.lower.tolist(), self.upper.tolist()))

    def sample(
        self, n: int, generator: torch.Generator, dtype: torch.dtype = torch.float32, device: str = "cpu"
    ) -> DCOPFInstances:
        """Draw ``n`` instances (per-bus load factors)."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"number of instances must be a positive integer, got {n!r}")
        u = torch.rand(n, len(self.data.demand), generator=generator, dtype=torch.float64)
        factors = self.load_low + (self.load_high - self.load_low) * u
        return DCOPFInstances(self.data, factors.to(dtype).to(device), self.c_ref, self.penalty)
