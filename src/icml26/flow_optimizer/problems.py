"""Problem classes: random instances of non-convex benchmark functions (torch, batched, differentiable).

A problem *class* is a base function ``h`` on a box ``[lower, upper]^d`` and a distribution over
instances xi = (shift s, rotation R). An instance is

    f(x; xi) = h(R (x - s) + z*) - h(z*),                                        (problem class)

so every instance has its global minimum 0 at ``x = s`` (``z*`` is the base minimiser). This gives
``f_lb = 0`` for the unrolled loss of stage 2 and a common scale for reporting. Shifts are drawn
``s ~ U[-a, a]^d`` and rotations (optional) from the Haar measure. The *prior* sets ``a``:

* ``"wide"`` (default): ``a = 0.8 h`` for the box half-width ``h``, so optima spread over the box;
* ``"narrow"``: ``a = min(2, 0.4 h)``, the prior the first shipped weights were trained on (on Ackley's
  +-32.768 box it keeps the optimum within the central 6% of each coordinate).

Random box translations and scalings need no sampling of their own: every feature of the velocity field
is measured relative to the population and the box width (:mod:`icml26.flow_optimizer.velocity`), so the
field's iteration commutes with an affine change of box; only where the optimum sits *in* the box matters.

All functions take ``x`` of shape ``(..., d)`` and return ``(...,)``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch

Tensor = torch.Tensor


def rastrigin(z: Tensor) -> Tensor:
    """Rastrigin: ``10 d + sum_j (z_j^2 - 10 cos(2 pi z_j))``; minimum 0 at z = 0."""
    return 10.0 * z.shape[-1] + (z**2 - 10.0 * torch.cos(2 * math.pi * z)).sum(-1)


def ackley(z: Tensor) -> Tensor:
    """Ackley (a=20, b=0.2, c=2 pi); minimum 0 at z = 0."""
    d = z.shape[-1]
    # the sqrt has an infinite derivative at 0; a tiny floor keeps gradients finite there
    r = torch.sqrt((z**2).sum(-1) / d + 1e-30)
    return -20.0 * torch.exp(-0.2 * r) - torch.exp(torch.cos(2 * math.pi * z).sum(-1) / d) + 20.0 + math.e


def griewank(z: Tensor) -> Tensor:
    """Griewank: ``1 + sum z_j^2 / 4000 - prod cos(z_j / sqrt(j))``; minimum 0 at z = 0."""
    j = torch.arange(1, z.shape[-1] + 1, dtype=z.dtype, device=z.device)
    return 1.0 + (z**2).sum(-1) / 4000.0 - torch.cos(z / torch.sqrt(j)).prod(-1)


def levy(z: Tensor) -> Tensor:
    """Levy: with ``w = 1 + (z - 1) / 4``; minimum 0 at z = 1."""
    w = 1.0 + (z - 1.0) / 4.0
    head = torch.sin(math.pi * w[..., 0]) ** 2
    mid = ((w[..., :-1] - 1) ** 2 * (1 + 10 * torch.sin(math.pi * w[..., :-1] + 1) ** 2)).sum(-1)
    tail = (w[..., -1] - 1) ** 2 * (1 + torch.sin(2 * math.pi * w[..., -1]) ** 2)
    return head + mid + tail


def styblinski_tang(z: Tensor) -> Tensor:
    """Styblinski-Tang: ``sum_j (z_j^4 - 16 z_j^2 + 5 z_j) / 2``; minimum -39.16617 d at z_j = -2.903534."""
    return 0.5 * (z**4 - 16 * z**2 + 5 * z).sum(-1)


def rosenbrock(z: Tensor) -> Tensor:
    """Rosenbrock: ``sum_j 100 (z_{j+1} - z_j^2)^2 + (1 - z_j)^2``; minimum 0 at z = 1."""
    return (100.0 * (z[..., 1:] - z[..., :-1] ** 2) ** 2 + (1.0 - z[..., :-1]) ** 2).sum(-1)


_ST_MIN = -2.903534027771177

PRIORS: dict[str, Callable[[float], float]] = {
    "wide": lambda h: 0.8 * h,
    "narrow": lambda h: min(2.0, 0.4 * h),
}


def check_population(X: Tensor, batch: int, d: int) -> None:
    """Refuse a population that is not ``(batch, N, d)``, naming the shape it has."""
    if X.dim() != 3 or X.shape[0] != batch or X.shape[2] != d:
        raise ValueError(f"population must have shape (B={batch}, N, d={d}), got {tuple(X.shape)}")


@dataclass(frozen=True)
class BaseFunction:
    """A base function with its standard box half-width and its minimiser coordinate ``z*``."""

    fn: Callable[[Tensor], Tensor]
    half_width: float
    z_star: float


BENCHMARKS: dict[str, BaseFunction] = {
    "rastrigin": BaseFunction(rastrigin, 5.12, 0.0),
    "ackley": BaseFunction(ackley, 32.768, 0.0),
    "griewank": BaseFunction(griewank, 600.0, 0.0),
    "levy": BaseFunction(levy, 10.0, 1.0),
    "styblinski_tang": BaseFunction(styblinski_tang, 5.0, _ST_MIN),
    "rosenbrock": BaseFunction(rosenbrock, 5.0, 1.0),
}


class Instances:
    """A batch of ``B`` instances of one problem class, evaluated on populations ``(B, N, d)``.

    ``shift``: ``(B, d)``; ``rotation``: ``(B, d, d)`` or None. Calling with ``X`` of shape
    ``(B, N, d)`` returns ``(B, N)`` objective values (minimum 0 at ``x = shift``).
    """

    def __init__(self, base: BaseFunction, shift: Tensor, rotation: Tensor | None) -> None:
        self.base = base
        self.shift = shift
        self.rotation = rotation

    @property
    def batch(self) -> int:
        return self.shift.shape[0]

    def __call__(self, X: Tensor) -> Tensor:
        check_population(X, self.batch, self.shift.shape[1])
        z = X - self.shift[:, None, :]
        if self.rotation is not None:
            z = z @ self.rotation.transpose(1, 2)
        z_star = torch.full((z.shape[-1],), self.base.z_star, dtype=X.dtype, device=X.device)
        return self.base.fn(z + z_star) - self.base.fn(z_star)

    def subset(self, idx: Tensor) -> Instances:
        """The instances ``idx`` (a 1-D index tensor) as a smaller batch."""
        return Instances(self.base, self.shift[idx], None if self.rotation is None else self.rotation[idx])

    def single(self, b: int) -> Callable[[Tensor], Tensor]:
        """Instance ``b`` as a function of ``(N, d)`` populations (the form :meth:`FlowOptimizer.minimize` takes)."""
        if not 0 <= b < self.batch:
            raise ValueError(f"instance index must be in [0, {self.batch}), got {b}")
        one = Instances(
            self.base, self.shift[b : b + 1], None if self.rotation is None else self.rotation[b : b + 1]
        )
        return lambda X: one(X[None])[0]


@dataclass(frozen=True)
class ProblemClass:
    """A distribution over instances of a benchmark function at dimension ``dim``.

    ``name`` is one of :data:`BENCHMARKS`; ``shift`` the half-width of the uniform shift box (default: set
    by ``prior``, see :data:`PRIORS`); ``rotate`` draws a random rotation per instance.
    """

    name: str
    dim: int
    shift: float | None = None
    rotate: bool = False
    prior: str = "wide"

    def __post_init__(self) -> None:
        if self.name not in BENCHMARKS:
            raise ValueError(f"unknown problem {self.name!r}; accepted: {', '.join(BENCHMARKS)}")
        if isinstance(self.dim, bool) or not isinstance(self.dim, int) or self.dim < 2:
            raise ValueError(f"dim must be an integer >= 2, got {self.dim!r}")
        if self.shift is not None and not (
            isinstance(self.shift, int | float) and math.isfinite(self.shift) and self.shift >= 0
        ):
            raise ValueError(f"shift must be a finite number >= 0, got {self.shift!r}")
        if self.prior not in PRIORS:
            raise ValueError(f"unknown prior {self.prior!r}; accepted: {', '.join(PRIORS)}")

    @property
    def base(self) -> BaseFunction:
        return BENCHMARKS[self.name]

    @property
    def bounds(self) -> tuple[float, float]:
        """The box ``(lower, upper)``, the same on every coordinate."""
        return (-self.base.half_width, self.base.half_width)

    @property
    def lower(self) -> np.ndarray:
        """Per-coordinate lower bounds ``(d,)``."""
        return np.full(self.dim, self.bounds[0])

    @property
    def upper(self) -> np.ndarray:
        """Per-coordinate upper bounds ``(d,)``."""
        return np.full(self.dim, self.bounds[1])

    def with_dim(self, dim: int) -> ProblemClass:
        """The same class at another dimension (for the train-at-d, run-at-10d experiment)."""
        return ProblemClass(self.name, dim, self.shift, self.rotate, self.prior)

    @property
    def shift_half_width(self) -> float:
        """``a`` of ``s ~ U[-a, a]^d``: ``shift`` if given, else the prior's."""
        return self.shift if self.shift is not None else PRIORS[self.prior](self.base.half_width)

    def sample(
        self, n: int, generator: torch.Generator, dtype: torch.dtype = torch.float32, device: str = "cpu"
    ) -> Instances:
        """Draw ``n`` random instances; repeatable for a seeded ``generator``."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"number of instances must be a positive integer, got {n!r}")
        shift = (
            torch.rand(n, self.dim, generator=generator, dtype=torch.float64) * 2 - 1
        ) * self.shift_half_width
        return self._instances(shift, generator, dtype, device)

    def sample_at_offset(
        self,
        n: int,
        fraction: float,
        generator: torch.Generator,
        side: str = "random",
        dtype: torch.dtype = torch.float32,
        device: str = "cpu",
    ) -> Instances:
        """``n`` instances whose optimum sits at ``fraction`` of the half-width from the centre on every coordinate.

        ``s_j = sigma_j * fraction * h`` with random signs (``side="random"``) or all towards the lower
        edge (``side="lower"``: ``fraction`` near 1 puts the optimum next to the lower corner). For the
        generalisation table: ``fraction <= 0.8`` lies in the support of the wide prior.
        """
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"number of instances must be a positive integer, got {n!r}")
        if not (isinstance(fraction, int | float) and 0 <= fraction < 1):
            raise ValueError(f"fraction must be a number in [0, 1), got {fraction!r}")
        if side not in ("random", "lower"):
            raise ValueError(f"side must be 'random' or 'lower', got {side!r}")
        if side == "lower":
            signs = -torch.ones(n, self.dim, dtype=torch.float64)
        else:
            signs = torch.randint(0, 2, (n, self.dim), generator=generator).to(torch.float64) * 2 - 1
        return self._instances(signs * fraction * self.base.half_width, generator, dtype, device)

    def _instances(
        self, shift: Tensor, generator: torch.Generator, dtype: torch.dtype, device: str
    ) -> Instances:
        rotation = None
        if self.rotate:
            q, r = torch.linalg.qr(
                torch.randn(shift.shape[0], self.dim, self.dim, generator=generator, dtype=torch.float64)
            )
            rotation = (q * torch.sign(torch.diagonal(r, dim1=-2, dim2=-1))[:, None, :]).to(dtype).to(device)
        return Instances(self.base, shift.to(dtype).to(device), rotation)
