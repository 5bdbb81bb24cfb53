"""Message passing on a morphology graph (plain torch; a small in-project GNO-like block) [inferred].

``GraphTensors`` holds what a learned part may know about a rig: node geometry features, directed
edges with geometry features (delta position, length), the sensor mask, and the actuator kernel
Phi_ij = exp(-d_ij^2 / (2 * 6 um^2)) normalised per actuator (a geometry feature computed from the
actuator *positions*; the plant's own footprint width and gain are not known to it).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from icml26.neuronctrl.env import Rig
from icml26.neuronctrl.morphology import geometry_features

KERNEL_WIDTH = 6.0  # um, the controller's own actuator kernel (the plant's footprint is 8 um)


@dataclass
class GraphTensors:
    node: torch.Tensor  # (N, 3)
    src: torch.Tensor  # (2E,)
    dst: torch.Tensor  # (2E,)
    edge: torch.Tensor  # (2E, 4)
    sensors: torch.Tensor  # (p,) long
    mask: torch.Tensor  # (N,) 1 at sensors
    kernel: torch.Tensor  # (N, m)
    inv_degree: torch.Tensor  # (N,)
    interp: torch.Tensor  # (N, p): harmonic interpolation of sensor values (L z = 0 off the sensors)

    @property
    def n(self) -> int:
        return self.node.shape[0]


def graph_tensors(rig: Rig, device: str = "cpu") -> GraphTensors:
    m = rig.morphology
    node, edge = geometry_features(m)
    src = np.concatenate([m.edges[:, 0], m.edges[:, 1]])
    dst = np.concatenate([m.edges[:, 1], m.edges[:, 0]])
    d2 = np.sum((m.positions[:, None] - rig.actuator_positions[None]) ** 2, axis=2)
    k = np.exp(-d2 / (2 * KERNEL_WIDTH**2))
    k = k / k.max(axis=0, keepdims=True)
    mask = np.zeros(m.n, np.float32)
    mask[rig.sensors] = 1.0
    deg = np.bincount(dst, minlength=m.n).astype(np.float32)
    interp = harmonic_interpolator(m.laplacian(), rig.sensors)

    def t(x, dtype=torch.float32):
        return torch.as_tensor(np.asarray(x), dtype=dtype, device=device)

    return GraphTensors(t(node), t(src, torch.long), t(dst, torch.long), t(edge), t(rig.sensors, torch.long),
                        t(mask), t(k), t(1.0 / np.maximum(deg, 1)), t(interp))  # fmt: skip


def harmonic_interpolator(laplacian, sensors: np.ndarray) -> np.ndarray:
    """(N, p) matrix P with P y the harmonic field equal to y at the sensors: L_ff z_f = -L_fs y."""
    import scipy.sparse as sp
    from scipy.sparse.linalg import splu

    n = laplacian.shape[0]
    free = np.setdiff1d(np.arange(n), sensors)
    lap = sp.csr_matrix(laplacian)
    out = np.zeros((n, len(sensors)))
    out[sensors, np.arange(len(sensors))] = 1.0
    out[free] = splu(lap[free][:, free].tocsc()).solve(-(lap[free][:, sensors]).toarray())
    return out


def mlp(sizes: list[int], act=nn.SiLU) -> nn.Sequential:
    layers: list[nn.Module] = []
    for a, b in zip(sizes[:-1], sizes[1:], strict=True):
        layers += [nn.Linear(a, b), act()]
    return nn.Sequential(*layers[:-1])


class MessagePassing(nn.Module):
    """A kernel-integral (GNO-like) layer on the graph with ``heads`` scalar edge kernels:
    h_i <- h_i + phi([h_i, sum_{j -> i} kappa_k(e_ij) (W h_j)_k / deg_i]), kappa an MLP of the edge
    geometry, head k acting on the k-th block of channels (dense (N, N) kernel matrices, so that
    forward-mode autodiff works; nothing per edge and sample is materialised)."""

    def __init__(self, hidden: int, edge_dim: int = 4, heads: int = 4):
        super().__init__()
        if hidden % heads:
            raise ValueError(f"hidden {hidden} must be a multiple of heads {heads}")
        self.heads = heads
        self.kernel = mlp([edge_dim, 16, heads])
        self.lin = nn.Linear(hidden, hidden)
        self.update = mlp([2 * hidden, hidden, hidden])

    def forward(self, h: torch.Tensor, g: GraphTensors) -> torch.Tensor:  # h: (B, N, H)
        b, n, hid = h.shape
        kap = self.kernel(g.edge) * g.inv_degree[g.dst, None]  # (2E, heads)
        wh = self.lin(h).permute(1, 0, 2).reshape(n, b, self.heads, hid // self.heads)
        a = torch.zeros(self.heads, n, n, dtype=h.dtype).index_put((torch.arange(self.heads)[:, None],
            g.dst[None], g.src[None]), kap.T, accumulate=True)  # fmt: skip
        agg = torch.einsum("kij,jbkc->bikc", a, wh).reshape(b, n, hid)
        return h + self.update(torch.cat([h, agg], dim=-1))
