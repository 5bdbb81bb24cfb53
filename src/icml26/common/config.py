"""Resolving an experiment's config: a profile plus ``key=value`` overrides, checked once."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from icml26.common.experiment import PROFILES, Experiment

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _coerce_scalar(key: str, raw: str, like: Any) -> Any:
    kind = type(like)
    if kind is bool:
        low = raw.strip().lower()
        if low in _TRUE | _FALSE:
            return low in _TRUE
        raise ValueError(f"--set {key}={raw}: expected a boolean (true/false/1/0/yes/no)")
    if kind is int:
        try:
            return int(raw)
        except ValueError:
            raise ValueError(f"--set {key}={raw}: expected an integer") from None
    if kind is float:
        try:
            return float(raw)
        except ValueError:
            raise ValueError(f"--set {key}={raw}: expected a number") from None
    return raw


def coerce_value(key: str, raw: str, default: Any) -> Any:
    """Turn the string ``raw`` into a value of the same type as ``default`` (lists: comma-separated)."""
    if isinstance(default, list | tuple):
        like = default[0] if len(default) else ""
        items = [s for s in raw.split(",") if s.strip()]
        values = [_coerce_scalar(key, s.strip(), like) for s in items]
        return type(default)(values)
    if default is None:
        return None if raw.strip().lower() in ("none", "null", "") else raw
    return _coerce_scalar(key, raw, default)


def parse_overrides(items: Sequence[str]) -> dict[str, str]:
    """Parse ``["key=value", ...]`` into a dict; ``ValueError`` for an item without ``=``."""
    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"--set {item!r}: expected key=value")
        out[key.strip()] = value
    return out


def resolve_config(
    experiment: Experiment, profile: str, overrides: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The config of ``profile`` with ``overrides`` applied, validated by the experiment's ``schema`` (each
    key's type and range, :mod:`icml26.common.schema`), then by its ``check`` (rules across keys).

    String override values are coerced to the type of the profile's value; other values are used as
    given. Raises ``ValueError`` for an unknown profile or key, a wrong type or an out-of-range value.
    """
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; accepted: {', '.join(PROFILES)}")
    config = dict(experiment.profiles[profile])
    for key, raw in (overrides or {}).items():
        if key not in config:
            raise ValueError(
                f"unknown config key {key!r} for {experiment.method}; accepted: {', '.join(sorted(config))}"
            )
        config[key] = coerce_value(key, raw, config[key]) if isinstance(raw, str) else raw
    if experiment.schema is not None:  # each key's declared type and range, before the cross-key rules
        from icml26.common.schema import check_config

        config = check_config(experiment.method, experiment.schema, config)
    if experiment.check is not None:
        experiment.check(config)
    return config
