"""Regenerate each method doc's "Measured under the verdict contract v2" block from its committed run records.

Usage: ``.venv/bin/python tools/update_method_docs.py [METHOD ...]`` (default: every method with records in
``docs/runs``). The block between the two ``<!-- measured-v2 -->`` markers is replaced; it is generated, never
edited by hand.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from icml26.common.output import claim_rows, markdown_table, tally, tally_text

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
MARK = "<!-- measured-v2 -->"
HEADING = "## Claims under the verdict contract v2"


def record_section(path: Path) -> list[str]:
    """Markdown for one run record: its provenance line, then the paper claims' and the checks' tables."""
    run = json.loads(path.read_text())
    claims, method, profile = run["claims"], run["method"], run["profile"]
    commit = run.get("versions", {}).get("commit", "not recorded")
    commit = commit.replace("+dirty", " with uncommitted changes")
    rejudged = ", judged again by `icml26 rejudge` under the final contract" if run.get("rejudged") else ""
    paper = tally(claims)
    checks = tally([{**c, "kind": "paper"} for c in claims if c.get("kind") == "check"])
    link = path.relative_to(DOCS).as_posix()
    when = run["finished"][:16].replace("T", " ")
    return [
        f"### Profile `{profile}`, seed {run['seeds'][0]} ({when} UTC, {run['wall_seconds']:.0f} s on 2 cores; "
        f"measured at commit {commit}{rejudged})",
        "",
        f"`icml26 run {method} --profile {profile}`; the run record is [`{link}`](../{link}). "
        f"Paper claims: {tally_text(paper)}; checks: {tally_text(checks)}. Generated from the record, not "
        "written by hand.",
        "",
        "The paper's claims:",
        "",
        markdown_table(claim_rows(claims)),
        "Our checks (not the paper's claims):",
        "",
        markdown_table(claim_rows(claims, "check")),
    ]


def update(method: str) -> None:
    doc = DOCS / "methods" / f"{method}.md"
    records = sorted((DOCS / "runs" / method).glob("*/result.json"))
    if not doc.exists() or not records:
        raise SystemExit(
            f"{method}: needs docs/methods/{method}.md and at least one record in docs/runs/{method}"
        )
    parts = [MARK, "## Measured under the verdict contract v2", ""]
    for path in records:
        parts += record_section(path)
    if not any(json.loads(path.read_text())["profile"] == "paper" for path in records):
        parts += [
            "No `paper`-profile run of the current claims is committed: the profile has not been run since the",
            "claims last changed (earlier paper runs stay in the git history of `docs/runs/`).",
            "",
        ]
    block = "\n".join([*parts, MARK]) + "\n"
    text = doc.read_text()
    if MARK in text:
        start = text.index(MARK)
        end = text.index(MARK, start + 1) + len(MARK) + 1
        text = text[:start] + block + text[end:]
    elif HEADING in text:
        lines = text.splitlines(keepends=True)
        first = next(i for i, line in enumerate(lines) if line.startswith(HEADING))
        after = next((i for i in range(first + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
        text = "".join(lines[:after]) + "\n" + block + "\n" + "".join(lines[after:])
    else:
        raise SystemExit(f"{method}: its doc has neither the {MARK} markers nor a '{HEADING}' section")
    doc.write_text(text)
    print(f"{method}: {len(records)} record(s)")


if __name__ == "__main__":
    names = sys.argv[1:] or sorted(p.name for p in (DOCS / "runs").iterdir() if p.is_dir())
    for name in names:
        update(name)
