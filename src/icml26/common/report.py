"""One report over all runs: ``summary.md``, a self-contained ``report.html`` (plots embedded) and
``report.json`` (the export).

Which record speaks for a method: its largest-profile finished record (``paper`` where there is one, the
newest of that profile), with the newest finished ``quick`` record beside it; a newer partial or failed
run is named beside, never shown instead (:func:`speaking_records`).

The page opens with the tally (the abstract's claims first, per paper and in all; tests second; checks
per method) and a picture of every paper's PaperClaims, then one section per paper: first a table with
one row per PaperClaim (the abstract's words, our verdict, "k of n tests", the deciding test's figure
and its scale) and one forest plot of its tests; then the tests and checks, each with a short title (the
full statement, rule and setting behind a toggle); then the history of its tests (every Revision).
Records judged under contract 2 are shown but not counted, and so are ``smoke`` runs. Run files that
cannot be read are skipped and named, never fatal.
"""

from __future__ import annotations

import base64
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jinja2 import Environment, select_autoescape
from markupsafe import Markup, escape

from icml26.common.claims import REVIEW_WORDS, lock_path
from icml26.common.experiment import VERDICTS, as_number
from icml26.common.output import (
    TALLY,
    claim_rows,
    details_of_test,
    history_rows,
    is_v3,
    markdown_table,
    paper_claim_rows,
    rows_of_tests,
    run_markdown,
    tally,
    tally_text,
)
from icml26.common.provenance import segment_commits
from icml26.common.registry import METHOD_NAMES, METHODS, is_implemented
from icml26.common.report_figures import COLOURS, forest_figure, forest_legend, overview_figure
from icml26.common.report_page import PAGE

PROFILE_RANK = {"smoke": 0, "quick": 1, "paper": 2}
SUPERSEDED = (
    "A larger record judged before its tests' latest Revisions (its verdicts are kept there), not shown:"
)
COUNTED_PROFILES = ("quick", "paper")


def _readable(path: Path) -> tuple[dict[str, Any] | None, str]:
    """The run file's contents if it is a run record, else None and why not."""
    try:
        data = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return None, f"unreadable ({type(exc).__name__})"
    if not isinstance(data, dict):
        return None, f"not a JSON object ({type(data).__name__})"
    needed = {"method", "profile", "seeds"} | ({"error"} if path.name == "error.json" else set())
    if data.get("status", "finished") == "finished" and path.name == "result.json":
        needed |= {"title", "paper", "claims", "plots", "notes"}
    missing = sorted(needed - set(data))
    if missing:
        return None, f"lacks {', '.join(missing)}"
    claim_keys = {"name", "statement", "paper", "measured", "verdict"}
    claims = data.get("claims", [])
    if not isinstance(claims, list) or not all(isinstance(c, dict) and claim_keys <= set(c) for c in claims):
        return None, "claims are not a list of judged claims"
    unknown = sorted({str(c["verdict"]) for c in claims} - set(VERDICTS))
    if unknown:
        return None, f"unknown verdicts {unknown}"
    if not isinstance(data["seeds"], list) or not isinstance(data.get("plots", []), list):
        return None, "seeds or plots are not lists"
    if not all(isinstance(p, str) for p in data.get("plots", [])):
        return None, "plots are not file names"
    if not isinstance(data.get("finished_units", {}), dict) or not isinstance(
        data.get("finished_seeds", []), list
    ):
        return None, "finished_units or finished_seeds malformed"
    pcs = data.get("paper_claims", [])
    pc_keys = {"id", "quote", "title", "verdict"}
    if not isinstance(pcs, list) or not all(isinstance(p, dict) and pc_keys <= set(p) for p in pcs):
        return None, "paper_claims are not a list of rolled-up PaperClaims"
    unknown = sorted({str(p["verdict"]) for p in pcs} - set(TALLY))
    if unknown:
        return None, f"unknown PaperClaim verdicts {unknown}"
    return data, ""


def _number(x: Any) -> Any:
    """A number stored by ``write_json`` (non-finite floats as strings) as a float; other values as they are."""
    return as_number(x) if isinstance(x, str) and as_number(x) is not None else x


def _normalised(claim: dict[str, Any]) -> dict[str, Any]:
    """A judged claim with its numbers as floats (``"inf"`` read back from JSON is a string)."""
    out = dict(claim)
    for key in ("measured", "baseline_value", "paper_figure"):
        out[key] = _number(out.get(key))
    if isinstance(out.get("interval"), list):
        out["interval"] = [_number(x) for x in out["interval"]]
    if isinstance(out.get("controls"), dict):
        out["controls"] = {k: _number(v) for k, v in out["controls"].items()}
    return out


def finished(run: dict[str, Any]) -> bool:
    return run.get("status", "finished") == "finished" and "error" not in run


@dataclass
class Speaking:
    """Which records speak for one method: ``main`` (the largest-profile finished record), ``beside`` (the
    newest finished quick record beside a paper one), ``newer`` (unfinished runs newer than ``main``,
    newest first: named, never shown instead), ``superseded`` (finished records of a larger profile judged
    before a later Revision of their tests: named, never shown instead; their verdicts live on in those
    Revisions). Each is ``(run directory, record)``."""

    method: str
    main: tuple[Path, dict[str, Any]] | None = None
    beside: tuple[Path, dict[str, Any]] | None = None
    newer: list[tuple[Path, dict[str, Any]]] = field(default_factory=list)
    superseded: list[tuple[Path, dict[str, Any]]] = field(default_factory=list)

    @property
    def shown(self) -> tuple[Path, dict[str, Any]] | None:
        """The record the page shows: ``main``, else the newest unfinished run (as partial or failed)."""
        return self.main or (self.newer[0] if self.newer else None)


def read_runs(
    runs_dir: Path, skipped: list[str] | None = None, only: str | None = None
) -> dict[str, list[tuple[Path, dict[str, Any]]]]:
    """Every readable run record under ``runs_dir/<method>/<run>/`` (``result.json``, else ``error.json``),
    per method, oldest first; unreadable files are appended to ``skipped`` as ``"<path> (<why>)"``."""
    found: dict[str, list[tuple[Path, dict[str, Any]]]] = {}
    if not runs_dir.is_dir():
        return found

    def subdirs(path: Path) -> list[Path]:
        try:
            return sorted(p for p in path.iterdir() if p.is_dir())
        except OSError as exc:
            if skipped is not None:
                skipped.append(f"{path} (unreadable: {exc.strerror})")
            return []

    for method_dir in [runs_dir / only] if only else subdirs(runs_dir):
        for run_dir in subdirs(method_dir) if method_dir.is_dir() else []:
            for name in ("result.json", "error.json"):
                if not (run_dir / name).is_file():
                    continue
                data, why = _readable(run_dir / name)
                if data is None:
                    if skipped is not None:
                        skipped.append(f"{run_dir / name} ({why})")
                    continue
                claims = [_normalised(c) for c in data.get("claims", [])]
                record = {**data, "claims": claims, "title": data.get("title", method_dir.name)}
                found.setdefault(method_dir.name, []).append((run_dir, record))
                break
    return found


def locked_revisions(method: str) -> dict[str, int]:
    """Per test, how many Revisions the method's lock file (``claims.lock.json`` of the installed method)
    records; empty where the method has none."""
    try:
        tests = json.loads(lock_path(method).read_text())
    except (OSError, ValueError):
        return {}
    return {
        n: t["revisions"]
        for n, t in tests.items()
        if isinstance(t, dict) and isinstance(t.get("revisions"), int)
    }


def superseded_by_revision(run: dict[str, Any], locked: dict[str, int]) -> bool:
    """Whether a record was judged before a later Revision of one of its tests: it carries fewer Revisions
    of that test than the lock does (a test added since is not a Revision of the record's tests)."""
    for t in run.get("claims", []):
        if t.get("name") in locked and len(t.get("revisions") or []) < locked[t["name"]]:
            return True
    return False


def speaking_records(
    runs_dir: str | Path, skipped: list[str] | None = None, only: str | None = None
) -> dict[str, Speaking]:
    """For each method under ``runs_dir`` (or ``only`` that one): its largest-profile finished record (the
    newest of that profile) among those judged under the tests' current Revisions (all finished ones when
    none is), the newest finished quick record beside a paper one, the unfinished runs newer than it, and
    the larger-profile records superseded by a Revision."""
    out = {}
    for method, records in read_runs(Path(runs_dir), skipped, only).items():
        done = [r for r in records if finished(r[1])]
        locked = locked_revisions(method)
        current = [r for r in done if not superseded_by_revision(r[1], locked)] or done
        current_dirs = {path for path, _ in current}
        rank = lambda r: (PROFILE_RANK.get(r[1]["profile"], -1), r[0].name)  # noqa: E731
        main = max(current, key=rank, default=None)
        speaking = Speaking(method, main)
        if main is not None:
            top = PROFILE_RANK.get(main[1]["profile"], -1)
            speaking.superseded = [
                r
                for r in reversed(done)
                if r[0] not in current_dirs and PROFILE_RANK.get(r[1]["profile"], -1) > top
            ]
        if main is not None and main[1]["profile"] == "paper":
            quick = [r for r in current if r[1]["profile"] == "quick"]
            speaking.beside = quick[-1] if quick else None
        after = main[0].name if main else ""
        speaking.newer = [r for r in reversed(records) if not finished(r[1]) and r[0].name > after]
        out[method] = speaking
    return out


def finished_seeds(run: dict[str, Any], path: Path) -> list[int]:
    """The seeds of a run that finished: those its ``result.json`` lists, and every ``seed_<n>.json`` on
    disk (a killed run never rewrote its ``result.json``)."""
    done = {s for s in run.get("finished_seeds", []) if isinstance(s, int)}
    done |= {s for s in run["seeds"] if isinstance(s, int) and (path / f"seed_{s}.json").is_file()}
    return sorted(done)


def partial_text(run: dict[str, Any], path: Path, named: bool = True) -> str:
    """What an interrupted, killed or failed run finished, and how to continue it (``named``: a failed
    run's error is preceded by the word ``failed``)."""
    units = len(list((path / "units").glob("seed_*/*.pkl")))
    seeds = len(finished_seeds(run, path))
    done = f"{seeds} of {len(run['seeds'])} seed(s) and {units} unit(s) finished"
    status = run.get("status", "")
    if status == "partial":
        how = "interrupted"
    elif status == "running":
        how = "did not finish (killed, or still running)"
    else:
        how = ("failed: " if named else "") + str(run.get("error", "failed"))
    return f"{how}; {done}; continue with `icml26 run {run['method']} --resume {path}`"


def provenance(path: Path, run: dict[str, Any]) -> str:
    """``paper profile, seed 0, 2026-12-01 17:25 UTC, 1497 s (2810 s CPU), commit 2a1a128`` of a record (the
    CPU time where the record has it); a resumed run names each segment's commit (``?``: not recorded)."""
    parts = [
        f"{run['profile']} profile",
        f"seed{'s' if len(run['seeds']) > 1 else ''} {', '.join(map(str, run['seeds']))}",
    ]
    when = run.get("finished") or run.get("started")
    if isinstance(when, str):
        parts.append(when[:16].replace("T", " ") + " UTC")
    if isinstance(run.get("wall_seconds"), int | float):
        wall = run["wall_seconds"]
        parts.append(f"{wall:.0f} s" if wall >= 10 else f"{wall:.1f} s")
        if isinstance(run.get("total_cpu_seconds"), int | float):
            cpu = run["total_cpu_seconds"]
            parts[-1] += f" ({cpu:.0f} s CPU)" if cpu >= 10 else f" ({cpu:.1f} s CPU)"
    commit = (run.get("versions") or {}).get("commit")
    segments = segment_commits(run)
    if len(segments) > 1:  # a run stopped and resumed
        parts.append(f"{len(segments)} segments, commits {' → '.join(c or '?' for c in segments)}")
    elif commit:
        parts.append(f"commit {commit}")
    if run.get("rejudged"):
        parts.append("re-judged")
    return ", ".join(parts)


def counted(run: dict[str, Any]) -> bool:
    """Whether a finished record's verdicts count in the tallies: contract v3, quick or paper profile."""
    return is_v3(run) and run["profile"] in COUNTED_PROFILES


def status_text(run: dict[str, Any]) -> str:
    if run["profile"] == "smoke":
        return "smoke run (not counted)"
    if not is_v3(run):
        return f"contract v{run.get('contract', 1)} record (not counted)"
    return f"measured ({run['profile']})"


# ---- HTML pieces ---------------------------------------------------------------------------------


def _badge(verdict: str) -> Markup:
    return Markup(f'<span class="v {escape(verdict)}">{escape(verdict)}</span>')


def _table(head: list[str], rows: list[list[Any]], css: str) -> Markup:
    if not rows:
        return Markup("<p><small>none</small></p>")
    th = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return Markup(f'<table class="{css}"><tr>{th}</tr>{body}</table>')


def headline_html(run: dict[str, Any], beside: dict[str, Any] | None) -> Markup:
    """The PaperClaims' table: the abstract's words (our title above), verdict, k of n, the deciding test
    with its figure, its scale."""
    rows = paper_claim_rows(run, beside, quote=False)
    head = list(rows[0]) if rows else []
    cells = []
    for pc, row in zip(run["paper_claims"], rows):
        words = Markup(f"<b>{escape(pc['title'])}</b><br><q>{escape(pc['quote'])}</q>")
        line = [words, _badge(row["verdict"])]
        if beside is not None:
            other = row[head[2]]
            line.append(
                Markup(f"{_badge(other.split(' ')[0])}<br><small>{escape(other.partition(' ')[2])}</small>")
                if other != "-"
                else "-"
            )
        line += [
            row["holds in"],
            Markup(f"{escape(row['deciding test'])}<br><small>{escape(row['its figure'])}</small>"),
            row["scale"],
        ]
        cells.append(line)
    head = [h for h in head if h != "its figure"]
    head[head.index("deciding test")] = "deciding test and its figure"
    return _table(head, cells, "headline beside" if beside is not None else "headline")


def tests_html(run: dict[str, Any], kind: str) -> Markup:
    """Tests (or checks): a short title that opens its full statement, rule and setting; the rest short."""
    tests = [c for c in run["claims"] if c.get("kind", "paper") == kind]
    rows = rows_of_tests(run, kind)
    if not rows:
        return Markup("<p><small>none</small></p>")
    head = list(rows[0])
    cells = []
    for c, row in zip(tests, rows):
        title = escape(c.get("title") or c["name"])
        n = len(c.get("revisions") or [])
        times = f" ×{n}" if n > 1 else ""
        badge = (
            Markup(f' <span class="badge" title="revised: see the history">revised{times}</span>')
            if n
            else ""
        )
        items = "".join(f"<dt>{escape(k)}</dt><dd>{escape(v)}</dd>" for k, v in details_of_test(c))
        first = Markup(
            f'<details class="test"><summary><span class="title">{title}</span>{badge}</summary><dl>{items}<dt>name</dt><dd><code>{escape(c["name"])}</code></dd></dl></details>'
        )
        verdict = row["verdict"]
        rest = [row[h] for h in head[1:-1]]
        cells.append(
            [
                first,
                *rest,
                _badge(verdict.split(" ")[0])
                + (
                    Markup(f"<br><small>{escape(verdict.partition(' ')[2])}</small>")
                    if " " in verdict
                    else ""
                ),
            ]
        )
    return _table(head, cells, "tests")


def history_html(run: dict[str, Any]) -> Markup:
    rows = history_rows(run)
    if not rows:
        return Markup("")
    head = list(rows[0])
    return _table(
        head, [[(_badge(r[h]) if h == "verdict then" else r[h]) for h in head] for r in rows], "history"
    )


def _images(run: dict[str, Any], path: Path) -> list[dict[str, str]]:
    titles = {c["name"]: c.get("title") or c["statement"] for c in run["claims"]}
    plot_claims = run.get("plot_claims", {})
    return [
        {
            "name": p,
            "data": base64.b64encode((path / p).read_bytes()).decode(),
            "caption": f"For test {plot_claims[p]}: {titles.get(plot_claims[p], '')}"
            if plot_claims.get(p)
            else p,
        }
        for p in run["plots"]
        if (path / p).is_file()
    ]


# ---- one method ---------------------------------------------------------------------------------


def method_entry(name: str, speaking: Speaking | None) -> dict[str, Any]:
    """What the page, ``summary.md`` and the export show of one method."""
    entry: dict[str, Any] = {"number": {m.name: m.number for m in METHODS}.get(name, "-"), "name": name}
    entry |= {"run": None, "path": "", "partial": "", "newer": [], "superseded": [], "beside": None}
    entry["counted"] = False
    entry |= {"paper_claims": "-", "tests": "-", "checks": "-"}
    shown = speaking.shown if speaking else None
    if shown is None:
        entry["status"] = "not run" if is_implemented(name) else "not implemented yet"
        return entry
    path, run = shown
    entry.update(run=run, path=str(path), provenance=provenance(path, run))
    entry["newer"] = [f"`{p}` ({partial_text(r, p)})" for p, r in speaking.newer if (p, r) is not shown]
    entry["superseded"] = [f"`{p}` ({provenance(p, r)})" for p, r in speaking.superseded]
    if not finished(run):
        entry["status"] = run.get("status") if run.get("status") in ("partial", "running") else "failed"
        entry["partial"] = partial_text(run, path, named=False)
        return entry
    entry["status"], entry["counted"] = status_text(run), counted(run)
    if speaking.beside is not None:
        bpath, brun = speaking.beside
        entry["beside"] = {
            "path": str(bpath),
            "run": brun,
            "provenance": provenance(bpath, brun),
            "v3": is_v3(brun),
        }
    entry["tests_tally"] = tally(run["claims"])
    entry["checks_tally"] = tally(run["claims"], "check")
    entry["tests"], entry["checks"] = tally_text(entry["tests_tally"]), tally_text(entry["checks_tally"])
    if not entry["counted"]:  # shown, never counted: said where the numbers stand
        entry["tests"] = f"not counted ({entry['tests']})"
    entry["images"] = _images(run, path)
    if is_v3(run):
        entry["pc_tally"] = Counter(p["verdict"] for p in run["paper_claims"])
        entry["paper_claims"] = tally_text(entry["pc_tally"])
        beside = entry["beside"]["run"] if entry["beside"] and entry["beside"]["v3"] else None
        entry["headline_html"] = headline_html(run, beside)
        entry["forest"] = forest_figure(run)
        entry["tests_html"], entry["checks_html"] = tests_html(run, "paper"), tests_html(run, "check")
        entry["history_html"] = history_html(run)
    else:
        entry["legacy_html"] = _table(
            list(claim_rows(run["claims"])[0]) if claim_rows(run["claims"]) else [],
            [list(r.values()) for r in claim_rows(run["claims"])],
            "legacy",
        )
        entry["legacy_checks_html"] = _table(
            list(claim_rows(run["claims"], "check")[0]) if claim_rows(run["claims"], "check") else [],
            [list(r.values()) for r in claim_rows(run["claims"], "check")],
            "legacy",
        )
    return entry


def _markdown(entry: dict[str, Any]) -> tuple[list[str], list[str]]:
    """A method's headline (its PaperClaims' table, provenance) and its details, in Markdown."""
    run = entry["run"]
    if run is None:
        return [], []
    head = [
        f"### {entry['name']}: {run['title']}\n",
        f"{run.get('paper', '')}. Record: `{entry['path']}` ({entry['provenance']}).\n",
    ]
    if entry["beside"]:
        head.append(
            f"Beside it, the quick record: `{entry['beside']['path']}` ({entry['beside']['provenance']}).\n"
        )
    for newer in entry["newer"]:
        head.append(f"A newer run, not shown: {newer}.\n")
    for old in entry["superseded"]:
        head.append(f"{SUPERSEDED} {old}.\n")
    if entry["partial"]:
        return [*head, f"{entry['status'].capitalize()}: {entry['partial']}\n"], []
    details = [f"### {entry['name']}\n"]
    if run["profile"] == "smoke":
        head.append("_Plumbing check: a smoke run cannot decide these claims; not counted._\n")
    if is_v3(run):
        beside = entry["beside"]["run"] if entry["beside"] and entry["beside"]["v3"] else None
        table, *rest = run_markdown(run, beside, level=4)[1:]
        head.append(table)
        details += rest
    else:
        head.append(
            f"_Judged under contract v{run.get('contract', 1)}: shown, not counted (its paper claims then:"
            f" {tally_text(entry['tests_tally'])}; details below)._\n"
        )
        details += ["The paper's claims:\n", markdown_table(claim_rows(run["claims"]))]
        details += [
            "Our checks (not the paper's claims):\n",
            markdown_table(claim_rows(run["claims"], "check")),
        ]
    return head, details


def export_entry(entry: dict[str, Any]) -> dict[str, Any]:
    """One method of ``report.json``: its record, and per PaperClaim the verdict and review word."""
    run = entry["run"]
    out: dict[str, Any] = {
        "method": entry["name"],
        "status": entry["status"],
        "record": entry["path"] or None,
    }
    if run is None or entry["partial"]:
        return out | {"paper_claims": [], "counted": False}
    keys = (
        "id",
        "quote",
        "quantifier",
        "title",
        "verdict",
        "review_verdict",
        "holds",
        "of",
        "blocked",
        "deciding",
        "tests",
        "reason",
    )
    pcs = [
        {k: p.get(k) for k in keys} | {"review_verdict": REVIEW_WORDS.get(p["verdict"], "inconclusive")}
        for p in run.get("paper_claims", [])
    ]
    out |= {
        "profile": run["profile"],
        "contract": run.get("contract", 1),
        "counted": entry["counted"],
        "commit": (run.get("versions") or {}).get("commit"),
    }
    out["paper_claims"] = pcs
    beside = entry["beside"]
    if beside:
        out["beside"] = {
            "record": beside["path"],
            "profile": beside["run"]["profile"],
            "paper_claims": [
                {
                    "id": p["id"],
                    "verdict": p["verdict"],
                    "review_verdict": REVIEW_WORDS.get(p["verdict"], "inconclusive"),
                }
                for p in beside["run"].get("paper_claims", [])
            ],
        }
    out["newer_unfinished"] = entry["newer"]
    out["superseded"] = entry["superseded"]
    return out


def build_report(runs_dir: str | Path = "runs", out_dir: str | Path = "report") -> Path:
    """Write ``report.html``, ``summary.md`` and ``report.json`` for the records that speak for each
    method (:func:`speaking_records`); return the HTML path.

    Tallies count the PaperClaims first (per paper and in all), the tests second, the checks per method,
    of v3 records of the ``quick`` or ``paper`` profile only.
    """
    runs_dir, out_dir = Path(runs_dir), Path(out_dir)
    if not runs_dir.is_dir():
        raise ValueError(
            f"runs directory {str(runs_dir)!r} does not exist; run `icml26 run` or `icml26 reproduce` first"
        )
    skipped: list[str] = []
    speaking = speaking_records(runs_dir, skipped)
    names = list(METHOD_NAMES) + sorted(n for n in speaking if n not in METHOD_NAMES)
    methods = []
    pc_counts, test_counts = Counter(dict.fromkeys(TALLY, 0)), Counter(dict.fromkeys(TALLY, 0))
    per_method: dict[str, dict[str, int]] = {}
    for name in names:
        try:
            entry = method_entry(name, speaking.get(name))
        except Exception as exc:  # a record this code cannot draw: named, never fatal
            shown = speaking[name].shown
            skipped.append(f"{shown[0] / 'result.json'} (cannot be rendered: {type(exc).__name__}: {exc})")
            entry = method_entry(name, None) | {"status": "unreadable run"}
        if entry["counted"]:
            pc_counts.update(entry["pc_tally"])
            test_counts.update(entry["tests_tally"])
            per_method[name] = dict(entry["pc_tally"])
        methods.append(entry)
    n_papers = len(per_method)
    counted_what = (
        " Counted: the record that speaks for each method (its largest profile, quick or paper) judged under"
        " contract v3; checks are counted per method, never with the paper's."
    )
    if n_papers:
        summary = (
            f"The abstracts' claims (PaperClaims) of {n_papers} paper{'s' if n_papers != 1 else ''}:"
            f" {sum(pc_counts.values())} in all: {tally_text(pc_counts)}. Their tests: {tally_text(test_counts)}."
            + counted_what
        )
    else:
        summary = (
            "No record judged under contract v3 of a quick or paper run yet: nothing is counted."
            + counted_what
        )
    md = ["# icml26 summary\n", summary + "\n", "## What the abstracts claim, and what we found\n"]
    details = ["## Details: tests, checks and history\n"]
    for entry in methods:
        head, more = _markdown(entry)
        md += head
        details += more
    columns = {
        "number": "#",
        "name": "method",
        "status": "record",
        "paper_claims": "the abstract's claims",
        "tests": "tests",
        "checks": "checks",
    }
    md += [
        "## All nineteen papers\n",
        markdown_table([{v: m[k] for k, v in columns.items()} for m in methods]),
    ]
    if skipped:
        md.append("Skipped run files: " + "; ".join(skipped) + "\n")
    md += details
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "summary.md").write_text("\n".join(md))
    export = {
        "contract": 3,
        "review_words": sorted(set(REVIEW_WORDS.values())),
        "paper_claims": dict(pc_counts),
        "tests": dict(test_counts),
        "methods": [export_entry(m) for m in methods],
        "skipped": skipped,
    }
    from icml26.common.runner import write_json

    write_json(out_dir / "report.json", export)
    page = _page(methods, summary=summary, overview=overview_figure(per_method), skipped=skipped)
    (out_dir / "report.html").write_text(page)
    return out_dir / "report.html"


def _page(methods: list[dict[str, Any]], **kw: Any) -> str:
    env = Environment(autoescape=select_autoescape(default=True))
    kw.setdefault("summary", "")
    return env.from_string(PAGE).render(
        methods=methods,
        counts=kw.pop("summary"),
        colours=COLOURS,
        superseded_text=SUPERSEDED,
        forest_legend=forest_legend(),
        **{"overview": None, "skipped": [], "only": False, **kw},
    )


def section_page(runs_dir: str | Path, method: str, out: str | Path) -> Path:
    """Write ``out`` (an HTML file): the page with one method's section only (for screenshots)."""
    speaking = speaking_records(Path(runs_dir))
    if method not in speaking:
        raise ValueError(
            f"no record of {method!r} under {str(runs_dir)!r}; records: {', '.join(sorted(speaking))}"
        )
    out = Path(out)
    out.write_text(_page([method_entry(method, speaking[method])], only=True))
    return out
