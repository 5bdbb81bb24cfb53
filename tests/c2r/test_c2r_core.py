"""C²R's parts on exact small cases and invariants (margins, curriculum, CRL, queue, LS-PGD, bad input)."""

import itertools
import math

import pytest
import torch

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
    make_net,
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


def _toy():
    g = torch.Generator().manual_seed(0)
    x = torch.rand(40, 1, 8, 8, generator=g)
    y = torch.arange(40) % 4
    return x, y, make_net(x, 0, width=8, n_classes=4).eval()


def test_pgd_stays_in_the_ball_and_the_box_and_raises_the_loss():
    x, y, net = _toy()
    adv = pgd(net, x, y, 0.1, 10)
    assert (adv - x).abs().max() <= 0.1 + 1e-6 and adv.min() >= 0 and adv.max() <= 1
    ce = torch.nn.functional.cross_entropy
    with torch.no_grad():
        assert ce(net(adv), y) > ce(net(x), y) + 1e-3
        toward = pgd(net, x, (y + 1) % 4, 0.1, 10, targeted=True)
        assert ce(net(toward), (y + 1) % 4) < ce(net(x), (y + 1) % 4)


def test_the_score_is_a_hinge_and_grows_under_attack():
    x, y, net = _toy()
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
    x, y, net = _toy()
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
    x, y, net = _toy()
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
    x, y, net = _toy()
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
    ],
)
def test_bad_input_is_rejected_with_a_clear_message(call, message):
    x, y, net = _toy()
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
