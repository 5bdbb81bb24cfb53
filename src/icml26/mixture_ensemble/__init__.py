"""Mixture-model-like Ensemble (ME) of language models.

Fu, Jiang, Wu, Liu, Zhou, Yang. *Rethinking LLM Ensembling from the Perspective of Mixture Models*.
ICML 2026, arXiv 2605.00419. ME draws one member per step and samples from it, which is exactly
sampling from the conventional ensemble (CE) ``Σ λ_i p_i`` at one forward pass per token.
"""

from icml26.mixture_ensemble.cache import LazyMember, catch_up_error, incremental_decoding_error
from icml26.mixture_ensemble.ensemble import ConventionalEnsemble, GenerationOutput, MixtureEnsemble
from icml26.mixture_ensemble.exact import (
    chi_square_test,
    exact_sequence_distribution,
    exact_union_distribution,
    sequence_index,
)
from icml26.mixture_ensemble.sampling import logits_warpers, mixture, process_logits, truncated_mixture
from icml26.mixture_ensemble.smollm2 import load_smollm2
from icml26.mixture_ensemble.vocabulary import VocabularyMapping, token_key

__all__ = [
    "ConventionalEnsemble",
    "GenerationOutput",
    "LazyMember",
    "MixtureEnsemble",
    "VocabularyMapping",
    "catch_up_error",
    "incremental_decoding_error",
    "chi_square_test",
    "exact_sequence_distribution",
    "exact_union_distribution",
    "logits_warpers",
    "load_smollm2",
    "mixture",
    "process_logits",
    "sequence_index",
    "token_key",
    "truncated_mixture",
]
