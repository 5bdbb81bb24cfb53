"""What the paper claims (its abstract) and the tests that judge it: declarations only."""

from __future__ import annotations

from icml26.common import Background, Claim, PaperClaim, Revision

PAPER_CLAIMS = (
    PaperClaim(
        "sparse_private",
        "sparse interpretable models tend to preserve privacy",
        "most",
        title="Sparse interpretable models tend to preserve privacy",
    ),
    PaperClaim(
        "sparse_fragile",
        "are fragile to adversarial attacks",
        "all",
        title="Sparse interpretable models are fragile to adversarial attacks",
    ),
    PaperClaim(
        "reactive_robustness",
        "a practitioner can switch to a different near-optimal model that remains accurate, without"
        " retraining",
        "any",
        title="Reactive robustness: switch to another near-optimal model that stays accurate",
    ),
    PaperClaim(
        "leakage_grows",
        "disclosing more near-optimal models provides an attacker with progressively richer views of the"
        " training data",
        "all",
        title="Disclosing more near-optimal models leaks more about the training data",
    ),
    PaperClaim(
        "tradeoff",
        "This produces a robustness–privacy trade-off governed by diversity",
        "all",
        title="A robustness-privacy trade-off governed by diversity",
    ),
    PaperClaim(
        "stable",
        "Rashomon sets are stable under small distribution shifts",
        "all",
        title="Rashomon sets are stable under small distribution shifts",
    ),
)

BACKGROUND = (
    Background(
        "Real-world machine learning (ML) pipelines rarely produce a single model; instead, they produce a"
        " Rashomon set of many near-optimal ones",
        "the setting",
    ),
    Background(
        "We show that this multiplicity reshapes key aspects of trustworthiness",
        "a summary of the claims below",
    ),
    Background(
        "so a set computed once remains valid under such shifts without re-computation",
        "a consequence of stability (tested under stable)",
    ),
    Background(
        "Our results highlight the dual role of Rashomon sets as both a resource and a risk for trustworthy ML",
        "a summary",
    ),
)

TESTS = (
    Claim(
        "sparse_fragile",
        "Sparse interpretable models are fragile: the optimal sparse tree (depth {depth})"
        " loses >= 0.10 accuracy under an exact L-inf attack at eps = {headline_eps} (breast_cancer)",
        "sparse models are fragile to adversarial attacks",
        "bc_f0_adv_drop",
        ">=",
        0.10,
        kind="paper",
        controls=("bc_advcart_adv_drop", "bc_cartfull_adv_drop"),
        shown=("bc_f0_clean", "bc_f0_adv"),
        title="The optimal sparse tree loses >= 0.10 accuracy under an exact attack",
        supports="sparse_fragile",
        revisions=(
            Revision(
                "2026-12-02",
                "one control, adversarially retrained CART-5 (its drop under its own white-box attack)",
                "non-discriminating",
                "review (issue 44): a fragility rule a non-sparse model also meets does not single out"
                " sparse models; the fully grown CART (not sparse) is added as a second control, so the"
                " verdict says whether the rule separates sparse from dense trees",
                "648b8b2 (quick record 20261201T230113996993Z)",
            ),
        ),
    ),
    Claim(
        "sparse_private",
        "Sparse interpretable models preserve privacy: membership-inference accuracy (max of"
        " ART rule-based and black-box) on the optimal depth-3 sparse tree <= 0.55 (COMPAS, 500 + 500)",
        "sparse models tend to preserve privacy",
        "compas_sparse3_mia",
        "<=",
        0.55,
        kind="paper",
        controls=("compas_cart_full_mia", "compas_cart5_mia", "compas_dp_tree3_mia", "compas_rf_mia"),
        shown=("compas_sparse1_mia", "compas_sparse3_acc", "compas_dp_tree3_acc"),
        title="MIA accuracy on the optimal depth-3 sparse tree <= 0.55 (COMPAS)",
        supports="sparse_private",
        revisions=(
            Revision(
                "2026-12-02",
                "controls: fully grown CART, CART-5, the Laplace-noised depth-3 tree",
                "non-discriminating",
                "review (issue 44): the fully grown CART passed the same 0.55 rule (0.547), so the rule"
                " does not single out sparse models; a random forest (100 trees) is added as a control",
                "648b8b2 (quick record 20261201T230113996993Z)",
            ),
        ),
    ),
    Claim(
        "reactive_gain",
        "Reactive robustness against the real alternatives: the member of R best on attacked half A, scored"
        " on half B, is at least as accurate under the attack as the strongest of (a) the member of R"
        " picked for its own robustness under its own white-box attack, (b) the best on half A of"
        " {pool_size} ordinary CARTs facing the same attack on f0, (c) a random forest of {rf_trees} trees"
        " facing it (breast_cancer, eps = {headline_eps}, paired over splits)",
        "others often remain accurate (no number)",
        "bc_switched_adv",
        ">=",
        0.0,
        kind="paper",
        relative_to=("bc_own_adv", "bc_pool_adv", "bc_rf_adv"),
        form="difference",
        context=("bc_rashomon_size", "bc_f0_adv", "bc_cart3_f0attack_adv", "bc_advcart_adv"),
        title="Switching within R at least as accurate as the strongest real alternative",
        supports="reactive_robustness",
        revisions=(
            Revision(
                "2026-12-02",
                "bc_switched_adv - bc_f0_adv >= 0.15 (the gain over f0 under f0's own white-box attack)",
                "inconclusive",
                "review (issue 44): the switched member faces a transfer attack while f0 faces a"
                " white-box one; one ordinary CART-3 under f0's attack (0.801) did as well as the switch"
                " (0.805), so the gain over f0 measures transfer weakness, not the Rashomon set; the gain"
                " over f0 is kept as the check reactive_gain_over_f0",
                "648b8b2 (quick record 20261201T230113996993Z)",
            ),
        ),
    ),
    Claim(
        "reactive_gain_over_f0",
        "The original rule: switching to the member of R best on attacked half A gains >= 0.15 adversarial"
        " accuracy over f0 on half B (breast_cancer, eps = {headline_eps}); a transfer attack against a"
        " white-box one, so a check",
        "(the gain over the attacked model)",
        "bc_switched_adv",
        ">=",
        0.15,
        kind="check",
        relative_to=("bc_f0_adv",),
        form="difference",
        title="Switching within R gains >= 0.15 adversarial accuracy over f0 (transfer)",
    ),
    Claim(
        "reactive_recovers",
        "Reading 1 of 'lands within 0.03 of f0's clean accuracy': the switched member's adversarial"
        " accuracy is at most 0.03 below f0's clean accuracy (breast_cancer, eps = {headline_eps})",
        "remains accurate, without retraining",
        "bc_switched_adv",
        ">=",
        -0.03,
        kind="paper",
        relative_to=("bc_f0_clean",),
        form="difference",
        context=("bc_switched_clean",),
        title="Reading 1: switched member's attacked accuracy within 0.03 of f0's clean",
        supports="reactive_robustness",
    ),
    Claim(
        "reactive_recovers_clean",
        "Reading 2 of 'lands within 0.03 of f0's clean accuracy' (both readings stood before the first"
        " run): the switched member's clean accuracy is within 0.03 of f0's clean accuracy (breast_cancer,"
        " eps = {headline_eps}, half B); control: f0 itself under the attack",
        "remains accurate, without retraining",
        "bc_switched_clean",
        "in",
        (-0.03, 0.03),
        kind="paper",
        relative_to=("bc_f0_clean",),
        form="difference",
        controls=("bc_f0_adv",),
        context=("bc_switched_adv",),
        title="Reading 2: switched member's clean accuracy within 0.03 of f0's",
        supports="reactive_robustness",
    ),
    Claim(
        "leakage_grows",
        "Disclosing more models leaks more: reconstruction error from the largest k of {ks} disclosed trees"
        " is >= 0.05 below that from 1 (COMPAS n = {recon_n}, depth 3, random order; seeds with a CP-SAT"
        " timeout left out and counted)",
        "progressively richer views of the training data",
        "recon_err_kmax",
        "<=",
        -0.05,
        kind="paper",
        relative_to=("recon_err_k1",),
        form="difference",
        context=("recon_timeouts", "recon_seeds_used", "recon_rashomon_size", "recon_modefill_kmax"),
        title="Reconstruction error from k max disclosed trees >= 0.05 below k = 1",
        supports="leakage_grows",
        revisions=(
            Revision(
                "2026-12-01",
                "all seeds, no value when any seed's CP-SAT solve timed out (kept as test"
                " leakage_grows_allseeds until contract v3)",
                "inconclusive",
                "one CP-SAT timeout (k = 16, 1 of 4 seeds) left no value in the first quick run (its"
                " record was not kept); seeds with a timeout are now left out and counted (recon_timeouts)",
                "7078810 (first quick run)",
            ),
        ),
    ),
    Claim(
        "tradeoff",
        "The trade-off is governed by diversity, robustness edge: switching among the first (largest k of"
        " {ks}) members in diversity order (f* first) gains more adversarial accuracy over f0 than the same number in"
        " random orders ({n_orders} orders per split, f* first) (breast_cancer, paired over splits)",
        "robustness-privacy trade-off governed by diversity",
        "bc_gain_kmax",
        ">",
        0.0,
        kind="paper",
        relative_to=("bc_gain_kmax_random",),
        form="difference",
        shown=("tradeoff_min_edge",),
        context=("bc_rashomon_size",),
        title="Diversity order raises switched accuracy more than random orders",
        supports="tradeoff",
        revisions=(
            Revision(
                "2026-12-02",
                "min(bc_gain_kmax, leak_drop_diverse) > 0 (tradeoff_min_edge), control 'k copies of f0'"
                " (a constant 0 written in run())",
                "toy-verified",
                "review (issue 44): the control was a constant, and any k members give some gain and"
                " leakage; 'governed by diversity' is now judged against random disclosure orders of the"
                " same size, one test per edge (this one and tradeoff_leak)",
                "648b8b2 (quick record 20261201T230113996993Z)",
            ),
        ),
    ),
    Claim(
        "tradeoff_leak",
        "The trade-off is governed by diversity, privacy edge: disclosing the first (largest k of {ks})"
        " members in diversity order lowers reconstruction error (from k = 1) more than disclosing them in a random"
        " order (COMPAS n = {recon_n}, paired over the seeds whose solves all finished)",
        "robustness-privacy trade-off governed by diversity",
        "leak_drop_diverse",
        ">",
        0.0,
        kind="paper",
        relative_to=("leak_drop_random",),
        form="difference",
        context=("recon_timeouts",),
        title="Diversity order lowers reconstruction error more than a random order",
        supports="tradeoff",
    ),
    Claim(
        "stable_label_flip",
        "Rashomon sets are stable: under 2% label flips >= 70% of R(D) stays in"
        " R_D'(eps) at the same eps (COMPAS n = {stab_n}, depth 3)",
        "stable under small shifts",
        "compas_stay_flip2",
        ">=",
        0.70,
        kind="paper",
        controls=("compas_nearmiss_stay_flip2",),
        shown=("compas_overlap_flip2", "compas_stay_delta_flip2"),
        title="Under 2% label flips >= 70% of R(D) stays in the new Rashomon set",
        supports="stable",
    ),
    Claim(
        "stable_bootstrap",
        "Rashomon sets are stable under a bootstrap resample: >= 70% of R(D) stays in R_D'(eps) at the same"
        " eps (COMPAS n = {stab_n}, depth 3; the label-flip test's threshold)",
        "stable under small shifts",
        "compas_stay_boot",
        ">=",
        0.70,
        kind="paper",
        controls=("compas_nearmiss_stay_boot",),
        shown=("compas_overlap_boot", "compas_stay_delta_boot"),
        title="Under a bootstrap resample >= 70% of R(D) stays in the new Rashomon set",
        supports="stable",
    ),
    Claim(
        "stable_bit_flip",
        "Rashomon sets are stable under 2% feature bit flips: >= 70% of R(D) stays in R_D'(eps) at the same"
        " eps (COMPAS n = {stab_n}, depth 3; the label-flip test's threshold)",
        "stable under small shifts",
        "compas_stay_bits2",
        ">=",
        0.70,
        kind="paper",
        controls=("compas_nearmiss_stay_bits2",),
        shown=("compas_overlap_bits2", "compas_stay_delta_bits2"),
        title="Under 2% bit flips >= 70% of R(D) stays in the new Rashomon set",
        supports="stable",
    ),
    Claim(
        "theory_tradeoff",
        "The paper's theoretical characterisation of the trade-off",
        "theorems (unread)",
        "theory_tradeoff",
        ">=",
        0.0,
        kind="paper",  # always blocked in run()
        controls=("bc_gain_kmax_random",),
        title="The paper's theoretical characterisation of the trade-off",
        supports="tradeoff",
        revisions=(
            Revision(
                "2026-12-02",
                "control tradeoff_nodiversity (a constant 0)",
                "blocked",
                "the constant control is gone (issue 44); the random-order gain stands in",
                "648b8b2 (quick record 20261201T230113996993Z)",
            ),
        ),
    ),
    # ---- checks
    Claim(
        "mia_below_cart",
        "MIA accuracy on the depth-3 sparse tree is strictly below a fully grown CART's on the same split",
        "(issue target)",
        "compas_sparse3_mia",
        "<",
        0.0,
        kind="check",
        relative_to=("compas_cart_full_mia",),
        form="difference",
        title="MIA on the depth-3 sparse tree below a fully grown CART's",
    ),
    Claim(
        "recon_monotone",
        "Reconstruction error is non-increasing in k up to 0.01 (worst seed's largest rise)",
        "(issue target)",
        "recon_max_rise",
        "<=",
        0.01,
        kind="check",
        scale="exact",
        scale_note="every seed's error curve checked",
        title="Reconstruction error non-increasing in k (up to 0.01)",
    ),
    Claim(
        "recon_beats_mode_fair",
        "Reconstruction from one tree beats the marginal-mode guess when both know the marginals: every"
        " bit no disclosed leaf path constrains is set to the per-feature marginal mode (the same"
        " CP-SAT solutions as recon_beats_mode)",
        "(issue target)",
        "recon_modefill_k1",
        "<",
        0.0,
        kind="check",
        relative_to=("recon_mode_err",),
        form="difference",
        context=("recon_err_k1", "recon_random_err"),
        title="Reconstruction from one tree beats the marginal-mode guess (fair fill)",
        revisions=(
            Revision(
                "2026-12-01",
                "recon_err_k1 (CP-SAT's default-0 fill) < marginal mode, over all seeds, no value when"
                " any solve timed out (test recon_beats_mode_allseeds until contract v3)",
                "inconclusive",
                "one CP-SAT timeout (k = 16, 1 of 4 seeds) left no value in the first quick run (its record"
                " was not kept); seeds with a timeout are now left out and counted",
                "7078810 (first quick run)",
            ),
            Revision(
                "2026-12-01",
                "recon_err_k1 (CP-SAT's default-0 fill of unconstrained bits) < marginal mode (test"
                " recon_beats_mode until contract v3)",
                "toy-verified",
                "the 0-fill equals the COMPAS mode on 12 of 14 features, so part of that win is a solver"
                " artefact; both guesses now know the marginals",
                "e48058f+dirty (quick and paper records)",
            ),
        ),
    ),
    Claim(
        "survival_monotone",
        "The share of R that survives the attack on f0 never rises with eps (every split)",
        "(issue target)",
        "bc_survival_max_rise",
        "<=",
        0.0,
        kind="check",
        scale="exact",
        scale_note="every split and consecutive eps pair checked",
        title="The share of R surviving the attack on f0 never rises with eps",
    ),
    Claim(
        "optimum_matches_gosdt",
        "The minimum objective in R equals GOSDT's optimum (breast_cancer split 0)",
        "(correctness)",
        "bc_gosdt_gap",
        "<=",
        1e-6,
        kind="check",
        scale="exact",
        scale_note="objective recomputed from predictions",
        title="The minimum objective in R equals GOSDT's optimum",
    ),
    Claim(
        "bound_holds",
        "Every tree treefarms returns satisfies Obj <= (1 + eps) Obj*, recomputed from its predictions,"
        " before RashomonSet's filter (the largest excess over every split; the filter's invariant is a"
        " unit test)",
        "(correctness)",
        "bc_treefarms_excess",
        "<=",
        1e-6,
        kind="check",
        scale="exact",
        scale_note="every returned tree of every split checked",
        context=("bc_treefarms_dropped", "bc_bound_excess"),
        title="Every tree treefarms returns satisfies Obj <= (1 + eps) Obj*",
        revisions=(
            Revision(
                "2026-12-02",
                "bc_bound_excess: the members of R after RashomonSet drops the trees above the bound"
                " (split 0)",
                "verified",
                "review (issue 44): true by construction (the filter makes it so); the check now measures"
                " what treefarms returns, and the filtered set's bound is a unit test",
                "648b8b2 (quick record 20261201T230113996993Z)",
            ),
        ),
    ),
    Claim(
        "treefarms_complete",
        "treefarms' set is the whole definitional R(eps): its in-bound trees number the exact count of"
        " every tree of the depth budget with any leaf labels and Obj <= (1 + eps) Obj* (breast_cancer"
        " split 0; omitted = count - |R|)",
        "(correctness of the model space)",
        "bc_omitted",
        "<=",
        0.0,
        kind="check",
        scale="exact",
        scale_note="the definitional set counted exactly by dynamic programming",
        context=("bc_full_count", "bc_rashomon_size"),
        title="treefarms' set equals the definitional R(eps) (omitted trees = 0)",
    ),
    Claim(
        "stable_bc",
        "breast_cancer: under 2% label flips >= 70% of R(D) stays in R_D'(eps)",
        "(our check)",
        "bc_stay_flip2",
        ">=",
        0.70,
        kind="check",
        context=("bc_nearmiss_stay_flip2",),
        title="breast_cancer: under 2% label flips >= 70% of R(D) stays",
    ),
    Claim(
        "reactive_beats_proactive",
        "The switched member is at least as accurate under attack as adversarially"
        " retrained CART (breast_cancer)",
        "(our comparison)",
        "bc_switched_adv",
        ">=",
        0.0,
        kind="check",
        relative_to=("bc_advcart_adv",),
        form="difference",
        title="The switched member at least as accurate as adversarial CART",
    ),
)


NAMES = {
    "bc_f0_adv": "optimal tree f0 (attacked)",
    "bc_f0_clean": "f0 clean accuracy",
    "bc_advcart_adv": "adversarially retrained CART",
    "bc_advcart_adv_drop": "adversarially retrained CART",
    "compas_cart_full_mia": "fully grown CART",
    "compas_cart5_mia": "CART depth 5",
    "compas_dp_tree3_mia": "Laplace-noised depth-3 tree (DP)",
    "recon_err_k1": "k = 1",
    "recon_mode_err": "marginal-mode guess",
    "bc_own_adv": "member of R picked under its own white-box attack",
    "bc_pool_adv": "best of a pool of ordinary CARTs under f0's attack",
    "bc_rf_adv": "random forest under f0's attack",
    "bc_cartfull_adv_drop": "fully grown CART",
    "compas_rf_mia": "random forest",
    "bc_gain_kmax_random": "random disclosure orders",
    "leak_drop_random": "random disclosure order",
    "compas_nearmiss_stay_boot": "near-miss trees R(2 eps) \\ R(eps)",
    "compas_nearmiss_stay_bits2": "near-miss trees R(2 eps) \\ R(eps)",
    "compas_nearmiss_stay_flip2": "near-miss trees R(2 eps) \\ R(eps)",
}
