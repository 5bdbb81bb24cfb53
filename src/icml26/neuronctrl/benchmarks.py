"""The ``dbs`` and ``astro_k`` benchmarks: two-variable plants with a hidden second state [inferred].

The paper's deep-brain-stimulation and astrocytic-potassium benchmarks are high-fidelity 3-D
simulators that are not readable here; these are small stand-ins on the same synthetic morphologies,
layout (actuators, sensors, protected region, puffs) and interface as ``ecs_rd``. The plant state is
``s = [z; q]`` (2N, or (2N, P)): the constrained, observed field z and a hidden second variable q that
no controller sees (sensors read z only, the learned parts estimate z only). ``field(s)`` returns z.
Both are stepped IMEX: implicit diffusion of each variable with its own ``splu`` (one per morphology),
explicit reaction and actuation.

``dbs`` — FitzHugh–Nagumo excitable field (v = z, recovery w = q) on the morphology graph:

    dv/dt = D_v L_V v + v - v^3/3 - w + I_focus + sum_j Phi_j u_j,   dw/dt = eps (v + a - b w),   (D1)

with I_focus > 0 on a focal region far from the soma (a self-sustained pathological oscillation that
launches waves) and u_j in [-u_max, 0] hyperpolarising point-electrode currents with Gaussian
footprints Phi_j (peak ``gain``). Constraints: v <= v_crit in the protected region around the soma (no
entrained spiking there) and v >= v_min everywhere (no over-inhibition). Task cost: the
volume-weighted mean (v - v_rest) / (v_peak - v_rest).

``astro_k`` — extracellular K+ c = z and astrocytic K+ load a = q (gap-junction diffusion D_a):

    dc/dt = D_e L_V c + f(c) + J0 - J(c, a, u),    da/dt = D_a L_V a + J(c, a, u) - J0 - k_s (a - a0),
    J = k_up (1 + gamma sum_j Phi_j (-u_j)) c / (c + K_m) sat(a),  sat(a) = clip((a_max - a) / (a_max - a0), 0, 1),
                                                                                             (A1)

f the bistable release of ``ecs_rd``, J0 = k_up c0 / (c0 + K_m) the resting uptake, u_j in
[-u_max, 0] uptake-gain actions. Uptake fills the astrocytes; a saturated syncytium stops buffering
(the hidden state makes history matter). Constraints as in ``ecs_rd``: c >= c_min everywhere (no
over-clearance), c <= c_crit in the protected region. (L_V = V^-1 L: the finite-volume operator.)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import splu

from icml26.neuronctrl.morphology import Morphology
from icml26.neuronctrl.plant import EcsRd, bistable


def _footprints(m: Morphology, positions: np.ndarray, width: float, gain: float) -> np.ndarray:
    """(N, m) Gaussian footprints with peak ``gain`` (a local rate, not a mass)."""
    d2 = np.sum((m.positions[:, None, :] - np.asarray(positions)[None]) ** 2, axis=2)
    return gain * np.exp(-d2 / (2 * width**2))


class _TwoVariable(EcsRd):
    """Shared machinery: layout from ``EcsRd`` (actuators, sensors, protected region, puffs), state
    ``[z; q]``, one factorisation per variable, violation relative to the field's scale."""

    name = "two_variable"

    def __init__(self, morphology: Morphology, spec, rig_seed: int = 0):
        super().__init__(morphology, spec, rig_seed)
        s = self.spec
        vol = sp.diags(morphology.volumes)
        lap = morphology.laplacian()
        self._lu_z = splu((vol + s.dt * s.diffusion * lap).tocsc())
        self._lu_q = splu((vol + s.dt * s.diffusion_q * lap).tocsc())
        self.Phi = _footprints(morphology, self.actuator_positions, s.footprint, s.gain)

    def field(self, state: np.ndarray) -> np.ndarray:
        """The observed, constrained field z (the first N rows of the state)."""
        return np.asarray(state)[: self.n]

    def hidden(self, state: np.ndarray) -> np.ndarray:
        return np.asarray(state)[self.n :]

    def rest(self) -> np.ndarray:
        s = self.spec
        return np.concatenate([np.full(self.n, s.c0), np.full(self.n, s.q0)])

    def _rates(self, z, q, u):  # pragma: no cover - abstract
        raise NotImplementedError

    def step(self, c: np.ndarray, u: np.ndarray) -> np.ndarray:
        u = np.asarray(u, float)
        if u.shape[0] != self.m:
            raise ValueError(
                f"action has {u.shape[0]} entries, {self.name} takes {self.m} (one per actuator)"
            )
        state = np.asarray(c, float)
        if state.shape[0] != 2 * self.n:
            raise ValueError(f"{self.name} state has {state.shape[0]} rows, expected 2N = {2 * self.n}")
        s, v = self.spec, self.morphology.volumes
        v = v if state.ndim == 1 else v[:, None]
        z, q = state[: self.n], state[self.n :]
        for _ in range(s.substeps):
            fz, fq = self._rates(z, q, u)
            z, q = self._lu_z.solve(v * (z + s.dt * fz)), self._lu_q.solve(v * (q + s.dt * fq))
        return np.concatenate([z, q])

    def puff(self, c: np.ndarray, node: int) -> np.ndarray:
        """A focal perturbation of the field z towards c_max (the hidden variable untouched)."""
        d2 = np.sum((self.morphology.positions - self.morphology.positions[node]) ** 2, axis=1)
        w = np.exp(-d2 / (2 * self.spec.puff_radius**2))
        out = np.array(c, float)
        out[: self.n] += w * (self.spec.c_max - out[: self.n])
        return out

    def task_cost(self, c: np.ndarray) -> np.ndarray:
        z = c[: self.n] if np.asarray(c).shape[0] == 2 * self.n else c
        return super().task_cost(z)

    def violation(self, c: np.ndarray) -> np.ndarray:
        """Largest excess over the field bounds relative to the field's scale (<= 0 when safe)."""
        z = c[: self.n] if np.asarray(c).shape[0] == 2 * self.n else np.asarray(c)
        z2 = z if z.ndim > 1 else z[:, None]
        scale = self.spec.c_max - self.spec.c0
        low = (self.lower[:, None] - z2) / scale
        up = (z2[self.roi] - self.upper[self.roi, None]) / scale
        out = np.maximum(low.max(axis=0), up.max(axis=0))
        return out if z.ndim > 1 else out[0]


@dataclass(frozen=True)
class DbsSpec:
    """Settings of ``dbs`` [inferred; chosen before any controller was run]. c0 = v_rest, c_max = the
    spike peak; c_min = v_min (over-inhibition), c_crit = v_crit (protected region)."""

    c0: float = -1.1994  # the FHN resting v (I = 0)
    c_th: float = 0.0  # unused (EcsRd layout fields)
    c_max: float = 2.0
    kappa: float = 0.0
    q0: float = -0.6243  # w at rest
    a: float = 0.7
    b: float = 0.8
    eps: float = 0.08
    focus_current: float = 0.6  # I_focus in the focal region (oscillatory regime)
    focus_radius: float = 12.0
    diffusion: float = 6.0  # D_v
    diffusion_q: float = 0.0  # w does not diffuse
    dt: float = 0.25
    substeps: int = 4
    n_actuators: int = 6
    u_max: float = 1.0
    rate: float = 0.5
    budget: float = 4.0
    gain: float = 1.2  # peak hyperpolarising current at u_j = -1
    footprint: float = 10.0
    c_min: float = -1.5
    c_crit: float = 1.0
    roi_radius: float = 14.0
    sensor_fraction: float = 0.04
    noise: float = 0.03
    puff_rate: float = 0.02
    puff_radius: float = 6.0
    horizon: int = 100

    @property
    def k(self) -> float:
        return 0.0


class Dbs(_TwoVariable):
    """``dbs``: Eq. (D1) on one morphology."""

    name = "dbs"

    def __init__(self, morphology: Morphology, spec: DbsSpec | None = None, rig_seed: int = 0):
        super().__init__(morphology, spec or DbsSpec(), rig_seed)
        s = self.spec
        r = np.linalg.norm(morphology.positions - morphology.soma, axis=1)
        centre = morphology.positions[int(np.argmax(r))]  # the focus: the node farthest from the soma
        d = np.linalg.norm(morphology.positions - centre, axis=1)
        self.focus = np.flatnonzero(d <= s.focus_radius)
        self.I = np.zeros(self.n)
        self.I[self.focus] = s.focus_current

    def _rates(self, z, q, u):
        s = self.spec
        i_ext = self.I if z.ndim == 1 else self.I[:, None]
        fz = z - z**3 / 3 - q + i_ext + self.Phi @ u
        fq = s.eps * (z + s.a - s.b * q)
        return fz, fq


@dataclass(frozen=True)
class AstroKSpec:
    """Settings of ``astro_k`` [inferred; chosen before any controller was run]."""

    c0: float = 3.0
    c_th: float = 10.0
    c_max: float = 30.0
    kappa: float = 0.6
    q0: float = 3.0  # astrocytic K+ load at rest (mM-equivalent, same offset as c0)
    a_max: float = 20.0  # saturated astrocytic load
    k_up: float = 0.1
    k_m: float = 3.0
    uptake_gain: float = 10.0  # gamma
    k_sink: float = 0.01
    diffusion: float = 4.0  # D_e
    diffusion_q: float = 8.0  # D_a (gap junctions)
    dt: float = 0.5
    substeps: int = 2
    n_actuators: int = 6
    u_max: float = 1.0
    rate: float = 0.5
    budget: float = 4.0
    gain: float = 1.0  # footprint peak (the gain enters through gamma)
    footprint: float = 8.0
    c_min: float = 2.5
    c_crit: float = 12.0
    roi_radius: float = 14.0
    sensor_fraction: float = 0.04
    noise: float = 0.05
    puff_rate: float = 0.03
    puff_radius: float = 8.0
    horizon: int = 100

    @property
    def k(self) -> float:
        return self.kappa / (self.c_max - self.c0) ** 2


class AstroK(_TwoVariable):
    """``astro_k``: Eq. (A1) on one morphology."""

    name = "astro_k"

    def __init__(self, morphology: Morphology, spec: AstroKSpec | None = None, rig_seed: int = 0):
        super().__init__(morphology, spec or AstroKSpec(), rig_seed)

    def uptake(self, c, a, u):
        s = self.spec
        boost = 1.0 + s.uptake_gain * (self.Phi @ (-np.asarray(u, float)))
        sat = np.clip((s.a_max - a) / (s.a_max - s.q0), 0.0, 1.0)
        return s.k_up * boost * np.maximum(c, 0.0) / (np.maximum(c, 0.0) + s.k_m) * sat

    def _rates(self, z, q, u):
        s = self.spec
        j0 = s.k_up * s.c0 / (s.c0 + s.k_m)
        j = self.uptake(z, q, u)
        fz = bistable(z, s.c0, s.c_th, s.c_max, s.k) + j0 - j
        fq = j - j0 - s.k_sink * (q - s.q0)
        return fz, fq
