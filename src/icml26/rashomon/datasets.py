"""The offline datasets: scikit-learn's breast_cancer and wine (class 0 vs rest), continuous, and the
binarised COMPAS file carried in ``icml26.common.datasets`` (DRAFT benchmark, MIT)."""

from __future__ import annotations

import numpy as np

CONTINUOUS = ("breast_cancer", "wine")
BINARY = ("compas",)


def load(name: str) -> tuple[np.ndarray, np.ndarray]:
    """``(X, y)`` with labels in {0, 1}: breast_cancer (569 x 30), wine (178 x 13, class 0 vs rest),
    compas (7206 x 14 binary)."""
    if name == "breast_cancer":
        from sklearn.datasets import load_breast_cancer

        data = load_breast_cancer()
        return data.data.astype(float), data.target.astype(np.int64)
    if name == "wine":
        from sklearn.datasets import load_wine

        data = load_wine()
        return data.data.astype(float), (data.target == 0).astype(np.int64)
    if name == "compas":
        from icml26.common.datasets import load_carried

        X, y, _ = load_carried("compas")
        return X.astype(np.int8), y.astype(np.int64)
    raise ValueError(f"dataset {name!r} is not one of {', '.join(CONTINUOUS + BINARY)}")
