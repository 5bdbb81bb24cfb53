"""One report over all runs: ``summary.md`` and a self-contained ``report.html`` (plots embedded)."""

from __future__ import annotations

import base64
import json
from collections import Counter
from pathlib import Path
from typing import Any

from jinja2 import Environment, select_autoescape
from markupsafe import Markup, escape

from icml26.common.output import TALLY, claim_rows, markdown_table, tally, tally_text
from icml26.common.registry import METHOD_NAMES, METHODS, is_implemented

_HTML = """<!doctype html>
<html><head><meta charset="utf-8"><title>icml26 report</title>
<style>
body{font-family:system-ui,sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}
th{background:#f3f3f3}.verified,.toy-verified{color:#176b2c}.refuted{color:#a11}.inconclusive{color:#8a6d00}
.blocked,.non-discriminating{color:#555}img{max-width:48%;margin:4px}small{color:#666}
.banner{background:#fff4d6;border:1px solid #e0c060;padding:6px 10px}
</style></head><body>
<h1>icml26: paper claims vs. our measurements</h1>
<p>Verdicts are computed from the measurements by each claim's rule. Only the papers' own claims are
counted; our checks are listed apart. <code>verified</code> means measured at the paper's own scale
(or an exact per-instance guarantee checked on every instance); <code>toy-verified</code> holds on a
laptop proxy; <code>non-discriminating</code> holds, but so does a control (a baseline or broken variant
judged by the same rule). {{ counts }}</p>
<table><tr><th>#</th><th>method</th><th>status</th><th>paper claims</th><th>checks</th></tr>
{% for m in methods %}<tr><td>{{ m.number }}</td><td><a href="#{{ m.name }}">{{ m.name }}</a></td>
<td>{{ m.status }}</td><td>{{ m.verdicts }}</td><td>{{ m.checks }}</td></tr>{% endfor %}</table>
{% for m in methods if m.run %}
<h2 id="{{ m.name }}">{{ m.name }}: {{ m.run.title }}</h2>
<p><small>{{ m.run.paper }} &middot; profile <code>{{ m.run.profile }}</code> &middot; seeds {{ m.run.seeds }}
&middot; {{ m.run.finished or m.run.started }} &middot; <code>{{ m.path }}</code></small></p>
{% if m.run.profile == "smoke" %}<p class="banner">Plumbing check: a smoke run cannot decide these
claims; its verdicts are shown but not counted.</p>{% endif %}
{% if m.run.error %}<p class="refuted">Failed: {{ m.run.error }}</p>{% else %}
<h3>The paper's claims</h3>
{{ m.claims_html }}
<h3>Our checks (not the paper's claims)</h3>
{{ m.checks_html }}
{% for n in m.run.notes %}<p><small>{{ n }}</small></p>{% endfor %}
{% for img in m.images %}<img src="data:image/png;base64,{{ img }}">{% endfor %}{% endif %}
{% endfor %}</body></html>
"""


def _html_table(rows: list[dict[str, Any]]) -> Markup:
    """An escaped HTML table of claim rows; the verdict cell is classed by its verdict."""
    if not rows:
        return Markup("<p><small>none</small></p>")
    cols = list(rows[0])
    head = "".join(f"<th>{escape(c)}</th>" for c in cols)
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="{escape(str(r[c]).split(" ")[0])}">{escape(r[c])}</td>'
            if c == "verdict"
            else f"<td>{escape(r[c])}</td>"
            for c in cols
        )
        + "</tr>"
        for r in rows
    )
    return Markup(f"<table><tr>{head}</tr>{body}</table>")


def latest_runs(runs_dir: Path) -> dict[str, tuple[Path, dict[str, Any]]]:
    """For each method under ``runs_dir``, its newest run (``result.json`` or ``error.json``)."""
    found: dict[str, tuple[Path, dict[str, Any]]] = {}
    if not runs_dir.is_dir():
        return found
    for method_dir in sorted(p for p in runs_dir.iterdir() if p.is_dir()):
        for run_dir in sorted((p for p in method_dir.iterdir() if p.is_dir()), reverse=True):
            for name in ("result.json", "error.json"):
                if (run_dir / name).is_file():
                    found[method_dir.name] = (run_dir, json.loads((run_dir / name).read_text()))
                    break
            if method_dir.name in found:
                break
    return found


def build_report(runs_dir: str | Path = "runs", out_dir: str | Path = "report") -> Path:
    """Write ``report.html`` and ``summary.md`` for the newest run of every method; return the HTML path.

    Tallies count the papers' own claims of ``quick`` and ``paper`` runs only (a ``smoke`` run is a
    plumbing check, shown but not counted) and say how many were measured at the paper's own scale.
    """
    runs_dir, out_dir = Path(runs_dir), Path(out_dir)
    if not runs_dir.is_dir():
        raise ValueError(
            f"runs directory {str(runs_dir)!r} does not exist; run `icml26 run` or `icml26 reproduce` first"
        )
    runs = latest_runs(runs_dir)
    numbers = {m.name: m.number for m in METHODS}
    names = list(METHOD_NAMES) + sorted(n for n in runs if n not in numbers)
    methods, md = [], ["# icml26 summary\n"]
    counts = Counter(dict.fromkeys(TALLY, 0))
    at_scale = exact = 0
    for name in names:
        path, run = runs.get(name, (None, None))
        entry: dict[str, Any] = {
            "number": numbers.get(name, "-"),
            "name": name,
            "run": run,
            "path": str(path or ""),
        }
        entry["checks"] = "-"
        if run is None:
            entry["status"] = "not run" if is_implemented(name) else "not implemented yet"
            entry["verdicts"] = "-"
        elif "error" in run:
            entry["status"], entry["verdicts"] = "failed", run["error"]
        else:
            smoke = run["profile"] == "smoke"
            entry["status"] = "smoke run (not counted)" if smoke else f"measured ({run['profile']})"
            paper_counts = tally(run["claims"])
            check_counts = tally([{**c, "kind": "paper"} for c in run["claims"] if c.get("kind") == "check"])
            entry["verdicts"], entry["checks"] = tally_text(paper_counts), tally_text(check_counts)
            if not smoke:
                counts.update(paper_counts)
                papers = [c for c in run["claims"] if c.get("kind", "paper") == "paper"]
                at_scale += sum(c.get("scale") == "paper" and run["profile"] == "paper" for c in papers)
                exact += sum(c.get("scale") == "exact" for c in papers)
            entry["claims"], entry["check_rows"] = (
                claim_rows(run["claims"]),
                claim_rows(run["claims"], "check"),
            )
            entry["claims_html"], entry["checks_html"] = (
                _html_table(entry["claims"]),
                _html_table(entry["check_rows"]),
            )
            entry["images"] = [
                base64.b64encode((path / p).read_bytes()).decode()
                for p in run["plots"]
                if (path / p).is_file()
            ]
        methods.append(entry)
        if run is not None:
            md.append(
                f"## {name}: {run['title']}\n\n{run['paper']}; profile `{run['profile']}`, run `{path}`.\n"
            )
            if "error" in run:
                md.append(f"Failed: {run['error']}\n")
            else:
                if run["profile"] == "smoke":
                    md.append("_Plumbing check: a smoke run cannot decide these claims; not counted._\n")
                md += ["The paper's claims:\n", markdown_table(entry["claims"])]
                md += ["Our checks (not the paper's claims):\n", markdown_table(entry["check_rows"])]
    summary = (
        f"Paper claims of quick and paper runs: {tally_text(counts)}"
        f" ({at_scale} measured at the paper's own scale, {exact} exact per-instance guarantees)"
    )
    md.insert(1, summary + ". Checks are counted per method, never with the paper's claims.\n")
    columns = ("number", "name", "status", "verdicts", "checks")
    md.insert(2, markdown_table([{k: m[k] for k in columns} for m in methods]))
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "summary.md").write_text("\n".join(md))
    html = Environment(autoescape=select_autoescape(default=True)).from_string(_HTML)
    (out_dir / "report.html").write_text(html.render(methods=methods, counts=summary + "."))
    return out_dir / "report.html"
