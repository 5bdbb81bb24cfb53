"""Fault injection on the runner (issue 50): corrupt checkpoints, two processes on one run directory, a
full disk, a non-Ray listener on the Ray port, SIGTERM to a ``reproduce --jobs 2`` parent."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import toy_experiment

from icml26.cli import main
from icml26.common.runner import Interrupted, run_experiment

SIZES = 3


@pytest.fixture(autouse=True)
def no_plots(monkeypatch):
    """The toy's plots are not under test here and drawing them is most of a toy run's time."""
    from icml26.common import output

    monkeypatch.setattr(output, "write_plots", lambda *args, **kwargs: [])


CORRUPTIONS = {
    "truncated": lambda b: b[: len(b) // 2],
    "garbage": lambda b: os.urandom(len(b)),
    "empty": lambda b: b"",
    "flipped": lambda b: b[:-1] + bytes([b[-1] ^ 1]),  # one bit: only a checksum sees it
}


def test_corrupt_unit_files_are_named_moved_aside_and_recomputed(toy, tmp_path, calls):
    """Four finished units, each corrupted another way (truncated, garbage, empty, one bit flipped): the
    resumed run names each, moves it aside and recomputes it, ending with the uninterrupted metrics."""
    full = run_experiment("toy_pi", "smoke", [0], out=tmp_path / "full")
    calls.update(n=0, stop_at=5 * SIZES + 1)  # five units finished
    with pytest.raises(Interrupted) as info:
        run_experiment("toy_pi", "smoke", [0], out=tmp_path / "cut")
    units = sorted((info.value.directory / "units" / "seed_0").glob("*.pkl"))
    assert len(units) == 5
    for victim, how in zip(units, sorted(CORRUPTIONS)):
        victim.write_bytes(CORRUPTIONS[how](victim.read_bytes()))
    calls.update(n=0, stop_at=None)
    with pytest.warns(UserWarning) as caught:
        resumed = run_experiment("toy_pi", resume=info.value.directory)
    assert resumed.status == "finished" and resumed.metrics == full.metrics
    named = [str(w.message) for w in caught if "corrupt" in str(w.message)]
    assert len(named) == 4 and all(any(u.name in m for m in named) for u in units[:4])
    assert all("recomputing" in m for m in named)


def test_corrupt_seed_files_are_named_moved_aside_and_recomputed(toy, tmp_path, calls):
    """Three finished seeds, their files garbage, empty and without ``result``: each is named, moved aside
    and its seed computed again (it used to fail without the file's name, or with a 46-line traceback)."""
    seeds = [0, 1, 2, 3]
    full = run_experiment("toy_pi", "smoke", seeds, out=tmp_path / "full")
    per_seed = calls["n"] // len(seeds)
    calls.update(n=0, stop_at=3 * per_seed + 1)  # the first call of seed 3
    with pytest.raises(Interrupted) as info:
        run_experiment("toy_pi", "smoke", seeds, out=tmp_path / "cut")
    directory = info.value.directory
    (directory / "seed_0.json").write_text('{"method": "toy_pi", "res')
    (directory / "seed_1.json").write_text("")
    stored = json.loads((directory / "seed_2.json").read_text())
    (directory / "seed_2.json").write_text(json.dumps({k: v for k, v in stored.items() if k != "result"}))
    calls.update(n=0, stop_at=None)
    with pytest.warns(UserWarning) as caught:
        resumed = run_experiment("toy_pi", resume=directory)
    assert resumed.status == "finished" and resumed.metrics == full.metrics
    assert calls["n"] == len(seeds) * per_seed  # every seed computed again
    named = " ".join(str(w.message) for w in caught)
    for seed in (0, 1, 2):
        assert f"seed_{seed}.json" in named
        assert (directory / f"seed_{seed}.json.corrupt").is_file()


HOLDER = """
import sys, time
sys.path.insert(0, sys.argv[2])
import toy_experiment
from icml26.common import registry
from icml26.common.runner import prepare_run
registry.register(toy_experiment.EXPERIMENT)
prepared = prepare_run("toy_pi", "smoke", [0], out=sys.argv[1])
prepared.start()  # result.json says 'running', as while a run computes
print(prepared.directory, flush=True)
time.sleep(60)
"""


def test_a_second_process_on_a_running_directory_is_refused_with_the_owners_pid(toy, tmp_path, capsys):
    """``--resume latest`` while the original run still works on the directory: one line naming the owner's
    pid, exit 2, nothing computed twice; once the owner is gone (killed: no clean-up), the resume works."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(tmp_path), str(Path(toy_experiment.__file__).parent)],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        directory = Path(holder.stdout.readline().strip())
        assert directory.is_dir()
        assert main(["run", "toy_pi", "--resume", "latest", "--out", str(tmp_path)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"in use by process {holder.pid}" in err and str(directory) in err
        assert not list(directory.glob("seed_*.json"))
    finally:
        holder.kill()
        holder.wait(10)
    assert main(["run", "toy_pi", "--resume", str(directory)]) == 0
    assert json.loads((directory / "result.json").read_text())["status"] == "finished"


SLOW_TOY = """
import dataclasses, time
import toy_experiment
from icml26.common import unit

def slow_run(config, seed):
    for i in range(400):  # 40 s of units, each stored when it finishes
        unit(f"step{i}", lambda: time.sleep(0.1) or i)
    return toy_experiment.EXPERIMENT.run(config, seed)

SLOW_A = dataclasses.replace(toy_experiment.EXPERIMENT, method="slow_a", run=slow_run)
SLOW_B = dataclasses.replace(toy_experiment.EXPERIMENT, method="slow_b", run=slow_run)
"""

REPRODUCE = """
import sys
import time
import slow_toy
from icml26.cli import main
from icml26.common import registry
registry.register(slow_toy.SLOW_A)
registry.register(slow_toy.SLOW_B)
sys.exit(main(["reproduce", "slow_a", "slow_b", "--profile", "smoke", "--jobs", "2", "--out", sys.argv[1],
               "--report-dir", sys.argv[2]]))
"""


def _children(pid: int) -> list[int]:
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _toy_env(scripts: Path) -> dict[str, str]:
    """The environment of a subprocess that imports the toy experiment and the scripts in ``scripts``."""
    toy_dir = Path(toy_experiment.__file__).parent
    path = os.pathsep.join([str(scripts), str(toy_dir), *sys.path])
    return {**os.environ, "PYTHONPATH": path, "ICML26_PROGRESS": "0"}


@pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="reads the process tree from /proc")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_a_signalled_reproduce_jobs_parent_takes_its_workers_with_it(tmp_path, sig):
    """SIGTERM to the parent of ``reproduce --jobs 2``: it stops both workers, each run is written 'partial'
    with its finished units, and the parent exits 130 saying how to resume each (it used to exit at once,
    silent, leaving both workers computing and result.json 'running'). SIGKILL: the workers still die
    (parent-death signal) and write 'partial'."""
    (tmp_path / "slow_toy.py").write_text(SLOW_TOY)
    env = _toy_env(tmp_path)
    out, log = tmp_path / "runs", tmp_path / "stderr.txt"
    workers: list[int] = []
    with log.open("w") as stderr:  # a file, not a pipe: orphaned workers holding a pipe would block a read
        parent = subprocess.Popen(
            [sys.executable, "-c", REPRODUCE, str(out), str(tmp_path / "report")], stderr=stderr, env=env
        )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:  # both workers have stored a unit
            if all(list((out / m).glob("*/units/seed_0/*.pkl")) for m in ("slow_a", "slow_b")):
                break
            assert parent.poll() is None, log.read_text()
            time.sleep(0.2)
        else:
            pytest.fail("the workers did not start within 120 s")
        workers = [p for p in _children(parent.pid) if _alive(p)]
        assert len(workers) >= 2
        parent.send_signal(sig)
        code = parent.wait(60)
        deadline = time.monotonic() + 30
        while any(_alive(p) for p in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not any(_alive(p) for p in workers), "workers outlived their parent"
    finally:
        if parent.poll() is None:
            parent.kill()
        for pid in workers:  # only the ones this test started
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
    err = log.read_text()
    for method in ("slow_a", "slow_b"):
        (directory,) = (out / method).iterdir()
        record = json.loads((directory / "result.json").read_text())
        assert record["status"] == "partial" and record["finished_units"]["0"] >= 1, record["status"]
        if sig == signal.SIGTERM:
            assert f"icml26 run {method} --resume {directory}" in err
    if sig == signal.SIGTERM:
        assert code == 130 and "Traceback" not in err, err


TWO_SIGTERMS = """
import dataclasses, os, signal, sys
import toy_experiment
from icml26.common import registry, runner
from icml26.common.runner import Interrupted, run_experiment

def terminated_run(config, seed):
    os.kill(os.getpid(), signal.SIGTERM)  # the first signal: the run is interrupted
    return toy_experiment.EXPERIMENT.run(config, seed)

real = runner.PreparedRun.interrupt
def interrupt_signalled_again(self):
    os.kill(os.getpid(), signal.SIGTERM)  # the repeat arrives while the partial record is being written
    return real(self)

runner.PreparedRun.interrupt = interrupt_signalled_again
registry.register(dataclasses.replace(toy_experiment.EXPERIMENT, method="twice", run=terminated_run))
try:
    run_experiment("twice", "smoke", out=sys.argv[1])
except Interrupted:
    sys.exit(130)
"""


def test_a_repeated_sigterm_cannot_cut_the_partial_record_short(tmp_path):
    """Linux sends a ``--jobs`` worker its parent-death signal once per exiting thread of its parent, so
    a SIGKILLed parent with several threads can deliver two SIGTERMs in a row (seen in 5 of 20 trials). The
    second one used to arrive after the handler was restored and kill the worker before it wrote
    'partial' (result.json stayed 'running'); now the record is written inside the handler's block."""
    (tmp_path / "twice.py").write_text(TWO_SIGTERMS)
    env = _toy_env(tmp_path)
    done = subprocess.run(
        [sys.executable, str(tmp_path / "twice.py"), str(tmp_path / "runs")],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 130, (done.returncode, done.stderr[-2000:])
    (directory,) = (tmp_path / "runs" / "twice").iterdir()
    assert json.loads((directory / "result.json").read_text())["status"] == "partial"


@pytest.mark.loopback
def test_a_ray_address_where_an_http_server_listens_fails_at_once_and_leaves_no_directory(
    toy, tmp_path, capsys
):
    """The dashboard's HTTP port given for the cluster's: ``ray.init`` waited for ever (the pre-check was a
    TCP connect only). Now the check sees no gRPC answer: one line, exit 2, no run directory."""
    import http.server
    import threading

    from icml26.common.runner import check_ray_address

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):  # no access log on stderr
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    address = f"127.0.0.1:{server.server_address[1]}"
    try:
        with pytest.raises(ValueError, match=r"something listens there but it is not Ray"):
            check_ray_address(address)
        argv = ["run", "toy_pi", "--executor", "ray", "--ray-address", address, "--out", str(tmp_path)]
        assert main(argv) == 2
    finally:
        server.shutdown()
        server.server_close()
    err = capsys.readouterr().err
    assert err.startswith("error: --ray-address") and err.count("\n") == 1
    assert not (tmp_path / "toy_pi").exists()


@pytest.mark.parametrize("quota", [0, 4000, 12000])
def test_a_full_disk_is_one_line_and_keeps_what_was_written(toy, tmp_path, monkeypatch, capsys, quota):
    """Every checkpoint and record write goes through ``write_atomic``; past ``quota`` bytes it fails as a
    full disk does (ENOSPC). The run ends with one line naming the error, no traceback (it was 72 lines)."""
    import errno

    from icml26.common import checkpoint, runner

    real, used = checkpoint.write_atomic, {"bytes": 0}

    def full_disk(path, data):
        if used["bytes"] + len(data) > quota:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        used["bytes"] += len(data)
        real(path, data)

    monkeypatch.setattr(checkpoint, "write_atomic", full_disk)
    monkeypatch.setattr(runner, "write_atomic", full_disk)
    code = main(["run", "toy_pi", "--profile", "smoke", "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 1 and "No space left on device" in err and "Traceback" not in err, err
    assert err.strip().count("\n") == 0
    assert not list(tmp_path.rglob("*.tmp"))  # no half-written file left


def test_rejudge_of_a_result_that_is_not_a_record_is_one_line(tmp_path, capsys):
    (tmp_path / "result.json").write_text("[1, 2]")
    assert main(["rejudge", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: rejudge") and "not a run record" in err and err.count("\n") == 1


@pytest.mark.parametrize("command", ["run", "reproduce"])
def test_a_ray_address_without_the_ray_executor_is_refused(toy, tmp_path, capsys, command):
    argv = [command, "toy_pi", "--ray-address", "127.0.0.1:6379", "--out", str(tmp_path)]
    assert main(argv) == 2
    assert "--ray-address is for --executor ray" in capsys.readouterr().err
    assert not (tmp_path / "toy_pi").exists()


def test_a_resumed_run_records_its_resume_and_the_seconds_of_every_segment(toy, tmp_path, calls):
    calls.update(stop_at=3 * SIZES + 1)
    with pytest.raises(Interrupted) as info:
        run_experiment("toy_pi", "smoke", [0], out=tmp_path)
    directory = info.value.directory
    before = json.loads((directory / "result.json").read_text())["spent_seconds"]["0"]
    assert before > 0
    calls.update(n=0, stop_at=None)
    resumed = run_experiment("toy_pi", resume=directory)
    record = json.loads((directory / "result.json").read_text())
    assert resumed.status == "finished" and len(record["resumed"]) == 1
    commit = record["versions"].get("commit")
    assert record["segment_commits"] == [commit, commit]  # both segments ran this source
    from icml26.common.report import provenance

    assert f"2 segments, commits {commit or '?'} → {commit or '?'}" in provenance(directory, record)
    stored = json.loads((directory / "seed_0.json").read_text())
    assert record["seconds"]["0"] == stored["seconds"] >= before  # the first segment counts too


def test_list_json_imports_no_scipy():
    """``icml26 list --json`` took 1.8 s against 0.35 s for ``list``: it imported the runner (SciPy) only to
    convert plain data."""
    code = "import sys; from icml26.cli import main; main(['list', '--json']); print('scipy' in sys.modules)"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0 and json.loads(out.stdout.rsplit("]", 1)[0] + "]")[0]["number"] == 1
    assert out.stdout.strip().endswith("False"), out.stdout[-200:]


def test_a_unit_whose_stored_number_changed_fails_its_checksum(tmp_path):
    """A bit flip inside a stored float still unpickles (to a wrong number): only the checksum sees it."""
    import struct

    from icml26.common.checkpoint import unit, units_in

    with units_in(tmp_path):
        unit("x", lambda: 1.5)
    path = tmp_path / "x.pkl"
    data = bytearray(path.read_bytes())
    at = data.index(struct.pack(">d", 1.5))
    data[at + 7] ^= 1  # the last mantissa bit
    path.write_bytes(bytes(data))
    with (
        units_in(tmp_path) as store,
        pytest.warns(UserWarning, match=r"x\.pkl is corrupt \(ValueError: checksum"),
    ):
        assert unit("x", lambda: 1.5) == 1.5
    assert store.computed == ["x"] and (tmp_path / "x.pkl.corrupt").is_file()


def test_segment_commits_of_a_header_written_before_they_were_recorded_say_only_the_last():
    from icml26.common.provenance import segment_commits

    old = {"resumed": ["t1", "t2"], "versions": {"commit": "abc1234"}}
    assert segment_commits(old) == [None, None, "abc1234"]
    assert segment_commits({"versions": {}}) == [None]
    assert segment_commits({"segment_commits": ["a", "b"], "versions": {"commit": "b"}}) == ["a", "b"]
    from icml26.common.report import provenance

    run = {"profile": "paper", "seeds": [0], "versions": {"commit": "abc1234"}, **old}
    assert provenance(Path("r"), run).endswith("3 segments, commits ? → ? → abc1234")
    assert provenance(Path("r"), {**run, "resumed": []}).endswith("commit abc1234")
