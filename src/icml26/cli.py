"""The ``icml26`` command line: list, info, run, reproduce, report.

Bad input exits with status 2 and one line on stderr; a failed experiment exits with status 1 after
writing what it had measured; an interrupt (Ctrl-C, SIGTERM) exits with 130 after writing what
finished, which ``--resume`` continues. ``--json`` prints machine-readable output instead of tables.
Heavy modules (the runner, the report, the methods) are imported only by the commands that use them,
so ``icml26 list`` stays fast.
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

import icml26
from icml26.common.config import parse_overrides
from icml26.common.experiment import PROFILES
from icml26.common.output import claim_rows, fmt, tally, tally_text
from icml26.common.registry import METHODS, available, get_experiment, is_implemented

try:  # typer >= 0.2x vendors its own click
    from typer._click.exceptions import ClickException, UsageError
except ImportError:  # pragma: no cover
    from click.exceptions import ClickException, UsageError

EXECUTORS = ("local", "ray")
app = typer.Typer(
    help="Nineteen ICML 2026 papers as runnable, tested software.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
console = Console(width=None if sys.stdout.isatty() else 160)  # wide tables in logs and pipes
errors = Console(stderr=True, width=None if sys.stderr.isatty() else 160)
JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]
# Third-party progress bars and banners that would leak into the terminal (the project shows its own).
QUIET_ENV = {
    "HF_HUB_DISABLE_PROGRESS_BARS": "1",
    "TRANSFORMERS_VERBOSITY": "error",
    "TOKENIZERS_PARALLELISM": "false",
    "TQDM_DISABLE": "1",
}


class BadInput(UsageError):
    """Raised for user errors; ``main`` prints it as one line and exits 2."""


def _version(value: bool) -> None:
    if value:
        print(f"icml26 {icml26.__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit.")
    ] = False,
) -> None:
    """Nineteen ICML 2026 papers as runnable, tested software."""


def _experiment(method: str):
    try:
        return get_experiment(method)
    except ValueError as exc:
        raise BadInput(str(exc)) from None
    except ImportError as exc:
        raise BadInput(f"method {method!r} needs its extra: pip install 'icml26[{method}]' ({exc})") from None


def _check_choice(name: str, value: str, accepted: tuple[str, ...]) -> None:
    if value not in accepted:
        raise BadInput(f"unknown {name} {value!r}; accepted: {', '.join(accepted)}")


def _check_ray_flags(executor: str, ray_address: str | None) -> None:
    if ray_address is not None and executor != "ray":
        raise BadInput(f"--ray-address is for --executor ray (got --executor {executor}); add --executor ray")


def _print_json(payload: Any) -> None:
    """Strict JSON on stdout (non-finite numbers as strings, as in result.json)."""
    try:  # plain data (``list --json``) needs no conversion, and so not the runner's imports (SciPy)
        text = json.dumps(payload, indent=2, allow_nan=False)
    except (TypeError, ValueError):
        from icml26.common.runner import jsonable

        text = json.dumps(jsonable(payload), indent=2, default=str, allow_nan=False)
    print(text)


def _print_claims(claims: list[dict], profile: str, method: str | None = None) -> None:
    """The run's verdicts: the abstract's claims first (contract v3), then the tests and the checks."""
    from icml26.common.claims import roll_up_all
    from icml26.common.output import paper_claim_rows, rows_of_tests

    if profile == "smoke":
        console.print("[yellow]plumbing check: a smoke run cannot decide these claims; not counted[/yellow]")
    paper_claims = get_experiment(method).paper_claims if method else ()
    run = {"claims": claims, "paper_claims": roll_up_all(paper_claims, claims), "profile": profile}
    tables = (
        [("what the abstract claims", paper_claim_rows(run, quote=False), "paper")] if paper_claims else []
    )
    tables += [
        ("tests of the paper's claims", rows_of_tests(run), "paper"),
        ("our checks", rows_of_tests(run, "check"), "check"),
    ]
    if not paper_claims:  # a method still declared under contract 2
        tables = [(t, claim_rows(claims, k), k) for t, _, k in tables]
    for title, rows, kind in tables:
        if not rows:
            continue
        counts = (
            tally(claims, kind)
            if title != "what the abstract claims"
            else dict(Counter(p["verdict"] for p in run["paper_claims"]))
        )
        table = Table(title=f"{title}: {tally_text(counts)}")
        for col in rows[0]:
            table.add_column(col, overflow="fold")
        for row in rows:
            table.add_row(*(fmt(v) for v in row.values()))
        console.print(table)


def _overrides(items: list[str] | None) -> dict[str, str]:
    try:
        return parse_overrides(items or [])
    except ValueError as exc:
        raise BadInput(str(exc)) from None


def _interrupted(exc) -> None:
    for one in (exc, *getattr(exc, "others", ())):  # reproduce: every run it interrupted
        print(
            f"interrupted: {one.method} kept {len(one.finished_seeds)} finished seed(s) and {one.units} finished"
            f" unit(s) in {one.directory} (result.json says 'partial'); continue with"
            f" `icml26 run {one.method} --resume {one.directory}`",
            file=sys.stderr,
        )


def _run_one(method: str, profile: str, seeds: list[int], overrides: dict, out: Path, **kw: Any):
    """One run; bad input exits 2, an interrupt prints what was kept and exits 130 (typer would
    otherwise turn it into a silent exit)."""
    from icml26.common.runner import Interrupted, run_experiment

    try:
        return run_experiment(method, profile, seeds, overrides, out, **kw)
    except ValueError as exc:
        raise BadInput(str(exc)) from None
    except Interrupted as exc:
        _interrupted(exc)
        raise typer.Exit(130) from None


def _record_json(record) -> dict[str, Any]:
    return {
        "method": record.method,
        "profile": record.profile,
        "seeds": record.seeds,
        "status": record.status,
        "directory": str(record.directory),
        "seconds": record.seconds,
        "error": record.error,
        "claims": record.claims,
    }


@app.command("list")
def list_methods(as_json: JsonFlag = False) -> None:
    """Show the nineteen papers and which are implemented."""
    rows = [
        {"number": m.number, "method": m.name, "paper": m.title, "implemented": is_implemented(m.name)}
        for m in METHODS
    ]
    if as_json:
        _print_json(rows)
        return
    table = Table(title="icml26 methods")
    for col in ("#", "method", "paper", "implemented"):
        table.add_column(col)
    for r in rows:
        table.add_row(str(r["number"]), r["method"], r["paper"], "yes" if r["implemented"] else "not yet")
    console.print(table)


def _resources(exp, profile: str) -> dict[str, Any]:
    """What one seed of ``profile`` asks for: declared CPUs, GPUs and custom resources, and the memory of
    the cost estimate (the same figures a Ray task reserves)."""
    declared = exp.resources_for(profile)
    memory = int(exp.cost(dict(exp.profiles[profile]))[1]) if exp.cost is not None else None
    return {
        "cpus": declared.cpus,
        "gpus": declared.gpus,
        "memory_bytes": memory,
        "custom": dict(declared.custom),
    }


def _resources_text(r: dict[str, Any]) -> str:
    parts = [f"{r['cpus']} CPU"] + ([f"{r['gpus']:g} GPU"] if r["gpus"] else [])
    parts += [f"{v:g} {k}" for k, v in r["custom"].items()]
    if r["memory_bytes"] is not None:
        parts.append(f"{r['memory_bytes'] / 2**30:.2g} GiB")
    return ", ".join(parts)


@app.command()
def info(
    method: Annotated[str, typer.Argument(help="Method name (see `icml26 list`).")],
    tests: Annotated[
        bool, typer.Option("--tests", help="List the tests and checks with their rules.")
    ] = False,
    keys: Annotated[
        bool, typer.Option("--keys", help="Show every profile key (what --set accepts).")
    ] = False,
    as_json: JsonFlag = False,
) -> None:
    """One screen on a method: what it does, an API example, its profiles and estimated times, the
    abstract's claims with their latest committed verdicts, and its doc (see icml26.common.info)."""
    from icml26.common.info import info_payload, screen, tests_screen

    exp = _experiment(method)
    if as_json:
        _print_json(info_payload(exp, {p: _resources(exp, p) for p in PROFILES}))
        return
    width = min(console.width or 100, 110)
    lines = tests_screen(exp, width) if tests else screen(exp, width)
    for line in lines:
        console.print(line, markup=False, highlight=False, soft_wrap=True)
    if keys:
        console.print(
            "resources per seed: "
            + "; ".join(f"{p} {_resources_text(_resources(exp, p))}" for p in PROFILES),
            soft_wrap=True,
        )
        table = Table(title="profiles")
        table.add_column("key")
        for p in PROFILES:
            table.add_column(p)
        for key in exp.profiles["quick"]:
            table.add_row(key, *(fmt(exp.profiles[p][key]) for p in PROFILES))
        console.print(table)


def _resume_dir(value: str | None, out: Path, method: str) -> Path | None:
    if value is None:
        return None
    if value != "latest":
        return Path(value)
    from icml26.common.runner import latest_resumable

    try:
        return latest_resumable(out, method)
    except ValueError as exc:
        raise BadInput(str(exc)) from None


@app.command()
def run(
    method: Annotated[str, typer.Argument(help="Method name (see `icml26 list`).")],
    profile: Annotated[str, typer.Option(help="smoke | quick | paper.")] = "quick",
    seed: Annotated[list[int] | None, typer.Option(help="Seed; repeat for several seeds.")] = None,
    set_: Annotated[
        list[str] | None, typer.Option("--set", help="Override a config value: key=value.")
    ] = None,
    out: Annotated[Path, typer.Option(help="Directory for runs/<method>/<timestamp>/.")] = Path("runs"),
    executor: Annotated[str, typer.Option(help="local | ray.")] = "local",
    ray_address: Annotated[
        str | None, typer.Option(help="Ray cluster address HOST:PORT (default: start locally).")
    ] = None,
    resume: Annotated[
        str | None,
        typer.Option(help="Continue an interrupted or failed run: its directory, or 'latest' under --out."),
    ] = None,
    force: Annotated[bool, typer.Option(help="Run even if the cost estimate exceeds the limits.")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Run one method's experiment and print the paper's claims beside our measurements."""
    _check_choice("profile", profile, PROFILES)
    _check_choice("executor", executor, EXECUTORS)
    _check_ray_flags(executor, ray_address)
    overrides = _overrides(set_)
    _experiment(method)
    if resume is not None and (overrides or seed):
        raise BadInput("--resume continues a run with its own config and seeds; drop --set and --seed")
    record = _run_one(
        method,
        profile,
        seed or [0],
        overrides,
        out,
        executor=executor,
        ray_address=ray_address,
        resume=_resume_dir(resume, out, method),
        force=force,
    )
    if as_json:
        _print_json(_record_json(record))
    if record.error:
        errors.print(
            f"[red]experiment {method!r} failed[/red]: {record.error} (details in {record.directory};"
            f" continue with --resume {record.directory})",
            soft_wrap=True,
        )
        raise typer.Exit(1)
    if not as_json:
        _print_claims(record.claims, record.profile, method)
        console.print(f"results: {record.directory} ({record.seconds:.1f} s)", soft_wrap=True)


def _expected_seconds(
    methods: list[str], profile: str, seeds: list[int], overrides: dict[str, dict[str, str]], out: Path
) -> list[float]:
    """Each method's expected seconds, from its newest finished run under ``out`` or its cost estimate."""
    from icml26.common.config import resolve_config
    from icml26.common.scheduler import expected_seconds

    return [
        expected_seconds(
            (exp := _experiment(m)), profile, resolve_config(exp, profile, overrides.get(m)), len(seeds), out
        )
        for m in methods
    ]


def _run_together(
    methods: list[str],
    profile: str,
    seeds: list[int],
    overrides: dict[str, dict[str, str]],
    out: Path,
    executor: str,
    ray_address: str | None,
    force: bool,
    jobs: int,
    reported: Any,
) -> None:
    """Prepare every run (all checks first), then run them together on Ray or in ``jobs`` processes."""
    from icml26.common.runner import Interrupted, prepare_run
    from icml26.common.scheduler import run_in_processes, run_on_ray

    try:
        runs = [
            prepare_run(m, profile, seeds, overrides.get(m), out, executor, ray_address, force=force)
            for m in methods
        ]
        if executor == "ray":
            run_on_ray(runs, ray_address, on_close=reported)
        else:
            run_in_processes(runs, jobs, on_close=reported)
    except ValueError as exc:
        raise BadInput(str(exc)) from None
    except Interrupted as exc:
        _interrupted(exc)
        raise typer.Exit(130) from None


def _method_overrides(items: list[str] | None, methods: list[str]) -> dict[str, dict[str, str]]:
    """``METHOD.key=value`` items grouped by method."""
    out: dict[str, dict[str, str]] = {}
    for item in items or []:
        target, dot, rest = item.partition(".")
        if not dot or target not in methods:
            raise BadInput(
                f"--set {item!r}: expected METHOD.key=value with METHOD one of {', '.join(methods)}"
            )
        out.setdefault(target, {}).update(_overrides([rest]))
    return out


@app.command()
def reproduce(
    methods: Annotated[
        list[str] | None, typer.Argument(help="Methods to run (default: all implemented).")
    ] = None,
    profile: Annotated[str, typer.Option(help="smoke | quick | paper.")] = "quick",
    seed: Annotated[list[int] | None, typer.Option(help="Seed for every method; repeat for several.")] = None,
    set_: Annotated[
        list[str] | None, typer.Option("--set", help="Override one method's config value: METHOD.key=value.")
    ] = None,
    out: Annotated[Path, typer.Option(help="Directory for the runs.")] = Path("runs"),
    report_dir: Annotated[Path, typer.Option(help="Directory for report.html and summary.md.")] = Path(
        "report"
    ),
    executor: Annotated[str, typer.Option(help="local | ray.")] = "local",
    ray_address: Annotated[str | None, typer.Option(help="Ray cluster address HOST:PORT.")] = None,
    force: Annotated[bool, typer.Option(help="Run even if a cost estimate exceeds the limits.")] = False,
    jobs: Annotated[
        int, typer.Option(help="Local executor: run this many methods at once, each in its own process.")
    ] = 1,
) -> None:
    """Run the chosen methods' experiments, then write the report.

    Locally they run one after another (``--jobs N``: N at once in separate processes, each with its share
    of the cores); with ``--executor ray`` every (method, seed) is submitted at once as a Ray task with the
    method's declared resources (``icml26 info METHOD``), to a local Ray or to ``--ray-address``.
    """
    from icml26.common.config import resolve_config
    from icml26.common.report import build_report
    from icml26.common.runner import check_cost, check_out_dir, check_ray_address, check_seeds

    _check_choice("profile", profile, PROFILES)
    _check_choice("executor", executor, EXECUTORS)
    _check_ray_flags(executor, ray_address)
    if jobs < 1:
        raise BadInput(f"--jobs must be >= 1, got {jobs}")
    if jobs > 1 and executor != "local":
        raise BadInput(
            "--jobs is for the local executor; Ray schedules every (method, seed) by its resources"
        )
    seeds = seed or [0]
    chosen = methods or available()
    if not chosen:
        console.print("no method is implemented yet; the report lists all nineteen")
    overrides = _method_overrides(set_, chosen)
    try:
        check_seeds(seeds)
        check_out_dir(out)
        check_out_dir(report_dir, "--report-dir")
        for method in chosen:  # reject every bad name, config and estimate before running anything
            exp = _experiment(method)
            config = resolve_config(exp, profile, overrides.get(method))
            if not force:
                check_cost(exp, config, seeds)
        if executor == "ray":
            check_ray_address(ray_address)
    except ValueError as exc:
        raise BadInput(str(exc)) from None
    failed = []

    def reported(record) -> None:
        if record.error:
            failed.append(record.method)
            errors.print(
                f"[red]experiment {record.method!r} {'failed' if record.status == 'failed' else 'did not finish'}[/red]:"
                f" {record.error} (details in"
                f" {record.directory}; continue with `icml26 run {record.method} --resume {record.directory}`)",
                soft_wrap=True,
            )
        else:
            console.rule(record.method)
            _print_claims(record.claims, record.profile, record.method)

    if executor == "local" and jobs == 1:
        left = _expected_seconds(chosen, profile, seeds, overrides, out)
        for i, method in enumerate(chosen, 1):
            console.rule(
                f"[{i}/{len(chosen)}] {method} (about {sum(left[i - 1 :]) / 60:.0f} min left in all)"
            )
            reported(_run_one(method, profile, seeds, overrides.get(method, {}), out, force=force))
    else:
        _run_together(chosen, profile, seeds, overrides, out, executor, ray_address, force, jobs, reported)
    html = build_report(out, report_dir)
    console.print(f"report: {html} and {html.parent / 'summary.md'}")
    if failed:
        errors.print(f"[red]failed: {', '.join(failed)}[/red]")
        raise typer.Exit(1)


@app.command()
def rejudge(
    run_dirs: Annotated[
        list[Path], typer.Argument(help="Finished run directories (runs/<method>/<timestamp>).")
    ],
) -> None:
    """Judge finished runs' stored measurements again under the current claims and verdict rules.

    Nothing is measured again: the seeds' results are read back and re-aggregated; result.json records
    when it was re-judged. Use it after the verdict contract or a claim's wording changed.
    """
    from icml26.common.runner import rejudge as rejudge_run

    for directory in run_dirs:
        try:
            payload = rejudge_run(directory)
        except (ValueError, OSError, KeyError, json.JSONDecodeError) as exc:
            raise BadInput(f"rejudge {str(directory)!r}: {exc}") from None
        counts = tally([c for c in payload["claims"] if c.get("kind", "paper") == "paper"])
        console.print(f"{directory}: paper claims {tally_text(counts)}", soft_wrap=True)


@app.command()
def report(
    runs: Annotated[Path, typer.Option(help="Directory holding the runs.")] = Path("runs"),
    out: Annotated[Path, typer.Option(help="Directory for report.html and summary.md.")] = Path("report"),
    as_json: JsonFlag = False,
) -> None:
    """Write report.html, summary.md and report.json from the record that speaks for each method (its
    largest-profile finished run, with the quick one beside it)."""
    from icml26.common.report import build_report
    from icml26.common.runner import check_out_dir

    try:
        check_out_dir(out)
        html = build_report(runs, out)
    except ValueError as exc:
        raise BadInput(str(exc)) from None
    if as_json:  # the export: per paper its PaperClaims, verdicts and review words (also report.json)
        export = json.loads((html.parent / "report.json").read_text())
        _print_json({"html": str(html), "summary": str(html.parent / "summary.md"), **export})
    else:
        console.print(f"report: {html} and {html.parent / 'summary.md'}")


def main(argv: list[str] | None = None) -> int:
    """Entry point: bad input prints one line ``error: ...`` on stderr and returns 2; an interrupt 130."""
    for key, value in QUIET_ENV.items():
        os.environ.setdefault(key, value)
    try:
        code = app(args=argv, prog_name="icml26", standalone_mode=False)
    except UsageError as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":  # bare `icml26`: the help is the message
            print(exc.format_message(), file=sys.stderr)
            return 0
        message = exc.format_message().replace("\n", " ")
        print(f"error: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # a run's interrupt is reported by its command (_run_one)
        print("interrupted", file=sys.stderr)
        return 130
    except typer.Exit as exc:
        return exc.exit_code
    except typer.Abort:
        print(
            "interrupted: finished seeds and units are kept; the run directory's result.json says"
            " 'partial'; continue with `icml26 run METHOD --resume latest`",
            file=sys.stderr,
        )
        return 130
    except ClickException as exc:
        print(f"error: {exc.format_message()}", file=sys.stderr)
        return exc.exit_code
    except OSError as exc:  # e.g. a full disk while writing a run: what was written before stays resumable
        where = f" ({exc.filename})" if exc.filename else ""
        print(
            f"error: {exc.strerror or exc}{where}; finished seeds and units are kept: free the space or fix"
            " the path, then continue with `icml26 run METHOD --resume latest`",
            file=sys.stderr,
        )
        return 1
    return code if isinstance(code, int) else 0


if __name__ == "__main__":
    sys.exit(main())
