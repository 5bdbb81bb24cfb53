"""The networks of the paper's experiments: equal-width feedforward MLPs trained to a target accuracy.

``MLP(d_in, width, depth)``: ``depth`` hidden layers ``Linear → activation`` of equal ``width`` and a
scalar logit; :meth:`MLP.features` returns the input, every hidden activation and ``σ(logit)`` — the
``depth + 2`` point clouds whose geometric graphs are compared. Training: full-batch Adam (lr 1e-3) on
``BCEWithLogits``, stopped once the training accuracy reaches the target (the paper's setup).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import torch
from torch import nn

from icml26.common import check_int, progress
from icml26.ricci_geometry.graphs import check_points

ACTIVATIONS: dict[str, type[nn.Module]] = {"relu": nn.ReLU, "identity": nn.Identity, "tanh": nn.Tanh}


class MLP(nn.Module):
    """Equal-width feedforward network ``d_in → width (× depth) → 1`` with PyTorch default init."""

    def __init__(self, d_in: int, width: int = 25, depth: int = 7, activation: str = "relu") -> None:
        super().__init__()
        d_in, width, depth = (
            check_int("d_in", d_in),
            check_int("width", width),
            check_int("depth", depth),
        )
        if activation not in ACTIVATIONS:
            raise ValueError(f"activation must be one of {sorted(ACTIVATIONS)}, got {activation!r}")
        dims = [d_in] + [width] * depth
        self.hidden = nn.ModuleList(nn.Linear(a, b) for a, b in zip(dims[:-1], dims[1:]))
        self.out = nn.Linear(width, 1)
        self.act = ACTIVATIONS[activation]()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Logits, shape ``(n,)``, for inputs ``(n, d_in)``."""
        for layer in self.hidden:
            x = self.act(layer(x))
        return self.out(x).squeeze(-1)

    def features(self, x: torch.Tensor) -> list[torch.Tensor]:
        """``[x, h_1, ..., h_depth, σ(logit)]``: ``depth + 2`` tensors of shape ``(n, ·)``."""
        feats = [x]
        for layer in self.hidden:
            x = self.act(layer(x))
            feats.append(x)
        feats.append(torch.sigmoid(self.out(x)))
        return feats


@dataclass
class TrainResult:
    """A trained network, the epochs it took, its accuracies, and any tracked values per checkpoint."""

    model: MLP
    epochs: int
    train_accuracy: float
    reached_target: bool
    history: list[dict[str, float]] = field(default_factory=list)


def accuracy(model: nn.Module, X: torch.Tensor, y: torch.Tensor) -> float:
    """Share of points whose sign of the logit matches the 0/1 label."""
    with torch.no_grad():
        return float(((model(X) > 0).float() == y).float().mean())


def train_mlp(
    X: np.ndarray | torch.Tensor,
    y: np.ndarray | torch.Tensor,
    width: int = 25,
    depth: int = 7,
    *,
    activation: str = "relu",
    lr: float = 1e-3,
    target_accuracy: float = 0.99,
    max_epochs: int = 20_000,
    min_epochs: int = 0,
    seed: int = 0,
    device: str | torch.device = "cpu",
    track_every: int = 0,
    track: Callable[[MLP, int], dict[str, float]] | None = None,
) -> TrainResult:
    """Train an :class:`MLP` by full-batch Adam on BCE-with-logits until ``target_accuracy``.

    ``X``: ``(n, d)`` inputs; ``y``: ``(n,)`` labels in {0, 1}. Stops at the first epoch whose training
    accuracy reaches the target (after ``min_epochs``), or at ``max_epochs``. If ``track`` is given it is
    called as ``track(model, epoch)`` every ``track_every`` epochs (and at epoch 0); its dicts form
    ``history`` — the paper's training-time curves of the local coefficient.
    """
    X = check_points(X, "X")
    y = np.asarray(y.detach().cpu() if isinstance(y, torch.Tensor) else y, dtype=np.float64)
    if y.shape != (X.shape[0],):
        raise ValueError(f"y must have shape (n,) = ({X.shape[0]},) matching X, got {y.shape}")
    if not np.all((y == 0) | (y == 1)):
        raise ValueError("y must hold binary labels in {0, 1}")
    if not 0.0 < target_accuracy <= 1.0:
        raise ValueError(f"target_accuracy must lie in (0, 1], got {target_accuracy}")
    if not lr > 0:
        raise ValueError(f"lr must be positive, got {lr}")
    max_epochs = check_int("max_epochs", max_epochs)
    if track is not None and track_every < 1:
        raise ValueError(f"track_every must be a positive integer when track is given, got {track_every}")
    torch.manual_seed(seed)
    model = MLP(X.shape[1], width, depth, activation).to(device)
    Xt = torch.as_tensor(X, dtype=torch.float32, device=device)
    yt = torch.as_tensor(y, dtype=torch.float32, device=device)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    loss_fn = nn.BCEWithLogitsLoss()
    history: list[dict[str, float]] = []
    if track is not None:
        history.append({"epoch": 0.0, **track(model, 0)})
    epoch, acc = 0, accuracy(model, Xt, yt)
    for epoch in progress(range(1, max_epochs + 1), f"train MLP w{width} d{depth}", total=max_epochs):
        opt.zero_grad()
        logits = model(Xt)
        loss = loss_fn(logits, yt)
        loss.backward()
        opt.step()
        acc = accuracy(model, Xt, yt)
        if track is not None and epoch % track_every == 0:
            history.append({"epoch": float(epoch), **track(model, epoch)})
        if acc >= target_accuracy and epoch >= min_epochs:
            break
    return TrainResult(model, epoch, acc, acc >= target_accuracy, history)
