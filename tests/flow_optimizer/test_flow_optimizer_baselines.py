"""Baselines: equal budgets are hard caps; each solves an easy convex case."""

import pytest
import torch

from icml26.flow_optimizer import BASELINES


def sphere(X):
    return ((X - 0.3) ** 2).sum(-1)


@pytest.mark.parametrize(
    ("name", "budget", "tol"),
    [("cma", 1500, 1e-6), ("cma_ipop", 1500, 1e-6), ("adam", 1600, 1e-2), ("de", 1600, 0.5)],
)
def test_baselines_stay_within_budget_and_solve_a_sphere(name, budget, tol):
    res = BASELINES[name](sphere, [(-2.0, 2.0)] * 4, budget, 0)
    assert res.nfev <= budget
    assert res.fun <= tol
    assert res.fun == pytest.approx(
        float(sphere(torch.tensor(res.x, dtype=torch.float32))), rel=1e-4, abs=1e-9
    )
    assert [h[0] for h in res.history] == sorted(h[0] for h in res.history)


def test_ipop_restarts_never_exceed_the_budget():
    res = BASELINES["cma_ipop"](lambda X: torch.cos(3 * X).sum(-1), [(-3.0, 3.0)] * 3, 777, 1)
    assert res.nfev <= 777


def test_baseline_bad_bounds():
    with pytest.raises(ValueError, match="lower < upper"):
        BASELINES["cma"](sphere, [(1.0, 0.0)] * 2, 100, 0)
