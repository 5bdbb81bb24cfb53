"""Forward operators ``A`` of the three inverse problems, ``y = A x + n`` with ``n ~ N(0, sigma^2 I)``.

Images are torch tensors of shape ``(C, H, W)`` with values in ``[0, 1]``. Each operator has ``forward``
(``A x``), its exact adjoint ``adjoint`` (``A^T y``; ``<A x, y> = <x, A^T y>``), ``observe`` (``A x`` plus
Gaussian noise) and ``data_loss``: the Gaussian negative log-likelihood of the observation up to
constants, ``||y - A x||^2 / m`` over the ``m`` observed samples (the "maximum likelihood" part of the
compression-based ML solver).
"""

from __future__ import annotations

import math

import numpy as np
import torch
import torch.nn.functional as F

__all__ = ["Denoise", "Inpaint", "Operator", "SuperResolution", "gaussian_kernel", "to_chw", "to_numpy"]


def to_chw(image: np.ndarray | torch.Tensor, name: str = "image", unit_range: bool = True) -> torch.Tensor:
    """``(H, W)`` or ``(H, W, C)`` array (or a ``(C, H, W)`` tensor) -> float64 ``(C, H, W)`` tensor.

    ``ValueError`` for NaN/inf, a wrong number of dimensions, or (``unit_range``) values outside [0, 1].
    """
    if isinstance(image, torch.Tensor):
        t = image.detach().to(torch.float64)
        if t.ndim != 3:
            raise ValueError(f"{name}: a tensor must have shape (C, H, W), got {tuple(t.shape)}")
    else:
        a = np.asarray(image, dtype=np.float64)
        if a.ndim == 2:
            a = a[None]
        elif a.ndim == 3 and a.shape[2] in (1, 3):
            a = np.moveaxis(a, 2, 0)
        else:
            raise ValueError(f"{name}: an array must have shape (H, W) or (H, W, 1|3), got {a.shape}")
        t = torch.from_numpy(np.ascontiguousarray(a))
    if t.shape[0] not in (1, 3) or min(t.shape[1:]) < 4:
        raise ValueError(f"{name}: need 1 or 3 channels and H, W >= 4, got shape {tuple(t.shape)}")
    if not torch.isfinite(t).all():
        raise ValueError(f"{name}: contains NaN or inf")
    if unit_range and (t.min() < 0 or t.max() > 1):
        raise ValueError(
            f"{name}: values must lie in [0, 1], got [{float(t.min()):.3g}, {float(t.max()):.3g}]"
        )
    return t


def to_numpy(x: torch.Tensor) -> np.ndarray:
    """``(C, H, W)`` tensor -> ``(H, W)`` (one channel) or ``(H, W, C)`` float64 array."""
    a = x.detach().to(torch.float64).cpu().numpy()
    return a[0] if a.shape[0] == 1 else np.moveaxis(a, 0, 2)


def gaussian_kernel(std: float, size: int) -> torch.Tensor:
    """Normalised 2-D Gaussian kernel ``(size, size)`` of standard deviation ``std`` pixels (sums to 1)."""
    r = torch.arange(size, dtype=torch.float64) - (size - 1) / 2
    g = torch.exp(-(r**2) / (2 * std**2))
    k = torch.outer(g, g)
    return k / k.sum()


def _check_sigma(sigma: float) -> float:
    if isinstance(sigma, bool) or not isinstance(sigma, int | float) or not math.isfinite(sigma) or sigma < 0:
        raise ValueError(f"sigma must be a finite number >= 0 (noise std on the [0, 1] scale), got {sigma!r}")
    return float(sigma)


class Operator:
    """Base class: a linear operator with an adjoint and Gaussian noise of std ``sigma``."""

    sigma: float

    def check_image(self, x: torch.Tensor) -> None:
        """``ValueError`` if ``x`` (C, H, W) does not fit this operator."""

    def image_shape(self, y: torch.Tensor) -> tuple[int, int, int]:
        """The ``(C, H, W)`` of the image whose observation is ``y``."""
        return tuple(y.shape)  # type: ignore[return-value]

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        raise NotImplementedError

    def adjoint(self, y: torch.Tensor) -> torch.Tensor:
        raise NotImplementedError

    def observed(self, y: torch.Tensor) -> torch.Tensor:
        """Boolean tensor of ``y``'s shape: which samples were observed (all, except for inpainting)."""
        return torch.ones_like(y, dtype=torch.bool)

    def observe(self, x: np.ndarray | torch.Tensor, rng: np.random.Generator) -> torch.Tensor:
        """``y = A x + n``, ``n ~ N(0, sigma^2)`` drawn from ``rng`` on the observed samples (0 elsewhere)."""
        x = to_chw(x, "x")
        self.check_image(x)
        clean = self.forward(x)
        noise = torch.from_numpy(rng.standard_normal(tuple(clean.shape))) * self.sigma
        return (clean + noise) * self.observed(clean)

    def data_loss(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        """Mean squared residual over the observed samples, ``||M (y - A x)||^2 / |M|``; ``x`` may carry
        leading batch dimensions ``(..., C, H, W)``."""
        keep = self.observed(y).to(x.dtype)
        r = (self.forward(x) - y.to(x.dtype)) * keep
        return (r**2).sum(dim=(-3, -2, -1)) / keep.sum()


class Denoise(Operator):
    """``A = I`` (additive white Gaussian noise of std ``sigma``)."""

    def __init__(self, sigma: float) -> None:
        self.sigma = _check_sigma(sigma)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x

    def adjoint(self, y: torch.Tensor) -> torch.Tensor:
        return y

    def __repr__(self) -> str:
        return f"Denoise(sigma={self.sigma:g})"


class SuperResolution(Operator):
    """``A = S_s K``: blur with a Gaussian kernel ``K`` (std ``blur`` pixels, zero boundary), then keep
    every ``factor``-th pixel (``S_s``). Adjoint: zero-filled upsampling then the transposed blur."""

    def __init__(self, factor: int, sigma: float, blur: float | None = None) -> None:
        if isinstance(factor, bool) or not isinstance(factor, int) or factor < 2:
            raise ValueError(f"factor must be an integer >= 2, got {factor!r}")
        self.factor, self.sigma = factor, _check_sigma(sigma)
        self.blur = 0.5 * factor if blur is None else float(blur)  # [inferred] std of the anti-alias blur
        if not (math.isfinite(self.blur) and self.blur > 0):
            raise ValueError(f"blur must be a positive std in pixels, got {blur!r}")
        size = 2 * math.ceil(2 * self.blur) + 1
        self.kernel = gaussian_kernel(self.blur, size)

    def check_image(self, x: torch.Tensor) -> None:
        h, w = x.shape[-2:]
        if h % self.factor or w % self.factor:
            raise ValueError(f"super-resolution factor {self.factor} must divide the image size, got {h}x{w}")

    def image_shape(self, y: torch.Tensor) -> tuple[int, int, int]:
        return (y.shape[-3], y.shape[-2] * self.factor, y.shape[-1] * self.factor)

    def _kernel(self, x: torch.Tensor) -> torch.Tensor:
        c = x.shape[-3]
        return self.kernel.to(device=x.device, dtype=x.dtype).expand(c, 1, *self.kernel.shape)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        lead = x.shape[:-3]
        x4 = x.reshape(-1, *x.shape[-3:])
        c, p = x.shape[-3], self.kernel.shape[0] // 2
        blurred = F.conv2d(x4, self._kernel(x), padding=p, groups=c)
        out = blurred[..., :: self.factor, :: self.factor]
        return out.reshape(*lead, *out.shape[-3:])

    def adjoint(self, y: torch.Tensor) -> torch.Tensor:
        lead = y.shape[:-3]
        y4 = y.reshape(-1, *y.shape[-3:])
        n, c, h, w = y4.shape
        up = torch.zeros(n, c, h * self.factor, w * self.factor, dtype=y.dtype, device=y.device)
        up[..., :: self.factor, :: self.factor] = y4
        out = F.conv_transpose2d(up, self._kernel(y), padding=self.kernel.shape[0] // 2, groups=c)
        return out.reshape(*lead, *out.shape[-3:])

    def __repr__(self) -> str:
        return f"SuperResolution(factor={self.factor}, sigma={self.sigma:g}, blur={self.blur:g})"


class Inpaint(Operator):
    """``A = diag(m)``: keep the pixels where the boolean ``mask`` (H, W) is True (all channels)."""

    def __init__(self, mask: np.ndarray | torch.Tensor, sigma: float) -> None:
        m = torch.as_tensor(np.asarray(mask))
        if m.ndim != 2 or m.dtype != torch.bool:
            raise ValueError(
                f"mask must be a boolean (H, W) array, got dtype {m.dtype} shape {tuple(m.shape)}"
            )
        if not m.any():
            raise ValueError("mask observes no pixel")
        self.mask, self.sigma = m, _check_sigma(sigma)

    def check_image(self, x: torch.Tensor) -> None:
        if tuple(x.shape[-2:]) != tuple(self.mask.shape):
            raise ValueError(
                f"mask shape {tuple(self.mask.shape)} differs from the image's {tuple(x.shape[-2:])}"
            )

    def observed(self, y: torch.Tensor) -> torch.Tensor:
        self.check_image(y)
        return self.mask.to(y.device).expand(y.shape)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.check_image(x)
        return x * self.mask.to(device=x.device, dtype=x.dtype)

    def adjoint(self, y: torch.Tensor) -> torch.Tensor:
        return self.forward(y)

    @staticmethod
    def random_mask(shape: tuple[int, int], keep: float, rng: np.random.Generator) -> np.ndarray:
        """Boolean mask observing ``round(keep * H * W)`` pixels chosen uniformly at random."""
        h, w = shape
        n = round(keep * h * w)
        flat = np.zeros(h * w, dtype=bool)
        flat[rng.choice(h * w, size=n, replace=False)] = True
        return flat.reshape(h, w)

    @staticmethod
    def block_mask(shape: tuple[int, int], fraction: float = 0.25) -> np.ndarray:
        """Mask missing one centred square block covering ``fraction`` of the area."""
        h, w = shape
        side_h, side_w = round(h * math.sqrt(fraction)), round(w * math.sqrt(fraction))
        m = np.ones((h, w), dtype=bool)
        top, left = (h - side_h) // 2, (w - side_w) // 2
        m[top : top + side_h, left : left + side_w] = False
        return m

    def __repr__(self) -> str:
        return f"Inpaint(observed={float(self.mask.float().mean()):.2f}, sigma={self.sigma:g})"
