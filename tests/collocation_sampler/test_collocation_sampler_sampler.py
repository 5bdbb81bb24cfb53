"""Sampler API, baselines (Euler/Heun/RK4, scipy, diffusers), the experiment, and bad input."""

import math

import numpy as np
import pytest
import torch

from icml26.collocation_sampler import (
    OU,
    GaussianMixture,
    check_windows,
    collocation_sample,
    diffusers_sample,
    diffusers_start_time,
    fixed_step_sample,
    geometric_windows,
    integration_matrix,
    reference_solution,
    scipy_sample,
)
from icml26.collocation_sampler.experiment import EXPERIMENT
from icml26.common.config import resolve_config

pytestmark = pytest.mark.usefixtures("one_torch_thread")


@pytest.fixture(scope="module")
def gaussian():
    """One-component target: closed-form flow y(t) = m mu + (s_t / s_T)(y_T - m(T) mu)."""
    mu, s, T = torch.tensor([[1.0, -1.0]], dtype=torch.float64), 0.5, 4.0
    gm = GaussianMixture(mu, sigma=s)
    x_T = gm.sample(6, t=T, seed=0)

    def exact(t0: float, x: torch.Tensor) -> torch.Tensor:
        tt = torch.tensor([t0, 0.0], dtype=torch.float64)
        m = OU.mean_scale(tt)
        st = torch.sqrt(m**2 * s**2 + OU.noise_var(tt))
        return m[1] * mu + st[1] / st[0] * (x - m[0] * mu)

    return gm, x_T, T, exact


@pytest.mark.parametrize(("method", "order"), [("euler", 1), ("heun", 2), ("rk4", 4)])
def test_fixed_step_methods_have_their_order(gaussian, method, order):
    gm, x_T, T, exact = gaussian
    errs = []
    for n in (40, 80):
        res = fixed_step_sample(gm.score_fn(), x_T, np.linspace(T, 0.0, n + 1), method)
        errs.append(float((res.samples - exact(T, x_T)).abs().max()))
        assert res.n_rounds == res.n_score_evals == {"euler": 1, "heun": 2, "rk4": 4}[method] * n
    assert math.log2(errs[0] / errs[1]) == pytest.approx(order, abs=0.25)


@pytest.mark.parametrize("method", ["RK45", "DOP853"])
def test_scipy_solvers_reach_their_tolerance(gaussian, method):
    gm, x_T, T, exact = gaussian
    res, states = scipy_sample(gm.score_fn(), x_T, T, method=method, rtol=1e-10, atol=1e-10, t_eval=[2.0])
    assert float((res.samples - exact(T, x_T)).abs().max()) < 1e-8
    np.testing.assert_allclose(exact(2.0, torch.from_numpy(states[0])), exact(T, x_T), atol=1e-8)
    assert res.n_score_evals == res.n_rounds > 10


def test_reference_matches_closed_form(gaussian):
    gm, x_T, T, exact = gaussian
    ref, _ = reference_solution(gm.score_fn(), x_T, T)
    assert float((ref - exact(T, x_T)).abs().max()) < 1e-12


def test_diffusers_dpm_solver_converges_with_exact_epsilon_model(gaussian):
    gm, _, _, exact = gaussian
    t0 = diffusers_start_time("dpmsolver++", 10)
    assert 4.0 < t0 < 6.0  # 1000-step linear-beta: alpha_bar(999) ~ 4e-5, t = -log(alpha_bar) / 2
    x0 = gm.sample(6, t=t0, seed=1)
    errs = {}
    for method in ("dpmsolver++", "unipc"):
        e = [
            float((diffusers_sample(gm.score_fn(), x0, method, k).samples - exact(t0, x0)).abs().max())
            for k in (10, 40)
        ]
        assert e[1] < e[0] / 4  # second order: ~16x per 4x steps; allow for the discrete grid
        errs[method] = e
    with pytest.raises(ValueError, match="method must be one of"):
        diffusers_sample(gm.score_fn(), x0, "ddim", 10)


def test_collocation_rounds_and_calls_are_counted(gaussian):
    gm, x_T, T, _ = gaussian
    calls = []

    def counting(x, t):
        calls.append(x.shape[0])
        return gm.score(x, t)

    res = collocation_sample(counting, x_T, T=T, windows=5, degree=6)
    assert len(calls) == res.n_rounds  # one batched call per Picard round
    assert sum(calls) == res.n_score_evals * x_T.shape[0]
    assert max(calls) == 7 * x_T.shape[0]  # first round: all D + 1 nodes batched together
    assert res.n_score_evals == sum(7 + 6 * (r - 1) for r in res.rounds_per_window)


def test_collocation_is_repeatable_and_batch_independent(gaussian):
    gm, x_T, T, _ = gaussian
    a = collocation_sample(gm.score_fn(), x_T, T=T, windows=6, degree=8, tol=0.0, max_rounds=12).samples
    b = collocation_sample(gm.score_fn(), x_T[:2], T=T, windows=6, degree=8, tol=0.0, max_rounds=12).samples
    np.testing.assert_allclose(a[:2], b, rtol=0, atol=1e-14)  # BLAS blocking may differ by an ulp


def test_explicit_windows_and_linear_vp_schedule():
    from icml26.collocation_sampler import VPSchedule

    sched = VPSchedule(0.1, 20.0)
    gm = GaussianMixture.bounded_plus_noise(3, 2, 2.0, 0.4, seed=0)
    x = gm.sample(4, t=1.0, schedule=sched, seed=0)
    ref, _ = reference_solution(gm.score_fn(sched), x, 1.0, schedule=sched)
    w = np.append(np.geomspace(1.0, 1e-3, 20), 0.0)
    res = collocation_sample(gm.score_fn(sched), x, T=1.0, windows=w, degree=12, schedule=sched)
    assert float((res.samples - ref).norm(dim=1).mean()) < 1e-9


def test_experiment_smoke_run_structure():
    result = EXPERIMENT.run(dict(EXPERIMENT.profiles["smoke"]), 0)
    metrics = result.metrics
    for claim in EXPERIMENT.claims:
        assert claim.metric in metrics or claim.name in result.blocked
    assert set(result.blocked) == {"beats_dpm_solver", "beats_unipc"}  # smoke skips diffusers
    assert metrics["decades_per_node"] > 0.2
    assert metrics["best_error_within_200_rounds"] < 1e-5
    assert 0.5 < metrics["noise_slope"] < 1.5
    assert metrics["dim_rounds_ratio"] >= 1.0
    rows = result.tables["solvers"]
    assert {r["solver"] for r in rows} >= {"collocation", "euler", "heun", "rk4", "rk45", "dop853"}
    assert all(r["error"] >= 0 and r["w2_bound"] >= r["error"] * (1 - 1e-12) for r in rows)
    assert {p.name for p in result.plots} >= {"error_vs_nfe", "error_vs_rounds", "error_vs_degree"}
    assert set(EXPERIMENT.profiles["quick"]) == set(EXPERIMENT.profiles["smoke"])


def test_bad_input_is_rejected(gaussian):
    gm, x_T, T, _ = gaussian
    s = gm.score_fn()
    with pytest.raises(ValueError, match="score returned non-finite values"):
        collocation_sample(lambda x, t: torch.full_like(x, math.nan), x_T, T=T, windows=4, degree=4)
    with pytest.raises(ValueError, match="degree must be an integer >= 1"):
        collocation_sample(s, x_T, T=T, degree=0)
    with pytest.raises(ValueError, match="degree must be an integer >= 1"):
        integration_matrix(0)
    with pytest.raises(ValueError, match=r"windows must cover \[t_min, T\]"):
        collocation_sample(s, x_T, T=T, windows=[T, 1.0, 0.1])
    with pytest.raises(ValueError, match=r"windows must cover \[t_min, T\]"):
        collocation_sample(s, x_T, T=T, windows=[3.0, 1.0, 0.0])
    with pytest.raises(ValueError, match="strictly decreasing"):
        check_windows([T, 2.0, 2.0, 0.0], T, 0.0)
    with pytest.raises(ValueError, match="n_windows must be an integer >= 2"):
        geometric_windows(T, 1)
    with pytest.raises(ValueError, match="x_T must have shape"):
        collocation_sample(s, torch.zeros(3, dtype=torch.float64), T=T)
    with pytest.raises(ValueError, match="x_T must be finite"):
        collocation_sample(s, torch.full((2, 2), math.inf, dtype=torch.float64), T=T)
    with pytest.raises(TypeError, match="score must be callable"):
        collocation_sample("score", x_T, T=T)
    with pytest.raises(ValueError, match="T must be a finite positive"):
        collocation_sample(s, x_T, T=-1.0)
    with pytest.raises(ValueError, match="max_rounds must be an integer >= 1"):
        collocation_sample(s, x_T, T=T, max_rounds=0)
    with pytest.raises(ValueError, match="method must be one of"):
        fixed_step_sample(s, x_T, [T, 0.0], "rk5")
    with pytest.raises(ValueError, match="config 'degrees' needs at least two"):
        EXPERIMENT.check({**EXPERIMENT.profiles["smoke"], "degrees": [4]})


def test_experiment_device_is_validated():
    assert resolve_config(EXPERIMENT, "smoke")["device"] == "cpu"
    assert all(p["device"] == "cpu" for p in EXPERIMENT.profiles.values())
    if torch.cuda.device_count() > 7:
        pytest.skip("this machine has a cuda:7")
    with pytest.raises(ValueError, match=r"device 'cuda:7' is not available here; accepted: cpu"):
        resolve_config(EXPERIMENT, "smoke", {"device": "cuda:7"})
