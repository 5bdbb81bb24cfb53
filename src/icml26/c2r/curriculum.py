"""Attack-aware curriculum (AAC): batches ordered by descending perturbation score, hardest first.

[read, secondary note] Each epoch every synthetic sample is scored with the current inner model and
batches are formed in descending score, so the smallest-margin adversaries come first; AAC adds no
loss term, it only reorders. [inferred] Batches stay class-balanced (the i-th batch takes each class's
i-th slice of its own descending order), and an optional pacing ``rho`` keeps only the top ``rho``
fraction of each class in the epoch's batches (the others get no step that epoch; the note's pacing
restricts only the contrastive term, which this simpler version does not separate). With IPC 1 (or
one batch per epoch) class-balanced batches leave nothing to reorder: AAC is then a no-op.
"""

from __future__ import annotations

import torch


def attack_aware_batches(
    scores: torch.Tensor, labels: torch.Tensor, per_class: int, rho: float = 1.0
) -> list[torch.Tensor]:
    """Index batches over the samples, hardest first, each with ``per_class`` samples of every class.

    ``scores`` and ``labels`` have shape ``(n,)``. Within each class the samples are sorted by
    descending score and cut into slices of ``per_class``; batch ``b`` joins every class's slice ``b``
    (a class with fewer slices drops out). ``rho`` in (0, 1] keeps each class's top ``ceil(rho n_c)``.
    """
    if scores.shape != labels.shape or scores.ndim != 1:
        raise ValueError(
            f"scores and labels must be two (n,) tensors, got {tuple(scores.shape)}, {tuple(labels.shape)}"
        )
    if per_class < 1:
        raise ValueError(f"per_class must be >= 1, got {per_class}")
    if not 0 < rho <= 1:
        raise ValueError(f"rho must lie in (0, 1], got {rho}")
    slices: list[list[torch.Tensor]] = []
    for c in torch.unique(labels):
        idx = torch.nonzero(labels == c).squeeze(1)
        idx = idx[torch.argsort(scores[idx], descending=True, stable=True)]
        keep = max(1, int(torch.ceil(torch.tensor(rho * len(idx))).item()))
        slices.append(list(idx[:keep].split(per_class)))
    n_batches = max(len(s) for s in slices)
    return [torch.cat([s[b] for s in slices if b < len(s)]) for b in range(n_batches)]


def uniform_batches(
    labels: torch.Tensor, per_class: int, generator: torch.Generator | None = None
) -> list[torch.Tensor]:
    """The no-AAC ablation: the same class-balanced batches in a random order within each class."""
    return attack_aware_batches(torch.rand(labels.shape, generator=generator), labels, per_class)
