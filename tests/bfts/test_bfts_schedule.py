"""The refresh schedule, the draw queue and the warm start: exact, counted cases."""

import math

import numpy as np
import pytest

from icml26.bfts import (
    BFTSAgent,
    DrawQueue,
    draws_needed,
    refit_times,
    refresh_fires,
    refresh_index,
    steps_until_next_refresh,
    synthetic_environment,
    warm_start_arms,
)


def test_log_schedule_fires_exactly_when_ceil_8_ln_t_increments():
    for t in range(2, 5001):
        expected = math.ceil(8 * math.log(t)) > math.ceil(8 * math.log(t - 1))
        assert refresh_fires(t, "log") == expected, t


def test_37_refits_by_t_1000_for_two_arms():
    times = refit_times(1000, warm_start=10)
    # the initial fit at the end of the K*5 = 10 warm-start rounds, then 37 refits
    assert times[0] == 10
    assert len(times) - 1 == 37
    assert all(refresh_fires(t) for t in times[1:])


def test_every_schedule_is_normalized_to_about_56_refits_by_10k():
    for schedule in ("log", "sqrt", "hybrid", "rev_hybrid"):
        assert 54 <= len(refit_times(10_000, 10, schedule)) <= 58, schedule


def test_agent_refits_exactly_on_the_schedule():
    env = synthetic_environment("friedman1", 1000, np.random.default_rng(0))
    agent = BFTSAgent(2, 10, n_trees=1, n_burnin=0, min_draws=1, max_draws=1, random_state=0)
    for t in range(env.horizon):
        x = env.X[t]
        agent.update(x, agent.choose(x), env.reward(t, 0, np.random.default_rng(t)))
    assert agent.fit_times_ == refit_times(1000, 10)
    assert len(agent.fit_times_) - 1 == 37


def test_steps_and_draws_until_next_refresh():
    t = 500
    steps = steps_until_next_refresh(t)
    assert refresh_fires(t + steps) and not any(refresh_fires(t + s) for s in range(1, steps))
    # the official agent keeps (choices per round + 1) x steps draws, within [100, 500]
    assert draws_needed(t, min_draws=1, max_draws=10_000) == 2 * steps
    assert draws_needed(t, min_draws=1, max_draws=10_000, choices_per_round=3) == 4 * steps
    assert draws_needed(t, min_draws=100, max_draws=500) == 100  # 19 steps: 38, clipped up
    assert draws_needed(968, min_draws=100, max_draws=500) == 258  # the last refit before t = 1000
    assert draws_needed(968, min_draws=100, max_draws=200) == 200  # at the cap


def test_queue_never_repeats_before_exhaustion():
    q = DrawQueue(50, np.random.default_rng(0))
    first = [q.pop() for _ in range(50)]
    second = [q.pop() for _ in range(50)]
    assert sorted(first) == list(range(50)) and sorted(second) == list(range(50))
    assert q.reshuffles == 1


def test_warm_start_is_k_times_5_permutations():
    arms = warm_start_arms(4, 5, np.random.default_rng(1))
    assert arms.shape == (20,)
    for block in arms.reshape(5, 4):
        assert sorted(block) == [0, 1, 2, 3]


def test_bad_inputs_are_rejected():
    with pytest.raises(ValueError, match="positive integer"):
        refresh_index(0)
    with pytest.raises(ValueError, match="schedule must be one of"):
        refresh_index(5, "cubic")
    with pytest.raises(ValueError, match="n_draws must be a positive integer"):
        DrawQueue(0, np.random.default_rng(0))
    with pytest.raises(ValueError, match="warm_start <= horizon"):
        refit_times(5, 10)
    with pytest.raises(ValueError, match="min_draws <= max_draws"):
        draws_needed(10, min_draws=5, max_draws=2)
