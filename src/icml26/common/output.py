"""Rendering a run: plots to PNG and tables to Markdown."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from icml26.common.experiment import Plot


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


def claim_rows(claims: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Claims flattened for a table: claim | paper | ours | baselines | verdict."""
    return [
        {
            "claim": c["statement"],
            "paper": c["paper"],
            "ours": c["measured"],
            "baselines": ", ".join(f"{k}={fmt(v)}" for k, v in c["baselines"].items()) or "-",
            "verdict": c["verdict"]
            + (f" ({c['reason']})" if c.get("reason") and c["verdict"] != "refuted" else ""),
        }
        for c in claims
    ]


def write_plots(directory: Path, plots: Sequence[Plot]) -> list[str]:
    """Render each :class:`Plot` to ``<directory>/<name>.png``; return the file names."""
    if not plots:
        return []
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = []
    for plot in plots:
        fig, ax = plt.subplots(figsize=(6, 4))
        for label, (x, y) in plot.series.items():
            ax.plot(x, y, marker="o" if len(x) <= 30 else None, label=label)
        ax.set(title=plot.title, xlabel=plot.xlabel, ylabel=plot.ylabel)
        if plot.logx:
            ax.set_xscale("log")
        if plot.logy:
            ax.set_yscale("log")
        if len(plot.series) > 1:
            ax.legend()
        ax.grid(alpha=0.3)
        fig.tight_layout()
        name = f"{plot.name}.png"
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
        "## Metrics\n",
        markdown_table([{"metric": k, "value": v} for k, v in payload["metrics"].items()]),
    ]
    for name, rows in payload["tables"].items():
        parts += [f"## {name}\n", markdown_table(rows)]
    if payload["notes"]:
        parts += ["## Notes\n", "\n".join(f"- {n}" for n in payload["notes"]) + "\n"]
    parts += [f"![{p}]({p})\n" for p in payload["plots"]]
    path.write_text("\n".join(parts))
