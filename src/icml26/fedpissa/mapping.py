"""The client's subspace mapping of its private factor into the new shared basis (P4) **[inferred]**.

When the shared ``A`` moves from ``A_old`` (the client's own, after its last local training) to the
server's ``A_g``, the client re-expresses its private ``B`` so that its update ``B A`` is kept as well as
the new basis allows, by least squares over ``B'``: ``min ||B' A_g - B A_old||_F`` (ridge ``eps``):

    B' = B A_old A_g^T (A_g A_g^T + eps I)^{-1}                                            (P4)

exact when the rows of ``A_old`` lie in the row span of ``A_g``. For a shared ``B`` (private ``A``), the
mirror image: ``A' = (B_g^T B_g + eps I)^{-1} B_g^T B_old A``.
"""

from __future__ import annotations

import torch

MAPS = ("lstsq", "none")


def map_private(
    private: torch.Tensor,
    old_shared: torch.Tensor,
    new_shared: torch.Tensor,
    shared: str = "A",
    eps: float = 1e-8,
) -> torch.Tensor:
    """The private factor re-expressed in the new shared factor's basis (P4)."""
    if shared not in ("A", "B"):
        raise ValueError(f"shared must be 'A' or 'B', got {shared!r}")
    if old_shared.shape != new_shared.shape:
        raise ValueError(
            f"old and new shared factors differ in shape: {tuple(old_shared.shape)} vs {tuple(new_shared.shape)}"
        )
    if not eps >= 0:
        raise ValueError(f"eps must be >= 0, got {eps!r}")
    p, old, new = (t.detach().to(torch.float64) for t in (private, old_shared, new_shared))
    if shared == "A":  # private B (d_out x r), A (r x d_in)
        if p.shape[1] != old.shape[0]:
            raise ValueError(f"private B {tuple(p.shape)} does not match shared A {tuple(old.shape)}")
        gram = new @ new.T + eps * torch.eye(new.shape[0], dtype=new.dtype)
        mapped = torch.linalg.solve(gram, (p @ old @ new.T).T).T  # gram is symmetric
    else:  # private A (r x d_in), B (d_out x r)
        if old.shape[1] != p.shape[0]:
            raise ValueError(f"private A {tuple(p.shape)} does not match shared B {tuple(old.shape)}")
        gram = new.T @ new + eps * torch.eye(new.shape[1], dtype=new.dtype)
        mapped = torch.linalg.solve(gram, new.T @ old @ p)
    return mapped.to(private.dtype)
