"""Dataset distillation in one harness: random real subset, DM, ROME-like and C²R.

Every method learns ``ipc`` synthetic images per class by SGD on the images (momentum 0.5, images
clipped to [0, 1] after each step), initialised from random real images of the class, in class-balanced
batches of ``batch_per_class`` images per class (default ``max(1, ipc // 2)``); one iteration is one step on one batch, so methods
that share ``iterations`` take the same number of steps on the same batch sizes.

- :class:`RandomSubset`: the initialisation itself (no step).
- :class:`DM` (Zhao & Bilen 2023, Eq. 4): match the mean embedding of each class's synthetic and real
  images under a freshly initialised network every iteration.
- :class:`ROMELike` [inferred from ROME's code, Zhou et al. 2025]: on a pool of adversarially trained
  networks, ``(1 - eta) acc * CE(syn) + eta sum_c ||mean z_syn,c - mean z_adv-real,c||^2`` with the
  real images attacked by targeted PGD-10 toward ``(y + 1) mod K`` (cached per pool network) and
  ``acc`` the network's clean accuracy on the real images.
- :class:`C2R` (the paper): ROME-like with the class-mean alignment replaced by the contrastive
  robustness loss (``contrastive.crl_loss``) over the synthetic images' clean and adversarial views
  (the adversarial view from LS-PGD) and the real images' adversarial views, hardest-first batches
  from the attack-aware curriculum (``curriculum.attack_aware_batches`` on the perturbation score),
  and the objective ``(1 - eta) L_perf + eta L_CRL``. Each part can be switched off for the ablations.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import torch
import torch.nn.functional as F
from torch import nn

from icml26.c2r.contrastive import ClassQueue, crl_loss, mean_alignment_loss, random_projection
from icml26.c2r.curriculum import attack_aware_batches, uniform_batches
from icml26.c2r.data import check_images
from icml26.c2r.ls_pgd import LineSearchPGD, counting_backward
from icml26.c2r.margins import perturbation_score, pgd
from icml26.c2r.nets import make_net


@dataclass
class DistilledSet:
    """The synthetic images ``(K * ipc, c, h, w)`` in [0, 1], their labels, and what it cost."""

    images: torch.Tensor
    labels: torch.Tensor
    cpu_seconds: float = 0.0
    attack_backward_per_sample: float = 0.0  # per synthetic sample and iteration, inner attack only
    info: dict = field(default_factory=dict)


def check_ipc(y: torch.Tensor, ipc: int) -> None:
    if isinstance(ipc, bool) or not isinstance(ipc, int) or ipc < 1:
        raise ValueError(f"ipc must be an integer >= 1, got {ipc!r}")
    smallest = int(torch.bincount(y).min()) if len(y) else 0
    if ipc > smallest:
        raise ValueError(f"ipc {ipc} is above the smallest class's size ({smallest} images)")


class Distiller:
    """The shared recipe; subclasses override :meth:`prepare` and :meth:`batch_loss`."""

    def __init__(
        self,
        iterations: int = 100,
        lr_img: float = 0.1,
        batch_per_class: int | None = None,
        real_per_class: int = 64,
        n_classes: int = 10,
    ) -> None:
        if iterations < 0 or lr_img <= 0 or real_per_class < 1 or n_classes < 2:
            raise ValueError(
                "need iterations >= 0, lr_img > 0, real_per_class >= 1, n_classes >= 2; got"
                f" {iterations}, {lr_img}, {real_per_class}, {n_classes}"
            )
        if batch_per_class is not None and (isinstance(batch_per_class, bool) or batch_per_class < 1):
            raise ValueError(f"batch_per_class must be None or an integer >= 1, got {batch_per_class!r}")
        self.iterations, self.lr_img, self.batch_per_class = iterations, lr_img, batch_per_class
        self.real_per_class, self.n_classes = real_per_class, n_classes

    def get_params(self, deep: bool = True) -> dict:
        """The constructor's settings (scikit-learn style; ``deep`` is accepted and ignored)."""
        return {k: v for k, v in vars(self).items() if not k.startswith("_")}

    def prepare(
        self, real: torch.Tensor, real_y: torch.Tensor, pool: list[nn.Module], g: torch.Generator
    ) -> None:
        """Per-run state computed once before the steps (caches, queues)."""

    def batches(
        self, syn: torch.Tensor, y: torch.Tensor, it: int, per_class: int, g: torch.Generator
    ) -> list[torch.Tensor]:
        return uniform_batches(y, per_class, g)

    def batch_loss(
        self, x: torch.Tensor, y: torch.Tensor, index: torch.Tensor, it: int, g: torch.Generator
    ) -> torch.Tensor:
        raise NotImplementedError

    def distill(
        self, x: torch.Tensor, y: torch.Tensor, ipc: int, seed: int, pool: list[nn.Module] | None = None
    ) -> DistilledSet:
        """Learn ``ipc`` images per class from the real ``(x, y)``; ``pool`` = adversarially trained nets."""
        check_images(x, y, self.n_classes)
        check_ipc(y, ipc)
        g = torch.Generator().manual_seed(seed)
        torch.manual_seed(seed)
        start = time.process_time()
        init, real = [], []
        for c in range(self.n_classes):
            idx = torch.nonzero(y == c).squeeze(1)
            perm = idx[torch.randperm(len(idx), generator=g)]
            init.append(perm[:ipc])
            real.append(perm[ipc : ipc + self.real_per_class])
        init_idx, real_idx = torch.cat(init), torch.cat(real)
        syn = x[init_idx].clone().requires_grad_(True)
        syn_y = y[init_idx].clone()
        self._backward, self._n_syn = 0, len(syn)
        self.prepare(x[real_idx], y[real_idx], pool or [], g)
        opt = torch.optim.SGD([syn], lr=self.lr_img, momentum=0.5)
        # IPC/2 per class by default, so an epoch has two or more batches and the curriculum's order
        # matters (with IPC per class every epoch is a single batch and AAC would be a no-op)
        per_class = min(self.batch_per_class or max(1, ipc // 2), ipc)
        queue: list[torch.Tensor] = []
        for it in range(self.iterations):
            if not queue:
                queue = self.batches(syn.detach(), syn_y, it, per_class, g)
            index = queue.pop(0)
            loss = self.batch_loss(syn[index], syn_y[index], index, it, g)
            opt.zero_grad()
            loss.backward()
            opt.step()
            with torch.no_grad():
                syn.clamp_(0, 1)
        seconds = time.process_time() - start
        per_sample = self._backward / max(1, self.iterations * per_class * self.n_classes)
        return DistilledSet(syn.detach(), syn_y, seconds, per_sample)


class RandomSubset(Distiller):
    """``ipc`` random real images per class (the initialisation; no step)."""

    def __init__(self, **kw) -> None:
        super().__init__(**{**kw, "iterations": 0})


class DM(Distiller):
    """Distribution matching (Zhao & Bilen 2023): mean embeddings under a fresh random ConvNet-3."""

    def prepare(self, real, real_y, pool, g):
        self._real, self._real_y = real, real_y

    def batch_loss(self, x, y, index, it, g):
        net = make_net(x, int(torch.randint(0, 2**31 - 1, (1,), generator=g)))
        with torch.no_grad():
            z_real = net.embed(self._real)
        return mean_alignment_loss(net.embed(x), y, z_real, self._real_y)


class _PoolDistiller(Distiller):
    """Shared by ROME-like and C²R: the pool, its clean accuracies and the targeted-PGD real images."""

    def __init__(self, eta: float = 0.5, eps: float = 8 / 255, **kw) -> None:
        super().__init__(**kw)
        if not 0 <= eta <= 1 or eps <= 0:
            raise ValueError(f"need 0 <= eta <= 1 and eps > 0, got eta={eta}, eps={eps}")
        self.eta, self.eps = eta, eps

    def prepare(self, real, real_y, pool, g):
        if not pool:
            raise ValueError(f"{type(self).__name__} needs a pool of adversarially trained networks")
        self._pool, self._real_y = pool, real_y
        self._adv_real, self._acc = [], []
        for net in pool:
            target = (real_y + 1) % self.n_classes
            self._adv_real.append(
                pgd(net, real, target, self.eps, 10, self.eps / 4, targeted=True, generator=g)
            )
            with torch.no_grad():
                self._acc.append(float((net(real).argmax(1) == real_y).float().mean()))

    def net_for(self, it: int) -> tuple[int, nn.Module]:
        p = it % len(self._pool)
        return p, self._pool[p]

    def performance_loss(self, net: nn.Module, x: torch.Tensor, y: torch.Tensor, p: int) -> torch.Tensor:
        """ROME's performance-aligned term: the pool net's clean accuracy times its CE on the images."""
        return self._acc[p] * F.cross_entropy(net(x), y)


class ROMELike(_PoolDistiller):
    """(1 - eta) acc CE + eta class-mean alignment with the targeted-PGD real images (ROME-like)."""

    def batch_loss(self, x, y, index, it, g):
        p, net = self.net_for(it)
        with torch.no_grad():
            z_real = net.embed(self._adv_real[p])
        align = mean_alignment_loss(net.embed(x), y, z_real, self._real_y)
        return (1 - self.eta) * self.performance_loss(net, x, y, p) + self.eta * align


class C2R(_PoolDistiller):
    """C²R: attack-aware curriculum + contrastive robustness loss (+ LS-PGD as the inner attack).

    Flags (each an ablation): ``curriculum`` (AAC; False: uniform batches), ``contrastive`` (CRL;
    False: class-mean alignment), ``queue_size`` (0: no memory queue), ``inner_attack`` (``ls_pgd`` or
    ``pgd10``), ``hard_k`` (None: every negative). ``score_steps`` is T of the perturbation score,
    ``tau`` the temperature, ``rho`` the curriculum's pacing [inferred], ``real_views`` the real
    adversarial views per class in each CRL batch [inferred].
    """

    def __init__(
        self,
        tau: float = 0.1,
        score_steps: int = 3,
        curriculum: bool = True,
        contrastive: bool = True,
        queue_size: int = 256,
        inner_attack: str = "ls_pgd",
        ls_steps: int = 4,
        ls_beta: float = 0.5,
        hard_k: int | None = 32,
        projection_rank: int = 64,
        rho: float = 1.0,
        real_views: int = 16,
        **kw,
    ) -> None:
        super().__init__(**kw)
        if inner_attack not in ("ls_pgd", "pgd10"):
            raise ValueError(f"inner_attack {inner_attack!r} is not one of ls_pgd, pgd10")
        if tau <= 0 or score_steps < 1 or queue_size < 0 or real_views < 1:
            raise ValueError(
                "need tau > 0, score_steps >= 1, queue_size >= 0, real_views >= 1; got"
                f" {tau}, {score_steps}, {queue_size}, {real_views}"
            )
        if not 0 < rho <= 1 or not 0 < ls_beta < 1 or ls_steps < 1:
            raise ValueError(
                f"need 0 < rho <= 1, 0 < ls_beta < 1, ls_steps >= 1; got {rho}, {ls_beta}, {ls_steps}"
            )
        if (hard_k is not None and hard_k < 1) or projection_rank < 1:
            raise ValueError(
                f"need hard_k None or >= 1 and projection_rank >= 1; got {hard_k}, {projection_rank}"
            )
        self.tau, self.score_steps, self.curriculum, self.contrastive = (
            tau,
            score_steps,
            curriculum,
            contrastive,
        )
        self.queue_size, self.inner_attack, self.ls_steps, self.ls_beta = (
            queue_size,
            inner_attack,
            ls_steps,
            ls_beta,
        )
        self.hard_k, self.projection_rank, self.rho, self.real_views = (
            hard_k,
            projection_rank,
            rho,
            real_views,
        )

    def prepare(self, real, real_y, pool, g):
        super().prepare(real, real_y, pool, g)
        dim = pool[0].embed(real[:1]).shape[1]
        self._queues = [
            ClassQueue(self.n_classes, dim, self.queue_size) if self.queue_size else None for _ in pool
        ]
        self._projection = random_projection(dim, min(self.projection_rank, dim), g) if self.hard_k else None
        shape = tuple(real.shape[1:])
        self._ls = LineSearchPGD(self._n_syn, shape, self.eps, beta=self.ls_beta, steps=self.ls_steps)

    def batches(self, syn, y, it, per_class, g):
        if not self.curriculum:
            return uniform_batches(y, per_class, g)
        _, net = self.net_for(it)
        scores = perturbation_score(net, syn, y, self.eps, self.score_steps, generator=g)
        return attack_aware_batches(scores, y, per_class, self.rho)

    def adversarial_view(self, net, x, y, index):
        """The synthetic images' adversarial view by the inner attack; counts its backward passes."""
        with counting_backward(net) as counter:
            if self.inner_attack == "ls_pgd":
                adv = self._ls(net, x, y, index)
            else:
                adv = pgd(net, x, y, self.eps, 10, self.eps / 4)
        self._backward += counter.count
        return adv

    def _sample_real(self, c: int, g: torch.Generator) -> torch.Tensor:
        idx = torch.nonzero(self._real_y == c).squeeze(1)
        return idx[torch.randperm(len(idx), generator=g)[: self.real_views]]

    def batch_loss(self, x, y, index, it, g):
        p, net = self.net_for(it)
        adv = self.adversarial_view(net, x, y, index)
        x_adv = x + (adv - x).detach()  # the gradient reaches the synthetic image through both views
        z, z_adv = net.embed(x), net.embed(x_adv)
        real_idx = torch.cat([self._sample_real(int(c), g) for c in torch.unique(y)])
        with torch.no_grad():
            z_real = net.embed(self._adv_real[p][real_idx])
        y_real = self._real_y[real_idx]
        if self.contrastive:
            queue = self._queues[p]
            robust = crl_loss(
                z,
                z_adv,
                y,
                self.tau,
                queue.contents() if queue is not None else None,
                self.hard_k,
                self._projection,
                extra_views=(z_real, y_real),
            )
            if queue is not None:
                queue.push(z_real, y_real)
        else:
            robust = mean_alignment_loss(z, y, z_real, y_real)
        return (1 - self.eta) * self.performance_loss(net, x, y, p) + self.eta * robust


METHODS = {"random": RandomSubset, "dm": DM, "rome": ROMELike, "c2r": C2R}
