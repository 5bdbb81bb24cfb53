"""NeuronCtrl: observer -> operator -> generator -> safety filter, behind one ``act`` [structure read].

``NeuronCtrl(observer, operator, generator, safety).act(history, preference)`` sees only a
:class:`History` (sensor readings, past actions, the :class:`~icml26.neuronctrl.env.Rig`) and a
preference on the simplex; ``.distill()`` returns the same controller with the one-step student in
place of the multi-step generator and the same safety filter. :func:`cem_plan` is sampling MPC on the
learned operator (the generator's label maker and the CEM-MPC baseline).
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch

from icml26.neuronctrl.env import Rig, check_preference
from icml26.neuronctrl.generator import (
    ActionScale,
    FlowGenerator,
    OneStepPolicy,
    chunk_cost,
    condition,
    project_actions,
)
from icml26.neuronctrl.graph import graph_tensors
from icml26.neuronctrl.observer import Observer
from icml26.neuronctrl.operator import NeuralOperator
from icml26.neuronctrl.safety import SafetyFilter, field_rows, naive_filter

HISTORY = 4  # steps of sensor / action history the observer reads


@dataclass
class History:
    """What the controller sees: readings y_{t-H+1..t} (H, p), the actions before each (H, m), the rig."""

    rig: Rig
    sensors: np.ndarray
    actions: np.ndarray

    def __post_init__(self):
        if not isinstance(self.rig, Rig):
            raise ValueError("history.rig must be a Rig (the morphology, sensors, actuators and bounds)")
        y, u = np.asarray(self.sensors, float), np.asarray(self.actions, float)
        p, m = self.rig.sensors.size, self.rig.m
        if y.ndim != 2 or y.shape[1] != p or u.shape != (y.shape[0], m) or y.shape[0] < 1:
            raise ValueError(
                f"history needs sensors (H, {p}) and actions (H, {m}); got {y.shape} and {u.shape}"
            )
        self.sensors, self.actions = y, u


class RigCache:
    """Per-rig tensors (graph, bounds, volumes, filter), built once."""

    def __init__(self, rig: Rig):
        self.rig, self.g = rig, graph_tensors(rig)
        self.scale = ActionScale(rig)
        self.volumes = torch.as_tensor(rig.morphology.volumes, dtype=torch.float32)
        lo = (rig.lower - rig.rest) / rig.scale
        hi = np.where(np.isfinite(rig.upper), (rig.upper - rig.rest) / rig.scale, 1e6)
        self.bounds = (torch.as_tensor(lo, dtype=torch.float32), torch.as_tensor(hi, dtype=torch.float32))
        self.roi = torch.as_tensor(np.flatnonzero(np.isfinite(rig.upper)), dtype=torch.long)
        self.filter = SafetyFilter(
            np.full(rig.m, rig.u_low), np.full(rig.m, rig.u_high), rig.rate, rig.budget
        )


def pad_history(ys: list, us: list, rig: Rig, h: int = HISTORY) -> History:
    """The last ``h`` readings and the actions before them (zeros and the first reading before t = 0)."""
    ys, us = list(ys), list(us)
    while len(ys) < h:
        ys.insert(0, ys[0])
    us = [np.zeros(rig.m)] * max(0, len(ys) - 1 - len(us)) + us
    acts = [np.zeros(rig.m)] + us  # the action before reading k
    return History(rig, np.asarray(ys[-h:]), np.asarray(acts[len(acts) - h :]))


def observe(observer: Observer, hist: History, cache: RigCache) -> torch.Tensor:
    rig = hist.rig
    y = torch.as_tensor((hist.sensors - rig.rest) / rig.scale, dtype=torch.float32)[None]
    u = torch.as_tensor(hist.actions, dtype=torch.float32)[None]
    with torch.no_grad():
        return observer(y, u, cache.g)[0]


def cem_plan(op, x, u_prev, w, cache: RigCache, horizon: int, pop: int, iters: int, rng: np.random.Generator,
             elites: int = 6, init=None) -> np.ndarray:  # fmt: skip
    """Sampling MPC (the cross-entropy method) on the learned operator: (horizon, m) actions."""
    rig = cache.rig
    mean = np.full((horizon, rig.m), (rig.u_low + rig.u_high) / 2) if init is None else init.copy()
    std = np.full((horizon, rig.m), (rig.u_high - rig.u_low) / 2)
    wt, xt, up = torch.as_tensor(w, dtype=torch.float32), x.expand(pop, -1), torch.as_tensor(u_prev).float()
    best, best_cost = mean, np.inf
    for _ in range(iters):
        us = project_actions(mean + std * rng.normal(size=(pop, horizon, rig.m)), u_prev, rig)
        with torch.no_grad():
            cost = chunk_cost(op, xt, torch.as_tensor(us, dtype=torch.float32), up, wt, cache.g, cache.volumes,
                              cache.bounds, rig).numpy()  # fmt: skip
        order = np.argsort(cost)
        if cost[order[0]] < best_cost:
            best, best_cost = us[order[0]], cost[order[0]]
        el = us[order[:elites]]
        mean, std = el.mean(0), el.std(0) + 0.02
    return best


@dataclass
class NeuronCtrl:
    """The controller. ``safety``: "qp" (the filter), "naive" (scale-to-feasible), "action" (action rows
    only: no field barrier) or "none" (box clip only); ``policy``: the distilled student or None."""

    observer: Observer
    operator: NeuralOperator
    generator: FlowGenerator
    safety: str = "qp"
    policy: OneStepPolicy | None = None
    k_samples: int = 16
    ode_steps: int = 8
    chunk: int = 2
    alpha: float = 0.5
    margin: float = 0.0
    seed: int = 0
    _caches: dict = field(default_factory=dict, repr=False)

    def __post_init__(self):
        if self.safety not in ("qp", "naive", "action", "none"):
            raise ValueError(f"safety must be one of qp, naive, action, none; got {self.safety!r}")
        self._rng = torch.Generator().manual_seed(self.seed)

    def cache(self, rig: Rig) -> RigCache:
        key = id(rig)
        if key not in self._caches:
            self._caches = {key: RigCache(rig)}
        return self._caches[key]

    def propose(self, x: torch.Tensor, u_prev: np.ndarray, w: np.ndarray, cache: RigCache) -> np.ndarray:
        """The nominal action: best of K flow samples (G2), or the student's (G3)."""
        rig = cache.rig
        up = torch.as_tensor(u_prev, dtype=torch.float32)
        wt = torch.as_tensor(w, dtype=torch.float32)
        c = condition(x[None], up[None], wt[None], cache.g, cache.roi, cache.scale)
        with torch.no_grad():
            if self.policy is not None:
                a = self.policy(c)[0].reshape(self.chunk, rig.m)
                return project_actions(cache.scale.from_unit(a.numpy())[None], u_prev, rig)[0, 0]
            noise = torch.randn(self.k_samples, self.generator.dim, generator=self._rng)
            a = self.generator.sample(c, self.k_samples, self.ode_steps, noise)[0]
            us = project_actions(cache.scale.from_unit(a.numpy()).reshape(-1, self.chunk, rig.m), u_prev, rig)
            cost = chunk_cost(self.operator, x.expand(self.k_samples, -1), torch.as_tensor(us, dtype=torch.float32),
                              up, wt, cache.g, cache.volumes, cache.bounds, rig)  # fmt: skip
            return us[int(torch.argmin(cost))][0]

    def act(self, history: History, preference) -> tuple[np.ndarray, dict]:
        """One control step from the history alone; returns (action, info)."""
        if not isinstance(history, History):
            raise ValueError("act takes a History (sensor readings, past actions, rig), not simulator state")
        w = check_preference(preference)
        t0 = time.perf_counter()
        rig = history.rig
        cache = self.cache(rig)
        x = observe(self.observer, history, cache)
        u_prev = history.actions[-1]
        t1 = time.perf_counter()
        u_nom = self.propose(x, u_prev, w, cache)
        t_propose = time.perf_counter() - t1
        info = {"field": rig.rest + rig.scale * x.numpy().astype(float), "u_nom": u_nom}
        if self.safety == "none":
            u, res = np.clip(u_nom, rig.u_low, rig.u_high), None
        else:
            g = h = None
            if self.safety != "action":
                g, h = self.barrier_rows(x, u_nom, cache)
            flt = cache.filter
            res = (
                naive_filter(flt, u_nom, u_prev, g, h)
                if self.safety == "naive"
                else flt.filter(u_nom, u_prev, g, h)
            )
            u = res.u
            info["rows"] = (g, h)
        info.update(intervened=bool(res and res.intervened), ratio=res.ratio if res else 0.0,
                    slack=res.slack if res else 0.0, message=res.message if res else "",
                    latency=time.perf_counter() - t0, propose_latency=t_propose)  # fmt: skip
        return u, info

    def barrier_rows(self, x, u_nom, cache: RigCache):
        """Rows of the linearised field barrier (S1)-(S2) in field units, through the operator's Jacobian."""
        rig = cache.rig
        f, jac = self.operator.jacobian(x, torch.as_tensor(u_nom, dtype=torch.float32), cache.g)
        z = rig.rest + rig.scale * x.detach().numpy().astype(float)
        f_nom = rig.rest + rig.scale * f.detach().numpy().astype(float)
        jac = rig.scale * jac.detach().numpy().astype(float)
        return field_rows(z, f_nom, jac, u_nom, rig.lower, rig.upper, self.alpha, self.margin)

    def distill(self, policy: OneStepPolicy | None = None) -> NeuronCtrl:
        """The same controller with the one-step student (trained by ``training.distill`` if not given)."""
        if policy is None:
            raise ValueError(
                "distill needs the trained one-step policy (see icml26.neuronctrl.training.distill)"
            )
        return NeuronCtrl(self.observer, self.operator, self.generator, self.safety, policy, self.k_samples,
                          self.ode_steps, self.chunk, self.alpha, self.margin, self.seed)  # fmt: skip


def config_hash(config: dict) -> str:
    return hashlib.sha256(json.dumps(config, sort_keys=True).encode()).hexdigest()[:16]


def save_models(path: Path, config: dict, modules: dict, extra: dict) -> None:
    torch.save({"config": config, "hash": config_hash(config), "state": {k: m.state_dict() for k, m in modules.items()},
                "extra": extra}, path)  # fmt: skip


def build_modules(config: dict, m: int) -> dict:
    dim, cond_dim = m * config["chunk"], 3 * m + 5
    return {"observer": Observer(config["hidden"], config["layers"]),
            "operator": NeuralOperator(config["hidden"], config["layers"]),
            "generator": FlowGenerator(dim, cond_dim, config["gen_hidden"]),
            "policy": OneStepPolicy(dim, cond_dim, config["gen_hidden"])}  # fmt: skip


def load_models(path: Path, expected: dict | None = None) -> tuple[dict, dict, dict]:
    """(config, modules, extra) from shipped weights; the stored config's hash is checked against the
    stored hash and, when ``expected`` is given, against ``expected``'s."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"no weights at {path}; generate them with tools/train_neuronctrl.py")
    blob = torch.load(path, weights_only=False)
    if config_hash(blob["config"]) != blob["hash"]:
        raise ValueError(f"weights {path}: the stored config does not match its hash (corrupted or edited)")
    if expected is not None and config_hash(expected) != blob["hash"]:
        raise ValueError(f"weights {path} were trained with another config (hash {blob['hash']}, expected "
                         f"{config_hash(expected)}); regenerate them with tools/train_neuronctrl.py")  # fmt: skip
    modules = build_modules(blob["config"], blob["extra"]["m"])
    for k, mod in modules.items():
        mod.load_state_dict(blob["state"][k])
        mod.eval()
    return blob["config"], modules, blob["extra"]
