"""Code shared by every method: the experiment contract, registry, runner, report, progress, seeding."""

from icml26.common.experiment import (
    KINDS,
    PROFILES,
    SCALES,
    VERDICTS,
    Claim,
    Experiment,
    Plot,
    Result,
    Verdict,
    comparison_key,
    verdict,
)
from icml26.common.progress import progress
from icml26.common.registry import METHOD_NAMES, METHODS, get_experiment, register
from icml26.common.seeding import seed_everything
from icml26.common.stats import ci95, mean_ci95, median_ci95, paired_ci
from icml26.common.validation import check_device, check_int

__all__ = [
    "KINDS",
    "METHODS",
    "METHOD_NAMES",
    "PROFILES",
    "SCALES",
    "VERDICTS",
    "Claim",
    "Experiment",
    "Plot",
    "Result",
    "Verdict",
    "check_device",
    "check_int",
    "ci95",
    "comparison_key",
    "get_experiment",
    "mean_ci95",
    "median_ci95",
    "paired_ci",
    "progress",
    "register",
    "seed_everything",
    "verdict",
]
