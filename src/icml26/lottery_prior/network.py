"""The lightweight network with a random architectural prior, batched over ``K`` ensemble members.

Synthesis (LotteryCodec's masked INR [code], sizes configurable): a bias-free coordinate MLP
``2 -> 32 -> 24 -> 16 -> C`` (GELU, output ``(tanh + 1) / 2``) whose weights ``W0`` are **frozen random**
(``W0 = Lambda B``: ``B`` a fixed cosine basis, ``Lambda`` uniform, drawn from the member's lottery seed)
and of which only a **binary mask** is learned (a real score per weight; forward: the top
``round(keep N)`` scores of each layer; backward: straight-through). Layers 2-4 receive modulations
concatenated to their input, computed by a small ``ModNet`` from multi-scale latent grids upsampled by
a learned transposed convolution.
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import nn

__all__ = [
    "LotteryNet",
    "MaskedLinear",
    "ModNet",
    "TopKMask",
    "Upsampler",
    "cosine_basis",
    "structured_weight",
]


def cosine_basis(in_features: int, low: int = 64, high: int = 64, phases: int = 32, scale: float = 0.05):
    """The fixed basis ``B`` ((low + high) * phases, in_features): rows ``scale * cos(f t + phi)`` at
    ``in_features`` points ``t`` evenly spread over one period of the lowest frequency, for
    ``f in {i / low} (i = 1..low) and {1..high}`` and ``phi = 2 pi j / phases`` [code]."""
    freqs = torch.cat([torch.arange(1, low + 1, dtype=torch.float64) / low, torch.arange(1, high + 1.0)])
    period = 2 * math.pi / freqs[0]
    t = torch.linspace(-period / 2, period / 2, in_features, dtype=torch.float64)
    phi = 2 * math.pi * torch.arange(phases, dtype=torch.float64) / phases
    rows = torch.cos(freqs[:, None, None] * t[None, None, :] + phi[None, :, None])
    return scale * rows.reshape(-1, in_features)


def structured_weight(
    out_features: int, in_features: int, generator: torch.Generator, **basis
) -> torch.Tensor:
    """``W0 = Lambda B`` (out, in): ``Lambda[:, i] ~ U(-sqrt(6/m) / ||B_i||, +sqrt(6/m) / ||B_i||)``, ``m`` the
    number of basis rows (LotteryCodec's structured initialisation [code])."""
    b = cosine_basis(in_features, **basis)
    m = b.shape[0]
    bound = math.sqrt(6 / m) / b.norm(dim=1)
    lam = (torch.rand(out_features, m, generator=generator, dtype=torch.float64) * 2 - 1) * bound
    return (lam @ b).to(torch.float32)


class TopKMask(torch.autograd.Function):
    """Binary mask with ones at the ``k`` largest scores of each member's layer; straight-through gradient."""

    @staticmethod
    def forward(ctx, scores: torch.Tensor, k: int) -> torch.Tensor:  # noqa: ANN001
        flat = scores.reshape(scores.shape[0], -1)
        mask = torch.zeros_like(flat)
        mask.scatter_(1, flat.topk(k, dim=1).indices, 1.0)
        return mask.reshape(scores.shape)

    @staticmethod
    def backward(ctx, g: torch.Tensor):  # noqa: ANN001, ANN205
        return g, None


class MaskedLinear(nn.Module):
    """``x (K, P, in) -> x (W0 * mask)^T (K, P, out)``, ``W0`` a frozen buffer, only ``scores`` learned."""

    def __init__(
        self, in_features: int, out_features: int, keep: float, w0: torch.Tensor, scores: torch.Tensor
    ) -> None:
        super().__init__()
        self.register_buffer("w0", w0)
        self.scores = nn.Parameter(scores)
        self.k = round(keep * in_features * out_features)
        if self.k < 1:
            raise ValueError(f"keep={keep} keeps no weight of a {out_features}x{in_features} layer")

    def mask(self) -> torch.Tensor:
        return TopKMask.apply(self.scores, self.k)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.bmm(x, (self.w0 * self.mask()).transpose(1, 2))


def _bicubic_taps() -> torch.Tensor:
    """1-D taps of x2 bicubic upsampling (Keys, a = -0.75) at offsets +-0.25, +-0.75, +-1.25, +-1.75."""
    a = -0.75
    d = torch.tensor([1.75, 1.25, 0.75, 0.25, 0.25, 0.75, 1.25, 1.75], dtype=torch.float64)
    near = (a + 2) * d**3 - (a + 3) * d**2 + 1
    far = a * d**3 - 5 * a * d**2 + 8 * a * d - 4 * a
    return torch.where(d <= 1, near, far)


class Upsampler(nn.Module):
    """Learned x2 upsampling of one-channel grids, ``(K, 1, h, w) -> (K, 1, 2h, 2w)``: a kernel-8 stride-2
    transposed convolution per member, initialised to bicubic, with replicate padding at the border."""

    def __init__(self, members: int) -> None:
        super().__init__()
        t = _bicubic_taps()
        self.weight = nn.Parameter(torch.outer(t, t).to(torch.float32).expand(members, 1, 8, 8).clone())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        k, _, h, w = x.shape
        # coarse pixel i (padded index i + 2) lands between fine pixels 2i and 2i + 1 after cropping 7
        padded = F.pad(x.reshape(1, k, h, w), (2, 2, 2, 2), mode="replicate")
        up = F.conv_transpose2d(padded, self.weight, stride=2, groups=k)
        return up[:, :, 7 : 7 + 2 * h, 7 : 7 + 2 * w].reshape(k, 1, 2 * h, 2 * w)


class ModNet(nn.Module):
    """Modulation network [code]: 1x1 conv L -> hidden, 1x1 hidden -> 3, two residual 3x3 convs 3 -> 3 (GELU),
    per member (grouped convolutions). Returns the modulations of layers 2, 3, 4 with 6, 9 and
    9 + hidden channels, each ``(K, H*W, channels)``."""

    def __init__(self, members: int, levels: int, hidden: int, generators: list[torch.Generator]) -> None:
        super().__init__()
        self.members = members
        specs = [(levels, hidden, 1), (hidden, 3, 1), (3, 3, 3), (3, 3, 3)]
        self.convs = nn.ModuleList()
        for cin, cout, ks in specs:
            conv = nn.Conv2d(members * cin, members * cout, ks, padding=ks // 2, groups=members)
            bound = 1 / math.sqrt(cin * ks * ks)
            with torch.no_grad():
                for k, g in enumerate(generators):
                    conv.weight[k * cout : (k + 1) * cout].uniform_(-bound, bound, generator=g)
                    conv.bias[k * cout : (k + 1) * cout].uniform_(-bound, bound, generator=g)
            self.convs.append(conv)
        self.out_channels = (6, 9, 9 + hidden)

    def forward(self, stacked: torch.Tensor) -> list[torch.Tensor]:
        k, levels, h, w = stacked.shape
        x = stacked.reshape(1, k * levels, h, w)
        o0 = F.gelu(self.convs[0](x))
        o1 = F.gelu(self.convs[1](o0))
        o2 = F.gelu(self.convs[2](o1) + o1)
        o3 = F.gelu(self.convs[3](o2) + o2)

        def per_member(*outs: torch.Tensor) -> torch.Tensor:
            parts = [o.reshape(k, -1, h * w) for o in outs]
            return torch.cat(parts, dim=1).transpose(1, 2)

        return [per_member(o3, o2), per_member(o3, o2, o1), per_member(o3, o2, o1, o0)]


class LotteryNet(nn.Module):
    """``K`` members: latents, upsampler, ModNet and masked synthesis; ``forward(quantized latents) -> images``.

    ``w0_seeds[k]`` draws member ``k``'s frozen weights (the lottery); ``init_seeds[k]`` its scores, latent
    grids (zero), ModNet and ARM initialisation. Image shape ``(channels, height, width)``.
    """

    def __init__(
        self,
        shape: tuple[int, int, int],
        keep: float,
        w0_seeds: list[int],
        init_seeds: list[int],
        levels: int = 7,
        widths: tuple[int, int, int] = (32, 24, 16),
        mod_hidden: int = 48,
        basis: dict | None = None,
    ) -> None:
        super().__init__()
        c, h, w = shape
        if h % 2 ** (levels - 1) or w % 2 ** (levels - 1):
            raise ValueError(f"image {h}x{w} must be divisible by 2^(levels-1) = {2 ** (levels - 1)}")
        self.shape, self.levels, self.members = shape, levels, len(w0_seeds)
        gens = [torch.Generator().manual_seed(int(s)) for s in init_seeds]
        w_gens = [torch.Generator().manual_seed(int(s)) for s in w0_seeds]
        self.latents = nn.ParameterList(
            nn.Parameter(torch.zeros(self.members, 1, h // 2**j, w // 2**j)) for j in range(levels)
        )
        self.upsampler = Upsampler(self.members)
        self.modnet = ModNet(self.members, levels, mod_hidden, gens)
        dims_in = [2, widths[0] + 6, widths[1] + 9, widths[2] + 9 + mod_hidden]
        dims_out = [widths[0], widths[1], widths[2], c]
        self.layers = nn.ModuleList()
        for i, o in zip(dims_in, dims_out, strict=True):
            w0 = torch.stack([structured_weight(o, i, g, **(basis or {})) for g in w_gens])
            scores = torch.empty(self.members, o, i)
            for k, g in enumerate(gens):
                scores[k].uniform_(-1 / math.sqrt(i), 1 / math.sqrt(i), generator=g)  # kaiming-uniform bound
            self.layers.append(MaskedLinear(i, o, keep, w0, scores))
        ys, xs = torch.meshgrid(torch.linspace(-1, 1, h), torch.linspace(-1, 1, w), indexing="ij")
        self.register_buffer("coords", torch.stack([ys, xs], -1).reshape(1, h * w, 2))

    @property
    def n_weights(self) -> int:
        """Frozen weights per member (the mask's length)."""
        return sum(layer.w0[0].numel() for layer in self.layers)

    def upsample(self, quantized: list[torch.Tensor]) -> torch.Tensor:
        """Each level ``j`` upsampled ``j`` times to full resolution and stacked, ``(K, levels, H, W)``."""
        full = []
        for j, q in enumerate(quantized):
            for _ in range(j):
                q = self.upsampler(q)
            full.append(q)
        return torch.cat(full, dim=1)

    def forward(self, quantized: list[torch.Tensor]) -> torch.Tensor:
        mods = self.modnet(self.upsample(quantized))
        x = self.coords.expand(self.members, -1, -1)
        for j, layer in enumerate(self.layers):
            if j > 0:
                x = torch.cat([x, mods[j - 1]], dim=-1)
            x = layer(x)
            x = F.gelu(x) if j < len(self.layers) - 1 else (torch.tanh(x) + 1) / 2
        c, h, w = self.shape
        return x.transpose(1, 2).reshape(self.members, c, h, w)
