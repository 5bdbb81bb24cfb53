"""The solver end to end on tiny images: determinism, frozen weights, the rate knob, capacity, bad input."""

import numpy as np
import pytest
import torch

from icml26.lottery_prior import Denoise, Inpaint, LotteryPrior, SuperResolution
from icml26.lottery_prior.ops import to_chw

pytestmark = pytest.mark.usefixtures("one_torch_thread")
IMG = np.clip(np.add.outer(np.linspace(0.1, 0.9, 16), np.linspace(0, 0.2, 16)), 0, 1)


def _obs(sigma=0.1, seed=0):
    op = Denoise(sigma)
    return op.observe(IMG, np.random.default_rng(seed)), op


def test_fixed_seed_identical_output_and_frozen_weights_untouched():
    y, op = _obs()
    lp = LotteryPrior(members=2, steps=30, seed=3)
    before = [layer.w0.clone() for layer in lp.build((1, 16, 16))[0].layers]
    scores0 = [layer.scores.detach().clone() for layer in lp.build((1, 16, 16))[0].layers]
    a = lp.solve(y, op)
    after = [layer.w0 for layer in lp.net_.layers]
    assert all(torch.equal(b, c) for b, c in zip(before, after, strict=True))  # bit-identical W0
    assert any(
        not torch.equal(s, layer.scores.detach()) for s, layer in zip(scores0, lp.net_.layers, strict=True)
    )
    b = LotteryPrior(members=2, steps=30, seed=3).solve(y, op)
    assert np.array_equal(a.estimate, b.estimate) and np.array_equal(a.members, b.members)
    c = LotteryPrior(members=2, steps=30, seed=4).solve(y, op)
    assert not np.array_equal(a.estimate, c.estimate)
    assert a.members.shape == (2, 16, 16) and np.allclose(a.estimate, a.members.mean(0))
    assert len(a.history["loss"]) == 30 and a.bpp > a.latent_bpp > 0


def test_shared_w0_members_share_the_frozen_network_only():
    lp = LotteryPrior(members=3, shared_w0=True, seed=1)
    net, _ = lp.build((3, 16, 16))
    for layer in net.layers:
        assert torch.equal(layer.w0[0], layer.w0[1]) and torch.equal(layer.w0[0], layer.w0[2])
        assert not torch.equal(layer.scores[0], layer.scores[1])
    own, _ = LotteryPrior(members=3, seed=1).build((3, 16, 16))
    assert not torch.equal(own.layers[0].w0[0], own.layers[0].w0[1])


def test_scores_receive_nonzero_straight_through_gradients():
    y, op = _obs()
    lp = LotteryPrior(members=1, seed=0)
    net, arm = lp.build((1, 16, 16))
    q = [lat * 16 for lat in net.latents]
    op.data_loss(net(q), to_chw(y, unit_range=False).float()).sum().backward()
    for layer in net.layers:
        assert layer.scores.grad is not None and layer.scores.grad.abs().sum() > 0


def test_rate_knob_large_lambda_drives_bits_to_zero():
    y, op = _obs()
    lp = LotteryPrior(members=1, steps=120, lam=1e3, seed=0)
    big = lp.solve(y, op)
    small = LotteryPrior(members=1, steps=120, lam=1e-4, seed=0).solve(y, op)
    assert big.latent_bpp < 0.05 < small.latent_bpp
    assert all(float(torch.round(lat * 16).abs().max()) == 0 for lat in lp.net_.latents)  # every latent at 0


def test_lambda_zero_long_run_fits_the_noisy_observation():
    """Capacity: with no rate penalty the network fits y below sigma^2 / 2 (it can overfit the noise)."""
    sigma = 0.1
    y, op = _obs(sigma)
    sol = LotteryPrior(members=1, steps=150, lam=0.0, seed=0, score_lr=0.05).solve(y, op)
    assert sol.history["data"][-1] < sigma**2 / 2


def test_super_resolution_and_inpainting_run_at_full_resolution():
    sr = SuperResolution(2, 0.02)
    y = sr.observe(IMG, np.random.default_rng(1))
    out = LotteryPrior(members=1, steps=5).solve(y, sr)
    assert tuple(y.shape) == (1, 8, 8) and out.estimate.shape == (16, 16)
    mask = np.random.default_rng(2).random((16, 16)) < 0.5
    inp = Inpaint(mask, 0.02)
    out = LotteryPrior(members=2, steps=5, weighting="loss").solve(
        inp.observe(IMG, np.random.default_rng(3)), inp
    )
    w = 1 / out.final_loss
    assert np.allclose(out.estimate, np.tensordot(w / w.sum(), out.members, axes=1))


@pytest.mark.parametrize(
    ("make", "match"),
    [
        (lambda: Denoise(0.1).observe(np.full((8, 8), np.nan), np.random.default_rng(0)), "NaN"),
        (lambda: Denoise(0.1).observe(np.full((8, 8), 1.5), np.random.default_rng(0)), r"\[0, 1\]"),
        (lambda: Denoise(-0.1), "sigma"),
        (
            lambda: Inpaint(np.ones((8, 8), dtype=bool), 0.1).observe(
                np.zeros((8, 9)), np.random.default_rng(0)
            ),
            "mask shape",
        ),
        (lambda: Inpaint(np.ones((8, 8)), 0.1), "boolean"),
        (lambda: SuperResolution(3, 0.1).observe(np.zeros((16, 16)), np.random.default_rng(0)), "divide"),
        (lambda: SuperResolution(1, 0.1), "factor"),
        (lambda: LotteryPrior(members=0).solve(np.zeros((16, 16)), Denoise(0.1)), "members"),
        (lambda: LotteryPrior(keep=0.0).solve(np.zeros((16, 16)), Denoise(0.1)), "keep"),
        (lambda: LotteryPrior(keep=1.2).solve(np.zeros((16, 16)), Denoise(0.1)), "keep"),
        (lambda: LotteryPrior().solve(np.zeros((16, 16)), "denoise"), "operator"),
        (lambda: LotteryPrior().solve(np.full((16, 16), np.inf), Denoise(0.1)), "NaN or inf"),
        (lambda: LotteryPrior(weighting="median").solve(np.zeros((16, 16)), Denoise(0.1)), "weighting"),
    ],
)
def test_bad_input_is_rejected_with_a_clear_message(make, match):
    with pytest.raises(ValueError, match=match):
        make()
