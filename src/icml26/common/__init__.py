"""Code shared by every method: the experiment contract, registry, runner, report, progress, seeding.

Names are loaded on first use (``lazy_loader``), so that ``icml26 list`` and ``import icml26.common``
stay fast: SciPy, Rich and PyTorch are imported only by the code that needs them.
"""

import lazy_loader as lazy

__getattr__, __dir__, __all__ = lazy.attach(
    __name__,
    submod_attrs={
        "experiment": [
            "KINDS",
            "PROFILES",
            "SCALES",
            "STATISTICS",
            "VERDICTS",
            "Claim",
            "Experiment",
            "Plot",
            "Resources",
            "Result",
            "Verdict",
            "comparison_key",
            "verdict",
        ],
        "checkpoint": ["unit", "unit_progress"],
        "claims": [
            "PAPER_VERDICTS",
            "QUANTIFIERS",
            "REVIEW_WORDS",
            "Background",
            "PaperClaim",
            "Revision",
            "abstract_of",
            "roll_up",
        ],
        "graphs": ["labels_in_order", "node_order"],
        "progress": ["progress", "quiet_native_output"],
        "registry": ["METHOD_NAMES", "METHODS", "get_experiment", "register"],
        "seeding": ["seed_everything"],
        "stats": ["ci95", "mean_ci95", "median_ci95", "paired_ci", "ratio_of_means_ci"],
        "validation": ["check_device", "check_int", "check_positive"],
    },
)
