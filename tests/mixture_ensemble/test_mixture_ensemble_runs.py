"""Runs a user can trust: resumable units, the cost estimate, display names, units, plots, quiet output."""

import dataclasses
import json
import math
import shutil

import pytest

from icml26.common import Result, verdict
from icml26.common.checkpoint import units_in
from icml26.common.runner import result_from_json, run_experiment
from icml26.mixture_ensemble.experiment import EXPERIMENT, cost
from icml26.mixture_ensemble.task import bpe_tokenizer, make_problems

# the units of one smoke run, in the order run() reaches them
UNITS = [
    "exactness_top_k=0",
    "exactness_top_k=2",
    *[f"accuracy_train_member={i}" for i in range(3)],
    *[f"accuracy_member={i}_alone" for i in range(3)],
    *[f"accuracy_n={n}_{name}" for n in (2, 3) for name in ("CE", "ME", "CE_truncated")],
    *[f"gain_train_member={d}" for d in (0, 1)],
    *[f"accuracy_gain_member={d}_alone" for d in (0, 1)],
    "accuracy_gain_CE",
    "accuracy_gain_ME",
    "accuracy_train_bpe_member",
    "accuracy_bpe_member_alone",
    "accuracy_hetero_CE",
    "accuracy_hetero_ME",
    "cache_catch_up",
    *[f"speed_n={n}_batch={b}" for n in (2, 3) for b in (1, 4)],
]
# The quick budget on 2 idle cores (issue #20: at most 4 minutes). This release's quick run was
# measured on 2 cores shared with three other engineers' jobs (docs/methods/mixture_ensemble.md), so
# the estimate is checked against the budget, to be re-measured on a quiet machine.
QUICK_SECONDS = 240
PAPER_SECONDS = 2281  # the previous paper profile's run (2 cores, shared); the new profile is not yet run


def _timing(key: str) -> bool:
    """Wall-clock metrics (tokens per second, speed-ups, their intervals) differ between runs."""
    return "tokens_per_s" in key or key.startswith(("speedup", "ideal_fraction"))


def _same(a: dict[str, float], b: dict[str, float], timing: bool = True) -> list[str]:
    """Keys whose values differ (NaN equals NaN); wall-clock metrics skipped unless ``timing``."""
    assert list(a) == list(b)
    return [
        k
        for k in a
        if (timing or not _timing(k)) and not (a[k] == b[k] or (math.isnan(a[k]) and math.isnan(b[k])))
    ]


def test_units_are_reused_and_give_the_same_metrics(smoke_result, tmp_path, capfd):
    config = dict(EXPERIMENT.profiles["smoke"])
    plain = smoke_result.metrics
    # through the runner (its units live in the run directory until the seed is stored); nothing
    # third-party (tokenizer progress bars, banners) reaches the terminal
    record = run_experiment("mixture_ensemble", "smoke", [0], out=tmp_path / "runs")
    out, err = capfd.readouterr()
    assert (out, err) == ("", "")
    assert record.status == "finished", record.error
    stored = result_from_json(json.loads((record.directory / "seed_0.json").read_text())["result"])
    assert _same(stored.metrics, plain, timing=False) == []

    d = tmp_path / "units"
    with units_in(d) as store:
        first = EXPERIMENT.run(dict(config), 0)
    assert store.computed == UNITS and store.reused == []
    assert _same(first.metrics, plain, timing=False) == []
    with units_in(d) as store:
        second = EXPERIMENT.run(dict(config), 0)
    assert store.reused == UNITS and store.computed == []
    assert _same(second.metrics, first.metrics) == []  # timings too: the speed units were reused
    assert second.tables == first.tables

    # an interrupted run: some units missing; the resumed run computes only those, same metrics
    missing = ["accuracy_train_member=1", "accuracy_n=3_ME", "speed_n=3_batch=1", "speed_n=3_batch=4"]
    for name in missing:
        (d / f"{name}.pkl").unlink()
    with units_in(d) as store:
        resumed = EXPERIMENT.run(dict(config), 0)
    assert store.computed == missing and store.reused == [u for u in UNITS if u not in missing]
    assert _same(resumed.metrics, first.metrics, timing=False) == []
    n2 = [k for k in first.metrics if _timing(k) and "n2" in k]  # reused speed units: same timings
    assert n2 and all(resumed.metrics[k] == first.metrics[k] or math.isnan(first.metrics[k]) for k in n2)
    shutil.rmtree(d)


def test_cost_estimate_matches_the_documented_run_times():
    quick_s, quick_bytes = cost(dict(EXPERIMENT.profiles["quick"]))
    assert QUICK_SECONDS / 3 <= quick_s <= QUICK_SECONDS * 3
    paper_s, _ = cost(dict(EXPERIMENT.profiles["paper"]))
    assert PAPER_SECONDS / 3 <= paper_s <= PAPER_SECONDS * 3
    smoke_s, smoke_bytes = cost(dict(EXPERIMENT.profiles["smoke"]))
    assert smoke_s < 60 and smoke_bytes < quick_bytes < 16 * 2**30
    assert EXPERIMENT.cost is cost


@pytest.mark.parametrize("key", ["exact_samples", "speed_tokens", "train_steps", "test_problems"])
def test_absurd_sizes_are_refused_before_the_run(key, tmp_path):
    config = dict(EXPERIMENT.profiles["smoke"])
    big = {key: config[key] * 10**6}
    seconds, memory = cost({**config, **big})
    assert seconds > 12 * 3600 or memory > 24 * 2**30
    with pytest.raises(ValueError, match="--force"):
        run_experiment(
            dataclasses.replace(EXPERIMENT, schema=None), "smoke", [0], overrides=big, out=tmp_path
        )


def test_force_skips_the_cost_check(tmp_path):
    def reached(config, seed) -> Result:
        raise RuntimeError("the run was reached")

    experiment = dataclasses.replace(EXPERIMENT, schema=None, run=reached)
    big = {"speed_tokens": 6 * 10**6}
    with pytest.raises(ValueError, match="--force"):
        run_experiment(experiment, "smoke", [0], overrides=big, out=tmp_path)
    record = run_experiment(experiment, "smoke", [0], overrides=big, out=tmp_path, force=True)
    assert record.status == "failed" and "the run was reached" in record.error


def test_every_baseline_control_and_context_has_a_display_name():
    keys = {k for c in EXPERIMENT.claims for k in (*c.relative_to, *c.controls, *c.context)}
    assert keys <= set(EXPERIMENT.names), keys - set(EXPERIMENT.names)


def test_units_and_the_plot_name_their_claims(smoke_result):
    claims = {c.name: c for c in EXPERIMENT.claims}
    assert claims["cache_catch_up"].unit == "logit" and "cache_catch_up_original" not in claims
    [plot] = smoke_result.plots
    assert plot.claim == "speed_2_members_paper" and plot.claim in claims
    assert plot.lines == {"paper's lower bound 1.78×": 1.78, "ME = CE": 1.0, "ideal, 2 members": 2.0,
                          "ideal, 3 members": 3.0}  # fmt: skip
    # the reference lines hold the measured speed claims' thresholds, on the plot's own (ratio) scale
    measured = {claims[n].threshold for n in claims if n.startswith("speed_")}
    assert measured == {1.78, 1.0} and measured <= set(plot.lines.values())
    assert verdict(claims["cache_catch_up"], smoke_result.metrics, {}, "smoke").verdict == "toy-verified"


def test_bpe_training_prints_nothing(capfd):
    import numpy as np

    bpe_tokenizer(make_problems(40, np.random.default_rng(0), 0, 10, 10), 40)
    assert capfd.readouterr() == ("", "")
