"""Issue #18: defaults for any t_min, no silent failures, float64 baselines, the odeint-style entry, the
diffusers adapter, and the calls-to-eps fits behind the headline claims."""

import math

import numpy as np
import pytest
import torch
from gaussian_reference import MU, S, gaussian_flow  # the closed-form Gaussian PF-ODE map

from icml26.collocation_sampler import (
    OU,
    GaussianMixture,
    collocation_sample,
    dpm_solver_pp_sample,
    geometric_windows,
    reference_solution,
    score_from_diffusers_unet,
    solve,
    torchdiffeq_sample,
)
from icml26.collocation_sampler.accuracy import EPS_GRID, calls_to_eps, error_at_calls, power_law_fits
from icml26.collocation_sampler.sampler import small_time_split

pytestmark = pytest.mark.usefixtures("one_torch_thread")


@pytest.fixture(scope="module")
def gmm():
    gm = GaussianMixture.bounded_plus_noise(8, 2, 3.0, 0.3, seed=0)
    return gm, gm.sample(8, t=8.0, seed=1)


@pytest.mark.parametrize("t_min", [0.0, 1e-4, 1e-3, 5e-3, 0.1, 1.0, 3.9])
def test_integer_windows_work_for_any_t_min(t_min):
    gm, T = GaussianMixture(MU, sigma=S), 4.0
    x = gm.sample(4, t=T, seed=0)
    res = collocation_sample(gm.score_fn(), x, T=T, t_min=t_min, windows=16, degree=12, strict=True)
    assert torch.allclose(res.samples, gaussian_flow(x, T, t_min), atol=1e-10, rtol=0)
    assert len(res.rounds_per_window) == 16 and not res.unconverged_windows


def test_small_time_split_keeps_the_old_default_at_zero():
    assert small_time_split(8.0, 0.0) == 1e-3
    assert small_time_split(8.0, 1e-3) == pytest.approx(2e-3)
    assert small_time_split(1e-3, 0.0) == 5e-4
    assert 3.9 < small_time_split(4.0, 3.9) < 4.0


def test_unconverged_window_raises_under_strict_and_warns_otherwise(gmm):
    gm, x = gmm
    with pytest.raises(RuntimeError, match="did not converge on window"):
        collocation_sample(gm.score_fn(), x, T=8.0, windows=4, degree=8, max_rounds=2, strict=True)
    with pytest.warns(RuntimeWarning, match="did not converge"):
        res = collocation_sample(gm.score_fn(), x, T=8.0, windows=4, degree=8, max_rounds=2)
    assert res.unconverged_windows and all(res.rounds_per_window[i] == 2 for i in res.unconverged_windows)
    with pytest.raises(TypeError, match="strict"):
        collocation_sample(gm.score_fn(), x, T=8.0, strict="yes")


def test_mis_shaped_or_mistyped_score_is_rejected(gmm):
    gm, x = gmm
    with pytest.raises(ValueError, match=r"returned shape \(.*, 1\)"):
        collocation_sample(lambda y, t: gm.score(y, t)[:, :1], x, T=8.0)
    with pytest.raises(TypeError, match="torch.Tensor"):
        collocation_sample(lambda y, t: gm.score(y, t).numpy(), x, T=8.0)
    with pytest.raises(TypeError, match="floating"):
        collocation_sample(lambda y, t: gm.score(y, t).to(torch.int64), x, T=8.0)
    with pytest.warns(UserWarning, match="float32"):
        collocation_sample(lambda y, t: gm.score(y, t).float(), x, T=8.0, windows=4, degree=4, tol=1e-4)
    for bad in (lambda y, t: gm.score(y, t)[:, :1], lambda y, t: gm.score(y, t)[:-1]):
        with pytest.raises(ValueError, match="returned shape"):
            dpm_solver_pp_sample(bad, x, 8.0, 1e-3, 10)
        with pytest.raises(ValueError, match="returned shape"):
            torchdiffeq_sample(bad, x, 8.0, 1e-3)


def test_odeint_style_solve_matches_collocation_sample(gmm):
    gm, x = gmm
    T, t_min = 8.0, 1e-3
    grid = geometric_windows(T, 16, t_min, t_small=small_time_split(T, t_min))
    ours = collocation_sample(gm.score_fn(), x, T=T, t_min=t_min, windows=16, degree=12)
    f = OU.velocity(gm.score_fn())
    path = solve(lambda t, y: f(y, t.expand(y.shape[0])), x, grid, method="collocation", degree=12)
    assert path.shape == (17, *x.shape)
    assert torch.equal(path[0], x)
    assert float((path[-1] - ours.samples).abs().max()) <= 1e-12
    dop = solve(
        lambda t, y: f(y, t.expand(y.shape[0])), x, [T, t_min], method="dopri5", rtol=1e-10, atol=1e-10
    )
    assert float((dop[-1] - ours.samples).norm(dim=1).mean()) < 1e-6


def test_solve_rejects_bad_input(gmm):
    gm, x = gmm
    f = OU.velocity(gm.score_fn())
    good = lambda t, y: f(y, t.expand(y.shape[0]))  # noqa: E731
    with pytest.raises(ValueError, match="method"):
        solve(good, x, [8.0, 0.0], method="euler")
    with pytest.raises(ValueError, match="monotone"):
        solve(good, x, [8.0, 1.0, 2.0])
    with pytest.raises(TypeError, match="y0"):
        solve(good, x.numpy(), [8.0, 0.0])
    with pytest.raises(ValueError, match="shape"):
        solve(lambda t, y: good(t, y)[:, :1], x, [8.0, 4.0])
    with pytest.raises(RuntimeError, match="did not converge"):
        solve(good, x, [8.0, 0.0], max_rounds=2)


def test_float64_dpm_solver_pp_2m_is_second_order(gmm):
    """Log error vs log steps on 100..1600 lambda-uniform steps, [1e-3, 8]: slope in [1.8, 2.2]."""
    gm, x = gmm
    ref, _ = reference_solution(gm.score_fn(), x, 8.0, 1e-3)
    steps = [100, 200, 400, 800, 1600]
    errs = [
        float((dpm_solver_pp_sample(gm.score_fn(), x, 8.0, 1e-3, n, 2).samples - ref).norm(dim=1).mean())
        for n in steps
    ]
    slope = -np.polyfit(np.log(steps), np.log(errs), 1)[0]
    assert 1.8 <= slope <= 2.2, (slope, errs)
    assert errs[-1] < 1e-5  # float64: far below diffusers' ~2e-4 floor


def test_dpm_solver_pp_orders_and_bad_input(gmm):
    gm, x = gmm
    ref, _ = reference_solution(gm.score_fn(), x, 8.0, 1e-3)
    err = {
        o: float((dpm_solver_pp_sample(gm.score_fn(), x, 8.0, 1e-3, 200, o).samples - ref).norm(dim=1).mean())
        for o in (1, 2, 3)
    }
    assert err[3] < err[2] < err[1]
    with pytest.raises(ValueError, match="t_min > 0"):
        dpm_solver_pp_sample(gm.score_fn(), x, 8.0, 0.0, 10)
    with pytest.raises(ValueError, match="order"):
        dpm_solver_pp_sample(gm.score_fn(), x, 8.0, 1e-3, 10, order=4)
    with pytest.raises(ValueError, match="steps"):
        dpm_solver_pp_sample(gm.score_fn(), x, 8.0, 1e-3, 0)


def test_torchdiffeq_baseline_reaches_tolerance_and_respects_the_cap(gmm):
    gm, x = gmm
    ref, _ = reference_solution(gm.score_fn(), x, 8.0, 1e-3)
    res = torchdiffeq_sample(gm.score_fn(), x, 8.0, 1e-3, "dopri5", 1e-10, 1e-10)
    assert float((res.samples - ref).norm(dim=1).mean()) < 1e-8 and res.n_rounds == res.n_score_evals > 100
    with pytest.raises(RuntimeError, match="max_calls"):
        torchdiffeq_sample(gm.score_fn(), x, 8.0, 1e-3, "dopri5", 1e-10, 1e-10, max_calls=50)
    with pytest.raises(ValueError, match="method"):
        torchdiffeq_sample(gm.score_fn(), x, 8.0, 1e-3, "rk4")


def test_calls_to_eps_and_fits_tell_a_power_law_from_polylog():
    eps = EPS_GRID
    dense = 10.0 ** -np.linspace(1.0, 11.0, 81)
    power = {"calls": 10.0 * dense ** (-1 / 4), "errors": dense}  # order 4
    poly = {"calls": 50.0 * np.log(1 / dense) ** 2, "errors": dense}
    fp = power_law_fits(calls_to_eps(power["calls"], power["errors"]))
    fq = power_law_fits(calls_to_eps(poly["calls"], poly["errors"]))
    assert fp["slope"] == pytest.approx(0.25, rel=1e-3) and fp["slope_ratio"] == pytest.approx(1.0, rel=1e-3)
    assert fp["loglog_slope"] > 2.5  # ~ mean log(1/eps) / 4
    assert fq["slope_ratio"] < 0.75 and fq["loglog_slope"] == pytest.approx(2.0, rel=1e-2)
    # exact interpolation between two settings; nan outside the ladder or at its cheapest setting
    got = calls_to_eps(np.array([100.0, 1000.0]), np.array([1e-2, 1e-4]), np.array([1e-3, 1e-5, 1e-2]))
    assert got[0] == pytest.approx(math.sqrt(1e5)) and math.isnan(got[1]) and math.isnan(got[2])
    assert math.isnan(power_law_fits(np.full(len(eps), np.nan))["slope"])
    assert error_at_calls(np.array([10.0, 100.0]), np.array([1e-2, 1e-4]), 31.6227766) == pytest.approx(1e-3)
    assert error_at_calls(np.array([10.0, 100.0]), np.array([1e-2, 1e-4]), 1.0) == pytest.approx(1e-2)


def test_anisotropic_target_score_matches_autograd_and_spans_all_directions():
    gm = GaussianMixture.anisotropic(5, 4, 3.0, 0.3, 1.2, seed=0)
    assert torch.linalg.matrix_rank(gm.means).item() == 4
    lam = torch.linalg.eigvalsh(torch.einsum("kde,ke,kfe->kdf", gm.eigvecs, gm.eigvals, gm.eigvecs))
    assert torch.allclose(lam[:, 0], torch.full((5,), 0.09, dtype=torch.float64))
    x = gm.sample(6, t=0.3, seed=2).requires_grad_(True)
    t = torch.full((6,), 0.3, dtype=torch.float64)
    (g,) = torch.autograd.grad(gm.log_prob(x, t).sum(), x)
    assert torch.allclose(gm.score(x.detach(), t), g, atol=1e-10)
    with pytest.raises(ValueError, match="sigma_min"):
        GaussianMixture.anisotropic(5, 4, 3.0, 1.0, 0.5)


def tiny_unet():
    from diffusers import UNet2DModel

    torch.manual_seed(0)
    return UNet2DModel(
        sample_size=8,
        in_channels=1,
        out_channels=1,
        layers_per_block=1,
        block_out_channels=(8, 16),
        down_block_types=("DownBlock2D", "DownBlock2D"),
        up_block_types=("UpBlock2D", "UpBlock2D"),
        norm_num_groups=4,
    ).double()


def test_diffusers_unet_adapter_samples_with_collocation():
    from diffusers import DDPMScheduler

    unet = tiny_unet()
    abar = DDPMScheduler(num_train_timesteps=1000).alphas_cumprod.double()
    score = score_from_diffusers_unet(unet, abar, (1, 8, 8))
    x = torch.randn(3, 64, dtype=torch.float64, generator=torch.Generator().manual_seed(0))
    k = 500  # at an integer timestep the adapter is exactly -eps / sigma
    t = torch.full((3,), OU.time_of_alpha_bar(float(abar[k])), dtype=torch.float64)
    with torch.no_grad():
        eps = unet(x.reshape(3, 1, 8, 8), torch.full((3,), float(k), dtype=torch.float64)).sample.reshape(
            3, 64
        )
    assert torch.allclose(score(x, t), -eps / math.sqrt(1 - float(abar[k])), atol=1e-9)
    T, t_min = OU.time_of_alpha_bar(float(abar[900])), OU.time_of_alpha_bar(float(abar[300]))
    res = collocation_sample(score, x, T=T, t_min=t_min, windows=8, degree=4, tol=1e-8, strict=True)
    assert res.samples.shape == (3, 64) and torch.isfinite(res.samples).all()
    with pytest.raises(ValueError, match="outside the model's training schedule"):
        score(x, torch.full((3,), 10.0, dtype=torch.float64))
    with pytest.raises(ValueError, match="sample_shape"):
        score_from_diffusers_unet(unet, abar, (1, 8))(x, t)
    with pytest.raises(ValueError, match="alphas_cumprod"):
        score_from_diffusers_unet(unet, abar.flip(0), (1, 8, 8))


def _ladder_row(solver: str, nfe: int, error: float, unconverged: int = 0, **extra):
    errs = np.full(4, error) * np.array([0.9, 1.0, 1.1, 1.0])
    return {
        "solver": solver,
        "setting": f"{nfe}",
        "nfe": nfe,
        "rounds": nfe,
        "error": float(errs.mean()),
        "unconverged_windows": unconverged,
        "_sample_errors": errs,
        **extra,
    }


def test_unconverged_ladder_rows_are_left_out_of_calls_to_eps():
    """A collocation setting with an unconverged Picard window is counted, not used in calls-to-eps."""
    from icml26.collocation_sampler.experiment import _headline_metrics

    cfg = {"equal_degree": 6}
    good = [_ladder_row("collocation", 10 * d, 10.0 ** -(d + 1), degree=d) for d in (2, 4, 6, 8, 10)]
    bad = _ladder_row("collocation", 55, 1e-12, unconverged=3, degree=5)  # would shortcut the ladder
    rk4 = [_ladder_row("rk4", 4 * s, 1.0 / s**4) for s in (4, 8, 16, 32, 64, 128)]
    ref = _ladder_row("reference_check", 100, 1e-14)
    rng = np.random.default_rng(0)
    clean, table = _headline_metrics([ref, *good, *rk4], cfg, rng, 0)
    flagged, table_bad = _headline_metrics([ref, *good, bad, *rk4], cfg, np.random.default_rng(0), 0)
    assert clean["ladder_unconverged_rows"] == 0 and flagged["ladder_unconverged_rows"] == 1
    assert table_bad == table
    for key in (
        "collocation_calls_slope",
        "collocation_calls_slope_ratio",
        "collocation_max_rounds_to_reach",
    ):
        assert flagged[key] == clean[key] or (math.isnan(flagged[key]) and math.isnan(clean[key])), key


def test_odeint_style_solve_batches_the_nodes_per_round(gmm):
    """``solve(velocity, y0, t_grid)`` evaluates all collocation nodes of a Picard round in one call of a
    velocity that takes one time per row (after one check against per-node calls on the first round);
    it used to call the velocity once per node (degree + 1 calls per round). A velocity that only takes a
    scalar time still works, one call per node, with the same path."""
    gm, x = gmm
    f = OU.velocity(gm.score_fn())
    grid = [8.0, 4.0, 2.0, 1.0]
    calls = {"rows": 0, "scalar": 0}

    def rows(t, y):  # t: 0-d (odeint) or one time per row; expand works for both
        calls["rows"] += 1
        return f(y, t.expand(y.shape[0]))

    def scalar(t, y):  # a velocity that needs one time per call
        time = float(t)  # raises for the stacked call: counted are the calls that evaluate
        calls["scalar"] += 1
        return f(y, torch.full((y.shape[0],), time, dtype=y.dtype))

    batched = solve(rows, x, grid, degree=12)
    per_node = solve(scalar, x, grid, degree=12)
    assert float((batched - per_node).abs().max()) <= 1e-12
    nodes, windows = 13, len(grid) - 1
    # one call per node: 13 in a window's first round, 12 in each later one (node 0 is the window's start)
    rounds = (calls["scalar"] - windows) / (nodes - 1)
    assert rounds == int(rounds) and rounds >= 2 * windows
    assert calls["rows"] <= rounds + nodes + 2  # one call per round, plus the first round's check
