"""The closed-form conditional drift on spheres and hyperbolic spaces (Eqs. M1-M3) and manifold operations."""

from __future__ import annotations

import pytest
import torch

from icml26.flow_sampling import Euclidean, Lorentz, Sphere, conditional_score, conditional_targets
from icml26.flow_sampling.experiment import _random_points, fd_score_error

MANIFOLDS = [Sphere(2), Sphere(5), Lorentz(2), Lorentz(5)]


@pytest.mark.parametrize("t", [0.2, 0.6, 0.9])
@pytest.mark.parametrize("manifold", MANIFOLDS, ids=repr)
def test_closed_form_score_matches_finite_differences(manifold, t):
    assert fd_score_error(manifold, t, n=3, seed=1) <= 1e-6


@pytest.mark.parametrize("manifold", MANIFOLDS, ids=repr)
def test_the_flat_formula_fails_on_curved_spaces(manifold):
    # the check discriminates: dropping the curvature terms gives errors far above the tolerance
    assert fd_score_error(manifold, 0.6, n=3, seed=1, flat=True) > 1e-2


def test_flat_limit_is_minus_grad_energy_over_t():
    gen = torch.Generator().manual_seed(0)
    x0, x1, g = (torch.randn(6, 4, generator=gen, dtype=torch.float64) for _ in range(3))
    t = torch.tensor([0.1, 0.2, 0.4, 0.6, 0.8, 1.0], dtype=torch.float64)
    assert torch.allclose(conditional_score(Euclidean(4), x0, x1, t, g), g / t[:, None], atol=1e-12)


@pytest.mark.parametrize("manifold", [Sphere(2), Lorentz(2)], ids=repr)
def test_small_separations_approach_the_flat_formula(manifold):
    # the curvature terms are O(d(x0, x1)): at separation 1e-6 they are below 1e-5
    gen = torch.Generator().manual_seed(3)
    x0 = _random_points(manifold, 5, gen)
    v = manifold.random_tangent(x0, gen)
    x1 = manifold.exp(x0, 1e-6 * v / manifold.norm(x0, v)[:, None])
    g = manifold.random_tangent(x1, gen)
    t = torch.full((5,), 0.5, dtype=torch.float64)
    s = conditional_score(manifold, x0, x1, t, g)
    assert torch.allclose(s, g / 0.5, atol=1e-5)


@pytest.mark.parametrize("manifold", MANIFOLDS, ids=repr)
def test_velocity_is_the_time_derivative_of_the_geodesic_interpolant(manifold):
    gen = torch.Generator().manual_seed(4)
    x0, x1 = _random_points(manifold, 4, gen), _random_points(manifold, 4, gen)
    g = manifold.random_tangent(x1, gen)
    for t in (0.3, 0.7):
        h = 1e-6
        tt = torch.full((4,), t, dtype=torch.float64)
        x, u, _ = conditional_targets(manifold, x0, x1, tt, g)
        xp, _, _ = conditional_targets(manifold, x0, x1, tt + h, g)
        xm, _, _ = conditional_targets(manifold, x0, x1, tt - h, g)
        assert torch.allclose((xp - xm) / (2 * h), u, atol=1e-6)
        assert manifold.constraint_error(x) < 1e-10
        assert manifold.inner(x, x, u).abs().max() < 1e-10  # tangent


@pytest.mark.parametrize("manifold", MANIFOLDS, ids=repr)
def test_exp_and_log_are_inverse_and_dist_is_the_log_norm(manifold):
    gen = torch.Generator().manual_seed(5)
    x, y = _random_points(manifold, 6, gen), _random_points(manifold, 6, gen)
    v = manifold.log(x, y)
    assert torch.allclose(manifold.exp(x, v), y, atol=1e-9)
    assert torch.allclose(manifold.norm(x, v), manifold.dist(x, y), atol=1e-9)


def test_points_off_the_manifold_are_rejected():
    with pytest.raises(ValueError, match="off the manifold"):
        Sphere(2).check(torch.tensor([[1.0, 1.0, 0.0]], dtype=torch.float64))
    with pytest.raises(ValueError, match="off the manifold"):
        Lorentz(2).check(torch.tensor([[-1.0, 0.0, 0.0]], dtype=torch.float64))
    with pytest.raises(ValueError, match="shape"):
        Sphere(2).check(torch.zeros(3))


@pytest.mark.parametrize("manifold", [Sphere(2), Lorentz(2), Lorentz(5)], ids=repr)
def test_tangent_noise_is_standard_in_the_manifold_metric(manifold):
    gen = torch.Generator().manual_seed(6)
    x = _random_points(manifold, 1, gen).expand(20_000, -1) * 1.0
    if isinstance(manifold, Lorentz):  # a point far from the origin, where the ambient metric is distorted
        o = manifold.origin().expand(20_000, -1)
        v = torch.zeros_like(o)
        v[:, 1] = 2.5
        x = manifold.exp(o, v)
    noise = manifold.random_tangent(x, gen)
    assert manifold.inner(x, x, noise).abs().max() < 1e-9
    assert float(manifold.inner(x, noise, noise).mean()) == pytest.approx(manifold.dim, rel=0.05)
