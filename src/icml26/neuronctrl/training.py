"""Training the learned parts on simulated rollouts of training morphologies [inferred settings].

1. rollouts with random piecewise-constant feasible actions (the full field is recorded);
2. observer: MSE of the field deviation from the history (Observer);
3. operator: one-step + rollout loss, Eq. (O2);
4. labels: CEM on the learned operator from observer estimates under random preferences (G1's a1);
5. generator: rectified-flow loss (G1); 6. student: regression onto the best-of-K choice (G3);
7. conformal margin of the operator's one-step node error on held-out morphologies.

Each of the observer, the operator and the student can record a validation curve (``val=``, ``curve=``):
its loss on held-out morphologies every ``iters // CURVE_POINTS`` iterations; ``plateau`` reads it
(the convergence premise of the claims, review nc-rev #9) [inferred rule, written before any run].
"""

from __future__ import annotations

import numpy as np
import torch

from icml26.neuronctrl.controller import HISTORY, NeuronCtrl, RigCache, cem_plan, pad_history
from icml26.neuronctrl.env import AGGRESSIVE, Rig, make_env
from icml26.neuronctrl.generator import condition
from icml26.neuronctrl.operator import conformal_margin, operator_loss

#: the convergence rule [inferred, fixed before any run]: a part's training has converged when every
#: validation loss of the last CONVERGENCE_TAIL of its curve is within CONVERGENCE_TOL (relative) of the
#: curve's minimum: still falling steeply, or rising again (over-fitting), both fail
CONVERGENCE_TAIL = 0.2
CONVERGENCE_TOL = 0.05
CURVE_POINTS = 25


def plateau(curve) -> float:
    """max(last CONVERGENCE_TAIL of the validation curve) / min(curve) - 1 (0 on a flat curve)."""
    c = np.asarray(curve, float).ravel()
    if c.size < 5 or not np.all(np.isfinite(c)) or np.any(c < 0):
        raise ValueError(f"plateau needs a validation curve of >= 5 finite losses >= 0, got {c.size} values")
    tail = c[int(np.floor(c.size * (1 - CONVERGENCE_TAIL))) :]
    low = c.min()
    return float(tail.max() / low - 1.0) if low > 0 else (0.0 if tail.max() == 0 else float("inf"))


def _every(iters: int) -> int:
    return max(1, iters // CURVE_POINTS)


def random_actions(rng: np.random.Generator, steps: int, rig: Rig) -> np.ndarray:
    """Piecewise-constant random levels per actuator (holds of 1-12 steps, 30% off), made feasible."""
    u, prev, out = np.zeros(rig.m), np.zeros(rig.m), []
    hold = np.zeros(rig.m, int)
    for _ in range(steps):
        for j in range(rig.m):
            if hold[j] <= 0:
                u[j] = 0.0 if rng.random() < 0.3 else rng.uniform(rig.u_low, rig.u_high)
                hold[j] = rng.integers(1, 13)
            hold[j] -= 1
        v = np.clip(u, prev - rig.rate, prev + rig.rate)
        tot = np.abs(v).sum()
        v = v * rig.budget / tot if tot > rig.budget else v
        out.append(v)
        prev = v
    return np.asarray(out)


def rollouts(morph_seeds, episodes: int, steps: int, seed: int, benchmark: str = "ecs_rd") -> list[dict]:
    """Episodes on each morphology: rig, fields c (T+1, N), readings y (T+1, p), actions u (T, m)."""
    rng = np.random.default_rng(seed)
    data = []
    for ms in morph_seeds:
        env = make_env(benchmark, int(ms), horizon=steps)
        for _ in range(episodes):
            y, info = env.reset(seed=int(rng.integers(2**31)))
            cs, ys = [info["field"]], [y]
            us = random_actions(rng, steps, env.rig)
            for u in us:
                y, _, _, _, info = env.step(u)
                cs.append(info["field"])
                ys.append(y)
            data.append({"rig": env.rig, "c": np.asarray(cs), "y": np.asarray(ys), "u": us, "morph": int(ms)})
    return data


def _dev(ep, c):
    return (c - ep["rig"].rest) / ep["rig"].scale


def _histories(ep, ts):
    """Observer inputs at times ts: (len(ts), H, p) deviations and (len(ts), H, m) actions."""
    rig = ep["rig"]
    ys, us = [], []
    for t in ts:
        h = pad_history(list(ep["y"][: t + 1]), list(ep["u"][:t]), rig, HISTORY)
        ys.append((h.sensors - rig.rest) / rig.scale)
        us.append(h.actions)
    return torch.as_tensor(np.asarray(ys), dtype=torch.float32), torch.as_tensor(
        np.asarray(us), dtype=torch.float32
    )


def _caches(data):
    out = {}
    for ep in data:
        out.setdefault(ep["morph"], RigCache(ep["rig"]))
    return out


def observer_val_loss(obs, val) -> float:
    """The observer's MSE of the field deviation on every 5th step of the held-out episodes ``val``."""
    caches, tot, n = _caches(val), 0.0, 0
    with torch.no_grad():
        for ep in val:
            ts = np.arange(0, len(ep["u"]) + 1, 5)
            y, u = _histories(ep, ts)
            target = torch.as_tensor(_dev(ep, ep["c"][ts]), dtype=torch.float32)
            tot += float(torch.sum((obs(y, u, caches[ep["morph"]].g) - target) ** 2))
            n += target.numel()
    return tot / n


def train_observer(
    obs, data, iters: int, batch: int, seed: int, lr: float = 3e-3, val=None, curve: list | None = None
) -> list[float]:
    """Adam + cosine schedule on the observer's MSE; with ``val`` and ``curve``, the validation loss is
    appended to ``curve`` every ``iters // CURVE_POINTS`` iterations (no random draw: the same weights)."""
    rng, caches = np.random.default_rng(seed), _caches(data)
    opt = torch.optim.Adam(obs.parameters(), lr=lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, iters)
    losses = []
    for _ in range(iters):
        ep = data[rng.integers(len(data))]
        ts = rng.integers(0, len(ep["u"]) + 1, batch)
        y, u = _histories(ep, ts)
        target = torch.as_tensor(_dev(ep, ep["c"][ts]), dtype=torch.float32)
        loss = torch.mean((obs(y, u, caches[ep["morph"]].g) - target) ** 2)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        losses.append(loss.item())
        if curve is not None and val and (len(losses) % _every(iters) == 0):
            curve.append(observer_val_loss(obs, val))
    return losses


def operator_val_loss(op, val, rollout: int) -> float:
    """Eq. (O2) on the windows starting at every 5th step of the held-out episodes ``val`` (mean)."""
    caches, out = _caches(val), []
    with torch.no_grad():
        for ep in val:
            t0 = np.arange(0, len(ep["u"]) - rollout + 1, 5)
            idx = t0[:, None] + np.arange(rollout + 1)
            xs = torch.as_tensor(_dev(ep, ep["c"][idx]), dtype=torch.float32)
            us = torch.as_tensor(ep["u"][idx[:, :-1]], dtype=torch.float32)
            out.append(float(operator_loss(op, xs, us, caches[ep["morph"]].g)))
    return float(np.mean(out))


def train_operator(
    op, data, iters: int, batch: int, rollout: int, seed: int, lr: float = 3e-3, val=None,
    curve: list | None = None,
) -> list[float]:  # fmt: skip
    rng, caches = np.random.default_rng(seed), _caches(data)
    opt = torch.optim.Adam(op.parameters(), lr=lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, iters)
    losses = []
    for _ in range(iters):
        ep = data[rng.integers(len(data))]
        t0 = rng.integers(0, len(ep["u"]) - rollout + 1, batch)
        idx = t0[:, None] + np.arange(rollout + 1)
        xs = torch.as_tensor(_dev(ep, ep["c"][idx]), dtype=torch.float32)
        us = torch.as_tensor(ep["u"][idx[:, :-1]], dtype=torch.float32)
        loss = operator_loss(op, xs, us, caches[ep["morph"]].g)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        losses.append(loss.item())
        if curve is not None and val and (len(losses) % _every(iters) == 0):
            curve.append(operator_val_loss(op, val, rollout))
    return losses


def sample_preference(rng) -> np.ndarray:
    return np.asarray(AGGRESSIVE) if rng.random() < 0.3 else rng.dirichlet(np.ones(3))


def make_labels(obs, op, data, n: int, chunk: int, horizon: int, pop: int, iters: int, seed: int) -> dict:
    """Expert chunks a1 by CEM on the learned operator from observer estimates (G1's labels)."""
    rng, caches = np.random.default_rng(seed), _caches(data)
    conds, chunks, meta = [], [], []
    for _ in range(n):
        ep = data[rng.integers(len(data))]
        cache = caches[ep["morph"]]
        t = int(rng.integers(0, len(ep["u"])))
        y, u = _histories(ep, [t])
        with torch.no_grad():
            x = obs(y, u, cache.g)[0]
        u_prev = ep["u"][t - 1] if t > 0 else np.zeros(cache.rig.m)
        w = sample_preference(rng)
        plan = cem_plan(op, x, u_prev, w, cache, horizon, pop, iters, rng)
        c = condition(x[None], torch.as_tensor(u_prev, dtype=torch.float32)[None],
                      torch.as_tensor(w, dtype=torch.float32)[None], cache.g, cache.roi, cache.scale)  # fmt: skip
        conds.append(c[0])
        chunks.append(torch.as_tensor(cache.scale.to_unit(plan[:chunk]).ravel(), dtype=torch.float32))
        meta.append((ep["morph"], t, x, u_prev, w))
    return {"cond": torch.stack(conds), "chunk": torch.stack(chunks), "meta": meta}


def train_generator(gen, labels, iters: int, batch: int, seed: int, lr: float = 2e-3) -> list[float]:
    torch.manual_seed(seed)
    opt = torch.optim.Adam(gen.parameters(), lr=lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, iters)
    n, losses = labels["cond"].shape[0], []
    for _ in range(iters):
        idx = torch.randint(0, n, (batch,))
        loss = gen.loss(labels["chunk"][idx], labels["cond"][idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        losses.append(loss.item())
    return losses


def distill_targets(ctrl: NeuronCtrl, labels, data) -> torch.Tensor:
    """The label chunks with their first action replaced by the teacher's best-of-K choice."""
    caches = _caches(data)
    targets = []
    for morph, _t, x, u_prev, w in labels["meta"]:
        cache = caches[morph]
        u0 = ctrl.propose(x, u_prev, w, cache)  # best-of-K first action; the chunk's tail from the label
        targets.append(torch.as_tensor(cache.scale.to_unit(u0), dtype=torch.float32))
    target = labels["chunk"].clone()
    m = targets[0].numel()
    target[:, :m] = torch.stack(targets)
    return target


def distill(
    ctrl: NeuronCtrl, policy, labels, data, iters: int, batch: int, seed: int, lr: float = 2e-3,
    val: tuple | None = None, curve: list | None = None,
):  # fmt: skip
    """Regress the student onto the teacher's best-of-K chunk for each label condition (G3); ``val``:
    (held-out condition tensor, its targets), whose MSE is appended to ``curve`` every
    ``iters // CURVE_POINTS`` iterations."""
    target = distill_targets(ctrl, labels, data)
    torch.manual_seed(seed)
    opt = torch.optim.Adam(policy.parameters(), lr=lr)
    n, losses = target.shape[0], []
    for _ in range(iters):
        idx = torch.randint(0, n, (batch,))
        loss = torch.mean((policy(labels["cond"][idx]) - target[idx]) ** 2)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
        if curve is not None and val is not None and (len(losses) % _every(iters) == 0):
            with torch.no_grad():
                curve.append(float(torch.mean((policy(val[0]) - val[1]) ** 2)))
    return losses


def one_step_residuals(op, data) -> np.ndarray:
    """|F(z_t, u_t) - z_{t+1}| in field units at every node of every held-out step (the operator's
    model error from the true state; the observer's error is measured separately)."""
    out, caches = [], _caches(data)
    for ep in data:
        cache = caches[ep["morph"]]
        x = torch.as_tensor(_dev(ep, ep["c"][:-1]), dtype=torch.float32)
        with torch.no_grad():
            f = op(x, torch.as_tensor(ep["u"], dtype=torch.float32), cache.g).numpy()
        out.append(np.abs(f - _dev(ep, ep["c"][1:])) * ep["rig"].scale)
    return np.concatenate([o.ravel() for o in out])


def margin_from(op, data, alpha: float) -> float:
    """The field barrier's margin: the split-conformal (1 - alpha) quantile of the operator's node error."""
    return conformal_margin(one_step_residuals(op, data), alpha)


def pipeline_residuals(ctrl, morph_seeds, episodes: int, steps: int, seed: int, preference=AGGRESSIVE,
                       benchmark: str = "ecs_rd", puffs: bool = False) -> np.ndarray:  # fmt: skip
    """The pipeline's own one-step error at closed-loop states (review nc-rev #7): ``ctrl`` (a NeuronCtrl)
    runs the episodes; per step t, max over the constrained nodes (a finite bound) of
    |F(z^_t, u_t) - z_{t+1}| in field units, with z^_t the observer's estimate the barrier is built at and
    u_t the applied action. Steps whose transition carries a puff are left out unless ``puffs``."""
    if not isinstance(episodes, int) or episodes < 1 or not isinstance(steps, int) or steps < 1:
        raise ValueError(
            f"pipeline_residuals needs episodes >= 1 and steps >= 1 (int), got {episodes}, {steps}"
        )
    rng, out = np.random.default_rng(seed), []
    for ms in morph_seeds:
        env = make_env(benchmark, int(ms), preference, steps)
        for _ in range(episodes):
            y, info = env.reset(seed=int(rng.integers(2**31)))
            rig, cache = env.rig, ctrl.cache(env.rig)
            constrained = np.isfinite(rig.lower) | np.isfinite(rig.upper)
            ys, us = [y], []
            for t in range(steps):
                u, ai = ctrl.act(pad_history(ys, us, rig), preference)
                y, _, _, _, info = env.step(u)
                x = torch.as_tensor((ai["field"] - rig.rest) / rig.scale, dtype=torch.float32)
                with torch.no_grad():
                    f = ctrl.operator(x[None], torch.as_tensor(u, dtype=torch.float32)[None], cache.g)[0]
                pred = rig.rest + rig.scale * f.numpy().astype(float)
                if puffs or t not in env.puffs:
                    out.append(float(np.max(np.abs(pred - info["field"])[constrained])))
                ys.append(y)
                us.append(u)
    return np.asarray(out)


def pipeline_margin(ctrl, morph_seeds, episodes: int, steps: int, seed: int, alpha: float, **kw) -> float:
    """Split-conformal (1 - alpha) quantile over steps of ``pipeline_residuals``: for a new exchangeable
    puff-free closed-loop step, P(every constrained node's one-step error <= margin) >= 1 - alpha."""
    return conformal_margin(pipeline_residuals(ctrl, morph_seeds, episodes, steps, seed, **kw), alpha)
