"""The pool of adversarially trained networks that ROME-like and C²R distil against.

Five ConvNet-3 nets, each trained by PGD-3 adversarial training at 8/255 on a fixed 10,000-image
real subset for 2 epochs [issue spec; ROME trains its pool on PGD-adversarial real images]. The
Fashion-MNIST pool ships in ``weights/pool_fashion_mnist.pt`` (written by
``python -m icml26.c2r.pool``); for other data (digits in smoke runs) it is trained on the fly.
"""

from __future__ import annotations

import sys
from pathlib import Path

import torch
import torch.nn.functional as F

from icml26.c2r.margins import pgd
from icml26.c2r.nets import ConvNet3, make_net

WEIGHTS = Path(__file__).resolve().parent / "weights" / "pool_fashion_mnist.pt"
POOL_SIZE, POOL_EPS, POOL_EPOCHS, POOL_SUBSET = 5, 8 / 255, 2, 10_000


def pool_subset(y: torch.Tensor, size: int = POOL_SUBSET) -> torch.Tensor:
    """The fixed real subset the pool is trained on (seed 0, independent of the experiment's seeds)."""
    return torch.randperm(len(y), generator=torch.Generator().manual_seed(0))[: min(size, len(y))]


def train_adversarial(
    x: torch.Tensor,
    y: torch.Tensor,
    seed: int,
    eps: float = POOL_EPS,
    epochs: int = POOL_EPOCHS,
    lr: float = 0.01,
    batch: int = 128,
) -> ConvNet3:
    """One ConvNet-3 trained on PGD-3 adversarial images at ``eps`` (Madry et al. 2018)."""
    net = make_net(x, 1000 + seed)
    opt = torch.optim.SGD(net.parameters(), lr=lr, momentum=0.9, weight_decay=5e-4)
    g = torch.Generator().manual_seed(1000 + seed)
    for _ in range(epochs):
        for idx in torch.randperm(len(x), generator=g).split(batch):
            adv = pgd(net, x[idx], y[idx], eps, 3, generator=g)
            net.train()
            loss = F.cross_entropy(net(adv), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
    return net.eval()


def train_pool(
    x: torch.Tensor, y: torch.Tensor, size: int = POOL_SIZE, epochs: int = POOL_EPOCHS
) -> list[ConvNet3]:
    subset = pool_subset(y)
    return [train_adversarial(x[subset], y[subset], s, epochs=epochs) for s in range(size)]


def load_pool(x: torch.Tensor, y: torch.Tensor, dataset: str, size: int = POOL_SIZE) -> list[ConvNet3]:
    """The shipped Fashion-MNIST pool (its first ``size`` nets), or a pool trained now for other data."""
    if dataset == "fashion_mnist" and WEIGHTS.is_file():
        states = torch.load(WEIGHTS, weights_only=True)
        nets = []
        for state in states[:size]:
            net = make_net(x, 0)
            net.load_state_dict(state)
            nets.append(net.eval())
        if len(nets) == size:
            return nets
    return train_pool(x, y, size, epochs=POOL_EPOCHS if dataset == "fashion_mnist" else 1)


def main() -> int:
    from icml26.c2r.data import load_fashion_mnist

    torch.set_num_threads(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
    x, y = load_fashion_mnist("train")
    nets = train_pool(x, y)
    WEIGHTS.parent.mkdir(exist_ok=True)
    torch.save(
        [{k: v.half() if v.is_floating_point() else v for k, v in n.state_dict().items()} for n in nets],
        WEIGHTS,
    )
    print(f"wrote {WEIGHTS} ({WEIGHTS.stat().st_size / 1e3:.0f} kB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
