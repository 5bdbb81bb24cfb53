"""The FlowOptimizer estimator: bad input, NaN handling, zero velocity, save/load, pretrained behaviour."""

import numpy as np
import pytest
import torch

from icml26.flow_optimizer import FlowOptimizer, ProblemClass, parse_bounds


def sphere(X):
    return (X**2).sum(-1)


@pytest.fixture(scope="module")
def tiny():
    """A briefly trained model (a few stage-1 and stage-2 iterations) at d=3."""
    opt = FlowOptimizer(hidden=8, population=8, steps=4, n_candidates=4)
    return opt.fit(ProblemClass("rastrigin", 3), stage1_iterations=3, stage2_iterations=1, seed=0)


@pytest.fixture(scope="module")
def pretrained():
    return FlowOptimizer.pretrained("rastrigin-10")


def test_minimize_returns_best_history_and_respects_budget(tiny):
    res = tiny.minimize(sphere, [(-1.0, 2.0)] * 3, budget=50, seed=0)
    assert res.nfev == 48 and len(res.history) == 6  # 50 // 8 = 6 iterations of 8
    best = [h[1] for h in res.history]
    assert all(a >= b for a, b in zip(best, best[1:]))
    assert res.fun == best[-1] == pytest.approx(float(sphere(torch.tensor(res.x))), rel=1e-5)
    assert ((res.x >= -1) & (res.x <= 2)).all()


def test_seeds_make_runs_repeatable(tiny):
    a = tiny.minimize(sphere, [(-1.0, 1.0)] * 3, budget=40, seed=5)
    b = tiny.minimize(sphere, [(-1.0, 1.0)] * 3, budget=40, seed=5)
    assert a.fun == b.fun and np.array_equal(a.x, b.x)


def test_zero_velocity_keeps_the_start_population(tiny):
    res = tiny.minimize(sphere, [(-1.0, 1.0)] * 3, budget=40, seed=2, zero_velocity=True)
    gen = torch.Generator().manual_seed(2)
    X0 = -1 + 2 * torch.rand(8, 3, generator=gen)
    assert res.fun == pytest.approx(float(sphere(X0).min()), rel=1e-6)
    assert len({h[1] for h in res.history}) == 1


def test_nan_values_are_ranked_worst_and_reported(tiny):
    def holes(X):
        f = sphere(X)
        return torch.where(X[:, 0] > 0, torch.full_like(f, float("nan")), f)

    with pytest.warns(RuntimeWarning, match="NaN/inf and were ranked worst"):
        res = tiny.minimize(holes, [(-1.0, 1.0)] * 3, budget=40, seed=0)
    assert np.isfinite(res.fun) and res.n_nonfinite > 0 and res.x[0] <= 0
    with pytest.raises(ValueError, match="non-finite values"):
        tiny.minimize(holes, [(-1.0, 1.0)] * 3, budget=40, seed=0, nonfinite="raise")
    with pytest.raises(ValueError, match="no finite value"):
        tiny.minimize(lambda X: sphere(X) * float("nan"), [(-1.0, 1.0)] * 3, budget=16)


def test_bad_input_messages(tiny):
    b = [(-1.0, 1.0)] * 3
    with pytest.raises(ValueError, match="non-empty sequence of"):
        tiny.minimize(sphere, [], budget=40)
    with pytest.raises(ValueError, match="lower < upper"):
        tiny.minimize(sphere, [(1.0, 1.0)] * 3, budget=40)
    with pytest.raises(ValueError, match="bounds must be finite"):
        tiny.minimize(sphere, [(-np.inf, 1.0)] * 3, budget=40)
    with pytest.raises(ValueError, match=r"budget \(5\) must be at least the population size \(8\)"):
        tiny.minimize(sphere, b, budget=5)
    with pytest.raises(ValueError, match=r"values of shape \(8,\)"):
        tiny.minimize(lambda X: X, b, budget=40)
    with pytest.raises(TypeError, match="must return a torch tensor"):
        tiny.minimize(lambda X: X.sum(-1).detach().numpy(), b, budget=40)
    with pytest.raises(ValueError, match="must be differentiable"):
        tiny.minimize(lambda X: sphere(X).detach(), b, budget=40)
    with pytest.raises(TypeError, match="f must be callable"):
        tiny.minimize(3.0, b, budget=40)
    with pytest.raises(ValueError, match="not fitted"):
        FlowOptimizer().minimize(sphere, b)
    with pytest.raises(ValueError, match="unknown sampler"):
        FlowOptimizer(sampler="cem")
    with pytest.raises(ValueError, match="unknown pretrained model"):
        FlowOptimizer.pretrained("sphere-10")
    with pytest.raises(TypeError, match="must be a ProblemClass"):
        FlowOptimizer().fit("rastrigin")
    with pytest.raises(ValueError, match="step_weights must be one of"):
        FlowOptimizer().fit_stage2(ProblemClass("rastrigin", 3), 1, step_weights="uniform")


def test_parse_bounds_forms():
    lo, hi = parse_bounds((np.zeros(3), np.ones(3)))
    assert lo.tolist() == [0, 0, 0] and hi.tolist() == [1, 1, 1]
    lo, hi = parse_bounds([(0, 1), (2, 3)])
    assert lo.tolist() == [0, 2] and hi.tolist() == [1, 3]


def test_save_load_round_trip(tiny, tmp_path):
    tiny.save(tmp_path / "m.pt")
    again = FlowOptimizer.load(tmp_path / "m.pt")
    assert again.get_params() == tiny.get_params()
    a = tiny.minimize(sphere, [(-1.0, 1.0)] * 3, budget=40, seed=1)
    b = again.minimize(sphere, [(-1.0, 1.0)] * 3, budget=40, seed=1)
    assert a.fun == b.fun
    with pytest.raises(ValueError, match="no saved FlowOptimizer"):
        FlowOptimizer.load(tmp_path / "missing.pt")


@pytest.mark.parametrize("d", [3, 10, 100])
def test_pretrained_weights_run_at_any_dimension(pretrained, d):
    res = pretrained.minimize(sphere, [(-5.12, 5.12)] * d, budget=640, seed=0)
    assert res.x.shape == (d,) and res.fun < res.history[0][1]  # it improves on the start population


def test_pretrained_beats_random_search_on_unseen_rastrigin(pretrained):
    """Statistical check, fixed seeds: 4 unseen instances, 1,280 evaluations, medians; ours must be < 0.7x."""
    problem = ProblemClass("rastrigin", 10)
    inst = problem.sample(4, torch.Generator().manual_seed(777))
    ours, rand = [], []
    for i in range(4):
        f = inst.single(i)
        ours.append(pretrained.minimize(f, [problem.bounds] * 10, budget=1280, seed=i).fun)
        X = -5.12 + 10.24 * torch.rand(1280, 10, generator=torch.Generator().manual_seed(i))
        rand.append(float(f(X).min()))
    assert np.median(ours) < 0.7 * np.median(rand)
