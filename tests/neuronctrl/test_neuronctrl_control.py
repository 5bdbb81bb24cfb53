"""The learned parts and the controller: interface, flow matching, operator, observer, weights."""

import dataclasses
import inspect

import numpy as np
import pytest
import torch

from icml26.neuronctrl.controller import (
    History,
    NeuronCtrl,
    RigCache,
    build_modules,
    load_models,
    pad_history,
    save_models,
)
from icml26.neuronctrl.env import AGGRESSIVE, Rig, make_env
from icml26.neuronctrl.generator import FlowGenerator, project_actions
from icml26.neuronctrl.morphology import chain_morphology
from icml26.neuronctrl.observer import laplacian_interpolation
from icml26.neuronctrl.operator import NeuralOperator, conformal_margin, operator_loss

CFG = {"hidden": 8, "layers": 2, "gen_hidden": 16, "chunk": 2}


def _ctrl(seed=0, safety="qp"):
    torch.manual_seed(seed)
    mods = build_modules(CFG, 6)
    return NeuronCtrl(mods["observer"], mods["operator"], mods["generator"], safety, k_samples=4, ode_steps=2,
                      margin=0.0, seed=seed), mods  # fmt: skip


def _history(env, steps=3):
    y, _ = env.reset(seed=0)
    ys, us = [y], []
    for _ in range(steps):
        u = np.full(env.plant.m, -0.2)
        y = env.step(u)[0]
        ys.append(y)
        us.append(u)
    return pad_history(ys, us, env.rig)


def test_the_controller_sees_only_sensors_past_actions_and_the_rig():
    assert list(inspect.signature(NeuronCtrl.act).parameters) == ["self", "history", "preference"]
    assert [f.name for f in dataclasses.fields(History)] == ["rig", "sensors", "actions"]
    rig_fields = {f.name for f in dataclasses.fields(Rig)}
    assert not rig_fields & {"B", "sim", "spec", "L", "plant", "field", "reaction", "diffusion"}
    env = make_env("ecs_rd", 3)
    hist = _history(env)
    u1, info = _ctrl()[0].act(hist, AGGRESSIVE)
    # the plant's internals changed behind the controller's back: the same history gives the same action
    env.plant.B *= 3.0
    env.plant.sim = None
    u2, _ = _ctrl()[0].act(hist, AGGRESSIVE)
    assert np.array_equal(u1, u2) and u1.shape == (6,)
    assert (
        np.all(u1 <= 1e-9) and np.all(u1 >= -1 - 1e-9) and np.abs(u1 - hist.actions[-1]).max() <= 0.5 + 1e-6
    )
    with pytest.raises(ValueError, match="act takes a History"):
        _ctrl()[0].act(env, AGGRESSIVE)


def test_bad_preferences_and_histories_are_rejected():
    env = make_env("ecs_rd", 3)
    hist = _history(env)
    ctrl = _ctrl()[0]
    with pytest.raises(ValueError, match="preference must be 3 non-negative weights summing to 1"):
        ctrl.act(hist, (0.5, 0.6, 0.1))
    with pytest.raises(ValueError, match="preference"):
        ctrl.act(hist, (1.2, -0.2, 0.0))
    with pytest.raises(ValueError, match="history needs sensors"):
        History(env.rig, np.zeros((4, 3)), np.zeros((4, 6)))
    with pytest.raises(ValueError, match="safety must be one of"):
        _ctrl(safety="cbf")
    with pytest.raises(ValueError, match="distill needs"):
        ctrl.distill()


def test_pad_history_orders_readings_and_the_actions_before_them():
    env = make_env("ecs_rd", 2)
    ys = [np.full(env.rig.sensors.size, float(k)) for k in range(6)]
    us = [np.full(6, -0.1 * (k + 1)) for k in range(5)]
    h = pad_history(ys, us, env.rig, 4)
    assert np.array_equal(h.sensors[:, 0], [2, 3, 4, 5])
    assert np.allclose(h.actions[:, 0], [-0.2, -0.3, -0.4, -0.5])  # u_{k-1} led to reading k
    h0 = pad_history(ys[:1], [], env.rig, 4)
    assert np.array_equal(h0.sensors[:, 0], [0, 0, 0, 0]) and not h0.actions.any()


class _Straight(FlowGenerator):
    """The exact rectified-flow velocity towards a point mass at ``target``: (target - a) / (1 - tau)."""

    def __init__(self, target):
        super().__init__(target.numel(), 1)
        self.target = target

    def forward(self, a, tau, c):
        return (self.target - a) / (1 - tau)


def test_flow_sampling_integrates_the_velocity_and_the_loss_targets_a1_minus_a0():
    target = torch.tensor([0.3, -0.7, 0.1])
    gen = _Straight(target)
    out = gen.sample(torch.zeros(2, 1), 5, 4)
    assert out.shape == (2, 5, 3) and torch.allclose(out, target.expand(2, 5, 3), atol=1e-5)
    torch.manual_seed(0)
    assert float(gen.loss(target.expand(64, 3), torch.zeros(64, 1))) < 1e-10


def test_project_actions_is_feasible_and_leaves_feasible_sequences_alone():
    env = make_env("ecs_rd", 2)
    rig = env.rig
    rng = np.random.default_rng(0)
    us = rng.uniform(-2, 1, (20, 3, 6))
    out = project_actions(us, np.zeros(6), rig)
    prev = np.zeros((20, 6))
    for k in range(3):
        assert np.all(out[:, k] >= -1 - 1e-12) and np.all(out[:, k] <= 1e-12)
        assert np.all(np.abs(out[:, k] - prev) <= rig.rate + 1e-12)
        assert np.all(np.abs(out[:, k]).sum(1) <= rig.budget + 1e-9)
        prev = out[:, k]
    ok = np.full((1, 2, 6), -0.3)
    assert np.array_equal(project_actions(ok, np.full(6, -0.2), rig), ok)


def test_conformal_margin_is_the_finite_sample_quantile():
    r = np.arange(1, 100, dtype=float)  # 99 residuals
    assert conformal_margin(r, 0.1) == 90.0  # ceil(100 * 0.9) = 90th smallest
    assert conformal_margin(-r, 0.5) == 50.0
    with pytest.raises(ValueError):
        conformal_margin(r, 1.5)


def test_operator_jacobian_matches_autograd_and_loss_matches_its_definition():
    env = make_env("ecs_rd", 4)
    g = RigCache(env.rig).g
    torch.manual_seed(1)
    op = NeuralOperator(8, 2)
    x, u = 0.1 * torch.randn(env.plant.n), -0.4 * torch.ones(6)
    f, jac = op.jacobian(x, u, g)
    ref = torch.autograd.functional.jacobian(lambda v: op(x[None], v[None], g)[0], u)
    assert torch.allclose(f, op(x[None], u[None], g)[0], atol=1e-6)
    assert torch.allclose(jac, ref, atol=1e-2 * float(ref.abs().max()))
    # a zero read-out makes the operator the identity (persistence): the loss is then known
    for p in op.read[-1].parameters():
        p.data.zero_()
    xs, us = torch.randn(3, 4, env.plant.n), torch.randn(3, 3, 6)
    want = torch.mean((xs[:, 0] - xs[:, 1]) ** 2) + torch.mean((xs[:, :1] - xs[:, 1:]) ** 2)
    assert torch.allclose(operator_loss(op, xs, us, g), want)


def test_laplacian_interpolation_is_linear_between_sensors_on_a_cable():
    m = chain_morphology(11)
    z = laplacian_interpolation(m.laplacian(), np.array([0, 10]), np.array([1.0, 3.0]))
    assert np.allclose(z, np.linspace(1, 3, 11))


def test_weights_load_only_with_the_config_they_were_trained_with(tmp_path):
    ctrl, mods = _ctrl()
    path = tmp_path / "w.pt"
    save_models(path, CFG, mods, {"m": 6, "margin": 0.1})
    cfg, loaded, extra = load_models(path, CFG)
    assert cfg == CFG and extra["margin"] == 0.1
    x = torch.zeros(1, 20)
    assert torch.equal(loaded["generator"].net(torch.zeros(1, 12 + 1 + 23)), mods["generator"].net(
        torch.zeros(1, 12 + 1 + 23)))  # fmt: skip
    with pytest.raises(ValueError, match="another config"):
        load_models(path, {**CFG, "hidden": 9})
    with pytest.raises(ValueError, match="no weights"):
        load_models(tmp_path / "missing.pt")
    assert x.shape == (1, 20)


def test_distilled_controller_keeps_the_same_filter_and_acts():
    ctrl, mods = _ctrl()
    dist = ctrl.distill(mods["policy"])
    assert dist.safety == ctrl.safety and dist.margin == ctrl.margin and dist.policy is mods["policy"]
    env = make_env("ecs_rd", 5)
    u, info = dist.act(_history(env), AGGRESSIVE)
    assert u.shape == (6,) and info["latency"] > 0 and info["field"].shape == (env.plant.n,)


def test_observer_with_a_zero_correction_is_the_harmonic_interpolation_of_the_last_readings():
    from icml26.neuronctrl.observer import Observer

    env = make_env("ecs_rd", 8)
    hist = _history(env)
    cache = RigCache(env.rig)
    obs = Observer(8, 2)
    for p in obs.read[-1].parameters():
        p.data.zero_()
    y = torch.as_tensor((hist.sensors - env.rig.rest) / env.rig.scale, dtype=torch.float32)[None]
    out = obs(y, torch.as_tensor(hist.actions, dtype=torch.float32)[None], cache.g)[0].detach().numpy()
    lap = env.rig.morphology.laplacian()
    want = laplacian_interpolation(lap, env.rig.sensors, y[0, -1].numpy().astype(float))
    assert np.allclose(out, want, atol=1e-5)
