"""The server's maths: aggregation dynamics, selective sharing and the decorrelated subspace projection.

All of it is **[inferred]**: the abstract says only that LoRA components are "selectively aggregated
based on their aggregation dynamics" and that "a decorrelated subspace projection" mitigates
conflicting updates. Our reading (``docs/methods/fedpissa.md``):

- (D) dynamics of a factor ``F`` of module ``m`` over the clients' updates ``Delta_k = F_k - F_global``:
  agreement ``rho = mean_{k<j} cos(vec Delta_k, vec Delta_j)`` and drift
  ``d = mean_k ||F_k - F_bar|| / ||F_bar||`` (``F_bar`` the weighted mean), each an EMA over warm-up rounds;
- (S) selection: per module the factor with the higher agreement is shared, ties broken by lower drift,
  then by ``A``; the other factor stays private;
- (P1) conflict projection: PCGrad-style removal of the component along any update with which an
  update has a negative inner product (``"pcgrad"``), or the exact projection onto the cone of
  directions that conflict with no client (``"cone"``, via non-negative least squares);
- (P2) the sample-weighted mean ``F_g <- F_g + sum_k p_k Delta_k``, ``p_k = n_k / sum n``;
- (P3) rotation into principal coordinates: ``A_g = P Sigma Q^T`` (SVD), ``A_g <- Sigma Q^T = P^T A_g``,
  whose rows are mutually orthogonal; for a shared ``B`` the columns are decorrelated, ``B_g <- B_g Q``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import torch
from scipy.optimize import nnls

FACTORS = ("A", "B")
CONFLICTS = ("pcgrad", "cone", "none")


def _check_updates(updates: list[torch.Tensor]) -> None:
    if not isinstance(updates, list | tuple) or not updates:
        raise ValueError("updates must be a non-empty list of tensors (one per client)")
    shape = updates[0].shape
    if any(not isinstance(u, torch.Tensor) or u.shape != shape for u in updates):
        raise ValueError(f"every update must be a tensor of the same shape {tuple(shape)}")


def normalised_weights(n_samples: list[int] | list[float]) -> torch.Tensor:
    """``p_k = n_k / sum_j n_j``; every ``n_k`` must be positive."""
    n = torch.as_tensor([float(v) for v in n_samples], dtype=torch.float64)
    if n.numel() == 0 or not torch.all(torch.isfinite(n)) or torch.any(n <= 0):
        raise ValueError(f"sample counts must be a non-empty list of numbers > 0, got {list(n_samples)!r}")
    return n / n.sum()


def agreement(updates: list[torch.Tensor]) -> float:
    """Mean pairwise cosine of the flattened updates (D); 1.0 for a single client, a zero update
    counting as cosine 0 with every other."""
    _check_updates(updates)
    if len(updates) == 1:
        return 1.0
    flat = torch.stack([u.detach().reshape(-1).to(torch.float64) for u in updates])
    norms = flat.norm(dim=1)
    unit = flat / torch.where(norms > 0, norms, torch.ones_like(norms))[:, None]
    gram = unit @ unit.T
    k = len(updates)
    return float((gram.sum() - gram.diagonal().sum()) / (k * (k - 1)))


def drift(factors: list[torch.Tensor], n_samples: list[int]) -> float:
    """``mean_k ||F_k - F_bar|| / ||F_bar||`` with ``F_bar`` the sample-weighted mean (D); ``inf`` when
    ``F_bar = 0`` and the factors differ, 0 when all are zero."""
    _check_updates(factors)
    p = normalised_weights(n_samples)
    if len(p) != len(factors):
        raise ValueError(f"{len(factors)} factors but {len(p)} sample counts")
    stack = torch.stack([f.detach().to(torch.float64) for f in factors])
    mean = torch.tensordot(p, stack, dims=1)
    spread = float(torch.stack([(f - mean).norm() for f in stack]).mean())
    base = float(mean.norm())
    if base == 0:
        return 0.0 if spread == 0 else math.inf
    return spread / base


@dataclass
class AggregationDynamics:
    """EMA of agreement and drift per (module, factor) over warm-up rounds (D); ``beta`` weights the old
    value (``beta = 0`` keeps only the last round)."""

    beta: float = 0.5
    agreement: dict[tuple[str, str], float] = field(default_factory=dict)
    drift: dict[tuple[str, str], float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.beta, int | float) or not 0 <= self.beta < 1:
            raise ValueError(f"beta must lie in [0, 1), got {self.beta!r}")

    def record(self, module: str, factor: str, agree: float, drift_value: float) -> None:
        if factor not in FACTORS:
            raise ValueError(f"factor {factor!r} is not one of {FACTORS}")
        key = (module, factor)
        for table, value in ((self.agreement, agree), (self.drift, drift_value)):
            table[key] = value if key not in table else self.beta * table[key] + (1 - self.beta) * value

    def select(self) -> dict[str, str]:
        """The shared factor of every module (S): higher agreement, then lower drift, then ``A``."""
        modules = sorted({m for m, _ in self.agreement})
        if not modules:
            raise ValueError("no aggregation dynamics recorded (run at least one warm-up round)")
        chosen = {}
        for m in modules:
            if (m, "A") not in self.agreement or (m, "B") not in self.agreement:
                raise ValueError(f"module {m!r} lacks the dynamics of one of its factors")
            key_a = (-self.agreement[(m, "A")], self.drift[(m, "A")], 0)
            key_b = (-self.agreement[(m, "B")], self.drift[(m, "B")], 1)
            chosen[m] = "A" if key_a <= key_b else "B"
        return chosen


def project_conflicts(
    updates: list[torch.Tensor], mode: str = "pcgrad", generator: torch.Generator | None = None
) -> list[torch.Tensor]:
    """Remove conflicts between client updates (P1).

    ``"pcgrad"``: for each update, in a random order of the others, subtract its component along any
    *original* update it has a negative inner product with (Yu et al., 2020); with two clients no
    negative pair survives. ``"cone"``: the exact Euclidean projection of each update onto
    ``{x : <x, Delta_j> >= 0 for all j}`` (Moreau: ``x = g + G^T lambda``, ``lambda = NNLS(G^T, -g)``),
    so no projected update conflicts with any client's. ``"none"``: unchanged.
    """
    if mode not in CONFLICTS:
        raise ValueError(f"conflict mode {mode!r} is not one of {', '.join(CONFLICTS)}")
    _check_updates(updates)
    if mode == "none" or len(updates) == 1:
        return [u.clone() for u in updates]
    shape, dtype = updates[0].shape, updates[0].dtype
    flat = torch.stack([u.detach().reshape(-1).to(torch.float64) for u in updates])
    out = []
    if mode == "pcgrad":
        k = len(updates)
        for i in range(k):
            g = flat[i].clone()
            others = [j for j in torch.randperm(k, generator=generator).tolist() if j != i]
            for j in others:
                dot = float(g @ flat[j])
                sq = float(flat[j] @ flat[j])
                if dot < 0 and sq > 0:
                    g = g - (dot / sq) * flat[j]
            out.append(g)
    else:
        gt = flat.T.numpy()  # columns: the original updates
        for i in range(len(updates)):
            g = flat[i].numpy()
            if np.all(flat.numpy() @ g >= 0):
                out.append(flat[i].clone())
                continue
            lam, _ = nnls(gt, -g)
            out.append(torch.from_numpy(g + gt @ lam))
    return [o.reshape(shape).to(dtype) for o in out]


def weighted_mean_update(
    global_factor: torch.Tensor, updates: list[torch.Tensor], n_samples: list[int]
) -> torch.Tensor:
    """``F_g + sum_k p_k Delta_k`` with ``p_k = n_k / sum n`` (P2)."""
    _check_updates(updates)
    p = normalised_weights(n_samples)
    if len(p) != len(updates):
        raise ValueError(f"{len(updates)} updates but {len(p)} sample counts")
    if updates[0].shape != global_factor.shape:
        raise ValueError(
            f"updates of shape {tuple(updates[0].shape)} for a factor of {tuple(global_factor.shape)}"
        )
    stack = torch.stack([u.to(torch.float64) for u in updates])
    return (global_factor.to(torch.float64) + torch.tensordot(p, stack, dims=1)).to(global_factor.dtype)


def rotate_principal(factor: torch.Tensor, which: str = "A") -> tuple[torch.Tensor, torch.Tensor]:
    """Rotate a shared factor into principal coordinates (P3); returns ``(rotated, P)``.

    ``which="A"`` (r x d_in): ``A = P Sigma Q^T``, ``rotated = P^T A`` (orthogonal rows, ``rotated
    rotated^T = Sigma^2``). ``which="B"`` (d_out x r): ``B = U Sigma P^T``, ``rotated = B P``
    (orthogonal columns). ``P`` is the r x r rotation, sent to the clients with the factor; signs are
    fixed so that each rotated row (column) has a positive largest entry, which makes the result unique
    for distinct singular values.
    """
    if which not in FACTORS:
        raise ValueError(f"which must be one of {FACTORS}, got {which!r}")
    if factor.ndim != 2:
        raise ValueError(f"factor must be a matrix, got shape {tuple(factor.shape)}")
    f = factor.detach().to(torch.float64)
    if which == "A":
        p, _, _ = torch.linalg.svd(f, full_matrices=False)  # f: r x d, p: r x r
        rotated = p.T @ f
        idx = rotated.abs().argmax(dim=1)
        sign = torch.sign(rotated[torch.arange(rotated.shape[0]), idx])
    else:
        _, _, vh = torch.linalg.svd(f, full_matrices=False)  # f: d x r, vh: r x r
        p = vh.T
        rotated = f @ p
        idx = rotated.abs().argmax(dim=0)
        sign = torch.sign(rotated[idx, torch.arange(rotated.shape[1])])
    sign = torch.where(sign == 0, torch.ones_like(sign), sign)
    p = p * sign[None, :]
    rotated = p.T @ f if which == "A" else f @ p
    return rotated.to(factor.dtype), p.to(factor.dtype)
