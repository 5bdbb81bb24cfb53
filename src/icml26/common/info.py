"""What ``icml26 info METHOD`` shows: one screen on what a method does and how to use it.

- what it does: the first two paragraphs of prose of the method package's docstring (``icml26/<method>/__init__.py``,
  read without importing it), in two lines;
- a three-line API example: the ``Usage::`` block of that docstring, else the first Python block of the
  ``## API`` section of ``docs/methods/<method>.md``, else the runner call;
- the profiles with the estimated time of one seed (``Experiment.cost``);
- the PaperClaims, each with the latest committed verdict (the record that speaks for the method under
  ``docs/runs`` of the source tree, and the quick one beside it), where the tree has records;
- the doc's path. ``--tests`` lists the tests and checks with their rules; ``--json`` keeps everything.

Nothing here imports PyTorch, NumPy or the method's modules beyond its ``experiment`` (the runner and
the report are not imported either).
"""

from __future__ import annotations

import ast
import re
import sys
import textwrap
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import icml26
from icml26.common.experiment import PROFILES, Experiment

PACKAGE = Path(icml26.__file__).resolve().parent
ROOT = PACKAGE.parents[1]  # the source tree of an editable install (src/icml26 -> the repository)


def _docstring(experiment: Experiment) -> str:
    init = PACKAGE / experiment.method / "__init__.py"
    if init.is_file():
        try:
            return ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        except (SyntaxError, UnicodeDecodeError):
            return ""
    module = sys.modules.get(getattr(experiment.run, "__module__", ""), None)
    return (getattr(module, "__doc__", None) or experiment.description or "").strip()


def what_it_does(experiment: Experiment, width: int = 100) -> list[str]:
    """The docstring's first two paragraphs of prose (or the experiment's title), in at most two lines."""
    paragraphs = [
        p.strip()
        for p in _docstring(experiment).split("\n\n")
        if p.strip() and not p.startswith((" ", "\t")) and not p.rstrip().endswith("::")
    ]
    first = " ".join(paragraphs[:2]) or experiment.title
    first = re.sub(r":\w+:`~?([^`]*)`", r"\1", first).replace(
        "``", ""
    )  # reST roles and literals as plain text
    lines = textwrap.wrap(" ".join(first.split()), width)
    if len(lines) > 2:
        lines = [lines[0], textwrap.shorten(" ".join(lines[1:]), width, placeholder=" …")]
    return lines


def _block_after(text: str, marker: str) -> list[str]:
    """The indented literal block after the line ending in ``marker`` (``Usage::``)."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.rstrip().endswith(marker):
            block = []
            for follow in lines[i + 1 :]:
                if follow.strip() and not follow.startswith((" ", "\t")):
                    break
                block.append(follow)
            return textwrap.dedent("\n".join(block)).strip().splitlines()
    return []


def _doc_api_block(method: str) -> list[str]:
    doc = ROOT / "docs" / "methods" / f"{method}.md"
    if not doc.is_file():
        return []
    text = doc.read_text(encoding="utf-8")
    start = text.find("\n## API")
    if start < 0:
        return []
    fence = text.find("```python", start)
    end = text.find("```", fence + 9) if fence >= 0 else -1
    nxt = text.find("\n## ", start + 1)
    if fence < 0 or end < 0 or (0 <= nxt < fence):
        return []
    return text[fence + 9 : end].strip("\n").splitlines()


def _statements(block: list[str]) -> list[str]:
    """The block's statements, one line each: imports of other packages dropped, a multi-line call or
    import joined; the lines as they are when the block is not plain Python."""
    try:
        tree = ast.parse("\n".join(block))
    except SyntaxError:
        return [line.rstrip() for line in block if line.strip() and not line.lstrip().startswith("#")]
    out = []
    for node in tree.body:
        if isinstance(node, ast.Import) or (
            isinstance(node, ast.ImportFrom) and not (node.module or "").startswith("icml26")
        ):
            continue
        out.append(ast.unparse(node).splitlines()[0])
    return out


def _trim_import(code: list[str]) -> list[str]:
    """An ``from icml26.<m> import a, b, ...`` line cut to the names the other lines use."""
    if not code or not code[0].startswith("from icml26") or " import " not in code[0]:
        return code
    head, names = code[0].split(" import ", 1)
    rest = " ".join(code[1:])
    names_list = [n.strip() for n in names.strip("()").split(",") if n.strip()]
    used = [n for n in names_list if re.search(rf"\b{re.escape(n.split(' as ')[-1])}\b", rest)]
    return [f"{head} import {', '.join(used or names_list[:3])}", *code[1:]]


def usage(experiment: Experiment, lines: int = 3) -> list[str]:
    """A three-line example of the method's API (see the module docstring for where it comes from)."""
    block = _block_after(_docstring(experiment), "Usage::") or _doc_api_block(experiment.method)
    code = _statements(block)
    if not code:
        return [
            "from icml26.common.runner import run_experiment",
            f'record = run_experiment("{experiment.method}", profile="smoke")',
            'print([(c["title"], c["verdict"]) for c in record.claims])',
        ]
    if code[0].startswith("from icml26") and " import " in code[0]:
        names = [n.strip().split(" as ")[-1] for n in code[0].split(" import ", 1)[1].strip("()").split(",")]
        using = [c for c in code[1:] if any(re.search(rf"\b{re.escape(n)}\b", c) for n in names if n)]
        code = [code[0], *(using or code[1:])]
    return _trim_import(code[:lines])


def estimated_seconds(experiment: Experiment) -> dict[str, float | None]:
    """The cost estimate of one seed of each profile, in seconds (None without a cost)."""
    out: dict[str, float | None] = {}
    for p in PROFILES:
        try:
            out[p] = float(experiment.cost(dict(experiment.profiles[p]))[0]) if experiment.cost else None
        except Exception:  # an estimate that fails is no reason not to describe the method
            out[p] = None
    return out


def duration(seconds: float | None) -> str:
    if seconds is None:
        return "no estimate"
    if seconds < 90:
        return f"~{seconds:.0f} s"
    if seconds < 5400:
        return f"~{seconds / 60:.0f} min"
    return f"~{seconds / 3600:.1f} h"


def doc_path(method: str) -> str | None:
    doc = ROOT / "docs" / "methods" / f"{method}.md"
    return str(doc.relative_to(ROOT)) if doc.is_file() else None


def latest_verdicts(method: str, runs: Path | None = None) -> dict[str, Any]:
    """The committed records that speak for ``method`` (``docs/runs`` of the source tree), and each
    PaperClaim's verdict in them: ``{"record", "profile", "verdicts": {id: (verdict, holds, of)},
    "beside": {...}}``; empty where the tree has no v3 record of it."""
    from icml26.common.output import is_v3
    from icml26.common.report import provenance, speaking_records

    runs = runs if runs is not None else ROOT / "docs" / "runs"
    if not (runs / method).is_dir():
        return {}
    speaking = speaking_records(runs, only=method).get(method)
    out: dict[str, Any] = {}
    for key, found in (
        ("main", speaking.main if speaking else None),
        ("beside", speaking.beside if speaking else None),
    ):
        if found is None:
            continue
        path, run = found
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        entry = {
            "record": str(shown),
            "profile": run["profile"],
            "provenance": provenance(path, run),
            "contract": run.get("contract", 1),
        }
        if is_v3(run):
            entry["verdicts"] = {
                p["id"]: {k: p.get(k) for k in ("verdict", "review_verdict", "holds", "of")}
                for p in run["paper_claims"]
            }
        out[key] = entry
    return out


def _test_info(t: Any) -> dict[str, Any]:
    return {
        "name": t.name,
        "title": t.title,
        "statement": t.statement,
        "kind": t.kind,
        "supports": t.supports,
        "scale": t.scale,
        "scale_note": t.scale_note,
        "paper": t.paper_value,
        "rule": t.rule,
        "relative_to": list(t.relative_to),
        "form": t.form,
        "controls": list(t.controls),
        "deterministic": t.deterministic,
        "statistic": t.aggregate_by,
        "requires": [list(r) for r in t.requires],
        "pvalue": list(t.pvalue) if t.pvalue else None,
        "shown": list(t.shown),
        "revised": t.revised,
        "revisions": [r.as_dict() for r in t.revisions],
    }


def info_payload(experiment: Experiment, resources: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Everything ``icml26 info METHOD --json`` prints."""
    latest = latest_verdicts(experiment.method)
    return {
        "method": experiment.method,
        "title": experiment.title,
        "paper": experiment.paper,
        "what_it_does": " ".join(what_it_does(experiment, 10**6)),
        "usage": usage(experiment),
        "description": experiment.description,
        "doc": doc_path(experiment.method),
        "estimated_seconds": estimated_seconds(experiment),
        "paper_claims": [
            {
                "id": p.id,
                "quote": p.quote,
                "quantifier": p.quantifier,
                "title": p.title,
                "headline": p.headline,
                "conditions": p.conditions,
                "tests": [t.name for t in experiment.claims if t.supports == p.id],
            }
            for p in experiment.paper_claims
        ],
        "background": [{"quote": b.quote, "reason": b.reason} for b in experiment.background],
        "latest": latest,
        "claims": [_test_info(t) for t in experiment.claims],
        "profiles": {p: dict(experiment.profiles[p]) for p in PROFILES},
        "resources": dict(resources or {}),
    }


def screen(experiment: Experiment, width: int = 100) -> list[str]:
    """The one screen of ``icml26 info METHOD`` (plain text, at most ``width`` characters a line)."""
    m = experiment.method
    out = [f"{m}: {experiment.title}", *(f"  {line}" for line in what_it_does(experiment, width - 2))]
    out.append(f"  {textwrap.shorten(experiment.paper, width - 2, placeholder=' …')}")
    out += [
        "",
        "Use it:",
        *(f"  {textwrap.shorten(line, width - 2, placeholder=' …')}" for line in usage(experiment)),
    ]
    times = estimated_seconds(experiment)
    out += [
        "",
        "Profiles (one seed, 2 cores, estimated): "
        + " · ".join(f"{p} {duration(times[p])}" for p in PROFILES),
    ]
    out.append(f"  icml26 run {m} --profile quick   (its keys: icml26 info {m} --keys)")
    latest = latest_verdicts(m)
    main, beside = latest.get("main"), latest.get("beside")
    out.append("")
    if experiment.paper_claims:
        records = [e for e in (main, beside) if e and "verdicts" in e]
        if records:
            out.append(
                f"What the abstract claims ({len(experiment.paper_claims)}), latest committed verdicts:"
            )
            out.append(
                "  " + "".join(f"{e['profile'] + ' record':<20}" for e in records) + "claim [quantifier]"
            )
        else:
            out.append(
                f"What the abstract claims ({len(experiment.paper_claims)}); no committed v3 record yet:"
            )
        for p in experiment.paper_claims:
            cells = []
            for e in records:
                v = e["verdicts"].get(p.id)
                cells.append(f"{v['verdict']} {v['holds']}/{v['of']}" if v else "-")
            head = "".join(f"{c:<20}" for c in cells)
            title = textwrap.shorten(
                f"{p.title} [{p.quantifier}]", max(20, width - 2 - len(head)), placeholder=" …"
            )
            out.append(f"  {head}{title}")
    else:
        out.append(f"No PaperClaims declared (a record of contract 2); the tests: icml26 info {m} --tests")
    n_tests = sum(t.kind == "paper" for t in experiment.claims)
    out += ["", f"Tests: {n_tests}, checks: {len(experiment.claims) - n_tests} (icml26 info {m} --tests)"]
    if main:
        out.append(
            textwrap.shorten(f"Record: {main['record']} ({main['provenance']})", width, placeholder=" …")
        )
    out.append(f"Doc: {doc_path(m) or 'none in this tree'}")
    return out


def tests_screen(experiment: Experiment, width: int = 100) -> list[str]:
    """``icml26 info METHOD --tests``: the tests by PaperClaim, then the checks, each with its rule."""
    config = experiment.profiles["quick"]
    out = []

    def one(t: Any) -> list[str]:
        extra = [f"scale {t.scale}"]
        if t.controls:
            extra.append(f"controls {', '.join(t.controls)}")
        if t.requires:
            extra.append("requires " + ", ".join(f"{k} {op} {v:g}" for k, op, v in t.requires))
        if t.pvalue:
            extra.append(f"{t.pvalue[0]} at alpha {t.pvalue[1]:g}")
        if t.revisions:
            extra.append(f"revised {len(t.revisions)}x")
        lines = [f"  - {t.title or t.name} ({t.name})", f"      rule: {t.rule}; {'; '.join(extra)}"]
        lines += textwrap.wrap(
            t.describe(config), width - 6, initial_indent="      ", subsequent_indent="      "
        )
        return lines

    for p in experiment.paper_claims:
        out.append(f"{p.title} [{p.quantifier}]: “{textwrap.shorten(p.quote, width - 20, placeholder=' …')}”")
        for t in experiment.claims:
            if t.kind == "paper" and t.supports == p.id:
                out += one(t)
    orphans = [t for t in experiment.claims if t.kind == "paper" and not t.supports]
    if orphans:
        out.append("Paper tests (contract 2: no PaperClaim):")
        out += [line for t in orphans for line in one(t)]
    checks = [t for t in experiment.claims if t.kind == "check"]
    out.append(f"Checks (ours, not the paper's): {len(checks)}")
    out += [line for t in checks for line in one(t)]
    return out
