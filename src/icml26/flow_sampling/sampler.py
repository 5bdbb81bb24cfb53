"""``FlowSampler``: the Flow Sampling training loop, SDE/ODE samplers and probability-flow likelihoods.

Training loop [inferred: the AS/ASBS-style loop of the notes; the paper's text was not available]:
1. simulate the current model from fresh ``x0 ~ p0`` (SDE, ``gamma_train``) -> ``M`` samples ``x1``;
2. evaluate ``grad E(x1)`` once per sample (the only energy calls), clip its norm, push to the buffer;
3. ``K`` optimiser steps on Eq. (6), re-pairing buffered ``x1`` with fresh independent ``x0``.
Energy calls are ``refreshes * M``; each gradient serves ``K * batch / M`` loss terms on average.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable

import numpy as np
import torch

from icml26.common import check_device, check_int, check_positive
from icml26.flow_sampling.energies import CallableEnergy, Energy
from icml26.flow_sampling.manifolds import Lorentz, Manifold, Sphere
from icml26.flow_sampling.networks import EGNN, TwoHeadMLP, default_source
from icml26.flow_sampling.objective import ReplayBuffer, clip_norm, diffusion, drift, flow_sampling_loss


def time_grid(n_steps: int, t_min: float = 1e-3) -> torch.Tensor:
    """``n_steps + 1`` times from 0 to 1: a quarter of the steps log-spaced on ``[t_min, 0.1]`` (fine near
    t = 0, where ``x_t`` leaves the source), the rest uniform on ``[0.1, 1]``; uniform below 4 steps."""
    if n_steps < 4:
        return torch.linspace(0.0, 1.0, n_steps + 1, dtype=torch.float64)
    n_log = n_steps // 4
    head = torch.logspace(math.log10(t_min), -1.0, n_log, dtype=torch.float64)
    tail = torch.linspace(0.1, 1.0, n_steps - n_log + 1, dtype=torch.float64)[1:]
    return torch.cat([torch.zeros(1, dtype=torch.float64), head, tail])


def retract(manifold: Manifold | None, x: torch.Tensor) -> torch.Tensor:
    """Project a point that drifted by round-off back onto the manifold."""
    if isinstance(manifold, Sphere):
        return x / x.norm(dim=-1, keepdim=True)
    if isinstance(manifold, Lorentz):
        x = x.clone()
        x[:, 0] = (1 + (x[:, 1:] ** 2).sum(-1)).sqrt()
    return x


def integrate(
    field: Callable[[torch.Tensor, torch.Tensor], tuple[torch.Tensor, torch.Tensor]],
    x0: torch.Tensor,
    gamma: float,
    n_steps: int,
    manifold: Manifold | None = None,
    generator: torch.Generator | None = None,
    t_min: float = 1e-3,
    g: Callable[[float], float] | None = None,
) -> torch.Tensor:
    """Euler-Maruyama (geodesic on a manifold) for ``dX = (v + (g_t^2 / 2) h / t) dt + g_t dW`` from t = 0
    to 1, ``field(t, x) -> (v, h)``. By default ``g_t^2 = 2 gamma t (1 - t)`` (Eq. 5), so the drift is
    ``v + gamma (1 - t) h``; ``gamma = 0`` is the probability-flow ODE (then Heun's method). ``g``: any other
    schedule, a callable ``t -> g_t >= 0``; its drift ``(g_t^2 / 2t) h`` is taken at ``t`` floored at the grid's
    first positive time (a schedule with ``g_t^2 = O(t)`` near 0 avoids amplifying the endpoint head's error
    there)."""
    grid = time_grid(n_steps, t_min)
    t_floor = float(grid[1])
    ode = g is None and gamma == 0
    x = x0.clone()
    for k in range(n_steps):
        t, dt = float(grid[k]), float(grid[k + 1] - grid[k])
        tt = torch.full((len(x),), t, dtype=x.dtype)
        v, h = field(tt, x)
        if g is None:
            b, sigma = drift(v.to(x.dtype), h.to(x.dtype), t, gamma), diffusion(t, gamma)
        else:
            sigma, t_eff = _schedule_value(g, t), max(t, t_floor)
            b = v.to(x.dtype) + 0.5 * _schedule_value(g, t_eff) ** 2 / t_eff * h.to(x.dtype)
        if ode and manifold is None:
            t2 = float(grid[k + 1])
            v2, _ = field(torch.full_like(tt, t2), x + dt * b)
            x = x + 0.5 * dt * (b + v2.to(x.dtype))
            continue
        step = b * dt
        if not ode:  # noise drawn at every step (also where g_t = 0): one random stream per seed
            if manifold is None:
                noise = torch.randn(x.shape, generator=generator, dtype=x.dtype)
            else:
                noise = manifold.random_tangent(x, generator)
            step = step + sigma * math.sqrt(dt) * noise
        x = x + step if manifold is None else retract(manifold, manifold.exp(x, manifold.proj(x, step)))
    return x


def _schedule_value(g: Callable[[float], float], t: float) -> float:
    """``g(t)`` as a float, ``ValueError`` unless it is a finite number ``>= 0``."""
    value = g(t)
    if isinstance(value, torch.Tensor) and value.numel() == 1:
        value = float(value)
    if (
        isinstance(value, bool)
        or not isinstance(value, numbers.Real)
        or not math.isfinite(value)
        or value < 0
    ):
        raise ValueError(
            f"the diffusion schedule g must return a finite number >= 0 for t in [0, 1], got g({t:g}) = {value!r}"
        )
    return float(value)


class FlowSampler:
    """Flow Sampling (Havens, Karrer, Shaul, ICML 2026) for ``q(x) ∝ exp(-E(x))``.

    ``FlowSampler(energy, source=None, manifold=None, ...)``: ``energy`` an :class:`Energy` or a callable
    ``x -> E(x)`` of shape ``(n,)`` (then ``dim=`` is required); ``source`` has ``sample(n, generator)``
    (default: :func:`networks.default_source`); ``manifold`` a ``Sphere``/``Lorentz`` (default: the
    energy's); ``device`` the torch device of the network (energies and samples stay on the CPU).
    ``fit(energy_budget)`` trains with that many energy-gradient calls; ``sample(n, g)`` draws with the
    diffusion chosen at sampling time (``g=0``: the probability-flow ODE; ``gamma=``: the schedule of
    Eq. 5); ``log_prob(x)`` is the probability-flow log density and ``score(x)`` its mean (Euclidean).

    Learned state: ``model_``, ``energy_calls_``, ``refreshes_``, ``optimizer_steps_``, ``loss_terms_``,
    ``n_clipped_``, ``n_nonfinite_``, ``history_``.
    """

    def __init__(
        self,
        energy: Energy | Callable,
        source=None,
        manifold: Manifold | None = None,
        *,
        dim: int | None = None,
        gamma: float = 1.0,
        gamma_train: float | None = None,
        network: str = "auto",
        hidden: int = 128,
        layers: int = 3,
        samples_per_refresh: int = 500,
        steps_per_refresh: int = 100,
        batch_size: int = 256,
        buffer_size: int = 10_000,
        lr: float = 1e-3,
        grad_clip: float = 100.0,
        n_steps: int = 100,
        device: str = "cpu",
        seed: int = 0,
    ):
        if not isinstance(energy, Energy):
            if not callable(energy):
                raise ValueError(
                    f"energy must be an Energy or a callable x -> E(x), got {type(energy).__name__}"
                )
            if dim is None:
                raise ValueError("a callable energy needs dim= (the length of a point)")
            energy = CallableEnergy(energy, check_int("dim", dim), manifold)
        if manifold is not None and not isinstance(manifold, Manifold):
            raise ValueError(f"manifold must be a Sphere, Lorentz or None, got {type(manifold).__name__}")
        if manifold is not None and energy.manifold is not None and repr(manifold) != repr(energy.manifold):
            raise ValueError(f"manifold {manifold} differs from the energy's {energy.manifold}")
        self.energy = energy
        self.manifold = manifold if manifold is not None else energy.manifold
        if self.manifold is not None and self.manifold.ambient_dim != energy.dim:
            raise ValueError(
                f"manifold {self.manifold} lives in R^{self.manifold.ambient_dim}, the energy in R^{energy.dim}"
            )
        self.source = source if source is not None else default_source(energy)
        if not callable(getattr(self.source, "sample", None)):
            raise ValueError("source must have a sample(n, generator) method")
        self.gamma = check_positive("gamma", gamma)
        self.gamma_train = self.gamma if gamma_train is None else check_positive("gamma_train", gamma_train)
        if network not in ("auto", "mlp", "egnn"):
            raise ValueError(f"network must be 'auto', 'mlp' or 'egnn', got {network!r}")
        if network == "egnn" and not energy.is_particles:
            raise ValueError("network 'egnn' needs a particle energy (n_particles > 0)")
        self.network = network
        self.hidden, self.layers = check_int("hidden", hidden), check_int("layers", layers)
        self.samples_per_refresh = check_int("samples_per_refresh", samples_per_refresh)
        self.steps_per_refresh = check_int("steps_per_refresh", steps_per_refresh)
        self.batch_size = check_int("batch_size", batch_size)
        self.buffer_size = check_int("buffer_size", buffer_size)
        self.lr = check_positive("lr", lr)
        self.grad_clip = check_positive("grad_clip", grad_clip)
        self.n_steps = check_int("n_steps", n_steps)
        self.device = check_device(device)
        self.seed = check_int("seed", seed, minimum=0)

    # -- sklearn-style parameters ------------------------------------------------------------------
    _PARAMS = (
        "gamma", "gamma_train", "network", "hidden", "layers", "samples_per_refresh", "steps_per_refresh",
        "batch_size", "buffer_size", "lr", "grad_clip", "n_steps", "device", "seed",
    )  # fmt: skip

    def get_params(self, deep: bool = False) -> dict:
        return {k: getattr(self, k) for k in self._PARAMS}

    def set_params(self, **params) -> FlowSampler:
        """Change hyper-parameters (validated as in ``__init__``); a fitted model is kept until ``fit``."""
        unknown = sorted(set(params) - set(self._PARAMS))
        if unknown:
            raise ValueError(
                f"unknown parameter(s) {', '.join(unknown)}; accepted: {', '.join(self._PARAMS)}"
            )
        merged = {**self.get_params(), **params}
        if "gamma" in params and "gamma_train" not in params and self.gamma_train == self.gamma:
            merged["gamma_train"] = None  # gamma_train follows gamma unless it was set apart
        fresh = FlowSampler(self.energy, self.source, self.manifold, dim=self.energy.dim, **merged)
        for k in self._PARAMS:
            setattr(self, k, getattr(fresh, k))
        return self

    def _build(self) -> None:
        torch.manual_seed(self.seed)
        e = self.energy
        use_egnn = self.network == "egnn" or (self.network == "auto" and e.is_particles)
        if use_egnn:
            self.model_ = EGNN(e.n_particles, e.spatial, hidden=self.hidden, layers=self.layers)
        else:
            self.model_ = TwoHeadMLP(e.dim, hidden=self.hidden, layers=self.layers, manifold=self.manifold)
        self.model_.to(device=self.device, dtype=torch.float32)
        self.generator_ = torch.Generator().manual_seed(self.seed)
        self.buffer_ = ReplayBuffer(self.buffer_size)
        self.optimizer_ = torch.optim.Adam(self.model_.parameters(), lr=self.lr)
        self.energy_calls_ = self.refreshes_ = self.optimizer_steps_ = self.loss_terms_ = 0
        self.n_clipped_ = self.n_nonfinite_ = 0
        self.history_: list[dict] = []

    def _field(self, t, x):
        """The network at rows ``(t_i, x_i)`` (on its device), returned on the CPU."""
        v, h = self.model_(t.float().to(self.device), x.float().to(self.device))
        return v.cpu(), h.cpu()

    def _validate_energy(self) -> None:
        """One probe on 4 source points: shape ``(4,)``, finite values and gradients (not counted)."""
        x = self.source.sample(4, generator=torch.Generator().manual_seed(12345))
        if x.ndim != 2 or x.shape[1] != self.energy.dim:
            raise ValueError(
                f"source samples have shape {tuple(x.shape)}, the energy expects (n, {self.energy.dim})"
            )
        with torch.enable_grad():
            y = x.detach().clone().requires_grad_(True)
            e = self.energy.energy(y)
            if not isinstance(e, torch.Tensor) or e.shape != (4,):
                shape = tuple(e.shape) if isinstance(e, torch.Tensor) else type(e).__name__
                raise ValueError(
                    f"energy must return a tensor of shape (n,) = (4,) for 4 points, got {shape}"
                )
            if not torch.isfinite(e).all():
                raise ValueError("energy returned non-finite values at source samples")
            (g,) = torch.autograd.grad(e.sum(), y)
        if not torch.isfinite(g).all():
            raise ValueError("energy gradient is non-finite at source samples")

    def _refresh(self) -> None:
        """Steps 1-2: simulate M samples, one energy gradient each, clip, buffer (non-finite dropped)."""
        m = self.samples_per_refresh
        with torch.no_grad():
            x1 = self._simulate(m, self.gamma_train)
        _, g = self.energy.energy_and_grad(x1)
        self.energy_calls_ += m
        self.refreshes_ += 1
        ok = torch.isfinite(g).all(-1) & torch.isfinite(x1).all(-1)
        self.n_nonfinite_ += int((~ok).sum())
        x1, g = x1[ok], g[ok]
        grad_logq = -g if self.manifold is None else self.manifold.riemannian_grad(x1, -g)
        grad_logq, clipped = clip_norm(grad_logq, self.grad_clip)
        self.n_clipped_ += int(clipped.sum())
        if len(x1):
            self.buffer_.push(x1, grad_logq)

    def _train_steps(self, k: int) -> float:
        """Step 3: ``k`` Adam steps on Eq. (6), fresh ``x0`` and ``t ~ U(0, 1)`` for every term."""
        if not len(self.buffer_):
            raise ValueError(
                f"every energy gradient at the model's {self.energy_calls_} samples so far was non-finite: the"
                " buffer is empty (check the energy where the source puts mass, or the source's scale)"
            )
        total = 0.0
        for _ in range(k):
            x1, g = self.buffer_.sample(self.batch_size, self.generator_)
            x0 = self.source.sample(self.batch_size, generator=self.generator_)
            t = torch.rand(self.batch_size, generator=self.generator_, dtype=torch.float64).clamp_min(1e-4)
            loss = flow_sampling_loss(self.model_, x0, x1, g, t, self.manifold, self.grad_clip)
            self.optimizer_.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(self.model_.parameters(), 10.0)
            self.optimizer_.step()
            total += float(loss.detach())
            self.optimizer_steps_ += 1
            self.loss_terms_ += self.batch_size
        return total / max(k, 1)

    def fit(
        self,
        energy_budget: int,
        callback: Callable[[FlowSampler], None] | None = None,
        *,
        checkpoint=None,
    ) -> FlowSampler:
        """Train with ``energy_budget // samples_per_refresh`` refreshes (energy calls = refreshes * M).

        ``callback(self)`` runs after every refresh's optimiser steps (e.g. to log metrics vs calls).
        ``checkpoint``: an object with ``save(state)`` and ``load()`` (such as
        :func:`icml26.common.unit_progress`'s store). The training state is saved after every refresh (after
        ``callback``), and a fit whose checkpoint holds a saved state continues from that refresh: the
        model, the optimiser, the buffer, the generator and the counters are restored, so the fit ends
        as an uninterrupted one would.
        """
        budget = check_int("energy_budget", energy_budget)
        if budget < self.samples_per_refresh:
            raise ValueError(
                f"energy_budget {budget} is below samples_per_refresh {self.samples_per_refresh}: no refresh fits"
            )
        self._build()
        self._validate_energy()
        refreshes = budget // self.samples_per_refresh
        saved = checkpoint.load() if checkpoint is not None else None
        if saved is not None:
            self._restore_training(saved, refreshes)
        for _ in range(self.refreshes_, refreshes):
            self._refresh()
            loss = self._train_steps(self.steps_per_refresh)
            self.history_.append({"energy_calls": self.energy_calls_, "loss": loss})
            if callback is not None:
                callback(self)
            if checkpoint is not None:
                checkpoint.save(self._training_state())
        return self

    _COUNTERS = ("energy_calls_", "refreshes_", "optimizer_steps_", "loss_terms_", "n_clipped_", "n_nonfinite_")  # fmt: skip

    def _training_state(self) -> dict:
        """Everything a fit carries from one refresh to the next (what ``checkpoint.save`` receives)."""
        return {
            "params": self.get_params(),
            "model": self.model_.state_dict(),
            "optimizer": self.optimizer_.state_dict(),
            "buffer": (self.buffer_.x, self.buffer_.g),
            "generator": self.generator_.get_state(),
            "counters": {k: getattr(self, k) for k in self._COUNTERS},
            "history": list(self.history_),
        }

    def _restore_training(self, state: dict, refreshes: int) -> None:
        if not isinstance(state, dict) or state.get("params") != self.get_params():
            raise ValueError(
                "the checkpoint holds the state of a fit with other parameters (or is not a FlowSampler"
                " state); give this fit a checkpoint of its own"
            )
        if state["counters"]["refreshes_"] > refreshes:
            raise ValueError(
                f"the checkpoint is {state['counters']['refreshes_']} refreshes in, beyond this fit's {refreshes}"
            )
        self.model_.load_state_dict(state["model"])
        self.optimizer_.load_state_dict(state["optimizer"])
        self.buffer_.x, self.buffer_.g = state["buffer"]
        self.generator_.set_state(state["generator"])
        for k, v in state["counters"].items():
            setattr(self, k, v)
        self.history_ = list(state["history"])

    def fit_buffer(self, x1: torch.Tensor, steps: int) -> FlowSampler:
        """Regress Eq. (6) on a fixed buffer of given target samples (no energy-driven refresh).

        Used to check the regression alone: with exact samples of q it recovers the marginal drift."""
        self._build()
        x1 = self._check_points(x1, "x1")
        _, g = self.energy.energy_and_grad(x1)
        self.energy_calls_ += len(x1)
        grad_logq = -g if self.manifold is None else self.manifold.riemannian_grad(x1, -g)
        self.buffer_ = ReplayBuffer(len(x1))
        self.buffer_.push(x1, grad_logq)
        self._train_steps(check_int("steps", steps))
        return self

    @property
    def loss_terms_per_gradient_(self) -> float:
        """Mean number of loss terms each energy gradient served: ``K * batch / M``."""
        return self.loss_terms_ / max(self.energy_calls_, 1)

    def _check_fitted(self) -> None:
        if not hasattr(self, "model_"):
            raise ValueError("FlowSampler is not fitted; call fit(energy_budget=...) first")

    def _check_points(self, x, name: str) -> torch.Tensor:
        if isinstance(x, np.ndarray):
            x = torch.as_tensor(x)
        if not isinstance(x, torch.Tensor) or x.ndim != 2 or x.shape[1] != self.energy.dim:
            shape = tuple(x.shape) if hasattr(x, "shape") else type(x).__name__
            raise ValueError(f"{name} must have shape (n, {self.energy.dim}), got {shape}")
        x = x.to(torch.float64)
        if self.manifold is not None:
            return self.manifold.check(x, name)
        if not torch.isfinite(x).all():
            raise ValueError(f"{name} holds non-finite values")
        return x

    def _simulate(self, n: int, gamma: float, generator=None) -> torch.Tensor:
        x0 = self.source.sample(n, generator=generator or self.generator_)
        return integrate(self._field, x0, gamma, self.n_steps, self.manifold, generator or self.generator_)

    def sample(
        self,
        n: int,
        g: float | Callable[[float], float] | None = None,
        *,
        gamma: float | None = None,
        seed: int | None = None,
    ) -> torch.Tensor:
        """``n`` samples, ``(n, dim)`` float64, with the diffusion ``g`` chosen now (the two heads allow any).

        ``g``: ``0`` the probability-flow ODE; a number ``c > 0`` the constant ``g_t = c``; a callable
        ``t -> g_t >= 0`` any schedule. ``gamma``: the schedule ``g_t^2 = 2 gamma t (1 - t)`` (Eq. 5;
        ``gamma=0``: the ODE). Neither: the fitted ``gamma``. Not both."""
        self._check_fitted()
        n = check_int("n", n)
        if g is not None and gamma is not None:
            raise ValueError(
                "give g (a diffusion coefficient or schedule) or gamma (the scale of Eq. 5), not both"
            )
        schedule = None
        if g is not None:
            if callable(g):
                _schedule_value(g, 0.5)
                schedule = g
            elif isinstance(g, bool) or not isinstance(g, numbers.Real) or not math.isfinite(g) or g < 0:
                raise ValueError(
                    f"g must be a finite number >= 0 (0: ODE) or a callable t -> g_t >= 0, got {g!r}"
                )
            elif g == 0:
                gamma = 0.0
            else:
                c = float(g)
                schedule = lambda t: c  # noqa: E731
        if gamma is None:
            gamma = self.gamma
        elif (
            isinstance(gamma, bool)
            or not isinstance(gamma, numbers.Real)
            or not math.isfinite(gamma)
            or gamma < 0
        ):
            raise ValueError(f"gamma must be a finite number >= 0 (0: ODE), got {gamma!r}")
        gen = None if seed is None else torch.Generator().manual_seed(check_int("seed", seed, minimum=0))
        with torch.no_grad():
            x0 = self.source.sample(n, generator=gen or self.generator_)
            return integrate(
                self._field, x0, float(gamma), self.n_steps, self.manifold, gen or self.generator_, g=schedule
            )

    def score(self, x) -> float:
        """Mean probability-flow log density of the rows of ``x`` (scikit-learn's ``score``; Euclidean)."""
        return float(self.log_prob(x).mean())

    def _divergence(self, t, x, exact: bool, gen) -> tuple[torch.Tensor, torch.Tensor]:
        with torch.enable_grad():
            y = x.detach().float().to(self.device).requires_grad_(True)
            v, _ = self.model_(t.float().to(self.device), y)
            if exact:
                div = torch.zeros(len(x), device=y.device)
                for i in range(x.shape[1]):
                    (gi,) = torch.autograd.grad(v[:, i].sum(), y, retain_graph=i < x.shape[1] - 1)
                    div = div + gi[:, i]
            else:
                eps = (torch.randint(0, 2, x.shape, generator=gen).float() * 2 - 1).to(y.device)
                (gv,) = torch.autograd.grad((v * eps).sum(), y)
                div = (gv * eps).sum(-1)
        return v.detach().double().cpu(), div.detach().double().cpu()

    def _ode_with_logdet(self, x: torch.Tensor, backward: bool) -> tuple[torch.Tensor, torch.Tensor]:
        """Euler on the probability-flow ODE with ``int div v dt`` (exact trace for dim <= 16)."""
        grid = time_grid(self.n_steps)
        exact = x.shape[1] <= 16
        gen = torch.Generator().manual_seed(self.seed + 1)
        steps = range(self.n_steps - 1, -1, -1) if backward else range(self.n_steps)
        acc = torch.zeros(len(x), dtype=torch.float64)
        for k in steps:
            t0, t1 = float(grid[k]), float(grid[k + 1])
            t = t1 if backward else t0
            v, div = self._divergence(torch.full((len(x),), t), x, exact, gen)
            x = x - (t1 - t0) * v if backward else x + (t1 - t0) * v
            acc = acc + (t1 - t0) * div
        return x, acc

    def log_prob(self, x) -> torch.Tensor:
        """``log q_theta(x)`` of the probability-flow ODE: ``log p0(x0) - int_0^1 div v_t dt`` (Euclidean)."""
        self._check_fitted()
        if self.manifold is not None:
            raise ValueError(
                "log_prob is implemented for Euclidean targets only (no manifold divergence here)"
            )
        if not callable(getattr(self.source, "log_prob", None)):
            raise ValueError("log_prob needs a source with log_prob(x)")
        x = self._check_points(x, "x")
        x0, int_div = self._ode_with_logdet(x, backward=True)
        return self.source.log_prob(x0) - int_div

    def sample_with_log_prob(self, n: int, seed: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
        """ODE samples and their model log densities in one forward pass (for log Z and ESS)."""
        self._check_fitted()
        if self.manifold is not None:
            raise ValueError("sample_with_log_prob is implemented for Euclidean targets only")
        x0 = self.source.sample(check_int("n", n), generator=torch.Generator().manual_seed(seed))
        x1, int_div = self._ode_with_logdet(x0, backward=False)
        return x1, self.source.log_prob(x0) - int_div


def importance_weights(energy: Energy, x: torch.Tensor, log_q_model: torch.Tensor) -> dict[str, float]:
    """Self-normalised importance weights ``w = exp(-E(x)) / q_theta(x)``: log Z estimate and ESS / n."""
    with torch.no_grad():
        lw = -energy.energy(x) - log_q_model
    lw = lw[torch.isfinite(lw)]
    if not len(lw):
        return {"log_z": float("nan"), "ess": 0.0}
    log_z = float(torch.logsumexp(lw, 0) - math.log(len(lw)))
    ess = float(torch.exp(2 * torch.logsumexp(lw, 0) - torch.logsumexp(2 * lw, 0)) / len(lw))
    return {"log_z": log_z, "ess": ess}
