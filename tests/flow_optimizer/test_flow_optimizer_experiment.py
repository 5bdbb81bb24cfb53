"""The experiment at the smoke profile: structure, sanity, config checks."""

import math

import pytest
import torch

from icml26.common import verdict
from icml26.common.config import resolve_config
from icml26.flow_optimizer.experiment import EXPERIMENT


@pytest.fixture(scope="module")
def smoke():
    return EXPERIMENT.run(dict(EXPERIMENT.profiles["smoke"]), 0)


def test_smoke_result_structure(smoke):
    cfg = EXPERIMENT.profiles["smoke"]
    d, big = cfg["dim"], cfg["dim"] * cfg["zero_shot_factor"]
    for key in (
        f"rastrigin{d}_flow",
        f"rastrigin{d}_flow_stage1",
        f"rastrigin{d}_cma",
        f"ackley{big}_adam",
        f"rastrigin{d}_l2o",
        f"ackley{big}_l2o",
        "flow_over_l2o_rastrigin",
        "train_seconds_l2o_ackley",
    ):
        assert key in smoke.metrics
    for claim in EXPERIMENT.claims:
        if claim.name in smoke.blocked:
            continue
        assert claim.metric in smoke.metrics, claim.name
        v = verdict(claim, smoke.metrics, smoke.blocked, "smoke")
        assert v.verdict in ("toy-verified", "refuted", "inconclusive")
    assert all(math.isfinite(v) and v >= 0 for v in smoke.metrics.values())
    assert not smoke.blocked
    opf = smoke.tables["dcopf"]
    assert {r["method"] for r in opf} == {"flow", "cma", "adam"}
    # nothing feasible beats the exact optimum
    assert all(r["mean_gap_percent"] >= -1e-6 or r["max_violation_pu"] > 0 for r in opf)
    assert {p.name for p in smoke.plots} >= {f"best_f_rastrigin{d}", f"best_f_ackley{big}"}
    ik = smoke.tables["ik"]
    links = cfg["ik_links"]
    assert {(r["links"], r["method"]) for r in ik} == {
        (m, meth) for m in (links, links * cfg["zero_shot_factor"]) for meth in ("flow", "cma", "adam")
    }
    assert all(0 <= r["q25"] <= r["median_distance"] <= r["q75"] <= 2.0 for r in ik)  # reach is 1
    assert {p.name for p in smoke.plots} >= {f"distance_ik{links}"}
    rows = smoke.tables["median_best_f"]
    assert rows and set(rows[0]) == {"task", "budget", "method", "median_best_f", "q25", "q75"}
    assert all(r["q25"] <= r["median_best_f"] <= r["q75"] for r in rows)
    for series in smoke.plots[0].series.values():
        ys = series[1]
        assert all(a >= b for a, b in zip(ys, ys[1:]))  # best-so-far never increases


def test_smoke_is_repeatable(smoke):
    again = EXPERIMENT.run(dict(EXPERIMENT.profiles["smoke"]), 0)
    cfg = EXPERIMENT.profiles["smoke"]
    for key in (f"rastrigin{cfg['dim']}_flow", f"ackley{cfg['dim']}_cma"):
        assert again.metrics[key] == smoke.metrics[key]


def test_check_rejects_bad_configs():
    base = dict(EXPERIMENT.profiles["quick"])
    with pytest.raises(ValueError, match="'budget' must be a positive integer"):
        EXPERIMENT.check({**base, "budget": 0})
    with pytest.raises(ValueError, match="budgets must be at least the population size"):
        EXPERIMENT.check({**base, "budget_small": 10})
    with pytest.raises(ValueError, match="unknown baselines"):
        EXPERIMENT.check({**base, "baselines": "cma,adam,pso"})
    with pytest.raises(ValueError, match="must include 'cma' and 'adam'"):
        EXPERIMENT.check({**base, "baselines": "de"})
    with pytest.raises(ValueError, match="pretrained weights exist for dim=10 only"):
        EXPERIMENT.check({**base, "dim": 5})
    with pytest.raises(ValueError, match="pretrained IK weights exist for ik_links=10 only"):
        EXPERIMENT.check({**base, "ik_links": 5})
    with pytest.raises(ValueError, match="'l2o_iterations' must be an integer >= 0"):
        EXPERIMENT.check({**base, "l2o_iterations": -1})
    with pytest.raises(ValueError, match="'dcopf_case' must be one of"):
        EXPERIMENT.check({**base, "dcopf_case": "case57"})
    for profile in ("smoke", "quick", "paper"):
        EXPERIMENT.check(dict(EXPERIMENT.profiles[profile]))


def test_device_key_defaults_to_cpu_and_rejects_missing_gpu():
    assert resolve_config(EXPERIMENT, "smoke")["device"] == "cpu"
    if torch.cuda.device_count() > 7:
        pytest.skip("this machine has a GPU cuda:7")
    with pytest.raises(ValueError, match=r"device 'cuda:7' is not available here; accepted: cpu"):
        resolve_config(EXPERIMENT, "smoke", {"device": "cuda:7"})
