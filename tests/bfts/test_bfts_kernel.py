"""The compiled BART engine (bart_kernel) against the Python reference: the same draws, to the bit."""

from __future__ import annotations

import numpy as np
import pytest

from icml26.bfts import bart as bart_mod
from icml26.bfts.bart import BARTSampler
from icml26.bfts.bart_kernel_twins import HAVE_NUMBA, _npsum, set_order

pytestmark = pytest.mark.skipif(not HAVE_NUMBA, reason="the compiled engine needs numba")

_ARRAYS = ("feature_", "threshold_", "left_", "right_", "value_", "roots_", "sigma2_draws_")


def test_set_emulation_matches_cpython_sets():
    # the leaf draws follow the reference's set iteration order: the emulation must match real sets
    rng = np.random.default_rng(3)
    for _ in range(60):
        real, ops = {0}, []
        hi = int(rng.integers(4, 600))
        for _ in range(int(rng.integers(5, 400))):
            if rng.random() < 0.55 or len(real) < 2:
                key = int(rng.integers(hi))
                real.add(key)
                ops.append(("add", key))
            else:
                key = (
                    list(real)[int(rng.integers(len(real)))] if rng.random() < 0.9 else int(rng.integers(hi))
                )
                real.discard(key)
                ops.append(("discard", key))
        assert set_order(ops) == list(real)


def test_pairwise_sum_is_numpys():
    rng = np.random.default_rng(0)
    for n in [0, 1, 7, 8, 9, 15, 16, 127, 128, 129, 130, 255, 256, 257, 1000, 4097]:
        a = rng.normal(size=n) * 10.0 ** rng.uniform(-4, 4, size=n)
        assert _npsum(a, n) == a.sum()


CASES = [
    # (n, p, y kind, sampler settings)
    (5, 3, "zeros", {"n_trees": 10, "n_burnin": 50, "n_draws": 30}),
    (40, 6, "binary", {"n_trees": 8, "n_burnin": 40, "n_draws": 25, "nu": 1.0}),
    (60, 4, "smooth", {"n_trees": 5, "n_burnin": 30, "n_draws": 20, "split_prior": "depth_exponential"}),
    (50, 5, "smooth", {"n_trees": 6, "n_burnin": 30, "n_draws": 20, "max_depth": 2, "min_samples_leaf": 3}),
    (300, 3, "smooth", {"n_trees": 3, "n_burnin": 20, "n_draws": 10, "sigma2": 0.5, "max_bins": 20}),
    # two features of three levels: children whose cells have no room left (split probability 0 on one side)
    (80, 2, "levels", {"n_trees": 6, "n_burnin": 40, "n_draws": 20, "min_samples_leaf": 1}),
]


@pytest.mark.parametrize(("n", "p", "kind", "settings"), CASES)
def test_compiled_fit_equals_reference_bit_for_bit(n, p, kind, settings):
    rng = np.random.default_rng(n + p)
    X = rng.normal(size=(n, p))
    X[:, 0] = np.round(X[:, 0], 1)  # ties in a feature
    if kind == "levels":
        X = rng.integers(0, 3, size=(n, p)).astype(float)
    y = {"zeros": np.zeros(n), "binary": (rng.random(n) < 0.3).astype(float)}.get(kind)
    if y is None:
        y = np.sin(X[:, 0]) + X[:, 1] + 0.3 * rng.normal(size=n)  # > 128 rows: the pairwise blocks
    ref = BARTSampler(**settings, random_state=11, engine="python").fit(X, y)
    fast = BARTSampler(**settings, random_state=11, engine="numba").fit(X, y)
    for name in _ARRAYS:
        assert np.array_equal(getattr(ref, name), getattr(fast, name)), name
    assert np.array_equal(ref.predict(X), fast.predict(X))
    assert str(ref.acceptance_) == str(fast.acceptance_)


def test_agent_choices_identical_with_either_engine(monkeypatch):
    # a K = 4 classification-style bandit: constant-reward arms go through the BARTSampler fallback
    from icml26.bfts import BFTSAgent

    rng = np.random.default_rng(0)
    X = rng.normal(size=(70, 3))
    label = (X[:, 0] > 0).astype(int) + 2 * (X[:, 1] > 0.5)

    def play() -> tuple[list[int], bool]:
        agent = BFTSAgent(4, 3, n_trees=5, n_burnin=10, min_draws=5, max_draws=10, random_state=2)
        arms, fallback = [], False
        for x, c in zip(X, label, strict=True):
            a = agent.choose(x)
            agent.update(x, a, float(a == c))
            arms.append(a)
            fallback |= any(m.fallback_ is not None for m in agent.models_)
        return arms, fallback

    fast, used_fallback = play()
    assert used_fallback  # some arm's rewards were constant: the BARTSampler path was exercised
    monkeypatch.setattr(bart_mod, "HAVE_NUMBA", False)  # "auto" now resolves to the Python loop
    assert play() == (fast, True)


def test_engine_is_validated():
    with pytest.raises(ValueError, match="engine must be one of"):
        BARTSampler(engine="cuda")
