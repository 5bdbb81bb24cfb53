"""A declared type and range for every profile key of an experiment, checked before anything runs.

An experiment declares ``schema={key: spec, ...}`` (a tuple of keys shares one spec) with the specs of
this module; :func:`icml26.common.config.resolve_config` checks every value against its key's spec and
raises one ``ValueError`` naming the key, the value and what is accepted. Every number has a finite
range (NaN and ±inf are never accepted), every list a length range, every name a set of choices, so no
value the schema lets through can make a run hang or fail half-way on its type. Rules that relate
several keys (``n_min <= n_max``) stay in the experiment's ``check``, which runs after the schema.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np


class Spec:
    """What one config value may be; ``check`` returns the value (numbers as Python int/float) or
    raises ``ValueError`` with :meth:`describe` in the message."""

    def describe(self) -> str:  # pragma: no cover (every spec overrides it)
        raise NotImplementedError

    def accepts(self, value: Any) -> Any:
        """The normalised value, or raise ``ValueError`` (message: what was wrong)."""
        raise NotImplementedError  # pragma: no cover


def _fmt(x: float) -> str:
    return f"{x:g}" if isinstance(x, float) else str(x)


@dataclass(frozen=True)
class Int(Spec):
    """An integer in ``[low, high]`` (booleans and floats are not integers)."""

    low: int
    high: int

    def __post_init__(self) -> None:
        if not self.low <= self.high:
            raise ValueError(f"Int({self.low}, {self.high}): empty range")

    def describe(self) -> str:
        return f"an integer from {self.low} to {self.high}"

    def accepts(self, value: Any) -> int:
        if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
            raise ValueError("not an integer")
        if not self.low <= int(value) <= self.high:
            raise ValueError("out of range")
        return int(value)


@dataclass(frozen=True)
class Float(Spec):
    """A finite number in ``[low, high]``; ``low_open``/``high_open`` exclude an end."""

    low: float
    high: float
    low_open: bool = False
    high_open: bool = False

    def __post_init__(self) -> None:
        if not (math.isfinite(self.low) and math.isfinite(self.high) and self.low <= self.high):
            raise ValueError(f"Float({self.low}, {self.high}): need finite low <= high")

    def describe(self) -> str:
        left, right = "(" if self.low_open else "[", ")" if self.high_open else "]"
        return f"a finite number in {left}{_fmt(self.low)}, {_fmt(self.high)}{right}"

    def accepts(self, value: Any) -> float:
        if isinstance(value, bool | np.bool_) or not isinstance(
            value, int | float | np.integer | np.floating
        ):
            raise ValueError("not a number")
        x = float(value)
        if not math.isfinite(x):
            raise ValueError("not finite")
        above = x > self.low if self.low_open else x >= self.low
        below = x < self.high if self.high_open else x <= self.high
        if not (above and below):
            raise ValueError("out of range")
        return x


@dataclass(frozen=True)
class Bool(Spec):
    """``True`` or ``False``."""

    def describe(self) -> str:
        return "true or false"

    def accepts(self, value: Any) -> bool:
        if not isinstance(value, bool | np.bool_):
            raise ValueError("not a boolean")
        return bool(value)


@dataclass(frozen=True)
class Choice(Spec):
    """One of ``options`` (strings)."""

    options: tuple[str, ...]

    def describe(self) -> str:
        return "one of " + ", ".join(self.options)

    def accepts(self, value: Any) -> str:
        if not isinstance(value, str) or value not in self.options:
            raise ValueError("not one of the choices")
        return value


@dataclass(frozen=True)
class Text(Spec):
    """A string matching the regular expression ``pattern`` (whole string); ``what`` describes it."""

    pattern: str
    what: str

    def describe(self) -> str:
        return self.what

    def accepts(self, value: Any) -> str:
        if not isinstance(value, str) or not re.fullmatch(self.pattern, value):
            raise ValueError("malformed")
        return value


@dataclass(frozen=True)
class Device(Spec):
    """A torch device string: ``cpu``, ``cuda``, ``cuda:N`` or ``mps`` (whether it is usable here is
    the experiment's ``check``)."""

    def describe(self) -> str:
        return "cpu, cuda, cuda:N or mps"

    def accepts(self, value: Any) -> str:
        if not isinstance(value, str) or not re.fullmatch(r"cpu|mps|cuda(:\d{1,2})?", value):
            raise ValueError(f"device {value!r} is not a torch device")
        return value


def _length(n: int, low: int, high: int) -> None:
    if not low <= n <= high:
        raise ValueError(f"has {n} items")


@dataclass(frozen=True)
class ListOf(Spec):
    """A list of ``low_len`` to ``high_len`` items, each accepted by ``item``; ``distinct``: no repeats;
    ``increasing``: strictly increasing."""

    item: Spec
    low_len: int = 1
    high_len: int = 64
    distinct: bool = False
    increasing: bool = False

    def describe(self) -> str:
        n = str(self.low_len) if self.low_len == self.high_len else f"{self.low_len} to {self.high_len}"
        extra = " strictly increasing" if self.increasing else " distinct" if self.distinct else ""
        return f"a list of {n}{extra} items, each {self.item.describe()}"

    def accepts(self, value: Any) -> list:
        if isinstance(value, str) or not isinstance(value, Sequence | np.ndarray):
            raise ValueError("not a list")
        _length(len(value), self.low_len, self.high_len)
        items = [self.item.accepts(v) for v in value]
        if (self.distinct or self.increasing) and len(set(items)) != len(items):
            raise ValueError("has repeats")
        if self.increasing and items != sorted(items):
            raise ValueError("not increasing")
        return type(value)(items) if isinstance(value, list | tuple) else items


@dataclass(frozen=True)
class Names(Spec):
    """A comma-separated string of ``low_len`` to ``high_len`` distinct items, each accepted by ``item``
    after parsing (``Choice``: the name; ``Int``/``Float``: the number), e.g. ``"BFTS,LinTS"``."""

    item: Spec
    low_len: int = 1
    high_len: int = 64

    def describe(self) -> str:
        n = str(self.low_len) if self.low_len == self.high_len else f"{self.low_len} to {self.high_len}"
        return f"{n} distinct comma-separated items, each {self.item.describe()}"

    def accepts(self, value: Any) -> str:
        if not isinstance(value, str):
            raise ValueError("not a string")
        parts = [p.strip() for p in value.split(",") if p.strip()]
        _length(len(parts), self.low_len, self.high_len)
        if len(set(parts)) != len(parts):
            raise ValueError("has repeats")
        for part in parts:
            if isinstance(self.item, Int | Float):
                try:
                    number = int(part) if isinstance(self.item, Int) else float(part)
                except ValueError:
                    raise ValueError(f"{part!r} is not a number") from None
                self.item.accepts(number)
            else:
                self.item.accepts(part)
        return value


def expand(schema: Mapping[str | tuple[str, ...], Spec]) -> dict[str, Spec]:
    """``schema`` with each tuple of keys expanded to one entry per key; ``ValueError`` for a key given
    twice or a value that is not a :class:`Spec`."""
    out: dict[str, Spec] = {}
    for keys, spec in schema.items():
        if not isinstance(spec, Spec):
            raise ValueError(f"schema entry {keys!r}: {spec!r} is not an icml26.common.schema spec")
        for key in (keys,) if isinstance(keys, str) else keys:
            if key in out:
                raise ValueError(f"schema declares {key!r} twice")
            out[key] = spec
    return out


def check_value(method: str, key: str, value: Any, spec: Spec) -> Any:
    """``value`` normalised by ``spec``; otherwise one ``ValueError`` naming the key, the value and what
    is accepted."""
    try:
        return spec.accepts(value)
    except (ValueError, TypeError, OverflowError) as exc:
        raise ValueError(
            f"{method}: config {key}={value!r} is not accepted ({exc}); accepted: {spec.describe()}"
        ) from None


def check_config(method: str, schema: Mapping[str, Spec], config: Mapping[str, Any]) -> dict[str, Any]:
    """Every value of ``config`` checked against its key's spec; the normalised config."""
    return {k: check_value(method, k, v, schema[k]) if k in schema else v for k, v in config.items()}


def declared(
    method: str, schema: Mapping[Any, Spec], profiles: Mapping[str, Mapping[str, Any]]
) -> dict[str, Spec]:
    """``schema`` expanded (:func:`expand`) after checking that it declares exactly the profiles' keys and
    that every profile's own values pass it; ``ValueError`` naming the method otherwise (a construction
    error of the experiment, not a user's)."""
    specs = expand(schema)
    keys = set(next(iter(profiles.values()), {}))
    if set(specs) != keys:
        raise ValueError(
            f"Experiment {method!r}: schema keys differ from the profile keys (undeclared:"
            f" {sorted(keys - set(specs))}, unknown: {sorted(set(specs) - keys)})"
        )
    for name, profile in profiles.items():
        try:
            check_config(method, specs, profile)
        except ValueError as exc:
            raise ValueError(f"Experiment {method!r}: profile {name!r} fails its own schema: {exc}") from None
    return specs
