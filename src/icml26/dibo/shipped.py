"""The weights ``icml26.dibo`` ships, and the recipe each file carries (made by ``benchmarks/dibo_pretrain.py``).

- ``pretrain_mdm_special.pt``: the diffusion model (delimiter tokens) pretrained on other TF landscapes.
- ``tfbind8_sft_mdm_special_seed{0,1,2}.pt``: from it, domain adaptation + SFT on TFBind8 (SIX6 REF R1),
  one training run per seed (the ``quick`` profile's inner seeds start their RL stage from them, so their
  intervals carry DA/SFT training variance).
- ``ehrlich_sft_mdm_special_seed0.pt``: the same on the default Ehrlich task (one run).

Every file stores its *recipe*: the stage, the task's full name, the seed, every setting that shapes the
training (architecture, batch, steps, learning rates, warm-up, clipping, the pretraining landscapes), the
version of the training rules (:data:`RULES`) and, for a fine-tuned file, the digest of the pretrained
weights it started from; and the recipe's SHA-256 (:func:`recipe_hash`). :meth:`DiBO.load_shipped
<icml26.dibo.DiBO.load_shipped>` rebuilds the recipe the library would use now and refuses a file whose
recipe differs (stale weights, a file made for another task, or a pretrained file remade after the
fine-tuned ones).
"""

from __future__ import annotations

import functools
import hashlib
import json
from importlib import resources
from typing import Any

import numpy as np
import torch

# the training rules the files were made under, per stage; change one whenever a loss, the corruption, the
# masking, the optimiser or the corpus of that stage changes, so that the files are refused until remade
PRETRAIN_RULES = "corruption p=(1-eps)t; <pad> never masked nor attended; corpus as corpus.py of 2026-12-02"
FINETUNE_RULES = (
    PRETRAIN_RULES + "; DA / sequence length and SFT / sequence #masked, mean over sequences; no weight decay"
    " on 1-d parameters, biases, norms"
)
SFT_STEPS = {"tfbind8": (200, 600), "ehrlich": (200, 300)}  # (DA, SFT) steps from the pretrained file
SFT_SEEDS = {"tfbind8": (0, 1, 2), "ehrlich": (0,)}  # one fine-tuned file per seed
STAGES = ("pretrain", "sft")
_ARCH = ("markers", "causal", "d_model", "n_layers", "n_heads", "d_ff")
_TRAIN = ("batch_size", "warmup", "weight_decay", "clip")


def file_name(kind: str, stage: str = "pretrain", task: str = "tfbind8", seed: int = 0) -> str:
    """``pretrain_mdm_special.pt`` or ``tfbind8_sft_mdm_special_seed1.pt`` (``kind`` = ``mdm_special``, ...)."""
    if stage not in STAGES:
        raise ValueError(f"stage must be one of {STAGES}, got {stage!r}")
    return f"pretrain_{kind}.pt" if stage == "pretrain" else f"{task}_{stage}_{kind}_seed{seed}.pt"


def weights_digest(weights: dict[str, torch.Tensor]) -> str:
    """SHA-256 (16 hex digits) of a state dict's names and float16 values, in name order."""
    h = hashlib.sha256()
    for name in sorted(weights):
        h.update(name.encode())
        h.update(weights[name].detach().cpu().half().numpy().tobytes())
    return h.hexdigest()[:16]


def task_digest(task: Any) -> str:
    """SHA-256 (16 hex digits) of a task's alphabet, length and offline data (designs and labels)."""
    h = hashlib.sha256(f"{task.alphabet}|{task.length}|".encode())
    h.update(np.ascontiguousarray(task.x_offline, dtype=np.int64).tobytes())
    h.update(np.ascontiguousarray(task.y_offline, dtype=np.float64).tobytes())
    return h.hexdigest()[:16]


def recipe(
    config: Any,
    stage: str,
    task: Any = None,
    seed: int = 0,
    landscapes: list[str] | None = None,
    parent: str = "",
) -> dict[str, Any]:
    """The recipe of a shipped file made from ``config`` (a ``DiBOConfig``): ``pretrain`` on ``landscapes``,
    or ``sft`` (DA + SFT with :data:`SFT_STEPS`) on ``task`` (its full name and the digest of its data,
    :func:`task_digest`) from the pretrained weights whose digest is ``parent``."""
    if stage not in STAGES:
        raise ValueError(f"stage must be one of {STAGES}, got {stage!r}")
    rules = PRETRAIN_RULES if stage == "pretrain" else FINETUNE_RULES
    out: dict[str, Any] = {"rules": rules, "stage": stage, "seed": int(seed)}
    out.update({k: getattr(config, k) for k in _ARCH + _TRAIN})
    if stage == "pretrain":
        out.update(
            pretrain_steps=config.pretrain_steps,
            pretrain_lr=config.pretrain_lr,
            landscapes=list(landscapes or []),
        )
    else:
        name = getattr(task, "name", None)
        key = str(name).split(":", 1)[0]
        if key not in SFT_STEPS:
            raise ValueError(f"no shipped fine-tuning recipe for task {name!r}; shipped: {sorted(SFT_STEPS)}")
        da, sft = SFT_STEPS[key]
        out.update(
            task=name,
            data=task_digest(task),
            adapt_steps=da,
            adapt_lr=config.adapt_lr,
            sft_steps=sft,
            sft_lr=config.sft_lr,
            parent=parent,
        )
    return out


def recipe_hash(r: dict[str, Any]) -> str:
    """SHA-256 (16 hex digits) of a recipe's canonical JSON."""
    return hashlib.sha256(json.dumps(r, sort_keys=True, default=str).encode()).hexdigest()[:16]


def stamp(state: dict[str, Any], r: dict[str, Any]) -> dict[str, Any]:
    """``state`` (from ``DiBO.state_dict``) with its recipe and the recipe's hash added."""
    return {**state, "recipe": r, "recipe_hash": recipe_hash(r)}


def check_recipe(name: str, state: dict[str, Any], expected: dict[str, Any]) -> None:
    """``ValueError`` unless the file ``name`` carries ``expected`` (and the hash of what it carries)."""
    got = state.get("recipe")
    remake = "remake it with benchmarks/dibo_pretrain.py"
    if not isinstance(got, dict) or state.get("recipe_hash") != recipe_hash(got):
        raise ValueError(f"shipped weights {name} carry no valid recipe hash; {remake}")
    if recipe_hash(got) != recipe_hash(expected):
        keys = sorted(k for k in set(got) | set(expected) if got.get(k) != expected.get(k))
        diff = "; ".join(f"{k}: file {got.get(k)!r}, library {expected.get(k)!r}" for k in keys)
        raise ValueError(f"shipped weights {name} were made by another recipe ({diff}); {remake}")


def read(name: str) -> dict[str, Any]:
    """The state saved in the shipped file ``name`` (``FileNotFoundError`` naming the script otherwise)."""
    path = resources.files("icml26.dibo") / name
    if not path.is_file():
        raise FileNotFoundError(f"no shipped weights {name}; make them with benchmarks/dibo_pretrain.py")
    with resources.as_file(path) as p:
        return torch.load(p, weights_only=False, map_location="cpu")


@functools.cache
def pretrained_digest(kind: str = "mdm_special") -> str:
    """Digest of the shipped pretrained weights (the ``parent`` of every shipped fine-tuned file)."""
    return weights_digest(read(file_name(kind))["model"])
