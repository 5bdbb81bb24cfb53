"""Running an experiment over seeds on an executor, and writing what it measured.

Each seed is one call of the pure function ``experiment.run(config, seed)``, so the seeds can be run in
this process (``local``) or as Ray tasks (``ray``) with the same results. Every finished seed is written
to disk at once (``seed_<n>.json``), so a failure later in a run never loses what was measured.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import math
import platform
import time
import traceback
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from icml26.common.config import resolve_config
from icml26.common.experiment import Experiment, Result, verdict
from icml26.common.progress import progress
from icml26.common.registry import get_experiment
from icml26.common.stats import ci95

EXECUTORS = ("local", "ray")


@dataclass
class Run:
    """A finished (or failed) run: what ``icml26 run`` writes as ``result.json``."""

    method: str
    profile: str
    config: dict[str, Any]
    seeds: list[int]
    directory: Path
    metrics: dict[str, float] = field(default_factory=dict)
    claims: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None


def _timed_run(
    run: Callable[[dict[str, Any], int], Result], config: dict[str, Any], seed: int
) -> tuple[Result, float]:
    start = time.perf_counter()
    result = run(dict(config), seed)
    if not isinstance(result, Result):
        raise TypeError(f"experiment returned {type(result).__name__}, expected icml26.common.Result")
    return result, time.perf_counter() - start


def _run_local(
    experiment: Experiment, config: dict[str, Any], seeds: Sequence[int], on_done: Callable
) -> None:
    for seed in progress(seeds, f"{experiment.method} seeds"):
        on_done(seed, *_timed_run(experiment.run, config, seed))


def _run_ray(
    experiment: Experiment,
    config: dict[str, Any],
    seeds: Sequence[int],
    on_done: Callable,
    address: str | None,
) -> None:
    try:
        import ray
    except ImportError:
        raise ValueError("executor 'ray' needs Ray: pip install 'icml26[ray]'") from None
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    task = ray.remote(_timed_run)
    pending = {task.remote(experiment.run, config, seed): seed for seed in seeds}
    while pending:
        done, _ = ray.wait(list(pending), num_returns=1)
        seed = pending.pop(done[0])
        on_done(seed, *ray.get(done[0]))


def aggregate(per_seed: Sequence[Mapping[str, float]]) -> dict[str, float]:
    """Mean of each metric over seeds; with several seeds and no interval of its own (``<key>_ci`` or
    ``<key>_ci_low``/``_ci_high``), add the 95% Student-t half-width of the mean
    (:func:`~icml26.common.stats.ci95`) as ``<key>_ci``."""
    keys = list(dict.fromkeys(k for m in per_seed for k in m))
    out: dict[str, float] = {}
    for key in keys:
        values = np.array([float(m[key]) for m in per_seed if key in m], dtype=float)
        out[key] = float(values.mean())
        own_interval = key + "_ci" in keys or key + "_ci_low" in keys
        if len(values) > 1 and not own_interval and not key.endswith(("_ci", "_ci_low", "_ci_high")):
            out[key + "_ci"] = ci95(values)
    return out


def versions() -> dict[str, str]:
    import icml26

    out = {"python": platform.python_version(), "platform": platform.platform(), "icml26": icml26.__version__}
    for name in ("numpy", "scipy", "torch"):
        with contextlib.suppress(ImportError):
            out[name] = __import__(name).__version__
    return out


def _jsonable(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _jsonable(dataclasses.asdict(value))
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, Path):
        return str(value)
    return value


def write_json(path: Path, payload: Mapping[str, Any]) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(_jsonable(payload), indent=2))
    tmp.replace(path)  # atomic: a reader never sees half a file


def new_run_dir(out: Path, method: str) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    path = Path(out) / method / stamp
    path.mkdir(parents=True, exist_ok=False)
    return path


def judge(
    experiment: Experiment, metrics: Mapping[str, float], blocked: Mapping[str, str], profile: str
) -> list[dict]:
    """Each claim with its kind, scale, paper figure, our measurement (and interval), the strongest
    baseline, the controls and the verdict."""
    rows = []
    for claim in experiment.claims:
        v = verdict(claim, metrics, blocked, profile)
        unmeasured = [k for k in (*claim.relative_to, *claim.controls) if k not in metrics]
        if unmeasured and profile != "smoke" and claim.name not in blocked:
            warnings.warn(
                f"{experiment.method} claim {claim.name!r}: {', '.join(map(repr, unmeasured))} not measured"
                f" in profile {profile!r}; its verdict is inconclusive",
                stacklevel=2,
            )
        rows.append(
            {
                "name": claim.name,
                "kind": claim.kind,
                "scale": claim.scale,
                "statement": claim.statement,
                "paper": claim.paper_value,
                "rule": claim.rule,
                "measured": v.measured,
                "interval": list(v.interval) if v.interval else None,
                "baseline": v.baseline,
                "baseline_value": v.baseline_value,
                "controls": dict(v.controls),
                "controls_passing": list(v.controls_passing),
                "non_discriminating": v.non_discriminating,
                "context": {m: metrics.get(m) for m in claim.context},
                "revised": claim.revised,
                "verdict": v.verdict,
                "reason": v.reason,
            }
        )
    return rows


def run_experiment(
    method: str | Experiment,
    profile: str = "quick",
    seeds: Sequence[int] = (0,),
    overrides: Mapping[str, Any] | None = None,
    out: str | Path = "runs",
    executor: str = "local",
    ray_address: str | None = None,
) -> Run:
    """Run ``method``'s experiment for each seed and write ``result.json``, ``result.md`` and plots.

    Bad input (unknown method, profile, key or executor; a bad value or seed) raises ``ValueError``
    before anything runs. A failure inside the experiment is recorded in ``error.txt`` and in the
    returned ``Run.error``; seeds that finished before it stay written.
    """
    from icml26.common.output import write_markdown, write_plots

    experiment = method if isinstance(method, Experiment) else get_experiment(method)
    if executor not in EXECUTORS:
        raise ValueError(f"unknown executor {executor!r}; accepted: {', '.join(EXECUTORS)}")
    seeds = list(seeds)
    if not seeds or any(not isinstance(s, int) or isinstance(s, bool) or s < 0 for s in seeds):
        raise ValueError(f"seeds must be non-negative integers, got {seeds!r}")
    if len(set(seeds)) != len(seeds):
        raise ValueError(f"seeds must be distinct, got {seeds!r}")
    config = resolve_config(experiment, profile, overrides)
    directory = new_run_dir(Path(out), experiment.method)
    record = Run(experiment.method, profile, config, seeds, directory)
    header = {
        "method": experiment.method,
        "title": experiment.title,
        "paper": experiment.paper,
        "description": experiment.description,
        "profile": profile,
        "config": config,
        "seeds": seeds,
        "executor": executor,
        "versions": versions(),
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    finished: dict[int, tuple[Result, float]] = {}

    def on_done(seed: int, result: Result, seconds: float) -> None:
        finished[seed] = (result, seconds)
        write_json(
            directory / f"seed_{seed}.json", {**header, "seed": seed, "seconds": seconds, "result": result}
        )

    try:
        if executor == "local":
            _run_local(experiment, config, seeds, on_done)
        else:
            _run_ray(experiment, config, seeds, on_done, ray_address)
    except Exception as exc:  # record which experiment failed, keep what is written, let the caller decide
        record.error = f"{type(exc).__name__}: {exc}"
        (directory / "error.txt").write_text(traceback.format_exc())
        write_json(
            directory / "error.json", {**header, "error": record.error, "finished_seeds": sorted(finished)}
        )
        return record

    ordered = [finished[s] for s in seeds]
    first = ordered[0][0]
    record.metrics = aggregate([r.metrics for r, _ in ordered])
    blocked = {k: v for r, _ in ordered for k, v in r.blocked.items()}
    record.claims = judge(experiment, record.metrics, blocked, profile)
    plots = write_plots(directory, first.plots)
    payload = {
        **header,
        "finished": datetime.now(UTC).isoformat(timespec="seconds"),
        "seconds": {str(s): t for s, (_, t) in zip(seeds, ordered)},
        "metrics": record.metrics,
        "per_seed_metrics": {str(s): r.metrics for s, (r, _) in zip(seeds, ordered)},
        "claims": record.claims,
        "tables": first.tables,
        "notes": list(dict.fromkeys(n for r, _ in ordered for n in r.notes)),
        "blocked": blocked,
        "plots": plots,
    }
    write_json(directory / "result.json", payload)
    write_markdown(directory / "result.md", payload)
    return record
