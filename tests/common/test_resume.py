"""Interrupted runs keep what finished, say so, and resume to the same metrics as an uninterrupted run."""

import json

import pytest

from icml26.cli import main
from icml26.common.checkpoint import unit, units_in
from icml26.common.runner import Interrupted, run_experiment

SIZES = 3  # the smoke profile's levels: estimate_pi is called SIZES times per replicate and method


def test_unit_outside_the_runner_just_computes():
    assert unit("x", lambda: 41 + 1) == 42
    with pytest.raises(ValueError, match="unit name 'a b'"):
        unit("a b", lambda: 0)


def test_a_reused_unit_restores_the_generators_it_drew_from(tmp_path):
    import numpy as np

    def two_units(rng):
        first = unit("first", lambda: rng.random(3).tolist(), (rng,))
        return first, rng.random(2).tolist()  # drawn after the unit: must not depend on reuse

    with units_in(tmp_path) as store:
        computed = two_units(np.random.default_rng(5))
    assert store.computed == ["first"]
    with units_in(tmp_path) as store:
        reused = two_units(np.random.default_rng(5))
    assert store.reused == ["first"] and store.computed == []
    assert reused == computed


@pytest.mark.parametrize("how", ["interrupt", "sigterm"])
def test_an_interrupted_run_is_partial_and_resumes_to_the_same_metrics(toy, tmp_path, calls, how):
    full = run_experiment("toy_pi", "smoke", [0], out=tmp_path / "full")
    uninterrupted_calls = calls["n"]
    calls.update(n=0, stop_at=3 * SIZES + 1, how=how)  # during the 4th Monte Carlo replicate
    with pytest.raises(Interrupted) as info:
        run_experiment("toy_pi", "smoke", [0], out=tmp_path / "cut")
    directory = info.value.directory
    partial = json.loads((directory / "result.json").read_text())
    assert partial["status"] == "partial" and partial["finished_seeds"] == []
    assert partial["finished_units"] == {"0": 3} and info.value.units == 3
    calls.update(n=0, stop_at=None)
    resumed = run_experiment("toy_pi", resume=directory)
    assert calls["n"] == uninterrupted_calls - 3 * SIZES  # the three finished replicates were reused
    assert resumed.metrics == full.metrics
    assert resumed.directory == directory and resumed.status == "finished"
    assert not (directory / "units").exists()  # a finished run keeps no units


def test_resume_skips_finished_seeds(toy, tmp_path, calls):
    full = run_experiment("toy_pi", "smoke", [0, 1], out=tmp_path / "full")
    per_seed = calls["n"] // 2
    calls.update(n=0, stop_at=per_seed + 1)  # the first call of seed 1
    with pytest.raises(Interrupted) as info:
        run_experiment("toy_pi", "smoke", [0, 1], out=tmp_path / "cut")
    assert json.loads((info.value.directory / "result.json").read_text())["finished_seeds"] == [0]
    calls.update(n=0, stop_at=None)
    resumed = run_experiment("toy_pi", resume=info.value.directory)
    assert calls["n"] == per_seed and resumed.metrics == full.metrics


def test_cli_interrupt_exits_130_and_resume_latest_finishes(toy, tmp_path, calls, capsys):
    calls.update(stop_at=2)
    assert main(["run", "toy_pi", "--profile", "smoke", "--out", str(tmp_path)]) == 130
    err = capsys.readouterr().err
    assert err.startswith("interrupted: toy_pi kept 0 finished seed(s)") and "--resume" in err
    calls.update(stop_at=None)
    assert main(["run", "toy_pi", "--resume", "latest", "--out", str(tmp_path)]) == 0
    (run_dir,) = (tmp_path / "toy_pi").iterdir()
    assert json.loads((run_dir / "result.json").read_text())["status"] == "finished"
    assert main(["run", "toy_pi", "--resume", str(run_dir)]) == 2
    assert "the run already finished" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--resume", "latest"], "error: --resume: no interrupted or failed run of toy_pi under"),
        (
            ["--resume", "/nonexistent/run"],
            "error: --resume '/nonexistent/run': no result.json or error.json",
        ),
        (["--resume", "latest", "--seed", "3"], "error: --resume continues a run with its own config"),
    ],
)
def test_bad_resume_is_one_line_exit_2(toy, tmp_path, capsys, argv, message):
    assert main(["run", "toy_pi", *argv, "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1


def test_a_unit_name_used_twice_in_one_run_is_an_error(tmp_path):
    with units_in(tmp_path), pytest.raises(ValueError, match="unit name 'x' is used twice in one run"):
        unit("x", lambda: 1)
        unit("x", lambda: 2)


def test_a_killed_run_is_resumable_from_its_running_record(toy, tmp_path, calls):
    """SIGKILL leaves no chance to write 'partial': the record written at the start says 'running'."""
    calls.update(stop_at=3 * SIZES + 1)
    with pytest.raises(Interrupted) as info:
        run_experiment("toy_pi", "smoke", [0], out=tmp_path)
    directory = info.value.directory
    record = json.loads((directory / "result.json").read_text())
    (directory / "result.json").write_text(json.dumps({**record, "status": "running"}))  # as a kill leaves it
    calls.update(n=0, stop_at=None)
    assert run_experiment("toy_pi", resume=directory).status == "finished"


def test_resume_refuses_a_config_whose_keys_changed(toy, tmp_path, calls):
    calls.update(stop_at=2)
    with pytest.raises(Interrupted) as info:
        run_experiment("toy_pi", "smoke", [0], out=tmp_path)
    path = info.value.directory / "result.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), "config": {"n": 4096}}))
    with pytest.raises(ValueError, match="its config keys differ from the smoke profile's"):
        run_experiment("toy_pi", resume=info.value.directory)


def test_a_failure_after_the_seeds_keeps_them_and_is_resumable(toy, tmp_path, monkeypatch):
    from icml26.common import output

    def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(output, "write_plots", broken)
    record = run_experiment("toy_pi", "smoke", [0], out=tmp_path)
    assert record.error == "RuntimeError: disk full"
    assert json.loads((record.directory / "result.json").read_text())["status"] == "failed"
    assert (record.directory / "seed_0.json").is_file()
    assert "disk full" in (record.directory / "error.txt").read_text()
    monkeypatch.undo()
    assert run_experiment("toy_pi", resume=record.directory).status == "finished"
    assert not (record.directory / "error.txt").exists()  # a finished record shows no error ...
    assert (
        "disk full" in (record.directory / "error_of_an_earlier_segment.txt").read_text()
    )  # ... but keeps it


def test_rejudge_recomputes_verdicts_from_the_stored_seeds_only(toy, tmp_path, calls):
    from icml26.common.runner import rejudge

    record = run_experiment("toy_pi", "smoke", [0], out=tmp_path)
    before = json.loads((record.directory / "result.json").read_text())
    calls.update(n=0)
    after = rejudge(record.directory)
    assert calls["n"] == 0  # nothing measured again
    assert after["claims"] == before["claims"] and after["metrics"] == before["metrics"]
    assert after["finished"] == before["finished"] and "rejudged" in after


def _counting_loop(n, stop_after=None):
    """A unit body that saves its progress after each step and draws from the global NumPy generator."""
    import numpy as np

    from icml26.common.checkpoint import unit_progress

    store = unit_progress()
    state = store.load() or {"i": 0, "draws": []}
    while state["i"] < n:
        if stop_after is not None and state["i"] == stop_after:
            raise KeyboardInterrupt
        state = {"i": state["i"] + 1, "draws": [*state["draws"], float(np.random.random())]}
        store.save(state)
    return state["draws"]


def test_a_unit_stopped_inside_continues_from_its_saved_progress(tmp_path):
    import numpy as np

    from icml26.common.checkpoint import finished_units, unit_progress

    assert unit_progress() is None  # outside a unit (and outside the runner) there is no store
    np.random.seed(11)
    with units_in(tmp_path / "a"):
        straight = unit("loop", lambda: _counting_loop(5))
    np.random.seed(11)
    with units_in(tmp_path / "b"), pytest.raises(KeyboardInterrupt):
        unit("loop", lambda: _counting_loop(5, stop_after=2))
    assert (tmp_path / "b" / "loop.progress").is_file() and finished_units(tmp_path / "b") == []
    np.random.seed(99)  # the saved progress restores the generator as it was at the save
    with units_in(tmp_path / "b") as store:
        resumed = unit("loop", lambda: _counting_loop(5))
    assert resumed == straight and store.computed == ["loop"]
    assert not (tmp_path / "b" / "loop.progress").exists()  # removed once the unit's result is stored


def test_a_corrupt_progress_file_is_moved_aside_and_the_unit_starts_over(tmp_path):
    (tmp_path / "loop.progress").write_bytes(b"garbage")
    with units_in(tmp_path), pytest.warns(UserWarning, match="corrupt"):
        assert len(unit("loop", lambda: _counting_loop(3))) == 3
    assert (tmp_path / "loop.progress.corrupt").is_file()
