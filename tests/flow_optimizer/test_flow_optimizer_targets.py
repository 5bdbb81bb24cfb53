"""Stage-1 targets never increase f; the OT pairing is an optimal assignment; the losses behave."""

import itertools

import numpy as np
import pytest
import torch

from icml26.flow_optimizer import ProblemClass, global_targets, sample_targets, unfolded_loss

D = torch.float64


def _setup(name="rastrigin", d=4, B=6, N=8, seed=0):
    problem = ProblemClass(name, d)
    gen = torch.Generator().manual_seed(seed)
    inst = problem.sample(B, gen, dtype=D)
    lo, hi = problem.bounds
    lower, upper = torch.full((d,), lo, dtype=D), torch.full((d,), hi, dtype=D)
    X0 = lower + (upper - lower) * torch.rand(B, N, d, generator=gen, dtype=D)
    return inst, X0, inst(X0), lower, upper, gen


@pytest.mark.parametrize("sampler", ["best", "boltzmann", "global", "mixed"])
@pytest.mark.parametrize("name", ["rastrigin", "ackley", "rosenbrock"])
def test_targets_never_increase_f(sampler, name):
    inst, X0, f0, lower, upper, gen = _setup(name)
    X1, f1 = sample_targets(inst, X0, f0, lower, upper, gen, sampler, n_candidates=8)
    torch.testing.assert_close(inst(X1), f1)  # reported values are the true values
    assert (f1 <= f0).all()
    assert ((lower <= X1) & (upper >= X1)).all()
    assert (f1 < f0).float().mean() > 0.3  # most members find an improvement with 8 candidates


def test_global_targets_pairing_is_an_optimal_assignment():
    inst, X0, f0, lower, upper, gen = _setup(B=1, N=5)
    X1, f1 = global_targets(inst, X0, f0, lower, upper, 16, gen)
    s = X0.std(1, unbiased=False)[0]
    moved = f1[0] < f0[0]
    if moved.sum() < 2:
        pytest.skip("too few members moved for a pairing check")
    src, tgt = X0[0][moved], X1[0][moved]
    cost = lambda p: float((((src - tgt[list(p)]) / s) ** 2).sum())  # noqa: E731
    best = min(cost(p) for p in itertools.permutations(range(len(src))))
    assert cost(range(len(src))) <= best + 1e-9


def test_unfolded_loss_small_case_by_hand():
    fs = [torch.tensor([[3.0, 1.0]]), torch.tensor([[0.0, 7.0]])]
    # weights 1/3, 2/3 on [mean_i log(1 + f) + min_i log(1 + f)] per step
    step1 = (np.log(4) + np.log(2)) / 2 + np.log(2)
    step2 = (np.log(1) + np.log(8)) / 2 + 0.0
    assert unfolded_loss(fs).item() == pytest.approx(step1 / 3 + 2 * step2 / 3, rel=1e-6)
    step1_min_only = 0.1 * (np.log(4) + np.log(2)) / 2 + np.log(2)
    step2_min_only = 0.1 * np.log(8) / 2
    assert unfolded_loss(fs, mean_weight=0.1).item() == pytest.approx(
        step1_min_only / 3 + 2 * step2_min_only / 3, rel=1e-6
    )
    # "final": only the last population counts
    assert unfolded_loss(fs, step_weights="final").item() == pytest.approx(step2, rel=1e-6)
    with pytest.raises(ValueError, match="step_weights must be one of"):
        unfolded_loss(fs, step_weights="uniform")


def test_bad_sampler_name():
    inst, X0, f0, lower, upper, gen = _setup()
    with pytest.raises(ValueError, match="unknown sampler 'annealing'"):
        sample_targets(inst, X0, f0, lower, upper, gen, "annealing")
    with pytest.raises(TypeError, match="'mixed' sampler needs an Instances objective"):
        sample_targets(lambda X: inst(X), X0, f0, lower, upper, gen, "mixed")
