"""Experiment: the paper's theorems checked on instances (the paper itself has no experiments).

1. Atlas: every graph of ``networkx.graph_atlas_g()`` with 3..7 nodes as a complete signed graph:
   cost/LP of the 2-approximation, BTT* by MILP, CC* by ILP, and the min-ratio pivot's cost/|F| for the
   optimal, the packing and random minimal transversals; MinSTC 2-approximation vs matching.
2. Random signed and planted-partition graphs (n = 30..60, weighted and unweighted): cost/OPT and
   cost/LP of every algorithm, (1+eps)-suboptimal LP points, and 200 random complete graphs (n = 8..12)
   for the pivot. Then n = 30..300: runtime of each algorithm against the exact MILP.
3. Scale: a planted-partition graph with >= 10^5 edges: enumeration + MWU LP + rounding runtime and
   cost / certified LP lower bound.
4. Highland tribes (Read, 1954): a small real signed network.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable, Iterator
from itertools import combinations
from typing import Any

import networkx as nx
import numpy as np
from scipy import stats

from icml26.bad_triangles.baselines import (
    exact_btt,
    min_stc_matching,
    packing_3approx,
    random_minimal_transversal,
)
from icml26.bad_triangles.datasets import (
    binding_instances,
    highland_tribes,
    planted_partition,
    random_signed_graph,
)
from icml26.bad_triangles.graph import SignedGraph, complete_from_positive
from icml26.bad_triangles.lp import solve_cover_lp, solve_cover_lp_mwu
from icml26.bad_triangles.pivot import (
    budget_pivot_expected_cost,
    clustering_mistakes,
    disagreements,
    exact_cc,
    flip_pivot,
    flip_pivot_expected_cost,
    kwik_cluster,
    lp_pivot,
    transversal_to_clustering,
)
from icml26.bad_triangles.rounding import (
    Transversal,
    krivelevich_2approx,
    min_stc_2approx,
    round_lp_support,
    round_lp_threshold,
)
from icml26.bad_triangles.triangles import bad_triangles, is_transversal
from icml26.common import (
    Claim,
    Experiment,
    Plot,
    Resources,
    Result,
    ci95,
    comparison_key,
    paired_ci,
    progress,
    seed_everything,
    unit,
)

_ROUND = 9  # ratios are compared on values rounded to 1e-9 (LP noise), then with strict thresholds

# Resumable units (``common.unit``): instances per unit, so that a quick unit takes seconds.
_ATLAS_CHUNK = 100  # atlas graphs per unit (quick: 13 units)
_RANDOM_CHUNK = 10  # random graphs n = n_min..n_max per unit (quick: 6)
_COMPLETE_CHUNK = 50  # random complete graphs n = 8..12 per unit (quick: 4)


def _chunks(count: int, size: int) -> list[range]:
    """``range(count)`` in consecutive pieces of ``size``."""
    return [range(start, min(start + size, count)) for start in range(0, count, size)]


def _ratio(a: float, b: float) -> float:
    """``a / b`` rounded to 1e-9; 1 when both are 0 (nothing to hit), inf when only b is 0."""
    if a <= 0 and b <= 0:
        return 1.0
    return round(a / b, _ROUND) if b > 0 else math.inf


class _Tally:
    """Running maxima, lists and the feasibility count shared by all parts."""

    def __init__(self) -> None:
        self.infeasible = 0
        self.checked = 0
        self.values: dict[str, list[float]] = {}

    def check(self, graph: SignedGraph, f: Transversal, tri: np.ndarray) -> Transversal:
        self.checked += 1
        if not is_transversal(graph, f.edge_ids, tri):
            self.infeasible += 1
        return f

    def add(self, key: str, value: float) -> None:
        self.values.setdefault(key, []).append(float(value))

    def merge(self, other: _Tally) -> None:
        """Append what ``other`` (one unit's tally) counted, in its order."""
        self.infeasible += other.infeasible
        self.checked += other.checked
        for key, values in other.values.items():
            self.values.setdefault(key, []).extend(values)

    def max(self, key: str) -> float:
        return max(self.values.get(key, [math.nan]))

    def mean(self, key: str) -> float:
        v = self.values.get(key, [])
        return float(np.mean(v)) if v else math.nan


def _third_threshold(graph: SignedGraph, x: np.ndarray) -> Transversal:
    """Control: the generic 3-uniform hitting-set rounding ``{e : x_e >= 1/3}`` (a 3-approximation)."""
    ids = np.flatnonzero(x >= 1.0 / 3.0 - 1e-9)  # a feasible x has a value >= 1/3 on every triangle
    return Transversal(ids, graph.cost(ids), 0.0, "third_threshold")


def _lp_algorithms(
    g: SignedGraph, tri: np.ndarray, tally: _Tally, prefix: str = ""
) -> tuple[Any, dict[str, Transversal]]:
    """The exact LP, then Algorithms 3, 2 and 1 and the two 3-approximations, with cost/LP tallied."""
    lp = solve_cover_lp(g, tri)
    found = {
        "threshold": round_lp_threshold(g, lp, tri),
        "support": round_lp_support(g, lp, tri),
        "krivelevich": krivelevich_2approx(g, tri, lp),
        "packing": packing_3approx(g, tri),
        "third": _third_threshold(g, lp.x),
    }
    for name, f in found.items():
        tally.check(g, f, tri)
        tally.add(f"{prefix}{name}_cost_over_lp", _ratio(f.cost, lp.value))
    return lp, found


def _suboptimal_points(
    x: np.ndarray, tri: np.ndarray, graph: SignedGraph, eps: float, rng: np.random.Generator
) -> Iterator[np.ndarray]:
    """Two feasible LP points of value exactly (1+eps) LP: ``(1+eps) x*`` and ``x*`` plus eps LP of weight
    spread on random edges of bad triangles (which moves thresholds, unlike plain scaling)."""
    lp_value = float(graph.weight @ x)
    yield (1.0 + eps) * x
    edges = np.unique(tri)
    edges = edges[graph.weight[edges] > 0]
    if edges.size and lp_value > 0:
        extra = np.zeros(graph.m)
        pick = rng.choice(edges, size=max(1, edges.size // 4), replace=False)
        extra[pick] = rng.random(pick.size)
        extra *= eps * lp_value / float(graph.weight @ extra)
        yield x + extra


def _atlas(cfg: dict[str, Any], rng: np.random.Generator, tally: _Tally, rows: list[dict[str, Any]]) -> None:
    atlas = [h for h in nx.graph_atlas_g() if 3 <= h.number_of_nodes() <= 7][:: cfg["atlas_stride"]]
    parts = _chunks(len(atlas), _ATLAS_CHUNK)
    for part in progress(parts, f"atlas graphs ({_ATLAS_CHUNK} per unit)"):
        graphs = [atlas[i] for i in part]
        name = f"atlas_graphs={part.start}-{part.stop - 1}"
        tally.merge(unit(name, functools.partial(_atlas_graphs, graphs, cfg, rng), (rng,)))
    rows.append(
        {
            "part": "atlas n=3..7",
            "instances": len(atlas),
            "max cost/LP": tally.max("threshold_cost_over_lp"),
            "mean cost/OPT": tally.mean("atlas_cost_over_opt"),
            "max pivot cost/|F|": tally.max("pivot_ratio"),
            "max CC*/BTT*": tally.max("cc_over_btt"),
        }
    )


def _atlas_graphs(atlas: list[nx.Graph], cfg: dict[str, Any], rng: np.random.Generator) -> _Tally:
    """One unit of the atlas part: these graphs as complete signed graphs."""
    tally = _Tally()
    for g in map(complete_from_positive, atlas):
        tri = bad_triangles(g)
        opt = tally.check(g, exact_btt(g, tri), tri)
        cc = exact_cc(g)
        tally.check(g, Transversal(clustering_mistakes(g, cc.labels), cc.cost, 0.0, "cc"), tri)
        tally.add("btt_over_cc", _ratio(opt.cost, cc.cost))
        tally.add("cc_over_btt", _ratio(cc.cost, opt.cost))
        if not tri.size:
            continue
        lp, found = _lp_algorithms(g, tri, tally)
        alg, pack = found["threshold"], found["packing"]
        tally.add("atlas_cost_over_opt", _ratio(alg.cost, opt.cost))
        _budget_checks(g, opt, tally)  # Algorithm 4's exact expectation (n <= 7 here)
        transversals = [opt, pack] + [
            tally.check(g, random_minimal_transversal(g, rng, tri), tri) for _ in range(cfg["random_minimal"])
        ]
        for f in transversals:
            _pivot_checks(g, f, cfg, rng, tally)
        stc_opt = exact_btt(g, tri, forbid_negative=True)
        stc = tally.check(g, min_stc_2approx(g, tri), tri)
        stc_lp = solve_cover_lp(g, tri, forbid_negative=True).value
        tally.add("minstc_cost_over_lp", _ratio(stc.cost, stc_lp))
        tally.add("minstc_matching_cost_over_lp", _ratio(min_stc_matching(g, tri).cost, stc_lp))
        tally.add("minstc_cost_over_opt", _ratio(stc.cost, stc_opt.cost))
    return tally


def _budget_checks(g: SignedGraph, f: Transversal, tally: _Tally, prefix: str = "") -> tuple[float, float]:
    """Exact expected cost / |F| of Algorithm 4 and of Veldt's flip-pivot on the same transversal."""
    if len(f) == 0:
        return math.nan, math.nan
    budget = round(budget_pivot_expected_cost(g, f.edge_ids) / len(f), _ROUND)
    flip = round(flip_pivot_expected_cost(g, f.edge_ids) / len(f), _ROUND)
    tally.add(f"{prefix}budget_ratio", budget)
    tally.add(f"{prefix}flip_expected_ratio", flip)
    return budget, flip


def _pivot_checks(
    g: SignedGraph, f: Transversal, cfg: dict[str, Any], rng: np.random.Generator, tally: _Tally
) -> None:
    """Min-ratio pivot (ours, deterministic) and Veldt's random flip-pivot on the same transversal."""
    if len(f) == 0:
        return
    c = transversal_to_clustering(g, f.edge_ids)
    tally.add("pivot_ratio", _ratio(c.cost, len(f)))
    orders = [flip_pivot(g, f.edge_ids, rng).cost / len(f) for _ in range(cfg["pivot_orders"])]
    tally.add("flip_pivot_mean_ratio", round(float(np.mean(orders)), _ROUND))
    tally.add("flip_pivot_worst_ratio", round(max(orders), _ROUND))


def _random_complete(
    cfg: dict[str, Any], rng: np.random.Generator, tally: _Tally, rows: list[dict[str, Any]]
) -> None:
    """Random complete signed graphs n = 8..12 (planted clusters with noise): pivot and CC baselines."""
    parts = _chunks(cfg["n_complete"], _COMPLETE_CHUNK)
    for part in progress(parts, f"random complete graphs ({_COMPLETE_CHUNK} per unit)"):
        name = f"complete_graphs={part.start}-{part.stop - 1}"
        tally.merge(unit(name, functools.partial(_complete_graphs, len(part), cfg, rng), (rng,)))
    rows.append(
        {
            "part": "random complete n=8..12",
            "instances": cfg["n_complete"],
            "max cost/LP": math.nan,
            "mean cost/OPT": math.nan,
            "max pivot cost/|F|": tally.max("pivot_ratio"),
            "max CC*/BTT*": tally.max("cc_over_btt"),
        }
    )


def _complete_graphs(count: int, cfg: dict[str, Any], rng: np.random.Generator) -> _Tally:
    """One unit of the random complete graphs: ``count`` graphs drawn from ``rng``."""
    tally = _Tally()
    for _ in range(count):
        n = int(rng.integers(8, 13))
        g = planted_partition(n, int(rng.integers(2, 4)), 1.0, float(rng.uniform(0.1, 0.4)), rng)
        tri = bad_triangles(g)
        opt = tally.check(g, exact_btt(g, tri), tri)
        cc = exact_cc(g)
        tally.add("btt_over_cc", _ratio(opt.cost, cc.cost))
        tally.add("cc_over_btt", _ratio(cc.cost, opt.cost))
        tally.add("kwik_over_cc", _ratio(kwik_cluster(g, rng).cost, cc.cost))
        tally.add("lp_pivot_over_cc", _ratio(lp_pivot(g, rng).cost, cc.cost))
        if g.n <= 9:
            _budget_checks(g, opt, tally)
        for f in (opt, packing_3approx(g, tri), random_minimal_transversal(g, rng, tri)):
            _pivot_checks(g, tally.check(g, f, tri), cfg, rng, tally)
    return tally


def _random_instance(i: int, n: int, rng: np.random.Generator) -> tuple[str, bool, SignedGraph]:
    kind = "random" if i % 2 == 0 else "planted"
    weighted = (i // 2) % 2 == 1
    if kind == "random":
        g = random_signed_graph(
            n, float(rng.uniform(0.15, 0.35)), float(rng.uniform(0.2, 0.5)), rng, weighted
        )
    else:
        k, noise, density = (
            int(rng.integers(2, 5)),
            float(rng.uniform(0.05, 0.35)),
            float(rng.uniform(0.15, 0.5)),
        )
        g = planted_partition(n, k, density, noise, rng, weighted)
    return kind, weighted, g


def _random_graphs(
    cfg: dict[str, Any], rng: np.random.Generator, tally: _Tally, rows: list[dict[str, Any]], table: list
) -> None:
    """>= 50 graphs n = 30..60: cost/OPT of every algorithm, and rounding of (1+eps)-suboptimal points."""
    parts = _chunks(cfg["n_random"], _RANDOM_CHUNK)
    for part in progress(parts, f"random graphs n={cfg['n_min']}..{cfg['n_max']} ({_RANDOM_CHUNK} per unit)"):
        name = f"random_graphs={part.start}-{part.stop - 1}"
        part_tally, part_rows = unit(name, functools.partial(_random_graph_part, part, cfg, rng), (rng,))
        tally.merge(part_tally)
        table.extend(part_rows)
    rows.append(
        {
            "part": f"random n={cfg['n_min']}..{cfg['n_max']}",
            "instances": cfg["n_random"],
            "max cost/LP": tally.max("threshold_cost_over_lp"),
            "mean cost/OPT": tally.mean("cost_over_opt"),
            "max pivot cost/|F|": math.nan,
            "max CC*/BTT*": math.nan,
        }
    )


def _random_graph_part(
    part: range, cfg: dict[str, Any], rng: np.random.Generator
) -> tuple[_Tally, list[dict[str, Any]]]:
    """One unit of the random graphs: instances ``part`` (their index sets kind and weights)."""
    tally, table = _Tally(), []
    eps = cfg["eps"]
    for i in part:
        kind, weighted, g = _random_instance(i, int(rng.integers(cfg["n_min"], cfg["n_max"] + 1)), rng)
        tri = bad_triangles(g)
        opt = tally.check(g, exact_btt(g, tri, time_limit=cfg["milp_time_limit"]), tri)
        lp, found = _lp_algorithms(g, tri, tally)
        alg, pack = found["threshold"], found["packing"]
        mwu_lp = solve_cover_lp_mwu(g, tri, eps=eps)
        mwu = tally.check(g, round_lp_threshold(g, mwu_lp, tri), tri)
        if weighted:
            tally.add("weighted_support_cost_over_lp", _ratio(found["support"].cost, lp.value))
            tally.add("weighted_cost_over_lp", _ratio(alg.cost, lp.value))
            tally.add("weighted_packing_cost_over_lp", _ratio(pack.cost, lp.value))
        tally.add("eps_cost_over_lp", _ratio(mwu.cost, (1 + eps) * lp.value))
        tally.add("packing_eps_cost_over_lp", _ratio(pack.cost, (1 + eps) * lp.value))
        tally.add("mwu_value_over_lp", _ratio(mwu_lp.value, lp.value))
        for x in _suboptimal_points(lp.x, tri, g, eps, rng):
            f = tally.check(g, round_lp_threshold(g, x, tri), tri)
            tally.add("eps_cost_over_lp", _ratio(f.cost, (1 + eps) * lp.value))
        solved = opt.method == "exact_btt" and opt.cost > 0
        if solved:
            tally.add("cost_over_opt", _ratio(alg.cost, opt.cost))
            tally.add("mwu_cost_over_opt", _ratio(mwu.cost, opt.cost))
            tally.add("packing_cost_over_opt", _ratio(pack.cost, opt.cost))
            tally.add("support_cost_over_opt", _ratio(found["support"].cost, opt.cost))
            tally.add("krivelevich_cost_over_opt", _ratio(found["krivelevich"].cost, opt.cost))
            tally.add("below_packing", float(alg.cost < pack.cost))
        table.append(
            {
                "n": g.n,
                "m": g.m,
                "kind": kind,
                "weighted": weighted,
                "bad_triangles": int(tri.shape[0]),
                "LP": round(lp.value, 4),
                "OPT": opt.cost if solved else math.nan,
                "alg3 (threshold)": alg.cost,
                "alg3 (MWU LP)": mwu.cost,
                "alg2 (support)": found["support"].cost,
                "alg1 (Krivelevich)": found["krivelevich"].cost,
                "packing": pack.cost,
            }
        )
    return tally, table


def _proportion_ci(flags: list[float]) -> tuple[float, float]:
    """Exact (Clopper-Pearson) 95% interval of the fraction of ones in ``flags``; nan for no flags."""
    if not flags:
        return math.nan, math.nan
    ci = stats.binomtest(int(round(sum(flags))), len(flags)).proportion_ci(0.95, method="exact")
    return float(ci.low), float(ci.high)


def _timed(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, float]:
    start = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - start


_RUNTIME_DEGREE = 50  # average degree of the runtime graphs (sparse: n = 2 m / 50)
_RECURSIVE_LABEL = "Alg. 1 (Krivelevich, recursive)"
_TIMED = {
    "support": "Alg. 2 (support, HiGHS LP)",
    "threshold": "Alg. 3 (threshold, HiGHS LP)",
    "mwu": "Alg. 3 (threshold, MWU LP)",
    "krivelevich": "Alg. 1 (Krivelevich)",
    "packing": "packing 3-approx",
}


def _runtime(cfg: dict[str, Any], rng: np.random.Generator, tally: _Tally, table: list) -> dict[str, list]:
    """Sparse planted graphs with 10^3..runtime_edges_max edges: each algorithm timed end to end
    (triangle enumeration included), with its cost against the exact optimum and the LP bound. The
    recursive Krivelevich (one edge per LP solve, O(m) LPs) runs only on sizes up to
    ``runtime_recursive_edges_max``: about 5 s per graph at 10^3 edges, 2 min at 3x10^3."""
    sizes = np.unique(np.geomspace(1000, cfg["runtime_edges_max"], cfg["runtime_steps"]).astype(int)).tolist()
    series: dict[str, list] = {"m": [], **{label: [] for label in _TIMED.values()}}
    recursive_m: list[float] = []
    recursive_t: list[float] = []
    for m in progress(sizes, f"runtime sizes ({cfg['runtime_graphs']} graphs per unit)"):
        part_tally, rows = unit(f"runtime_m={m}", functools.partial(_runtime_size, m, cfg, rng), (rng,))
        tally.merge(part_tally)
        table.extend(rows)
        series["m"].append(float(np.mean([r["m"] for r in rows])))
        for key, label in _TIMED.items():
            series[label].append(float(np.mean([r[f"t_{key}_s"] for r in rows])))
        if m <= cfg["runtime_recursive_edges_max"]:
            recursive_m.append(series["m"][-1])
            recursive_t.append(float(np.mean([r["t_krivelevich_recursive_s"] for r in rows])))
    return {**series, _RECURSIVE_LABEL: (recursive_m, recursive_t)}


def _runtime_size(
    m: int, cfg: dict[str, Any], rng: np.random.Generator
) -> tuple[_Tally, list[dict[str, Any]]]:
    """One unit of the runtime sweep: ``runtime_graphs`` planted graphs with about ``m`` edges."""
    tally, rows = _Tally(), []
    n = max(40, int(2 * m / _RUNTIME_DEGREE))
    for _ in range(cfg["runtime_graphs"]):
        g = planted_partition(n, 4, min(1.0, 2 * m / (n * (n - 1))), 0.2, rng)
        tri, t_tri = _timed(bad_triangles, g)
        lp, t_lp = _timed(solve_cover_lp, g, tri)
        support, t_support = _timed(round_lp_support, g, lp, tri)
        threshold, t_threshold = _timed(round_lp_threshold, g, lp, tri)
        mwu_lp, t_mwu = _timed(solve_cover_lp_mwu, g, tri, cfg["eps"])
        mwu, t_mwu_round = _timed(round_lp_threshold, g, mwu_lp, tri)
        kriv, t_kriv = _timed(krivelevich_2approx, g, tri)  # batch: every x_e >= 1/2 per solve
        pack, t_pack = _timed(packing_3approx, g, tri)
        opt = exact_btt(g, tri, time_limit=cfg["runtime_milp_time_limit"])
        found = {"support": support, "threshold": threshold, "mwu": mwu, "krivelevich": kriv, "packing": pack}
        seconds = {
            "support": t_tri + t_lp + t_support,
            "threshold": t_tri + t_lp + t_threshold,
            "mwu": t_tri + t_mwu + t_mwu_round,
            "krivelevich": t_tri + t_kriv,
            "packing": t_tri + t_pack,
        }
        solved = opt.method == "exact_btt"
        row: dict[str, Any] = {
            "n": g.n,
            "m": g.m,
            "bad_triangles": int(tri.shape[0]),
            "LP": round(lp.value, 4),
        }
        row["OPT"] = opt.cost if solved else None  # None (shown "-"): the MILP hit its time limit
        for key, f in found.items():
            tally.check(g, f, tri)
            tally.add(f"rt_{key}_s", seconds[key])
            row[f"t_{key}_s"] = round(seconds[key], 4)
            row[f"{key} cost/LP"] = _ratio(f.cost, lp.value)
            row[f"{key} cost/OPT"] = _ratio(f.cost, opt.cost) if solved else None
            if key != "mwu":
                tally.add(f"{key}_cost_over_lp", _ratio(f.cost, lp.value))
        row["krivelevich LP solves"] = int(kriv.theta)
        if m <= cfg["runtime_recursive_edges_max"]:  # v1's comparator: one edge per LP solve
            rec, t_rec = _timed(krivelevich_2approx, g, tri, batch=False)
            tally.check(g, rec, tri)
            for key in ("support", "threshold"):
                tally.add(f"rt_{key}_vs_recursive_s", seconds[key])
            tally.add("rt_krivelevich_recursive_s", t_tri + t_rec)
            row["t_krivelevich_recursive_s"] = round(t_tri + t_rec, 4)
            row["krivelevich_recursive cost/LP"] = _ratio(rec.cost, lp.value)
            row["krivelevich_recursive LP solves"] = int(rec.theta)
        rows.append(row)
    return tally, rows


def _runtime_metrics(tally: _Tally) -> dict[str, float]:
    """Mean end-to-end seconds per algorithm over the runtime graphs, each with its interval, and the
    paired interval of every algorithm's mean time over Krivelevich's (same graphs)."""
    out: dict[str, float] = {}
    kriv = tally.values.get("rt_krivelevich_s", [])
    for key in _TIMED:
        times = tally.values.get(f"rt_{key}_s", [])
        out[f"rt_{key}_s"] = float(np.mean(times)) if times else math.nan
        out[f"rt_{key}_s_ci"] = ci95(times) if len(times) > 1 else math.nan
        if key != "krivelevich":
            low, high = paired_ci(times, kriv, form="ratio") if len(times) > 1 else (math.nan, math.nan)
            ckey = comparison_key(f"rt_{key}_s", "rt_krivelevich_s", "ratio")
            out[ckey + "_ci_low"], out[ckey + "_ci_high"] = low, high
    out["rt_graphs"] = float(len(kriv))
    rec = tally.values.get("rt_krivelevich_recursive_s", [])
    out["rt_krivelevich_recursive_s"] = float(np.mean(rec)) if rec else math.nan
    out["rt_krivelevich_recursive_s_ci"] = ci95(rec) if len(rec) > 1 else math.nan
    for key in ("support", "threshold"):
        times = tally.values.get(f"rt_{key}_vs_recursive_s", [])
        name = f"rt_{key}_vs_recursive_s"
        out[name] = float(np.mean(times)) if times else math.nan
        out[name + "_ci"] = ci95(times) if len(times) > 1 else math.nan
        low, high = paired_ci(times, rec, form="ratio") if len(times) > 1 else (math.nan, math.nan)
        ckey = comparison_key(name, "rt_krivelevich_recursive_s", "ratio")
        out[ckey + "_ci_low"], out[ckey + "_ci_high"] = low, high
    out["rt_recursive_graphs"] = float(len(rec))
    return out


def _scale(cfg: dict[str, Any], rng: np.random.Generator, tally: _Tally) -> dict[str, float]:
    """A planted-partition graph with about ``scale_edges`` edges (one unit): the fast path end to end."""
    part_tally, metrics = unit("scale_graph", functools.partial(_scale_graph, cfg, rng), (rng,))
    tally.merge(part_tally)
    return metrics


def _scale_graph(cfg: dict[str, Any], rng: np.random.Generator) -> tuple[_Tally, dict[str, float]]:
    """The scale unit: generate the graph, time enumeration + MWU LP + rounding, run the packing."""
    tally = _Tally()
    n = max(60, int(math.sqrt(2 * cfg["scale_edges"] / 0.05)))
    g = planted_partition(n, 4, min(1.0, 2 * cfg["scale_edges"] / (n * (n - 1))), 0.2, rng)
    start = time.perf_counter()
    tri = bad_triangles(g)
    lp = solve_cover_lp_mwu(g, tri, eps=cfg["eps"])
    f = round_lp_threshold(g, lp, tri)
    seconds = time.perf_counter() - start
    tally.check(g, f, tri)
    pack = tally.check(g, packing_3approx(g, tri), tri)
    return tally, {
        "scale_edges": float(g.m),
        "scale_bad_triangles": float(tri.shape[0]),
        "scale_runtime_s": round(seconds, 3),
        "scale_cost_over_lb": _ratio(f.cost, lp.lower_bound),
        "scale_cost_over_eps_lb": _ratio(f.cost, (1 + cfg["eps"]) * lp.lower_bound),
        "scale_packing_cost_over_lb": _ratio(pack.cost, lp.lower_bound),
        "scale_packing_cost_over_eps_lb": _ratio(pack.cost, (1 + cfg["eps"]) * lp.lower_bound),
        "scale_mwu_gap": round(lp.gap, 4),
    }


def _real_networks(cfg: dict[str, Any], tally: _Tally, table: list) -> None:
    """Highland tribes (signed, not complete) and MinSTC on karate / Les Miserables (complete views)."""
    networks = [("highland_tribes", highland_tribes(), False)]
    networks += [
        ("karate (MinSTC)", complete_from_positive(nx.karate_club_graph()), True),
        ("les_miserables (MinSTC)", complete_from_positive(nx.les_miserables_graph()), True),
    ][: cfg["stc_networks"]]
    for name, g, stc in networks:
        part_tally, row = unit(
            f"real_network={name.split()[0]}", functools.partial(_real_network, name, g, stc)
        )
        tally.merge(part_tally)
        table.append(row)


def _real_network(name: str, g: SignedGraph, stc: bool) -> tuple[_Tally, dict[str, Any]]:
    """One unit of the real networks: BTT (or MinSTC when ``stc``) on ``g`` against its baseline."""
    tally = _Tally()
    tri = bad_triangles(g)
    if stc:
        lp = solve_cover_lp(g, tri, forbid_negative=True)
        alg = tally.check(g, min_stc_2approx(g, tri), tri)
        tally.add("minstc_cost_over_lp", _ratio(alg.cost, lp.value))
    else:
        lp, found = _lp_algorithms(g, tri, tally)
        alg = found["threshold"]
    opt = tally.check(g, exact_btt(g, tri, forbid_negative=stc, time_limit=60.0), tri)
    base = tally.check(g, min_stc_matching(g, tri) if stc else packing_3approx(g, tri), tri)
    row = {
        "network": name,
        "n": g.n,
        "m": g.m,
        "bad_triangles": int(tri.shape[0]),
        "LP": round(lp.value, 4),
        "OPT": opt.cost if opt.method == "exact_btt" else math.nan,
        "alg3 (threshold)": alg.cost,
        "baseline": base.cost,
        "baseline_name": "matching" if stc else "packing",
    }
    return tally, row


def _binding(cfg: dict[str, Any], tally: _Tally, table: list) -> None:
    """The stored complete graphs with CC* > BTT*: the 3/2 bound and the pivots where the gap is real."""
    for i, (g, record) in enumerate(binding_instances()[: cfg["binding_instances"]]):
        part_tally, row = unit(f"binding={i}", functools.partial(_binding_instance, g, record))
        tally.merge(part_tally)
        table.append(row)


def _binding_instance(g: SignedGraph, record: dict[str, Any]) -> tuple[_Tally, dict[str, Any]]:
    """One binding instance: exact BTT* and CC*, the all-singletons control, both pivots on an optimal F."""
    tally = _Tally()
    tri = bad_triangles(g)
    opt = tally.check(g, exact_btt(g, tri), tri)
    cc = exact_cc(g)
    singletons = disagreements(g, np.arange(g.n))
    tally.add("binding_cc_over_btt", _ratio(cc.cost, opt.cost))
    tally.add("binding_singletons_over_btt", _ratio(singletons, opt.cost))
    tally.add("cc_over_btt", _ratio(cc.cost, opt.cost))
    tally.add("btt_over_cc", _ratio(opt.cost, cc.cost))
    pivot = transversal_to_clustering(g, opt.edge_ids)
    tally.add("binding_pivot_ratio", _ratio(pivot.cost, len(opt)))
    tally.add("pivot_ratio", _ratio(pivot.cost, len(opt)))
    budget, flip = _budget_checks(g, opt, tally, prefix="binding_") if g.n <= 10 else (math.nan, math.nan)
    return tally, {
        "n": g.n,
        "BTT*": opt.cost,
        "CC*": cc.cost,
        "CC*/BTT*": _ratio(cc.cost, opt.cost),
        "min-ratio pivot cost/|F|": _ratio(pivot.cost, len(opt)),
        "Alg. 4 E[cost]/|F|": budget,
        "flip-pivot E[cost]/|F|": flip,
        "found_by": record.get("found_by", ""),
    }


_ADVERSARIAL_MOVES = 8  # sign flips tried per restart (hill climbing on Algorithm 4's ratio)
_FIRST_RESTARTS = 150  # the adversarial claim's original restart count (see its `revised`)


def _adversarial(
    cfg: dict[str, Any], rng: np.random.Generator
) -> tuple[_Tally, dict[str, float], dict[str, Any]]:
    """Random restarts over complete graphs n = 5..8 with random minimal transversals, hill-climbing by
    single sign flips on Algorithm 4's exact E[cost]/|F|; fixed restarts and a fixed seconds cap."""
    tally = _Tally()
    start = time.perf_counter()
    best = {"budget": 0.0, "flip": 0.0, "min_ratio": 0.0}
    best_case: dict[str, Any] = {}
    restarts = evaluations = 0
    first = dict(best)  # the best finds within the first _FIRST_RESTARTS (the claim's original setting)
    for _ in range(cfg["adversarial_restarts"]):
        if time.perf_counter() - start > cfg["adversarial_seconds"]:
            break
        if restarts == _FIRST_RESTARTS:
            first = dict(best)
        restarts += 1
        n = int(rng.integers(5, 9))
        pairs = list(combinations(range(n), 2))
        density = float(rng.uniform(0.3, 0.7))
        positive = {p for p in pairs if rng.random() < density}
        current = -1.0
        for step in range(_ADVERSARIAL_MOVES):
            candidate = positive ^ {pairs[int(rng.integers(len(pairs)))]} if step else positive
            g = complete_from_positive(nodes=list(range(n)), positive_edges=candidate)
            tri = bad_triangles(g)
            if not tri.size:
                continue
            f = tally.check(g, random_minimal_transversal(g, rng, tri), tri)
            evaluations += 1
            budget, flip = _budget_checks(g, f, tally, prefix="adversarial_")
            min_ratio = _ratio(transversal_to_clustering(g, f.edge_ids).cost, len(f))
            tally.add("pivot_ratio", min_ratio)
            best["flip"] = max(best["flip"], flip)
            best["min_ratio"] = max(best["min_ratio"], min_ratio)
            if budget > best["budget"]:
                best["budget"] = budget
                best_case = {"n": n, "positive": sorted(candidate), "F": f.edge_ids.tolist(), "ratio": budget}
            if budget >= current:
                positive, current = candidate, budget
    if restarts <= _FIRST_RESTARTS:
        first = dict(best)
    metrics = {
        "adversarial_first_best_budget_ratio": first["budget"],
        "adversarial_first_best_flip_ratio": first["flip"],
        "adversarial_best_budget_ratio": best["budget"],
        "adversarial_best_flip_ratio": best["flip"],
        "adversarial_best_min_ratio": best["min_ratio"],
        "adversarial_restarts_done": float(restarts),
        "adversarial_evaluations": float(evaluations),
        "adversarial_seconds_used": round(time.perf_counter() - start, 2),
    }
    return tally, metrics, best_case


def _sparse_cc(cfg: dict[str, Any], rng: np.random.Generator) -> _Tally:
    """BTT* <= CC* on general (not complete) signed graphs: Highland tribes and small random sparse graphs,
    where missing pairs cost nothing either way."""
    tally = _Tally()
    graphs = [highland_tribes()] + [
        random_signed_graph(12, 0.4, 0.3, rng) for _ in range(cfg["sparse_cc_graphs"])
    ]
    for g in graphs:
        tri = bad_triangles(g)
        opt = tally.check(g, exact_btt(g, tri), tri)
        cc = exact_cc(g)
        tally.check(g, Transversal(clustering_mistakes(g, cc.labels), cc.cost, 0.0, "cc"), tri)
        tally.add("sparse_btt_over_cc", _ratio(opt.cost, cc.cost))
        tally.add("sparse_cc_over_btt", _ratio(cc.cost, opt.cost))
    return tally


def run(config: dict[str, Any], seed: int) -> Result:
    """Run every part; every returned edge set is checked to be a transversal."""
    check(config)
    rng = seed_everything(seed)
    tally = _Tally()
    summary: list[dict[str, Any]] = []
    per_instance: list[dict[str, Any]] = []
    runtime_rows: list[dict[str, Any]] = []
    real_rows: list[dict[str, Any]] = []
    binding_rows: list[dict[str, Any]] = []

    _atlas(config, rng, tally, summary)  # (1)
    _random_graphs(config, rng, tally, summary, per_instance)  # (2)
    _random_complete(config, rng, tally, summary)
    _binding(config, tally, binding_rows)
    adv_tally, adversarial, adv_case = unit(
        "adversarial", functools.partial(_adversarial, config, rng), (rng,)
    )
    tally.merge(adv_tally)
    series = _runtime(config, rng, tally, runtime_rows)
    scale = _scale(config, rng, tally)  # (3)
    _real_networks(config, tally, real_rows)  # (4)
    tally.merge(unit("sparse_cc", functools.partial(_sparse_cc, config, rng), (rng,)))

    ratios = tally.values.get("cost_over_opt", [])
    below = tally.values.get("below_packing", [])
    below_low, below_high = _proportion_ci(below)
    within = {k: tally.max(f"{k}_cost_over_lp") for k in ("threshold", "support", "packing", "third")}
    metrics = {
        "infeasible_sets": float(tally.infeasible),
        "sets_checked": float(tally.checked),
        "max_cost_over_lp": within["threshold"],
        "support_max_cost_over_lp": within["support"],
        "krivelevich_max_cost_over_lp": tally.max("krivelevich_cost_over_lp"),
        "packing_max_cost_over_lp": within["packing"],
        "third_max_cost_over_lp": within["third"],
        "two_approx_algorithms_within_2": float(sum(within[k] <= 2.0 for k in ("threshold", "support"))),
        "baselines_within_2": float(sum(within[k] <= 2.0 for k in ("packing", "third"))),
        "weighted_max_cost_over_lp": tally.max("weighted_cost_over_lp"),
        "weighted_support_max_cost_over_lp": tally.max("weighted_support_cost_over_lp"),
        "weighted_packing_max_cost_over_lp": tally.max("weighted_packing_cost_over_lp"),
        "max_cost_over_eps_lp": tally.max("eps_cost_over_lp"),
        "packing_max_cost_over_eps_lp": tally.max("packing_eps_cost_over_lp"),
        "mwu_max_value_over_lp": tally.max("mwu_value_over_lp"),
        "mean_cost_over_opt": tally.mean("cost_over_opt"),
        "mean_cost_over_opt_ci": ci95(ratios),
        "support_mean_cost_over_opt": tally.mean("support_cost_over_opt"),
        "krivelevich_mean_cost_over_opt": tally.mean("krivelevich_cost_over_opt"),
        "mwu_mean_cost_over_opt": tally.mean("mwu_cost_over_opt"),
        "packing_mean_cost_over_opt": tally.mean("packing_cost_over_opt"),
        "opt_instances": float(len(ratios)),
        "frac_below_packing": tally.mean("below_packing"),
        "frac_below_packing_ci_low": below_low,
        "frac_below_packing_ci_high": below_high,
        "pivot_max_ratio": tally.max("pivot_ratio"),
        "budget_pivot_max_ratio": tally.max("budget_ratio"),
        "flip_pivot_max_expected_ratio": tally.max("flip_expected_ratio"),
        "budget_transversals_tested": float(len(tally.values.get("budget_ratio", []))),
        "flip_pivot_max_mean_ratio": tally.max("flip_pivot_mean_ratio"),
        "flip_pivot_worst_ratio": tally.max("flip_pivot_worst_ratio"),
        "pivot_transversals_tested": float(len(tally.values.get("pivot_ratio", []))),
        "max_btt_over_cc": tally.max("btt_over_cc"),
        "max_cc_over_btt": tally.max("cc_over_btt"),
        "sparse_max_btt_over_cc": tally.max("sparse_btt_over_cc"),
        "sparse_max_cc_over_btt": tally.max("sparse_cc_over_btt"),
        "binding_instances_used": float(len(binding_rows)),
        "binding_max_cc_over_btt": tally.max("binding_cc_over_btt"),
        "binding_min_cc_over_btt": min(tally.values.get("binding_cc_over_btt", [math.nan])),
        "binding_max_singletons_over_btt": tally.max("binding_singletons_over_btt"),
        "binding_min_singletons_over_btt": min(tally.values.get("binding_singletons_over_btt", [math.nan])),
        "binding_pivot_max_ratio": tally.max("binding_pivot_ratio"),
        "binding_budget_max_ratio": tally.max("binding_budget_ratio"),
        "binding_flip_max_expected_ratio": tally.max("binding_flip_expected_ratio"),
        "kwik_mean_cost_over_cc": tally.mean("kwik_over_cc"),
        "lp_pivot_mean_cost_over_cc": tally.mean("lp_pivot_over_cc"),
        "minstc_max_cost_over_lp": tally.max("minstc_cost_over_lp"),
        "minstc_matching_max_cost_over_lp": tally.max("minstc_matching_cost_over_lp"),
        "minstc_mean_cost_over_opt": tally.mean("minstc_cost_over_opt"),
        **adversarial,
        **_runtime_metrics(tally),
        **scale,
    }
    blocked = {}
    if not binding_rows:
        reason = (
            "no stored complete graph with CC* > BTT* (binding_instances = 0 or none found by the search)"
        )
        blocked = {"cc_le_three_halves_binding": reason, "binding_pivot": reason}
    plots = [
        Plot(
            "runtime",
            "End-to-end time on sparse planted graphs (v1's speed claim)",
            {k: v if isinstance(v, tuple) else (series["m"], v) for k, v in series.items() if k != "m"},
            "edges",
            "seconds",
            logx=True,
            logy=True,
            claim="v1_faster_support",
        )
    ]
    notes = [
        "The paper has no experiments; these instances check its theorems (feasibility, <= 2 LP, <= 3/2 |F|).",
        "Algorithms 1-4 follow a third-party summary of the paper's body (the body itself was not readable "
        "here); the proofs in the docstrings are ours. The min-ratio pivot is our own candidate.",
        "The fast LP path is our certified MWU covering solver, not Cao et al.'s solver.",
        f"Ratios are rounded to 1e-{_ROUND} before comparison; instances where the MILP timed out are "
        f"left out of cost/OPT ({config['n_random'] - len(ratios)} of {config['n_random']}).",
        f"Adversarial pivot search: {adversarial['adversarial_restarts_done']:.0f} restarts, "
        f"{adversarial['adversarial_evaluations']:.0f} transversals, best Algorithm 4 E[cost]/|F| = "
        f"{adversarial['adversarial_best_budget_ratio']:.4f} on {adv_case}.",
    ]
    return Result(
        metrics=metrics,
        tables={
            "summary": summary,
            "per_instance": per_instance,
            "runtime": runtime_rows,
            "real": real_rows,
            "binding": binding_rows,
        },
        plots=plots,
        blocked=blocked,
        notes=notes,
    )


_INT_KEYS = (
    "atlas_stride",
    "random_minimal",
    "pivot_orders",
    "n_random",
    "n_min",
    "n_max",
    "n_complete",
    "binding_instances",
    "adversarial_restarts",
    "runtime_edges_max",
    "runtime_steps",
    "runtime_graphs",
    "runtime_recursive_edges_max",
    "scale_edges",
    "stc_networks",
    "sparse_cc_graphs",
)


_ZERO_OK = (
    "runtime_recursive_edges_max",
    "random_minimal",
    "n_complete",
    "stc_networks",
    "binding_instances",
    "adversarial_restarts",
    "sparse_cc_graphs",
)


def check(config: dict[str, Any]) -> None:
    """Raise ``ValueError`` for an out-of-range config."""
    floats = ("eps", "milp_time_limit", "runtime_milp_time_limit", "adversarial_seconds")
    missing = [k for k in (*_INT_KEYS, *floats) if k not in config]
    if missing:
        raise ValueError(f"config is missing keys {missing}")
    for k in _INT_KEYS:
        v = config[k]
        lowest = 0 if k in _ZERO_OK else 1
        if isinstance(v, bool) or not isinstance(v, int) or v < lowest:
            raise ValueError(f"config[{k!r}] must be an integer >= {lowest}, got {v!r}")
    if not 3 <= config["n_min"] <= config["n_max"]:
        raise ValueError(f"need 3 <= n_min <= n_max, got {config['n_min']}, {config['n_max']}")
    if config["stc_networks"] > 2:
        raise ValueError(
            f"stc_networks must be 0, 1 (karate) or 2 (+ Les Miserables), got {config['stc_networks']}"
        )
    if config["runtime_edges_max"] < 1000:
        raise ValueError(f"runtime_edges_max must be >= 1000, got {config['runtime_edges_max']}")
    if not 0 < config["eps"] < 1:
        raise ValueError(f"eps must be in (0, 1), got {config['eps']!r}")
    if not config["milp_time_limit"] > 0:
        raise ValueError(f"milp_time_limit must be > 0 seconds, got {config['milp_time_limit']!r}")
    if not config["runtime_milp_time_limit"] > 0:
        raise ValueError(
            f"runtime_milp_time_limit must be > 0 seconds, got {config['runtime_milp_time_limit']!r}"
        )
    if not config["adversarial_seconds"] > 0:
        raise ValueError(f"adversarial_seconds must be > 0, got {config['adversarial_seconds']!r}")


_ATLAS_GRAPHS = 1249  # graphs of networkx.graph_atlas_g() with 3..7 nodes


def cost(config: dict[str, Any]) -> tuple[float, float]:
    """A rough ``(seconds, bytes)`` for one runner seed on 2 CPU cores, part by part.

    Calibrated on small timed samples on 2 shared cores: an atlas graph about 40 ms (with Algorithms 1,
    2 and 4's exact expectation) plus 0.15 ms per flip-pivot order, a complete graph n = 8..12 about 30 ms,
    an adversarial evaluation about 30 ms (capped by ``adversarial_seconds``), a runtime graph about
    1 s per 10^4 edges plus a share of ``milp_time_limit``, the scale graph about 16 us and 0.7 kB per edge.
    """
    milp = float(config["milp_time_limit"])
    flips = (2 + config["random_minimal"]) * config["pivot_orders"]  # flip-pivot runs per atlas graph
    atlas = math.ceil(_ATLAS_GRAPHS / config["atlas_stride"]) * (0.04 + 1.5e-4 * flips)
    n_mean = (config["n_min"] + config["n_max"]) / 2
    random = config["n_random"] * (0.05 * (n_mean / 45) ** 3 + 0.015 * milp)
    complete = config["n_complete"] * (0.03 + 2e-4 * 3 * config["pivot_orders"])
    binding = 2.0 * config["binding_instances"]
    adversarial = min(
        config["adversarial_seconds"], 0.03 * _ADVERSARIAL_MOVES * config["adversarial_restarts"]
    )
    sizes = config["runtime_steps"] * config["runtime_graphs"]
    runtime = sizes * (1.0 + 1e-4 * config["runtime_edges_max"] + 0.5 * config["runtime_milp_time_limit"])
    rec_sizes = np.geomspace(1000, config["runtime_edges_max"], config["runtime_steps"]).astype(int)
    rec_sizes = rec_sizes[rec_sizes <= config["runtime_recursive_edges_max"]]
    runtime += config["runtime_graphs"] * float(np.sum(5.0 * (rec_sizes / 1000.0) ** 3))
    scale = 1.6e-5 * config["scale_edges"]
    real = 0.5 + 0.5 * config["stc_networks"] + 0.3 * config["sparse_cc_graphs"]
    seconds = 1.0 + atlas + random + complete + binding + adversarial + runtime + scale + real
    # memory: the interpreter with numpy/scipy/networkx/HiGHS (~300 MB), plus the largest graph
    graph_bytes = max(
        1000.0 * config["scale_edges"],
        250.0 * config["n_max"] ** 2 + 2.0 * config["n_max"] ** 3,
        3000.0 * config["runtime_edges_max"],
    )
    return seconds, 400e6 + 2 * graph_bytes


_SMOKE = {
    "atlas_stride": 60,
    "random_minimal": 1,
    "pivot_orders": 3,
    "n_random": 4,
    "n_min": 20,
    "n_max": 25,
    "n_complete": 3,
    "binding_instances": 1,
    "adversarial_restarts": 2,
    "adversarial_seconds": 5.0,
    "runtime_edges_max": 1000,
    "runtime_steps": 1,
    "runtime_graphs": 2,
    "runtime_recursive_edges_max": 0,  # skipped: the recursive variant takes ~5 s per 10^3-edge graph
    "runtime_milp_time_limit": 1.0,
    "scale_edges": 2000,
    "stc_networks": 0,
    "sparse_cc_graphs": 1,
    "eps": 0.1,
    "milp_time_limit": 10.0,
}
_QUICK = {
    "atlas_stride": 1,
    "random_minimal": 3,
    "pivot_orders": 10,
    "n_random": 60,
    "n_min": 30,
    "n_max": 60,
    "n_complete": 200,
    "binding_instances": 20,
    "adversarial_restarts": 1000,
    "adversarial_seconds": 40.0,
    "runtime_edges_max": 10_000,
    "runtime_steps": 3,
    "runtime_graphs": 3,
    "runtime_recursive_edges_max": 1_000,  # only the 10^3 size: ~5 s a graph (2 min at 3.2x10^3)
    "runtime_milp_time_limit": 5.0,
    "scale_edges": 100_000,
    "stc_networks": 2,
    "sparse_cc_graphs": 10,
    "eps": 0.1,
    "milp_time_limit": 20.0,
}
_PAPER = {
    **_QUICK,
    "n_random": 200,
    "pivot_orders": 50,
    "adversarial_restarts": 5000,
    "adversarial_seconds": 150.0,
    "runtime_edges_max": 100_000,
    "runtime_steps": 5,
    "runtime_graphs": 3,
    "runtime_recursive_edges_max": 5_000,  # 10^3 and 3.2x10^3 edges; 10^4 would take ~10 min a graph
    "runtime_milp_time_limit": 5.0,
    "scale_edges": 300_000,
    "sparse_cc_graphs": 30,
}

_V1 = "arXiv v1 abstract (dropped in v2): 'much simpler and faster than a folklore adaptation of Krivelevich'"

from icml26.common.schema import Float, Int  # noqa: E402 (the schema block sits beside the experiment)

SCHEMA = {  # each profile key's type and range (icml26.common.schema); check() keeps the cross-key rules
    ("atlas_stride", "pivot_orders", "n_random"): Int(1, 10**6),
    ("random_minimal", "n_complete", "binding_instances", "sparse_cc_graphs"): Int(0, 10**5),
    ("n_min", "n_max"): Int(3, 1000),
    "adversarial_restarts": Int(0, 10**7),
    ("adversarial_seconds", "runtime_milp_time_limit", "milp_time_limit"): Float(0, 86400, low_open=True),
    "runtime_edges_max": Int(1000, 10**8),
    "runtime_steps": Int(1, 100),
    "runtime_graphs": Int(1, 1000),
    "runtime_recursive_edges_max": Int(0, 10**8),
    "scale_edges": Int(1, 10**8),
    "stc_networks": Int(0, 2),
    "eps": Float(0, 1, low_open=True, high_open=True),
}


EXPERIMENT = Experiment(
    method="bad_triangles",
    title="Simple Algorithms for Bad Triangle Transversals with Applications to Correlation Clustering",
    paper="Adriaens & Tatti, ICML 2026 (PMLR 306), arXiv:2602.04463",
    run=run,
    profiles={"smoke": _SMOKE, "quick": _QUICK, "paper": _PAPER},
    claims=(
        Claim(
            "transversal",
            "Every returned edge set hits every bad triangle (all algorithms, all instances)",
            "every set",
            "infeasible_sets",
            "<=",
            0.0,
            kind="check",
            unit="sets",
            scale="exact",
            scale_note="checked exactly on every returned set; the roundings enforce feasibility themselves",
            context=("sets_checked",),
        ),
        Claim(
            "several_two_approx",
            "Several 2-approximations: Algorithms 2 and 3 each hold w(F) <= 2 LP on every instance",
            "several 2-approximations",
            "two_approx_algorithms_within_2",
            ">=",
            2.0,
            kind="paper",
            unit="algorithms",
            scale="exact",
            scale_note="counts the paper's algorithms whose cost <= 2 LP held (to 1e-9) on every instance",
            controls=("baselines_within_2",),
            context=("krivelevich_max_cost_over_lp",),
        ),
        Claim(
            "two_approx_lp",
            "Algorithm 3 (threshold rounding, derandomised): w(F) <= 2 LP on every instance",
            "<= 2",
            "max_cost_over_lp",
            "<=",
            2.0,
            kind="paper",
            unit="×",
            scale="exact",
            scale_note="a per-instance guarantee, checked (to 1e-9) on every instance against the exact LP",
            controls=("packing_max_cost_over_lp", "third_max_cost_over_lp"),
        ),
        Claim(
            "two_approx_support",
            "Algorithm 2 (support rounding of an optimal LP point): w(F) <= 2 LP on every instance",
            "<= 2",
            "support_max_cost_over_lp",
            "<=",
            2.0,
            kind="paper",
            unit="×",
            scale="exact",
            scale_note="a per-instance guarantee, checked (to 1e-9) on every instance against the exact LP",
            controls=("packing_max_cost_over_lp", "third_max_cost_over_lp"),
            context=("weighted_support_max_cost_over_lp",),
        ),
        Claim(
            "krivelevich_factor",
            "Comparator Algorithm 1 (folklore Krivelevich): w(F) <= 2 LP on every instance",
            "<= 2 (Krivelevich 1995)",
            "krivelevich_max_cost_over_lp",
            "<=",
            2.0,
            kind="check",
            unit="×",
            scale="exact",
            scale_note="a per-instance guarantee of the comparator, checked (to 1e-9) on every instance",
            controls=("packing_max_cost_over_lp",),
        ),
        Claim(
            "two_approx_weighted",
            "Weighted BTT (weights 1..10), Algorithm 3: w(F) <= 2 LP",
            "<= 2",
            "weighted_max_cost_over_lp",
            "<=",
            2.0,
            kind="paper",
            unit="×",
            scale="exact",
            scale_note="a per-instance guarantee, checked (to 1e-9) on every weighted instance",
            controls=("weighted_packing_max_cost_over_lp",),
        ),
        Claim(
            "two_approx_eps",
            "Algorithm 3 from a feasible (1+eps)-suboptimal LP point (incl. the MWU solver): w(F) <= 2 (1+eps) LP",
            "<= 2(1+eps)",
            "max_cost_over_eps_lp",
            "<=",
            2.0,
            kind="paper",
            unit="×",
            scale="exact",
            scale_note="a per-point guarantee, checked (to 1e-9) on every suboptimal point of every random graph",
            controls=("packing_max_cost_over_eps_lp",),
            context=("mwu_max_value_over_lp",),
        ),
        Claim(
            "v1_faster_support",
            "v1: Algorithm 2 faster than the folklore Krivelevich adaptation (recursive: one edge per LP "
            "solve; mean end-to-end time, sparse planted graphs up to {runtime_recursive_edges_max} edges)",
            "faster (v1 abstract)",
            "rt_support_vs_recursive_s",
            "<",
            1.0,
            kind="paper",
            unit="s",
            relative_to=("rt_krivelevich_recursive_s",),
            form="ratio",
            scale_note=f"{_V1}; laptop timings on our planted graphs, interval over graphs; the recursive "
            "variant is O(m) LP solves, so it runs only on the small sizes",
            context=("rt_recursive_graphs", "rt_krivelevich_s"),
            revised="2026-12-01: compared with the one-LP batch variant, verdict then inconclusive (interval [0.98, 1.01] quick); v1's comparator is the recursive one",
        ),
        Claim(
            "v1_faster_threshold",
            "v1: Algorithm 3 faster than the folklore Krivelevich adaptation (recursive: one edge per LP "
            "solve; mean end-to-end time, sparse planted graphs up to {runtime_recursive_edges_max} edges)",
            "faster (v1 abstract)",
            "rt_threshold_vs_recursive_s",
            "<",
            1.0,
            kind="paper",
            unit="s",
            relative_to=("rt_krivelevich_recursive_s",),
            form="ratio",
            scale_note=f"{_V1}; laptop timings on our planted graphs, interval over graphs; the recursive "
            "variant is O(m) LP solves, so it runs only on the small sizes",
            context=("rt_recursive_graphs", "rt_krivelevich_s"),
            revised="2026-12-01: compared with the one-LP batch variant, verdict then inconclusive (interval [0.98, 1.01] quick); v1's comparator is the recursive one",
        ),
        Claim(
            "v1_faster_support_batch",
            "v1 (original setting): Algorithm 2 faster than the one-LP batch Krivelevich variant (every "
            "x_e >= 1/2 per solve; mean end-to-end time, sparse planted graphs up to {runtime_edges_max} edges)",
            "faster (v1 abstract)",
            "rt_support_s",
            "<",
            1.0,
            kind="paper",
            unit="s",
            relative_to=("rt_krivelevich_s",),
            form="ratio",
            scale_note=f"{_V1}; laptop timings on our planted graphs, interval over graphs",
            context=("rt_graphs",),
        ),
        Claim(
            "v1_faster_threshold_batch",
            "v1 (original setting): Algorithm 3 faster than the one-LP batch Krivelevich variant (every "
            "x_e >= 1/2 per solve; mean end-to-end time, sparse planted graphs up to {runtime_edges_max} edges)",
            "faster (v1 abstract)",
            "rt_threshold_s",
            "<",
            1.0,
            kind="paper",
            unit="s",
            relative_to=("rt_krivelevich_s",),
            form="ratio",
            scale_note=f"{_V1}; laptop timings on our planted graphs, interval over graphs",
            context=("rt_mwu_s", "rt_packing_s"),
        ),
        Claim(
            "mean_cost_over_opt",
            "Random graphs n={n_min}..{n_max}: mean cost/OPT of Algorithm 3 <= 1.15",
            "<= 1.15 (issue target)",
            "mean_cost_over_opt",
            "<=",
            1.15,
            kind="check",
            unit="×",
            scale_note="laptop proxy: our own random graphs n=30..60 (the paper has no experiments)",
            context=(
                "support_mean_cost_over_opt",
                "krivelevich_mean_cost_over_opt",
                "packing_mean_cost_over_opt",
                "mwu_mean_cost_over_opt",
                "opt_instances",
            ),
        ),
        Claim(
            "below_packing",
            "Cost strictly below the packing 3-approximation on >= 95% of random instances",
            ">= 95% (issue target)",
            "frac_below_packing",
            ">=",
            0.95,
            kind="check",
            scale_note="laptop proxy: our own random graphs n=30..60 (the paper has no experiments)",
            context=("opt_instances",),
        ),
        Claim(
            "budget_pivot_three_halves",
            "Algorithm 4 (pivot with F-dependent probabilities): E[cost] <= 3/2 |F| for every transversal "
            "tested (exact expectation; atlas, random complete n <= 9, binding and adversarial instances)",
            "<= 1.5 |F|",
            "budget_pivot_max_ratio",
            "<=",
            1.5,
            kind="paper",
            unit="×",
            scale="exact",
            scale_note="the expectation is computed exactly (programme over node subsets) for every transversal",
            controls=("flip_pivot_max_expected_ratio",),
            context=("budget_transversals_tested",),
        ),
        Claim(
            "adversarial_pivot",
            "Adversarial search ({adversarial_restarts} restarts, <= {adversarial_seconds} s): best "
            "Algorithm 4 E[cost]/|F| found stays <= 3/2",
            "<= 1.5 |F|",
            "adversarial_best_budget_ratio",
            "<=",
            1.5,
            kind="paper",
            unit="×",
            scale="exact",
            scale_note="exact expectations on every instance the search visited; the best find is reported",
            controls=("adversarial_best_flip_ratio",),
            context=("adversarial_restarts_done", "adversarial_evaluations", "adversarial_best_min_ratio"),
            revised="2026-12-01: 150 restarts within 30 s, verdict then verified (best 1.25, flip-pivot 1.311); "
            "raised to 1000 restarts / 40 s in quick because 150 used 3.5 s of the cap",
        ),
        Claim(
            "adversarial_pivot_first",
            "Adversarial search, original setting (its first 150 restarts, same generator): best "
            "Algorithm 4 E[cost]/|F| stays <= 3/2",
            "<= 1.5 |F|",
            "adversarial_first_best_budget_ratio",
            "<=",
            1.5,
            kind="paper",
            unit="×",
            scale="exact",
            scale_note="exact expectations on every instance of the first 150 restarts",
            controls=("adversarial_first_best_flip_ratio",),
        ),
        Claim(
            "pivot_three_halves",
            "Our min-ratio pivot (a reconstruction, not the paper's): cost <= 3/2 |F| for every transversal tested",
            "<= 1.5 |F| (our candidate)",
            "pivot_max_ratio",
            "<=",
            1.5,
            kind="check",
            unit="×",
            scale="exact",
            scale_note="a per-transversal bound of our own procedure, checked exactly on every transversal",
            controls=("flip_pivot_max_mean_ratio", "flip_pivot_worst_ratio"),
            context=("pivot_transversals_tested",),
        ),
        Claim(
            "cc_le_three_halves_binding",
            "CC* <= 3/2 BTT* on the stored complete graphs where CC* > BTT* (the bound binds)",
            "CC* <= 1.5 BTT*",
            "binding_max_cc_over_btt",
            "<=",
            1.5,
            kind="paper",
            unit="×",
            scale="exact",
            scale_note="exact BTT and CC optima on every stored binding instance",
            controls=("binding_min_singletons_over_btt",),
            context=("binding_instances_used", "binding_min_cc_over_btt"),
        ),
        Claim(
            "binding_pivot",
            "Algorithm 4 on an optimal F of every binding instance: E[cost] <= 3/2 |F|",
            "<= 1.5 |F|",
            "binding_budget_max_ratio",
            "<=",
            1.5,
            kind="paper",
            unit="×",
            scale="exact",
            scale_note="exact expectation on every stored binding instance (n <= 10)",
            controls=("binding_flip_max_expected_ratio",),
            context=("binding_pivot_max_ratio",),
        ),
        Claim(
            "btt_le_cc",
            "BTT* <= CC* on all solved complete graphs",
            "BTT* <= CC* (identity)",
            "max_btt_over_cc",
            "<=",
            1.0,
            kind="check",
            unit="×",
            scale="exact",
            scale_note="an identity (a clustering's mistakes are a transversal), checked with exact optima",
        ),
        Claim(
            "btt_le_cc_sparse",
            "BTT* <= CC* on general signed graphs (Highland tribes, random sparse n = 12)",
            "BTT* <= CC* (identity)",
            "sparse_max_btt_over_cc",
            "<=",
            1.0,
            kind="check",
            unit="×",
            scale="exact",
            scale_note="an identity on general graphs too, checked with exact optima (CC over edges only)",
            context=("sparse_max_cc_over_btt",),
        ),
        Claim(
            "cc_le_three_halves_btt",
            "CC* <= 3/2 BTT* on all solved complete graphs (mostly CC* = BTT*: see the binding claim)",
            "CC* <= 1.5 BTT*",
            "max_cc_over_btt",
            "<=",
            1.5,
            kind="check",
            unit="×",
            scale="exact",
            scale_note="a per-instance bound, checked with exact BTT and CC optima on every instance",
            context=("kwik_mean_cost_over_cc", "lp_pivot_mean_cost_over_cc"),
        ),
        Claim(
            "minstc_two_approx",
            "MinSTC (negatives undeletable): w(F) <= 2 LP",
            "<= 2 (our corollary of the rounding)",
            "minstc_max_cost_over_lp",
            "<=",
            2.0,
            kind="check",
            unit="×",
            scale="exact",
            scale_note="a per-instance guarantee, checked (to 1e-9) on every instance against the exact STC LP",
            controls=("minstc_matching_max_cost_over_lp",),
            deterministic=True,
        ),
        Claim(
            "fast_path_runtime",
            "(2+eps)-approximation on a graph of about {scale_edges} edges well under a minute (2 cores)",
            "< 60 s (our engineering target)",
            "scale_runtime_s",
            "<",
            60.0,
            kind="check",
            unit="s",
            scale_note="one timing of one graph on a shared laptop (no interval)",
            context=("scale_edges", "scale_bad_triangles"),
        ),
        Claim(
            "fast_path_bound",
            "Fast path at scale: cost <= 2 (1+eps) x certified LP lower bound",
            "<= 2(1+eps)",
            "scale_cost_over_eps_lb",
            "<=",
            2.0,
            kind="paper",
            unit="×",
            scale="exact",
            scale_note="a per-instance guarantee against a certified dual bound, checked on the instance",
            controls=("scale_packing_cost_over_eps_lb",),
            context=("scale_edges", "scale_mwu_gap"),
        ),
    ),
    description=__doc__ or "",
    check=check,
    schema=SCHEMA,
    cost=cost,
    resources=Resources(cpus=1),  # numpy/scipy/HiGHS on one core per seed; memory comes from cost()
    names={
        "sets_checked": "sets checked",
        "baselines_within_2": "3-approximations (packing, x >= 1/3) within 2 LP",
        "packing_max_cost_over_lp": "packing 3-approx (max cost/LP)",
        "third_max_cost_over_lp": "x >= 1/3 rounding (max cost/LP)",
        "krivelevich_max_cost_over_lp": "Alg. 1 Krivelevich (max cost/LP)",
        "weighted_support_max_cost_over_lp": "Alg. 2, weighted (max cost/LP)",
        "weighted_packing_max_cost_over_lp": "weighted packing / local ratio (max cost/LP)",
        "packing_max_cost_over_eps_lp": "packing 3-approx (max cost/((1+eps) LP))",
        "mwu_max_value_over_lp": "MWU LP value / exact LP (max)",
        "rt_krivelevich_s": "Alg. 1 Krivelevich, one-LP batch (mean s)",
        "rt_krivelevich_recursive_s": "Alg. 1 Krivelevich, recursive (mean s)",
        "rt_support_vs_recursive_s": "Alg. 2 on the recursive-timed graphs (mean s)",
        "rt_threshold_vs_recursive_s": "Alg. 3 on the recursive-timed graphs (mean s)",
        "rt_recursive_graphs": "graphs timed with the recursive Krivelevich",
        "rt_mwu_s": "Alg. 3 from the MWU LP (mean s)",
        "rt_packing_s": "packing 3-approx (mean s)",
        "rt_graphs": "timed graphs",
        "support_mean_cost_over_opt": "Alg. 2 (mean cost/OPT)",
        "krivelevich_mean_cost_over_opt": "Alg. 1 Krivelevich (mean cost/OPT)",
        "packing_mean_cost_over_opt": "packing 3-approx (mean cost/OPT)",
        "mwu_mean_cost_over_opt": "Alg. 3 from the MWU LP (mean cost/OPT)",
        "opt_instances": "MILP-solved graphs",
        "flip_pivot_max_expected_ratio": "Veldt flip-pivot (max over F of exact E[cost]/|F|)",
        "budget_transversals_tested": "transversals (exact expectation)",
        "adversarial_best_flip_ratio": "Veldt flip-pivot (best find of the same search)",
        "adversarial_first_best_flip_ratio": "Veldt flip-pivot (best find, first 150 restarts)",
        "adversarial_restarts_done": "restarts run",
        "adversarial_evaluations": "transversals evaluated",
        "adversarial_best_min_ratio": "our min-ratio pivot (best find)",
        "flip_pivot_max_mean_ratio": "Veldt flip-pivot (max over F of mean cost/|F|)",
        "flip_pivot_worst_ratio": "Veldt flip-pivot (worst order, cost/|F|)",
        "pivot_transversals_tested": "transversals tested",
        "binding_min_singletons_over_btt": "all singletons (min cost/BTT*)",
        "binding_instances_used": "binding instances",
        "binding_min_cc_over_btt": "min CC*/BTT*",
        "binding_flip_max_expected_ratio": "Veldt flip-pivot (max exact E[cost]/|F|)",
        "binding_pivot_max_ratio": "our min-ratio pivot (max cost/|F|)",
        "sparse_max_cc_over_btt": "max CC*/BTT* (general graphs)",
        "kwik_mean_cost_over_cc": "KwikCluster (mean cost/CC*)",
        "lp_pivot_mean_cost_over_cc": "LP-pivot (mean cost/CC*)",
        "minstc_matching_max_cost_over_lp": "Sintos-Tsaparas matching (max cost/LP)",
        "scale_edges": "edges",
        "scale_bad_triangles": "bad triangles",
        "scale_mwu_gap": "MWU certified gap",
        "scale_packing_cost_over_eps_lb": "packing 3-approx (cost/((1+eps) LB))",
    },
)
