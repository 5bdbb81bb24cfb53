"""SFT mitigation (paper §5.2): fine-tune on curated, judge-filtered responses with LoRA (``peft``).

Paper: Qwen3-4B-Thinking trained on its own responses, kept only if the judge said ``correct`` or
``detected`` (adversarial items) or the answer was right (original problems); ``adv_frac`` ∈ {0.5, 0.9}
of adversarial examples; TRL ``SFTTrainer``, 2 epochs, lr 1e-5 cosine. Here [inferred, laptop scale]:
SmolLM2-135M with a LoRA adapter, a plain PyTorch loop (loss on the reply tokens only, cosine lr), on
BrokenArith items whose candidate replies pass the same filter.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from icml26.brokenmath.benchmark import Item
from icml26.brokenmath.prompts import solver_messages
from icml26.common import check_int

KEEP = ("correct", "detected")
TARGETS = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")
ADAPTER_WEIGHTS, ADAPTER_CONFIG = "adapter.pt", "adapter_config.json"


def build_sft_data(
    items: Sequence[Item],
    responses: Sequence[str],
    verdict: Callable[[Item, str], str | None],
    correct: Callable[[Item, str], bool],
    adv_frac: float = 0.5,
    seed: int = 0,
) -> list[tuple[Item, str]]:
    """The judge-filtered SFT set: adversarial items whose reply the judge calls ``correct``/``detected``, original
    items whose reply is right; then as many of each as makes ``adv_frac`` of the set adversarial (as large as
    the filtered pools allow), shuffled."""
    if len(items) != len(responses):
        raise ValueError(f"build_sft_data needs one response per item, got {len(responses)} for {len(items)}")
    if not (isinstance(adv_frac, int | float) and 0 < adv_frac < 1):
        raise ValueError(f"adv_frac must be in (0, 1), got {adv_frac!r}")
    adversarial = [
        (it, r)
        for it, r in zip(items, responses, strict=True)
        if it.is_adversarial and verdict(it, r) in KEEP
    ]
    originals = [
        (it, r) for it, r in zip(items, responses, strict=True) if not it.is_adversarial and correct(it, r)
    ]
    if not adversarial or not originals:
        raise ValueError(
            f"the filter kept {len(adversarial)} adversarial and {len(originals)} original examples; need both"
        )
    n_adv = min(len(adversarial), int(len(originals) * adv_frac / (1 - adv_frac)))
    n_orig = min(len(originals), int(round(n_adv * (1 - adv_frac) / adv_frac)))
    rng = np.random.default_rng(seed)
    data = [adversarial[i] for i in rng.permutation(len(adversarial))[:n_adv]]
    data += [originals[i] for i in rng.permutation(len(originals))[:n_orig]]
    return [data[i] for i in rng.permutation(len(data))]


def _encode(tokenizer: Any, messages: list[dict[str, str]], response: str) -> tuple[list[int], list[int]]:
    prompt = tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
    prompt_ids = tokenizer(prompt, add_special_tokens=False)["input_ids"]
    reply_ids = tokenizer(response + tokenizer.eos_token, add_special_tokens=False)["input_ids"]
    return prompt_ids + reply_ids, [-100] * len(prompt_ids) + reply_ids


def train_lora(
    model: Any,
    tokenizer: Any,
    data: Sequence[tuple[Item, str]],
    epochs: int = 2,
    lr: float = 1e-3,
    rank: int = 8,
    batch_size: int = 8,
    seed: int = 0,
    messages: Callable[[Item], list[dict[str, str]]] = solver_messages,
    log: Callable[[int, float], None] | None = None,
) -> tuple[Any, list[float]]:
    """Wrap ``model`` with a LoRA adapter on every linear layer of the blocks (:data:`TARGETS`) and fit it on ``data``; ``(peft_model, losses)``.

    Cross-entropy on the reply tokens only (prompt tokens masked), AdamW, cosine schedule to 0;
    ``messages(item)`` builds the prompt (default: the official solver prompt); ``log(step, loss)`` is
    called after every step.
    """
    import torch
    from peft import LoraConfig, get_peft_model

    epochs, rank, batch_size = (
        check_int("epochs", epochs),
        check_int("rank", rank),
        check_int("batch_size", batch_size),
    )
    if not data:
        raise ValueError("train_lora needs a non-empty list of (item, response) examples")
    torch.manual_seed(seed)
    peft_model = get_peft_model(
        model,
        LoraConfig(
            r=rank, lora_alpha=2 * rank, lora_dropout=0.0, target_modules=list(TARGETS), task_type="CAUSAL_LM"
        ),
    )
    encoded = [_encode(tokenizer, messages(it), r) for it, r in data]
    params = [p for p in peft_model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=lr, weight_decay=0.0)
    steps = epochs * math.ceil(len(encoded) / batch_size)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: 0.5 * (1 + math.cos(math.pi * s / steps))
    )
    rng = np.random.default_rng(seed)
    losses: list[float] = []
    peft_model.train()
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
    for _ in range(epochs):
        order = rng.permutation(len(encoded))
        for start in range(0, len(order), batch_size):
            batch = [encoded[i] for i in order[start : start + batch_size]]
            width = max(len(ids) for ids, _ in batch)
            ids = torch.tensor([x + [pad] * (width - len(x)) for x, _ in batch])
            labels = torch.tensor([y + [-100] * (width - len(y)) for _, y in batch])
            mask = torch.tensor([[1] * len(x) + [0] * (width - len(x)) for x, _ in batch])
            loss = peft_model(input_ids=ids, attention_mask=mask, labels=labels).loss
            if not torch.isfinite(loss):
                raise FloatingPointError(f"LoRA training diverged: loss {loss.item()} at step {len(losses)}")
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            schedule.step()
            losses.append(loss.item())
            if log is not None:
                log(len(losses), losses[-1])
    peft_model.eval()
    return peft_model, losses


def save_adapter(peft_model: Any, directory: str | Path, info: dict[str, Any]) -> Path:
    """Save the LoRA weights (``adapter.pt``, float16) and their config plus ``info`` (``adapter_config.json``)."""
    import torch
    from peft import get_peft_model_state_dict

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    # float16 halves the shipped file (about 5 MB for r = 8 on SmolLM2-135M); loaded back as float32
    state = {
        k: v.detach().to(torch.float16).clone() for k, v in get_peft_model_state_dict(peft_model).items()
    }
    torch.save(state, directory / ADAPTER_WEIGHTS)
    config = peft_model.peft_config["default"]
    meta = {
        "r": config.r,
        "lora_alpha": config.lora_alpha,
        "target_modules": sorted(config.target_modules),
        **info,
    }
    (directory / ADAPTER_CONFIG).write_text(json.dumps(meta, indent=1))
    return directory


def load_adapter(model: Any, directory: str | Path) -> Any:
    """``model`` wrapped with the LoRA adapter saved in ``directory``; ``ValueError`` if files are missing or mismatched."""
    import torch
    from peft import LoraConfig, get_peft_model, set_peft_model_state_dict

    directory = Path(directory)
    if not (directory / ADAPTER_WEIGHTS).is_file() or not (directory / ADAPTER_CONFIG).is_file():
        raise ValueError(f"no LoRA adapter in {directory} (expected {ADAPTER_WEIGHTS} and {ADAPTER_CONFIG})")
    meta = json.loads((directory / ADAPTER_CONFIG).read_text())
    peft_model = get_peft_model(
        model,
        LoraConfig(
            r=meta["r"],
            lora_alpha=meta["lora_alpha"],
            lora_dropout=0.0,
            target_modules=meta["target_modules"],
            task_type="CAUSAL_LM",
        ),
    )
    state = {k: v.float() for k, v in torch.load(directory / ADAPTER_WEIGHTS, weights_only=True).items()}
    result = set_peft_model_state_dict(peft_model, state)
    if getattr(result, "unexpected_keys", None):
        raise ValueError(f"adapter in {directory} has unexpected keys {result.unexpected_keys[:3]}")
    return peft_model.eval()
