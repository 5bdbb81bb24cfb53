"""Running an experiment over seeds on an executor, and writing what it measured.

Each seed is one call of the pure function ``experiment.run(config, seed)``, so the seeds can be run in
this process (``local``) or as Ray tasks (``ray``) with the same results. Every finished seed is written
to disk at once (``seed_<n>.json``), and so is every finished unit of work inside a seed
(:mod:`icml26.common.checkpoint`), so a failure or an interrupt never loses what was measured, and
``resume`` continues where the run stopped. An interrupted run writes ``result.json`` with
``"status": "partial"``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import math
import os
import shutil
import signal
import sys
import time
import traceback
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from icml26.common.aggregate import _SUFFIXES, _combine, aggregate  # noqa: F401 (re-exported)
from icml26.common.checkpoint import finished_units, move_aside, units_in, write_atomic
from icml26.common.claims import conditions_unmet, roll_up_all
from icml26.common.config import resolve_config
from icml26.common.experiment import (
    Experiment,
    Plot,
    Result,
    verdict,
)
from icml26.common.preflight import (  # noqa: F401 (re-exported)
    LOCK_FILE,
    RAY_CONNECT_TIMEOUT_S,
    _loopback,
    _reachable,
    _speaks_grpc,
    check_ray_address,
    lock_run_dir,
    unlock_run_dir,
)
from icml26.common.progress import progress
from icml26.common.provenance import segment_commits, source_commit, versions  # noqa: F401 (re-exported)
from icml26.common.registry import get_experiment

EXECUTORS = ("local", "ray")
CONTRACT_VERSION = 3  # of the verdict contract that judged a result.json
MAX_SEED = 2**32 - 1  # the largest seed NumPy's legacy and PyTorch's global generators both accept
MAX_SECONDS = 12 * 3600.0  # the runner's limit on Experiment.cost's estimate (--force passes it)


class Interrupted(KeyboardInterrupt):
    """An interrupted run, after ``result.json`` (``"status": "partial"``) was written to ``directory``."""

    def __init__(self, method: str, directory: Path, finished_seeds: list[int], units: int) -> None:
        super().__init__(f"{method} interrupted")
        self.method, self.directory, self.finished_seeds, self.units = (
            method,
            directory,
            finished_seeds,
            units,
        )
        self.others: list[Interrupted] = []  # the other runs interrupted with it (reproduce)


@dataclass
class Run:
    """A finished, failed or interrupted run: what ``icml26 run`` writes as ``result.json``."""

    method: str
    profile: str
    config: dict[str, Any]
    seeds: list[int]
    directory: Path
    metrics: dict[str, float] = field(default_factory=dict)
    claims: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None
    status: str = "running"
    seconds: float = 0.0


@contextlib.contextmanager
def thread_limit(threads: int | None) -> Iterator[None]:
    """Run the block with ``threads`` torch and BLAS/OpenMP threads (``None``: leave them as they are);
    the previous settings come back afterwards. An experiment may still set its own inside."""
    if threads is None:
        yield
        return
    torch = sys.modules.get("torch")  # methods that use torch have imported it with their experiment
    previous = torch.get_num_threads() if torch is not None else None
    if torch is not None:
        torch.set_num_threads(threads)
    try:
        try:
            from threadpoolctl import threadpool_limits
        except ImportError:
            limits: contextlib.AbstractContextManager = contextlib.nullcontext()
        else:
            limits = threadpool_limits(threads)
        with limits:
            yield
    finally:
        if torch is not None:
            torch.set_num_threads(previous)


def cpu_clock() -> float:
    """CPU seconds this process and its waited-for children have used (user + system, every thread)."""
    return sum(os.times()[:4])


def _timed_run(
    run: Callable[[dict[str, Any], int], Result],
    config: dict[str, Any],
    seed: int,
    units: Path | None = None,
    threads: int | None = None,
) -> tuple[Result, float, float]:
    """``run(config, seed)`` and the wall and CPU seconds it took."""
    start, cpu = time.perf_counter(), cpu_clock()
    with units_in(units), thread_limit(threads):
        result = run(dict(config), seed)
    if not isinstance(result, Result):
        raise TypeError(f"experiment returned {type(result).__name__}, expected icml26.common.Result")
    return result, time.perf_counter() - start, cpu_clock() - cpu


def local_threads(experiment: Experiment, profile: str, share: int = 1) -> int:
    """Threads for one seed run here: the experiment's declared CPUs, at most this machine's cores
    divided among ``share`` concurrent runs."""
    cores = max(1, (os.cpu_count() or 1) // share)
    return min(experiment.resources_for(profile).cpus, cores)


def jsonable(value: Any) -> Any:
    """``value`` as JSON-ready data: dataclasses and arrays as lists, non-finite floats as strings."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return jsonable(dataclasses.asdict(value))
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, np.generic):
        return jsonable(value.item())
    if isinstance(value, np.ndarray):
        return jsonable(value.tolist())
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, Path):
        return str(value)
    return value


def write_json(path: Path, payload: Mapping[str, Any]) -> None:
    """``payload`` as JSON at ``path``, atomically (flushed, then renamed): a reader never sees half a file."""
    write_atomic(path, json.dumps(jsonable(payload), indent=2).encode())


def read_seed(path: Path) -> tuple[Result, float, float | None] | None:
    """A finished seed read back from ``seed_<n>.json``: its result, wall and CPU seconds (``None`` in a
    record that predates CPU time); ``None`` (the file moved aside, with a warning naming it) when it is
    empty, garbage or lacks its result, so that the seed is computed again."""
    try:
        stored = json.loads(path.read_text())
        cpu = stored.get("cpu_seconds")
        return (
            result_from_json(stored["result"]),
            float(stored["seconds"]),
            None if cpu is None else float(cpu),
        )
    except Exception as exc:  # noqa: BLE001 (any failure to read it back means: compute the seed again)
        move_aside(path, f"{type(exc).__name__}: {exc}")
        return None


def result_from_json(data: Mapping[str, Any]) -> Result:
    """A :class:`Result` read back from ``seed_<n>.json`` (non-finite numbers were stored as strings)."""
    metrics = {k: float(v) for k, v in data.get("metrics", {}).items()}
    plots = [Plot(**p) for p in data.get("plots", [])]
    return Result(metrics, data.get("tables", {}), plots, data.get("blocked", {}), data.get("notes", []))


def check_out_dir(out: str | Path, what: str = "--out") -> Path:
    """``out`` as a directory this process can write (created if missing); ``ValueError`` otherwise."""
    path = Path(out)
    if path.exists() and not path.is_dir():
        raise ValueError(f"{what} {str(path)!r} is a file, not a directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueError(f"{what} {str(path)!r} cannot be created: {exc.strerror}") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise ValueError(f"{what} {str(path)!r} is not writable")
    return path


def new_run_dir(out: Path, method: str) -> Path:
    """A new directory ``out/method/<UTC stamp to the microsecond>``; when another run of the method
    took the stamp (two runs started in one microsecond), the next free stamp."""
    while True:
        path = Path(out) / method / datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
        try:
            path.mkdir(parents=True, exist_ok=False)
            return path
        except FileExistsError:
            time.sleep(1e-6)


def check_seeds(seeds: Sequence[int]) -> list[int]:
    seeds = list(seeds)
    bad = [s for s in seeds if not isinstance(s, int) or isinstance(s, bool) or not 0 <= s <= MAX_SEED]
    if not seeds or bad:
        raise ValueError(f"seeds must be integers from 0 to {MAX_SEED}, got {bad or seeds!r}")
    if len(set(seeds)) != len(seeds):
        raise ValueError(f"seeds must be distinct, got {seeds!r}")
    return seeds


def _fmt_bytes(n: float) -> str:
    return f"{n / 2**30:.3g} GiB"


def check_cost(
    experiment: Experiment, config: Mapping[str, Any], seeds: Sequence[int], force: bool = False
) -> tuple[float, float] | None:
    """The experiment's estimate ``(seconds, bytes)`` for these seeds; ``ValueError`` when it exceeds the
    runner's limits (``MAX_SECONDS`` in all; one seed's memory above this machine's) unless ``force``."""
    if experiment.cost is None:
        return None
    seconds, memory = experiment.cost(dict(config))
    total = float(seconds) * len(seeds)
    ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    if not force and (total > MAX_SECONDS or memory > ram):
        raise ValueError(
            f"{experiment.method}: estimated {total:.3g} s and {_fmt_bytes(memory)} per seed for this config,"
            f" over the limits ({MAX_SECONDS:g} s in all, {_fmt_bytes(ram)} of memory); lower the sizes"
            " or pass --force"
        )
    return total, float(memory)


def _labels(experiment: Experiment, keys: Sequence[str]) -> dict[str, str]:
    return {k: experiment.names.get(k, k) for k in keys}


def judge(
    experiment: Experiment,
    metrics: Mapping[str, float],
    blocked: Mapping[str, str],
    profile: str,
    config: Mapping[str, Any] | None = None,
    at_profile: bool = True,
) -> list[dict]:
    """Each claim with its kind, scale, paper figure, our measurement (and interval), the strongest
    baseline, the controls and the verdict; statements formatted with ``config``."""
    rows = []
    for claim in experiment.claims:
        v = verdict(claim, metrics, blocked, profile, at_profile)
        # a precondition names a config key or, failing that, a measured metric (a premise about what was
        # trained, e.g. that a learned matrix moved)
        outside = conditions_unmet(claim.requires, {**metrics, **config}) if config is not None else []
        unmeasured = [k for k in (*claim.relative_to, *claim.controls) if k not in metrics]
        if unmeasured and profile != "smoke" and claim.name not in blocked and not claim.stored:
            warnings.warn(
                f"{experiment.method} claim {claim.name!r}: {', '.join(map(repr, unmeasured))} not measured"
                f" in profile {profile!r}; its verdict is inconclusive",
                stacklevel=2,
            )
        rows.append(
            {
                "name": claim.name,
                "kind": "check" if outside else claim.kind,
                "declared_kind": claim.kind,
                "supports": claim.supports,
                "title": claim.title,
                "outside_conditions": outside,
                "scale": claim.scale,
                "statement": claim.describe(config) if config is not None else claim.statement,
                "paper": claim.paper_value,
                "paper_figure": claim.paper_figure,
                "rule": claim.rule,
                "op": claim.op,
                "threshold": claim.threshold,
                "form": claim.form,
                "unit": "×" if claim.form == "ratio" else claim.unit,
                "statistic": claim.aggregate_by,
                "measured": v.measured,
                "interval": list(v.interval) if v.interval else None,
                "baseline": v.baseline,
                "baseline_label": experiment.names.get(v.baseline, v.baseline) if v.baseline else None,
                "baseline_value": v.baseline_value,
                "controls": dict(v.controls),
                "control_labels": _labels(experiment, list(v.controls)),
                "controls_passing": list(v.controls_passing),
                "non_discriminating": v.non_discriminating,
                "context": {m: metrics.get(m) for m in claim.context},
                "shown": {m: metrics.get(m) for m in claim.shown},
                "pvalue": list(claim.pvalue) if claim.pvalue else None,
                "revised": claim.revised,
                "revisions": [r.as_dict() for r in claim.revisions],
                "verdict": v.verdict,
                "reason": v.reason,
            }
        )
    return rows


@contextlib.contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """Turn the first SIGTERM inside the block into KeyboardInterrupt (main thread only), so that an
    interrupted run writes what finished either way; write it inside the block. A repeat is ignored until
    the block ends: Linux sends a ``--jobs`` worker its parent-death signal once per exiting thread of
    the parent, so a killed parent can deliver two SIGTERMs in a row, and the second one must not cut the
    recording short."""
    fired = False

    def handler(signum: int, frame: Any) -> None:
        nonlocal fired
        if not fired:
            fired = True
            raise KeyboardInterrupt(f"signal {signum}")

    try:
        previous = signal.signal(signal.SIGTERM, handler)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _load_header(directory: Path) -> dict[str, Any]:
    for name in ("result.json", "error.json"):
        path = directory / name
        if path.is_file():
            try:
                header = json.loads(path.read_text())
            except (OSError, json.JSONDecodeError) as exc:
                raise ValueError(f"--resume {str(directory)!r}: {name} is unreadable ({exc})") from None
            if not isinstance(header, dict) or not {"method", "profile", "config", "seeds"} <= set(header):
                raise ValueError(
                    f"--resume {str(directory)!r}: {name} lacks method, profile, config or seeds"
                )
            if header.get("status", "finished") == "finished" and name == "result.json":
                raise ValueError(f"--resume {str(directory)!r}: the run already finished")
            # "running": the process was killed (or still runs elsewhere); "partial", "failed": resumable
            return header
    raise ValueError(
        f"--resume {str(directory)!r}: no result.json or error.json of an interrupted or failed run"
    )


def latest_resumable(out: Path, method: str) -> Path:
    """The newest run of ``method`` under ``out`` that was interrupted or failed."""
    for directory in sorted((Path(out) / method).glob("*/"), reverse=True):
        with contextlib.suppress(ValueError):
            _load_header(directory)
            return directory
    raise ValueError(f"--resume: no interrupted or failed run of {method} under {str(out)!r}")


@dataclass
class PreparedRun:
    """A run directory ready to receive seeds: its header (written as ``result.json`` with ``"status":
    "running"``), the seeds already finished (read back on resume) and those still to run. Executors feed
    it finished or failed seeds; :meth:`close` writes the final ``result.json``."""

    experiment: Experiment
    directory: Path
    header: dict[str, Any]
    finished: dict[int, tuple[Result, float]] = field(default_factory=dict)
    failures: dict[int, str] = field(default_factory=dict)
    lock: int | None = None  # the descriptor holding <directory>/.lock (lock_run_dir), None once released
    created: bool = False  # this process created the directory (not a resume)
    spent: dict[int, float] = field(default_factory=dict)  # seconds interrupted segments spent per seed
    cpu: dict[int, float] = field(default_factory=dict)  # CPU seconds of each finished seed, where known
    spent_cpu: dict[int, float] = field(default_factory=dict)  # CPU seconds interrupted segments spent

    def discard(self) -> None:
        """Remove a directory this process created when nothing ran in it (the run could not start)."""
        self.release()
        if self.created and not list(self.directory.glob("seed_*.json")):
            shutil.rmtree(self.directory, ignore_errors=True)

    def release(self) -> None:
        """Let other processes work on this directory (after the run closed, failed or was interrupted)."""
        unlock_run_dir(self.lock)
        self.lock = None

    @property
    def seeds(self) -> list[int]:
        return self.header["seeds"]

    @property
    def profile(self) -> str:
        return self.header["profile"]

    @property
    def config(self) -> dict[str, Any]:
        return self.header["config"]

    @property
    def todo(self) -> list[int]:
        return [s for s in self.seeds if s not in self.finished and s not in self.failures]

    @property
    def done(self) -> bool:
        return not self.todo

    def units(self, seed: int) -> Path:
        return self.directory / "units" / f"seed_{seed}"

    def seed_done(self, seed: int, result: Result, seconds: float, cpu_seconds: float) -> None:
        known = seed not in self.spent or seed in self.spent_cpu  # not: a segment from before CPU time
        seconds += self.spent.pop(seed, 0.0)  # what an interrupted earlier segment spent on this seed
        cpu_seconds += self.spent_cpu.pop(seed, 0.0)
        self.finished[seed] = (result, seconds)
        if known:
            self.cpu[seed] = cpu_seconds
        stored = {"seconds": seconds, "cpu_seconds": cpu_seconds if known else None, "result": result}
        write_json(self.directory / f"seed_{seed}.json", {**self.header, "seed": seed, **stored})
        shutil.rmtree(self.units(seed), ignore_errors=True)  # the seed is stored whole now

    def seed_failed(self, seed: int, error: str, trace: str = "") -> None:
        """Record that ``seed`` failed (``error``: one line); the other seeds go on."""
        self.failures[seed] = error
        with (self.directory / "error.txt").open("a") as f:
            f.write(f"seed {seed}: {error}\n{trace}\n")

    def state(self, status: str) -> dict[str, Any]:
        """``result.json`` of an unfinished run: what finished, per seed, so far."""
        waiting = [s for s in self.seeds if s not in self.finished]
        return {
            **self.header,
            "status": status,
            "finished_seeds": sorted(self.finished),
            "finished_units": {str(s): len(finished_units(self.units(s))) for s in waiting},
            "spent_seconds": {str(s): t for s, t in sorted(self.spent.items())},
            "spent_cpu_seconds": {str(s): t for s, t in sorted(self.spent_cpu.items())},
            **(
                {"failed_seeds": {str(s): e for s, e in sorted(self.failures.items())}}
                if self.failures
                else {}
            ),
        }

    def start(self) -> None:
        write_json(self.directory / "result.json", self.state("running"))  # resumable even after a kill

    def record(self) -> Run:
        return Run(self.experiment.method, self.profile, self.config, self.seeds, self.directory)

    def close(self) -> Run:
        """Judge and write the finished run; with failed seeds, write it as ``partial`` (resumable) with
        each failed seed's error beside it."""
        record = self.record()
        if self.failures:
            state = {
                **self.state("partial"),
                "error": "; ".join(f"seed {s}: {e}" for s, e in self.failures.items()),
            }
            write_json(self.directory / "error.json", state)
            write_json(self.directory / "result.json", state)
            record.error, record.status = state["error"], "partial"
            self.release()
            return record
        payload = finish_run(
            self.experiment, self.directory, self.header, [self.finished[s] for s in self.seeds], self.cpu
        )
        shutil.rmtree(self.directory / "units", ignore_errors=True)  # every seed is in result.json now
        record.metrics, record.claims = payload["metrics"], payload["claims"]
        record.status, record.seconds = "finished", payload["wall_seconds"]
        self.release()
        return record

    def fail(self, exc: BaseException) -> Run:
        """Record a failure that stopped the whole run (seeds and units finished before it stay)."""
        record = self.record()
        record.error, record.status = f"{type(exc).__name__}: {exc}", "failed"
        failed = {**self.state("failed"), "error": record.error}
        try:
            (self.directory / "error.txt").write_text(traceback.format_exc())
            write_json(self.directory / "error.json", failed)
            write_json(self.directory / "result.json", failed)
        except OSError as write_error:  # e.g. the disk is full: what was written before stays resumable
            record.error += f" (and the failure could not be recorded: {write_error.strerror or write_error})"
        self.release()
        return record

    def interrupt_from_disk(self) -> Interrupted:
        """:meth:`interrupt` for a run another process computed (``--jobs``): the seeds and units finished
        are read from the directory; a ``result.json`` that process already closed is kept."""
        with contextlib.suppress(OSError, ValueError):
            stored = json.loads((self.directory / "result.json").read_text())
            if stored.get("status") in ("partial", "failed", "finished"):
                self.release()
                units = sum(stored.get("finished_units", {}).values())
                return Interrupted(
                    self.experiment.method, self.directory, stored.get("finished_seeds", []), units
                )
        for seed in self.seeds:
            if seed not in self.finished and (self.directory / f"seed_{seed}.json").is_file():
                self.finished[seed] = (Result({}), 0.0)  # on disk: only its presence counts here
        return self.interrupt()

    def interrupt(self) -> Interrupted:
        """Write ``result.json`` as ``partial``; the exception to raise."""
        state = self.state("partial")
        write_json(self.directory / "result.json", state)
        units = sum(state["finished_units"].values())
        self.release()
        return Interrupted(self.experiment.method, self.directory, state["finished_seeds"], units)


def prepare_run(
    method: str | Experiment,
    profile: str = "quick",
    seeds: Sequence[int] = (0,),
    overrides: Mapping[str, Any] | None = None,
    out: str | Path = "runs",
    executor: str = "local",
    ray_address: str | None = None,
    resume: str | Path | None = None,
    force: bool = False,
    lock: bool = True,
) -> PreparedRun:
    """Check everything about a run and create its directory (or read back the one ``resume`` names);
    ``ValueError`` for bad input, before anything runs. Nothing is written to ``result.json`` yet. The
    directory is held for this process (``lock``; :func:`lock_run_dir`): a second process resuming it
    while this one runs is refused with the owner's pid."""
    experiment = method if isinstance(method, Experiment) else get_experiment(method)
    if executor not in EXECUTORS:
        raise ValueError(f"unknown executor {executor!r}; accepted: {', '.join(EXECUTORS)}")
    current = versions()
    if resume is not None:
        directory = Path(resume)
        header = _load_header(directory)
        if header["method"] != experiment.method:
            raise ValueError(
                f"--resume {str(directory)!r} is a run of {header['method']}, not {experiment.method}"
            )
        profile, seeds = header["profile"], check_seeds(header["seeds"])
        stored = header["config"]
        if profile not in experiment.profiles or not isinstance(stored, dict):
            raise ValueError(
                f"--resume {str(directory)!r}: its profile or config is not one of {experiment.method}'s"
            )
        if set(stored) != set(experiment.profiles[profile]):
            raise ValueError(
                f"--resume {str(directory)!r}: its config keys differ from the {profile} profile's (the code changed"
                " since); start a new run"
            )
        config = resolve_config(experiment, profile, stored)  # the stored config must still be valid
        started = header.get("started")
        resumed = [*header.get("resumed", []), datetime.now(UTC).isoformat(timespec="seconds")]
        commits = [*segment_commits(header), current.get("commit")]
        spent = {int(k): float(v) for k, v in (header.get("spent_seconds") or {}).items() if int(k) in seeds}
        spent_cpu = {
            int(k): float(v) for k, v in (header.get("spent_cpu_seconds") or {}).items() if int(k) in seeds
        }
    else:
        seeds = check_seeds(seeds)
        config = resolve_config(experiment, profile, overrides)
        check_out_dir(out)
        directory, started, resumed, spent, spent_cpu = None, None, [], {}, {}
        commits = [current.get("commit")]
    estimate = check_cost(experiment, config, seeds, force=force)  # recorded even when forced
    if executor == "ray":
        check_ray_address(ray_address)
    created = directory is None
    if directory is None:
        directory = new_run_dir(Path(out), experiment.method)
    held = lock_run_dir(directory) if lock else None
    header = {
        "method": experiment.method,
        "title": experiment.title,
        "paper": experiment.paper,
        "description": experiment.description,
        "profile": profile,
        "config": config,
        "seeds": seeds,
        "executor": executor,
        "versions": current,
        "started": started or datetime.now(UTC).isoformat(timespec="seconds"),
        "estimate": {"seconds": estimate[0], "bytes": estimate[1]} if estimate else None,
        **({"resumed": resumed} if resumed else {}),  # when each later segment of the run began
        "segment_commits": commits,  # the source commit of the first segment and of each resumed one
    }
    prepared = PreparedRun(
        experiment, directory, header, lock=held, created=created, spent=spent, spent_cpu=spent_cpu
    )
    for seed in seeds:  # a resumed run reads back the seeds it finished
        path = directory / f"seed_{seed}.json"
        if resume is not None and path.is_file() and (stored := read_seed(path)) is not None:
            prepared.finished[seed] = stored[:2]
            if stored[2] is not None:
                prepared.cpu[seed] = stored[2]
    return prepared


def run_prepared(prepared: PreparedRun, threads: int | None = None) -> Run:
    """Run a prepared run's remaining seeds here, one after another, with ``threads`` threads (default:
    the experiment's declared CPUs). A failing seed stops the run (``"status": "failed"``); on
    KeyboardInterrupt or SIGTERM, ``result.json`` says ``partial`` and :class:`Interrupted` is raised."""
    experiment = prepared.experiment
    if threads is None:
        threads = local_threads(experiment, prepared.profile)
    prepared.start()
    with _sigterm_as_interrupt():  # the partial record is written inside: a repeated SIGTERM cannot cut it
        try:
            for seed in progress(prepared.todo, f"{experiment.method} seeds"):
                began, began_cpu = time.perf_counter(), cpu_clock()
                try:
                    timed = _timed_run(experiment.run, prepared.config, seed, prepared.units(seed), threads)
                except BaseException:  # interrupted or failed: the segment's time was spent all the same
                    prepared.spent[seed] = prepared.spent.get(seed, 0.0) + time.perf_counter() - began
                    prepared.spent_cpu[seed] = prepared.spent_cpu.get(seed, 0.0) + cpu_clock() - began_cpu
                    raise
                prepared.seed_done(seed, *timed)
            return prepared.close()
        except KeyboardInterrupt as exc:
            raise prepared.interrupt() from exc
        except Exception as exc:  # record the failure, keep what is written, let the caller decide
            return prepared.fail(exc)


def run_experiment(
    method: str | Experiment,
    profile: str = "quick",
    seeds: Sequence[int] = (0,),
    overrides: Mapping[str, Any] | None = None,
    out: str | Path = "runs",
    executor: str = "local",
    ray_address: str | None = None,
    resume: str | Path | None = None,
    force: bool = False,
    threads: int | None = None,
    lock: bool = True,
) -> Run:
    """Run ``method``'s experiment for each seed and write ``result.json``, ``result.md`` and plots.

    Bad input (unknown method, profile, key or executor; a bad value or seed; an unwritable ``out``; a
    cost estimate over the limits without ``force``; an unreachable Ray) raises ``ValueError`` before
    anything runs. A failure inside the experiment is recorded in ``error.txt`` and in the returned
    ``Run.error``; seeds and units that finished before it stay written. ``resume`` (a run directory)
    continues an interrupted or failed run with its own profile, config and seeds: finished seeds are
    read back, finished units reused. On KeyboardInterrupt or SIGTERM, ``result.json`` is written with
    ``"status": "partial"`` and the interrupt is re-raised. ``executor="ray"`` runs the seeds as Ray
    tasks with the experiment's declared resources (:func:`icml26.common.scheduler.run_on_ray`);
    ``threads`` (local only) overrides the declared CPUs.
    """
    prepared = prepare_run(method, profile, seeds, overrides, out, executor, ray_address, resume, force, lock)
    if executor == "local":
        return run_prepared(prepared, threads)
    from icml26.common.scheduler import run_on_ray

    return run_on_ray([prepared], ray_address)[0]


def finish_run(
    experiment: Experiment,
    directory: Path,
    header: Mapping[str, Any],
    ordered: Sequence[tuple[Result, float]],
    cpu: Mapping[int, float] | None = None,
) -> dict[str, Any]:
    """Aggregate the seeds' results, judge the claims, draw the plots and write ``result.json`` and
    ``result.md``; return what was written. ``cpu``: each seed's CPU seconds, where measured (the record
    states ``cpu_seconds`` only when every seed has them)."""
    from icml26.common.output import write_markdown, write_plots

    seeds, profile, config = header["seeds"], header["profile"], header["config"]
    comparisons = [(c.metric, b, c.form) for c in experiment.claims for b in c.relative_to]
    metrics = aggregate([r.metrics for r, _ in ordered], experiment.statistics(), comparisons)
    blocked = {k: v for r, _ in ordered for k, v in r.blocked.items()}
    at_profile = dict(config) == dict(experiment.profiles[profile])
    claims = judge(experiment, metrics, blocked, profile, config, at_profile)
    plots: list[str] = []
    plot_claims: dict[str, str] = {}
    for seed, (result, _) in zip(seeds, ordered):
        suffix = f"_seed{seed}" if len(seeds) > 1 else ""
        files = write_plots(directory, result.plots, claims, suffix)
        plots += files
        plot_claims |= {f: p.claim for f, p in zip(files, result.plots) if p.claim}
    payload = {
        **header,
        "status": "finished",
        "contract": CONTRACT_VERSION,
        "finished": datetime.now(UTC).isoformat(timespec="seconds"),
        "seconds": {str(s): t for s, (_, t) in zip(seeds, ordered)},
        "wall_seconds": sum(t for _, t in ordered),
        **(
            {"cpu_seconds": {str(s): cpu[s] for s in seeds}, "total_cpu_seconds": sum(cpu[s] for s in seeds)}
            if cpu and all(s in cpu for s in seeds)
            else {}
        ),
        "metrics": metrics,
        "per_seed_metrics": {str(s): r.metrics for s, (r, _) in zip(seeds, ordered)},
        "paper_claims": roll_up_all(experiment.paper_claims, claims),
        "background": [{"quote": b.quote, "reason": b.reason} for b in experiment.background],
        "claims": claims,
        "tables": ordered[0][0].tables,
        "notes": list(dict.fromkeys(n for r, _ in ordered for n in r.notes)),
        "blocked": blocked,
        "plots": plots,
        "plot_claims": plot_claims,
    }
    (directory / "error.json").unlink(missing_ok=True)  # a resumed failure that now finished
    write_json(directory / "result.json", payload)
    write_markdown(directory / "result.md", payload)
    error = directory / "error.txt"
    if error.is_file():  # its traceback stays, named for what it now is (appended: earlier ones stay too)
        with (directory / "error_of_an_earlier_segment.txt").open("a") as kept:
            kept.write(error.read_text())
        error.unlink()
    return payload


def rejudge(directory: str | Path) -> dict[str, Any]:
    """Judge a finished run's stored measurements again under the current claims and verdict rules.

    Nothing is measured again: the seeds' results are read back from ``seed_<n>.json`` and aggregated,
    judged and written as :func:`finish_run` does; ``result.json`` records when (``"rejudged"``) and keeps
    its original ``finished`` time. Used when the contract changes after a run.
    """
    directory = Path(directory)
    header = json.loads((directory / "result.json").read_text())
    if not isinstance(header, dict) or not {"method", "seeds"} <= set(header):
        raise ValueError(f"rejudge {str(directory)!r}: result.json is not a run record (no method and seeds)")
    if header.get("status", "finished") != "finished":
        raise ValueError(f"rejudge {str(directory)!r}: the run did not finish")
    experiment = get_experiment(header["method"])
    ordered, cpu = [], {}
    for seed in header["seeds"]:
        stored = json.loads((directory / f"seed_{seed}.json").read_text())
        ordered.append((result_from_json(stored["result"]), float(stored["seconds"])))
        if stored.get("cpu_seconds") is not None:
            cpu[seed] = float(stored["cpu_seconds"])
    keep = {
        k: header[k]
        for k in (
            "method",
            "title",
            "paper",
            "description",
            "profile",
            "config",
            "seeds",
            "executor",
            "versions",
            "started",
            "estimate",
            "resumed",
            "segment_commits",
        )
        if k in header
    }
    payload = finish_run(experiment, directory, keep, ordered, cpu)
    payload |= {
        "finished": header.get("finished"),
        "rejudged": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    write_json(directory / "result.json", payload)
    return payload
