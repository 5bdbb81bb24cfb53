"""The experiment contract every method follows: claims, results, profiles and verdicts.

An :class:`Experiment` is a pure function ``run(config, seed) -> Result`` plus metadata: the paper,
the claims it checks, and three profiles (``smoke`` for tests, ``quick`` for laptops, ``paper`` for
the nearest to the paper's scale we run). A claim's verdict is computed from the measurement by its
pass rule (:func:`verdict`), never written by hand.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

PROFILES = ("smoke", "quick", "paper")
VERDICTS = ("verified", "toy-verified", "refuted", "inconclusive", "blocked")
_OPS: dict[str, Callable[[float, float], bool]] = {
    "<=": operator.le,
    ">=": operator.ge,
    "<": operator.lt,
    ">": operator.gt,
}


@dataclass(frozen=True)
class Claim:
    """One claim of the paper and the rule that decides it from our measurement.

    The claim holds when ``metrics[metric] <op> threshold``. If the result also carries a 95%
    confidence interval and the threshold lies within it, the verdict is ``inconclusive``: either
    ``metrics[metric + "_ci_low"]`` and ``metrics[metric + "_ci_high"]`` (any interval, e.g. the
    order-statistic interval of a median) or ``metrics[metric + "_ci"]`` (a half-width about the value).
    """

    name: str
    statement: str
    paper_value: str
    metric: str
    op: str
    threshold: float
    baselines: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.op not in _OPS:
            raise ValueError(f"Claim {self.name!r}: op {self.op!r} is not one of {sorted(_OPS)}")
        if not math.isfinite(self.threshold):
            raise ValueError(f"Claim {self.name!r}: threshold must be finite, got {self.threshold}")

    @property
    def rule(self) -> str:
        return f"{self.metric} {self.op} {self.threshold:g}"


@dataclass
class Plot:
    """A line plot described by data, rendered to PNG by the runner (keeps experiments I/O-free).

    ``series`` maps a label to ``(x, y)`` lists.
    """

    name: str
    title: str
    series: dict[str, tuple[list[float], list[float]]]
    xlabel: str = ""
    ylabel: str = ""
    logx: bool = False
    logy: bool = False


@dataclass
class Result:
    """What one run of an experiment returns.

    metrics: scalar measurements, named; claims and baselines refer to them by key.
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


@dataclass(frozen=True)
class Experiment:
    """A method's headline experiment: ``run(config, seed)`` and what it checks.

    ``profiles`` maps each of ``smoke``, ``quick`` and ``paper`` to a config dict; all three have the
    same keys, and the types of the values define what ``--set key=value`` accepts. ``check``
    (optional) raises ``ValueError`` for a config that is out of range.
    """

    method: str
    title: str
    paper: str
    run: Callable[[dict[str, Any], int], Result]
    profiles: Mapping[str, Mapping[str, Any]]
    claims: tuple[Claim, ...]
    description: str = ""
    check: Callable[[dict[str, Any]], None] | None = None

    def __post_init__(self) -> None:
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
        names = [c.name for c in self.claims]
        if len(set(names)) != len(names):
            raise ValueError(f"Experiment {self.method!r}: duplicate claim names {names}")


@dataclass(frozen=True)
class Verdict:
    claim: str
    verdict: str
    measured: float | None
    reason: str = ""


def _interval(metrics: Mapping[str, float], metric: str) -> tuple[float, float] | None:
    """``(metrics[metric + "_ci_low"], metrics[metric + "_ci_high"])`` when both are finite, else None."""
    low, high = metrics.get(metric + "_ci_low"), metrics.get(metric + "_ci_high")
    if low is None or high is None or not (math.isfinite(float(low)) and math.isfinite(float(high))):
        return None
    return float(low), float(high)


def verdict(claim: Claim, metrics: Mapping[str, float], blocked: Mapping[str, str], profile: str) -> Verdict:
    """Decide a claim from measured metrics by its pass rule.

    ``verified`` when it holds in the ``paper`` profile, ``toy-verified`` when it holds at a smaller
    profile, ``refuted`` when measured and it fails, ``inconclusive`` when unmeasured, non-finite or
    when the metric's confidence interval contains the threshold, ``blocked`` when the run says so.
    """
    if claim.name in blocked:
        return Verdict(claim.name, "blocked", None, blocked[claim.name])
    value = metrics.get(claim.metric)
    if value is None:
        return Verdict(claim.name, "inconclusive", None, f"metric {claim.metric!r} was not measured")
    value = float(value)
    if not math.isfinite(value):
        return Verdict(claim.name, "inconclusive", value, "measurement is not finite")
    interval = _interval(metrics, claim.metric)
    if interval is not None:  # an explicit (possibly asymmetric) interval replaces the half-width
        if interval[0] <= claim.threshold <= interval[1]:
            reason = f"threshold within the 95% interval [{interval[0]:.3g}, {interval[1]:.3g}]"
            return Verdict(claim.name, "inconclusive", value, reason)
    else:
        ci = metrics.get(claim.metric + "_ci")
        if ci is not None and math.isfinite(float(ci)) and abs(value - claim.threshold) <= float(ci):
            reason = f"threshold within ±{float(ci):.3g} of the measurement"
            return Verdict(claim.name, "inconclusive", value, reason)
    if _OPS[claim.op](value, claim.threshold):
        return Verdict(claim.name, "verified" if profile == "paper" else "toy-verified", value)
    return Verdict(claim.name, "refuted", value, f"measured {value:.4g}, rule {claim.rule}")
