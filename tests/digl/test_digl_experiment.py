"""The experiment's smoke profile end to end, its config check and its declarations."""

import pytest

from icml26.common.claims import abstract_of
from icml26.digl.claims import BACKGROUND, PAPER_CLAIMS, TESTS
from icml26.digl.experiment import EXPERIMENT, check, cost, short


@pytest.fixture(scope="module")
def smoke():
    return EXPERIMENT.run(dict(EXPERIMENT.profiles["smoke"]), 0)


def test_smoke_measures_every_unblocked_test(smoke):
    for test in EXPERIMENT.claims:
        if test.name in smoke.blocked:
            continue
        for key in (test.metric, *test.relative_to, *test.controls):
            assert key in smoke.metrics, (test.name, key)
    assert set(smoke.blocked) == {
        t.name for t in TESTS if t.name == "suite_superior" or "concept" in t.name or "covariate" in t.name
    }
    assert smoke.metrics["lam0_matches_erm"] == 1.0
    methods = {row["method"] for row in smoke.tables["ood_accuracy"]}
    assert methods == {"ERM", "IRM", "VREx", "GroupDRO", "Coral", "Mixup", "DIGL"}
    assert {row["variant"] for row in smoke.tables["seconds_per_batch"]} == {
        "erm",
        "free_support",
        "bures",
        "sinkhorn",
    }


def test_intervals_are_paired_over_seeds(smoke):
    m = smoke.metrics
    key = "spm09_digl_ood_acc__minus__spm09_erm_ood_acc"
    assert m[key + "_ci_low"] <= m["spm09_digl_ood_acc"] - m["spm09_erm_ood_acc"] <= m[key + "_ci_high"]
    assert m["spm09_digl_ood_acc_ci"] >= 0


def test_config_check_rejects_bad_settings():
    quick = dict(EXPERIMENT.profiles["quick"])
    check(quick)
    for change, message in [
        ({"splits": ["good_motif_size"]}, "unknown split"),
        ({"methods": ["erm", "vrex"]}, "methods must include digl"),
        ({"seeds": 1}, "seeds must be an integer >= 2"),
        ({"grid_digl": [-1.0]}, "grid_digl must be a non-empty list"),
        ({"sweep_seeds": 3}, "sweep_seeds must be <= seeds"),
        ({"device": "tpu"}, "device"),
    ]:
        with pytest.raises(ValueError, match=message):
            check({**quick, **change})
    assert (
        cost(dict(EXPERIMENT.profiles["paper"]))[0]
        > cost(quick)[0]
        > cost(dict(EXPERIMENT.profiles["smoke"]))[0]
    )


def test_declarations_quote_the_abstract():
    text = abstract_of("digl")
    assert all(" ".join(p.quote.split()) in text for p in PAPER_CLAIMS)
    assert all(" ".join(b.quote.split()) in text for b in BACKGROUND)
    assert short("spurious_motif_0.9") == "spm09" and short("good_motif_concept") == "concept"
