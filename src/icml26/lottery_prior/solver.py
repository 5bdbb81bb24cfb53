"""Lottery Prior: the compression-based maximum-likelihood solver and its ensemble over random draws.

For a lottery seed ``s`` (fixing the frozen weights ``W0^(s)``), one member solves [inferred from the
abstract and LotteryCodec's rate-distortion loss]

    min_{mask scores, latents, ModNet, upsampler, ARM}
        ||M (y - A g_{W0^(s) * mask}(q))||^2 / |M|  +  lam * R(q) / (H W)                    (1)

with ``q`` the quantised latents and ``R(q)`` their bits under the autoregressive Laplace model (entropy
regularisation); the mask's keep fraction, the module sizes and the fixed bit budget of the mask
(``N H_b(keep)``) are the complexity regularisation. Stage 1 anneals soft-round with Kumaraswamy noise
(noise parameter 2 -> 1, temperature 0.3 -> 0.1, cosine learning rate); stage 2 fine-tunes with hard
rounding and a straight-through gradient at a small learning rate (LotteryCodec's two stages [code]).
The ``K`` members differ in ``W0`` (the "family of implicit priors through randomness"); the ensemble
refinement is their mean (or a mean weighted by 1 / final loss) [inferred].
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch

from icml26.lottery_prior.entropy import Arm, binary_entropy, expgolomb_bits, latent_bits, mask_bits, quantize
from icml26.lottery_prior.network import LotteryNet
from icml26.lottery_prior.ops import Operator, to_chw, to_numpy

__all__ = ["LotteryPrior", "Solution", "ensemble_mean"]


def ensemble_mean(members: np.ndarray, losses: np.ndarray | None = None) -> np.ndarray:
    """Ensemble refinement: the mean of the member estimates ``(K, ...)``, or with ``losses`` the mean weighted
    by ``1 / loss_k`` (normalised). By Jensen, the plain mean's squared error never exceeds the mean of the
    members' squared errors."""
    members = np.asarray(members, dtype=np.float64)
    if losses is None:
        return members.mean(axis=0)
    w = 1.0 / np.asarray(losses, dtype=np.float64)
    return np.tensordot(w / w.sum(), members, axes=1)


@dataclass
class Solution:
    """What :meth:`LotteryPrior.solve` returns.

    estimate: the ensemble estimate, ``(H, W)`` or ``(H, W, C)`` in [0, 1]; members: ``(K, ...)`` the member
    estimates; bpp: total bits per pixel per member (latents + mask + modules, mean over members);
    latent_bpp: the latents' share (member_latent_bpp: per member); effective_params: the counting rule of the docs; final_loss: objective
    (1) of each member at the end; history: per-step mean over members of ``loss``, ``data`` and ``bpp``;
    snapshots: step -> member estimates at the steps in ``eval_at``; seconds: CPU seconds of the solve.
    """

    estimate: np.ndarray
    members: np.ndarray
    bpp: float
    latent_bpp: float
    member_latent_bpp: np.ndarray
    effective_params: float
    final_loss: np.ndarray
    history: dict[str, list[float]] = field(default_factory=dict)
    snapshots: dict[int, np.ndarray] = field(default_factory=dict)
    seconds: float = 0.0


def _check_number(name: str, value: Any, low: float, high: float, low_open: bool = False) -> float:
    bad = isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value)
    if bad or value < low or value > high or (low_open and value == low):
        lo = "(" if low_open else "["
        raise ValueError(f"{name} must be a number in {lo}{low:g}, {high:g}], got {value!r}")
    return float(value)


def _check_int(name: str, value: Any, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < low:
        raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    return int(value)


class LotteryPrior:
    """Zero-shot inverse solver: ``LotteryPrior(keep, lam, members, seed).solve(y, op)``.

    Hyperparameters (scikit-learn style: stored, validated at ``solve``): ``keep`` the mask's keep fraction
    in (0, 1]; ``lam`` the rate weight of (1); ``members`` K >= 1; ``seed`` the lottery seed; ``steps`` total
    optimisation steps, of which the fraction ``stage2`` is the hard-rounding stage; ``lr`` (latents and
    modules), ``score_lr`` (mask scores), ``stage2_lr``; ``levels`` latent grids (None: as many as the
    image size allows, at most 7); ``context`` the ARM's causal window; ``shared_w0``: every member draws
    the same ``W0`` (only scores and module initialisation differ: the control of the ensemble claim);
    ``weighting`` "mean" or "loss"; ``eval_at`` steps at which member estimates are kept.
    """

    def __init__(
        self,
        keep: float = 0.7,
        lam: float = 1e-3,
        members: int = 4,
        seed: int = 0,
        steps: int = 1000,
        stage2: float = 0.1,
        lr: float = 1e-2,
        score_lr: float = 0.1,
        stage2_lr: float = 1e-4,
        levels: int | None = None,
        context: int = 5,
        arm_hidden: int = 24,
        widths: tuple[int, int, int] = (32, 24, 16),
        mod_hidden: int = 48,
        gain: float = 16.0,
        shared_w0: bool = False,
        weighting: str = "mean",
        eval_at: tuple[int, ...] = (),
        device: str = "cpu",
    ) -> None:
        self.keep, self.lam, self.members, self.seed, self.steps = keep, lam, members, seed, steps
        self.stage2, self.lr, self.score_lr, self.stage2_lr = stage2, lr, score_lr, stage2_lr
        self.levels, self.context, self.arm_hidden, self.widths = levels, context, arm_hidden, widths
        self.mod_hidden, self.gain, self.shared_w0, self.weighting = mod_hidden, gain, shared_w0, weighting
        self.eval_at, self.device = eval_at, device

    def get_params(self) -> dict[str, Any]:
        return {k: v for k, v in vars(self).items() if not k.endswith("_")}

    def _validate(self) -> None:
        _check_number("keep", self.keep, 0.0, 1.0, low_open=True)
        _check_number("lam", self.lam, 0.0, 1e6)
        _check_int("members", self.members, 1)
        _check_int("seed", self.seed, 0)
        _check_int("steps", self.steps, 1)
        _check_number("stage2", self.stage2, 0.0, 1.0)
        for name in ("lr", "score_lr", "stage2_lr", "gain"):
            _check_number(name, getattr(self, name), 0.0, 1e6, low_open=True)
        if self.levels is not None:
            _check_int("levels", self.levels, 1)
        from icml26.common import check_device

        self.device = check_device(self.device)
        if self.weighting not in ("mean", "loss"):
            raise ValueError(f"weighting must be 'mean' or 'loss', got {self.weighting!r}")
        if not all(isinstance(s, int) and 0 <= s <= self.steps for s in self.eval_at):
            raise ValueError(f"eval_at must be steps in [0, steps={self.steps}], got {self.eval_at!r}")

    def _levels(self, h: int, w: int) -> int:
        if self.levels is not None:
            return self.levels
        j = 1
        while j < 7 and h % 2**j == 0 and w % 2**j == 0 and min(h, w) // 2**j >= 2:
            j += 1
        return j

    def build(self, shape: tuple[int, int, int]) -> tuple[LotteryNet, Arm]:
        """The ``K``-member network and ARM for an image of ``shape`` (C, H, W), seeded by ``seed``."""
        k = self.members
        base = 1000 * self.seed
        w0_seeds = [base] * k if self.shared_w0 else [base + j for j in range(k)]
        init_seeds = [base + 500 + j for j in range(k)]
        net = LotteryNet(
            shape,
            self.keep,
            w0_seeds,
            init_seeds,
            self._levels(*shape[1:]),
            tuple(self.widths),
            self.mod_hidden,
        )
        gens = [torch.Generator().manual_seed(s + 250) for s in init_seeds]
        arm = Arm(k, (self.context**2 - 1) // 2, self.arm_hidden, gens)
        return net.to(self.device), arm.to(self.device)

    def effective_params(self, net: LotteryNet, arm: Arm) -> float:
        """Per member: latents + ModNet + ARM + upsampler parameters + kept mask entries x H_b(keep) / 32."""
        k = net.members
        dense = sum(p.numel() for p in net.latents.parameters())
        dense += sum(p.numel() for m in (net.modnet, net.upsampler, arm) for p in m.parameters())
        kept = sum(layer.k for layer in net.layers)
        return dense / k + kept * binary_entropy(self.keep) / 32

    def _quantized(self, net: LotteryNet, mode: str, t: float, a: float, gen: torch.Generator):
        return [quantize(lat * self.gain, mode, t, a, gen) for lat in net.latents]

    def solve(self, y: np.ndarray | torch.Tensor, op: Operator) -> Solution:
        """Solve (1) for each of the ``K`` members from the observation ``y`` of ``op`` and average them."""
        self._validate()
        if not isinstance(op, Operator):
            raise ValueError(f"op must be an icml26.lottery_prior.ops operator, got {type(op).__name__}")
        y_t = to_chw(y, "y", unit_range=False).to(torch.float32).to(self.device)
        shape = op.image_shape(y_t)
        op.check_image(torch.empty(shape))
        start = time.process_time()
        net, arm = self.build(shape)
        pixels = shape[1] * shape[2]
        groups = [
            {"params": [*net.latents, *net.modnet.parameters(), *net.upsampler.parameters(), *arm.parameters()],
             "lr": self.lr},
            {"params": [layer.scores for layer in net.layers], "lr": self.score_lr},
        ]  # fmt: skip
        opt = torch.optim.Adam(groups)
        n2 = round(self.stage2 * self.steps)
        n1 = self.steps - n2
        gen = torch.Generator().manual_seed(10_000 + self.seed)
        history: dict[str, list[float]] = {"loss": [], "data": [], "bpp": []}
        snapshots: dict[int, np.ndarray] = {}
        window = self.context

        def evaluate() -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
            with torch.no_grad():
                q = self._quantized(net, "hard", 1.0, 1.0, gen)
                x = net(q)
                return x, op.data_loss(x.cpu().double(), y_t.cpu().double()), latent_bits(q, arm, window)

        for step in range(self.steps):
            if step in self.eval_at:
                snapshots[step] = np.stack([to_numpy(m) for m in evaluate()[0].cpu()])
            if step < n1:
                frac = step / max(n1 - 1, 1)
                mode, t, a = "soft", 0.3 - 0.2 * frac, 2.0 - frac
                scale = 0.5 * (1 + math.cos(math.pi * step / n1))
                for g, base in zip(opt.param_groups, (self.lr, self.score_lr), strict=True):
                    g["lr"] = base * max(scale, 1e-3)
            else:
                mode, t, a = "ste", 1e-4, 1.0
                if step == n1:
                    for g in opt.param_groups:
                        g["lr"] = self.stage2_lr
            q = self._quantized(net, mode, t, a, gen)
            x = net(q)
            data = op.data_loss(x, y_t)
            bpp = latent_bits(q, arm, window) / pixels
            loss = data + self.lam * bpp
            opt.zero_grad(set_to_none=True)
            loss.sum().backward()  # members are independent: the sum's gradient is each member's own
            opt.step()
            history["loss"].append(float(loss.detach().mean()))
            history["data"].append(float(data.detach().mean()))
            history["bpp"].append(float(bpp.detach().mean()))
        x, data, bits = evaluate()
        self.net_, self.arm_ = net, arm
        if self.steps in self.eval_at:
            snapshots[self.steps] = np.stack([to_numpy(m) for m in x.cpu()])
        k = self.members
        extra = (
            mask_bits(net.n_weights, self.keep)
            + sum(expgolomb_bits(p) for m in (net.modnet, net.upsampler, arm) for p in m.parameters()) / k
        )
        latent_bpp = float(bits.mean()) / pixels
        final = (data.float() + self.lam * bits.cpu() / pixels).numpy()
        members = np.stack([to_numpy(m) for m in x.cpu()])
        estimate = ensemble_mean(members, final if self.weighting == "loss" else None)
        return Solution(
            estimate=estimate,
            members=members,
            bpp=latent_bpp + extra / pixels,
            latent_bpp=latent_bpp,
            member_latent_bpp=bits.cpu().numpy() / pixels,
            effective_params=self.effective_params(net, arm),
            final_loss=final,
            history=history,
            snapshots=snapshots,
            seconds=time.process_time() - start,
        )
