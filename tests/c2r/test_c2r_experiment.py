"""The C²R experiment end to end at the smoke profile, and its config checks."""

import json

import pytest

from icml26.common.config import resolve_config
from icml26.common.registry import get_experiment
from icml26.common.runner import run_experiment

EXP = get_experiment("c2r")


@pytest.fixture(scope="module")
def smoke(tmp_path_factory):
    record = run_experiment("c2r", "smoke", [0], {}, out=tmp_path_factory.mktemp("runs"))
    assert record.error is None, record.error
    return json.loads((record.directory / "result.json").read_text())


def test_smoke_measures_every_quick_metric_and_judges_every_test(smoke):
    metrics = smoke["metrics"]
    for method in ("random", "dm", "rome", "c2r"):
        assert 0 <= metrics[f"{method}_robust_ipc10"] <= metrics[f"{method}_clean_ipc10"] + 1e-9
        low, high = metrics[f"{method}_robust_ipc10_ci_low"], metrics[f"{method}_robust_ipc10_ci_high"]
        assert low <= metrics[f"{method}_robust_ipc10"] <= high
    assert 0 < metrics["c2r_attack_backward_ipc10"] <= 1.0  # LS-PGD: at most one backward per sample
    assert -1 <= metrics["score_hinge_spearman_ipc10"] <= 1
    verdicts = {c["name"]: c["verdict"] for c in smoke["claims"]}
    assert verdicts["cifar_gain_2_8"] == "blocked" and verdicts["no_aac_ablation"] == "blocked"
    assert verdicts["best_robust_ipc10"] != "blocked"
    ids = {p["id"] for p in smoke["paper_claims"]}
    assert ids == {p.id for p in EXP.paper_claims}


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("eps", "0", "eps"),
        ("eps", "nan", "eps"),
        ("ipcs", "0", "ipcs"),
        ("inner_seeds", "1", "inner_seeds"),
        ("attacks", "pgd10,nope", "attacks"),
        ("protocols", "pgd_at", "protocols must include standard"),
        ("dataset", "cifar10", "dataset"),
        ("eta_grid", "1.5", "eta_grid"),
    ],
)
def test_bad_config_is_rejected_before_the_run(key, value, message):
    with pytest.raises(ValueError, match=message):
        resolve_config(EXP, "quick", {key: value})


def test_every_profile_is_valid_and_quick_fits_its_budget():
    for profile in ("smoke", "quick", "paper"):
        resolve_config(EXP, profile)
    assert EXP.cost(resolve_config(EXP, "quick"))[0] <= 400
