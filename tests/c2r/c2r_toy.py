"""The small case the C²R core tests share: 40 random 8x8 images in 4 classes and an untrained ConvNet."""

import torch

from icml26.c2r import make_net


def toy():
    g = torch.Generator().manual_seed(0)
    x = torch.rand(40, 1, 8, 8, generator=g)
    y = torch.arange(40) % 4
    return x, y, make_net(x, 0, width=8, n_classes=4).eval()
