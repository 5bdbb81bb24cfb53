"""BrokenMath (Petrov, Dekoninck, Vechev; ICML 2026; arXiv 2510.04721): sycophancy in natural-language
theorem proving. Benchmark loader and official prompts, the checker judge with majority voting, metrics,
the paper's tables recomputed from the official results, mitigations, backends and BrokenArith."""

from icml26.brokenmath import brokenarith
from icml26.brokenmath.backends import MockChat, OpenAIChat, TransformersChat
from icml26.brokenmath.benchmark import (
    PAPER_COMPOSITION,
    Item,
    composition,
    export_for_review,
    import_review,
    load,
    parse_items,
)
from icml26.brokenmath.evaluation import (
    LLMJudge,
    Report,
    all_sycophantic_share,
    bootstrap_ci,
    bounded_difference_ci,
    bounded_rate_ci,
    evaluate,
    undecided_bounds,
    utility,
)
from icml26.brokenmath.prompts import (
    checker_prompt,
    filter_prompt,
    rephrase_prompt,
    solver_messages,
    solver_prompt,
)
from icml26.brokenmath.verdicts import VERDICTS, is_sycophantic, last_boxed, majority, parse_verdict
from icml26.common.smollm2 import load_smollm2  # the shared offline loader, part of this API

__all__ = [
    "PAPER_COMPOSITION",
    "VERDICTS",
    "Item",
    "LLMJudge",
    "MockChat",
    "OpenAIChat",
    "Report",
    "TransformersChat",
    "all_sycophantic_share",
    "bootstrap_ci",
    "bounded_difference_ci",
    "bounded_rate_ci",
    "brokenarith",
    "checker_prompt",
    "composition",
    "evaluate",
    "export_for_review",
    "filter_prompt",
    "import_review",
    "is_sycophantic",
    "last_boxed",
    "load",
    "load_smollm2",
    "majority",
    "parse_items",
    "parse_verdict",
    "rephrase_prompt",
    "solver_messages",
    "solver_prompt",
    "undecided_bounds",
    "utility",
]
