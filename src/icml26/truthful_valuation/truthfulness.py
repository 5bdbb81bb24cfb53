"""(T) truthfulness at equilibrium: a harness of paired Monte Carlo trials over manipulations.

In trial ``t`` one draw of (``theta``,) the sources' data and the validation set ``V`` is shared by
every strategy of the manipulating source, every DVF and every semivalue, so each comparison
"manipulated - truthful" is paired. The other sources stay truthful (the equilibrium being tested).

Truthfulness argument [inferred; the paper's proof is not readable]: for ``C`` without ``i``, ``v(C)``
does not depend on ``i``'s submission; for ``C`` with ``i``, ``E[v(C)]`` over the joint law of
``theta``, the data and ``V`` is maximised by the true posterior predictive of ``D_C`` (strict
propriety of the log score), provided (a) the model is correctly specified with a common prior,
(b) the others are truthful and (c) ``i``'s submission is a (random) function of ``D_i`` alone and
``V`` is unknown to it. Every marginal contribution, hence every semivalue with ``w >= 0``, is then
maximised in expectation; ex post a manipulation can still pay.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from icml26.truthful_valuation.manipulation import manipulate
from icml26.truthful_valuation.models import BayesianModel, Dataset
from icml26.truthful_valuation.semivalues import Semivalue, exact_semivalues
from icml26.truthful_valuation.valuation import game_table, peer_prediction_scores

Draw = Callable[[np.random.Generator], tuple[list[Dataset], Dataset]]


@dataclass(frozen=True)
class Evaluator:
    """A mediator's valuation: its ``model`` (possibly misspecified) and ``dvf``. ``model`` is a fixed-prior
    :class:`~.models.BayesianModel`, or a prior fitted on each trial's validation set: an object with
    ``fit(validation) -> BayesianModel`` (e.g. :class:`~.empirical_bayes.EmpiricalBayesLinear`)."""

    name: str
    model: BayesianModel | Any
    dvf: str

    def resolve(self, validation: Dataset) -> BayesianModel:
        """The model that values this trial: the fixed one, or the one fitted on ``validation``."""
        return self.model if isinstance(self.model, BayesianModel) else self.model.fit(validation)


def trial_rng(seed: int, trial: int, stream: int = 0) -> np.random.Generator:
    """The generator of one trial's data (``stream=0``) or of strategy ``k``'s manipulation (``k + 1``)."""
    return np.random.default_rng([seed, trial, stream])


def run_trials(
    draw: Draw,
    source_model: BayesianModel,
    evaluators: Sequence[Evaluator],
    strategies: Sequence[str],
    semivalues: Sequence[str],
    trials: Sequence[int],
    seed: int,
    *,
    manipulator: int = 0,
    copy_from: int = 1,
    strength: float | None = None,
    peer: bool = True,
) -> dict[str, np.ndarray]:
    """Paired trials; returns arrays keyed ``"phi/<evaluator>/<semivalue>/<strategy>"`` ``(T, n)``,
    ``"coal/<evaluator>/<strategy>"`` ``(T, 2^(n-1))`` (values of the coalitions holding the manipulator,
    in mask order) and, with ``peer``, ``"peer/<strategy>"`` ``(T, n)`` peer-prediction scores.

    ``source_model`` is the manipulating source's own model (used to fabricate and to add noise).
    Trial ``t`` draws its data from :func:`trial_rng` ``(seed, t)``, so a trial is the same whatever
    chunk of ``trials`` it is computed in.
    """
    parsed = [Semivalue.parse(s) for s in semivalues]
    rows: dict[str, list[np.ndarray]] = {}
    for t in trials:
        sources, validation = draw(trial_rng(seed, t))
        n = len(sources)
        for label, index in (("manipulator", manipulator), ("copy_from", copy_from)):
            if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < n:
                raise ValueError(f"{label} must be a source index in 0..{n - 1}, got {index!r}")
        if copy_from == manipulator:
            raise ValueError(f"copy_from must name another source than the manipulator ({manipulator})")
        holding = np.array([m for m in range(2**n) if m >> manipulator & 1])
        models = {ev.name: ev.resolve(validation) for ev in evaluators}  # fitted on V only, once per trial
        for k, strategy in enumerate(strategies):
            submitted = list(sources)
            submitted[manipulator] = manipulate(
                sources[manipulator],
                strategy,
                trial_rng(seed, t, k + 1),
                model=source_model,
                other=sources[copy_from],
                strength=strength,
            )
            for ev in evaluators:
                model = models[ev.name]
                stats = np.stack([model.statistics(X, y) for X, y in submitted])
                table = game_table(model, stats, ev.dvf, validation)
                rows.setdefault(f"coal/{ev.name}/{strategy}", []).append(table[holding])
                for sv in parsed:
                    rows.setdefault(f"phi/{ev.name}/{sv.name}/{strategy}", []).append(
                        exact_semivalues(table, sv)
                    )
            if peer:
                rows.setdefault(f"peer/{strategy}", []).append(
                    peer_prediction_scores(source_model, submitted)
                )
    return {key: np.array(value) for key, value in rows.items()}


def merge_trials(chunks: Sequence[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """Concatenate the trial arrays of consecutive chunks."""
    return {key: np.concatenate([c[key] for c in chunks]) for key in chunks[0]}


@dataclass(frozen=True)
class PairedDifference:
    """Mean paired difference (manipulated - truthful) over trials, its standard error, ``z = mean / se``
    and the ex-post share of trials where the manipulation paid (difference > 0)."""

    mean: float
    se: float
    z: float
    paid_share: float
    n_trials: int


def paired_difference(manipulated: np.ndarray, truthful: np.ndarray) -> PairedDifference:
    """Summary of the per-trial differences ``manipulated - truthful`` (same trials, same order)."""
    diff = np.asarray(manipulated, dtype=float) - np.asarray(truthful, dtype=float)
    if diff.ndim != 1 or diff.size < 2:
        raise ValueError(f"paired_difference needs >= 2 paired trials as 1-D arrays, got shape {diff.shape}")
    mean = float(diff.mean())
    se = float(diff.std(ddof=1) / math.sqrt(diff.size))
    z = mean / se if se > 0 else (0.0 if mean == 0 else math.copysign(math.inf, mean))
    return PairedDifference(mean, se, z, float(np.mean(diff > 0)), int(diff.size))
