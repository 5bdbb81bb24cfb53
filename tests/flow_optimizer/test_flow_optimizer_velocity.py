"""The velocity field: equivariances, dimension independence, spread scaling, zero velocity."""

import pytest
import torch

from icml26.flow_optimizer import VelocityField, flow_step, population_features, rank_weights

D = torch.float64


def _inputs(B=2, N=7, d=5, seed=0):
    g = torch.Generator().manual_seed(seed)
    X = torch.randn(B, N, d, generator=g, dtype=D)
    f = torch.randn(B, N, generator=g, dtype=D)
    grad = torch.randn(B, N, d, generator=g, dtype=D)
    t = torch.rand(B, generator=g, dtype=D)
    return X, f, grad, t, torch.full((d,), 10.0, dtype=D)


@pytest.fixture
def field():
    torch.manual_seed(0)
    return VelocityField(hidden=16).double()


def test_permutation_equivariant_over_members(field):
    X, f, g, t, w = _inputs()
    perm = torch.randperm(7, generator=torch.Generator().manual_seed(1))
    out = field(X, f, g, t, w)
    out_perm = field(X[:, perm], f[:, perm], g[:, perm], t, w)
    torch.testing.assert_close(out_perm, out[:, perm], rtol=1e-10, atol=1e-12)


def test_permutation_equivariant_over_coordinates(field):
    X, f, g, t, w = _inputs()
    perm = torch.tensor([3, 0, 4, 1, 2])
    torch.testing.assert_close(field(X[..., perm], f, g[..., perm], t, w), field(X, f, g, t, w)[..., perm])


def test_translation_equivariant_and_scales_with_spread(field):
    X, f, g, t, w = _inputs()
    out = field(X, f, g, t, w)
    torch.testing.assert_close(field(X + 3.7, f, g, t, w), out, rtol=1e-8, atol=1e-10)
    mu = X.mean(1, keepdim=True)
    c = 0.01  # contract about the mean, with the box: f unchanged, gradients scale by 1 / c
    torch.testing.assert_close(field(mu + c * (X - mu), f, g / c, t, w * c), c * out, rtol=1e-7, atol=1e-12)


@pytest.mark.parametrize("d", [3, 10, 100])
def test_same_weights_run_at_any_dimension(field, d):
    X, f, g, t, w = _inputs(d=d)
    out = field(X, f, g, t, w)
    assert out.shape == (2, 7, d) and torch.isfinite(out).all()


def test_features_without_gradients_zero_the_gradient_channels():
    X, f, _, t, w = _inputs()
    phi, s = population_features(X, f, None, t, w)
    assert phi.shape == (2, 7, 5, 9) and s.shape == (2, 1, 5)
    assert (phi[..., 4:6] == 0).all()


def test_rank_weights_small_case_by_hand():
    ranks, w = rank_weights(torch.tensor([[3.0, 1.0, 2.0, 5.0]]))
    torch.testing.assert_close(ranks, torch.tensor([[2 / 3, 0.0, 1 / 3, 1.0]]))
    # raw weights log(2.5) - log(rank + 1): rank 0 -> log 2.5, rank 1 -> log 1.25, ranks 2, 3 -> 0
    raw = torch.tensor([0.0, 2.5, 1.25, 1.0]).log().clamp_min(0)
    torch.testing.assert_close(w[0], raw / raw.sum())


class _Zero(torch.nn.Module):
    def forward(self, X, f, g, t, width):
        return torch.zeros_like(X)


def test_zero_velocity_returns_the_start_population():
    X, f, g, t, _ = _inputs()
    lower, upper = torch.full((5,), -10.0, dtype=D), torch.full((5,), 10.0, dtype=D)
    torch.testing.assert_close(flow_step(_Zero(), X, f, g, t, lower, upper), X)


def test_step_projects_onto_the_box(field):
    X, f, g, t, _ = _inputs()
    lower, upper = torch.full((5,), -0.1, dtype=D), torch.full((5,), 0.1, dtype=D)
    Y = flow_step(field, X.clamp(-0.1, 0.1), f, g, t, lower, upper)
    assert (Y >= -0.1).all() and (Y <= 0.1).all()


def test_bad_field_arguments():
    with pytest.raises(ValueError, match="hidden must be an integer >= 4"):
        VelocityField(hidden=2)
    with pytest.raises(ValueError, match="n_steps_table must be a positive integer"):
        VelocityField(n_steps_table=0)


def test_detached_context_changes_gradients_not_values(field):
    X, f, g, t, _ = _inputs()
    lower, upper = torch.full((5,), -10.0, dtype=D), torch.full((5,), 10.0, dtype=D)
    X = X.clone().requires_grad_(True)
    a = flow_step(field, X, f, g, t, lower, upper)
    b = flow_step(field, X, f, g, t, lower, upper, detach_context=True)
    torch.testing.assert_close(a, b)
    (gx,) = torch.autograd.grad(b.sum(), X)
    torch.testing.assert_close(gx, torch.ones_like(X))  # only the residual path reaches X
