"""Re-judge the committed run records under today's tests and list every verdict that changed.

``python tools/rejudge_records.py [METHOD ...]`` rewrites ``docs/runs/<method>/<id>/result.json`` (nothing
is measured again: ``icml26.common.runner.rejudge``) and prints, per record, each test whose verdict
changed (``old -> new``), and the tests that were added or are gone (folded into a Revision).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from icml26.common.registry import METHOD_NAMES, is_implemented
from icml26.common.runner import rejudge

RUNS = Path(__file__).resolve().parents[1] / "docs" / "runs"


def _verdicts(payload: dict) -> dict[str, str]:
    out = {}
    for c in payload.get("claims", []):
        v = c["verdict"]
        if c.get("non_discriminating") and v in ("verified", "toy-verified"):
            v = f"{v} (non-discriminating)"
        kind = c.get("kind", "")
        out[c["name"]] = f"{kind} {v}"
    return out


def main(methods: list[str]) -> int:
    methods = methods or [m for m in METHOD_NAMES if is_implemented(m)]
    for method in methods:
        for path in sorted((RUNS / method).glob("*/result.json")):
            before = json.loads(path.read_text())
            if before.get("status", "finished") != "finished":
                continue
            after = rejudge(path.parent)
            old, new = _verdicts(before), _verdicts(after)
            print(f"## {method} {path.parent.name} ({before['profile']})")
            for name in old:
                if name not in new:
                    print(f"- {name}: {old[name]} -> gone")
                elif old[name] != new[name]:
                    print(f"- {name}: {old[name]} -> {new[name]}")
            for name in new:
                if name not in old:
                    print(f"- {name}: new -> {new[name]}")
            for p in after.get("paper_claims", []):
                print(f"  * {p['id']}: {p['verdict']} ({p['holds']} of {p['of']})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
