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
    assert set(result.blocked) == {"finite_paper_scale", "dfs_exact"}


def test_config_check() -> None:
    config = dict(EXPERIMENT.profiles["quick"])
    check(config)
    with pytest.raises(ValueError, match="degrees must be within"):
        check({**config, "degrees": [4]})
    with pytest.raises(ValueError, match="algo_n_max <= 12"):
        check({**config, "algo_n_max": 20})


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
    (clock,) = tests["bfs_exact"].revisions
    assert clock.verdict == "refuted" and "binary" in clock.old
    assert "bfs_binary_clock_exact_rate" in tests["bfs_exact"].shown
    assert {tests[f"curve_m{m}"].revisions[0].verdict for m in (4, 16, 64)} == {
        "toy-verified",
        "inconclusive",
    }
    assert tests["finite_ensemble_l1"].requires == (("width", ">=", 42_000),)  # the paper's width, l=1 D=2
