"""Step 1 at finite width: an ensemble of one-hidden-layer ReLU MLPs trained on the |T| examples.

Two training recipes (``recipe=``):

- ``"official"`` [code: ``training_flooding_graphs/{model,train_flooding}.py`` of the official
  repository]: standard parameterisation ``f(x) = V relu(W x + b) + c`` with trainable biases,
  ``W ~ N(0, 1 / d)``, ``V ~ N(0, 1 / h)``, biases initialised at 0 (``sigma_b = 0``), float64, width
  ``2000 k`` by default (``k`` = output dimension), plain SGD at lr ``1e-3`` on the mean squared error
  (``torch.nn.functional.mse_loss``, mean over the ``|T| x k`` entries), full batch (the batch of 256
  holds all ``|T|`` examples), 7000 epochs.
- ``"ntk"`` (our first recipe): NTK parameterisation ``f(x) = V relu(W x / sqrt(d)) / sqrt(h)``,
  ``W, V ~ N(0, 1)``, no biases, full-batch gradient descent on ``0.5 * sum of squared errors`` at lr
  1.0 [inferred]; its infinite-width limit is the closed-form NTK mean of ``ntk.py``.

The ensemble averages the members' outputs and a Heaviside at ``threshold`` makes the bits. Members
train in batches of ``batch_members`` as one batched tensor program on ``device``.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import torch

from icml26.common import check_device, check_int

RECIPES = ("official", "ntk")
_DEFAULTS = {"official": {"lr": 1e-3, "epochs": 7000}, "ntk": {"lr": 1.0, "epochs": 500}}


class MLPEnsemble:
    """``members`` independently initialised MLPs; ``fit(x, y)`` then ``predict(x)`` (the mean output).

    recipe: ``"official"`` or ``"ntk"`` (module docstring). width: hidden units; ``None`` takes
    ``2000 k`` (official) or 512 (ntk). lr, epochs: ``None`` takes the recipe's (1e-3 and 7000 official;
    1.0 and 500 ntk). device: a torch device (``"cpu"``, ``"cuda"``); weights come back to numpy.
    ``fit`` raises if training diverged and warns if the worst member's loss (``train_loss_``, on the
    recipe's own loss) stays above 1e-3 of the zero predictor's.
    """

    def __init__(
        self,
        members: int = 16,
        width: int | None = None,
        lr: float | None = None,
        epochs: int | None = None,
        seed: int = 0,
        *,
        recipe: str = "ntk",
        device: str = "cpu",
        batch_members: int = 16,
    ):
        if recipe not in RECIPES:
            raise ValueError(f"MLPEnsemble: recipe {recipe!r} is not one of {', '.join(RECIPES)}")
        self.recipe = recipe
        self.members = check_int("members", members)
        if width is None:
            self.width = None if recipe == "official" else 512
        else:
            self.width = check_int("width", width)
        lr = _DEFAULTS[recipe]["lr"] if lr is None else lr
        if isinstance(lr, bool) or not (isinstance(lr, int | float) and math.isfinite(lr) and lr > 0):
            raise ValueError(f"lr must be a positive finite number, got {lr!r}")
        self.lr = float(lr)
        self.epochs = check_int(
            "epochs", _DEFAULTS[recipe]["epochs"] if epochs is None else epochs, minimum=0
        )
        self.seed = check_int("seed", seed, minimum=0)
        self.device = check_device(device)
        self.batch_members = check_int("batch_members", batch_members)

    def get_params(self, deep: bool = True) -> dict:
        """The constructor's arguments (scikit-learn idiom)."""
        keys = ("members", "width", "lr", "epochs", "seed", "recipe", "device", "batch_members")
        return {k: getattr(self, k) for k in keys}

    def fit(self, x: np.ndarray, y: np.ndarray) -> MLPEnsemble:
        x_t = torch.as_tensor(np.asarray(x, float), dtype=torch.float64)
        y_t = torch.as_tensor(np.asarray(y, float), dtype=torch.float64)
        if x_t.ndim != 2 or y_t.ndim != 2 or x_t.shape[0] != y_t.shape[0]:
            raise ValueError(
                f"MLPEnsemble.fit: need x (n, d) and y (n, k), got {tuple(x_t.shape)}, {tuple(y_t.shape)}"
            )
        if not (torch.isfinite(x_t).all() and torch.isfinite(y_t).all()):
            raise ValueError("MLPEnsemble.fit: x or y contains NaN or infinity")
        d, k = x_t.shape[1], y_t.shape[1]
        self.width_ = self.width if self.width is not None else 2000 * k
        gen = torch.Generator().manual_seed(self.seed)
        x_t, y_t = x_t.to(self.device), y_t.to(self.device)
        parts: list[list[np.ndarray]] = [[], [], [], []]
        losses = []
        for start in range(0, self.members, self.batch_members):
            m = min(self.batch_members, self.members - start)
            params = self._init(m, d, k, gen)
            params = [p.to(self.device) for p in params]
            trained = params if self.recipe == "official" else [params[0], params[2]]  # ntk: no biases
            for p in trained:
                p.requires_grad_()
            for _ in range(self.epochs):
                grads = torch.autograd.grad(self._loss(x_t, y_t, params).sum(), trained)
                with torch.no_grad():
                    for p, g in zip(trained, grads, strict=True):
                        p -= self.lr * g
            with torch.no_grad():
                per_member = self._loss(x_t, y_t, params)
            if not torch.isfinite(per_member).all():
                raise ValueError(f"MLPEnsemble.fit: training diverged (lr={self.lr}); lower lr")
            losses.append(per_member.cpu().numpy())
            for store, p in zip(parts, params, strict=True):
                store.append(p.detach().cpu().numpy())
        self.w_, self.b_, self.v_, self.c_ = (np.concatenate(p) for p in parts)
        self.train_loss_ = float(np.concatenate(losses).max())
        scale = float(self._loss(x_t, y_t, []))
        if self.epochs and self.train_loss_ > 1e-3 * scale:
            warnings.warn(
                f"MLPEnsemble.fit: training did not converge: the worst member's loss {self.train_loss_:.3g} is"
                f" above 1e-3 of the zero predictor's {scale:.3g} (dead ReLUs at a large lr, or too few epochs)",
                RuntimeWarning,
                stacklevel=2,
            )
        return self

    def _init(self, m: int, d: int, k: int, gen: torch.Generator) -> list[torch.Tensor]:
        h, f64 = self.width_, torch.float64
        w = torch.randn(m, d, h, generator=gen, dtype=f64)
        v = torch.randn(m, h, k, generator=gen, dtype=f64)
        if self.recipe == "official":  # N(0, sigma_w^2 / fan_in), sigma_w = 1; biases N(0, 0) = 0
            w, v = w / math.sqrt(d), v / math.sqrt(h)
        return [w, torch.zeros(m, 1, h, dtype=f64), v, torch.zeros(m, 1, k, dtype=f64)]

    def _loss(self, x: torch.Tensor, y: torch.Tensor, params) -> torch.Tensor:
        """Each member's training loss, ``(members,)``: mean squared error (official) or half the sum (ntk);
        with ``params=[]`` the zero predictor's (a scalar)."""
        pred = self._forward(x, *params) if params else torch.zeros_like(y)
        sq = (pred - y) ** 2
        return sq.mean(dim=(-2, -1)) if self.recipe == "official" else 0.5 * sq.sum(dim=(-2, -1))

    def _forward(self, x, w, b, v, c):
        """Each member's output, ``(members, n, k)`` (torch or numpy arrays); ``d`` is ``x``'s width."""
        if self.recipe == "official":
            return _relu(x @ w + b) @ v + c
        return _relu(x @ w / math.sqrt(x.shape[-1])) @ v / math.sqrt(w.shape[-1])

    def predict(self, x: np.ndarray, members: int | None = None) -> np.ndarray:
        """The mean output of the first ``members`` members (all by default), ``(n, k)``."""
        m = self.members if members is None else check_int("members", members)
        if m > self.members:
            raise ValueError(f"predict: members={m} but the ensemble has {self.members}")
        if not hasattr(self, "w_"):
            raise ValueError("predict: the ensemble is not fitted; call fit(x, y) first")
        x = np.asarray(x, float)
        if x.ndim != 2 or x.shape[1] != self.w_.shape[1]:
            raise ValueError(f"predict: inputs need shape (n, {self.w_.shape[1]}), got {x.shape}")
        return self._forward(x, self.w_[:m], self.b_[:m], self.v_[:m], self.c_[:m]).mean(axis=0)


def _relu(z):
    return torch.relu(z) if isinstance(z, torch.Tensor) else np.maximum(z, 0.0)
