"""Baselines at an equal evaluation budget, each returning the best point and a best-so-far history.

* ``cma_es``: pycma with its default population ``4 + 3 ln d``, ``sigma0 = 0.3 * width``;
* ``cma_ipop``: pycma restarted with a doubled population until the budget is spent (IPOP-CMA-ES); the
  restart loop is ours so that the total budget is a hard cap, and a run stops at 1e-8 tolerances;
* ``adam_multistart``: ``N`` independent Adam runs for ``K`` steps (``N K`` gradient evaluations);
* ``differential_evolution``: ``scipy.optimize.differential_evolution``, population near ``N``, no polish;
* ``l2o_multistart``: the L2O-DM coordinatewise LSTM (:mod:`icml26.flow_optimizer.l2o`), meta-trained on
  the problem class, run from ``N`` uniform starts for ``K`` steps (``N K`` gradient evaluations);
* ``ngopt``: ``nevergrad``'s NGOpt algorithm selector, asked and told in batches of ``num_workers``.

NGOpt's choice depends on the batch size. In nevergrad 1.0.12 (the newest release), with one worker or
with 64 at d = 10 and a few thousand evaluations, it picks a ``ParametrizedMetaModel`` whose surrogate step
calls ``float(model.predict(x[None, :]))`` on a shape-(1,) array (``learn_on_k_best`` in
``nevergrad/optimization/metamodel.py``); NumPy 2.4 made that conversion a ``TypeError``, so that branch
crashes. With batches of 8 to 32 it picks bounded CMA-ES (``CMAbounded``) at d = 10 and d = 100 and runs
unmodified; we use 16.

Every baseline takes the same batched torch objective ``f: (n, d) -> (n,)`` as :class:`FlowOptimizer`.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import torch

from icml26.flow_optimizer.l2o import L2OOptimizer
from icml26.flow_optimizer.optimizer import OptimizeResult, parse_bounds

Tensor = torch.Tensor
Objective = Callable[[Tensor], Tensor]


class _Counter:
    """Wraps a torch objective for numpy callers; counts evaluations and keeps the best-so-far history."""

    def __init__(self, f: Objective, budget: int) -> None:
        self.f, self.budget, self.nfev = f, budget, 0
        self.best_f, self.best_x = math.inf, None
        self.history: list[tuple[int, float]] = []

    def __call__(self, X: np.ndarray) -> np.ndarray:
        X = np.atleast_2d(np.asarray(X, dtype=np.float64))
        with torch.no_grad():
            fx = self.f(torch.as_tensor(X, dtype=torch.float32)).double().numpy()
        fx = np.where(np.isfinite(fx), fx, np.inf)
        self.nfev += len(X)
        i = int(np.argmin(fx))
        if fx[i] < self.best_f:
            self.best_f, self.best_x = float(fx[i]), X[i].copy()
        self.history.append((self.nfev, self.best_f))
        return fx

    def result(self) -> OptimizeResult:
        return OptimizeResult(np.asarray(self.best_x), self.best_f, self.nfev, self.history)


STARTS = ("random", "centre")


def _start(
    lower: np.ndarray, upper: np.ndarray, rng: np.random.Generator, start: str = "random"
) -> np.ndarray:
    """The first mean: a uniform random point of the box (every baseline's default) or its centre."""
    if start not in STARTS:
        raise ValueError(f"start must be one of {STARTS}, got {start!r}")
    if start == "centre":
        return (lower + upper) / 2
    return lower + (upper - lower) * rng.random(lower.size)


def cma_es(
    f: Objective, bounds, budget: int, seed: int, popsize: int | None = None, start: str = "random"
) -> OptimizeResult:
    """pycma from a uniform random start (or the box centre); stops at ``budget`` evaluations."""
    return _cma_restarts(f, bounds, budget, seed, popsize, restarts=False, start=start)


def cma_ipop(f: Objective, bounds, budget: int, seed: int) -> OptimizeResult:
    """IPOP-CMA-ES: restart from a new random point with a doubled population until the budget is spent."""
    return _cma_restarts(f, bounds, budget, seed, None, restarts=True)


def _cma_restarts(
    f: Objective, bounds, budget: int, seed: int, popsize: int | None, restarts: bool, start: str = "random"
) -> OptimizeResult:
    import cma

    lower, upper = parse_bounds(bounds)
    rng = np.random.default_rng(seed)
    counter = _Counter(f, budget)
    d = lower.size
    lam = popsize or 4 + int(3 * math.log(d))
    run = 0
    while counter.nfev + lam <= budget:
        opts = {
            "bounds": [lower.tolist(), upper.tolist()],
            "popsize": lam,
            "seed": int((seed * 1000 + run) % (2**32 - 2)) + 1,  # pycma takes 1..2**32-1 (0 = random)
            "verbose": -9,
            "maxfevals": budget - counter.nfev,
            "tolflatfitness": 10,
        }
        if restarts:
            # pycma's default tolerances (1e-11) are rarely met within a few thousand evaluations, so
            # IPOP would never restart (pycma #140); stop a run once it has converged to 1e-8 of the box
            opts.update({"tolfun": 1e-8, "tolx": 1e-8 * float(np.mean(upper - lower))})
        x0 = _start(lower, upper, rng, start if run == 0 else "random")
        es = cma.CMAEvolutionStrategy(x0, 0.3 * float(np.mean(upper - lower)), opts)
        while not es.stop() and counter.nfev + lam <= budget:
            X = es.ask()
            es.tell(X, counter(np.asarray(X)).tolist())
        if not restarts:
            break
        run += 1
        lam *= 2
    return counter.result()


def adam_multistart(
    f: Objective, bounds, budget: int, seed: int, population: int = 64, lr: float | None = None
) -> OptimizeResult:
    """``population`` Adam runs from uniform starts, ``budget // population`` gradient steps, box-clamped.

    ``lr`` defaults to 5% of the mean box width.
    """
    lower_np, upper_np = parse_bounds(bounds)
    lower = torch.as_tensor(lower_np, dtype=torch.float32)
    upper = torch.as_tensor(upper_np, dtype=torch.float32)
    gen = torch.Generator().manual_seed(seed)
    X = (lower + (upper - lower) * torch.rand(population, lower.numel(), generator=gen)).requires_grad_(True)
    opt = torch.optim.Adam([X], lr=lr if lr is not None else 0.05 * float((upper - lower).mean()))
    best_f, best_x, history = math.inf, None, []
    K = budget // population
    for k in range(K):
        fx = f(X)
        vals = torch.nan_to_num(fx.detach(), nan=math.inf)
        i = int(torch.argmin(vals))
        if float(vals[i]) < best_f:
            best_f, best_x = float(vals[i]), X[i].detach().double().numpy().copy()
        history.append(((k + 1) * population, best_f))
        opt.zero_grad()
        fx.sum().backward()
        opt.step()
        with torch.no_grad():
            X.copy_(torch.minimum(torch.maximum(X, lower), upper))
    return OptimizeResult(np.asarray(best_x), best_f, K * population, history)


def differential_evolution(
    f: Objective, bounds, budget: int, seed: int, population: int = 64
) -> OptimizeResult:
    """scipy DE (best1bin) with about ``population`` members, vectorised, capped at ``budget`` evaluations."""
    from scipy.optimize import differential_evolution as de

    lower, upper = parse_bounds(bounds)
    d = lower.size
    popsize = max(1, round(population / d))
    members = max(5, popsize * d)
    counter = _Counter(f, budget)
    maxiter = max(0, budget // members - 1)
    de(
        lambda X: counter(np.asarray(X).T),
        list(zip(lower, upper)),
        maxiter=maxiter,
        popsize=popsize,
        polish=False,
        seed=seed,
        vectorized=True,
        updating="deferred",
        tol=0,
        init="random",
    )
    return counter.result()


def l2o_multistart(
    f: Objective,
    bounds,
    budget: int,
    seed: int,
    population: int = 64,
    model: L2OOptimizer | str | None = None,
) -> OptimizeResult:
    """L2O-DM multistart: ``population`` LSTM-driven runs of ``budget // population`` steps each.

    ``model`` is a fitted :class:`L2OOptimizer` or the name of shipped weights (``"l2o-rastrigin-10"``).
    """
    if model is None:
        raise ValueError("l2o_multistart needs model=: a fitted L2OOptimizer or a name in PRETRAINED_L2O")
    if isinstance(model, str):
        model = L2OOptimizer.pretrained(model)
    if not isinstance(model, L2OOptimizer):
        raise TypeError(f"model must be an L2OOptimizer or a pretrained name, got {type(model).__name__}")
    return model.minimize(f, bounds, budget, seed, population)


def ngopt(
    f: Objective, bounds, budget: int, seed: int, num_workers: int = 16, start: str = "random"
) -> OptimizeResult:
    """nevergrad NGOpt (unmodified) on the box, ``num_workers`` candidates asked and told per batch.

    Like ``cma_es`` it starts from a uniform random point of the box; ``start="centre"`` gives NGOpt's
    own default (the centre, which on our shifted test classes lies within 2 of every optimum's
    coordinates, see ``benchmarks/flow_optimizer_start.py``). Stops at ``budget``.
    """
    import nevergrad as ng

    lower, upper = parse_bounds(bounds)
    if isinstance(num_workers, bool) or not isinstance(num_workers, int) or num_workers < 1:
        raise ValueError(f"num_workers must be a positive integer, got {num_workers!r}")
    if budget < num_workers:
        raise ValueError(f"budget ({budget}) must be at least num_workers ({num_workers})")
    x0 = _start(lower, upper, np.random.default_rng(seed), start)
    param = ng.p.Array(init=x0, lower=lower, upper=upper)
    param.random_state = np.random.RandomState(seed)
    opt = ng.optimizers.NGOpt(parametrization=param, budget=budget, num_workers=num_workers)
    counter = _Counter(f, budget)
    while counter.nfev + num_workers <= budget:
        try:
            asked = [opt.ask() for _ in range(num_workers)]
        except TypeError as exc:  # the meta-model branch under numpy >= 2.4 (module docstring)
            raise RuntimeError(
                f"NGOpt's choice at d = {lower.size}, budget {budget}, num_workers {num_workers} failed "
                f"inside nevergrad ({exc}); batches of 8-32 workers at d >= 10 select CMAbounded, which runs"
            ) from exc
        values = counter(np.stack([c.value for c in asked]))
        for cand, value in zip(asked, values):
            opt.tell(cand, float(value))
    return counter.result()


BASELINES: dict[str, Callable[..., OptimizeResult]] = {
    "cma": cma_es,
    "cma_ipop": cma_ipop,
    "adam": adam_multistart,
    "de": differential_evolution,
    "l2o": l2o_multistart,
    "ngopt": ngopt,
}
