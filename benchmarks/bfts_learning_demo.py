"""Issue #17's acceptance, shown once: the learning test (``tests/bfts/test_bfts_learning.py``) passes
for BFTS and fails for two broken agents, uniformly random arms and greedy on the posterior mean.

Prints each agent's failures (none for BFTS) with the reasons the test gives. Usage::

    python benchmarks/bfts_learning_demo.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "bfts"))

from test_bfts_learning import FOREST, SEEDS, GreedyBFTS, T, learning_failures  # noqa: E402

from icml26.bfts import BFTSAgent, RandomAgent  # noqa: E402

AGENTS = {
    "BFTS": lambda s: BFTSAgent(2, 10, random_state=s, **FOREST),
    "uniformly random arms": lambda s: RandomAgent(2, 10, random_state=s),
    "greedy on the posterior mean": lambda s: GreedyBFTS(2, 10, random_state=s, **FOREST),
}


def main() -> None:
    print(f"Friedman1, T = {T}, seeds {SEEDS}, forest {FOREST}")
    for name, make in AGENTS.items():
        start = time.perf_counter()
        failures = learning_failures(make)
        verdict = "FAILS" if failures else "passes"
        print(f"{name}: {verdict} the learning test ({time.perf_counter() - start:.0f} s)")
        for why in failures:
            print(f"  - {why}")


if __name__ == "__main__":
    main()
