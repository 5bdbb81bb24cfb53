"""The runner writes every measurement, keeps partial results on failure, and the report shows them."""

import json

import pytest
import toy_experiment

from icml26.common import Experiment, Result
from icml26.common.report import build_report
from icml26.common.runner import aggregate, run_experiment


def test_run_writes_result_markdown_plots_and_judges_claims(toy, tmp_path):
    record = run_experiment("toy_pi", "smoke", [0, 1], out=tmp_path)
    assert record.error is None
    files = {p.name for p in record.directory.iterdir()}
    assert {
        "result.json",
        "result.md",
        "errors_seed0.png",
        "errors_seed1.png",
        "seed_0.json",
        "seed_1.json",
    } <= files
    result = json.loads((record.directory / "result.json").read_text())
    assert result["config"] == {"n": 4096, "levels": 3} and result["seeds"] == [0, 1]
    assert set(result["per_seed_metrics"]) == {"0", "1"}
    per_seed = [result["per_seed_metrics"][s]["mc_error"] for s in ("0", "1")]
    assert result["metrics"]["mc_error"] == pytest.approx(sum(per_seed) / 2)
    assert (
        result["metrics"]["mc_error_ci_low"]
        < result["metrics"]["mc_error"]
        < result["metrics"]["mc_error_ci_high"]
    )
    verdicts = {c["name"]: c["verdict"] for c in result["claims"]}
    assert verdicts == {
        "qmc_beats_mc": "toy-verified",
        "mc_accuracy": "toy-verified",
        # two seeds that disagree widen the interval to the Student-t one over seeds, which reaches 0
        "impossible": "inconclusive",
    }
    kinds = {c["name"]: (c["kind"], c["scale"]) for c in result["claims"]}
    assert kinds["impossible"] == ("check", "proxy") and kinds["qmc_beats_mc"] == ("paper", "proxy")
    qmc = next(c for c in result["claims"] if c["name"] == "qmc_beats_mc")
    assert qmc["baseline"] == "mc_error" and qmc["interval"][0] < qmc["measured"] < qmc["interval"][1]
    assert (record.directory / "errors_seed1.png").read_bytes()[:4] == b"\x89PNG"
    markdown = (record.directory / "result.md").read_text()
    assert "| the abstract says | verdict | holds in | deciding test | its figure | scale |" in markdown
    assert markdown.index("## What the abstract claims") < markdown.index(
        "## Our checks (not the paper's claims)"
    )


def test_same_seed_gives_the_same_measurement(toy, tmp_path):
    a = run_experiment("toy_pi", "smoke", [3], out=tmp_path).metrics
    b = run_experiment("toy_pi", "smoke", [3], out=tmp_path).metrics
    assert a == b


def test_aggregate_adds_a_confidence_half_width_only_for_several_seeds():
    assert aggregate([{"x": 1.0}]) == {"x": 1.0}
    out = aggregate([{"x": 1.0}, {"x": 3.0}])
    assert out["x"] == 2.0 and out["x_ci"] == pytest.approx(12.706205 * 2**0.5 / 2**0.5)  # t(0.975, 1 dof)
    combined = aggregate([{"x": 2.0, "x_ci": 0.1}, {"x": 2.0, "x_ci": 0.3}])
    assert combined["x_ci_high"] - 2.0 == pytest.approx((0.1**2 + 0.3**2) ** 0.5 / 2)


def _fails_on_seed_one(config, seed):
    if seed == 1:
        raise RuntimeError("diverged")
    return Result(metrics={"x": 1.0})


def test_a_failure_midway_keeps_finished_seeds_and_names_the_error(tmp_path):
    exp = Experiment(
        "fragile", "t", "p", _fails_on_seed_one, {p: {} for p in ("smoke", "quick", "paper")}, ()
    )
    record = run_experiment(exp, "smoke", [0, 1, 2], out=tmp_path)
    assert record.error == "RuntimeError: diverged"
    assert (record.directory / "seed_0.json").is_file()
    assert json.loads((record.directory / "result.json").read_text())["status"] == "failed"
    error = json.loads((record.directory / "error.json").read_text())
    assert error["finished_seeds"] == [0] and "diverged" in (record.directory / "error.txt").read_text()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seeds": []}, "seeds must be integers from 0 to 4294967295"),
        ({"seeds": [-1]}, "seeds must be integers from 0 to 4294967295"),
        ({"seeds": [1, 1]}, "seeds must be distinct"),
        ({"executor": "slurm"}, "unknown executor 'slurm'; accepted: local, ray"),
    ],
)
def test_runner_rejects_bad_arguments_before_running(toy, tmp_path, kwargs, message):
    with pytest.raises(ValueError, match=message):
        run_experiment("toy_pi", "smoke", out=tmp_path, **kwargs)
    assert not (tmp_path / "toy_pi").exists()


def test_unknown_and_unimplemented_methods_are_named(tmp_path):
    with pytest.raises(ValueError, match="unknown method 'nope'; accepted:"):
        run_experiment("nope", "smoke", out=tmp_path)


def test_report_counts_paper_claims_only_and_smoke_runs_not_at_all(toy, tmp_path):
    run_experiment("toy_pi", "smoke", [0], out=tmp_path / "smoke")
    build_report(tmp_path / "smoke", tmp_path / "report_smoke")
    summary = (tmp_path / "report_smoke" / "summary.md").read_text()
    assert "nothing is counted" in summary
    assert "smoke run (not counted)" in summary and "Plumbing check" in summary
    run_experiment("toy_pi", "quick", [0], out=tmp_path / "runs")
    html = build_report(tmp_path / "runs", tmp_path / "report")
    text = html.read_text()
    assert "data:image/png;base64," in text and "toy_pi" in text and "refuted" in text
    assert "Our checks (not the paper&#39;s claims)" in text or "Our checks (not the paper's claims)" in text
    summary = (tmp_path / "report" / "summary.md").read_text()
    # the refuted "impossible" claim is a check: it is listed but not counted with the paper's claims
    assert (
        "of 1 paper: 2 in all: 1 toy-verified, 1 non-discriminating. Their tests: 1 toy-verified" in summary
    )
    assert (
        "| 1 toy-verified, 1 non-discriminating | 1 toy-verified, 1 non-discriminating | 1 refuted |"
        in summary
    )
    for name in ("flow_optimizer", "c2r", "bad_triangles"):
        assert name in summary


def test_report_shows_the_newest_run_and_failures(tmp_path):
    exp = Experiment(
        "fragile", "t", "p", _fails_on_seed_one, {p: {} for p in ("smoke", "quick", "paper")}, ()
    )
    run_experiment(exp, "smoke", [1], out=tmp_path / "runs")
    build_report(tmp_path / "runs", tmp_path / "report")
    assert "Failed: RuntimeError: diverged" in (tmp_path / "report" / "summary.md").read_text()


def test_report_rejects_a_missing_runs_directory(tmp_path):
    with pytest.raises(ValueError, match="does not exist"):
        build_report(tmp_path / "missing", tmp_path / "report")


@pytest.mark.loopback
def test_ray_executor_matches_local_on_two_seeds(toy, tmp_path):
    ray = pytest.importorskip("ray")
    ray.cloudpickle.register_pickle_by_value(toy_experiment)  # test-only module: ship it to the workers
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        remote = run_experiment("toy_pi", "smoke", [0, 1], out=tmp_path, executor="ray")
    finally:
        ray.shutdown()
    local = run_experiment("toy_pi", "smoke", [0, 1], out=tmp_path)
    assert remote.error is None
    assert remote.metrics == local.metrics
    assert remote.claims == local.claims


def _no_control(config, seed):
    return Result(metrics={"x": 0.5, "x_ci": 0.1})


def test_a_control_missing_outside_smoke_warns_naming_the_claim(tmp_path):
    from icml26.common import Claim

    claim = Claim("bounded", "x below 1", "< 1", "x", "<", 1.0, kind="paper", controls=("weak_x",))
    exp = Experiment("ctl", "t", "p", _no_control, {p: {} for p in ("smoke", "quick", "paper")}, (claim,))
    with pytest.warns(UserWarning, match="ctl claim 'bounded': 'weak_x' not measured in profile 'quick'"):
        record = run_experiment(exp, "quick", [0], out=tmp_path)
    assert record.claims[0]["verdict"] == "inconclusive"
    assert record.claims[0]["reason"] == "control 'weak_x' not measured"


def test_the_measurement_is_shown_beside_its_rule_with_a_unit():
    from icml26.common.output import claim_rows, judged

    row = {
        "statement": "beats Adam",
        "paper": "better",
        "kind": "paper",
        "measured": 0.2372,
        "interval": [0.2, 0.3],
        "op": "<",
        "threshold": 1.0,
        "unit": "×",
        "verdict": "toy-verified",
        "baseline": "rastrigin_adam",
        "baseline_label": "Adam multistart",
        "baseline_value": 32.1,
        "controls": {},
    }
    assert judged(row) == "0.2372× < 1× → holds"
    (flat,) = claim_rows([row])
    assert flat["ours"] == "0.2372× [0.2, 0.3]" and flat["strongest baseline"] == "Adam multistart = 32.1"
    seconds = {**row, "measured": 0.002, "unit": "s", "op": "<=", "threshold": 60, "verdict": "refuted"}
    assert judged(seconds) == "0.002 s ≤ 60 s → fails"
    band = {
        **row,
        "measured": 0.85,
        "unit": "",
        "op": "in",
        "threshold": [0.8, 0.97],
        "verdict": "inconclusive",
    }
    assert judged(band) == "0.85 in [0.8, 0.97] → undecided"


def test_two_runs_started_in_one_microsecond_get_two_directories(tmp_path, monkeypatch):
    from datetime import UTC, datetime

    from icml26.common import runner

    instants = iter([datetime(2026, 1, 1, tzinfo=UTC)] * 3 + [datetime(2026, 1, 1, 0, 0, 0, 1, tzinfo=UTC)])

    class Clock:
        @staticmethod
        def now(tz):
            return next(instants)

    monkeypatch.setattr(runner, "datetime", Clock)
    first, second = runner.new_run_dir(tmp_path, "toy"), runner.new_run_dir(tmp_path, "toy")
    assert first.name == "20260101T000000000000Z" and second.name == "20260101T000000000001Z"
    assert first.is_dir() and second.is_dir()
