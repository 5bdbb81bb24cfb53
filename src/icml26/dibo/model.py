"""The masked-diffusion language model and its objectives (DiBO §3-4 [code: ``src/trainer_dllm.py``]).

LLaDA-8B cannot run here; a 0.88M-parameter bidirectional transformer (``DiBOConfig``'s defaults) takes
its place (same objectives, tiny vocabulary). With ``causal=True`` the same network is the matched autoregressive baseline.

Forward corruption (as the official ``DllmTrainer._forward_corrupt``): ``t ~ U(0, 1)`` per sequence, mask
rate ``p = (1 - eps) t`` with ``eps = 1e-3`` (LLaDA's own pretraining code adds ``+ eps``; DiBO's does not),
each maskable token replaced by ``<mask>`` independently with probability ``p``; the importance weight
``1 / p`` uses ``max(p, 1e-6)`` as the official loss does. Padding (``<pad>``) is never masked and never
attended to (the official code passes the attention mask to LLaDA).
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F

from icml26.dibo.corpus import MASK, PAD, VOCAB

EPS = 1e-3
P_FLOOR = 1e-6  # the official loss clamps p from below


class DiffusionLM(nn.Module):
    """Pre-norm transformer encoder over token ids ``(B, T)`` -> logits ``(B, T, |V|)``; bidirectional
    (the mask predictor of a masked-diffusion LM) unless ``causal``."""

    def __init__(
        self, d_model: int = 128, n_layers: int = 4, n_heads: int = 4, d_ff: int = 512, max_len: int = 512,
        causal: bool = False,
    ) -> None:  # fmt: skip
        super().__init__()
        if d_model % n_heads:
            raise ValueError(f"d_model ({d_model}) must be divisible by n_heads ({n_heads})")
        self.causal, self.max_len, self.n_heads = causal, max_len, n_heads
        self.embed = nn.Embedding(len(VOCAB), d_model)
        self.position = nn.Embedding(max_len, d_model)
        layer = nn.TransformerEncoderLayer(
            d_model, n_heads, d_ff, dropout=0.0, batch_first=True, norm_first=True
        )
        self.encoder = nn.TransformerEncoder(layer, n_layers, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, len(VOCAB))

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        if tokens.ndim != 2 or tokens.shape[1] > self.max_len:
            raise ValueError(f"tokens must have shape (B, T <= {self.max_len}), got {tuple(tokens.shape)}")
        h = self.embed(tokens) + self.position(torch.arange(tokens.shape[1], device=tokens.device))
        return self.head(self.norm(self.encoder(h, mask=self.attention_mask(tokens))))

    def attention_mask(self, tokens: torch.Tensor) -> torch.Tensor:
        """Boolean ``(B * heads, T, T)`` mask, True = not attended: every ``<pad>`` key (the padding mask),
        and with ``causal`` every later position. A position always attends to itself, so a padding row
        never has every key masked (its output is never read)."""
        b, t = tokens.shape
        blocked = (tokens == PAD)[:, None, :].expand(b, t, t)
        if self.causal:
            blocked = blocked | torch.ones(t, t, dtype=torch.bool, device=tokens.device).triu(1)
        blocked = blocked & ~torch.eye(t, dtype=torch.bool, device=tokens.device)
        return blocked.repeat_interleave(self.n_heads, dim=0)


def n_parameters(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())


def corrupt(
    tokens: torch.Tensor, maskable: torch.Tensor, generator: torch.Generator | None = None
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """The forward process: ``(noisy tokens, masked (B, T) bool, p (B, 1))`` with p = (1 - eps) t."""
    b = tokens.shape[0]
    t = torch.rand(b, 1, generator=generator, device=generator.device if generator else tokens.device)
    t = t.to(tokens.device)
    p = (1 - EPS) * t
    u = torch.rand(tokens.shape, generator=generator, device=generator.device if generator else tokens.device)
    masked = (u.to(tokens.device) < p) & maskable
    return torch.where(masked, torch.full_like(tokens, MASK), tokens), masked, p


def _weighted_ce_rows(
    model: DiffusionLM, tokens: torch.Tensor, noisy: torch.Tensor, masked: torch.Tensor, p: torch.Tensor
) -> torch.Tensor:
    """Per row ``(B,)``: the sum over its masked positions of CE(x_i) / max(p, 1e-6) (0 where none is)."""
    logits = model(noisy)
    ce = F.cross_entropy(logits.transpose(1, 2), tokens, reduction="none")  # (B, T)
    return (ce * masked / p.clamp_min(P_FLOOR)).sum(1)


def pretraining_loss(
    model: DiffusionLM, tokens: torch.Tensor, generator: torch.Generator | None = None
) -> torch.Tensor:
    """Our pretraining (the stand-in for LLaDA's): masks anywhere (padding excluded); loss = sum over the
    batch of CE / p, divided by B * T (LLaDA's pretraining normalisation; T the padded row length)."""
    noisy, masked, p = corrupt(tokens, tokens != PAD, generator)
    return _weighted_ce_rows(model, tokens, noisy, masked, p).sum() / tokens.numel()


def adaptation_loss(
    model: DiffusionLM, tokens: torch.Tensor, generator: torch.Generator | None = None
) -> torch.Tensor:
    """Domain adaptation: masks anywhere in prompt + response (padding excluded); per sequence, sum_masked
    CE / p divided by the sequence's own (unpadded) length, then the mean over the B sequences (the official
    code divides by ``input_ids.numel()`` of a batch of one and averages 16 accumulated sequences)."""
    noisy, masked, p = corrupt(tokens, tokens != PAD, generator)
    lengths = (tokens != PAD).sum(1).clamp_min(1)
    return (_weighted_ce_rows(model, tokens, noisy, masked, p) / lengths).mean()


def sft_loss(
    model: DiffusionLM, tokens: torch.Tensor, span: torch.Tensor, generator: torch.Generator | None = None
) -> torch.Tensor:
    """Stage 1, masked-response prediction: masks only inside the response ``span`` (``(T,)`` positions);
    per sequence, sum_masked CE / p divided by its number of masked tokens (at least 1: a sequence that
    masks nothing counts 0, as the official code), then the mean over the B sequences (the official batch
    of one with 16 accumulated sequences)."""
    maskable = torch.zeros_like(tokens, dtype=torch.bool)
    maskable[:, span] = True
    noisy, masked, p = corrupt(tokens, maskable, generator)
    return (_weighted_ce_rows(model, tokens, noisy, masked, p) / masked.sum(1).clamp_min(1)).mean()


def mask_span(tokens: torch.Tensor, span: torch.Tensor) -> torch.Tensor:
    out = tokens.clone()
    out[:, span] = MASK
    return out


def rl_loss(
    model: DiffusionLM, tokens: torch.Tensor, span: torch.Tensor, reward: torch.Tensor, sigma: float
) -> torch.Tensor:
    """Stage 2, reward-weighted (as the official code does, offline on dataset pairs): the whole response
    span masked; loss = -mean over the B x |span| response tokens of (r / sigma_r) p_theta(x_i | prompt,
    masked response). The official code weights the probability, not the log-probability."""
    probs = model(mask_span(tokens, span))[:, span].softmax(-1)
    p_true = probs.gather(-1, tokens[:, span].unsqueeze(-1)).squeeze(-1)
    return -((reward / sigma).unsqueeze(1) * p_true).mean()


# ---------------------------------------------------------------- the matched autoregressive model


def ar_loss(model: DiffusionLM, tokens: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    """Next-token cross-entropy averaged over the target positions ``targets`` ((B, T) bool)."""
    logits = model(tokens[:, :-1])
    t = targets[:, 1:]
    return F.cross_entropy(logits[t], tokens[:, 1:][t])


def ar_rl_loss(
    model: DiffusionLM, tokens: torch.Tensor, span: torch.Tensor, reward: torch.Tensor, sigma: float
) -> torch.Tensor:
    """The AR analogue of :func:`rl_loss`: -mean of (r / sigma_r) p_theta(x_i | x_<i) over the response."""
    probs = model(tokens[:, :-1])[:, span - 1].softmax(-1)
    p_true = probs.gather(-1, tokens[:, span].unsqueeze(-1)).squeeze(-1)
    return -((reward / sigma).unsqueeze(1) * p_true).mean()


def warmup_constant(step: int, warmup: int) -> float:
    """Learning-rate factor: linear warm-up over ``warmup`` steps, then constant (the paper's schedule)."""
    return min(1.0, (step + 1) / max(1, warmup))
