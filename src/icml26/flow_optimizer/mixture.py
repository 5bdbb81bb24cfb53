"""The broad training class: a mixture of benchmark families with random shifts, rotations and scalings.

[inferred] The paper's full text could not be found (only its abstract: "standard non-convex
optimization benchmarks", fine-tuned "over a targeted class of problems", "trained on low-dimensional
problems"); no training distribution is stated anywhere we could read. This class is the broadest one
those words allow, built from the non-convex families of :data:`~icml26.flow_optimizer.problems.BENCHMARKS`:

    f(x; xi) = h_k(c_k D R (x - s) + z*_k) - h_k(z*_k),     x in [-L, L]^d,           (mixture class)

with, per instance xi, independently:

* a family ``k`` uniform over ``families`` (Rastrigin, Ackley, Griewank, Levy, Styblinski-Tang, Rosenbrock);
* a shift ``s ~ U[-a L, a L]^d`` (``a = shift_fraction``, 0.8: BBOB's optima lie in ``[-4, 4]^d`` of
  ``[-5, 5]^d``), so the global minimum 0 sits at ``x = s``;
* with probability ``rotate_prob`` a Haar rotation ``R`` (else the identity: separable instances);
* an axis scaling ``D = diag(10^{u_j})``, ``u_j ~ U[-b, b]`` (``b = log10_scale``; an ill-conditioning of up
  to ``10^{2b}`` between axes), on top of ``c_k = H_k / L``, which maps the family's standard box
  ``[-H_k, H_k]`` onto the common box, so every family keeps its usual number of basins per axis.

Every family is minimal (0) only at ``z = z*_k`` over all of R^d, so ``f >= 0`` with equality only at
``s``, which keeps ``f_lb = 0`` for stage 2. The common box defaults to BBOB's ``[-5, 5]^d``. Scaling of
``f`` itself needs no sampling: the field sees ranks and z-scores of ``f`` only (``velocity.py``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch

from icml26.flow_optimizer.problems import BENCHMARKS, BaseFunction, check_population

Tensor = torch.Tensor
FAMILIES = ("rastrigin", "ackley", "griewank", "levy", "styblinski_tang", "rosenbrock")


class MixtureInstances:
    """``B`` instances of a :class:`MixtureClass`, evaluated on populations ``(B, N, d)``.

    ``family``: ``(B,)`` indices into ``families``; ``shift``: ``(B, d)``; ``matrix``: ``(B, d, d)``, the map
    ``c_k D R`` of Eq. (mixture class) so that ``z = (x - s) M^T``.
    """

    def __init__(self, families: tuple[str, ...], family: Tensor, shift: Tensor, matrix: Tensor) -> None:
        self.families = families
        self.family = family
        self.shift = shift
        self.matrix = matrix

    @property
    def batch(self) -> int:
        return self.shift.shape[0]

    def __call__(self, X: Tensor) -> Tensor:
        check_population(X, self.batch, self.shift.shape[1])
        z = (X - self.shift[:, None, :]) @ self.matrix.transpose(1, 2)
        out = torch.zeros(X.shape[:2], dtype=z.dtype, device=X.device)
        for k, name in enumerate(self.families):
            idx = torch.nonzero(self.family == k).flatten()
            if len(idx) == 0:
                continue
            base: BaseFunction = BENCHMARKS[name]
            z_star = torch.full((z.shape[-1],), base.z_star, dtype=z.dtype, device=X.device)
            out = out.index_put((idx,), base.fn(z[idx] + z_star) - base.fn(z_star))
        return out

    def subset(self, idx: Tensor) -> MixtureInstances:
        """The instances ``idx`` (a 1-D index tensor) as a smaller batch."""
        return MixtureInstances(self.families, self.family[idx], self.shift[idx], self.matrix[idx])

    def single(self, b: int) -> Callable[[Tensor], Tensor]:
        """Instance ``b`` as a function of ``(N, d)`` populations (the form :meth:`FlowOptimizer.minimize` takes)."""
        if not 0 <= b < self.batch:
            raise ValueError(f"instance index must be in [0, {self.batch}), got {b}")
        one = self.subset(torch.tensor([b], device=self.shift.device))
        return lambda X: one(X[None])[0]

    def family_names(self) -> list[str]:
        return [self.families[int(k)] for k in self.family]


@dataclass(frozen=True)
class MixtureClass:
    """The mixture of benchmark families of Eq. (mixture class) at dimension ``dim`` on ``[-L, L]^dim``."""

    dim: int
    families: tuple[str, ...] = FAMILIES
    half_width: float = 5.0
    shift_fraction: float = 0.8
    rotate_prob: float = 0.5
    log10_scale: float = 1.0

    def __post_init__(self) -> None:
        if isinstance(self.dim, bool) or not isinstance(self.dim, int) or self.dim < 2:
            raise ValueError(f"dim must be an integer >= 2, got {self.dim!r}")
        if not isinstance(self.families, tuple) or not self.families:
            raise ValueError(f"families must be a non-empty tuple of names from {', '.join(BENCHMARKS)}")
        unknown = [f for f in self.families if f not in BENCHMARKS]
        if unknown:
            raise ValueError(f"unknown families {unknown}; accepted: {', '.join(BENCHMARKS)}")
        checks = {
            "half_width": (self.half_width, lambda v: v > 0, "> 0"),
            "shift_fraction": (self.shift_fraction, lambda v: 0 <= v < 1, "in [0, 1)"),
            "rotate_prob": (self.rotate_prob, lambda v: 0 <= v <= 1, "in [0, 1]"),
            "log10_scale": (self.log10_scale, lambda v: 0 <= v <= 3, "in [0, 3]"),
        }
        for key, (value, ok, accepted) in checks.items():
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
                raise ValueError(f"{key} must be a finite number {accepted}, got {value!r}")
            if not ok(value):
                raise ValueError(f"{key} must be {accepted}, got {value!r}")

    @property
    def name(self) -> str:
        return "mixture"

    @property
    def bounds(self) -> tuple[float, float]:
        return (-self.half_width, self.half_width)

    @property
    def lower(self) -> np.ndarray:
        return np.full(self.dim, -self.half_width)

    @property
    def upper(self) -> np.ndarray:
        return np.full(self.dim, self.half_width)

    def with_dim(self, dim: int) -> MixtureClass:
        return MixtureClass(
            dim, self.families, self.half_width, self.shift_fraction, self.rotate_prob, self.log10_scale
        )

    def sample(
        self, n: int, generator: torch.Generator, dtype: torch.dtype = torch.float32, device: str = "cpu"
    ) -> MixtureInstances:
        """Draw ``n`` random instances; repeatable for a seeded ``generator`` (draws in float64 on the CPU)."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"number of instances must be a positive integer, got {n!r}")
        d, f64 = self.dim, torch.float64
        family = torch.randint(0, len(self.families), (n,), generator=generator)
        shift = (
            (torch.rand(n, d, generator=generator, dtype=f64) * 2 - 1) * self.shift_fraction * self.half_width
        )
        q, r = torch.linalg.qr(torch.randn(n, d, d, generator=generator, dtype=f64))
        haar = q * torch.sign(torch.diagonal(r, dim1=-2, dim2=-1))[:, None, :]
        rotate = torch.rand(n, generator=generator, dtype=f64) < self.rotate_prob
        rotation = torch.where(rotate[:, None, None], haar, torch.eye(d, dtype=f64).expand(n, d, d))
        u = (torch.rand(n, d, generator=generator, dtype=f64) * 2 - 1) * self.log10_scale
        c = torch.tensor([BENCHMARKS[f].half_width / self.half_width for f in self.families], dtype=f64)
        matrix = (c[family][:, None] * 10.0**u)[:, :, None] * rotation  # c_k D R
        return MixtureInstances(
            self.families, family.to(device), shift.to(dtype).to(device), matrix.to(dtype).to(device)
        )
