"""L2O-DM baseline: preprocessing, any-d shapes, a meta-training step that helps, budgets, bad input."""

import math

import numpy as np
import pytest
import torch

from icml26.flow_optimizer import (
    BASELINES,
    CoordinatewiseLSTM,
    L2OOptimizer,
    ProblemClass,
    l2o_multistart,
    preprocess_gradient,
)
from icml26.flow_optimizer.l2o import unrolled_loss


def sphere(X):
    return ((X - 0.3) ** 2).sum(-1)


def test_preprocessing_matches_appendix_a():
    g = torch.tensor([1.0, -math.e, 1e-6, -1e-4, 0.0])
    out = preprocess_gradient(g, p=10.0)
    assert out.shape == (5, 2)
    assert out[0].tolist() == pytest.approx([0.0, 1.0])
    assert out[1].tolist() == pytest.approx([0.1, -1.0])
    assert out[2].tolist() == pytest.approx([-1.0, math.exp(10) * 1e-6])  # |g| < e^-10: (-1, e^p g)
    assert out[3].tolist() == pytest.approx([math.log(1e-4) / 10, -1.0])  # |g| >= e^-10
    assert out[4].tolist() == pytest.approx([-1.0, 0.0])


@pytest.mark.parametrize("d", [3, 10, 100])
def test_same_weights_run_at_any_dimension(d):
    opt = L2OOptimizer(hidden=8).fit(ProblemClass("rastrigin", 3), iterations=0)
    res = opt.minimize(sphere, [(-2.0, 2.0)] * d, budget=160, seed=0, population=16)
    assert res.x.shape == (d,)
    assert np.all(np.abs(res.x) <= 2.0)
    assert res.fun == pytest.approx(float(sphere(torch.tensor(res.x, dtype=torch.float32))), rel=1e-5)
    net = CoordinatewiseLSTM(hidden=8)
    step, (h, c) = net(torch.randn(7 * d), net.initial_state(7 * d))
    assert step.shape == (7 * d,) and h.shape == c.shape == (2, 7 * d, 8)


def test_one_unrolled_training_step_lowers_the_loss_on_a_quadratic():
    torch.manual_seed(0)
    net = CoordinatewiseLSTM(hidden=8)
    lower, upper = torch.full((4,), -2.0), torch.full((4,), 2.0)
    X0 = lower + 4 * torch.rand(3, 5, 4, generator=torch.Generator().manual_seed(1))

    def quad(X):
        return ((X - 0.5) ** 2).sum(-1)

    def loss():
        return unrolled_loss(net, quad, X0, net.initial_state(60), 10, lower, upper, 0.1 * (upper - lower))[0]

    before = loss()
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    opt.zero_grad()
    before.backward()
    opt.step()
    with torch.no_grad():
        after = loss()
    assert float(after) < float(before.detach())


def test_fit_records_training_and_learns_the_sphere():
    cls = ProblemClass("rastrigin", 2)
    opt = L2OOptimizer(hidden=8, horizon=10, unroll=5).fit(cls, iterations=3, batch=2, starts=4)
    assert opt.log_["iterations"] == 3 and len(opt.log_["loss"]) == 3 and opt.log_["seconds"] > 0
    assert opt.trained_on_ == "rastrigin-2"


@pytest.mark.parametrize(("budget", "population"), [(100, 16), (64, 64), (3200, 64)])
def test_budget_is_a_hard_cap(budget, population):
    opt = L2OOptimizer(hidden=8).fit(ProblemClass("ackley", 2), iterations=0)
    calls = []

    def f(X):
        calls.append(len(X))
        return sphere(X)

    res = BASELINES["l2o"](f, [(-1.0, 1.0)] * 5, budget, 0, population=population, model=opt)
    assert res.nfev == sum(calls) == (budget // population) * population <= budget
    assert len(res.history) == budget // population
    assert [h[1] for h in res.history] == sorted((h[1] for h in res.history), reverse=True)


def test_pretrained_weights_beat_random_on_their_class():
    cls = ProblemClass("rastrigin", 10)
    inst = cls.sample(3, torch.Generator().manual_seed(5))
    trained = L2OOptimizer.pretrained("l2o-rastrigin-10")
    assert trained.trained_on_ == "rastrigin-10" and trained.log_["seconds"] > 60
    got = np.median([trained.minimize(inst.single(i), [cls.bounds] * 10, 640, i).fun for i in range(3)])
    start = np.median([inst.single(i)(torch.zeros(1, 10).uniform_(-5.12, 5.12)).item() for i in range(3)])
    assert got < start


def test_bad_input():
    opt = L2OOptimizer(hidden=8)
    with pytest.raises(ValueError, match="not fitted"):
        opt.minimize(sphere, [(-1.0, 1.0)] * 2)
    opt.fit(ProblemClass("rastrigin", 2), iterations=0)
    with pytest.raises(ValueError, match="at least the population"):
        opt.minimize(sphere, [(-1.0, 1.0)] * 2, budget=10, population=16)
    with pytest.raises(ValueError, match="lower < upper"):
        opt.minimize(sphere, [(1.0, -1.0)] * 2)
    with pytest.raises(ValueError, match="shape"):
        opt.minimize(lambda X: X, [(-1.0, 1.0)] * 2, budget=32, population=16)
    with pytest.raises(ValueError, match="differentiable"):
        opt.minimize(lambda X: torch.ones(len(X)), [(-1.0, 1.0)] * 2, budget=32, population=16)
    with pytest.raises(TypeError, match="callable"):
        opt.minimize(3, [(-1.0, 1.0)] * 2)
    with pytest.raises(ValueError, match="out_scale"):
        L2OOptimizer(out_scale=-1.0)
    with pytest.raises(ValueError, match="horizon"):
        L2OOptimizer(horizon=0)
    with pytest.raises(TypeError, match="problem class"):
        L2OOptimizer().fit("rastrigin")
    with pytest.raises(ValueError, match="needs model"):
        l2o_multistart(sphere, [(-1.0, 1.0)] * 2, 64, 0)
    with pytest.raises(ValueError, match="unknown pretrained L2O"):
        L2OOptimizer.pretrained("l2o-levy-10")
    with pytest.raises(TypeError, match="L2OOptimizer"):
        l2o_multistart(sphere, [(-1.0, 1.0)] * 2, 64, 0, model=3)


def test_nonfinite_values_are_ranked_worst_with_a_warning():
    opt = L2OOptimizer(hidden=8).fit(ProblemClass("rastrigin", 2), iterations=0)

    def f(X):
        y = sphere(X)
        return torch.where(X[:, 0] > 0.5, torch.full_like(y, float("nan")), y)

    with pytest.warns(RuntimeWarning, match="NaN/inf"):
        res = opt.minimize(f, [(-1.0, 1.0)] * 2, budget=64, population=16)
    assert math.isfinite(res.fun) and res.n_nonfinite > 0
