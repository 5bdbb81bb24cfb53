"""Resumable units of work inside one ``run(config, seed)``.

Most runs are one runner seed whose work loops inside ``run()`` (inner seeds, data sets, networks,
instances). Wrap each such part in :func:`unit`: the runner points the units of a seed at
``<run_dir>/units/seed_<n>/``, a finished unit's result is stored there at once, and a resumed run
(``icml26 run METHOD --resume RUN_DIR``) reuses it instead of computing it again. Outside the runner
:func:`unit` just computes.

A resumed run ends with the same metrics as an uninterrupted one: with its result, a unit stores the
state of the global random generators (Python, NumPy, PyTorch) and of the generators passed as
``rngs`` as the unit left them, and restores them when the unit is reused, so later units draw the
same numbers either way.

A unit that runs for hours (a training loop) can also keep its partial state: inside the unit,
:func:`unit_progress` gives a :class:`UnitProgress` store (``None`` outside the runner) whose ``save(state)``
writes ``<name>.progress`` beside the units, with the global random states; a resumed run's ``load()``
returns the last state saved and restores those random states, so the loop continues where it stopped
and ends as an uninterrupted one would. The file is removed once the unit's result is stored.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import random
import re
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

T = TypeVar("T")
MAGIC = b"icml26-unit-v1\n"  # then the SHA-256 of the pickle, then the pickle
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.=-]{0,150}$")


@dataclass
class UnitStore:
    """Where one runner seed's units live, and what this process did with them."""

    directory: Path
    computed: list[str] = field(default_factory=list)
    reused: list[str] = field(default_factory=list)


_STORE: ContextVar[UnitStore | None] = ContextVar("icml26_units", default=None)
_RUNNING: ContextVar[UnitProgress | None] = ContextVar("icml26_progress", default=None)


def _random_states(rngs: Sequence[np.random.Generator]) -> dict[str, Any]:
    states: dict[str, Any] = {
        "python": random.getstate(),
        "numpy": np.random.get_state(),
        "generators": [g.bit_generator.state for g in rngs],
    }
    torch = sys.modules.get("torch")  # only if the method uses it; never imported here
    if torch is not None:
        states["torch"] = torch.get_rng_state()
    return states


def _restore(states: dict[str, Any], rngs: Sequence[np.random.Generator]) -> None:
    random.setstate(states["python"])
    np.random.set_state(states["numpy"])
    for g, state in zip(rngs, states["generators"], strict=True):
        g.bit_generator.state = state
    if "torch" in states:
        sys.modules["torch"].set_rng_state(states["torch"])


def unit(name: str, compute: Callable[[], T], rngs: Sequence[np.random.Generator] = ()) -> T:
    """``compute()``, or its stored result when this run already finished the unit ``name``.

    ``name`` identifies the unit within one runner seed (letters, digits, ``_.=-``; e.g.
    ``"friedman1_seed=3"``); ``rngs`` are the NumPy generators the unit draws from. The result must
    pickle.
    """
    if not isinstance(name, str) or not _NAME.match(name):
        raise ValueError(
            f"unit name {name!r}: use 1-151 letters, digits or _.=- (starting with a letter or digit)"
        )
    store = _STORE.get()
    if store is None:
        return compute()
    if name in store.computed or name in store.reused:
        raise ValueError(f"unit name {name!r} is used twice in one run; give each unit its own name")
    path = store.directory / f"{name}.pkl"
    if path.is_file():
        stored = read_unit(path)
        if stored is not None:
            value, states = stored
            _restore(states, rngs)
            store.reused.append(name)
            return value
    running = UnitProgress(store.directory / f"{name}.progress")
    token = _RUNNING.set(running)
    try:
        value = compute()
    finally:
        _RUNNING.reset(token)
    store.directory.mkdir(parents=True, exist_ok=True)
    write_atomic(path, _pack((value, _random_states(rngs))))
    running.path.unlink(missing_ok=True)
    store.computed.append(name)
    return value


class UnitProgress:
    """The partial state of one running unit, kept in ``path`` (``<unit name>.progress``).

    ``save(state)`` stores ``state`` (anything that pickles) with the global random states, atomically;
    ``load()`` returns the last saved state and restores those random states, or ``None`` when nothing
    was saved (a corrupt file is moved aside, with a warning, and reads as nothing saved)."""

    def __init__(self, path: Path):
        self.path = Path(path)

    def save(self, state: Any) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(self.path, _pack((state, _random_states(()))))

    def load(self) -> Any | None:
        if not self.path.is_file():
            return None
        stored = read_unit(self.path)
        if stored is None:
            return None
        state, states = stored
        _restore(states, ())
        return state


def unit_progress() -> UnitProgress | None:
    """The :class:`UnitProgress` store of the unit now computing; ``None`` outside a unit or the runner."""
    return _RUNNING.get()


def _pack(payload: Any) -> bytes:
    data = pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
    return MAGIC + hashlib.sha256(data).digest() + data


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that a reader sees the old file or the new one whole: a temporary file,
    flushed to disk, then renamed (an interrupted or failed write leaves no half file)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with tmp.open("wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        tmp.replace(path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def move_aside(path: Path, why: str) -> Path:
    """Rename a corrupt checkpoint to ``<name>.corrupt`` (kept for inspection), warning with its name."""
    aside = path.with_name(path.name + ".corrupt")
    path.replace(aside)
    warnings.warn(
        f"checkpoint {path} is corrupt ({why}); moved to {aside.name}, recomputing it", stacklevel=3
    )
    return aside


def read_unit(path: Path) -> tuple[Any, dict[str, Any]] | None:
    """A stored unit's ``(value, random states)``; ``None`` (the file moved aside, with a warning) when it is
    truncated, empty, garbage or fails its checksum."""
    try:
        data = path.read_bytes()
        if data.startswith(MAGIC):
            digest, body = data[len(MAGIC) : len(MAGIC) + 32], data[len(MAGIC) + 32 :]
            if hashlib.sha256(body).digest() != digest:
                raise ValueError("checksum mismatch")
        else:
            body = data  # written before checksums: a bare pickle
        value, states = pickle.loads(body)
        if not isinstance(states, dict) or not {"python", "numpy", "generators"} <= set(states):
            raise ValueError("not a unit record")
    except Exception as exc:  # noqa: BLE001 (any failure to read it back means: compute it again)
        move_aside(path, f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__)
        return None
    return value, states


@contextlib.contextmanager
def units_in(directory: Path | None) -> Iterator[UnitStore | None]:
    """Store the units computed inside this block in ``directory`` (``None``: don't store)."""
    store = None if directory is None else UnitStore(Path(directory))
    token = _STORE.set(store)
    try:
        yield store
    finally:
        _STORE.reset(token)


def finished_units(directory: Path) -> list[str]:
    """Names of the units stored in ``directory``."""
    return sorted(p.stem for p in Path(directory).glob("*.pkl")) if Path(directory).is_dir() else []
