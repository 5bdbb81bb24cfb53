"""A gymnasium environment over a plant, and the :class:`Rig`: all a controller is told.

Observation and knowledge assumptions (stated, since the paper's are not readable here) [inferred]:
the controller sees the noisy sensor readings y_t = c_t[sensors] + eps, its own past actions, and the
:class:`Rig` (the morphology graph with positions, volumes and conductances; sensor nodes; actuator
positions; the bounds and the protected nodes; the action limits; the resting level). It never sees the
field, the reaction term, the diffusion coefficient, the footprints' gain or the solver's matrices.
"""

from __future__ import annotations

from dataclasses import dataclass

import gymnasium as gym
import numpy as np

from icml26.neuronctrl.morphology import Morphology
from icml26.neuronctrl.plant import EcsRd, make_plant

#: evaluation preference (weights on task cost, energy, smoothness): the issue's "aggressive" one
AGGRESSIVE = (0.9, 0.05, 0.05)


@dataclass(frozen=True)
class Rig:
    """What the controller knows about one plant (no simulator internals)."""

    morphology: Morphology
    sensors: np.ndarray  # (p,) node indices
    actuator_positions: np.ndarray  # (m, 3)
    lower: np.ndarray  # (N,) field lower bounds
    upper: np.ndarray  # (N,) field upper bounds (inf where none)
    u_low: float
    u_high: float
    rate: float
    budget: float
    rest: float
    scale: float  # c_max - c0, the field's natural scale

    @property
    def m(self) -> int:
        return self.actuator_positions.shape[0]

    @classmethod
    def of(cls, plant: EcsRd) -> Rig:
        s = plant.spec
        return cls(plant.morphology, plant.sensors.copy(), plant.actuator_positions.copy(), plant.lower.copy(),
                   plant.upper.copy(), -s.u_max, 0.0, s.rate, s.budget, s.c0, s.c_max - s.c0)  # fmt: skip


def check_preference(w) -> np.ndarray:
    """A preference on the simplex of (task, energy, smoothness) weights, else ValueError."""
    w = np.asarray(w, float)
    if w.shape != (3,) or not np.all(np.isfinite(w)) or np.any(w < 0) or abs(w.sum() - 1) > 1e-6:
        raise ValueError(
            f"preference must be 3 non-negative weights summing to 1 (task, energy, smoothness), got {w}"
        )
    return w


def step_cost(plant: EcsRd, c_next, u, u_prev, preference) -> tuple[float, float, float, float]:
    """(cost, task, energy, smoothness) of one step: energy = mean(u^2) / u_max^2, smoothness =
    mean((u - u_prev)^2) / u_max^2, cost = preference . (task, energy, smoothness)."""
    s = plant.spec
    task = float(plant.task_cost(c_next))
    energy = float(np.mean(np.square(u))) / s.u_max**2
    smooth = float(np.mean(np.square(u - u_prev))) / s.u_max**2
    return float(np.dot(preference, (task, energy, smooth))), task, energy, smooth


class NeuronEnv(gym.Env):
    """gymnasium env: observation = the sensor readings, action = the actuator signals.

    Actions outside the box are clipped (and flagged in ``info["action_violation"]``); a step is
    violated when the true field exceeds a bound by more than 1e-6 relative or the action broke its
    box, rate or budget limit by more than 1e-6.
    """

    metadata = {"render_modes": []}

    def __init__(self, plant: EcsRd, preference=AGGRESSIVE, horizon: int | None = None):
        self.plant, self.rig = plant, Rig.of(plant)
        self.preference = check_preference(preference)
        if horizon is None:
            horizon = plant.spec.horizon
        if isinstance(horizon, bool) or not isinstance(horizon, int | np.integer) or horizon < 1:
            raise ValueError(
                f"horizon must be a positive integer (steps per episode) or None, got {horizon!r}"
            )
        self.horizon = int(horizon)
        self.t = None  # no episode until reset()
        s = plant.spec
        self.action_space = gym.spaces.Box(-s.u_max, 0.0, (plant.m,), np.float64)
        self.observation_space = gym.spaces.Box(-np.inf, np.inf, (plant.sensors.size,), np.float64)

    def reset(self, *, seed: int | None = None, options=None):
        super().reset(seed=seed)
        rng = self.np_random
        self.c = self.plant.puff(self.plant.rest(), int(rng.choice(self.plant.far)))
        # the puff schedule is drawn now and hidden from every controller (the oracle included)
        times = np.flatnonzero(rng.random(self.horizon) < self.plant.spec.puff_rate)
        self.puffs = {int(t): int(rng.choice(self.plant.far)) for t in times}
        self.t, self.u_prev = 0, np.zeros(self.plant.m)
        return self._observe(), {"field": self.plant.field(self.c).copy(), "state": self.c.copy()}

    def _observe(self) -> np.ndarray:
        y = self.c[self.plant.sensors] + self.plant.spec.noise * self.np_random.normal(
            size=self.plant.sensors.size
        )
        return y

    def step(self, action):
        if self.t is None:
            raise ValueError("call reset() before step()")
        if self.t >= self.horizon:
            raise ValueError(f"the episode is over (horizon {self.horizon} steps reached): call reset()")
        a = np.asarray(action, float)
        if a.shape != (self.plant.m,) or not np.all(np.isfinite(a)):
            raise ValueError(
                f"action must be {self.plant.m} finite numbers (one per actuator), got shape {a.shape}"
            )
        s = self.plant.spec
        tol = 1e-6 * s.u_max
        act_viol = bool(
            np.any(a < -s.u_max - tol) or np.any(a > tol) or np.any(np.abs(a - self.u_prev) > s.rate + tol)
            or np.abs(a).sum() > s.budget + tol
        )  # fmt: skip
        u = np.clip(a, -s.u_max, 0.0)
        self.c = self.plant.step(self.c, u)
        if self.t in self.puffs:
            self.c = self.plant.puff(self.c, self.puffs[self.t])
        field = self.plant.field(self.c)
        cost, task, energy, smooth = step_cost(self.plant, field, u, self.u_prev, self.preference)
        field_viol = float(self.plant.violation(field))
        self.u_prev, self.t = u, self.t + 1
        info = {"field": field.copy(), "state": self.c.copy(), "task": task, "energy": energy, "smooth": smooth,
                "field_violation": field_viol, "action_violation": act_viol,
                "violated": bool(field_viol > 1e-6 or act_viol)}  # fmt: skip
        return self._observe(), -cost, False, self.t >= self.horizon, info


def make_env(
    benchmark: str, morphology_seed: int, preference=AGGRESSIVE, horizon: int | None = None
) -> NeuronEnv:
    """``make_env(benchmark, morphology_seed)``: the benchmark ("ecs_rd", "dbs", "astro_k") on the seeded
    synthetic morphology."""
    return NeuronEnv(make_plant(benchmark, morphology_seed), preference, horizon)


for _bench, _id in (("ecs_rd", "EcsRd"), ("dbs", "Dbs"), ("astro_k", "AstroK")):
    # gymnasium ids: gym.make("icml26/EcsRd-v0", morphology_seed=123)
    if f"icml26/{_id}-v0" not in gym.registry:
        gym.register(
            f"icml26/{_id}-v0", entry_point=make_env, kwargs={"benchmark": _bench, "morphology_seed": 100}
        )
