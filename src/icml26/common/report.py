"""One report over all runs: ``summary.md`` and a self-contained ``report.html`` (plots embedded)."""

from __future__ import annotations

import base64
import json
from collections import Counter
from pathlib import Path
from typing import Any

from jinja2 import Environment, select_autoescape

from icml26.common.experiment import VERDICTS
from icml26.common.output import claim_rows, fmt, markdown_table
from icml26.common.registry import METHOD_NAMES, METHODS, is_implemented

_HTML = """<!doctype html>
<html><head><meta charset="utf-8"><title>icml26 report</title>
<style>
body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}
th{background:#f3f3f3}.verified,.toy-verified{color:#176b2c}.refuted{color:#a11}.inconclusive{color:#8a6d00}
.blocked{color:#555}img{max-width:48%;margin:4px}small{color:#666}
</style></head><body>
<h1>icml26: paper claims vs. our measurements</h1>
<p>Verdicts are computed from the measurements by each claim's rule. {{ counts }}</p>
<table><tr><th>#</th><th>method</th><th>status</th><th>claims</th></tr>
{% for m in methods %}<tr><td>{{ m.number }}</td><td><a href="#{{ m.name }}">{{ m.name }}</a></td>
<td>{{ m.status }}</td><td>{{ m.verdicts }}</td></tr>{% endfor %}</table>
{% for m in methods if m.run %}
<h2 id="{{ m.name }}">{{ m.name }}: {{ m.run.title }}</h2>
<p><small>{{ m.run.paper }} &middot; profile <code>{{ m.run.profile }}</code> &middot; seeds {{ m.run.seeds }}
&middot; {{ m.run.finished or m.run.started }} &middot; <code>{{ m.path }}</code></small></p>
{% if m.run.error %}<p class="refuted">Failed: {{ m.run.error }}</p>{% else %}
<table><tr><th>claim</th><th>paper</th><th>ours</th><th>baselines</th><th>verdict</th></tr>
{% for c in m.claims %}<tr><td>{{ c.claim }}</td><td>{{ c.paper }}</td><td>{{ c.ours }}</td><td>{{ c.baselines }}</td>
<td class="{{ c.verdict.split(' ')[0] }}">{{ c.verdict }}</td></tr>{% endfor %}</table>
{% for n in m.run.notes %}<p><small>{{ n }}</small></p>{% endfor %}
{% for img in m.images %}<img src="data:image/png;base64,{{ img }}">{% endfor %}{% endif %}
{% endfor %}</body></html>
"""


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
    """Write ``report.html`` and ``summary.md`` for the newest run of every method; return the HTML path."""
    runs_dir, out_dir = Path(runs_dir), Path(out_dir)
    if not runs_dir.is_dir():
        raise ValueError(
            f"runs directory {str(runs_dir)!r} does not exist; run `icml26 run` or `icml26 reproduce` first"
        )
    runs = latest_runs(runs_dir)
    numbers = {m.name: m.number for m in METHODS}
    names = list(METHOD_NAMES) + sorted(n for n in runs if n not in numbers)
    methods, md, counts = [], ["# icml26 summary\n"], Counter()
    for name in names:
        path, run = runs.get(name, (None, None))
        entry: dict[str, Any] = {
            "number": numbers.get(name, "-"),
            "name": name,
            "run": run,
            "path": str(path or ""),
        }
        if run is None:
            entry["status"] = "not run" if is_implemented(name) else "not implemented yet"
            entry["verdicts"] = "-"
        elif "error" in run:
            entry["status"], entry["verdicts"] = "failed", run["error"]
        else:
            entry["status"] = "measured"
            verdicts = Counter(c["verdict"] for c in run["claims"])
            counts.update(verdicts)
            entry["verdicts"] = ", ".join(f"{verdicts[v]} {v}" for v in VERDICTS if verdicts[v])
            entry["claims"] = [{**r, "ours": fmt(r["ours"])} for r in claim_rows(run["claims"])]
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
            md.append(f"Failed: {run['error']}\n" if "error" in run else markdown_table(entry["claims"]))
    summary = ", ".join(f"{counts[v]} {v}" for v in VERDICTS if counts[v]) or "no claims measured yet"
    md.insert(1, f"Verdicts over all measured claims: {summary}.\n")
    md.insert(
        2, markdown_table([{k: m[k] for k in ("number", "name", "status", "verdicts")} for m in methods])
    )
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "summary.md").write_text("\n".join(md))
    html = Environment(autoescape=select_autoescape(default=True)).from_string(_HTML)
    (out_dir / "report.html").write_text(html.render(methods=methods, counts=f"Overall: {summary}."))
    return out_dir / "report.html"
