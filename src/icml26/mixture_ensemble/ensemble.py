"""The two ensembles: conventional (CE, paper §2.1) and mixture-model-like (ME, paper §2.2).

Both share one generation loop; they differ only in how one step's next token is drawn
(:meth:`_EnsembleBase._draw`), as in the paper:

* CE runs every member at every step and samples from ``Σ_i λ_i · proc(p_i)``.
* ME draws one member ``m ~ Cat(λ)``, runs only that member (catching up its lazy KV cache) and
  samples from ``proc(p_m)``. Marginalising over ``m`` gives exactly the CE distribution.

With a batch, ME by default draws one member per step for the whole batch (``draw="shared"``): the
batch stays uniform (one forward pass per step) and every sequence's marginal is still exactly the
ensemble's, although sequences of one batch are correlated through the shared draws.
``draw="per_row"`` draws independently per sequence (independent samples; each step runs every
member that some row selected).

``generate`` follows ``transformers``' ``generate``: ``do_sample``, ``temperature``, ``top_k``,
``top_p``, ``max_new_tokens`` and ``generation_config`` keep their meanings and defaults (greedy
unless ``do_sample=True``), ``proc`` is built from ``transformers``' logits warpers, a
``logits_processor`` hook is applied per member, and a ``streamer`` receives member 0's tokens.
Greedy decoding (``do_sample=False``) is the argmax of the full mixture, which needs every member:
it is the conventional path in both classes.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import torch

from icml26.mixture_ensemble.cache import LazyMember, model_device
from icml26.mixture_ensemble.sampling import (
    check_sampling,
    draw_member,
    mixture,
    process_logits,
    sample,
    truncated_mixture,
)
from icml26.mixture_ensemble.vocabulary import VocabularyMapping


@dataclass
class GenerationOutput:
    """What :meth:`generate` returns.

    tokens: per row, the generated tokens in the ensemble's token space (member 0's ids when the
        vocabulary is shared, union ids otherwise), EOS included when it ended the row.
    member_tokens: ``[member][row]`` the generated ids as each member saw them.
    texts: per row, member 0's decoded text cut at the first stop string (``None`` without tokenizers).
    selected: the member drawn at each step (ME with ``draw="shared"``); empty for CE.
    forward_calls / tokens_forwarded: per member, forward passes and real tokens processed.
    seconds: wall time of the generation loop; cpu_seconds: this process's CPU time over the loop
        (less sensitive than wall time to other processes on a shared machine).
    """

    tokens: list[list[int]]
    member_tokens: list[list[list[int]]]
    texts: list[str] | None
    selected: list[int] = field(default_factory=list)
    forward_calls: list[int] = field(default_factory=list)
    tokens_forwarded: list[int] = field(default_factory=list)
    seconds: float = 0.0
    cpu_seconds: float = 0.0

    @property
    def num_tokens(self) -> int:
        """Generated tokens over all rows (the throughput numerator)."""
        return sum(len(t) for t in self.tokens)


def _check_weights(weights: Sequence[float] | torch.Tensor | None, n: int) -> torch.Tensor:
    if weights is None:
        return torch.full((n,), 1.0 / n, dtype=torch.float64)
    if isinstance(weights, str) or not isinstance(weights, Sequence | torch.Tensor):
        raise TypeError(f"weights must be a sequence of {n} positive numbers, got {type(weights).__name__}")
    w = torch.as_tensor([float(x) for x in weights], dtype=torch.float64)
    if w.numel() != n:
        raise ValueError(
            f"weights has {w.numel()} entries but there are {n} models; give one positive weight each"
        )
    if not torch.isfinite(w).all() or (w <= 0).any():
        raise ValueError(f"weights must be finite and > 0, got {w.tolist()}")
    w = w / w.sum()
    if not torch.isfinite(w).all() or abs(float(w.sum()) - 1.0) > 1e-9:
        raise ValueError(f"weights {list(weights)} do not sum to 1 after normalisation")
    return w


def _vocab_size(model: torch.nn.Module) -> int:
    emb = model.get_output_embeddings() if hasattr(model, "get_output_embeddings") else None
    if emb is not None and hasattr(emb, "weight"):
        return int(emb.weight.shape[0])
    size = getattr(getattr(model, "config", None), "vocab_size", None)
    if size is None:
        raise ValueError(
            f"cannot tell the vocabulary size of {type(model).__name__}: no output embedding or config"
        )
    return int(size)


def _eos_set(model: torch.nn.Module, tokenizer: Any | None) -> set[int]:
    eos = getattr(tokenizer, "eos_token_id", None) if tokenizer is not None else None
    if eos is None:
        eos = getattr(getattr(model, "generation_config", None), "eos_token_id", None)
    if eos is None:
        eos = getattr(getattr(model, "config", None), "eos_token_id", None)
    if eos is None:
        return set()
    return {int(e) for e in eos} if isinstance(eos, list | tuple) else {int(eos)}


@dataclass(frozen=True)
class Processing:
    """How one step's distributions are formed: ``transformers``' ``do_sample`` and warper settings
    plus an optional per-member ``logits_processor`` hook."""

    do_sample: bool
    temperature: float
    top_k: int
    top_p: float
    logits_processor: Callable[[torch.Tensor, torch.Tensor], torch.Tensor] | None = None


# transformers' global generation defaults (GenerationConfig._get_default_generation_params)
GENERATION_DEFAULTS = {"do_sample": False, "temperature": 1.0, "top_k": 50, "top_p": 1.0, "max_length": 20}
_SUPPORTED_CONFIG = {"do_sample", "temperature", "top_k", "top_p", "max_new_tokens", "max_length"}
_CONFIG_BOOKKEEPING = {"transformers_version", "_from_model_config", "_commit_hash"}


def _resolve_generation(
    generation_config: Any | None,
    max_new_tokens: int | None,
    do_sample: bool | None,
    temperature: float | None,
    top_k: int | None,
    top_p: float | None,
    logits_processor: Any | None,
    prompt_length: int,
) -> tuple[Processing, int]:
    """Merge a ``GenerationConfig``, keyword overrides and ``transformers``' defaults; validate them."""
    from transformers import GenerationConfig

    settings = dict(GENERATION_DEFAULTS, max_new_tokens=None)
    if generation_config is not None:
        if not isinstance(generation_config, GenerationConfig):
            raise TypeError(
                f"generation_config must be a transformers.GenerationConfig, got {type(generation_config).__name__}"
            )
        given = {k: v for k, v in generation_config.to_diff_dict().items() if k not in _CONFIG_BOOKKEEPING}
        unsupported = sorted(set(given) - _SUPPORTED_CONFIG)
        if unsupported:
            raise ValueError(
                f"generation_config sets {unsupported}, which this ensemble does not implement; supported:"
                f" {sorted(_SUPPORTED_CONFIG)} (pass a logits_processor for other processing)"
            )
        settings.update({k: v for k, v in given.items() if v is not None})
    overrides = {"max_new_tokens": max_new_tokens, "do_sample": do_sample, "temperature": temperature,
                 "top_k": top_k, "top_p": top_p}  # fmt: skip
    settings.update({k: v for k, v in overrides.items() if v is not None})
    if not isinstance(settings["do_sample"], bool):
        raise TypeError(f"do_sample must be True or False, got {settings['do_sample']!r}")
    check_sampling(settings["temperature"], settings["top_k"], settings["top_p"])
    if settings["do_sample"] and settings["temperature"] == 0:
        raise ValueError("temperature must be > 0 when sampling; use do_sample=False for greedy decoding")
    if not settings["do_sample"]:
        ignored = [k for k in ("temperature", "top_k", "top_p") if overrides[k] is not None
                   and overrides[k] != GENERATION_DEFAULTS[k]]  # fmt: skip
        if ignored:
            warnings.warn(
                f"{ignored} are ignored with do_sample=False (greedy: argmax of the full mixture)",
                UserWarning,
                stacklevel=3,
            )
    new = settings["max_new_tokens"]
    if new is None:
        length = settings["max_length"]
        if isinstance(length, bool) or not isinstance(length, int):
            raise ValueError(f"max_length must be an int, got {length!r}")
        new = length - prompt_length
        if new < 1:
            raise ValueError(
                f"max_length={length} leaves no room after a {prompt_length}-token prompt; set max_new_tokens"
            )
    if isinstance(new, bool) or not isinstance(new, int) or new < 1:
        raise ValueError(f"max_new_tokens must be an int >= 1, got {new!r}")
    if logits_processor is not None and not callable(logits_processor):
        raise TypeError(
            "logits_processor must be a LogitsProcessorList or a callable (input_ids, scores) -> scores,"
            f" got {type(logits_processor).__name__}"
        )
    proc = Processing(settings["do_sample"], float(settings["temperature"]), int(settings["top_k"]),
                      float(settings["top_p"]), logits_processor)  # fmt: skip
    return proc, new


class _EnsembleBase:
    """Shared set-up and generation loop; subclasses implement one step's draw (:meth:`_draw`).

    Args:
        models: causal LMs (Hugging Face ``PreTrainedModel`` or any module with the same call).
        weights: ``λ``; positive, normalised to sum 1. ``None`` means equal weights.
        tokenizers: one per model, needed for text prompts, stop strings and different vocabularies.
        device: move every model there; ``None`` keeps them where they are (they must agree).
            Members are put in eval mode.
        preallocate: the members' catch-up path (:class:`~icml26.mixture_ensemble.cache.LazyMember`);
            ``False`` is the previous release's path, kept for the before/after benchmark (same tokens).
    """

    def __init__(
        self,
        models: Sequence[torch.nn.Module],
        weights: Sequence[float] | torch.Tensor | None = None,
        tokenizers: Sequence[Any] | None = None,
        device: str | torch.device | None = None,
        preallocate: bool = True,
    ) -> None:
        if not isinstance(preallocate, bool):
            raise TypeError(f"preallocate must be True or False, got {preallocate!r}")
        self.preallocate = preallocate
        if not isinstance(models, list | tuple) or not models:
            raise TypeError(f"models must be a non-empty list of causal LMs, got {type(models).__name__}")
        for i, m in enumerate(models):
            if not isinstance(m, torch.nn.Module):
                raise TypeError(f"models[{i}] must be a torch.nn.Module causal LM, got {type(m).__name__}")
        self.models = list(models)
        self.weights = _check_weights(weights, len(self.models))
        if device is not None:
            self.models = [m.to(device) for m in self.models]
        devices = {str(model_device(m)) for m in self.models}
        if len(devices) > 1:
            raise ValueError(
                f"models are on different devices {sorted(devices)}; pass device= to place them together"
            )
        self.device = model_device(self.models[0])
        for m in self.models:
            m.eval()
        sizes = [_vocab_size(m) for m in self.models]
        if tokenizers is not None:
            if not isinstance(tokenizers, list | tuple) or len(tokenizers) != len(self.models):
                raise ValueError(f"give one tokenizer per model ({len(self.models)}), got {tokenizers!r:.80}")
            self.tokenizers: list[Any] | None = list(tokenizers)
            self.mapping: VocabularyMapping | None = VocabularyMapping(self.tokenizers, sizes)
            if self.mapping.shared and len(set(sizes)) == 1:
                self.mapping = None  # identical vocabularies: work on ids directly
        else:
            if len(set(sizes)) != 1:
                raise ValueError(
                    f"models have different vocabulary sizes {sizes}; pass tokenizers= so a union vocabulary can map them"
                )
            self.tokenizers, self.mapping = None, None
        self._eos = [
            _eos_set(m, t) for m, t in zip(self.models, self.tokenizers or [None] * len(sizes), strict=True)
        ]
        self._pad = []
        for i, tok in enumerate(self.tokenizers or [None] * len(sizes)):
            pad = getattr(tok, "pad_token_id", None) if tok is not None else None
            self._pad.append(int(pad) if pad is not None else (min(self._eos[i]) if self._eos[i] else 0))
        self._masks = (
            [self.mapping.mask(i, self.device) for i in range(len(self.models))]
            if self.mapping is not None
            else None
        )

    @property
    def n_members(self) -> int:
        return len(self.models)

    # --- token-space helpers -------------------------------------------------------------------
    def _member_probs(
        self, i: int, logits: torch.Tensor, proc: Processing, history: Callable[[int], torch.Tensor]
    ) -> torch.Tensor:
        """``proc(p_i)`` in the ensemble's token space ``(B, U)``; unmappable tokens get probability 0.

        Sampling: the member's logits processors, then ``transformers``' warpers, then softmax.
        Greedy (``proc.do_sample=False``): the processors and softmax only (no warpers, as in
        ``transformers``' greedy search), so the mixture's argmax is the greedy token.
        """
        if self._masks is not None:
            logits = logits.masked_fill(~self._masks[i], float("-inf"))
        ids = history(i) if proc.logits_processor is not None else None
        if proc.do_sample:
            probs = process_logits(
                logits, proc.temperature, proc.top_k, proc.top_p, proc.logits_processor, ids
            )
        else:
            probs = process_logits(logits, 1.0, 0, 1.0, proc.logits_processor, ids)
        return self.mapping.to_union_probs(i, probs) if self.mapping is not None else probs

    def _raw_probs(self, i: int, logits: torch.Tensor, proc: Processing, history) -> torch.Tensor:
        """The member's distribution after its logits processors only (temperature 1, no truncation)."""
        raw = Processing(True, 1.0, 0, 1.0, proc.logits_processor)
        return self._member_probs(i, logits, raw, history)

    def _encode(self, member: int, token: int) -> list[int]:
        return [token] if self.mapping is None else self.mapping.encode(member, token)

    def _is_eos(self, token: int) -> bool:
        if self.mapping is None:
            return any(token in e for e in self._eos)
        return token == self.mapping.eos_union_id

    # --- one step ------------------------------------------------------------------------------
    def _draw(
        self,
        members: list[LazyMember],
        active: list[int],
        generator: torch.Generator,
        proc: Processing,
        selected: list[int],
        history: Callable[[int], torch.Tensor],
    ) -> torch.Tensor:
        """Next token ``(B,)`` in the ensemble's token space for the rows in ``active`` (sampling)."""
        raise NotImplementedError

    def _greedy(self, members: list[LazyMember], proc: Processing, history) -> torch.Tensor:
        """``do_sample=False``: the argmax of the full mixture ``Σ_i λ_i p_i`` (every member runs).

        The mixture is not a member, so greedy ME cannot pick one member: it is the conventional
        ensemble's greedy path, in both classes.
        """
        probs = [self._member_probs(i, m.catch_up(), proc, history) for i, m in enumerate(members)]
        return mixture(probs, self.weights.tolist()).argmax(-1).cpu()

    # --- generation loop -----------------------------------------------------------------------
    def _prompt_ids(self, input_ids: Any, prompts: Sequence[str] | None) -> list[list[list[int]]]:
        """Per member, per row: prompt token ids."""
        if (input_ids is None) == (prompts is None):
            raise ValueError("give exactly one of input_ids (token ids) or prompts (strings)")
        if prompts is not None:
            if isinstance(prompts, str) or not all(isinstance(p, str) for p in prompts) or not prompts:
                raise TypeError("prompts must be a non-empty list of strings")
            if self.tokenizers is None:
                raise ValueError("text prompts need tokenizers=; pass input_ids instead")
            encoded: dict[int, list[list[int]]] = {}  # one batch call per distinct tokenizer
            for tok in self.tokenizers:
                if id(tok) not in encoded:
                    encoded[id(tok)] = [list(ids) for ids in tok(list(prompts))["input_ids"]]
            return [[list(ids) for ids in encoded[id(tok)]] for tok in self.tokenizers]
        if self.mapping is not None:
            raise ValueError("members have different vocabularies: give text prompts, not input_ids")
        if isinstance(input_ids, torch.Tensor):
            if input_ids.dim() != 2 or input_ids.dtype not in (torch.long, torch.int32, torch.int64):
                raise ValueError(
                    f"input_ids must be an integer tensor (batch, length), got {tuple(input_ids.shape)}"
                )
            rows = input_ids.tolist()
        elif (
            isinstance(input_ids, list | tuple)
            and input_ids
            and all(isinstance(r, list | tuple) for r in input_ids)
        ):
            rows = [list(map(int, r)) for r in input_ids]
        else:
            raise TypeError("input_ids must be a LongTensor (batch, length) or a list of lists of token ids")
        vocab = _vocab_size(self.models[0])
        for r in rows:
            if not r:
                raise ValueError("every prompt needs at least one token")
            if min(r) < 0 or max(r) >= vocab:
                raise ValueError(f"prompt token ids must lie in [0, {vocab}), got {r}")
        return [rows for _ in self.models]

    def generate(
        self,
        input_ids: torch.Tensor | Sequence[Sequence[int]] | None = None,
        prompts: Sequence[str] | None = None,
        *,
        generation_config: Any | None = None,
        max_new_tokens: int | None = None,
        do_sample: bool | None = None,
        temperature: float | None = None,
        top_k: int | None = None,
        top_p: float | None = None,
        logits_processor: Callable[[torch.Tensor, torch.Tensor], torch.Tensor] | None = None,
        streamer: Any | None = None,
        stop_strings: Sequence[str] = (),
        seed: int = 0,
        stop_at_eos: bool = True,
    ) -> GenerationOutput:
        """Generate continuations of a batch of prompts from the ensemble, with ``transformers``' meanings.

        Args:
            input_ids: ``(B, P)`` ids (or ragged lists) in the shared vocabulary; or ``prompts``: B strings.
            generation_config: a ``transformers.GenerationConfig``; keyword arguments override it,
                as in ``model.generate``. Its unset fields take ``transformers``' global defaults
                (``do_sample=False``, ``temperature=1``, ``top_k=50``, ``top_p=1``, ``max_length=20``).
                Fields this ensemble does not implement (beams, penalties, ...) raise ``ValueError``.
            max_new_tokens: at most this many tokens per row (else ``max_length`` minus the longest
                prompt); a row also stops at any member's EOS or when member 0's text contains a
                stop string.
            do_sample: ``True`` samples (ME: one member per step; exact CE distribution);
                ``False`` is greedy: the argmax of the full mixture, the conventional path.
            temperature, top_k, top_p: ``transformers``' warpers, applied to every member's
                logits before mixing (``proc``), the processing under which ME is exact.
            logits_processor: a ``LogitsProcessorList`` (or any ``(input_ids, scores) -> scores``)
                applied per member, before the warpers, with that member's ids so far ``(B, L)``
                (left-padded with its pad id) and logits.
            streamer: a ``transformers`` streamer (``TextStreamer``, ``TextIteratorStreamer``) fed
                member 0's prompt ids, then member 0's ids of each new token, then ``end()``;
                batch size 1 only, as in ``transformers``.
            seed: seeds the member draws and token draws (CPU generator, device independent).
            stop_at_eos: ``False`` always generates ``max_new_tokens`` (fixed-length timing runs).
        """
        prompt_ids = self._prompt_ids(input_ids, prompts)
        proc, max_new_tokens = _resolve_generation(
            generation_config, max_new_tokens, do_sample, temperature, top_k, top_p, logits_processor,
            max(len(r) for r in prompt_ids[0]),
        )  # fmt: skip
        if isinstance(stop_strings, str):
            stop_strings = (stop_strings,)
        if stop_strings and self.tokenizers is None:
            raise ValueError("stop_strings need tokenizers= to decode text")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError(f"seed must be a non-negative int, got {seed!r}")
        batch = len(prompt_ids[0])
        if streamer is not None:
            if not (callable(getattr(streamer, "put", None)) and callable(getattr(streamer, "end", None))):
                raise TypeError(
                    f"streamer must have put() and end() (a transformers streamer), got {streamer!r:.60}"
                )
            if batch != 1:
                raise ValueError(
                    f"a streamer supports batch size 1 only (as in transformers), got {batch} rows"
                )
        members = [
            LazyMember(m, batch, pad, self.preallocate) for m, pad in zip(self.models, self._pad, strict=True)
        ]
        for member, rows in zip(members, prompt_ids, strict=True):
            member.append(rows)
        generator = torch.Generator().manual_seed(seed)
        tokens: list[list[int]] = [[] for _ in range(batch)]
        member_tokens = [[[] for _ in range(batch)] for _ in members]

        def history(j: int) -> torch.Tensor:
            """Member ``j``'s ids so far ``(B, L)``, left-padded (the logits processors' ``input_ids``)."""
            rows = [p + g for p, g in zip(prompt_ids[j], member_tokens[j], strict=True)]
            width = max(len(r) for r in rows)
            return torch.tensor([[self._pad[j]] * (width - len(r)) + r for r in rows], device=self.device)

        if streamer is not None:
            streamer.put(torch.tensor([prompt_ids[0][0]]))
        texts = [""] * batch
        active = list(range(batch))
        selected: list[int] = []
        start, cpu_start = time.perf_counter(), time.process_time()
        for _ in range(max_new_tokens):
            if proc.do_sample:
                next_tokens = self._draw(members, active, generator, proc, selected, history)
            else:
                next_tokens = self._greedy(members, proc, history)
            appended = [[[] for _ in range(batch)] for _ in members]
            drawn, ended = next_tokens.tolist(), set()
            for b in active:
                token = int(drawn[b])
                tokens[b].append(token)
                for j in range(len(members)):
                    ids = self._encode(j, token)
                    appended[j][b] = ids
                    member_tokens[j][b].extend(ids)
                if streamer is not None and appended[0][b]:
                    streamer.put(torch.tensor(appended[0][b]))
                if stop_at_eos and self._is_eos(token):
                    ended.add(b)
            if stop_strings:  # member 0's text of every active row, decoded in one call
                decoded = self.tokenizers[0].batch_decode([member_tokens[0][b] for b in active],
                                                          skip_special_tokens=True)  # fmt: skip
                for b, text in zip(active, decoded, strict=True):
                    texts[b] = text
                    if any(s in text for s in stop_strings):
                        ended.add(b)
            active = [b for b in active if b not in ended]
            if not active:
                break
            for member, rows in zip(members, appended, strict=True):
                member.append(rows)
        if streamer is not None:
            streamer.end()
        if self.device.type == "cuda":
            torch.cuda.synchronize(self.device)
        seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu_start
        out_texts = None
        if self.tokenizers is not None:
            out_texts = []
            for b in range(batch):
                text = self.tokenizers[0].decode(member_tokens[0][b], skip_special_tokens=True)
                for s in stop_strings:
                    text = text.split(s, 1)[0]
                out_texts.append(text)
        return GenerationOutput(
            tokens=tokens,
            member_tokens=member_tokens,
            texts=out_texts,
            selected=selected,
            forward_calls=[m.forward_calls for m in members],
            tokens_forwarded=[m.tokens_forwarded for m in members],
            seconds=seconds,
            cpu_seconds=cpu_seconds,
        )


class MixtureEnsemble(_EnsembleBase):
    """ME: at each step draw ``m ~ Cat(λ)``, run only member ``m`` and sample from ``proc(p_m)`` (paper §2.2).

    Args (besides :class:`_EnsembleBase`'s):
        draw: ``"shared"`` (one member per step for the whole batch, one forward pass per step) or
            ``"per_row"`` (independent draws per sequence).

    Example:
        >>> me = MixtureEnsemble([model_a, model_b], weights=[0.5, 0.5])       # doctest: +SKIP
        >>> out = me.generate(input_ids=torch.tensor([[1, 2]]), max_new_tokens=8, top_k=10)  # doctest: +SKIP
    """

    def __init__(
        self,
        models: Sequence[torch.nn.Module],
        weights: Sequence[float] | torch.Tensor | None = None,
        tokenizers: Sequence[Any] | None = None,
        device: str | torch.device | None = None,
        draw: str = "shared",
        preallocate: bool = True,
    ) -> None:
        if draw not in ("shared", "per_row"):
            raise ValueError(f"draw must be 'shared' or 'per_row', got {draw!r}")
        super().__init__(models, weights, tokenizers, device, preallocate)
        self.draw = draw

    def _draw(self, members, active, generator, proc, selected, history):  # noqa: D102
        batch = members[0].batch_size
        out = torch.zeros(batch, dtype=torch.long)
        if self.draw == "shared":
            choice = torch.full((batch,), int(draw_member(self.weights, generator)), dtype=torch.long)
            selected.append(int(choice[0]))
        else:
            choice = draw_member(self.weights, generator, batch)
        rows = torch.tensor(active, dtype=torch.long)
        for m in sorted({int(c) for c in choice[rows]}):
            probs = self._member_probs(m, members[m].catch_up(), proc, history)
            drawn = sample(probs, generator)
            mine = rows[choice[rows] == m]
            out[mine] = drawn[mine]
        return out


class ConventionalEnsemble(_EnsembleBase):
    """CE: every member runs every step; the next token is drawn from the mixture (paper §2.1).

    Args (besides :class:`_EnsembleBase`'s):
        variant: ``"exact"`` samples from ``Σ_i λ_i · proc(p_i)`` (each member processed, then mixed;
            exactly ME's distribution). ``"truncated"`` is the official code's CE: the raw mixture is
            restricted to the union of members' top-k tokens, then temperature/top-k/top-p are
            applied to the mixture (:func:`~icml26.mixture_ensemble.sampling.truncated_mixture`).
    """

    def __init__(
        self,
        models: Sequence[torch.nn.Module],
        weights: Sequence[float] | torch.Tensor | None = None,
        tokenizers: Sequence[Any] | None = None,
        device: str | torch.device | None = None,
        variant: str = "exact",
        preallocate: bool = True,
    ) -> None:
        if variant not in ("exact", "truncated"):
            raise ValueError(f"variant must be 'exact' or 'truncated', got {variant!r}")
        super().__init__(models, weights, tokenizers, device, preallocate)
        self.variant = variant

    def _draw(self, members, active, generator, proc, selected, history):  # noqa: D102
        weights = self.weights.tolist()
        logits = [member.catch_up() for member in members]
        if self.variant == "exact":
            probs = [self._member_probs(i, lg, proc, history) for i, lg in enumerate(logits)]
            return sample(mixture(probs, weights), generator)
        raw = [self._raw_probs(i, lg, proc, history) for i, lg in enumerate(logits)]
        return sample(truncated_mixture(raw, weights, proc.temperature, proc.top_k, proc.top_p), generator)
