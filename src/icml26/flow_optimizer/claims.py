"""What the paper claims and how each claim is tested (declarations only; read beside the abstract).

The abstract (Saravanos, So, Ahmad, Fan, ICML 2026) makes three testable claims: FlowOptimizer
consistently outperforms traditional and learning-to-optimize methods, often by orders of magnitude, and
it generalises from low-dimensional training to 10x higher-dimensional problems. Its description of the
method (velocity field, two training stages, self-supervision) is background.

History: issue 16 (2026-12-01) changed the setting of every test measured before it (the wide prior with
re-trained weights, centred starts for the sampling baselines, DC-OPF on case30 with binding limits, a
4-minute quick); a review the same day widened every small-sample comparison interval. Each change is a
Revision of its test with the verdict it had then.
"""

from __future__ import annotations

from typing import Any

from icml26.common import Background, Claim, PaperClaim
from icml26.flow_optimizer.claims_transfer import TRANSFER_NAMES, TRANSFER_TESTS
from icml26.flow_optimizer.history import (
    IK_N10,
    REVIEW_DCOPF_VIOLATION,
    REVIEW_SC,
    V1_DCOPF,
    V1_IK,
    V1_SC,
    issue16,
    review,
)

PAPER_CLAIMS = (
    PaperClaim(
        "consistently_outperforms",
        "FlowOptimizer consistently outperforms well-established sampling-based/gradient-based traditional"
        " optimization and learning-to-optimize methods",
        "all",
        title="FlowOptimizer consistently outperforms traditional and L2O optimizers",
    ),
    PaperClaim(
        "orders_of_magnitude",
        "often by orders of magnitude in terms of solution quality",
        "most",
        title="Often by orders of magnitude in solution quality",
    ),
    PaperClaim(
        "generalizes_10x",
        "its ability to be trained on low-dimensional problems and successfully generalize to substantially"
        " higher-dimensional $(\\times 10)$ ones",
        "all",
        title="Trained on low-dimensional problems, it generalises to 10x the dimension",
        conditions="zero-shot at 10x the trained dimension (config zero_shot_factor >= 10)",
    ),
)

BACKGROUND = (
    Background(
        "We introduce *FlowOptimizer*, a deep unfolded, flow-based framework for learned iterative optimization.",
        "a definition (optimizer.py)",
    ),
    Background(
        "Motivated by the expressiveness of flow models, we represent each optimization iteration via a velocity"
        " field that operates on a population of candidate solutions",
        "a description of the method (velocity.py)",
    ),
    Background(
        "The velocity field is initially trained in a simulation-free manner by matching displacements from"
        " source populations to improved target ones obtained through sampling the objective.",
        "a description of stage 1 (targets.py, training.py); whether stage 2 adds to it is the check stage2_gain",
    ),
    Background(
        "Subsequently, we unfold this velocity field as the internal iteration of an optimization sequence, and"
        " fine-tune it in an end-to-end manner by directly optimizing objective values over a targeted class of"
        " problems.",
        "a description of stage 2 (training.py)",
    ),
    Background(
        "Notably, FlowOptimizer is a self-supervised framework whose training relies solely on objective"
        " evaluations without requiring knowledge of solutions.",
        "a property of the training procedure, true by construction (no optimum is passed to training.py)",
    ),
    Background(
        "We evaluate our approach on a series of tasks from standard non-convex optimization benchmarks to"
        " real-world problems from supply chain, robotics and power grid applications.",
        "a description of the evaluation (problems.py, supply_chain.py, robotics.py, power_grid.py)",
    ),
)

_TENFOLD = (("zero_shot_factor", ">=", 10),)  # the abstract's x10

_PROXY = (
    "laptop proxy: CPU-trained shipped weights (the paper profile reuses them), unseen instances of the wide"
    " class (shifts U[-0.8h, 0.8h]^d)"
)
_PROXY_GEN = (
    "laptop proxy: shipped weights, unseen instances with the optimum at a fixed offset from the centre"
)
_PROXY_IK = "laptop proxy: our planar n-link IK reconstruction, shipped ik-10 weights, unseen instances"
_PROXY_SC = "laptop proxy: our 4x5 concave-cost network with an exact MILP optimum, unseen networks"
_PROXY_OPF = (
    "laptop proxy: our DC-OPF reconstruction on pandapower case30 at loads x U[1.1, 1.3], unseen load draws"
)
_OUTPERFORMS = (
    "consistently outperforms well-established sampling-based/gradient-based traditional optimization"
    " and learning-to-optimize methods"
)
_GENERALIZE = "trained on low-dimensional problems, successfully generalizes to x10 higher-dimensional ones"
_WIDE = "the wide class (optimum s ~ U[-0.8h, 0.8h]^d, h the box half-width)"
# the baselines quick runs at the trained d (every sampling one from both starts) and the paper-only ones
_ALL_D = ("cma", "cma_centre", "cma_ipop", "cma_ipop_centre", "adam", "de", "l2o")
_PAPER_D = ("ngopt", "ngopt_centre")
_ALL_ZERO_SHOT = ("cma_centre", "adam", "l2o")  # quick at 10 d; paper adds the rest
_PAPER_ZERO_SHOT = ("cma", "cma_ipop", "cma_ipop_centre", "de", "ngopt", "ngopt_centre")
_GRADIENT_FREE = ("cma", "cma_centre", "cma_ipop", "cma_ipop_centre", "de")  # no gradient, like flow_gf
_GEN_BASELINES = ("cma_centre", "cma_ipop_centre")  # quick; paper adds ngopt_centre
# IPOP-CMA-ES's first run is CMA-ES's run (same seed, same start); pycma stops it (tolfunhist/tolx) after
# 2,200-3,200 of 3,200 evaluations or never (1,280), and the doubled-population restart, with what is left,
# has never improved on it: its rows equal CMA-ES's, so the pair is one baseline, not two
_IPOP_NOTE = (
    " (IPOP-CMA-ES's first run is CMA-ES's, and at these budgets its restart never improves on it: one"
    " baseline, not two)"
)


def _outperforms(
    name: str, tag: str, what: str, methods: tuple[str, ...], paper_only: tuple[str, ...], **test: Any
) -> Claim:
    """FlowOptimizer (gradient weights) below every baseline the profile runs on the task (a paper test)."""
    return Claim(
        name,
        f"{what} the median final best f of FlowOptimizer (gradient weights) is below every baseline's run there"
        f" in quick ({', '.join(methods)}; sampling baselines from both starts)" + _IPOP_NOTE,
        _OUTPERFORMS,
        f"{tag}_flow",
        "<",
        0.0,
        kind="paper",
        scale_note=_PROXY,
        relative_to=tuple(f"{tag}_{b}" for b in methods),
        form="difference",
        context=tuple(f"{tag}_{b}" for b in (*paper_only, "flow_gf")),
        **test,
    )


def _blackbox(
    name: str, tag: str, what: str, methods: tuple[str, ...], paper_only: tuple[str, ...], **test: Any
) -> Claim:
    """The gradient-free weights below every gradient-free baseline (equal information; a paper test)."""
    return Claim(
        name,
        f"black box: {what} the gradient-free weights (no gradient, every evaluation charged) reach a median"
        f" final best f below every gradient-free baseline's run there in quick ({', '.join(methods)})"
        + (_IPOP_NOTE if "cma_ipop" in methods else ""),
        _OUTPERFORMS + " (its sampling-based part, at equal information)",
        f"{tag}_flow_gf",
        "<",
        0.0,
        kind="paper",
        scale_note=_PROXY,
        relative_to=tuple(f"{tag}_{b}" for b in methods),
        form="difference",
        context=tuple(f"{tag}_{b}" for b in paper_only),
        **test,
    )


def _generalises(fn: str, cell: str, fraction: float, **test: Any) -> Claim:
    """FlowOptimizer below CMA-ES and IPOP-CMA-ES from its start information, the optimum moved (a paper test)."""
    where = f"{fraction:g} of the half-width from the centre on every coordinate"
    inside = "inside" if fraction <= 0.8 else "outside"
    return Claim(
        f"gen_outperforms_{fn}10_{cell}",
        f"{fn.capitalize()}-{{dim}} with the optimum at {where} ({inside} the wide training prior), {{budget}}"
        " evaluations: FlowOptimizer's median final best f is below CMA-ES's and IPOP-CMA-ES's, both started"
        " with FlowOptimizer's start information (centre, its spread)" + _IPOP_NOTE,
        _OUTPERFORMS,
        f"gen_{fn}_{cell}_flow",
        "<",
        0.0,
        kind="paper",
        scale_note=_PROXY_GEN,
        relative_to=tuple(f"gen_{fn}_{cell}_{b}" for b in _GEN_BASELINES),
        form="difference",
        controls=(f"gen_{fn}_{cell}_flow_narrow",),
        context=(f"gen_{fn}_{cell}_flow_gf", f"gen_{fn}_{cell}_ngopt_centre"),
        supports="consistently_outperforms",
        title=f"{fn.capitalize()}-10, optimum at {fraction:g} h: below CMA-ES from the same start",
        **test,
    )


def _wide_beats_narrow(fn: str, cell: str, **test: Any) -> Claim:
    return Claim(
        f"wide_prior_beats_narrow_{fn}10_{cell}",
        f"{fn.capitalize()}-{{dim}} with the optimum at 0.8 of the half-width (in the wide class): the field"
        " trained on the wide prior has a lower median final best f than the one trained on the narrow prior"
        " (a ratio only: it does not say that either field solves the cell; see CMA-ES's value as context)",
        "ours (issue 16: the wins must survive a moved optimum)",
        f"gen_{fn}_{cell}_flow",
        "<",
        1.0,
        kind="check",
        scale_note=_PROXY_GEN,
        relative_to=(f"gen_{fn}_{cell}_flow_narrow",),
        form="ratio",
        # how far both fields are from the optimum (f* = 0): on Ackley both sit on the plateau (f ~ 20),
        # where a ratio below 1 says nothing about which prior solves the class
        context=(f"gen_{fn}_{cell}_cma_centre",),
        title=f"{fn.capitalize()}-10, optimum at 0.8 h: the wide-prior field below the narrow one",
        **test,
    )


TESTS = (
    Claim(
        "stage2_gain",
        "stage 2 (the shipped 30 iterations) lowers the median final best f on Rastrigin-{dim} of "
        + _WIDE
        + " by >= 30% vs stage 1 alone",
        ">= 30% lower (our acceptance target A1; the paper gives no number)",
        "rastrigin_flow",
        "<=",
        0.7,
        kind="check",
        title="Stage 2 lowers Rastrigin-10's median best f by >= 30% vs stage 1",
        scale_note=_PROXY,
        relative_to=("rastrigin_flow_stage1",),
        form="ratio",
        revisions=(
            issue16(
                "stage2_gain", "rastrigin_flow / strongest(rastrigin_flow_stage1) <= 0.7", "refuted", 0.8949
            ),
            review("refuted"),
        ),
    ),
    Claim(
        "stage2_gain_long",
        "the stage-2 study's checkpoint (300 iterations, 10x the shipped, selected on validation by the rule"
        " written before the run) lowers the median final best f on Rastrigin-{dim} of "
        + _WIDE
        + " by >= 30% vs stage 1 alone",
        ">= 30% lower (our acceptance target A1; the paper gives no number)",
        "rastrigin_flow_long",
        "<=",
        0.7,
        kind="check",
        title="The stage-2 study's checkpoint lowers it by >= 30% vs stage 1",
        scale_note=_PROXY,
        relative_to=("rastrigin_flow_stage1",),
        form="ratio",
        context=("rastrigin_flow", "stage2_iterations_rastrigin_long"),
        revisions=(review("refuted"),),
    ),
    Claim(
        "beats_adam_rastrigin10",
        "at {budget} evaluations beats Adam multistart on Rastrigin-{dim} of "
        + _WIDE
        + " (median final best f)",
        "better than Adam (our minimum bar A2)",
        "rastrigin_flow",
        "<",
        1.0,
        kind="check",
        title="Rastrigin-10: median best f below Adam multistart's",
        scale_note=_PROXY,
        relative_to=("rastrigin_adam",),
        form="ratio",
        context=("rastrigin_l2o",),
        revisions=(
            issue16(
                "beats_adam_rastrigin10",
                "rastrigin_flow / strongest(rastrigin_adam) < 1",
                "toy-verified",
                0.2372,
            ),
            review("toy-verified"),
        ),
    ),
    _outperforms(
        "outperforms_rastrigin10",
        "rastrigin",
        f"Rastrigin-{{dim}} of {_WIDE}, {{budget}} evaluations:",
        _ALL_D,
        _PAPER_D,
        supports="consistently_outperforms",
        title="Rastrigin-10: median best f below every baseline's",
        revisions=(
            issue16(
                "outperforms_rastrigin10",
                "rastrigin_flow - strongest(rastrigin_cma, rastrigin_cma_ipop, rastrigin_adam, rastrigin_de, rastrigin_ngopt, rastrigin_l2o) < 0",
                "toy-verified",
                -7.809,
            ),
            review("refuted"),
        ),
    ),
    Claim(
        "beats_adam_ackley10",
        "at {budget} evaluations beats Adam multistart on Ackley-{dim} of "
        + _WIDE
        + " (median final best f)",
        "better than Adam (our minimum bar A2)",
        "ackley_flow",
        "<",
        1.0,
        kind="check",
        title="Ackley-10: median best f below Adam multistart's",
        scale_note=_PROXY,
        relative_to=("ackley_adam",),
        form="ratio",
        context=("ackley_l2o",),
        revisions=(
            issue16(
                "beats_adam_ackley10", "ackley_flow / strongest(ackley_adam) < 1", "toy-verified", 0.08352
            ),
            review("inconclusive"),
        ),
    ),
    _outperforms(
        "outperforms_ackley10",
        "ackley",
        f"Ackley-{{dim}} of {_WIDE}, {{budget}} evaluations:",
        _ALL_D,
        _PAPER_D,
        supports="consistently_outperforms",
        title="Ackley-10: median best f below every baseline's",
        revisions=(
            issue16(
                "outperforms_ackley10",
                "ackley_flow - strongest(ackley_cma, ackley_cma_ipop, ackley_adam, ackley_de, ackley_ngopt, ackley_l2o) < 0",
                "refuted",
                1.539,
            ),
            review("refuted"),
        ),
    ),
    Claim(
        "zero_shot_rastrigin100",
        "trained at d={dim}, beats Adam and CMA-ES (centred start) zero-shot on Rastrigin at {zero_shot_factor}x"
        " that d, " + _WIDE + " (median final best f)",
        "better than both (our minimum bar A2)",
        "rastrigin_zero_shot_flow",
        "<",
        1.0,
        kind="check",
        title="Rastrigin at 10x d, zero-shot: below Adam and CMA-ES (centred)",
        scale_note=_PROXY,
        relative_to=("rastrigin_zero_shot_adam", "rastrigin_zero_shot_cma_centre"),
        form="ratio",
        context=("rastrigin_zero_shot_l2o",),
        revisions=(
            issue16(
                "zero_shot_rastrigin100",
                "rastrigin_zero_shot_flow / strongest(rastrigin_zero_shot_adam, rastrigin_zero_shot_cma) < 1",
                "toy-verified",
                0.2325,
            ),
            review("toy-verified"),
        ),
    ),
    _outperforms(
        "zero_shot_outperforms_rastrigin100",
        "rastrigin_zero_shot",
        f"trained at d={{dim}}, zero-shot on Rastrigin at {{zero_shot_factor}}x that d ({_WIDE}):",
        _ALL_ZERO_SHOT,
        _PAPER_ZERO_SHOT,
        supports="generalizes_10x",
        title="Rastrigin at 10x d, zero-shot: below every baseline",
        requires=_TENFOLD,
        revisions=(
            issue16(
                "zero_shot_outperforms_rastrigin100",
                "rastrigin_zero_shot_flow - strongest(rastrigin_zero_shot_cma, rastrigin_zero_shot_adam, rastrigin_zero_shot_ngopt, rastrigin_zero_shot_l2o) < 0",
                "toy-verified",
                -547.9,
            ),
            review("toy-verified"),
        ),
    ),
    Claim(
        "zero_shot_ackley100",
        "trained at d={dim}, beats Adam and CMA-ES (centred start) zero-shot on Ackley at {zero_shot_factor}x"
        " that d, " + _WIDE + " (median final best f)",
        "better than both (our minimum bar A2)",
        "ackley_zero_shot_flow",
        "<",
        1.0,
        kind="check",
        title="Ackley at 10x d, zero-shot: below Adam and CMA-ES (centred)",
        scale_note=_PROXY,
        relative_to=("ackley_zero_shot_adam", "ackley_zero_shot_cma_centre"),
        form="ratio",
        context=("ackley_zero_shot_l2o",),
        revisions=(
            issue16(
                "zero_shot_ackley100",
                "ackley_zero_shot_flow / strongest(ackley_zero_shot_adam, ackley_zero_shot_cma) < 1",
                "inconclusive",
                0.8886,
            ),
            review("refuted"),
        ),
    ),
    _outperforms(
        "zero_shot_outperforms_ackley100",
        "ackley_zero_shot",
        f"trained at d={{dim}}, zero-shot on Ackley at {{zero_shot_factor}}x that d ({_WIDE}):",
        _ALL_ZERO_SHOT,
        _PAPER_ZERO_SHOT,
        supports="generalizes_10x",
        title="Ackley at 10x d, zero-shot: below every baseline",
        requires=_TENFOLD,
        revisions=(
            issue16(
                "zero_shot_outperforms_ackley100",
                "ackley_zero_shot_flow - strongest(ackley_zero_shot_cma, ackley_zero_shot_adam, ackley_zero_shot_ngopt, ackley_zero_shot_l2o) < 0",
                "inconclusive",
                -1.052,
            ),
            review("refuted"),
        ),
    ),
    Claim(
        "orders_rastrigin10",
        "headline: median final best f >= 10x below CMA-ES and IPOP-CMA-ES (both starts) on Rastrigin-{dim} of "
        + _WIDE
        + " at {budget} evaluations"
        + _IPOP_NOTE,
        "often by orders of magnitude",
        "rastrigin_flow",
        "<=",
        0.1,
        kind="paper",
        supports="orders_of_magnitude",
        title="Rastrigin-10: >= 10x below CMA-ES and IPOP-CMA-ES",
        scale_note=_PROXY,
        relative_to=tuple(f"rastrigin_{b}" for b in ("cma", "cma_centre", "cma_ipop", "cma_ipop_centre")),
        form="ratio",
        context=("rastrigin_ngopt_centre",),
        revisions=(
            issue16(
                "orders_rastrigin10",
                "rastrigin_flow / strongest(rastrigin_cma, rastrigin_cma_ipop) <= 0.1",
                "refuted",
                0.4937,
            ),
            review("refuted"),
        ),
    ),
    Claim(
        "orders_ackley10",
        "headline: median final best f >= 10x below CMA-ES and IPOP-CMA-ES (both starts) on Ackley-{dim} of "
        + _WIDE
        + " at {budget_small} evaluations"
        + _IPOP_NOTE,
        "often by orders of magnitude",
        "ackley_small_budget_flow",
        "<=",
        0.1,
        kind="paper",
        supports="orders_of_magnitude",
        title="Ackley-10, small budget: >= 10x below CMA-ES and IPOP-CMA-ES",
        scale_note=_PROXY,
        relative_to=tuple(
            f"ackley_small_budget_{b}" for b in ("cma", "cma_centre", "cma_ipop", "cma_ipop_centre")
        ),
        form="ratio",
        context=("ackley_small_budget_ngopt_centre",),
        revisions=(
            issue16(
                "orders_ackley10",
                "ackley_small_budget_flow / strongest(ackley_small_budget_cma, ackley_small_budget_cma_ipop) <= 0.1",
                "refuted",
                199.4,
            ),
            review("refuted"),
        ),
    ),
    Claim(
        "orders_ackley100",
        "headline: trained at d={dim}, median final best f >= 10x below CMA-ES (centred start) zero-shot on"
        " Ackley at {zero_shot_factor}x that d, " + _WIDE + ", {budget} evaluations (the random start and"
        " IPOP-CMA-ES run there in the paper profile only)",
        "often by orders of magnitude",
        "ackley_zero_shot_flow",
        "<=",
        0.1,
        kind="paper",
        supports="orders_of_magnitude",
        title="Ackley at 10x d, zero-shot: >= 10x below CMA-ES (centred)",
        scale_note=_PROXY,
        relative_to=("ackley_zero_shot_cma_centre",),
        form="ratio",
        context=("ackley_zero_shot_cma", "ackley_zero_shot_cma_ipop", "ackley_zero_shot_ngopt_centre"),
        revisions=(
            issue16(
                "orders_ackley100",
                "ackley_zero_shot_flow / strongest(ackley_zero_shot_cma) <= 0.1",
                "refuted",
                0.8886,
            ),
            review("refuted"),
        ),
    ),
    _blackbox(
        "blackbox_outperforms_rastrigin10",
        "rastrigin",
        f"Rastrigin-{{dim}} of {_WIDE}, {{budget}} evaluations:",
        _GRADIENT_FREE,
        _PAPER_D,
        supports="consistently_outperforms",
        title="Black box, Rastrigin-10: below every gradient-free baseline",
        revisions=(review("refuted"),),
    ),
    _blackbox(
        "blackbox_outperforms_ackley10",
        "ackley",
        f"Ackley-{{dim}} of {_WIDE}, {{budget}} evaluations:",
        _GRADIENT_FREE,
        _PAPER_D,
        supports="consistently_outperforms",
        title="Black box, Ackley-10: below every gradient-free baseline",
        revisions=(review("refuted"),),
    ),
    _blackbox(
        "blackbox_zero_shot_rastrigin100",
        "rastrigin_zero_shot",
        f"trained at d={{dim}} only, zero-shot on Rastrigin at {{zero_shot_factor}}x that d ({_WIDE}):",
        ("cma_centre",),
        ("cma", "cma_ipop", "cma_ipop_centre", "de", "ngopt", "ngopt_centre"),
        supports="generalizes_10x",
        title="Black box, Rastrigin at 10x d, zero-shot: below CMA-ES (centred)",
        requires=_TENFOLD,
        revisions=(review("refuted"),),
    ),
    _blackbox(
        "blackbox_zero_shot_ackley100",
        "ackley_zero_shot",
        f"trained at d={{dim}} only, zero-shot on Ackley at {{zero_shot_factor}}x that d ({_WIDE}):",
        ("cma_centre",),
        ("cma", "cma_ipop", "cma_ipop_centre", "de", "ngopt", "ngopt_centre"),
        supports="generalizes_10x",
        title="Black box, Ackley at 10x d, zero-shot: below CMA-ES (centred)",
        requires=_TENFOLD,
        revisions=(review("refuted"),),
    ),
    _generalises("rastrigin", "s20", 0.2, revisions=(review("toy-verified"),)),
    _generalises("rastrigin", "s80", 0.8, revisions=(review("refuted"),)),
    _generalises("ackley", "s20", 0.2, revisions=(review("refuted"),)),
    _generalises("ackley", "s80", 0.8, revisions=(review("refuted"),)),
    _wide_beats_narrow("rastrigin", "s80", revisions=(review("toy-verified"),)),
    _wide_beats_narrow("ackley", "s80", revisions=(review("toy-verified"),)),
    Claim(
        "dcopf_binds",
        "DC-OPF ({dcopf_case}, loads x U[{dcopf_load_low}, {dcopf_load_high}]): at least one line limit binds at"
        " the exact optimum of every test instance",
        "ours (issue 16: a DC-OPF where the line limits matter)",
        "dcopf_binding_lines_min",
        ">=",
        1.0,
        kind="check",
        title="DC-OPF: a line limit binds at every test instance's optimum",
        scale="exact",
        scale_note="counted on every test instance at pandapower's exact optimum (|F| >= (1 - 1e-6) rate)",
        context=("dcopf_binding_lines_mean",),
    ),
    Claim(
        "dcopf_gap",
        "DC-OPF ({dcopf_case}, loads x U[{dcopf_load_low}, {dcopf_load_high}]): mean cost gap vs the exact optimum"
        " <= 0.5% at {budget} evaluations",
        "<= 0.5% (our target A4; the paper gives no number)",
        "dcopf_gap_percent",
        "<=",
        0.5,
        kind="check",
        title="DC-OPF: mean cost gap vs the exact optimum <= 0.5%",
        scale_note=_PROXY_OPF,
        unit="%",
        controls=("dcopf_gap_percent_cma", "dcopf_gap_percent_cma_centre", "dcopf_gap_percent_adam"),
        revisions=(issue16("dcopf_gap", "dcopf_gap_percent <= 0.5", "toy-verified", 0.01416, V1_DCOPF),),
    ),
    Claim(
        "dcopf_violation",
        "DC-OPF ({dcopf_case}): max constraint violation (slack limits, line flows) over the instances"
        " <= 1e-3 p.u.",
        "<= 1e-3 p.u. (our target A4; the paper gives no number)",
        "dcopf_max_violation_pu",
        "<=",
        1e-3,
        kind="check",
        title="DC-OPF: max constraint violation <= 1e-3 p.u.",
        scale_note=_PROXY_OPF
        + "; a maximum over the instances, each violation computed exactly in float64, so an"
        " exact per-instance check (<key>_ci = 0) taken at the worst runner seed",
        unit="p.u.",
        statistic="max",
        controls=(
            "dcopf_max_violation_pu_cma",
            "dcopf_max_violation_pu_cma_centre",
            "dcopf_max_violation_pu_adam",
        ),
        revisions=(
            issue16("dcopf_violation", "dcopf_max_violation_pu <= 0.001", "inconclusive", 0.0, V1_DCOPF),
            review("inconclusive", *REVIEW_DCOPF_VIOLATION),
        ),
    ),
    Claim(
        "dcopf_outperforms",
        "DC-OPF ({dcopf_case}, loads x U[{dcopf_load_low}, {dcopf_load_high}], binding line limits) at {budget}"
        " evaluations: mean gap of the penalised objective below the strongest of CMA-ES (both starts) and Adam"
        " (difference in percentage points)",
        _OUTPERFORMS,
        "dcopf_objective_gap_percent",
        "<",
        0.0,
        kind="paper",
        supports="consistently_outperforms",
        title="DC-OPF: penalised-objective gap below CMA-ES's and Adam's",
        scale_note=_PROXY_OPF,
        relative_to=(
            "dcopf_objective_gap_percent_cma",
            "dcopf_objective_gap_percent_cma_centre",
            "dcopf_objective_gap_percent_adam",
        ),
        form="difference",
        unit="pp",
        context=(
            "dcopf_objective_gap_percent_flow_gf",
            "dcopf_max_violation_pu",
            "dcopf_max_violation_pu_cma",
        ),
        revisions=(
            issue16(
                "dcopf_outperforms",
                "dcopf_gap_percent - strongest(dcopf_gap_percent_cma, dcopf_gap_percent_adam) < 0",
                "toy-verified",
                -0.03168,
                V1_DCOPF,
            ),
        ),
    ),
    Claim(
        "ik_beats_adam10",
        "planar IK at {ik_links} links ({budget} evaluations): beats Adam multistart (median final"
        " end-effector distance)",
        "better than Adam (our minimum bar)",
        "ik_flow",
        "<",
        1.0,
        kind="check",
        title="Planar IK, 10 links: median distance below Adam multistart's",
        scale_note=_PROXY_IK,
        relative_to=("ik_adam",),
        form="ratio",
        context=("ik_cma", "ik_flow_gf", "ik_n10_flow", "ik_n10_adam"),
        revisions=(
            IK_N10,
            issue16("ik_beats_adam10", "ik_flow / strongest(ik_adam) < 1", "inconclusive", 0.4397, V1_IK),
            review("inconclusive"),
        ),
    ),
    Claim(
        "ik_outperforms10",
        "planar IK at {ik_links} links ({budget} evaluations): median final end-effector distance below"
        " CMA-ES's and Adam's",
        _OUTPERFORMS,
        "ik_flow",
        "<",
        1.0,
        kind="paper",
        supports="consistently_outperforms",
        title="Planar IK, 10 links: median distance below CMA-ES's and Adam's",
        scale_note=_PROXY_IK,
        relative_to=("ik_cma", "ik_adam"),
        form="ratio",
        context=("ik_flow_gf",),
        revisions=(
            issue16("ik_outperforms10", "ik_flow / strongest(ik_cma, ik_adam) < 1", "refuted", 4128.0, V1_IK),
            review("refuted"),
        ),
    ),
    Claim(
        "ik_zero_shot100",
        "planar IK: trained at {ik_links} links, beats Adam and CMA-ES zero-shot at {zero_shot_factor}x the"
        " links (median final distance)",
        f"{_GENERALIZE}; {_OUTPERFORMS}",
        "ik_zero_shot_flow",
        "<",
        1.0,
        kind="paper",
        supports="generalizes_10x",
        title="Planar IK at 10x the links, zero-shot: below Adam and CMA-ES",
        requires=_TENFOLD,
        scale_note=_PROXY_IK,
        relative_to=("ik_zero_shot_adam", "ik_zero_shot_cma"),
        form="ratio",
        context=("ik_zero_shot_flow_gf",),
        revisions=(
            issue16(
                "ik_zero_shot100",
                "ik_zero_shot_flow / strongest(ik_zero_shot_adam, ik_zero_shot_cma) < 1",
                "toy-verified",
                0.2098,
                V1_IK,
            ),
            review("inconclusive"),
        ),
    ),
    Claim(
        "sc_gap_vs_cma",
        "supply chain {sc_suppliers}x{sc_customers}, concave costs ({sc_budget} evaluations): mean optimality"
        " gap vs the exact MILP optimum of FlowOptimizer <= CMA-ES's",
        "<= CMA-ES (ours; the paper reports no number)",
        "sc_mean_gap_percent_flow",
        "<=",
        1.0,
        kind="check",
        title="Supply chain 4x5: mean optimality gap <= CMA-ES's",
        scale_note=_PROXY_SC,
        relative_to=("sc_mean_gap_percent_cma",),
        form="ratio",
        context=("sc_mean_gap_percent_adam", "sc_mean_gap_percent_flow_gf"),
        revisions=(
            issue16(
                "sc_gap_vs_cma",
                "sc_mean_gap_percent_flow / strongest(sc_mean_gap_percent_cma) <= 1",
                "toy-verified",
                0.1468,
                V1_SC,
            ),
            review("toy-verified"),
        ),
    ),
    Claim(
        "sc_outperforms",
        "supply chain {sc_suppliers}x{sc_customers}, concave costs ({sc_budget} evaluations): mean optimality"
        " gap vs the exact MILP optimum below the strongest of CMA-ES (random start and FlowOptimizer's start"
        " information), differential evolution and Adam",
        _OUTPERFORMS,
        "sc_mean_gap_percent_flow",
        "<",
        1.0,
        kind="paper",
        supports="consistently_outperforms",
        title="Supply chain 4x5: mean optimality gap below every baseline's",
        scale_note=_PROXY_SC,
        relative_to=tuple(f"sc_mean_gap_percent_{b}" for b in ("cma", "cma_centre", "de", "adam")),
        form="ratio",
        context=("sc_mean_gap_percent_flow_gf",),
        revisions=(
            issue16(
                "sc_outperforms",
                "sc_mean_gap_percent_flow / strongest(sc_mean_gap_percent_cma, sc_mean_gap_percent_adam) < 1",
                "toy-verified",
                0.2282,
                V1_SC,
            ),
            review("toy-verified", *REVIEW_SC),
        ),
    ),
    *TRANSFER_TESTS,
)


_METHOD_NAMES = {
    "flow": "FlowOptimizer",
    "flow_stage1": "FlowOptimizer, stage 1 only",
    "flow_long": "FlowOptimizer, stage-2 study checkpoint",
    "flow_gf": "FlowOptimizer, gradient-free weights",
    "flow_narrow": "FlowOptimizer trained on the narrow prior",
    "cma": "CMA-ES",
    "cma_centre": "CMA-ES (centred start)",
    "cma_ipop": "IPOP-CMA-ES",
    "cma_ipop_centre": "IPOP-CMA-ES (centred start)",
    "ngopt_centre": "NGOpt (centre start)",
    "adam": "Adam multistart",
    "de": "differential evolution",
    "ngopt": "NGOpt",
    "l2o": "L2O-DM",
    **TRANSFER_NAMES,
}

_SPECIAL_NAMES = {"stage2_iterations_rastrigin_long": "stage-2 iterations of the selected checkpoint"}
_SPECIAL_NAMES["dcopf_binding_lines_mean"] = "mean binding line limits at the optimum"


def display_name(key: str) -> str:
    """The report's name of a baseline, control or context metric, e.g. ``rastrigin_cma_ipop`` -> IPOP-CMA-ES."""
    if key in _SPECIAL_NAMES:
        return _SPECIAL_NAMES[key]
    if key.startswith("dcopf_max_violation_pu"):
        method = key.removeprefix("dcopf_max_violation_pu").lstrip("_") or "flow"
        return f"{_METHOD_NAMES[method]} max violation"
    for method in sorted(_METHOD_NAMES, key=len, reverse=True):  # cma_ipop before cma
        if key.endswith("_" + method):
            return _METHOD_NAMES[method]
    raise KeyError(f"no display name for metric {key!r}")


NAMES = {k: display_name(k) for c in TESTS for k in (*c.relative_to, *c.controls, *c.context)}
