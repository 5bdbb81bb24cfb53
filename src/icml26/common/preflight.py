"""Checks before a run starts and the lock that holds its directory: whether a Ray address answers as Ray
(a gRPC server, not merely an open port), whether this machine has a loopback interface, and the
``flock`` that keeps a second process off a run directory. Re-exported by :mod:`icml26.common.runner`."""

from __future__ import annotations

import contextlib
import os
import socket
from datetime import UTC, datetime
from pathlib import Path

RAY_CONNECT_TIMEOUT_S = 10.0


def _reachable(host: str, port: int) -> str | None:
    """None if a TCP connection to ``host:port`` opens within the timeout, else why not."""
    try:
        with socket.create_connection((host, port), timeout=RAY_CONNECT_TIMEOUT_S):
            return None
    except OSError as exc:
        return f"{type(exc).__name__}: {exc}"


_HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"  # + SETTINGS


def _speaks_grpc(host: str, port: int, timeout: float = RAY_CONNECT_TIMEOUT_S) -> str | None:
    """None if the server at ``host:port`` answers an HTTP/2 connection preface with a SETTINGS frame, as
    every gRPC server does (Ray's GCS and its client server are gRPC); else what it did instead (an
    HTTP/1 server such as Ray's dashboard answers with text or closes; a silent one times out)."""
    try:
        with socket.create_connection((host, port), timeout=timeout) as conn:
            conn.settimeout(timeout)
            conn.sendall(_HTTP2_PREFACE)
            head = b""
            while len(head) < 9:
                chunk = conn.recv(9 - len(head))
                if not chunk:
                    break
                head += chunk
    except TimeoutError:
        return f"no answer within {timeout:g} s"
    except OSError as exc:
        return f"{type(exc).__name__}: {exc}"
    if len(head) == 9 and head[3] == 0x04:
        return None
    shown = head.split(b"\r\n", 1)[0][:40].decode("latin-1") if head else "closed the connection"
    return f"it answered {shown!r}, not as gRPC"


def _loopback() -> str | None:
    """None if this machine can talk to itself on 127.0.0.1 (a local Ray needs it), else why not."""
    try:
        with socket.socket() as server:
            server.bind(("127.0.0.1", 0))
            server.listen(1)
            return _reachable("127.0.0.1", server.getsockname()[1])
    except OSError as exc:
        return f"{type(exc).__name__}: {exc}"


def check_ray_address(address: str | None) -> None:
    """Fail fast, with one message, where ``ray.init`` would hang: a dead ``host:port``, a port where
    something other than Ray (a gRPC server) listens, or no loopback."""
    if address is None or address == "auto":
        why = _loopback()
        if why:
            raise ValueError(f"executor 'ray' starts a local Ray, which needs the loopback interface: {why}")
        return
    target = address.removeprefix("ray://")
    host, _, port = target.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"--ray-address {address!r}: expected HOST:PORT (or ray://HOST:PORT)")
    why = _reachable(host.strip("[]"), int(port))
    if why:
        raise ValueError(f"cannot reach Ray at {address} within {RAY_CONNECT_TIMEOUT_S:g} s ({why})")
    why = _speaks_grpc(host.strip("[]"), int(port))
    if why:  # e.g. the dashboard's HTTP port given for the cluster's: ray.init would wait for ever
        raise ValueError(
            f"--ray-address {address}: something listens there but it is not Ray ({why}); give the Ray"
            " cluster's GCS address (HOST:6379 by default) or ray://HOST:10001"
        )


LOCK_FILE = ".lock"


def lock_run_dir(directory: Path) -> int | None:
    """Hold ``directory`` for this process (an exclusive ``flock`` on ``<dir>/.lock``, which names the
    owner's pid); ``ValueError`` naming the owner when another process holds it. The lock ends with the
    process or :func:`unlock_run_dir`, so a killed run never leaves a stale one. ``None`` where the
    platform has no ``flock``."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover (not POSIX)
        return None
    fd = os.open(directory / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        owner = os.read(fd, 300).decode(errors="replace").strip() or "another process"
        os.close(fd)
        raise ValueError(
            f"run directory {str(directory)!r} is in use by {owner}; wait for it to end (or stop it), then"
            " --resume"
        ) from None
    os.ftruncate(fd, 0)
    stamp = datetime.now(UTC).isoformat(timespec="seconds")
    os.write(fd, f"process {os.getpid()} on {socket.gethostname()} since {stamp}".encode())
    return fd


def unlock_run_dir(fd: int | None) -> None:
    if fd is not None:
        with contextlib.suppress(OSError):
            os.close(fd)
