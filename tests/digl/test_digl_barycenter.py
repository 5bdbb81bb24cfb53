"""The invariant prototype: W2 barycenters, distances, distortions and the invariance penalty."""

import numpy as np
import ot
import pytest
import torch
from scipy.optimize import linear_sum_assignment

from icml26.digl import (
    barycenter,
    barycentric_energy,
    bures_w2_squared,
    distortion,
    gaussian_barycenter,
    gaussian_moments,
    geodesic_step,
    invariance_penalty,
    sinkhorn_w2_squared,
    w2_squared,
)


def clouds(seed, sizes=(6, 6, 6), d=1, shift=0.0):
    g = torch.Generator().manual_seed(seed)
    return [torch.randn(n, d, generator=g, dtype=torch.float64) + shift * i for i, n in enumerate(sizes)]


@pytest.mark.parametrize("weights", [None, [0.2, 0.3, 0.5]])
def test_1d_barycenter_is_the_weighted_average_of_sorted_samples(weights):
    xs = clouds(0)
    proto = barycenter(xs, weights, n_iter=50)
    lam = np.full(3, 1 / 3) if weights is None else np.asarray(weights)
    expected = sum(w * np.sort(x.numpy().ravel()) for w, x in zip(lam, xs, strict=True))
    assert np.allclose(np.sort(proto.support.numpy().ravel()), expected, atol=1e-9)


def test_2d_barycenter_of_two_equal_clouds_is_the_midpoint_of_the_optimal_assignment():
    a, b = clouds(1, sizes=(7, 7), d=2, shift=3.0)
    rows, cols = linear_sum_assignment(ot.dist(a.numpy(), b.numpy()))
    midpoint = (a.numpy()[rows] + b.numpy()[cols]) / 2
    proto = barycenter([a, b], n_iter=50)
    got = proto.support.numpy()
    assert np.allclose(got[np.lexsort(got.T)], midpoint[np.lexsort(midpoint.T)], atol=1e-8)
    # its energy is half the squared distance between the two (the W2 geodesic's midpoint)
    assert float(barycentric_energy([a, b], proto)) == pytest.approx(float(w2_squared(a, b)) / 4, rel=1e-9)


def test_w2_squared_equals_the_optimal_assignment_cost_and_has_its_gradient():
    x, y = clouds(2, sizes=(5, 5), d=3)
    x.requires_grad_(True)
    cost = w2_squared(x, y)
    c = ot.dist(x.detach().numpy(), y.numpy())
    rows, cols = linear_sum_assignment(c)
    assert float(cost.detach()) == pytest.approx(c[rows, cols].mean(), rel=1e-12)
    cost.backward()
    expected = 2 * (x.detach().numpy()[rows] - y.numpy()[cols]) / 5
    assert np.allclose(x.grad.numpy()[rows], expected)


def test_gaussian_barycenter_with_commuting_covariances_is_the_squared_mean_root():
    g = torch.Generator().manual_seed(3)
    means = torch.randn(3, 4, generator=g, dtype=torch.float64)
    diags = torch.rand(3, 4, generator=g, dtype=torch.float64) + 0.1
    covs = torch.diag_embed(diags)
    lam = np.array([0.5, 0.3, 0.2])
    mean, cov = gaussian_barycenter(means, covs, lam, n_iter=200)
    w = torch.as_tensor(lam)
    assert torch.allclose(mean, (w[:, None] * means).sum(0))
    assert torch.allclose(cov, torch.diag(((w[:, None] * diags.sqrt()).sum(0)) ** 2), atol=1e-8)


def test_bures_distance_matches_pot_and_stays_differentiable_when_rank_deficient():
    g = torch.Generator().manual_seed(4)
    a, b = (
        torch.randn(4, 4, generator=g, dtype=torch.float64),
        torch.randn(4, 4, generator=g, dtype=torch.float64),
    )
    s1, s2 = a @ a.T + 0.1 * torch.eye(4), b @ b.T + 0.1 * torch.eye(4)
    m1, m2 = (
        torch.randn(4, generator=g, dtype=torch.float64),
        torch.randn(4, generator=g, dtype=torch.float64),
    )
    ref = float(ot.gaussian.bures_wasserstein_distance(m1, m2, s1, s2)) ** 2
    assert float(bures_w2_squared(m1, s1, m2, s2)) == pytest.approx(ref, rel=1e-8)
    assert float(bures_w2_squared(m1, s1, m1, s1)) == pytest.approx(0.0, abs=1e-6)
    x = torch.randn(3, 8, generator=g, dtype=torch.float64, requires_grad=True)  # 3 points in 8 dims
    mean, cov = gaussian_moments(x)
    target = gaussian_moments(torch.randn(5, 8, generator=g, dtype=torch.float64))
    bures_w2_squared(mean, cov, *target).backward()
    assert torch.isfinite(x.grad).all() and x.grad.abs().sum() > 0


def test_distortion_energy_is_the_w2_to_the_prototype_and_its_map_is_a_matching():
    xs = clouds(5, sizes=(6, 6), d=2)
    proto = barycenter(xs, n_iter=20)
    mapped, energy = distortion(proto, xs[1])
    assert float(energy) == pytest.approx(float(w2_squared(proto.support, xs[1])), rel=1e-10)
    # equal sizes, uniform weights: the plan is a permutation, so T maps the support onto the cloud
    assert np.allclose(np.sort(mapped.numpy(), 0), np.sort(xs[1].numpy(), 0))
    with pytest.raises(ValueError, match="discrete prototype"):
        distortion(barycenter(xs, kind="bures"), xs[1])


def test_geodesic_step_interpolates_between_old_and_matched_new_support():
    old, new = clouds(6, sizes=(5, 5), d=2)
    assert torch.allclose(geodesic_step(old, new, 0.0), old)
    step = geodesic_step(old, new, 1.0).numpy()
    assert np.allclose(np.sort(step, 0), np.sort(new.numpy(), 0))
    half = geodesic_step(old, new, 0.5)
    assert float(w2_squared(old, half)) == pytest.approx(float(w2_squared(old, new)) / 4, rel=1e-9)


@pytest.mark.parametrize("kind", ["free_support", "bures"])
def test_identical_environments_give_zero_penalty(kind):
    g = torch.Generator().manual_seed(7)
    base = torch.randn(8, 3, generator=g, dtype=torch.float64)
    y = torch.tensor([0, 1] * 4)
    z = torch.cat([base, base, base])
    env = torch.repeat_interleave(torch.arange(3), 8)
    penalty, protos = invariance_penalty(z, y.repeat(3), env, kind)
    assert float(penalty) == pytest.approx(0.0, abs=1e-6)
    assert set(protos) == {0, 1}
    shifted = torch.cat([base, base + 1.0, base])
    assert float(invariance_penalty(shifted, y.repeat(3), env, kind)[0]) > 0.1


@pytest.mark.parametrize("kind", ["free_support", "bures", "sinkhorn"])
def test_penalty_gradients_flow_and_stay_finite_with_a_missing_class_or_environment(kind):
    g = torch.Generator().manual_seed(8)
    z = torch.randn(12, 4, generator=g, requires_grad=True)
    y = torch.tensor([0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 2])
    env = torch.tensor([0, 1, 2, 0, 1, 2, 0, 0, 0, 1, 1, 1])  # class 1 only in env 0, class 2 only in env 1
    penalty, protos = invariance_penalty(z, y, env, kind)
    penalty.backward()
    assert set(protos) == {0} and torch.isfinite(z.grad).all()
    assert z.grad[:6].abs().sum() > 0 and torch.all(z.grad[6:] == 0)
    z.grad = None
    none, protos = invariance_penalty(z, y, torch.zeros(12, dtype=torch.long), kind)  # one environment
    none.backward()
    assert float(none.detach()) == 0.0 and protos == {} and torch.all(z.grad == 0)


def test_memory_bank_keeps_a_fixed_support_per_class():
    g = torch.Generator().manual_seed(9)
    bank: dict = {}
    y, env = torch.tensor([0, 1] * 6), torch.repeat_interleave(torch.arange(2), 6)
    for _ in range(3):
        z = torch.randn(12, 3, generator=g)
        invariance_penalty(z, y, env, bank=bank, bank_size=4, bank_rate=0.5)
    assert set(bank) == {0, 1} and all(v.shape == (4, 3) for v in bank.values())


def test_sinkhorn_cost_approaches_the_exact_one_as_reg_shrinks():
    x, y = clouds(10, sizes=(6, 6), d=2, shift=3.0)  # eps = reg * mean cost: a relative blur
    exact = float(w2_squared(x, y))
    small, large = float(sinkhorn_w2_squared(x, y, 0.05)), float(sinkhorn_w2_squared(x, y, 1.0))
    assert small == pytest.approx(exact, rel=0.03) and large > small > exact


def test_bad_input_is_rejected_with_a_clear_message():
    xs = clouds(11)
    with pytest.raises(ValueError, match="barycenter must be one of"):
        barycenter(xs, kind="mean")
    with pytest.raises(ValueError, match="non-empty list"):
        barycenter([])
    with pytest.raises(ValueError, match="one d"):
        barycenter([xs[0], torch.randn(3, 2, dtype=torch.float64)])
    with pytest.raises(ValueError, match="weights must be 3 finite non-negative"):
        barycenter(xs, [1.0, -1.0, 1.0])
    with pytest.raises(ValueError, match="init must have shape"):
        barycenter(xs, init=torch.zeros(2, 1, dtype=torch.float64))
    with pytest.raises(ValueError, match="z must be"):
        invariance_penalty(
            torch.zeros(4, 2), torch.zeros(3, dtype=torch.long), torch.zeros(4, dtype=torch.long)
        )
    with pytest.raises(ValueError, match="means must be"):
        gaussian_barycenter(torch.zeros(2, 3), torch.zeros(2, 3, 3, 1))


def test_normalized_penalty_is_scale_free_and_raw_penalty_scales_quadratically():
    g = torch.Generator().manual_seed(12)
    z = torch.randn(18, 3, generator=g, dtype=torch.float64)
    y, env = torch.tensor([0, 1, 2] * 6), torch.repeat_interleave(torch.arange(3), 6)
    raw, _ = invariance_penalty(z, y, env)
    assert float(invariance_penalty(10 * z, y, env)[0]) == pytest.approx(100 * float(raw), rel=1e-9)
    norm, _ = invariance_penalty(z, y, env, normalize=True)
    assert float(invariance_penalty(10 * z, y, env, normalize=True)[0]) == pytest.approx(
        float(norm), rel=1e-6
    )
    centred = torch.cat([z[y == c] - z[y == c].mean(0) for c in range(3)])
    assert float(norm) == pytest.approx(float(raw) / float((centred**2).sum(1).mean()), rel=1e-6)
