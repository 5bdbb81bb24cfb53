"""``DiBO(task, config)``: pretraining stand-in, domain adaptation, two-stage post-training, proposals.

Pipeline (DiBO §3-4, stage names as in the official ``main.py``: ``da sft rl``):

1. ``pretrain()`` [ours, in place of LLaDA-8B's natural-text pretraining]: masked-LM training
   (:func:`pretraining_loss`, / (B T)) on prompt-response corpora built from other TF-binding landscapes.
2. ``adapt()``: domain adaptation on the task's own corpus, masks anywhere, per sequence / its length.
3. ``sft()``: stage 1, masked-response prediction on d2 anchors, per sequence / its #masked.
4. ``rl()``: stage 2, offline reward-weighted loss on d2 anchors with the whole response masked.
5. ``propose(n, seed)``: 7 random pool designs + an evaluation template, span masked, one pass, argmax;
   parse, validate and deduplicate until ``n`` candidates or ``max_attempts`` prompts.

With ``causal=True`` every stage trains the matched autoregressive model instead (next-token loss on
everything for pretraining/DA, on the response for SFT, reward-weighted response probabilities for RL).
"""

from __future__ import annotations

import dataclasses
import time
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from icml26.dibo import shipped
from icml26.dibo.corpus import MARKERS, Pool, encode_items, format_label, layouts, parse_design
from icml26.dibo.decoding import fill_autoregressive, fill_one_step, fill_remasking
from icml26.dibo.model import (
    DiffusionLM,
    adaptation_loss,
    ar_loss,
    ar_rl_loss,
    pretraining_loss,
    rl_loss,
    sft_loss,
    warmup_constant,
)
from icml26.dibo.tasks import (
    DEFAULT_EXCLUDED,
    EVALUATION_LANDSCAPE,
    Task,
    check_pretraining_landscapes,
    default_pretraining_landscapes,
    tf_landscape_task,
)

DECODINGS = ("one_step", "remask")


@dataclass(frozen=True)
class DiBOConfig:
    """Hyperparameters (the paper's in brackets; stage steps are scaled to a CPU). ``pretrain_landscapes``:
    the landscapes pretrained on (empty: ``n_pretrain_landscapes`` spread over the non-excluded ones);
    ``excluded``: landscape-name prefixes kept out of pretraining (the evaluation landscape always is)."""

    markers: str = "special"
    causal: bool = False
    d_model: int = 128  # 0.88M parameters (the issue's ~1M) in place of LLaDA-8B
    n_layers: int = 4
    n_heads: int = 4
    d_ff: int = 512
    batch_size: int = 16  # [1 x grad-accum 16]
    pretrain_steps: int = 1000
    adapt_steps: int = 200  # [1024]
    sft_steps: int = 200  # [1024]
    rl_steps: int = 100  # [128]
    pretrain_lr: float = 2e-3
    adapt_lr: float = 1e-3  # [2e-5]
    sft_lr: float = 5e-4  # [2e-5]
    rl_lr: float = 2.5e-5  # [1e-6]: 1/20 of SFT's, the paper's ratio
    warmup: int = 50  # [100], capped at a fifth of a stage
    weight_decay: float = 0.01
    clip: float = 1.0
    pretrain_landscapes: tuple[str, ...] = ()
    n_pretrain_landscapes: int = 12
    excluded: tuple[str, ...] = DEFAULT_EXCLUDED
    decoding: str = "one_step"
    remask_steps: int = 4
    max_attempts: int = 1000
    prompt_batch: int = 128
    exclude_known: bool = False  # drop proposals already in the visible offline data (eval.py keeps them)
    device: str = "cpu"  # a torch device: "cpu", "cuda", "cuda:1", ...
    seed: int = 0

    def __post_init__(self) -> None:
        if self.markers not in MARKERS:
            raise ValueError(f"markers must be one of {MARKERS}, got {self.markers!r}")
        if self.decoding not in DECODINGS:
            raise ValueError(f"decoding must be one of {DECODINGS}, got {self.decoding!r}")
        if self.causal and self.decoding != "one_step":
            raise ValueError("the causal (AR) model decodes greedily; decoding must stay 'one_step'")
        for name in ("d_model", "n_layers", "n_heads", "d_ff", "batch_size", "remask_steps", "max_attempts",
                     "prompt_batch", "n_pretrain_landscapes"):  # fmt: skip
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                raise ValueError(f"DiBOConfig.{name} must be an integer >= 1, got {v!r}")
        for name in ("pretrain_steps", "adapt_steps", "sft_steps", "rl_steps", "warmup", "seed"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise ValueError(f"DiBOConfig.{name} must be an integer >= 0, got {v!r}")
        for name in ("pretrain_lr", "adapt_lr", "sft_lr", "rl_lr", "clip"):
            v = getattr(self, name)
            if not isinstance(v, int | float) or not v > 0:
                raise ValueError(f"DiBOConfig.{name} must be a number > 0, got {v!r}")
        if not isinstance(self.pretrain_landscapes, tuple) or not isinstance(self.excluded, tuple):
            raise TypeError("pretrain_landscapes and excluded must be tuples of strings")
        if not isinstance(self.exclude_known, bool):
            raise TypeError(f"DiBOConfig.exclude_known must be a bool, got {self.exclude_known!r}")
        check_device(self.device)


def _warn_if_labels_collapse(y: np.ndarray) -> None:
    """``RuntimeWarning`` when writing the pool's labels as ``+XXX.XXX`` merges most of their distinct values
    (fewer than a quarter remain): the prompts would then carry almost no label information."""
    raw = len(np.unique(y))
    written = len({format_label(float(v)) for v in y})
    if written < 0.25 * raw:
        warnings.warn(
            f"the pool's labels take {raw} distinct values but only {written} once written with 3 decimals"
            " (+XXX.XXX): the prompts carry almost no label information; rescale y (e.g. to [0, 1]) first",
            RuntimeWarning,
            stacklevel=3,
        )


def check_device(device: object) -> torch.device:
    """``device`` as a ``torch.device`` this machine has, else ``ValueError`` naming what is accepted."""
    try:
        dev = torch.device(device)  # type: ignore[arg-type]
    except (RuntimeError, TypeError):
        raise ValueError(f"device must be 'cpu' or 'cuda[:N]', got {device!r}") from None
    if dev.type not in ("cpu", "cuda"):
        raise ValueError(f"device must be 'cpu' or 'cuda[:N]', got {device!r}")
    if dev.type == "cuda":
        if not torch.cuda.is_available():
            raise ValueError(f"device {device!r} asked for, but no CUDA device is available here; use 'cpu'")
        if dev.index is not None and dev.index >= torch.cuda.device_count():
            raise ValueError(f"device {device!r}: only {torch.cuda.device_count()} CUDA device(s) here")
    return dev


@dataclass
class Proposal:
    """``n`` (or fewer) distinct valid candidates and the attempt counts behind them."""

    x: np.ndarray  # (k, L) alphabet indices
    attempts: int  # prompts decoded
    valid: int  # decoded spans that parsed as a design (duplicates included)
    seconds: float
    known: int = 0  # valid decoded spans already in the visible offline data (duplicates included)

    @property
    def validity(self) -> float:
        return self.valid / max(1, self.attempts)


class DiBO:
    """A diffusion (or, with ``causal``, autoregressive) LM trained to propose better designs for ``task``."""

    def __init__(self, task: Task, config: DiBOConfig | None = None) -> None:
        if not isinstance(task, Task):
            raise TypeError(
                f"task must be a dibo Task (tasks.tfbind8(), tasks.ehrlich(...)), got {type(task).__name__}"
            )
        self.config = config or DiBOConfig()
        if not isinstance(self.config, DiBOConfig):
            raise TypeError(f"config must be a DiBOConfig, got {type(self.config).__name__}")
        c = self.config
        self.task = task
        self.pool = Pool.of(task)
        self.train_layouts, self.eval_layouts = layouts(task.length, c.markers)
        self.span = torch.as_tensor(self.train_layouts[0].span)
        self.device = check_device(c.device)
        self.model = DiffusionLM(c.d_model, c.n_layers, c.n_heads, c.d_ff, causal=c.causal).to(self.device)
        if len(self.train_layouts[0].tokens) > self.model.max_len:
            raise ValueError(
                f"designs of length {task.length} make prompts of {len(self.train_layouts[0].tokens)} tokens,"
                f" more than the model's {self.model.max_len}"
            )
        self.span = self.span.to(self.device)
        self.reward_std_ = self.pool.reward_std()
        _warn_if_labels_collapse(self.pool.y)
        self.history_: dict[str, dict[str, float]] = {}
        self.pretrained_on_: list[str] | None = None  # set when pretrained here or when weights are loaded
        self.shipped_file_: tuple[str, str] | None = (
            None  # (file, recipe hash) of the last shipped file loaded
        )
        self._rng = np.random.default_rng(c.seed)
        self._torch_rng = torch.Generator(device=self.device).manual_seed(c.seed)
        self._known = {row.tobytes() for row in task.x_offline.astype(np.int64)}

    # ------------------------------------------------------------ weights

    def state_dict(self) -> dict[str, Any]:
        """Config, float16 weights (to ship small files) and the stage history."""
        weights = {k: v.detach().cpu().half() for k, v in self.model.state_dict().items()}
        config = {**dataclasses.asdict(self.config), "device": "cpu"}
        return {
            "config": config,
            "model": weights,
            "history": self.history_,
            "pretrained_on": self.pretrained_on_,
        }

    def load_weights(self, state: dict[str, Any]) -> DiBO:
        """Load model weights saved by :meth:`state_dict` (architecture and markers must match)."""
        if not isinstance(state, dict) or not {"config", "model"} <= set(state):
            raise ValueError("weights must be a dict saved by DiBO.state_dict() (keys 'config' and 'model')")
        saved = state["config"]
        for key in ("markers", "causal", "d_model", "n_layers", "n_heads", "d_ff"):
            if saved[key] != getattr(self.config, key):
                raise ValueError(
                    f"weights were trained with {key}={saved[key]!r}, this model has {getattr(self.config, key)!r}"
                )
        pretrained_on = state.get("pretrained_on")
        if pretrained_on is None and "pretrain" in state.get("history", {}):  # files saved before the field
            pretrained_on = saved.get("pretrain_landscapes") or default_pretraining_landscapes(
                saved["n_pretrain_landscapes"], tuple(saved["excluded"])
            )
        if pretrained_on:
            try:
                check_pretraining_landscapes(
                    list(pretrained_on), self._evaluation_landscape(), self.config.excluded
                )
            except ValueError as err:
                raise ValueError(
                    f"these weights were pretrained on a landscape this model excludes: {err}"
                ) from None
        self.model.load_state_dict({k: v.float().to(self.device) for k, v in state["model"].items()})
        self.history_.update({k: v for k, v in state.get("history", {}).items() if k not in self.history_})
        self.pretrained_on_ = list(pretrained_on) if pretrained_on else None
        return self

    def load_shipped(self, stage: str = "pretrain", seed: int = 0) -> DiBO:
        """Weights shipped with the package after ``stage``: ``pretrain`` (the default diffusion model), or
        ``sft`` (DA + SFT on ``tfbind8`` with seed 0, 1 or 2, or on the default ``ehrlich`` task with seed 0),
        made by benchmarks/dibo_pretrain.py. The file's recipe (:mod:`icml26.dibo.shipped`) must be the one
        the library would use now for this task and seed, else ``ValueError`` (stale or foreign weights)."""
        if stage not in shipped.STAGES:
            raise ValueError(f"stage must be one of {shipped.STAGES}, got {stage!r}")
        key = self.task.name.split(":", 1)[0]
        if stage == "sft" and key not in shipped.SFT_SEEDS:
            raise ValueError(
                f"no shipped SFT weights for task {self.task.name!r}; shipped: {sorted(shipped.SFT_SEEDS)}"
            )
        seeds = shipped.SFT_SEEDS.get(key, (0,)) if stage == "sft" else (0,)
        if isinstance(seed, bool) or seed not in seeds:
            raise ValueError(f"shipped {stage} weights exist for seed(s) {list(seeds)}, got {seed!r}")
        c = self.config
        kind = _kind(c)
        name = shipped.file_name(kind, stage, key, seed)
        state = shipped.read(name)
        ref = DiBOConfig(markers=c.markers, causal=c.causal)  # the library's defaults: the shipped recipe
        if stage == "pretrain":
            expected = shipped.recipe(ref, "pretrain", landscapes=ref_landscapes(ref))
        else:
            expected = shipped.recipe(ref, "sft", self.task, seed, parent=shipped.pretrained_digest(kind))
        shipped.check_recipe(name, state, expected)
        self.load_weights(state)
        self.shipped_file_ = (name, state["recipe_hash"])
        return self

    # ------------------------------------------------------------ stages

    def _encode(self, pool: Pool, items: dict[str, np.ndarray], layout_list: list) -> torch.Tensor:
        t = self._rng.integers(len(layout_list), size=len(items["anchor"]))
        rows = encode_items(
            layout_list,
            t,
            pool.x[items["prompt"]],
            pool.y[items["prompt"]],
            pool.x[items["anchor"]],
            pool.task.alphabet,
        )
        return torch.as_tensor(rows, device=self.device)

    def _param_groups(self, stage: str) -> list[dict[str, Any]]:
        """AdamW groups: DA/SFT/RL exempt 1-d parameters, biases and norms from weight decay, as the official
        trainer; our pretraining decays every parameter (as its shipped file was trained)."""
        c = self.config
        if stage == "pretrain":
            return [{"params": list(self.model.parameters()), "weight_decay": c.weight_decay}]
        decay, no_decay = [], []
        for name, param in self.model.named_parameters():
            exempt = param.ndim == 1 or name.endswith(".bias") or "norm" in name.lower()
            (no_decay if exempt else decay).append(param)
        return [{"params": decay, "weight_decay": c.weight_decay}, {"params": no_decay, "weight_decay": 0.0}]

    def _train(self, stage: str, steps: int, lr: float, loss_of_batch) -> DiBO:
        c = self.config
        opt = torch.optim.AdamW(self._param_groups(stage), lr=lr)
        warm = min(c.warmup, steps // 5)
        sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: warmup_constant(s, warm))
        self.model.train()
        start, losses = time.perf_counter(), []
        for _ in range(steps):
            loss = loss_of_batch()
            if not torch.isfinite(loss):
                raise FloatingPointError(
                    f"{stage}: the loss became {loss.item()}; lower the {stage} learning rate"
                )
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), c.clip)
            opt.step()
            sched.step()
            losses.append(loss.item())
        self.model.eval()
        chunk = max(1, steps // 10)
        tail = losses[-chunk:] if losses else [float("nan")]
        self.history_[stage] = {
            "steps": steps,
            "seconds": time.perf_counter() - start,
            "final_loss": float(np.mean(tail)),
            "curve": [float(np.mean(losses[i : i + chunk])) for i in range(0, len(losses), chunk)],
        }
        return self

    def _lm_loss(self, tokens: torch.Tensor, stage: str) -> torch.Tensor:
        """The language-model loss of ``stage`` (``pretrain``, ``adapt`` or ``sft``) on token rows."""
        if self.config.causal:
            targets = torch.zeros_like(tokens, dtype=torch.bool)
            if stage == "sft":
                targets[:, self.span] = True
            else:
                targets = tokens != 0
            return ar_loss(self.model, tokens, targets)
        if stage == "sft":
            return sft_loss(self.model, tokens, self.span, self._torch_rng)
        if stage == "adapt":
            return adaptation_loss(self.model, tokens, self._torch_rng)
        return pretraining_loss(self.model, tokens, self._torch_rng)

    def _evaluation_landscape(self) -> str:
        name = self.task.name
        return name.split(":", 1)[1] if name.startswith("tfbind8:") else EVALUATION_LANDSCAPE

    def pretraining_landscapes(self) -> list[str]:
        """The landscapes this model's weights were pretrained on (after :meth:`pretrain` or loading
        pretrained weights: the ones they were trained on); before that, the ones :meth:`pretrain` would
        use, checked against the evaluation landscape and the exclusions."""
        if self.pretrained_on_ is not None:
            return list(self.pretrained_on_)
        c = self.config
        names = list(c.pretrain_landscapes) or default_pretraining_landscapes(
            c.n_pretrain_landscapes, c.excluded
        )
        return check_pretraining_landscapes(names, self._evaluation_landscape(), c.excluded)

    def pretrain(self) -> DiBO:
        """Masked-LM pretraining on prompt-response corpora of other TF-binding landscapes (our stand-in
        for LLaDA's natural-text pretraining); a step draws one landscape's items."""
        self.pretrained_on_ = None  # pretraining from here replaces whatever was loaded
        names = self.pretraining_landscapes()
        pools = [Pool.of(tf_landscape_task(n)) for n in names]
        tr, _ = layouts(8, self.config.markers)

        def batch() -> torch.Tensor:
            pool = pools[self._rng.integers(len(pools))]
            items = pool.improvement_items(pool.da_anchors, self.config.batch_size, self._rng)
            return self._lm_loss(self._encode(pool, items, tr), "pretrain")

        self._train("pretrain", self.config.pretrain_steps, self.config.pretrain_lr, batch)
        self.pretrained_on_ = names
        return self

    def adapt(self) -> DiBO:
        """Domain adaptation on the task's corpus: anchors d1 and d2, masks anywhere, loss / (B L)."""
        p = self.pool

        def batch() -> torch.Tensor:
            items = p.improvement_items(p.da_anchors, self.config.batch_size, self._rng)
            return self._lm_loss(self._encode(p, items, self.train_layouts), "adapt")

        return self._train("adapt", self.config.adapt_steps, self.config.adapt_lr, batch)

    def sft(self) -> DiBO:
        """Stage 1: masked-response prediction on d2 anchors (masks only in the response, loss / #masked)."""
        p = self.pool

        def batch() -> torch.Tensor:
            items = p.improvement_items(p.sft_anchors, self.config.batch_size, self._rng)
            return self._lm_loss(self._encode(p, items, self.train_layouts), "sft")

        return self._train("sft", self.config.sft_steps, self.config.sft_lr, batch)

    def rl(self) -> DiBO:
        """Stage 2: offline reward-weighted refinement on RL items, whole response masked (see ``rl_loss``)."""
        p = self.pool
        loss = ar_rl_loss if self.config.causal else rl_loss

        def batch() -> torch.Tensor:
            items = p.rl_items(self.config.batch_size, self._rng)
            tokens = self._encode(p, items, self.train_layouts)
            return loss(
                self.model,
                tokens,
                self.span,
                torch.as_tensor(items["reward"], dtype=torch.float32, device=self.device),
                self.reward_std_,
            )

        return self._train("rl", self.config.rl_steps, self.config.rl_lr, batch)

    # ------------------------------------------------------------ inference

    def fill(self, tokens: torch.Tensor) -> torch.Tensor:
        """Decode the response span of prompt rows ``(B, T)`` with the configured decoding."""
        if self.config.causal:
            return fill_autoregressive(self.model, tokens, self.span)
        if self.config.decoding == "remask":
            return fill_remasking(self.model, tokens, self.span, self.config.remask_steps)
        return fill_one_step(self.model, tokens, self.span)

    def propose(self, n: int = 128, seed: int = 0, exclude_known: bool | None = None) -> Proposal:
        """Up to ``n`` distinct valid designs from at most ``max_attempts`` random 7-shot prompts.

        ``exclude_known`` (default: the config's, False as in the official ``eval.py``) drops designs
        already in the task's visible offline data. Fewer than ``n`` found within ``max_attempts`` prompts
        warns (``RuntimeWarning``) and returns what was found."""
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise ValueError(f"n must be an integer >= 1, got {n!r}")
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise ValueError(f"seed must be an integer >= 0, got {seed!r}")
        exclude = self.config.exclude_known if exclude_known is None else exclude_known
        if not isinstance(exclude, bool):
            raise TypeError(f"exclude_known must be a bool or None, got {exclude_known!r}")
        c, p = self.config, self.pool
        rng = np.random.default_rng(seed)
        seen: dict[bytes, np.ndarray] = {}
        attempts = valid = known = 0
        start = time.perf_counter()
        self.model.eval()
        while len(seen) < n and attempts < c.max_attempts:
            b = min(c.prompt_batch, c.max_attempts - attempts)
            prompt = p.random_prompts(b, rng)
            t = rng.integers(len(self.eval_layouts), size=b)
            rows = encode_items(
                self.eval_layouts, t, p.x[prompt], p.y[prompt], p.x[prompt[:, 0]], self.task.alphabet
            )
            filled = self.fill(torch.as_tensor(rows, device=self.device)).cpu().numpy()
            for row in filled:
                attempts += 1
                design = parse_design(row, self.task.alphabet, self.task.length)
                if design is None:
                    continue
                valid += 1
                key = design.tobytes()
                if key in self._known:
                    known += 1
                    if exclude:
                        continue
                if len(seen) < n:
                    seen.setdefault(key, design)
        x = np.stack(list(seen.values())) if seen else np.empty((0, self.task.length), dtype=np.int64)
        if len(x) < n:
            warnings.warn(
                f"propose: {len(x)} distinct valid{' new' if exclude else ''} designs in {attempts} prompts,"
                f" fewer than n={n}; raise max_attempts (now {c.max_attempts}) for more",
                RuntimeWarning,
                stacklevel=2,
            )
        return Proposal(x, attempts, valid, time.perf_counter() - start, known)


def _kind(config: DiBOConfig) -> str:
    return f"{'ar' if config.causal else 'mdm'}_{config.markers}"


def ref_landscapes(config: DiBOConfig) -> list[str]:
    """The landscapes ``config`` pretrains on (its own list, or the default spread)."""
    return list(config.pretrain_landscapes) or default_pretraining_landscapes(
        config.n_pretrain_landscapes, config.excluded
    )


def shipped_weights_name(
    config: DiBOConfig, stage: str = "pretrain", task: str = "tfbind8", seed: int = 0
) -> str:
    """File name of shipped weights: ``pretrain_mdm_special.pt``, ``tfbind8_sft_mdm_special_seed0.pt``, ..."""
    return shipped.file_name(_kind(config), stage, task, seed)
