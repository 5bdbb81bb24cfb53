"""Regenerate each method doc's measured block from its committed run records (verdict contract v3).

Usage: ``.venv/bin/python tools/update_method_docs.py [METHOD ...]`` (default: every method with records in
``docs/runs``). The block between two ``<!-- measured -->`` markers (or the older ``<!-- measured-v2 -->``) is
replaced; it is generated, never edited by hand. It shows the record that speaks for the method (its
largest-profile finished run) the way the report does: the abstract's claims first (one row each, the quick
record's verdicts beside), then the tests, the checks and the history.
"""

from __future__ import annotations

import sys
from pathlib import Path

from icml26.common.output import claim_rows, is_v3, markdown_table, run_markdown, tally, tally_text
from icml26.common.report import partial_text, provenance, speaking_records

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
MARK = "<!-- measured -->"
MARKS = (MARK, "<!-- measured-v2 -->")
SECTION = "## Claims and measured results"


def _link(path: Path, docs: Path) -> str:
    rel = path.resolve().relative_to(docs.resolve()).as_posix()
    return f"[`{rel}`](../{rel})"


def block(method: str, docs: Path = DOCS) -> str:
    """The generated Markdown block (markers included) for ``method``'s records under ``docs/runs``."""
    speaking = speaking_records(docs / "runs", only=method).get(method)
    if speaking is None or speaking.main is None:
        raise SystemExit(f"{method}: no finished record in {docs / 'runs' / method}")
    path, run = speaking.main
    parts = [MARK, "### Measured (generated from the committed records)", ""]
    parts.append(
        f"The record that speaks: {_link(path, docs)} ({provenance(path, run)};"
        f" `icml26 run {method} --profile {run['profile']}`)."
    )
    beside = None
    if speaking.beside is not None:
        bpath, beside = speaking.beside
        parts.append(f"Beside it, the quick record: {_link(bpath, docs)} ({provenance(bpath, beside)}).")
    for p, r in speaking.newer:
        where = p.resolve().relative_to(docs.resolve().parent).as_posix()  # docs/runs/<method>/<run>
        state = partial_text(r, p).replace(str(p), where)
        parts.append(f"A newer {r['profile']} run did not finish: `{p.name}` ({state}).")
    for p, r in speaking.superseded:
        parts.append(
            f"A {r['profile']} record judged before its tests' latest Revisions (its verdicts are kept in"
            f" them): {_link(p, docs)} ({provenance(p, r)})."
        )
    if run["profile"] != "paper":
        parts.append("No `paper`-profile record of the current tests is committed.")
    parts.append("")
    if is_v3(run):
        parts += run_markdown(run, beside if beside is not None and is_v3(beside) else None, level=4)
    else:
        parts += [
            f"_Judged under contract v{run.get('contract', 1)} (not counted): paper claims"
            f" {tally_text(tally(run['claims']))}._",
            "",
            markdown_table(claim_rows(run["claims"])),
            "Our checks (not the paper's claims):",
            "",
            markdown_table(claim_rows(run["claims"], "check")),
        ]
    return "\n".join([*parts, MARK]) + "\n"


def replace_block(text: str, new: str) -> str:
    """``text`` with its measured block replaced by ``new`` (or ``new`` placed at the end of the section
    ``## Claims and measured results``, or appended under that heading)."""
    for mark in MARKS:
        if mark in text:
            start = text.index(mark)
            end = text.index(mark, start + 1) + len(mark)
            return text[:start] + new.rstrip("\n") + text[end:]
    lines = text.splitlines(keepends=True)
    heads = [i for i, line in enumerate(lines) if line.startswith(SECTION)]
    if heads:
        after = next((i for i in range(heads[0] + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
        return "".join(lines[:after]) + "\n" + new + "\n" + "".join(lines[after:])
    return text.rstrip("\n") + f"\n\n{SECTION}\n\n" + new


def update(method: str, docs: Path = DOCS) -> None:
    doc = docs / "methods" / f"{method}.md"
    if not doc.exists():
        raise SystemExit(f"{method}: needs docs/methods/{method}.md")
    doc.write_text(replace_block(doc.read_text(), block(method, docs)))
    print(f"{method}: measured block written")


if __name__ == "__main__":
    names = sys.argv[1:] or sorted(p.name for p in (DOCS / "runs").iterdir() if p.is_dir())
    for name in names:
        update(name)
