"""Running many prepared runs at once: every (method, seed) as a Ray task with its declared resources, or
several methods in local processes (``--jobs``), with one progress display over the whole reproduction.

Each run was prepared by :func:`icml26.common.runner.prepare_run` (its directory and header exist). A
finished seed is written as ``seed_<n>.json`` the moment it arrives, a method's ``result.json`` when its
seeds are done; a failing task never stops the others (its method is written ``partial``, resumable, with
the seed's error beside it). A Ray task whose resources no node of the cluster has is failed after
``UNSCHEDULABLE_WAIT_S`` with a message naming the resource (Ray itself would wait for ever).
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from icml26.common.experiment import Experiment
from icml26.common.progress import progress_enabled
from icml26.common.runner import (
    Interrupted,
    PreparedRun,
    Run,
    _sigterm_as_interrupt,
    _timed_run,
    local_threads,
    run_experiment,
)

UNSCHEDULABLE_WAIT_S = 30.0  # how long a task may wait for resources no node has (a cluster may grow)
POLL_S = 0.5
WORKER_GRACE_S = 20.0  # how long an interrupted --jobs worker may take to write its run 'partial'


def ray_demand(prepared: PreparedRun) -> dict[str, float]:
    """What one seed of ``prepared`` asks a Ray node for: ``CPU``, ``GPU``, ``memory`` (bytes, from the
    experiment's cost estimate) and its custom resources."""
    experiment, resources = prepared.experiment, prepared.experiment.resources_for(prepared.profile)
    demand: dict[str, float] = {"CPU": float(resources.cpus)}
    if resources.gpus:
        demand["GPU"] = float(resources.gpus)
    if experiment.cost is not None:
        demand["memory"] = float(int(experiment.cost(dict(prepared.config))[1]))
    return demand | {k: float(v) for k, v in resources.custom.items()}


def ray_options(demand: Mapping[str, float]) -> dict[str, Any]:
    """``demand`` as ``ray.remote(...).options`` keywords."""
    custom = {k: v for k, v in demand.items() if k not in ("CPU", "GPU", "memory")}
    options: dict[str, Any] = {"num_cpus": demand["CPU"], "num_gpus": demand.get("GPU", 0.0)}
    if "memory" in demand:
        options["memory"] = int(demand["memory"])
    if custom:
        options["resources"] = custom
    return options


def missing_resource(demand: Mapping[str, float], nodes: Sequence[Mapping[str, Any]]) -> str | None:
    """None if some alive node has every resource of ``demand``; else which resource none has enough of
    (``ray.nodes()`` entries: ``Alive`` and ``Resources``)."""
    alive = [n.get("Resources", {}) for n in nodes if n.get("Alive", True)]
    if any(all(node.get(k, 0.0) >= v for k, v in demand.items()) for node in alive):
        return None
    for name, amount in demand.items():
        largest = max((node.get(name, 0.0) for node in alive), default=0.0)
        if largest < amount:
            return f"{name} {amount:g} (the largest node has {largest:g})"
    return "this combination of " + ", ".join(f"{k} {v:g}" for k, v in demand.items()) + " on one node"


def _cause(exc: BaseException) -> str:
    cause = getattr(exc, "cause", None) or exc  # RayTaskError carries the remote exception
    return f"{type(cause).__name__}: {cause}"


def run_on_ray(
    runs: Sequence[PreparedRun], address: str | None = None, on_close: Callable[[Run], None] | None = None
) -> list[Run]:
    """Submit every remaining seed of every run at once as a Ray task (``num_cpus``, ``num_gpus``,
    ``memory``, custom ``resources`` from the experiment's declaration) and write each result as it
    arrives; ``on_close`` is called with each run's record when its seeds are done. Returns the records in
    the order of ``runs``. On KeyboardInterrupt every unfinished run is written ``partial`` and the first
    one's :class:`Interrupted` is raised."""
    try:
        import ray
    except ImportError:
        raise ValueError("executor 'ray' needs Ray: pip install 'icml26[ray]'") from None
    if not ray.is_initialized():
        try:
            ray.init(address=address, include_dashboard=False, log_to_driver=False)
        except Exception as exc:  # noqa: BLE001 (Ray raises ConnectionError, RuntimeError, TimeoutError, ...)
            for prepared in runs:
                prepared.discard()  # nothing ran: leave no empty run directory behind
            where = address or "a local Ray"
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            raise ValueError(f"cannot start or join Ray at {where}: {type(exc).__name__}: {first}") from None
    task = ray.remote(_timed_run)
    records: dict[int, Run] = {}
    queue = [(i, seed) for i, prepared in enumerate(runs) for seed in prepared.todo]
    first_refused: dict[tuple[int, int], float] = {}
    pending: dict[Any, tuple[int, int]] = {}
    demands = [ray_demand(p) for p in runs]

    def close_if_done(i: int) -> None:
        if runs[i].done and i not in records:
            records[i] = runs[i].close()
            if on_close is not None:
                on_close(records[i])

    for i, prepared in enumerate(runs):
        prepared.start()
        close_if_done(i)  # a resumed run with nothing left
    with _sigterm_as_interrupt():  # the partial records are written inside, safe from a repeated SIGTERM
        try:
            with _display(runs) as refresh:
                while queue or pending:
                    nodes = ray.nodes() if queue else []
                    for i, seed in list(queue):
                        prepared, missing = runs[i], missing_resource(demands[i], nodes)
                        if missing is None:
                            ref = task.options(**ray_options(demands[i])).remote(
                                prepared.experiment.run,
                                prepared.config,
                                seed,
                                prepared.units(seed),
                                int(demands[i]["CPU"]),
                            )
                            pending[ref] = (i, seed)
                            queue.remove((i, seed))
                        elif time.monotonic() - first_refused.setdefault((i, seed), time.monotonic()) > (
                            UNSCHEDULABLE_WAIT_S
                        ):
                            prepared.seed_failed(
                                seed,
                                f"unschedulable: the task needs {missing}; no node of the Ray cluster provided it"
                                f" within {UNSCHEDULABLE_WAIT_S:g} s",
                            )
                            queue.remove((i, seed))
                            close_if_done(i)
                    done = ray.wait(list(pending), num_returns=1, timeout=POLL_S)[0] if pending else []
                    if not pending:
                        time.sleep(POLL_S)
                    for ref in done:
                        i, seed = pending.pop(ref)
                        try:
                            timed = ray.get(ref)
                        except Exception as exc:  # the task failed: record it, the others go on
                            runs[i].seed_failed(seed, _cause(exc), str(exc))
                        else:
                            runs[i].seed_done(seed, *timed)
                        close_if_done(i)
                    refresh()
        except KeyboardInterrupt as exc:
            for ref in pending:
                ray.cancel(ref, force=True)
            interrupts = [runs[i].interrupt() for i in range(len(runs)) if i not in records]
            if interrupts:
                raise interrupts[0] from exc
            raise
    return [records[i] for i in range(len(runs))]


def _child(experiment: Any, directory: Path, threads: int) -> Run:
    """One method's run in a worker process: the prepared directory resumed with ``threads`` threads."""
    os.environ["ICML26_PROGRESS"] = "0"  # the parent draws the progress
    try:
        # the parent prepared the directory and holds its lock for the whole run
        return run_experiment(experiment, resume=directory, force=True, threads=threads, lock=False)
    except Interrupted as exc:
        if os.getppid() != _PARENT[0]:  # the parent is gone (the death signal): partial is written, leave
            os._exit(130)  # no one will send this worker more work or the sentinel that ends it
        return Run(exc.method, "", {}, [], exc.directory, error="interrupted", status="partial")


_PARENT = [0]  # in a --jobs worker: the pid of the process that started it


def _worker_init() -> None:
    """In each ``--jobs`` worker: die with the parent. Linux's parent-death signal sends SIGTERM when the
    parent ends (even by SIGKILL), which the worker's run turns into ``partial`` (elsewhere: no-op)."""
    _PARENT[0] = os.getppid()
    if sys.platform.startswith("linux"):
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGTERM))  # PR_SET_PDEATHSIG = 1
        if os.getppid() == 1:  # the parent died before the signal was armed
            os.kill(os.getpid(), signal.SIGTERM)


def _stop_workers(pool: ProcessPoolExecutor, grace: float = WORKER_GRACE_S) -> None:
    """SIGTERM every worker (each writes its run ``partial``), let them exit (no new work), wait up to
    ``grace`` seconds, then kill what is left."""
    processes = list((getattr(pool, "_processes", None) or {}).values())  # the executor has no public list
    for proc in processes:
        with contextlib.suppress(OSError, ValueError):
            os.kill(proc.pid, signal.SIGTERM)
    pool.shutdown(wait=False, cancel_futures=True)
    deadline = time.monotonic() + grace
    for proc in processes:
        proc.join(max(0.0, deadline - time.monotonic()))
        if proc.is_alive():
            proc.kill()
            proc.join(5)


def run_in_processes(
    runs: Sequence[PreparedRun], jobs: int, on_close: Callable[[Run], None] | None = None
) -> list[Run]:
    """Run the prepared runs ``jobs`` at a time, each in its own process (no Ray needed) with its share of
    this machine's threads; ``on_close`` is called with each record as its run ends. Returns the records
    in the order of ``runs``.

    On KeyboardInterrupt or SIGTERM the workers are stopped (each writes its run ``partial``), runs not
    started are written ``partial`` too, and :class:`Interrupted` is raised for the first unfinished run
    (the others in its ``others``). Workers die with this process, even when it is killed."""
    if not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 1:
        raise ValueError(f"jobs must be an integer >= 1, got {jobs!r}")
    for prepared in runs:
        prepared.start()  # visible as running at once; each child resumes its directory
    records: dict[int, Run] = {}
    context = multiprocessing.get_context("spawn")  # no fork of a process with thread pools
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_worker_init)
    try:
        with _sigterm_as_interrupt():  # the partial records are written inside (a repeated SIGTERM waits)
            try:
                with _display(runs) as refresh:
                    futures: dict[Future, int] = {
                        pool.submit(
                            _child, p.experiment, p.directory, local_threads(p.experiment, p.profile, jobs)
                        ): i
                        for i, p in enumerate(runs)
                    }
                    while futures:
                        done, _ = wait(list(futures), timeout=POLL_S, return_when=FIRST_COMPLETED)
                        for future in done:
                            i = futures.pop(future)
                            try:
                                records[i] = future.result()
                            except Exception as exc:  # the worker process itself died
                                records[i] = runs[i].fail(exc)
                            runs[i].release()
                            if on_close is not None:
                                on_close(records[i])
                        refresh()
            except KeyboardInterrupt as exc:
                # a second Ctrl-C ends the wait, not the recording
                with contextlib.suppress(KeyboardInterrupt):
                    _stop_workers(pool)
                interrupts = [runs[i].interrupt_from_disk() for i in range(len(runs)) if i not in records]
                if not interrupts:
                    raise
                interrupts[0].others = interrupts[1:]
                raise interrupts[0] from exc
    except KeyboardInterrupt:  # recorded above
        raise
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
    return [records[i] for i in range(len(runs))]


# ---------------------------------------------------------------- progress over a whole reproduction


def expected_seconds(
    experiment: Experiment,
    profile: str,
    config: Mapping[str, Any],
    seeds: int,
    out: Path,
    exclude: Path | None = None,
) -> float:
    """Seconds ``seeds`` runner seeds of ``experiment`` should take: per seed, the newest finished run of
    the same method and profile under ``out`` (other than ``exclude``), else the cost estimate (else a
    minute)."""
    for path in sorted((Path(out) / experiment.method).glob("*/result.json"), reverse=True):
        if path.parent == exclude:
            continue
        try:
            run = json.loads(path.read_text())
        except (OSError, json.JSONDecodeError):
            continue
        if run.get("status") == "finished" and run.get("profile") == profile and run.get("seeds"):
            return float(run["wall_seconds"]) / len(run["seeds"]) * seeds
    if experiment.cost is not None:
        return float(experiment.cost(dict(config))[0]) * seeds
    return 60.0 * seeds


def _expected(prepared: PreparedRun) -> float:
    out = prepared.directory.parent.parent
    return expected_seconds(
        prepared.experiment, prepared.profile, prepared.config, len(prepared.todo), out, prepared.directory
    )


def _seeds_written(prepared: PreparedRun) -> int:
    return sum(1 for s in prepared.seeds if (prepared.directory / f"seed_{s}.json").is_file())


def _closed(prepared: PreparedRun) -> bool:
    try:
        status = json.loads((prepared.directory / "result.json").read_text()).get("status")
    except (OSError, json.JSONDecodeError):
        return False
    return status in ("finished", "partial", "failed")


@contextmanager
def _display(runs: Sequence[PreparedRun]) -> Iterator[Callable[[], None]]:
    """One bar per method (its seeds, read from what its directory holds) and an overall bar whose
    total is the expected seconds of every method, with the time remaining; yields ``refresh``."""
    if not progress_enabled():
        yield lambda: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    expected = [max(_expected(p), 1.0) for p in runs]
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True)) as bar:
        overall = bar.add_task("all methods (s)", total=round(sum(expected)))
        tasks = [bar.add_task(p.experiment.method, total=len(p.seeds)) for p in runs]

        def refresh() -> None:
            progress = 0.0
            for prepared, task, seconds in zip(runs, tasks, expected):
                written = _seeds_written(prepared)
                bar.update(task, completed=written)
                progress += seconds if _closed(prepared) else seconds * written / len(prepared.seeds)
            bar.update(overall, completed=round(progress))

        yield refresh
