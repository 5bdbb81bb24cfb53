"""The plant: ionic reaction-diffusion on a morphology graph, and the ``ecs_rd`` benchmark [inferred].

Finite-volume reaction-diffusion on a :class:`~icml26.neuronctrl.morphology.Morphology`,

    V dc/dt = -D L c + V f(c) + B u,                                                  (P1)

stepped IMEX (implicit diffusion, explicit reaction and actuation) with one sparse LU factorisation
made once per morphology,

    (V + dt D L) c_{n+1} = V c_n + dt V f(c_n) + dt B u_n.                            (P2)

Without reaction or actuation, 1^T L = 0 gives sum_i V_i c_i conserved exactly (no-flux boundary);
a generalised eigenmode L phi = lambda V phi decays by (1 + dt D lambda)^-1 per step.

``ecs_rd`` (the paper's "extracellular reaction-diffusion control", rebuilt here: the paper's 3-D
high-fidelity simulator is not available): bistable extracellular K+ with
f(c) = -k (c - c0)(c - c_th)(c - c_max) on the extracellular shell; focal K+ puffs launch
spreading-depolarisation-like fronts; ``m`` clearance actuators u_j in [-u_max, 0] with Gaussian
footprints; 4% of nodes carry noisy sensors. Constraints: c >= c_min everywhere (no over-clearance),
c <= c_crit in a protected region around the soma, and box / rate / budget limits on u.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import splu

from icml26.neuronctrl.morphology import Morphology, branching_morphology


class ReactionDiffusion:
    """IMEX integrator of Eq. (P1) on a morphology: one ``splu`` of ``V + dt D L`` (Eq. P2).

    ``reaction``: f(c) -> array like c (or None); ``step`` accepts c of shape (N,) or (N, P)
    (P states at once, e.g. an MPC population) and a source ``B u`` of the same shape (mass / time).
    """

    def __init__(self, morphology: Morphology, diffusion: float, dt: float, reaction=None):
        if not isinstance(morphology, Morphology):
            raise ValueError("morphology must be a Morphology")
        if not (np.isfinite(diffusion) and diffusion >= 0) or not (np.isfinite(dt) and dt > 0):
            raise ValueError(f"need diffusion >= 0 and dt > 0, got diffusion={diffusion}, dt={dt}")
        self.morphology, self.diffusion, self.dt, self.reaction = (
            morphology,
            float(diffusion),
            float(dt),
            reaction,
        )
        self.volumes = morphology.volumes
        self.L = morphology.laplacian()
        self._lu = splu((sp.diags(self.volumes) + self.dt * self.diffusion * self.L).tocsc())

    def step(self, c: np.ndarray, source: np.ndarray | None = None) -> np.ndarray:
        c = np.asarray(c, float)
        if c.shape[0] != self.morphology.n:
            raise ValueError(f"field has {c.shape[0]} rows, the morphology {self.morphology.n} nodes")
        v = self.volumes if c.ndim == 1 else self.volumes[:, None]
        rhs = v * c
        if self.reaction is not None:
            rhs = rhs + self.dt * v * self.reaction(c)
        if source is not None:
            rhs = rhs + self.dt * np.asarray(source, float)
        return self._lu.solve(rhs)


@dataclass(frozen=True)
class EcsRdSpec:
    """Settings of ``ecs_rd`` [inferred; chosen before any controller was run]."""

    c0: float = 3.0  # resting [K+]_o, mM
    c_th: float = 10.0  # unstable threshold
    c_max: float = 30.0  # depolarised state
    kappa: float = 0.6  # k (c_max - c0)^2, the reaction rate of the normalised Nagumo form
    diffusion: float = 4.0  # um^2 / time unit (effective, tortuosity included)
    dt: float = 0.5
    substeps: int = 2  # env step = substeps * dt
    n_actuators: int = 6
    u_max: float = 1.0  # u_j in [-u_max, 0]
    rate: float = 0.5  # |u_t - u_{t-1}| <= rate
    budget: float = 4.0  # sum_j |u_j| <= budget
    gain: float = 1500.0  # mass / time removed at u_j = -1
    footprint: float = 8.0  # Gaussian footprint width, um
    c_min: float = 1.5  # over-clearance bound, everywhere
    c_crit: float = 12.0  # protected-region bound
    roi_radius: float = 14.0  # protected region: shell nodes within this distance of the soma
    sensor_fraction: float = 0.04
    noise: float = 0.05  # sensor noise, mM
    puff_rate: float = 0.03  # new puffs per step
    puff_radius: float = 8.0
    horizon: int = 100  # steps per episode

    @property
    def k(self) -> float:
        return self.kappa / (self.c_max - self.c0) ** 2


def bistable(c, c0: float, c_th: float, c_max: float, k: float):
    """f(c) = -k (c - c0)(c - c_th)(c - c_max): stable at c0 and c_max, threshold c_th."""
    return -k * (c - c0) * (c - c_th) * (c - c_max)


def front_speed(diffusion: float, c0: float, c_th: float, c_max: float, k: float) -> float:
    """Travelling-front speed of c_t = D c_xx + f(c): v = (c_max - c0) sqrt(k D / 2) (1 - 2a) with
    a = (c_th - c0) / (c_max - c0) (the Nagumo formula after u = (c - c0) / (c_max - c0))."""
    a = (c_th - c0) / (c_max - c0)
    return (c_max - c0) * np.sqrt(k * diffusion / 2.0) * (1.0 - 2.0 * a)


class EcsRd:
    """The ``ecs_rd`` plant on one morphology: its solver, actuators, sensors, constraints and cost.

    Fields are (N,) or (N, P). ``step(c, u)`` advances one env step (``substeps`` IMEX steps, u held).
    """

    name = "ecs_rd"

    def __init__(self, morphology: Morphology, spec: EcsRdSpec | None = None, rig_seed: int = 0):
        morphology.require_connected()
        self.morphology, self.spec = morphology, spec or EcsRdSpec()
        s = self.spec
        self.sim = ReactionDiffusion(
            morphology, s.diffusion, s.dt, lambda c: bistable(c, s.c0, s.c_th, s.c_max, s.k)
        )
        pos, n = morphology.positions, morphology.n
        r = np.linalg.norm(pos - morphology.soma, axis=1)
        self.roi = np.flatnonzero(r <= s.roi_radius)
        if self.roi.size == 0:
            self.roi = np.array([int(np.argmin(r))])
        rng = np.random.default_rng(10_000 + rig_seed)
        # actuators: farthest-point sampling among nodes outside the protected region (inner 85%)
        ring = np.flatnonzero((r > s.roi_radius) & (r <= np.quantile(r, 0.85)))
        ring = ring if ring.size >= s.n_actuators else np.argsort(r)[: max(s.n_actuators, 1) * 3]
        chosen = [int(ring[np.argmin(r[ring])])]
        while len(chosen) < s.n_actuators:
            d = np.min(np.linalg.norm(pos[ring, None] - pos[chosen][None], axis=2), axis=1)
            chosen.append(int(ring[np.argmax(d)]))
        self.actuator_positions = pos[chosen]
        self.B = actuator_footprints(morphology, self.actuator_positions, s.footprint, s.gain)
        p = max(2, int(round(s.sensor_fraction * n)))
        self.sensors = np.sort(rng.choice(n, size=p, replace=False))
        self.far = np.flatnonzero(r >= 1.5 * s.roi_radius)
        if self.far.size == 0:
            raise ValueError(
                f"no node lies >= {1.5 * s.roi_radius:g} um from the soma (puff sites), the farthest is"
                f" {r.max():.3g}; positions are in micrometres and the morphology must extend beyond the"
                f" protected region (radius {s.roi_radius:g} um)"
            )
        self.lower = np.full(n, s.c_min)
        self.upper = np.full(n, np.inf)
        self.upper[self.roi] = s.c_crit

    @property
    def n(self) -> int:
        return self.morphology.n

    @property
    def m(self) -> int:
        return self.spec.n_actuators

    def rest(self) -> np.ndarray:
        """The resting state (for ecs_rd the state is the field)."""
        return np.full(self.n, self.spec.c0)

    def field(self, state: np.ndarray) -> np.ndarray:
        """The observed, constrained field of a state (ecs_rd: the state itself)."""
        return np.asarray(state)

    def step(self, c: np.ndarray, u: np.ndarray) -> np.ndarray:
        """One env step: ``substeps`` IMEX steps of Eq. (P2) with source B u; u (m,) or (m, P)."""
        u = np.asarray(u, float)
        if u.shape[0] != self.m:
            raise ValueError(f"action has {u.shape[0]} entries, ecs_rd takes {self.m} (one per actuator)")
        src = self.B @ u
        for _ in range(self.spec.substeps):
            c = self.sim.step(c, src)
        return c

    def puff(self, c: np.ndarray, node: int) -> np.ndarray:
        """A focal K+ puff: raise c towards c_max in a Gaussian ball around ``node``."""
        d2 = np.sum((self.morphology.positions - self.morphology.positions[node]) ** 2, axis=1)
        w = np.exp(-d2 / (2 * self.spec.puff_radius**2))
        return c + w * (self.spec.c_max - c)

    def task_cost(self, c: np.ndarray) -> np.ndarray:
        """Volume-weighted mean K+ excess over rest, normalised by (c_max - c0) [inferred]."""
        v = self.morphology.volumes
        return (v @ (c - self.spec.c0)) / (v.sum() * (self.spec.c_max - self.spec.c0))

    def violation(self, c: np.ndarray) -> np.ndarray:
        """Largest relative excess over the field bounds (<= 0 when safe); shape c.shape[1:]."""
        c2 = c if c.ndim > 1 else c[:, None]
        low = (self.lower[:, None] - c2) / self.spec.c_min
        up = (c2[self.roi] - self.upper[self.roi, None]) / self.spec.c_crit
        out = np.maximum(low.max(axis=0), up.max(axis=0))
        return out if c.ndim > 1 else out[0]


def actuator_footprints(m: Morphology, positions: np.ndarray, width: float, gain: float) -> np.ndarray:
    """(N, m) footprints: column j is gain * V_i exp(-d_ij^2 / 2 width^2) / sum_i (...), so u_j = -1
    removes ``gain`` mass per time unit, spread over the volumes near actuator j."""
    d2 = np.sum((m.positions[:, None, :] - np.asarray(positions)[None]) ** 2, axis=2)
    w = m.volumes[:, None] * np.exp(-d2 / (2 * width**2))
    return gain * w / w.sum(axis=0, keepdims=True)


BENCHMARKS = ("ecs_rd", "dbs", "astro_k")


def make_plant(benchmark: str, morphology_seed: int, spec=None):
    """The plant of ``benchmark`` (ecs_rd, dbs, astro_k) on the synthetic morphology of ``morphology_seed``."""
    if benchmark not in BENCHMARKS:
        raise ValueError(f"benchmark {benchmark!r} is unknown; accepted: {', '.join(BENCHMARKS)}")
    if (
        isinstance(morphology_seed, bool)
        or not isinstance(morphology_seed, int | np.integer)
        or morphology_seed < 0
    ):
        raise ValueError(f"morphology_seed must be a non-negative integer, got {morphology_seed!r}")
    morph = branching_morphology(int(morphology_seed))
    if benchmark == "ecs_rd":
        return EcsRd(morph, spec, rig_seed=int(morphology_seed))
    from icml26.neuronctrl.benchmarks import AstroK, Dbs

    return (Dbs if benchmark == "dbs" else AstroK)(morph, spec, rig_seed=int(morphology_seed))
