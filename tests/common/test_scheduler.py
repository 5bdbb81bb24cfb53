"""Running many methods at once: declared resources, Ray tasks per (method, seed), local processes."""

from __future__ import annotations

import dataclasses
import json
import time

import pytest
import toy_experiment

from icml26.cli import main
from icml26.common import Resources, registry
from icml26.common import scheduler as sched
from icml26.common.report import build_report
from icml26.common.runner import local_threads, prepare_run, run_experiment

TOYS = (toy_experiment.EXPERIMENT, toy_experiment.EXPERIMENT_B, toy_experiment.EXPERIMENT_FAILING)


@pytest.fixture
def toys():
    for exp in TOYS:
        registry.register(exp)
    yield
    for exp in TOYS:
        registry.unregister(exp.method)


def metrics_of(directory) -> dict[str, float]:
    return json.loads((directory / "result.json").read_text())["metrics"]


def assert_same_metrics(a: dict[str, float], b: dict[str, float]) -> None:
    assert a.keys() == b.keys()
    for key in a:
        assert abs(a[key] - b[key]) <= 1e-12, key


# ------------------------------------------------------------------------------------ declarations


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"cpus": 0}, "cpus must be an integer >= 1, got 0"),
        ({"cpus": 1.5}, "cpus must be an integer >= 1, got 1.5"),
        ({"gpus": -1}, "gpus must be a number >= 0, got -1"),
        ({"custom": {"CPU": 1}}, "custom resource name 'CPU' must be a non-empty string other than CPU"),
        ({"custom": {"tpu": 0}}, "custom resource 'tpu' needs an amount > 0, got 0"),
    ],
)
def test_bad_resources_are_named(kwargs, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Resources(**kwargs)


def test_resources_per_profile_and_their_validation():
    exp = dataclasses.replace(toy_experiment.EXPERIMENT, resources={"paper": Resources(cpus=2, gpus=1)})
    assert exp.resources_for("paper") == Resources(cpus=2, gpus=1)
    assert exp.resources_for("quick") == Resources()
    with pytest.raises(ValueError, match="resources must be a Resources or map profiles"):
        dataclasses.replace(toy_experiment.EXPERIMENT, resources={"huge": Resources()})


def test_local_threads_are_the_declared_cpus_capped_by_the_share(monkeypatch):
    monkeypatch.setattr("os.cpu_count", lambda: 4)
    exp = dataclasses.replace(toy_experiment.EXPERIMENT, resources=Resources(cpus=3))
    assert local_threads(exp, "quick") == 3
    assert local_threads(exp, "quick", share=2) == 2
    assert local_threads(exp, "quick", share=8) == 1


def test_ray_demand_takes_memory_from_the_cost_estimate(toys, tmp_path):
    exp = dataclasses.replace(
        toy_experiment.EXPERIMENT_B, resources=Resources(cpus=2, gpus=0.5, custom={"tpu": 1})
    )
    demand = sched.ray_demand(prepare_run(exp, "smoke", [0], out=tmp_path))
    assert demand == {"CPU": 2.0, "GPU": 0.5, "memory": 2e6, "tpu": 1.0}
    assert sched.ray_options(demand) == {
        "num_cpus": 2.0,
        "num_gpus": 0.5,
        "memory": 2_000_000,
        "resources": {"tpu": 1.0},
    }


def test_missing_resource_names_what_no_node_has():
    nodes = [
        {"Alive": True, "Resources": {"CPU": 2.0, "memory": 8e9}},
        {"Alive": True, "Resources": {"CPU": 16.0, "GPU": 1.0, "memory": 64e9}},
        {"Alive": False, "Resources": {"CPU": 64.0, "GPU": 8.0, "tpu": 4.0}},
    ]
    assert sched.missing_resource({"CPU": 8.0, "GPU": 1.0}, nodes) is None
    assert sched.missing_resource({"CPU": 1.0, "tpu": 1.0}, nodes) == "tpu 1 (the largest node has 0)"
    assert sched.missing_resource({"CPU": 32.0}, nodes) == "CPU 32 (the largest node has 16)"
    # each resource exists somewhere, but not together on one node
    apart = [{"Resources": {"CPU": 16.0}}, {"Resources": {"CPU": 2.0, "GPU": 1.0}}]
    assert (
        sched.missing_resource({"CPU": 8.0, "GPU": 1.0}, apart)
        == "this combination of CPU 8, GPU 1 on one node"
    )


def test_expected_seconds_reads_the_newest_finished_run(toys, tmp_path):
    exp = toy_experiment.EXPERIMENT_B
    assert sched.expected_seconds(exp, "smoke", exp.profiles["smoke"], 2, tmp_path) == pytest.approx(0.3)
    record = run_experiment("toy_pi_b", "smoke", [0, 1], out=tmp_path)
    per_seed = record.seconds / 2
    assert sched.expected_seconds(exp, "smoke", exp.profiles["smoke"], 3, tmp_path) == pytest.approx(
        3 * per_seed
    )
    assert sched.expected_seconds(exp, "quick", exp.profiles["quick"], 1, tmp_path) == pytest.approx(0.25)


# ------------------------------------------------------------------------------------ local processes


def test_two_processes_match_the_sequential_runs_and_contain_a_failure(toys, tmp_path):
    methods = ("toy_pi", "toy_pi_b", "toy_pi_failing")
    runs = [prepare_run(m, "smoke", [0, 1], out=tmp_path / "together") for m in methods]
    fine, fine_b, failing = sched.run_in_processes(runs, jobs=2)
    assert (fine.status, fine_b.status) == ("finished", "finished")
    for method, prepared in zip(methods[:2], runs):
        alone = run_experiment(method, "smoke", [0, 1], out=tmp_path / "alone")
        assert_same_metrics(metrics_of(prepared.directory), alone.metrics)
    assert failing.status == "failed" and "seed 1 fails on purpose" in failing.error
    assert json.loads((runs[2].directory / "result.json").read_text())["finished_seeds"] == [0]
    report = build_report(tmp_path / "together", tmp_path / "report")
    assert "toy_pi_b" in (report.parent / "summary.md").read_text()


def test_reproduce_rejects_bad_jobs(toys, tmp_path, capsys):
    assert main(["reproduce", "toy_pi", "--jobs", "0", "--out", str(tmp_path)]) == 2
    assert capsys.readouterr().err.strip() == "error: --jobs must be >= 1, got 0"
    argv = ["reproduce", "toy_pi", "--jobs", "2", "--executor", "ray", "--out", str(tmp_path)]
    assert main(argv) == 2
    assert "--jobs is for the local executor" in capsys.readouterr().err


def test_reproduce_with_two_jobs_writes_both_methods_and_the_report(toys, tmp_path):
    argv = [
        "reproduce",
        "toy_pi",
        "toy_pi_b",
        "--profile",
        "smoke",
        "--jobs",
        "2",
        "--out",
        str(tmp_path / "runs"),
    ]
    assert main([*argv, "--report-dir", str(tmp_path / "report")]) == 0
    for method in ("toy_pi", "toy_pi_b"):
        (directory,) = (tmp_path / "runs" / method).iterdir()
        assert json.loads((directory / "result.json").read_text())["status"] == "finished"
    assert (tmp_path / "report" / "summary.md").is_file()


# ------------------------------------------------------------------------------------ Ray


@pytest.fixture(scope="module")
def local_ray():
    ray = pytest.importorskip("ray")
    ray.cloudpickle.register_pickle_by_value(toy_experiment)  # test-only module: ship it to the workers
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


@pytest.mark.loopback
def test_ray_runs_two_methods_concurrently_as_the_sequential_runs_do(local_ray, toys, tmp_path):
    runs = [
        prepare_run(m, "smoke", [0, 1], out=tmp_path / "ray", executor="ray") for m in ("toy_pi", "toy_pi_b")
    ]
    closed = []
    records = sched.run_on_ray(runs, on_close=closed.append)
    assert [r.status for r in records] == ["finished", "finished"] and len(closed) == 2
    for method, prepared in zip(("toy_pi", "toy_pi_b"), runs):
        alone = run_experiment(method, "smoke", [0, 1], out=tmp_path / "alone")
        assert_same_metrics(metrics_of(prepared.directory), alone.metrics)
        assert sorted(p.name for p in prepared.directory.glob("seed_*.json")) == [
            "seed_0.json",
            "seed_1.json",
        ]


@pytest.mark.loopback
def test_ray_fails_an_unschedulable_task_in_bounded_time_and_keeps_the_rest(
    local_ray, toys, tmp_path, monkeypatch
):
    monkeypatch.setattr(sched, "UNSCHEDULABLE_WAIT_S", 1.0)
    tpu = dataclasses.replace(
        toy_experiment.EXPERIMENT, method="toy_pi_tpu", resources=Resources(custom={"tpu": 1})
    )
    runs = [
        prepare_run(tpu, "smoke", [0], out=tmp_path, executor="ray"),
        prepare_run("toy_pi_failing", "smoke", [0, 1], out=tmp_path, executor="ray"),
        prepare_run("toy_pi", "smoke", [0], out=tmp_path, executor="ray"),
    ]
    start = time.monotonic()
    unschedulable, failing, fine = sched.run_on_ray(runs)
    assert time.monotonic() - start < 60
    assert unschedulable.status == "partial"
    assert "unschedulable: the task needs tpu 1 (the largest node has 0)" in unschedulable.error
    assert failing.status == "partial" and "seed 1: RuntimeError: seed 1 fails on purpose" in failing.error
    stored = json.loads((runs[1].directory / "result.json").read_text())
    assert stored["status"] == "partial" and stored["finished_seeds"] == [0]
    assert stored["failed_seeds"] == {"1": "RuntimeError: seed 1 fails on purpose"}
    assert fine.status == "finished" and fine.claims
    assert build_report(tmp_path, tmp_path / "report").is_file()
