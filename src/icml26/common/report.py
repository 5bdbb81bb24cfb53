"""One report over all runs: ``summary.md`` and a self-contained ``report.html`` (plots embedded).

The page opens with a picture of the whole project (paper-claim verdicts per method as stacked bars),
then one collapsible section per method: its paper claims and its checks in separate tables, a forest
plot of its comparative claims (ours with its interval against the rule's threshold and the paper's
figure), and the run's own plots with captions. Tallies count the papers' claims of ``quick`` and
``paper`` runs only. Run files that cannot be read are skipped and named, never fatal.
"""

from __future__ import annotations

import base64
import io
import json
import math
import textwrap
from collections import Counter
from pathlib import Path
from typing import Any

from jinja2 import Environment, select_autoescape
from markupsafe import Markup, escape

from icml26.common.experiment import VERDICTS, as_number
from icml26.common.output import TALLY, claim_rows, markdown_table, tally, tally_category, tally_text
from icml26.common.registry import METHOD_NAMES, METHODS, is_implemented

COLOURS = {
    "verified": "#176b2c",
    "toy-verified": "#7cc48a",
    "non-discriminating": "#b9b9b9",
    "refuted": "#c0392b",
    "inconclusive": "#e0b43c",
    "blocked": "#6b6b6b",
}

_HTML = """<!doctype html>
<html><head><meta charset="utf-8"><title>icml26 report</title>
<style>
body{font-family:system-ui,sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em;width:100%}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top;overflow-wrap:break-word;font-size:.92em}
th{background:#f3f3f3}.verified,.toy-verified{color:#176b2c}.refuted{color:#a11}.inconclusive{color:#8a6d00}
.blocked,.non-discriminating{color:#555}figure{display:inline-block;max-width:48%;margin:4px;vertical-align:top}
figure img{max-width:100%}figcaption{font-size:.85em;color:#555}small{color:#666}img.wide{max-width:100%}
.banner{background:#fff4d6;border:1px solid #e0c060;padding:6px 10px}
table.claims{table-layout:fixed}table.claims th:nth-child(1){width:22%}table.claims th:nth-child(2){width:6%}
table.claims th:nth-child(3){width:15%}table.claims th:nth-child(4){width:10%}table.claims th:nth-child(5){width:17%}
table.claims th:nth-child(6){width:11%}table.claims th:nth-child(7){width:8%}table.claims th:nth-child(8){width:11%}
code{overflow-wrap:anywhere}
summary{cursor:pointer;font-size:1.35em;font-weight:600;margin:.8em 0}
</style></head><body>
<h1>icml26: paper claims vs. our measurements</h1>
<p>Verdicts are computed from the measurements by each claim's rule. Only the papers' own claims are
counted; our checks are listed apart. <code>verified</code> means measured at the paper's own scale
(or an exact per-instance guarantee checked on every instance); <code>toy-verified</code> holds on a
laptop proxy; <code>non-discriminating</code> holds, but so does a control (a baseline or broken variant
judged by the same rule). {{ counts }}</p>
{% if overview %}<img class="wide" alt="paper-claim verdicts per method" src="data:image/png;base64,{{ overview }}">{% endif %}
{% if skipped %}<p class="banner">Skipped run files: {% for s in skipped %}<code>{{ s }}</code>{% if not loop.last %}; {% endif %}{% endfor %}</p>{% endif %}
<table><tr><th>#</th><th>method</th><th>status</th><th>paper claims</th><th>checks</th></tr>
{% for m in methods %}<tr><td>{{ m.number }}</td><td><a href="#{{ m.name }}">{{ m.name }}</a></td>
<td>{{ m.status }}</td><td>{{ m.verdicts }}</td><td>{{ m.checks }}</td></tr>{% endfor %}</table>
{% for m in methods if m.run %}
<details id="{{ m.name }}" open><summary>{{ m.name }}: {{ m.run.title }}</summary>
<p><small>{{ m.run.paper }} &middot; profile <code>{{ m.run.profile }}</code> &middot; seeds {{ m.run.seeds }}
&middot; {{ m.run.finished or m.run.started }}{% if m.wall %} &middot; {{ m.wall }}{% endif %} &middot; <code>{{ m.path }}</code></small></p>
{% if m.run.profile == "smoke" %}<p class="banner">Plumbing check: a smoke run cannot decide these
claims; its verdicts are shown but not counted.</p>{% endif %}
{% if m.partial %}<p class="banner">Partial: {{ m.partial }}</p>
{% elif m.run.error %}<p class="refuted">Failed: {{ m.run.error }}</p>{% else %}
<h3>The paper's claims</h3>
{{ m.claims_html }}
{% if m.forest %}<figure style="max-width:100%"><img alt="forest plot of {{ m.name }}'s comparative claims" src="data:image/png;base64,{{ m.forest }}">
<figcaption>Comparative and two-sided claims: ours (dot) with its 95% interval, the rule's threshold (dashed), the paper's figure (diamond, where it gives one).</figcaption></figure>{% endif %}
<h3>Our checks (not the paper's claims)</h3>
{{ m.checks_html }}
{% for n in m.run.notes %}<p><small>{{ n }}</small></p>{% endfor %}
{% for img in m.images %}<figure><img alt="{{ img.name }}" src="data:image/png;base64,{{ img.data }}"><figcaption>{{ img.caption }}</figcaption></figure>{% endfor %}{% endif %}
</details>
{% endfor %}
<script>
// Self-check used by the browser test: every image decoded and no heading wider than its box.
window.addEventListener("load", () => {
  const imgs = [...document.images];
  const broken = imgs.filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.alt);
  const clipped = [...document.querySelectorAll("h1,h2,h3,summary,figcaption")]
    .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent.slice(0, 60));
  const page = document.documentElement;
  const overflow = page.scrollWidth > page.clientWidth + 1;
  document.body.dataset.check = JSON.stringify({images: imgs.length, broken, clipped, overflow});
});
</script>
</body></html>
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
    return Markup(f'<table class="claims"><tr>{head}</tr>{body}</table>')


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


def latest_runs(runs_dir: Path, skipped: list[str] | None = None) -> dict[str, tuple[Path, dict[str, Any]]]:
    """For each method under ``runs_dir``, its newest readable run (``result.json`` or ``error.json``).

    Files that cannot be read as a run are skipped (an older run is taken instead) and, if ``skipped``
    is given, appended to it as ``"<path> (<why>)"``.
    """
    found: dict[str, tuple[Path, dict[str, Any]]] = {}
    if not runs_dir.is_dir():
        return found

    def subdirs(path: Path) -> list[Path]:
        try:
            return sorted(p for p in path.iterdir() if p.is_dir())
        except OSError as exc:
            if skipped is not None:
                skipped.append(f"{path} (unreadable: {exc.strerror})")
            return []

    for method_dir in subdirs(runs_dir):
        for run_dir in reversed(subdirs(method_dir)):
            for name in ("result.json", "error.json"):
                if (run_dir / name).is_file():
                    data, why = _readable(run_dir / name)
                    if data is None:
                        if skipped is not None:
                            skipped.append(f"{run_dir / name} ({why})")
                        continue
                    claims = [_normalised(c) for c in data.get("claims", [])]
                    found[method_dir.name] = (
                        run_dir,
                        {**data, "claims": claims, "title": data.get("title", method_dir.name)},
                    )
                    break
            if method_dir.name in found:
                break
    return found


def _png(fig: Any) -> str:
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100)
    plt.close(fig)
    return base64.b64encode(buffer.getvalue()).decode()


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def overview_figure(per_method: dict[str, dict[str, int]]) -> str | None:
    """Stacked horizontal bars: each method's paper claims by verdict (PNG, base64)."""
    names = [n for n, c in per_method.items() if sum(c.values())]
    if not names:
        return None
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(9, 0.45 * len(names) + 1.2))
    left = [0] * len(names)
    for verdict in TALLY:
        widths = [per_method[n].get(verdict, 0) for n in names]
        if any(widths):
            ax.barh(names, widths, left=left, color=COLOURS[verdict], label=verdict)
            left = [a + b for a, b in zip(left, widths)]
    ax.invert_yaxis()
    ax.set_xlabel("paper claims")
    ax.set_title("Paper-claim verdicts per method (quick and paper runs)")
    ax.legend(
        ncol=len(TALLY), fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.35 / max(1, len(names) / 4))
    )
    fig.tight_layout()
    return _png(fig)


def forest_figure(claims: list[dict[str, Any]]) -> str | None:
    """One row per comparative or two-sided paper claim: ours with its interval, the threshold, the
    paper's figure; each row on its own x scale (PNG, base64)."""
    rows = [
        c
        for c in claims
        if c.get("kind", "paper") == "paper"
        and (c.get("baseline") or c.get("op") == "in")
        and isinstance(c.get("measured"), int | float)
        and math.isfinite(c["measured"])
    ]
    if not rows:
        return None
    plt = _pyplot()
    fig, axes = plt.subplots(len(rows), 1, figsize=(9, 0.75 * len(rows) + 0.6), squeeze=False)
    for ax, c in zip(axes[:, 0], rows):
        value, interval = c["measured"], c.get("interval")
        colour = COLOURS.get(tally_category(c), "#333")
        lo, hi = interval if interval and all(math.isfinite(x) for x in interval) else (value, value)
        ax.errorbar([value], [0], xerr=[[value - lo], [hi - value]], fmt="o", color=colour, capsize=4)
        thresholds = c["threshold"] if isinstance(c.get("threshold"), list) else [c.get("threshold")]
        for t in thresholds:
            if isinstance(t, int | float):
                ax.axvline(t, color="#444", linestyle="--", linewidth=1)
        if isinstance(c.get("paper_figure"), int | float):
            ax.plot([c["paper_figure"]], [0], "D", color="#2c5fa8")
        ax.set_yticks([])
        label = c["name"] + (f" vs {c.get('baseline_label') or c['baseline']}" if c.get("baseline") else "")
        bound = (
            f"in [{thresholds[0]:g}, {thresholds[1]:g}]"
            if c.get("op") == "in" and len(thresholds) == 2
            else f"{c.get('op', '')} {c.get('threshold', '')}"
        )
        form = f"{c['form']} " if c.get("form") else ""
        ax.set_title(textwrap.shorten(f"{label}: {form}{bound}", 110), fontsize=8, loc="left")
        ax.tick_params(axis="x", labelsize=7)
    fig.tight_layout()
    return _png(fig)


def _partial(run: dict[str, Any], path: Path) -> str:
    """What an interrupted (or killed) run finished, and how to continue it."""
    units = len(list((path / "units").glob("seed_*/*.pkl")))
    done = f"{len(run.get('finished_seeds', []))} of {len(run['seeds'])} seed(s) and {units} unit(s) finished"
    how = "interrupted" if run.get("status") == "partial" else "did not finish (killed, or still running)"
    return f"{how}; {done}; continue with `icml26 run {run['method']} --resume {path}`"


def _render(entry: dict[str, Any], run: dict[str, Any], path: Path) -> tuple[dict[str, int], int, int] | None:
    """Fill ``entry`` with a finished run's tables, figures and images; return what it adds to the
    tallies (paper-claim counts, claims at the paper's scale, exact ones), or None when it is not
    counted (a smoke run, or a record judged by an older contract)."""
    smoke = run["profile"] == "smoke"
    legacy = run.get("contract", 1) < 2
    entry["status"] = (
        "smoke run (not counted)"
        if smoke
        else f"contract v{run.get('contract', 1)} record (not counted)"
        if legacy
        else f"measured ({run['profile']})"
    )
    if isinstance(run.get("wall_seconds"), int | float):
        entry["wall"] = f"{run['wall_seconds']:.0f} s"
    paper_counts = tally(run["claims"])
    check_counts = tally(run["claims"], "check")
    entry["verdicts"], entry["checks"] = tally_text(paper_counts), tally_text(check_counts)
    entry["claims"], entry["check_rows"] = claim_rows(run["claims"]), claim_rows(run["claims"], "check")
    entry["claims_html"], entry["checks_html"] = (
        _html_table(entry["claims"]),
        _html_table(entry["check_rows"]),
    )
    entry["forest"] = forest_figure(run["claims"])
    statements = {c["name"]: c["statement"] for c in run["claims"]}
    plot_claims = run.get("plot_claims", {})
    entry["images"] = [
        {
            "name": p,
            "data": base64.b64encode((path / p).read_bytes()).decode(),
            "caption": f"For claim {plot_claims[p]}: {statements.get(plot_claims[p], '')}"
            if plot_claims.get(p)
            else p,
        }
        for p in run["plots"]
        if (path / p).is_file()
    ]
    if smoke or legacy or run["profile"] not in ("quick", "paper"):
        return None
    papers = [c for c in run["claims"] if c.get("kind", "paper") == "paper"]
    at_scale = sum(c.get("scale") == "paper" and c["verdict"] == "verified" for c in papers)
    return paper_counts, at_scale, sum(c.get("scale") == "exact" for c in papers)


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
    skipped: list[str] = []
    runs = latest_runs(runs_dir, skipped)
    numbers = {m.name: m.number for m in METHODS}
    names = list(METHOD_NAMES) + sorted(n for n in runs if n not in numbers)
    methods, md = [], ["# icml26 summary\n"]
    counts = Counter(dict.fromkeys(TALLY, 0))
    per_method: dict[str, dict[str, int]] = {}
    at_scale = exact = 0
    for name in names:
        path, run = runs.get(name, (None, None))
        entry: dict[str, Any] = {
            "number": numbers.get(name, "-"),
            "name": name,
            "run": run,
            "path": str(path or ""),
        }
        entry["checks"], entry["partial"] = "-", ""
        if run is None:
            entry["status"] = "not run" if is_implemented(name) else "not implemented yet"
            entry["verdicts"] = "-"
        elif run.get("status") in ("partial", "running"):
            entry["status"], entry["verdicts"], entry["partial"] = run["status"], "-", _partial(run, path)
        elif "error" in run:
            entry["status"], entry["verdicts"] = "failed", run["error"]
        else:
            try:
                counted = _render(entry, run, path)
            except Exception as exc:  # a record this code cannot draw: named, never fatal
                skipped.append(f"{path / 'result.json'} (cannot be rendered: {type(exc).__name__}: {exc})")
                entry.update(run=None, status="unreadable run", verdicts="-", checks="-")
                counted, run = None, None
            if counted is not None:
                paper_counts, scale_count, exact_count = counted
                counts.update(paper_counts)
                per_method[name] = paper_counts
                at_scale += scale_count
                exact += exact_count
        methods.append(entry)
        if run is not None:
            md.append(
                f"## {name}: {run['title']}\n\n{run.get('paper', '')}; profile `{run['profile']}`, run `{path}`.\n"
            )
            if entry["partial"]:
                md.append(f"Partial: {entry['partial']}\n")
            elif "error" in run:
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
    if skipped:
        md.insert(3, "Skipped run files: " + "; ".join(skipped) + "\n")
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "summary.md").write_text("\n".join(md))
    html = Environment(autoescape=select_autoescape(default=True)).from_string(_HTML)
    page = html.render(
        methods=methods, counts=summary + ".", overview=overview_figure(per_method), skipped=skipped
    )
    (out_dir / "report.html").write_text(page)
    return out_dir / "report.html"
