"""Planar n-link inverse kinematics with joint limits: kinematics, gradients, exact solutions, bad input."""

import math

import numpy as np
import pytest
import torch

from icml26.flow_optimizer import FlowOptimizer
from icml26.flow_optimizer.baselines import adam_multistart, cma_es
from icml26.flow_optimizer.robotics import IKClass, IKInstances, forward_kinematics, two_link_ik

D = torch.float64


def test_forward_kinematics_hand_solved():
    lengths = torch.tensor([1.0, 0.5], dtype=D)
    cases = [
        ((0.0, 0.0), (1.5, 0.0)),  # stretched along x
        ((math.pi / 2, 0.0), (0.0, 1.5)),  # stretched along y
        ((0.0, math.pi / 2), (1.0, 0.5)),  # elbow bent up
        ((math.pi / 2, -math.pi / 2), (0.5, 1.0)),  # up, then right
        ((0.0, math.pi), (0.5, 0.0)),  # folded back
    ]
    for theta, p in cases:
        got = forward_kinematics(torch.tensor(theta, dtype=D), lengths)
        assert got.tolist() == pytest.approx(p, abs=1e-12)
    # 3 links of 1 at 90° each: (1,0) + (0,1) + (-1,0) after turning 0, 90, 180 degrees
    got = forward_kinematics(torch.tensor([0.0, math.pi / 2, math.pi / 2], dtype=D), torch.ones(3, dtype=D))
    assert got.tolist() == pytest.approx([0.0, 1.0], abs=1e-12)


def test_objective_is_squared_distance_and_batched():
    inst = IKInstances(
        torch.tensor([[1.0, 0.5], [2.0, 1.0]], dtype=D), torch.tensor([[0.0, 0.0], [3.0, 0.0]], dtype=D)
    )
    X = torch.zeros(2, 3, 2, dtype=D)
    assert inst(X).flatten().tolist() == pytest.approx([2.25] * 3 + [0.0] * 3)
    assert inst.distance(X).flatten().tolist() == pytest.approx([1.5] * 3 + [0.0] * 3)


def test_gradient_matches_autograd_and_finite_differences():
    cls = IKClass(7)
    inst = cls.sample(3, torch.Generator().manual_seed(0), dtype=D)
    X = (torch.rand(3, 4, 7, generator=torch.Generator().manual_seed(1), dtype=D) * 2 - 1) * cls.limit
    Xg = X.clone().requires_grad_(True)
    (auto,) = torch.autograd.grad(inst(Xg).sum(), Xg)
    closed = inst.gradient(X)
    assert torch.allclose(auto, closed, atol=1e-12)
    h = 1e-6
    fd = torch.zeros_like(X)
    for k in range(7):
        e = torch.zeros(7, dtype=D)
        e[k] = h
        fd[..., k] = (inst(X + e) - inst(X - e)) / (2 * h)
    assert torch.allclose(fd, closed, atol=1e-8)


def test_two_link_analytic_solution_has_zero_cost():
    l1, l2 = 0.7, 0.4
    inst = IKInstances(torch.tensor([[l1, l2]], dtype=D), torch.tensor([[0.6, 0.5]], dtype=D))
    for elbow in (1, -1):
        theta = two_link_ik(l1, l2, (0.6, 0.5), elbow)
        assert float(inst(torch.tensor([[theta]], dtype=D))) == pytest.approx(0.0, abs=1e-24)
    with pytest.raises(ValueError, match="unreachable"):
        two_link_ik(l1, l2, (1.2, 0.0))
    # random instances of the class: targets reachable within the joint limits -> the minimum is 0;
    # the analytic solution reaches it (with limit = pi every joint angle in (-pi, pi] is allowed)
    cls = IKClass(2, limit=math.pi)
    inst = cls.sample(5, torch.Generator().manual_seed(3), dtype=D)
    for b in range(5):
        l1, l2 = inst.lengths[b].tolist()
        theta = two_link_ik(l1, l2, tuple(inst.target[b].tolist()))
        assert all(abs(t) <= cls.limit + 1e-12 for t in theta)
        assert float(inst.subset(torch.tensor([b]))(torch.tensor([[theta]], dtype=D))) < 1e-20


def test_instances_scale_and_reachability():
    cls = IKClass(100)
    inst = cls.sample(4, torch.Generator().manual_seed(0), dtype=D)
    assert torch.allclose(inst.lengths.sum(-1), torch.ones(4, dtype=D))  # total reach 1 at any n
    assert bool((inst.target.norm(dim=-1) <= 1.0).all())
    assert cls.with_dim(10).dim == 10 and cls.bounds == [(-math.pi / 2, math.pi / 2)] * 100
    a = cls.sample(2, torch.Generator().manual_seed(5))
    b = cls.sample(2, torch.Generator().manual_seed(5))
    assert torch.equal(a.target, b.target) and torch.equal(a.lengths, b.lengths)


def test_joint_limits_respected_by_returned_solutions():
    cls = IKClass(10, limit=0.3)  # tight limits: unconstrained solutions would leave the box
    f = cls.sample(1, torch.Generator().manual_seed(0)).single(0)
    lo, hi = cls.lower, cls.upper
    opt = FlowOptimizer.pretrained("ik-10")
    results = [
        opt.minimize(f, cls.bounds, budget=640, seed=0),
        adam_multistart(f, cls.bounds, 640, 0),
        cma_es(f, cls.bounds, 640, 0),
    ]
    for res in results:
        assert np.all(res.x >= lo - 1e-6) and np.all(res.x <= hi + 1e-6)
        assert res.nfev <= 640


def test_pretrained_ik_runs_zero_shot_at_100_links():
    cls = IKClass(100)
    f = cls.sample(1, torch.Generator().manual_seed(0)).single(0)
    opt = FlowOptimizer.pretrained("ik-10")
    assert opt.trained_on_ == "ik-10"
    res = opt.minimize(f, cls.bounds, budget=640, seed=0)
    start = float(f(torch.zeros(1, 100)))  # the stretched arm, for scale
    assert res.x.shape == (100,) and math.isfinite(res.fun) and res.fun < start


def test_bad_input_raises_clear_errors():
    with pytest.raises(ValueError, match="links"):
        IKClass(0)
    with pytest.raises(ValueError, match="links"):
        IKClass(-3)
    with pytest.raises(ValueError, match="joint limit"):
        IKClass(5, limit=0.0)
    with pytest.raises(ValueError, match="link lengths need"):
        IKClass(5, length_low=-1.0)
    with pytest.raises(ValueError, match="positive"):
        IKInstances(torch.tensor([[1.0, 0.0]]), torch.zeros(1, 2))
    with pytest.raises(ValueError, match="positive"):
        forward_kinematics(torch.zeros(2), torch.tensor([1.0, -0.5]))
    with pytest.raises(ValueError, match="lengths must have shape"):
        IKInstances(torch.ones(3), torch.zeros(1, 2))
    with pytest.raises(ValueError, match="target must have shape"):
        IKInstances(torch.ones(2, 3), torch.zeros(2, 3))
    with pytest.raises(ValueError, match="one per link"):
        forward_kinematics(torch.zeros(4), torch.ones(3))
    inst = IKClass(4).sample(2, torch.Generator())
    with pytest.raises(ValueError, match="population must have shape"):
        inst(torch.zeros(2, 5, 3))
    with pytest.raises(ValueError, match="population must have shape"):
        inst(torch.zeros(5, 4))
    with pytest.raises(ValueError, match="number of instances"):
        IKClass(4).sample(0, torch.Generator())
    with pytest.raises(ValueError, match="unreachable"):
        two_link_ik(1.0, 1.0, (0.0, 3.0))
    with pytest.raises(ValueError, match="positive"):
        two_link_ik(0.0, 1.0, (0.5, 0.0))
