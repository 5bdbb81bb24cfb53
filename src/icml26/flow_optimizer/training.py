"""Training the velocity field: stage 1 (simulation-free displacement matching) and stage 2 (deep unfolding).

Stage 1 (flow matching on populations). Sources ``X0`` are random clouds and states visited by the
current model; targets ``X1`` come from :mod:`icml26.flow_optimizer.targets`. With ``t ~ U[0, 1]`` and
``X_t = X0 + t (X1 - X0)`` the loss is

    L1 = E || u_theta(X_t, t, ctx(X_t)) - (X1 - X0) / s(X_t) ||^2,                         (stage 1)

the displacement regression written in spread units (``v = s u``) so every scale counts alike.

Stage 2 (deep unfolding). Unroll ``X_{k+1} = Pi_box(X_k + eta(t_k) v_theta(X_k, t_k, ctx_k))`` for
``K`` iterations from a uniform population and minimise, over random instances,

    L2 = E_xi sum_k w_k [ lambda mean_i log(1 + f(x_i^k) - f_lb) + log(1 + min_i f(x_i^k) - f_lb) ],   (stage 2)

``w_k ∝ k``, backpropagating through all ``K`` steps; ``f`` and ``∇f`` enter the context as
stop-gradient. Only objective values and gradients are used: no known solutions (self-supervised).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import torch

from icml26.common import progress
from icml26.flow_optimizer.power_grid import DCOPFClass
from icml26.flow_optimizer.problems import Instances, ProblemClass
from icml26.flow_optimizer.robotics import IKClass
from icml26.flow_optimizer.targets import sample_targets
from icml26.flow_optimizer.velocity import VelocityField, flow_step

Tensor = torch.Tensor


@dataclass
class TrainLog:
    """Loss per iteration and wall time per stage (seconds)."""

    stage1_loss: list[float] = field(default_factory=list)
    stage2_loss: list[float] = field(default_factory=list)
    stage1_seconds: float = 0.0
    stage2_seconds: float = 0.0


def evaluate(objective: Instances, X: Tensor, with_grad: bool = True) -> tuple[Tensor, Tensor | None]:
    """``f(X)`` ``(B, N)`` and ``∇f(X)`` ``(B, N, d)`` (detached), by autograd."""
    if not with_grad:
        with torch.no_grad():
            return objective(X), None
    Xg = X.detach().requires_grad_(True)
    with torch.enable_grad():
        f = objective(Xg)
        (g,) = torch.autograd.grad(f.sum(), Xg)
    return f.detach(), g


def uniform_population(
    B: int, N: int, lower: Tensor, upper: Tensor, generator: torch.Generator, dtype: torch.dtype
) -> Tensor:
    """The starting population: ``N`` members uniform in the box, ``(B, N, d)``."""
    u = torch.rand(B, N, lower.shape[-1], generator=generator, dtype=dtype).to(lower.device)
    return lower + (upper - lower) * u


def random_clouds(
    B: int, N: int, lower: Tensor, upper: Tensor, generator: torch.Generator, dtype: torch.dtype
) -> Tensor:
    """Stage-1 sources: Gaussian clouds, centre ``~ U(box)``, spread log-uniform in ``[1e-4, 0.5] width``."""
    d = lower.shape[-1]
    width = upper - lower
    centre = lower + width * torch.rand(B, 1, d, generator=generator, dtype=dtype).to(lower.device)
    log_s = math.log(1e-4) + (math.log(0.5) - math.log(1e-4)) * torch.rand(
        B, 1, 1, generator=generator, dtype=dtype
    )
    X = centre + width * log_s.exp().to(lower.device) * torch.randn(
        B, N, d, generator=generator, dtype=dtype
    ).to(lower.device)
    return torch.minimum(torch.maximum(X, lower), upper)


def rollout(
    model: VelocityField,
    objective: Instances,
    X0: Tensor,
    n_steps: int,
    lower: Tensor,
    upper: Tensor,
    use_gradients: bool = True,
    keep_graph: bool = False,
    detach_context: bool = False,
) -> tuple[list[Tensor], list[Tensor]]:
    """Run the unfolded scheme: ``n_steps`` evaluations, ``n_steps - 1`` updates; populations and values.

    Returns lists ``[X_0 .. X_{K-1}]`` and ``[f_0 .. f_{K-1}]``. With ``keep_graph`` the values carry the
    graph to the model parameters (stage 2); otherwise everything is detached.
    """
    Xs, fs = [], []
    X = X0
    B = X0.shape[0]
    for k in range(n_steps):
        if keep_graph:
            # f keeps its graph for the loss; the gradient context is taken on a detached copy, since
            # autograd.grad through the growing unrolled graph would cost O(K) per step
            f = objective(X)
            g = evaluate(objective, X)[1] if use_gradients else None
        else:
            f, g = evaluate(objective, X.detach(), use_gradients)
        Xs.append(X)
        fs.append(f)
        if k == n_steps - 1:
            break
        t = torch.full((B,), k / max(n_steps - 1, 1), dtype=X.dtype, device=X.device)
        ctx_f = torch.nan_to_num(f.detach(), nan=float(torch.nan_to_num(f.detach(), posinf=0).max()))
        if keep_graph:
            X = flow_step(model, X, ctx_f, None if g is None else g.detach(), t, lower, upper, detach_context)
        else:
            with torch.no_grad():
                X = flow_step(model, X, ctx_f, g, t, lower, upper)
    return Xs, fs


def stage1_displacement_matching(
    model: VelocityField,
    problem: ProblemClass | DCOPFClass | IKClass,
    iterations: int,
    generator: torch.Generator,
    batch: int = 12,
    population: int = 64,
    sampler: str = "mixed",
    n_candidates: int = 32,
    lr: float = 1e-3,
    rollout_every: int = 25,
    rollout_steps: int = 50,
    use_gradients: bool = True,
    log: TrainLog | None = None,
    device: str = "cpu",
) -> TrainLog:
    """Stage 1: regress ``u_theta`` onto displacements to improved targets (Eq. stage 1); returns the log."""
    log = log if log is not None else TrainLog()
    dtype = torch.float32
    lower = torch.as_tensor(problem.lower, dtype=dtype, device=device)
    upper = torch.as_tensor(problem.upper, dtype=dtype, device=device)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    buffer: Tensor | None = None  # states visited by the current model
    start = time.perf_counter()
    model.train()
    for it in progress(range(iterations), "stage 1 (displacement matching)"):
        inst = problem.sample(batch, generator, dtype, device)
        if rollout_every and it % rollout_every == 0 and it > 0:
            roll_inst = problem.sample(batch, generator, dtype, device)
            Xs, _ = rollout(
                model,
                roll_inst,
                uniform_population(batch, population, lower, upper, generator, dtype),
                rollout_steps,
                lower,
                upper,
                use_gradients,
            )
            buffer = torch.stack(Xs).reshape(-1, population, problem.dim)
        X0 = random_clouds(batch, population, lower, upper, generator, dtype)
        half = batch // 2
        if buffer is not None and half > 0:
            pick = torch.randint(0, buffer.shape[0], (half,), generator=generator)
            X0[:half] = buffer[pick.to(buffer.device)]
        n_uniform = max(1, batch // 6)
        X0[-n_uniform:] = uniform_population(n_uniform, population, lower, upper, generator, dtype)
        f0, _ = evaluate(inst, X0, with_grad=False)
        X1, _ = sample_targets(inst, X0, f0, lower, upper, generator, sampler, n_candidates)
        t = torch.rand(batch, generator=generator, dtype=dtype).to(device)
        Xt = X0 + t[:, None, None] * (X1 - X0)
        ft, gt = evaluate(inst, Xt, use_gradients)
        u, s = model.normalized(Xt, ft, gt, t, upper - lower)
        target = ((X1 - X0) / s).clamp(-20.0, 20.0)
        loss = ((u - target) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        log.stage1_loss.append(loss.item())
    log.stage1_seconds += time.perf_counter() - start
    return log


STEP_WEIGHTS = ("linear", "final")


def unfolded_loss(
    fs: list[Tensor], f_lb: float = 0.0, mean_weight: float = 1.0, step_weights: str = "linear"
) -> Tensor:
    """Eq. (stage 2): ``sum_k w_k [lambda mean_i log(1 + f_ik - f_lb) + log(1 + min_i f_ik - f_lb)]``.

    ``fs``: K tensors ``(B, N)``; ``lambda = mean_weight``; ``w_k ∝ k`` (``step_weights="linear"``) or
    only the last population (``"final"``: the unrolled sequence's final objective). Averaged over the batch.
    """
    if step_weights not in STEP_WEIGHTS:
        raise ValueError(f"step_weights must be one of {STEP_WEIGHTS}, got {step_weights!r}")
    K = len(fs)
    if step_weights == "final":
        w = torch.zeros(K, dtype=fs[0].dtype, device=fs[0].device)
        w[-1] = 1.0
    else:
        w = torch.arange(1, K + 1, dtype=fs[0].dtype, device=fs[0].device)
        w = w / w.sum()
    F = torch.log1p((torch.stack(fs, 0) - f_lb).clamp_min(0))  # (K, B, N)
    per_step = mean_weight * F.mean(-1) + F.amin(-1)
    return (w[:, None] * per_step).sum(0).mean()


def stage2_deep_unfolding(
    model: VelocityField,
    problem: ProblemClass | DCOPFClass | IKClass,
    iterations: int,
    generator: torch.Generator,
    batch: int = 8,
    population: int = 64,
    steps: int = 50,
    lr: float = 3e-4,
    use_gradients: bool = True,
    log: TrainLog | None = None,
    device: str = "cpu",
    mean_weight: float = 1.0,
    detach_context: bool = False,
    callback: Callable[[int], None] | None = None,
    step_weights: str = "linear",
) -> TrainLog:
    """Stage 2: fine-tune end-to-end on the objective over ``steps`` unrolled iterations (Eq. stage 2).

    ``callback(i)``, if given, is called after iteration ``i`` (0-based), e.g. to evaluate checkpoints.
    """
    log = log if log is not None else TrainLog()
    dtype = torch.float32
    lower = torch.as_tensor(problem.lower, dtype=dtype, device=device)
    upper = torch.as_tensor(problem.upper, dtype=dtype, device=device)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    start = time.perf_counter()
    model.train()
    for it in progress(range(iterations), "stage 2 (deep unfolding)"):
        inst = problem.sample(batch, generator, dtype, device)
        X0 = uniform_population(batch, population, lower, upper, generator, dtype).requires_grad_(True)
        _, fs = rollout(
            model,
            inst,
            X0,
            steps,
            lower,
            upper,
            use_gradients,
            keep_graph=True,
            detach_context=detach_context,
        )
        loss = unfolded_loss(fs, mean_weight=mean_weight, step_weights=step_weights)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        log.stage2_loss.append(loss.item())
        if callback is not None:
            callback(it)
    log.stage2_seconds += time.perf_counter() - start
    return log
