"""Rashomon sets of sparse decision trees: the robustness-privacy double edge (Hsu, Chen, Zhong &
Semenova, ICML 2026, arXiv:2511.21799)."""

from icml26.rashomon.attacks import (
    adversarial_accuracy,
    adversarial_examples,
    evasion_distance,
    evasion_distance_loop,
    linear_evasion_distance,
)
from icml26.rashomon.baselines import adversarial_cart, cart, laplace_tree, noisy_count_proba
from icml26.rashomon.privacy import (
    fill_unconstrained,
    marginal_mode_guess,
    membership_inference,
    random_guess,
    reconstruct,
    reconstruction_error,
    tree_predict_proba,
)
from icml26.rashomon.rashomon_set import (
    RashomonLimitError,
    RashomonSet,
    diverse_order,
    feature_entropy,
    gosdt_optimum,
    pattern_diversity,
)
from icml26.rashomon.robustness import reactive_defense, survival_share
from icml26.rashomon.stability import shift_dataset, stability
from icml26.rashomon.trees import BoxModel, Leaf, ThresholdBinarizer, Tree, min_max_scale, sklearn_boxes

__all__ = [
    "BoxModel",
    "Leaf",
    "RashomonLimitError",
    "RashomonSet",
    "ThresholdBinarizer",
    "Tree",
    "adversarial_accuracy",
    "adversarial_cart",
    "adversarial_examples",
    "cart",
    "diverse_order",
    "evasion_distance",
    "evasion_distance_loop",
    "feature_entropy",
    "fill_unconstrained",
    "gosdt_optimum",
    "linear_evasion_distance",
    "marginal_mode_guess",
    "membership_inference",
    "laplace_tree",
    "min_max_scale",
    "noisy_count_proba",
    "pattern_diversity",
    "random_guess",
    "reactive_defense",
    "reconstruct",
    "reconstruction_error",
    "shift_dataset",
    "sklearn_boxes",
    "stability",
    "survival_share",
    "tree_predict_proba",
]
