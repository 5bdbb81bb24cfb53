"""Float64 UniPC-p (diffusers' UniP/UniC update on our continuous grid): its order on a Gaussian target
whose PF-ODE has a closed form, float64 accuracy beyond float32's reach, agreement with diffusers' UniPC
as shipped where float32 does not limit it, bad input, and the wall-clock helper."""

import math

import numpy as np
import pytest
import torch
from gaussian_reference import MU, S, gaussian_flow  # the closed-form Gaussian PF-ODE map

from icml26.collocation_sampler import OU, GaussianMixture, unipc_sample
from icml26.collocation_sampler.experiment import EXPERIMENT
from icml26.collocation_sampler.sweeps import _wall_clock

pytestmark = pytest.mark.usefixtures("one_torch_thread")

T, T_MIN = 4.0, 1e-2


@pytest.fixture(scope="module")
def gauss():
    gm = GaussianMixture(MU, sigma=S)
    x = gm.sample(6, t=T, seed=0)
    return gm, x, gaussian_flow(x, T, T_MIN)


def _err(gm, x, exact, steps, order, variant="bh2"):
    y = unipc_sample(gm.score_fn(), x, T, T_MIN, steps, order, variant)
    return float((y.samples - exact).abs().max())


@pytest.mark.parametrize(
    ("order", "variant", "steps"),
    [(1, "bh2", 80), (2, "bh1", 80), (2, "bh2", 80), (3, "bh2", 160), (3, "bh1", 160)],
)
def test_unipc_has_order_p_plus_one(gauss, order, variant, steps):
    """UniC-p raises UniP-p by one order: halving the step divides the error by 2^(p+1), within
    [0.7, 1.4] x 2^(p+1) (measured: 4.11, 8.17 / 8.02, 14.7 / 14.7 at these steps)."""
    gm, x, exact = gauss
    ratio = _err(gm, x, exact, steps, order, variant) / _err(gm, x, exact, 2 * steps, order, variant)
    expected = 2.0 ** (order + 1)
    assert 0.7 * expected <= ratio <= 1.4 * expected, (order, variant, ratio)


@pytest.mark.parametrize("variant", ["bh1", "bh2"])
def test_unipc_1_two_steps_by_hand(gauss, variant):
    """Two steps of UniPC-1 written out (data prediction D(x, t) = (x - sigma eps) / m, h = lambda step):
    UniP-1 x1 = (s1/s0) x0 - m1 (e^{-h} - 1) D0; UniC-1 with the model at x1,
    x1c = x1 - m1 B(-h) (D(x1) - D0) / 2, B(z) = z (bh1) or e^z - 1 (bh2); then UniP-1 from x1c with the
    model output at x1 reused. Equal to unipc_sample to 1e-13 (float64 arithmetic outside diffusers)."""
    gm, x0, _ = gauss
    lam = np.linspace(
        *[
            math.log(
                OU.mean_scale(torch.tensor(t, dtype=torch.float64)).item()
                / math.sqrt(OU.noise_var(torch.tensor(t, dtype=torch.float64)).item())
            )
            for t in (T, T_MIN)
        ],
        3,
    )
    ts = np.array([T, *[OU.time_of_alpha_bar(1.0 / (1.0 + math.exp(-2.0 * v))) for v in lam[1:-1]], T_MIN])
    tt = torch.tensor(ts, dtype=torch.float64)
    m, s = OU.mean_scale(tt).tolist(), torch.sqrt(OU.noise_var(tt)).tolist()

    def data(x, i):  # Tweedie: x0_hat = (x + s^2 score) / m
        return (x + s[i] ** 2 * gm.score(x, torch.full((x.shape[0],), ts[i], dtype=torch.float64))) / m[i]

    h0, h1 = lam[1] - lam[0], lam[2] - lam[1]
    big_b = (lambda z: z) if variant == "bh1" else math.expm1
    d0 = data(x0, 0)
    x1 = s[1] / s[0] * x0 - m[1] * math.expm1(-h0) * d0
    d1 = data(x1, 1)
    x1c = x1 - m[1] * big_b(-h0) * 0.5 * (d1 - d0)
    x2 = s[2] / s[1] * x1c - m[2] * math.expm1(-h1) * d1
    ours = unipc_sample(gm.score_fn(), x0, T, T_MIN, 2, 1, variant).samples
    assert float((ours - x2).abs().max()) <= 1e-13


def test_unipc_reaches_float64_accuracy(gauss):
    """1280 steps of UniPC-3 reach <= 1e-10: float32 sigmas alone floor it near 1e-7."""
    gm, x, exact = gauss
    res = unipc_sample(gm.score_fn(), x, T, T_MIN, 1280, 3)
    assert res.samples.dtype == torch.float64
    assert res.n_score_evals == res.n_rounds == 1280
    assert float((res.samples - exact).abs().max()) <= 1e-10


def test_unipc_agrees_with_diffusers_as_shipped_at_few_steps(gauss):
    """On the shipped scheduler's own grid (float32 sigmas, 12 steps, final sigma_min), where the
    discretisation error (~1e-3) dwarfs float32's ~1e-7, ours and diffusers' UniPC agree to 1e-5."""
    from diffusers import UniPCMultistepScheduler

    gm, _, _ = gauss
    steps = 12
    shipped = UniPCMultistepScheduler(solver_order=2, lower_order_final=False, final_sigmas_type="sigma_min")
    shipped.set_timesteps(steps)
    sig = shipped.sigmas.double()  # diffusers' sigma = sqrt((1 - abar) / abar), as float32 values
    times = np.array([OU.time_of_alpha_bar(float(1.0 / (1.0 + s * s))) for s in sig])
    x = gm.sample(6, t=float(times[0]), seed=3)
    y = x.clone()
    for i, ts in enumerate(shipped.timesteps):  # the shipped scheduler, float32 internals
        t = torch.full((6,), times[i], dtype=torch.float64)
        eps = -math.sqrt(OU.noise_var(t[:1]).item()) * gm.score(y, t)
        y = shipped.step(eps, ts, y).prev_sample.to(torch.float64)
    ours = unipc_sample(gm.score_fn(), x, float(times[0]), float(times[-1]), steps, 2, times=times).samples
    exact = gaussian_flow(x, float(times[0]), float(times[-1]))
    assert float((ours - exact).abs().max()) > 1e-4  # the regime: discretisation error, not rounding
    assert float((ours - y).abs().max()) <= 1e-5


def test_unipc_bad_input(gauss):
    gm, x, _ = gauss
    f = gm.score_fn()
    with pytest.raises(ValueError, match="order must be one of"):
        unipc_sample(f, x, T, T_MIN, 10, order=4)
    with pytest.raises(ValueError, match="variant must be one of"):
        unipc_sample(f, x, T, T_MIN, 10, variant="bh3")
    with pytest.raises(ValueError, match="steps must be a positive integer"):
        unipc_sample(f, x, T, T_MIN, 0)
    with pytest.raises(ValueError, match="steps must be a positive integer"):
        unipc_sample(f, x, T, T_MIN, 2.5)
    with pytest.raises(ValueError, match="t_min > 0"):
        unipc_sample(f, x, T, 0.0, 10)
    with pytest.raises(ValueError, match="0 <= t_min < T"):
        unipc_sample(f, x, 1.0, 2.0, 10)
    with pytest.raises(TypeError, match="score must be callable"):
        unipc_sample(None, x, T, T_MIN, 10)
    with pytest.raises(ValueError, match="times must be 3"):
        unipc_sample(f, x, T, T_MIN, 2, times=[T, 1.0, 2.0])
    with pytest.raises(ValueError, match="times must be 3"):
        unipc_sample(f, x, T, T_MIN, 2, times=[T, T_MIN])
    with pytest.raises(ValueError, match="returned shape"):
        unipc_sample(lambda y, t: gm.score(y, t)[:, :1], x, T, T_MIN, 10)


def test_wall_clock_helper_times_every_solver_on_cpu():
    """The GPU check's helper runs device-agnostic: on the CPU, at a loose target, every solver reaches it
    and gets a positive finite time; an unreachable target gives inf."""
    cfg = dict(EXPERIMENT.profiles["smoke"])
    gm = GaussianMixture.bounded_plus_noise(8, 2, 3.0, 0.3, seed=0)
    x = gm.sample(2, t=cfg["T"], seed=1)
    metrics, rows = _wall_clock(cfg, gm.score_fn(), x, torch.device("cpu"), target=1e-2)
    assert set(metrics) == {f"wall_clock_{s}_s" for s in ("collocation", "dopri5", "dopri8", "unipc3")}
    assert all(0 < v < math.inf for v in metrics.values()), metrics
    assert {r["solver"] for r in rows} == {"collocation", "dopri5", "dopri8", "unipc3"}
    assert all(r["error"] <= 1e-2 for r in rows)
    unreachable, _ = _wall_clock(cfg, gm.score_fn(), x, torch.device("cpu"), target=1e-300)
    assert all(v == math.inf for v in unreachable.values())
