"""BFTS: Thompson sampling with Bayesian additive regression trees (Deng et al., ICML 2026).

Public API: the agent (:class:`BFTSAgent`), the BART backends, the refresh schedule, the baselines,
the environments and the MRT simulator with replay evaluation.
"""

from icml26.bfts.agent import ENCODINGS, BanditAgent, BFTSAgent
from icml26.bfts.bart import (
    BACKENDS,
    SPLIT_PRIORS,
    STOCHTREE_PRIORS,
    BARTSampler,
    StochtreeBART,
    cut_grid,
    make_posterior,
)
from icml26.bfts.baselines import EpsilonGreedy, LinTS, LinUCB, NeuralTS, RandomAgent, TreeEnsembleTS
from icml26.bfts.environments import (
    DATASETS,
    SCENARIOS,
    BanditEnvironment,
    classification_environment,
    friedman1,
    friedman2,
    friedman3,
    run_bandit,
    synthetic_environment,
)
from icml26.bfts.mrt import LOGGED_PROBS, TrialLog, replay_evaluation, simulate_trial
from icml26.bfts.schedule import (
    SCHEDULES,
    DrawQueue,
    draws_needed,
    refit_times,
    refresh_fires,
    refresh_index,
    steps_until_next_refresh,
    warm_start_arms,
)

__all__ = [
    "BACKENDS",
    "DATASETS",
    "ENCODINGS",
    "LOGGED_PROBS",
    "SCENARIOS",
    "SCHEDULES",
    "SPLIT_PRIORS",
    "STOCHTREE_PRIORS",
    "BARTSampler",
    "BFTSAgent",
    "BanditAgent",
    "BanditEnvironment",
    "DrawQueue",
    "EpsilonGreedy",
    "LinTS",
    "LinUCB",
    "NeuralTS",
    "RandomAgent",
    "StochtreeBART",
    "TreeEnsembleTS",
    "TrialLog",
    "classification_environment",
    "cut_grid",
    "draws_needed",
    "friedman1",
    "friedman2",
    "friedman3",
    "make_posterior",
    "refit_times",
    "refresh_fires",
    "refresh_index",
    "replay_evaluation",
    "run_bandit",
    "simulate_trial",
    "steps_until_next_refresh",
    "synthetic_environment",
    "warm_start_arms",
]
