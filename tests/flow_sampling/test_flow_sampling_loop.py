"""The training loop's accounting, energies, metrics, baselines and likelihoods."""

from __future__ import annotations

import math

import pytest
import torch

from icml26.flow_sampling import (
    AdjointSampler,
    DoubleWellEnergy,
    FlowSampler,
    GaussianEnergy,
    LennardJonesEnergy,
    Sphere,
    make_target,
    mala,
    pt_mala,
)
from icml26.flow_sampling import metrics as M
from icml26.flow_sampling.energies import CallableEnergy, vmf_mixture_s2


def small(energy, **kw):
    args = {
        "samples_per_refresh": 100,
        "steps_per_refresh": 10,
        "batch_size": 100,
        "hidden": 16,
        "n_steps": 10,
    }
    return FlowSampler(energy, **{**args, **kw})


def test_energy_calls_are_refreshes_times_samples_and_each_gradient_serves_many_terms():
    energy = make_target("gauss2d")
    fs = small(energy).fit(1050)
    assert fs.refreshes_ == 10
    assert fs.energy_calls_ == fs.refreshes_ * fs.samples_per_refresh == 1000
    assert energy.calls == 1000  # the probe is not an energy-gradient call
    assert fs.loss_terms_per_gradient_ == pytest.approx(10 * 100 / 100)
    assert len(fs.buffer_) == min(1000, fs.buffer_size)


def test_clipped_and_non_finite_gradients_are_counted_never_buffered():
    steep = CallableEnergy(lambda x: 1e4 * (x**2).sum(-1), 2)  # |grad E| = 2e4 |x|
    fs = small(steep, grad_clip=50.0).fit(200)
    assert fs.n_clipped_ > 150
    assert fs.buffer_.g.norm(dim=-1).max() <= 50.0 + 1e-9

    class Patchy(GaussianEnergy):  # the gradient is NaN wherever x_0 > 0.5
        def energy_and_grad(self, x):
            e, g = super().energy_and_grad(x)
            g[x[:, 0] > 0.5] = float("nan")
            return e, g

    fs = small(Patchy(torch.zeros(2), torch.eye(2))).fit(200)
    assert fs.n_nonfinite_ > 0 and fs.energy_calls_ == 200
    assert torch.isfinite(fs.buffer_.g).all() and torch.isfinite(fs.buffer_.x).all()
    assert len(fs.buffer_) == 200 - fs.n_nonfinite_


def test_double_well_and_lennard_jones_follow_the_standard_definitions():
    dw = DoubleWellEnergy()
    square = torch.tensor([[0.0, 0.0, 4.0, 0.0, 4.0, 4.0, 0.0, 4.0]], dtype=torch.float64)
    r = 4 * math.sqrt(2) - 4
    assert float(dw.energy(square)) == pytest.approx(2 * (0.9 * r**4 - 4 * r**2))
    lj = LennardJonesEnergy(n_particles=2, spatial=3)
    pair = torch.tensor([[0.0, 0.0, 0.0, 1.0, 0.0, 0.0]], dtype=torch.float64)
    # ordered pairs: 2 * (1 - 2) = -2, harmonic 0.5 * (0.5^2 + 0.5^2) = 0.25
    assert float(lj.energy(pair)) == pytest.approx(-2.0 + 0.25)
    lj13 = LennardJonesEnergy()
    x = torch.randn(3, 39, dtype=torch.float64, generator=torch.Generator().manual_seed(0))
    _, g = lj13.energy_and_grad(x)
    # translation-invariant: mean-free gradient, to rounding relative to the largest component (random
    # points put pairs close together, where gradients reach 1e13: an absolute 1e-8 was order-dependent)
    assert g.reshape(3, 13, 3).sum(1).abs().max() < 1e-12 * g.abs().max()


def test_vmf_mixture_is_normalised_on_the_sphere():
    e = vmf_mixture_s2()
    x = Sphere(2).uniform(400_000, generator=torch.Generator().manual_seed(0))
    z = float(torch.exp(-e.energy(x)).mean()) * 4 * math.pi
    assert z == pytest.approx(1.0, abs=0.02)
    s = e.sample(4000, torch.Generator().manual_seed(1))
    w, off = M.mode_weights(e.responsibilities(s))
    assert abs(w - e.weights.numpy()).max() < 0.03 and off < 0.01


def test_metrics_on_exact_small_cases():
    x = torch.randn(50, 2, dtype=torch.float64, generator=torch.Generator().manual_seed(0))
    assert M.w2(x, x + torch.tensor([3.0, 4.0], dtype=torch.float64)) == pytest.approx(5.0)
    assert M.energy_w2(torch.arange(5.0), torch.arange(5.0) + 2) == pytest.approx(2.0)
    dw = torch.randn(6, 8, dtype=torch.float64, generator=torch.Generator().manual_seed(1))
    rot = torch.tensor([[0.6, -0.8], [0.8, 0.6]], dtype=torch.float64)
    moved = (dw.reshape(6, 4, 2)[:, [2, 0, 3, 1]] @ rot.T + 1.5).reshape(6, 8)
    assert M.geometric_w2(dw, moved, 4, 2) < 1e-6
    assert M.geometric_w2(dw, dw * 1.5, 4, 2) > 0.1
    s = Sphere(2).uniform(100, generator=torch.Generator().manual_seed(2))
    assert M.mmd2_geodesic(s, s) == pytest.approx(0.0, abs=1e-12)
    resp = torch.tensor(
        [[0.9, 0.05, 0.05], [0.2, 0.7, 0.1], [0.4, 0.35, 0.25], [0.1, 0.1, 0.8]], dtype=torch.float64
    )
    w, off = M.mode_weights(resp)  # the third point (max 0.4 < 0.5) is off-mode
    assert w.tolist() == [0.25, 0.25, 0.25] and off == 0.25
    assert M.mode_weight_tv(resp, [0.5, 0.25, 0.25]) == pytest.approx(0.25)
    assert M.distance_tv(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 5.0]), bins=8) == pytest.approx(0.5)


def test_mcmc_baselines_spend_exactly_their_budget_and_sample_the_gaussian():
    energy = GaussianEnergy(torch.zeros(2), torch.diag(torch.tensor([1.0, 4.0])))
    init = torch.randn(100, 2, dtype=torch.float64, generator=torch.Generator().manual_seed(0))
    x, acc = mala(energy, init, 20_000, 2000, step=0.3)
    assert energy.calls == 20_000 and 0.3 < acc < 0.9
    assert torch.allclose(torch.cov(x.T).diagonal(), torch.tensor([1.0, 4.0], dtype=torch.float64), rtol=0.25)
    energy.calls = 0
    x = pt_mala(energy, init[:25], 20_000, 2000, n_temps=4, step=0.3)
    assert energy.calls == 20_000
    assert torch.allclose(torch.cov(x.T).diagonal(), torch.tensor([1.0, 4.0], dtype=torch.float64), rtol=0.3)


def test_adjoint_sampler_counts_one_call_per_buffered_sample():
    energy = make_target("gauss2d")
    a = AdjointSampler(
        energy, samples_per_refresh=100, steps_per_refresh=5, batch_size=50, hidden=16, n_steps=10
    )
    a.fit(300)
    assert a.energy_calls == energy.calls == 300
    assert a.nu(0.0) == 0.0 and a.nu(1.0) > a.nu(0.5) > 0


def test_log_prob_of_a_linear_flow_matches_the_change_of_variables():
    energy = GaussianEnergy(torch.zeros(2), torch.eye(2))
    fs = small(energy, n_steps=400).fit(100)
    a = torch.tensor([[0.3, 0.1], [0.0, -0.2]])

    class Linear(torch.nn.Module):
        def forward(self, t, x):
            return x @ a.T, torch.zeros_like(x)

    fs.model_ = Linear()
    x = torch.randn(20, 2, dtype=torch.float64, generator=torch.Generator().manual_seed(0))
    x0 = x @ torch.linalg.matrix_exp(-a.double()).T
    expected = fs.source.log_prob(x0) - float(a.trace())
    assert torch.allclose(fs.log_prob(x), expected, atol=5e-3)
    xs, lq = fs.sample_with_log_prob(10)
    assert torch.allclose(fs.log_prob(xs), lq, atol=5e-3)
