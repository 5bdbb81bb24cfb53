"""Shipped weights: one SFT file per quick inner seed, each carrying its recipe hash, refused when stale."""

import numpy as np
import pytest

from icml26.common.config import resolve_config
from icml26.dibo import DiBO, DiBOConfig, shipped, tasks
from icml26.dibo.experiment import EXPERIMENT, _summarise, check


@pytest.fixture(scope="module")
def tf():
    return tasks.tfbind8()


def test_every_shipped_file_loads_with_the_librarys_recipe(tf):
    pre = DiBO(tf).load_shipped("pretrain")
    assert pre.history_["pretrain"]["steps"] == 1000
    digests = set()
    for seed in shipped.SFT_SEEDS["tfbind8"]:
        model = DiBO(tf).load_shipped("sft", seed)
        state = shipped.read(shipped.file_name("mdm_special", "sft", "tfbind8", seed))
        assert state["recipe"]["seed"] == seed and state["recipe"]["parent"] == shipped.pretrained_digest()
        assert (model.history_["adapt"]["steps"], model.history_["sft"]["steps"]) == shipped.SFT_STEPS[
            "tfbind8"
        ]
        digests.add(shipped.weights_digest(state["model"]))
    assert len(digests) == len(shipped.SFT_SEEDS["tfbind8"])  # each seed its own training run
    DiBO(tasks.ehrlich()).load_shipped("sft", 0)


def test_a_stale_recipe_is_refused(tf, monkeypatch):
    monkeypatch.setattr(shipped, "PRETRAIN_RULES", "corruption p=(1-eps)t+eps")
    with pytest.raises(ValueError, match=r"another recipe \(rules"):
        DiBO(tf).load_shipped("pretrain")
    monkeypatch.undo()
    monkeypatch.setattr(shipped, "SFT_STEPS", {**shipped.SFT_STEPS, "tfbind8": (200, 599)})
    with pytest.raises(ValueError, match="sft_steps: file 600, library 599"):
        DiBO(tf).load_shipped("sft", 1)


def test_a_file_trained_from_other_pretrained_weights_is_refused(tf, monkeypatch):
    shipped.pretrained_digest.cache_clear()
    monkeypatch.setattr(shipped, "pretrained_digest", lambda kind="mdm_special": "0" * 16)
    with pytest.raises(ValueError, match="parent"):
        DiBO(tf).load_shipped("sft", 0)


def test_sft_weights_of_another_task_or_seed_are_refused(tf):
    with pytest.raises(
        ValueError, match="task: file 'tfbind8:SIX6_REF_R1', library 'tfbind8:FOXC1_F112S_R1'"
    ):
        DiBO(tasks.tfbind8("FOXC1_F112S_R1")).load_shipped("sft", 0)
    with pytest.raises(ValueError, match=r"seed\(s\) \[0, 1, 2\], got 3"):
        DiBO(tf).load_shipped("sft", 3)
    with pytest.raises(ValueError, match=r"seed\(s\) \[0\], got 1"):
        DiBO(tasks.ehrlich()).load_shipped("sft", 1)
    with pytest.raises(ValueError, match="stage must be one of"):
        DiBO(tf).load_shipped("rl")


def test_a_tampered_recipe_fails_its_hash():
    name = shipped.file_name("mdm_special", "sft", "tfbind8", 0)
    state = shipped.read(name)
    expected = dict(state["recipe"])
    shipped.check_recipe(name, state, expected)  # the file as shipped passes
    forged = {**state, "recipe": {**state["recipe"], "sft_steps": 60}}
    with pytest.raises(ValueError, match="no valid recipe hash"):
        shipped.check_recipe(name, forged, expected)


def test_recipe_hash_is_canonical_and_sensitive(tf):
    r = shipped.recipe(DiBOConfig(), "sft", tf, 0, parent="ab")
    assert shipped.recipe_hash(r) == shipped.recipe_hash(dict(reversed(list(r.items()))))
    for key, value in (("seed", 1), ("sft_lr", 1e-3), ("parent", "ac"), ("d_model", 64), ("data", "0")):
        assert shipped.recipe_hash({**r, key: value}) != shipped.recipe_hash(r), key
    assert shipped.recipe(DiBOConfig(sft_lr=1e-3), "sft", tf, 0)["sft_lr"] == 1e-3
    user = tasks.from_data(tf.x_offline, tf.y_offline, tf.score, "ACGT")
    with pytest.raises(ValueError, match="no shipped fine-tuning recipe for task 'user'"):
        shipped.recipe(DiBOConfig(), "sft", user, 0)


def test_sft_weights_for_other_data_under_the_same_name_are_refused(tf):
    y = tf.y_offline.copy()
    y[-1] += 1e-3  # one label changed, the name kept
    same_name = tasks.from_data(tf.x_offline, y, tf.score, "ACGT", name=tf.name)
    assert shipped.task_digest(same_name) != shipped.task_digest(tf)
    with pytest.raises(ValueError, match="data: file"):
        DiBO(same_name).load_shipped("sft", 0)


def test_quick_loads_one_file_per_inner_seed():
    quick = dict(resolve_config(EXPERIMENT, "quick"))
    assert quick["start"] == "sft" and quick["inner_seeds"] == len(shipped.SFT_SEEDS["tfbind8"]) == 3
    with pytest.raises(ValueError, match="one shipped SFT file per inner seed"):
        check({**quick, "inner_seeds": 4})
    check({**quick, "inner_seeds": 4, "start": "pretrain"})  # training from the pretrained file: any number


def test_distinct_fraction_is_the_worst_inner_seeds():
    runs = [{"scores": np.linspace(0, 1, 8), "attempts": 20, "valid": 20},
            {"scores": np.linspace(0, 1, 5), "attempts": 40, "valid": 30}]  # fmt: skip
    m: dict[str, float] = {}
    _summarise("x", runs, m, 8)
    assert m["x_distinct_frac"] == 5 / 8 and m["x_distinct_frac_ci"] == 0.0
    assert m["x_unique"] == 6.5 and m["x_attempts"] == 30.0 and m["x_validity"] == 50 / 60
