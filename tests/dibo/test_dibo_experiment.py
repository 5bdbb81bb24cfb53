"""The experiment: the smoke profile end to end, config checks, shipped weights."""

import pytest

from icml26.common.config import resolve_config
from icml26.dibo import DiBO, DiBOConfig, tasks
from icml26.dibo.experiment import EXPERIMENT, check


@pytest.fixture(scope="module")
def smoke():
    return EXPERIMENT.run(dict(resolve_config(EXPERIMENT, "smoke")), 0)


def test_smoke_measures_every_claim_it_does_not_block(smoke):
    missing = [
        (c.name, key)
        for c in EXPERIMENT.claims
        if c.name not in smoke.blocked
        for key in (c.metric, *c.relative_to, *c.controls)
        if key not in smoke.metrics
    ]
    assert not missing
    assert set(smoke.blocked) >= {"tfbind10_vs_ar", "ant_vs_ar", "dkitty_vs_ar", "diffusion_vs_ar"}


def test_smoke_values_are_in_range(smoke):
    m = smoke.metrics
    for key in ("tf_mean", "tf_best", "random_tf_mean", "ridge_tf_mean", "tf_validity", "eh_feasible"):
        assert 0.0 <= m[key] <= 1.0, key
    assert m["tf_best"] >= m["tf_mean"]
    assert m["ridge_tf_mean_ci"] == 0.0
    assert m["random_eh_feasible"] < 0.2  # random Ehrlich sequences are almost never feasible


def test_bad_configs_are_rejected():
    cfg = dict(resolve_config(EXPERIMENT, "quick"))
    with pytest.raises(ValueError, match="start"):
        check({**cfg, "start": "scratch"})
    with pytest.raises(ValueError, match="ablations retrain every stage"):
        check({**cfg, "start": "sft", "ablations": True})
    with pytest.raises(ValueError, match="inner_seeds"):
        check({**cfg, "inner_seeds": 0})
    with pytest.raises(ValueError, match="max_attempts and ehrlich_max_attempts must be >= n_candidates"):
        check({**cfg, "max_attempts": 10})


def test_shipped_weights_load_and_refuse_a_mismatched_model():
    model = DiBO(tasks.tfbind8()).load_shipped("sft")
    assert {"pretrain", "adapt", "sft"} <= set(model.history_)
    other = DiBO(tasks.tfbind8(), DiBOConfig(markers="natural"))
    with pytest.raises(FileNotFoundError, match="no shipped weights"):
        other.load_shipped("sft")
    with pytest.raises(ValueError, match="markers"):
        other.load_weights(model.state_dict())


def test_smoke_inner_seeds_start_from_their_own_shipped_files(smoke):
    rows = smoke.tables["tfbind8_weights"]
    assert [r["file"] for r in rows] == [f"tfbind8_sft_mdm_special_seed{k}.pt" for k in range(len(rows))]
    assert len({r["recipe hash"] for r in rows}) == len(rows)
