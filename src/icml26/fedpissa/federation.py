"""The in-process federated loop: FedPissa and the single- and dual-LoRA baselines in one harness.

Every method trains the same model (a frozen backbone top with LoRA in the ``targets`` layers and a
classifier ``head`` that stays local) with the same rank, rounds, local steps and optimiser; they differ
only in which factors are sent and how the server combines them:

=============  ===========  =========================================================================
method         init         shared per module (the rest is private and never leaves the client)
=============  ===========  =========================================================================
``fedpissa``   PiSSA        warm-up rounds: A and B (FedAvg, dynamics recorded); then the selected
                            factor, conflict-projected, weighted, rotated; private factor mapped
``local``      LoRA         nothing (Local-only LoRA)
``fedit``      LoRA         A and B (FedAvg-LoRA / FedIT)
``ffa``        LoRA         B (A frozen at its shared random init; FFA-LoRA)
``fedsa``      LoRA         A (B private; FedSA-LoRA)
``dual``       LoRA         the global pair A_g, B_g; a second, local pair is private (FedDPA-style)
=============  ===========  =========================================================================

Private factors and heads live in each client's state across rounds. Counters are exact: floats sent up
(shared factors + the sample count ``n_k``) and down (shared factors + the rotation ``P``, r x r per
rotated module) per client per round, trainable parameters, and CPU seconds per local step
(``time.process_time``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from icml26.fedpissa.aggregation import (
    CONFLICTS,
    AggregationDynamics,
    agreement,
    drift,
    project_conflicts,
    rotate_principal,
    weighted_mean_update,
)
from icml26.fedpissa.data import ClientData
from icml26.fedpissa.lora import INITS, add_lora, lora_modules
from icml26.fedpissa.mapping import MAPS, map_private

METHODS = ("fedpissa", "local", "fedit", "ffa", "fedsa", "dual")
BASELINES = ("local", "fedit", "ffa", "fedsa", "dual")
SELECTS = ("dynamics", "A", "B")
_STATIC = {"local": (), "fedit": ("A", "B"), "ffa": ("B",), "fedsa": ("A",), "dual": ("A", "B")}


@dataclass(frozen=True)
class FedPissaConfig:
    """Settings of one federated run. FedPissa's own components are flags (all **[inferred]**):
    ``select`` (``"dynamics"`` or forced ``"A"``/``"B"``), ``warmup`` rounds, ``conflict``
    (``"pcgrad"``, ``"cone"``, ``"none"``), ``map`` (``"lstsq"``, ``"none"``), ``rotate``, ``ema``."""

    method: str = "fedpissa"
    r: int = 8
    alpha: float = 8.0
    init: str = "pissa"
    targets: tuple[str, ...] = ("query", "value")
    select: str = "dynamics"
    warmup: int = 3
    conflict: str = "pcgrad"
    map: str = "lstsq"
    rotate: bool = True
    ema: float = 0.5
    eps: float = 1e-8
    local_steps: int = 5
    lr: float = 3e-3
    batch: int = 32
    mix: float = 0.5

    def __post_init__(self) -> None:
        def bad(msg: str) -> ValueError:
            return ValueError(f"FedPissaConfig: {msg}")

        choices = {"method": METHODS, "init": INITS, "select": SELECTS, "conflict": CONFLICTS, "map": MAPS}
        for key, accepted in choices.items():
            if getattr(self, key) not in accepted:
                raise bad(f"{key} {getattr(self, key)!r} is not one of {', '.join(accepted)}")
        for key in ("r", "local_steps", "batch"):
            v = getattr(self, key)
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise bad(f"{key} must be an integer >= 1, got {v!r}")
        if isinstance(self.warmup, bool) or not isinstance(self.warmup, int) or self.warmup < 0:
            raise bad(f"warmup must be an integer >= 0, got {self.warmup!r}")
        if self.method == "fedpissa" and self.select == "dynamics" and self.warmup < 1:
            raise bad("select 'dynamics' needs warmup >= 1 (the dynamics are recorded in warm-up rounds)")
        for key in ("alpha", "lr"):
            v = getattr(self, key)
            if isinstance(v, bool) or not isinstance(v, int | float) or not np.isfinite(v) or v <= 0:
                raise bad(f"{key} must be a finite number > 0, got {v!r}")
        if not 0 <= self.ema < 1:
            raise bad(f"ema must lie in [0, 1), got {self.ema!r}")
        if not 0 <= self.mix <= 1:
            raise bad(f"mix must lie in [0, 1], got {self.mix!r}")
        if self.method == "dual" and self.init != "lora":
            raise bad("the dual-LoRA baseline uses init 'lora'")
        if isinstance(self.targets, str) or not self.targets:
            raise bad(f"targets must be a non-empty tuple of module names, got {self.targets!r}")

    def get_params(self) -> dict[str, Any]:
        return asdict(self)

    def set_params(self, **params: Any) -> FedPissaConfig:
        return replace(self, **params)


@dataclass
class FederatedResult:
    """What one run measured: personalised accuracy, the counters, the learned mask and dynamics."""

    method: str
    correct: np.ndarray  # per client, on its personal test split
    n_test: np.ndarray
    floats_up: float  # per client per round (mean over rounds and clients)
    floats_down: float
    trainable_params: int
    adapter_params: int
    cpu_per_step: float
    mask: dict[str, str] = field(default_factory=dict)
    dynamics: dict[str, dict[str, float]] = field(default_factory=dict)
    history: list[list[dict[str, torch.Tensor]]] = field(default_factory=list)

    @property
    def client_accuracy(self) -> np.ndarray:
        return self.correct / np.maximum(self.n_test, 1)

    @property
    def accuracy(self) -> float:
        """Sample-weighted personalised accuracy: sum of correct over sum of test samples."""
        return float(self.correct.sum() / self.n_test.sum())

    @property
    def worst(self) -> float:
        return float(self.client_accuracy.min())

    @property
    def floats_per_round(self) -> float:
        return self.floats_up + self.floats_down

    @property
    def bytes_per_round(self) -> float:
        return 4.0 * self.floats_per_round


def local_train(
    model: nn.Module,
    params: list[nn.Parameter],
    x: tuple[torch.Tensor, ...],
    y: torch.Tensor,
    steps: int,
    lr: float,
    batch: int,
    generator: torch.Generator,
) -> float:
    """``steps`` Adam steps of cross-entropy on minibatches drawn from ``generator`` (fresh optimiser
    state each round; dropout off); returns the CPU seconds spent."""
    if len(y) == 0:
        raise ValueError("a client without training samples cannot train")
    model.eval()
    opt = torch.optim.Adam(params, lr=lr)
    start = time.process_time()
    for _ in range(steps):
        idx = torch.randint(len(y), (min(batch, len(y)),), generator=generator)
        loss = F.cross_entropy(model(*(t[idx] for t in x)), y[idx])
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
    return time.process_time() - start


@torch.no_grad()
def count_correct(model: nn.Module, x: tuple[torch.Tensor, ...], y: torch.Tensor, batch: int = 256) -> int:
    model.eval()
    hits = 0
    for i in range(0, len(y), batch):
        hits += int((model(*(t[i : i + batch] for t in x)).argmax(1) == y[i : i + batch]).sum())
    return hits


class FedPissa:
    """FedPissa (and, by ``config.method``, each baseline) over in-process clients.

    ``model_fn(seed)`` builds the model without adapters; it must have a ``head`` submodule (the local
    classifier). ``run(clients, rounds, seed, model_fn)`` returns a :class:`FederatedResult`.
    """

    def __init__(self, config: FedPissaConfig | None = None, **params: Any) -> None:
        self.config = (
            (config or FedPissaConfig()).set_params(**params) if params else (config or FedPissaConfig())
        )

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        return self.config.get_params()

    # -- model and state ---------------------------------------------------------------------------
    def build(
        self, model_fn: Callable[[int], nn.Module], seed: int
    ) -> tuple[nn.Module, dict[str, nn.Parameter]]:
        c = self.config
        torch.manual_seed(seed)  # model_fn may draw from the global generator
        model = model_fn(seed)
        if not hasattr(model, "head"):
            raise ValueError("model_fn must return a module with a 'head' submodule (the local classifier)")
        for p in model.parameters():
            p.requires_grad_(False)
        add_lora(model, c.targets, c.r, c.alpha, c.init, seed=seed, dual=c.method == "dual")
        for name, p in model.named_parameters():
            p.requires_grad_(False)
            frozen_a = c.method == "ffa" and name.endswith("lora_A")
            if name.startswith("head.") or (("lora_" in name or "local_" in name) and not frozen_a):
                p.requires_grad_(True)
        trainable = {n: p for n, p in model.named_parameters() if p.requires_grad}
        return model, trainable

    def _shared(self, round_: int, mask: dict[str, str], modules: list[str]) -> dict[str, tuple[str, ...]]:
        c = self.config
        if c.method != "fedpissa":
            return {m: _STATIC[c.method] for m in modules}
        if round_ < c.warmup:
            return {m: ("A", "B") for m in modules}
        return {m: (mask[m],) for m in modules}

    def run(
        self,
        clients: list[ClientData],
        rounds: int,
        seed: int,
        model_fn: Callable[[int], nn.Module],
        trace: bool = False,
        max_seconds: float | None = None,
    ) -> FederatedResult:
        c = self.config
        if not isinstance(clients, list | tuple) or not clients:
            raise ValueError("clients must be a non-empty list of ClientData")
        if any(not isinstance(k, ClientData) or k.n_train == 0 or len(k.test_y) == 0 for k in clients):
            raise ValueError("every client must be a ClientData with non-empty train and test splits")
        if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
            raise ValueError(f"rounds must be an integer >= 1, got {rounds!r}")
        if c.method == "fedpissa" and rounds <= c.warmup and c.select == "dynamics":
            raise ValueError(f"rounds ({rounds}) must exceed warmup ({c.warmup}) for FedPissa's selection")
        model, trainable = self.build(model_fn, seed)
        modules = list(lora_modules(model))
        r = c.r
        states = [{n: p.detach().clone() for n, p in trainable.items()} for _ in clients]
        glob = {f"{m}.lora_{f}": model.get_submodule(m).get_parameter(f"lora_{f}").detach().clone()
                for m in modules for f in ("A", "B")}  # fmt: skip
        n = [k.n_train for k in clients]
        dyn = AggregationDynamics(beta=c.ema)
        mask: dict[str, str] = {}
        if c.method == "fedpissa" and c.select != "dynamics":
            mask = {m: c.select for m in modules}
        up = down = 0.0
        cpu = 0.0
        history: list[list[dict[str, torch.Tensor]]] = []
        gen = torch.Generator().manual_seed(seed)
        started = time.monotonic()
        prev: dict[str, tuple[str, ...]] = {}
        for t in range(rounds):
            shared = self._shared(t, mask, modules)
            # clients: receive the shared factors (mapping the private one), train, upload
            for k, client in enumerate(clients):
                state = states[k]
                if t > 0:
                    self._download(state, glob, prev)
                with torch.no_grad():
                    for name, p in trainable.items():
                        p.copy_(state[name])
                g = torch.Generator().manual_seed(seed * 100_003 + t * 1009 + k)
                cpu += local_train(model, list(trainable.values()), client.train_x, client.train_y,
                                   c.local_steps, c.lr, c.batch, g)  # fmt: skip
                states[k] = {name: p.detach().clone() for name, p in trainable.items()}
                if max_seconds is not None and time.monotonic() - started > max_seconds:
                    raise TimeoutError(
                        f"federated run exceeded max_seconds={max_seconds} in round {t + 1}/{rounds}; stopped"
                    )
            sent = sum(glob[f"{m}.lora_{f}"].numel() for m in modules for f in shared[m])
            if sent:
                up += sent + 1
                down += sent
            # server: dynamics in warm-up, then projection, weighted mean and rotation
            post = c.method == "fedpissa" and t >= c.warmup
            if c.method == "fedpissa" and t < c.warmup:
                for m in modules:
                    for f in ("A", "B"):
                        key = f"{m}.lora_{f}"
                        facs = [s[key] for s in states]
                        dyn.record(m, f, agreement([x - glob[key] for x in facs]), drift(facs, n))
            for m in modules:
                for f in shared[m]:
                    key = f"{m}.lora_{f}"
                    deltas = [s[key] - glob[key] for s in states]
                    if post:
                        deltas = project_conflicts(deltas, c.conflict, gen)
                    glob[key] = weighted_mean_update(glob[key], deltas, n)
                    if post and c.rotate and len(shared[m]) == 1:
                        glob[key], _ = rotate_principal(glob[key], f)
                        down += r * r
            if c.method == "fedpissa" and c.select == "dynamics" and t == c.warmup - 1:
                mask = dyn.select()
            prev = shared
            if trace:
                history.append([{k_: v.clone() for k_, v in s.items()} for s in states])
        correct, n_test = [], []
        for k, client in enumerate(clients):
            with torch.no_grad():
                for name, p in trainable.items():
                    p.copy_(states[k][name])
            correct.append(count_correct(model, client.test_x, client.test_y))
            n_test.append(len(client.test_y))
        adapter = sum(p.numel() for name, p in trainable.items() if not name.startswith("head."))
        dynamics = {
            m: {f"agreement_{f}": dyn.agreement.get((m, f), float("nan")) for f in ("A", "B")}
            | {f"drift_{f}": dyn.drift.get((m, f), float("nan")) for f in ("A", "B")}
            for m in modules
        }
        per = rounds * len(clients)
        steps = rounds * len(clients) * c.local_steps
        self.model_, self.states_, self.global_ = model, states, glob
        return FederatedResult(
            method=c.method,
            correct=np.asarray(correct, dtype=np.float64),
            n_test=np.asarray(n_test, dtype=np.float64),
            floats_up=up * len(clients) / per,
            floats_down=down * len(clients) / per,
            trainable_params=sum(p.numel() for p in trainable.values()),
            adapter_params=adapter,
            cpu_per_step=cpu / steps,
            mask=dict(mask),
            dynamics=dynamics,
            history=history,
        )

    def _download(self, state, glob, shared) -> None:
        """Set the client's shared factors to the server's aggregate of the last round; with one factor
        shared and ``map="lstsq"``, first map its private factor into the new basis (P4)."""
        c = self.config
        for m, factors in shared.items():
            for f in factors:
                key = f"{m}.lora_{f}"
                if c.method == "fedpissa" and c.map == "lstsq" and len(factors) == 1:
                    other = "B" if f == "A" else "A"
                    pkey = f"{m}.lora_{other}"
                    state[pkey] = map_private(state[pkey], state[key], glob[key], shared=f, eps=c.eps)
                state[key] = glob[key].clone()


def run_baseline(
    name: str,
    clients: list[ClientData],
    rounds: int,
    seed: int,
    model_fn: Callable[[int], nn.Module],
    **params: Any,
) -> FederatedResult:
    """One of :data:`BASELINES` (plain LoRA initialisation) in the same harness as FedPissa."""
    if name not in BASELINES:
        raise ValueError(f"unknown baseline {name!r}; accepted: {', '.join(BASELINES)}")
    config = FedPissaConfig(method=name, init="lora", **params)
    return FedPissa(config).run(clients, rounds, seed, model_fn)
