"""LS-PGD: line-search PGD with cached perturbations (C²R's cheap inner attack) [read, secondary note].

Per sample, a cached perturbation ``delta_hat`` and the loss it reached last time:

- if the loss at ``x + delta_hat`` has not fallen since then, ``delta_hat`` is reused (no backward);
- otherwise one backward pass gives ``v = sign grad loss(x + delta_hat)``, and a forward-only line search
  over the steps ``alpha beta^q`` (``q < Z``) of ``Proj(delta_hat + alpha beta^q v)`` keeps the
  candidate with the highest loss.

So a sample costs at most one backward pass per call, against ``T`` for T-step PGD. The projection
keeps ``||delta||_inf <= eps`` and ``x + delta`` in [0, 1].
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import torch
import torch.nn.functional as F
from torch import nn


class BackwardCounter:
    """Counts per-sample backward passes through ``module`` (a full backward hook on its first layer):
    ``count`` grows by the batch size of every gradient that reaches the input layer."""

    def __init__(self, module: nn.Module) -> None:
        self.count = 0
        first = next(m for m in module.modules() if len(list(m.children())) == 0)
        self._handle = first.register_full_backward_hook(self._hook)

    def _hook(self, module: nn.Module, grad_input: tuple, grad_output: tuple) -> None:
        self.count += int(grad_output[0].shape[0])

    def close(self) -> None:
        self._handle.remove()


@contextlib.contextmanager
def counting_backward(module: nn.Module) -> Iterator[BackwardCounter]:
    counter = BackwardCounter(module)
    try:
        yield counter
    finally:
        counter.close()


class LineSearchPGD:
    """LS-PGD over a fixed set of ``n`` samples (the synthetic set), addressed by index."""

    def __init__(
        self,
        n: int,
        shape: tuple[int, ...],
        eps: float,
        alpha: float | None = None,
        beta: float = 0.5,
        steps: int = 4,
    ) -> None:
        if eps <= 0 or steps < 1 or not 0 < beta < 1 or n < 1:
            raise ValueError(
                f"LineSearchPGD needs n >= 1, eps > 0, 0 < beta < 1, steps >= 1; got {n}, {eps}, {beta}, {steps}"
            )
        self.eps, self.alpha, self.beta, self.steps = eps, eps / 2 if alpha is None else alpha, beta, steps
        self.delta = torch.zeros((n, *shape))
        self.last_loss = torch.full((n,), float("inf"))
        self.refreshed = 0  # samples that took the backward pass
        self.reused = 0

    def _project(self, x: torch.Tensor, delta: torch.Tensor) -> torch.Tensor:
        delta = delta.clamp(-self.eps, self.eps)
        return (x + delta).clamp(0, 1) - x

    def __call__(
        self, model: nn.Module, x: torch.Tensor, y: torch.Tensor, index: torch.Tensor
    ) -> torch.Tensor:
        """``x + delta`` for the samples ``index`` (``x`` their current images, detached inside)."""
        x = x.detach()
        delta = self._project(x, self.delta[index].to(x))
        was_training = model.training
        model.eval()
        with torch.no_grad():
            loss_now = F.cross_entropy(model(x + delta), y, reduction="none")
        refresh = loss_now < self.last_loss[index].to(loss_now)
        chosen_loss = loss_now.clone()
        if refresh.any():
            xr, dr, yr = x[refresh], delta[refresh].clone().requires_grad_(True), y[refresh]
            with torch.enable_grad():
                (grad,) = torch.autograd.grad(F.cross_entropy(model(xr + dr), yr, reduction="sum"), dr)
            v = grad.sign()
            base = dr.detach().clone()  # a copy: best_delta is written in place below
            best_delta, best_loss = base.clone(), torch.full((len(xr),), float("-inf"), device=x.device)
            with torch.no_grad():
                for q in range(self.steps):
                    cand = self._project(xr, base + self.alpha * self.beta**q * v)
                    loss = F.cross_entropy(model(xr + cand), yr, reduction="none")
                    better = loss > best_loss
                    best_delta[better], best_loss[better] = cand[better], loss[better]
            delta[refresh], chosen_loss[refresh] = best_delta, best_loss
        model.train(was_training)
        self.delta[index] = delta.detach().cpu()
        self.last_loss[index] = chosen_loss.detach().cpu()
        self.refreshed += int(refresh.sum())
        self.reused += int((~refresh).sum())
        return (x + delta).detach()
