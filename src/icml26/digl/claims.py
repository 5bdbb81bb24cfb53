"""DIGL's claims (verdict contract v3), read beside the abstract; declarations only.

The paper's text beyond its abstract was not found (the PMLR PDF du26o is indexed, but only its first
page could be read), so no paper number is available: every rule below is this project's reading of
the abstract's words, fixed before any run. Metrics: ``<split>_<method>_ood_acc`` is the mean over
inner seeds of the OOD test accuracy at the best OOD-validation epoch of the method's selected weight;
``<split>`` is ``concept`` / ``covariate`` (GOOD-Motif basis) or ``spm09`` (Spurious-Motif b = 0.9).
"""

from icml26.common import Background, Claim, PaperClaim, Revision

SPLITS = ("concept", "covariate", "spm09")
_SPLIT_WORDS = {
    "concept": "GOOD-Motif basis concept",
    "covariate": "GOOD-Motif basis covariate",
    "spm09": "Spurious-Motif b = 0.9",
}
_BASELINES = ("erm", "irm", "vrex", "groupdro", "coral", "mixup")
_SEEDS = (("seeds", ">=", 5),)  # differences are claimed only across >= 5 paired seeds (effects are small)

PAPER_CLAIMS = (
    PaperClaim(
        "improves_ood",
        "a novel graph learning method that improves the OOD generalization of GNNs",
        "all",
        title="DIGL improves a GNN's OOD accuracy over plain training (ERM)",
        conditions=">= 5 paired training seeds",
    ),
    PaperClaim(
        "invariant_representations",
        "promote the model to learn purely invariant graph representations for downstream tasks",
        "all",
        title="DIGL's embeddings are invariant across training environments",
        conditions="on held-out graphs of the training environments; DIGL's ID accuracy within 2 points of ERM's",
    ),
    PaperClaim(
        "superior_to_baselines",
        "demonstrate the superior generalization ability of our method compared with baseline methods"
        " under various OOD settings",
        "all",
        title="DIGL matches or beats the strongest baseline on every OOD split",
        conditions=">= 5 paired training seeds; each method's weight selected on OOD validation",
    ),
)

BACKGROUND = (
    Background(
        "Graph neural networks (GNNs) excel in graph analyzing tasks but often suffer from poor generalization"
        " under Out-of-Distribution (OOD) scenarios.",
        "motivation (ERM's ID-vs-OOD gap is reported in the tables, not tested)",
    ),
    Background(
        "most solutions primarily rely on empirical designs, lacking effective mechanisms to characterize and"
        " quantify invariance for graph representation learning",
        "a statement about prior work",
    ),
    Background(
        "Our work makes an initial attempt to geometrize invariance for graphs by introducing computational"
        " optimal transport (OT) theory to characterize invariance principle.",
        "a novelty statement",
    ),
    Background(
        "we formulate the underlying invariant prototype shared by graphs across different environments as a"
        " distribution barycenter, and consider graph representations in each specific environment as"
        " distortions of the prototype",
        "the method's definition (implemented: barycenter.py, digl.py; its identities are unit tests)",
    ),
    Background(
        "we derive a unified optimization objective for model implementation and provide theoretical analysis"
        " to justify our method",
        "the objective is implemented as reconstructed; the theory is not available (paper text not found)",
    ),
)


def _superior(p: str) -> Claim:
    return Claim(
        f"superior_{p}",
        f"{_SPLIT_WORDS[p]}, {{seeds}} paired seeds x {{epochs}} epochs: DIGL's mean OOD test accuracy >= the"
        " strongest of ERM, IRM, VREx, GroupDRO, Coral and Mixup (each at its OOD-validation-selected weight)",
        "superior generalization (no number available)",
        f"{p}_digl_ood_acc",
        ">=",
        1.0,
        kind="paper",
        supports="superior_to_baselines",
        title=f"{_SPLIT_WORDS[p]}: DIGL OOD acc >= strongest baseline",
        relative_to=tuple(f"{p}_{m}_ood_acc" for m in _BASELINES),
        form="ratio",
        requires=_SEEDS,
        settings=("n_train", "grid_digl"),
    )


def _improves(p: str) -> Claim:
    return Claim(
        f"improves_{p}",
        f"{_SPLIT_WORDS[p]}, {{seeds}} paired seeds: DIGL's mean OOD test accuracy > ERM's (same GIN, same batches)",
        "improves the OOD generalization of GNNs",
        f"{p}_digl_ood_acc",
        ">",
        1.0,
        kind="paper",
        supports="improves_ood",
        title=f"{_SPLIT_WORDS[p]}: DIGL OOD acc > ERM",
        relative_to=(f"{p}_erm_ood_acc",),
        form="ratio",
        requires=_SEEDS,
    )


_W2_OLD_VERDICT = {"spm09": "refuted"}  # the verdict the old rule had in a committed record (else: none)
_W2_RUN = "20261201T232857585380Z"  # quick, 5-seed override, commit 8cc34a0


def _w2(p: str) -> Claim:
    return Claim(
        f"w2_{p}",
        f"{_SPLIT_WORDS[p]}, ID-validation graphs (held out, with env ids): the mean class-conditional W2 between"
        " environments' embeddings (standardised by the pooled within-class std) exceeds its value under"
        " environment ids shuffled within each class by <= 10% (no more environment structure than chance)",
        "purely invariant graph representations",
        f"{p}_digl_env_w2_excess",
        "<=",
        0.10,
        kind="paper",
        supports="invariant_representations",
        title=f"{_SPLIT_WORDS[p]}: cross-env W2 within 10% of its shuffled-env floor",
        controls=(f"{p}_erm_env_w2_excess",),
        shown=(f"{p}_digl_env_w2", f"{p}_erm_env_w2", f"{p}_digl_id_acc", f"{p}_erm_id_acc"),
        revisions=(
            Revision(
                "2026-12-02",
                f"{p}_digl_env_w2 / {p}_erm_env_w2 <= 0.5 (raw W2 between environments, relative to ERM's)",
                _W2_OLD_VERDICT.get(p, "blocked"),
                "review: between two finite samples of one distribution the W2 in 64 standardised dimensions is"
                " far from 0 (ERM on spm09: 3.96 against 3.79 +- 0.55 with env ids shuffled within class), so a"
                " perfectly invariant embedding sits at that floor, about ERM's value, and the old rule could not"
                " pass; the rule now measures the excess over the shuffled-env floor, 10% mirroring the probe's"
                " 10-point tolerance, with ERM's excess as the control (ERM passing too = nothing to remove)",
                _W2_RUN if p in _W2_OLD_VERDICT else "",
            ),
        ),
    )


def _probe(p: str) -> Claim:
    return Claim(
        f"probe_{p}",
        f"{_SPLIT_WORDS[p]}, ID-validation graphs: a logistic env-id probe within each class (5-fold CV) scores"
        " <= the within-class majority rate + 10 points",
        "purely invariant graph representations",
        f"{p}_digl_probe_gap",
        "<=",
        0.10,
        kind="paper",
        supports="invariant_representations",
        title=f"{_SPLIT_WORDS[p]}: env probe <= majority + 10 points",
        controls=(f"{p}_erm_probe_gap",),
    )


def _id_within(p: str) -> Claim:
    return Claim(
        f"idacc_{p}",
        f"{_SPLIT_WORDS[p]}: DIGL's ID-validation accuracy within 2 points of ERM's (the mechanism tests' condition)",
        "(this project's condition)",
        f"{p}_digl_id_acc",
        "in",
        (-0.02, 0.02),
        kind="check",
        title=f"{_SPLIT_WORDS[p]}: ID accuracy within 2 points of ERM",
        relative_to=(f"{p}_erm_id_acc",),
        form="difference",
    )


def _margin(p: str, points: float) -> Claim:
    word = "+3 points over" if points > 0 else "no worse than ERM - 2 points:"
    return Claim(
        f"margin{abs(int(points * 100))}_{p}",
        f"{_SPLIT_WORDS[p]}: DIGL's mean OOD test accuracy - ERM's >= {points:+.2f} (the issue's target)",
        "(the issue's target; no paper number)",
        f"{p}_digl_ood_acc",
        ">=",
        points,
        kind="check",
        title=f"{_SPLIT_WORDS[p]}: DIGL {word} ERM"[:80],
        relative_to=(f"{p}_erm_ood_acc",),
        form="difference",
    )


TESTS = (
    *(_superior(p) for p in SPLITS),
    Claim(
        "suite_superior",
        "The paper's own benchmark suites (GOOD, DrugOOD and similar): DIGL >= the strongest baseline",
        "superior generalization on a broad range of benchmark datasets",
        "suite_digl_acc",
        ">=",
        1.0,
        kind="paper",
        supports="superior_to_baselines",
        title="The paper's benchmark suites: DIGL >= strongest baseline",
        relative_to=("suite_best_baseline_acc",),
        form="ratio",
    ),
    *(_improves(p) for p in SPLITS),
    *(_w2(p) for p in SPLITS),
    *(_probe(p) for p in SPLITS),
    *(_id_within(p) for p in SPLITS),
    _margin("concept", 0.03),
    _margin("spm09", 0.03),
    *(_margin(p, -0.02) for p in SPLITS),
    Claim(
        "lam0_equals_erm",
        "DIGL with lam = 0 (barycenters computed, weight 0) ends with ERM's parameters bit for bit (same seed)",
        "(an identity of the objective)",
        "lam0_matches_erm",
        ">=",
        1.0,
        kind="check",
        title="lam = 0 reproduces ERM bit for bit",
        deterministic=True,
    ),
)
