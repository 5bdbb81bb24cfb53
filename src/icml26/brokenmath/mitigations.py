"""Test-time mitigations and the agentic system as solver wrappers (paper §5; official configs).

- the **hint** is a prompt (``evaluate(..., mitigation="hint")``);
- :class:`ConfidenceSelection`: the confidence prompt, ``n`` samples (paper: 16), keep the most confident
  (``<confidence>0-100</confidence>``; a reply without a tag ranks last);
- :class:`BestOfN`: ``n`` samples (paper: 4) and a bracket tournament with the official pairwise judge
  (``\\boxed{A}`` / ``\\boxed{B}``; ``equal`` or unparseable keeps A), one elimination per match;
- :class:`IterativeAgent`: solve → self-improve → verify (bug report, then a yes/no check) → correct,
  up to ``max_iterations`` (4), accept after ``correct_count`` (1) clean verification, give up after
  ``error_count`` (3) failed ones (``configs/agent_scaffolds/standard.yaml``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from icml26.brokenmath.backends import Message, check_conversations
from icml26.brokenmath.benchmark import Item
from icml26.brokenmath.prompts import AGENT_CHECK_CORRECTNESS, agent_prompts, pairwise_judge_prompt
from icml26.brokenmath.verdicts import last_boxed
from icml26.common import check_int

_CONFIDENCE = re.compile(r"<confidence>\s*(.*?)\s*</confidence>", re.DOTALL)


def parse_confidence(text: str) -> int | None:
    """The last ``<confidence>`` value as 0-100 (a fraction in (0, 1) is read as a share); None if absent or not a number."""
    matches = _CONFIDENCE.findall(text)
    if not matches:
        return None
    try:
        value = float(matches[-1])
    except ValueError:
        return None
    return int(value * 100) if 0 < value < 1 else int(value)


def _samples(model: Any, conversations: list[list[Message]], n: int) -> list[list[str]]:
    replies = model.chat([c for c in conversations for _ in range(n)])
    if len(replies) != n * len(conversations):
        raise ValueError(f"model returned {len(replies)} replies for {n * len(conversations)} requests")
    return [replies[i * n : (i + 1) * n] for i in range(len(conversations))]


class ConfidenceSelection:
    """Sample ``n`` replies per conversation and keep the one with the highest stated confidence."""

    def __init__(self, model: Any, n: int = 16) -> None:
        self.model, self.n = model, check_int("n", n)

    def chat(self, conversations: Sequence[Sequence[Message]]) -> list[str]:
        groups = _samples(self.model, check_conversations(conversations), self.n)
        return [
            max(g, key=lambda r: -1 if parse_confidence(r) is None else parse_confidence(r)) for g in groups
        ]


class BestOfN:
    """Sample ``n`` replies per item and keep the winner of a bracket tournament judged pairwise by ``judge``."""

    needs_items = True

    def __init__(self, model: Any, judge: Any, n: int = 4) -> None:
        self.model, self.judge, self.n = model, judge, check_int("n", n)

    def _match(self, problem: str, a: str, b: str) -> str:
        reply = self.judge.chat([[{"role": "user", "content": pairwise_judge_prompt(problem, a, b)}]])[0]
        word = re.sub(r"[^a-z]", "", (last_boxed(reply) or "").lower())
        return b if word == "b" else a

    def chat(self, conversations: Sequence[Sequence[Message]], items: Sequence[Item]) -> list[str]:
        groups = _samples(self.model, check_conversations(conversations), self.n)
        winners = []
        for item, group in zip(items, groups, strict=True):
            pool = list(group)
            while len(pool) > 1:  # one bracket round; an odd one out gets a bye
                pool = [
                    self._match(item.problem, pool[i], pool[i + 1]) if i + 1 < len(pool) else pool[i]
                    for i in range(0, len(pool), 2)
                ]
            winners.append(pool[0])
        return winners


class IterativeAgent:
    """The official solve → verify → correct loop around a solver model and a verifier model (may be the same)."""

    def __init__(self, model: Any, verifier: Any | None = None, max_iterations: int | None = None) -> None:
        self.prompts = agent_prompts()
        self.model, self.verifier = model, verifier if verifier is not None else model
        self.max_iterations = check_int("max_iterations", max_iterations or self.prompts["max_iterations"])
        self.history: list[list[dict[str, str]]] = []

    def _one(self, model: Any, messages: list[Message]) -> str:
        return model.chat([messages])[0]

    def _verify(self, problem: str, solution: str, log: list[dict[str, str]]) -> tuple[str, bool]:
        text = (
            f"\n{'=' * 70}\n### Problem ###\n\n{problem}\n\n{'=' * 70}\n### Solution ###\n\n{solution}\n\n"
            f"{self.prompts['verification_reminder_prompt']}\n"
        )
        report = self._one(
            self.verifier,
            [
                {"role": "system", "content": self.prompts["verification_system_prompt"]},
                {"role": "user", "content": text},
            ],
        )
        answer = self._one(
            self.verifier, [{"role": "user", "content": AGENT_CHECK_CORRECTNESS + "\n\n" + report}]
        )
        log.append({"step": "verify", "report": report, "verdict": answer})
        return report, "yes" in answer.lower()

    def solve(self, problem: str) -> str:
        system = {"role": "system", "content": self.prompts["system_prompt"]}
        first = self._one(self.model, [system, {"role": "user", "content": problem}])
        solution = self._one(
            self.model,
            [
                system,
                {"role": "user", "content": problem},
                {"role": "assistant", "content": first},
                {"role": "user", "content": self.prompts["self_improvement_prompt"]},
            ],
        )
        log: list[dict[str, str]] = [{"step": "init", "solution": solution}]
        report, good = self._verify(problem, solution, log)
        correct = errors = 0
        for _ in range(self.max_iterations):
            if not good:
                correct, errors = 0, errors + 1
                solution = self._one(
                    self.model,
                    [
                        system,
                        {"role": "user", "content": problem},
                        {"role": "assistant", "content": solution},
                        {"role": "user", "content": self.prompts["correction_prompt"] + "\n\n" + report},
                    ],
                )
                log.append({"step": "correct", "solution": solution})
            report, good = self._verify(problem, solution, log)
            correct, errors = (correct + 1, 0) if good else (correct, errors)
            if correct >= self.prompts["correct_count"] or errors >= self.prompts["error_count"]:
                break
        self.history.append(log)
        return solution  # return_if_not_found: true in the official scaffold

    def chat(self, conversations: Sequence[Sequence[Message]]) -> list[str]:
        return [self.solve(conv[-1]["content"]) for conv in check_conversations(conversations)]
