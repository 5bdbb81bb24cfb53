"""Tests added by the outside review: each kills a plausible mutant that the first suite let through
(named in the test's comment), and covers the API added then (``sample(n, g)``, ``score``,
``set_params``, ``device``)."""

from __future__ import annotations

import math

import pytest
import torch

from icml26.flow_sampling import (
    EGNN,
    AdjointSampler,
    FlowSampler,
    GaussianEnergy,
    Lorentz,
    Sphere,
    VMFMixtureEnergy,
    WrappedNormalMixtureEnergy,
    geodesic_langevin,
    importance_weights,
    integrate,
    make_target,
)
from icml26.flow_sampling.experiment import _gauss10, calls_to_reach
from icml26.flow_sampling.objective import ReplayBuffer


def small(energy, **kw):
    args = {"samples_per_refresh": 100, "steps_per_refresh": 5, "batch_size": 64, "hidden": 16, "n_steps": 10}
    return FlowSampler(energy, **{**args, **kw})


def test_the_buffer_holds_grad_log_q_at_the_buffered_points():
    # mutant: the buffer stores +grad E (the sign of the conditional score) -- the first suite let it through
    energy = make_target("gauss2d")
    fs = small(energy).fit(300)
    _, g = energy.energy_and_grad(fs.buffer_.x)
    assert torch.allclose(fs.buffer_.g, -g, atol=1e-12)
    vmf = make_target("vmf_s2")
    fs = small(vmf).fit(200)
    _, g = vmf.energy_and_grad(fs.buffer_.x)
    assert torch.allclose(fs.buffer_.g, Sphere(2).proj(fs.buffer_.x, -g), atol=1e-12)  # Riemannian


def test_the_replay_buffer_is_first_in_first_out():
    # mutant: the buffer keeps the oldest entries once full
    buf = ReplayBuffer(5)
    for k in range(3):
        x = torch.full((3, 1), float(k))
        buf.push(x, -x)
    assert buf.x.ravel().tolist() == [1.0, 1.0, 2.0, 2.0, 2.0]
    assert torch.equal(buf.g, -buf.x)


def test_an_energy_whose_gradient_is_never_finite_at_the_samples_gets_a_clear_error():
    # it crashed inside torch.randint on the empty buffer
    class NaNGrad(GaussianEnergy):  # finite energies (the probe passes), NaN gradients at every sample
        def energy_and_grad(self, x):
            e, g = super().energy_and_grad(x)
            return e, torch.full_like(g, float("nan"))

    with pytest.raises(ValueError, match="non-finite: the buffer is empty"):
        small(NaNGrad(torch.zeros(2), torch.eye(2))).fit(200)


def test_adjoint_sampling_moves_towards_the_target():
    # mutant: the regression target +sigma grad g (the wrong sign) sends the samples away from the mode
    energy = GaussianEnergy(torch.tensor([2.0, -1.0]), 0.25 * torch.eye(2))
    a = AdjointSampler(
        energy, samples_per_refresh=200, steps_per_refresh=20, batch_size=128, hidden=32, n_steps=20, seed=0
    )
    x = a.fit(2000).sample(2000, seed=1)
    assert (x.mean(0) - energy.mean).norm() < 0.6  # [2.28, -1.09] at this seed
    assert (x.std(0) < 1.5).all()


def test_geodesic_langevin_samples_a_von_mises_fisher_density():
    # mutant: the gradient step's sign (ascending the energy)
    kappa = 20.0
    vmf = VMFMixtureEnergy([[0.0, 0.6, 0.8]], kappa, [1.0])
    init = Sphere(2).uniform(100, generator=torch.Generator().manual_seed(0))
    x = geodesic_langevin(vmf, vmf.manifold, init, 20_000, 2000, step=0.01, seed=0)
    mean_resultant = 1 / math.tanh(kappa) - 1 / kappa  # E[<x, mu>] of a vMF on S^2
    assert (x.mean(0) - mean_resultant * vmf.mus[0]).norm() < 0.05


def test_egnn_is_equivariant_and_its_outputs_are_mean_free():
    # mutant: the mean-free projection of the two heads dropped
    torch.manual_seed(0)
    net = EGNN(4, 2, hidden=16, layers=2).double()
    for p in net.heads[-1].parameters():  # the zero-initialised last layer would make every check trivial
        torch.nn.init.normal_(p, std=0.5)
    x = torch.randn(3, 8, dtype=torch.float64)
    t = torch.tensor([0.1, 0.5, 0.9], dtype=torch.float64)
    v, h = net(t, x)
    assert v.abs().max() > 1e-3 and h.abs().max() > 1e-3
    for out in (v, h):
        assert out.reshape(3, 4, 2).sum(1).abs().max() < 1e-10
    rot = torch.tensor([[0.6, -0.8], [0.8, 0.6]], dtype=torch.float64)
    perm = [2, 0, 3, 1]
    moved = (x.reshape(3, 4, 2)[:, perm] @ rot.T + torch.tensor([1.5, -0.5], dtype=torch.float64)).reshape(
        3, 8
    )
    v2, h2 = net(t, moved)
    for a, b in ((v, v2), (h, h2)):
        assert torch.allclose((a.reshape(3, 4, 2)[:, perm] @ rot.T).reshape(3, 8), b, atol=1e-9)


def test_importance_weights_of_an_exact_model_give_log_z_and_full_ess():
    # mutant: log Z without the 1/n of the self-normalised estimate
    energy = GaussianEnergy(torch.zeros(3), torch.diag(torch.tensor([1.0, 2.0, 0.5])))
    x = energy.sample(500, torch.Generator().manual_seed(0))
    log_q = -energy.energy(x) - energy.log_z  # the exact normalised density
    out = importance_weights(energy, x, log_q)
    assert out["log_z"] == pytest.approx(energy.log_z, abs=1e-10)
    assert out["ess"] == pytest.approx(1.0, abs=1e-10)
    half = importance_weights(energy, x, log_q + torch.where(torch.arange(500) < 250, 0.0, math.log(3.0)))
    assert half["ess"] == pytest.approx((250 + 250 / 3) ** 2 / (500 * (250 + 250 / 9)), rel=1e-6)


def test_wrapped_normal_mixture_is_normalised_on_the_hyperbolic_plane():
    # mutant: the sign of the log-Jacobian (r / sinh r)^(n-1) of the wrapped normal
    m = Lorentz(2)
    o = m.origin()
    mu = m.exp(o[None], torch.tensor([[0.0, 0.8, -0.3]], dtype=torch.float64))
    e = WrappedNormalMixtureEnergy([mu[0].tolist(), o.tolist()], 0.5, [0.6, 0.4])
    r = torch.linspace(1e-4, 6.0, 1200, dtype=torch.float64)
    a = torch.linspace(0, 2 * math.pi, 241, dtype=torch.float64)[:-1]
    rr, aa = torch.meshgrid(r, a, indexing="ij")
    v = torch.stack([torch.zeros_like(rr), rr * torch.cos(aa), rr * torch.sin(aa)], -1).reshape(-1, 3)
    x = m.exp(o.expand(len(v), -1), v)
    dens = torch.exp(-e.energy(x)).reshape(rr.shape) * torch.sinh(rr)  # volume element sinh(r) dr dtheta
    z = float(dens.sum() * (r[1] - r[0]) * (a[1] - a[0]))
    assert z == pytest.approx(1.0, abs=5e-3)


def test_calls_to_reach_is_the_first_crossing_censored_at_the_cap():
    curve = [(500, 0.9), (1000, 0.6), (1500, 0.45), (2000, 0.7), (2500, 0.3)]
    assert calls_to_reach(curve, 0.5, 10_000) == 1500
    assert calls_to_reach(curve, 0.1, 10_000) == 10_000


# ---- the diffusion chosen at sampling time: sample(n, g) -------------------------------------------


@pytest.mark.parametrize("schedule", ["constant", "sqrt"])
def test_any_diffusion_schedule_with_the_closed_form_heads_reaches_the_gaussian_target(schedule):
    # the two heads let g be chosen at sampling time: every g_t keeps the marginals (here the exact heads)
    energy, field, gen = _gauss10(0)
    z = torch.randn(8000, 10, generator=gen, dtype=torch.float64)
    x0 = (z - z.mean(0)) @ torch.linalg.inv(torch.linalg.cholesky(torch.cov(z.T))).T  # whitened
    g = (lambda t: 0.7) if schedule == "constant" else (lambda t: 1.5 * math.sqrt(t * (1 - t)))
    x = integrate(field, x0, 0.0, 200, generator=gen, g=g)
    assert (x.mean(0) - energy.mean).norm() / energy.mean.norm() <= 0.05
    assert (torch.cov(x.T) - energy.cov).norm() / energy.cov.norm() <= 0.05


def test_sample_with_g_zero_is_the_ode_and_g_callable_matches_the_gamma_schedule():
    fs = small(make_target("gauss2d")).fit(200)
    assert torch.equal(fs.sample(50, 0, seed=3), fs.sample(50, gamma=0.0, seed=3))
    assert torch.equal(fs.sample(50, 0.0, seed=3), fs.sample(50, gamma=0, seed=3))
    a = fs.sample(50, lambda t: math.sqrt(2 * 1.5 * t * (1 - t)), seed=3)
    b = fs.sample(50, gamma=1.5, seed=3)
    assert torch.allclose(a, b, atol=1e-5)  # the same SDE written through g


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"g": -1.0}, "g must be"),
        ({"g": float("nan")}, "g must be"),
        ({"g": "big"}, "g must be"),
        ({"g": lambda t: -0.1}, "schedule g must return"),
        ({"g": 1.0, "gamma": 1.0}, "not both"),
        ({"gamma": -2.0}, "gamma must be"),
    ],
)
def test_a_bad_diffusion_at_sampling_time_is_rejected(kwargs, match):
    fs = small(make_target("gauss2d")).fit(100)
    with pytest.raises(ValueError, match=match):
        fs.sample(10, **kwargs)


def test_sklearn_idiom_get_set_params_score_and_device():
    energy = make_target("gauss2d")
    fs = small(energy)
    assert fs.get_params()["device"] == "cpu"
    fs.set_params(hidden=8, gamma=2.0)
    assert fs.hidden == 8 and fs.gamma == fs.gamma_train == 2.0
    with pytest.raises(ValueError, match="unknown parameter"):
        fs.set_params(width=3)
    with pytest.raises(ValueError, match="lr"):
        fs.set_params(lr=-1.0)
    fs.fit(100)
    x = energy.sample(20, torch.Generator().manual_seed(0))
    assert fs.score(x) == pytest.approx(float(fs.log_prob(x).mean()))
    with pytest.raises(ValueError, match="device"):
        FlowSampler(energy, device="tpu")
