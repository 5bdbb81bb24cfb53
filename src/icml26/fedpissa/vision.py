"""The vision track: Fashion-MNIST (Debian ``dataset-fashion-mnist``) and a tiny ViT backbone.

The backbone (patch 7 -> 16 tokens + a class token, width 64, depth 4, 4 heads, about 0.14M parameters)
is pretrained, supervised, on **upright** train images 0-29,999 with a fixed seed by
``tools/pretrain_fedpissa_vit.py``; its weights ship in ``weights/tiny_vit_fmnist.pt`` (< 1 MB). The
federated clients are drawn only from train images 30,000-59,999: each gets one rotation from
{0, 90, 180, 270} degrees (feature shift, the same number of clients per rotation) and a Dirichlet(alpha)
share of the labels. LoRA targets: ``qkv`` and ``fc1`` of every block [inferred, the notes' choice].
"""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from icml26.fedpissa.data import ClientData, dirichlet_split, train_test_split

FMNIST_DIR = Path(os.environ.get("ICML26_FASHION_MNIST", "/usr/share/datasets/fashion-mnist"))
WEIGHTS = Path(__file__).resolve().parent / "weights" / "tiny_vit_fmnist.pt"
PRETRAIN_RANGE = (0, 30_000)
CLIENT_RANGE = (30_000, 60_000)
ROTATIONS = (0, 1, 2, 3)  # quarter turns


def load_fashion_mnist(split: str = "train") -> tuple[torch.Tensor, torch.Tensor]:
    """Images in [0, 1] (N x 1 x 28 x 28) and labels of Fashion-MNIST's ``train`` or ``t10k`` split."""
    if split not in ("train", "t10k"):
        raise ValueError(f"split must be 'train' or 't10k', got {split!r}")
    img, lab = (
        FMNIST_DIR / f"{split}-images-idx3-ubyte.gz",
        FMNIST_DIR / f"{split}-labels-idx1-ubyte.gz",
    )
    if not img.is_file():
        raise FileNotFoundError(
            f"Fashion-MNIST not found at {img}; install Debian's dataset-fashion-mnist (apt-get install dataset-fashion-mnist)"
        )
    with gzip.open(img, "rb") as fh:
        x = np.frombuffer(fh.read(), dtype=np.uint8, offset=16).reshape(-1, 1, 28, 28)
    with gzip.open(lab, "rb") as fh:
        y = np.frombuffer(fh.read(), dtype=np.uint8, offset=8)
    return torch.from_numpy(x.astype(np.float32) / 255.0), torch.from_numpy(y.astype(np.int64))


class Attention(nn.Module):
    def __init__(self, dim: int, heads: int) -> None:
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, d = x.shape
        q, k, v = self.qkv(x).reshape(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        out = F.scaled_dot_product_attention(q, k, v)
        return self.proj(out.transpose(1, 2).reshape(b, t, d))


class Mlp(nn.Module):
    def __init__(self, dim: int, hidden: int) -> None:
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.fc2 = nn.Linear(hidden, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(F.gelu(self.fc1(x)))


class Block(nn.Module):
    def __init__(self, dim: int, heads: int, hidden: int) -> None:
        super().__init__()
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = Attention(dim, heads)
        self.mlp = Mlp(dim, hidden)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attn(self.norm1(x))
        return x + self.mlp(self.norm2(x))


class TinyViT(nn.Module):
    """A tiny ViT for 28 x 28 grey images; ``head`` is the classifier (re-initialised per client)."""

    def __init__(
        self,
        n_classes: int = 10,
        dim: int = 64,
        depth: int = 4,
        heads: int = 4,
        patch: int = 7,
    ) -> None:
        super().__init__()
        if 28 % patch:
            raise ValueError(f"patch must divide 28, got {patch!r}")
        self.patch = patch
        n_tokens = (28 // patch) ** 2
        self.embed = nn.Linear(patch * patch, dim)
        self.cls = nn.Parameter(torch.zeros(1, 1, dim))
        self.pos = nn.Parameter(torch.zeros(1, n_tokens + 1, dim))
        self.blocks = nn.ModuleList(Block(dim, heads, 2 * dim) for _ in range(depth))
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, n_classes)

    def features(self, x: torch.Tensor) -> torch.Tensor:
        p = self.patch
        b = x.shape[0]
        tokens = x.unfold(2, p, p).unfold(3, p, p).reshape(b, -1, p * p)
        h = torch.cat([self.cls.expand(b, -1, -1), self.embed(tokens)], dim=1) + self.pos
        for block in self.blocks:
            h = block(h)
        return self.norm(h[:, 0])

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x))


def load_backbone(seed: int = 0, n_classes: int = 10, path: Path | None = None) -> TinyViT:
    """The shipped pretrained tiny ViT with a fresh head drawn from ``seed`` (the local classifier)."""
    path = Path(path or WEIGHTS)
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing; regenerate it with tools/pretrain_fedpissa_vit.py")
    model = TinyViT(n_classes)
    state = {k: v.float() for k, v in torch.load(path).items() if not k.startswith("head.")}
    model.load_state_dict(state, strict=False)
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        model.head.weight.normal_(0, 0.02, generator=g)
        model.head.bias.zero_()
    return model


def make_vision_clients(
    n_clients: int = 20,
    alpha: float = 0.3,
    seed: int = 0,
    per_client_cap: int | None = None,
    test_fraction: float = 0.2,
) -> list[ClientData]:
    """Clients from train images 30,000-59,999 only: client ``k`` sees rotation ``ROTATIONS[k % 4]`` and a
    Dirichlet(``alpha``) label share; each split ``1 - test_fraction`` / ``test_fraction`` (personal)."""
    x, y = load_fashion_mnist("train")
    lo, hi = CLIENT_RANGE
    x, y = x[lo:hi], y[lo:hi]
    parts = dirichlet_split(y.numpy(), n_clients, alpha, seed, min_size=10)
    rng = np.random.default_rng(seed)
    clients = []
    for k, part in enumerate(parts):
        if per_client_cap is not None and len(part) > per_client_cap:
            part = np.sort(rng.choice(part, per_client_cap, replace=False))
        tr, te = train_test_split(part, test_fraction, seed * 1000 + k)
        rot = ROTATIONS[k % len(ROTATIONS)]
        xt, xe = (torch.rot90(x[torch.from_numpy(i)], rot, dims=(2, 3)).contiguous() for i in (tr, te))
        clients.append(ClientData((xt,), y[torch.from_numpy(tr)], (xe,), y[torch.from_numpy(te)]))
    return clients
