"""Baselines: no control, open loop, PI on sensors, oracle MPC on the true simulator, CEM-MPC on the
learned operator [settings inferred, fixed before any run].

Every baseline has the interface ``act(history, preference) -> (u, info)``; only the oracle is given
the true plant and field (it is the reference that sets the cost scale, not a competitor).
"""

from __future__ import annotations

import time

import numpy as np

from icml26.neuronctrl.controller import History, RigCache, cem_plan, observe
from icml26.neuronctrl.env import Rig, check_preference
from icml26.neuronctrl.generator import project_actions
from icml26.neuronctrl.plant import EcsRd

OPEN_LOOP_LEVEL = 0.3  # constant clearance, fraction of u_max
PI_GAINS = (0.1, 0.02)  # (Kp, Ki) per mM of sensor excess


def _feasible(u, u_prev, rig: Rig) -> np.ndarray:
    return project_actions(np.asarray(u, float)[None, None], u_prev, rig)[0, 0]


class NoControl:
    def act(self, history: History, preference):
        return np.zeros(history.rig.m), {"latency": 0.0}


class OpenLoop:
    """Constant clearance at ``level`` u_max on every actuator (ramped within the rate limit)."""

    def __init__(self, level: float = OPEN_LOOP_LEVEL):
        self.level = level

    def act(self, history: History, preference):
        t0, rig = time.perf_counter(), history.rig
        u = _feasible(np.full(rig.m, self.level * rig.u_low), history.actions[-1], rig)
        return u, {"latency": time.perf_counter() - t0}


class PISensors:
    """PI on the excess of the 3 sensors nearest each actuator: u_j = -(Kp e_j + Ki sum e_j), clipped,
    with the integral frozen while saturated (anti-windup)."""

    def __init__(self, gains=PI_GAINS, nearest: int = 3):
        self.kp, self.ki, self.nearest = gains[0], gains[1], nearest
        self._rig, self._integral, self._near = None, None, None

    def reset(self, rig: Rig):
        pos = rig.morphology.positions[rig.sensors]
        d = np.linalg.norm(pos[None] - rig.actuator_positions[:, None], axis=2)
        self._rig, self._near = rig, np.argsort(d, axis=1)[:, : self.nearest]
        self._integral = np.zeros(rig.m)

    def act(self, history: History, preference):
        t0, rig = time.perf_counter(), history.rig
        if self._rig is not rig:
            self.reset(rig)
        e = (history.sensors[-1] - rig.rest)[self._near].mean(axis=1)
        raw = -(self.kp * e + self.ki * (self._integral + e))
        u = _feasible(raw, history.actions[-1], rig)
        self._integral = np.where(np.isclose(u, raw), self._integral + e, self._integral)
        return u, {"latency": time.perf_counter() - t0}


class OracleMPC:
    """CEM shooting on the true simulator from the true state, horizon 10, 20 iterations, warm-started
    by the shifted last plan. ``penalty`` = 0: the unconstrained oracle (the cost scale); > 0: the
    constrained oracle, whose rollout cost adds penalty * (1[violated] + 10 * relative excess) per step
    (the safe reference: whether the bounds can be kept at all on an episode). The puff schedule is
    unknown to it, as to every controller."""

    def __init__(self, plant: EcsRd, horizon: int = 10, iters: int = 20, pop: int = 16, elites: int = 4,
                 seed: int = 0, penalty: float = 0.0):  # fmt: skip
        if not (np.isfinite(penalty) and penalty >= 0):
            raise ValueError(f"penalty must be a finite number >= 0, got {penalty}")
        self.plant, self.horizon, self.iters, self.pop, self.elites = plant, horizon, iters, pop, elites
        self.penalty = float(penalty)
        self.rng = np.random.default_rng(seed)
        self.plan = None
        self.field = None  # set by the loop before each act: the oracle's privilege

    def act(self, history: History, preference):
        t0, rig, w = time.perf_counter(), history.rig, check_preference(preference)
        u_prev = history.actions[-1]
        mean = np.full((self.horizon, rig.m), rig.u_low / 2) if self.plan is None else np.vstack(
            [self.plan[1:], self.plan[-1:]])  # fmt: skip
        std = np.full((self.horizon, rig.m), (rig.u_high - rig.u_low) / 2)
        best, best_cost = mean, np.inf
        for _ in range(self.iters):
            us = project_actions(
                mean + std * self.rng.normal(size=(self.pop, self.horizon, rig.m)), u_prev, rig
            )
            us[0] = project_actions(mean[None], u_prev, rig)[0]  # keep the incumbent
            cost = self.rollout_cost(us, u_prev, w)
            order = np.argsort(cost)
            if cost[order[0]] < best_cost:
                best, best_cost = us[order[0]], cost[order[0]]
            el = us[order[: self.elites]]
            mean, std = el.mean(0), el.std(0) + 0.01
        self.plan = best
        return best[0].copy(), {"latency": time.perf_counter() - t0}

    def rollout_cost(self, us: np.ndarray, u_prev: np.ndarray, w: np.ndarray) -> np.ndarray:
        c = np.repeat(self.field[:, None], us.shape[0], axis=1)
        total, prev = np.zeros(us.shape[0]), np.broadcast_to(u_prev, (us.shape[0], us.shape[2]))
        umax2 = self.plant.spec.u_max**2
        for k in range(us.shape[1]):
            c = self.plant.step(c, us[:, k].T)
            field = self.plant.field(c)
            task = self.plant.task_cost(field)
            if self.penalty:
                excess = self.plant.violation(field)
                total += self.penalty * ((excess > 1e-6) + 10.0 * np.maximum(excess, 0.0))
            total += w[0] * task + w[1] * np.mean(us[:, k] ** 2, 1) / umax2 + w[2] * np.mean(
                (us[:, k] - prev) ** 2, 1) / umax2  # fmt: skip
            prev = us[:, k]
        return total


class CemLearned:
    """Sampling MPC (CEM) on the learned operator from the observer's estimate, with the predicted
    bound excess as a penalty and no safety filter: horizon 4, population 24, 3 iterations."""

    def __init__(self, observer, operator, horizon: int = 4, pop: int = 24, iters: int = 3, seed: int = 0):
        self.observer, self.operator = observer, operator
        self.horizon, self.pop, self.iters = horizon, pop, iters
        self.rng = np.random.default_rng(seed)
        self._cache = None

    def act(self, history: History, preference):
        t0, rig, w = time.perf_counter(), history.rig, check_preference(preference)
        if self._cache is None or self._cache.rig is not rig:
            self._cache = RigCache(rig)
        x = observe(self.observer, history, self._cache)
        plan = cem_plan(self.operator, x, history.actions[-1], w, self._cache, self.horizon, self.pop, self.iters,
                        self.rng)  # fmt: skip
        return plan[0].copy(), {"latency": time.perf_counter() - t0}
