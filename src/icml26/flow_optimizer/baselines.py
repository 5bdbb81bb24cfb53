"""Baselines at an equal evaluation budget, each returning the best point and a best-so-far history.

* ``cma_es``: pycma with its default population ``4 + 3 ln d``: from a uniform random point with
  ``sigma0 = 0.3 * width``, or (``start="centre"``) from FlowOptimizer's start information, the mean and
  spread of its first population (``x0`` = box centre, ``sigma0 = width / sqrt(12)``);
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
import time
from collections.abc import Callable
from functools import partial

import numpy as np
import torch

from icml26.flow_optimizer.l2o import L2OOptimizer
from icml26.flow_optimizer.optimizer import OptimizeResult, parse_bounds

Tensor = torch.Tensor
Objective = Callable[[Tensor], Tensor]


def _check_values(out: object, n: int, d: int) -> Tensor:
    """``f``'s output must be a torch tensor of shape ``(n,)``: the same error as FlowOptimizer's."""
    if not isinstance(out, Tensor):
        raise TypeError(f"f must return a torch tensor of shape ({n},), got {type(out).__name__}")
    if out.shape != (n,):
        raise ValueError(
            f"f must map a population (N={n}, d={d}) to values of shape ({n},), got {tuple(out.shape)}"
        )
    return out


class _Counter:
    """Wraps a torch objective for numpy callers; counts evaluations and keeps the best-so-far history.

    NaN/inf values are passed on as +inf (ranked worst) and counted; :meth:`result` raises the same
    ``ValueError`` as :meth:`FlowOptimizer.minimize` when no evaluation was finite, and warns otherwise.
    """

    def __init__(self, f: Objective, budget: int) -> None:
        if not callable(f):
            raise TypeError(f"f must be callable, got {type(f).__name__}")
        self.f, self.budget, self.nfev, self.n_bad = f, budget, 0, 0
        self.best_f, self.best_x = math.inf, None
        self.history: list[tuple[int, float]] = []
        self.start = time.perf_counter()

    def __call__(self, X: np.ndarray) -> np.ndarray:
        X = np.atleast_2d(np.asarray(X, dtype=np.float64))
        with torch.no_grad():
            out = _check_values(self.f(torch.as_tensor(X, dtype=torch.float32)), *X.shape)
        fx = out.double().cpu().numpy()
        finite = np.isfinite(fx)
        self.n_bad += int((~finite).sum())
        fx = np.where(finite, fx, np.inf)
        self.nfev += len(X)
        i = int(np.argmin(fx))
        if fx[i] < self.best_f:
            self.best_f, self.best_x = float(fx[i]), X[i].copy()
        self.history.append((self.nfev, self.best_f))
        return fx

    def result(self) -> OptimizeResult:
        return OptimizeResult.from_run(
            self.best_x, self.best_f, self.nfev, self.history, self.n_bad, self.start
        )


STARTS = ("random", "centre")
UNIFORM_SPREAD = 1 / math.sqrt(12)  # std of U[l, u] over its width: FlowOptimizer's first population


def _start(
    lower: np.ndarray, upper: np.ndarray, rng: np.random.Generator, start: str = "random"
) -> np.ndarray:
    """The first mean: a uniform random point of the box (every baseline's default) or its centre."""
    if start not in STARTS:
        raise ValueError(f"start must be one of {STARTS}, got {start!r}")
    if start == "centre":
        return (lower + upper) / 2
    return lower + (upper - lower) * rng.random(lower.size)


def _check_budget(budget: object, minimum: int = 1) -> int:
    if isinstance(budget, bool) or not isinstance(budget, int | np.integer) or budget < minimum:
        raise ValueError(f"budget must be an integer >= {minimum}, got {budget!r}")
    return int(budget)


def cma_es(
    f: Objective, bounds, budget: int, seed: int, popsize: int | None = None, start: str = "random"
) -> OptimizeResult:
    """pycma; stops at ``budget`` evaluations.

    ``start="random"``: ``x0`` a uniform random point, ``sigma0 = 0.3 * width``. ``start="centre"``:
    the information FlowOptimizer starts with, its first population's mean and spread: ``x0`` the box
    centre, ``sigma0 = width / sqrt(12)`` (the std of a uniform population in the box).
    """
    return _cma_restarts(f, bounds, budget, seed, popsize, restarts=False, start=start)


def cma_ipop(f: Objective, bounds, budget: int, seed: int, start: str = "random") -> OptimizeResult:
    """IPOP-CMA-ES: restart from a new random point with a doubled population until the budget is spent.

    ``start`` sets the first run's start as in :func:`cma_es`; restarts are always random.
    """
    return _cma_restarts(f, bounds, budget, seed, None, restarts=True, start=start)


def _cma_restarts(
    f: Objective, bounds, budget: int, seed: int, popsize: int | None, restarts: bool, start: str = "random"
) -> OptimizeResult:
    import cma

    lower, upper = parse_bounds(bounds)
    if start not in STARTS:
        raise ValueError(f"start must be one of {STARTS}, got {start!r}")
    rng = np.random.default_rng(seed)
    counter = _Counter(f, _check_budget(budget))
    d = lower.size
    lam = popsize or 4 + int(3 * math.log(d))
    if lam > budget:
        raise ValueError(f"budget ({budget}) must be at least the CMA-ES population ({lam})")
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
        where = start if run == 0 else "random"
        x0 = _start(lower, upper, rng, where)
        spread = UNIFORM_SPREAD if where == "centre" else 0.3
        es = cma.CMAEvolutionStrategy(x0, spread * float(np.mean(upper - lower)), opts)
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
    if not callable(f):
        raise TypeError(f"f must be callable, got {type(f).__name__}")
    lower_np, upper_np = parse_bounds(bounds)
    if isinstance(population, bool) or not isinstance(population, int) or population < 1:
        raise ValueError(f"population must be a positive integer, got {population!r}")
    budget = _check_budget(budget, population)
    lower = torch.as_tensor(lower_np, dtype=torch.float32)
    upper = torch.as_tensor(upper_np, dtype=torch.float32)
    gen = torch.Generator().manual_seed(seed)
    X = (lower + (upper - lower) * torch.rand(population, lower.numel(), generator=gen)).requires_grad_(True)
    opt = torch.optim.Adam([X], lr=lr if lr is not None else 0.05 * float((upper - lower).mean()))
    best_f, best_x, history, n_bad = math.inf, None, [], 0
    start = time.perf_counter()
    K = budget // population
    for k in range(K):
        fx = _check_values(f(X), population, lower.numel())
        if not fx.requires_grad:
            raise ValueError("Adam multistart needs gradients: f must be differentiable in torch")
        finite = torch.isfinite(fx.detach())
        n_bad += int((~finite).sum())
        vals = torch.where(finite, fx.detach(), math.inf)
        i = int(torch.argmin(vals))
        if float(vals[i]) < best_f:
            best_f, best_x = float(vals[i]), X[i].detach().double().numpy().copy()
        history.append(((k + 1) * population, best_f))
        opt.zero_grad()
        torch.where(finite, fx, 0.0).sum().backward()
        with torch.no_grad():
            X.grad.nan_to_num_(nan=0.0, posinf=0.0, neginf=0.0)
        opt.step()
        with torch.no_grad():
            X.copy_(torch.minimum(torch.maximum(X, lower), upper))
    return OptimizeResult.from_run(best_x, best_f, K * population, history, n_bad, start)


def differential_evolution(
    f: Objective, bounds, budget: int, seed: int, population: int = 64
) -> OptimizeResult:
    """scipy DE (best1bin) with about ``population`` members, vectorised, capped at ``budget`` evaluations."""
    from scipy.optimize import differential_evolution as de

    lower, upper = parse_bounds(bounds)
    d = lower.size
    popsize = max(1, round(population / d))
    members = max(5, popsize * d)
    counter = _Counter(f, _check_budget(budget, members))
    maxiter = max(0, budget // members - 1)
    try:
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
    except (RuntimeError, TypeError) as exc:  # scipy wraps errors of a vectorised f; raise our own
        cause: BaseException | None = exc
        while cause is not None and not str(cause).startswith("f "):
            cause = cause.__cause__ or cause.__context__
        if isinstance(cause, ValueError | TypeError):
            raise cause from None
        raise
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

    ``start="random"`` starts from a uniform random point of the box; ``start="centre"`` is NGOpt's own
    default, the box centre, which is the mean of FlowOptimizer's first population (the information the
    learned optimizer starts with). Stops at ``budget``.
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
    "cma_centre": partial(cma_es, start="centre"),
    "cma_ipop": cma_ipop,
    "cma_ipop_centre": partial(cma_ipop, start="centre"),
    "adam": adam_multistart,
    "de": differential_evolution,
    "l2o": l2o_multistart,
    "ngopt": ngopt,
    "ngopt_centre": partial(ngopt, start="centre"),
}
"""Baselines by name; ``*_centre`` start where FlowOptimizer's first population does (mean = box
centre, CMA-ES ``sigma0`` = its spread width / sqrt(12)); the others from a uniform random point."""
