"""Baseline: a ``torch_geometric`` GIN trained to imitate one round of a compiled program.

Trained on (state, next state) pairs of ideal executions on small graphs, then iterated on larger
graphs for the program's round count. Budget and model selection are fixed arguments (see the
experiment): Adam, binary cross-entropy on the next-state bits, and the checkpoint with the highest
validation *exact-step* rate (every node's bits right after one step), checked every ``check_every``
epochs, earliest on ties.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import networkx as nx
import numpy as np
import torch
from torch import nn

from icml26.common import check_int
from icml26.exact_gnn.executor import Executor, adjacency_with_self_loops, distance2_colouring
from icml26.exact_gnn.templates import Program


def _edge_index(graph: nx.Graph) -> torch.Tensor:
    index = {v: r for r, v in enumerate(sorted(graph))}
    pairs = [(index[u], index[v]) for u, v in graph.edges] + [(index[v], index[u]) for u, v in graph.edges]
    return torch.tensor(pairs, dtype=torch.long).T.reshape(2, -1)


class GINStep(nn.Module):
    """Encoder -> ``layers`` GINConv (sum aggregation) -> decoder to next-state logits."""

    def __init__(self, dim: int, width: int, layers: int) -> None:
        from torch_geometric.nn import GINConv

        super().__init__()
        self.encode = nn.Linear(dim, width)
        self.convs = nn.ModuleList(
            GINConv(
                nn.Sequential(nn.Linear(width, width), nn.ReLU(), nn.Linear(width, width)), train_eps=True
            )
            for _ in range(layers)
        )
        self.decode = nn.Linear(width + dim, dim)

    def forward(self, x: torch.Tensor, edge_index: torch.Tensor) -> torch.Tensor:
        h = torch.relu(self.encode(x))
        for conv in self.convs:
            h = torch.relu(conv(h, edge_index)) + h
        return self.decode(torch.cat([h, x], dim=1))


def _trajectories(program: Program, graphs: Sequence[nx.Graph], inputs: Sequence[Any]) -> list[tuple]:
    """Per graph: (edge_index, states (rounds+1, n, dim)) of the ideal execution."""
    ideal, out = Executor(program, "ideal"), []
    for g, inp in zip(graphs, inputs, strict=True):
        x = program.init(g, inp, distance2_colouring(g))
        a = adjacency_with_self_loops(g)
        steps = [x]
        for _ in range(program.rounds(g)):
            x, _ = ideal.step(x, a)
            steps.append(x)
        out.append((_edge_index(g), np.stack(steps)))
    return out


def _batch(trajs: list[tuple]) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """All steps of all graphs as one disjoint union: inputs, targets, edge_index, step id per node."""
    xs, ys, edges, step_of, offset, step = [], [], [], [], 0, 0
    for edge_index, states in trajs:
        n = states.shape[1]
        for t in range(states.shape[0] - 1):
            xs.append(states[t])
            ys.append(states[t + 1])
            edges.append(edge_index + offset)
            step_of.append(np.full(n, step))
            offset, step = offset + n, step + 1
    as_t = lambda a: torch.as_tensor(np.concatenate(a), dtype=torch.float32)  # noqa: E731
    return as_t(xs), as_t(ys), torch.cat(edges, dim=1), torch.as_tensor(np.concatenate(step_of))


def _exact_step_rate(model: GINStep, data: tuple) -> float:
    x, y, edge_index, step_of = data
    with torch.no_grad():
        wrong = ((model(x, edge_index) > 0).float() != y).any(dim=1)
    bad_steps = torch.zeros(int(step_of.max()) + 1, dtype=torch.bool).index_put_(
        (step_of,), wrong, accumulate=True
    )
    return float(1.0 - bad_steps.float().mean())


def train_gin(
    program: Program,
    train: tuple[Sequence[nx.Graph], Sequence[Any]],
    val: tuple[Sequence[nx.Graph], Sequence[Any]],
    *,
    width: int = 64,
    layers: int = 2,
    epochs: int = 200,
    lr: float = 3e-3,
    check_every: int = 10,
    seed: int = 0,
) -> tuple[GINStep, dict[str, float]]:
    """Fit a :class:`GINStep` to one round of ``program``; returns the selected model and its record."""
    width, layers = check_int("width", width), check_int("layers", layers)
    epochs, check_every = check_int("epochs", epochs), check_int("check_every", check_every)
    torch.manual_seed(seed)
    train_data = _batch(_trajectories(program, *train))
    val_data = _batch(_trajectories(program, *val))
    model = GINStep(program.layout.dim, width, layers)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    loss_fn = nn.BCEWithLogitsLoss()
    best, best_state, best_epoch = -1.0, None, 0
    x, y, edge_index, _ = train_data
    for epoch in range(1, epochs + 1):
        opt.zero_grad()
        loss = loss_fn(model(x, edge_index), y)
        loss.backward()
        loss = loss.detach()
        opt.step()
        if epoch % check_every == 0 or epoch == epochs:
            rate = _exact_step_rate(model, val_data)
            if rate > best:
                best, best_state, best_epoch = rate, copy.deepcopy(model.state_dict()), epoch
    model.load_state_dict(best_state)
    return model, {
        "val_exact_step_rate": best,
        "selected_epoch": float(best_epoch),
        "final_loss": loss.item(),
    }


def run_gin(model: GINStep, program: Program, graph: nx.Graph, inputs: Any) -> bool:
    """Iterate the GIN for the program's rounds; exact iff every node's final state equals the ideal's
    and its decoded output equals the ``networkx`` truth."""
    program.validate(graph, inputs)
    colours = distance2_colouring(graph)
    x0 = program.init(graph, inputs, colours)
    edge_index = _edge_index(graph)
    ideal, a = Executor(program, "ideal"), adjacency_with_self_loops(graph)
    x, target = torch.as_tensor(x0, dtype=torch.float32), x0
    with torch.no_grad():
        for _ in range(program.rounds(graph)):
            x = (model(x, edge_index) > 0).float()
            target, _ = ideal.step(target, a)
    states = x.numpy().astype(float)
    outputs = program.decode(graph, states, colours)
    truth = program.truth(graph, inputs)
    return bool(np.array_equal(states, target) and all(outputs[v] == truth[v] for v in graph))
