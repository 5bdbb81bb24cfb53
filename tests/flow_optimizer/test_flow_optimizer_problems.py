"""Benchmark functions against hand-computed and scipy reference values; instance construction."""

import math

import numpy as np
import pytest
import torch
from scipy.optimize import rosen, rosen_der

from icml26.flow_optimizer import BENCHMARKS, ProblemClass
from icml26.flow_optimizer.problems import ackley, griewank, levy, rastrigin, rosenbrock, styblinski_tang

D = torch.float64


def test_reference_values_by_hand():
    ones = torch.ones(7, dtype=D)
    assert rastrigin(torch.zeros(7, dtype=D)).item() == pytest.approx(0.0, abs=1e-12)
    assert rastrigin(ones).item() == pytest.approx(7.0, abs=1e-12)  # each coordinate: 1 - 10 cos(2 pi) + 10
    assert rastrigin(0.5 * ones).item() == pytest.approx(7 * (0.25 + 10 + 10), abs=1e-12)
    assert ackley(torch.zeros(7, dtype=D)).item() == pytest.approx(0.0, abs=1e-10)
    assert ackley(ones).item() == pytest.approx(20 - 20 * math.exp(-0.2), abs=1e-12)
    assert griewank(torch.zeros(7, dtype=D)).item() == pytest.approx(0.0, abs=1e-12)
    assert levy(ones).item() == pytest.approx(0.0, abs=1e-12)
    st_min = styblinski_tang(torch.full((7,), -2.903534, dtype=D)).item()
    assert st_min == pytest.approx(-39.16617 * 7, rel=1e-6)


def test_griewank_and_levy_match_numpy_formulas():
    x = np.random.default_rng(0).uniform(-5, 5, size=(20, 6))
    j = np.arange(1, 7)
    ref_g = 1 + (x**2).sum(1) / 4000 - np.prod(np.cos(x / np.sqrt(j)), 1)
    np.testing.assert_allclose(griewank(torch.tensor(x)).numpy(), ref_g, rtol=1e-12)
    w = 1 + (x - 1) / 4
    ref_l = (
        np.sin(np.pi * w[:, 0]) ** 2
        + ((w[:, :-1] - 1) ** 2 * (1 + 10 * np.sin(np.pi * w[:, :-1] + 1) ** 2)).sum(1)
        + (w[:, -1] - 1) ** 2 * (1 + np.sin(2 * np.pi * w[:, -1]) ** 2)
    )
    np.testing.assert_allclose(levy(torch.tensor(x)).numpy(), ref_l, rtol=1e-12)


def test_rosenbrock_value_and_gradient_match_scipy():
    x = np.random.default_rng(1).normal(size=(5, 8))
    xt = torch.tensor(x, requires_grad=True)
    f = rosenbrock(xt)
    (g,) = torch.autograd.grad(f.sum(), xt)
    np.testing.assert_allclose(f.detach().numpy(), [rosen(r) for r in x], rtol=1e-12)
    np.testing.assert_allclose(g.numpy(), np.stack([rosen_der(r) for r in x]), rtol=1e-10)


@pytest.mark.parametrize("name", sorted(BENCHMARKS))
@pytest.mark.parametrize("rotate", [False, True])
def test_instances_have_minimum_zero_at_the_shift(name, rotate):
    problem = ProblemClass(name, 6, rotate=rotate)
    inst = problem.sample(3, torch.Generator().manual_seed(0), dtype=D)
    at_opt = inst(inst.shift[:, None, :])
    np.testing.assert_allclose(at_opt.numpy(), 0.0, atol=1e-9)
    lo, hi = problem.bounds
    X = lo + (hi - lo) * torch.rand(3, 50, 6, generator=torch.Generator().manual_seed(1), dtype=D)
    assert (inst(X) >= -1e-9).all()


def test_single_instance_view_matches_batch():
    problem = ProblemClass("ackley", 5)
    inst = problem.sample(2, torch.Generator().manual_seed(0), dtype=D)
    X = torch.randn(2, 4, 5, dtype=D)
    np.testing.assert_allclose(inst.single(1)(X[1]).numpy(), inst(X)[1].numpy())


def test_sampling_is_repeatable():
    p = ProblemClass("rastrigin", 4)
    a = p.sample(2, torch.Generator().manual_seed(3)).shift
    b = p.sample(2, torch.Generator().manual_seed(3)).shift
    assert torch.equal(a, b)


def test_bad_problem_inputs():
    with pytest.raises(ValueError, match="unknown problem 'sphere'"):
        ProblemClass("sphere", 3)
    with pytest.raises(ValueError, match="dim must be an integer >= 2"):
        ProblemClass("rastrigin", 1)
    with pytest.raises(ValueError, match="number of instances"):
        ProblemClass("rastrigin", 3).sample(0, torch.Generator())
    inst = ProblemClass("rastrigin", 3).sample(2, torch.Generator())
    with pytest.raises(ValueError, match=r"population must have shape \(B=2, N, d=3\)"):
        inst(torch.zeros(2, 5, 4))
    with pytest.raises(ValueError, match="instance index"):
        inst.single(2)
