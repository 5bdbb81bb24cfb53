"""Where a run's numbers came from: the library and package versions, the source commit, and the commit
of each segment of a run that was stopped and resumed."""

from __future__ import annotations

import contextlib
import platform
from pathlib import Path
from typing import Any


def versions() -> dict[str, str]:
    import icml26

    out = {"python": platform.python_version(), "platform": platform.platform(), "icml26": icml26.__version__}
    for name in ("numpy", "scipy", "torch"):
        with contextlib.suppress(ImportError):
            out[name] = __import__(name).__version__
    if commit := source_commit():
        out["commit"] = commit
    return out


def source_commit() -> str | None:
    """The git commit of the running source (``+dirty`` when it has uncommitted changes), or None outside git."""
    import subprocess

    here = Path(__file__).resolve().parent
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=here, capture_output=True, text=True, timeout=5
        )
        if head.returncode != 0:
            return None
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "."],  # untracked source counts too (a new method)
            cwd=here.parent,
            capture_output=True,
            text=True,
            timeout=5,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return head.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")


def segment_commits(header: dict[str, Any]) -> list[str | None]:
    """The commit of each segment a stored header ran (``None`` where a header written before segments
    were recorded does not say: it kept only the latest segment's commit, in ``versions``)."""
    if isinstance(header.get("segment_commits"), list):
        return list(header["segment_commits"])
    n = 1 + len(header.get("resumed", []))
    return [None] * (n - 1) + [(header.get("versions") or {}).get("commit")]
