"""The collocation step: exact quadrature, Picard convergence, one-window and full-run exact solutions."""

import math

import numpy as np
import pytest
import torch

from icml26.collocation_sampler import (
    OU,
    GaussianMixture,
    chebyshev_nodes,
    collocation_sample,
    collocation_window,
    integration_matrix,
)

pytestmark = pytest.mark.usefixtures("one_torch_thread")


@pytest.mark.parametrize("degree", [1, 2, 3, 7, 16, 32])
def test_integration_matrix_is_exact_on_polynomials_up_to_degree(degree):
    a, c = integration_matrix(degree)
    assert a.shape == (degree + 1, degree + 1) and c.shape == (degree + 1,)
    for p in range(degree + 1):  # A @ c^p = int_0^{c_i} s^p ds = c_i^{p+1} / (p+1)
        np.testing.assert_allclose(a @ c**p, c ** (p + 1) / (p + 1), rtol=0, atol=5e-15)


def test_integration_matrix_is_not_exact_beyond_degree():
    a, c = integration_matrix(4)
    assert np.abs(a @ c**6 - c**7 / 7).max() > 1e-6


def test_last_row_is_clenshaw_curtis_quadrature():
    # last row integrates over [0, 1]: Clenshaw-Curtis weights, positive, summing to 1
    a, _ = integration_matrix(10)
    assert (a[-1] > 0).all() and a[-1].sum() == pytest.approx(1.0, abs=1e-15)
    np.testing.assert_allclose(a[-1] @ np.cos(3 * chebyshev_nodes(10)), math.sin(3) / 3, atol=1e-10)


def test_nodes_are_chebyshev_lobatto():
    c = chebyshev_nodes(4)
    np.testing.assert_allclose(
        c, [0, (1 - math.cos(math.pi / 4)) / 2, 0.5, (1 + math.cos(math.pi / 4)) / 2, 1]
    )


def _window(velocity, y0, a, b, degree, **kw):
    mat, c = integration_matrix(degree)
    return collocation_window(velocity, y0, a, b, torch.as_tensor(mat), torch.as_tensor(c), **kw)


def test_one_window_reproduces_linear_ode_solution():
    # y' = lam * y on [0, h]: y(h) = exp(lam h) y0; spectral accuracy at D = 16
    lam, h = -1.3, 0.5
    y0 = torch.tensor([[1.0, -2.0], [0.5, 3.0]], dtype=torch.float64)
    y, rounds, evals = _window(lambda x, t: lam * x, y0, 0.0, h, 16, tol=1e-15)
    np.testing.assert_allclose(y.numpy(), (math.exp(lam * h) * y0).numpy(), rtol=0, atol=1e-14)
    assert rounds < 50 and evals == 17 + 16 * (rounds - 1)


def test_one_window_backwards_in_time():
    lam = 2.0
    y0 = torch.ones(1, 3, dtype=torch.float64)
    y, _, _ = _window(lambda x, t: lam * x, y0, 1.0, 0.6, 14, tol=1e-15)
    np.testing.assert_allclose(y.numpy(), math.exp(-0.8) * np.ones((1, 3)), atol=1e-14)


def test_time_only_polynomial_velocity_is_exact_after_one_round():
    # F(y, t) = 3 t^2 - t: independent of y, so round 1 already gives the exact integral; round 2 confirms
    y0 = torch.zeros(1, 1, dtype=torch.float64)
    y, rounds, _ = _window(
        lambda x, t: (3 * t**2 - t)[:, None].expand_as(x), y0, 0.0, 2.0, 2, tol=0.0, max_rounds=2
    )
    assert float(y) == pytest.approx(8.0 - 2.0, abs=1e-13) and rounds == 2


def test_picard_converges_in_few_rounds_on_tiny_windows():
    y0 = torch.ones(4, 2, dtype=torch.float64)
    _, rounds, _ = _window(lambda x, t: -x + torch.sin(x), y0, 0.0, 1e-6, 8, tol=1e-13)
    assert rounds <= 3


def test_gaussian_target_matches_closed_form_flow():
    # q_0 = N(mu, s^2 I): y(t) = m(t) mu + (s_t / s_T) (y_T - m(T) mu), s_t^2 = m^2 s^2 + 1 - m^2
    mu, s, T = torch.tensor([[1.5, -0.5, 2.0]], dtype=torch.float64), 0.4, 6.0
    gm = GaussianMixture(mu, sigma=s)
    x_T = gm.sample(8, t=T, seed=3)
    res = collocation_sample(gm.score_fn(), x_T, T=T, windows=12, degree=12)
    tt = torch.tensor([T, 0.0], dtype=torch.float64)
    m = OU.mean_scale(tt)
    st = torch.sqrt(m**2 * s**2 + OU.noise_var(tt))
    exact = m[1] * mu + st[1] / st[0] * (x_T - m[0] * mu)
    assert float((res.samples - exact).abs().max()) < 1e-12
    assert res.n_rounds == sum(res.rounds_per_window) and len(res.rounds_per_window) == 12


def test_error_decays_geometrically_in_degree():
    gm = GaussianMixture.bounded_plus_noise(4, 2, 2.0, 0.4, seed=1)
    x_T = gm.sample(4, t=6.0, seed=2)
    ref = collocation_sample(gm.score_fn(), x_T, T=6.0, windows=12, degree=24).samples
    errs = [
        float(
            (collocation_sample(gm.score_fn(), x_T, T=6.0, windows=6, degree=d).samples - ref)
            .norm(dim=1)
            .mean()
        )
        for d in (4, 8)
    ]
    assert errs[1] < errs[0] * 10 ** (-0.4 * 4)  # >= 0.4 decades per node


def test_theorem_window_rule_makes_picard_contract():
    # h * (1 + L(t)) <= 1/4 on every window: each round gains >= 4x, so 1e-12 needs <= ~21 rounds;
    # in practice the bound L(t) is pessimistic and far fewer are used
    from icml26.collocation_sampler import reference_solution, theorem_windows

    gm = GaussianMixture.bounded_plus_noise(4, 2, 2.0, 0.4, seed=0)
    x_T = gm.sample(4, t=6.0, seed=1)
    res = collocation_sample(gm.score_fn(), x_T, T=6.0, windows=theorem_windows(6.0, 2.0, 0.4), degree=4)
    assert max(res.rounds_per_window) <= 21
    ref, _ = reference_solution(gm.score_fn(), x_T, 6.0)
    assert float((res.samples - ref).norm(dim=1).mean()) < 1e-8
