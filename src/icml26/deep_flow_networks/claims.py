"""What the paper claims and how each claim is tested (declarations only; read beside the abstract).

The abstract (Candogan & Foussoul, ICML 2026) makes four testable claims: universality for
convex-extendible discrete functions, the optimisation complexity growing with the deviation from the
M-convex regime, strong approximation accuracy, and optimisation substantially faster than benchmark
approaches. The identities of the construction (the gadgets, convexity of a flow value, total
unimodularity at A = identity) are checks.
"""

from __future__ import annotations

from icml26.common import Background, Claim, PaperClaim, Revision

# the learned-A model's premise: its A moved from the start (a run where it never moved measured the M-natural
# ablation, not the paper's learned model, and is reported as a check)
_E3_MOVED = (("dfn_a_drift_l1", ">", 0),)
# E5 refits E4's learned model (same data, seed and settings), so its final drift is E4's model's
_E4_MOVED = (("learned_a_drift_l1", ">", 0),)
QUICK_A64 = "quick record 20261202T021131085279Z (a64c8ef)"

PAPER_E3 = "quadratic n=16: DFN 0.0035 MSE / 1.78 s vs MLP 0.0125 / 49.6 s (28-75x)"

PAPER_CLAIMS = (
    PaperClaim(
        "universal",
        "we prove that DFNs are universal approximators for discrete functions on $\\mathbb{Z}^d$ that admit"
        " convex extensions to $\\mathbb{R}^d$",
        "all",
        title="DFNs approximate any discrete function with a convex extension",
    ),
    PaperClaim(
        "complexity_deviation",
        "characterize their optimization complexity in terms of their deviation from the M-convex regime",
        "all",
        title="Optimisation work grows with the deviation from the M-convex regime",
    ),
    PaperClaim(
        "accuracy",
        "DFNs achieve strong approximation accuracy",
        "all",
        title="DFNs approximate the ground-truth functions accurately",
    ),
    PaperClaim(
        "faster_to_optimize",
        "while being substantially faster to optimize than benchmark approaches",
        "all",
        title="DFNs are substantially faster to optimise than benchmark approaches",
    ),
)

BACKGROUND = (
    Background(
        "We introduce Deep Flow Networks (DFNs), a new class of discrete function approximators.",
        "a definition (model.py)",
    ),
    Background(
        "DFNs are inspired by and generalize minimum-cost flow value functions that map node imbalances on a"
        " subset of nodes to the optimal flow cost.",
        "a definition (model.py, solver.py)",
    ),
    Background(
        "Such functions are known to be M-convex (Murota2003) and admit efficient optimization.",
        "prior work (Murota 2003)",
    ),
    Background(
        "Guided by these results, we develop a practical DFN implementation for learning from data.",
        "a description of the implementation (model.py: DFN.fit)",
    ),
)

NAMES = {
    "icnn_test_mse": "ICNN (equal parameters)",
    "icnn_milp_s": "ICNN (equal parameters)",
    "icnn_quality": "ICNN (equal parameters)",
    "mlp_test_mse": "ReLU MLP [50,50]",
    "mlp_milp_s": "ReLU MLP [50,50]",
    "mlp_quality": "ReLU MLP [50,50]",
    "maxaffine_test_mse": "max-affine",
    "maxaffine_milp_s": "max-affine",
    "maxaffine_quality": "max-affine",
}

TESTS = (
    Claim(
        "gadgets_exact",
        "E1: the constructive gadgets (1-D convex on {{-{gadget_range}..{gadget_range}}} and a "
        "3-term separable sum) reproduce g exactly",
        "exact (universality construction)",
        "gadget_max_error",
        "<",
        1e-9,
        kind="check",
        title="E1: the constructive gadgets reproduce 1-D convex g and a separable sum exactly",
        scale="exact",
        scale_note="max |f - g| over every grid point of every gadget",
        controls=("gadget_wrong_costs_max_error",),
        unit="abs",
        revisions=(
            Revision(
                "2026-12-01",
                "kind paper",
                "verified",
                "an identity of the construction: the gadgets reproduce g by construction on any input, so the test cannot fail (contract v3: identities are checks)",
                "75a1345 (paper), 07dc147 (quick): max error 5.7e-14",
            ),
        ),
    ),
    Claim(
        "universality_fit",
        "E2: on one fixed convex target (a quadratic on {{-{grid}..{grid}}}^2) the seed-mean max error / range"
        " of a trained DFN (ladder_seeds training seeds per size) falls at every step of the size ladder"
        " {ladder_layers} (worst step ratio < 1, judged on its interval over seeds)",
        "universal for convex-extendible g: error -> 0 as the network grows",
        "ladder_worst_step",
        "<",
        1.0,
        kind="paper",
        supports="universal",
        title="E2: on a fixed convex target the max error falls with every size step",
        controls=("ladder_control_step",),
        requires=(("ladder_min_a_drift_l1", ">", 0),),
        settings=("ladder_seeds",),
        shown=(
            "ladder_first_err",
            "ladder_last_err",
            "grid_quad_max_err",
            "grid_sepnorm_max_err",
            "grid_maxaffine_max_err",
            "grid_quad_max_err_fixed_a",
            "grid_sepnorm_max_err_fixed_a",
            "grid_maxaffine_max_err_fixed_a",
        ),
        revisions=(
            Revision(
                "2026-12-02",
                "grid_convex_max_err <= 0.31 (a bar from a third party's worst value) with A the fixed selection",
                "toy-verified",
                "the theorem says the error goes to 0 as the network grows on a fixed target, so it is judged"
                " on a size ladder with a decreasing-error rule; A is now learned as in the paper",
                "paper record 20261201T162053334183Z (0.2335), quick record 20261201T163940825207Z",
            ),
            Revision(
                "2026-12-02",
                "one training seed per ladder size, the worst step ratio judged without an interval"
                " (deterministic), no precondition on A",
                "toy-verified",
                "a worst step of 0.9992 on one seed is noise level: several training seeds per size, the rule"
                " judged on the interval of the worst step; a ladder whose learned A never moved measured the"
                " M-natural ablation, so the test requires that every ladder model's A moved",
                QUICK_A64 + ": worst step 0.9992, one seed",
            ),
        ),
    ),
    Claim(
        "concave_not_fitted",
        "E2: the concave control keeps max-error >= 0.15 range (no convex fit exists)",
        "(only convex-extendible g)",
        "grid_concave_max_err",
        ">=",
        0.15,
        kind="check",
        title="E2: the concave control keeps max error >= 0.15 of range",
        deterministic=True,
    ),
    Claim(
        "concave_twice_convex",
        "E2: the concave control's error is >= 2x the worst convex target's",
        "(only convex-extendible g)",
        "grid_concave_max_err",
        ">=",
        2.0,
        kind="check",
        title="E2: the concave control's error >= 2x the worst convex target's",
        deterministic=True,
        relative_to=("grid_convex_max_err",),
        form="ratio",
        revisions=(
            Revision(
                "2026-12-02",
                "the convex targets fitted with A the fixed selection (learn_A=False)",
                "toy-verified",
                "the paper learns A: the convex targets' errors are now those of the learned-A DFN",
                "75a1345 (paper): 2.96x; 07dc147 (quick)",
            ),
        ),
    ),
    Claim(
        "convex_by_construction",
        "Zero midpoint-convexity violations on {convexity_pairs} random integer pairs "
        "for every trained DFN (E2, E3, E4)",
        "convex-extendible by construction",
        "convexity_violations",
        "<=",
        0.0,
        kind="check",
        title="No midpoint-convexity violation in any trained DFN",
        scale="exact",
        scale_note="every sampled pair of every trained DFN is checked",
        controls=("mlp_convexity_violations",),
        context=("dfns_checked",),
        unit="pairs",
        revisions=(
            Revision(
                "2026-12-01",
                "kind paper",
                "verified",
                "an identity: a min-cost-flow value is convex in its right-hand side for any parameters, so no trained DFN can violate it (contract v3: identities are checks)",
                "75a1345 (paper), 07dc147 (quick): 0 violations",
            ),
            Revision(
                "2026-12-02",
                "the DFNs checked had A the fixed selection (learn_A=False)",
                "verified",
                "the paper learns A: the DFNs checked are now the learned-A models (an LP value stays convex"
                " in its right-hand side whatever integer A is)",
                "75a1345 (paper), 07dc147 (quick): 0 violations",
            ),
        ),
    ),
    Claim(
        "e3_mse_vs_mlp",
        "E3 quadratic n={quad_dim}: DFN {quad_layers} ({quad_epochs} epochs, A learned) test MSE <= the"
        " strongest of MLP, max-affine and an equal-size ICNN ({mlp_epochs} epochs)",
        PAPER_E3,
        "dfn_test_mse",
        "<=",
        1.0,
        kind="paper",
        supports="accuracy",
        title="E3 quadratic: DFN test MSE <= the strongest baseline's",
        relative_to=("mlp_test_mse", "maxaffine_test_mse", "icnn_test_mse"),
        form="ratio",
        paper_figure=0.0035 / 0.0125,
        context=("dfnfixed_test_mse", "dfn_params", "icnn_params", "mlp_params", "dfn_a_drift_l1"),
        requires=_E3_MOVED,
        revisions=(
            Revision(
                "2026-12-02",
                "relative to the MLP only, DFN with A the fixed selection (learn_A=False)",
                "refuted",
                "the paper learns A (the fixed selection is an M-natural subclass, now the ablation"
                " dfnfixed_test_mse); the comparison is with the strongest baseline",
                "paper record 20261201T162053334183Z (7.6x the MLP)",
            ),
            Revision(
                "2026-12-02",
                "intervals pooled squared errors (and MILP instances) over seeds and points; no precondition"
                " on A",
                "refuted",
                "a seed-then-point bootstrap carries the training-seed variance; a run whose learned A never"
                " moved measured the M-natural ablation, so the test requires that A moved (else a check)",
                QUICK_A64 + ": 6.70x [4.81, 9.49], A drift 0",
            ),
        ),
    ),
    Claim(
        "e3_milp_faster",
        "E3: the DFN's MILP (box + budget) solves >= 28x faster than the fastest of the MLP's big-M MILP,"
        " the max-affine MILP and the ICNN's MILP",
        PAPER_E3,
        "dfn_milp_s",
        "<=",
        1 / 28,
        kind="paper",
        supports="faster_to_optimize",
        title="E3: the DFN's MILP solves >= 28x faster than the fastest baseline's",
        relative_to=("mlp_milp_s", "maxaffine_milp_s", "icnn_milp_s"),
        form="ratio",
        paper_figure=1.78 / 49.6,
        unit="s",
        context=("mlp_milp_capped", "dfn_milp_capped"),
        requires=_E3_MOVED,
        revisions=(
            Revision(
                "2026-12-02",
                "dfn_milp_s / mlp_milp_s <= 0.1 (10x, against the MLP only), A fixed",
                "toy-verified",
                "the paper reports 28-75x; max-affine and an ICNN are cheap-to-optimise baselines, so the"
                " rule is the paper's lower bar against the fastest of them",
                "paper record 20261201T162053334183Z (0.00245x the MLP; 0.48-1.07x max-affine)",
            ),
            Revision(
                "2026-12-02",
                "intervals pooled squared errors (and MILP instances) over seeds and points; no precondition"
                " on A",
                "refuted",
                "a seed-then-point bootstrap carries the training-seed variance; a run whose learned A never"
                " moved measured the M-natural ablation, so the test requires that A moved (else a check)",
                QUICK_A64 + ": 2.29x [1.58, 3.47], A drift 0",
            ),
        ),
    ),
    Claim(
        "e3_quality_vs_mlp",
        "E3: the DFN's solution-quality ratio (true value at its argmin / best known) <= the best of the"
        " MLP's, max-affine's and the ICNN's",
        "DFN 4.85 vs MLP 34.9 (quadratic n=16)",
        "dfn_quality",
        "<=",
        1.0,
        kind="paper",
        supports="accuracy",
        title="E3: true value at the DFN's argmin, relative to best, <= the best baseline's",
        relative_to=("mlp_quality", "maxaffine_quality", "icnn_quality"),
        form="ratio",
        paper_figure=4.85 / 34.9,
        requires=_E3_MOVED,
        revisions=(
            Revision(
                "2026-12-02",
                "relative to the MLP only, A fixed",
                "inconclusive",
                "comparisons are with the strongest baseline; A is learned as in the paper",
                "paper record 20261201T162053334183Z (1.018x [0.845, 1.232])",
            ),
            Revision(
                "2026-12-02",
                "intervals pooled squared errors (and MILP instances) over seeds and points; no precondition"
                " on A",
                "refuted",
                "a seed-then-point bootstrap carries the training-seed variance; a run whose learned A never"
                " moved measured the M-natural ablation, so the test requires that A moved (else a check)",
                QUICK_A64 + ": 2.47x [2.19, 2.74], A drift 0",
            ),
        ),
    ),
    Claim(
        "e4_mconvex_fit",
        "E4: on an M-convex truth (random integer min-cost-flow value, d={mconvex_dim}) the DFN "
        "reaches normalised test MSE <= 1e-4",
        "MDVSP: DFN 4.7e-6 MSE",
        "mconvex_test_nmse",
        "<=",
        1e-4,
        kind="paper",
        supports="accuracy",
        title="E4: M-convex truth fitted to normalised test MSE <= 1e-4",
        deterministic=True,
        controls=("mconvex_maxaffine_test_nmse", "mconvex_fixed_a_test_nmse"),
        requires=_E4_MOVED,
        revisions=(
            Revision(
                "2026-12-02",
                "DFN with A the fixed selection",
                "refuted",
                "the paper learns A; the fixed selection is now the control mconvex_fixed_a_test_nmse",
                "paper record 20261201T162053334183Z (0.00455)",
            ),
            Revision(
                "2026-12-02",
                "no precondition on A",
                "refuted",
                "a run whose learned A never moved measured the M-natural ablation: the test requires that A"
                " moved (else a check)",
                QUICK_A64 + ": 0.0267, A drift 0",
            ),
        ),
    ),
    Claim(
        "e4_lp_integral",
        "E4: the trained M-natural DFN (A = identity, real capacities and b as trained): the LP relaxation of"
        " its box + budget minimisation is integral on every instance (no branching needed)",
        "TU: no branching in the M-convex regime",
        "lp_fractionality_mnatural",
        "<=",
        1e-7,
        kind="paper",
        supports="complexity_deviation",
        title="E4: the trained M-natural DFN's own LP relaxation is integral",
        scale="exact",
        scale_note="the trained network's own relaxation, checked on every optimisation instance",
        deterministic=True,
        controls=("lp_fractionality_perturbed",),
        shown=("lp_fractionality_trained",),
        requires=(("mnatural_data_integer", ">=", 1),),
        revisions=(
            Revision(
                "2026-12-01",
                "kind paper",
                "verified",
                "an identity on the rounded copy (see e4_lp_integral_rounded)",
                "75a1345 (paper), 07dc147 (quick): fractionality 0",
            ),
            Revision(
                "2026-12-02",
                "kind check on a copy with capacities and b rounded to integers (lp_fractionality_identity)",
                "verified",
                "the rounded copy's relaxation is integral by total unimodularity whatever was trained, so it"
                " cannot fail; the claim is judged on the trained network itself (its relaxation was 0.499"
                " fractional), the rounded copy kept as the check e4_lp_integral_rounded",
                "paper record 20261201T162053334183Z (rounded copy 0, trained 0.4991)",
            ),
            Revision(
                "2026-12-02",
                "judged on the trained network's real capacities and b with no precondition",
                "refuted",
                "the abstract's characterisation of the M-convex regime rests on total unimodularity, which"
                " makes the relaxation integral only for integer capacities and b; a trained network with real"
                " data is outside that premise (its fractional relaxation is no counterexample), so the test"
                " requires integer data (mnatural_data_integer = 1) and is a check otherwise. Judging B&B"
                " nodes <= 1 instead was rejected: every MILP here solves at the root, the perturbed control"
                " too, so it could not fail",
                QUICK_A64 + ": fractionality 0.471 (control 0.5)",
            ),
        ),
    ),
    Claim(
        "e4_lp_integral_rounded",
        "E4: with A = identity, on the trained M-natural network with capacities and b rounded to integers,"
        " the LP relaxation of the box + budget minimisation is integral (TU)",
        "TU: no branching in the M-convex regime",
        "lp_fractionality_identity",
        "<=",
        1e-7,
        kind="check",
        title="E4: the integer-rounded M-natural copy's LP relaxation is integral (TU)",
        scale="exact",
        scale_note="checked on every optimisation instance",
        controls=("lp_fractionality_perturbed",),
    ),
    Claim(
        "work_grows_with_det",
        "E5: MILP solver work (simplex iterations + B&B nodes) rises with "
        "log sqrt det(A^T A) over {det_steps} checkpoints of A moved from identity: Spearman rho > 0.7",
        "optimisation complexity grows with the deviation from M-convexity (artifact rho ~ 0.98)",
        "work_det_spearman",
        ">",
        0.7,
        kind="paper",
        supports="complexity_deviation",
        title="E5: MILP work rises with log sqrt det(A^T A) (Spearman rho > 0.7)",
        deterministic=True,
        controls=("work_placebo_spearman",),
        shown=(
            "time_det_spearman",
            "det_spread",
            "det_schedule_max_nodes",
            "learned_a_drift_l1",
            "learned_log_sqrt_det",
            "learned_milp_work",
            "frozen_milp_work",
            "learned_test_nmse",
        ),
        revisions=(
            Revision(
                "2026-12-02",
                "judged whatever the schedule's MILPs branched",
                "refuted",
                "every MILP solved at the root (max nodes 1), so solver work could not show a branching"
                " effect; the test is now reported blocked with that reason when no schedule MILP explores"
                " more than 100 nodes",
                "paper record 20261201T162053334183Z (rho 0.158, max nodes 1)",
            ),
        ),
    ),
    Claim(
        "batched_solver_faster_paired",
        "Solver: the warm-started highspy path takes less time per LP solve than one linprog per sample "
        "({bench_solves} samples, each timed, paired interval)",
        "(engineering)",
        "batched_s_per_solve",
        "<",
        1.0,
        kind="check",
        title="Batched highspy solver faster per LP than one linprog per sample",
        relative_to=("linprog_s_per_solve",),
        form="ratio",
        unit="s",
        context=("batched_solves_per_s", "linprog_solves_per_s", "dfn_epoch_s"),
        revisions=(
            Revision(
                "2026-12-01",
                "batched_solves_per_s / linprog_solves_per_s > 1 on one batch timing (kept as check"
                " batched_solver_faster until contract v3)",
                "inconclusive",
                "one batch timing has no interval (9.1x in the first quick run); each solve is now timed so"
                " the ratio has a paired interval",
                "75a1345 (paper: 8.6x), 07dc147 (quick: 7.3x), no interval",
            ),
        ),
    ),
    Claim(
        "resource_allocation_row",
        "Resource allocation: DFN 0.00053 MSE / 0.34 s vs MLP 0.00080 / 16.1 s",
        "DFN 0.34 s vs MLP 16.1 s",
        "ra_milp_s",
        "<=",
        0.1,
        kind="paper",
        supports="faster_to_optimize",
        title="Resource allocation: DFN MILP >= 10x faster than the MLP's",
        relative_to=("ra_mlp_milp_s",),
        form="ratio",
    ),
    Claim(
        "mdvsp_row",
        "MDVSP: DFN 4.7e-6 MSE / 0.054 s vs MLP 2.2e-5 / 4.08 s",
        "DFN 0.054 s vs MLP 4.08 s",
        "mdvsp_milp_s",
        "<=",
        0.1,
        kind="paper",
        supports="faster_to_optimize",
        title="MDVSP: DFN MILP >= 10x faster than the MLP's",
        relative_to=("mdvsp_mlp_milp_s",),
        form="ratio",
    ),
    Claim(
        "lset_baseline",
        "E3: DFN test MSE <= LSET's (quadratic n=16: 0.0035 vs 0.0805)",
        "0.0035 vs 0.0805",
        "dfn_test_mse",
        "<=",
        1.0,
        kind="paper",
        supports="accuracy",
        title="E3: DFN test MSE <= LSET's",
        relative_to=("lset_test_mse",),
        form="ratio",
    ),
)
