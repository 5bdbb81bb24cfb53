"""Cost estimate, display names and statements formatted from the config (no experiment runs)."""

import dataclasses
import os

import pytest

from icml26.common import Result
from icml26.common.config import resolve_config
from icml26.common.runner import MAX_SECONDS, run_experiment
from icml26.flow_optimizer.experiment import EXPERIMENT, NAMES, cost

QUICK_SECONDS = 182  # the quick run of 2026-12-01 (docs/methods/flow_optimizer.md, 2 shared cores)
RAM = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def test_quick_estimate_is_near_the_documented_time():
    seconds, memory = cost(dict(EXPERIMENT.profiles["quick"]))
    assert QUICK_SECONDS / 3 <= seconds <= QUICK_SECONDS * 3
    assert 2**29 <= memory <= 4 * 2**30
    smoke, _ = cost(dict(EXPERIMENT.profiles["smoke"]))
    assert smoke < 60
    # more work costs more
    assert cost(dict(EXPERIMENT.profiles["paper"]))[0] > seconds
    assert cost({**EXPERIMENT.profiles["quick"], "pretrained": False, "stage1_iterations": 600})[0] > seconds


@pytest.mark.filterwarnings("ignore:flow_optimizer claim")  # the fake run measures nothing
@pytest.mark.parametrize(
    ("profile", "overrides"),
    [
        ("quick", {"n_instances": 20 * 10**6}),
        ("quick", {"budget": 3200 * 10**6}),
        ("smoke", {"dim": 3 * 10**6}),
    ],
)
def test_absurd_sizes_are_refused_unless_forced(profile, overrides, tmp_path):
    seconds, memory = cost(resolve_config(dataclasses.replace(EXPERIMENT, schema=None), profile, overrides))
    assert seconds > MAX_SECONDS or memory > RAM
    with pytest.raises(ValueError, match="--force"):
        run_experiment(dataclasses.replace(EXPERIMENT, schema=None), profile, [0], overrides, out=tmp_path)
    assert not any(tmp_path.iterdir())  # refused before anything ran or was written
    seen = []
    fake = dataclasses.replace(
        EXPERIMENT, schema=None, run=lambda config, seed: seen.append(config) or Result()
    )
    run = run_experiment(fake, profile, [0], overrides, out=tmp_path, force=True)
    assert run.error is None and len(seen) == 1
    assert all(seen[0][k] == v for k, v in overrides.items())


def test_every_baseline_control_and_context_has_a_display_name():
    keys = {k for c in EXPERIMENT.claims for k in (*c.relative_to, *c.controls, *c.context)}
    assert set(EXPERIMENT.names) == keys == set(NAMES)
    assert EXPERIMENT.names["rastrigin_cma_ipop"] == "IPOP-CMA-ES"
    assert EXPERIMENT.names["ackley_zero_shot_cma"] == "CMA-ES"
    assert EXPERIMENT.names["dcopf_max_violation_pu"] == "FlowOptimizer max violation"
    assert all("_" not in name for name in EXPERIMENT.names.values())


def test_statements_show_the_settings_that_ran():
    claims = {c.name: c for c in EXPERIMENT.claims}
    smoke, quick = EXPERIMENT.profiles["smoke"], EXPERIMENT.profiles["quick"]
    assert "Rastrigin-3 of the wide class" in claims["orders_rastrigin10"].describe(smoke)
    assert "at 64 evaluations" in claims["orders_rastrigin10"].describe(smoke)
    assert "h the box half-width) at 3200 evaluations" in claims["orders_rastrigin10"].describe(quick)
    assert "DC-OPF (case9, loads x U[0.8, 1.2])" in claims["dcopf_gap"].describe(smoke)
    assert "supply chain 4x5" in claims["sc_outperforms"].describe(quick)
    for c in EXPERIMENT.claims:  # no setting written out that a profile changes (stored: a past setting)
        if c.stored:
            continue
        assert not any(s in c.statement for s in ("3,200", "1,280", "case118", "-100", "4x5")), c.name
    assert {c.name: c.unit for c in EXPERIMENT.claims if c.unit} == {
        "dcopf_gap": "%",
        "dcopf_violation": "p.u.",
        "dcopf_outperforms": "pp",
    }
