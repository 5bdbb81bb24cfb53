"""The experiment's smoke profile and the GIN baseline run end to end."""

import numpy as np
import pytest

from icml26.exact_gnn import compile_algorithm, random_bounded_graph
from icml26.exact_gnn.experiment import EXPERIMENT, _rate, check, paired_binary_difference_ci


def test_gin_baseline_trains_and_runs() -> None:
    pytest.importorskip("torch_geometric")
    from icml26.exact_gnn.baselines import run_gin, train_gin

    rng = np.random.default_rng(0)
    p = compile_algorithm("flooding", 1, 2)
    graphs = [random_bounded_graph(6, 2, rng) for _ in range(4)]
    inputs = [{"source": 0, "message": 1}] * 4
    model, record = train_gin(p, (graphs[:3], inputs[:3]), (graphs[3:], inputs[3:]), epochs=4, check_every=2)
    assert 0.0 <= record["val_exact_step_rate"] <= 1.0 and record["selected_epoch"] in (2.0, 4.0)
    assert isinstance(run_gin(model, p, graphs[0], inputs[0]), bool)


def test_smoke_run_measures_every_claim() -> None:
    config = dict(EXPERIMENT.profiles["smoke"])
    result = EXPERIMENT.run(config, 0)
    for claim in EXPERIMENT.claims:
        if claim.name in result.blocked:
            continue
        for key in (claim.metric, *claim.relative_to, *claim.controls):
            assert key in result.metrics, (claim.name, key)
    assert result.metrics["ntk_exact_rate"] == 1.0 and result.metrics["max_aggregated_message"] <= 1.0
    assert set(result.blocked) == {"dfs_exact"}
    assert result.metrics["ntk_proof_flooding_margin"] > 1e-10  # the exhausted proof at (l=1, D=2)


def test_config_check() -> None:
    config = dict(EXPERIMENT.profiles["quick"])
    check(config)
    with pytest.raises(ValueError, match="degrees must be within"):
        check({**config, "degrees": [4]})
    with pytest.raises(ValueError, match="algo_n_max <= 12"):
        check({**config, "algo_n_max": 20})
    with pytest.raises(ValueError, match="device"):
        check({**config, "device": "cuda:7"})


def test_binary_intervals_do_not_collapse() -> None:
    low, high = paired_binary_difference_ci([False] * 20, [False] * 20)
    assert low < 0 < high and high - low > 0.1  # 0/20 vs 0/20 is not evidence of "no change"
    low, high = paired_binary_difference_ci([True] * 20, [False] * 20)
    assert 0.7 < low < 1.0 and high == 1.0
    low, high = paired_binary_difference_ci([True, False] * 10, [True, False] * 10)
    assert low < 0 < high
    with pytest.raises(ValueError, match="equally many pairs"):
        paired_binary_difference_ci([True], [True, False])
    metrics: dict[str, float] = {}
    _rate([False] * 20, "r", metrics)
    assert metrics["r"] == 0.0 and metrics["r_ci_low"] == 0.0 and 0.1 < metrics["r_ci_high"] < 0.2  # Wilson


def test_first_designs_and_original_intervals_are_revisions() -> None:
    """The binary-clock BFS, the one-check ablation and the Student-t intervals live as Revisions."""
    tests = {c.name: c for c in EXPERIMENT.claims}
    assert not {"bfs_exact_binary_clock", "ablations_fail", "curve_m4_t_interval"} & set(tests)
    clock = tests["bfs_exact"].revisions[0]
    assert clock.verdict == "refuted" and "binary" in clock.old
    assert "bfs_binary_clock_exact_rate" in tests["bfs_exact"].shown
    assert {tests[f"curve_m{m}"].revisions[0].verdict for m in (4, 16, 64)} == {
        "toy-verified",
        "inconclusive",
    }


def test_claims_say_what_they_test() -> None:
    """NTK-mean tests are checks of the infinite-width limit; below-condition ensembles are checks; the
    official recipe is the paper test, with the paper's width, member cap and epochs as preconditions."""
    tests = {c.name: c for c in EXPERIMENT.claims}
    for name in ("ntk_flooding_exact", "bfs_exact", "bellman_ford_exact", "ntk_proof_flooding"):
        assert (
            tests[name].kind == "check" and "infinite-width" in tests[name].statement + tests[name].scale_note
        )
    for name in ("ntk_flooding_exact", "bfs_exact", "bellman_ford_exact", "finite_ensemble_l1"):
        assert any(r.old.startswith("kind paper") for r in tests[name].revisions), name
    assert tests["finite_ensemble_l1"].kind == "check"
    paper = tests["finite_paper_scale"]
    assert paper.kind == "paper" and dict((k, v) for k, _, v in paper.requires) == {
        "official_width": 42_000,
        "official_max_members": 300,
        "official_epochs": 7000,
        "official_graphs": 1000,
    }
    from icml26.common.claims import conditions_unmet

    assert conditions_unmet(paper.requires, EXPERIMENT.profiles["quick"])  # quick is a check
    assert conditions_unmet(paper.requires, EXPERIMENT.profiles["paper"])  # CPU paper: one member
    gpu = {**EXPERIMENT.profiles["paper"], "official_max_members": 300, "official_graphs": 1000}
    assert not conditions_unmet(paper.requires, gpu)
    assert conditions_unmet(paper.requires, {**gpu, "official_graphs": 999})  # 0.999 needs >= 1000 graphs


def test_quick_budget_by_the_cost_model() -> None:
    seconds, _ = EXPERIMENT.cost(dict(EXPERIMENT.profiles["quick"]))
    assert seconds <= 200  # a clear margin under the 4-minute quick budget
