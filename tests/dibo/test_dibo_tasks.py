"""The exact TFBind8 oracle, the landscape exclusion rule and the Ehrlich reimplementation."""

import numpy as np
import pytest

from icml26.dibo import tasks


@pytest.fixture(scope="module")
def six6():
    return tasks.landscape_scores(tasks.EVALUATION_LANDSCAPE)


def test_oracle_has_65536_unique_keys_and_the_design_bench_median(six6):
    assert six6.shape == (65536,) and np.isfinite(six6).all()
    assert np.median(six6) == pytest.approx(0.4393, abs=1e-4)
    assert six6.min() == 0.0 and six6.max() == 1.0


def test_best_design_scores_one_and_reverse_complements_score_equal(six6):
    task = tasks.tfbind8()
    assert task.score(task.encode(["AGGTATCA"]))[0] == 1.0
    rng = np.random.default_rng(0)
    x = rng.integers(4, size=(500, 8))
    revcomp = (3 - x)[:, ::-1]  # A<->T, C<->G, reversed
    np.testing.assert_array_equal(task.score(x), task.score(revcomp))


def test_visible_data_is_below_the_median_and_sorted(six6):
    task = tasks.tfbind8()
    assert len(task.y_offline) == 32768
    assert task.y_offline.max() < np.median(six6)
    assert np.all(np.diff(task.y_offline) >= 0)
    np.testing.assert_array_equal(task.score(task.x_offline), task.y_offline)


def test_bad_designs_are_rejected():
    task = tasks.tfbind8()
    with pytest.raises(ValueError, match="length 8"):
        task.encode(["ACGT"])
    with pytest.raises(ValueError, match="outside the alphabet"):
        task.encode(["ACGTACGN"])
    with pytest.raises(ValueError, match=r"shape \(n, 8\)"):
        task.score(np.zeros((2, 7), dtype=int))
    with pytest.raises(ValueError, match=r"\[0, 4\)"):
        task.score(np.full((1, 8), 4))


def test_landscape_in_pretraining_and_evaluation_is_rejected():
    with pytest.raises(ValueError, match="cannot be both pretrained on and evaluated"):
        tasks.check_pretraining_landscapes(["SIX6_REF_R1"])
    with pytest.raises(
        ValueError, match="cannot be both"
    ):  # the evaluation landscape, whatever `excluded` says
        tasks.check_pretraining_landscapes(["SIX6_REF_R1"], excluded=())
    with pytest.raises(ValueError, match="cannot be both"):
        tasks.check_pretraining_landscapes(["SIX6_H141N_R1"])
    with pytest.raises(ValueError, match="unknown TF-binding landscape"):
        tasks.check_pretraining_landscapes(["NOPE_R1"])
    names = tasks.default_pretraining_landscapes(12)
    assert len(set(names)) == 12 and not any(n.startswith("SIX6") for n in names)


def test_unknown_task_is_rejected():
    with pytest.raises(ValueError, match="unknown task 'tfbind10'; accepted: tfbind8, ehrlich"):
        tasks.get_task("tfbind10")


def test_ehrlich_optimum_scores_one_and_infeasible_is_minus_inf():
    f = tasks.make_ehrlich(num_states=20, dim=32, num_motifs=2, motif_length=8, quantization=8, seed=0)
    # the holo construction: motifs one after another at their offsets, gaps filled by repeats
    x = np.zeros(32, dtype=np.int64)
    pos = 0
    for motif, off in zip(f.motifs, f.offsets, strict=True):
        for j in range(off[-1] + 1):
            k = np.searchsorted(off, j, side="right") - 1
            x[pos] = motif[k]
            pos += 1
    x[pos:] = x[pos - 1]
    assert f(x[None])[0] == 1.0
    bad = np.flatnonzero(f.transitions[x[0]] == 0)
    y = x.copy()
    y[1] = bad[0]
    assert not f.feasible(y[None])[0] and f(y[None])[0] == -np.inf


def test_ehrlich_quantisation_and_feasible_samples():
    f = tasks.make_ehrlich(seed=0)
    x = f.initial_solution(300, np.random.default_rng(1))
    assert f.feasible(x).all()
    h = f.motif_presence(x)
    np.testing.assert_allclose(h * 8, np.round(h * 8))  # multiples of 1/q
    assert np.all(f(x) == h.prod(axis=1))
    with pytest.raises(ValueError, match="quantization must be <= motif_length"):
        tasks.make_ehrlich(motif_length=4, quantization=8)
