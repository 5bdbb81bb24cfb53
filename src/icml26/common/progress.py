"""One progress helper for every long loop (epochs, rounds, seeds, instances)."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterable, Iterator
from typing import TypeVar

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

T = TypeVar("T")


def progress_enabled() -> bool:
    """Whether progress bars are drawn: on a terminal, or as ``ICML26_PROGRESS`` says."""
    flag = os.environ.get("ICML26_PROGRESS")
    if flag is not None:
        return flag not in ("0", "false", "no", "")
    return sys.stderr.isatty()


def progress(items: Iterable[T], description: str, total: int | None = None) -> Iterator[T]:
    """Iterate over ``items`` with a progress bar on stderr.

    Shown when stderr is a terminal (or ``ICML26_PROGRESS=1``); silent otherwise, e.g. in tests.
    """
    if not progress_enabled():
        yield from items
        return
    if total is None and hasattr(items, "__len__"):
        total = len(items)  # type: ignore[arg-type]
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, transient=True, console=Console(stderr=True)) as bar:
        task = bar.add_task(description, total=total)
        for item in items:
            yield item
            bar.advance(task)


@contextlib.contextmanager
def quiet_native_output() -> Iterator[None]:
    """Silence what native code prints straight to file descriptors 1 and 2 inside the block (e.g. the
    HiGHS banner, which ``highspy.Highs()`` prints before any option can be set).

    Python-level ``sys.stdout`` / ``sys.stderr`` writes are silenced too; exceptions still propagate.
    """
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    with open(os.devnull, "w") as null:
        try:
            os.dup2(null.fileno(), 1)
            os.dup2(null.fileno(), 2)
            with contextlib.redirect_stdout(null), contextlib.redirect_stderr(null):
                yield
        finally:
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            for fd in saved:
                os.close(fd)
