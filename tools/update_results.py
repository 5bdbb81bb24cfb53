"""Regenerate ``docs/results.md`` from the run records committed under ``docs/runs``.

Usage: ``.venv/bin/python tools/update_results.py``. The page is a short header and the ``summary.md`` that
``icml26 report --runs docs/runs`` writes: per paper its headline table (one row per claim of the abstract)
on top, the tests, checks and history below; nothing in it is typed by hand.
"""

from __future__ import annotations

import os
import tempfile
import textwrap
from pathlib import Path

from icml26.common.report import build_report

ROOT = Path(__file__).resolve().parents[1]


def header() -> str:
    intro = (
        "Made by `python tools/update_results.py` from the run records committed under [`runs/`](runs/)"
        " (`icml26 report --runs docs/runs`). For each method the record that speaks is its largest-profile"
        " finished run (`paper` where there is one), with the `quick` one beside it; each names the commit"
        " that measured it. Verdicts follow the verdict contract v3 ([`CONTRIBUTING_METHOD.md`](CONTRIBUTING_METHOD.md)):"
        " each claim of an abstract (a PaperClaim) is rolled up from its tests by its quantifier; `verified`"
        " needs the paper's own scale or an exact per-instance guarantee. Records judged under contract 2 are"
        " shown, not counted. No verdict or tally below is written by hand."
    )
    wrap = textwrap.TextWrapper(width=110, break_on_hyphens=False, break_long_words=False)
    return "# Results: what the papers claim, and what we measured\n\n" + wrap.fill(intro) + "\n\n"


def results_page(runs: Path) -> str:
    """The page for the records under ``runs`` (paths shown relative to the working directory)."""
    with tempfile.TemporaryDirectory() as tmp:
        html = build_report(runs, tmp)
        summary = (html.parent / "summary.md").read_text()
    body = summary.split("\n", 1)[1].lstrip("\n")  # drop the summary's own title
    return header() + body


def main() -> None:
    os.chdir(ROOT)  # the page names run directories relative to the repository
    (ROOT / "docs" / "results.md").write_text(results_page(Path("docs/runs")))
    print("docs/results.md written")


if __name__ == "__main__":
    main()
