"""One LoRA per target layer, ``h = W_res x + (alpha / r) B A x``, with PiSSA or plain initialisation.

PiSSA (Meng et al., 2024) takes the top-``r`` singular triplets of the frozen weight, ``W = U S V^T``:
``A0 = S_r^{1/2} V_r^T``, ``B0 = U_r S_r^{1/2}`` and freezes the residual ``W_res = W - (alpha/r) B0 A0``,
so the starting layer computes exactly ``W x`` (for any ``alpha``; with ``alpha = r`` the product ``B0 A0``
is the rank-``r`` truncation of ``W``). The SVD is full and deterministic (``torch.linalg.svd``), so every
client derives the same principal subspace from the public weight without communicating. FedPissa's
use of PiSSA is a reading of the method's name **[inferred]**. Plain LoRA: ``A`` Kaiming-uniform (as
``peft``), ``B = 0``.

A FedDPA-style dual LoRA (:class:`DualLoRALinear`) adds a second, local pair and mixes the two branches
with weight ``mix`` (0.5): ``h = W x + (alpha/r) [(1 - mix) B_g A_g + mix B_l A_l] x``.
"""

from __future__ import annotations

import math

import torch
from torch import nn
from torch.nn import functional as F

INITS = ("pissa", "lora")


def _check_rank_alpha(r: int, alpha: float, d_out: int, d_in: int) -> None:
    if isinstance(r, bool) or not isinstance(r, int) or r < 1:
        raise ValueError(f"rank r must be an integer >= 1, got {r!r}")
    if r > min(d_out, d_in):
        raise ValueError(
            f"rank r={r} exceeds the layer's size ({d_out} x {d_in}); accepted: 1..{min(d_out, d_in)}"
        )
    if (
        isinstance(alpha, bool)
        or not isinstance(alpha, int | float)
        or not math.isfinite(alpha)
        or alpha <= 0
    ):
        raise ValueError(f"alpha must be a finite number > 0, got {alpha!r}")


def pissa_factors(
    weight: torch.Tensor, r: int, scale: float = 1.0
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """``(A0, B0, W_res)`` of PiSSA for ``weight`` (d_out x d_in): the principal rank-``r`` part and the
    residual ``W - scale * B0 A0``."""
    if weight.ndim != 2:
        raise ValueError(f"weight must be a matrix (d_out x d_in), got shape {tuple(weight.shape)}")
    _check_rank_alpha(r, 1.0, *weight.shape)
    w = weight.detach().to(torch.float64)
    u, s, vh = torch.linalg.svd(w, full_matrices=False)
    root = s[:r].sqrt()
    a0 = root[:, None] * vh[:r]
    b0 = u[:, :r] * root[None, :]
    a0, b0 = a0 / math.sqrt(scale), b0 / math.sqrt(scale)  # scale * B0 A0 = U_r S_r V_r^T
    residual = w - scale * (b0 @ a0)
    dtype = weight.dtype
    return a0.to(dtype), b0.to(dtype), residual.to(dtype)


class LoRALinear(nn.Module):
    """A frozen linear map with one trainable low-rank pair: ``h = W_res x + b + (alpha / r) B A x``.

    ``init="pissa"`` splits the base weight by its SVD (the output is unchanged at start);
    ``init="lora"`` keeps ``W_res = W``, draws ``A`` Kaiming-uniform from ``generator`` and sets ``B = 0``.
    """

    def __init__(
        self,
        base: nn.Linear,
        r: int,
        alpha: float,
        init: str = "pissa",
        generator: torch.Generator | None = None,
    ) -> None:
        super().__init__()
        if not isinstance(base, nn.Linear):
            raise ValueError(f"LoRALinear wraps an nn.Linear, got {type(base).__name__}")
        d_out, d_in = base.weight.shape
        _check_rank_alpha(r, alpha, d_out, d_in)
        if init not in INITS:
            raise ValueError(f"init {init!r} is not one of {', '.join(INITS)}")
        self.r, self.alpha, self.init, self.scale = r, float(alpha), init, float(alpha) / r
        weight = base.weight.detach().clone()
        if init == "pissa":
            a0, b0, residual = pissa_factors(weight, r, self.scale)
        else:
            a0 = torch.empty(r, d_in, dtype=weight.dtype)
            bound = 1.0 / math.sqrt(d_in)  # kaiming_uniform_(a=sqrt(5)) as peft's LoRA A
            a0.uniform_(-bound, bound, generator=generator)
            b0, residual = torch.zeros(d_out, r, dtype=weight.dtype), weight
        self.register_buffer("weight", residual)
        self.register_buffer("bias", None if base.bias is None else base.bias.detach().clone())
        self.lora_A = nn.Parameter(a0.contiguous())
        self.lora_B = nn.Parameter(b0.contiguous())

    @property
    def in_features(self) -> int:
        return self.weight.shape[1]

    @property
    def out_features(self) -> int:
        return self.weight.shape[0]

    def delta(self) -> torch.Tensor:
        """The adapter's weight update ``(alpha / r) B A``."""
        return self.scale * (self.lora_B @ self.lora_A)

    def merged_weight(self) -> torch.Tensor:
        """``W_res + (alpha / r) B A``: the dense weight the layer applies."""
        return self.weight + self.delta()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = F.linear(x, self.weight, self.bias)
        return out + self.scale * F.linear(F.linear(x, self.lora_A), self.lora_B)


class DualLoRALinear(LoRALinear):
    """FedDPA-style dual LoRA: a global pair (``lora_A``, ``lora_B``, aggregated) and a local pair
    (``local_A``, ``local_B``, private), mixed ``(1 - mix) * global + mix * local`` (FedDPA-T, mix 0.5)."""

    def __init__(
        self,
        base: nn.Linear,
        r: int,
        alpha: float,
        init: str = "lora",
        generator: torch.Generator | None = None,
        mix: float = 0.5,
    ) -> None:
        if init != "lora":
            raise ValueError(
                f"DualLoRALinear uses init 'lora' (two branches cannot both be PiSSA), got {init!r}"
            )
        if not isinstance(mix, int | float) or not 0 <= mix <= 1:
            raise ValueError(f"mix must lie in [0, 1], got {mix!r}")
        super().__init__(base, r, alpha, init, generator)
        self.mix = float(mix)
        local_a = torch.empty_like(self.lora_A)
        bound = 1.0 / math.sqrt(self.in_features)
        local_a.uniform_(-bound, bound, generator=generator)
        self.local_A = nn.Parameter(local_a)
        self.local_B = nn.Parameter(torch.zeros_like(self.lora_B))

    def delta(self) -> torch.Tensor:
        return self.scale * (
            (1 - self.mix) * self.lora_B @ self.lora_A + self.mix * self.local_B @ self.local_A
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = F.linear(x, self.weight, self.bias)
        glob = F.linear(F.linear(x, self.lora_A), self.lora_B)
        loc = F.linear(F.linear(x, self.local_A), self.local_B)
        return out + self.scale * ((1 - self.mix) * glob + self.mix * loc)


def add_lora(
    model: nn.Module,
    targets: tuple[str, ...] | list[str],
    r: int,
    alpha: float,
    init: str = "pissa",
    seed: int = 0,
    dual: bool = False,
) -> list[str]:
    """Replace, in place, every ``nn.Linear`` of ``model`` whose qualified name ends with one of
    ``targets`` by a :class:`LoRALinear` (or :class:`DualLoRALinear`); returns the replaced names.

    Every target must match at least one linear layer; the initialisation of plain LoRA is drawn from
    ``seed``, so every client that calls this with the same seed starts from the same adapters.
    """
    if isinstance(targets, str) or not targets:
        raise ValueError(f"targets must be a non-empty list of module names, got {targets!r}")
    linears = [name for name, m in model.named_modules() if isinstance(m, nn.Linear)]
    hits: dict[str, list[str]] = {t: [n for n in linears if n == t or n.endswith("." + t)] for t in targets}
    unknown = [t for t, names in hits.items() if not names]
    if unknown:
        raise ValueError(f"unknown target module(s) {unknown}; the model's linear layers are: {linears}")
    generator = torch.Generator().manual_seed(seed)
    replaced = sorted({n for names in hits.values() for n in names})
    for name in replaced:
        parent_name, _, child = name.rpartition(".")
        parent = model.get_submodule(parent_name) if parent_name else model
        base = getattr(parent, child)
        cls = DualLoRALinear if dual else LoRALinear
        setattr(parent, child, cls(base, r, alpha, init, generator))
    return replaced


def lora_modules(model: nn.Module) -> dict[str, LoRALinear]:
    """The model's LoRA layers by qualified name, in module order."""
    return {name: m for name, m in model.named_modules() if isinstance(m, LoRALinear)}
