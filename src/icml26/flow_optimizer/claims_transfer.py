"""The zero-shot BBOB transfer test (issue 49), declared here because ``claims.py`` is at its size limit.

The abstract's only words on generalisation are about dimension (x10, the PaperClaim ``generalizes_10x``);
it claims nothing about unseen function families. The test therefore supports the closest PaperClaim,
``consistently_outperforms`` (IPOP-CMA-ES is a well-established sampling-based method), and counts only
with every one of BBOB's 24 functions (``requires``: ``bbob_stride == 1``); quick's slice of six is a check.

Rule, written before the first run (2026-12-02): FlowOptimizer's mixture-class weights (gradient-free,
trained on ``mixture.py``'s class at d = 10, never on a BBOB function) win a majority (> 0.5) of the
(function, instance) pairs at ``{budget}`` evaluations, a win being a final precision ``best f - f_opt``
(floored at 1e-8) below both IPOP-CMA-ES runs' (random start, and FlowOptimizer's start information);
ties count one half. Interval: a bootstrap over functions. Control: the shipped Rastrigin gradient-free
weights under the same rule (the held-out kit's 2 of 50), and the mixture's stage-1-only checkpoint.

Revision (2026-12-02, before any 24-function or second-seed measurement): the measured quantity is the
win fraction pooled over two training seeds of the mixture weights (same class, settings and budget;
``mixture-10-gradfree`` and ``-s1``), its interval a bootstrap over training seeds and functions; the
threshold (> 0.5) and the win are unchanged; the seed-0 figure stays shown.
"""

from __future__ import annotations

from icml26.common import Claim, Revision

TRANSFER_TESTS = (
    Claim(
        "bbob_transfer_vs_ipop",
        "zero-shot on BBOB (ioh) at d = {dim}, {budget} evaluations, functions 1..24 with stride {bbob_stride},"
        " instances 1..{bbob_instances}: the mixture-class gradient-free weights (two training seeds, pooled) win"
        " more than half of the"
        " (function, instance) pairs against IPOP-CMA-ES (a win: final precision below both IPOP-CMA-ES"
        " starts'; ties one half)",
        "consistently outperforms well-established sampling-based methods (read as: a majority of pairs;"
        " the paper gives no number and no cross-family transfer claim)",
        "bbob_win_fraction_flow_mix_seeds",
        ">",
        0.5,
        kind="paper",
        supports="consistently_outperforms",
        scale_note="laptop proxy: CPU-trained mixture weights (1,500 + 60 iterations), BBOB's own functions"
        " and instances through ioh, unseen in training; two training seeds (the interval resamples seeds"
        " and functions)",
        controls=("bbob_win_fraction_flow_rastrigin_gf", "bbob_win_fraction_flow_mix_stage1"),
        shown=(
            "bbob_win_fraction_flow_mix",
            "bbob_win_fraction_flow_mix_s1",
            "bbob_win_fraction_flow_mix_vs_cma_ipop",
            "bbob_win_fraction_flow_mix_vs_cma_ipop_centre",
            "bbob_pairs",
            "bbob_nfev_max_flow_mix",
            "bbob_nfev_max_cma_ipop",
        ),
        requires=(("bbob_stride", "==", 1),),
        settings=("bbob_instances", "bbob_stride"),
        title="BBOB 24 zero-shot: mixture weights win > half the pairs vs IPOP-CMA-ES",
        revisions=(
            Revision(
                "2026-12-02",
                "bbob_win_fraction_flow_mix > 0.5: the seed-0 mixture weights only, interval over functions",
                "refuted",
                "issue 49 asks for an interval over training seeds: the rule now pools two training seeds of"
                " the same class and budget (threshold and win unchanged), decided before any 24-function or"
                " second-seed measurement; the old verdict is the quick record's check (1 of 6 pairs)",
                "20261202T053156300156Z",
            ),
        ),
    ),
)

TRANSFER_NAMES = {
    "flow_mix": "FlowOptimizer, mixture-class gradient-free weights",
    "flow_mix_s1": "FlowOptimizer, mixture-class gradient-free weights, training seed 1",
    "flow_mix_seeds": "FlowOptimizer, mixture-class weights, two training seeds pooled",
    "flow_mix_stage1": "FlowOptimizer, mixture class, stage 1 only",
    "flow_rastrigin_gf": "FlowOptimizer, Rastrigin gradient-free weights",
    "flow_mix_vs_cma_ipop": "mixture weights vs IPOP-CMA-ES (random start) only",
    "flow_mix_vs_cma_ipop_centre": "mixture weights vs IPOP-CMA-ES (centred start) only",
}
