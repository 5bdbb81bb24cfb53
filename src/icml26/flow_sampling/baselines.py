"""Baselines at equal energy-gradient budgets: MALA, parallel-tempering MALA, geodesic Langevin on
manifolds, and Adjoint Sampling (AS, Havens et al. 2025) re-implemented from its paper's description.

Every baseline spends exactly ``budget`` energy-gradient calls (one per chain per step, or one per
buffered sample for AS) and returns ``n_out`` samples.
"""

from __future__ import annotations

import math

import torch

from icml26.common import check_device, check_int, check_positive
from icml26.flow_sampling.energies import Energy
from icml26.flow_sampling.manifolds import Manifold
from icml26.flow_sampling.networks import EGNN, TwoHeadMLP
from icml26.flow_sampling.objective import ReplayBuffer, clip_norm


def _mean_free(energy: Energy, x: torch.Tensor) -> torch.Tensor:
    if not energy.is_particles:
        return x
    p = x.reshape(len(x), energy.n_particles, energy.spatial)
    return (p - p.mean(1, keepdim=True)).reshape(len(x), -1)


def _retract(manifold: Manifold, x: torch.Tensor) -> torch.Tensor:
    if manifold.curvature > 0:
        return x / x.norm(dim=-1, keepdim=True)
    x = x.clone()
    x[:, 0] = (1 + (x[:, 1:] ** 2).sum(-1)).sqrt()
    return x


def _collect(trace: list[torch.Tensor], n_out: int) -> torch.Tensor:
    """``n_out`` states evenly thinned from the second half of the chains' trace."""
    kept = torch.cat(trace[len(trace) // 2 :]) if len(trace) > 1 else trace[0]
    idx = torch.linspace(0, len(kept) - 1, n_out).round().long()
    return kept[idx]


def _mala_step(energy, x, e, g, step, beta, gen):
    """One MALA move per chain at inverse temperature ``beta`` (per-chain ``step``), one gradient call."""
    s = step.reshape(-1, 1)
    noise = torch.randn(x.shape, generator=gen, dtype=x.dtype)
    y = _mean_free(energy, x - s * beta * g + torch.sqrt(2 * s) * noise)
    ey, gy = energy.energy_and_grad(y)
    fwd = ((y - x + s * beta * g) ** 2).sum(-1) / (4 * step)
    bwd = ((x - y + s * beta * gy) ** 2).sum(-1) / (4 * step)
    b = beta.reshape(-1) if isinstance(beta, torch.Tensor) else beta
    log_a = -b * (ey - e) - bwd + fwd
    accept = torch.log(torch.rand(len(x), generator=gen, dtype=x.dtype)) < torch.nan_to_num(
        log_a, nan=-math.inf
    )
    a = accept.reshape(-1, 1)
    return torch.where(a, y, x), torch.where(accept, ey, e), torch.where(a, gy, g), accept


def mala(energy: Energy, init: torch.Tensor, budget: int, n_out: int, step: float = 0.05, seed: int = 0):
    """MALA from ``init`` chains for ``budget // n_chains`` steps, step size adapted towards acceptance
    0.57 during the first half (then frozen); returns ``(samples, acceptance)``."""
    gen = torch.Generator().manual_seed(seed)
    x = _mean_free(energy, init.clone())
    chains = len(x)
    n_steps = check_int("budget // chains", budget // chains)
    e, g = energy.energy_and_grad(x)
    steps = torch.full((chains,), check_positive("step", step), dtype=x.dtype)
    trace, accepted = [], []
    for k in range(n_steps - 1):
        x, e, g, acc = _mala_step(energy, x, e, g, steps, 1.0, gen)
        if k < n_steps // 2:
            steps = steps * torch.exp(0.05 * (acc.to(x.dtype) - 0.57))
        else:
            accepted.append(acc.to(x.dtype).mean())
        trace.append(x)
    if not trace:
        trace = [x]
    return _collect(trace, n_out), float(torch.stack(accepted).mean()) if accepted else float("nan")


def pt_mala(
    energy: Energy,
    init: torch.Tensor,
    budget: int,
    n_out: int,
    n_temps: int = 4,
    t_max: float = 10.0,
    step: float = 0.05,
    seed: int = 0,
):
    """Parallel-tempering MALA: ``n_temps`` geometric temperatures in ``[1, t_max]``, the chains of
    ``init`` at each, a MALA move at every temperature then a swap between a random adjacent pair per
    chain group; every evaluation at every temperature counts. Samples from the ``T = 1`` chains."""
    gen = torch.Generator().manual_seed(seed)
    chains = len(init)
    betas = torch.tensor([t_max ** (-k / max(n_temps - 1, 1)) for k in range(n_temps)], dtype=init.dtype)
    beta_rep = betas.repeat_interleave(chains)
    x = _mean_free(energy, init.repeat(n_temps, 1))
    n_steps = check_int("budget // (chains * temps)", budget // (chains * n_temps))
    e, g = energy.energy_and_grad(x)
    steps = (step / beta_rep).clone()
    trace = []
    for k in range(n_steps - 1):
        x, e, g, acc = _mala_step(energy, x, e, g, steps, beta_rep.reshape(-1, 1), gen)
        if k < n_steps // 2:
            steps = steps * torch.exp(0.05 * (acc.to(x.dtype) - 0.57))
        lo = int(torch.randint(0, n_temps - 1, (1,), generator=gen))
        i = torch.arange(chains) + lo * chains
        j = i + chains
        log_a = (betas[lo] - betas[lo + 1]) * (e[i] - e[j])
        swap = torch.log(torch.rand(chains, generator=gen, dtype=x.dtype)) < log_a
        si, sj = i[swap], j[swap]
        x[si], x[sj] = x[sj].clone(), x[si].clone()
        e[si], e[sj] = e[sj].clone(), e[si].clone()
        g[si], g[sj] = g[sj].clone(), g[si].clone()
        trace.append(x[:chains].clone())
    if not trace:
        trace = [x[:chains]]
    return _collect(trace, n_out)


def geodesic_langevin(
    energy: Energy,
    manifold: Manifold,
    init: torch.Tensor,
    budget: int,
    n_out: int,
    step: float = 0.01,
    seed: int = 0,
):
    """Unadjusted geodesic Langevin ``x <- exp_x(-eta grad E + sqrt(2 eta) xi)`` (Riemannian gradient,
    tangent Gaussian ``xi``), ``budget // chains`` steps per chain."""
    gen = torch.Generator().manual_seed(seed)
    x = manifold.check(init.clone(), "init")
    n_steps = check_int("budget // chains", budget // len(x))
    eta = check_positive("step", step)
    trace = []
    for _ in range(n_steps):
        _, g = energy.energy_and_grad(x)
        rg = manifold.riemannian_grad(x, g)
        v = -eta * rg + math.sqrt(2 * eta) * manifold.random_tangent(x, gen)
        x = manifold.exp(x, v)
        x = _retract(manifold, x)
        trace.append(x)
    return _collect(trace, n_out)


class AdjointSampler:
    """Adjoint Sampling [inferred: re-implemented from the AS paper's description, not its code].

    Dirac source ``X_0 = 0``; controlled SDE ``dX = sigma(t) u_theta(t, X) dt + sigma(t) dW`` with the
    geometric schedule ``sigma(t) = s_min (s_max / s_min)^{1 - t}``; base marginal at t = 1 is
    ``N(0, nu_1 I)``, ``nu_t = int_0^t sigma^2``. Reciprocal adjoint matching: buffer
    ``(X_1, grad g(X_1))`` with ``g(x) = E(x) + log N(x; 0, nu_1 I)``, then regress
    ``u_theta(t, X_t)`` onto ``-sigma(t) grad g(X_1)`` at Brownian-bridge points
    ``X_t ~ N((nu_t / nu_1) X_1, nu_t (1 - nu_t / nu_1) I)``. One energy gradient per buffered sample.
    """

    def __init__(
        self,
        energy: Energy,
        sigma_min: float = 0.01,
        sigma_max: float = 3.0,
        hidden: int = 128,
        layers: int = 3,
        samples_per_refresh: int = 500,
        steps_per_refresh: int = 100,
        batch_size: int = 256,
        buffer_size: int = 2000,
        lr: float = 1e-3,
        grad_clip: float = 100.0,
        n_steps: int = 100,
        device: str = "cpu",
        seed: int = 0,
    ):
        self.energy = energy
        self.device = check_device(device)
        self.s_min, self.s_max = (
            check_positive("sigma_min", sigma_min),
            check_positive("sigma_max", sigma_max),
        )
        if self.s_max <= self.s_min:
            raise ValueError(f"sigma_max must exceed sigma_min, got {sigma_max} <= {sigma_min}")
        self.m, self.k, self.batch = samples_per_refresh, steps_per_refresh, batch_size
        self.buffer_size, self.lr, self.grad_clip, self.n_steps = buffer_size, lr, grad_clip, n_steps
        self.seed = seed
        torch.manual_seed(seed)
        if energy.is_particles:
            self.model = EGNN(energy.n_particles, energy.spatial, hidden=hidden, layers=layers)
        else:
            self.model = TwoHeadMLP(energy.dim, hidden=hidden, layers=layers)
        self.model.to(self.device)
        self.gen = torch.Generator().manual_seed(seed)
        self.energy_calls = 0

    def sigma(self, t):
        return self.s_min * (self.s_max / self.s_min) ** (1 - t)

    def nu(self, t):
        """``int_0^t sigma(s)^2 ds``."""
        lr = math.log(self.s_max / self.s_min)
        return (
            self.s_min**2
            / (2 * lr)
            * ((self.s_max / self.s_min) ** 2 - (self.s_max / self.s_min) ** (2 * (1 - t)))
        )

    def _control(self, t, x):
        u, _ = self.model(t.float().to(self.device), x.float().to(self.device))
        return u.double().cpu()

    def simulate(self, n: int, gen=None) -> torch.Tensor:
        gen = gen or self.gen
        x = torch.zeros(n, self.energy.dim, dtype=torch.float64)
        grid = torch.linspace(0, 1, self.n_steps + 1, dtype=torch.float64)
        with torch.no_grad():
            for k in range(self.n_steps):
                t, dt = float(grid[k]), float(grid[k + 1] - grid[k])
                s = self.sigma(t)
                u = self._control(torch.full((n,), t), x)
                x = _mean_free(
                    self.energy,
                    x + s * u * dt + s * math.sqrt(dt) * torch.randn(x.shape, generator=gen, dtype=x.dtype),
                )
        return x

    def fit(self, budget: int, callback=None, *, checkpoint=None) -> AdjointSampler:
        """Train with ``budget // samples_per_refresh`` refreshes; ``callback(self)`` after each.

        ``checkpoint`` (``save(state)``/``load()``, as in :meth:`FlowSampler.fit`): the training state is
        saved after every refresh, and a saved state is continued from, ending as an uninterrupted fit."""
        refreshes = check_int("budget", budget) // self.m
        opt = torch.optim.Adam(self.model.parameters(), lr=self.lr)
        buf = ReplayBuffer(self.buffer_size)
        nu1 = self.nu(1.0)
        start = 0
        saved = checkpoint.load() if checkpoint is not None else None
        if saved is not None:
            if not isinstance(saved, dict) or saved.get("params") != self._params():
                raise ValueError(
                    "the checkpoint holds the state of a fit with other parameters (or is not an"
                    " AdjointSampler state); give this fit a checkpoint of its own"
                )
            start = saved["refresh"]
            self.model.load_state_dict(saved["model"])
            opt.load_state_dict(saved["optimizer"])
            buf.x, buf.g = saved["buffer"]
            self.gen.set_state(saved["generator"])
            self.energy_calls = saved["energy_calls"]
        for refresh in range(start, refreshes):
            x1 = self.simulate(self.m)
            _, g = self.energy.energy_and_grad(x1)
            self.energy_calls += self.m
            ok = torch.isfinite(g).all(-1)
            grad_terminal, _ = clip_norm(g[ok] - x1[ok] / nu1, self.grad_clip)
            buf.push(x1[ok], grad_terminal)
            for _ in range(self.k):
                xb, gb = buf.sample(self.batch, self.gen)
                t = torch.rand(self.batch, generator=self.gen, dtype=torch.float64).clamp(1e-3, 1 - 1e-3)
                nut = self.nu(t).reshape(-1, 1)
                mean = nut / nu1 * xb
                std = torch.sqrt(nut * (1 - nut / nu1))
                xt = _mean_free(
                    self.energy, mean + std * torch.randn(xb.shape, generator=self.gen, dtype=xb.dtype)
                )
                target = -self.sigma(t).reshape(-1, 1) * gb
                u, _ = self.model(t.float().to(self.device), xt.float().to(self.device))
                loss = ((u - target.float().to(self.device)) ** 2).sum(-1).mean()
                opt.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), 10.0)
                opt.step()
            if callback is not None:
                callback(self)
            if checkpoint is not None:
                checkpoint.save(
                    {
                        "params": self._params(),
                        "refresh": refresh + 1,
                        "model": self.model.state_dict(),
                        "optimizer": opt.state_dict(),
                        "buffer": (buf.x, buf.g),
                        "generator": self.gen.get_state(),
                        "energy_calls": self.energy_calls,
                    }
                )
        return self

    def _params(self) -> dict:
        return {
            "sigma": (self.s_min, self.s_max),
            "m": self.m,
            "k": self.k,
            "batch": self.batch,
            "buffer_size": self.buffer_size,
            "lr": self.lr,
            "grad_clip": self.grad_clip,
            "n_steps": self.n_steps,
            "seed": self.seed,
        }

    def sample(self, n: int, seed: int = 0) -> torch.Tensor:
        return self.simulate(n, torch.Generator().manual_seed(seed))
