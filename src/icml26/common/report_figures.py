"""The report's pictures: the PaperClaims of every method (stacked bars) and, per paper, one forest plot
of its tests (each judged value with its 95% interval against its threshold, grouped by PaperClaim)."""

from __future__ import annotations

import base64
import io
import math
from collections.abc import Mapping, Sequence
from typing import Any

from icml26.common.output import TALLY, shorten, tally_category

COLOURS = {
    "verified": "#176b2c",
    "toy-verified": "#7cc48a",
    "non-discriminating": "#9a9a9a",
    "refuted": "#c0392b",
    "inconclusive": "#e0b43c",
    "blocked": "#6b6b6b",
    "re-tabulated": "#5b7fb8",
}


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def png(fig: Any) -> str:
    """The figure as a base64 PNG (and closed)."""
    plt = _pyplot()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100)
    plt.close(fig)
    return base64.b64encode(buffer.getvalue()).decode()


def overview_figure(
    per_method: Mapping[str, Mapping[str, int]], what: str = "the abstract's claims"
) -> str | None:
    """Stacked horizontal bars: each method's PaperClaims by verdict (PNG, base64); None when empty."""
    names = [n for n, c in per_method.items() if sum(c.values())]
    if not names:
        return None
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(10, 0.34 * len(names) + 1.3))
    left = [0] * len(names)
    for verdict in TALLY:
        widths = [per_method[n].get(verdict, 0) for n in names]
        if any(widths):
            ax.barh(names, widths, left=left, color=COLOURS[verdict], label=verdict)
            left = [a + b for a, b in zip(left, widths)]
    ax.invert_yaxis()
    ax.set_xlabel(f"{what} (PaperClaims)")
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set_title(f"Verdicts of {what}, per paper", fontsize=11)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return png(fig)


def _finite(x: Any) -> float | None:
    return float(x) if isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x) else None


def _thresholds(c: Mapping[str, Any]) -> list[float]:
    t = c.get("threshold")
    values = t if isinstance(t, list | tuple) else [t]
    return [v for v in map(_finite, values) if v is not None]


def forest_rows(run: Mapping[str, Any]) -> list[tuple[Mapping[str, Any], list[Mapping[str, Any]]]]:
    """The PaperClaims of a v3 record, each with the tests that support it (in declaration order)."""
    tests = run.get("claims", [])
    return [(pc, [t for t in tests if t.get("supports") == pc["id"]]) for pc in run.get("paper_claims", [])]


def _draw_test(ax: Any, c: Mapping[str, Any]) -> None:
    value = _finite(c.get("measured"))
    thresholds = _thresholds(c)
    colour = COLOURS.get(tally_category(c), "#333")
    ax.set_yticks([])
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)
    ax.tick_params(axis="x", labelsize=7, pad=1, length=2)
    if value is None:
        ax.set_xticks([])
        ax.spines["bottom"].set_visible(False)
        text = shorten(f"not measured: {c.get('reason') or c['verdict']}", 75)
        ax.text(0.0, 0.5, text, ha="left", va="center", fontsize=7.5, color="#555", transform=ax.transAxes)
        return
    interval = c.get("interval") if isinstance(c.get("interval"), list | tuple) else None
    low = _finite(interval[0]) if interval else None
    high = _finite(interval[1]) if interval else None
    paper = _finite(c.get("paper_figure"))
    points = [value, *thresholds, *(x for x in (low, high, paper) if x is not None)]
    log = (c.get("form") == "ratio" or bool(c.get("pvalue"))) and all(x > 0 for x in points)
    lo, hi = min(points), max(points)
    if log:
        pad = max((math.log10(hi) - math.log10(lo)) * 0.12, 0.05)
        xlim = (10 ** (math.log10(lo) - pad), 10 ** (math.log10(hi) + pad))
        ax.set_xscale("log")
        from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter

        ax.xaxis.set_minor_formatter(NullFormatter())
        if math.log10(xlim[1]) - math.log10(xlim[0]) < 1.5:  # under two decades: a few plain ticks
            ticks = sorted(
                {float(f"{10 ** (math.log10(lo) + i * (math.log10(hi / lo)) / 3):.2g}") for i in range(4)}
            )
            ax.xaxis.set_major_locator(FixedLocator(ticks))
            ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
            ax.xaxis.set_minor_locator(FixedLocator([]))
    else:
        pad = (hi - lo) * 0.12 or max(abs(hi) * 0.1, 1e-3)
        xlim = (lo - pad, hi + pad)
    ax.set_xlim(*xlim)
    ax.set_ylim(-1, 1)
    if interval:
        a = low if low is not None else xlim[0]
        b = high if high is not None else xlim[1]
        ax.plot([a, b], [0, 0], color=colour, linewidth=2.2, solid_capstyle="butt")
    hollow = bool(c.get("outside_conditions"))
    ax.plot([value], [0], "o", markersize=6, color=colour, markerfacecolor="white" if hollow else colour)
    for t in thresholds:
        ax.axvline(t, color="#333", linestyle="--", linewidth=1)
    if c.get("op") == "in" and len(thresholds) == 2:
        ax.axvspan(*thresholds, color="#333", alpha=0.06)
    if paper is not None:
        ax.plot([paper], [0], "D", markersize=5, color="#2c5fa8")


def forest_figure(run: Mapping[str, Any]) -> str | None:
    """One picture per paper: each test's judged value (dot) with its 95% interval (bar) against its
    threshold (dashed; a band is shaded), the paper's figure (diamond) where given, a log axis for
    ratios and p-values, coloured by verdict (hollow: outside its conditions), grouped under the
    PaperClaim it supports. Each test keeps its own x scale (PNG, base64); None without tests."""
    groups = [(pc, tests) for pc, tests in forest_rows(run) if tests]
    if not groups:
        return None
    plt = _pyplot()
    heights: list[float] = []
    for _, tests in groups:
        heights += [0.55] + [1.0] * len(tests)
    row_in = 0.36
    fig = plt.figure(figsize=(12, row_in * sum(heights) + 0.5))
    grid = fig.add_gridspec(
        len(heights),
        1,
        height_ratios=heights,
        left=0.40,
        right=0.84,
        top=1 - 0.1 / (row_in * sum(heights) + 0.5),
        bottom=0.35 / (row_in * sum(heights) + 0.5),
        hspace=0.9,
    )
    row = 0
    for pc, tests in groups:
        head = fig.add_subplot(grid[row])
        head.axis("off")
        head.text(
            -0.78,
            0.2,
            shorten(pc["title"], 70),
            transform=head.transAxes,
            fontsize=9.5,
            fontweight="bold",
            ha="left",
            va="center",
        )
        head.text(
            1.02,
            0.2,
            pc["verdict"],
            transform=head.transAxes,
            fontsize=9,
            fontweight="bold",
            color=COLOURS.get(pc["verdict"], "#333"),
            ha="left",
            va="center",
        )
        row += 1
        for c in tests:
            ax = fig.add_subplot(grid[row])
            _draw_test(ax, c)
            ax.text(
                -0.02,
                0.5,
                shorten(c.get("title") or c["name"], 72),
                transform=ax.transAxes,
                fontsize=8,
                ha="right",
                va="center",
            )
            ax.text(
                1.02,
                0.5,
                tally_category(c) + (" (outside)" if c.get("outside_conditions") else ""),
                transform=ax.transAxes,
                fontsize=8,
                color=COLOURS.get(tally_category(c), "#333"),
                ha="left",
                va="center",
            )
            row += 1
    return png(fig)


def forest_legend() -> str:
    """The forest plot's caption."""
    return (
        "Each test of the abstract's claims: our judged value (dot) with its 95% interval (bar), the rule's"
        " threshold (dashed; a band is shaded), the paper's figure (blue diamond) where it gives one; ratios"
        " and p-values on a log axis; colour: the test's verdict (hollow: run outside its conditions, a check)."
        " Each test has its own x scale."
    )


def tests_of(runs: Sequence[Mapping[str, Any]]) -> int:
    return sum(len(r.get("claims", [])) for r in runs)
