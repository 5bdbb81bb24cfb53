"""FedPissa: personalised federated fine-tuning with a single LoRA (He, Huang, Liu, Liang, Li, Pang, Ye;
ICML 2026; OpenReview ZEWN40uNEh).

Only the abstract and the poster page are public; the algorithm here is a reconstruction **[inferred]**
with every component behind a flag (``docs/methods/fedpissa.md``): PiSSA initialisation of one LoRA per
layer, warm-up rounds recording each factor's aggregation dynamics (agreement, drift), selective sharing
of the better-agreeing factor, server-side conflict projection, sample-weighted mean and rotation into
principal coordinates, and a client-side least-squares mapping of the private factor.
"""

from icml26.fedpissa.aggregation import (
    AggregationDynamics,
    agreement,
    drift,
    normalised_weights,
    project_conflicts,
    rotate_principal,
    weighted_mean_update,
)
from icml26.fedpissa.data import (
    NOUN_SUPERSENSES,
    ClientData,
    dirichlet_split,
    make_clients,
    supersense_task,
    train_test_split,
    wordnet_noun_glosses,
)
from icml26.fedpissa.federation import (
    BASELINES,
    METHODS,
    FederatedResult,
    FedPissa,
    FedPissaConfig,
    count_correct,
    local_train,
    run_baseline,
)
from icml26.fedpissa.lora import DualLoRALinear, LoRALinear, add_lora, lora_modules, pissa_factors
from icml26.fedpissa.mapping import map_private

__all__ = [
    "BASELINES",
    "METHODS",
    "NOUN_SUPERSENSES",
    "AggregationDynamics",
    "ClientData",
    "DualLoRALinear",
    "FedPissa",
    "FedPissaConfig",
    "FederatedResult",
    "LoRALinear",
    "add_lora",
    "agreement",
    "count_correct",
    "dirichlet_split",
    "drift",
    "local_train",
    "lora_modules",
    "make_clients",
    "map_private",
    "normalised_weights",
    "pissa_factors",
    "project_conflicts",
    "rotate_principal",
    "run_baseline",
    "supersense_task",
    "train_test_split",
    "weighted_mean_update",
    "wordnet_noun_glosses",
]
