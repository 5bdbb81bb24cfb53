"""Rendering a run: plots to PNG and tables to Markdown."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from icml26.common.experiment import VERDICTS, Plot

TALLY = ("verified", "toy-verified", "non-discriminating", "refuted", "inconclusive", "blocked")


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
    """``result.md``: claims, metrics and tables of one run."""
    parts = [
        f"# {payload['method']}: {payload['title']}\n",
        f"{payload['paper']}. Profile `{payload['profile']}`, seeds {payload['seeds']}.\n",
        "## Claims\n",
        markdown_table(claim_rows(payload["claims"])),
        "## Checks (ours, not the paper's)\n",
        markdown_table(claim_rows(payload["claims"], "check")),
        "## Metrics\n",
        markdown_table([{"metric": k, "value": v} for k, v in payload["metrics"].items()]),
    ]
    for name, rows in payload["tables"].items():
        parts += [f"## {name}\n", markdown_table(rows)]
    if payload["notes"]:
        parts += ["## Notes\n", "\n".join(f"- {n}" for n in payload["notes"]) + "\n"]
    parts += [f"![{p}]({p})\n" for p in payload["plots"]]
    path.write_text("\n".join(parts))
