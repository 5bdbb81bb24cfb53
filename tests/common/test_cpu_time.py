"""Records state the CPU seconds of every seed beside its wall seconds, across interruptions too: under load
wall time overstates what a run costs, and a budget is checkable only against the CPU time."""

import json
import subprocess
import sys

import pytest
import toy_experiment

from icml26.common import runner
from icml26.common.report import provenance
from icml26.common.runner import Interrupted, cpu_clock, rejudge, run_experiment


class FakeClock:
    """``cpu_clock`` replaced by one that jumps by the next step on every reading."""

    def __init__(self, steps):
        self.steps, self.now = iter(steps), 0.0

    def __call__(self):
        self.now += next(self.steps, 0.0)
        return self.now


def test_the_cpu_clock_counts_the_children_the_process_waited_for():
    """A child that burns ~0.4 s of CPU moves the clock by at least 0.3 s (the parent itself mostly waits)."""
    burn = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.4: pass"
    before = cpu_clock()
    subprocess.run([sys.executable, "-c", burn], check=True, timeout=60)
    assert cpu_clock() - before >= 0.3


def test_a_record_states_each_seeds_cpu_seconds_and_their_sum(toy, tmp_path, monkeypatch):
    # readings per seed: before the try, then _timed_run's start and end (seed 0: 3 s, seed 1: 7 s)
    monkeypatch.setattr(runner, "cpu_clock", FakeClock([0, 10, 3, 10, 10, 7]))
    record = run_experiment("toy_pi", "smoke", [0, 1], out=tmp_path)
    stored = json.loads((record.directory / "result.json").read_text())
    assert stored["cpu_seconds"] == {"0": 3.0, "1": 7.0} and stored["total_cpu_seconds"] == 10.0
    for seed, cpu in ((0, 3.0), (1, 7.0)):
        assert json.loads((record.directory / f"seed_{seed}.json").read_text())["cpu_seconds"] == cpu
    assert "(10 s CPU)" in provenance(record.directory / "result.json", stored)
    after = rejudge(record.directory)  # read back from the seed files, not measured again
    assert after["cpu_seconds"] == stored["cpu_seconds"] and after["total_cpu_seconds"] == 10.0


def test_an_interrupted_segments_cpu_seconds_count_in_the_resumed_seed(toy, tmp_path, monkeypatch, calls):
    calls.update(stop_at=4)
    # first segment: the runner's reading, _timed_run's start, then the runner's reading at the cut (4 s on)
    monkeypatch.setattr(runner, "cpu_clock", FakeClock([0, 0, 4]))
    with pytest.raises(Interrupted) as info:
        run_experiment("toy_pi", "smoke", [0], out=tmp_path)
    directory = info.value.directory
    assert json.loads((directory / "result.json").read_text())["spent_cpu_seconds"] == {"0": 4.0}
    monkeypatch.setattr(runner, "cpu_clock", FakeClock([0, 1, 6]))  # the resumed segment: 6 s
    run_experiment("toy_pi", resume=directory)
    stored = json.loads((directory / "result.json").read_text())
    assert stored["cpu_seconds"] == {"0": 10.0} and stored["total_cpu_seconds"] == 10.0


def test_a_record_without_cpu_seconds_reads_as_before(toy, tmp_path):
    """Records that predate CPU time, even for one seed of two, rejudge without inventing a total."""
    record = run_experiment("toy_pi", "smoke", [0, 1], out=tmp_path)
    seed_file = record.directory / "seed_0.json"
    seed = json.loads(seed_file.read_text())
    del seed["cpu_seconds"]
    seed_file.write_text(json.dumps(seed))
    after = rejudge(record.directory)
    assert "cpu_seconds" not in after and "total_cpu_seconds" not in after
    assert "CPU" not in provenance(record.directory / "result.json", after)


def test_a_seed_finished_before_an_interruption_keeps_its_cpu_seconds(toy, tmp_path, monkeypatch, calls):
    run_experiment("toy_pi", "smoke", [0], out=tmp_path / "count")
    calls.update(n=0, stop_at=calls["n"] + 1)  # the first call of seed 1
    monkeypatch.setattr(runner, "cpu_clock", FakeClock([0, 0, 3, 0, 0, 1]))  # seed 0: 3 s; seed 1 cut
    with pytest.raises(Interrupted) as info:
        run_experiment("toy_pi", "smoke", [0, 1], out=tmp_path / "cut")
    directory = info.value.directory
    assert json.loads((directory / "result.json").read_text())["finished_seeds"] == [0]
    monkeypatch.setattr(runner, "cpu_clock", FakeClock([0, 0, 2]))  # seed 1, resumed: 2 s
    run_experiment("toy_pi", resume=directory)
    stored = json.loads((directory / "result.json").read_text())
    assert stored["cpu_seconds"] == {"0": 3.0, "1": 3.0} and stored["total_cpu_seconds"] == 6.0


def test_a_segment_from_before_cpu_time_leaves_the_seeds_cpu_unknown(toy, tmp_path, calls):
    """A partial record written before CPU time was recorded has spent wall seconds but no CPU seconds: the
    resumed seed's CPU time would count only the last segment, so the record states none."""
    calls.update(stop_at=4)
    with pytest.raises(Interrupted) as info:
        run_experiment("toy_pi", "smoke", [0], out=tmp_path)
    path = info.value.directory / "result.json"
    partial = json.loads(path.read_text())
    del partial["spent_cpu_seconds"]  # as an older version wrote it
    path.write_text(json.dumps(partial))
    run_experiment("toy_pi", resume=info.value.directory)
    stored = json.loads(path.read_text())
    assert stored["seconds"]["0"] >= partial["spent_seconds"]["0"] and "cpu_seconds" not in stored
    assert json.loads((info.value.directory / "seed_0.json").read_text())["cpu_seconds"] is None


def test_a_failed_segments_seconds_count_in_the_resumed_seed(toy, tmp_path, monkeypatch):
    """A segment that fails inside the experiment spent its time too: the failed record keeps it, and the
    resumed (fixed) run adds it to the seed's total."""
    real = toy_experiment.estimate_pi

    def failing(points):
        raise RuntimeError("a bug found late in the run")

    monkeypatch.setattr(toy_experiment, "estimate_pi", failing)
    monkeypatch.setattr(runner, "cpu_clock", FakeClock([0, 0, 5]))  # the failed segment: 5 s of CPU
    record = run_experiment("toy_pi", "smoke", [0], out=tmp_path)
    assert record.status == "failed"
    failed = json.loads((record.directory / "result.json").read_text())
    assert failed["spent_cpu_seconds"] == {"0": 5.0} and failed["spent_seconds"]["0"] > 0
    monkeypatch.setattr(toy_experiment, "estimate_pi", real)
    monkeypatch.setattr(runner, "cpu_clock", FakeClock([0, 0, 2]))  # the resumed segment: 2 s
    run_experiment("toy_pi", resume=record.directory)
    stored = json.loads((record.directory / "result.json").read_text())
    assert stored["cpu_seconds"] == {"0": 7.0} and stored["seconds"]["0"] >= failed["spent_seconds"]["0"]
