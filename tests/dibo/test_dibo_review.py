"""Mends of the third-pass review: the pool cache, label resolution, the interval over inner seeds."""

import warnings

import numpy as np
import pytest
import torch

from icml26.common import ci95
from icml26.dibo import DiBO, DiBOConfig, tasks
from icml26.dibo.corpus import MASK, TOKEN, VOCAB, Pool
from icml26.dibo.decoding import fill_remasking
from icml26.dibo.experiment import _interval
from icml26.dibo.model import warmup_constant

_TINY = {"d_model": 16, "n_layers": 1, "n_heads": 2, "d_ff": 32}


def _user_task(x_seed: int, scale: float = 1.0):
    rng = np.random.default_rng(x_seed)
    x = rng.integers(6, size=(800, 10))
    y = np.linspace(0.0, 1.0, 800) * scale  # the same labels for every x_seed
    return tasks.from_data(x, y, lambda d: np.zeros(len(d)), "ACDEFG")


def test_tasks_with_the_same_labels_but_other_designs_get_their_own_pool():
    t1, t2 = _user_task(1), _user_task(2)
    assert t1.name == t2.name and np.array_equal(t1.y_offline, t2.y_offline)
    p1, p2 = Pool.of(t1), Pool.of(t2)
    assert p1 is not p2 and p2.task is t2 and not np.array_equal(p1.x, p2.x)
    assert Pool.of(_user_task(1)) is p1  # the same data again: the cached pool
    assert DiBO(t2, DiBOConfig(**_TINY)).pool.task is t2


def test_labels_that_lose_their_resolution_in_the_prompt_text_warn():
    with pytest.warns(RuntimeWarning, match=r"only 2 once written with 3 decimals"):
        DiBO(_user_task(3, scale=1e-3), DiBOConfig(**_TINY))
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        DiBO(_user_task(3), DiBOConfig(**_TINY))  # labels in [0, 1]: 500 distinct, written distinct
        DiBO(tasks.tfbind8(), DiBOConfig(**_TINY))  # 500 distinct, 269 written: no warning


def test_the_interval_over_three_or_more_inner_seeds_carries_their_spread():
    pooled = np.random.default_rng(0).normal(0.5, 0.01, size=384)  # candidates: narrow
    spread = [0.2, 0.5, 0.8]  # the inner seeds disagree
    assert _interval(spread, pooled) == pytest.approx(ci95(spread)) and ci95(spread) > 10 * ci95(pooled)
    agree = [0.5, 0.5001, 0.4999]
    assert _interval(agree, pooled) == pytest.approx(ci95(pooled))  # never narrower than the pooled one
    assert _interval(spread[:2], pooled) == pytest.approx(ci95(pooled))  # two seeds: pooled only (smoke)


def test_from_data_keeps_each_design_with_its_label():
    tf = tasks.tfbind8()
    order = np.random.default_rng(1).permutation(len(tf.y_offline))
    mine = tasks.from_data(tf.decode(tf.x_offline[order]), tf.y_offline[order], tf.score, "ACGT", name="mine")
    np.testing.assert_allclose(mine.score(mine.x_offline), mine.y_offline)  # rows moved with their labels
    pool = Pool(mine)  # ties (reverse complements score equal) may reorder designs, never unpair them
    np.testing.assert_allclose(mine.score(pool.x), pool.y)


def test_from_data_names_bad_designs_and_labels():
    score = lambda d: np.zeros(len(d))  # noqa: E731
    with pytest.raises(ValueError, match="y must be numeric labels"):
        tasks.from_data(np.zeros((3, 4), dtype=int), ["a", "b", "c"], score, "ACGT")
    with pytest.raises(ValueError, match="x must be design strings or an"):
        tasks.from_data([[0, 1], [0, 1, 2]], [0.0, 1.0], score, "ACGT")


def test_negative_rl_items_have_the_exact_expected_reward():
    pool = Pool.of(tasks.tfbind8())
    expected = np.mean(
        [np.mean(pool.norm(pool.y[j]) - pool.norm(pool.y[pool.higher[j]])) for j in pool.rl_anchors]
    )
    rewards = pool.rl_items(6000, np.random.default_rng(0))["reward"]
    neg = rewards[rewards < 0]
    assert abs(neg.mean() - expected) < 4 * neg.std() / np.sqrt(
        len(neg)
    )  # the higher design is the prompt's max


def test_improvement_neighbours_have_strictly_lower_labels_where_labels_tie():
    pool = Pool.of(tasks.ehrlich())  # 7 distinct labels over 500 designs: ties everywhere
    assert len(np.unique(pool.y)) < 20
    for j, nb in pool.neighbours.items():
        assert np.all(pool.y[nb] < pool.y[j]) and np.all(nb < j)


class _Confident(torch.nn.Module):
    """Predicts token ``tok`` at every position with confidence rising along the sequence."""

    def __init__(self, tok: int, length: int):
        super().__init__()
        self.tok, self.seen = tok, []
        self.logit = torch.linspace(0.0, 5.0, length)

    def forward(self, tokens):
        self.seen.append(tokens.clone())
        out = torch.zeros(*tokens.shape, len(VOCAB))
        out[..., self.tok] = self.logit[: tokens.shape[1]]
        return out


def test_remasking_commits_the_most_confident_positions_first():
    tokens = torch.full((1, 12), TOKEN["A"])
    span = torch.arange(4, 12)
    stub = _Confident(TOKEN["C"], 12)
    out = fill_remasking(stub, tokens, span, steps=len(span))
    assert torch.all(out == TOKEN["C"])
    second = stub.seen[1][0, span]  # after one step: only the most confident (last) position is filled
    assert second[-1] == TOKEN["C"] and torch.all(second[:-1] == MASK)


def test_warmup_is_linear_from_the_first_step():
    assert warmup_constant(0, 4) == 0.25 and warmup_constant(3, 4) == 1.0 and warmup_constant(9, 4) == 1.0
    assert warmup_constant(0, 0) == 1.0
