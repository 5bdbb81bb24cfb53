"""The public estimator: ``FlowOptimizer(...).fit(problem_class).minimize(f, bounds, budget=...)``.

Hyperparameters go to ``__init__``; ``fit`` trains the velocity field (stage 1 then stage 2) and returns
``self``; learned state ends with an underscore (``model_``, ``log_``, ``run_``). ``minimize`` runs the
learned iteration on a new function with a budget of objective(+gradient) evaluations, ``population``
per iteration, and returns a ``scipy.optimize.OptimizeResult``. The same loop is open as ask/tell, in
the idiom of pycma and nevergrad, for any numpy objective::

    opt = FlowOptimizer.pretrained("rastrigin-10-gradfree").start(bounds, budget=3200, seed=0)
    while not opt.stop():
        X = opt.ask()
        opt.tell(X, f(X))
    res = opt.result()
"""

from __future__ import annotations

import hashlib
import json
import math
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import scipy.optimize
import torch

from icml26.common import check_int
from icml26.flow_optimizer.mixture import MixtureClass
from icml26.flow_optimizer.power_grid import DCOPFClass
from icml26.flow_optimizer.problems import ProblemClass
from icml26.flow_optimizer.robotics import IKClass
from icml26.flow_optimizer.supply_chain import SupplyChainClass
from icml26.flow_optimizer.targets import SAMPLERS
from icml26.flow_optimizer.training import (
    STEP_WEIGHTS,
    TrainLog,
    stage1_displacement_matching,
    stage2_deep_unfolding,
)
from icml26.flow_optimizer.velocity import VelocityField, flow_step

Tensor = torch.Tensor
PRETRAINED = (
    "rastrigin-10",
    "rastrigin-10-stage1",
    "ackley-10",
    "ackley-10-stage1",
    "dcopf-case118",
    "dcopf-case118-stage1",
    "ik-10",
    "ik-10-stage1",
    "supply_chain-20",
    "supply_chain-20-stage1",
    # issue 16: the narrow-prior weights shipped before (the control), black-box (gradient-free)
    # weights, the binding-limit DC-OPF class and the stage-2 study's selected checkpoint
    "rastrigin-10-narrow",
    "rastrigin-10-narrow-stage1",
    "ackley-10-narrow",
    "ackley-10-narrow-stage1",
    "rastrigin-10-gradfree",
    "rastrigin-10-gradfree-stage1",
    "ackley-10-gradfree",
    "ackley-10-gradfree-stage1",
    "dcopf-case30",
    "dcopf-case30-stage1",
    "dcopf-case30-gradfree",
    "dcopf-case30-gradfree-stage1",
    "ik-10-gradfree",
    "ik-10-gradfree-stage1",
    "supply_chain-20-gradfree",
    "supply_chain-20-gradfree-stage1",
    "rastrigin-10-long",
    # issue 49: the broad mixture class (gradient-free), its stage-1 checkpoint
    "mixture-10-gradfree",
    "mixture-10-gradfree-stage1",
    "mixture-10-gradfree-s1",
    "mixture-10-gradfree-s1-stage1",
)


def config_hash(config: dict[str, Any]) -> str:
    """The first 16 hex digits of the SHA-256 of ``config`` as sorted JSON (tuples written as lists)."""
    return hashlib.sha256(json.dumps(config, sort_keys=True).encode()).hexdigest()[:16]


class OptimizeResult(scipy.optimize.OptimizeResult):
    """What :meth:`FlowOptimizer.minimize` and every baseline return: a ``scipy.optimize.OptimizeResult``.

    x: best point found ``(d,)``; fun: its value; nfev: evaluations used; nit: iterations (populations
    evaluated); success / message: whether the budget ran to its end with a finite best value, and why
    it stopped; history: ``(nfev, best f so far)`` after each iteration; n_nonfinite: how many
    evaluations returned NaN/inf (treated as worst); seconds: wall time.
    """

    def __init__(
        self,
        x: Any,
        fun: float,
        nfev: int,
        history: list[tuple[int, float]] | None = None,
        n_nonfinite: int = 0,
        seconds: float = 0.0,
        nit: int | None = None,
        message: str = "evaluation budget spent",
    ) -> None:
        history = [] if history is None else history
        super().__init__(
            x=x,
            fun=fun,
            nfev=nfev,
            nit=len(history) if nit is None else nit,
            success=bool(math.isfinite(fun)),
            message=message,
            history=history,
            n_nonfinite=n_nonfinite,
            seconds=seconds,
        )

    @classmethod
    def from_run(
        cls, best_x: Any, best_f: float, nfev: int, history: list[tuple[int, float]], n_bad: int, start: float
    ) -> OptimizeResult:
        """Close a run: fail if no evaluation was finite, warn how many were NaN/inf, time it from ``start``."""
        if best_x is None or not math.isfinite(best_f):
            raise ValueError(
                f"f returned no finite value on any of the {nfev} evaluated points (NaN/inf everywhere)"
            )
        message = "evaluation budget spent"
        if n_bad:
            message += f"; {n_bad} of {nfev} evaluations were NaN/inf and were ranked worst"
            warnings.warn(
                f"{n_bad} of {nfev} evaluations of f were NaN/inf and were ranked worst",
                RuntimeWarning,
                stacklevel=3,
            )
        return cls(
            np.asarray(best_x, dtype=np.float64),
            best_f,
            nfev,
            history,
            n_bad,
            time.perf_counter() - start,
            message=message,
        )


@contextmanager
def shipped_weights(name: str, accepted: Sequence[str], kind: str) -> Iterator[Path]:
    """The file ``weights/<name>.pt`` shipped in the package (made by ``python -m icml26.flow_optimizer.train``)."""
    if name not in accepted:
        raise ValueError(f"unknown pretrained {kind} {name!r}; accepted: {', '.join(accepted)}")
    with resources.as_file(resources.files("icml26.flow_optimizer") / "weights" / f"{name}.pt") as path:
        if not Path(path).is_file():
            raise ValueError(
                f"pretrained weights {name!r} are missing; run python -m icml26.flow_optimizer.train"
            )
        yield Path(path)


def parse_bounds(bounds: Any) -> tuple[np.ndarray, np.ndarray]:
    """Bounds as ``(lower, upper)`` arrays ``(d,)``; accepts scipy-style ``[(l, u), ...]`` or ``(lower, upper)``."""
    if isinstance(bounds, tuple) and len(bounds) == 2 and all(np.ndim(b) == 1 for b in bounds):
        lower, upper = (np.asarray(b, dtype=np.float64) for b in bounds)
    else:
        try:
            arr = np.asarray(bounds, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"bounds must be a sequence of (lower, upper) pairs, got {bounds!r}") from exc
        if arr.ndim != 2 or arr.shape[1] != 2:
            raise ValueError(
                f"bounds must be a non-empty sequence of (lower, upper) pairs (shape (d, 2)), got shape {arr.shape}"
            )
        lower, upper = arr[:, 0], arr[:, 1]
    if lower.shape != upper.shape or lower.size == 0:
        raise ValueError(
            f"bounds must be non-empty with matching lower/upper, got {lower.shape} and {upper.shape}"
        )
    if not (np.all(np.isfinite(lower)) and np.all(np.isfinite(upper))):
        raise ValueError("bounds must be finite (the field scales its steps by the box width)")
    if np.any(upper <= lower):
        raise ValueError(
            f"every bound needs lower < upper; violated at coordinates {np.where(upper <= lower)[0]}"
        )
    return lower, upper


def _check_problem(problem: Any) -> None:
    if not isinstance(problem, ProblemClass | MixtureClass | DCOPFClass | IKClass | SupplyChainClass):
        raise TypeError(
            "problem must be a ProblemClass, MixtureClass, DCOPFClass, IKClass or SupplyChainClass, "
            f"got {type(problem).__name__}"
        )


@dataclass
class _Run:
    """The state of one ask/tell run: the population ``(1, N, d)``, the box, the iteration ``k`` of ``K``."""

    X: Tensor
    lower: Tensor
    upper: Tensor
    K: int
    nonfinite: str
    zero_velocity: bool
    start: float
    k: int = 0
    best_f: float = math.inf
    best_x: np.ndarray | None = None
    n_bad: int = 0
    history: list[tuple[int, float]] = field(default_factory=list)


def _as_array(name: str, value: Any, shape: tuple[int, ...]) -> np.ndarray:
    """``value`` as a float64 array of ``shape`` (a torch tensor is detached), or a clear error."""
    if isinstance(value, Tensor):
        value = value.detach().cpu().numpy()
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(
            f"{name} must be a numeric array of shape {shape}, got {type(value).__name__}"
        ) from exc
    if arr.shape != shape:
        raise ValueError(f"{name} must have shape {shape} (the asked population), got {arr.shape}")
    return arr


def _replace_nonfinite(fx: Tensor, g: Tensor | None, nonfinite: str) -> tuple[Tensor, Tensor | None, int]:
    """NaN/inf values: raise (``"raise"``) or replace by the worst finite value + 1 (``"penalize"``)."""
    bad = ~torch.isfinite(fx)
    n_bad = int(bad.sum())
    if n_bad:
        if nonfinite == "raise":
            raise ValueError(f"f returned {n_bad} non-finite values (NaN/inf) out of {fx.numel()}")
        worst = fx[~bad].max() + 1.0 if n_bad < fx.numel() else torch.tensor(0.0, dtype=fx.dtype)
        fx = torch.where(bad, worst, fx)
        if g is not None:
            g = torch.where(bad[:, None], torch.zeros_like(g), g)
    return fx, g, n_bad


class FlowOptimizer:
    """A learned population optimizer: a velocity field over candidate solutions, unfolded as an iteration.

    Parameters: ``hidden`` width of the field; ``population`` members per iteration (default of ``minimize``);
    ``steps`` unrolled iterations in stage 2; ``sampler`` stage-1 target sampler (``best``, ``boltzmann``,
    ``global``, ``mixed``); ``n_candidates`` samples per member for the targets; ``use_gradients`` whether
    the field sees ``∇f`` (then ``f`` passed to ``minimize`` must be differentiable in torch);
    ``device`` where the field runs.
    """

    def __init__(
        self,
        hidden: int = 64,
        population: int = 64,
        steps: int = 50,
        sampler: str = "mixed",
        n_candidates: int = 32,
        use_gradients: bool = True,
        device: str = "cpu",
    ) -> None:
        self.hidden = check_int("hidden", hidden, 4)
        self.population = check_int("population", population, 2)
        self.steps = check_int("steps", steps, 2)
        if sampler not in SAMPLERS:
            raise ValueError(f"unknown sampler {sampler!r}; accepted: {', '.join(SAMPLERS)}")
        self.sampler = sampler
        self.n_candidates = check_int("n_candidates", n_candidates)
        if not isinstance(use_gradients, bool):
            raise TypeError(f"use_gradients must be a bool, got {use_gradients!r}")
        self.use_gradients = use_gradients
        self.device = str(torch.device(device))
        self.model_: VelocityField | None = None
        self.log_ = TrainLog()
        self.trained_on_: str | None = None
        self.config_hash_: str | None = None
        self.run_: _Run | None = None

    # ---------------------------------------------------------------- training
    def _ensure_model(self) -> VelocityField:
        if self.model_ is None:
            self.model_ = VelocityField(self.hidden).to(self.device)
        return self.model_

    def fit_stage1(
        self,
        problem: ProblemClass | DCOPFClass | IKClass | SupplyChainClass,
        iterations: int = 1000,
        seed: int = 0,
        batch: int = 12,
        lr: float = 1e-3,
    ) -> FlowOptimizer:
        """Stage 1: simulation-free displacement matching on random instances of ``problem``."""
        _check_problem(problem)
        gen = torch.Generator().manual_seed(check_int("seed", seed, 0))
        torch.manual_seed(seed)
        stage1_displacement_matching(
            self._ensure_model(),
            problem,
            check_int("iterations", iterations, 0),
            gen,
            batch=batch,
            population=self.population,
            sampler=self.sampler,
            n_candidates=self.n_candidates,
            lr=lr,
            rollout_steps=self.steps,
            use_gradients=self.use_gradients,
            log=self.log_,
            device=self.device,
        )
        self.trained_on_ = f"{problem.name}-{problem.dim}"
        return self

    def fit_stage2(
        self,
        problem: ProblemClass | DCOPFClass | IKClass | SupplyChainClass,
        iterations: int = 100,
        seed: int = 0,
        batch: int = 8,
        lr: float = 3e-4,
        mean_weight: float = 1.0,
        detach_context: bool = False,
        step_weights: str = "linear",
    ) -> FlowOptimizer:
        """Stage 2: deep unfolding of ``steps`` iterations, fine-tuned on objective values of ``problem``.

        ``mean_weight`` is lambda of Eq. (stage 2), the weight of the population-mean term beside the best;
        ``detach_context`` backpropagates only along the residual path (see :func:`flow_step`);
        ``step_weights`` weighs the unrolled steps, ``"linear"`` (w_k ∝ k) or ``"final"`` (last step only).
        """
        if not (isinstance(mean_weight, int | float) and math.isfinite(mean_weight) and mean_weight >= 0):
            raise ValueError(f"mean_weight must be a finite number >= 0, got {mean_weight!r}")
        if step_weights not in STEP_WEIGHTS:
            raise ValueError(f"step_weights must be one of {STEP_WEIGHTS}, got {step_weights!r}")
        _check_problem(problem)
        gen = torch.Generator().manual_seed(check_int("seed", seed, 0) + 1)
        torch.manual_seed(seed + 1)
        stage2_deep_unfolding(
            self._ensure_model(),
            problem,
            check_int("iterations", iterations, 0),
            gen,
            batch=batch,
            population=self.population,
            steps=self.steps,
            lr=lr,
            use_gradients=self.use_gradients,
            log=self.log_,
            device=self.device,
            mean_weight=float(mean_weight),
            detach_context=bool(detach_context),
            step_weights=step_weights,
        )
        self.trained_on_ = f"{problem.name}-{problem.dim}"
        return self

    def fit(
        self,
        problem: ProblemClass | DCOPFClass | IKClass | SupplyChainClass,
        stage1_iterations: int = 1000,
        stage2_iterations: int = 100,
        seed: int = 0,
    ) -> FlowOptimizer:
        """Both stages in order; returns ``self``."""
        return self.fit_stage1(problem, stage1_iterations, seed).fit_stage2(problem, stage2_iterations, seed)

    # ---------------------------------------------------------------- inference
    def minimize(
        self,
        f: Callable[[Tensor], Tensor],
        bounds: Any,
        budget: int = 3200,
        seed: int = 0,
        population: int | None = None,
        nonfinite: str = "penalize",
        zero_velocity: bool = False,
    ) -> OptimizeResult:
        """Minimise ``f`` over the box with at most ``budget`` evaluations (``population`` per iteration).

        ``f`` maps a torch tensor ``(N, d)`` to ``(N,)``; with ``use_gradients`` it must be differentiable
        (its gradient is taken by autograd, one gradient per evaluation). NaN/inf values are replaced by
        the worst finite value of that iteration plus one (``nonfinite="penalize"``, with a warning) or
        raise ``ValueError`` (``"raise"``). ``zero_velocity=True`` runs ``v ≡ 0`` (a check: returns ``X0``).
        The loop is :meth:`start` / :meth:`ask` / :meth:`tell`, so an ask/tell loop with the same seed
        reproduces it exactly.
        """
        if not callable(f):
            raise TypeError(f"f must be callable, got {type(f).__name__}")
        self.start(bounds, budget, seed, population, nonfinite, zero_velocity)
        run = self.run_
        assert run is not None
        while not self.stop():
            fx, gx, bad, exact = self._evaluate(f, run.X[0], nonfinite)
            self._advance(fx, gx, bad, exact)
        return self.result()

    def start(
        self,
        bounds: Any,
        budget: int = 3200,
        seed: int = 0,
        population: int | None = None,
        nonfinite: str = "raise",
        zero_velocity: bool = False,
    ) -> FlowOptimizer:
        """Begin an ask/tell run on the box (as pycma's ``CMAEvolutionStrategy``); returns ``self``.

        The first population is ``population`` points uniform in the box (mean: the box centre, spread:
        width / sqrt(12) per coordinate). ``nonfinite`` is what :meth:`tell` does with NaN/inf values:
        ``"raise"`` (default) or ``"penalize"`` (ranked worst, with a warning at the end).
        """
        if self.model_ is None and not zero_velocity:
            raise ValueError("FlowOptimizer is not fitted: call fit(...) or load a pretrained model first")
        if nonfinite not in ("penalize", "raise"):
            raise ValueError(f"nonfinite must be 'penalize' or 'raise', got {nonfinite!r}")
        if not isinstance(zero_velocity, bool):
            raise TypeError(f"zero_velocity must be a bool, got {zero_velocity!r}")
        lower_np, upper_np = parse_bounds(bounds)
        N = check_int("population", population if population is not None else self.population, 2)
        budget = check_int("budget", budget)
        if budget < N:
            raise ValueError(f"budget ({budget}) must be at least the population size ({N})")
        seed = check_int("seed", seed, 0)
        dtype = torch.float32
        lower = torch.as_tensor(lower_np, dtype=dtype, device=self.device)
        upper = torch.as_tensor(upper_np, dtype=dtype, device=self.device)
        gen = torch.Generator().manual_seed(seed)
        X = lower + (upper - lower) * torch.rand(N, lower_np.size, generator=gen, dtype=dtype).to(self.device)
        self.run_ = _Run(X[None], lower, upper, budget // N, nonfinite, zero_velocity, time.perf_counter())
        return self

    def _active_run(self) -> _Run:
        if self.run_ is None:
            raise ValueError("no ask/tell run: call start(bounds, budget, seed) first")
        return self.run_

    def stop(self) -> bool:
        """Whether the run's budget is spent (every one of its ``budget // population`` iterations told)."""
        run = self._active_run()
        return run.k >= run.K

    def ask(self) -> np.ndarray:
        """The population to evaluate next, ``(N, d)`` float64 (the same array until :meth:`tell`)."""
        run = self._active_run()
        if self.stop():
            raise ValueError(f"the budget of {run.K * run.X.shape[1]} evaluations is spent; call result()")
        return run.X[0].detach().cpu().numpy().astype(np.float64)

    def tell(self, X: Any, values: Any, gradients: Any = None) -> FlowOptimizer:
        """Report ``values`` ``(N,)`` of ``f`` at the population ``X`` ``(N, d)`` from :meth:`ask`; take one step.

        ``X`` must be the asked population (the field's step is from there). Weights with
        ``use_gradients=True`` also need ``gradients`` ``(N, d)``, the gradient of ``f`` at each row;
        gradient-free weights take none. NaN/inf values raise ``ValueError`` unless the run was started
        with ``nonfinite="penalize"``.
        """
        run = self._active_run()
        if self.stop():
            raise ValueError(f"the budget of {run.K * run.X.shape[1]} evaluations is spent; call result()")
        N, d = run.X.shape[1:]
        asked = run.X[0].detach().cpu().numpy().astype(np.float64)
        Xa = _as_array("X", X, (N, d))
        if not np.array_equal(Xa, asked):
            raise ValueError("X must be the population returned by ask() (unchanged, in the same order)")
        fa = _as_array("values", values, (N,))
        g = None
        if self.use_gradients:
            if gradients is None:
                raise ValueError(
                    "these weights condition on gradients: tell(X, values, gradients) needs gradients of "
                    "shape (N, d); for objectives without gradients use gradient-free weights "
                    "(e.g. FlowOptimizer.pretrained('rastrigin-10-gradfree'))"
                )
            ga = _as_array("gradients", gradients, (N, d))
            g = torch.as_tensor(np.nan_to_num(ga, nan=0.0, posinf=0.0, neginf=0.0), dtype=run.X.dtype)
            g = g.to(self.device)
        elif gradients is not None:
            raise ValueError("these weights are gradient-free (use_gradients=False): pass no gradients")
        fx = torch.as_tensor(fa, dtype=run.X.dtype, device=self.device)
        fx, g, bad = _replace_nonfinite(fx, g, run.nonfinite)
        return self._advance(fx, g, bad, fa)

    def _advance(
        self, fx: Tensor, gx: Tensor | None, bad: int, exact: np.ndarray | None = None
    ) -> FlowOptimizer:
        """Record iteration ``k``'s values and, unless it was the last, move the population one step.

        ``fx``: the values in the field's dtype (what the step sees); ``exact``: the same values as ``f``
        returned them, in float64, which the best value so far records (``result().fun``)."""
        run = self._active_run()
        N = run.X.shape[1]
        run.n_bad += bad
        values = fx.detach().double().cpu().numpy() if exact is None else np.asarray(exact, np.float64)
        values = np.where(np.isfinite(values), values, np.inf)
        i = int(np.argmin(values))
        if values[i] < run.best_f and bad < N:
            run.best_f, run.best_x = float(values[i]), run.X[0, i].detach().cpu().numpy().astype(np.float64)
        run.history.append(((run.k + 1) * N, run.best_f))
        if run.k < run.K - 1 and not run.zero_velocity:
            t = torch.full((1,), run.k / max(run.K - 1, 1), dtype=run.X.dtype, device=self.device)
            with torch.no_grad():
                run.X = flow_step(
                    self.model_, run.X, fx[None], None if gx is None else gx[None], t, run.lower, run.upper
                )
        run.k += 1
        return self

    def result(self) -> OptimizeResult:
        """The run's best point so far as an :class:`OptimizeResult` (``ValueError`` if nothing was finite)."""
        run = self._active_run()
        N = run.X.shape[1]
        return OptimizeResult.from_run(run.best_x, run.best_f, run.k * N, run.history, run.n_bad, run.start)

    def _evaluate(
        self, f: Callable[[Tensor], Tensor], X: Tensor, nonfinite: str
    ) -> tuple[Tensor, Tensor | None, int, np.ndarray]:
        """``f(X)`` ``(N,)`` in ``X``'s dtype, its gradient ``(N, d)`` (or None), the number of non-finite
        values and ``f(X)`` in float64 as ``f`` returned it."""
        N, d = X.shape
        Xg = X.detach().clone().requires_grad_(self.use_gradients)
        with torch.enable_grad():
            out = f(Xg)
        if not isinstance(out, Tensor):
            raise TypeError(f"f must return a torch tensor of shape ({N},), got {type(out).__name__}")
        if out.shape != (N,):
            raise ValueError(
                f"f must map a population (N={N}, d={d}) to values of shape ({N},), got {tuple(out.shape)}"
            )
        g = None
        if self.use_gradients:
            if not out.requires_grad:
                raise ValueError(
                    "this model conditions on gradients, so f must be differentiable in torch (its output "
                    "does not depend on the input through autograd); use a model fitted with use_gradients=False"
                )
            (g,) = torch.autograd.grad(out.sum(), Xg, allow_unused=True)
            g = (
                torch.zeros_like(X)
                if g is None
                else torch.nan_to_num(g.detach(), nan=0.0, posinf=0.0, neginf=0.0)
            )
        exact = out.detach().double().cpu().numpy()
        return (*_replace_nonfinite(out.detach().to(X.dtype), g, nonfinite), exact)

    # ---------------------------------------------------------------- persistence
    def get_params(self) -> dict[str, Any]:
        return {
            "hidden": self.hidden,
            "population": self.population,
            "steps": self.steps,
            "sampler": self.sampler,
            "n_candidates": self.n_candidates,
            "use_gradients": self.use_gradients,
        }

    def save(self, path: str | Path, config: dict[str, Any] | None = None) -> None:
        """Save hyperparameters, weights and the training log (``torch.save``; float32 weights).

        ``config``: the training config, stored with its :func:`config_hash` (checked at load)."""
        if self.model_ is None:
            raise ValueError("nothing to save: the FlowOptimizer is not fitted")
        state = {k: v.detach().cpu() for k, v in self.model_.state_dict().items()}
        log = {
            "stage1_seconds": self.log_.stage1_seconds,
            "stage2_seconds": self.log_.stage2_seconds,
            "stage1_iterations": len(self.log_.stage1_loss),
            "stage2_iterations": len(self.log_.stage2_loss),
        }
        blob = {"params": self.get_params(), "state": state, "log": log, "trained_on": self.trained_on_}
        if config is not None:
            blob["config"] = json.loads(json.dumps(config))
            blob["config_hash"] = config_hash(config)
        torch.save(blob, path)

    @classmethod
    def load(cls, path: str | Path, device: str = "cpu") -> FlowOptimizer:
        """Load a model written by :meth:`save`."""
        path = Path(path)
        if not path.is_file():
            raise ValueError(f"no saved FlowOptimizer at {str(path)!r}")
        blob = torch.load(path, map_location="cpu", weights_only=True)
        if "config_hash" in blob and config_hash(blob["config"]) != blob["config_hash"]:
            raise ValueError(f"weights {str(path)!r}: the stored training config does not match its hash")
        opt = cls(**blob["params"], device=device)
        opt.model_ = VelocityField(opt.hidden)
        opt.model_.load_state_dict(blob["state"])
        opt.model_.to(opt.device).eval()
        opt.log_ = TrainLog(
            stage1_seconds=blob["log"]["stage1_seconds"], stage2_seconds=blob["log"]["stage2_seconds"]
        )
        opt.log_.stage1_loss = [math.nan] * blob["log"]["stage1_iterations"]
        opt.log_.stage2_loss = [math.nan] * blob["log"]["stage2_iterations"]
        opt.trained_on_ = blob["trained_on"]
        opt.config_hash_ = blob.get("config_hash")
        return opt

    @classmethod
    def pretrained(cls, name: str, device: str = "cpu") -> FlowOptimizer:
        """Shipped weights made by ``python -m icml26.flow_optimizer.train``; ``name`` in :data:`PRETRAINED`."""
        from icml26.flow_optimizer.train import HASHED, TRAIN_CONFIG  # train imports this module

        with shipped_weights(name, PRETRAINED, "model") as path:
            opt = cls.load(path, device=device)
        base = name.removesuffix("-stage1")
        if base in HASHED and opt.config_hash_ != (want := config_hash(TRAIN_CONFIG[base])):
            raise ValueError(
                f"pretrained weights {name!r} were trained with another config (hash {opt.config_hash_}, "
                f"TRAIN_CONFIG[{base!r}] hashes to {want}); run python -m icml26.flow_optimizer.train --only {base}"
            )
        return opt
