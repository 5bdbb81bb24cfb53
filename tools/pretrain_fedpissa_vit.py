"""Pretrain FedPissa's tiny ViT backbone on upright Fashion-MNIST train images 0-29,999 (supervised, fixed seed)
and write ``src/icml26/fedpissa/weights/tiny_vit_fmnist.pt`` (float16, < 1 MB).

Usage: ``PYTHONPATH=src python tools/pretrain_fedpissa_vit.py [--epochs 3]``. The clients of the vision track
are drawn only from images 30,000-59,999, so the backbone never sees them.
"""

from __future__ import annotations

import argparse
import sys
import time

import torch
from torch.nn import functional as F

from icml26.fedpissa.vision import PRETRAIN_RANGE, WEIGHTS, TinyViT, load_fashion_mnist


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.epochs < 1 or args.batch < 1 or not args.lr > 0:
        parser.error("epochs and batch must be >= 1 and lr > 0")
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    x, y = load_fashion_mnist("train")
    x, y = (
        x[PRETRAIN_RANGE[0] : PRETRAIN_RANGE[1]],
        y[PRETRAIN_RANGE[0] : PRETRAIN_RANGE[1]],
    )
    xt, yt = load_fashion_mnist("t10k")
    model = TinyViT()
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.05)
    steps = args.epochs * (len(y) // args.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=steps)
    g = torch.Generator().manual_seed(args.seed)
    start = time.process_time()
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(y), generator=g)
        for i in range(len(y) // args.batch):
            idx = perm[i * args.batch : (i + 1) * args.batch]
            loss = F.cross_entropy(model(x[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
        model.eval()
        with torch.no_grad():
            acc = sum(
                int((model(xt[j : j + 1000]).argmax(1) == yt[j : j + 1000]).sum())
                for j in range(0, 10_000, 1000)
            )
        print(
            f"epoch {epoch + 1}: loss {loss.item():.3f}, t10k accuracy {acc / 10_000:.4f}, {time.process_time() - start:.0f} CPU-s"
        )
    WEIGHTS.parent.mkdir(parents=True, exist_ok=True)
    torch.save({k: v.to(torch.float16) for k, v in model.state_dict().items()}, WEIGHTS)
    print(f"wrote {WEIGHTS} ({WEIGHTS.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
