"""The BBOB transfer test's rule, written out on exact cases (review rv49 of issue 49).

Each test here kills a mutant that passed every other test: IPOP-CMA-ES run twice from a random start
(the centred start dropped), a 90% for a 95% interval, a bootstrap that never draws the last function,
functions drawn independently per training seed (the docstring's "shared by every seed drawn"), ties
within a tolerance, and the experiment's pooled metric built from one training seed twice.
"""

import numpy as np
import pytest
import torch

from icml26.flow_optimizer import bbob, transfer
from icml26.flow_optimizer.bbob import clustered_interval, seed_clustered_interval, transfer_pair, wins
from icml26.flow_optimizer.optimizer import OptimizeResult

D = torch.float64


def test_transfer_pair_runs_ipop_from_a_random_and_from_the_centred_start(monkeypatch):
    """The strongest baseline per pair is IPOP-CMA-ES from *both* starts; each on its own fresh problem."""
    calls = []

    def recorder(f, bounds, budget, seed, start="random"):
        calls.append((start, f.evaluations, budget, seed))
        X = torch.zeros(4, 10, dtype=D)
        fx = f(X)
        return OptimizeResult(X[0].numpy(), float(fx[0]), nfev=4, history=[(4, float(fx[0]))])

    monkeypatch.setattr(bbob, "cma_ipop", recorder)
    out = transfer_pair(3, 2, 10, 64, {}, seed=7)
    assert sorted(c[0] for c in calls) == ["centre", "random"]
    assert all(c[1:] == (0, 64, 7) for c in calls)  # a fresh problem each, the same budget and seed
    assert set(out) == {"cma_ipop", "cma_ipop_centre"}
    assert all(r["counted"] == 4 for r in out.values())


def test_a_precision_at_the_floor_beats_one_just_above_it():
    """Wins and ties are exact comparisons: 1e-8 (solved) against 1.5e-8, and 1 against 1 + 1e-6, are
    wins; the other way round they are losses, not ties; only equal precisions tie."""
    theirs = [np.array([1.5e-8, 1.000001, 1e-8, 1.0, 2.0]), np.array([1.0, 5.0, 1.0, 5.0, 2.0])]
    np.testing.assert_array_equal(
        wins(np.array([1e-8, 1.0, 1.5e-8, 1.000001, 2.0]), theirs), [1.0, 1.0, 0.0, 0.0, 0.5]
    )


def test_function_bootstrap_intervals_are_95_percent_and_reach_every_function():
    """Three functions, the last one won: a draw of it three times (probability 1/27 = 0.037 > 0.025)
    gives a fraction of 1, so the 95% upper bound is 1 (a 90% interval ends at 2/3; a bootstrap that
    never draws the last function ends at 0)."""
    won, fn = np.array([0, 0, 1.0]), np.array([1, 2, 3])
    assert clustered_interval(won, fn, seed=0, n_boot=4000) == (0.0, 1.0)
    assert seed_clustered_interval(won[None], fn, seed=0, n_boot=4000) == (0.0, 1.0)


def test_seed_bootstrap_shares_the_function_draw_across_seeds():
    """Two identical training seeds: the drawn functions are the same for both, so the distribution is
    the one-seed one and still reaches 1 (1/27). Functions drawn independently per seed would average two
    independent draws and reach 1 only with probability 1/729, well below 0.025."""
    won, fn = np.array([[0, 0, 1.0], [0, 0, 1.0]]), np.array([1, 2, 3])
    assert seed_clustered_interval(won, fn, seed=0, n_boot=4000) == (0.0, 1.0)


def test_run_bbob_pools_both_training_seeds_and_checks_the_count(monkeypatch):
    """The experiment's metrics from scripted precisions on two functions x two instances."""
    table = {  # (fid, iid) -> precision per method
        (1, 1): {"flow_mix": 1.0, "flow_mix_s1": 9.0, "flow_mix_stage1": 9.0, "flow_rastrigin_gf": 9.0},
        (1, 2): {"flow_mix": 1.0, "flow_mix_s1": 1.0, "flow_mix_stage1": 9.0, "flow_rastrigin_gf": 9.0},
        (13, 1): {"flow_mix": 9.0, "flow_mix_s1": 2.0, "flow_mix_stage1": 9.0, "flow_rastrigin_gf": 1.0},
        (13, 2): {"flow_mix": 2.5, "flow_mix_s1": 9.0, "flow_mix_stage1": 2.0, "flow_rastrigin_gf": 9.0},
    }
    ipop = {"cma_ipop": 2.0, "cma_ipop_centre": 3.0}  # the better start: 2.0 on every pair
    counted = {"n": 100}

    def scripted(fid, iid, dim, budget, flows, seed):
        row = {**table[(fid, iid)], **ipop}
        return {m: {"precision": p, "nfev": 100, "counted": counted["n"]} for m, p in row.items()}

    monkeypatch.setattr(transfer, "_models", lambda config, seed, models: dict.fromkeys(transfer.FLOWS))
    monkeypatch.setattr(transfer, "transfer_pair", scripted)
    config = {"dim": 10, "budget": 100, "bbob_stride": 12, "bbob_instances": 2}  # f1 and f13
    metrics, rows, _ = transfer.run_bbob(config, 0, {})
    assert len(rows) == 4 and metrics["bbob_pairs"] == 4 and metrics["bbob_n_functions"] == 2
    assert metrics["bbob_win_fraction_flow_mix"] == 0.5  # wins on f1 i1, f1 i2
    assert metrics["bbob_win_fraction_flow_mix_s1"] == 0.375  # wins f1 i2, tie f13 i1
    assert metrics["bbob_win_fraction_flow_mix_seeds"] == pytest.approx((0.5 + 0.375) / 2)
    assert metrics["bbob_win_fraction_flow_mix_stage1"] == 0.125  # one tie
    assert metrics["bbob_win_fraction_flow_rastrigin_gf"] == 0.25
    assert metrics["bbob_win_fraction_flow_mix_vs_cma_ipop"] == 0.5
    assert metrics["bbob_win_fraction_flow_mix_vs_cma_ipop_centre"] == 0.75  # 2.5 < 3 on f13 i2
    won = np.array([[1, 1, 0, 0.0], [0, 1, 0.5, 0]])
    low, high = seed_clustered_interval(won, np.array([1, 1, 13, 13]), 0)
    assert metrics["bbob_win_fraction_flow_mix_seeds_ci_low"] == low
    assert metrics["bbob_win_fraction_flow_mix_seeds_ci_high"] == high
    counted["n"] = 99  # an optimizer that reports other than ioh counted stops the run
    with pytest.raises(RuntimeError, match="reported"):
        transfer.run_bbob(config, 0, {})


def test_run_bbob_states_the_fewest_and_most_evaluations_ipop_used(monkeypatch):
    """IPOP-CMA-ES can stop short of the budget (its last restart does not fit): the record states the
    smallest count beside the largest, over both starts and every pair."""
    used = {(1, 1): (100, 80), (13, 1): (95, 100)}  # (cma_ipop, cma_ipop_centre) evaluations per pair

    def scripted(fid, iid, dim, budget, flows, seed):
        row = {m: (1.0, 100) for m in transfer.FLOWS}
        row |= dict(zip(("cma_ipop", "cma_ipop_centre"), ((2.0, n) for n in used[(fid, iid)])))
        return {m: {"precision": p, "nfev": n, "counted": n} for m, (p, n) in row.items()}

    monkeypatch.setattr(transfer, "_models", lambda config, seed, models: dict.fromkeys(transfer.FLOWS))
    monkeypatch.setattr(transfer, "transfer_pair", scripted)
    config = {"dim": 10, "budget": 100, "bbob_stride": 12, "bbob_instances": 1}  # f1 and f13
    metrics, _, _ = transfer.run_bbob(config, 0, {})
    assert metrics["bbob_nfev_min_cma_ipop"] == 80 and metrics["bbob_nfev_max_cma_ipop"] == 100
    assert metrics["bbob_nfev_max_flow_mix"] == 100
