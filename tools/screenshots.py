"""Screenshots of the report for the README: its top and one method's section, in headless Chromium.

Usage: ``.venv/bin/python tools/screenshots.py [METHOD]`` (default: the first method whose record is judged
under contract v3, preferring one with a ``paper`` record). Builds the report from ``docs/runs`` into a
temporary directory and writes ``docs/img/report_top.png`` and ``docs/img/report_method.png``. Needs
``chromium`` (Debian: ``apt-get install chromium``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from icml26.common.output import is_v3
from icml26.common.report import build_report, section_page, speaking_records

ROOT = Path(__file__).resolve().parents[1]
RUNS = Path("docs/runs")  # relative to the repository, as the page names its records
IMG = ROOT / "docs" / "img"
WIDTH = 1280


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        raise SystemExit("needs chromium: apt-get install chromium")
    return found


def shoot(page: Path, png: Path, height: int, profile: Path) -> None:
    subprocess.run(
        [
            chromium(),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={profile}",
            f"--window-size={WIDTH},{height}",
            "--virtual-time-budget=5000",
            f"--screenshot={png}",
            page.as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=180,
    )
    if not png.is_file() or png.stat().st_size == 0:
        raise SystemExit(f"chromium wrote no screenshot to {png}")


def default_method(runs: Path) -> str:
    speaking = speaking_records(runs)
    v3 = [m for m, s in speaking.items() if s.main is not None and is_v3(s.main[1])]
    if not v3:
        raise SystemExit(f"no record under {runs} is judged under contract v3 yet")
    with_paper = [m for m in v3 if speaking[m].main[1]["profile"] == "paper"]
    return sorted(with_paper or v3)[0]


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("method", nargs="?", help="the method whose section is shot")
    parser.add_argument("--runs", type=Path, default=RUNS, help="the run records (default: docs/runs)")
    args = parser.parse_args(argv)
    if args.runs == RUNS:
        os.chdir(ROOT)
    runs = args.runs
    method = args.method or default_method(runs)
    IMG.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        page = build_report(runs, tmp_path / "report")
        shoot(page, IMG / "report_top.png", 1100, tmp_path / "profile")
        section = section_page(runs, method, tmp_path / "report" / f"{method}.html")
        shoot(section, IMG / "report_method.png", 1500, tmp_path / "profile")
    print(f"docs/img/report_top.png and docs/img/report_method.png ({method}) written")


if __name__ == "__main__":
    main(sys.argv[1:])
