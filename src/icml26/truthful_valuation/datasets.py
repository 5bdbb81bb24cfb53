"""Data for the experiment: synthetic trials drawn from the prior, and three small real datasets (offline).

- Synthetic: per trial ``theta`` from the model's prior, then every source's data and ``V`` i.i.d. from
  the likelihood at ``theta`` (the setting where the truthfulness argument applies exactly).
- ``diabetes`` (scikit-learn, 442 x 10, regression; X and y standardised), ``breast_cancer``
  (scikit-learn, 569 x 30, features binarised at their medians) and ``compas`` (7206 x 14 binary
  features, two-year recidivism; the binarised file of ``vidalt/DRAFT``, MIT licence, shipped as
  ``icml26.common.datasets``). Real trials draw the sources and ``V`` as disjoint random subsets of the rows.
"""

from __future__ import annotations

import functools
import numbers
from collections.abc import Sequence

import numpy as np

from icml26.common import check_int
from icml26.common.datasets import load_carried
from icml26.truthful_valuation.models import BayesianModel, Dataset

REAL_DATASETS = ("diabetes", "breast_cancer", "compas")


def _check_sizes(sizes: Sequence[int], n_validation: int) -> tuple[list[int], int]:
    """Source sizes (integers >= 0, at least one source) and the validation size (integer >= 1)."""
    if isinstance(sizes, str | bytes) or not isinstance(sizes, Sequence) or len(sizes) == 0:
        raise ValueError(f"sizes must list one size per source, got {sizes!r}")
    if not all(isinstance(m, numbers.Integral) and not isinstance(m, bool) and m >= 0 for m in sizes):
        raise ValueError(f"sizes must be integers >= 0, got {list(sizes)!r}")
    return [int(m) for m in sizes], check_int("n_validation", n_validation)


def synthetic_trial(
    model: BayesianModel, sizes: Sequence[int], n_validation: int, rng: np.random.Generator
) -> tuple[list[Dataset], Dataset]:
    """Sources of the given sizes and a validation set, all drawn given one ``theta`` from the prior."""
    sizes, n_validation = _check_sizes(sizes, n_validation)
    parameter = model.sample_parameter(rng)
    sources = [model.sample_data(parameter, int(m), rng) for m in sizes]
    return sources, model.sample_data(parameter, int(n_validation), rng)


@functools.cache
def load_real(name: str) -> Dataset:
    """``(X, y)`` of a bundled real dataset (see the module docstring); read-only arrays."""
    if name == "diabetes":
        from sklearn.datasets import load_diabetes

        X, y = load_diabetes(return_X_y=True)
        X = (X - X.mean(0)) / X.std(0)
        y = (y - y.mean()) / y.std()
    elif name == "breast_cancer":
        from sklearn.datasets import load_breast_cancer

        X, y = load_breast_cancer(return_X_y=True)
        X = (np.median(X, axis=0) < X).astype(float)
    elif name == "compas":
        X, y, _ = load_carried("compas")
        X, y = X.copy(), y.copy()
    else:
        raise ValueError(f"real dataset {name!r} is not one of {', '.join(REAL_DATASETS)}")
    X.setflags(write=False)
    y.setflags(write=False)
    return X, y


def real_trial(
    data: Dataset, sizes: Sequence[int], n_validation: int, rng: np.random.Generator
) -> tuple[list[Dataset], Dataset]:
    """Disjoint random subsets of the rows of ``data``: the sources (given sizes) and ``V``."""
    sizes, n_validation = _check_sizes(sizes, n_validation)
    X, y = data
    need = int(sum(sizes)) + int(n_validation)
    if need > len(y):
        raise ValueError(f"the sources and validation set need {need} rows, the dataset has {len(y)}")
    order = rng.permutation(len(y))
    validation = order[:n_validation]
    sources, start = [], int(n_validation)
    for m in sizes:
        rows = order[start : start + int(m)]
        sources.append((X[rows], y[rows]))
        start += int(m)
    return sources, (X[validation], y[validation])
