"""Truthful and fair data valuation for Bayesian collaborative learning (Sim, Fan, Tian, Xu, Jaillet, Low;
ICML 2026, arXiv 2605.11889).

Sources submit datasets; the mediator values coalitions with the posterior-predictive log score on a
validation set unknown to the sources and rewards with semivalues (Shapley, Banzhaf, Beta):
``Mechanism(model, dvf="log_score", semivalue="shapley").value(sources, validation)``; with no model
the prior (noise ``sigma2`` and slope prior ``tau2`` of a Gaussian linear model) is fitted on the
validation set by empirical Bayes (:class:`EmpiricalBayesLinear`; scale-equivariant in y), a
:class:`BayesianModel` is a fixed prior (:func:`fixed_prior` is the old NIG default), and ``dvf`` may be
a user :class:`DVF` (:class:`GaussianProcessLogScore`, its noise fitted on the validation set by
default; :class:`LaplaceLogisticLogScore`).
"""

from icml26.truthful_valuation.datasets import REAL_DATASETS, load_real, real_trial, synthetic_trial
from icml26.truthful_valuation.dvfs import GaussianProcessLogScore, LaplaceLogisticLogScore
from icml26.truthful_valuation.empirical_bayes import (
    EmpiricalBayesLinear,
    fit_gp_prior,
    fit_linear_prior,
    linear_log_marginal,
)
from icml26.truthful_valuation.fairness import (
    efficiency_gap,
    equal_split,
    fixed_order_contributions,
    null_player_gap,
    null_players,
    symmetric_pairs,
    symmetry_gap,
)
from icml26.truthful_valuation.manipulation import OWN_DATA_STRATEGIES, STRATEGIES, manipulate
from icml26.truthful_valuation.mechanism import (
    BUDGET_RULES,
    FIXED_PRIOR_TAU2,
    Mechanism,
    Valuation,
    budgeted_rewards,
    fixed_prior,
)
from icml26.truthful_valuation.models import (
    BayesianModel,
    GaussianLinearModel,
    NaiveBayesModel,
    NormalInverseGammaModel,
    check_dataset,
)
from icml26.truthful_valuation.semivalues import (
    EXACT_LIMIT,
    Semivalue,
    exact_semivalues,
    monte_carlo_semivalues,
    weight_total,
)
from icml26.truthful_valuation.truthfulness import (
    Evaluator,
    PairedDifference,
    merge_trials,
    paired_difference,
    run_trials,
)
from icml26.truthful_valuation.valuation import (
    DVF,
    DVFS,
    coalition_values,
    game_table,
    peer_prediction_scores,
    refit_game_table,
)

__all__ = [
    "BUDGET_RULES",
    "DVF",
    "DVFS",
    "EXACT_LIMIT",
    "FIXED_PRIOR_TAU2",
    "REAL_DATASETS",
    "STRATEGIES",
    "BayesianModel",
    "EmpiricalBayesLinear",
    "Evaluator",
    "GaussianLinearModel",
    "GaussianProcessLogScore",
    "LaplaceLogisticLogScore",
    "Mechanism",
    "NaiveBayesModel",
    "NormalInverseGammaModel",
    "OWN_DATA_STRATEGIES",
    "PairedDifference",
    "Semivalue",
    "Valuation",
    "budgeted_rewards",
    "check_dataset",
    "coalition_values",
    "efficiency_gap",
    "equal_split",
    "exact_semivalues",
    "fit_gp_prior",
    "fit_linear_prior",
    "fixed_order_contributions",
    "fixed_prior",
    "game_table",
    "linear_log_marginal",
    "load_real",
    "manipulate",
    "merge_trials",
    "monte_carlo_semivalues",
    "null_player_gap",
    "null_players",
    "paired_difference",
    "peer_prediction_scores",
    "real_trial",
    "refit_game_table",
    "run_trials",
    "symmetric_pairs",
    "symmetry_gap",
    "synthetic_trial",
    "weight_total",
]
