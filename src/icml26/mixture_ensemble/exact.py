"""Exact ensemble distributions by enumeration, and the goodness-of-fit test used to check ME.

For tiny vocabularies the CE distribution over all length-``L`` continuations can be computed
exactly: ``P(y_1..y_L | x) = Π_t Σ_i λ_i proc(p_i)(y_t | x, y_<t)`` (paper §2.1 applied per step).
ME's empirical distribution must match it (the paper's equivalence claim, §2.2).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch
from scipy import stats

from icml26.mixture_ensemble.ensemble import Processing, _check_weights, _vocab_size
from icml26.mixture_ensemble.sampling import logits_warpers, mixture, process_logits


@torch.no_grad()
def exact_sequence_distribution(
    models: Sequence[torch.nn.Module],
    weights: Sequence[float] | None,
    prompt: Sequence[int],
    length: int,
    temperature: float = 1.0,
    top_k: int = 0,
    top_p: float = 1.0,
) -> torch.Tensor:
    """Exact CE probabilities of every continuation of ``prompt`` with ``length`` tokens.

    Returns a float64 tensor ``(V**length,)`` indexed in lexicographic order of the continuation
    (``index = Σ_t y_t V^(length-1-t)``). Cost: ``V**length`` sequences per member, so keep ``V``
    and ``length`` small (``V**length <= 100_000``).
    """
    if not isinstance(models, list | tuple) or not models:
        raise TypeError("models must be a non-empty list of causal LMs")
    w = _check_weights(weights, len(models)).tolist()
    sizes = {_vocab_size(m) for m in models}
    if len(sizes) != 1:
        raise ValueError(f"exact enumeration needs one shared vocabulary, got sizes {sorted(sizes)}")
    vocab = sizes.pop()
    if isinstance(length, bool) or not isinstance(length, int) or length < 1:
        raise ValueError(f"length must be an int >= 1, got {length!r}")
    if vocab**length > 100_000:
        raise ValueError(f"V**length = {vocab}**{length} is too many sequences to enumerate (limit 100000)")
    if not prompt:
        raise ValueError("prompt needs at least one token")
    device = next(models[0].parameters()).device
    prefixes = torch.tensor(list(prompt), dtype=torch.long, device=device).unsqueeze(0)
    seq_p = torch.ones(1, dtype=torch.float64, device=device)
    for _ in range(length):
        step = [process_logits(m(prefixes).logits[:, -1, :], temperature, top_k, top_p) for m in models]
        probs = mixture(step, w).double()  # (N, V)
        seq_p = (seq_p.unsqueeze(1) * probs).reshape(-1)
        nxt = torch.arange(vocab, device=device).repeat(prefixes.shape[0])
        prefixes = torch.cat([prefixes.repeat_interleave(vocab, 0), nxt.unsqueeze(1)], dim=1)
    return seq_p.cpu()


def sequence_index(tokens: Sequence[int], vocab: int) -> int:
    """Lexicographic index of a continuation (inverse of :func:`exact_sequence_distribution`'s order)."""
    index = 0
    for t in tokens:
        index = index * vocab + int(t)
    return index


def chi_square_test(
    counts: np.ndarray, probs: np.ndarray, min_expected: float = 5.0
) -> tuple[float, int, float]:
    """Pearson χ² goodness of fit of ``counts`` to ``probs``; cells with expected < ``min_expected`` are pooled.

    Returns ``(statistic, degrees_of_freedom, p_value)``. Samples that fall on probability-zero
    cells make the test reject outright (p = 0).
    """
    counts = np.asarray(counts, dtype=float)
    probs = np.asarray(probs, dtype=float)
    if counts.shape != probs.shape or counts.ndim != 1:
        raise ValueError(f"counts {counts.shape} and probs {probs.shape} must be 1-D of equal length")
    if (probs < 0).any() or not np.isclose(probs.sum(), 1.0, atol=1e-6):
        raise ValueError(f"probs must be non-negative and sum to 1, got sum {probs.sum():.6g}")
    n = counts.sum()
    if n <= 0:
        raise ValueError("counts must contain at least one sample")
    if counts[probs == 0].sum() > 0:
        return float("inf"), int((probs > 0).sum()), 0.0
    expected = n * probs / probs.sum()
    big = expected >= min_expected
    obs = list(counts[big])
    exp = list(expected[big])
    small_exp = expected[~big].sum()
    if small_exp > 0:
        obs.append(counts[~big].sum())
        exp.append(small_exp)
    if len(obs) < 2:
        raise ValueError("too few samples for a χ² test: fewer than two cells have enough expected counts")
    stat, p = stats.chisquare(obs, exp)
    return float(stat), len(obs) - 1, float(p)


def all_continuations(vocab: int, length: int) -> list[tuple[int, ...]]:
    """Every continuation in lexicographic order (matches :func:`exact_sequence_distribution`)."""
    return list(itertools.product(range(vocab), repeat=length))


@torch.no_grad()
def exact_union_distribution(
    ensemble: Any,
    prompt: str,
    length: int,
    temperature: float = 1.0,
    top_k: int = 0,
    top_p: float = 1.0,
    max_sequences: int = 200_000,
) -> dict[tuple[int, ...], float]:
    """Exact CE probabilities of every union-token continuation of a text ``prompt`` (members of
    different tokenizers).

    ``ensemble``: a :class:`MixtureEnsemble` or :class:`ConventionalEnsemble` built with
    ``tokenizers=``. The tree of continuations is expanded ``length`` steps over the union
    vocabulary; at each node every member runs on *its own* ids (its prompt encoding plus the
    re-encoding of each union token so far, exactly what ME appends to its buffer) with one full
    forward pass, and the node's children get ``Σ_i λ_i proc(p_i)`` in union space (§2.1 per step).
    A continuation that reaches EOS ends there. Returns ``{union-token tuple: probability}`` over
    the support (probabilities sum to 1).

    It uses ME's own re-encoding (``_encode``) and per-member probabilities (``_member_probs``), so
    the tests check it against an enumeration over strings built from the tokenizers' ``encode`` and
    vocabularies alone (``test_union_reference_matches_an_independent_string_space_enumeration``).
    """
    if getattr(ensemble, "tokenizers", None) is None:
        raise ValueError("exact_union_distribution needs an ensemble built with tokenizers=")
    if not isinstance(prompt, str) or not prompt:
        raise TypeError(f"prompt must be a non-empty string, got {prompt!r:.40}")
    if isinstance(length, bool) or not isinstance(length, int) or length < 1:
        raise ValueError(f"length must be an int >= 1, got {length!r}")
    proc = Processing(True, float(temperature), int(top_k), float(top_p))
    logits_warpers(temperature, top_k, top_p)  # validates the settings
    prompts = [list(tok.encode(prompt)) for tok in ensemble.tokenizers]
    weights = ensemble.weights.tolist()
    device = ensemble.device
    frontier: dict[tuple[int, ...], float] = {(): 1.0}
    finished: dict[tuple[int, ...], float] = {}
    for _ in range(length):
        grown: dict[tuple[int, ...], float] = {}
        for prefix, mass in frontier.items():
            probs = []
            for i, model in enumerate(ensemble.models):
                ids = prompts[i] + [t for u in prefix for t in ensemble._encode(i, u)]
                logits = model(input_ids=torch.tensor([ids], device=device)).logits[:, -1, :]
                probs.append(ensemble._member_probs(i, logits, proc, None))
            step = mixture(probs, weights)[0].double().cpu()
            for token in torch.nonzero(step > 0).flatten().tolist():
                seq, p = (*prefix, token), mass * float(step[token])
                (finished if ensemble._is_eos(token) else grown)[seq] = p
            if len(grown) + len(finished) > max_sequences:
                raise ValueError(f"more than {max_sequences} continuations: shorten length or set top_k")
        frontier = grown
    finished.update(frontier)
    return finished
