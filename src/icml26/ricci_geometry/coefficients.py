"""Comparison with discrete Ricci flow: local, layer and global Ricci coefficients (the paper's Ricci-flow comparison).

Notation: graphs ``G_0, ..., G_{L-1}`` (input, hidden layers, output) on the same ``n`` points, hop
distances ``d_i``, edge curvature ``κ_i``. For a point ``x`` and a transition ``i → i+1``:

- scalar curvature ``s_i(x) = Σ_{y ∈ N_i(x)} κ_i(x, y) / deg_i(x)``;
- expansion ``η_i(x) = mean_{y ∈ N_i(x)} [d_{i+1}(x, y) − d_i(x, y)]`` (``NaN`` if some neighbour is
  disconnected from ``x`` in ``G_{i+1}``).

A discrete Ricci flow shrinks positively curved and stretches negatively curved regions, so a negative
correlation between ``s`` and ``η`` means "Ricci-flow-like".

- local Ricci evolution coefficient: ``ρ(x) = Pearson_i(s_i(x), η_i(x))`` over the ``L − 1`` transitions;
- layer Ricci coefficient: ``ρ_i = Pearson_x(s_i(x), η_i(x))`` over points with finite ``η_i``;
- global Ricci coefficient (Baptista et al., 2024): ``Pearson_l(Σ_e F_l(e), g_{l+1} − g_l)`` with Forman
  curvature ``F_l`` and ``g_l = Σ_{x<y} d_l(x, y)``.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
from scipy.stats import pearsonr

from icml26.common import Plot
from icml26.ricci_geometry.curvature import CURVATURES, curvature
from icml26.ricci_geometry.graphs import (
    check_adjacency,
    feature_graphs,
    hop_distances,
    pair_hop_distances,
    stack_check,
)


def pearson_columns(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pearson correlation of ``a[:, j]`` with ``b[:, j]`` for every column ``j``.

    ``a``, ``b``: ``(m, p)`` with ``m >= 2``. A column containing a NaN, or with zero variance in ``a`` or
    ``b`` (a constant series), gives ``NaN``. Returns ``(p,)``.
    """
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.ndim == 1:
        a = a[:, None]
    if b.ndim == 1:
        b = b[:, None]
    if a.shape != b.shape or a.ndim != 2:
        raise ValueError(f"a and b must have the same 2-D shape (m, p), got {a.shape} and {b.shape}")
    if a.shape[0] < 2:
        raise ValueError(f"need at least 2 observations per column, got {a.shape[0]}")
    ac = a - a.mean(axis=0)
    bc = b - b.mean(axis=0)
    num = (ac * bc).sum(axis=0)
    sa, sb = np.sqrt((ac**2).sum(axis=0)), np.sqrt((bc**2).sum(axis=0))
    # Relative tolerance: a series constant up to rounding has no meaningful correlation.
    tol_a = 1e-12 * np.maximum(np.abs(a).max(axis=0), 1.0) * np.sqrt(a.shape[0])
    tol_b = 1e-12 * np.maximum(np.abs(b).max(axis=0), 1.0) * np.sqrt(b.shape[0])
    ok = (sa > tol_a) & (sb > tol_b) & np.isfinite(num)
    out = np.full(a.shape[1], np.nan)
    out[ok] = np.clip(num[ok] / (sa[ok] * sb[ok]), -1.0, 1.0)
    return out


def scalar_curvature(A: sp.spmatrix, K: sp.spmatrix) -> np.ndarray:
    """``s(x) = Σ_{y∈N(x)} κ(x, y) / deg(x)``, shape ``(n,)`` (``NaN`` for isolated points)."""
    A = check_adjacency(A)
    K = sp.csr_matrix(K)
    if K.shape != A.shape:
        raise ValueError(f"K must have the adjacency's shape {A.shape}, got {K.shape}")
    deg = np.diff(A.indptr).astype(np.float64)
    total = np.asarray(K.sum(axis=1)).ravel()
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(deg > 0, total / np.where(deg > 0, deg, 1.0), np.nan)


def expansion(A: sp.spmatrix, D: np.ndarray, D_next: np.ndarray) -> np.ndarray:
    """``η(x) = mean_{y∈N(x)} [D_next(x, y) − D(x, y)]``, shape ``(n,)``; ``NaN`` if any term is infinite.

    ``A``: ``(n, n)`` graph of layer ``i``; ``D``, ``D_next``: ``(n, n)`` hop distances of layers ``i``, ``i+1``.
    """
    A = check_adjacency(A)
    n = A.shape[0]
    if D.shape != (n, n) or D_next.shape != (n, n):
        raise ValueError(f"D and D_next must have shape {(n, n)}, got {D.shape} and {D_next.shape}")
    rows = np.repeat(np.arange(n), np.diff(A.indptr))
    return _mean_growth(A, rows, D_next[rows, A.indices] - D[rows, A.indices])


def _mean_growth(A: sp.csr_matrix, rows: np.ndarray, diff: np.ndarray) -> np.ndarray:
    """Per-point mean of ``diff`` over its stored edges (CSR order); NaN where any term is infinite."""
    n = A.shape[0]
    deg = np.diff(A.indptr)
    bad = ~np.isfinite(diff)
    diff = np.where(bad, 0.0, diff)
    total = np.bincount(rows, weights=diff, minlength=n)
    n_bad = np.bincount(rows, weights=bad.astype(np.float64), minlength=n)
    with np.errstate(invalid="ignore", divide="ignore"):
        eta = total / deg
    eta[(n_bad > 0) | (deg == 0)] = np.nan
    return eta


def _expansion_pairs(A: sp.csr_matrix, A_next: sp.csr_matrix) -> np.ndarray:
    """:func:`expansion` from next-layer distances between current neighbours only (``D(x, y) = 1``)."""
    rows = np.repeat(np.arange(A.shape[0]), np.diff(A.indptr))
    return _mean_growth(A, rows, pair_hop_distances(A_next, rows, A.indices) - 1.0)


def _prepare(
    graphs: list[sp.csr_matrix], kind: str, distances: Sequence[np.ndarray] | None, full: bool
) -> tuple[list[sp.csr_matrix], list[np.ndarray] | None, np.ndarray, np.ndarray]:
    """Scalar curvatures ``S`` and expansions ``E``, both ``(L − 1, n)``.

    With ``full`` (or given ``distances``) every layer's all-pairs distances are computed and returned;
    otherwise only next-layer distances between current neighbours are searched (much cheaper).
    """
    if not isinstance(kind, str) or kind not in CURVATURES:
        raise ValueError(f"kind must be one of {CURVATURES}, got {kind!r}")
    if distances is None and full:
        distances = [hop_distances(A) for A in graphs]
    elif distances is not None and len(distances) != len(graphs):
        raise ValueError(
            f"distances must hold one (n, n) array per graph ({len(graphs)}), got {len(distances)}"
        )
    S = np.empty((len(graphs) - 1, graphs[0].shape[0]))
    E = np.empty_like(S)
    for i in range(len(graphs) - 1):
        D_i = distances[i] if distances is not None else None
        K = curvature(graphs[i], kind, distances=D_i if kind == "ollivier" else None)
        S[i] = scalar_curvature(graphs[i], K)
        if distances is not None:
            E[i] = expansion(graphs[i], distances[i], distances[i + 1])
        else:
            E[i] = _expansion_pairs(graphs[i], graphs[i + 1])
    return graphs, None if distances is None else list(distances), S, E


def local_ricci_coefficients(
    graphs: Sequence[sp.spmatrix],
    kind: str = "augmented_forman",
    distances: Sequence[np.ndarray] | None = None,
) -> np.ndarray:
    """Local Ricci evolution coefficient ``ρ(x)`` of every point, shape ``(n,)`` (``NaN`` where undefined).

    Needs ``len(graphs) >= 3`` (at least two transitions to correlate over).
    """
    _, _, S, E = _prepare(stack_check(graphs, 3), kind, distances, full=False)
    return pearson_columns(S, E)


def layer_ricci_coefficients(
    graphs: Sequence[sp.spmatrix],
    kind: str = "approx_ollivier",
    distances: Sequence[np.ndarray] | None = None,
) -> np.ndarray:
    """Layer Ricci coefficient ``ρ_i`` of every transition ``i → i+1``, shape ``(L − 1,)``."""
    _, _, S, E = _prepare(stack_check(graphs), kind, distances, full=False)
    return _layer_from(S, E)


def _layer_from(S: np.ndarray, E: np.ndarray) -> np.ndarray:
    out = np.full(S.shape[0], np.nan)
    for i in range(S.shape[0]):
        keep = np.isfinite(E[i]) & np.isfinite(S[i])
        if keep.sum() >= 2:
            out[i] = pearson_columns(S[i, keep], E[i, keep])[0]
    return out


def global_ricci_coefficient(
    graphs: Sequence[sp.spmatrix], distances: Sequence[np.ndarray] | None = None
) -> float:
    """Global Ricci coefficient of Baptista et al. (2024); ``NaN`` if any layer's graph is disconnected.

    Correlates the total Forman curvature ``Σ_e F_l(e)`` of layers ``0..L−2`` with ``g_{l+1} − g_l``.
    Needs ``len(graphs) >= 3``.
    """
    graphs = stack_check(graphs, 3)
    if distances is None:
        distances = [hop_distances(A) for A in graphs]
    g = np.array([D.sum() / 2.0 for D in distances])
    if not np.all(np.isfinite(g)):
        return float("nan")
    forman = np.array([curvature(A, "forman").sum() / 2.0 for A in graphs[:-1]])
    return float(pearson_columns(forman, np.diff(g))[0])


@dataclass
class RicciAnalysis:
    """Ricci-flow comparison of one network on one point set.

    ``local``: ``(n,)`` local coefficients; ``layer``: ``(L−1,)`` layer coefficients; ``global_``: the
    global coefficient; ``scalar_curvature`` and ``expansion``: ``(L−1, n)`` per transition.
    """

    kind: str
    local: np.ndarray
    layer: np.ndarray
    global_: float
    scalar_curvature: np.ndarray
    expansion: np.ndarray
    extras: dict[str, float] = field(default_factory=dict)

    @property
    def mean_local(self) -> float:
        """Mean local coefficient over points where it is defined (``NaN`` if none)."""
        finite = self.local[np.isfinite(self.local)]
        return float(finite.mean()) if finite.size else float("nan")

    @property
    def negative_share(self) -> float:
        """Share of points (with a defined coefficient) whose local coefficient is negative."""
        finite = self.local[np.isfinite(self.local)]
        return float((finite < 0).mean()) if finite.size else float("nan")

    @property
    def nan_share(self) -> float:
        """Share of points whose local coefficient is undefined (disconnection or constant series)."""
        return float(np.mean(~np.isfinite(self.local)))

    def summary(self) -> dict[str, float]:
        """Scalar summary: mean local coefficient, negative and NaN shares, global coefficient."""
        return {
            "local_mean": self.mean_local,
            "negative_share": self.negative_share,
            "nan_share": self.nan_share,
            "global": float(self.global_),
            **self.extras,
        }

    def plots(self, prefix: str = "ricci") -> list[Plot]:
        """Layer coefficient vs transition, and the sorted local coefficients."""
        layers = [float(i) for i in range(self.layer.size)]
        finite = np.sort(self.local[np.isfinite(self.local)])
        return [
            Plot(
                f"{prefix}_layer",
                f"Layer Ricci coefficient ({self.kind})",
                {"layer": (layers, [float(v) for v in self.layer])},
                "transition i -> i+1",
                "rho_i",
            ),
            Plot(
                f"{prefix}_local_sorted",
                f"Local Ricci coefficients, sorted ({self.kind})",
                {"local": ([float(i) for i in range(finite.size)], [float(v) for v in finite])},
                "point (sorted)",
                "rho(x)",
            ),
        ]


def ricci_coefficients(
    graphs: Sequence[sp.spmatrix],
    kind: str = "augmented_forman",
    distances: Sequence[np.ndarray] | None = None,
    global_coefficient: bool = True,
) -> RicciAnalysis:
    """Local, layer and (optionally) global coefficients of one network's layer graphs.

    The global coefficient needs every layer's all-pairs distances (one APSP per layer, computed unless
    given); with ``global_coefficient=False`` only neighbour-pair distances are searched and ``global_``
    is ``NaN``.
    """
    graphs, distances, S, E = _prepare(stack_check(graphs, 3), kind, distances, full=global_coefficient)
    return RicciAnalysis(
        kind=kind,
        local=pearson_columns(S, E),
        layer=_layer_from(S, E),
        global_=global_ricci_coefficient(graphs, distances) if global_coefficient else float("nan"),
        scalar_curvature=S,
        expansion=E,
    )


def local_ricci_coefficients_loop(
    graphs: Sequence[sp.spmatrix], kind: str = "augmented_forman"
) -> np.ndarray:
    """Reference: the same local coefficients by a straightforward per-point, per-neighbour loop.

    Slow (pure Python over points, layers and neighbours); kept to check and time the vectorised path.
    """
    if not isinstance(kind, str) or kind not in CURVATURES:
        raise ValueError(f"kind must be one of {CURVATURES}, got {kind!r}")
    graphs = stack_check(graphs, 3)
    D = [hop_distances(A) for A in graphs]
    K = [curvature(A, kind, distances=D[i]) for i, A in enumerate(graphs[:-1])]
    n = graphs[0].shape[0]
    out = np.empty(n)
    for x in range(n):
        s, eta, connected = [], [], True
        for i in range(len(graphs) - 1):
            row = graphs[i][[x]]
            s.append(K[i][[x]].sum() / row.count_nonzero())
            total = 0.0
            for y in row.indices:
                if np.isinf(D[i + 1][x, y]):
                    connected = False
                else:
                    total += D[i + 1][x, y] - D[i][x, y]
            eta.append(total / row.indices.size)
        if not connected:
            out[x] = np.nan
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out[x] = pearsonr(s, eta)[0]
    return out


def analyse(model: object, X: np.ndarray, k: int = 50, kind: str = "augmented_forman") -> RicciAnalysis:
    """Ricci-flow comparison of a network on points ``X`` ``(n, d)``: kNN graphs of every layer, then
    :func:`ricci_coefficients`. ``model`` must provide ``features(x)`` (see ``MLP``)."""
    return ricci_coefficients(feature_graphs(model, X, k), kind)
