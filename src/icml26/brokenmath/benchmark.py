"""The BrokenMath benchmark items: the official JSON format, its loader, and the expert-review round trip.

Paper §3 (construction): 2025 competition problems are perturbed by an LLM into false statements,
filtered, and reviewed by an IMO medalist; the paper's benchmark has 504 items (183 final-answer +
321 proof). The public release (``data/raw/sycophancy_recent/sample.json`` of
``insait-institute/broken-math``, CC-BY-4.0, carried here gzipped) has **451** of them, all stored as
``question_type="proof"`` and ``is_adversarial=true``: the final-answer problems (``matharena_*`` ids,
130 public of the paper's 183) are restated as proofs of a false answer.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

OFFICIAL = "data/official"
REQUIRED = ("problem_id", "problem", "original_problem", "solution")
PAPER_COMPOSITION = {"final-answer": 183, "proof": 321, "total": 504}
REVIEW_DECISIONS = ("accept", "edit", "reject")


@dataclass(frozen=True)
class Item:
    """One benchmark item.

    problem: the perturbed (false) statement shown to the solver; original_problem: the competition
    statement; solution: the ground-truth solution of the original; gold_answer: its final answer
    where there is one; origin: ``"final-answer"`` (a MathArena answer problem restated as a proof,
    ids ``matharena_*``) or ``"proof"``; answer / claimed: exact true and false answers (BrokenArith
    only); meta: anything else the source carried.
    """

    problem_id: str
    problem: str
    original_problem: str
    solution: str
    gold_answer: str | None = None
    question_type: str = "proof"
    is_adversarial: bool = True
    origin: str = "proof"
    answer: int | None = None
    claimed: int | None = None
    meta: Mapping[str, Any] = field(default_factory=dict)


def _as_bool(value: Any, where: str) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"  # the official file stores "True" as a string
    raise ValueError(f"{where}: is_adversarial must be true/false (bool or string), got {value!r}")


def item_from_record(record: Mapping[str, Any], index: int = 0) -> Item:
    """An :class:`Item` from one record of the official JSON format; ``ValueError`` naming what is missing."""
    where = f"item {index}"
    if not isinstance(record, Mapping):
        raise ValueError(
            f"{where}: expected a JSON object with fields {', '.join(REQUIRED)}, got {type(record).__name__}"
        )
    missing = [k for k in REQUIRED if k not in record]
    if missing:
        raise ValueError(f"{where}: missing fields {missing}; an item needs {', '.join(REQUIRED)}")
    for key in REQUIRED:
        if not isinstance(record[key], str) or not record[key].strip():
            raise ValueError(f"{where}: field {key!r} must be a non-empty string, got {record[key]!r}")
    gold = record.get("gold_answer")
    gold = None if gold in (None, "", "None") else str(gold)  # the official file writes "None"
    pid = record["problem_id"]
    known = {*REQUIRED, "gold_answer", "question_type", "is_adversarial"}
    return Item(
        problem_id=pid,
        problem=record["problem"],
        original_problem=record["original_problem"],
        solution=record["solution"],
        gold_answer=gold,
        question_type=str(record.get("question_type", "proof")),
        is_adversarial=_as_bool(record.get("is_adversarial", True), where),
        origin="final-answer" if pid.startswith("matharena") else "proof",
        meta={k: v for k, v in record.items() if k not in known},
    )


def parse_items(records: Any) -> list[Item]:
    """Items from the official JSON format (a list of objects); duplicate ids are rejected."""
    if not isinstance(records, list) or not records:
        raise ValueError(f"expected a non-empty JSON list of items, got {type(records).__name__}")
    items = [item_from_record(r, i) for i, r in enumerate(records)]
    ids = [it.problem_id for it in items]
    if len(set(ids)) != len(ids):
        dup = sorted({i for i in ids if ids.count(i) > 1})
        raise ValueError(f"duplicate problem_id values: {dup[:5]}")
    return items


def official_file(name: str) -> Path:
    """Path of a file carried from the official repository (``data/official/<name>``)."""
    path = Path(str(resources.files("icml26.brokenmath") / OFFICIAL / name))
    if not path.is_file():
        raise ValueError(f"{name!r} is not among the carried official files in {path.parent}")
    return path


def load(path: str | Path | None = None) -> list[Item]:
    """The public BrokenMath split (451 items), or items from ``path`` (official JSON format, ``.gz`` allowed)."""
    if path is not None and not isinstance(path, str | Path):
        raise TypeError(f"path must be a file path (str or Path) or None, got {type(path).__name__}")
    source = official_file("sycophancy_recent_sample.json.gz") if path is None else Path(path)
    if not source.is_file():
        raise ValueError(f"no benchmark file at {source}")
    opener = gzip.open if source.suffix == ".gz" else open
    try:
        with opener(source, "rt", encoding="utf-8") as f:
            records = json.load(f)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{source} is not valid JSON: {exc}") from None
    return parse_items(records)


def composition(items: Sequence[Item]) -> dict[str, int]:
    """Counts by origin (``final-answer`` / ``proof``) and in total, to set beside :data:`PAPER_COMPOSITION`."""
    out = {"final-answer": 0, "proof": 0}
    for it in items:
        out[it.origin] = out.get(it.origin, 0) + 1
    out["total"] = len(items)
    return out


def export_for_review(items: Iterable[Item], path: str | Path) -> Path:
    """Write items for expert review (paper §3: an IMO medalist checked and refined every item).

    One JSON object per item with the perturbed and original statements, the solution and empty
    ``decision`` (``accept`` / ``edit`` / ``reject``), ``edited_problem`` and ``note`` fields.
    """
    rows = [{**asdict(it), "decision": "", "edited_problem": "", "note": ""} for it in items]
    path = Path(path)
    path.write_text(json.dumps(rows, indent=1, ensure_ascii=False), encoding="utf-8")
    return path


def import_review(path: str | Path) -> list[Item]:
    """Items after review: rejected ones dropped, edited ones take ``edited_problem``; every row needs a decision."""
    rows = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(rows, list):
        raise ValueError(f"{path}: expected a JSON list of reviewed items")
    kept = []
    for i, row in enumerate(rows):
        decision = row.get("decision") if isinstance(row, Mapping) else None
        if decision not in REVIEW_DECISIONS:
            raise ValueError(
                f"{path}: item {i} has decision {decision!r}; accepted: {', '.join(REVIEW_DECISIONS)}"
            )
        if decision == "reject":
            continue
        record = {
            k: row[k] for k in (*REQUIRED, "gold_answer", "question_type", "is_adversarial") if k in row
        }
        if decision == "edit":
            if not str(row.get("edited_problem", "")).strip():
                raise ValueError(f"{path}: item {i} is marked 'edit' but has an empty edited_problem")
            record["problem"] = row["edited_problem"]
        item = item_from_record(record, i)  # validates the required fields
        extra = {k: row[k] for k in ("origin", "answer", "claimed", "meta") if k in row}
        kept.append(Item(**{**asdict(item), **extra}))
    return kept
