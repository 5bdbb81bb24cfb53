"""Input checks shared by the methods' public functions: one clear message naming what was wrong."""

from __future__ import annotations

import numbers


def check_int(name: str, value: object, minimum: int = 1) -> int:
    """``value`` as an ``int`` if it is an integer (not a bool) ``>= minimum``; else ``ValueError``."""
    if not isinstance(value, numbers.Integral) or isinstance(value, bool) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)
