"""C²R's parts on exact small cases and invariants (margins, curriculum, CRL, queue, LS-PGD, bad input)."""

import itertools
import math

import numpy as np
import pytest
import torch
from c2r_toy import toy

from icml26.c2r import (
    C2R,
    DM,
    BackwardCounter,
    ClassQueue,
    LineSearchPGD,
    ROMELike,
    attack_aware_batches,
    crl_loss,
    logit_margin,
    perturbation_score,
    pgd,
    projected_topk,
    random_projection,
    robust_hinge,
)
from icml26.c2r.bootstrap import bootstrap_weights, resampled_means
from icml26.c2r.evaluate import correct_under_attack, train_network

torch.set_num_threads(1)


def test_logit_margin_on_hand_written_logits():
    logits = torch.tensor([[2.0, 0.5, 1.0], [0.0, 3.0, -1.0], [1.0, 1.0, 4.0]])
    y = torch.tensor([0, 2, 1])
    assert logit_margin(logits, y).tolist() == [1.0, -4.0, -3.0]
    assert robust_hinge(torch.tensor([1.5, 0.25, -2.0])).tolist() == [0.0, 0.75, 3.0]


def test_largest_hinge_belongs_to_the_smallest_margin():
    g = torch.Generator().manual_seed(0)
    for _ in range(50):
        m = torch.randn(17, generator=g) * 2
        assert robust_hinge(m).max() == robust_hinge(m.min()[None])[0]
        assert robust_hinge(m).argmax() == m.argmin() or robust_hinge(m).max() == 0


def test_pgd_stays_in_the_ball_and_the_box_and_raises_the_loss():
    x, y, net = toy()
    adv = pgd(net, x, y, 0.1, 10)
    assert (adv - x).abs().max() <= 0.1 + 1e-6 and adv.min() >= 0 and adv.max() <= 1
    ce = torch.nn.functional.cross_entropy
    with torch.no_grad():
        assert ce(net(adv), y) > ce(net(x), y) + 1e-3
        toward = pgd(net, x, (y + 1) % 4, 0.1, 10, targeted=True)
        assert ce(net(toward), (y + 1) % 4) < ce(net(x), (y + 1) % 4)


def test_the_score_is_a_hinge_and_grows_under_attack():
    x, y, net = toy()
    s = perturbation_score(net, x, y, 0.1, steps=3)
    with torch.no_grad():
        clean = robust_hinge(logit_margin(net(x), y))
    assert (s >= 0).all() and s.mean() > clean.mean()


def test_the_first_curriculum_batch_holds_each_class_smallest_margins():
    g = torch.Generator().manual_seed(1)
    scores = torch.rand(30, generator=g)
    labels = torch.arange(30) % 3
    batches = attack_aware_batches(scores, labels, per_class=4)
    assert sorted(torch.cat(batches).tolist()) == list(range(30))  # a partition
    for c in range(3):
        in_class = scores[labels == c]
        first = scores[batches[0]][labels[batches[0]] == c]
        assert len(first) == 4 and torch.equal(
            first.sort(descending=True).values, in_class.sort(descending=True).values[:4]
        )
    means = [scores[b].mean() for b in batches]
    assert means == sorted(means, reverse=True)
    assert len(torch.cat(attack_aware_batches(scores, labels, 4, rho=0.5))) == 15


def reference_supcon(zc, za, y, tau):
    """SupCon written with loops: anchors are the clean views."""
    zc, za = torch.nn.functional.normalize(zc, dim=1), torch.nn.functional.normalize(za, dim=1)
    views = [(zc[j], int(y[j]), ("c", j)) for j in range(len(y))] + [
        (za[j], int(y[j]), ("a", j)) for j in range(len(y))
    ]
    total = 0.0
    for i in range(len(y)):
        cands = [(v, lab) for v, lab, ident in views if ident != ("c", i)]
        pos = [v for v, lab in cands if lab == int(y[i])]
        denom = sum(math.exp(float(zc[i] @ v) / tau) for v, _ in cands)
        total += -sum(math.log(math.exp(float(zc[i] @ p) / tau) / denom) for p in pos) / len(pos)
    return total / len(y)


def test_crl_equals_a_hand_computed_supcon_and_ignores_scale():
    zc = torch.tensor([[1.0, 0.0], [0.8, 0.6], [0.0, 1.0], [-0.6, 0.8]])
    za = torch.tensor([[0.9, 0.1], [0.6, 0.8], [0.2, 1.0], [-0.8, 0.6]])
    y = torch.tensor([0, 0, 1, 1])
    got = crl_loss(zc, za, y, tau=0.5)
    assert float(got) == pytest.approx(reference_supcon(zc, za, y, 0.5), rel=1e-6)
    assert float(crl_loss(3.0 * zc, 0.2 * za, y, tau=0.5)) == pytest.approx(float(got), rel=1e-6)
    swapped = crl_loss(zc, za, torch.tensor([0, 1, 0, 1]), tau=0.5)
    assert float(swapped) > float(got)  # mixing the classes' clusters costs more


def test_crl_negatives_from_queue_raise_the_loss_and_hard_k_keeps_the_closest():
    g = torch.Generator().manual_seed(2)
    zc, za = torch.randn(6, 16, generator=g), torch.randn(6, 16, generator=g)
    y = torch.tensor([0, 0, 1, 1, 2, 2])
    qz, qy = torch.randn(30, 16, generator=g), torch.arange(30) % 3
    base = crl_loss(zc, za, y)
    assert crl_loss(zc, za, y, queue=(qz, qy)) > base
    full = crl_loss(zc, za, y, queue=(qz, qy))
    few = crl_loss(zc, za, y, queue=(qz, qy), hard_k=4, projection=torch.eye(16))
    assert few < full  # fewer negatives in the denominator


def test_the_queue_is_fifo_per_class_with_capacity():
    q = ClassQueue(n_classes=2, dim=1, capacity=3)
    for step in range(5):
        q.push(torch.tensor([[float(step)], [10.0 + step]]), torch.tensor([0, 1]))
    z, y = q.contents()
    assert z[y == 0].squeeze(1).tolist() == [2.0, 3.0, 4.0]
    assert z[y == 1].squeeze(1).tolist() == [12.0, 13.0, 14.0]
    assert len(q) == 6


def test_projected_topk_recalls_the_exact_topk():
    g = torch.Generator().manual_seed(3)
    basis = torch.randn(8, 128, generator=g)
    keys = torch.randn(2000, 8, generator=g) @ basis + 0.05 * torch.randn(2000, 128, generator=g)
    queries = torch.randn(50, 8, generator=g) @ basis
    exact = (queries @ keys.T).topk(32, dim=1).indices
    approx = projected_topk(queries, keys, 32, random_projection(128, 64, g))
    recall = sum(len(set(a.tolist()) & set(b.tolist())) for a, b in zip(exact, approx)) / exact.numel()
    assert recall >= 0.8


def test_ls_pgd_stays_feasible_and_takes_at_most_one_backward_per_sample():
    x, y, net = toy()
    ls = LineSearchPGD(len(x), tuple(x.shape[1:]), eps=0.1, steps=4)
    idx = torch.arange(len(x))
    counter = BackwardCounter(net)
    adv = ls(net, x, y, idx)
    assert counter.count == len(x)  # the first call refreshes every sample, once
    assert (adv - x).abs().max() <= 0.1 + 1e-6 and adv.min() >= 0 and adv.max() <= 1
    ce = torch.nn.functional.cross_entropy
    with torch.no_grad():
        assert ce(net(adv), y) > ce(net(x), y)
    before = counter.count
    ls(net, x, y, idx)  # same model and images: the losses did not fall, so every delta is reused
    assert counter.count == before and ls.reused == len(x)
    counter.close()


def test_seeded_distillation_is_deterministic_and_feasible():
    x, y, net = toy()
    pool = [net]
    for method in (
        DM(iterations=3, real_per_class=4, n_classes=4),
        C2R(iterations=3, real_per_class=4, n_classes=4),
    ):
        a = method.distill(x, y, ipc=2, seed=5, pool=pool)
        b = method.distill(x, y, ipc=2, seed=5, pool=pool)
        assert torch.equal(a.images, b.images) and a.images.min() >= 0 and a.images.max() <= 1
        assert a.labels.tolist() == sorted(a.labels.tolist()) and len(a.labels) == 8


def test_distillation_moves_the_images_toward_its_objective():
    x, y, net = toy()
    rome = ROMELike(iterations=0, real_per_class=4, n_classes=4).distill(x, y, 2, 0, [net])
    moved = ROMELike(iterations=15, lr_img=0.5, real_per_class=4, n_classes=4, eta=0.0).distill(
        x, y, 2, 0, [net]
    )
    ce = torch.nn.functional.cross_entropy
    with torch.no_grad():
        assert ce(net(moved.images), moved.labels) < ce(net(rome.images), rome.labels)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda x, y, n: C2R(n_classes=4).distill(x * 2, y, 2, 0, [n]), "images must lie in"),
        (lambda x, y, n: C2R(n_classes=4).distill(x, y + 4, 2, 0, [n]), "labels must lie in"),
        (lambda x, y, n: C2R(n_classes=4).distill(x, y, 0, 0, [n]), "ipc must be an integer"),
        (lambda x, y, n: C2R(n_classes=4).distill(x, y, 11, 0, [n]), "above the smallest class"),
        (lambda x, y, n: C2R(n_classes=4, eps=0.0), "eps > 0"),
        (lambda x, y, n: pgd(n, x, y, -1.0, 3), "eps > 0"),
        (lambda x, y, n: C2R(n_classes=4).distill(x, y, 2, 0, []), "needs a pool"),
        (lambda x, y, n: correct_under_attack(n, x, y, "fgsm", 0.0), "eps must be > 0"),
        (lambda x, y, n: correct_under_attack(n, x, y, "nope", 0.1), "attack 'nope'"),
        (lambda x, y, n: train_network(x, y, 0, protocol="robust"), "protocol 'robust'"),
        (lambda x, y, n: C2R(rho=0.0), "0 < rho <= 1"),
        (lambda x, y, n: C2R(ls_beta=1.0), "0 < ls_beta < 1"),
        (lambda x, y, n: C2R(hard_k=0), "hard_k None or >= 1"),
        (lambda x, y, n: ClassQueue(2, 1, 3).push(torch.zeros(2, 1), torch.tensor([0, 2])), "labels in 0..1"),
    ],
)
def test_bad_input_is_rejected_with_a_clear_message(call, message):
    x, y, net = toy()
    with pytest.raises(ValueError, match=message):
        call(x, y, net)


def test_bootstrap_with_unit_weights_is_the_mean_and_pairs_methods():
    scores = torch.rand(3, 7, generator=torch.Generator().manual_seed(0)).numpy()
    ws, wi = bootstrap_weights(3, 7, n_boot=5)
    ones = (ws * 0 + 1, wi * 0 + 1)
    assert resampled_means(scores, ones) == pytest.approx([scores.mean()] * 5)
    assert all(w.sum() == 7 for w in wi) and all(w.sum() == 3 for w in ws)
    assert list(itertools.islice(resampled_means(scores, (ws, wi)), 5)) == pytest.approx(
        resampled_means(scores, (ws, wi))
    )


def test_hard_negatives_are_the_k_most_similar_with_a_non_square_projection():
    g = torch.Generator().manual_seed(4)
    zc, za = torch.randn(6, 8, generator=g), torch.randn(6, 8, generator=g)
    zc, za = (torch.nn.functional.pad(z, (0, 8)) for z in (zc, za))  # d = 16, data in the first 8 coords
    y = torch.tensor([0, 0, 1, 1, 2, 2])
    projection = torch.eye(16)[:8]  # r = 8 < d, exact on this data
    k, tau = 3, 0.5
    got = crl_loss(zc, za, y, tau, hard_k=k, projection=projection)
    a = torch.nn.functional.normalize(zc, dim=1)
    views = torch.cat([a, torch.nn.functional.normalize(za, dim=1)])
    vy = torch.cat([y, y])
    total = 0.0
    for i in range(6):
        pos = [j for j in range(12) if vy[j] == y[i] and j != i]
        neg = sorted((j for j in range(12) if vy[j] != y[i]), key=lambda j: -float(a[i] @ views[j]))[:k]
        logits = torch.stack([a[i] @ views[j] / tau for j in pos + neg])
        total += -float(sum(logits[p] - torch.logsumexp(logits, 0) for p in range(len(pos)))) / len(pos)
    assert float(got) == pytest.approx(total / 6, rel=1e-5)


def test_mean_alignment_on_a_hand_computed_case():
    from icml26.c2r import mean_alignment_loss

    z_syn = torch.tensor([[1.0, 0.0], [3.0, 2.0], [0.0, 1.0]])
    z_real = torch.tensor([[0.0, 0.0], [2.0, 2.0], [5.0, 5.0]])
    loss = mean_alignment_loss(z_syn, torch.tensor([0, 0, 1]), z_real, torch.tensor([0, 0, 2]))
    assert float(loss) == pytest.approx((2 - 1) ** 2 + (1 - 1) ** 2)  # class 1 has no real images


def test_ls_pgd_keeps_the_best_line_search_step_and_stays_in_the_ball_over_refreshes():
    x, y, net = toy()
    ls = LineSearchPGD(len(x), tuple(x.shape[1:]), eps=0.1, steps=3)
    idx = torch.arange(len(x))
    xr = x.clone().requires_grad_(True)
    (grad,) = torch.autograd.grad(torch.nn.functional.cross_entropy(net(xr), y, reduction="sum"), xr)
    ce = torch.nn.functional.cross_entropy
    with torch.no_grad():
        losses = torch.stack(
            [ce(net((x + 0.05 * 0.5**q * grad.sign()).clamp(0, 1)), y, reduction="none") for q in range(3)]
        )
    ls(net, x, y, idx)
    assert torch.allclose(ls.last_loss, losses.max(0).values, atol=1e-5)  # the highest-loss step
    for _ in range(4):  # force refreshes: the steps accumulate beyond eps without the projection
        ls.last_loss.fill_(float("inf"))
        adv = ls(net, x, y, idx)
    assert (adv - x).abs().max() <= 0.1 + 1e-6 and adv.min() >= 0 and adv.max() <= 1
    assert (adv - x).abs().max() > 0.09  # the ball's edge is reached


def test_c2r_gradient_reaches_the_images_through_both_views():
    x, y, net = toy()
    c2r = C2R(n_classes=4, eta=1.0, queue_size=0, hard_k=None, curriculum=False, real_views=3)
    c2r._n_syn = 8
    c2r.prepare(x[8:], y[8:], [net], torch.Generator().manual_seed(0))
    d = 0.05 * torch.sign(torch.randn(8, 1, 8, 8, generator=torch.Generator().manual_seed(1)))
    c2r.adversarial_view = lambda net, xs, ys, index: (xs + d).clamp(0, 1).detach()
    xs = x[:8].clone().requires_grad_(True)
    (got,) = torch.autograd.grad(
        c2r.batch_loss(xs, y[:8], torch.arange(8), 0, torch.Generator().manual_seed(2)), xs
    )
    g = torch.Generator().manual_seed(2)
    ridx = torch.cat([c2r._sample_real(int(c), g) for c in torch.unique(y[:8])])
    with torch.no_grad():
        z_real = net.embed(c2r._adv_real[0][ridx])
    xs2 = x[:8].clone().requires_grad_(True)
    x_adv = xs2 + ((x[:8] + d).clamp(0, 1) - x[:8])
    ref = crl_loss(net.embed(xs2), net.embed(x_adv), y[:8], c2r.tau, extra_views=(z_real, y[8:][ridx]))
    (want,) = torch.autograd.grad(ref, xs2)
    assert torch.allclose(got, want, atol=1e-6) and want.abs().sum() > 0


def test_curriculum_acts_on_several_batches_per_epoch():
    x, y, net = toy()
    c2r = C2R(n_classes=4, iterations=1, real_per_class=2)
    seen = []
    c2r.batch_loss = lambda xs, ys, index, it, g: seen.append(index) or xs.sum() * 0
    c2r.distill(x, y, ipc=4, seed=0, pool=[net])
    assert len(seen[0]) == 4 * 2  # IPC/2 per class: two batches an epoch, hardest first
    with pytest.raises(ValueError, match="batch_per_class"):
        C2R(batch_per_class=0)
    params = C2R(tau=0.2).get_params(deep=True)
    assert params["tau"] == 0.2 and C2R(**params).get_params() == params  # round-trips


def test_bootstrap_intervals_carry_the_seed_variance():
    from icml26.c2r.bootstrap import interval

    offsets = np.array([[0.0], [0.3], [0.6]]) + np.zeros((3, 40))
    low, high = interval(resampled_means(offsets, bootstrap_weights(3, 40, seed=0, n_boot=400)))
    assert high - low > 0.2  # the images are identical: all the width comes from the seeds


class _Wavy(torch.nn.Module):
    """A non-convex toy classifier on which PGD's random restarts land in different places."""

    def __init__(self):
        super().__init__()
        self.w = torch.randn(64, 4, generator=torch.Generator().manual_seed(0))

    def forward(self, x):
        return torch.sin(2.5 * x.flatten(1) @ self.w)


def test_restarts_count_a_sample_robust_only_if_no_restart_fools_it():
    x, net = torch.rand(200, 1, 8, 8, generator=torch.Generator().manual_seed(0)), _Wavy()
    with torch.no_grad():
        y = net(x).argmax(1)
    eps = 0.003
    ok3 = correct_under_attack(net, x, y, "pgd50x3", eps, seed=0)
    torch.manual_seed(0)  # the same random starts as the three restarts
    advs = [pgd(net, x, y, eps, 50, eps / 4) for _ in range(3)]
    with torch.no_grad():
        each = torch.stack([net(a).argmax(1) == y for a in advs]).numpy()
    assert (each.any(0) != each.all(0)).any()  # the restarts disagree somewhere
    assert (ok3 == each.all(0)).all()
