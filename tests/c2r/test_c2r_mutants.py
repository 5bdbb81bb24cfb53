"""Exact cases written to catch plausible slips the core tests let through (mutation testing of C²R's parts)."""

import numpy as np
import pytest
import torch
from c2r_toy import toy

import icml26.c2r.distill as distill_module
from icml26.c2r import (
    C2R,
    DM,
    ClassQueue,
    LineSearchPGD,
    ROMELike,
    attack_aware_batches,
    correct_under_attack,
    crl_loss,
    make_net,
    pgd,
    train_network,
)
from icml26.c2r.bootstrap import bootstrap_weights, interval, resampled_means

torch.set_num_threads(1)
F = torch.nn.functional


def _reference_pgd(net, x, y, eps, steps, delta):
    """PGD written out: step ``2.5 eps / steps`` along the gradient's sign, then the ball and the box."""
    alpha = 2.5 * eps / steps
    delta = (x + delta).clamp(0, 1) - x
    for _ in range(steps):
        d = delta.clone().requires_grad_(True)
        (grad,) = torch.autograd.grad(F.cross_entropy(net(x + d), y), d)
        delta = (delta + alpha * grad.sign()).clamp(-eps, eps)
        delta = (x + delta).clamp(0, 1) - x
    return x + delta


def test_pgd_equals_a_written_out_loop_with_the_default_step():
    x, y, net = toy()
    got = pgd(net, x, y, 0.1, 4, random_start=False)
    assert torch.allclose(got, _reference_pgd(net, x, y, 0.1, 4, torch.zeros_like(x)), atol=1e-6)
    got = pgd(net, x, y, 0.1, 4, generator=torch.Generator().manual_seed(7))
    start = (torch.rand(x.shape, generator=torch.Generator().manual_seed(7)) * 2 - 1) * 0.1
    assert torch.allclose(got, _reference_pgd(net, x, y, 0.1, 4, start), atol=1e-6)


def test_pacing_keeps_each_class_top_ceil_rho_scores():
    scores = torch.rand(40, generator=torch.Generator().manual_seed(5))
    labels = torch.arange(40) % 4
    for rho, keep in ((0.25, 3), (0.01, 1)):  # ceil(2.5) = 3; at least one per class
        kept = set(torch.cat(attack_aware_batches(scores, labels, 2, rho=rho)).tolist())
        want = set()
        for c in range(4):
            idx = torch.nonzero(labels == c).squeeze(1)
            want |= set(idx[scores[idx].topk(keep).indices].tolist())
        assert kept == want


def test_a_class_with_fewer_slices_drops_out_of_the_later_batches():
    scores = torch.tensor([0.1, 0.9, 0.5, 0.3, 0.7, 0.2, 0.4, 0.8])
    labels = torch.tensor([0, 0, 0, 0, 0, 0, 1, 1])
    batches = attack_aware_batches(scores, labels, per_class=2)
    assert [b.tolist() for b in batches] == [[1, 4, 7, 6], [2, 3], [5, 0]]


def _reference_crl(zc, za, y, tau, queue, extra):
    """CRL with loops: extra views are positives of their class; queue entries are negatives only."""
    norm = lambda z: F.normalize(z, dim=1)  # noqa: E731
    zc, za, qz, ez = norm(zc), norm(za), norm(queue[0]), norm(extra[0])
    views = [(v, int(c)) for v, c in zip(torch.cat([zc, za, ez]), torch.cat([y, y, extra[1]]))]
    total = 0.0
    for i in range(len(y)):
        yi = int(y[i])
        pos = [v for j, (v, c) in enumerate(views) if c == yi and j != i]
        neg = [v for v, c in views if c != yi] + [v for v, c in zip(qz, queue[1]) if int(c) != yi]
        logits = torch.stack([zc[i] @ v / tau for v in pos + neg])
        total += -float((logits[: len(pos)] - torch.logsumexp(logits, 0)).mean())
    return total / len(y)


def test_crl_with_extra_views_and_a_queue_equals_a_loop():
    g = torch.Generator().manual_seed(6)
    zc, za = torch.randn(6, 5, generator=g), torch.randn(6, 5, generator=g)
    y = torch.tensor([0, 0, 1, 1, 2, 2])
    extra = (torch.randn(5, 5, generator=g) * torch.arange(1.0, 6.0)[:, None], torch.tensor([0, 1, 2, 2, 0]))
    queue = (torch.randn(7, 5, generator=g) * torch.arange(1.0, 8.0)[:, None], torch.arange(7) % 3)
    got = crl_loss(zc, za, y, 0.3, queue=queue, extra_views=extra)
    assert float(got) == pytest.approx(_reference_crl(zc, za, y, 0.3, queue, extra), rel=1e-5)


def _reference_hard_crl(zc, za, y, tau, queue, k):
    """CRL with loops and each anchor's ``k`` most similar negatives (chosen on detached similarities)."""
    norm = lambda z: F.normalize(z, dim=1)  # noqa: E731
    a, b, qz = norm(zc), norm(za), norm(queue[0])
    views = list(zip(torch.cat([a, b]), torch.cat([y, y]).tolist()))
    total = 0
    for i, yi in enumerate(y.tolist()):
        pos = [v for j, (v, c) in enumerate(views) if c == yi and j != i]
        neg = [v for v, c in views if c != yi] + [v for v, c in zip(qz, queue[1].tolist()) if c != yi]
        neg = sorted(neg, key=lambda v: -float(a[i].detach() @ v.detach()))[:k]
        logits = torch.stack([a[i] @ v / tau for v in pos + neg])
        total = total + -(logits[: len(pos)] - torch.logsumexp(logits, 0)).mean()
    return total / len(y)


def test_hard_negatives_from_a_shortlisted_queue_match_a_loop_in_value_and_gradient():
    g = torch.Generator().manual_seed(8)
    zc, za = torch.randn(6, 5, generator=g), torch.randn(6, 5, generator=g)
    y = torch.tensor([0, 0, 1, 1, 2, 2])
    queue = (torch.randn(30, 5, generator=g), torch.arange(30) % 3)  # ~28 negatives each, shortlist 4k = 8
    grads = []
    for loss in (
        lambda c, d: crl_loss(c, d, y, 0.5, queue=queue, hard_k=2, projection=torch.eye(5)),
        lambda c, d: _reference_hard_crl(c, d, y, 0.5, queue, 2),
    ):
        c, d = zc.clone().requires_grad_(), za.clone().requires_grad_()
        value = loss(c, d)
        value.backward()
        grads.append((float(value), c.grad, d.grad))
    (got, gc, gd), (want, wc, wd) = grads
    assert got == pytest.approx(want, rel=1e-5)
    assert torch.allclose(gc, wc, atol=1e-5) and torch.allclose(gd, wd, atol=1e-5)  # through both views


def test_hard_negatives_are_re_ranked_exactly_among_the_allowed_when_the_shortlist_covers_them():
    g = torch.Generator().manual_seed(9)
    zc, za = torch.randn(6, 5, generator=g), torch.randn(6, 5, generator=g)
    y = torch.tensor([0, 0, 1, 1, 2, 2])
    queue = (torch.randn(3, 5, generator=g), torch.arange(3))  # 10 allowed of 15; shortlist 4k = 12
    projection = torch.linalg.qr(torch.randn(5, 2, generator=g))[0].T  # rank 2: its ranking is inexact
    got = crl_loss(zc, za, y, 0.5, queue=queue, hard_k=3, projection=projection)
    assert float(got) == pytest.approx(float(_reference_hard_crl(zc, za, y, 0.5, queue, 3)), rel=1e-5)


def test_ls_pgd_counts_refreshed_and_reused_samples():
    x, y, net = toy()
    ls = LineSearchPGD(len(x), tuple(x.shape[1:]), eps=0.1)
    idx = torch.arange(len(x))
    ls(net, x, y, idx)
    assert (ls.refreshed, ls.reused) == (len(x), 0)
    ls(net, x, y, idx)
    assert (ls.refreshed, ls.reused) == (len(x), len(x))


def test_the_curriculum_feeds_the_highest_perturbation_scores_first(monkeypatch):
    x, y, net = toy()
    scores = torch.randperm(16, generator=torch.Generator().manual_seed(3)).float()
    monkeypatch.setattr(distill_module, "perturbation_score", lambda *a, **k: scores)
    c2r = C2R(n_classes=4, iterations=1, real_per_class=2)
    seen = []
    c2r.batch_loss = lambda xs, ys, index, it, g: seen.append(index) or xs.sum() * 0
    c2r.distill(x, y, ipc=4, seed=0, pool=[net])  # the synthetic set is class-sorted, 4 per class
    want = {4 * c + int(i) for c in range(4) for i in scores[4 * c : 4 * c + 4].topk(2).indices}
    assert set(seen[0].tolist()) == want


def test_the_real_views_are_attacked_toward_the_next_class():
    x, y, net = toy()
    rome = ROMELike(n_classes=4, eps=0.1)
    rome.prepare(x, y, [net], torch.Generator().manual_seed(0))
    want = pgd(net, x, (y + 1) % 4, 0.1, 10, 0.025, targeted=True, generator=torch.Generator().manual_seed(0))
    assert torch.equal(rome._adv_real[0], want)


def test_the_real_images_are_disjoint_from_the_initial_synthetic_ones():
    x, y, _ = toy()
    dm = DM(iterations=0, real_per_class=4, n_classes=4)
    out = dm.distill(x, y, ipc=2, seed=0)
    assert len(dm._real) == 16
    same = (dm._real.flatten(1)[:, None] == out.images.flatten(1)[None]).all(2)
    assert not same.any()


@pytest.mark.parametrize(("inner", "want"), [("ls_pgd", 1.0), ("pgd10", 10.0)])
def test_backward_passes_are_counted_per_synthetic_sample_and_iteration(inner, want):
    x, y, net = toy()
    c2r = C2R(n_classes=4, iterations=2, real_per_class=4, inner_attack=inner, curriculum=False)
    out = c2r.distill(x, y, ipc=2, seed=0, pool=[net])  # two batches of 4 fresh samples
    assert out.attack_backward_per_sample == pytest.approx(want)


def test_the_memory_queue_holds_the_real_adversarial_views():
    x, y, net = toy()
    c2r = C2R(n_classes=4, iterations=1, real_per_class=4, queue_size=64)
    c2r.distill(x, y, ipc=2, seed=0, pool=[net])
    z, _ = c2r._queues[0].contents()
    assert isinstance(c2r._queues[0], ClassQueue) and len(z) == 16  # 4 real views of each batch class
    with torch.no_grad():
        real = net.embed(c2r._adv_real[0])
    assert torch.cdist(z, real).min(1).values.max() < 1e-4


def test_pgd_at_training_equals_a_written_out_loop():
    x, y, _ = toy()
    got = train_network(x, y, seed=3, epochs=2, lr=0.05, protocol="pgd_at", batch=16, width=8)
    net = make_net(x, 3, 8)
    opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9, weight_decay=5e-4)
    g = torch.Generator().manual_seed(3)
    for epoch in range(2):
        for group in opt.param_groups:
            group["lr"] = 0.05 if epoch < 1 else 0.005  # divided by 10 at half the epochs
        for idx in torch.randperm(len(x), generator=g).split(16):
            xa = pgd(net, x[idx], y[idx], 2 / 255, 3, generator=g)  # untargeted PGD-3
            net.train()
            loss = F.cross_entropy(net(xa), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
    for a, b in zip(got.state_dict().values(), net.state_dict().values()):
        assert torch.allclose(a, b, atol=1e-6)


def test_the_interval_is_the_central_95_percent():
    assert interval(np.arange(1001.0)) == (25.0, 975.0)


def test_bootstrap_intervals_carry_the_image_variance():
    per_image = np.zeros((3, 1)) + np.linspace(0.0, 1.0, 40)
    low, high = interval(resampled_means(per_image, bootstrap_weights(3, 40, seed=0, n_boot=400)))
    assert high - low > 0.1  # the seeds are identical: all the width comes from the images


class _Saddle(torch.nn.Module):
    """Class 0 wins at the constant image 0.5, where the loss's gradient is zero; any step away fools it."""

    def forward(self, x):
        r = ((x.flatten(1) - 0.5) ** 2).sum(1)
        return torch.stack([torch.full_like(r, 0.1), 100 * r], 1)


def test_pgd_restarts_start_at_random_points_and_escape_a_saddle():
    x, y = torch.full((5, 1, 8, 8), 0.5), torch.zeros(5, dtype=torch.long)
    assert correct_under_attack(_Saddle(), x, y, "clean", 0.05).all()
    assert not correct_under_attack(_Saddle(), x, y, "pgd50x3", 0.05).any()


def test_hard_negatives_take_float64_embeddings_with_a_float32_projection():
    g = torch.Generator().manual_seed(10)
    zc, za = torch.randn(6, 5, generator=g), torch.randn(6, 5, generator=g)
    y = torch.tensor([0, 0, 1, 1, 2, 2])
    queue = (torch.randn(30, 5, generator=g), torch.arange(30) % 3)
    single = crl_loss(zc, za, y, 0.5, queue=queue, hard_k=2, projection=torch.eye(5))
    double = crl_loss(zc.double(), za.double(), y, 0.5, queue=(queue[0].double(), queue[1]), hard_k=2,
                      projection=torch.eye(5))  # fmt: skip
    assert double.dtype == torch.float64 and float(double) == pytest.approx(float(single), rel=1e-5)
