"""Inference (DiBO §4 [code: ``eval.py``]): fill the masked response span, parse, validate, deduplicate.

- One-step decoding (the paper's default): the whole span masked, one forward pass, argmax everywhere.
- Low-confidence iterative remasking (LLaDA, our option): ``steps`` passes; each commits the most
  confident still-masked positions and keeps the rest masked.
- Autoregressive greedy decoding for the matched causal model: one position per pass, left to right.
"""

from __future__ import annotations

import torch

from icml26.dibo.corpus import MASK, PAD, VOCAB
from icml26.dibo.model import DiffusionLM

_FORBIDDEN = [MASK, PAD]


def _logits(model: DiffusionLM, tokens: torch.Tensor) -> torch.Tensor:
    logits = model(tokens)
    logits[..., _FORBIDDEN] = -torch.inf  # never emit <mask> or <pad> as content
    return logits


@torch.no_grad()
def fill_one_step(model: DiffusionLM, tokens: torch.Tensor, span: torch.Tensor) -> torch.Tensor:
    """The response span of ``tokens`` ``(B, T)`` masked and filled by one argmax pass -> ``(B, |span|)``."""
    x = tokens.clone()
    x[:, span] = MASK
    return _logits(model, x)[:, span].argmax(-1)


@torch.no_grad()
def fill_remasking(model: DiffusionLM, tokens: torch.Tensor, span: torch.Tensor, steps: int) -> torch.Tensor:
    """LLaDA low-confidence remasking over ``steps`` passes (``1 <= steps <= |span|``) -> ``(B, |span|)``."""
    if not 1 <= steps <= len(span):
        raise ValueError(f"remasking steps must lie in [1, {len(span)}] (the span length), got {steps}")
    x = tokens.clone()
    x[:, span] = MASK
    b = x.shape[0]
    counts = [len(span) // steps + (i < len(span) % steps) for i in range(steps)]
    for k in counts:
        conf, pred = _logits(model, x)[:, span].softmax(-1).max(-1)
        still = x[:, span] == MASK
        conf = torch.where(still, conf, -torch.inf)
        pick = conf.topk(k, dim=1).indices
        rows = torch.arange(b, device=x.device).unsqueeze(1)
        region = x[:, span]
        region[rows, pick] = pred[rows, pick]
        x[:, span] = region
    return x[:, span]


@torch.no_grad()
def fill_autoregressive(model: DiffusionLM, tokens: torch.Tensor, span: torch.Tensor) -> torch.Tensor:
    """Greedy left-to-right decoding of the span (which must end the sequence) -> ``(B, |span|)``."""
    if int(span[-1]) != tokens.shape[1] - 1 or not torch.all(span.diff() == 1):
        raise ValueError(
            "autoregressive decoding needs a contiguous response span at the end of the sequence"
        )
    x = tokens[:, : int(span[0])].clone()
    for _ in range(len(span)):
        nxt = _logits(model, x)[:, -1].argmax(-1, keepdim=True)
        x = torch.cat([x, nxt], dim=1)
    return x[:, int(span[0]) :]


def describe(tokens: torch.Tensor) -> str:
    """Token ids as text (for error messages and debugging)."""
    return " ".join(VOCAB[int(t)] for t in tokens)
