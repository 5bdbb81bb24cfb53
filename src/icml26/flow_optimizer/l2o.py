"""Learning-to-optimize baseline: the coordinatewise LSTM optimizer of L2O-DM.

Andrychowicz et al. (2016), "Learning to learn by gradient descent by gradient descent", NeurIPS.
The optimizer ``m`` is a two-layer LSTM applied to each coordinate separately with shared weights
(Sec. 2.1, Fig. 3), so the same weights run at any ``d`` (here: trained at d=10, run at d=100):

    x_{t+1} = Pi_box(x_t + g_t),   [g_t, h_{t+1}] = m(pre(∇f(x_t)), h_t; phi),             (Eq. 1)

with the gradient preprocessing of their Appendix A (``p = 10``)

    pre(∇) = (log|∇| / p, sign ∇)   if |∇| >= e^{-p},   (-1, e^p ∇)   otherwise.

It is trained on the objective values along unrolled trajectories (Sec. 2, Eq. 2, all ``w_t = 1``)

    L(phi) = E_f [ sum_{t=1..T} f(x_t) ],

by truncated backpropagation through time (Sec. 3: Adam, truncations of a few tens of steps, the
optimizer state carried over between truncations), with ``∇f`` fed as an input and its dependence on
``phi`` dropped (the paper's "no second derivatives" assumption, Sec. 2.1).

Our adaptations for box-constrained problem classes, stated once: the iterate is projected on the box
(as in Adam multistart), the output is scaled by ``out_scale`` times the box width per coordinate
(the paper scales it by 0.1 on unbounded problems; ``out_scale = 0.01`` is that 0.1 on the Rastrigin
box, and 0.1 of the width made meta-training diverge there), and the meta-gradient is clipped to norm 1.
At evaluation the optimizer runs as a multistart: ``population`` independent starts, each step of a
start costs one ``f`` + ``∇f`` evaluation, ``budget // population`` steps.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch
from torch import nn

from icml26.common import check_int, progress
from icml26.flow_optimizer.optimizer import OptimizeResult, parse_bounds, shipped_weights

Tensor = torch.Tensor
PRETRAINED_L2O = ("l2o-rastrigin-10", "l2o-ackley-10")


def preprocess_gradient(g: Tensor, p: float = 10.0) -> Tensor:
    """Appendix A of Andrychowicz et al. (2016): ``(..., )`` gradients to ``(..., 2)`` inputs."""
    big = g.abs() >= math.exp(-p)
    first = torch.where(big, torch.log(g.abs().clamp_min(math.exp(-p))) / p, torch.full_like(g, -1.0))
    second = torch.where(big, torch.sign(g), math.exp(p) * g)
    return torch.stack([first, second], -1)


class CoordinatewiseLSTM(nn.Module):
    """``m(pre(∇), h; phi)``: two LSTM layers shared over coordinates and a linear read-out (Sec. 2.1)."""

    def __init__(self, hidden: int = 20, preprocess_p: float = 10.0) -> None:
        super().__init__()
        self.hidden = hidden
        self.preprocess_p = preprocess_p
        self.lstm = nn.LSTM(input_size=2, hidden_size=hidden, num_layers=2)
        self.head = nn.Linear(hidden, 1)

    def initial_state(self, m: int, device: torch.device | str = "cpu") -> tuple[Tensor, Tensor]:
        """Zero state for ``m`` coordinates: ``(h, c)`` each ``(2, m, hidden)``."""
        z = torch.zeros(2, m, self.hidden, device=device)
        return z, z.clone()

    def forward(self, g: Tensor, state: tuple[Tensor, Tensor]) -> tuple[Tensor, tuple[Tensor, Tensor]]:
        """One step for ``m`` coordinates: gradients ``(m,)`` to raw updates ``(m,)`` and the new state."""
        out, state = self.lstm(preprocess_gradient(g, self.preprocess_p)[None], state)
        return self.head(out[0])[:, 0], state


def unrolled_loss(
    model: CoordinatewiseLSTM,
    objective: Callable[[Tensor], Tensor],
    X: Tensor,
    state: tuple[Tensor, Tensor],
    steps: int,
    lower: Tensor,
    upper: Tensor,
    scale: Tensor,
) -> tuple[Tensor, Tensor, tuple[Tensor, Tensor]]:
    """One truncation of Eq. 2: ``sum_{t=1..steps} mean f(x_t)`` from ``X`` ``(B, S, d)``, the last iterate and state.

    ``objective`` maps ``(B, S, d)`` to ``(B, S)``; ``state`` is for ``B S d`` coordinates; ``scale`` ``(d,)``
    multiplies the LSTM output. The gradient input is detached (no second derivatives, Sec. 2.1).
    """
    loss = torch.zeros((), dtype=X.dtype)
    for _ in range(steps):
        Xg = X.detach().requires_grad_(True)
        with torch.enable_grad():
            (g,) = torch.autograd.grad(objective(Xg).sum(), Xg)
        g = torch.nan_to_num(g, nan=0.0, posinf=0.0, neginf=0.0)
        step, state = model(g.reshape(-1), state)
        X = torch.minimum(torch.maximum(X + scale * step.reshape(X.shape), lower), upper)
        loss = loss + objective(X).mean()  # f(x_t) keeps its graph to phi through the updates
    return loss, X, state


class L2OOptimizer:
    """The L2O-DM coordinatewise LSTM optimizer, fitted on a problem class, run as a multistart.

    Parameters: ``hidden`` LSTM width (20 in the paper); ``out_scale`` update scale in box widths;
    ``horizon`` optimizee steps per training trajectory ``T``; ``unroll`` steps per truncation.
    Learned state: ``model_``, ``log_`` (``loss``, ``seconds``, ``iterations``).
    """

    def __init__(
        self, hidden: int = 20, out_scale: float = 0.01, horizon: int = 50, unroll: int = 25
    ) -> None:
        self.hidden = check_int("hidden", hidden, 1)
        if not (isinstance(out_scale, int | float) and math.isfinite(out_scale) and out_scale > 0):
            raise ValueError(f"out_scale must be a finite number > 0, got {out_scale!r}")
        self.out_scale = float(out_scale)
        self.horizon = check_int("horizon", horizon, 1)
        self.unroll = check_int("unroll", unroll, 1)
        self.model_: CoordinatewiseLSTM | None = None
        self.log_: dict[str, Any] = {"loss": [], "seconds": 0.0, "iterations": 0}
        self.trained_on_: str | None = None

    def get_params(self) -> dict[str, Any]:
        return {
            "hidden": self.hidden,
            "out_scale": self.out_scale,
            "horizon": self.horizon,
            "unroll": self.unroll,
        }

    # ---------------------------------------------------------------- training
    def fit(
        self,
        problem: Any,
        iterations: int = 500,
        seed: int = 0,
        batch: int = 8,
        starts: int = 16,
        lr: float = 1e-3,
    ) -> L2OOptimizer:
        """Meta-train on random instances of ``problem`` (Eq. 2 by truncated BPTT); returns ``self``.

        Each iteration draws ``batch`` instances with ``starts`` uniform starts each and runs ``horizon``
        steps, taking an Adam step on ``phi`` after every ``unroll`` steps. ``problem`` is any class of
        this package with ``sample``, ``lower``, ``upper`` (e.g. :class:`ProblemClass`).
        """
        if not all(hasattr(problem, a) for a in ("sample", "lower", "upper")):
            raise TypeError(
                f"problem must be a problem class with sample/lower/upper, got {type(problem).__name__}"
            )
        iterations = check_int("iterations", iterations, 0)
        batch, starts = check_int("batch", batch), check_int("starts", starts)
        if not (isinstance(lr, int | float) and math.isfinite(lr) and lr > 0):
            raise ValueError(f"lr must be a finite number > 0, got {lr!r}")
        gen = torch.Generator().manual_seed(check_int("seed", seed, 0))
        torch.manual_seed(seed)
        if self.model_ is None:
            self.model_ = CoordinatewiseLSTM(self.hidden)
        model = self.model_.train()
        lower = torch.as_tensor(problem.lower, dtype=torch.float32)
        upper = torch.as_tensor(problem.upper, dtype=torch.float32)
        scale = self.out_scale * (upper - lower)
        opt = torch.optim.Adam(model.parameters(), lr=lr)
        start = time.perf_counter()
        for _ in progress(range(iterations), "L2O-DM meta-training"):
            inst = problem.sample(batch, gen)
            d = lower.numel()
            X = lower + (upper - lower) * torch.rand(batch, starts, d, generator=gen)
            state = model.initial_state(batch * starts * d)
            total = 0.0
            for t0 in range(0, self.horizon, self.unroll):
                loss, X, state = unrolled_loss(
                    model, inst, X, state, min(self.unroll, self.horizon - t0), lower, upper, scale
                )
                opt.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                opt.step()
                total += float(loss.detach())
                X, state = X.detach(), (state[0].detach(), state[1].detach())
            self.log_["loss"].append(total / self.horizon)
        model.eval()
        self.log_["seconds"] += time.perf_counter() - start
        self.log_["iterations"] += iterations
        self.trained_on_ = f"{getattr(problem, 'name', type(problem).__name__)}-{len(lower)}"
        return self

    # ---------------------------------------------------------------- inference
    def minimize(
        self,
        f: Callable[[Tensor], Tensor],
        bounds: Any,
        budget: int = 3200,
        seed: int = 0,
        population: int = 64,
    ) -> OptimizeResult:
        """Multistart: ``population`` starts of ``budget // population`` L2O steps; at most ``budget`` evaluations.

        ``f`` maps ``(N, d)`` torch tensors to ``(N,)`` and must be differentiable (one value and one
        gradient per evaluation). NaN/inf values are ranked worst (with a ``RuntimeWarning``).
        """
        if self.model_ is None:
            raise ValueError("L2OOptimizer is not fitted: call fit(...) or load a pretrained model first")
        if not callable(f):
            raise TypeError(f"f must be callable, got {type(f).__name__}")
        lower_np, upper_np = parse_bounds(bounds)
        N = check_int("population", population, 1)
        budget = check_int("budget", budget)
        if budget < N:
            raise ValueError(f"budget ({budget}) must be at least the population size ({N})")
        gen = torch.Generator().manual_seed(check_int("seed", seed, 0))
        lower = torch.as_tensor(lower_np, dtype=torch.float32)
        upper = torch.as_tensor(upper_np, dtype=torch.float32)
        scale = self.out_scale * (upper - lower)
        d, K = lower.numel(), budget // N
        X = lower + (upper - lower) * torch.rand(N, d, generator=gen)
        state = self.model_.initial_state(N * d)
        start = time.perf_counter()
        best_f, best_x, history, n_bad = math.inf, None, [], 0
        for k in range(K):
            Xg = X.detach().requires_grad_(True)
            with torch.enable_grad():
                out = f(Xg)
            if not isinstance(out, Tensor) or out.shape != (N,):
                raise ValueError(f"f must map a population (N={N}, d={d}) to a tensor of shape ({N},)")
            if not out.requires_grad:
                raise ValueError("the L2O optimizer needs gradients: f must be differentiable in torch")
            (g,) = torch.autograd.grad(out.sum(), Xg, allow_unused=True)
            g = torch.zeros_like(X) if g is None else torch.nan_to_num(g, nan=0.0, posinf=0.0, neginf=0.0)
            fx = out.detach().float()
            bad = ~torch.isfinite(fx)
            n_bad += int(bad.sum())
            fx = torch.where(bad, torch.full_like(fx, math.inf), fx)
            i = int(torch.argmin(fx))
            if float(fx[i]) < best_f:
                best_f, best_x = float(fx[i]), X[i].detach().double().numpy().copy()
            history.append(((k + 1) * N, best_f))
            if k == K - 1:
                break
            with torch.no_grad():
                step, state = self.model_(g.reshape(-1), state)
                X = torch.minimum(torch.maximum(X + scale * step.reshape(N, d), lower), upper)
        return OptimizeResult.from_run(best_x, best_f, K * N, history, n_bad, start)

    # ---------------------------------------------------------------- persistence
    def save(self, path: str | Path) -> None:
        """Save hyperparameters, LSTM weights and the training log (``torch.save``)."""
        if self.model_ is None:
            raise ValueError("nothing to save: the L2OOptimizer is not fitted")
        state = {k: v.detach().cpu() for k, v in self.model_.state_dict().items()}
        log = {"seconds": self.log_["seconds"], "iterations": self.log_["iterations"]}
        torch.save(
            {"params": self.get_params(), "state": state, "log": log, "trained_on": self.trained_on_}, path
        )

    @classmethod
    def load(cls, path: str | Path) -> L2OOptimizer:
        """Load a model written by :meth:`save`."""
        path = Path(path)
        if not path.is_file():
            raise ValueError(f"no saved L2OOptimizer at {str(path)!r}")
        blob = torch.load(path, map_location="cpu", weights_only=True)
        opt = cls(**blob["params"])
        opt.model_ = CoordinatewiseLSTM(opt.hidden)
        opt.model_.load_state_dict(blob["state"])
        opt.model_.eval()
        opt.log_ = {"loss": [], "seconds": blob["log"]["seconds"], "iterations": blob["log"]["iterations"]}
        opt.trained_on_ = blob["trained_on"]
        return opt

    @classmethod
    def pretrained(cls, name: str) -> L2OOptimizer:
        """Shipped weights made by ``python -m icml26.flow_optimizer.train``; ``name`` in :data:`PRETRAINED_L2O`."""
        with shipped_weights(name, PRETRAINED_L2O, "L2O model") as path:
            return cls.load(path)
