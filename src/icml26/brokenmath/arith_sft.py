"""The BrokenArith SFT setting: disjoint training and held-out items, the filtered training set, the adapter.

Training pairs come from ``brokenarith.generate(n, seed=TRAIN_SEED)``; held-out pairs from another seed with
every quantity seen in training removed, so "false items not used in training" holds by construction.
The adapter shipped in ``data/adapter_brokenarith/`` was trained by :func:`train_adapter` with
:data:`SHIPPED` (its ``adapter_config.json`` records the settings, losses and seconds).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from icml26.brokenmath import brokenarith
from icml26.brokenmath.benchmark import Item
from icml26.brokenmath.sft import build_sft_data, save_adapter, train_lora

TRAIN_SEED = 1000
SHIPPED = {"n_pairs": 32, "epochs": 1, "lr": 3e-3, "rank": 8, "batch_size": 8, "adv_frac": 0.5, "seed": 0}


def adapter_dir() -> Path:
    from importlib import resources

    return Path(str(resources.files("icml26.brokenmath") / "data" / "adapter_brokenarith"))


def training_pairs(n_pairs: int) -> list[tuple[Item, Item]]:
    return brokenarith.generate(n_pairs, seed=TRAIN_SEED)


def heldout_pairs(n: int, seed: int, n_train: int = SHIPPED["n_pairs"]) -> list[tuple[Item, Item]]:
    """``n`` BrokenArith pairs none of whose quantities is among the first ``n_train`` training pairs."""
    seen = {f.meta["quantity"] for f, _ in training_pairs(n_train)}
    pool = brokenarith.generate(3 * n + 50, seed=seed)
    kept = [p for p in pool if p[0].meta["quantity"] not in seen][:n]
    if len(kept) < n:
        raise ValueError(f"only {len(kept)} held-out pairs left after removing training quantities")
    return kept


def sft_data(n_pairs: int, adv_frac: float, seed: int) -> list[tuple[Item, str]]:
    """The judge-filtered training set from teacher replies (the exact judge as the filter)."""
    items = [it for pair in training_pairs(n_pairs) for it in pair]
    replies = [brokenarith.teacher_response(it) for it in items]
    return build_sft_data(
        items, replies, brokenarith.exact_verdict, brokenarith.exact_correct, adv_frac, seed
    )


def train_adapter(
    model: Any, tokenizer: Any, settings: dict[str, Any], out: str | Path | None = None, log: Any = None
) -> tuple[Any, dict[str, Any]]:
    """Fit the LoRA adapter on :func:`sft_data`; optionally save it to ``out``. Returns ``(peft_model, info)``."""
    data = sft_data(settings["n_pairs"], settings["adv_frac"], settings["seed"])
    start = time.perf_counter()
    peft_model, losses = train_lora(
        model,
        tokenizer,
        data,
        epochs=settings["epochs"],
        lr=settings["lr"],
        rank=settings["rank"],
        batch_size=settings["batch_size"],
        seed=settings["seed"],
        messages=brokenarith.arith_messages,
        log=log,
    )
    info = {
        "settings": dict(settings),
        "n_examples": len(data),
        "losses": losses,
        "train_s": time.perf_counter() - start,
    }
    if out is not None:
        save_adapter(peft_model, out, info)
    return peft_model, info
