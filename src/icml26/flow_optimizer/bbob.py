"""Zero-shot transfer to BBOB's 24 noiseless functions (through ``ioh``) against IPOP-CMA-ES.

:class:`BBOBFunction` wraps one ``ioh`` BBOB problem (function ``fid``, instance ``iid``, dimension
``d``, box ``[-5, 5]^d``) as the batched torch objective every optimizer here takes,
``f: (n, d) tensor -> (n,) float64 tensor``, evaluated in float64 by ``ioh`` itself; ``ioh`` counts the
evaluations (``evaluations``), so the equal-evaluation accounting is read from the benchmark, not from
the optimizers. Values carry no gradient: only gradient-free weights run on it.

:func:`transfer_pair` runs, on one (function, instance) pair, FlowOptimizer models and IPOP-CMA-ES from
a random start and from FlowOptimizer's start information (``baselines.cma_ipop``) at the same budget,
each on a fresh problem, and returns each method's final precision ``best f - f_opt`` (floored at
``PRECISION_FLOOR`` = 1e-8, BBOB's final target, so two solved runs tie). A method *wins* a pair when its
precision is below both IPOP-CMA-ES runs' (the strongest baseline per pair); a tie counts one half.
:func:`win_fraction` is the fraction of pairs won; :func:`clustered_interval` its 95% interval from a
bootstrap over functions (a function's instances move together); :func:`seed_clustered_interval` the
same bootstrap when several training seeds were measured on the same pairs (seeds resampled too).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import torch

from icml26.flow_optimizer.baselines import cma_ipop
from icml26.flow_optimizer.optimizer import FlowOptimizer

Tensor = torch.Tensor
PRECISION_FLOOR = 1e-8
IPOP = ("cma_ipop", "cma_ipop_centre")


class BBOBFunction:
    """BBOB function ``fid`` (1..24), instance ``iid`` (>= 1), dimension ``dim`` via ``ioh``; call on ``(n, d)``."""

    def __init__(self, fid: int, iid: int, dim: int) -> None:
        import ioh

        for key, value, low, high in (("fid", fid, 1, 24), ("iid", iid, 1, 10**6), ("dim", dim, 2, 10**4)):
            if isinstance(value, bool) or not isinstance(value, int | np.integer) or not low <= value <= high:
                raise ValueError(f"{key} must be an integer in [{low}, {high}], got {value!r}")
        self.fid, self.iid, self.dim = int(fid), int(iid), int(dim)
        self.problem = ioh.get_problem(
            self.fid, instance=self.iid, dimension=self.dim, problem_class=ioh.ProblemClass.BBOB
        )
        self.name = self.problem.meta_data.name
        self.f_opt = float(self.problem.optimum.y)
        self.x_opt = np.asarray(self.problem.optimum.x, dtype=np.float64)

    @property
    def bounds(self) -> list[tuple[float, float]]:
        return list(zip(self.problem.bounds.lb.tolist(), self.problem.bounds.ub.tolist()))

    @property
    def evaluations(self) -> int:
        """Evaluations counted by ``ioh`` since construction."""
        return int(self.problem.state.evaluations)

    def __call__(self, X: Tensor) -> Tensor:
        if not isinstance(X, Tensor) or X.dim() != 2 or X.shape[1] != self.dim:
            shape = tuple(X.shape) if isinstance(X, Tensor) else type(X).__name__
            raise ValueError(f"BBOB f{self.fid} takes a tensor of shape (n, {self.dim}), got {shape}")
        values = self.problem(X.detach().double().cpu().numpy())
        return torch.as_tensor(np.asarray(values, dtype=np.float64), device=X.device)

    def precision(self, f: float) -> float:
        """``f - f_opt`` floored at :data:`PRECISION_FLOOR`."""
        return max(float(f) - self.f_opt, PRECISION_FLOOR)


def transfer_pair(
    fid: int,
    iid: int,
    dim: int,
    budget: int,
    flows: dict[str, FlowOptimizer],
    seed: int,
) -> dict[str, dict[str, Any]]:
    """``{method: {"precision", "nfev", "counted"}}`` on pair ``(fid, iid)``: each of ``flows`` (gradient-free
    models, named ``flow...``) and both IPOP-CMA-ES starts, each on a fresh problem at ``budget``;
    ``counted`` is ioh's own evaluation count, ``nfev`` what the optimizer reports."""
    out: dict[str, dict[str, Any]] = {}
    runs: list[tuple[str, Any]] = [
        *((name, lambda f, m=model: m.minimize(f, f.bounds, budget, seed)) for name, model in flows.items()),
        ("cma_ipop", lambda f: cma_ipop(f, f.bounds, budget, seed)),
        ("cma_ipop_centre", lambda f: cma_ipop(f, f.bounds, budget, seed, start="centre")),
    ]
    for name, solve in runs:
        if name.startswith("flow") and flows[name].use_gradients:
            raise ValueError(f"{name}: BBOB through ioh gives values only; pass gradient-free weights")
        f = BBOBFunction(fid, iid, dim)
        res = solve(f)
        out[name] = {"precision": f.precision(res.fun), "nfev": int(res.nfev), "counted": f.evaluations}
    return out


def wins(ours: np.ndarray, theirs: Sequence[np.ndarray]) -> np.ndarray:
    """Per pair: 1 if ``ours`` is below every baseline's precision, 0.5 on a tie with the best, else 0."""
    best = np.min(np.stack([np.asarray(t, dtype=float) for t in theirs]), axis=0)
    ours = np.asarray(ours, dtype=float)
    return np.where(ours < best, 1.0, np.where(ours == best, 0.5, 0.0))


def win_fraction(ours: np.ndarray, theirs: Sequence[np.ndarray]) -> float:
    """The fraction of (function, instance) pairs won (ties one half)."""
    return float(np.mean(wins(ours, theirs)))


def clustered_interval(
    won: np.ndarray, functions: np.ndarray, seed: int = 0, n_boot: int = 2000
) -> tuple[float, float]:
    """95% percentile interval of the mean of ``won`` from a bootstrap that resamples whole functions."""
    won, functions = np.asarray(won, dtype=float), np.asarray(functions)
    groups = [won[functions == f] for f in np.unique(functions)]
    if len(groups) < 2:
        return (float("nan"), float("nan"))
    rng = np.random.default_rng(seed)
    pick = rng.integers(0, len(groups), size=(n_boot, len(groups)))
    sums = np.array([[groups[j].sum() for j in row] for row in pick])
    counts = np.array([[len(groups[j]) for j in row] for row in pick])
    fractions = sums.sum(1) / counts.sum(1)
    low, high = np.quantile(fractions, [0.025, 0.975])
    return float(low), float(high)


def _check_won(won: np.ndarray, functions: np.ndarray, ndim: int) -> tuple[np.ndarray, np.ndarray]:
    won, functions = np.asarray(won, dtype=float), np.asarray(functions)
    shape = "(pairs,)" if ndim == 1 else "(training seeds, pairs)"
    if won.ndim != ndim or won.size == 0:
        raise ValueError(f"won must be a non-empty array of shape {shape}, got shape {won.shape}")
    if functions.shape != won.shape[-1:]:
        raise ValueError(
            f"functions must have one entry per pair ({won.shape[-1]}), got shape {functions.shape}"
        )
    if not np.isin(won, (0.0, 0.5, 1.0)).all():
        raise ValueError("won must hold per-pair outcomes 0, 0.5 or 1 (as wins() returns)")
    return won, functions


def seed_clustered_interval(
    won: np.ndarray, functions: np.ndarray, seed: int = 0, n_boot: int = 2000
) -> tuple[float, float]:
    """95% percentile interval of the mean win fraction over training seeds and pairs.

    ``won``: ``(S, P)``, row ``s`` the outcomes (``wins``) of the weights of training seed ``s`` on the
    ``P`` pairs; ``functions``: ``(P,)`` the function of each pair. Each bootstrap draw resamples ``S``
    training seeds and the functions (a function's instances move together, shared by every seed drawn),
    and takes the mean of the drawn cells. ``(nan, nan)`` when there are fewer than two functions.
    """
    won, functions = _check_won(won, functions, 2)
    if not isinstance(n_boot, int) or n_boot < 1:
        raise ValueError(f"n_boot must be a positive integer, got {n_boot!r}")
    keys = np.unique(functions)
    if len(keys) < 2:
        return (float("nan"), float("nan"))
    # per (seed, function): sum of outcomes and count of pairs
    sums = np.stack([won[:, functions == f].sum(1) for f in keys], axis=1)  # (S, F)
    counts = np.array([(functions == f).sum() for f in keys], dtype=float)  # (F,)
    rng = np.random.default_rng(seed)
    n_seeds = won.shape[0]
    fractions = np.empty(n_boot)
    for b in range(n_boot):
        rows = rng.integers(0, n_seeds, size=n_seeds)
        cols = rng.integers(0, len(keys), size=len(keys))
        fractions[b] = sums[np.ix_(rows, cols)].sum() / (n_seeds * counts[cols].sum())
    low, high = np.quantile(fractions, [0.025, 0.975])
    return float(low), float(high)
