"""Exact-score targets, schedules, and the dimension-free Hessian bound behind the window rule."""

import math

import numpy as np
import pytest
import torch

from icml26.collocation_sampler import (
    OU,
    GaussianMixture,
    VPSchedule,
    lipschitz_bound,
    perturbed_score,
    score_from_denoiser,
    score_from_epsilon,
    theorem_windows,
)

SCHEDULES = [OU, VPSchedule(0.1, 20.0)]


def _autograd_score(gm, x, t, schedule):
    x = x.clone().requires_grad_(True)
    return torch.autograd.grad(gm.log_prob(x, t, schedule).sum(), x)[0]


@pytest.mark.parametrize("schedule", SCHEDULES)
@pytest.mark.parametrize("dim", [1, 3, 40])
def test_isotropic_score_matches_autograd(schedule, dim):
    gm = GaussianMixture.bounded_plus_noise(5, dim, 3.0, 0.3, seed=dim)
    x = gm.sample(64, t=0.05, schedule=schedule, seed=1)
    t = torch.linspace(0.0, 0.9, 64, dtype=torch.float64)
    np.testing.assert_allclose(
        gm.score(x, t, schedule), _autograd_score(gm, x, t, schedule), rtol=1e-9, atol=1e-9
    )


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_general_covariance_score_matches_autograd(schedule):
    rng = np.random.default_rng(0)
    b = rng.standard_normal((3, 4, 4))
    covs = b @ b.transpose(0, 2, 1) / 4 + 0.05 * np.eye(4)
    gm = GaussianMixture(rng.standard_normal((3, 4)), weights=[0.2, 0.3, 0.5], covs=covs)
    x = torch.as_tensor(rng.standard_normal((32, 4)))
    t = torch.linspace(0.0, 0.8, 32, dtype=torch.float64)
    np.testing.assert_allclose(
        gm.score(x, t, schedule), _autograd_score(gm, x, t, schedule), rtol=1e-9, atol=1e-10
    )


def test_log_prob_of_single_gaussian_is_exact():
    gm = GaussianMixture([[1.0, 2.0]], sigma=0.5)
    x, t = torch.tensor([[0.0, 0.0]], dtype=torch.float64), torch.tensor([0.3], dtype=torch.float64)
    m, v = math.exp(-0.3), -math.expm1(-0.6)
    s2 = m * m * 0.25 + v
    expected = -0.5 * (m * m * 5.0 / s2 + 2 * math.log(2 * math.pi * s2))
    assert float(gm.log_prob(x, t)) == pytest.approx(expected, abs=1e-14)


def test_samples_have_the_marginal_moments():
    # q_t of a 2-component mixture: mean m(t) * sum w mu; 20000 draws, tolerance 5 standard errors
    gm = GaussianMixture([[2.0, 0.0], [-2.0, 1.0]], weights=[0.25, 0.75], sigma=0.5)
    t = 0.4
    x = gm.sample(20000, t=t, seed=7)
    m = math.exp(-t)
    mean = m * torch.tensor([-1.0, 0.75], dtype=torch.float64)
    se = x.std(0) / math.sqrt(20000)
    assert ((x.mean(0) - mean).abs() < 5 * se).all()


def test_schedule_inverse_and_ou_form():
    s = VPSchedule(0.1, 20.0)
    for t in (0.01, 0.3, 0.99):
        abar = float(s.mean_scale(torch.tensor(t, dtype=torch.float64))) ** 2
        assert s.time_of_alpha_bar(abar) == pytest.approx(t, rel=1e-12)
    assert OU.time_of_alpha_bar(math.exp(-2 * 1.7)) == pytest.approx(1.7, rel=1e-14)


def test_denoiser_and_epsilon_wrappers_reproduce_the_score():
    gm = GaussianMixture.bounded_plus_noise(3, 2, 2.0, 0.5, seed=0)
    x = gm.sample(10, t=0.5, seed=1)
    t = torch.full((10,), 0.5, dtype=torch.float64)
    m, v = OU.mean_scale(t)[:, None], OU.noise_var(t)[:, None]
    s = gm.score(x, t)
    denoiser = lambda y, tt: (y + v * s) / m  # noqa: E731  Tweedie inverted
    eps_model = lambda y, tt: -torch.sqrt(v) * s  # noqa: E731
    np.testing.assert_allclose(score_from_denoiser(denoiser)(x, t), s, atol=1e-12)
    np.testing.assert_allclose(score_from_epsilon(eps_model)(x, t), s, atol=1e-12)


def test_lipschitz_bound_dominates_the_true_hessian():
    # L(t) bounds ||grad^2 log q_t||_op under Assumption 1; check on random points by autograd Hessians
    gm = GaussianMixture.bounded_plus_noise(4, 3, 2.0, 0.3, seed=2)
    for t in (0.0, 0.02, 0.2, 1.0):
        x = gm.sample(20, t=t, seed=3)
        tt = torch.full((1,), t, dtype=torch.float64)

        def log_density(y, tt=tt):
            return gm.log_prob(y[None], tt)[0]

        hessians = [torch.autograd.functional.hessian(log_density, x[i]) for i in range(20)]
        worst = max(float(torch.linalg.matrix_norm(h, ord=2)) for h in hessians)
        assert worst <= lipschitz_bound(t, 2.0, 0.3) * (1 + 1e-9)


def test_theorem_windows_scale_like_r_over_sigma_squared():
    counts = [len(theorem_windows(6.0, 3.0, s)) - 1 for s in (0.6, 0.3, 0.15)]
    assert counts[0] < counts[1] < counts[2]
    assert counts[2] / counts[1] <= 4.0 * 1.1  # at most ~(R/sigma)^2 growth per doubling of R/sigma
    w = theorem_windows(6.0, 3.0, 0.3)
    assert w[0] == 6.0 and w[-1] == 0.0 and (np.diff(w) < 0).all()


def test_perturbed_score_has_size_delta_and_is_deterministic():
    gm = GaussianMixture.bounded_plus_noise(2, 3, 1.0, 0.5, seed=0)
    x = gm.sample(50, t=0.2, seed=0)
    t = torch.full((50,), 0.2, dtype=torch.float64)
    f = perturbed_score(gm.score_fn(), 1e-3, 3, seed=4)
    diff = f(x, t) - gm.score(x, t)
    assert float(diff.abs().max()) <= 1e-3 and float(diff.abs().mean()) > 1e-5
    np.testing.assert_array_equal(f(x, t), f(x, t))


def test_bad_target_inputs():
    with pytest.raises(ValueError, match="exactly one of sigma"):
        GaussianMixture([[0.0, 0.0]])
    with pytest.raises(ValueError, match="sigma must be a finite positive"):
        GaussianMixture([[0.0]], sigma=-1.0)
    with pytest.raises(ValueError, match="weights must be 2 positive"):
        GaussianMixture([[0.0], [1.0]], weights=[1.0, -1.0], sigma=1.0)
    with pytest.raises(ValueError, match="positive definite"):
        GaussianMixture([[0.0, 0.0]], covs=[[[1.0, 0.0], [0.0, -1.0]]])
    with pytest.raises(ValueError, match="means must be finite"):
        GaussianMixture([[math.nan]], sigma=1.0)
    gm = GaussianMixture([[0.0, 0.0]], sigma=1.0)
    with pytest.raises(ValueError, match=r"x must have shape \(m, 2\)"):
        gm.score(torch.zeros(3, 4, dtype=torch.float64), torch.zeros(3, dtype=torch.float64))
    with pytest.raises(ValueError, match="VPSchedule.beta_min must be"):
        VPSchedule(0.0, 1.0)
    with pytest.raises(ValueError, match="alpha_bar must lie"):
        OU.time_of_alpha_bar(0.0)
    with pytest.raises(TypeError, match="denoiser must be callable"):
        score_from_denoiser(3)
