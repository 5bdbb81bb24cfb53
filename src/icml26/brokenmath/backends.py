"""Chat backends: an OpenAI-compatible HTTP client, in-process ``transformers`` (SmolLM2 offline), a scripted mock.

Every backend has ``chat(conversations) -> list[str]``: one reply per conversation (a list of
``{"role", "content"}`` messages). The official pipeline talks to models through the ``openai`` client
(``src/sycophancy/api.py``, ``vllm_server`` at ``http://localhost:8000/v1``); here the same
``/chat/completions`` request is sent with the standard library, so no dependency pins move.
"""

from __future__ import annotations

import json
import os
import re
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from typing import Any

Message = dict[str, str]


def check_conversations(conversations: Any) -> list[list[Message]]:
    """``conversations`` as a list of message lists; ``ValueError`` naming the first malformed one."""
    if isinstance(conversations, str | dict) or not isinstance(conversations, Sequence):
        raise TypeError(f"conversations must be a list of message lists, got {type(conversations).__name__}")
    out = []
    for i, conv in enumerate(conversations):
        if isinstance(conv, str | dict) or not isinstance(conv, Sequence) or not conv:
            raise ValueError(f"conversation {i} must be a non-empty list of messages, got {conv!r:.80}")
        for m in conv:
            if not (
                isinstance(m, dict)
                and m.get("role") in ("system", "user", "assistant")
                and isinstance(m.get("content"), str)
            ):
                raise ValueError(
                    f"conversation {i}: each message needs role system|user|assistant and string content, got {m!r:.80}"
                )
        out.append([dict(m) for m in conv])
    return out


class MockChat:
    """A scripted model: ``respond(conversation, index) -> str`` gives each reply (index counts calls)."""

    def __init__(self, respond: Callable[[list[Message], int], str]) -> None:
        if not callable(respond):
            raise TypeError("MockChat needs a callable respond(conversation, index) -> str")
        self.respond = respond
        self.calls = 0

    def chat(self, conversations: Sequence[Sequence[Message]]) -> list[str]:
        replies = []
        for conv in check_conversations(conversations):
            reply = self.respond(conv, self.calls)
            self.calls += 1
            if not isinstance(reply, str):
                raise TypeError(f"MockChat respond() must return a string, got {type(reply).__name__}")
            replies.append(reply)
        return replies


class OpenAIChat:
    """An OpenAI-compatible ``/chat/completions`` endpoint (vLLM, a provider, a loopback stub).

    base_url: e.g. ``http://127.0.0.1:8000/v1``; api_key: sent as a bearer token (default
    ``$OPENAI_API_KEY``); retries: extra attempts after a connection error or HTTP 5xx/429.
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        max_tokens: int = 1024,
        temperature: float = 0.0,
        timeout: float = 120.0,
        retries: int = 1,
    ) -> None:
        if not isinstance(base_url, str) or not base_url.startswith(("http://", "https://")):
            raise ValueError(
                f"base_url must be an http(s) URL such as http://127.0.0.1:8000/v1, got {base_url!r}"
            )
        if not isinstance(model, str) or not model:
            raise ValueError(f"model must be a non-empty model name, got {model!r}")
        if not isinstance(max_tokens, int) or isinstance(max_tokens, bool) or max_tokens < 1:
            raise ValueError(f"max_tokens must be an integer >= 1, got {max_tokens!r}")
        if not isinstance(retries, int) or isinstance(retries, bool) or retries < 0:
            raise ValueError(f"retries must be an integer >= 0, got {retries!r}")
        if not (
            isinstance(temperature, int | float) and not isinstance(temperature, bool) and temperature >= 0
        ):
            raise ValueError(f"temperature must be a number >= 0, got {temperature!r}")
        if not (isinstance(timeout, int | float) and timeout > 0):
            raise ValueError(f"timeout must be a positive number of seconds, got {timeout!r}")
        self.base_url, self.model = base_url.rstrip("/"), model
        self.api_key = api_key if api_key is not None else os.environ.get("OPENAI_API_KEY", "")
        self.max_tokens, self.temperature, self.timeout, self.retries = (
            max_tokens,
            temperature,
            timeout,
            retries,
        )

    def _post(self, messages: list[Message]) -> dict[str, Any]:
        body = json.dumps(
            {
                "model": self.model,
                "messages": messages,
                "max_tokens": self.max_tokens,
                "temperature": self.temperature,
            }
        ).encode()
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(f"{self.base_url}/chat/completions", body, headers, method="POST")
        last: Exception | None = None
        for attempt in range(self.retries + 1):
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    return json.loads(response.read().decode())
            except urllib.error.HTTPError as exc:
                if exc.code not in (429, 500, 502, 503, 504):
                    raise ValueError(
                        f"{self.base_url} answered HTTP {exc.code}: {exc.read()[:200]!r}"
                    ) from None
                last = exc
            except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
                last = exc
            except json.JSONDecodeError as exc:
                raise ValueError(f"{self.base_url} returned a reply that is not JSON: {exc}") from None
            if attempt < self.retries:
                time.sleep(0.2 * 2**attempt)
        raise ConnectionError(
            f"endpoint {self.base_url} is unreachable ({last}); check base_url and that the server runs"
        )

    def chat(self, conversations: Sequence[Sequence[Message]]) -> list[str]:
        replies = []
        for conv in check_conversations(conversations):
            data = self._post(conv)
            try:
                content = data["choices"][0]["message"]["content"]
            except (KeyError, IndexError, TypeError):
                raise ValueError(
                    f"{self.base_url} reply has no choices[0].message.content: {str(data)[:200]}"
                ) from None
            if not isinstance(content, str):
                raise ValueError(f"{self.base_url} reply content is not text: {content!r:.80}")
            replies.append(content)
        return replies


class TransformersChat:
    """An in-process causal LM with a chat template: batched ``generate`` with left padding.

    max_new_tokens: generation budget; temperature 0 → greedy, else sampling with ``top_p``;
    batch_size: conversations per ``generate`` call (1 → one at a time); seed: torch seed for sampling.
    """

    def __init__(
        self,
        model: Any,
        tokenizer: Any,
        max_new_tokens: int = 128,
        temperature: float = 0.0,
        top_p: float = 0.95,
        batch_size: int = 8,
        seed: int = 0,
    ) -> None:
        from icml26.common import check_int

        self.model, self.tokenizer = model, tokenizer
        self.max_new_tokens = check_int("max_new_tokens", max_new_tokens)
        self.batch_size = check_int("batch_size", batch_size)
        if not (isinstance(temperature, int | float) and temperature >= 0):
            raise ValueError(f"temperature must be a number >= 0, got {temperature!r}")
        self.temperature, self.top_p, self.seed = float(temperature), float(top_p), seed
        if tokenizer.pad_token_id is None:
            tokenizer.pad_token = tokenizer.eos_token
        tokenizer.padding_side = "left"

    def prompt_texts(self, conversations: Sequence[Sequence[Message]]) -> list[str]:
        return [
            self.tokenizer.apply_chat_template(conv, tokenize=False, add_generation_prompt=True)
            for conv in check_conversations(conversations)
        ]

    def chat(self, conversations: Sequence[Sequence[Message]]) -> list[str]:
        import torch

        texts = self.prompt_texts(conversations)
        replies: list[str] = []
        sampling = self.temperature > 0
        extra = (
            {"do_sample": True, "temperature": self.temperature, "top_p": self.top_p}
            if sampling
            else {"do_sample": False}
        )
        if sampling:
            torch.manual_seed(self.seed)
        for start in range(0, len(texts), self.batch_size):
            batch = self.tokenizer(texts[start : start + self.batch_size], return_tensors="pt", padding=True)
            with torch.no_grad():
                out = self.model.generate(
                    **batch,
                    max_new_tokens=self.max_new_tokens,
                    pad_token_id=self.tokenizer.pad_token_id,
                    **extra,
                )
            new = out[:, batch["input_ids"].shape[1] :]
            replies.extend(self.tokenizer.batch_decode(new, skip_special_tokens=True))
        return replies


_MARK = re.compile(r"\[mock verdict: (\w+)\]")


def mock_solver(rates: dict[str, float], seed: int = 0) -> MockChat:
    """A mock solver whose replies carry a hidden verdict drawn independently per reply with ``rates``
    (e.g. ``{"incorrect": 0.3, "correct": 0.7}``), read back by :func:`mock_checker`."""
    import numpy as np

    from icml26.brokenmath.verdicts import VERDICTS

    if not rates or any(k not in VERDICTS for k in rates) or any(not (0 <= p <= 1) for p in rates.values()):
        raise ValueError(f"rates must map verdicts ({', '.join(VERDICTS)}) to probabilities, got {rates!r}")
    if abs(sum(rates.values()) - 1) > 1e-9:
        raise ValueError(f"rates must sum to 1, got {sum(rates.values())}")
    rng = np.random.default_rng(seed)
    words, probs = list(rates), list(rates.values())
    return MockChat(lambda conv, i: f"A mock proof. [mock verdict: {words[rng.choice(len(words), p=probs)]}]")


def mock_checker(noise: float = 0.0, seed: int = 0) -> MockChat:
    """A mock judge model: answers ``\\boxed{<hidden verdict>}`` for a reply from :func:`mock_solver`, and with
    probability ``noise`` a reply without a verdict (to exercise the unparseable bucket)."""
    import numpy as np

    if not (isinstance(noise, int | float) and not isinstance(noise, bool) and 0 <= noise <= 1):
        raise ValueError(f"noise must be a probability in [0, 1], got {noise!r}")
    rng = np.random.default_rng(seed)

    def respond(conv: list[Message], index: int) -> str:
        found = _MARK.findall(conv[-1]["content"])
        if not found or rng.random() < noise:
            return "I cannot decide."
        return f"Reasoning... \\boxed{{{found[-1]}}}"

    return MockChat(respond)
