"""Wall time of ``icml26 reproduce`` with ``--jobs 1`` beside ``--jobs N``, measured in one session.

Usage: ``python benchmarks/reproduce_jobs.py [--profile quick] [--jobs 2] [METHOD ...]`` (default: every
implemented method). Each variant runs in a fresh process into its own temporary ``--out``; the script
prints both wall times and their ratio (expect close to N where the methods are single-threaded and
balanced; the slowest method bounds it).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def reproduce(methods: list[str], profile: str, jobs: int, out: Path) -> float:
    argv = [sys.executable, "-m", "icml26", "reproduce", *methods, "--profile", profile, "--jobs", str(jobs)]
    start = time.perf_counter()
    subprocess.run([*argv, "--out", str(out / "runs"), "--report-dir", str(out / "report")], check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("methods", nargs="*")
    parser.add_argument("--profile", default="quick")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        one = reproduce(args.methods, args.profile, 1, Path(tmp) / "jobs1")
        many = reproduce(args.methods, args.profile, args.jobs, Path(tmp) / f"jobs{args.jobs}")
    print(f"--jobs 1: {one:.0f} s; --jobs {args.jobs}: {many:.0f} s; ratio {one / many:.2f}x")


if __name__ == "__main__":
    main()
