"""Baselines: equal budgets are hard caps; each solves an easy convex case."""

import numpy as np
import pytest
import torch

from icml26.flow_optimizer import BASELINES
from icml26.flow_optimizer.baselines import _start


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


@pytest.mark.parametrize("start", ["random", "centre"])
def test_ngopt_stays_within_budget_and_solves_a_sphere(start):
    res = BASELINES["ngopt"](sphere, [(-2.0, 2.0)] * 10, 1600, 0, start=start)
    assert res.nfev == 1600  # 100 batches of 16
    assert res.fun <= 1e-4
    assert res.fun == pytest.approx(float(sphere(torch.tensor(res.x, dtype=torch.float32))), abs=1e-9)


def test_first_point_is_the_box_centre_or_uniform_in_the_box():
    lower, upper = np.array([-2.0, 0.0]), np.array([4.0, 1.0])
    np.testing.assert_array_equal(_start(lower, upper, np.random.default_rng(0), "centre"), [1.0, 0.5])
    x = np.stack([_start(lower, upper, np.random.default_rng(s)) for s in range(200)])
    assert (x >= lower).all() and (x <= upper).all()
    assert (
        np.abs(x.mean(0) - [1.0, 0.5]).max() < 0.45
    )  # uniform: within ~3.7 standard errors (6 / sqrt(12 * 200))
    with pytest.raises(ValueError, match="start must be one of"):
        BASELINES["cma"](sphere, [(-2.0, 2.0)] * 2, 100, 0, start="middle")


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"num_workers": 0}, "num_workers must be a positive integer"),
        ({"num_workers": 32}, "at least num_workers"),
    ],
)
def test_ngopt_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        BASELINES["ngopt"](sphere, [(-2.0, 2.0)] * 10, 20, 0, **kwargs)


def test_baseline_bad_bounds():
    with pytest.raises(ValueError, match="lower < upper"):
        BASELINES["cma"](sphere, [(1.0, 0.0)] * 2, 100, 0)


def test_cma_es_accepts_the_inner_seeds_of_a_large_runner_seed():
    """Inner seeds are runner seed x 1000 + instance; pycma takes seeds up to 2**32 - 1 only."""
    res = BASELINES["cma"](sphere, [(-2.0, 2.0)] * 2, 40, (2**32 - 1) * 1000 + 7)
    assert res.nfev <= 40


def test_ipop_first_run_is_cma_es_and_a_terminated_run_restarts(monkeypatch):
    import cma

    runs: list[object] = []

    class Spy(cma.CMAEvolutionStrategy):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            runs.append(self)

    monkeypatch.setattr(cma, "CMAEvolutionStrategy", Spy)
    sphere = lambda X: (X**2).sum(-1)  # noqa: E731
    bounds = [(-3.0, 3.0)] * 3
    # too few evaluations for any stopping criterion: one run, identical to CMA-ES with the same seed
    ipop, plain = BASELINES["cma_ipop"](sphere, bounds, 200, 4), BASELINES["cma"](sphere, bounds, 200, 4)
    assert len(runs) == 2 and ipop.fun == plain.fun
    runs.clear()
    # a converged sphere run meets tolfun/tolx: IPOP restarts with a doubled population
    BASELINES["cma_ipop"](sphere, bounds, 3000, 4)
    assert len(runs) >= 2 and runs[1].popsize == 2 * runs[0].popsize
