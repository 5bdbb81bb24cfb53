"""Experiment: the optimisation trajectory of DeepWalk/SGNS on stochastic block models.

The paper (a theory paper; its text was not readable here) proves that from a small-norm start, under a
spectral gap, DeepWalk's SGNS embeddings align with the column space of a fixed low-rank matrix, and that
on SBMs with separation this recovers the clusters. We measure both on generated SBMs:

1. Main SBM (3 × {block_size}, p, q, T, b, d): the trajectory (alignment with M's top-k space, mean row
   norm, ARI) from each init scale, for each engine: population GD on the expected objective, our numba
   per-pair SGNS, gensim's Word2Vec on the same walks. The linearisation and trivial-direction checks.
2. Clustering beside baselines: spectral clustering, top-K eigenvectors of N, NetMF, gensim's final U.
3. 3 × {large_block_size} blocks; a (p, q) / K grid with the Kesten–Stigum signal-to-noise ratio of each
   cell, near-threshold cells reported; a degree-corrected cell.
4. Speed: pairs per second of our engine beside gensim's (same runs); seconds per population-GD step.
5. The exact small case: two disjoint K₁₀.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from icml26.common import (
    Experiment,
    Resources,
    Result,
    check_int,
    comparison_key,
    mean_ci95,
    paired_ci,
    progress,
    seed_everything,
    unit,
)
from icml26.deepwalk_dynamics.baselines import (
    kmeans_ari,
    netmf_embedding,
    normalized_adjacency_embedding,
    spectral_clustering_ari,
)
from icml26.deepwalk_dynamics.claims import BACKGROUND, NAMES, PAPER_CLAIMS, TESTS
from icml26.deepwalk_dynamics.metrics import alignment, smoothed_peak
from icml26.deepwalk_dynamics.plots import experiment_plots
from icml26.deepwalk_dynamics.real_graph import karate_graph
from icml26.deepwalk_dynamics.sgns_matrix import (
    expected_sbm_matrix,
    top_eigenspace,
)
from icml26.deepwalk_dynamics.stochastic import pairs_per_walk, warm_up
from icml26.deepwalk_dynamics.trajectory import Trajectory, deepwalk_trajectory
from icml26.deepwalk_dynamics.units import (
    cliques_unit,
    karate_unit,
    sbm_sample,
    sgns_config,
    sparse_benchmark,
    timing_unit,
    variance_unit,
)

_SMALL_NORM = 0.05  # the small-norm window of the linearisation check: mean row norm < 0.05
_SMOOTH = 5  # snapshots in the centred moving average of the smoothed peak (pre-registered in review)


def _tag(scale: float) -> str:
    return f"{scale:.0e}"


def ks_snr(k: int, size: int, p: float, q: float) -> float:
    """Kesten–Stigum signal-to-noise ratio n (p − q)² / (K (p + (K − 1) q)) of a planted partition with K
    blocks of ``size``; recovery by spectral methods is possible above 1 (sparse limit) [our separation
    measure: the paper's condition was not readable]."""
    n = k * size
    return n * (p - q) ** 2 / (k * (p + (k - 1) * q))


def parse_cell(cell: str) -> tuple[bool, int, int, float, float]:
    """``"[dc]KxS:p:q"`` -> (degree-corrected, K, block size, p, q)."""
    try:
        shape, p, q = cell.split(":")
        dc = shape.startswith("dc")
        k, size = shape.removeprefix("dc").split("x")
        out = dc, int(k), int(size), float(p), float(q)
    except ValueError:
        raise ValueError(
            f"grid cell {cell!r} must read 'KxS:p:q' or 'dcKxS:p:q' (e.g. '3x100:0.10:0.02')"
        ) from None
    if out[1] < 2 or out[2] < 2 or not 0 <= out[4] < out[3] <= 1:
        raise ValueError(f"grid cell {cell!r}: need K >= 2, block size >= 2 and 0 <= q < p <= 1")
    return out


def _summary(tr: Trajectory) -> dict[str, Any]:
    """What a unit keeps of a trajectory: peak, final, the checks' quantities and the series for plots."""
    m = tr.metrics
    i = tr.peak()
    window = m["mean_row_norm"] < _SMALL_NORM
    out = {
        "peak_alignment": float(m["alignment"][i]),
        "peak_alignment_smoothed": smoothed_peak(m["alignment"], _SMOOTH),
        "peak_alignment_blocks": float(m["alignment_blocks"][i]),
        "peak_pairs": float(tr.pairs[i]),
        "peak_norm": float(m["mean_row_norm"][i]),
        "peak_ari": float(m["ari"][i]),
        "peak_ari_rownorm": float(m["ari_rownorm"][i]),
        "peak_trivial": float(m["trivial_energy"][i]),
        "peak_sin_theta": float(m["sin_theta"][i]),
        "final_ari": float(m["ari"][-1]),
        "final_ari_rownorm": float(m["ari_rownorm"][-1]),
        "final_nmi": float(m["nmi"][-1]),
        "final_alignment": float(m["alignment"][-1]),
        "final_norm": float(m["mean_row_norm"][-1]),
        "window_snapshots": int(window.sum()),
        "window_linear_error": float(m["linear_error"][window].max())
        if "linear_error" in m and window.any()
        else math.nan,
        "pairs_per_s": tr.pairs_per_second,
        "k": tr.eigenspace.k,
        "gap": tr.eigenspace.gap,
        "gap_ratio": tr.eigenspace.gap_ratio,
        "top_values": tr.eigenspace.values[:4].tolist(),
        "series": {
            "pairs": tr.pairs.tolist(),
            "alignment": m["alignment"].tolist(),
            "norm": m["mean_row_norm"].tolist(),
            "ari": m["ari"].tolist(),
        },
    }
    return out


def _trajectory_unit(cfg: dict[str, Any], engine: str, scale: float, seed: int) -> dict[str, Any]:
    """One engine from one init on one main-SBM sample (graph and init from ``seed``)."""
    a, labels = sbm_sample(3, cfg["block_size"], cfg["p"], cfg["q"], seed)
    tr = deepwalk_trajectory(
        a, sgns_config(cfg, scale, seed), engine, labels=labels, steps=cfg["pop_steps"],
        snapshot_every=cfg["pop_snapshot_every"] if engine == "population" else None,
        walks_per_node=cfg["walks_per_node"], walk_length=cfg["walk_length"],
        cluster_snapshots=cfg["cluster_snapshots"],
    )  # fmt: skip
    out = _summary(tr)
    # the expected M̄'s column space (rank K − 1 for b = 1: inside the block span, without its constant)
    mbar = expected_sbm_matrix(
        [cfg["block_size"]] * 3, cfg["p"], cfg["q"], cfg["window"], cfg["negatives"], cfg["alpha"]
    )
    out["peak_alignment_mbar"] = alignment(tr.embeddings[tr.peak()], top_eigenspace(mbar, cfg["dim"]).basis)
    return out


def _baselines_unit(
    cfg: dict[str, Any], k: int, size: int, p: float, q: float, seed: int, dc: bool
) -> dict[str, float]:
    """Spectral clustering, k-means on N's top-K eigenvectors and on NetMF, on one SBM sample."""
    a, labels = sbm_sample(k, size, p, q, seed, dc)
    return {
        "spectral_ari": spectral_clustering_ari(a, labels, seed),
        "nsc_ari": kmeans_ari(normalized_adjacency_embedding(a, k), labels, seed),
        "netmf_ari": kmeans_ari(
            netmf_embedding(a, cfg["window"], cfg["negatives"], cfg["dim"]), labels, seed
        ),
    }


def _cell_unit(cfg: dict[str, Any], cell: str, seed: int, sgd: bool = True) -> dict[str, Any]:
    """Population GD from the smallest init (and from 1.0, the control) on one grid cell, our SGNS from the
    smallest init when ``sgd``, and the baselines, all on the same graph sample."""
    dc, k, size, p, q = parse_cell(cell)
    a, labels = sbm_sample(k, size, p, q, seed, dc)
    tr = deepwalk_trajectory(
        a, sgns_config(cfg, min(cfg["init_scales"]), seed), "population", labels=labels, steps=cfg["pop_steps"],
        snapshot_every=cfg["pop_snapshot_every"], linearised=False, k=None,
        cluster_snapshots=cfg["cluster_snapshots"],
    )  # fmt: skip
    out = _summary(tr)
    out.pop("series")
    control = deepwalk_trajectory(
        a, sgns_config(cfg, 1.0, seed), "population", labels=labels, steps=cfg["pop_steps"],
        snapshot_every=cfg["pop_snapshot_every"], linearised=False, k=None,
        cluster_snapshots=cfg["cluster_snapshots"],
    )  # fmt: skip
    out["init1_peak_ari"] = float(control.metrics["ari"][control.peak()])
    out["init1_final_ari"] = float(control.metrics["ari"][-1])
    if sgd:  # our SGNS from the smallest init on the same graph (the grid cells; not the large-block check)
        st = deepwalk_trajectory(
            a, sgns_config(cfg, min(cfg["init_scales"]), seed), "sgd", labels=labels, walks_per_node=cfg["walks_per_node"],
            walk_length=cfg["walk_length"], linearised=False, k=None, cluster_snapshots=0,
        )  # fmt: skip
        out["sgd_peak_alignment"] = float(st.metrics["alignment"][st.peak()])
        out["sgd_peak_ari"] = float(st.metrics["ari"][st.peak()])
        out["sgd_final_ari"] = float(st.metrics["ari"][-1])
    out.update(_baselines_unit(cfg, k, size, p, q, seed, dc))
    return out


def _mean(metrics: dict[str, float], key: str, values: list[float]) -> None:
    """``metrics[key]`` = mean of ``values`` with its 95% half-width ``key_ci`` (nan for one value)."""
    v = [x for x in values if math.isfinite(x)]
    if not v:
        metrics[key], metrics[key + "_ci"] = math.nan, math.nan
        return
    metrics[key], metrics[key + "_ci"] = mean_ci95(v)


def _paired(
    metrics: dict[str, float], key: str, base: str, ours: list[float], theirs: list[float], form: str
) -> None:
    low, high = paired_ci(ours, theirs, form=form)
    ckey = comparison_key(key, base, form)
    metrics[ckey + "_ci_low"], metrics[ckey + "_ci_high"] = low, high


def check(config: dict[str, Any]) -> None:
    """Reject an out-of-range config before anything runs."""
    for key in ("block_size", "large_block_size", "dim", "window", "negatives", "pop_steps", "pop_snapshot_every",
                "walks_per_node", "seeds", "sgd_seeds", "gensim_seeds", "timing_steps"):  # fmt: skip
        check_int(key, config[key], 1)
    for key in ("large_seeds", "grid_seeds", "cluster_snapshots"):
        check_int(key, config[key], 0)
    check_int("walk_length", config["walk_length"], 2)
    if config["seeds"] < 2 or config["sgd_seeds"] < 2:
        raise ValueError("seeds and sgd_seeds must be >= 2 (intervals over inner seeds)")
    if not config["gensim_seeds"] == config["sgd_seeds"] <= config["seeds"]:
        raise ValueError("need gensim_seeds == sgd_seeds <= seeds (paired comparisons on the same samples)")
    if not 0 <= config["q"] < config["p"] <= 1:
        raise ValueError(f"need 0 <= q < p <= 1, got p={config['p']!r}, q={config['q']!r}")
    scales = config["init_scales"]
    if len(scales) < 2 or any(not (isinstance(s, int | float) and s > 0) for s in scales):
        raise ValueError(f"init_scales must list >= 2 positive numbers, got {scales!r}")
    if 1.0 not in scales:
        raise ValueError("init_scales must include 1.0 (the large-init control)")
    for key in ("step_size", "fine_step_size"):
        if not config[key] > 0:
            raise ValueError(f"{key} must be > 0, got {config[key]!r}")
    for key in ("fine_walks_per_node", "sparse_steps"):
        check_int(key, config[key], 1)
    for n in config["sparse_sizes"]:
        check_int("sparse_sizes entries", n, 300)
    for cell in config["grid_cells"]:
        parse_cell(cell)
    for n in config["timing_sizes"]:
        check_int("timing_sizes entries", n, 6)
    if not config["separation_snr"] > 0:
        raise ValueError(f"separation_snr must be > 0, got {config['separation_snr']!r}")
    alpha = config["alpha"]
    if isinstance(alpha, bool) or not isinstance(alpha, int | float) or not math.isfinite(alpha):
        raise ValueError(f"alpha (negative-sampling exponent) must be a finite number, got {alpha!r}")
    if config["dim"] >= 3 * config["block_size"]:
        raise ValueError("dim must be below the number of nodes 3 * block_size")
    if config["large_seeds"] and config["dim"] >= 3 * config["large_block_size"]:
        raise ValueError("dim must be below the number of nodes 3 * large_block_size")
    for cell in config["grid_cells"]:
        _, k, size, _, _ = parse_cell(cell)
        if config["dim"] >= k * size:
            raise ValueError(
                f"grid cell {cell!r}: dim {config['dim']} must be below its K * size = {k * size} nodes"
            )


def cost(config: dict[str, Any]) -> tuple[float, float]:
    """Rough seconds and bytes of one runner seed on 2 shared cores."""
    n = 3 * config["block_size"]
    step = 6e-3 * (n / 300) ** 2
    pop = config["seeds"] * len(config["init_scales"]) * (config["pop_steps"] * step + 1.5)
    pairs = n * config["walks_per_node"] * 2 * config["window"] * config["walk_length"]
    sgd = config["sgd_seeds"] * len(config["init_scales"]) * (pairs / 3e6 + 1.5)
    gen = (config["gensim_seeds"] + len(config["init_scales"]) - 1) * (pairs / 1e6 + 1.5)
    large = config["large_seeds"] * config["pop_steps"] * 6e-3 * (3 * config["large_block_size"] / 300) ** 2
    grid = (
        len(config["grid_cells"])
        * config["grid_seeds"]
        * (2 * (config["pop_steps"] * 2 * step + 2) + pairs / 3e6 + 1)
    )
    karate = (
        config["sgd_seeds"] * len(config["init_scales"]) * (34 / n * pairs / 3e6 + 0.3)
        + 3 * config["sgd_seeds"]
    )
    timing = sum(1e-2 * (m / 300) ** 3 * 5 for m in config["timing_sizes"])
    fine = (
        2
        * config["sgd_seeds"]
        * (pairs * config["fine_walks_per_node"] / config["walks_per_node"] / 3e6 + 1.5)
    )
    sparse = sum(m / 1e5 * (30 + 60 + 1.0 * config["sparse_steps"]) for m in config["sparse_sizes"])
    big = max([n, 3 * config["large_block_size"], *config["timing_sizes"]])
    return 10 + pop + sgd + gen + large + grid + karate + timing + fine + sparse, 4e8 + 40 * big**2 * 8


def run(config: dict[str, Any], seed: int) -> Result:
    """Parts 1–5 of the module docstring; every stochastic figure is a mean over inner seeds with its interval."""
    check(config)
    seed_everything(seed)
    warm_up()
    cfg = config
    scales = sorted(cfg["init_scales"])
    small, large = _tag(scales[0]), _tag(1.0)
    seeds = [1000 * seed + i for i in range(max(cfg["seeds"], cfg["sgd_seeds"], cfg["gensim_seeds"]))]
    metrics: dict[str, float] = {}
    runs: dict[tuple[str, str], list[dict[str, Any]]] = {}
    rows: list[dict[str, Any]] = []

    # (1) trajectories on the main SBM, every engine from every init
    plan = [("population", s, cfg["seeds"]) for s in scales] + [("sgd", s, cfg["sgd_seeds"]) for s in scales]
    plan += [("gensim", s, cfg["gensim_seeds"] if s == scales[0] else 1) for s in scales]
    jobs = [(e, s, sd) for e, s, count in plan for sd in seeds[:count]]
    for engine, scale, sd in progress(jobs, "trajectories (engine, init, seed)"):
        name = f"traj_{engine}_init={_tag(scale).replace('+', '')}_seed={sd}"
        summary = unit(name, functools.partial(_trajectory_unit, cfg, engine, scale, sd))
        runs.setdefault((engine, _tag(scale)), []).append(summary)
        rows.append(
            {"engine": engine, "init": scale, "seed": sd}
            | {k: v for k, v in summary.items() if k not in ("series", "top_values")}
        )

    # (1b) the small-step arm: our SGNS at fine_step_size with fine_walks_per_node walks (the same step x
    # pairs as the default), from the smallest init and from 1.0, on the first sgd_seeds samples
    fine_cfg = cfg | {"step_size": cfg["fine_step_size"], "walks_per_node": cfg["fine_walks_per_node"]}
    fine = {}
    for scale in (scales[0], 1.0):
        fine[_tag(scale)] = [
            unit(f"traj_sgdfine_init={_tag(scale).replace('+', '')}_seed={sd}",
                 functools.partial(_trajectory_unit, fine_cfg, "sgd", scale, sd))
            for sd in seeds[: cfg["sgd_seeds"]]
        ]  # fmt: skip
        _mean(metrics, f"sgd_fine_peak_align_{_tag(scale)}", [r["peak_alignment"] for r in fine[_tag(scale)]])
        rows += [{"engine": "sgd_fine", "init": scale, "seed": sd}
                 | {k: v for k, v in r.items() if k not in ("series", "top_values")}
                 for sd, r in zip(seeds, fine[_tag(scale)], strict=False)]  # fmt: skip
    fine_small = [r["peak_alignment"] for r in fine[small]]
    _paired(metrics, f"sgd_fine_peak_align_{small}", f"sgd_fine_peak_align_{large}", fine_small,
            [r["peak_alignment"] for r in fine[large]], "difference")  # fmt: skip
    metrics["sgd_fine_align_min_gain"] = float(
        np.min(np.subtract(fine_small, [r["peak_alignment"] for r in fine[large]]))
    )

    for engine in ("population", "sgd", "gensim"):
        for s in scales:
            got = runs[(engine, _tag(s))]
            short = {"population": "pop"}.get(engine, engine)
            _mean(metrics, f"{short}_peak_align_{_tag(s)}", [r["peak_alignment"] for r in got])
            _mean(metrics, f"{short}_smooth_align_{_tag(s)}", [r["peak_alignment_smoothed"] for r in got])
        ref = [r["peak_alignment"] for r in runs[(engine, small)]]
        short = {"population": "pop"}.get(engine, engine)
        for s in scales[1:]:
            other = [r["peak_alignment"] for r in runs[(engine, _tag(s))]]
            if len(other) == len(ref):
                _paired(
                    metrics,
                    f"{short}_peak_align_{small}",
                    f"{short}_peak_align_{_tag(s)}",
                    ref,
                    other,
                    "difference",
                )
        # monotone trend: per seed, the smallest gain in peak alignment between consecutive init scales
        per_scale = [[r["peak_alignment"] for r in runs[(engine, _tag(s))]] for s in scales]
        if len({len(v) for v in per_scale}) == 1:
            gains = np.min(np.diff(np.array(per_scale)[::-1], axis=0), axis=0)  # larger init -> smaller init
            _mean(metrics, f"{short}_align_min_gain", gains.tolist())

    pop = runs[("population", small)]
    _mean(metrics, "pop_ari_at_peak", [r["peak_ari"] for r in pop])
    _mean(metrics, "pop_ari_rownorm_at_peak", [r["peak_ari_rownorm"] for r in pop])
    _mean(metrics, "pop_final_ari", [r["final_ari"] for r in pop])
    _mean(metrics, "pop_final_alignment", [r["final_alignment"] for r in pop])
    _mean(metrics, "pop_peak_align_blocks", [r["peak_alignment_blocks"] for r in pop])
    _mean(metrics, "pop_peak_align_mbar", [r["peak_alignment_mbar"] for r in pop])
    _mean(metrics, "pop_peak_norm", [r["peak_norm"] for r in pop])
    metrics["pop_trivial_at_peak"] = max(r["peak_trivial"] for r in pop)
    _mean(metrics, "pop_trivial_at_peak_mean", [r["peak_trivial"] for r in pop])
    metrics["pop_trivial_at_peak_init1"] = max(r["peak_trivial"] for r in runs[("population", large)])
    metrics["pop_linear_error_window"] = max(r["window_linear_error"] for r in pop)
    _mean(metrics, "pop_linear_error_window_mean", [r["window_linear_error"] for r in pop])
    pop1 = runs[("population", large)]
    _mean(metrics, "pop_final_ari_init1", [r["final_ari"] for r in pop1])
    _mean(metrics, "pop_ari_at_peak_init1", [r["peak_ari"] for r in pop1])
    metrics["pop_window_snapshots"] = float(min(r["window_snapshots"] for r in pop))
    _mean(metrics, "spectral_gap_ratio", [r["gap_ratio"] for r in pop])
    _mean(metrics, "spectral_gap", [r["gap"] for r in pop])
    metrics["eigenspace_k"] = float(np.median([r["k"] for r in pop]))
    sgd = runs[("sgd", small)]
    gen = runs[("gensim", small)]
    _mean(metrics, "sgd_final_ari", [r["final_ari"] for r in sgd])
    _mean(metrics, "gensim_final_ari", [r["final_ari"] for r in gen])
    _mean(metrics, "sgd_ari_at_peak", [r["peak_ari"] for r in sgd])
    n_gen = len(gen)
    _paired(
        metrics,
        "sgd_final_ari",
        "gensim_final_ari",
        [r["final_ari"] for r in sgd[:n_gen]],
        [r["final_ari"] for r in gen],
        "difference",
    )
    # speed: every gensim run beside our run on the same corpus, start and seed (same (init, seed) pairs)
    pairs = [(o["pairs_per_s"], g["pairs_per_s"]) for s in scales
             for o, g in zip(runs[("sgd", _tag(s))], runs[("gensim", _tag(s))], strict=False)]  # fmt: skip
    _mean(metrics, "sgd_pairs_per_s", [o for o, _ in pairs])
    _mean(metrics, "gensim_pairs_per_s", [g for _, g in pairs])
    _paired(
        metrics,
        "sgd_pairs_per_s",
        "gensim_pairs_per_s",
        [o for o, _ in pairs],
        [g for _, g in pairs],
        "ratio",
    )

    # (2) baselines on the main SBM samples
    base = [
        unit(
            f"baselines_seed={sd}",
            functools.partial(_baselines_unit, cfg, 3, cfg["block_size"], cfg["p"], cfg["q"], sd, False),
        )
        for sd in seeds[: cfg["seeds"]]
    ]
    for key in ("spectral_ari", "nsc_ari", "netmf_ari"):
        _mean(metrics, key, [b[key] for b in base])
    _paired(
        metrics,
        "pop_final_ari",
        "spectral_ari",
        [r["final_ari"] for r in pop],
        [b["spectral_ari"] for b in base],
        "difference",
    )
    gensim_vs = [b["spectral_ari"] for b in base][:n_gen]
    if n_gen >= 2:
        _paired(
            metrics,
            "gensim_final_ari",
            "spectral_ari",
            [r["final_ari"] for r in gen],
            gensim_vs,
            "difference",
        )

    # (3) larger blocks, the (p, q) / K grid and a degree-corrected cell
    large_cell = f"3x{cfg['large_block_size']}:{cfg['p']}:{cfg['q']}"
    big = [
        unit(f"large_seed={sd}", functools.partial(_cell_unit, cfg, large_cell, sd, False))
        for sd in seeds[: cfg["large_seeds"]]
    ]
    _mean(metrics, "large_final_ari", [b["final_ari"] for b in big])
    _mean(metrics, "large_peak_align", [b["peak_alignment"] for b in big])
    grid_rows: list[dict[str, Any]] = []
    separated_ours: list[float] = [r["final_ari"] for r in pop]
    separated_spec: list[float] = [b["spectral_ari"] for b in base]
    separated_at_peak: list[float] = [r["peak_ari"] for r in pop]
    separated_at_peak_init1: list[float] = [r["peak_ari"] for r in pop1]
    # SGNS on the same separated instances: the main SBM's first sgd_seeds samples, then the grid cells
    n_sgd = len(sgd)
    sep_sgd_final: list[float] = [r["final_ari"] for r in sgd]
    sep_sgd_peak: list[float] = [r["peak_ari"] for r in sgd]
    sep_sgd_spec: list[float] = [b["spectral_ari"] for b in base][:n_sgd]
    near: list[float] = []
    dc_ours: list[float] = []
    dc_spec: list[float] = []
    main_snr = ks_snr(3, cfg["block_size"], cfg["p"], cfg["q"])
    cells = [(c, sd) for c in cfg["grid_cells"] for sd in seeds[: cfg["grid_seeds"]]]
    for cell, sd in progress(cells, "grid cells (cell, seed)"):
        dc, k, size, p, q = parse_cell(cell)
        out = unit(f"cell={cell.replace(':', '_')}_seed={sd}", functools.partial(_cell_unit, cfg, cell, sd))
        snr = ks_snr(k, size, p, q)
        sep = snr >= cfg["separation_snr"] and not dc
        if sep:
            separated_ours.append(out["final_ari"])
            separated_spec.append(out["spectral_ari"])
            separated_at_peak.append(out["peak_ari"])
            separated_at_peak_init1.append(out["init1_peak_ari"])
            sep_sgd_final.append(out["sgd_final_ari"])
            sep_sgd_peak.append(out["sgd_peak_ari"])
            sep_sgd_spec.append(out["spectral_ari"])
        elif not dc:
            near.append(out["final_ari"] - out["spectral_ari"])
        grid_rows.append(
            {"cell": cell, "seed": sd, "K": k, "block": size, "p": p, "q": q, "ks_snr": round(snr, 3),
             "separated": sep, "degree_corrected": dc, "gap_ratio": round(out["gap_ratio"], 3),
             "peak_alignment": round(out["peak_alignment"], 4), "peak_alignment_blocks": round(out["peak_alignment_blocks"], 4),
             "ari_at_peak": round(out["peak_ari"], 4), "final_ari": round(out["final_ari"], 4),
             "spectral_ari": round(out["spectral_ari"], 4), "netmf_ari": round(out["netmf_ari"], 4),
             "sgd_peak_alignment": round(out["sgd_peak_alignment"], 4), "sgd_ari_at_peak": round(out["sgd_peak_ari"], 4),
             "sgd_final_ari": round(out["sgd_final_ari"], 4)}
        )  # fmt: skip
        if dc:
            dc_ours.append(out["final_ari"])
            dc_spec.append(out["spectral_ari"])
    _mean(metrics, "separated_final_ari", separated_ours)
    _mean(metrics, "separated_spectral_ari", separated_spec)
    _paired(
        metrics, "separated_final_ari", "separated_spectral_ari", separated_ours, separated_spec, "difference"
    )
    _mean(metrics, "separated_ari_at_peak", separated_at_peak)
    _mean(metrics, "separated_ari_at_peak_init1", separated_at_peak_init1)
    _paired(
        metrics,
        "separated_ari_at_peak",
        "separated_spectral_ari",
        separated_at_peak,
        separated_spec,
        "difference",
    )
    metrics["separated_instances"] = float(len(separated_ours))
    _mean(metrics, "separated_sgd_final_ari", sep_sgd_final)
    _mean(metrics, "separated_sgd_ari_at_peak", sep_sgd_peak)
    _mean(metrics, "separated_sgd_spectral_ari", sep_sgd_spec)
    for key, values in (
        ("separated_sgd_final_ari", sep_sgd_final),
        ("separated_sgd_ari_at_peak", sep_sgd_peak),
    ):
        _paired(metrics, key, "separated_sgd_spectral_ari", values, sep_sgd_spec, "difference")
    metrics["separated_sgd_instances"] = float(len(sep_sgd_final))
    metrics["main_ks_snr"] = main_snr
    metrics["near_threshold_instances"] = float(len(near))
    metrics["near_threshold_ari_minus_spectral"] = float(np.mean(near)) if near else math.nan
    metrics["dc_final_ari"] = float(np.mean(dc_ours)) if dc_ours else math.nan
    metrics["dc_spectral_ari"] = float(np.mean(dc_spec)) if dc_spec else math.nan

    # (6) SGNS beside population GD (same graph samples, same start); the variance of one SGNS update
    _paired(
        metrics,
        f"sgd_peak_align_{small}",
        f"pop_peak_align_{small}",
        [r["peak_alignment"] for r in sgd],
        [r["peak_alignment"] for r in pop[:n_sgd]],
        "difference",
    )
    for tag, scale in (("small", scales[0]), ("init1", 1.0)):
        ratios = [
            unit(f"variance_{tag}_seed={sd}", functools.partial(variance_unit, cfg, sbm_sample(3, cfg["block_size"], cfg["p"], cfg["q"], sd)[0], scale, sd))
            for sd in seeds[: cfg["sgd_seeds"]]
        ]  # fmt: skip
        _mean(metrics, f"sgd_update_noise_ratio_{tag}", ratios)
        if tag == "small":  # the mini-batch control: i.i.d. updates averaged over one snapshot's pairs
            corpus = (
                3
                * cfg["block_size"]
                * cfg["walks_per_node"]
                * pairs_per_walk(cfg["walk_length"], cfg["window"])
            )
            _mean(metrics, "sgd_update_noise_ratio_batch", [x / max(1, corpus // 40) for x in ratios])

    # (7) a real graph: the karate club, our SGNS from every init over sgd_seeds corpus/init seeds
    kg, klabels = karate_graph()
    kar = {
        _tag(s): [unit(f"karate_init={_tag(s).replace('+', '')}_seed={sd}", functools.partial(karate_unit, cfg, s, sd))
                  for sd in seeds[: cfg["sgd_seeds"]]]
        for s in scales
    }  # fmt: skip
    for s in scales:
        _mean(metrics, f"karate_sgd_peak_align_{_tag(s)}", [r["peak_alignment"] for r in kar[_tag(s)]])
    for s in scales[1:]:
        _paired(
            metrics,
            f"karate_sgd_peak_align_{small}",
            f"karate_sgd_peak_align_{_tag(s)}",
            [r["peak_alignment"] for r in kar[small]],
            [r["peak_alignment"] for r in kar[_tag(s)]],
            "difference",
        )
    _mean(metrics, "karate_sgd_final_ari", [r["final_ari"] for r in kar[small]])
    _mean(metrics, "karate_sgd_ari_at_peak", [r["peak_ari"] for r in kar[small]])
    metrics["karate_spectral_ari"] = unit(
        "karate_spectral", functools.partial(spectral_clustering_ari, kg, klabels, seed)
    )
    metrics["karate_gap_ratio"] = float(kar[small][0]["gap_ratio"])
    metrics["karate_eigenspace_k"] = float(kar[small][0]["k"])
    metrics["karate_update_noise_ratio"] = unit(
        "karate_variance", functools.partial(variance_unit, cfg, kg, scales[0], seed)
    )

    _mean(metrics, "sgd_fine_final_ari", [r["final_ari"] for r in fine[small]])
    _paired(metrics, f"sgd_fine_peak_align_{small}", f"pop_peak_align_{small}", fine_small,
            [r["peak_alignment"] for r in pop[: len(fine_small)]], "difference")  # fmt: skip

    # (4) population-GD step time; the sparse engine at sparse_sizes nodes; (5) the exact small case
    for n in cfg["sparse_sizes"]:
        metrics.update(unit(f"sparse_n={n}", functools.partial(sparse_benchmark, n, cfg, seed)))
    for n in cfg["timing_sizes"]:
        metrics[f"pop_step_s_n{n}"] = unit(f"timing_n={n}", functools.partial(timing_unit, n, cfg, seed))
    metrics.update(unit("cliques", functools.partial(cliques_unit, cfg)))

    plots = experiment_plots(runs, scales, metrics)
    notes = [
        f"main SBM 3x{cfg['block_size']} p={cfg['p']} q={cfg['q']}: Kesten-Stigum SNR {main_snr:.2f}; M's top-"
        f"{int(metrics['eigenspace_k'])} space, gap ratio |mu_k|/|mu_k+1| = {metrics['spectral_gap_ratio']:.2f}",
        "pairs on the x axes: SGNS pair updates (population GD: the pairs whose expected effect one step takes)",
        "gensim and our SGNS end one pass over the corpus; 'final' ARI is at the end of that pass",
    ]
    return Result(metrics=metrics, tables={"trajectories": rows, "grid": grid_rows}, plots=plots, notes=notes)


_SCALES = [1e-4, 1e-2, 0.1, 1.0]  # the init grid the claims name (every profile runs it)
_COMMON = {"dim": 16, "window": 5, "negatives": 1, "alpha": 1.0, "step_size": 0.025, "init_scales": _SCALES,
           "separation_snr": 3.0, "fine_step_size": 0.005}  # fmt: skip

from icml26.common.schema import Float, Int, ListOf, Text  # noqa: E402 (the schema block sits beside the experiment)

SCHEMA = {  # each profile key's type and range (icml26.common.schema); check() keeps the cross-key rules
    "dim": Int(1, 4096),
    ("window", "negatives"): Int(1, 100),
    "alpha": Float(-10, 10),
    "step_size": Float(0, 10, low_open=True),
    "init_scales": ListOf(Float(0, 1000, low_open=True), 2, 64),
    "separation_snr": Float(0, 1e6, low_open=True),
    ("block_size", "large_block_size"): Int(1, 10**5),
    ("p", "q"): Float(0, 1),
    ("pop_steps", "pop_snapshot_every"): Int(1, 10**6),
    ("walks_per_node", "timing_steps"): Int(1, 10**4),
    "walk_length": Int(2, 10**4),
    ("seeds", "sgd_seeds"): Int(2, 1000),
    "gensim_seeds": Int(1, 1000),
    ("large_seeds", "grid_seeds", "cluster_snapshots"): Int(0, 1000),
    "grid_cells": ListOf(
        Text(
            r"(dc)?\d{1,3}x\d{1,5}:\d*\.?\d+:\d*\.?\d+",
            "a cell 'KxS:p:q' or 'dcKxS:p:q' (e.g. 3x100:0.10:0.02)",
        ),
        1,
        64,
    ),
    "timing_sizes": ListOf(Int(6, 10**6), 1, 16),
    "fine_step_size": Float(0, 10, low_open=True),
    "fine_walks_per_node": Int(1, 10**5),
    "sparse_sizes": ListOf(Int(300, 10**7), 0, 4),
    "sparse_steps": Int(1, 10**4),
}


EXPERIMENT = Experiment(
    method="deepwalk_dynamics",
    title="On the Optimization Trajectory of DeepWalk Embeddings",
    paper="Harker, Bhaskara, ICML 2026 (OpenReview YKX6FgtL3R; arXiv id not identified)",
    run=run,
    profiles={
        "smoke": _COMMON
        | {
            "block_size": 40,
            "p": 0.25,
            "q": 0.03,
            "pop_steps": 150,
            "pop_snapshot_every": 10,
            "walks_per_node": 10,
            "walk_length": 20,
            "seeds": 2,
            "sgd_seeds": 2,
            "gensim_seeds": 2,
            "large_block_size": 50,
            "large_seeds": 1,
            "grid_cells": ["2x40:0.25:0.03", "dc3x40:0.25:0.03"],
            "grid_seeds": 1,
            "timing_sizes": [150],
            "timing_steps": 2,
            "fine_walks_per_node": 20,
            "sparse_sizes": [3000],
            "sparse_steps": 5,
            "cluster_snapshots": 3,
        },
        "quick": _COMMON
        | {
            "block_size": 100,
            "p": 0.10,
            "q": 0.02,
            "pop_steps": 400,
            "pop_snapshot_every": 10,
            "walks_per_node": 40,
            "walk_length": 40,
            "seeds": 3,
            "sgd_seeds": 3,
            "gensim_seeds": 3,
            "large_block_size": 200,
            "large_seeds": 2,
            "grid_cells": [
                "2x100:0.10:0.02",
                "4x100:0.10:0.02",
                "3x100:0.08:0.03",
                "3x100:0.06:0.03",
                "dc3x100:0.10:0.02",
            ],
            "grid_seeds": 1,
            "timing_sizes": [300, 1000],
            "timing_steps": 3,
            "fine_walks_per_node": 200,
            "sparse_sizes": [20000],
            "sparse_steps": 40,
            "cluster_snapshots": 2,
        },
        "paper": _COMMON
        | {
            "block_size": 100,
            "p": 0.10,
            "q": 0.02,
            "pop_steps": 400,
            "pop_snapshot_every": 5,
            "walks_per_node": 40,
            "walk_length": 40,
            "seeds": 5,
            "sgd_seeds": 5,
            "gensim_seeds": 5,
            "large_block_size": 200,
            "large_seeds": 3,
            "grid_cells": [
                f"{k}x100:{p}:{q}"
                for k in (2, 3, 4)
                for p, q in ((0.15, 0.02), (0.10, 0.02), (0.08, 0.03), (0.06, 0.03))
            ]
            + ["dc3x100:0.10:0.02", "dc3x200:0.10:0.02"],
            "grid_seeds": 3,
            "timing_sizes": [300, 1000],
            "timing_steps": 5,
            "fine_walks_per_node": 200,
            "sparse_sizes": [100000],
            "sparse_steps": 40,
            "cluster_snapshots": 12,
        },
    },  # fmt: skip
    claims=TESTS,
    paper_claims=PAPER_CLAIMS,
    background=BACKGROUND,
    description=__doc__ or "",
    check=check,
    schema=SCHEMA,
    cost=cost,
    resources=Resources(cpus=1),  # numpy, numba and gensim (workers=1) on one core per seed
    names=NAMES,
)
