"""The ``icml26`` command line: list, info, run, reproduce, report.

Bad input exits with status 2 and one line on stderr; a failed experiment exits with status 1 after
writing what it had measured.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from icml26.common.config import parse_overrides

try:  # typer >= 0.2x vendors its own click
    from typer._click.exceptions import ClickException, UsageError
except ImportError:  # pragma: no cover
    from click.exceptions import ClickException, UsageError
from icml26.common.experiment import PROFILES
from icml26.common.output import claim_rows, fmt, tally, tally_text
from icml26.common.registry import METHODS, available, get_experiment, is_implemented
from icml26.common.report import build_report
from icml26.common.runner import EXECUTORS, run_experiment

app = typer.Typer(
    help="Nineteen ICML 2026 papers as runnable, tested software.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
console = Console(width=None if sys.stdout.isatty() else 160)  # wide tables in logs and pipes


class BadInput(UsageError):
    """Raised for user errors; ``main`` prints it as one line and exits 2."""


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


def _print_claims(claims: list[dict], profile: str) -> None:
    if profile == "smoke":
        console.print("[yellow]plumbing check: a smoke run cannot decide these claims[/yellow]")
    for kind, title in (("paper", "the paper's claims vs. our measurement"), ("check", "our checks")):
        rows = claim_rows(claims, kind)
        if not rows:
            continue
        table = Table(
            title=f"{title}: {tally_text(tally([{**c, 'kind': 'paper'} for c in claims if c.get('kind') == kind]))}"
        )
        for col in rows[0]:
            table.add_column(col, overflow="fold")
        for row in rows:
            table.add_row(*(fmt(v) for v in row.values()))
        console.print(table)


def _run_one(method, profile, seeds, overrides, out, executor, ray_address):
    try:
        return run_experiment(method, profile, seeds, overrides, out, executor, ray_address)
    except ValueError as exc:
        raise BadInput(str(exc)) from None


@app.command("list")
def list_methods() -> None:
    """Show the nineteen papers and which are implemented."""
    table = Table(title="icml26 methods")
    for col in ("#", "method", "paper", "implemented"):
        table.add_column(col)
    for m in METHODS:
        table.add_row(str(m.number), m.name, m.title, "yes" if is_implemented(m.name) else "not yet")
    console.print(table)


@app.command()
def info(method: Annotated[str, typer.Argument(help="Method name (see `icml26 list`).")]) -> None:
    """Show a method's paper, claims and profiles (the keys `--set` accepts)."""
    exp = _experiment(method)
    console.print(f"[bold]{exp.method}[/bold]: {exp.title}\n{exp.paper}\n{exp.description}")
    for claim in exp.claims:
        parts = [
            f"{claim.kind} claim",
            f"scale {claim.scale}" + (f" ({claim.scale_note})" if claim.scale_note else ""),
        ]
        parts.append(f"rule {claim.rule}")
        if claim.controls:
            parts.append(f"controls {', '.join(claim.controls)}")
        if claim.deterministic:
            parts.append("deterministic")
        if claim.revised:
            parts.append(f"revised {claim.revised}")
        console.print(
            f"- [bold]{claim.name}[/bold]: {claim.statement} (paper: {claim.paper_value}; {'; '.join(parts)})",
            soft_wrap=True,
        )
    table = Table(title="profiles")
    table.add_column("key")
    for p in PROFILES:
        table.add_column(p)
    for key in exp.profiles["quick"]:
        table.add_row(key, *(fmt(exp.profiles[p][key]) for p in PROFILES))
    console.print(table)


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
        str | None, typer.Option(help="Ray cluster address (default: start locally).")
    ] = None,
) -> None:
    """Run one method's experiment and print the paper's claims beside our measurements."""
    _check_choice("profile", profile, PROFILES)
    _check_choice("executor", executor, EXECUTORS)
    try:
        overrides = parse_overrides(set_ or [])
    except ValueError as exc:
        raise BadInput(str(exc)) from None
    _experiment(method)
    record = _run_one(method, profile, seed or [0], overrides, out, executor, ray_address)
    if record.error:
        console.print(
            f"[red]experiment {method!r} failed[/red]: {record.error} (details in {record.directory})"
        )
        raise typer.Exit(1)
    _print_claims(record.claims, profile)
    console.print(f"results: {record.directory}", soft_wrap=True)


@app.command()
def reproduce(
    methods: Annotated[
        list[str] | None, typer.Argument(help="Methods to run (default: all implemented).")
    ] = None,
    profile: Annotated[str, typer.Option(help="smoke | quick | paper.")] = "quick",
    seed: Annotated[int, typer.Option(help="Seed for every method.")] = 0,
    out: Annotated[Path, typer.Option(help="Directory for the runs.")] = Path("runs"),
    report_dir: Annotated[Path, typer.Option(help="Directory for report.html and summary.md.")] = Path(
        "report"
    ),
    executor: Annotated[str, typer.Option(help="local | ray.")] = "local",
    ray_address: Annotated[str | None, typer.Option(help="Ray cluster address.")] = None,
) -> None:
    """Run the chosen methods' experiments one after another, then write the report."""
    _check_choice("profile", profile, PROFILES)
    _check_choice("executor", executor, EXECUTORS)
    if seed < 0:
        raise BadInput(f"--seed must be >= 0, got {seed}")
    chosen = methods or available()
    if not chosen:
        console.print("no method is implemented yet; the report lists all nineteen")
    out.mkdir(parents=True, exist_ok=True)
    for method in chosen:
        _experiment(method)  # reject every bad name before running anything
    failed = []
    for i, method in enumerate(chosen, 1):
        console.rule(f"[{i}/{len(chosen)}] {method}")
        record = _run_one(method, profile, [seed], {}, out, executor, ray_address)
        if record.error:
            failed.append(method)
            console.print(
                f"[red]experiment {method!r} failed[/red]: {record.error} (details in {record.directory})"
            )
        else:
            _print_claims(record.claims, profile)
    html = build_report(out, report_dir)
    console.print(f"report: {html} and {html.parent / 'summary.md'}")
    if failed:
        console.print(f"[red]failed: {', '.join(failed)}[/red]")
        raise typer.Exit(1)


@app.command()
def report(
    runs: Annotated[Path, typer.Option(help="Directory holding the runs.")] = Path("runs"),
    out: Annotated[Path, typer.Option(help="Directory for report.html and summary.md.")] = Path("report"),
) -> None:
    """Write report.html and summary.md from the newest run of each method."""
    try:
        html = build_report(runs, out)
    except ValueError as exc:
        raise BadInput(str(exc)) from None
    console.print(f"report: {html} and {html.parent / 'summary.md'}")


def main(argv: list[str] | None = None) -> int:
    """Entry point: bad input prints one line ``error: ...`` on stderr and returns 2."""
    try:
        code = app(args=argv, prog_name="icml26", standalone_mode=False)
    except UsageError as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":  # bare `icml26`: the help is the message
            print(exc.format_message(), file=sys.stderr)
            return 0
        message = exc.format_message().replace("\n", " ")
        print(f"error: {message}", file=sys.stderr)
        return 2
    except typer.Abort:
        print("aborted", file=sys.stderr)
        return 130
    except ClickException as exc:
        print(f"error: {exc.format_message()}", file=sys.stderr)
        return exc.exit_code
    return code if isinstance(code, int) else 0


if __name__ == "__main__":
    sys.exit(main())
