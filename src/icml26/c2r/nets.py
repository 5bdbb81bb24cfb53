"""ConvNet-3, the standard dataset-distillation network (Gidaris & Komodakis; DC/DM), at width 32.

Three blocks of conv 3x3 -> GroupNorm (instance-style, one group per channel) -> ReLU -> 2x2 average
pooling, then a linear head. Inputs are images in [0, 1]; the per-dataset normalisation is the first
operation of :meth:`ConvNet3.forward`, so attacks work in pixel space.
"""

from __future__ import annotations

import torch
from torch import nn


class ConvNet3(nn.Module):
    """``embed(x)``: the L2-unnormalised penultimate features (shape ``(n, width * s * s)``);
    ``forward(x)``: the logits ``(n, n_classes)``."""

    def __init__(
        self,
        channels: int = 1,
        size: int = 28,
        n_classes: int = 10,
        width: int = 32,
        mean: float = 0.286,
        std: float = 0.353,
    ) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        c, s = channels, size
        for _ in range(3):
            layers += [nn.Conv2d(c, width, 3, padding=1), nn.GroupNorm(width, width, affine=True), nn.ReLU()]
            if s >= 2:
                layers.append(nn.AvgPool2d(2))
                s //= 2
            c = width
        self.features = nn.Sequential(*layers)
        self.classifier = nn.Linear(width * s * s, n_classes)
        self.register_buffer("mean", torch.tensor(float(mean)))
        self.register_buffer("std", torch.tensor(float(std)))

    def embed(self, x: torch.Tensor) -> torch.Tensor:
        return self.features((x - self.mean) / self.std).flatten(1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.classifier(self.embed(x))


def make_net(x: torch.Tensor, seed: int, width: int = 32, n_classes: int = 10) -> ConvNet3:
    """A freshly initialised ConvNet-3 for images shaped like ``x`` (seeded)."""
    torch.manual_seed(seed)
    return ConvNet3(x.shape[1], x.shape[-1], n_classes, width)
