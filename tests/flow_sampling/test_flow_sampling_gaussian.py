"""Gaussian correctness: (i) the regression recovers the closed-form marginal drift; (ii) the SDE and the
ODE with the closed-form drift reach the target and agree."""

from __future__ import annotations

import torch

from icml26.flow_sampling import integrate
from icml26.flow_sampling.experiment import _gauss10, objective_check
from icml26.flow_sampling.metrics import gaussian_w2


def test_marginal_endpoint_head_over_t_is_the_gaussian_marginal_score():
    energy, field, gen = _gauss10(0)
    for t in (0.1, 0.5, 0.9):
        x = torch.randn(5, 10, generator=gen, dtype=torch.float64)
        mean = t * energy.mean
        cov = (1 - t) ** 2 * torch.eye(10, dtype=torch.float64) + t**2 * energy.cov
        y = x.clone().requires_grad_(True)
        logp = torch.distributions.MultivariateNormal(mean, cov).log_prob(y).sum()
        (score,) = torch.autograd.grad(logp, y)
        _, h = field(torch.full((5,), t, dtype=torch.float64), x)
        assert torch.allclose(h / t, score, atol=1e-10)


def test_regression_on_exact_samples_recovers_the_marginal_drift():
    out = objective_check({"hidden": 128, "regression_steps": 600}, 0)
    assert out["trained"] <= 0.05
    assert out["untrained"] > 0.5  # the rule can fail


def test_sde_and_ode_with_the_closed_form_drift_reach_the_target_and_agree():
    energy, field, gen = _gauss10(0)
    z = torch.randn(20_000, 10, generator=gen, dtype=torch.float64)
    z = z - z.mean(0)
    x0 = torch.linalg.solve_triangular(torch.linalg.cholesky(torch.cov(z.T)), z.T, upper=False).T  # whitened
    ode = integrate(field, x0, 0.0, 200)
    sde = integrate(field, x0, 1.0, 200, generator=gen)
    for x in (ode, sde):
        assert (x.mean(0) - energy.mean).norm() / energy.mean.norm() <= 0.05
        assert (torch.cov(x.T) - energy.cov).norm() / energy.cov.norm() <= 0.05
    assert gaussian_w2(ode, sde) <= 0.05
