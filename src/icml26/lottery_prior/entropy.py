"""Entropy regularisation: quantisation of the latents and the rate of every part that would be coded.

- ``softround`` and Kumaraswamy noise (the training-time quantisation proxy of Cool-Chic/C3, which
  LotteryCodec uses; [code]); ``quantize`` in its three modes.
- ``laplace_bin_mass``: the discretised Laplace mass of an integer ``q``, ``F(q + 1/2) - F(q - 1/2)``.
- ``Arm``: the autoregressive entropy model, an MLP from the ``C`` causal neighbours of each latent
  (earlier in raster order inside a ``w x w`` window, zero outside the grid) to the Laplace
  ``(mu, b)`` of that latent; batched over ``K`` ensemble members.
- ``latent_bits``: ``sum -log2 max(P(q | context), 2^-16)`` (rate estimate; no arithmetic coder).
- ``mask_bits``: ``N H_b(keep)``, the cost of an i.i.d. Bernoulli(keep) code of a binary mask.
- ``expgolomb_bits``: signed exp-Golomb code length of quantised module parameters.
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import nn

__all__ = [
    "Arm",
    "binary_entropy",
    "causal_context",
    "causal_offsets",
    "expgolomb_bits",
    "kumaraswamy_noise",
    "laplace_bin_mass",
    "latent_bits",
    "mask_bits",
    "quantize",
    "softround",
]

MIN_MASS = 2.0**-16  # no latent costs more than 16 bits (as in Cool-Chic)


def softround(x: torch.Tensor, t: float) -> torch.Tensor:
    """``floor(x) + 1/2 + tanh((x - floor(x) - 1/2) / t) / (2 tanh(1 / (2t)))`` (Agustsson & Theis 2020):
    ``round(x)`` as ``t -> 0``, the identity as ``t -> inf``; equals ``x`` at every half-integer."""
    floor = torch.floor(x)
    delta = x - floor - 0.5
    return floor + 0.5 * torch.tanh(delta / t) / math.tanh(1 / (2 * t)) + 0.5


def kumaraswamy_noise(u: torch.Tensor, a: float) -> torch.Tensor:
    """Map ``u ~ U(0, 1)`` to Kumaraswamy(a, b) noise shifted to ``(-1/2, 1/2)``, ``b`` chosen so the mode is
    at the centre: ``b = (2^a (a - 1) + 1) / a``; ``a = 1`` gives uniform noise, larger ``a`` peakier noise."""
    b = (2**a * (a - 1) + 1) / a
    return (1 - (1 - u) ** (1 / b)) ** (1 / a) - 0.5


class _RoundSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):  # noqa: ANN001, ANN205
        return torch.round(x)

    @staticmethod
    def backward(ctx, g):  # noqa: ANN001, ANN205
        return g


def quantize(
    x: torch.Tensor,
    mode: str,
    temperature: float = 0.3,
    noise: float = 2.0,
    generator: torch.Generator | None = None,
) -> torch.Tensor:
    """Quantise ``x`` (latents times their gain).

    ``"soft"`` (stage 1): ``softround(softround(x, t) + n, t)`` with Kumaraswamy noise ``n`` of parameter
    ``noise``; ``"ste"`` (stage 2): ``round(x)`` forward, identity backward; ``"hard"``: ``round(x)``.
    """
    if mode == "soft":
        u = torch.rand(x.shape, generator=generator, dtype=x.dtype).clamp(1e-6, 1 - 1e-6).to(x.device)
        return softround(softround(x, temperature) + kumaraswamy_noise(u, noise), temperature)
    if mode == "ste":
        return _RoundSTE.apply(x)
    if mode == "hard":
        return torch.round(x)
    raise ValueError(f"quantize mode must be soft|ste|hard, got {mode!r}")


def laplace_bin_mass(q: torch.Tensor, mu: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """``P(q) = F(q + 1/2) - F(q - 1/2)`` with ``F`` the Laplace(mu, b) CDF; sums to 1 over the integers."""

    def cdf(v: torch.Tensor) -> torch.Tensor:
        z = (v - mu) / b
        return 0.5 - 0.5 * torch.sign(z) * torch.expm1(-z.abs())

    return cdf(q + 0.5) - cdf(q - 0.5)


def causal_offsets(window: int) -> list[tuple[int, int]]:
    """``(dy, dx)`` of the neighbours before the centre in raster order inside a ``window x window`` square
    (``(window^2 - 1) / 2`` of them): the rows above, then the pixels to the left on the same row."""
    if window < 3 or window % 2 == 0:
        raise ValueError(f"context window must be an odd integer >= 3, got {window!r}")
    r = window // 2
    return [(dy, dx) for dy in range(-r, 1) for dx in range(-r, r + 1) if dy < 0 or dx < 0]


def causal_context(latent: torch.Tensor, window: int) -> torch.Tensor:
    """Causal neighbours of every latent: ``(K, 1, h, w) -> (K, h*w, C)`` (zero padding outside the grid)."""
    r = window // 2
    padded = F.pad(latent, (r, r, r, r))
    h, w = latent.shape[-2:]
    cols = [padded[:, 0, r + dy : r + dy + h, r + dx : r + dx + w] for dy, dx in causal_offsets(window)]
    return torch.stack(cols, dim=-1).reshape(latent.shape[0], h * w, len(cols))


class Arm(nn.Module):
    """Autoregressive Laplace entropy model: ``context (K, N, C) -> (mu, b)``, each ``(K, N)``.

    ``K`` independent MLPs (one per ensemble member), ``C -> hidden -> hidden (residual) -> 2``, GELU;
    ``b = exp(clamp(.))``. Parameters are initialised from ``generators[k]``.
    """

    def __init__(self, members: int, context: int, hidden: int, generators: list[torch.Generator]) -> None:
        super().__init__()
        shapes = [(context, hidden), (hidden, hidden), (hidden, 2)]
        self.weights = nn.ParameterList()
        self.biases = nn.ParameterList()
        for fan_in, fan_out in shapes:
            w = torch.empty(members, fan_in, fan_out)
            for k, g in enumerate(generators):
                w[k].uniform_(-1 / math.sqrt(fan_in), 1 / math.sqrt(fan_in), generator=g)
            self.weights.append(nn.Parameter(w))
            self.biases.append(nn.Parameter(torch.zeros(members, 1, fan_out)))
        with torch.no_grad():  # start as a wide zero-mean Laplace
            self.weights[-1].mul_(0.01)

    def forward(self, context: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = F.gelu(torch.bmm(context, self.weights[0]) + self.biases[0])
        h = F.gelu(torch.bmm(h, self.weights[1]) + self.biases[1]) + h
        out = torch.bmm(h, self.weights[2]) + self.biases[2]
        return out[..., 0], torch.exp(out[..., 1].clamp(-4.0, 5.0))


def latent_bits(latents: list[torch.Tensor], arm: Arm, window: int) -> torch.Tensor:
    """Total bits of the quantised latent grids per member, ``(K,)``: ``sum -log2 max(P(q | ctx), 2^-16)``."""
    q = torch.cat([lat.reshape(lat.shape[0], -1) for lat in latents], dim=1)
    ctx = torch.cat([causal_context(lat, window) for lat in latents], dim=1)
    mu, b = arm(ctx)
    mass = laplace_bin_mass(q, mu, b).clamp_min(MIN_MASS)
    return -torch.log2(mass).sum(dim=1)


def binary_entropy(p: float) -> float:
    """``H_b(p) = -p log2 p - (1 - p) log2 (1 - p)`` bits (0 at p in {0, 1})."""
    if not 0 <= p <= 1:
        raise ValueError(f"binary_entropy needs p in [0, 1], got {p!r}")
    return 0.0 if p in (0, 1) else -p * math.log2(p) - (1 - p) * math.log2(1 - p)


def mask_bits(n_weights: int, keep: float) -> float:
    """Bits of a binary mask over ``n_weights`` frozen weights coded i.i.d. Bernoulli(keep): ``N H_b(keep)``."""
    return n_weights * binary_entropy(keep)


def expgolomb_bits(values: torch.Tensor, step: float = 2.0**-8) -> float:
    """Signed exp-Golomb (order 0) code length of ``round(values / step)``: integer ``v`` is mapped to
    ``u = 2|v| - (v > 0)`` and costs ``2 floor(log2(u + 1)) + 1`` bits."""
    v = torch.round(values.detach().flatten() / step)
    u = torch.where(v > 0, 2 * v - 1, -2 * v)
    return float((2 * torch.floor(torch.log2(u + 1)) + 1).sum())
