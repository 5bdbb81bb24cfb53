"""Small real datasets the project carries (offline), shared by every method that uses them.

- ``compas``: 7206 x 14 binary features, label two-year recidivism; the binarised file of the DRAFT
  reconstruction benchmark (``vidalt/DRAFT``, MIT licence), shipped as ``data/compas.csv.gz``.

Each loader returns read-only ``(X, y)`` arrays (``X`` float, ``y`` int) and the column names.
"""

from __future__ import annotations

import functools
import gzip
from importlib import resources

import numpy as np

CARRIED_DATASETS = ("compas",)


@functools.cache
def _read_carried(name: str) -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
    with (
        resources.files("icml26.common.data").joinpath(f"{name}.csv.gz").open("rb") as raw,
        gzip.open(raw, "rt") as f,
    ):
        header = f.readline().strip().split(",")
        table = np.loadtxt(f, delimiter=",")
    X, y = table[:, :-1], table[:, -1].astype(int)
    X.setflags(write=False)
    y.setflags(write=False)
    return X, y, tuple(header[:-1])


def load_carried(name: str) -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
    """``(X, y, feature_names)`` of a carried dataset; ``name`` is one of ``CARRIED_DATASETS``."""
    if name not in CARRIED_DATASETS:
        raise ValueError(f"carried dataset {name!r} is not one of {', '.join(CARRIED_DATASETS)}")
    return _read_carried(name)
