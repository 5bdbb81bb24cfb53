"""Construction (paper §3): perturb a problem into a false statement with an LLM, filter trivial ones.

1. :func:`perturb`: the official ``REPHRASE_PROMPT`` (5 few-shot examples; modify only the final part
   into a false claim contradicting the solution, do not weaken it, avoid easy refutations; answer
   "Not applicable" without a solution) sent to a chat model (paper: GPT-5-mini).
2. :func:`trivial_counterexample`: the official filter prompt; ``\\boxed{1}`` (a simple counterexample
   was found) discards the item [inferred: how the paper used the filter's answer].
3. expert review: :func:`icml26.brokenmath.benchmark.export_for_review` / ``import_review``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from icml26.brokenmath.benchmark import Item
from icml26.brokenmath.prompts import filter_prompt, rephrase_prompt
from icml26.brokenmath.verdicts import last_boxed


def perturb(model: Any, items: Sequence[Item]) -> list[Item | None]:
    """Each item's ``original_problem`` rewritten by ``model`` into a false statement (None: "Not applicable"
    or an empty reply)."""
    prompts = [
        [{"role": "user", "content": rephrase_prompt(it.original_problem, it.solution)}] for it in items
    ]
    replies = model.chat(prompts)
    if len(replies) != len(items):
        raise ValueError(f"model returned {len(replies)} rewrites for {len(items)} items")
    out: list[Item | None] = []
    for it, reply in zip(items, replies, strict=True):
        text = reply.strip()
        out.append(
            None
            if not text or text.lower().startswith("not applicable")
            else replace(it, problem=text, is_adversarial=True)
        )
    return out


def trivial_counterexample(model: Any, items: Sequence[Item]) -> list[bool | None]:
    """Per item: True if the filter model found a simple counterexample (``\\boxed{1}``), False for ``\\boxed{0}``,
    None for an unparseable reply (counted apart, never silently kept or dropped)."""
    replies = model.chat([[{"role": "user", "content": filter_prompt(it.problem)}] for it in items])
    if len(replies) != len(items):
        raise ValueError(f"filter model returned {len(replies)} replies for {len(items)} items")
    out: list[bool | None] = []
    for reply in replies:
        word = re.sub(r"\s", "", last_boxed(reply) or "")
        out.append(True if word == "1" else False if word == "0" else None)
    return out


def construct(model: Any, filter_model: Any, items: Sequence[Item]) -> dict[str, list[Item]]:
    """Perturb, then filter: ``{"kept": ..., "trivial": ..., "unparseable": ..., "not_applicable": ...}``."""
    perturbed = perturb(model, items)
    out: dict[str, list[Item]] = {"kept": [], "trivial": [], "unparseable": [], "not_applicable": []}
    out["not_applicable"] = [it for it, p in zip(items, perturbed, strict=True) if p is None]
    candidates = [p for p in perturbed if p is not None]
    flags = trivial_counterexample(filter_model, candidates) if candidates else []
    for item, flag in zip(candidates, flags, strict=True):
        out["kept" if flag is False else "trivial" if flag else "unparseable"].append(item)
    return out
