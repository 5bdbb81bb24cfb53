"""Baselines: a small Deep Image Prior and Deep Decoder (written here, laptop-sized), and the classical
restorers of scikit-image and ``bm3d``.

The two deep priors fit an untrained network to the one observation through the same data term as
Lottery Prior (``op.data_loss``) with Adam; they run for a number of steps or until a CPU-seconds budget
(``process_time``) is spent, and keep snapshots so the experiment can read off their oracle best step.
"""

from __future__ import annotations

import math
import time

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from icml26.lottery_prior.ops import Operator, to_chw, to_numpy

__all__ = [
    "DeepDecoder",
    "DeepImagePrior",
    "bicubic",
    "biharmonic",
    "bm3d_denoise",
    "fit_prior",
    "n_params",
    "nlm_denoise",
    "tv_denoise",
    "wavelet_denoise",
]


class DeepImagePrior(nn.Module):
    """Hourglass network of Ulyanov et al. (2018), small: ``depth`` scales of ``channels`` 3x3 convs
    (BatchNorm, LeakyReLU), a ``skip``-channel skip connection per scale, bilinear upsampling, sigmoid out;
    input a fixed noise tensor of ``input_channels`` channels."""

    def __init__(
        self, out_channels: int, channels: int = 32, depth: int = 3, skip: int = 4, input_channels: int = 32
    ):
        super().__init__()

        def block(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
            return nn.Sequential(
                nn.Conv2d(cin, cout, 3, stride, 1, padding_mode="reflect"),
                nn.BatchNorm2d(cout),
                nn.LeakyReLU(0.2),
            )

        self.down = nn.ModuleList()
        self.skips = nn.ModuleList()
        self.up = nn.ModuleList()
        cin = input_channels
        for _ in range(depth):
            self.skips.append(nn.Sequential(nn.Conv2d(cin, skip, 1), nn.BatchNorm2d(skip), nn.LeakyReLU(0.2)))
            self.down.append(nn.Sequential(block(cin, channels, 2), block(channels, channels)))
            cin = channels
        for _ in range(depth):
            self.up.append(nn.Sequential(nn.BatchNorm2d(channels + skip), block(channels + skip, channels),
                                         block(channels, channels, 1)))  # fmt: skip
        self.out = nn.Conv2d(channels, out_channels, 1)
        self.input_channels, self.depth = input_channels, depth

    def forward(self, z: torch.Tensor) -> torch.Tensor:
        skips, x = [], z
        for skip, down in zip(self.skips, self.down, strict=True):
            skips.append(skip(x))
            x = down(x)
        for up, s in zip(self.up, reversed(skips), strict=True):
            x = F.interpolate(x, size=s.shape[-2:], mode="bilinear", align_corners=False)
            x = up(torch.cat([x, s], dim=1))
        return torch.sigmoid(self.out(x))

    def input_shape(self, h: int, w: int) -> tuple[int, ...]:
        return (1, self.input_channels, h, w)


class DeepDecoder(nn.Module):
    """Deep Decoder of Heckel & Hand (2019): ``layers`` blocks of a 1x1 conv ``channels -> channels``, bilinear
    x2 upsampling (all but the last block), ReLU and channel normalisation; a 1x1 conv to the image and a
    sigmoid. Input: a fixed random tensor at ``H / 2^(layers-1)``."""

    def __init__(self, out_channels: int, channels: int = 64, layers: int = 6) -> None:
        super().__init__()
        self.blocks = nn.ModuleList(
            nn.ModuleList([nn.Conv2d(channels, channels, 1, bias=False), nn.BatchNorm2d(channels)])
            for _ in range(layers)
        )
        self.out = nn.Conv2d(channels, out_channels, 1, bias=False)
        self.channels, self.layers = channels, layers

    def forward(self, z: torch.Tensor) -> torch.Tensor:
        x = z
        for i, (conv, norm) in enumerate(self.blocks):
            x = conv(x)
            if i < self.layers - 1:
                x = F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=False)
            x = norm(F.relu(x))
        return torch.sigmoid(self.out(x))

    def input_shape(self, h: int, w: int) -> tuple[int, ...]:
        s = 2 ** (self.layers - 1)
        if h % s or w % s:
            raise ValueError(
                f"Deep Decoder with {self.layers} layers needs H, W divisible by {s}, got {h}x{w}"
            )
        return (1, self.channels, h // s, w // s)


def fit_prior(
    net: DeepImagePrior | DeepDecoder,
    y: np.ndarray | torch.Tensor,
    op: Operator,
    steps: int,
    seed: int,
    lr: float = 0.01,
    seconds: float | None = None,
    snapshot_every: int = 0,
    input_noise: float = 0.0,
) -> tuple[np.ndarray, dict[int, tuple[float, np.ndarray]], int, float]:
    """Fit ``net`` to ``y`` through ``op.data_loss`` with Adam, for ``steps`` steps and, if ``seconds`` is given,
    on until that much CPU time (``process_time``) is spent. ``input_noise``: std of the fresh perturbation
    of the input each step (DIP's regulariser). Returns (final estimate, snapshots ``{step: (CPU seconds,
    estimate)}`` every ``snapshot_every`` steps, steps run, CPU seconds)."""
    y_t = to_chw(y, "y", unit_range=False).to(torch.float32)
    c, h, w = op.image_shape(y_t)
    gen = torch.Generator().manual_seed(seed)
    for p in net.parameters():  # re-draw the initialisation from the seed
        if p.ndim > 1:
            nn.init.kaiming_uniform_(p, a=math.sqrt(5), generator=gen)
    z = torch.rand(net.input_shape(h, w), generator=gen) * 0.1
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    snapshots: dict[int, tuple[float, np.ndarray]] = {}
    start = time.process_time()
    done = 0
    while done < steps or (seconds is not None and time.process_time() - start < seconds):
        inp = z + input_noise * torch.randn(z.shape, generator=gen) if input_noise else z
        loss = op.data_loss(net(inp)[0], y_t)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        done += 1
        if snapshot_every and done % snapshot_every == 0:
            with torch.no_grad():
                snapshots[done] = (time.process_time() - start, to_numpy(net(z)[0]))
    with torch.no_grad():
        final = to_numpy(net(z)[0])
    return final, snapshots, done, time.process_time() - start


def n_params(net: nn.Module) -> int:
    """Trainable parameters (the deep priors' "effective parameters")."""
    return sum(p.numel() for p in net.parameters() if p.requires_grad)


def _axis(y: np.ndarray) -> int | None:
    return -1 if y.ndim == 3 else None


def tv_denoise(y: np.ndarray) -> np.ndarray:
    """Chambolle TV denoising, its weight calibrated on ``y`` alone by J-invariant self-supervision
    (``skimage.restoration.calibrate_denoiser``, Noise2Self) over 0.02..0.3."""
    from skimage.restoration import calibrate_denoiser, denoise_tv_chambolle

    grid = {"weight": list(np.geomspace(0.02, 0.3, 8)), "channel_axis": [_axis(y)]}
    best = calibrate_denoiser(y, denoise_tv_chambolle, denoise_parameters=grid)
    return best(y)


def wavelet_denoise(y: np.ndarray, sigma: float) -> np.ndarray:
    """BayesShrink soft-threshold wavelet denoising (``skimage.restoration.denoise_wavelet``)."""
    from skimage.restoration import denoise_wavelet

    return denoise_wavelet(y, sigma=sigma, method="BayesShrink", mode="soft", rescale_sigma=True,
                           channel_axis=_axis(y))  # fmt: skip


def nlm_denoise(y: np.ndarray, sigma: float) -> np.ndarray:
    """Non-local means with scikit-image's recommended ``h = 0.8 sigma`` (fast mode, 5x5 patches, 13x13 search)."""
    from skimage.restoration import denoise_nl_means

    return denoise_nl_means(y, h=0.8 * sigma, sigma=sigma, patch_size=5, patch_distance=6, fast_mode=True,
                            channel_axis=_axis(y))  # fmt: skip


def bm3d_denoise(y: np.ndarray, sigma: float) -> np.ndarray:
    """BM3D (``bm3d`` package; ``bm3d_rgb`` for colour) at the true noise level."""
    import bm3d

    if y.ndim == 3:
        return np.asarray(bm3d.bm3d_rgb(y, sigma))
    return np.asarray(bm3d.bm3d(y, sigma))


def bicubic(y: np.ndarray, factor: int) -> np.ndarray:
    """Bicubic upsampling of the low-resolution observation (``skimage.transform.resize``, order 3)."""
    from skimage.transform import resize

    shape = (y.shape[0] * factor, y.shape[1] * factor, *y.shape[2:])
    return resize(y, shape, order=3, mode="edge", anti_aliasing=False)


def biharmonic(y: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Biharmonic inpainting of the unobserved pixels (``skimage.restoration.inpaint_biharmonic``)."""
    from skimage.restoration import inpaint_biharmonic

    return inpaint_biharmonic(y, ~np.asarray(mask, dtype=bool), channel_axis=_axis(y))
