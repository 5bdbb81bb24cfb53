"""Robotics: planar n-link inverse kinematics (IK) with joint limits, as a problem class.

Decision ``x = theta``: the ``n`` relative joint angles (radians) of a planar serial arm with its base
at the origin. With absolute angles ``phi_i = theta_1 + ... + theta_i`` and link lengths ``l_i`` the
end effector is at

    p(theta) = sum_i l_i (cos phi_i, sin phi_i),                                     (forward kinematics)

and an instance xi = (link lengths ``l``, target ``t``) has the objective

    f(theta; xi) = || p(theta) - t ||^2,        theta in [-limit, limit]^n.             (IK)

**Joint limits** are the box bounds: every joint is limited to ``[-limit, limit]`` (``bounds``, ``lower``,
``upper``), so the problem is a box-constrained least-squares problem that every optimizer here handles
by projection/clamping (FlowOptimizer projects onto the box, Adam clamps, CMA-ES uses its bound
handling). No penalty term is needed, and a solution is feasible by construction.

**Instances.** Link lengths ``l_i ~ U[0.5, 1.5]`` are rescaled to a total reach of 1, so ``f`` has the
same scale at any number of links (train at 10 links, run at 100). Targets are reachable *within the
joint limits*: ``t = p(theta*)`` for ``theta* ~ U[-limit, limit]^n``, so every instance has the exact
minimum ``f = 0`` (``f_lb = 0`` for stage 2). ``theta*`` is not stored and never used by any method.

All functions are torch, batched and differentiable (autograd); :meth:`IKInstances.gradient` gives the
closed-form gradient as a check.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import torch

from icml26.common import check_int

Tensor = torch.Tensor


def forward_kinematics(theta: Tensor, lengths: Tensor) -> Tensor:
    """End-effector positions ``(..., 2)`` of arms with joint angles ``theta`` ``(..., n)``.

    ``lengths`` ``(n,)`` or broadcastable to ``theta`` (e.g. ``(B, 1, n)`` against ``(B, N, n)``);
    every length must be positive.
    """
    if not isinstance(theta, Tensor) or not isinstance(lengths, Tensor):
        raise TypeError("theta and lengths must be torch tensors")
    if theta.dim() < 1 or theta.shape[-1] < 1:
        raise ValueError(f"theta must have shape (..., n) with n >= 1 links, got {tuple(theta.shape)}")
    if lengths.dim() < 1 or lengths.shape[-1] != theta.shape[-1]:
        raise ValueError(
            f"lengths must have n={theta.shape[-1]} entries in the last dimension (one per link), "
            f"got shape {tuple(lengths.shape)}"
        )
    if not bool((lengths > 0).all()):
        raise ValueError("link lengths must all be positive")
    phi = torch.cumsum(theta, -1)
    return torch.stack([(lengths * torch.cos(phi)).sum(-1), (lengths * torch.sin(phi)).sum(-1)], -1)


def two_link_ik(l1: float, l2: float, target: tuple[float, float], elbow: int = 1) -> tuple[float, float]:
    """Closed-form IK of a 2-link arm: ``(theta1, theta2)`` with ``p = target`` (law of cosines).

    ``elbow`` = +1 or -1 picks one of the two solutions. Raises ``ValueError`` if the target is
    outside the annulus ``|l1 - l2| <= |t| <= l1 + l2`` (unreachable).
    """
    if not (l1 > 0 and l2 > 0):
        raise ValueError(f"link lengths must be positive, got {l1}, {l2}")
    if elbow not in (1, -1):
        raise ValueError(f"elbow must be +1 or -1, got {elbow!r}")
    x, y = float(target[0]), float(target[1])
    r2 = x * x + y * y
    c2 = (r2 - l1 * l1 - l2 * l2) / (2 * l1 * l2)
    if not -1 - 1e-12 <= c2 <= 1 + 1e-12:
        raise ValueError(f"target {target} is unreachable by links {l1}, {l2}")
    theta2 = elbow * math.acos(min(1.0, max(-1.0, c2)))
    theta1 = math.atan2(y, x) - math.atan2(l2 * math.sin(theta2), l1 + l2 * math.cos(theta2))
    theta1 = math.atan2(math.sin(theta1), math.cos(theta1))  # wrap to (-pi, pi]
    return theta1, theta2


class IKInstances:
    """A batch of ``B`` IK instances; called on joint angles ``X`` ``(B, N, n)`` -> squared distances ``(B, N)``.

    ``lengths``: ``(B, n)`` positive link lengths; ``target``: ``(B, 2)`` end-effector targets.
    """

    def __init__(self, lengths: Tensor, target: Tensor) -> None:
        if not isinstance(lengths, Tensor) or not isinstance(target, Tensor):
            raise TypeError("lengths and target must be torch tensors")
        if lengths.dim() != 2 or lengths.shape[0] < 1 or lengths.shape[1] < 1:
            raise ValueError(f"lengths must have shape (B, n) with B, n >= 1, got {tuple(lengths.shape)}")
        if target.shape != (lengths.shape[0], 2):
            raise ValueError(f"target must have shape (B={lengths.shape[0]}, 2), got {tuple(target.shape)}")
        if not bool((lengths > 0).all()) or not bool(torch.isfinite(lengths).all()):
            raise ValueError("link lengths must all be positive and finite")
        if not bool(torch.isfinite(target).all()):
            raise ValueError("targets must be finite")
        self.lengths, self.target = lengths, target

    @property
    def batch(self) -> int:
        return self.lengths.shape[0]

    @property
    def links(self) -> int:
        return self.lengths.shape[1]

    def _check(self, X: Tensor) -> None:
        if X.dim() != 3 or X.shape[0] != self.batch or X.shape[2] != self.links:
            raise ValueError(
                f"population must have shape (B={self.batch}, N, d={self.links}), got {tuple(X.shape)}"
            )

    def position(self, X: Tensor) -> Tensor:
        """End-effector positions ``(B, N, 2)`` of the joint angles ``X`` ``(B, N, n)``."""
        self._check(X)
        return forward_kinematics(X, self.lengths[:, None, :].to(X.dtype))

    def distance(self, X: Tensor) -> Tensor:
        """Euclidean end-effector distance to the target ``(B, N)``."""
        return self(X).clamp_min(0).sqrt()

    def __call__(self, X: Tensor) -> Tensor:
        """Squared end-effector distance ``||p(X) - t||^2`` ``(B, N)``."""
        return ((self.position(X) - self.target[:, None, :].to(X.dtype)) ** 2).sum(-1)

    def gradient(self, X: Tensor) -> Tensor:
        """Closed-form ``∇f`` ``(B, N, n)``: ``df/dtheta_k = 2 (p - t) . sum_{i >= k} l_i (-sin phi_i, cos phi_i)``."""
        self._check(X)
        phi = torch.cumsum(X, -1)
        lengths = self.lengths[:, None, :].to(X.dtype)
        e = self.position(X) - self.target[:, None, :].to(X.dtype)  # (B, N, 2)
        dx = -(lengths * torch.sin(phi)).flip(-1).cumsum(-1).flip(-1)  # d p_x / d theta_k
        dy = (lengths * torch.cos(phi)).flip(-1).cumsum(-1).flip(-1)
        return 2 * (e[..., :1] * dx + e[..., 1:] * dy)

    def subset(self, idx: Tensor) -> IKInstances:
        """The instances ``idx`` (a 1-D index tensor) as a smaller batch."""
        return IKInstances(self.lengths[idx], self.target[idx])

    def single(self, b: int) -> Callable[[Tensor], Tensor]:
        """Instance ``b`` as a function of ``(N, n)`` populations (the form :meth:`FlowOptimizer.minimize` takes)."""
        if not 0 <= b < self.batch:
            raise ValueError(f"instance index must be in [0, {self.batch}), got {b}")
        one = self.subset(torch.tensor([b]))
        return lambda X: one(X[None])[0]


class IKClass:
    """Planar ``links``-link IK with joint limits ``[-limit, limit]`` on every joint (the box bounds).

    Same interface as :class:`~icml26.flow_optimizer.problems.ProblemClass` (``name``, ``dim``,
    ``bounds``, ``lower``, ``upper``, ``with_dim``, ``sample``). ``length_low``/``length_high``: the
    range of the raw link lengths before they are rescaled to a total reach of 1.
    """

    name = "ik"

    def __init__(
        self, links: int = 10, limit: float = math.pi / 2, length_low: float = 0.5, length_high: float = 1.5
    ) -> None:
        self.links = check_int("links (number of links)", links, 1)
        if not (isinstance(limit, int | float) and 0 < limit <= math.pi):
            raise ValueError(f"joint limit must be in (0, pi] radians, got {limit!r}")
        if not (
            isinstance(length_low, int | float)
            and isinstance(length_high, int | float)
            and 0 < length_low <= length_high < math.inf
        ):
            raise ValueError(
                f"link lengths need 0 < length_low <= length_high < inf, got {length_low!r}, {length_high!r}"
            )
        self.limit, self.length_low, self.length_high = float(limit), float(length_low), float(length_high)

    @property
    def dim(self) -> int:
        return self.links

    @property
    def lower(self) -> np.ndarray:
        """Joint lower limits ``(n,)``."""
        return np.full(self.links, -self.limit)

    @property
    def upper(self) -> np.ndarray:
        """Joint upper limits ``(n,)``."""
        return np.full(self.links, self.limit)

    @property
    def bounds(self) -> list[tuple[float, float]]:
        """The joint limits as scipy-style ``[(lower, upper)] * n``."""
        return [(-self.limit, self.limit)] * self.links

    def with_dim(self, dim: int) -> IKClass:
        """The same class with ``dim`` links (train at 10 links, run at 100)."""
        return IKClass(dim, self.limit, self.length_low, self.length_high)

    def sample(
        self, n: int, generator: torch.Generator, dtype: torch.dtype = torch.float32, device: str = "cpu"
    ) -> IKInstances:
        """Draw ``n`` instances (link lengths, reachable target); repeatable for a seeded ``generator``."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"number of instances must be a positive integer, got {n!r}")
        f64 = torch.float64
        raw = self.length_low + (self.length_high - self.length_low) * torch.rand(
            n, self.links, generator=generator, dtype=f64
        )
        lengths = raw / raw.sum(-1, keepdim=True)
        theta = (2 * torch.rand(n, self.links, generator=generator, dtype=f64) - 1) * self.limit
        target = forward_kinematics(theta, lengths)
        return IKInstances(lengths.to(dtype).to(device), target.to(dtype).to(device))
