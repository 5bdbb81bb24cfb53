"""The experiment's settings: the cost estimate of a profile and the check of a config's values (the
runner turns the ValueError into exit 2, before anything runs)."""

from __future__ import annotations

import math
from typing import Any


def _arcs(layers: list[int]) -> int:
    """Arcs of a layered DFN: both directions between consecutive layers and last layer <-> root, plus slack."""
    sizes = [*layers, 1]
    return 2 * sum(a * b for a, b in zip(sizes[:-1], sizes[1:], strict=True)) + 2 * layers[0]


def _cost(cfg: dict[str, Any]) -> tuple[float, float]:
    """Rough seconds on one idle core and bytes for one seed: a warm-started LP solve takes about
    0.5 ms + 0.5 us per arc (measured: 1.3 ms for [12,30,12] on d = 8, 0.7 ms for [4,20,4]), an Adam step of
    a baseline about 0.4 ms, and each MILP instance up to its time limit (the MLP's) plus 2 s."""

    def per_solve(layers: list[int]) -> float:
        return 5e-4 + 5e-7 * _arcs(layers)

    grid_pts = (2 * cfg["grid"] + 1) ** 2
    n_train = 0.7 * cfg["quad_samples"]
    lp = (
        7 * grid_pts * cfg["grid_epochs"] * per_solve(cfg["grid_layers"])  # 4 targets + 3 fixed-A ablations
        + sum(
            2 * cfg["ladder_seeds"] * grid_pts * cfg["grid_epochs"] * per_solve(list(ls))
            for ls in cfg["ladder_layers"]
        )
        + 2 * cfg["quad_seeds"] * n_train * cfg["quad_epochs"] * per_solve(cfg["quad_layers"])  # + fixed A
        # E4 (learned and fixed A) and E5's learned-A refit
        + 3 * 0.7 * cfg["mconvex_samples"] * cfg["mconvex_epochs"] * per_solve(cfg["mconvex_layers"])
    )
    steps = 3 * cfg["quad_seeds"] * cfg["mlp_epochs"] * math.ceil(n_train / cfg["batch_size"])
    steps += cfg["mlp_epochs"] * math.ceil(0.7 * cfg["mconvex_samples"] / cfg["batch_size"])
    milp = cfg["quad_seeds"] * cfg["opt_instances"] * (cfg["milp_time_limit"] + 2.0)
    return 15.0 + lp + 4e-4 * steps + milp, 6e8


_INT_KEYS = (  # integer keys and their least value
    ("gadget_range", 1),
    ("grid", 1),
    ("grid_epochs", 1),
    ("ladder_seeds", 1),
    ("batch_size", 1),
    ("convexity_pairs", 1),
    ("quad_dim", 1),
    ("quad_box", 1),
    ("quad_samples", 10),
    ("quad_epochs", 1),
    ("mlp_epochs", 1),
    ("maxaffine_pieces", 1),
    ("quad_seeds", 1),
    ("opt_instances", 1),
    ("bench_solves", 1),
    ("mconvex_dim", 1),
    ("mconvex_hidden", 1),
    ("mconvex_box", 1),
    ("mconvex_samples", 10),
    ("mconvex_epochs", 1),
    ("det_steps", 1),
)
_LAYER_KEYS = ("grid_layers", "quad_layers", "mconvex_layers")
_A_INITS = ("selection", "differences")


def _check(cfg: dict[str, Any]) -> None:
    """Reject an out-of-range config before anything runs (the runner turns the ValueError into exit 2)."""
    for key, least in _INT_KEYS:
        value = cfg[key]
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise ValueError(f"{key} must be an integer >= {least}, got {value!r}")
    if cfg["A_init"] not in _A_INITS:
        raise ValueError(f"A_init must be one of {', '.join(_A_INITS)}, got {cfg['A_init']!r}")
    ladder = cfg["ladder_layers"]
    if not isinstance(ladder, list | tuple) or len(ladder) < 2:
        raise ValueError(f"ladder_layers must be a list of >= 2 layer lists (a size ladder), got {ladder!r}")
    for layers in ladder:
        if (
            not isinstance(layers, list | tuple)
            or not layers
            or not all(isinstance(s, int) and not isinstance(s, bool) and s >= 2 for s in layers)
        ):
            raise ValueError(f"ladder_layers entries must be lists of integers >= 2, got {layers!r}")
    for key in ("lr", "lr_A", "lr_baselines", "milp_time_limit", "det_step"):
        value = cfg[key]
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not (math.isfinite(value) and value > 0)
        ):
            raise ValueError(f"{key} must be a finite number > 0, got {value!r}")
    for key in _LAYER_KEYS:
        layers = cfg[key]
        if (
            not isinstance(layers, list | tuple)
            or not layers
            or not all(isinstance(s, int) and not isinstance(s, bool) and s >= 1 for s in layers)
        ):
            raise ValueError(f"{key} must be a non-empty list of integers >= 1, got {layers!r}")
    for key, dim in (
        ("grid_layers", 2),
        ("quad_layers", cfg["quad_dim"]),
        ("mconvex_layers", cfg["mconvex_dim"]),
    ):
        if cfg[key][0] < dim:
            raise ValueError(
                f"the first layer of a DFN needs at least input_dim nodes: {key}[0] = {cfg[key][0]} < {dim}"
            )
    if cfg["quad_dim"] * cfg["quad_box"] < 30:
        # the budgets are drawn from [-30, 30] and must be reachable on [-quad_box, quad_box]^quad_dim
        raise ValueError(
            f"quad_dim * quad_box must be >= 30 so every budget in [-30, 30] is feasible, got"
            f" {cfg['quad_dim']} * {cfg['quad_box']}"
        )
