"""Correctness of the operators, the entropy model, the masked random network and the bound."""

import math

import numpy as np
import pytest
import torch

from icml26.lottery_prior import (
    Arm,
    Denoise,
    Inpaint,
    LotteryNet,
    SuperResolution,
    TopKMask,
    Upsampler,
    binary_entropy,
    causal_context,
    causal_offsets,
    cosine_basis,
    ensemble_mean,
    expgolomb_bits,
    kumaraswamy_noise,
    laplace_bin_mass,
    latent_bits,
    mask_bits,
    ml_decode,
    ml_error_bound,
    quantize,
    softround,
    structured_weight,
)

pytestmark = pytest.mark.usefixtures("one_torch_thread")
RNG = np.random.default_rng(0)
MASK = RNG.random((12, 16)) < 0.5

OPERATORS = [
    ("denoise", Denoise(0.1), (3, 12, 16)),
    ("sr2", SuperResolution(2, 0.05), (3, 12, 16)),
    ("sr4_grey", SuperResolution(4, 0.05, blur=1.3), (1, 12, 16)),
    ("inpaint", Inpaint(MASK, 0.1), (3, 12, 16)),
]


@pytest.mark.parametrize(("name", "op", "shape"), OPERATORS, ids=[o[0] for o in OPERATORS])
def test_adjoint_identity(name, op, shape):
    """<A x, y> = <x, A^T y> for random x and y (float64)."""
    g = torch.Generator().manual_seed(1)
    x = torch.rand(shape, generator=g, dtype=torch.float64)
    ax = op.forward(x)
    y = torch.randn(ax.shape, generator=g, dtype=torch.float64)
    assert float((ax * y).sum()) == pytest.approx(float((x * op.adjoint(y)).sum()), rel=1e-12)


def test_super_resolution_shapes_and_normalised_blur():
    op = SuperResolution(4, 0.0)
    x = torch.full((3, 32, 32), 0.6, dtype=torch.float64)
    y = op.forward(x)
    assert tuple(y.shape) == (3, 8, 8) and op.image_shape(y) == (3, 32, 32)
    # away from the zero boundary, a constant image stays constant (the kernel sums to 1)
    assert torch.allclose(y[:, 1:-1, 1:-1], torch.full_like(y[:, 1:-1, 1:-1], 0.6), atol=1e-12)
    # decimation keeps pixel (0, 0), (0, 4), ...: a delta at (8, 12) shows up at (2, 3)
    delta = torch.zeros(1, 32, 32, dtype=torch.float64)
    delta[0, 8, 12] = 1.0
    out = op.forward(delta)
    assert int(out.argmax()) == 2 * 8 + 3


def test_data_loss_exact_and_missing_pixels_get_zero_gradient():
    x = torch.full((1, 4, 4), 0.5, dtype=torch.float64)
    assert float(Denoise(0.1).data_loss(x, x + 0.1)) == pytest.approx(0.01)
    mask = np.zeros((4, 4), dtype=bool)
    mask[:2] = True
    op = Inpaint(mask, 0.1)
    y = op.forward(x + 0.2)  # observed residual 0.2 on 8 pixels, mean over those 8 only
    xg = x.clone().requires_grad_(True)
    loss = op.data_loss(xg, y)
    assert float(loss.detach()) == pytest.approx(0.04)
    loss.backward()
    assert torch.all(xg.grad[0, 2:] == 0) and torch.all(xg.grad[0, :2] != 0)


def test_observe_noise_on_observed_samples_only():
    op = Inpaint(MASK, 0.1)
    x = np.full((12, 16), 0.5)
    y = op.observe(x, np.random.default_rng(3))
    assert torch.all(y[0][~torch.as_tensor(MASK)] == 0)
    assert float((y[0][torch.as_tensor(MASK)] - 0.5).std()) == pytest.approx(0.1, rel=0.2)


def test_laplace_masses_sum_to_one_and_rate_grows_away_from_the_mean():
    q = torch.arange(-400, 401, dtype=torch.float64)
    for mu, b in ((0.0, 1.0), (2.3, 0.4), (-5.7, 7.0)):
        mass = laplace_bin_mass(q, torch.tensor(mu), torch.tensor(b))
        assert float(mass.sum()) == pytest.approx(1.0, abs=1e-6)
        assert torch.all(mass >= 0)
    mass = laplace_bin_mass(torch.arange(0, 20.0), torch.tensor(0.0), torch.tensor(1.5))
    assert torch.all(mass[1:] < mass[:-1])  # -log2 P grows with |q - mu|
    # exact: P(0 | mu=0, b) = 1 - exp(-1 / (2 b))
    assert float(mass[0]) == pytest.approx(1 - math.exp(-1 / 3))


def test_causal_context_never_sees_the_present_or_the_future():
    lat = torch.randn(2, 1, 6, 7)
    window = 5
    assert len(causal_offsets(window)) == 12
    base = causal_context(lat, window)
    p = 3 * 7 + 4  # raster position (3, 4)
    bumped = lat.clone()
    bumped[1, 0, 3, 4] += 10.0
    changed = (causal_context(bumped, window) != base).any(dim=-1)
    assert not changed[:, : p + 1].any()  # positions up to and including p: unchanged
    assert not changed[0].any()  # members are independent
    assert changed[1, p + 1] and changed[1, p + 7]  # right neighbour and the pixel below see it
    # an exact neighbour: the value left of (3, 4) is the context entry with offset (0, -1)
    j = causal_offsets(window).index((0, -1))
    assert float(base[0, p, j]) == float(lat[0, 0, 3, 3])


def test_arm_rate_is_causal():
    g = [torch.Generator().manual_seed(i) for i in range(1)]
    arm = Arm(1, 12, 8, g)
    lat = torch.round(torch.randn(1, 1, 5, 5) * 3).requires_grad_(True)
    ctx = causal_context(lat, 5)
    mu, b = arm(ctx)
    # the (mu, b) of position p depends only on latents strictly before p in raster order
    p = 12
    grad = torch.autograd.grad(mu[0, p] + b[0, p], lat)[0].flatten()
    assert torch.all(grad[p:] == 0) and grad[:p].abs().sum() > 0
    bits = latent_bits([lat.detach()], arm, 5)
    manual = -torch.log2(laplace_bin_mass(lat.detach().flatten(), mu[0], b[0]).clamp_min(2**-16)).sum()
    assert float(bits[0].detach()) == pytest.approx(float(manual.detach()), rel=1e-6)


def test_arm_forward_is_the_residual_mlp_written_out():
    """``C -> hidden -> hidden (+ residual) -> (mu, log b)``, GELU, ``b = exp(clamp(log b, -4, 5))``, per member."""
    g = [torch.Generator().manual_seed(i) for i in range(2)]
    arm = Arm(2, 12, 8, g)
    with torch.no_grad():
        for w in arm.weights:
            w.normal_(0.0, 0.7, generator=torch.Generator().manual_seed(w.numel()))
        for i, bias in enumerate(arm.biases):
            bias.fill_(0.1 * (i + 1))
    ctx = torch.randn(2, 6, 12, generator=torch.Generator().manual_seed(5))
    mu, b = arm(ctx)
    for k in range(2):
        w0, w1, w2 = (w[k].detach().double().numpy() for w in arm.weights)
        b0, b1, b2 = (bias[k].detach().double().numpy() for bias in arm.biases)
        gelu = lambda v: 0.5 * v * (1 + np.vectorize(math.erf)(v / math.sqrt(2)))  # noqa: E731
        h = gelu(ctx[k].double().numpy() @ w0 + b0)
        h = gelu(h @ w1 + b1) + h
        out = h @ w2 + b2
        np.testing.assert_allclose(mu[k].detach().numpy(), out[:, 0], rtol=1e-4, atol=1e-5)  # float32 module
        np.testing.assert_allclose(b[k].detach().numpy(), np.exp(np.clip(out[:, 1], -4.0, 5.0)), rtol=1e-4)


def test_softround_kumaraswamy_and_quantize_modes():
    x = torch.tensor([-1.3, 0.2, 1.45, 2.7])
    assert torch.allclose(softround(x, 1e-3), torch.round(x))
    half = torch.tensor([-1.5, -0.5, 0.5, 3.5])
    assert torch.allclose(softround(half, 0.3), half)  # half-integers are fixed points
    assert float(softround(torch.tensor(0.3), 0.3)) < 0.3  # pulled towards the nearest integer
    assert torch.allclose(softround(x, 1e3), x, atol=1e-4)  # identity for a large temperature
    u = torch.linspace(0.01, 0.99, 50)
    assert torch.allclose(kumaraswamy_noise(u, 1.0), u - 0.5, atol=1e-6)  # a = 1: uniform
    n = kumaraswamy_noise(torch.rand(20000, generator=torch.Generator().manual_seed(0)), 2.0)
    assert n.abs().max() <= 0.5 and abs(float(n.mean())) < 0.01 and float(n.std()) < 1 / math.sqrt(12)
    xs = torch.tensor([0.3, 1.7], requires_grad=True)
    out = quantize(xs, "ste")
    out.sum().backward()
    assert out.tolist() == [0.0, 2.0] and xs.grad.tolist() == [1.0, 1.0]
    with pytest.raises(ValueError, match="soft|ste|hard"):
        quantize(xs, "round")


def test_bits_counting_exact():
    assert expgolomb_bits(torch.tensor([0.0, 1.0, -1.0, 2.0]), step=1.0) == 1 + 3 + 3 + 5
    assert binary_entropy(0.5) == 1.0 and binary_entropy(1.0) == 0.0
    assert mask_bits(1000, 0.7) == pytest.approx(1000 * (-0.7 * math.log2(0.7) - 0.3 * math.log2(0.3)))


def test_top_k_mask_counts_and_straight_through_gradient():
    scores = torch.randn(3, 7, 11, requires_grad=True)
    k = round(0.7 * 77)
    m = TopKMask.apply(scores, k)
    assert m.sum(dim=(1, 2)).tolist() == [k] * 3
    kth = scores.detach().reshape(3, -1).topk(k, dim=1).values[:, -1]
    assert torch.all(scores.detach().reshape(3, -1)[m.reshape(3, -1) == 1].reshape(3, k).min(1).values >= kth)
    (m * torch.arange(77.0).reshape(7, 11)).sum().backward()
    assert torch.equal(scores.grad[0], torch.arange(77.0).reshape(7, 11))


def test_cosine_basis_and_structured_weight():
    b = cosine_basis(5, low=2, high=3, phases=4, scale=0.05)
    assert b.shape == ((2 + 3) * 4, 5)
    t = torch.linspace(-2 * math.pi, 2 * math.pi, 5, dtype=torch.float64)  # one period of f = 1/2
    assert torch.allclose(b[0], 0.05 * torch.cos(0.5 * t))
    assert torch.allclose(b[1], 0.05 * torch.cos(0.5 * t + math.pi / 2))
    w1 = structured_weight(4, 5, torch.Generator().manual_seed(7), low=2, high=3, phases=4)
    w2 = structured_weight(4, 5, torch.Generator().manual_seed(7), low=2, high=3, phases=4)
    w3 = structured_weight(4, 5, torch.Generator().manual_seed(8), low=2, high=3, phases=4)
    assert torch.equal(w1, w2) and not torch.equal(w1, w3)
    # W0 = Lambda B: every row lies in the row space of B (rank <= rank B)
    wide = cosine_basis(40, low=2, high=1, phases=2)
    w = structured_weight(6, 40, torch.Generator().manual_seed(0), low=2, high=1, phases=2).double()
    coef = np.linalg.lstsq(wide.T.numpy(), w.T.numpy(), rcond=None)[0]
    assert np.allclose(wide.T.numpy() @ coef, w.T.numpy(), atol=1e-6)
    assert np.linalg.matrix_rank(w.numpy(), tol=1e-6) <= np.linalg.matrix_rank(wide.numpy(), tol=1e-9) < 6


def test_structured_weight_has_fan_in_variance():
    """Lambda_ji ~ U(+-sqrt(6/m) / ||B_i||) gives E[W0_jk^2] averaged over k = 2 / in_features (Kaiming)."""
    w = structured_weight(400, 40, torch.Generator().manual_seed(3)).double()
    assert float((w**2).mean()) == pytest.approx(2 / 40, rel=0.1)


def test_upsampler_reproduces_constants_and_linear_ramps():
    up = Upsampler(2)
    const = torch.full((2, 1, 6, 6), 3.0)
    assert torch.allclose(up(const), torch.full((2, 1, 12, 12), 3.0), atol=1e-5)
    ramp = torch.arange(8.0).reshape(1, 1, 1, 8).expand(2, 1, 8, 8)
    fine = up(ramp)[0, 0, 4]
    # fine pixels 2i and 2i + 1 sit symmetrically about coarse pixel i (coordinates i -+ 1/4), so for a
    # symmetric kernel their mean is exactly i on a linear ramp (away from the replicated border)
    pair_mean = (fine[0::2] + fine[1::2]) / 2
    assert torch.allclose(pair_mean[2:-2], torch.arange(2.0, 6.0), atol=1e-5)
    assert torch.all(fine[1:] > fine[:-1])  # monotone


def test_network_shapes_masks_and_frozen_weights():
    net = LotteryNet((3, 16, 16), 0.7, w0_seeds=[1, 2], init_seeds=[5, 6], levels=3)
    q = [torch.zeros_like(lat) for lat in net.latents]
    x = net(q)
    assert tuple(x.shape) == (2, 3, 16, 16) and float(x.min()) >= 0 and float(x.max()) <= 1
    for layer in net.layers:
        n = layer.w0[0].numel()
        assert layer.mask().sum(dim=(1, 2)).tolist() == [round(0.7 * n)] * 2
        assert "w0" in dict(layer.named_buffers()) and not layer.w0.requires_grad
    assert not any(p is layer.w0 for p in net.parameters() for layer in net.layers)
    twin = LotteryNet((3, 16, 16), 0.7, w0_seeds=[1, 1], init_seeds=[5, 6], levels=3)
    assert torch.equal(twin.layers[1].w0[0], net.layers[1].w0[0])
    assert torch.equal(twin.layers[1].w0[0], twin.layers[1].w0[1])
    assert not torch.equal(net.layers[1].w0[0], net.layers[1].w0[1])


def test_ensemble_mean_jensen_and_weighting():
    rng = np.random.default_rng(4)
    truth = rng.random((8, 8))
    members = truth + rng.normal(0, 0.1, (5, 8, 8))
    mean = ensemble_mean(members)
    assert np.mean((mean - truth) ** 2) <= np.mean([np.mean((m - truth) ** 2) for m in members])
    w = ensemble_mean(members[:2], losses=np.array([1.0, 3.0]))
    assert np.allclose(w, 0.75 * members[0] + 0.25 * members[1])


def test_ml_bound_holds_on_every_instance_of_a_random_code():
    rng = np.random.default_rng(11)
    m, n_code, sigma, eta = 20, 64, 0.3, 0.05
    a = rng.normal(size=(m, m)) / math.sqrt(m)
    failures = 0
    for _ in range(300):
        code = rng.normal(size=(n_code, m))
        x = code[0] + 0.05 * rng.normal(size=m)
        y = a @ x + sigma * rng.normal(size=m)
        xh = code[ml_decode(y, code, a)]
        d = min(np.linalg.norm(a @ (x - c)) for c in code)
        rmse = np.linalg.norm(a @ (x - xh)) / math.sqrt(m)
        failures += rmse > ml_error_bound(d, math.log2(n_code), sigma, m, eta)
    assert failures <= 0.05 * 300 * 2  # holds w.p. >= 1 - eta per instance
    # exact value: d = 1, 3 bits, sigma = 0.5, m = 4, eta = 0.1
    t = math.sqrt(2 * (3 * math.log(2) + math.log(10)))
    assert ml_error_bound(1.0, 3, 0.5, 4, 0.1) == pytest.approx((1 + 2 * 0.5 * t) / 2)
