"""Offline image data: Fashion-MNIST from Debian's ``dataset-fashion-mnist``, scikit-learn digits for smoke runs.

Images are float32 tensors of shape ``(n, 1, H, W)`` in ``[0, 1]`` (normalisation lives inside the
network, so an attack's epsilon is in pixel space), labels int64 in ``0..9``.
"""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import numpy as np
import torch

FASHION_MNIST_DIR = Path("/usr/share/datasets/fashion-mnist")
FASHION_MNIST_ENV = "ICML26_FASHION_MNIST"
DATASETS = ("fashion_mnist", "digits")


def _idx(path: Path) -> np.ndarray:
    with gzip.open(path, "rb") as f:
        data = f.read()
    dims = data[3]
    shape = tuple(int.from_bytes(data[4 + 4 * i : 8 + 4 * i], "big") for i in range(dims))
    return np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * dims).reshape(shape)


def fashion_mnist_dir() -> Path:
    """The folder of the four idx ``.gz`` files: ``$ICML26_FASHION_MNIST`` or Debian's default."""
    return Path(os.environ.get(FASHION_MNIST_ENV, FASHION_MNIST_DIR))


def load_fashion_mnist(
    split: str = "train", path: str | Path | None = None
) -> tuple[torch.Tensor, torch.Tensor]:
    """Fashion-MNIST ``train`` (60,000) or ``test`` (10,000) images in [0, 1] and labels.

    ``path`` (or ``$ICML26_FASHION_MNIST``) overrides the folder; without the files the error says how
    to install them (``apt-get install dataset-fashion-mnist``).
    """
    if split not in ("train", "test"):
        raise ValueError(f"split must be 'train' or 'test', got {split!r}")
    folder = Path(path) if path is not None else fashion_mnist_dir()
    prefix = "train" if split == "train" else "t10k"
    images, labels = folder / f"{prefix}-images-idx3-ubyte.gz", folder / f"{prefix}-labels-idx1-ubyte.gz"
    if not (images.is_file() and labels.is_file()):
        raise FileNotFoundError(
            f"Fashion-MNIST not found in {folder} (expected {images.name} and {labels.name}); install it with"
            f" 'apt-get install dataset-fashion-mnist' or point ${FASHION_MNIST_ENV} at the folder"
        )
    x = torch.from_numpy(_idx(images).astype(np.float32) / 255.0).unsqueeze(1)
    y = torch.from_numpy(_idx(labels).astype(np.int64))
    return x, y


def load_digits_images() -> tuple[torch.Tensor, torch.Tensor]:
    """scikit-learn's 1,797 digits as 8x8 images in [0, 1] (for smoke runs and tests)."""
    from sklearn.datasets import load_digits

    d = load_digits()
    x = torch.tensor(d.images / 16.0, dtype=torch.float32).unsqueeze(1)
    return x, torch.tensor(d.target, dtype=torch.int64)


def load(dataset: str) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """``(x_train, y_train, x_test, y_test)`` of ``fashion_mnist`` or ``digits`` (a fixed 1,297/500 split)."""
    if dataset == "fashion_mnist":
        return (*load_fashion_mnist("train"), *load_fashion_mnist("test"))
    if dataset == "digits":
        x, y = load_digits_images()
        order = torch.randperm(len(x), generator=torch.Generator().manual_seed(0))
        tr, te = order[:1297], order[1297:]
        return x[tr], y[tr], x[te], y[te]
    raise ValueError(f"dataset {dataset!r} is not one of {', '.join(DATASETS)}")


def check_images(x: torch.Tensor, y: torch.Tensor | None = None, n_classes: int = 10) -> None:
    """``ValueError`` unless ``x`` is a float ``(n, c, h, w)`` tensor in [0, 1] and ``y`` holds ``n``
    integer labels in ``0..n_classes-1``."""
    if not isinstance(x, torch.Tensor) or x.ndim != 4 or not x.is_floating_point():
        raise ValueError(
            f"images must be a float tensor of shape (n, c, h, w), got {getattr(x, 'shape', x)!r}"
        )
    if not torch.isfinite(x).all() or x.min() < 0 or x.max() > 1:
        raise ValueError("images must lie in [0, 1] (normalisation lives inside the network)")
    if y is not None:
        if not isinstance(y, torch.Tensor) or y.shape != (len(x),) or y.is_floating_point():
            raise ValueError(f"labels must be {len(x)} integers, got {getattr(y, 'shape', y)!r}")
        if len(y) and (y.min() < 0 or y.max() >= n_classes):
            raise ValueError(f"labels must lie in 0..{n_classes - 1}, got {int(y.min())}..{int(y.max())}")
