"""Data valuation functions (DVFs) of coalitions, and the coalition game built from cached statistics.

The truthful DVF is the posterior-predictive log score on the mediator's validation set ``V``
relative to the prior [inferred: the paper says only "a truthful DVF based on a validation set
unknown to the sources"; this is the reconstruction in the method notes]:

    v(C) = sum_{(x, y) in V} [ log p(y | x, D_C) - log p(y | x) ],   so v(empty) = 0.

The log score is strictly proper, so under the common prior (data and ``V`` i.i.d. given
``theta``) the expected ``v(C)`` is maximised by the true posterior predictive of ``D_C``.

Non-truthful comparators (all with ``v(empty) = 0``):

- ``information_gain``: ``1/2 log det(I + tau2 X_C'X_C / sigma2)`` (Sim et al. 2020); ignores ``y`` and
  grows with every added row, duplicates included (linear models only);
- ``validation_mse``: reduction of the validation mean squared error of the posterior mean
  (regression); ``validation_accuracy``: gain in validation accuracy of the posterior mode (classes);
- ``dataset_size``: ``|D_C|``.

A relaxation without a validation set, :func:`peer_prediction_scores` [inferred], scores each source's
posterior on the other sources' data.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from icml26.truthful_valuation.models import BayesianModel, Dataset, _LinearModel


@runtime_checkable
class DVF(Protocol):
    """A user-supplied data valuation function for models without additive sufficient statistics.

    ``dvf(coalition, validation) -> float``: ``coalition`` is the list of the member sources' validated
    ``(X, y)`` datasets (empty for the empty coalition), ``validation`` the mediator's set as passed to
    :meth:`~.mechanism.Mechanism.value`. Truthfulness needs a strictly proper score of the coalition's
    posterior predictive (e.g. its log score on ``validation`` minus the prior's, so ``v(empty) = 0``);
    :mod:`.dvfs` has two: a Gaussian-process regression and a Laplace-approximated logistic model.
    """

    def __call__(self, coalition: Sequence[Dataset], validation: Dataset | None) -> float: ...


DVFS = ("log_score", "information_gain", "validation_mse", "validation_accuracy", "dataset_size")
NEEDS_VALIDATION = ("log_score", "validation_mse", "validation_accuracy")


def check_dvf(model: BayesianModel, dvf: str) -> str:
    """``dvf`` if it is a DVF name that ``model`` supports; else ``ValueError`` naming the accepted ones."""
    if dvf not in DVFS:
        raise ValueError(f"dvf {dvf!r} is not one of {', '.join(DVFS)}")
    if dvf == "information_gain" and not isinstance(model, _LinearModel):
        raise ValueError("dvf 'information_gain' is defined for the linear-regression models only")
    if dvf == "validation_mse" and model.task != "regression":
        raise ValueError(
            "dvf 'validation_mse' needs a regression model; use 'validation_accuracy' for classes"
        )
    if dvf == "validation_accuracy" and model.task != "classification":
        raise ValueError("dvf 'validation_accuracy' needs a classification model; use 'validation_mse'")
    return dvf


def coalition_values(
    model: BayesianModel, stats: np.ndarray, dvf: str = "log_score", validation: Dataset | None = None
) -> np.ndarray:
    """``v(C)`` of each coalition from its summed sufficient statistics ``stats`` (``(..., k)`` -> ``(...)``).

    ``validation`` is the mediator's ``(X, y)``, required (non-empty) by ``log_score``,
    ``validation_mse`` and ``validation_accuracy``.
    """
    check_dvf(model, dvf)
    stats = np.asarray(stats, dtype=float)
    if stats.ndim == 0 or stats.shape[-1] != model.n_statistics or not np.isfinite(stats).all():
        raise ValueError(
            f"stats must be finite with last axis {model.n_statistics} (the model's statistics), got shape {stats.shape}"
        )
    if dvf == "dataset_size":
        return model.count(stats)
    if dvf == "information_gain":
        return model.information_gain(stats)  # type: ignore[attr-defined]
    if validation is None:
        raise ValueError(f"dvf {dvf!r} needs a non-empty validation set (X, y); got None")
    X, y = model.check_data(validation, "validation")
    if len(y) == 0:
        raise ValueError(f"dvf {dvf!r} needs a non-empty validation set (X, y); got 0 points")
    prior = np.zeros(model.n_statistics)
    if dvf == "log_score":
        return (model.log_predictive(stats, X, y) - model.log_predictive(prior, X, y)).sum(-1)
    if dvf == "validation_mse":
        mse = ((model.point_prediction(stats, X) - y) ** 2).mean(-1)
        return ((model.point_prediction(prior, X) - y) ** 2).mean() - mse
    accuracy = (model.point_prediction(stats, X) == y).mean(-1)
    return accuracy - (model.point_prediction(prior, X) == y).mean()


def coalition_statistics(source_stats: np.ndarray) -> np.ndarray:
    """Summed statistics of every coalition, ``(2^n, k)`` from ``(n, k)``; row ``mask`` sums the set bits."""
    n = len(source_stats)
    masks = np.arange(2**n)
    membership = ((masks[:, None] >> np.arange(n)) & 1).astype(float)
    return membership @ source_stats


def game_table(
    model: BayesianModel, source_stats: np.ndarray, dvf: str = "log_score", validation: Dataset | None = None
) -> np.ndarray:
    """The full game ``table[mask] = v(coalition of mask)`` from cached per-source statistics (``(2^n,)``)."""
    return coalition_values(model, coalition_statistics(source_stats), dvf, validation)


def refit_game_table(
    model: BayesianModel,
    sources: Sequence[Dataset],
    dvf: str = "log_score",
    validation: Dataset | None = None,
) -> np.ndarray:
    """The same table, refitting each coalition from its concatenated raw data (the slow reference)."""
    sources = [model.check_data(s, f"source {i}") for i, s in enumerate(sources)]
    n = len(sources)
    table = np.empty(2**n)
    d = model.n_features
    for mask in range(2**n):
        members = [sources[i] for i in range(n) if mask >> i & 1]
        X = np.concatenate([s[0] for s in members]) if members else np.empty((0, d))
        y = np.concatenate([s[1] for s in members]) if members else np.empty(0)
        table[mask] = coalition_values(model, model.statistics(X, y), dvf, validation)
    return table


def peer_prediction_scores(model: BayesianModel, sources: Sequence[Dataset]) -> np.ndarray:
    """No-validation-set relaxation [inferred]: ``s_i = sum_{(x,y) in D_-i} [log p(y|x, D_i) - log p(y|x)]``.

    The other sources' data stand in for the validation set. Truthful in expectation only at a
    Bayes-Nash equilibrium where the others are truthful, and not fair in the semivalue sense (a
    source's score depends on others' data, never on coalitions). ``(n,)``.
    """
    sources = [model.check_data(s, f"source {i}") for i, s in enumerate(sources)]
    prior = np.zeros(model.n_statistics)
    scores = np.empty(len(sources))
    for i, (X_i, y_i) in enumerate(sources):
        stats_i = model.statistics(X_i, y_i)
        total = 0.0
        for j, (X_j, y_j) in enumerate(sources):
            if j != i and len(y_j):
                total += float(
                    (model.log_predictive(stats_i, X_j, y_j) - model.log_predictive(prior, X_j, y_j)).sum()
                )
        scores[i] = total
    return scores
