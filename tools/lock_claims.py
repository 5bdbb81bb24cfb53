"""Write (or refresh) a method's lock file of its tests: ``python tools/lock_claims.py METHOD [...]``.

The lock (``src/icml26/<method>/claims.lock.json``) pre-registers each test's kind, rule, scale,
controls and the profile values of the settings it names. A contract test fails when a test differs
from its lock without a new ``Revision``; this tool refuses to overwrite such an entry.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from icml26.common.claims import LOCK_FILE, lock_of, unrecorded_changes
from icml26.common.registry import get_experiment

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "icml26"


def main(methods: list[str]) -> int:
    if not methods:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    status = 0
    for method in methods:
        experiment = get_experiment(method)
        path = PACKAGE / method / LOCK_FILE
        if path.exists():
            problems = unrecorded_changes(experiment, json.loads(path.read_text()))
            if problems:
                print(f"{method}: not locked; record these as Revisions first:", file=sys.stderr)
                for p in problems:
                    print(f"  {p}", file=sys.stderr)
                status = 1
                continue
        path.write_text(json.dumps(lock_of(experiment), indent=1, sort_keys=True) + "\n")
        print(f"{method}: {len(experiment.claims)} tests locked in {path.relative_to(PACKAGE.parents[1])}")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
