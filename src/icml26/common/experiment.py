"""The experiment contract every method follows: tests, results, profiles and verdicts (version 3).

An :class:`Experiment` is a pure function ``run(config, seed) -> Result`` plus metadata: the paper,
the claims it checks, and three profiles (``smoke`` for tests, ``quick`` for laptops, ``paper`` for
the largest we run). A claim's verdict is computed from the measurement by its rule
(:func:`verdict`), never written by hand. The contract is built so that a flattering claim cannot be
written without showing it:

- ``kind``: a ``"paper"`` claim is a statement the paper makes, judged at the paper's own bar; a
  ``"check"`` is our own sanity, engineering or target check, reported apart and never tallied as
  the paper's.
- ``scale`` decides ``verified``: only an ``"exact"`` per-instance guarantee (in ``quick`` or
  ``paper``) or a ``"paper"``-scale measurement (in the ``paper`` profile) is ``verified``; every
  other holding claim is ``toy-verified``.
- comparisons are first-class (``relative_to`` and ``form``): the contract computes ours / baseline
  or ours - baseline against the *strongest* baseline by the rule's direction.
- ``controls``: baselines or broken variants judged by the same absolute rule; an absolute paper
  claim that its controls pass too is *non-discriminating*.
- a stochastic measurement needs its 95% interval, else the verdict is ``inconclusive``.
- ``revisions`` (:class:`icml26.common.claims.Revision`) keep a test's history as data: a rule,
  setting or kind changed after a result was seen, with the verdict it had then.

Version 3 adds the abstract's claims (:mod:`icml26.common.claims`): every ``kind="paper"`` test
``supports`` one :class:`~icml26.common.claims.PaperClaim`, whose verdict is rolled up from its tests
by its quantifier; ``scale="released"`` marks a recomputation of the authors' released files
(``re-tabulated``, never verified); ``requires`` states a test's preconditions (a run outside them is a
check); ``pvalue`` judges a hypothesis test's p-value against its pre-registered alpha.
"""

from __future__ import annotations

import math
import operator
import re
import string
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from icml26.common.claims import REQUIRE_OPS, Background, PaperClaim, Revision, check_declarations

PROFILES = ("smoke", "quick", "paper")
VERDICTS = ("verified", "toy-verified", "refuted", "inconclusive", "blocked", "re-tabulated")
KINDS = ("paper", "check")
SCALES = ("paper", "exact", "proxy", "released")
FORMS = ("ratio", "difference")
STATISTICS = ("mean", "max", "min", "all")
_OPS: dict[str, Callable[[float, float], bool]] = {
    "<=": operator.le,
    ">=": operator.ge,
    "<": operator.lt,
    ">": operator.gt,
}
OPS = (*_OPS, "in")
_REVISED = re.compile(r"^\d{4}-\d{2}-\d{2}: \S")
_STORED = re.compile(
    r"^(verified|toy-verified|refuted|inconclusive|blocked) \([0-9a-f]{7,40}, \d{4}-\d{2}-\d{2}\): \S"
)


class _KeepMissing(dict):
    """A format map that leaves a missing key in braces."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


@dataclass(frozen=True)
class Claim:
    """One claim and the rule that decides it from our measurement.

    The judged value is ``metrics[metric]`` (an absolute claim) or, with ``relative_to``, the
    comparison of ``metrics[metric]`` with the strongest of those baselines: ``ours / baseline``
    (``form="ratio"``) or ``ours - baseline`` (``form="difference"``, for accuracies and other
    "points"). The claim holds when ``value <op> threshold``; ``op="in"`` takes
    ``threshold=(low, high)`` and holds when ``low <= value <= high``.

    Fields beyond the rule (see the module docstring and ``docs/CONTRIBUTING_METHOD.md``):

    kind: ``"paper"`` or ``"check"`` (required).
    scale: ``"paper"``, ``"exact"`` or ``"proxy"`` (default); ``scale_note`` says why, and is
        required for ``"paper"`` and ``"exact"``.
    controls: metrics of baselines or deliberately broken variants judged by the same rule; the
        verdict records which pass too. An absolute paper claim needs at least one.
    deterministic: the measurement does not depend on the seed (no interval needed; a contract
        test runs it at two seeds). Otherwise a claim needs a 95% interval unless ``scale="exact"``
        (a guarantee checked on every instance, not a sample estimate).
    revised: ``"<YYYY-MM-DD>: <old rule / setting>, verdict then <v>; why"`` when the rule or the
        setting changed after a result was seen; the original stays as a claim of its own.
    context: further metrics shown beside the claim, never judged.
    statistic: how the runner aggregates the claim's metrics (and its baselines' and controls') over
        runner seeds: ``"mean"`` (with an interval), ``"max"``, ``"min"``, or ``"all"`` (the worst
        seed by the rule's direction: the claim must hold on every instance). Default: ``"all"`` for
        ``scale="exact"``, else ``"mean"``.
    unit: the unit of the metric (``"s"``, ``"%"``, ``"p.u."``); a ratio is shown in ``×``.
    paper_figure: the paper's number on the judged value's scale, where it gives one (for plots).
    stored: for the original setting of a revised claim that is too costly to re-measure, the verdict
        of the run that measured it: ``"<verdict> (<commit>, <YYYY-MM-DD>): <what was measured>"``. The
        verdict is then reported as stored, never recomputed, with its provenance as the reason.

    Version 3 fields:

    supports: the id of the PaperClaim a paper test supports (checks support none).
    title: a short title (<= 80 characters) shown in tables; ``statement`` is the full text.
    revisions: the test's history, a tuple of :class:`~icml26.common.claims.Revision`.
    requires: preconditions on config keys, ``(("width", ">=", 40960),)``, or on measured metrics (a key
        that is not a config key is read from the run's metrics; a missing one is unmet): a run outside them is
        judged but reported as a check, and neither verifies nor refutes its PaperClaim.
    pvalue: ``(test name, alpha)``: ``metric`` is that test's p-value, judged ``p > alpha`` (op ``>``)
        or ``p <= alpha`` (op ``<=``) with ``threshold = alpha``; no interval needed.
    shown: descriptive metrics shown beside the test, never judged (not comparable with its rule).
    settings: config keys the lock file records besides those the statement names.

    ``statement`` may name config keys in braces (``"n = {n_min}..{n_max}"``); the report formats it
    with the config that actually ran.
    """

    name: str
    statement: str
    paper_value: str
    metric: str
    op: str
    threshold: float | tuple[float, float]
    kind: str = ""
    scale: str = "proxy"
    scale_note: str = ""
    relative_to: tuple[str, ...] = ()
    form: str = ""
    controls: tuple[str, ...] = ()
    deterministic: bool = False
    revised: str = ""
    context: tuple[str, ...] = ()
    statistic: str = ""
    unit: str = ""
    paper_figure: float | None = None
    stored: str = ""
    supports: str = ""
    title: str = ""
    revisions: tuple[Revision, ...] = ()
    requires: tuple[tuple[str, str, float], ...] = ()
    pvalue: tuple[str, float] | None = None
    shown: tuple[str, ...] = ()
    settings: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        def bad(message: str) -> ValueError:
            return ValueError(f"Claim {self.name!r}: {message}")

        if self.kind != "paper" and self.supports:
            raise bad("only a paper test supports a PaperClaim (a check supports none)")
        if not isinstance(self.revisions, tuple) or not all(isinstance(r, Revision) for r in self.revisions):
            raise bad(f"revisions must be a tuple of Revision, got {self.revisions!r}")
        for req in self.requires:
            if not (
                isinstance(req, tuple)
                and len(req) == 3
                and isinstance(req[0], str)
                and req[1] in REQUIRE_OPS
                and isinstance(req[2], int | float)
            ):
                raise bad(f"requires entries are (config key, op, number), got {req!r}")
        if self.pvalue is not None:
            ok = (
                isinstance(self.pvalue, tuple)
                and len(self.pvalue) == 2
                and isinstance(self.pvalue[0], str)
                and self.pvalue[0].strip()
                and isinstance(self.pvalue[1], int | float)
                and 0 < self.pvalue[1] < 1
            )
            if not ok:
                raise bad(f"pvalue must be (test name, alpha in (0, 1)), got {self.pvalue!r}")
            if self.op not in (">", "<=") or self.threshold != self.pvalue[1] or self.relative_to:
                raise bad(
                    "a p-value rule is absolute: op '>' (p > alpha) or '<=' (p <= alpha), threshold alpha"
                )
        for name, value in (("shown", self.shown), ("settings", self.settings)):
            if not isinstance(value, tuple) or not all(isinstance(v, str) and v for v in value):
                raise bad(f"{name} must be a tuple of names, got {value!r}")

        if self.kind not in KINDS:
            raise bad(f"kind {self.kind!r} is not one of {', '.join(KINDS)}")
        if self.scale not in SCALES:
            raise bad(f"scale {self.scale!r} is not one of {', '.join(SCALES)}")
        if self.scale != "proxy" and not self.scale_note.strip():
            raise bad(f"scale {self.scale!r} needs a scale_note saying why")
        if self.op not in OPS:
            raise bad(f"op {self.op!r} is not one of {', '.join(OPS)}")
        if self.op == "in":
            t = self.threshold
            if not (isinstance(t, tuple) and len(t) == 2 and all(isinstance(x, int | float) for x in t)):
                raise bad(f"op 'in' needs threshold=(low, high), got {t!r}")
            if not (math.isfinite(t[0]) and math.isfinite(t[1]) and t[0] < t[1]):
                raise bad(f"op 'in' needs finite bounds with low < high, got {t!r}")
        elif isinstance(self.threshold, bool) or not isinstance(self.threshold, int | float):
            raise bad(f"op {self.op!r} needs one number as threshold, got {self.threshold!r}")
        elif not math.isfinite(self.threshold):
            raise bad(f"threshold must be finite, got {self.threshold}")
        for name, value in (("relative_to", self.relative_to), ("controls", self.controls)):
            if not isinstance(value, tuple) or not all(isinstance(v, str) and v for v in value):
                raise bad(f"{name} must be a tuple of metric names, got {value!r}")
            if self.metric in value:
                raise bad(f"{name} names the claim's own metric {self.metric!r}")
        if self.relative_to and self.form not in FORMS:
            raise bad(f"relative_to needs form 'ratio' or 'difference', got {self.form!r}")
        if self.form and not self.relative_to:
            raise bad(f"form {self.form!r} needs relative_to (the baselines compared with)")
        if self.op == "in" and len(self.relative_to) > 1:
            raise bad("op 'in' compares with one baseline; the strongest of several is undefined")
        if self.statistic and self.statistic not in STATISTICS:
            raise bad(f"statistic {self.statistic!r} is not one of {', '.join(STATISTICS)}")
        if self.paper_figure is not None and not (
            isinstance(self.paper_figure, int | float) and math.isfinite(self.paper_figure)
        ):
            raise bad(f"paper_figure must be a finite number or None, got {self.paper_figure!r}")
        try:
            self.placeholders  # noqa: B018 (a malformed brace raises here)
        except ValueError as exc:
            raise bad(f"statement {self.statement!r} is not a valid template: {exc}") from None
        worst_instance = (self.statistic or ("all" if self.scale == "exact" else "mean")) != "mean"
        if worst_instance and (self.relative_to or self.op == "in"):
            raise bad(
                "a worst-instance statistic (scale 'exact' or statistic all/max/min) needs an absolute one-sided"
                " rule: compute the per-instance comparison or band check in run() and claim its worst value"
            )
        if self.stored.startswith("verified") and self.scale == "proxy":
            raise bad("a stored verdict of a proxy-scale claim cannot be 'verified'")
        if self.stored and not _STORED.match(self.stored):
            raise bad(
                f"stored must read '<verdict> (<commit>, <YYYY-MM-DD>): <measurement>' with a verdict of"
                f" {', '.join(VERDICTS)}, got {self.stored!r}"
            )
        if self.revised and not _REVISED.match(self.revised):
            raise bad(
                f"revised must read '<YYYY-MM-DD>: <old rule>, verdict then <v>; why', got {self.revised!r}"
            )

    @property
    def comparative(self) -> bool:
        return bool(self.relative_to)

    @property
    def placeholders(self) -> tuple[str, ...]:
        """The config keys that ``statement`` names in braces."""
        return tuple(f for _, f, _, _ in string.Formatter().parse(self.statement) if f)

    def describe(self, config: Mapping[str, Any]) -> str:
        """``statement`` with the config that ran (lists shown comma-separated); a key that config lacks (a
        record older than the key, re-judged) stays in braces."""
        values = _KeepMissing(
            {k: ", ".join(map(str, v)) if isinstance(v, list | tuple) else v for k, v in config.items()}
        )
        return self.statement.format_map(values) if self.placeholders else self.statement

    @property
    def aggregate_by(self) -> str:
        """The statistic over runner seeds: ``mean``, ``max`` or ``min`` (``all`` resolved by the rule)."""
        statistic = self.statistic or ("all" if self.scale == "exact" else "mean")
        if statistic != "all":
            return statistic
        return "max" if self.op in ("<", "<=") else "min" if self.op in (">", ">=") else "mean"

    @property
    def rule(self) -> str:
        """The rule in words, e.g. ``flow / strongest(adam, cma) < 1`` or ``coverage in [0.8, 0.97]``."""
        if self.relative_to:
            sign = "/" if self.form == "ratio" else "-"
            lhs = f"{self.metric} {sign} strongest({', '.join(self.relative_to)})"
        else:
            lhs = self.metric
        if self.op == "in":
            low, high = self.threshold  # type: ignore[misc]
            return f"{lhs} in [{low:g}, {high:g}]"
        if self.pvalue is not None:
            return f"p({self.pvalue[0]}: {lhs}) {self.op} alpha = {self.threshold:g}"
        return f"{lhs} {self.op} {self.threshold:g}"

    def holds(self, value: float) -> bool:
        if self.op == "in":
            low, high = self.threshold  # type: ignore[misc]
            return low <= value <= high
        return _OPS[self.op](value, self.threshold)

    def straddles(self, low: float, high: float) -> bool:
        """Whether the interval ``[low, high]`` holds values on both sides of the rule (``inconclusive``).

        A zero-width interval never straddles.
        """
        if self.op == "in":
            a, b = self.threshold  # type: ignore[misc]
            return low <= b and high >= a and not (a <= low and high <= b)
        t = self.threshold
        return {"<=": low <= t < high, ">": low <= t < high, "<": low < t <= high, ">=": low < t <= high}[
            self.op
        ]


@dataclass
class Plot:
    """A line plot described by data, rendered to PNG by the runner (keeps experiments I/O-free).

    ``series`` maps a label to ``(x, y)`` lists. ``claim`` names the claim the plot illustrates (its
    caption in the report); ``lines`` are horizontal reference lines on the plot's own y scale, e.g.
    ``{"rule: 0.7 x stage 1": 5.35, "paper": 0.41}``.
    """

    name: str
    title: str
    series: dict[str, tuple[list[float], list[float]]]
    xlabel: str = ""
    ylabel: str = ""
    logx: bool = False
    logy: bool = False
    claim: str = ""
    lines: dict[str, float] = field(default_factory=dict)


@dataclass
class Result:
    """What one run of an experiment returns.

    metrics: scalar measurements, named; claims refer to them by key. A 95% interval of a metric is
        ``<key>_ci`` (half-width) or ``<key>_ci_low`` and ``<key>_ci_high``; a paired interval of a
        comparison is stored under :func:`comparison_key`.
    tables: named tables, each a list of rows (dicts with the same keys).
    plots: plots to render.
    blocked: claim name -> reason, for claims that cannot be measured here.
    notes: free-text remarks shown in the report.
    """

    metrics: dict[str, float] = field(default_factory=dict)
    tables: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    plots: list[Plot] = field(default_factory=list)
    blocked: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def comparison_key(metric: str, baseline: str, form: str) -> str:
    """The metric key under which an experiment may store a *paired* interval of a comparison.

    ``metrics[comparison_key(m, b, "ratio") + "_ci_low"]`` (and ``_ci_high``, or ``_ci``) is the 95%
    interval of ``m / b`` computed from paired instances or seeds; without it the contract combines the
    two metrics' own intervals (conservatively). The comparison's value is always computed by the
    contract from ``m`` and ``b``.
    """
    if form not in FORMS:
        raise ValueError(f"form {form!r} is not one of {', '.join(FORMS)}")
    return f"{metric}__{'over' if form == 'ratio' else 'minus'}__{baseline}"


@dataclass(frozen=True)
class Resources:
    """What one runner seed of an experiment needs: CPU cores (also the torch and BLAS threads the local
    runner gives it), GPUs, and custom Ray resources (``{"tpu": 1}``). Its memory is the second value of
    :attr:`Experiment.cost`, so one estimate serves the cost check and the scheduler."""

    cpus: int = 1
    gpus: float = 0.0
    custom: Mapping[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.cpus, int) or isinstance(self.cpus, bool) or self.cpus < 1:
            raise ValueError(f"Resources: cpus must be an integer >= 1, got {self.cpus!r}")
        if not isinstance(self.gpus, int | float) or isinstance(self.gpus, bool) or not self.gpus >= 0:
            raise ValueError(f"Resources: gpus must be a number >= 0, got {self.gpus!r}")
        if not isinstance(self.custom, Mapping):
            raise ValueError(f"Resources: custom must map resource names to amounts, got {self.custom!r}")
        for name, amount in self.custom.items():
            if not isinstance(name, str) or name in ("CPU", "GPU", "memory") or not name:
                raise ValueError(
                    f"Resources: custom resource name {name!r} must be a non-empty string other than CPU,"
                    " GPU and memory (declare those with cpus, gpus and Experiment.cost)"
                )
            if not isinstance(amount, int | float) or isinstance(amount, bool) or not amount > 0:
                raise ValueError(f"Resources: custom resource {name!r} needs an amount > 0, got {amount!r}")


@dataclass(frozen=True)
class Experiment:
    """A method's headline experiment: ``run(config, seed)`` and what it checks.

    ``profiles`` maps each of ``smoke``, ``quick`` and ``paper`` to a config dict; all three have the
    same keys, and the types of the values define what ``--set key=value`` accepts. ``check``
    (optional) raises ``ValueError`` for a config that is out of range. ``cost(config)`` returns a rough
    estimate ``(seconds, bytes)`` of one runner seed on 2 CPU cores, which the runner compares with its
    limits before anything runs (and whose memory a Ray task reserves). ``resources`` declares what one
    seed needs (:class:`Resources`), for every profile or per profile (``{"paper": Resources(cpus=2)}``;
    profiles not named, and an experiment that declares nothing, get ``Resources()``: one CPU). ``names`` maps metric keys to display names
    (``"rastrigin_cma": "CMA-ES"``) for the report.

    Construction rejects duplicate claim names, an absolute paper claim without controls, and two
    one-sided claims with opposite directions on the same value (write one ``op="in"`` claim).
    """

    method: str
    title: str
    paper: str
    run: Callable[[dict[str, Any], int], Result]
    profiles: Mapping[str, Mapping[str, Any]]
    claims: tuple[Claim, ...]
    description: str = ""
    check: Callable[[dict[str, Any]], None] | None = None
    cost: Callable[[dict[str, Any]], tuple[float, float]] | None = None
    names: Mapping[str, str] = field(default_factory=dict)
    resources: Resources | Mapping[str, Resources] | None = None
    paper_claims: tuple[PaperClaim, ...] = ()
    background: tuple[Background, ...] = ()
    schema: Mapping[Any, Any] | None = None  # key (or tuple of keys) -> icml26.common.schema spec

    def __post_init__(self) -> None:
        if self.paper_claims:  # contract v3: the abstract's claims, each test supporting one
            check_declarations(self.method, self.paper_claims, self.claims)
            for c in self.claims:
                if c.kind == "paper" and not c.relative_to and c.context:
                    raise ValueError(
                        f"Experiment {self.method!r}: absolute paper test {c.name!r} has context"
                        f" {list(c.context)}: a baseline run beside it is a control (controls=...),"
                        " a descriptive metric is shown (shown=...)"
                    )
        per_profile = self.resources if isinstance(self.resources, Mapping) else {}
        if not isinstance(self.resources, Resources | Mapping | None) or any(
            p not in PROFILES or not isinstance(r, Resources) for p, r in per_profile.items()
        ):
            raise ValueError(
                f"Experiment {self.method!r}: resources must be a Resources or map profiles"
                f" ({', '.join(PROFILES)}) to Resources, got {self.resources!r}"
            )
        missing = [p for p in PROFILES if p not in self.profiles]
        if missing:
            raise ValueError(f"Experiment {self.method!r}: missing profiles {missing}")
        keys = set(self.profiles["quick"])
        for p in PROFILES:
            if set(self.profiles[p]) != keys:
                raise ValueError(
                    f"Experiment {self.method!r}: profile {p!r} keys {sorted(self.profiles[p])}"
                    f" differ from quick's {sorted(keys)}"
                )
        if self.schema is not None:  # every key typed and ranged, the profiles' own values included
            from icml26.common.schema import declared

            object.__setattr__(self, "schema", declared(self.method, self.schema, self.profiles))
        names = [c.name for c in self.claims]
        if len(set(names)) != len(names):
            raise ValueError(f"Experiment {self.method!r}: duplicate claim names {names}")
        directions: dict[tuple, tuple[str, str]] = {}
        statistics: dict[str, tuple[str, str]] = {}
        for c in self.claims:
            unknown = [k for k in c.placeholders if k not in keys]
            if unknown:
                raise ValueError(
                    f"Experiment {self.method!r}: claim {c.name!r} names config keys {unknown} in its"
                    f" statement; accepted: {', '.join(sorted(keys))}"
                )
            for key in (c.metric, *c.relative_to, *c.controls):
                seen = statistics.setdefault(key, (c.aggregate_by, c.name))
                if seen[0] != c.aggregate_by:
                    raise ValueError(
                        f"Experiment {self.method!r}: metric {key!r} is aggregated by {seen[0]} for claim"
                        f" {seen[1]!r} and by {c.aggregate_by} for claim {c.name!r}; give them one statistic"
                    )
            if c.kind == "paper" and not c.relative_to and not c.controls:
                raise ValueError(
                    f"Experiment {self.method!r}: claim {c.name!r} is an absolute paper claim without"
                    " controls; name a baseline or broken variant judged by the same rule (controls=...),"
                    " compare with baselines (relative_to=...), or make it a check"
                )
            key = (c.metric, tuple(sorted(c.relative_to)), c.form)
            direction = "band" if c.op == "in" else "upper" if c.op in ("<", "<=") else "lower"
            if c.op == "in":
                if self.paper_claims and key in directions and directions[key][0] != "band":
                    raise ValueError(
                        f"Experiment {self.method!r}: test {c.name!r} is a band on the value that"
                        f" {directions[key][1]!r} bounds from one side; keep one of the two"
                    )
                directions.setdefault(key, (direction, c.name))
                continue
            other = directions.get(key)
            if other is not None and other[0] == "band" and self.paper_claims:
                raise ValueError(
                    f"Experiment {self.method!r}: test {c.name!r} bounds from one side the value that"
                    f" {other[1]!r} holds in a band; keep one of the two"
                )
            if other is not None and other[0] not in (direction, "band"):
                raise ValueError(
                    f"Experiment {self.method!r}: claims {other[1]!r} and {c.name!r} bound the same value"
                    f" from opposite sides; write one claim with op='in' and threshold=(low, high)"
                )
            directions[key] = (direction, c.name)

    def resources_for(self, profile: str) -> Resources:
        """What one seed of ``profile`` needs."""
        if isinstance(self.resources, Resources):
            return self.resources
        return (self.resources or {}).get(profile, Resources())

    def statistics(self) -> dict[str, str]:
        """Metric key -> how the runner aggregates it over seeds (``mean``, ``max`` or ``min``), for every
        metric, baseline and control a claim names."""
        out: dict[str, str] = {}
        for c in self.claims:
            for key in (c.metric, *c.relative_to, *c.controls):
                out[key] = c.aggregate_by
        return out


@dataclass(frozen=True)
class Verdict:
    """A claim's verdict and what it was computed from.

    measured: the judged value (the metric, or its comparison with the strongest baseline).
    interval: the 95% interval of ``measured`` used for the decision, if any.
    baseline / baseline_value: the strongest baseline of a comparison and its value.
    controls: each control's judged value; controls_passing: those that satisfy the rule too.
    non_discriminating: the claim holds, and so does at least one control.
    """

    claim: str
    verdict: str
    measured: float | None
    reason: str = ""
    interval: tuple[float, float] | None = None
    baseline: str | None = None
    baseline_value: float | None = None
    controls: Mapping[str, float | None] = field(default_factory=dict)
    controls_passing: tuple[str, ...] = ()
    non_discriminating: bool = False


def as_number(x: Any) -> float | None:
    """``x`` as a float (``"inf"`` and ``"nan"`` as stored in JSON included); None if it is not a number."""
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


def _finite(x: Any) -> float | None:
    value = as_number(x)
    return value if value is not None and math.isfinite(value) else None


def metric_interval(metrics: Mapping[str, Any], key: str) -> tuple[float, float] | None:
    """The 95% interval of ``metrics[key]``: ``(<key>_ci_low, <key>_ci_high)`` when both are finite,
    else ``value ± <key>_ci``, else None."""
    low, high = _finite(metrics.get(key + "_ci_low")), _finite(metrics.get(key + "_ci_high"))
    if low is not None and high is not None:
        return low, high
    value, half = _finite(metrics.get(key)), _finite(metrics.get(key + "_ci"))
    if value is not None and half is not None:
        return value - abs(half), value + abs(half)
    return None


def _compare(ours: float, base: float, form: str) -> float:
    """``ours / base`` or ``ours - base``. A ratio needs non-negative values (``0 / 0`` is 1)."""
    if form == "difference":
        return ours - base
    if ours < 0 or base < 0:
        return math.nan
    if base == 0:
        return 1.0 if ours == 0 else math.inf
    return ours / base


def _compare_interval(a: tuple[float, float], b: tuple[float, float], form: str) -> tuple[float, float]:
    """The interval of ``a / b`` or ``a - b`` from the two intervals (no pairing assumed)."""
    if form == "difference":
        return a[0] - b[1], a[1] - b[0]
    if a[0] < 0 or b[0] < 0:
        return -math.inf, math.inf
    return (a[0] / b[1] if b[1] > 0 else 0.0), (a[1] / b[0] if b[0] > 0 else math.inf)


def _strongest(claim: Claim, values: Mapping[str, float]) -> str:
    """The baseline that makes the rule hardest to pass: the largest comparison for an upper bound,
    the smallest for a lower bound."""
    if claim.op in ("<", "<="):
        return max(values, key=lambda b: values[b])
    return min(values, key=lambda b: values[b])


_SEVERITY = {"refuted": 0, "inconclusive": 1, "holds": 2}


def _judge_one(
    claim: Claim, metrics: Mapping[str, float], baseline: str | None
) -> tuple[str, float, Any, str]:
    """The rule's outcome against one baseline (or absolutely): ``(outcome, value, interval, reason)``
    with outcome ``holds``, ``refuted`` or ``inconclusive``."""
    ours = float(metrics[claim.metric])
    value, interval, unsure = ours, metric_interval(metrics, claim.metric), claim.metric
    if baseline is not None:
        value = _compare(ours, float(metrics[baseline]), claim.form)
        if math.isnan(value):
            return "inconclusive", value, None, "a ratio needs non-negative values; use form='difference'"
        paired = metric_interval(metrics, comparison_key(claim.metric, baseline, claim.form))
        base_interval = metric_interval(metrics, baseline)
        if paired is not None:
            interval = paired
        elif interval is not None and base_interval is not None:
            interval = _compare_interval(interval, base_interval, claim.form)
        else:  # a deterministic side states it with a zero-width interval (<key>_ci = 0)
            unsure = claim.metric if interval is None else baseline
            interval = None
    if interval is None and not claim.deterministic and claim.scale != "exact" and claim.pvalue is None:
        return "inconclusive", value, None, f"no interval for {unsure!r} (a stochastic measurement)"
    if interval is not None:
        low, high = interval
        slack = 1e-9 * max(1.0, abs(value))
        if not (math.isnan(low) or math.isnan(high)) and not (low - slack <= value <= high + slack):
            return (
                "inconclusive",
                value,
                interval,
                (f"the measurement {value:.4g} lies outside its own 95% interval [{low:.3g}, {high:.3g}]"),
            )
        if claim.straddles(low, high):
            return (
                "inconclusive",
                value,
                interval,
                (f"the 95% interval [{low:.3g}, {high:.3g}] lies on both sides of the rule"),
            )
    if not claim.holds(value):
        return "refuted", value, interval, f"measured {value:.4g}, rule {claim.rule}"
    return "holds", value, interval, ""


def verdict(
    claim: Claim,
    metrics: Mapping[str, float],
    blocked: Mapping[str, str],
    profile: str,
    at_profile: bool = True,
) -> Verdict:
    """Decide a claim from measured metrics by its rule.

    - ``blocked`` when the run says so; a ``stored`` verdict as stored, with its provenance;
    - a comparison is judged against *every* baseline in ``relative_to``, each with its own interval,
      and takes the worst outcome (refuted, then inconclusive); the baseline shown is the one that
      decided, or the strongest by value when the claim holds against all;
    - ``inconclusive`` when the metric, a baseline or a control was not measured or is not finite, a
      stochastic claim has no 95% interval ("no interval"), the measurement lies outside its own
      interval, or the interval holds values on both sides of the rule;
    - ``refuted`` when the rule fails;
    - when it holds: ``verified`` for ``scale="exact"`` in ``quick`` or ``paper`` and for
      ``scale="paper"`` in ``paper`` run as the profile says (``at_profile``: no override made it
      smaller); ``toy-verified`` otherwise (a ``smoke`` run never verifies);
    - a control (judged by the same rule, and compared with the deciding baseline) that passes, or
      whose own interval reaches the passing side, makes a holding claim *non-discriminating*.
    """
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; accepted: {', '.join(PROFILES)}")

    def result(kind: str, measured: float | None, reason: str = "", **kw: Any) -> Verdict:
        return Verdict(claim.name, kind, measured, reason, **kw)

    if claim.name in blocked:
        return result("blocked", None, blocked[claim.name])
    if claim.stored:
        stored_verdict, rest = claim.stored.split(" (", 1)
        run, measured = rest.split("): ", 1)
        return result(stored_verdict, None, f"stored from the run of {run}, not re-measured: {measured}")
    roles = [("metric", claim.metric)] + [("baseline", b) for b in claim.relative_to]
    for role, key in roles + [("control", c) for c in claim.controls]:
        if key not in metrics:
            return result("inconclusive", None, f"{role} {key!r} not measured")
        value = as_number(metrics[key])
        # a control may be infinite (e.g. "never reached the target": it fails an upper bound), never NaN
        if value is None or math.isnan(value) or (role != "control" and not math.isfinite(value)):
            return result("inconclusive", None, f"{role} {key!r} is not finite")
    baseline = baseline_value = None
    if claim.relative_to:
        outcomes = {b: _judge_one(claim, metrics, b) for b in claim.relative_to}
        worst = min(_SEVERITY[o[0]] for o in outcomes.values())  # refuted, then inconclusive, then holds
        deciding = {b: o[1] for b, o in outcomes.items() if _SEVERITY[o[0]] == worst}
        comparable = {b: v for b, v in deciding.items() if not math.isnan(v)}
        baseline = _strongest(claim, comparable) if comparable else next(iter(deciding))
        outcome, value, interval, reason = outcomes[baseline]
        baseline_value = float(metrics[baseline])
    else:
        outcome, value, interval, reason = _judge_one(claim, metrics, None)
    extra: dict[str, Any] = {"interval": interval, "baseline": baseline, "baseline_value": baseline_value}
    controls: dict[str, float | None] = {}
    passing = []
    for c in claim.controls:
        cv = as_number(metrics[c])
        control_interval = None if claim.relative_to else metric_interval(metrics, c)
        if claim.relative_to:
            cv = _compare(cv, baseline_value, claim.form)  # type: ignore[arg-type]
        controls[c] = cv
        if claim.holds(cv) or (control_interval is not None and claim.straddles(*control_interval)):
            passing.append(c)
    extra.update(controls=controls, controls_passing=tuple(passing))
    if claim.scale == "released" and outcome in ("holds", "refuted"):
        said = "holds" if outcome == "holds" else f"does not hold ({reason})"
        return result(
            "re-tabulated",
            value,
            f"recomputed from the authors' released files, not measured: the rule {said}",
            **extra,
        )
    if outcome != "holds":
        return result(outcome, value if not math.isnan(value) else None, reason, **extra)
    exact = claim.scale == "exact" and profile in ("quick", "paper")
    full = claim.scale == "paper" and profile == "paper" and at_profile
    kind = "verified" if exact or full else "toy-verified"
    reason = f"controls pass too: {', '.join(passing)}" if passing else ""
    return result(kind, value, reason, non_discriminating=bool(passing), **extra)
