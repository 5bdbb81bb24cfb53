"""The NeuronCtrl experiment end to end at the smoke profile (shipped weights), and its config checks."""

import json

import pytest

from icml26.common.config import resolve_config
from icml26.common.registry import get_experiment
from icml26.common.runner import run_experiment

EXP = get_experiment("neuronctrl")


@pytest.fixture(scope="module")
def smoke(tmp_path_factory):
    record = run_experiment("neuronctrl", "smoke", [0], {}, out=tmp_path_factory.mktemp("runs"))
    assert record.error is None, record.error
    return json.loads((record.directory / "result.json").read_text())


def test_smoke_measures_every_controller_and_judges_every_test(smoke):
    m = smoke["metrics"]
    for name in ("multi", "distilled", "action_only", "unfiltered", "none", "open", "pi", "cem", "oracle"):
        assert 0 <= m[f"{name}_viol_rate"] <= 1 and m[f"{name}_latency"] >= 0
        assert m[f"{name}_cost_ci_low"] <= m[f"{name}_cost"] <= m[f"{name}_cost_ci_high"]
    assert m["none_energy"] == 0.0 and m["rest_rel_l2"] == 1.0
    assert m["multi_latency"] > m["pi_latency"]
    verdicts = {c["name"]: c["verdict"] for c in smoke["claims"]}
    for name in ("hifi_benchmarks", "rl_not_dominating", "rl_not_dominating_distilled", "dbs_astro_k",
                 "dbs_violations", "astro_k_violations"):  # fmt: skip
        assert verdicts[name] == "blocked"
    assert verdicts["multi_not_dominated"] != "blocked"
    assert {p["id"] for p in smoke["paper_claims"]} == {p.id for p in EXP.paper_claims}


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("benchmark", "dbs", "benchmark"),
        ("episodes", "1", "episodes"),
        ("alpha", "0", "alpha"),
        ("baseline_episodes", "9", "baseline_episodes"),
        ("sweep_steps", "2", "sweep_steps"),
        ("steps", "nan", "steps"),
        ("train_seeds", "9", "train_seeds"),
        ("ppo_timesteps", "100", "sac_timesteps"),
        ("other_benchmarks", "3", "other_benchmarks"),
    ],
)
def test_bad_config_is_rejected_before_the_run(key, value, message):
    with pytest.raises(ValueError, match=message):
        resolve_config(EXP, "quick", {key: value})


def test_every_profile_is_valid_and_quick_fits_its_budget():
    for profile in ("smoke", "quick", "paper"):
        resolve_config(EXP, profile)
    assert EXP.cost(resolve_config(EXP, "quick"))[0] <= 240


def test_smoke_reports_the_scalar_tradeoff_and_the_convergence_premise(smoke):
    from icml26.common.experiment import comparison_key

    m = smoke["metrics"]
    for name in ("multi", "distilled"):
        assert m[f"{name}_scalar"] == pytest.approx(0.0, abs=10) and m[f"{name}_scalar"] >= 0
        if f"{name}_matched_best_scalar" in m:
            key = comparison_key(f"{name}_scalar", f"{name}_matched_best_scalar", "ratio")
            assert (
                m[f"{key}_ci_low"]
                <= m[f"{name}_scalar"] / m[f"{name}_matched_best_scalar"]
                <= m[f"{key}_ci_high"]
            )
    rows = {c["name"]: c for c in smoke["claims"]}
    for name in ("observer_error", "operator_onestep", "distilled_latency"):
        part = (
            {"o": "observer", "d": "distill"}.get(name[0]) if not name.startswith("operator") else "operator"
        )
        if f"{part}_val_plateau" not in m:  # weights without a validation curve: a check, not a refutation
            assert rows[name]["kind"] == "check" and rows[name]["outside_conditions"]
