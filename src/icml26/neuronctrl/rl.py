"""RL baselines: PPO and SAC (``stable-baselines3``) with constraint penalties, and PPO behind the same
safety filter as NeuronCtrl [settings inferred, fixed before any run].

The paper's RL baselines are not readable here; ours follow issue #41's list. What an RL policy sees
is what every controller sees (sensor readings, its past action, the rig), mapped to a fixed-size,
morphology-independent feature vector so one policy serves every morphology (:func:`features`):

    phi = [ e_1..e_m (the mean excess of the 3 sensors nearest each actuator, / scale),
            u_prev / u_max (m), mean and max sensor excess / scale ]                     (R1)

Action: a in [-1, 1]^m mapped affinely onto the box [u_low, u_high], then projected onto the rate and
budget limits (``project_actions``), so action limits always hold. Reward with penalties:

    r = -cost - PENALTY_STEP * 1[field violated] - PENALTY_EXCESS * max(excess, 0)         (R2)

with cost the env's preference-weighted cost at the evaluation (aggressive) preference and excess the
largest relative bound excess on the true field. Training: on the training morphologies only (each
reset draws one), tested on unseen ones. ``FilteredRL`` puts the trained PPO's action through
NeuronCtrl's QP filter (action rows and field barriers linearised through the learned operator from
the observer's estimate), i.e. "PPO + the same filter".
"""

from __future__ import annotations

import time

import gymnasium as gym
import numpy as np

from icml26.neuronctrl.controller import History, NeuronCtrl, observe
from icml26.neuronctrl.env import AGGRESSIVE, Rig, check_preference, make_env
from icml26.neuronctrl.generator import project_actions

PENALTY_STEP = 1.0  # reward penalty per violated step (R2)
PENALTY_EXCESS = 10.0  # reward penalty per unit of relative bound excess (R2)
NEAREST = 3  # sensors averaged per actuator in (R1)
ALGORITHMS = ("ppo", "sac")


class _Features:
    """The fixed-size features (R1) of one rig (nearest sensors per actuator, cached)."""

    def __init__(self, rig: Rig):
        pos = rig.morphology.positions[rig.sensors]
        d = np.linalg.norm(pos[None] - rig.actuator_positions[:, None], axis=2)
        self.rig, self.near = rig, np.argsort(d, axis=1)[:, :NEAREST]

    def __call__(self, y: np.ndarray, u_prev: np.ndarray) -> np.ndarray:
        rig = self.rig
        e = (np.asarray(y, float) - rig.rest) / rig.scale
        umax = max(abs(rig.u_low), abs(rig.u_high))
        return np.concatenate(
            [e[self.near].mean(axis=1), np.asarray(u_prev) / umax, [e.mean(), e.max()]]
        ).astype(np.float32)


def features(rig: Rig, y: np.ndarray, u_prev: np.ndarray) -> np.ndarray:
    """(2m + 2,) features (R1) of readings ``y`` and the previous action on ``rig``."""
    return _Features(rig)(y, u_prev)


def to_action(a: np.ndarray, u_prev: np.ndarray, rig: Rig) -> np.ndarray:
    """[-1, 1]^m -> the box (affine), then the rate and budget projection."""
    a = np.clip(np.asarray(a, float), -1.0, 1.0)
    u = rig.u_low + (a + 1.0) / 2.0 * (rig.u_high - rig.u_low)
    return project_actions(u[None, None], u_prev, rig)[0, 0]


class PenaltyEnv(gym.Env):
    """Training env: each reset draws one training morphology; observation (R1), reward (R2)."""

    metadata = {"render_modes": []}

    def __init__(self, benchmark: str, morph_seeds, steps: int, preference=AGGRESSIVE, seed: int = 0):
        if len(morph_seeds) == 0:
            raise ValueError("PenaltyEnv needs at least one training morphology seed")
        self.envs = [make_env(benchmark, int(s), check_preference(preference), steps) for s in morph_seeds]
        self.feats = [_Features(e.rig) for e in self.envs]
        m = self.envs[0].rig.m
        self.action_space = gym.spaces.Box(-1.0, 1.0, (m,), np.float32)
        self.observation_space = gym.spaces.Box(-np.inf, np.inf, (2 * m + 2,), np.float32)
        self._rng = np.random.default_rng(seed)
        self.k = 0

    def reset(self, *, seed: int | None = None, options=None):
        super().reset(seed=seed)
        self.k = int(self._rng.integers(len(self.envs)))
        y, _ = self.envs[self.k].reset(seed=int(self._rng.integers(2**31)))
        self.u_prev = np.zeros(self.envs[self.k].rig.m)
        return self.feats[self.k](y, self.u_prev), {}

    def step(self, action):
        env = self.envs[self.k]
        u = to_action(action, self.u_prev, env.rig)
        y, r, term, trunc, info = env.step(u)
        excess = max(info["field_violation"], 0.0)
        r = r - PENALTY_STEP * float(info["violated"]) - PENALTY_EXCESS * excess
        self.u_prev = u
        return self.feats[self.k](y, u), float(r), term, trunc, info


def train_rl(algo: str, benchmark: str, morph_seeds, timesteps: int, steps: int, seed: int):
    """A stable-baselines3 PPO or SAC policy (MLP, library defaults but for the sizes below) trained
    on ``timesteps`` steps of :class:`PenaltyEnv`."""
    if algo not in ALGORITHMS:
        raise ValueError(f"algo must be one of {ALGORITHMS}, got {algo!r}")
    if not isinstance(timesteps, int) or timesteps < 1:
        raise ValueError(f"timesteps must be a positive integer, got {timesteps!r}")
    from stable_baselines3 import PPO, SAC

    env = PenaltyEnv(benchmark, morph_seeds, steps, seed=seed)
    kw = dict(policy_kwargs={"net_arch": [64, 64]}, seed=seed, device="cpu", verbose=0)
    if algo == "ppo":
        model = PPO("MlpPolicy", env, n_steps=min(1024, max(64, timesteps)), batch_size=64, **kw)
    else:
        model = SAC("MlpPolicy", env, learning_starts=min(500, timesteps // 4), buffer_size=max(timesteps, 1000),
                    batch_size=128, **kw)  # fmt: skip
    model.learn(total_timesteps=timesteps)
    return model


class RLController:
    """A trained SB3 policy as a controller: ``act(history, preference)`` (deterministic action)."""

    def __init__(self, model):
        self.model, self._feat = model, None

    def nominal(self, history: History) -> np.ndarray:
        rig = history.rig
        if self._feat is None or self._feat.rig is not rig:
            self._feat = _Features(rig)
        u_prev = history.actions[-1]
        a, _ = self.model.predict(self._feat(history.sensors[-1], u_prev), deterministic=True)
        return to_action(a, u_prev, rig)

    def act(self, history: History, preference):
        if not isinstance(history, History):
            raise ValueError("act takes a History (sensor readings, past actions, rig), not simulator state")
        t0 = time.perf_counter()
        u = self.nominal(history)
        return u, {"latency": time.perf_counter() - t0}


class FilteredRL(RLController):
    """PPO + the same filter: the RL action is NeuronCtrl's nominal, filtered by its QP (field barriers
    linearised through the learned operator at the observer's estimate)."""

    def __init__(self, model, ctrl: NeuronCtrl):
        super().__init__(model)
        if ctrl.safety != "qp":
            raise ValueError("FilteredRL needs a NeuronCtrl with the QP filter (safety='qp')")
        self.ctrl = ctrl

    def cache(self, rig):
        return self.ctrl.cache(rig)

    def act(self, history: History, preference):
        if not isinstance(history, History):
            raise ValueError("act takes a History (sensor readings, past actions, rig), not simulator state")
        t0 = time.perf_counter()
        cache = self.ctrl.cache(history.rig)
        u_nom = self.nominal(history)
        x = observe(self.ctrl.observer, history, cache)
        g, h = self.ctrl.barrier_rows(x, u_nom, cache)
        res = cache.filter.filter(u_nom, history.actions[-1], g, h)
        return res.u, {"latency": time.perf_counter() - t0, "intervened": res.intervened, "ratio": res.ratio,
                       "slack": res.slack, "u_nom": u_nom, "rows": (g, h)}  # fmt: skip
