"""Manipulations a source may apply to its dataset before submitting it.

Each strategy maps the true dataset ``D_i`` (and, for ``copy``, another source's data) to a submitted
dataset ``D~_i``:

- ``truthful``: ``D_i`` as is;
- ``duplicate``: ``D_i`` twice;
- ``label_noise`` / ``feature_noise``: the model's noise of strength ``strength`` on ``y`` / ``X``
  (regression: Gaussian noise of that standard deviation; binary naive Bayes: flip probability);
- ``withhold``: a random ``1 - fraction`` of the rows kept (``fraction`` withheld);
- ``fabricate``: ``D_i`` plus ``|D_i|`` synthetic points from the source's own posterior predictive
  (``theta ~ p(theta | D_i)``, then ``y ~ p(y | x, theta)`` at resampled own covariates for regression, or
  ``(x, y) ~ p(x, y | theta)`` for naive Bayes);
- ``sharpen`` [inferred, ours]: ``D_i`` plus ``|D_i|`` points at resampled own covariates labelled by the
  source's own posterior point prediction (predictive mean, or mode for classes) without noise: an
  overconfident fabrication that leaves the point prediction almost unchanged, so a DVF scoring only
  the point prediction (validation MSE or accuracy) barely sees it, while the log score should;
- ``copy``: ``D_i`` plus a copy of another source's data (outside the strategies the truthfulness
  argument covers: it is not a function of ``D_i`` alone).
"""

from __future__ import annotations

import math

import numpy as np

from icml26.truthful_valuation.models import BayesianModel, Dataset

STRATEGIES = (
    "truthful",
    "duplicate",
    "label_noise",
    "feature_noise",
    "withhold",
    "fabricate",
    "copy",
    "sharpen",
)
# the strategies that are a (random) function of the source's own data: the truthfulness argument's premise
OWN_DATA_STRATEGIES = ("duplicate", "label_noise", "feature_noise", "withhold", "fabricate", "sharpen")
DEFAULT_STRENGTH = {"regression": 1.0, "classification": 0.3}


def manipulate(
    data: Dataset,
    strategy: str,
    rng: np.random.Generator,
    *,
    model: BayesianModel,
    other: Dataset | None = None,
    strength: float | None = None,
    fraction: float = 0.5,
) -> Dataset:
    """The dataset a source submits under ``strategy`` (see the module docstring); the input is not modified."""
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy {strategy!r} is not one of {', '.join(STRATEGIES)}")
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy Generator, got {type(rng).__name__}")
    X, y = model.check_data(data, "data")
    if strength is None:
        strength = DEFAULT_STRENGTH[model.task]
    if (
        isinstance(strength, bool)
        or not isinstance(strength, int | float)
        or not (math.isfinite(strength) and strength > 0)
    ):
        raise ValueError(f"strength must be a finite number > 0, got {strength!r}")
    if model.task == "classification" and strength > 1:
        raise ValueError(
            f"strength is a flip probability for classification and must be <= 1, got {strength}"
        )
    if isinstance(fraction, bool) or not isinstance(fraction, int | float) or not 0 < fraction < 1:
        raise ValueError(f"fraction (share withheld) must be in (0, 1), got {fraction!r}")
    if strategy == "truthful" or (len(y) == 0 and strategy != "copy"):
        return X.copy(), y.copy()
    if strategy == "duplicate":
        return np.concatenate([X, X]), np.concatenate([y, y])
    if strategy == "label_noise":
        return X.copy(), model.perturb_labels(y, strength, rng)
    if strategy == "feature_noise":
        return model.perturb_features(X, strength, rng), y.copy()
    if strategy == "withhold":
        keep = np.sort(rng.permutation(len(y))[: len(y) - int(round(fraction * len(y)))])
        return X[keep], y[keep]
    if strategy == "fabricate":
        parameter = model.sample_posterior(model.statistics(X, y), rng)
        covariates = X[rng.integers(0, len(y), len(y))] if model.task == "regression" else None
        Xf, yf = model.sample_data(parameter, len(y), rng, covariates)
        return np.concatenate([X, Xf]), np.concatenate([y, yf])
    if strategy == "sharpen":
        covariates = X[rng.integers(0, len(y), len(y))]
        labels = model.point_prediction(model.statistics(X, y), covariates)
        return np.concatenate([X, covariates]), np.concatenate([y, labels.astype(y.dtype)])
    if other is None:
        raise ValueError("strategy 'copy' needs other=(X, y), the data of the source copied")
    Xo, yo = model.check_data(other, "other")
    return np.concatenate([X, Xo]), np.concatenate([y, yo])
