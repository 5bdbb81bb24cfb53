"""Class-balanced contrastive robustness loss (CRL) [read, secondary note; details inferred].

Supervised contrastive loss (Khosla et al. 2020, Eq. 2 "L_out") over clean and adversarial views on
L2-normalised penultimate embeddings. For anchor ``i`` (a clean view, label ``y_i``):

- positives ``P(i)``: its own adversarial view and every other view of its class;
- candidates ``A(i) = P(i) ∪ N(i)``: the negatives ``N(i)`` are the views of other classes, plus a
  per-class FIFO memory queue of past embeddings (extra negatives only);
- ``L = (1/M) sum_i -(1/|P(i)|) sum_{a in P(i)} log( exp(g_ia/tau) / sum_{b in A(i)} exp(g_ib/tau) )``
  with ``g`` the cosine similarity. Pulling ``P(i)`` together enforces adversarial invariance; pushing
  ``N(i)`` apart widens the separation between classes.

Hard negatives [read, secondary]: a random projection ``R`` (``r x d``) and a top-``k`` search keep only
each anchor's ``k`` most similar negatives: the search costs O(M N r), the exact similarities and the
denominator O(M k d) instead of O(M N d).
"""

from __future__ import annotations

import torch
import torch.nn.functional as F


class ClassQueue:
    """A FIFO memory of at most ``capacity`` embeddings per class (the oldest leaves first)."""

    def __init__(self, n_classes: int, dim: int, capacity: int) -> None:
        if n_classes < 1 or dim < 1 or capacity < 1:
            raise ValueError(
                f"ClassQueue needs n_classes, dim, capacity >= 1, got {n_classes}, {dim}, {capacity}"
            )
        self.capacity = capacity
        self._items: list[torch.Tensor] = [torch.empty(0, dim) for _ in range(n_classes)]

    def push(self, z: torch.Tensor, y: torch.Tensor) -> None:
        """Append the rows of ``z`` (detached) to their classes' queues, dropping the oldest beyond capacity."""
        if (
            z.ndim != 2
            or y.shape != (len(z),)
            or (len(y) and not 0 <= int(y.min()) <= int(y.max()) < len(self._items))
        ):
            raise ValueError(
                f"push needs z (n, dim) and n labels in 0..{len(self._items) - 1}, got {tuple(z.shape)},"
                f" {tuple(y.shape)}"
            )
        z = z.detach()
        for c in torch.unique(y).tolist():
            self._items[c] = torch.cat([self._items[c], z[y == c].to(self._items[c])])[-self.capacity :]

    def contents(self) -> tuple[torch.Tensor, torch.Tensor]:
        """All stored embeddings ``(n, dim)`` and their labels ``(n,)``."""
        z = torch.cat(self._items)
        y = torch.cat([torch.full((len(q),), c, dtype=torch.int64) for c, q in enumerate(self._items)])
        return z, y

    def __len__(self) -> int:
        return sum(len(q) for q in self._items)


def projected_topk(
    queries: torch.Tensor, keys: torch.Tensor, k: int, projection: torch.Tensor, oversample: int = 4
) -> torch.Tensor:
    """Indices ``(m, k)`` of each query's ``k`` keys of largest inner product, found by a shortlist of
    the ``oversample * k`` keys of largest projected inner product ``<R q, R key>`` re-ranked exactly
    (candidate generation in ``r`` dimensions, then ``k`` exact scores per shortlisted key)."""
    k = min(k, keys.shape[0])
    shortlist = min(keys.shape[0], oversample * k)
    candidates = ((queries @ projection.T) @ (keys @ projection.T).T).topk(shortlist, dim=1).indices
    exact = torch.einsum("md,mcd->mc", queries, keys[candidates])
    return candidates.gather(1, exact.topk(k, dim=1).indices)


def random_projection(dim: int, rank: int, generator: torch.Generator | None = None) -> torch.Tensor:
    """A random projection ``(rank, dim)`` with orthonormal rows (the Q factor of a Gaussian matrix)."""
    if not 1 <= rank <= dim:
        raise ValueError(f"rank must lie in 1..{dim}, got {rank}")
    q, _ = torch.linalg.qr(torch.randn(dim, rank, generator=generator))
    return q.T.contiguous()


def _hard_negatives(
    anchors: torch.Tensor,
    negatives: torch.Tensor,
    allowed: torch.Tensor,
    k: int,
    projection: torch.Tensor,
    oversample: int = 4,
) -> torch.Tensor:
    """Indices ``(m, k)`` of each anchor's ``k`` most similar allowed negatives: a shortlist of the
    ``oversample * k`` largest projected similarities (``r`` dimensions), re-ranked exactly;
    :func:`projected_topk` restricted to ``allowed`` (each row must allow at least ``k``)."""
    projected = ((anchors @ projection.T) @ (negatives @ projection.T).T).masked_fill(~allowed, float("-inf"))
    candidates = projected.topk(min(negatives.shape[0], oversample * k), dim=1).indices
    exact = torch.einsum("md,mcd->mc", anchors, negatives[candidates])
    exact = exact.masked_fill(~allowed.gather(1, candidates), float("-inf"))
    return candidates.gather(1, exact.topk(k, dim=1).indices)


def crl_loss(
    z_clean: torch.Tensor,
    z_adv: torch.Tensor,
    labels: torch.Tensor,
    tau: float = 0.1,
    queue: tuple[torch.Tensor, torch.Tensor] | None = None,
    hard_k: int | None = None,
    projection: torch.Tensor | None = None,
    extra_views: tuple[torch.Tensor, torch.Tensor] | None = None,
) -> torch.Tensor:
    """The CRL above for ``M`` anchors: ``z_clean``, ``z_adv`` ``(M, d)``, ``labels`` ``(M,)``; ``queue`` =
    ``(z, y)`` extra negatives; ``hard_k`` with ``projection`` keeps each anchor's ``k`` hardest negatives;
    ``extra_views`` = ``(z, y)`` further views that are not anchors (positives of their class, negatives
    of the others; C²R passes the real images' adversarial views here [inferred])."""
    if z_clean.shape != z_adv.shape or z_clean.ndim != 2 or labels.shape != (z_clean.shape[0],):
        raise ValueError(
            f"crl_loss needs z_clean, z_adv (M, d) and labels (M,), got {tuple(z_clean.shape)},"
            f" {tuple(z_adv.shape)}, {tuple(labels.shape)}"
        )
    if tau <= 0:
        raise ValueError(f"tau must be > 0, got {tau}")
    m = z_clean.shape[0]
    anchors = F.normalize(z_clean, dim=1)
    views = torch.cat([anchors, F.normalize(z_adv, dim=1)])
    view_labels = torch.cat([labels, labels])
    if extra_views is not None and len(extra_views[0]):
        views = torch.cat([views, F.normalize(extra_views[0].to(views), dim=1)])
        view_labels = torch.cat([view_labels, extra_views[1].to(labels)])
    not_self = torch.ones(m, len(views), dtype=torch.bool, device=z_clean.device)
    not_self[torch.arange(m), torch.arange(m)] = False
    same = labels[:, None] == view_labels[None, :]
    positive = same & not_self
    sim_views = anchors @ views.T / tau
    negatives, neg_labels = views, view_labels
    if queue is not None and len(queue[0]):
        negatives = torch.cat([views, F.normalize(queue[0].to(views), dim=1)])
        neg_labels = torch.cat([view_labels, queue[1].to(labels)])
    neg_mask = labels[:, None] != neg_labels[None, :]
    if hard_k is not None and hard_k < int(neg_mask.sum(1).min()):
        if projection is None:
            raise ValueError("hard_k needs a projection (random_projection(d, r))")
        hard = _hard_negatives(anchors.detach(), negatives.detach(), neg_mask, hard_k, projection.to(anchors))
        sim_neg = torch.einsum("md,mkd->mk", anchors, negatives[hard]) / tau  # only the k kept: O(M k d)
    else:
        sim_neg = (anchors @ negatives.T / tau).masked_fill(~neg_mask, float("-inf"))
    denominator = torch.logsumexp(
        torch.cat([sim_views.masked_fill(~positive, float("-inf")), sim_neg], 1),
        dim=1,
    )
    log_prob = sim_views - denominator[:, None]
    per_anchor = -(log_prob * positive).sum(1) / positive.sum(1).clamp_min(1)
    return per_anchor.mean()


def mean_alignment_loss(
    z_syn: torch.Tensor, y_syn: torch.Tensor, z_real: torch.Tensor, y_real: torch.Tensor
) -> torch.Tensor:
    """The no-CRL ablation and ROME's term: ``sum_c ||mean z_syn,c - mean z_real,c||^2`` over the classes
    present in both (class-mean alignment)."""
    loss = z_syn.new_zeros(())
    for c in torch.unique(y_syn):
        real = z_real[y_real == c]
        if len(real):
            loss = loss + (z_syn[y_syn == c].mean(0) - real.mean(0)).pow(2).sum()
    return loss
