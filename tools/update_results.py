"""Regenerate ``docs/results.md`` from the run records committed under ``docs/runs``.

Usage: ``.venv/bin/python tools/update_results.py``. The page is a short header (which profile each method's
newest record ran, written from the records) and the ``summary.md`` that ``icml26 report --runs docs/runs``
writes; nothing in it is typed by hand.
"""

from __future__ import annotations

import os
import tempfile
import textwrap
from pathlib import Path

from icml26.common.report import build_report, latest_runs

ROOT = Path(__file__).resolve().parents[1]
RUNS = ROOT / "docs" / "runs"


def header() -> str:
    newest = latest_runs(RUNS, [])
    profiles: dict[str, list[str]] = {}
    for method, (_, run) in sorted(newest.items()):
        profiles.setdefault(run["profile"], []).append(f"`{method}`")
    rows = "; ".join(f"`{profile}` for {', '.join(names)}" for profile, names in sorted(profiles.items()))
    intro = (
        "Made by `python tools/update_results.py`, which runs `icml26 report --runs docs/runs` over the run"
        " records committed under [`runs/`](runs/): for each implemented method its newest record (seed 0, 2"
        " CPU cores), judged under the verdict contract v2 ([`CONTRIBUTING_METHOD.md`](CONTRIBUTING_METHOD.md))."
        f" Newest records: {rows}. Each record names the commit that measured it (`versions.commit`). Every"
        " number below comes from those records; no verdict or tally is written by hand."
    )
    rules = (
        "Only the papers' own claims are tallied; our checks (sanity, engineering and target checks) are listed"
        " per method and never counted as the paper's. `verified` needs the paper's own scale or an exact"
        " per-instance guarantee checked on every instance."
    )
    wrap = textwrap.TextWrapper(width=110, break_on_hyphens=False, break_long_words=False)
    return (
        "# Results: paper claims vs. our measurements\n\n"
        + wrap.fill(intro)
        + "\n\n"
        + wrap.fill(rules)
        + "\n\n"
    )


def main() -> None:
    os.chdir(ROOT)  # the page names run directories relative to the repository
    with tempfile.TemporaryDirectory() as tmp:
        html = build_report(Path("docs/runs"), tmp)
        summary = (html.parent / "summary.md").read_text()
    body = summary.split("\n", 1)[1].lstrip("\n")  # drop the summary's own title
    (ROOT / "docs" / "results.md").write_text(header() + body)
    print("docs/results.md written")


if __name__ == "__main__":
    main()
