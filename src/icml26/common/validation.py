"""Input checks shared by the methods' public functions: one clear message naming what was wrong."""

from __future__ import annotations

import math
import numbers


def check_int(name: str, value: object, minimum: int = 1) -> int:
    """``value`` as an ``int`` if it is an integer (not a bool) ``>= minimum``; else ``ValueError``."""
    if not isinstance(value, numbers.Integral) or isinstance(value, bool) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def check_positive(name: str, value: object) -> float:
    """``value`` as a ``float`` if it is a finite real number (not a bool) ``> 0``; else ``ValueError``."""
    if (
        isinstance(value, bool)
        or not isinstance(value, numbers.Real)
        or not math.isfinite(value)
        or value <= 0
    ):
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
    return float(value)


def check_device(value: object) -> str:
    """``value`` as a torch device string if torch can use it here; else ``ValueError`` listing the usable ones."""
    import torch

    available = ["cpu"] + [f"cuda:{i}" for i in range(torch.cuda.device_count())]
    if torch.backends.mps.is_available():
        available.append("mps")
    try:
        device = torch.device(value)  # type: ignore[arg-type]
    except (RuntimeError, TypeError):
        raise ValueError(
            f"device {value!r} is not a torch device; accepted: {', '.join(available)}"
        ) from None
    index = 0 if device.index is None else device.index
    usable = device.type == "cpu" or (
        (device.type == "cuda" and index < torch.cuda.device_count())
        or (device.type == "mps" and "mps" in available)
    )
    if not usable:
        raise ValueError(f"device {value!r} is not available here; accepted: {', '.join(available)}")
    return str(device)
