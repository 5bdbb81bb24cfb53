"""Offline baselines on the same 500-design pool (no oracle queries):

- random: ``n`` uniformly random sequences;
- exhaustive ridge: one-hot ridge regression (``scikit-learn``) fit on the pool, then the top ``n``
  designs outside the pool by its prediction over all 4**8 8-mers (TFBind8 only);
- pool evolution: ``nevergrad``'s discrete (1+1) evolution started from the pool's best designs,
  maximising the same ridge surrogate; the ``n`` distinct non-pool designs it asked with the highest
  surrogate values.

GP-EI (``botorch``), CbAS and COMs are not built (see docs/methods/dibo.md).
"""

from __future__ import annotations

import nevergrad as ng
import numpy as np
from sklearn.linear_model import Ridge

from icml26.dibo.corpus import Pool
from icml26.dibo.tasks import all_8mers, dna_index


def one_hot(x: np.ndarray, alphabet_size: int) -> np.ndarray:
    """``(n, L)`` indices -> ``(n, L * alphabet_size)`` one-hot features."""
    return np.eye(alphabet_size)[np.asarray(x)].reshape(len(x), -1)


def random_designs(alphabet_size: int, length: int, n: int, rng: np.random.Generator) -> np.ndarray:
    return rng.integers(alphabet_size, size=(n, length))


def fit_ridge(pool: Pool, alpha: float = 1.0) -> Ridge:
    return Ridge(alpha=alpha).fit(one_hot(pool.x, len(pool.task.alphabet)), pool.y)


def ridge_exhaustive(pool: Pool, n: int = 128, alpha: float = 1.0) -> np.ndarray:
    """The ``n`` 8-mers outside the pool with the highest ridge prediction (TFBind8: all 65,536 ranked)."""
    if pool.task.alphabet != "ACGT" or pool.task.length != 8:
        raise ValueError(f"exhaustive ridge enumerates 8-mers over ACGT; task {pool.task.name!r} is not one")
    x = all_8mers()
    pred = fit_ridge(pool, alpha).predict(one_hot(x, 4))
    pred[dna_index(pool.x)] = -np.inf
    return x[np.argsort(-pred, kind="stable")[:n]]


def pool_evolution(
    pool: Pool, n: int, rng: np.random.Generator, budget: int = 2000, starts: int = 10
) -> np.ndarray:
    """nevergrad DiscreteOnePlusOne on the ridge surrogate, seeded with the pool's ``starts`` best designs."""
    a, length = len(pool.task.alphabet), pool.task.length
    model = fit_ridge(pool)
    param = ng.p.Choice(list(range(a)), repetitions=length)
    param.random_state = np.random.RandomState(int(rng.integers(2**31)))
    opt = ng.optimizers.DiscreteOnePlusOne(parametrization=param, budget=budget, num_workers=1)
    for x in pool.x[-starts:]:
        opt.suggest(tuple(int(v) for v in x))
    seen_pool = {x.tobytes() for x in pool.x}
    asked: dict[bytes, tuple[float, np.ndarray]] = {}
    for _ in range(budget):
        cand = opt.ask()
        x = np.asarray(cand.value, dtype=np.int64)
        value = float(model.predict(one_hot(x[None], a))[0])
        opt.tell(cand, -value)
        if x.tobytes() not in seen_pool:
            asked[x.tobytes()] = (value, x)
    best = sorted(asked.values(), key=lambda t: -t[0])[:n]
    return np.stack([x for _, x in best])
