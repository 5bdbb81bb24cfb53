"""C²R's claims, beside its abstract (verdict contract v3): what the paper says, and how we test it.

Our data is Fashion-MNIST (the paper's CIFAR, Tiny-ImageNet and ImageNet subsets are not available
offline), so every measured test is a proxy; bars marked "our bar" are ours, set before any run.
"""

from dataclasses import replace

from icml26.common import Background, Claim, PaperClaim, Revision

NOTE = (
    "Fashion-MNIST stands in for the paper's CIFAR-10/100, Tiny-ImageNet and ImageNet-1K subsets; the"
    " method is reconstructed from the abstract and a secondary note (docs/methods/c2r.md)."
)
BASELINES = ("rome", "dm", "random")

PAPER_CLAIMS = (
    PaperClaim(
        "best_robust",
        "C$^2$R achieves the best robust accuracy",
        "all",
        title="C²R has the best robust accuracy of the distillation methods",
    ),
    PaperClaim(
        "beats_prior_by_2_8",
        "outperforming prior robust DD by 2.8% on average",
        "headline",
        title="+2.8 points over the prior robust DD on the paper's benchmarks",
        headline="cifar_gain_2_8",
    ),
    PaperClaim(
        "score_approximates_hinge",
        "we derive a \\emph{perturbation score} that approximates each sample’s robust hinge",
        "all",
        title="The perturbation score approximates each sample's robust hinge",
    ),
    PaperClaim(
        "curriculum_drives_robustness",
        "a curriculum that prioritizes the smallest-margin adversaries that most directly drive robust error",
        "all",
        title="The smallest-margin-first curriculum is what drives robust accuracy",
    ),
    PaperClaim(
        "crl_invariance_and_separation",
        "a class-balanced contrastive robustness loss enforces adversarial invariance while explicitly"
        " widening boundary separation across classes",
        "all",
        title="The contrastive loss makes features invariant and classes further apart",
    ),
)

BACKGROUND = (
    Background(
        "most DD methods optimize only clean accuracy and leave robustness uncontrolled",
        "prior work, not tested",
    ),
    Background(
        "Recent robust DD methods improve robustness, yet they often suffer from a poor accuracy–robustness"
        " trade-off",
        "the motivation; our ROME-like baseline and the checks on clean accuracy show it on our data",
    ),
    Background(
        "We present Contrastive Curriculum for Robust Dataset Distillation", "the method's description"
    ),
)


def _mean_robust(ipc: int, protocol: str = "") -> str:
    return f"mean robust accuracy over {{attacks}} at eps = {{eps}}, IPC {ipc}{protocol}"


def _best(name: str, tag: str, statement: str, title: str, paper: str = "the best robust accuracy") -> Claim:
    return Claim(
        name,
        f"{statement}: C²R >= the strongest of ROME-like, DM and a random real subset (ratio >= 1);"
        " {inner_seeds} distillation seeds x {eval_nets} eval nets, {n_test} test images",
        paper,
        f"c2r_robust_{tag}",
        ">=",
        1.0,
        kind="paper",
        supports="best_robust",
        title=title,
        relative_to=tuple(f"{b}_robust_{tag}" for b in BASELINES),
        form="ratio",
        context=(f"c2r_clean_{tag}",),
    )


def _ablation(name: str, part: str, supports: str = "", kind: str = "check", title: str = "") -> Claim:
    return Claim(
        name,
        f"mean robust accuracy at IPC 10 of full C²R >= C²R without {part} (ratio >= 1; same seeds)",
        "ablations: dropping AAC costs most; CRL beats mean alignment; the queue matters",
        "c2r_robust_ipc10",
        ">=",
        1.0,
        kind=kind,
        supports=supports,
        title=title or f"Full C²R >= C²R without {part}",
        relative_to=(f"c2r_no_{part.split()[0].lower().replace('-', '_')}_robust_ipc10",),
        form="ratio",
    )


TESTS = (
    _best(
        "best_robust_ipc10",
        "ipc10",
        _mean_robust(10) + ", standard training",
        "IPC 10, standard training: C²R >= best baseline",
    ),
    _best(
        "best_robust_ipc1",
        "ipc1",
        _mean_robust(1) + ", standard training",
        "IPC 1, standard training: C²R >= best baseline",
    ),
    _best(
        "best_robust_pgdat_ipc10",
        "pgdat_ipc10",
        _mean_robust(10) + ", PGD-AT at 2/255",
        "IPC 10, PGD-AT training: C²R >= best baseline",
    ),
    Claim(
        "cifar_gain_2_8",
        "mean robust accuracy of C²R minus the prior robust DD's (ROME) over CIFAR-10/100, Tiny-ImageNet and"
        " ImageNet-1K subsets under six attacks >= 2.8 points",
        "+2.8% on average",
        "c2r_gain_cifar",
        ">=",
        0.028,
        kind="paper",
        supports="beats_prior_by_2_8",
        title="+2.8 points over ROME on CIFAR/Tiny-ImageNet/ImageNet (not here)",
        relative_to=("rome_gain_cifar",),
        form="difference",
    ),
    Claim(
        "score_hinge_spearman",
        "Spearman correlation of the perturbation score (PGD-{score_steps}) with the robust hinge (PGD-50,"
        " 3 restarts) over the C²R images under every pool net >= 0.8 (our bar); control: the clean hinge",
        "the score approximates each sample's robust hinge",
        "score_hinge_spearman_ipc10",
        ">=",
        0.8,
        kind="paper",
        supports="score_approximates_hinge",
        title="Score vs robust hinge: Spearman >= 0.8 (clean hinge as control)",
        controls=("clean_hinge_spearman_ipc10",),
    ),
    _ablation(
        "no_aac_ablation",
        "AAC",
        "curriculum_drives_robustness",
        "paper",
        "Full C²R >= C²R without the curriculum",
    ),
    Claim(
        "crl_invariance",
        "adversarial invariance (cosine of clean and PGD-10 test embeddings of the eval nets) of C²R minus"
        " C²R with class-mean alignment instead of CRL > 0, IPC 10",
        "enforces adversarial invariance",
        "c2r_invariance_ipc10",
        ">",
        0.0,
        kind="paper",
        supports="crl_invariance_and_separation",
        title="CRL raises adversarial invariance over mean alignment",
        relative_to=("c2r_no_crl_invariance_ipc10",),
        form="difference",
    ),
    Claim(
        "crl_separation",
        "mean logit margin of PGD-10 test images on the eval nets of C²R minus C²R with class-mean alignment"
        " instead of CRL > 0, IPC 10",
        "widening boundary separation across classes",
        "c2r_margin_ipc10",
        ">",
        0.0,
        kind="paper",
        supports="crl_invariance_and_separation",
        title="CRL widens the margin where attacks land over mean alignment",
        relative_to=("c2r_no_crl_margin_ipc10",),
        form="difference",
    ),
    _ablation("crl_ablation", "CRL (class-mean alignment instead)"),
    _ablation("no_queue_ablation", "queue"),
    Claim(
        "beats_rome_by_1_5",
        "mean robust accuracy at IPC 10: C²R - ROME-like >= 1.5 points (the issue's bar)",
        "(our check of the paper's margin)",
        "c2r_robust_ipc10",
        ">=",
        0.015,
        kind="check",
        title="C²R >= ROME-like + 1.5 points",
        relative_to=("rome_robust_ipc10",),
        form="difference",
    ),
    Claim(
        "beats_dm_by_3",
        "mean robust accuracy at IPC 10: C²R - DM >= 3 points (the issue's bar)",
        "(our check)",
        "c2r_robust_ipc10",
        ">=",
        0.03,
        kind="check",
        title="C²R >= DM + 3 points",
        relative_to=("dm_robust_ipc10",),
        form="difference",
    ),
    Claim(
        "clean_near_dm",
        "clean accuracy at IPC 10: C²R - DM >= -3 points (the accuracy-robustness trade-off)",
        "(our check)",
        "c2r_clean_ipc10",
        ">=",
        -0.03,
        kind="check",
        title="C²R's clean accuracy >= DM's - 3 points",
        relative_to=("dm_clean_ipc10",),
        form="difference",
    ),
    Claim(
        "lspgd_matches_pgd",
        "PGD-10 robust accuracy at IPC 10 of C²R distilled with LS-PGD minus with PGD-10 inside the loop in"
        " [-2, 2] points (not in the abstract: the secondary note's claim)",
        "LS-PGD matches PGD accuracy at lower cost",
        "c2r_pgd10_ipc10",
        "in",
        (-0.02, 0.02),
        kind="check",
        title="LS-PGD inside the loop matches PGD-10 within 2 points",
        relative_to=("c2r_pgd10_pgd10_ipc10",),
        form="difference",
    ),
    Claim(
        "lspgd_cost",
        "distillation CPU-seconds of C²R with LS-PGD over C²R with PGD-10 inside the loop <= 0.5 (same run)",
        "LS-PGD matches PGD accuracy at lower cost",
        "lspgd_cpu_ratio_ipc10",
        "<=",
        0.5,
        kind="check",
        title="LS-PGD distillation costs <= 0.5x PGD-10's",
    ),
    Claim(
        "lspgd_backward_passes",
        "backward passes of the inner attack per synthetic sample and iteration (counted by a hook) <= 1.3",
        "~1 backward pass instead of T",
        "c2r_attack_backward_ipc10",
        "<=",
        1.3,
        kind="check",
        title="LS-PGD takes <= 1.3 backward passes per sample",
    ),
    Claim(
        "no_masking_eps",
        "PGD-10 robust accuracy of C²R's first eval net never rises along eps = {eps_sweep} (largest rise"
        " <= 1 point)",
        "(our gradient-masking check)",
        "eps_sweep_largest_rise_ipc10",
        "<=",
        0.01,
        kind="check",
        title="No masking: robust accuracy falls as eps grows",
    ),
    Claim(
        "no_masking_restarts",
        "PGD-50 with 3 restarts minus PGD-10 robust accuracy <= 0.5 points (a stronger attack is not weaker)",
        "(our gradient-masking check)",
        "pgd50x3_minus_pgd10_ipc10",
        "<=",
        0.005,
        kind="check",
        title="No masking: PGD-50x3 is at least as strong as PGD-10",
    ),
    Claim(
        "no_masking_transfer",
        "accuracy under transfer from a standard net minus white-box PGD-10 accuracy >= -0.5 points",
        "(our gradient-masking check)",
        "transfer_minus_whitebox_ipc10",
        ">=",
        -0.005,
        kind="check",
        title="No masking: transfer attacks are weaker than white-box",
    ),
)

# The first quick profile (iterations 100, eval_epochs 200, eval_nets 2, n_test 500) took 574 s on one
# core, over the 4-minute budget; it was shrunk on 2026-12-02. The tests it judged keep its verdicts.
_FIRST_QUICK = {
    "best_robust_ipc10": "inconclusive",
    "best_robust_ipc1": "blocked",
    "best_robust_pgdat_ipc10": "blocked",
    "score_hinge_spearman": "toy-verified",
    "beats_rome_by_1_5": "inconclusive",
    "beats_dm_by_3": "inconclusive",
    "clean_near_dm": "inconclusive",
    "lspgd_backward_passes": "toy-verified",
}


def _first_quick(verdict: str) -> Revision:
    return Revision(
        "2026-12-02",
        "quick profile: iterations 100, eval_epochs 200, eval_nets 2, n_test 500",
        verdict,
        "it took 574 s on one core, over the 4-minute quick budget; quick now runs iterations 50,"
        " eval_epochs 120, eval_nets 1, n_test 400 (the paper profile is unchanged)",
        "2fff5e7 (quick record 20261201T235454458585Z)",
    )


TESTS = tuple(
    replace(t, revisions=(*t.revisions, _first_quick(_FIRST_QUICK[t.name]))) if t.name in _FIRST_QUICK else t
    for t in TESTS
)

NAMES = {
    "rome_robust_ipc10": "ROME-like",
    "dm_robust_ipc10": "DM",
    "random_robust_ipc10": "random real subset",
    "rome_robust_ipc1": "ROME-like",
    "dm_robust_ipc1": "DM",
    "random_robust_ipc1": "random real subset",
    "rome_robust_pgdat_ipc10": "ROME-like (PGD-AT)",
    "dm_robust_pgdat_ipc10": "DM (PGD-AT)",
    "random_robust_pgdat_ipc10": "random real subset (PGD-AT)",
    "clean_hinge_spearman_ipc10": "clean hinge",
    "c2r_no_aac_robust_ipc10": "C²R without AAC",
    "c2r_no_crl_robust_ipc10": "C²R with mean alignment",
    "c2r_no_queue_robust_ipc10": "C²R without queue",
    "c2r_no_crl_invariance_ipc10": "C²R with mean alignment",
    "c2r_no_crl_margin_ipc10": "C²R with mean alignment",
    "c2r_pgd10_pgd10_ipc10": "C²R with PGD-10 inside",
    "dm_clean_ipc10": "DM clean",
}
