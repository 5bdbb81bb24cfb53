"""Rendering a run: plots to PNG and tables to Markdown.

Under the verdict contract v3 a run is read top down: its PaperClaims (the abstract's words, our verdict,
"k of n tests", the deciding test's figure and scale: :func:`paper_claim_rows`), then its tests and checks
(:func:`rows_of_tests`, each with a short title and its full statement apart), then the history of its tests
(:func:`history_rows`). Records judged under contract 2 keep their flat table (:func:`claim_rows`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from icml26.common.claims import PAPER_VERDICTS
from icml26.common.experiment import VERDICTS, Plot

TALLY = (
    PAPER_VERDICTS  # verified, toy-verified, non-discriminating, refuted, inconclusive, blocked, re-tabulated
)


def tally_category(claim: Mapping[str, Any]) -> str:
    """Where a judged claim is counted: its verdict, except that a holding claim whose controls pass
    too is counted apart as ``non-discriminating``."""
    if claim.get("non_discriminating") and claim["verdict"] in VERDICTS[:2]:
        return "non-discriminating"
    return claim["verdict"]


def tally(claims: Sequence[Mapping[str, Any]], kind: str = "paper") -> dict[str, int]:
    """Counts of the claims of one ``kind`` by :func:`tally_category`; by default the *paper* claims
    (checks are never counted with them)."""
    counts = dict.fromkeys(TALLY, 0)
    for c in claims:
        if c.get("kind", "paper") == kind:
            counts[tally_category(c)] += 1
    return counts


def tally_text(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{counts[k]} {k}" for k in TALLY if counts.get(k)) or "none"


def fmt(value: Any) -> str:
    """A number as a short string (4 significant digits); ``-`` for missing."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def markdown_table(rows: Sequence[Mapping[str, Any]], columns: Sequence[str] | None = None) -> str:
    """A GitHub-flavoured Markdown table of ``rows`` (dicts); columns default to the first row's keys."""
    if not rows:
        return "_(empty)_\n"
    columns = list(columns or rows[0].keys())
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for row in rows:
        lines.append("| " + " | ".join(fmt(row.get(c)).replace("|", "\\|") for c in columns) + " |")
    return "\n".join(lines) + "\n"


_SYMBOLS = {"<=": "≤", ">=": "≥", "<": "<", ">": ">"}


def _with_unit(value: Any, unit: str) -> str:
    if not isinstance(value, int | float) or isinstance(value, bool):
        return fmt(value)
    return f"{fmt(value)}{unit}" if unit in ("×", "%") else f"{fmt(value)} {unit}".rstrip()


def judged(c: Mapping[str, Any]) -> str:
    """The measurement beside its rule, e.g. ``0.237× < 1× → holds`` or ``0.85 in [0.8, 0.97] → fails``."""
    value, unit = c.get("measured"), c.get("unit", "")
    if not isinstance(value, int | float) or "op" not in c:
        return c.get("rule", "")
    if c["op"] == "in":
        low, high = c["threshold"]
        bound = f"in [{_with_unit(low, unit)}, {_with_unit(high, unit)}]"
    else:
        bound = f"{_SYMBOLS[c['op']]} {_with_unit(c['threshold'], unit)}"
    outcome = {"refuted": "fails", "inconclusive": "undecided", "blocked": "blocked"}.get(
        c["verdict"], "holds"
    )
    return f"{_with_unit(value, unit)} {bound} → {outcome}"


def claim_rows(claims: Sequence[Mapping[str, Any]], kind: str = "paper") -> list[dict[str, Any]]:
    """The claims of one ``kind`` (``paper`` or ``check``) flattened for a table: claim | scale | paper |
    ours (with unit and 95% interval) | judged (ours against the rule) | strongest baseline (display
    name = value) | controls passing too | verdict (with its reason, and the revision mark)."""
    rows = []
    for c in claims:
        if c.get("kind", "paper") != kind:
            continue
        verdict = c["verdict"]
        if c.get("non_discriminating"):
            verdict += " (non-discriminating)"
        elif c.get("reason") and verdict != "refuted":
            verdict += f" ({c['reason']})"
        if c.get("revised"):
            verdict += f"; revised {c['revised']}"
        controls, labels = c.get("controls") or {}, c.get("control_labels") or {}
        unit = c.get("unit", "")
        iv = c.get("interval")
        ours = _with_unit(c["measured"], unit) + (f" [{fmt(iv[0])}, {fmt(iv[1])}]" if iv else "")
        baseline = "-"
        if c.get("baseline"):
            name = c.get("baseline_label") or c["baseline"]
            baseline = f"{name} = {fmt(c['baseline_value'])}"
        passing = [
            f"{labels.get(k, k)} = {fmt(v)}"
            for k, v in controls.items()
            if k in c.get("controls_passing", ())
        ]
        rows.append(
            {
                "claim": c["statement"],
                "scale": c.get("scale", "proxy"),
                "paper": c["paper"],
                "ours": ours,
                "judged": judged(c),
                "strongest baseline": baseline,
                "controls passing too": ", ".join(passing) or ("none" if controls else "-"),
                "verdict": verdict,
            }
        )
    return rows


def _fit_title(fig: Any, ax: Any, title: str) -> None:
    """Set ``title`` wrapped to the axes' width, shrinking the font until it fits inside the figure."""
    import textwrap

    for size, width in ((11, 55), (10, 62), (9, 70), (8, 80)):
        ax.set_title(textwrap.fill(title, width), fontsize=size)
        fig.tight_layout()
        if title_fits(fig, ax):
            return


def title_fits(fig: Any, ax: Any) -> bool:
    """Whether the axes' title lies wholly inside the figure (used by the tests)."""
    box = ax.title.get_window_extent(renderer=fig.canvas.get_renderer())
    return box.x0 >= 0 and box.x1 <= fig.bbox.width and box.y1 <= fig.bbox.height


def write_plots(
    directory: Path, plots: Sequence[Plot], claims: Sequence[Mapping[str, Any]] = (), suffix: str = ""
) -> list[str]:
    """Render each :class:`Plot` to ``<directory>/<name><suffix>.png`` (title fitted, reference lines
    drawn, its claim named in the legend); return the file names."""
    if not plots:
        return []
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    statements = {c["name"]: c["statement"] for c in claims}
    names = []
    for plot in plots:
        fig, ax = plt.subplots(figsize=(6.4, 4.2))
        for label, (x, y) in plot.series.items():
            ax.plot(x, y, marker="o" if len(x) <= 30 else None, label=label)
        for i, (label, y) in enumerate(plot.lines.items()):
            ax.axhline(y, color=f"C{len(plot.series) + i}", linestyle="--", linewidth=1.2, label=label)
        ax.set(xlabel=plot.xlabel, ylabel=plot.ylabel)
        if plot.logx:
            ax.set_xscale("log")
        if plot.logy:
            ax.set_yscale("log")
        if len(plot.series) + len(plot.lines) > 1:
            ax.legend(fontsize=8)
        ax.grid(alpha=0.3)
        title = plot.title
        if plot.claim:
            title += f" (claim {plot.claim})"
            if plot.claim not in statements and claims:
                raise ValueError(f"plot {plot.name!r} names claim {plot.claim!r}, which the experiment lacks")
        _fit_title(fig, ax, title)
        name = f"{plot.name}{suffix}.png"
        fig.savefig(directory / name, dpi=100)
        plt.close(fig)
        names.append(name)
    return names


def write_markdown(path: Path, payload: Mapping[str, Any]) -> None:
    """``result.md``: the PaperClaims, the tests, the checks, the history, metrics and tables of one run
    (a record of an older contract: its claims and checks as flat tables)."""
    parts = [
        f"# {payload['method']}: {payload['title']}\n",
        f"{payload['paper']}. Profile `{payload['profile']}`, seeds {payload['seeds']}.\n",
    ]
    if is_v3(payload):
        parts += run_markdown(payload)
    else:
        parts += [
            "## Claims\n",
            markdown_table(claim_rows(payload["claims"])),
            "## Checks (ours, not the paper's)\n",
            markdown_table(claim_rows(payload["claims"], "check")),
        ]
    parts += [
        "## Metrics\n",
        markdown_table([{"metric": k, "value": v} for k, v in payload["metrics"].items()]),
    ]
    for name, rows in payload["tables"].items():
        parts += [f"## {name}\n", markdown_table(rows)]
    if payload["notes"]:
        parts += ["## Notes\n", "\n".join(f"- {n}" for n in payload["notes"]) + "\n"]
    parts += [f"![{p}]({p})\n" for p in payload["plots"]]
    path.write_text("\n".join(parts))


# ---- contract v3: what a reader sees ------------------------------------------------------------

SYMBOLS = {**_SYMBOLS, "in": "in"}


def is_v3(run: Mapping[str, Any]) -> bool:
    """Whether a record was judged under the verdict contract v3 (it has PaperClaims)."""
    contract = run.get("contract", 1)
    return isinstance(contract, int) and contract >= 3 and isinstance(run.get("paper_claims"), list)


def verdict_of(test: Mapping[str, Any]) -> str:
    """A judged test's verdict as a reader sees it (``non-discriminating`` for a holding test whose
    controls pass too)."""
    return tally_category(test)


def shorten(text: str, width: int = 80) -> str:
    """``text`` on one line, cut at a word to at most ``width`` characters (an ellipsis marks the cut)."""
    words = " ".join(str(text).split())
    if len(words) <= width:
        return words
    cut = words[: width - 1].rsplit(" ", 1)[0]
    return cut.rstrip(",;:") + "…"


def rule_text(c: Mapping[str, Any]) -> str:
    """The rule's bound in symbols: ``< 1×``, ``in [0.8, 0.97]``, ``p > 0.05``."""
    unit, op = c.get("unit", ""), c.get("op")
    if op == "in" and isinstance(c.get("threshold"), list | tuple):
        low, high = c["threshold"]
        return f"in [{_with_unit(low, unit)}, {_with_unit(high, unit)}]"
    if op not in _SYMBOLS:
        return c.get("rule", "")
    prefix = "p " if c.get("pvalue") else ""
    return f"{prefix}{_SYMBOLS[op]} {_with_unit(c.get('threshold'), '' if prefix else unit)}"


def fmt3(value: Any) -> str:
    """A number with 3 significant digits (headline figures); other values as :func:`fmt`."""
    return f"{value:.3g}" if isinstance(value, float) else fmt(value)


def interval_text(c: Mapping[str, Any]) -> str:
    iv = c.get("interval")
    if isinstance(iv, list | tuple) and len(iv) == 2:
        return f" [{fmt3(iv[0])}, {fmt3(iv[1])}]"
    return ""


def figure_text(c: Mapping[str, Any] | None) -> str:
    """The judged figure of a test: ours (or ours against the strongest baseline) with its 95% interval
    and the rule, e.g. ``ours / MC = 0.057× [0.02, 0.13], rule < 1×``; the reason where nothing was
    measured."""
    if c is None:
        return "-"
    value = c.get("measured")
    if not isinstance(value, int | float) or isinstance(value, bool):
        return shorten(f"not measured: {c.get('reason') or c['verdict']}", 90)
    unit = c.get("unit", "")
    if c.get("pvalue"):
        lhs = f"p ({c['pvalue'][0]})"
        unit = ""
    elif c.get("baseline"):
        sign = "/" if c.get("form") == "ratio" else "−"
        lhs = f"ours {sign} {c.get('baseline_label') or c['baseline']}"
    else:
        lhs = "ours"
    shown = f"{fmt3(value)}{unit}" if unit in ("×", "%") else f"{fmt3(value)} {unit}".rstrip()
    return f"{lhs} = {shown}{interval_text(c)}, rule {rule_text(c)}"


def holds_text(pc: Mapping[str, Any]) -> str:
    """``k of n tests`` (with the blocked ones, and the reason where none was measured)."""
    n = pc.get("of", 0)
    if not n:
        return pc.get("reason") or "no test measured"
    text = f"{pc.get('holds', 0)} of {n} test{'s' if n != 1 else ''}"
    if pc.get("blocked"):
        text += f", {pc['blocked']} blocked"
    return text


def tests_by_name(run: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    return {c["name"]: c for c in run.get("claims", [])}


def paper_claim_rows(
    run: Mapping[str, Any], beside: Mapping[str, Any] | None = None, quote: bool = True
) -> list[dict[str, Any]]:
    """One row per PaperClaim of a v3 record: the abstract's words | our verdict | holds in k of n tests
    | the deciding test and its figure | its scale; with ``beside`` (the quick record beside a paper
    one), that record's verdict of the same PaperClaim as a column of its own."""
    tests = tests_by_name(run)
    other = {p["id"]: p for p in (beside or {}).get("paper_claims", [])}
    rows = []
    for pc in run["paper_claims"]:
        deciding = tests.get(pc.get("deciding") or "")
        words = f"{pc['title']}: “{pc['quote']}”" if quote else pc["title"]
        row: dict[str, Any] = {"the abstract says": words, "verdict": pc["verdict"]}
        if beside is not None:
            mine = other.get(pc["id"])
            row[f"{beside['profile']} run"] = f"{mine['verdict']} ({holds_text(mine)})" if mine else "-"
        scale = deciding.get("scale", "proxy") if deciding else "-"
        if deciding and deciding.get("outside_conditions"):
            scale += " (outside its conditions)"
        row |= {
            "holds in": holds_text(pc),
            "deciding test": (deciding or {}).get("title") or pc.get("deciding") or "-",
            "its figure": figure_text(deciding),
            "scale": scale,
        }
        rows.append(row)
    return rows


def rows_of_tests(run: Mapping[str, Any], kind: str = "paper") -> list[dict[str, Any]]:
    """The tests (``kind="paper"``) or checks of a v3 record, one short row each: title (with
    ``[revised]``) | the PaperClaim it supports | ours | the rule | strongest baseline | verdict."""
    titles = {p["id"]: p["title"] for p in run.get("paper_claims", [])}
    chosen = [c for c in run["claims"] if c.get("kind", "paper") == kind]
    # one column set for every row: checks show "supports" when one of them is a paper test run outside
    # its conditions
    with_supports = kind == "paper" or any(c.get("supports") for c in chosen)
    rows = []
    for c in chosen:
        title = c.get("title") or c["name"]
        if c.get("revisions"):
            title += f" [revised ×{len(c['revisions'])}]" if len(c["revisions"]) > 1 else " [revised]"
        row: dict[str, Any] = {"test" if kind == "paper" else "check": title}
        if with_supports:
            row["supports"] = titles.get(c.get("supports", ""), c.get("supports") or "-")
        baseline = "-"
        if c.get("baseline"):
            baseline = f"{c.get('baseline_label') or c['baseline']} = {fmt(c.get('baseline_value'))}"
        verdict = verdict_of(c)
        if c.get("outside_conditions"):
            verdict += " (outside its conditions)"
        row |= {
            "ours": _with_unit(c.get("measured"), c.get("unit", "")) + interval_text(c),
            "rule": rule_text(c),
            "strongest baseline": baseline,
            "verdict": verdict,
        }
        rows.append(row)
    return rows


def details_of_test(c: Mapping[str, Any]) -> list[tuple[str, str]]:
    """What stands behind a test's title: its full statement, the paper's figure, the rule, the setting
    (preconditions, p-value form), the reason of its verdict, controls and shown metrics."""
    items = [("statement", c.get("statement", "")), ("paper", str(c.get("paper", "")))]
    items.append(("rule", f"{c.get('rule', '')} (judged: {judged(c)})"))
    items.append(("scale", c.get("scale", "proxy")))
    if c.get("outside_conditions"):
        items.append(("outside its conditions", "; ".join(c["outside_conditions"])))
    if c.get("pvalue"):
        items.append(("hypothesis test", f"{c['pvalue'][0]}, alpha = {c['pvalue'][1]:g}"))
    if c.get("reason"):
        items.append(("why this verdict", c["reason"]))
    labels = c.get("control_labels") or {}
    if c.get("controls"):
        passing = set(c.get("controls_passing", ()))
        items.append(
            (
                "controls",
                ", ".join(
                    f"{labels.get(k, k)} = {fmt(v)}{' (passes too)' if k in passing else ''}"
                    for k, v in c["controls"].items()
                ),
            )
        )
    for key in ("shown", "context"):
        if c.get(key):
            items.append((key, ", ".join(f"{k} = {fmt(v)}" for k, v in c[key].items())))
    return [(k, v) for k, v in items if v]


def history_rows(run: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every Revision of every test: date | test | old rule or setting | verdict then | why | run."""
    rows = []
    for c in run.get("claims", []):
        for r in c.get("revisions") or []:
            rows.append(
                {
                    "date": r.get("date", ""),
                    "test": c.get("title") or c["name"],
                    "old rule or setting": r.get("old", ""),
                    "verdict then": r.get("verdict", ""),
                    "why": r.get("why", ""),
                    "run": r.get("run", "") or "-",
                }
            )
    return sorted(rows, key=lambda r: r["date"])


def paper_tally(runs: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """PaperClaims by verdict over v3 records."""
    counts = dict.fromkeys(TALLY, 0)
    for run in runs:
        for pc in run.get("paper_claims", []):
            counts[pc["verdict"]] = counts.get(pc["verdict"], 0) + 1
    return counts


def details_markdown(run: Mapping[str, Any], kind: str = "paper") -> str:
    """The full statements, rules and settings of a record's tests (or checks), behind one toggle."""
    items = [c for c in run["claims"] if c.get("kind", "paper") == kind]
    if not items:
        return ""
    what = "test" if kind == "paper" else "check"
    lines = [f"<details><summary>Full statement, rule and setting of each {what}</summary>", ""]
    for c in items:
        lines.append(f"- **{c.get('title') or c['name']}** (`{c['name']}`)")
        lines += [f"  - {k}: {str(v).replace('|', '/')}" for k, v in details_of_test(c)]
    return "\n".join([*lines, "", "</details>", ""])


def run_markdown(
    run: Mapping[str, Any], beside: Mapping[str, Any] | None = None, level: int = 2
) -> list[str]:
    """A v3 record in Markdown: the PaperClaims' table, then the tests, the checks and the history."""
    h = "#" * level
    checks = rows_of_tests(run, "check")
    parts = [
        f"{h} What the abstract claims, and what we found\n",
        markdown_table(paper_claim_rows(run, beside)),
        f"{h} Tests of the paper's claims\n",
        markdown_table(rows_of_tests(run)),
        details_markdown(run),
        f"{h} Our checks (not the paper's claims)\n",
        markdown_table(checks) if checks else "_none_\n",
        details_markdown(run, "check"),
    ]
    history = history_rows(run)
    if history:
        parts += [f"{h} History of the tests\n", markdown_table(history)]
    if run.get("background"):
        parts.append(f"{h} Background sentences of the abstract (not tested)\n")
        parts.append("\n".join(f"- “{b['quote']}” ({b['reason']})" for b in run["background"]) + "\n")
    return [p for p in parts if p]
