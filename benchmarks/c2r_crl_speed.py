"""CPU seconds of one CRL forward + backward: the queue with projected top-k hard negatives beside the full
pairwise loss over the same anchors, views and queue (the ratio).

    python benchmarks/c2r_crl_speed.py [--repeats 7] [--anchors 50] [--dim 288] [--queues 256,1024,4096]

The shapes are a C²R batch at IPC 10 on Fashion-MNIST: 50 anchors (IPC/2 per class, 10 classes), their
adversarial views, 16 real adversarial views per class (``extra_views``, C2R's ``real_views``), ConvNet-3's 288-dimensional
penultimate embeddings, tau = 0.1, hard_k = 32 and a rank-64 projection. ``--queues`` lists the per-class
queue capacities (the run uses 256; larger ones show how each variant scales with the queue). Interleaved
repeats, one torch thread, ``time.process_time``; prints per queue the median seconds of each variant and
the ratio's median and min..max over the paired repeats.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch

from icml26.c2r import ClassQueue, crl_loss, random_projection


def _step(z, z_adv, y, queue, extra, hard_k, projection, inner: int) -> float:
    start = time.process_time()
    for _ in range(inner):
        a, b = z.clone().requires_grad_(), z_adv.clone().requires_grad_()
        crl_loss(a, b, y, 0.1, queue, hard_k, projection, extra_views=extra).backward()
    return (time.process_time() - start) / inner


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--inner", type=int, default=5, help="loss evaluations per timed repeat")
    parser.add_argument("--anchors", type=int, default=50)
    parser.add_argument("--dim", type=int, default=288)
    parser.add_argument("--classes", type=int, default=10)
    parser.add_argument("--real-views", type=int, default=16, help="real adversarial views per class")
    parser.add_argument("--hard-k", type=int, default=32)
    parser.add_argument("--rank", type=int, default=64)
    parser.add_argument("--queues", default="256,1024,4096")
    args = parser.parse_args()
    try:
        queues = [int(q) for q in args.queues.split(",")]
    except ValueError:
        parser.error(f"--queues must be a comma list of integers, got {args.queues!r}")
    counts = (args.repeats, args.inner, args.anchors, args.dim, args.classes, args.real_views, args.hard_k)
    if min(*counts, *queues) < 1:
        parser.error(
            "repeats, inner, anchors, dim, classes, real-views, hard-k and every queue size must be >= 1"
        )
    if not 1 <= args.rank <= args.dim:
        parser.error(f"--rank must lie in 1..{args.dim} (the dimension), got {args.rank}")
    torch.set_num_threads(1)
    g = torch.Generator().manual_seed(0)
    y = torch.arange(args.anchors) % args.classes
    z = torch.randn(args.anchors, args.dim, generator=g)
    z_adv = z + 0.3 * torch.randn(args.anchors, args.dim, generator=g)
    extra_y = torch.arange(args.real_views * args.classes) % args.classes
    extra = (torch.randn(len(extra_y), args.dim, generator=g), extra_y)
    projection = random_projection(args.dim, args.rank, g)
    print(f"anchors {args.anchors}, dim {args.dim}, hard_k {args.hard_k}, rank {args.rank}, one thread")
    for capacity in queues:
        q = ClassQueue(args.classes, args.dim, capacity)
        qy = torch.arange(capacity * args.classes) % args.classes
        q.push(torch.randn(len(qy), args.dim, generator=g), qy)
        queue = q.contents()
        times = {"topk": [], "full": []}
        for _ in range(args.repeats):
            times["topk"].append(_step(z, z_adv, y, queue, extra, args.hard_k, projection, args.inner))
            times["full"].append(_step(z, z_adv, y, queue, extra, None, None, args.inner))
        ratio = np.asarray(times["topk"]) / np.asarray(times["full"])
        print(
            f"queue {capacity}/class ({len(qy)} queued): projected top-k {np.median(times['topk']) * 1e3:.2f} ms,"
            f" full pairwise {np.median(times['full']) * 1e3:.2f} ms, ratio {np.median(ratio):.3f}"
            f" [{ratio.min():.3f}, {ratio.max():.3f}]"
        )


if __name__ == "__main__":
    main()
