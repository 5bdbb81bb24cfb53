"""Supply chain with concave costs: hand-solved objective, exact MILP vs brute force, concavity, bad input."""

import math

import numpy as np
import pytest
import torch

from icml26.flow_optimizer import FlowOptimizer
from icml26.flow_optimizer.baselines import cma_es
from icml26.flow_optimizer.supply_chain import (
    DELTA,
    EPS,
    SupplyChainClass,
    SupplyChainInstances,
    brute_force,
    concave_cost,
)

D = torch.float64


def g(y: float, p: float) -> float:
    return (y + EPS) ** p - EPS**p


def tiny() -> SupplyChainInstances:
    """2 suppliers, 2 customers; demands 0.25 and 0.75."""
    return SupplyChainInstances(
        torch.tensor([[0.25, 0.75]], dtype=D),
        torch.tensor([[[1.0, 2.0], [3.0, 0.5]]], dtype=D),  # t[i, j]
        torch.tensor([[1.0, 2.0]], dtype=D),
        a=0.5,
        b=0.5,
    )


def test_objective_hand_solved():
    inst = tiny()
    # customer 0 all from supplier 0, customer 1 all from supplier 1 (u is customer-major: u[j*S + i])
    X = torch.tensor([[[1.0, 0.0, 0.0, 1.0]]], dtype=D)
    hi, lo = (1 + DELTA) / (1 + 2 * DELTA), DELTA / (1 + 2 * DELTA)  # delta leaks a trace to the other arc
    x = [[0.25 * hi, 0.75 * lo], [0.25 * lo, 0.75 * hi]]  # x[i][j]
    t, s = [[1.0, 2.0], [3.0, 0.5]], [1.0, 2.0]
    want = sum(t[i][j] * g(x[i][j], 0.5) for i in range(2) for j in range(2))
    want += sum(s[i] * g(x[i][0] + x[i][1], 0.5) for i in range(2))
    assert float(inst(X)) == pytest.approx(want, rel=1e-12)
    vertex = 1.0 * g(0.25, 0.5) + 0.5 * g(0.75, 0.5) + 1.0 * g(0.25, 0.5) + 2.0 * g(0.75, 0.5)
    assert float(inst(X)) == pytest.approx(vertex, rel=1e-4)
    # an even split of both customers: x_ij = D_j / 2, loads 0.5 each
    X = torch.full((1, 1, 4), 0.3, dtype=D)
    want = (1.0 * g(0.125, 0.5) + 2.0 * g(0.375, 0.5) + 3.0 * g(0.125, 0.5) + 0.5 * g(0.375, 0.5)) + (
        1.0 + 2.0
    ) * g(0.5, 0.5)
    assert float(inst(X)) == pytest.approx(want, rel=1e-12)
    assert inst.assignment_cost(0, [0, 1]) == pytest.approx(
        1.0 * g(0.25, 0.5) + 0.5 * g(0.75, 0.5) + 1.0 * g(0.25, 0.5) + 2.0 * g(0.75, 0.5), rel=1e-12
    )


def test_exact_milp_equals_brute_force():
    inst = tiny()
    f_bf, a_bf = brute_force(inst, 0)
    f_ex, a_ex, gap = inst.exact(0)
    assert f_ex == pytest.approx(f_bf, rel=1e-9) and gap <= 1e-8
    assert a_ex.tolist() == a_bf.tolist()
    big = SupplyChainClass(3, 4).sample(4, torch.Generator().manual_seed(1), D)
    for b in range(4):
        f_bf, _ = brute_force(big, b)
        f_ex, assign, _ = big.exact(b, breakpoints=2)  # coarse start: refinement must close the gap
        assert f_ex == pytest.approx(f_bf, rel=1e-9)
        assert big.assignment_cost(b, assign) == pytest.approx(f_bf, rel=1e-9)
        # no random (non-vertex) allocation beats the vertex optimum (concave minimum at a vertex)
        X = torch.rand(1, 2000, big.dim, generator=torch.Generator().manual_seed(b), dtype=D)
        assert float(big.subset(torch.tensor([b]))(X).min()) >= f_bf - 1e-12


def test_arc_costs_are_concave_and_increasing():
    gen = torch.Generator().manual_seed(0)
    y1, y2 = torch.rand(1000, generator=gen, dtype=D) * 2, torch.rand(1000, generator=gen, dtype=D) * 2
    for p in (0.3, 0.5, 0.7, 0.95):
        mid = concave_cost((y1 + y2) / 2, p)
        assert bool((mid >= (concave_cost(y1, p) + concave_cost(y2, p)) / 2 - 1e-15).all())
        assert bool((concave_cost(torch.maximum(y1, y2), p) >= concave_cost(torch.minimum(y1, y2), p)).all())
    assert float(concave_cost(torch.zeros(1, dtype=D), 0.5)) == 0.0
    # the whole objective is concave in the flows along a segment of feasible flows
    inst = SupplyChainClass(3, 4).sample(1, gen, D)
    x0 = inst.flows(torch.rand(1, 50, 12, generator=gen, dtype=D))
    x1 = inst.flows(torch.rand(1, 50, 12, generator=gen, dtype=D))
    fm = inst.cost_of_flows((x0 + x1) / 2)
    assert bool((fm >= (inst.cost_of_flows(x0) + inst.cost_of_flows(x1)) / 2 - 1e-12).all())


def test_any_candidate_is_feasible_by_construction():
    cls = SupplyChainClass(4, 5)
    inst = cls.sample(3, torch.Generator().manual_seed(2), D)
    X = torch.rand(3, 100, cls.dim, generator=torch.Generator().manual_seed(3), dtype=D)
    X[:, :10] = 0.0  # all-zero weights
    X[:, 10:20] = 1.0
    X[:, 20:25] = torch.tensor([-3.0, 7.0]).repeat(10)  # outside the box: clamped
    x = inst.flows(X)
    assert bool((x >= 0).all())
    assert torch.allclose(x.sum(-2), inst.demand[:, None, :].expand(3, 100, 5), rtol=0, atol=1e-12)
    assert bool(torch.isfinite(inst(X)).all())
    # gradients exist and are finite everywhere in the box, including on faces
    Xg = X.clamp(0, 1).requires_grad_(True)
    inst(Xg).sum().backward()
    assert bool(torch.isfinite(Xg.grad).all())


def test_sample_repeatable_and_scaled():
    cls = SupplyChainClass(4, 5)
    a = cls.sample(4, torch.Generator().manual_seed(5), D)
    b = cls.sample(4, torch.Generator().manual_seed(5), D)
    assert torch.equal(a.transport, b.transport) and torch.equal(a.demand, b.demand)
    assert torch.allclose(a.demand.sum(-1), torch.ones(4, dtype=D))
    assert cls.dim == 20 and cls.bounds == [(0.0, 1.0)] * 20
    assert cls.with_dim(8).customers == 2
    assert a.point_of_assignment([0, 1, 2, 3, 0]).reshape(5, 4).sum(-1).tolist() == [1.0] * 5


def test_bad_input_raises():
    with pytest.raises(ValueError, match="suppliers"):
        SupplyChainClass(0, 3)
    with pytest.raises(ValueError, match="exponent"):
        SupplyChainClass(2, 3, a=1.0)
    with pytest.raises(ValueError, match="transport_scale"):
        SupplyChainClass(2, 3, transport_scale=-1.0)
    with pytest.raises(ValueError, match="multiple"):
        SupplyChainClass(3, 3).with_dim(10)
    with pytest.raises(ValueError, match="positive integer"):
        SupplyChainClass(2, 2).sample(0, torch.Generator())
    with pytest.raises(ValueError, match="demands"):
        SupplyChainInstances(torch.tensor([[0.0, 1.0]]), torch.ones(1, 2, 2), torch.ones(1, 2))
    with pytest.raises(ValueError, match="transport must have shape"):
        SupplyChainInstances(torch.ones(1, 2), torch.ones(1, 3, 2), torch.ones(1, 2))
    with pytest.raises(ValueError, match="non-negative"):
        SupplyChainInstances(torch.ones(1, 2), -torch.ones(1, 2, 2), torch.ones(1, 2))
    with pytest.raises(ValueError, match=r"\(0, 1\)"):
        concave_cost(torch.ones(2), 1.5)
    inst = tiny()
    with pytest.raises(ValueError, match="population must have shape"):
        inst(torch.zeros(1, 3, 5, dtype=D))
    with pytest.raises(ValueError, match="assignment"):
        inst.assignment_cost(0, [0, 2])
    with pytest.raises(ValueError, match="instance index"):
        inst.exact(3)


def test_optimizers_run_on_the_class():
    cls = SupplyChainClass(2, 3)
    inst = cls.sample(1, torch.Generator().manual_seed(0))
    f = inst.single(0)
    inst64 = cls.sample(1, torch.Generator().manual_seed(0), D)
    exact = inst64.exact(0)[0]
    res = cma_es(f, cls.bounds, 200, 0)
    assert res.fun >= exact - 1e-5 and math.isfinite(res.fun)
    opt = FlowOptimizer.pretrained("supply_chain-20")
    res = opt.minimize(f, cls.bounds, 256, seed=0, population=32)
    assert res.nfev <= 256 and res.fun >= exact - 1e-5
    assert np.all((res.x >= 0) & (res.x <= 1))
