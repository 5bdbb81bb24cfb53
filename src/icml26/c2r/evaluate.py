"""Downstream evaluation: fresh networks trained on a distilled set, then attacked (``torchattacks``).

Two training protocols [read, secondary note]: ``standard`` (train normally, then attack, as ROME and
BEARD do) and ``pgd_at`` (PGD-AT at 2/255 with PGD-3, as the note describes the paper's). Attacks, in
pixel space on images in [0, 1] (normalisation lives inside the network):

- ``fgsm``: FGSM at eps; ``pgd10``: PGD-10, step eps/4, random start; ``pgd50x3``: PGD-50 with 3
  restarts (a sample is robust only if no restart fools it); ``cw``: Carlini–Wagner L2 (c = 1,
  kappa = 0, 50 steps, lr 0.01: BEARD's, its eps is not ℓ∞); ``vmi``: VMI-FGSM (10 steps, N = 5);
  ``jitter``: Jitter (10 steps); ``apgd``: APGD-CE + APGD-T (the AutoAttack pair, standard settings).
"""

from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from icml26.c2r.data import check_images
from icml26.c2r.margins import pgd
from icml26.c2r.nets import ConvNet3, make_net

ATTACKS = ("fgsm", "pgd10", "pgd50x3", "cw", "vmi", "jitter", "apgd")
PROTOCOLS = ("standard", "pgd_at")


def train_network(
    images: torch.Tensor,
    labels: torch.Tensor,
    seed: int,
    epochs: int = 300,
    lr: float = 0.01,
    protocol: str = "standard",
    at_eps: float = 2 / 255,
    batch: int = 256,
    width: int = 32,
) -> ConvNet3:
    """A fresh ConvNet-3 trained on ``(images, labels)`` by SGD (momentum 0.9, weight decay 5e-4, the
    learning rate divided by 10 at half the epochs, DM's evaluation schedule); ``pgd_at`` trains on
    PGD-3 adversarial images at ``at_eps``."""
    check_images(images, labels)
    if protocol not in PROTOCOLS:
        raise ValueError(f"protocol {protocol!r} is not one of {', '.join(PROTOCOLS)}")
    if epochs < 1:
        raise ValueError(f"epochs must be >= 1, got {epochs}")
    net = make_net(images, seed, width)
    opt = torch.optim.SGD(net.parameters(), lr=lr, momentum=0.9, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.MultiStepLR(opt, [epochs // 2], 0.1)
    g = torch.Generator().manual_seed(seed)
    for _ in range(epochs):
        order = torch.randperm(len(images), generator=g)
        for idx in order.split(batch):
            x, y = images[idx], labels[idx]
            if protocol == "pgd_at":
                x = pgd(net, x, y, at_eps, 3, generator=g)
            net.train()
            loss = F.cross_entropy(net(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        sched.step()
    return net.eval()


def _attack(name: str, model: nn.Module, eps: float):
    import torchattacks

    if name == "fgsm":
        return torchattacks.FGSM(model, eps=eps)
    if name == "pgd10":
        return torchattacks.PGD(model, eps=eps, alpha=eps / 4, steps=10, random_start=True)
    if name == "cw":
        return torchattacks.CW(model, c=1, kappa=0, steps=50, lr=0.01)
    if name == "vmi":
        return torchattacks.VMIFGSM(model, eps=eps, alpha=eps / 4, steps=10, N=5)
    if name == "jitter":
        return torchattacks.Jitter(model, eps=eps, alpha=eps / 4, steps=10)
    raise ValueError(name)


def correct_under_attack(
    model: nn.Module,
    images: torch.Tensor,
    labels: torch.Tensor,
    attack: str,
    eps: float,
    seed: int = 0,
    batch: int = 500,
) -> np.ndarray:
    """Per image: 1 where ``model`` still classifies the attacked image correctly (``attack="clean"``:
    no attack), as a boolean array of length ``n``."""
    if attack not in ("clean", *ATTACKS):
        raise ValueError(f"attack {attack!r} is not one of clean, {', '.join(ATTACKS)}")
    if eps <= 0:
        raise ValueError(f"eps must be > 0, got {eps}")
    check_images(images, labels)
    model.eval()
    torch.manual_seed(seed)
    out = []
    for x, y in zip(images.split(batch), labels.split(batch)):
        if attack == "clean":
            adv = [x]
        elif attack == "pgd50x3":
            adv = [pgd(model, x, y, eps, 50, eps / 4) for _ in range(3)]
        elif attack == "apgd":
            import torchattacks

            adv = [
                torchattacks.APGD(model, eps=eps, steps=100, loss="ce", seed=seed)(x, y),
                torchattacks.APGDT(model, eps=eps, steps=100, n_classes=10, seed=seed)(x, y),
            ]
        else:
            adv = [_attack(attack, model, eps)(x, y)]
        with torch.no_grad():
            ok = torch.stack([model(a).argmax(1) == y for a in adv]).all(0)
        out.append(ok.numpy())
    return np.concatenate(out)


def evaluate_robustness(
    model: nn.Module,
    images: torch.Tensor,
    labels: torch.Tensor,
    attacks=("fgsm", "pgd10"),
    eps: float = 8 / 255,
    seed: int = 0,
) -> dict[str, float]:
    """Accuracy (in [0, 1]) on the clean images and under each attack in ``attacks``."""
    unknown = [a for a in attacks if a not in ATTACKS]
    if unknown:
        raise ValueError(f"unknown attacks {unknown}; accepted: {', '.join(ATTACKS)}")
    return {
        a: float(correct_under_attack(model, images, labels, a, eps, seed).mean())
        for a in ("clean", *attacks)
    }
