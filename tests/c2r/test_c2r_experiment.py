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
    assert EXP.cost(resolve_config(EXP, "quick"))[0] <= 240


def _fake_run(config):
    """What run() hands _summarise, with random per-image correctness: every method, protocol and
    extra metric of ``config``."""
    import numpy as np

    from icml26.c2r import experiment as ex

    rng = np.random.default_rng(0)
    methods = [*ex.BASELINES, "c2r", *(ex.ABLATIONS if config["ablations"] else ())]
    metrics = {}
    for ipc in config["ipcs"]:
        per, extra = {}, {}
        for protocol in config["protocols"]:
            for method in methods:
                for _ in range(config["inner_seeds"]):
                    ev = {
                        a: rng.random((config["eval_nets"], 30)) < 0.5 for a in ("clean", *config["attacks"])
                    }
                    if method in ("c2r", "c2r_no_crl") and protocol == "standard":
                        ev |= {q: rng.random((config["eval_nets"], 30)) for q in ("invariance", "margin")}
                    per.setdefault(protocol, {}).setdefault(method, []).append(ev)
        for _ in range(config["inner_seeds"]):
            for method in methods:
                for key in ("cpu_s", "attack_backward", "eta"):
                    extra.setdefault(f"{method}_{key}", []).append(rng.random() + 0.5)
            for key in ("score_hinge_spearman", "clean_hinge_spearman"):
                extra.setdefault(key, []).append(rng.random())
            if config["masking_checks"] and ipc == max(config["ipcs"]):
                for key in ("eps_sweep_largest_rise", "pgd50x3_minus_pgd10", "transfer_minus_whitebox"):
                    extra.setdefault(key, []).append(rng.random() * 0.01)
        metrics |= ex._summarise(per, extra, ipc, config, {"accuracy": []}, 0)
    return metrics, ex._blocked(config)


@pytest.mark.parametrize("profile", ["smoke", "quick", "paper"])
def test_every_test_not_blocked_is_measured_with_an_interval(profile):
    from icml26.common.experiment import verdict

    metrics, blocked = _fake_run(resolve_config(EXP, profile))
    names = {c.name for c in EXP.claims}
    assert set(blocked) <= names  # the blocked list names real tests
    for claim in EXP.claims:
        v = verdict(claim, metrics, blocked, "paper")
        assert v.verdict == "blocked" or not any(
            s in v.reason for s in ("not measured", "no interval", "not finite")
        ), (claim.name, v.reason)
    if profile == "paper":
        assert not {"crl_invariance", "lspgd_matches_pgd", "best_robust_ipc1"} & set(blocked)


def test_masking_checks_run_for_every_seed_with_one_reference_net(tmp_path):
    """The paper profile's masking checks at smoke scale: the two inner seeds share one reference net
    (one unit, named once per run) and the masking figures are measured."""
    record = run_experiment("c2r", "smoke", [0], {"masking_checks": "true"}, out=tmp_path)
    assert record.error is None, record.error
    metrics = json.loads((record.directory / "result.json").read_text())["metrics"]
    for key in ("eps_sweep_largest_rise", "pgd50x3_minus_pgd10", "transfer_minus_whitebox"):
        assert any(k.startswith(key) for k in metrics), key


def test_the_cost_model_grows_with_ipc_and_the_attacks_strength():
    """Evaluation dominates a paper run: an IPC 10 eval net trains on ten times the images, and CW / VMI
    cost far more per test image than FGSM, so the estimate must see both."""
    paper = resolve_config(EXP, "paper")
    at = {ipc: EXP.cost(resolve_config(EXP, "paper", {"ipcs": str(ipc)}))[0] for ipc in (1, 10)}
    assert at[10] > at[1]
    weak = EXP.cost(resolve_config(EXP, "paper", {"attacks": "fgsm"}))[0]
    assert EXP.cost(paper)[0] > 2 * weak
