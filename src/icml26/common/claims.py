"""What the paper says, as data (verdict contract version 3): the abstract's claims and their roll-up.

A method declares, in its ``claims.py`` and beside the abstract:

- :class:`PaperClaim`: one claim of the abstract, its words quoted and its **quantifier** read from
  those words before any run (``all``, ``most``, ``any`` or ``headline``);
- :class:`Background`: an abstract sentence that claims nothing we test, with the reason;
- tests: :class:`icml26.common.experiment.Claim` objects; each ``kind="paper"`` test names the
  PaperClaim it supports (``supports=``), checks support none;
- :class:`Revision`: a test's history as data (a rule, setting or kind changed after a result).

The verdict of a PaperClaim is computed (:func:`roll_up`) from its tests' verdicts, never written.
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

QUANTIFIERS = ("all", "most", "any", "headline")
PAPER_VERDICTS = (
    "verified",
    "toy-verified",
    "non-discriminating",
    "refuted",
    "inconclusive",
    "blocked",
    "re-tabulated",
)
# the four words of public reproduction reviews, so that a record can be compared with one claim by claim
REVIEW_WORDS = {
    "verified": "verified",
    "toy-verified": "toy-scale",
    "refuted": "falsified",
    "non-discriminating": "inconclusive",
    "inconclusive": "inconclusive",
    "blocked": "inconclusive",
    "re-tabulated": "inconclusive",
}
TITLE_MAX = 80
# the comparisons a test's precondition (``requires``) may use on a config value
REQUIRE_OPS = {"<=": operator.le, ">=": operator.ge, "<": operator.lt, ">": operator.gt, "==": operator.eq}
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_ID = re.compile(r"^[a-z][a-z0-9_]*$")


def _words(text: str) -> str:
    return " ".join(text.split())


@cache
def abstracts() -> tuple[str, ...]:
    """The nineteen abstracts, in the order of :data:`icml26.common.registry.METHODS`."""
    text = resources.files("icml26.common").joinpath("data/abstracts.txt").read_text(encoding="utf-8")
    paragraphs = [_words(p) for p in text.split("\n\n") if p.strip()]
    return tuple(p for p in paragraphs if len(p) > 200)


def abstract_of(method: str) -> str:
    """The abstract of ``method`` (whitespace normalised)."""
    from icml26.common.registry import METHOD_NAMES

    if method not in METHOD_NAMES:
        raise ValueError(f"unknown method {method!r}; accepted: {', '.join(METHOD_NAMES)}")
    return abstracts()[METHOD_NAMES.index(method)]


@dataclass(frozen=True)
class PaperClaim:
    """One claim of the abstract: the unit a reader sees.

    id: a short identifier (lower case, ``_``), named by its tests' ``supports``.
    quote: the abstract's words, verbatim (one clause).
    quantifier: ``all`` (every measured test must hold: "consistently", "for all"), ``most`` (more
        than half: "often", "typically"), ``any`` (an existence claim: "can reach"), or ``headline``
        (the test named in ``headline`` decides; the others are context).
    title: what a reader sees in a table (<= 80 characters).
    conditions: the statement's preconditions in words (a theorem's width, a sample size), if any;
        each test states them as ``requires`` on config keys.
    """

    id: str
    quote: str
    quantifier: str
    title: str
    headline: str = ""
    conditions: str = ""

    def __post_init__(self) -> None:
        def bad(message: str) -> ValueError:
            return ValueError(f"PaperClaim {self.id!r}: {message}")

        if not isinstance(self.id, str) or not _ID.match(self.id):
            raise bad("id must be lower case letters, digits and '_', starting with a letter")
        if self.quantifier not in QUANTIFIERS:
            raise bad(f"quantifier {self.quantifier!r} is not one of {', '.join(QUANTIFIERS)}")
        if not self.quote.strip():
            raise bad("quote the abstract's words")
        if not self.title.strip() or len(self.title) > TITLE_MAX:
            raise bad(f"title must be 1 to {TITLE_MAX} characters, got {len(self.title)}")
        if (self.quantifier == "headline") != bool(self.headline):
            raise bad("quantifier 'headline' and headline=<test name> go together")


@dataclass(frozen=True)
class Background:
    """An abstract sentence that claims nothing we test, and why (motivation, prior work, a definition)."""

    quote: str
    reason: str

    def __post_init__(self) -> None:
        if not self.quote.strip() or not self.reason.strip():
            raise ValueError(f"Background {self.quote[:40]!r}: give the quote and the reason")


@dataclass(frozen=True)
class Revision:
    """A change to a test after a result was seen: the old rule, setting or kind and its verdict then.

    date: ``YYYY-MM-DD``; old: the rule, setting or kind before; verdict: the verdict it had then
    (one of the test verdicts, with ``non-discriminating`` allowed); why: the reason; run: the commit
    or run id that measured it (empty when only the declaration changed).
    """

    date: str
    old: str
    verdict: str
    why: str
    run: str = ""

    def __post_init__(self) -> None:
        if not _DATE.match(self.date):
            raise ValueError(f"Revision: date must be YYYY-MM-DD, got {self.date!r}")
        if self.verdict not in PAPER_VERDICTS:
            raise ValueError(
                f"Revision {self.date}: verdict {self.verdict!r} is not one of {', '.join(PAPER_VERDICTS)}"
            )
        if not self.old.strip() or not self.why.strip():
            raise ValueError(f"Revision {self.date}: say what the old rule or setting was, and why")

    def as_dict(self) -> dict[str, str]:
        return asdict(self)


def check_declarations(
    method: str, paper_claims: Sequence[PaperClaim], tests: Sequence[Any], check_quotes: bool = True
) -> None:
    """Raise ``ValueError`` unless every paper test supports a declared PaperClaim, every PaperClaim has
    a test, a ``headline`` names one of its tests, every title fits, and each quote is the abstract's."""
    ids = [p.id for p in paper_claims]
    if len(set(ids)) != len(ids):
        raise ValueError(f"Experiment {method!r}: duplicate PaperClaim ids {ids}")
    supported: dict[str, list[str]] = {i: [] for i in ids}
    for t in tests:
        if t.kind == "paper":
            if t.supports not in supported:
                raise ValueError(
                    f"Experiment {method!r}: paper test {t.name!r} supports {t.supports!r}; it must name"
                    f" one of its PaperClaims: {', '.join(ids)}"
                )
            supported[t.supports].append(t.name)
        elif t.supports:
            raise ValueError(f"Experiment {method!r}: check {t.name!r} supports no PaperClaim")
        if not t.title.strip() or len(t.title) > TITLE_MAX:
            raise ValueError(
                f"Experiment {method!r}: test {t.name!r} needs a title of 1 to {TITLE_MAX} characters"
            )
    for p in paper_claims:
        if not supported[p.id]:
            raise ValueError(f"Experiment {method!r}: PaperClaim {p.id!r} has no test")
        if p.headline and p.headline not in supported[p.id]:
            raise ValueError(
                f"Experiment {method!r}: PaperClaim {p.id!r} headline {p.headline!r} is not one of its"
                f" tests: {', '.join(supported[p.id])}"
            )
    if check_quotes:
        from icml26.common.registry import METHOD_NAMES

        if method in METHOD_NAMES:
            text = abstract_of(method)
            for quote in [p.quote for p in paper_claims]:
                if _words(quote) not in text:
                    raise ValueError(
                        f"Experiment {method!r}: quote {quote[:60]!r} is not verbatim in the abstract"
                    )


# ---- the roll-up -------------------------------------------------------------------------------


def test_outcome(row: Mapping[str, Any]) -> str:
    """A judged test's outcome for the roll-up: ``holds``, ``non-discriminating``, ``refuted``,
    ``inconclusive``, ``blocked`` or ``re-tabulated``."""
    v = row["verdict"]
    if v in ("verified", "toy-verified"):
        return "non-discriminating" if row.get("non_discriminating") else "holds"
    return v


def _needed(quantifier: str, n: int) -> int:
    return {"all": n, "most": n // 2 + 1, "any": 1}[quantifier]


def roll_up(claim: PaperClaim, rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The PaperClaim's verdict from its tests' judged rows (``judge`` rows of the runner).

    Counted tests are the paper tests that support it, ran within their conditions (an outside run is
    a check) and are not re-tabulations of released files; blocked ones are shown, not measured. Over
    the ``n`` measured tests, with ``need`` = n (``all``), n // 2 + 1 (``most``) or 1 (``any``):

    - ``verified`` when ``need`` tests hold that are verified; ``toy-verified`` when ``need`` hold
      with a proxy among them; ``non-discriminating`` when ``need`` hold only counting the
      non-discriminating ones;
    - ``refuted`` when fewer than ``need`` could hold even if every inconclusive test held;
    - ``inconclusive`` otherwise; ``blocked`` when every counted test is blocked; ``re-tabulated``
      when its only tests recompute released files.

    ``headline`` takes the named test's outcome. Returns the verdict, ``holds`` of ``of``, the
    deciding test and the tests.
    """
    mine = [r for r in rows if r.get("supports") == claim.id]
    released = [r for r in mine if r.get("scale") == "released" or test_outcome(r) == "re-tabulated"]
    counted = [r for r in mine if r.get("kind") == "paper" and not any(r is x for x in released)]
    if claim.quantifier == "headline":
        counted = [r for r in counted if r["name"] == claim.headline]
    measured = [r for r in counted if test_outcome(r) != "blocked"]
    outcomes = [test_outcome(r) for r in measured]
    n = len(measured)
    held = outcomes.count("holds")
    verified = sum(1 for r, o in zip(measured, outcomes) if o == "holds" and r["verdict"] == "verified")
    nondisc = outcomes.count("non-discriminating")
    undecided = outcomes.count("inconclusive")
    reason = ""
    if n == 0:
        if counted:
            verdict, reason = "blocked", "every test is blocked"
        elif released:
            verdict, reason = "re-tabulated", "only recomputations of the authors' released files"
        elif mine:
            verdict, reason = "inconclusive", "measured only outside its conditions"
        else:
            verdict, reason = "inconclusive", "no test ran"
    else:
        need = 1 if claim.quantifier == "headline" else _needed(claim.quantifier, n)
        if held >= need:
            verdict = "verified" if verified >= need else "toy-verified"
        elif held + nondisc >= need:
            verdict = "non-discriminating"
        elif held + nondisc + undecided >= need:
            verdict = "inconclusive"
        else:
            verdict = "refuted"
    wanted = {
        "verified": ("holds",),
        "toy-verified": ("holds",),
        "non-discriminating": ("non-discriminating",),
        "refuted": ("refuted",),
        "inconclusive": ("inconclusive", "non-discriminating", "holds"),
        "blocked": ("blocked",),
        "re-tabulated": ("re-tabulated",),
    }[verdict]
    pool = counted if verdict == "blocked" else measured if measured else mine
    ranked = sorted(
        (r for r in pool if test_outcome(r) in wanted),
        key=lambda r: (wanted.index(test_outcome(r)), r["verdict"] != "verified"),
    )
    deciding = ranked[0]["name"] if ranked else (mine[0]["name"] if mine else None)
    return {
        "id": claim.id,
        "quote": claim.quote,
        "quantifier": claim.quantifier,
        "title": claim.title,
        "conditions": claim.conditions,
        "verdict": verdict,
        "review_verdict": REVIEW_WORDS[verdict],
        "holds": held + nondisc,
        "of": n,
        "blocked": sum(1 for r in counted if test_outcome(r) == "blocked"),
        "deciding": deciding,
        "tests": [r["name"] for r in mine],
        "reason": reason,
    }


def roll_up_all(paper_claims: Sequence[PaperClaim], rows: Sequence[Mapping[str, Any]]) -> list[dict]:
    """:func:`roll_up` of every PaperClaim, in declaration order."""
    return [roll_up(p, rows) for p in paper_claims]


def conditions_unmet(requires: Sequence[tuple[str, str, float]], config: Mapping[str, Any]) -> list[str]:
    """The preconditions in ``requires`` that ``config`` does not meet, in words (``width 512 < 40960``)."""
    unmet = []
    for key, op, bound in requires:
        value = config.get(key)
        if isinstance(value, list | tuple):
            value = min(value) if op in (">=", ">") else max(value) if op in ("<=", "<") else value
        try:
            ok = REQUIRE_OPS[op](float(value), float(bound))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            ok = False
        if not ok or (isinstance(value, float) and math.isnan(value)):
            unmet.append(f"{key} = {value} (needs {op} {bound:g})")
    return unmet


# ---- pre-registration: the lock file ----------------------------------------------------------

LOCK_FILE = "claims.lock.json"


def lock_path(method: str) -> Path:
    """Where ``method``'s lock file lives: ``claims.lock.json`` in its subpackage."""
    return Path(__file__).resolve().parents[1] / method / LOCK_FILE


def lock_entry(test: Any, profiles: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """What a method's lock file records of one test: its kind, rule, scale, the PaperClaim it supports,
    its preconditions and p-value form, the profile values of the config keys it names (its statement's
    placeholders and ``settings``), and how many revisions it had."""
    keys = sorted({*test.placeholders, *test.settings})
    return {
        "kind": test.kind,
        "rule": test.rule,
        "scale": test.scale,
        "supports": test.supports,
        "requires": [list(r) for r in test.requires],
        "pvalue": list(test.pvalue) if test.pvalue else None,
        "controls": list(test.controls),
        "settings": {p: {k: profiles[p].get(k) for k in keys} for p in sorted(profiles)},
        "revisions": len(test.revisions),
    }


def lock_of(experiment: Any) -> dict[str, dict[str, Any]]:
    """The lock of every test of ``experiment`` (JSON-ready: tuples as lists)."""
    import json

    entries = {t.name: lock_entry(t, experiment.profiles) for t in experiment.claims}
    return json.loads(json.dumps(entries, default=list))


def unrecorded_changes(experiment: Any, locked: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Tests that differ from ``locked`` without a new :class:`Revision`, and locked tests that are gone.

    A test whose entry changed is accepted only when it has more revisions than the lock recorded: the
    change after a result is then on record, with the verdict it had.
    """
    now = lock_of(experiment)
    problems = []
    for name, entry in locked.items():
        if name not in now:
            problems.append(f"{name}: locked but no longer declared (record why as a Revision of a test)")
            continue
        changed = sorted(k for k in entry if k != "revisions" and entry[k] != now[name].get(k))
        if changed and now[name]["revisions"] <= entry["revisions"]:
            problems.append(f"{name}: {', '.join(changed)} changed since the lock without a new Revision")
    return problems
