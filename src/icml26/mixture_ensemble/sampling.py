"""Per-member token processing and the two ensemble distributions (paper §2.1–2.2).

Shapes: ``logits`` and ``probs`` are ``(B, V)`` (batch, vocabulary). All functions are pure and work
on any torch device.

The mixture identity behind ME is ``Σ_i λ_i · proc(p_i)``: drawing ``m ~ Cat(λ)`` and then
``y ~ proc(p_m)`` has exactly this marginal. It only holds when temperature, top-k and top-p are
applied to each member *before* mixing (:func:`process_logits` then :func:`mixture`). The official
code's conventional ensemble instead truncates the *mixture* (:func:`truncated_mixture`), which is
a different distribution; both are offered.

:func:`process_logits` is built from ``transformers``' own logits warpers (:func:`logits_warpers`),
so ``temperature``, ``top_k`` and ``top_p`` have exactly ``generate(do_sample=True)``'s meanings
(ties at the k-th logit are kept, as ``TopKLogitsWarper`` keeps them).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import torch
from transformers import LogitsProcessorList, TemperatureLogitsWarper, TopKLogitsWarper, TopPLogitsWarper


def check_sampling(temperature: float, top_k: int, top_p: float) -> None:
    """Reject out-of-range sampling parameters with one clear message."""
    if (
        isinstance(temperature, bool)
        or not isinstance(temperature, int | float)
        or not math.isfinite(temperature)
    ):
        raise TypeError(f"temperature must be a finite float >= 0, got {temperature!r}")
    if temperature < 0:
        raise ValueError(f"temperature must be >= 0 (0 means greedy), got {temperature}")
    if isinstance(top_k, bool) or not isinstance(top_k, int) or top_k < 0:
        raise ValueError(f"top_k must be an int >= 0 (0 disables it), got {top_k!r}")
    if isinstance(top_p, bool) or not isinstance(top_p, int | float) or not 0.0 < top_p <= 1.0:
        raise ValueError(f"top_p must be a float in (0, 1] (1 disables it), got {top_p!r}")


def _truncate_probs(probs: torch.Tensor, top_k: int, top_p: float) -> torch.Tensor:
    """Keep the ``top_k`` most likely tokens, then the smallest prefix with mass >= ``top_p``; renormalise."""
    if 0 < top_k < probs.shape[-1]:
        # Exactly k tokens are kept (ties at the k-th value are broken by torch.topk).
        keep = torch.zeros_like(probs, dtype=torch.bool)
        keep.scatter_(-1, torch.topk(probs, top_k, dim=-1).indices, True)
        probs = probs * keep
        probs = probs / probs.sum(-1, keepdim=True)
    if top_p < 1.0:
        sorted_probs, order = torch.sort(probs, dim=-1, descending=True)
        # A token is kept while the mass strictly before it is < top_p (the crossing token is kept).
        keep_sorted = (sorted_probs.cumsum(-1) - sorted_probs) < top_p
        keep = torch.zeros_like(keep_sorted).scatter(-1, order, keep_sorted)
        probs = probs * keep
        probs = probs / probs.sum(-1, keepdim=True)
    return probs


def logits_warpers(temperature: float = 1.0, top_k: int = 0, top_p: float = 1.0) -> LogitsProcessorList:
    """``transformers``' sampling warpers for these settings, built as ``generate(do_sample=True)`` builds them.

    Order and conditions follow ``GenerationMixin._get_logits_processor``: ``TemperatureLogitsWarper``
    when ``temperature != 1``, ``TopKLogitsWarper`` when ``top_k != 0``, ``TopPLogitsWarper`` when
    ``top_p < 1`` (each keeping at least one token). ``temperature`` must be > 0 (sampling).
    """
    check_sampling(temperature, top_k, top_p)
    if temperature == 0:
        raise ValueError("temperature must be > 0 when sampling; use do_sample=False for greedy decoding")
    warpers = LogitsProcessorList()
    if temperature != 1.0:
        warpers.append(TemperatureLogitsWarper(float(temperature)))
    if top_k != 0:
        warpers.append(TopKLogitsWarper(top_k=int(top_k), min_tokens_to_keep=1))
    if top_p < 1.0:
        warpers.append(TopPLogitsWarper(top_p=float(top_p), min_tokens_to_keep=1))
    return warpers


def process_logits(
    logits: torch.Tensor,
    temperature: float = 1.0,
    top_k: int = 0,
    top_p: float = 1.0,
    logits_processor: Callable[[torch.Tensor, torch.Tensor], torch.Tensor] | None = None,
    input_ids: torch.Tensor | None = None,
) -> torch.Tensor:
    """``proc(p_i)``: one member's next-token distribution as ``transformers`` samples it.

    ``logits``: ``(B, V)``. First the optional ``logits_processor`` (a ``LogitsProcessorList`` or
    any ``(input_ids, scores) -> scores`` callable; ``input_ids`` ``(B, L)`` is this member's
    sequence so far), then :func:`logits_warpers` (temperature, top-k, top-p, in ``transformers``'
    order and meaning), then softmax. Returns float32 probabilities ``(B, V)``, rows summing to 1.
    Applied per member before mixing, this is the processing under which ME is exactly CE.
    ``temperature == 0`` gives the one-hot argmax of the processed logits (greedy).
    """
    check_sampling(temperature, top_k, top_p)
    if not isinstance(logits, torch.Tensor) or logits.dim() != 2:
        raise ValueError(f"logits must have shape (batch, vocab), got {tuple(getattr(logits, 'shape', ()))}")
    scores = logits.float()
    if logits_processor is not None:
        scores = _apply_processor(logits_processor, input_ids, scores)
    _check_rows(scores)  # (a logits_processor's output is checked in _apply_processor)
    if temperature == 0:
        return torch.nn.functional.one_hot(scores.argmax(-1), scores.shape[-1]).float()
    ids = input_ids if input_ids is not None else torch.zeros(scores.shape[0], 0, dtype=torch.long)
    scores = logits_warpers(temperature, top_k, top_p)(ids, scores)
    return torch.softmax(scores, dim=-1)


def _check_rows(scores: torch.Tensor) -> None:
    """Reject rows with no distribution: any NaN or +inf, or every entry -inf (softmax would give NaN)."""
    bad = torch.isnan(scores).any(-1) | torch.isposinf(scores).any(-1) | torch.isneginf(scores).all(-1)
    if bool(bad.any()):
        rows = torch.nonzero(bad).flatten().tolist()
        raise ValueError(
            f"logits row {rows[0]} (of {len(rows)} bad rows: {rows[:5]}) has a NaN"
            " or +inf entry or is all -inf, so it has no next-token distribution; every row needs finite"
            " logits with at least one entry > -inf"
        )


def _apply_processor(
    processor: Callable, input_ids: torch.Tensor | None, scores: torch.Tensor
) -> torch.Tensor:
    """Call a ``LogitsProcessor``-style hook and check it returned scores of the same shape."""
    if not callable(processor):
        raise TypeError(
            f"logits_processor must be a LogitsProcessorList or a callable (input_ids, scores) -> scores,"
            f" got {type(processor).__name__}"
        )
    if input_ids is None:
        raise ValueError("a logits_processor needs input_ids, the member's sequence so far (batch, length)")
    out = processor(input_ids, scores)
    if not isinstance(out, torch.Tensor) or out.shape != scores.shape:
        raise ValueError(
            f"logits_processor must return a tensor of shape {tuple(scores.shape)} (batch, vocab),"
            f" got {tuple(getattr(out, 'shape', ())) or type(out).__name__}"
        )
    if torch.isnan(out).any() or torch.isneginf(out).all(-1).any():
        raise ValueError("logits_processor returned NaN scores or a row with every token at -inf")
    return out.float()


def mixture(probs: Sequence[torch.Tensor], weights: Sequence[float]) -> torch.Tensor:
    """The ensemble distribution ``P(y|x) = Σ_i λ_i p_i(y|x)`` (the CE distribution, paper §2.1). ``probs[i]``: ``(B, V)``."""
    if len(probs) != len(weights) or not probs:
        raise ValueError(f"need one probability tensor per weight, got {len(probs)} and {len(weights)}")
    out = torch.zeros_like(probs[0], dtype=torch.float32)
    for p, w in zip(probs, weights, strict=True):
        out = out + float(w) * p.float()
    return out


def truncated_mixture(
    probs: Sequence[torch.Tensor],
    weights: Sequence[float],
    temperature: float = 1.0,
    top_k: int = 0,
    top_p: float = 1.0,
) -> torch.Tensor:
    """The official code's conventional ensemble: mix raw probabilities, then truncate the mixture.

    The raw (temperature-1, untruncated) member distributions ``probs[i]`` ``(B, V)`` are mixed;
    when ``top_k > 0`` and there are several members, the mixture is restricted to the union of every
    member's top-k tokens (UniTE-style) and renormalised; finally temperature (as a power of the
    probabilities), top-k and top-p are applied to the mixture. This is *not* the distribution ME
    samples from; it is offered for comparison with the paper's CE numbers.
    """
    check_sampling(temperature, top_k, top_p)
    merged = mixture(probs, weights)
    if top_k > 0 and len(probs) > 1:
        keep = torch.zeros_like(merged, dtype=torch.bool)
        for p in probs:
            keep.scatter_(-1, torch.topk(p, min(top_k, p.shape[-1]), dim=-1).indices, True)
        merged = merged * keep
        merged = merged / merged.sum(-1, keepdim=True)
    if temperature == 0:
        return torch.nn.functional.one_hot(merged.argmax(-1), merged.shape[-1]).float()
    if temperature != 1.0:
        merged = merged.clamp_min(1e-12).pow(1.0 / temperature) * (merged > 0)
        merged = merged / merged.sum(-1, keepdim=True)
    return _truncate_probs(merged, top_k, top_p)


def sample(probs: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """One draw per row from ``probs`` ``(B, V)`` on the CPU generator (device-independent results). Returns ``(B,)``."""
    return torch.multinomial(probs.detach().to("cpu", torch.float64), 1, generator=generator).squeeze(-1)


def draw_member(weights: torch.Tensor, generator: torch.Generator, size: int = 1) -> torch.Tensor:
    """``m ~ Cat(λ)`` (the ME member draw, paper §2.2): ``size`` member indices, shape ``(size,)``."""
    return torch.multinomial(weights.to("cpu", torch.float64), size, replacement=True, generator=generator)
