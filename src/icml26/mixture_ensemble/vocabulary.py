"""Union vocabulary for members with different tokenizers (paper §3, heterogeneous ensembles).

Every token of every member is normalised to the raw bytes it stands for: byte-level BPE tokens
(``Ġ``-style, GPT-2/Llama-3/SmolLM2) are decoded through the byte-to-unicode table, SentencePiece
``▁`` becomes a space and ``<0xNN>`` byte-fallback tokens become the byte ``NN``. Equal byte strings
are one union token. EOS tokens of all members are one union token; other special tokens are not
mappable and are masked out (identically for ME and CE, so the two stay equivalent).

A sampled union token is re-encoded for each member: its own id when the member has that byte
string, otherwise the member's tokenizer encodes the text (so one token can append several tokens
to another member's buffer, which lazy KV synchronisation absorbs).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import torch

EOS_KEY = ("<eos>",)
_BYTE_FALLBACK = re.compile(r"^<0x([0-9A-Fa-f]{2})>$")


@lru_cache(maxsize=1)
def _unicode_to_byte() -> dict[str, int]:
    """Inverse of GPT-2's byte-to-unicode table (printable stand-ins for the 256 bytes)."""
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1))
    printable += list(range(ord("®"), ord("ÿ") + 1))
    chars, extra = {}, 0
    for b in range(256):
        if b in printable:
            chars[chr(b)] = b
        else:
            chars[chr(256 + extra)] = b
            extra += 1
    return chars


def _is_byte_level(vocab: dict[str, int]) -> bool:
    """Heuristic: byte-level BPE has a token for (almost) every byte stand-in and favours ``Ġ`` over ``▁``."""
    table = _unicode_to_byte()
    singles = sum(1 for ch in table if ch in vocab)
    g = sum(1 for t in vocab if t.startswith("Ġ"))
    u = sum(1 for t in vocab if t.startswith("▁"))
    return singles >= 200 and g >= u


def token_key(token: str, byte_level: bool) -> bytes | None:
    """The raw bytes a vocabulary string stands for; ``None`` when it cannot be interpreted."""
    if byte_level:
        table = _unicode_to_byte()
        if all(ch in table for ch in token):
            return bytes(table[ch] for ch in token)
        return None
    match = _BYTE_FALLBACK.match(token)
    if match:
        return bytes([int(match.group(1), 16)])
    return token.replace("▁", " ").encode("utf-8")


def _special_ids(tokenizer: Any) -> set[int]:
    return {int(i) for i in getattr(tokenizer, "all_special_ids", []) or []}


def _eos_ids(tokenizer: Any) -> set[int]:
    eos = getattr(tokenizer, "eos_token_id", None)
    if eos is None:
        return set()
    return {int(e) for e in eos} if isinstance(eos, list | tuple) else {int(eos)}


class VocabularyMapping:
    """Union vocabulary of several tokenizers and the member <-> union token maps.

    Attributes (after construction):
        to_union: per member, a LongTensor ``(V_i,)`` from member id to union id (``-1`` = unmappable).
        union_size: number of union tokens ``U``.
        eos_union_id: the union id shared by every member's EOS (``-1`` when no member has one).
    """

    def __init__(self, tokenizers: Sequence[Any], vocab_sizes: Sequence[int] | None = None) -> None:
        if not isinstance(tokenizers, list | tuple) or len(tokenizers) == 0:
            raise TypeError(
                f"tokenizers must be a non-empty list of tokenizers, got {type(tokenizers).__name__}"
            )
        for i, tok in enumerate(tokenizers):
            if not (hasattr(tok, "get_vocab") and hasattr(tok, "encode")):
                raise TypeError(
                    f"tokenizers[{i}] ({type(tok).__name__}) needs get_vocab() and encode(); "
                    "pass a Hugging Face tokenizer"
                )
        self.tokenizers = list(tokenizers)
        sizes = list(vocab_sizes) if vocab_sizes is not None else [len(t.get_vocab()) for t in tokenizers]
        if len(sizes) != len(tokenizers):
            raise ValueError(f"vocab_sizes has {len(sizes)} entries for {len(tokenizers)} tokenizers")
        self._keys: list[Any] = []
        self._index: dict[Any, int] = {}
        self.to_union: list[torch.Tensor] = []
        self._from_union: list[dict[int, int]] = []
        self._byte_level: list[bool] = []
        self._eos_ids: list[set[int]] = []
        for tok, size in zip(self.tokenizers, sizes, strict=True):
            vocab = tok.get_vocab()
            byte_level = _is_byte_level(vocab)
            specials, eos = _special_ids(tok), _eos_ids(tok)
            table = torch.full((int(size),), -1, dtype=torch.long)
            inverse: dict[int, int] = {}
            for token, tid in sorted(vocab.items(), key=lambda kv: kv[1]):
                if tid >= size:
                    continue
                if tid in eos:
                    key: Any = EOS_KEY
                elif tid in specials:
                    continue
                else:
                    key = token_key(token, byte_level)
                    if key is None or key == b"":
                        continue
                uid = self._index.setdefault(key, len(self._keys))
                if uid == len(self._keys):
                    self._keys.append(key)
                table[tid] = uid
                inverse.setdefault(uid, tid)  # canonical id when several ids share a key
            self.to_union.append(table)
            self._from_union.append(inverse)
            self._byte_level.append(byte_level)
            self._eos_ids.append(eos)
        self.union_size = len(self._keys)
        self.eos_union_id = self._index.get(EOS_KEY, -1)
        self._encoded: dict[tuple[int, int], list[int]] = {}
        self._check_mappable()

    @property
    def shared(self) -> bool:
        """True when all members have the same token -> union map (no re-encoding needed)."""
        first = self.to_union[0]
        return all(t.shape == first.shape and torch.equal(t, first) for t in self.to_union[1:])

    def _spellable(self, member: int) -> set[str]:
        chars = set()
        for key, uid in self._index.items():
            if isinstance(key, bytes) and uid in self._from_union[member]:
                text = key.decode("utf-8", errors="ignore")
                if len(text) == 1:
                    chars.add(text)
        return chars

    def _check_mappable(self) -> None:
        """Every union token must be expressible by every member (ValueError naming examples otherwise)."""
        for j in range(len(self.tokenizers)):
            if self._byte_level[j]:
                continue
            chars = self._spellable(j)
            missing = []
            for key in self._keys:
                if isinstance(key, bytes) and self._index[key] not in self._from_union[j]:
                    text = key.decode("utf-8", errors="replace")
                    if not set(text) <= chars:
                        missing.append(text)
            if missing:
                raise ValueError(
                    f"tokenizers[{j}] cannot spell {len(missing)} tokens of the other members "
                    f"(e.g. {missing[:5]!r}); members need a shared or mappable vocabulary "
                    "(byte-level BPE, byte fallback, or every character as a token)"
                )

    def key(self, union_id: int) -> Any:
        """The byte string (or ``EOS_KEY``) of union token ``union_id``."""
        return self._keys[union_id]

    def encode(self, member: int, union_id: int) -> list[int]:
        """Member ``member``'s token ids for union token ``union_id`` (one id when it has it, else re-encoded)."""
        cached = self._encoded.get((member, union_id))
        if cached is not None:
            return cached
        if union_id == self.eos_union_id:
            ids = [min(self._eos_ids[member])] if self._eos_ids[member] else []
        elif union_id in self._from_union[member]:
            ids = [self._from_union[member][union_id]]
        else:
            raw = self._keys[union_id]
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                text = None
            if text is None and self._byte_level[member]:
                # A partial UTF-8 sequence: spell it byte by byte with the member's single-byte tokens.
                ids = [self._from_union[member][self._index[bytes([b])]] for b in raw]
            elif text is None:
                raise ValueError(
                    f"union token {raw!r} is not valid UTF-8 and member {member} has no byte tokens"
                )
            else:
                ids = list(self.tokenizers[member].encode(text, add_special_tokens=False))
        if not ids:
            raise ValueError(f"member {member} cannot encode union token {self._keys[union_id]!r}")
        self._encoded[(member, union_id)] = ids
        return ids

    def mask(self, member: int, device: torch.device | str = "cpu") -> torch.Tensor:
        """Boolean ``(V_i,)``: member tokens that map to the union (the others get probability 0)."""
        return (self.to_union[member] >= 0).to(device)

    def to_union_probs(self, member: int, probs: torch.Tensor) -> torch.Tensor:
        """Scatter member probabilities ``(B, V_i)`` into the union vocabulary ``(B, U)``."""
        table = self.to_union[member].to(probs.device)
        if probs.shape[-1] != table.shape[0]:
            raise ValueError(
                f"member {member} probabilities have {probs.shape[-1]} columns, expected {table.shape[0]}"
            )
        valid = table >= 0
        out = torch.zeros(probs.shape[0], self.union_size, dtype=probs.dtype, device=probs.device)
        out.index_add_(1, table[valid], probs[:, valid])
        return out
