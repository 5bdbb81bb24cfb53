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


# per model family: the token-budget parameter, whether sampling parameters and reasoning effort are accepted.
# OpenAI's reasoning models (o1, o3, o4-mini, GPT-5) take max_completion_tokens and reject temperature/top_p;
# gpt-oss (vLLM, providers) takes reasoning_effort beside the usual ones; every other model the usual ones.
FAMILIES: dict[str, dict[str, Any]] = {
    "openai-reasoning": {
        "prefixes": ("o1", "o3", "o4", "gpt-5"),
        "tokens": "max_completion_tokens",
        "sampling": False,
        "reasoning": True,
    },
    "gpt-oss": {"prefixes": ("gpt-oss",), "tokens": "max_tokens", "sampling": True, "reasoning": True},
    "chat": {"prefixes": (), "tokens": "max_tokens", "sampling": True, "reasoning": False},
}
REASONING_EFFORTS = ("minimal", "low", "medium", "high")
_RETRY_CODES = (408, 409, 429, 500, 502, 503, 504)


def model_family(model: str) -> str:
    """The family of a model name (provider prefix such as ``openai/`` ignored): a key of :data:`FAMILIES`."""
    if not isinstance(model, str) or not model.strip():
        raise ValueError(f"model must be a non-empty model name, got {model!r}")
    name = model.strip().lower().rsplit("/", 1)[-1]
    for family, spec in FAMILIES.items():
        if any(name.startswith(p) for p in spec["prefixes"]):
            return family
    return "chat"


class OpenAIChat:
    """An OpenAI-compatible ``/chat/completions`` endpoint (vLLM, a provider, a loopback stub).

    base_url: e.g. ``http://127.0.0.1:8000/v1``; model: the served name; api_key: a bearer token (default
    ``$OPENAI_API_KEY``); max_tokens: the generation budget, sent as the family's parameter
    (``max_completion_tokens`` for OpenAI reasoning models); temperature / top_p: sent only where the family
    accepts them (None: the server's default); reasoning_effort: ``minimal|low|medium|high`` (the paper runs
    GPT-5 and o4-mini at ``high``), sent only where accepted; family: override :func:`model_family`;
    concurrency: requests in flight at once; retries: extra attempts after a connection error, a timeout or
    HTTP 408/409/429/5xx (exponential back-off, ``Retry-After`` honoured up to 30 s).

    After :meth:`chat`, ``truncated[i]`` says whether reply ``i`` stopped at the token budget
    (``finish_reason == "length"``): a cut-off proof, flagged and counted by :func:`evaluation.evaluate`;
    ``omitted`` names the requested parameters left out for this family.
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        max_tokens: int = 1024,
        temperature: float | None = 0.0,
        top_p: float | None = None,
        reasoning_effort: str | None = None,
        family: str | None = None,
        timeout: float = 120.0,
        retries: int = 2,
        concurrency: int = 4,
    ) -> None:
        if not isinstance(base_url, str) or not base_url.startswith(("http://", "https://")):
            raise ValueError(
                f"base_url must be an http(s) URL such as http://127.0.0.1:8000/v1, got {base_url!r}"
            )
        self.family = model_family(model) if family is None else family
        if self.family not in FAMILIES:
            raise ValueError(f"family {family!r}; accepted: {', '.join(FAMILIES)}")
        for key, value in (("max_tokens", max_tokens), ("concurrency", concurrency)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"{key} must be an integer >= 1, got {value!r}")
        if not isinstance(retries, int) or isinstance(retries, bool) or retries < 0:
            raise ValueError(f"retries must be an integer >= 0, got {retries!r}")
        for key, value, top in (("temperature", temperature, 2.0), ("top_p", top_p, 1.0)):
            if value is not None and not (
                isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= top
            ):
                raise ValueError(f"{key} must be None or a number in [0, {top}], got {value!r}")
        if reasoning_effort is not None and reasoning_effort not in REASONING_EFFORTS:
            raise ValueError(
                f"reasoning_effort {reasoning_effort!r}; accepted: None, {', '.join(REASONING_EFFORTS)}"
            )
        if not (isinstance(timeout, int | float) and not isinstance(timeout, bool) and timeout > 0):
            raise ValueError(f"timeout must be a positive number of seconds, got {timeout!r}")
        self.base_url, self.model = base_url.rstrip("/"), model
        self.api_key = api_key if api_key is not None else os.environ.get("OPENAI_API_KEY", "")
        self.max_tokens, self.temperature, self.top_p = max_tokens, temperature, top_p
        self.reasoning_effort, self.timeout, self.retries, self.concurrency = (
            reasoning_effort,
            timeout,
            retries,
            concurrency,
        )
        self.truncated: list[bool] = []
        spec = FAMILIES[self.family]
        requested = {"temperature": temperature, "top_p": top_p, "reasoning_effort": reasoning_effort}
        self.omitted = tuple(
            k
            for k, v in requested.items()
            if v is not None and not spec["reasoning" if k == "reasoning_effort" else "sampling"]
        )

    def payload(self, messages: list[Message]) -> dict[str, Any]:
        """The request body for one conversation (what this family accepts, nothing else)."""
        spec = FAMILIES[self.family]
        body: dict[str, Any] = {"model": self.model, "messages": messages, spec["tokens"]: self.max_tokens}
        if spec["sampling"]:
            body.update(
                {k: v for k, v in (("temperature", self.temperature), ("top_p", self.top_p)) if v is not None}
            )
        if spec["reasoning"] and self.reasoning_effort is not None:
            body["reasoning_effort"] = self.reasoning_effort
        return body

    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        return headers

    def _post(self, messages: list[Message]) -> dict[str, Any]:
        body = json.dumps(self.payload(messages)).encode()
        request = urllib.request.Request(
            f"{self.base_url}/chat/completions", body, self._headers(), method="POST"
        )
        last: Exception | None = None
        for attempt in range(self.retries + 1):
            wait = 0.2 * 2**attempt
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    return json.loads(response.read().decode())
            except urllib.error.HTTPError as exc:
                text = exc.read()[:300]
                if exc.code == 404:
                    raise ValueError(
                        f"{self.base_url} does not serve model {self.model!r} (HTTP 404: {text!r}); list its"
                        " models with available_models()"
                    ) from None
                if exc.code not in _RETRY_CODES:
                    raise ValueError(f"{self.base_url} answered HTTP {exc.code}: {text!r}") from None
                retry_after = exc.headers.get("Retry-After") if exc.headers else None
                if retry_after and retry_after.replace(".", "", 1).isdigit():
                    wait = min(float(retry_after), 30.0)
                last = exc
            except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
                last = exc
            except json.JSONDecodeError as exc:
                raise ValueError(f"{self.base_url} returned a reply that is not JSON: {exc}") from None
            if attempt < self.retries:
                time.sleep(wait)
        raise ConnectionError(
            f"endpoint {self.base_url} is unreachable or failing after {self.retries + 1} attempt(s) ({last}); check"
            " base_url and that the server runs"
        )

    def available_models(self) -> list[str]:
        """The model names the endpoint serves (``GET /models``)."""
        request = urllib.request.Request(f"{self.base_url}/models", headers=self._headers())
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                data = json.loads(response.read().decode())
            return [m["id"] for m in data["data"]]
        except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
            raise ConnectionError(f"endpoint {self.base_url} is unreachable ({exc})") from None
        except (KeyError, TypeError, json.JSONDecodeError):
            raise ValueError(f"{self.base_url}/models did not return an OpenAI model list") from None

    def _one(self, conv: list[Message]) -> tuple[str, bool]:
        data = self._post(conv)
        try:
            choice = data["choices"][0]
            content = choice["message"]["content"]
        except (KeyError, IndexError, TypeError):
            raise ValueError(
                f"{self.base_url} reply has no choices[0].message.content: {str(data)[:200]}"
            ) from None
        if not isinstance(content, str):
            raise ValueError(f"{self.base_url} reply content is not text: {content!r:.80}")
        return content, choice.get("finish_reason") == "length"

    def chat(self, conversations: Sequence[Sequence[Message]]) -> list[str]:
        from concurrent.futures import ThreadPoolExecutor

        convs = check_conversations(conversations)
        with ThreadPoolExecutor(max_workers=min(self.concurrency, max(len(convs), 1))) as pool:
            out = list(pool.map(self._one, convs))
        self.truncated = [cut for _, cut in out]
        return [reply for reply, _ in out]


def _smollm2_loader() -> tuple[Any, Any, dict[str, float]]:
    from icml26.common.smollm2 import load_smollm2

    return load_smollm2()


# the local models installable offline (``pip`` packages), by name
LOCAL_MODELS: dict[str, Callable[[], tuple[Any, Any, Any]]] = {"SmolLM2-135M-Instruct": _smollm2_loader}


class TransformersChat:
    """An in-process causal LM with a chat template: batched ``generate`` with left padding; the same
    ``chat(conversations) -> list[str]`` and ``truncated`` flags as :class:`OpenAIChat`.

    max_new_tokens: generation budget; temperature 0 → greedy, else sampling with ``top_p``;
    batch_size: conversations per ``generate`` call (1 → one at a time); seed: torch seed for sampling.
    After :meth:`chat`, ``truncated[i]``: reply ``i`` used the whole budget without an end-of-sequence token.
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
        self.truncated: list[bool] = []

    def prompt_texts(self, conversations: Sequence[Sequence[Message]]) -> list[str]:
        return [
            self.tokenizer.apply_chat_template(conv, tokenize=False, add_generation_prompt=True)
            for conv in check_conversations(conversations)
        ]

    def chat(self, conversations: Sequence[Sequence[Message]]) -> list[str]:
        import torch

        texts = self.prompt_texts(conversations)
        replies: list[str] = []
        self.truncated = []
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
            ended = (new == self.tokenizer.eos_token_id) | (new == self.tokenizer.pad_token_id)
            self.truncated.extend(bool(new.shape[1] >= self.max_new_tokens and not e.any()) for e in ended)
        return replies

    @classmethod
    def from_name(cls, name: str, **kwargs: Any) -> TransformersChat:
        """A local model by name: one of :data:`LOCAL_MODELS` (offline) or a directory saved by
        ``save_pretrained`` (``config.json`` inside); other keyword arguments go to the constructor."""
        from pathlib import Path

        if not isinstance(name, str) or not name:
            raise ValueError(f"name must be a model name or directory, got {name!r}")
        if name in LOCAL_MODELS:
            model, tokenizer, _ = LOCAL_MODELS[name]()
        elif (Path(name) / "config.json").is_file():
            from transformers import AutoModelForCausalLM, AutoTokenizer

            model, tokenizer = (
                AutoModelForCausalLM.from_pretrained(name).eval(),
                AutoTokenizer.from_pretrained(name),
            )
        else:
            raise ValueError(
                f"no local model {name!r}; accepted: {', '.join(LOCAL_MODELS)} or a directory with config.json"
            )
        return cls(model, tokenizer, **kwargs)


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
