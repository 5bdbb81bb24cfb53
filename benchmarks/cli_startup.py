"""Start-up cost of the command line, side by side in one run: `icml26 list` and `icml26 --version`
(which import no method), `import icml26.common`, and, as the reference, importing one method's
experiment (what `icml26 info` and `icml26 run` pay), as medians over repeats of fresh processes.

    python benchmarks/cli_startup.py [--repeats 15]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

BIN = Path(sys.executable).parent


def _median_seconds(argv: list[str], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    cases = {
        "python -c pass (interpreter alone)": [sys.executable, "-c", "pass"],
        "import icml26.common": [sys.executable, "-c", "import icml26.common"],
        "icml26 --version": [str(BIN / "icml26"), "--version"],
        "icml26 list": [str(BIN / "icml26"), "list"],
        "import icml26.bad_triangles.experiment": [
            sys.executable,
            "-c",
            "import icml26.bad_triangles.experiment",
        ],
    }
    results = {name: _median_seconds(argv, args.repeats) for name, argv in cases.items()}
    base = results["icml26 list"]
    print(f"{'command':45s} {'median s':>9s} {'/ list':>7s}")
    for name, seconds in results.items():
        print(f"{name:45s} {seconds:9.3f} {seconds / base:7.2f}")


if __name__ == "__main__":
    main()
