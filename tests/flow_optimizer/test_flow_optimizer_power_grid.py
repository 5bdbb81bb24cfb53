"""DC-OPF problem class against pandapower's exact optimum."""

import numpy as np
import pytest
import torch

pytest.importorskip("pandapower")

from icml26.flow_optimizer.power_grid import DCOPFClass  # noqa: E402

D = torch.float64


@pytest.fixture(scope="module", params=["case9", "case30"])
def grid(request):
    return DCOPFClass(request.param)


def test_objective_at_the_exact_optimum_is_its_cost_and_feasible(grid):
    inst = grid.sample(2, torch.Generator().manual_seed(0), dtype=D)
    for b in range(2):
        cost, x = inst.exact(b)
        X = torch.tensor(x, dtype=D)[None, None]
        one = inst.subset(torch.tensor([b]))
        assert float(one.cost(X)) == pytest.approx(cost, rel=1e-9)
        assert float(one.violation(X)) == pytest.approx(0.0, abs=1e-7)
        assert float(one(X)) == pytest.approx(cost / grid.c_ref, rel=1e-9)
        assert np.all(x >= grid.lower - 1e-6) and np.all(x <= grid.upper + 1e-6)


def test_dispatch_balances_demand_and_penalises_slack_excess(grid):
    inst = grid.sample(1, torch.Generator().manual_seed(1), dtype=D)
    X = torch.tensor(grid.upper, dtype=D)[None, None]  # every other unit at Pmax: the slack must absorb
    P = inst.dispatch(X)
    assert float(P.sum()) == pytest.approx(float(inst._demand.sum()), rel=1e-12)
    slack = float(P[0, 0, 0])
    lo, hi = grid.data.pmin[0], grid.data.pmax[0]
    expected = (max(slack - hi, 0) + max(lo - slack, 0)) / grid.data.base_mva
    assert float(inst.violation(X)) >= expected - 1e-12
    if expected > 0:
        assert float(inst(X)) > float(inst.cost(X)) / grid.c_ref


def test_bad_grid_inputs():
    with pytest.raises(ValueError, match="unknown power case 'case57'"):
        DCOPFClass("case57")
    with pytest.raises(ValueError, match="load factors need"):
        DCOPFClass("case9", load_low=1.5, load_high=1.0)
    inst = DCOPFClass("case9").sample(1, torch.Generator())
    with pytest.raises(ValueError, match="population must have shape"):
        inst(torch.zeros(1, 3, 5))


def test_case30_at_high_load_binds_a_line_limit_at_the_exact_optimum():
    """The experiment's DC-OPF class: loads x U[1.1, 1.3] on case30 make a line limit bind at the exact
    optimum of every draw; at the base load (x 1) none binds."""
    cls = DCOPFClass("case30", 1.1, 1.3)
    inst = cls.sample(3, torch.Generator().manual_seed(0), dtype=torch.float64)
    for b in range(3):
        _, x = inst.exact(b)
        one, X = inst.subset(torch.tensor([b])), torch.as_tensor(x)[None, None]
        assert int(one.binding_lines(X)) >= 1
        assert float(one.violation(X)) < 1e-9
    base = DCOPFClass("case30", 1.0, 1.0).sample(1, torch.Generator(), dtype=torch.float64)
    _, x = base.exact(0)
    assert int(base.binding_lines(torch.as_tensor(x)[None, None])) == 0
