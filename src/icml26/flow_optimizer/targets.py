"""Improved target populations for stage 1, obtained by sampling the objective.

Given a source population ``X0`` ``(B, N, d)`` with values ``f0`` ``(B, N)``, each sampler returns a
target ``X1`` of the same shape with ``f(X1) <= f0`` member by member: a member whose sampled target
does not improve on it keeps its place (zero displacement). Samplers:

* ``best``: best of ``M`` candidates ``x0_i + s * r * eps`` (``eps ~ N(0, I)``, ``r ~ U(0, 1)``) around each
  member, ``s`` the per-coordinate population spread;
* ``boltzmann``: one of the same candidates resampled with probabilities ``softmax(-beta * z(f))``
  (``z`` the z-score over the M candidates);
* ``global``: the best ``N`` of a pool drawn from ``N(mu, s^2)`` together with ``X0``, paired to the
  sources by optimal transport (exact assignment, squared distance in spread units);
* ``mixed``: the batch split across the three.

The sampling cost is training-time only; the trained optimizer never calls these.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch
from scipy.optimize import linear_sum_assignment

Tensor = torch.Tensor
Objective = Callable[[Tensor], Tensor]
SAMPLERS = ("best", "boltzmann", "global", "mixed")


def _spread(X: Tensor, width: Tensor) -> Tensor:
    return X.std(1, keepdim=True, unbiased=False) + 1e-12 * width


def _keep_improving(X0: Tensor, f0: Tensor, X1: Tensor, f1: Tensor) -> tuple[Tensor, Tensor]:
    better = f1 < f0
    return torch.where(better[..., None], X1, X0), torch.where(better, f1, f0)


@torch.no_grad()
def local_targets(
    objective: Objective,
    X0: Tensor,
    f0: Tensor,
    lower: Tensor,
    upper: Tensor,
    n_candidates: int,
    generator: torch.Generator,
    mode: str = "best",
    beta: float = 3.0,
) -> tuple[Tensor, Tensor]:
    """Local targets (``best`` or ``boltzmann``) around each member; returns ``(X1, f1)``, shapes of ``(X0, f0)``."""
    if mode not in ("best", "boltzmann"):
        raise ValueError(f"local sampler mode must be 'best' or 'boltzmann', got {mode!r}")
    if n_candidates < 1:
        raise ValueError(f"n_candidates must be >= 1, got {n_candidates}")
    B, N, d = X0.shape
    M = n_candidates
    s = _spread(X0, upper - lower)
    eps = torch.randn(B, N, M, d, generator=generator, dtype=X0.dtype).to(X0.device)
    r = torch.rand(B, N, M, 1, generator=generator, dtype=X0.dtype).to(X0.device)
    cand = X0[:, :, None, :] + s[:, :, None, :] * r * eps
    cand = torch.minimum(torch.maximum(cand, lower), upper)
    fc = objective(cand.reshape(B, N * M, d)).reshape(B, N, M)
    fc = torch.nan_to_num(fc, nan=float("inf"))
    if mode == "best":
        pick = torch.argmin(fc, -1)
    else:
        z = (fc - fc.mean(-1, keepdim=True)) / (fc.std(-1, keepdim=True) + 1e-12)
        probs = torch.softmax(-beta * torch.nan_to_num(z, nan=0.0, posinf=10.0), -1)
        pick = (
            torch.multinomial(probs.reshape(B * N, M).cpu(), 1, generator=generator)
            .reshape(B, N)
            .to(X0.device)
        )
    X1 = cand.gather(2, pick[..., None, None].expand(B, N, 1, d)).squeeze(2)
    f1 = fc.gather(2, pick[..., None]).squeeze(2)
    return _keep_improving(X0, f0, X1, f1)


@torch.no_grad()
def global_targets(
    objective: Objective,
    X0: Tensor,
    f0: Tensor,
    lower: Tensor,
    upper: Tensor,
    n_candidates: int,
    generator: torch.Generator,
) -> tuple[Tensor, Tensor]:
    """OT-paired elite targets: top-``N`` of ``{X0} ∪ pool``, ``pool ~ N(mu, s^2)`` of size ``M N``."""
    B, N, d = X0.shape
    s = _spread(X0, upper - lower)
    mu = X0.mean(1, keepdim=True)
    pool = mu + s * torch.randn(B, N * n_candidates, d, generator=generator, dtype=X0.dtype).to(X0.device)
    pool = torch.minimum(torch.maximum(pool, lower), upper)
    fp = torch.nan_to_num(objective(pool), nan=float("inf"))
    allX = torch.cat([X0, pool], 1)
    allf = torch.cat([f0, fp], 1)
    top = torch.topk(-allf, N, dim=1).indices
    Y = allX.gather(1, top[..., None].expand(B, N, d))
    fy = allf.gather(1, top)
    cost = (((X0[:, :, None, :] - Y[:, None, :, :]) / s[:, :, None, :]) ** 2).sum(-1).cpu().numpy()
    perm = np.stack([linear_sum_assignment(c)[1] for c in cost])
    perm_t = torch.as_tensor(perm, device=X0.device)
    X1 = Y.gather(1, perm_t[..., None].expand(B, N, d))
    f1 = fy.gather(1, perm_t)
    return _keep_improving(X0, f0, X1, f1)


def sample_targets(
    objective: Objective,
    X0: Tensor,
    f0: Tensor,
    lower: Tensor,
    upper: Tensor,
    generator: torch.Generator,
    sampler: str = "mixed",
    n_candidates: int = 32,
    beta: float = 3.0,
) -> tuple[Tensor, Tensor]:
    """Targets ``(X1, f1)`` with ``f1 <= f0`` elementwise, by the named sampler (see module docstring)."""
    if sampler not in SAMPLERS:
        raise ValueError(f"unknown sampler {sampler!r}; accepted: {', '.join(SAMPLERS)}")
    if sampler == "global":
        return global_targets(objective, X0, f0, lower, upper, n_candidates, generator)
    if sampler in ("best", "boltzmann"):
        return local_targets(objective, X0, f0, lower, upper, n_candidates, generator, sampler, beta)
    # mixed: instance b uses sampler b mod 3 (needs an objective that can be restricted to a sub-batch)
    if not hasattr(objective, "subset"):
        raise TypeError("the 'mixed' sampler needs an Instances objective (with .subset); pick one sampler")
    X1, f1 = X0.clone(), f0.clone()
    for k, kind in enumerate(("best", "boltzmann", "global")):
        idx = torch.arange(k, X0.shape[0], 3, device=X0.device)
        if len(idx) == 0:
            continue
        sub = objective.subset(idx)
        X1[idx], f1[idx] = sample_targets(
            sub, X0[idx], f0[idx], lower, upper, generator, kind, n_candidates, beta
        )
    return X1, f1
