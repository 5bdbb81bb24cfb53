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
from icml26.collocation_sampler.accuracy import _SAMPLE_ERRORS, N_BOOT, _boot_means, _percentiles, _slopes
from icml26.collocation_sampler.experiment import EXPERIMENT
from icml26.common import comparison_key, verdict
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


@pytest.mark.filterwarnings("ignore:Picard rounds did not converge")  # tol=0: fixed rounds on purpose
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


@pytest.fixture(scope="module")
def smoke_result():
    return EXPERIMENT.run(dict(EXPERIMENT.profiles["smoke"]), 0)


# claims whose measurement has a bootstrap interval over samples, and those that have none (batch-level
# round counts: their verdict stays "inconclusive", "no interval")
WITH_INTERVAL = {
    "spectral_in_degree": "decades_per_node",
    "high_accuracy_depth": "best_error_within_200_rounds",
    "dimension_free_error": "dim_error_ratio",
    "score_error_linear": "noise_slope",
}
# batch-level round counts: a t-interval (half-width ``_ci``) over dim_round_repeats draws of the samples
ROUNDS_INTERVAL = {
    "dimension_free_rounds": "dim_rounds_ratio",
}
# the original setting of the dimension sweep (D = depth_degree): a Revision of the tests now, still
# measured and shown as context, with its intervals
ORIGINAL_SETTING = {"dim_error_ratio_depth_degree": "bootstrap", "dim_rounds_ratio_depth_degree": "t"}
# issue #18: the headline (calls to eps), dimension on an anisotropic target, float64 comparisons, the
# reference's validation and the theorem's windows; their collocation metrics have intervals in smoke
PAPER_CLAIMS = {"polylog_calls_slope_ratio", "polylog_calls_loglog", "dimension_through_radius_only"}
NEW_CHECKS = {
    "equal_calls_vs_float64_baselines",
    "equal_rounds_vs_float64_baselines",
    "reference_validated",
    "theorem_windows_calls_within_bound",
}
NEW_INTERVAL = {
    "collocation_calls_slope_ratio",
    "collocation_calls_loglog_slope",
    "ladder_collocation_error",
    "ladder_reference_disagreement",
}


def test_experiment_smoke_run_structure(smoke_result):
    result = smoke_result
    metrics = result.metrics
    # smoke skips diffusers' shipped schedulers (the float64 UniPC ladders still run)
    diffusers = {f"{b}_best_error_within_200_rounds" for b in ("dpmpp", "unipc")} | {
        "unipc_error_equal_rounds"
    }
    for claim in EXPERIMENT.claims:
        if claim.name not in result.blocked:
            named = {claim.metric, *claim.relative_to, *claim.controls, *claim.context}
            assert named - diffusers <= set(metrics), claim.name
    assert not diffusers & set(metrics)  # not run, so not measured (never NaN)
    assert metrics["dop853_best_error_within_200_rounds"] == math.inf  # ran, but no setting within 200 rounds
    # beats_unipc is judged against the float64 UniPC ladders (no diffusers import needed beyond them);
    # the wall-clock check needs a GPU
    assert set(result.blocked) == {"beats_dpm_solver", "gpu_wall_clock"}
    assert result.blocked["gpu_wall_clock"].startswith("needs --set device=cuda; no device lent")
    assert metrics["unipc3_error_at_equal_rounds"] < metrics["unipc2_error_at_equal_rounds"]
    assert metrics["decades_per_node"] > 0.2
    assert metrics["best_error_within_200_rounds"] < 1e-5
    assert 0.5 < metrics["noise_slope"] < 1.5
    assert metrics["dim_rounds_ratio"] >= 1.0 and metrics["dim_rounds_ratio_depth_degree"] >= 1.0
    # the hand-built ratio / deviation metrics are gone: the contract compares and bounds
    assert not {
        "dpmpp_over_collocation_error",
        "unipc_over_collocation_error",
        "noise_slope_deviation",
    } & set(metrics)
    rows = result.tables["solvers"]
    assert {r["solver"] for r in rows} >= {"collocation", "euler", "heun", "rk4", "rk45", "dop853"}
    assert all(r["error"] >= 0 and r["w2_bound"] >= r["error"] * (1 - 1e-12) for r in rows)
    for table in result.tables.values():  # the per-sample errors do not leak into the tables
        assert all(isinstance(v, int | float | str) for r in table for v in r.values())
    dims = result.tables["dimension"]
    cfg = EXPERIMENT.profiles["smoke"]
    assert {(r["dim"], r["degree"]) for r in dims} == {
        (d, deg) for d in cfg["dims"] for deg in (cfg["dim_degree"], cfg["depth_degree"])
    }
    ladder = result.tables["ladder"]  # every ladder row records its unconverged Picard windows
    assert all(isinstance(r["unconverged_windows"], int) and r["unconverged_windows"] >= 0 for r in ladder)
    assert metrics["ladder_unconverged_rows"] == sum(r["unconverged_windows"] > 0 for r in ladder)
    assert {p.name for p in result.plots} >= {"error_vs_nfe", "error_vs_rounds", "error_vs_degree"}
    assert set(EXPERIMENT.profiles["quick"]) == set(EXPERIMENT.profiles["smoke"])


def test_intervals_are_computed_from_the_samples(smoke_result):
    metrics = smoke_result.metrics
    for key in [*WITH_INTERVAL.values(), *NEW_INTERVAL]:
        low, high = metrics[f"{key}_ci_low"], metrics[f"{key}_ci_high"]
        assert math.isfinite(low) and math.isfinite(high) and low < high, key
        assert low <= metrics[key] <= high, key
    for name, key in ROUNDS_INTERVAL.items():
        assert next(c.metric for c in EXPERIMENT.claims if c.name == name) == key
        assert math.isfinite(metrics[f"{key}_ci"]) and metrics[f"{key}_ci"] >= 0, key
        assert metrics[key] >= 1.0 and metrics[f"{key}_draw0"] >= 1.0
    for key, kind in ORIGINAL_SETTING.items():
        if kind == "t":
            assert math.isfinite(metrics[f"{key}_ci"]) and metrics[f"{key}_ci"] >= 0, key
        else:
            assert metrics[f"{key}_ci_low"] <= metrics[key] <= metrics[f"{key}_ci_high"], key
    repeats = smoke_result.tables["dimension_rounds_repeats"]
    cfg = EXPERIMENT.profiles["smoke"]
    assert {r["repeat"] for r in repeats} == set(range(1, cfg["dim_round_repeats"]))
    # reproducible for a seed
    again = EXPERIMENT.run(dict(EXPERIMENT.profiles["smoke"]), 0).metrics
    assert all(again[k] == metrics[k] or (math.isnan(again[k]) and math.isnan(metrics[k])) for k in metrics)


def test_claims_under_the_verdict_contract_v2(smoke_result):
    claims = {c.name: c for c in EXPERIMENT.claims}
    assert set(claims) == {
        *WITH_INTERVAL,
        *ROUNDS_INTERVAL,
        *PAPER_CLAIMS,
        *NEW_CHECKS,
        "gpu_wall_clock",
        "beats_dpm_solver",
        "beats_unipc",
    }
    # the paper's statements (polylog(1/eps) calls, d only through R) are paper claims with the
    # fixed-order baselines as controls; every other threshold is ours: a check
    assert {n for n, c in claims.items() if c.kind == "paper"} == PAPER_CLAIMS
    assert all(c.scale == "proxy" and not c.deterministic for c in claims.values())
    assert all(claims[n].controls for n in PAPER_CLAIMS)
    assert set(claims["polylog_calls_slope_ratio"].controls) == {
        f"{b}_calls_slope_ratio" for b in ("rk4", "dpmpp2m", "dpmpp3m", "unipc2", "unipc3", "dop853")
    }
    assert not any("pending" in c.statement for c in claims.values())
    history = {n: [r.verdict for r in c.revisions] for n, c in claims.items() if c.revisions}
    assert history == {
        "dimension_free_rounds": ["toy-verified", "inconclusive"],
        "dimension_free_error": ["refuted"],
        "theorem_windows_calls_within_bound": ["refuted"],
        "polylog_calls_slope_ratio": ["refuted"],
        "polylog_calls_loglog": ["non-discriminating"],
        "equal_calls_vs_float64_baselines": ["refuted"],
        "equal_rounds_vs_float64_baselines": ["toy-verified"],
        "beats_unipc": ["toy-verified"],
    }
    # the strongest UniPC is float64 UniPC-p; diffusers' shipped UniPC is the old rule and context
    strong = claims["beats_unipc"]
    assert (strong.metric, strong.relative_to, strong.form, strong.op, strong.threshold) == (
        "ladder_collocation_error",
        ("unipc2_error_at_equal_rounds", "unipc3_error_at_equal_rounds"),
        "ratio",
        "<=",
        0.01,
    )
    assert (
        "unipc_error_equal_rounds" in strong.revisions[0].old and "unipc_error_equal_rounds" in strong.context
    )
    for name in ("equal_calls_vs_float64_baselines", "equal_rounds_vs_float64_baselines"):
        assert {f"unipc{p}_error_at_equal_{name.split('_')[1]}" for p in (2, 3)} <= set(
            claims[name].relative_to
        )
    for name in ("polylog_calls_slope_ratio", "polylog_calls_loglog"):
        assert any(c.startswith("unipc3_") for c in claims[name].controls), name
    wall = claims["gpu_wall_clock"]
    assert wall.kind == "check" and wall.relative_to == (
        "wall_clock_dopri5_s",
        "wall_clock_dopri8_s",
        "wall_clock_unipc3_s",
    )
    assert "D=12" in claims["dimension_free_rounds"].revisions[0].old
    assert "D=12" in claims["dimension_free_error"].revisions[0].old
    assert {"dim_rounds_ratio_depth_degree", "dim_error_ratio_depth_degree"} <= {
        *claims["dimension_free_rounds"].context,
        *claims["dimension_free_error"].context,
    }
    # the theorem's bound is one-sided; the band that read it as a rate is its Revision (one test per metric)
    bound = claims["theorem_windows_calls_within_bound"]
    assert (bound.metric, bound.op, bound.threshold) == ("theorem_calls_slope", "<=", 2.5)
    assert "[1.5, 2.5]" in bound.revisions[0].old and "upper bound" in bound.statement
    assert not [c for c in claims.values() if c.metric == "theorem_calls_slope" and c.op == "in"]
    assert claims["score_error_linear"].op == "in" and claims["score_error_linear"].threshold == (0.8, 1.2)
    for name, base in (("beats_dpm_solver", "dpmpp"),):
        c = claims[name]
        assert (c.metric, c.relative_to, c.form, c.op, c.threshold) == (
            "collocation_error",
            (f"{base}_error_equal_rounds",),
            "ratio",
            "<=",
            0.01,
        )
    assert len(claims["high_accuracy_depth"].controls) == 5
    verdicts = {
        c.name: verdict(c, smoke_result.metrics, smoke_result.blocked, "smoke") for c in EXPERIMENT.claims
    }
    for name in (
        (WITH_INTERVAL.keys() - {"high_accuracy_depth"})
        | ROUNDS_INTERVAL.keys()
        | {
            "reference_validated",
            "theorem_windows_calls_within_bound",
        }
    ):
        assert verdicts[name].interval is not None, name
    # its diffusers controls do not run in smoke: named, not mistaken for a failure
    assert (
        verdicts["high_accuracy_depth"].reason == "control 'dpmpp_best_error_within_200_rounds' not measured"
    )
    for name in ROUNDS_INTERVAL:  # no longer inconclusive for ever
        assert not verdicts[name].reason.startswith("no interval"), name
    assert verdicts["beats_dpm_solver"].verdict == verdicts["gpu_wall_clock"].verdict == "blocked"
    assert verdicts["beats_unipc"].verdict != "blocked"  # float64 UniPC runs in every profile
    with_diffusers = {
        **smoke_result.metrics,
        "dpmpp_best_error_within_200_rounds": 1e-3,
        "unipc_best_error_within_200_rounds": 1e-3,
    }
    v = verdict(claims["high_accuracy_depth"], with_diffusers, {}, "smoke")
    assert v.interval is not None and v.controls_passing == ()  # no baseline reaches 1e-10 in 200 rounds


def test_comparisons_have_paired_intervals():
    """With the diffusers baselines on, each comparison gets its paired interval over samples."""
    result = EXPERIMENT.run({**EXPERIMENT.profiles["smoke"], "use_diffusers": True}, 0)
    m = result.metrics
    assert set(result.blocked) == {"gpu_wall_clock"}  # a CPU run
    for name, metric, base in (
        ("beats_dpm_solver", "collocation_error", "dpmpp_error_equal_rounds"),
        ("beats_unipc", "ladder_collocation_error", "unipc3_error_at_equal_rounds"),
    ):
        key = comparison_key(metric, base, "ratio")
        ratio = m[metric] / m[base]
        assert m[key + "_ci_low"] <= ratio <= m[key + "_ci_high"]
        claim = next(c for c in EXPERIMENT.claims if c.name == name)
        v = verdict(claim, m, result.blocked, "smoke")
        assert v.baseline == base and v.interval == (m[key + "_ci_low"], m[key + "_ci_high"])
        assert v.measured == pytest.approx(ratio)
    # the shipped UniPC's paired ratio is still measured (context of beats_unipc)
    key = comparison_key("collocation_error", "unipc_error_equal_rounds", "ratio")
    assert m[key + "_ci_low"] <= m["collocation_error"] / m["unipc_error_equal_rounds"] <= m[key + "_ci_high"]


def test_bootstrap_helpers():
    rng = np.random.default_rng(0)
    x = [1.0, 2.0, 4.0]
    y = rng.normal(size=(5, 3))
    assert np.allclose(_slopes(x, y), [np.polyfit(x, row, 1)[0] for row in y])
    rows = [{_SAMPLE_ERRORS: np.arange(4.0) + i} for i in range(3)]
    paired = _boot_means(rows, np.random.default_rng(1), paired=True)
    assert paired.shape == (N_BOOT, 3) and np.allclose(np.diff(paired, axis=1), 1.0)  # same resamples
    unpaired = _boot_means(rows, np.random.default_rng(1), paired=False)
    assert not np.allclose(np.diff(unpaired, axis=1), 1.0)
    assert _boot_means([{_SAMPLE_ERRORS: np.ones(1)}], rng, paired=True) is None
    assert all(math.isnan(v) for v in _percentiles(None))
    assert _percentiles(np.arange(401.0)) == pytest.approx((10.0, 390.0))  # the 2.5% and 97.5% points


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
    for bad in (1, 2.0, True):
        with pytest.raises(ValueError, match="config 'dim_round_repeats' must be an integer >= 2"):
            EXPERIMENT.check({**EXPERIMENT.profiles["smoke"], "dim_round_repeats": bad})


def test_experiment_device_is_validated():
    assert resolve_config(EXPERIMENT, "smoke")["device"] == "cpu"
    assert all(p["device"] == "cpu" for p in EXPERIMENT.profiles.values())
    if torch.cuda.device_count() > 7:
        pytest.skip("this machine has a cuda:7")
    with pytest.raises(ValueError, match=r"device 'cuda:7' is not available here; accepted: cpu"):
        resolve_config(EXPERIMENT, "smoke", {"device": "cuda:7"})
