"""Lazy KV-cache synchronisation (paper §3, "KV cache synchronisation").

Every member keeps its own KV cache and a buffer of tokens it has not processed yet. Each sampled
token is appended to *every* member's buffer; only a member that is asked for a distribution runs,
and it consumes its whole buffer in one forward pass (a short prefill chunk). The number of tokens
each member processes is unchanged; the number of forward calls drops from ``n·T`` to about ``T``.

Batches may be ragged (different prompt lengths, or a re-encoded token that is several tokens long
for one row only). A chunk is left-padded per row, padding is masked out of attention and position
ids are the running count of real tokens, so every real token sees exactly its own prefix: the
catch-up logits equal a full recomputation (tested to 1e-5).
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from typing import Any

import torch


def model_device(model: torch.nn.Module) -> torch.device:
    """The device of a model's first parameter."""
    try:
        return next(model.parameters()).device
    except StopIteration as err:
        raise ValueError(f"model {type(model).__name__} has no parameters") from err


class LazyMember:
    """One member's lazily synchronised state for a batch of ``B`` sequences.

    Args:
        model: a Hugging Face causal LM (``model(input_ids, attention_mask=, position_ids=, cache=...)``).
        batch_size: ``B``.
        pad_id: the id written into padding slots (never attended to).
        preallocate: ``True`` (default) writes each chunk's mask into a growing buffer and builds
            the chunk from whole rows; ``False`` is the previous release's path (per-step mask
            concatenation), kept for ``benchmarks/mixture_ensemble_limit.py``. Both give the same
            inputs to the model, so the same logits.

    Attributes:
        forward_calls: forward passes run so far; tokens_forwarded: real (unpadded) tokens processed.
    """

    def __init__(
        self, model: torch.nn.Module, batch_size: int, pad_id: int = 0, preallocate: bool = True
    ) -> None:
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise ValueError(f"batch_size must be an int >= 1, got {batch_size!r}")
        if not isinstance(preallocate, bool):
            raise TypeError(f"preallocate must be True or False, got {preallocate!r}")
        self.model = model
        self.device = model_device(model)
        self.batch_size = batch_size
        self.pad_id = int(pad_id)
        self.preallocate = preallocate
        self.pending: list[list[int]] = [[] for _ in range(batch_size)]
        self.cache: Any = None
        # The attention mask over every slot so far. ``preallocate``: one buffer that grows by doubling,
        # written in place (no per-step concatenation), and per-row counts of real tokens for the
        # position ids; else (the previous release's path, kept for the before/after benchmark) the
        # mask is concatenated every step and positions are a cumsum over it.
        self._mask = torch.zeros(batch_size, 64 if preallocate else 0, dtype=torch.long, device=self.device)
        self._width = 0
        self._seen = torch.zeros(batch_size, 1, dtype=torch.long, device=self.device)
        self.forward_calls = 0
        self.tokens_forwarded = 0
        params = inspect.signature(model.forward).parameters
        # transformers 5 renamed `past_key_values` to `cache`; accept both.
        self._cache_arg = "cache" if "cache" in params else "past_key_values"
        # Only the last position's logits are needed; a catch-up chunk of L tokens would otherwise
        # pay the vocabulary projection L times.
        self._keep = {"logits_to_keep": 1} if "logits_to_keep" in params else {}

    @property
    def attention_mask(self) -> torch.Tensor:
        """``(B, slots)``: 1 for a real token, 0 for a padding slot, over every slot processed so far."""
        return self._mask[:, : self._width]

    def append(self, rows: Sequence[Sequence[int]]) -> None:
        """Append token ids to each row's buffer (``rows[b]`` may be empty, e.g. for a finished row)."""
        if len(rows) != self.batch_size:
            raise ValueError(f"expected {self.batch_size} rows of token ids, got {len(rows)}")
        for buf, ids in zip(self.pending, rows, strict=True):
            buf.extend(int(t) for t in ids)

    @property
    def pending_length(self) -> int:
        return max((len(b) for b in self.pending), default=0)

    @torch.no_grad()
    def catch_up(self) -> torch.Tensor:
        """Consume every row's buffer in one forward pass; return next-token logits ``(B, V)``.

        Rows whose buffer is empty keep the logits of an all-padding slot: callers ignore such rows
        (they only occur for finished sequences).
        """
        length = self.pending_length
        if length == 0:
            raise ValueError("catch_up called with empty buffers: append the prompt or a sampled token first")
        if self.preallocate:
            chunk, chunk_mask, positions = self._chunk_preallocated(length)
        else:
            chunk, chunk_mask, positions = self._chunk_concatenated(length)
        out = self.model(
            input_ids=chunk,
            attention_mask=self.attention_mask,
            position_ids=positions,
            use_cache=True,
            **{self._cache_arg: self.cache},
            **self._keep,
        )
        cache = out.get("cache", None)
        self.cache = cache if cache is not None else out.get("past_key_values", None)
        self.forward_calls += 1
        self.tokens_forwarded += sum(len(b) for b in self.pending)
        self.pending = [[] for _ in range(self.batch_size)]
        return out.logits[:, -1, :]

    def _chunk_preallocated(self, length: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """The padded chunk, its mask (written into the mask buffer) and its position ids, built from
        whole rows at once; positions continue each row's count of real tokens."""
        chunk = torch.tensor([[self.pad_id] * (length - len(b)) + b for b in self.pending], dtype=torch.long)
        chunk_mask = torch.tensor(
            [[0] * (length - len(b)) + [1] * len(b) for b in self.pending], dtype=torch.long
        )
        chunk, chunk_mask = chunk.to(self.device), chunk_mask.to(self.device)
        end = self._width + length
        if end > self._mask.shape[1]:
            grown = torch.zeros(self.batch_size, max(2 * self._mask.shape[1], end), dtype=torch.long,
                                device=self.device)  # fmt: skip
            grown[:, : self._width] = self._mask[:, : self._width]
            self._mask = grown
        self._mask[:, self._width : end] = chunk_mask
        self._width = end
        positions = (self._seen + chunk_mask.cumsum(-1) - 1).clamp_min(0)
        self._seen += chunk_mask.sum(-1, keepdim=True)
        return chunk, chunk_mask, positions

    def _chunk_concatenated(self, length: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """The previous release's chunk: per-row tensors, the mask concatenated, positions by a cumsum
        over the whole mask (same values as :meth:`_chunk_preallocated`)."""
        chunk = torch.full((self.batch_size, length), self.pad_id, dtype=torch.long)
        chunk_mask = torch.zeros(self.batch_size, length, dtype=torch.long)
        for b, buf in enumerate(self.pending):
            if buf:
                chunk[b, length - len(buf) :] = torch.tensor(buf, dtype=torch.long)
                chunk_mask[b, length - len(buf) :] = 1
        chunk, chunk_mask = chunk.to(self.device), chunk_mask.to(self.device)
        self._mask = torch.cat([self._mask[:, : self._width], chunk_mask], dim=1)
        self._width = self._mask.shape[1]
        positions = (self._mask.cumsum(-1) - 1).clamp_min(0)[:, -length:]
        return chunk, chunk_mask, positions


def _prefix_logits(model: torch.nn.Module, ids: torch.Tensor) -> torch.Tensor:
    """Full recomputation for every prefix at once: row ``i`` of one uncached causal pass over ``ids``
    ``(1, L)`` is the next-token logits of the prefix ``ids[:, : i + 1]``, ``(L, V)``."""
    return model(input_ids=ids).logits[0]


@torch.no_grad()
def catch_up_error(
    model: torch.nn.Module, input_ids: Sequence[int], chunk_lengths: Sequence[int], one_pass: bool = False
) -> float:
    """Max |catch-up logits − full-recomputation logits| over a sequence fed in chunks.

    The first ``chunk_lengths[0]`` tokens of ``input_ids`` form the prompt; each later chunk is
    appended to the buffer and consumed in one :meth:`LazyMember.catch_up`. After every chunk the
    next-token logits are compared with an uncached forward pass over the whole prefix; with
    ``one_pass`` every prefix's recomputation is read off one causal pass over the whole sequence
    (:func:`_prefix_logits`): the same values in exact arithmetic, so use it in float64 only (in
    float32 its rounding differs from a pass over each prefix, the rounding the float32 checks compare).
    """
    if sum(chunk_lengths) > len(input_ids) or min(chunk_lengths, default=0) < 1:
        raise ValueError(
            f"chunk lengths {list(chunk_lengths)} must be >= 1 and sum to <= len(input_ids)={len(input_ids)}"
        )
    member = LazyMember(model, 1)
    device = member.device
    total = torch.tensor([list(input_ids[: sum(chunk_lengths)])], device=device)
    full = _prefix_logits(model, total) if one_pass else None
    worst, used = 0.0, 0
    for length in chunk_lengths:
        member.append([list(input_ids[used : used + length])])
        used += length
        lazy = member.catch_up()[0]
        reference = full[used - 1] if full is not None else model(input_ids=total[:, :used]).logits[0, -1]
        worst = max(worst, float((lazy - reference).abs().max()))
    return worst


@torch.no_grad()
def incremental_decoding_error(model: torch.nn.Module, input_ids: Sequence[int], prompt_length: int) -> float:
    """Max |logits − full-recomputation logits| for the library's own one-token-at-a-time KV cache.

    The reference for :func:`catch_up_error`: ``transformers``' standard decoding (prompt, then one
    token per forward pass with ``past_key_values``) compared with one forward pass over each
    prefix. In float32 it shows how far any cached forward pass drifts from recomputation by
    rounding alone (different matrix shapes sum in a different order).
    """
    if not 1 <= prompt_length < len(input_ids):
        raise ValueError(f"prompt_length must be in [1, {len(input_ids) - 1}], got {prompt_length}")
    cache_arg = "cache" if "cache" in inspect.signature(model.forward).parameters else "past_key_values"
    ids = torch.tensor([list(input_ids)], device=model_device(model))
    out = model(input_ids=ids[:, :prompt_length], use_cache=True)
    worst = 0.0
    for i in range(prompt_length, ids.shape[1]):
        cache = out.get("cache", None)
        cache = cache if cache is not None else out.get("past_key_values", None)
        out = model(input_ids=ids[:, i : i + 1], use_cache=True, **{cache_arg: cache})
        full = model(input_ids=ids[:, : i + 1]).logits[:, -1, :]
        worst = max(worst, float((out.logits[:, -1, :] - full).abs().max()))
    return worst
