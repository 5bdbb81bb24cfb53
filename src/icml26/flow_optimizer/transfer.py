"""The experiment's BBOB transfer part: mixture-class weights zero-shot on BBOB against IPOP-CMA-ES.

Functions ``1, 1 + bbob_stride, ...`` of BBOB's 24 (stride 1: all; quick's stride 4 takes f1, f5, f9,
f13, f17, f21, one or two from each of BBOB's five groups), instances ``1..bbob_instances``, at the
experiment's ``dim`` and ``budget``; methods and the win rule in :mod:`icml26.flow_optimizer.bbob`.
Two training seeds of the mixture weights run on every pair (``flow_mix``: seed 0, ``flow_mix_s1``:
seed 1; shipped, or trained here with the run seed and the run seed + 1); ``bbob_win_fraction_flow_mix_seeds``
is their pooled win fraction, its interval from a bootstrap over training seeds and functions.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from icml26.common import progress, unit
from icml26.flow_optimizer.bbob import IPOP, clustered_interval, seed_clustered_interval, transfer_pair, wins
from icml26.flow_optimizer.mixture import MixtureClass
from icml26.flow_optimizer.models import train_or_load
from icml26.flow_optimizer.optimizer import FlowOptimizer
from icml26.flow_optimizer.problems import ProblemClass

FLOWS = ("flow_mix", "flow_mix_s1", "flow_mix_stage1", "flow_rastrigin_gf")


def bbob_functions(stride: int) -> list[int]:
    """BBOB function ids ``1, 1 + stride, ...`` up to 24."""
    return list(range(1, 25, stride))


def _models(config: dict[str, Any], seed: int, models: dict[str, Any]) -> dict[str, FlowOptimizer]:
    d = config["dim"]
    mix, mix_stage1 = unit(
        "model_mixture_gradfree",
        lambda: train_or_load(f"mixture-{d}-gradfree", MixtureClass(d), config, seed, False),
    )
    mix_s1, _ = unit(
        "model_mixture_gradfree_s1",
        lambda: train_or_load(f"mixture-{d}-gradfree-s1", MixtureClass(d), config, seed + 1, False),
    )
    rastrigin = models.get("rastrigin_gf")
    if rastrigin is None:  # pragma: no cover - load_models always provides it
        rastrigin, _ = train_or_load(
            f"rastrigin-{d}-gradfree", ProblemClass("rastrigin", d), config, seed, False
        )
    return {
        "flow_mix": mix,
        "flow_mix_s1": mix_s1,
        "flow_mix_stage1": mix_stage1,
        "flow_rastrigin_gf": rastrigin,
    }


def run_bbob(
    config: dict[str, Any], seed: int, models: dict[str, Any]
) -> tuple[dict[str, float], list[dict[str, Any]], list[str]]:
    """Metrics ``bbob_*``, the per-pair table and a note."""
    d, budget = config["dim"], config["budget"]
    fids, iids = bbob_functions(config["bbob_stride"]), range(1, config["bbob_instances"] + 1)
    flows = _models(config, seed, models)
    precision: dict[str, list[float]] = {m: [] for m in (*FLOWS, *IPOP)}
    nfev: dict[str, list[int]] = {m: [] for m in precision}
    function_of_pair, rows = [], []
    for fid in progress(fids, "BBOB transfer"):
        for iid in iids:
            out = unit(f"bbob_f{fid}_i{iid}", partial(transfer_pair, fid, iid, d, budget, flows, seed))
            for method, r in out.items():
                if r["nfev"] != r["counted"] or r["nfev"] > budget:
                    raise RuntimeError(
                        f"{method} on f{fid} i{iid}: {r['nfev']} reported, {r['counted']} counted"
                    )
                precision[method].append(r["precision"])
                nfev[method].append(r["nfev"])
            function_of_pair.append(fid)
            rows.append({"function": f"f{fid}", "instance": iid, **{m: out[m]["precision"] for m in out}})
    fn = np.array(function_of_pair)
    ipop = [np.array(precision[m]) for m in IPOP]
    metrics: dict[str, float] = {"bbob_pairs": float(len(fn)), "bbob_n_functions": float(len(fids))}
    for method in FLOWS:
        won = wins(np.array(precision[method]), ipop)
        key = f"bbob_win_fraction_{method}"
        metrics[key] = float(won.mean())
        low, high = clustered_interval(won, fn, seed)
        if np.isfinite(low):
            metrics[key + "_ci_low"], metrics[key + "_ci_high"] = low, high
        metrics[f"bbob_median_log10_precision_{method}"] = float(np.median(np.log10(precision[method])))
    seeds = np.stack([wins(np.array(precision[m]), ipop) for m in ("flow_mix", "flow_mix_s1")])
    metrics["bbob_win_fraction_flow_mix_seeds"] = float(seeds.mean())
    low, high = seed_clustered_interval(seeds, fn, seed)
    if np.isfinite(low):
        metrics["bbob_win_fraction_flow_mix_seeds_ci_low"] = low
        metrics["bbob_win_fraction_flow_mix_seeds_ci_high"] = high
    for base, theirs in zip(IPOP, ipop):
        metrics[f"bbob_win_fraction_flow_mix_vs_{base}"] = float(
            wins(np.array(precision["flow_mix"]), [theirs]).mean()
        )
        metrics[f"bbob_median_log10_precision_{base}"] = float(np.median(np.log10(theirs)))
    metrics["bbob_nfev_max_flow_mix"] = float(max(nfev["flow_mix"]))
    metrics["bbob_nfev_max_cma_ipop"] = float(max(max(nfev[m]) for m in IPOP))
    metrics["bbob_nfev_min_cma_ipop"] = float(min(min(nfev[m]) for m in IPOP))  # a restart may stop short
    note = (
        f"BBOB transfer: ioh's BBOB f{', f'.join(map(str, fids))} (instances 1..{config['bbob_instances']}), "
        f"d={d}, {budget} evaluations counted by ioh; precision = best f - f_opt floored at 1e-8; flow_mix is "
        "trained on the mixture class (mixture.py), never on a BBOB function (flow_mix_s1: a second training "
        "seed); a win needs a precision below both IPOP-CMA-ES starts' (ties one half); the intervals "
        "resample functions, and for flow_mix_seeds the two training seeds too"
    )
    return metrics, rows, [note]
