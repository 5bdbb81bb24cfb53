"""Issue #47: the RL shuffle, the parser's length rule, best-of-n over seeds, the official corruption rate,
the padding mask, sigma_r, user tasks, known-design filtering, truthful pretraining lists, devices."""

import subprocess
import sys
import warnings

import numpy as np
import pytest
import torch

from icml26.dibo import DiBO, DiBOConfig, tasks
from icml26.dibo.corpus import PAD, TOKEN, Pool, parse_design
from icml26.dibo.experiment import EXPERIMENT, _summarise, check
from icml26.dibo.model import EPS, DiffusionLM, corrupt
from icml26.dibo.tasks import default_pretraining_landscapes

NO_CUDA = not torch.cuda.is_available()


@pytest.fixture(scope="module")
def tf():
    return tasks.tfbind8()


@pytest.fixture(scope="module")
def pool(tf):
    return Pool.of(tf)


def test_negative_rl_items_put_the_higher_design_at_a_uniform_position(pool):
    """The official code shuffles a negative item's seven designs: the higher neighbour h (the prompt's
    maximum) lands at each position with probability 1/7, not always first."""
    items = pool.rl_items(3000, np.random.default_rng(5))
    negative = items["reward"] < 0
    where = np.argmax(pool.y[items["prompt"][negative]], axis=1)
    freq = np.bincount(where, minlength=7) / negative.sum()
    assert negative.sum() > 1300
    assert np.all(np.abs(freq - 1 / 7) < 0.04), freq  # ~1500 items: sd of each frequency ~0.009


def test_parser_refuses_over_long_output():
    dna = [TOKEN[c] for c in "ACGTACGTA"]  # nine letters for a length-8 design
    assert parse_design(np.array(dna), "ACGT", 8) is None
    assert parse_design(np.array([TOKEN["|design-start|"], *dna, TOKEN["|design-end|"]]), "ACGT", 8) is None
    np.testing.assert_array_equal(parse_design(np.array(dna[:8]), "ACGT", 8), [0, 1, 2, 3, 0, 1, 2, 3])


def test_best_of_n_is_the_mean_over_seeds_of_each_seeds_maximum():
    runs = [
        {"scores": np.array([0.1, 0.9, 0.2]), "attempts": 3, "valid": 3},
        {"scores": np.array([0.5, 0.3, 0.4]), "attempts": 4, "valid": 3},
    ]
    m: dict[str, float] = {}
    _summarise("x", runs, m)
    assert m["x_best"] == pytest.approx(0.7)  # (0.9 + 0.5) / 2, not the max over seeds (0.9)
    assert m["x_mean"] == pytest.approx((0.4 + 0.4) / 2)
    assert m["x_validity"] == pytest.approx(6 / 7)


def test_corruption_rate_is_the_official_one_minus_eps_times_t():
    tokens = torch.full((50, 20), 7)
    _, _, p = corrupt(tokens, tokens != PAD, torch.Generator().manual_seed(3))
    t = torch.rand(50, 1, generator=torch.Generator().manual_seed(3))
    torch.testing.assert_close(p, (1 - EPS) * t)  # the official _forward_corrupt: no "+ eps"


@pytest.mark.parametrize("causal", [False, True])
def test_padding_is_never_attended(causal):
    torch.manual_seed(0)
    m = DiffusionLM(d_model=32, n_layers=2, n_heads=2, d_ff=64, causal=causal).eval()
    tokens = torch.randint(2, 30, (3, 12))
    tokens[:, :4] = PAD
    with torch.no_grad():
        before = m(tokens)[:, 4:]
        m.embed.weight[PAD] += torch.randn(32) * 5  # change what a padding position carries
        after = m(tokens)[:, 4:]
    torch.testing.assert_close(before, after)
    assert torch.isfinite(m(tokens)).all()  # a padding row attends to itself: never all keys masked


def test_sigma_r_matches_the_item_construction_from_100k_samples(pool):
    fast = pool.reward_samples(40_000, np.random.default_rng(0))
    slow = pool.rl_items(8000, np.random.default_rng(1))["reward"]
    assert abs(fast.std() - slow.std()) < 0.004  # std of a std over 8000 items ~0.0008
    assert abs((fast > 0).mean() - 0.5) < 0.02
    pool.reward_std()
    assert (100_000, 0) in pool._reward_std  # the official sample size


def test_a_users_unsorted_data_gives_the_same_pool(tf):
    rng = np.random.default_rng(0)
    order = rng.permutation(len(tf.y_offline))
    x, y = tf.x_offline[order], tf.y_offline[order]
    with pytest.raises(ValueError, match="sorted ascending"):
        tasks.Task("mine", "ACGT", 8, tf.score, x, y)
    mine = tasks.from_data(tf.decode(x), y, tf.score, "ACGT", name="mine")
    np.testing.assert_array_equal(mine.y_offline, tf.y_offline)
    assert np.all(np.diff(mine.y_offline) >= 0)
    np.testing.assert_array_equal(Pool(mine).y, Pool.of(tf).y)


def test_bad_tasks_are_refused_with_one_clear_message(tf):
    x, y = tf.x_offline[:600], tf.y_offline[:600]
    with pytest.raises(ValueError, match="alphabet must be 2 to 20 distinct letters"):
        tasks.Task("big", "ACDEFGHIKLMNPQRSTVWYB", 8, tf.score, x, y)
    with pytest.raises(ValueError, match="alphabet must be 2 to 20 distinct letters"):
        tasks.from_data(x, y, tf.score, "ACGU")
    bad = y.copy()
    bad[3] = np.nan
    with pytest.raises(ValueError, match="non-finite labels"):
        tasks.from_data(x, bad, tf.score, "ACGT")
    with pytest.raises(ValueError, match=r"\|y\| < 1000"):
        tasks.Task("huge", "ACGT", 8, tf.score, x, y + 2000)
    with pytest.raises(ValueError, match="fewer than the pool size 500"):
        DiBO(tasks.from_data(x[:120], y[:120], tf.score, "ACGT"))


def test_propose_warns_when_it_finds_fewer_than_n(tf):
    model = DiBO(tf, DiBOConfig(d_model=32, n_layers=1, n_heads=2, d_ff=64, max_attempts=8, prompt_batch=8))
    with pytest.warns(RuntimeWarning, match="fewer than n=64"):
        prop = model.propose(64, 0)
    assert len(prop.x) <= 8


def test_known_designs_are_filtered_only_when_asked(tf):
    model = DiBO(tf, DiBOConfig(max_attempts=256)).load_shipped("sft")
    known = {r.tobytes() for r in tf.x_offline}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        kept = model.propose(32, 0)
        new = model.propose(32, 0, exclude_known=True)
    assert kept.known > 0 and any(r.tobytes() in known for r in kept.x)  # eval.py keeps them
    assert len(new.x) > 0 and not any(r.tobytes() in known for r in new.x)


def test_pretraining_landscapes_report_the_loaded_weights(tf):
    shipped = default_pretraining_landscapes(12)
    model = DiBO(tf, DiBOConfig(n_pretrain_landscapes=3)).load_shipped("pretrain")
    assert model.pretraining_landscapes() == shipped  # the file's, not the config's three
    assert DiBO(tf, DiBOConfig(n_pretrain_landscapes=3)).pretraining_landscapes() != shipped
    prefix = shipped[0].split("_")[0]
    with pytest.raises(ValueError, match="pretrained on a landscape this model excludes"):
        DiBO(tf, DiBOConfig(excluded=("SIX6", prefix))).load_shipped("pretrain")


@pytest.mark.skipif(not NO_CUDA, reason="a CUDA device is present")
def test_cuda_is_refused_where_there_is_none(tf):
    with pytest.raises(ValueError, match="no CUDA device is available"):
        DiBOConfig(device="cuda")
    with pytest.raises(ValueError, match="no CUDA device is available"):
        check({**EXPERIMENT.profiles["smoke"], "device": "cuda"})
    out = subprocess.run(
        [sys.executable, "-m", "icml26", "run", "dibo", "--profile", "smoke", "--set", "device=cuda"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 2, out.stderr[-500:]
    assert "device" in out.stderr and "Traceback" not in out.stderr
    with pytest.raises(ValueError, match="device must be"):
        DiBOConfig(device="tpu")
