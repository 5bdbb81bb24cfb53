"""The command line: each command works, and bad input exits 2 with one line and no traceback."""

import json
import os

import pytest

from icml26.cli import main
from icml26.common import METHOD_NAMES


def test_list_shows_all_nineteen_methods(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in METHOD_NAMES)


def test_run_prints_claims_and_writes_results(toy, tmp_path, capsys):
    code = main(
        [
            "run",
            "toy_pi",
            "--profile",
            "smoke",
            "--seed",
            "0",
            "--seed",
            "1",
            "--set",
            "n=65536",
            "--out",
            str(tmp_path),
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert "toy-verified" in out  # the impossible claim may be refuted or, with 2 seeds, inconclusive
    [run_dir] = (tmp_path / "toy_pi").iterdir()
    result = json.loads((run_dir / "result.json").read_text())
    assert result["config"]["n"] == 65536 and result["seeds"] == [0, 1]


def test_info_shows_claims_and_profile_keys(toy, capsys):
    assert main(["info", "toy_pi"]) == 0
    assert "MC is accurate [any]" in capsys.readouterr().out
    assert main(["info", "toy_pi", "--tests", "--keys"]) == 0
    out = capsys.readouterr().out
    assert "(mc_accuracy)" in out and "levels" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["run", "nope"], "error: unknown method 'nope'"),
        (
            ["run", "toy_pi", "--profile", "huge"],
            "error: unknown profile 'huge'; accepted: smoke, quick, paper",
        ),
        (["run", "toy_pi", "--set", "m=1"], "error: unknown config key 'm' for toy_pi; accepted: levels, n"),
        (["run", "toy_pi", "--set", "n=many"], "error: --set n=many: expected an integer"),
        (["run", "toy_pi", "--set", "n"], "error: --set 'n': expected key=value"),
        (["run", "toy_pi", "--set", "n=2"], "error: n must be >= 16, got 2"),
        (["run", "toy_pi", "--seed", "-3"], "error: seeds must be integers from 0 to 4294967295, got [-3]"),
        (
            ["run", "toy_pi", "--seed", "99999999999999999999"],
            "error: seeds must be integers from 0 to 4294967295",
        ),
        (["run", "toy_pi", "--seed", "x"], "error: Invalid value for '--seed'"),
        (["run", "toy_pi", "--executor", "slurm"], "error: unknown executor 'slurm'; accepted: local, ray"),
        (["run", "toy_pi", "--frobnicate"], "error: No such option: --frobnicate"),
        (["reproduce", "toy_pi", "nope"], "error: unknown method 'nope'"),
        (["reproduce", "--seed", "-1"], "error: seeds must be integers from 0 to 4294967295, got [-1]"),
        (["info", "nope"], "error: unknown method 'nope'"),
        (["frob"], "error: No such command 'frob'"),
    ],
)
def test_bad_input_exits_2_with_one_line(toy, tmp_path, capsys, argv, message):
    assert main([*argv, *(["--out", str(tmp_path)] if argv[0] == "run" else [])]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(message)
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err
    assert not (tmp_path / "toy_pi").exists()


def test_a_method_not_implemented_yet_exits_2_with_one_line(tmp_path, capsys, monkeypatch):
    """Every one of the nineteen is built now: a method without its experiment module is simulated."""
    import icml26.common.registry as registry

    real = registry.is_implemented
    monkeypatch.setattr(registry, "is_implemented", lambda name: name != "bfts" and real(name))
    assert main(["run", "bfts", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: method 'bfts' is not implemented yet") and err.count("\n") == 1
    assert not (tmp_path / "bfts").exists()


def test_reproduce_runs_methods_and_writes_the_report(toy, tmp_path, capsys):
    runs, report = tmp_path / "runs", tmp_path / "report"
    assert (
        main(["reproduce", "toy_pi", "--profile", "smoke", "--out", str(runs), "--report-dir", str(report)])
        == 0
    )
    assert (report / "report.html").is_file()
    assert "toy_pi" in (report / "summary.md").read_text()
    assert main(["report", "--runs", str(runs), "--out", str(tmp_path / "again")]) == 0
    assert (tmp_path / "again" / "summary.md").is_file()


def test_report_on_a_missing_directory_exits_2(tmp_path, capsys):
    assert main(["report", "--runs", str(tmp_path / "none")]) == 2
    assert "does not exist" in capsys.readouterr().err


def _diverges(config, seed):
    raise RuntimeError("diverged")


def test_a_failing_experiment_exits_1_and_the_report_says_which(tmp_path, capsys):
    from icml26.common import Experiment, registry

    registry.register(
        Experiment("fragile", "t", "p", _diverges, {p: {} for p in ("smoke", "quick", "paper")}, ())
    )
    try:
        code = main(
            ["reproduce", "fragile", "--out", str(tmp_path / "runs"), "--report-dir", str(tmp_path / "rep")]
        )
    finally:
        registry.unregister("fragile")
    assert code == 1
    assert "experiment 'fragile' failed: RuntimeError: diverged" in capsys.readouterr().err
    assert "Failed: RuntimeError: diverged" in (tmp_path / "rep" / "summary.md").read_text()


def test_reproduce_with_nothing_run_still_writes_a_report(tmp_path, monkeypatch):
    monkeypatch.setattr("icml26.cli.available", lambda: [])
    assert main(["reproduce", "--out", str(tmp_path / "runs"), "--report-dir", str(tmp_path / "rep")]) == 0
    assert "| not run |" in (tmp_path / "rep" / "summary.md").read_text()  # every method is built; none ran


def test_ray_at_a_dead_address_fails_fast_with_exit_2(toy, tmp_path, capsys):
    import time

    start = time.monotonic()
    argv = ["run", "toy_pi", "--executor", "ray", "--ray-address", "127.0.0.1:1", "--out", str(tmp_path)]
    assert main(argv) == 2
    assert time.monotonic() - start < 30
    err = capsys.readouterr().err
    assert err.startswith("error: cannot reach Ray at 127.0.0.1:1") and err.count("\n") == 1
    assert not (tmp_path / "toy_pi").exists()


@pytest.mark.parametrize("address", ["nohost", "host:port"])
def test_a_malformed_ray_address_is_named(toy, tmp_path, capsys, address):
    assert main(["run", "toy_pi", "--executor", "ray", "--ray-address", address, "--out", str(tmp_path)]) == 2
    assert capsys.readouterr().err.startswith(f"error: --ray-address {address!r}: expected HOST:PORT")


def test_no_loopback_is_named_before_a_local_ray_starts(toy, tmp_path, capsys, monkeypatch):
    from icml26.common import preflight

    monkeypatch.setattr(preflight, "_loopback", lambda: "OSError: [Errno 101] Network is unreachable")
    assert main(["run", "toy_pi", "--executor", "ray", "--out", str(tmp_path)]) == 2
    assert "starts a local Ray, which needs the loopback interface" in capsys.readouterr().err


@pytest.mark.parametrize("kind", ["file", "readonly"])
def test_an_unusable_out_directory_is_rejected_up_front(toy, tmp_path, capsys, kind):
    target = tmp_path / "target"
    if kind == "file":
        target.write_text("x")
        expected = "is a file, not a directory"
    else:
        target.mkdir()
        target.chmod(0o500)
        expected = "is not writable"
        if os.access(target, os.W_OK):  # root writes anywhere: make it a path under a file instead
            target = tmp_path / "file" / "sub"
            (tmp_path / "file").write_text("x")
            expected = "cannot be created"
    for command in (
        ["run", "toy_pi", "--out", str(target)],
        ["report", "--runs", str(tmp_path), "--out", str(target)],
    ):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: --out") and expected in err and err.count("\n") == 1


def test_version_help_and_json(toy, capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == "icml26 0.1.0"
    assert main(["-h"]) == 0
    assert "Usage: icml26" in capsys.readouterr().out
    assert main(["list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == 19 and rows[0]["method"] == "flow_optimizer"
    assert main(["info", "toy_pi", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert {c["name"]: c["kind"] for c in info["claims"]}["impossible"] == "check"
    assert info["profiles"]["smoke"] == {"n": 4096, "levels": 3}


def test_run_and_reproduce_json_and_method_overrides(toy, tmp_path, capsys):
    assert main(["run", "toy_pi", "--profile", "smoke", "--json", "--out", str(tmp_path / "r")]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "finished" and {c["name"] for c in record["claims"]} >= {"impossible"}
    argv = [
        "reproduce",
        "toy_pi",
        "--profile",
        "smoke",
        "--seed",
        "0",
        "--seed",
        "1",
        "--set",
        "toy_pi.n=2048",
    ]
    assert main([*argv, "--out", str(tmp_path / "p"), "--report-dir", str(tmp_path / "rep")]) == 0
    (run_dir,) = (tmp_path / "p" / "toy_pi").iterdir()
    stored = json.loads((run_dir / "result.json").read_text())
    assert stored["seeds"] == [0, 1] and stored["config"]["n"] == 2048
    assert main(["reproduce", "toy_pi", "--set", "n=5", "--out", str(tmp_path / "q")]) == 2
    assert "expected METHOD.key=value" in capsys.readouterr().err


def test_a_cost_over_the_limits_is_refused_unless_forced(tmp_path, capsys):
    from icml26.common import Experiment, Result, registry

    def run(config, seed):
        return Result(metrics={"x": 1.0})

    exp = Experiment(
        "costly",
        "t",
        "p",
        run,
        {p: {"n": 10} for p in ("smoke", "quick", "paper")},
        (),
        cost=lambda config: (config["n"] * 1e4, 1e6),
    )
    registry.register(exp)
    try:
        assert main(["run", "costly", "--set", "n=10000", "--out", str(tmp_path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: costly: estimated 1e+08 s") and "--force" in err
        assert not (tmp_path / "costly").exists()
        assert main(["run", "costly", "--set", "n=10000", "--force", "--out", str(tmp_path)]) == 0
        (record,) = (tmp_path / "costly").glob("*/result.json")
        # the estimate is kept when forced
        assert json.loads(record.read_text())["estimate"] == {"seconds": 1e8, "bytes": 1e6}
    finally:
        registry.unregister("costly")


def test_rejudge_rewrites_verdicts_from_stored_seeds_and_rejects_bad_directories(toy, tmp_path, capsys):
    assert main(["run", "toy_pi", "--profile", "smoke", "--out", str(tmp_path)]) == 0
    (run_dir,) = (tmp_path / "toy_pi").iterdir()
    capsys.readouterr()
    assert main(["rejudge", str(run_dir)]) == 0
    assert "paper claims" in capsys.readouterr().out
    assert json.loads((run_dir / "result.json").read_text())["rejudged"]
    assert main(["rejudge", str(tmp_path / "nope")]) == 2
    assert capsys.readouterr().err.startswith(f"error: rejudge '{tmp_path / 'nope'}'")
