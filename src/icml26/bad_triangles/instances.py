"""The experiment's instance suites and what every algorithm does on them: the graph atlas, random signed
and planted-partition graphs (with (1+eps)-suboptimal LP points), random complete graphs for the pivot, and the
shared tally of ratios and feasibility checks (parts 1-2 of the experiment)."""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator
from typing import Any

import networkx as nx
import numpy as np

from icml26.bad_triangles.baselines import (
    exact_btt,
    min_stc_matching,
    packing_3approx,
    random_minimal_transversal,
)
from icml26.bad_triangles.datasets import (
    planted_partition,
    random_signed_graph,
)
from icml26.bad_triangles.graph import SignedGraph, complete_from_positive
from icml26.bad_triangles.lp import solve_cover_lp, solve_cover_lp_mwu
from icml26.bad_triangles.pivot import (
    budget_pivot_expected_cost,
    clustering_mistakes,
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
    progress,
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
