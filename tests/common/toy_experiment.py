"""A tiny real experiment used only by the test suite: estimating pi by Monte Carlo.

It is not a paper's method; it exercises the runner, report, executors and CLI end to end. The claim
is the textbook one: the plain Monte Carlo error shrinks like 1/sqrt(n), and quasi-Monte Carlo (a
scrambled Sobol sequence from scipy) beats it at equal sample size.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.stats import qmc

from icml26.common import Claim, Experiment, Plot, Result, seed_everything


def estimate_pi(points: np.ndarray) -> float:
    """4 x the fraction of points of the unit square inside the quarter disc; points: (n, 2)."""
    return 4.0 * float(np.mean(np.sum(points**2, axis=1) <= 1.0))


def run(config: dict, seed: int) -> Result:
    rng = seed_everything(seed)
    sizes = [config["n"] // 2**k for k in range(config["levels"] - 1, -1, -1)]
    mc = [abs(estimate_pi(rng.random((n, 2))) - math.pi) for n in sizes]
    sobol = qmc.Sobol(d=2, scramble=True, seed=seed)
    qmc_err = [abs(estimate_pi(sobol.random(n)) - math.pi) for n in sizes]
    return Result(
        metrics={
            "mc_error": mc[-1],
            "qmc_error": qmc_err[-1],
            "qmc_over_mc": qmc_err[-1] / max(mc[-1], 1e-12),
        },
        tables={"errors": [{"n": n, "mc": a, "qmc": b} for n, a, b in zip(sizes, mc, qmc_err)]},
        plots=[
            Plot(
                "errors",
                "|estimate - pi|",
                {"MC": (sizes, mc), "QMC": (sizes, qmc_err)},
                "n",
                "error",
                True,
                True,
            )
        ],
        notes=["test-suite experiment, not a paper's method"],
    )


def check(config: dict) -> None:
    if config["n"] < 16:
        raise ValueError(f"n must be >= 16, got {config['n']}")


EXPERIMENT = Experiment(
    method="toy_pi",
    title="Monte Carlo estimate of pi (test-suite experiment)",
    paper="textbook",
    run=run,
    profiles={
        "smoke": {"n": 4096, "levels": 3},
        "quick": {"n": 65536, "levels": 5},
        "paper": {"n": 1048576, "levels": 8},
    },
    claims=(
        Claim("mc_accuracy", "plain MC error at n samples is below 0.1", "< 0.1", "mc_error", "<", 0.1),
        Claim(
            "impossible",
            "MC error is below 1e-9 (a claim that must be refuted)",
            "< 1e-9",
            "mc_error",
            "<",
            1e-9,
        ),
    ),
    check=check,
)
