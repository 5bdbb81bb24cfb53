"""A tiny real experiment used only by the test suite: estimating pi by Monte Carlo.

It is not a paper's method; it exercises the runner, report, executors and CLI end to end. The claim
is the textbook one: the plain Monte Carlo error shrinks like 1/sqrt(n), and quasi-Monte Carlo (a
scrambled Sobol sequence from scipy) beats it at equal sample size.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
from scipy.stats import qmc

from icml26.common import (
    Background,
    Claim,
    Experiment,
    PaperClaim,
    Plot,
    Result,
    Revision,
    ci95,
    comparison_key,
    paired_ci,
    seed_everything,
    unit,
)


def estimate_pi(points: np.ndarray) -> float:
    """4 x the fraction of points of the unit square inside the quarter disc; points: (n, 2)."""
    return 4.0 * float(np.mean(np.sum(points**2, axis=1) <= 1.0))


REPLICATES = 8  # independent repeats inside one run, for the 95% intervals of the errors


def run(config: dict, seed: int) -> Result:
    rng = seed_everything(seed)
    sizes = [config["n"] // 2**k for k in range(config["levels"] - 1, -1, -1)]
    mc = np.array(
        [
            unit(
                f"mc_replicate={r}",
                lambda: [abs(estimate_pi(rng.random((n, 2))) - math.pi) for n in sizes],
                (rng,),
            )
            for r in range(REPLICATES)
        ]
    )
    sobols = [qmc.Sobol(d=2, scramble=True, seed=seed * REPLICATES + r) for r in range(REPLICATES)]
    qm = np.array([[abs(estimate_pi(s.random(n)) - math.pi) for n in sizes] for s in sobols])
    mc_mean, qmc_mean = mc.mean(axis=0).tolist(), qm.mean(axis=0).tolist()
    low, high = paired_ci(qm[:, -1], mc[:, -1])
    return Result(
        metrics={
            "mc_error": mc_mean[-1],
            "mc_error_ci": ci95(mc[:, -1]),
            "qmc_error": qmc_mean[-1],
            "qmc_error_ci": ci95(qm[:, -1]),
            comparison_key("qmc_error", "mc_error", "ratio") + "_ci_low": low,
            comparison_key("qmc_error", "mc_error", "ratio") + "_ci_high": high,
            "coarse_mc_error": mc_mean[0],  # the control: MC at the smallest sample size
        },
        tables={"errors": [{"n": n, "mc": a, "qmc": b} for n, a, b in zip(sizes, mc_mean, qmc_mean)]},
        plots=[
            Plot(
                "errors",
                "|estimate - pi|",
                {"MC": (sizes, mc_mean), "QMC": (sizes, qmc_mean)},
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
        Claim(
            "qmc_beats_mc",
            "at equal n, scrambled Sobol QMC has a smaller error than plain MC",
            "QMC below MC",
            "qmc_error",
            "<",
            1.0,
            kind="paper",
            supports="qmc_wins",
            title="QMC error / MC error < 1 at equal n",
            relative_to=("mc_error",),
            form="ratio",
        ),
        Claim(
            "mc_accuracy",
            "plain MC error at n samples is below 0.1",
            "< 0.1",
            "mc_error",
            "<",
            0.1,
            kind="paper",
            supports="mc_converges",
            title="plain MC error < 0.1",
            controls=("coarse_mc_error",),
            revisions=(
                Revision(
                    "2026-11-30",
                    "plain MC error < 0.01",
                    "refuted",
                    "the bar of 0.01 needs n >> 65536 (test-suite history)",
                    "0000000",
                ),
            ),
        ),
        Claim(
            "impossible",
            "MC error is below 1e-9 (a check that must be refuted)",
            "< 1e-9",
            "mc_error",
            "<",
            1e-9,
            kind="check",
            title="MC error < 1e-9 (must be refuted)",
        ),
    ),
    paper_claims=(
        PaperClaim("qmc_wins", "QMC beats plain Monte Carlo at equal n", "all", title="QMC beats MC"),
        PaperClaim("mc_converges", "plain MC is accurate at n samples", "any", title="MC is accurate"),
    ),
    background=(Background("pi is a number", "a definition"),),
    check=check,
)


def cost(config: dict) -> tuple[float, float]:
    return 0.05 * config["levels"], 2e6  # seconds, bytes: a megabyte or two


def run_failing_seed_1(config: dict, seed: int) -> Result:
    """toy_pi's run, except that seed 1 fails (a task failure the scheduler must contain)."""
    if seed == 1:
        raise RuntimeError("seed 1 fails on purpose")
    return run(config, seed)


# Two more methods for the scheduler's tests: the same experiment under another name (with a cost, so a
# Ray task reserves memory), and one whose seed 1 fails.
EXPERIMENT_B = dataclasses.replace(EXPERIMENT, method="toy_pi_b", cost=cost)
EXPERIMENT_FAILING = dataclasses.replace(EXPERIMENT, method="toy_pi_failing", run=run_failing_seed_1)
