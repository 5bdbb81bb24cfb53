"""Step 1 at finite width: an ensemble of one-hidden-layer ReLU MLPs trained on the |T| examples.

Each member is ``f(x) = V relu(W x / sqrt(d)) / sqrt(h)`` (NTK parameterisation, ``W, V ~ N(0, 1)``,
no biases, float64), trained by full-batch gradient descent on the MSE; the ensemble averages the
members' outputs and a Heaviside at ``threshold`` makes the bits. All members train at once as one
batched tensor program.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import torch

from icml26.common import check_int


class MLPEnsemble:
    """``members`` independently initialised MLPs of width ``width``; ``fit(x, y)`` then ``predict(x)``.

    ``lr`` and ``epochs`` are the full-batch gradient descent on ``0.5 * sum of squared errors`` per
    member [inferred: the paper's SGD rate 1e-3 over 7000 epochs is for its loss scaling; we state ours].
    ``fit`` raises if training diverged and warns if the worst member's loss (``train_loss_``) stays above
    1e-3 of the zero predictor's.
    """

    def __init__(
        self, members: int = 16, width: int = 512, lr: float = 1.0, epochs: int = 500, seed: int = 0
    ):
        self.members = check_int("members", members)
        self.width = check_int("width", width)
        self.epochs = check_int("epochs", epochs, minimum=0)
        if not (isinstance(lr, int | float) and math.isfinite(lr) and lr > 0):
            raise ValueError(f"lr must be a positive finite number, got {lr!r}")
        self.lr = float(lr)
        self.seed = check_int("seed", seed, minimum=0)

    def fit(self, x: np.ndarray, y: np.ndarray) -> MLPEnsemble:
        x_t = torch.as_tensor(np.asarray(x, float), dtype=torch.float64)
        y_t = torch.as_tensor(np.asarray(y, float), dtype=torch.float64)
        if x_t.ndim != 2 or y_t.ndim != 2 or x_t.shape[0] != y_t.shape[0]:
            raise ValueError(
                f"MLPEnsemble.fit: need x (n, d) and y (n, k), got {tuple(x_t.shape)}, {tuple(y_t.shape)}"
            )
        if not (torch.isfinite(x_t).all() and torch.isfinite(y_t).all()):
            raise ValueError("MLPEnsemble.fit: x or y contains NaN or infinity")
        gen = torch.Generator().manual_seed(self.seed)
        d, k = x_t.shape[1], y_t.shape[1]
        w = torch.randn(self.members, d, self.width, generator=gen, dtype=torch.float64).requires_grad_()
        v = torch.randn(self.members, self.width, k, generator=gen, dtype=torch.float64).requires_grad_()
        loss = torch.zeros(())
        for _ in range(self.epochs):
            loss = 0.5 * ((self._forward(x_t, w, v) - y_t) ** 2).sum()
            gw, gv = torch.autograd.grad(loss, (w, v))
            with torch.no_grad():
                w -= self.lr * gw
                v -= self.lr * gv
        if not torch.isfinite(loss):
            raise ValueError(f"MLPEnsemble.fit: training diverged (lr={self.lr}); lower lr")
        with torch.no_grad():
            self.train_loss_ = float(0.5 * ((self._forward(x_t, w, v) - y_t) ** 2).sum(dim=(1, 2)).max())
        scale = 0.5 * float((y_t**2).sum())
        if self.epochs and self.train_loss_ > 1e-3 * scale:
            warnings.warn(
                f"MLPEnsemble.fit: training did not converge: the worst member's loss {self.train_loss_:.3g} is above"
                f" 1e-3 of the zero predictor's {scale:.3g} (dead ReLUs at a large lr, or too few epochs)",
                RuntimeWarning,
                stacklevel=2,
            )
        self.w_, self.v_ = w.detach().numpy(), v.detach().numpy()
        return self

    def _forward(self, x: torch.Tensor, w: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        """Each member's output, ``(members, n, k)``."""
        hidden = torch.relu(torch.matmul(x, w) / math.sqrt(x.shape[1]))
        return torch.matmul(hidden, v) / math.sqrt(self.width)

    def predict(self, x: np.ndarray, members: int | None = None) -> np.ndarray:
        """The mean output of the first ``members`` members (all by default), ``(n, k)``."""
        m = self.members if members is None else check_int("members", members)
        if m > self.members:
            raise ValueError(f"predict: members={m} but the ensemble has {self.members}")
        x = np.asarray(x, float)
        if x.ndim != 2 or x.shape[1] != self.w_.shape[1]:
            raise ValueError(f"predict: inputs need shape (n, {self.w_.shape[1]}), got {x.shape}")
        hidden = np.maximum(np.matmul(x, self.w_[:m]) / math.sqrt(x.shape[1]), 0.0)
        return (np.matmul(hidden, self.v_[:m]) / math.sqrt(self.width)).mean(axis=0)
