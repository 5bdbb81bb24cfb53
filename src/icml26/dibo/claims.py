"""What the paper claims (its abstract) and the tests that judge it: declarations only."""

from __future__ import annotations

from icml26.common import Background, Claim, PaperClaim, Revision

_REF = "TFBind8 mean-of-{n_candidates} normalised score, {inner_seeds} inner seeds"

PAPER_CLAIMS = (
    PaperClaim(
        "bidirectional_over_autoregressive",
        "their left-to-right design generation struggles to capture the strong bidirectional dependencies"
        " inherent in design problems",
        "all",
        title="Diffusion (bidirectional) generation matches or beats a matched AR model",
    ),
    PaperClaim(
        "adapting_diffusion_llms",
        "we propose adapting diffusion LLMs to offline BBO to leverage their bidirectional modeling"
        " capabilities",
        "all",
        title="A pretrained diffusion LM beats one trained from scratch",
    ),
    PaperClaim(
        "delimiters_for_adaptation",
        "introduce delimiter tokens to explicitly mark field boundaries for domain adaptation",
        "all",
        title="Delimiter tokens and domain adaptation raise the designs' scores",
    ),
    PaperClaim(
        "rl_aligns_to_high_labels",
        "a two-stage post-training framework to align the diffusion LLM generation with high-label designs",
        "all",
        title="The RL stage raises the designs' scores over SFT alone",
    ),
    PaperClaim(
        "state_of_the_art",
        "Our method achieves state-of-the-art results on Design-Bench under small-data settings",
        "all",
        title="State of the art on Design-Bench (TFBind8) with small data",
    ),
)

BACKGROUND = (
    Background(
        "We study offline black-box optimization (BBO), aiming to discover improved designs from an offline"
        " dataset of designs and labels",
        "the problem setting",
    ),
    Background(
        "recent work applies autoregressive LLMs to BBO by formatting tasks as natural-language prompts",
        "prior work",
    ),
    Background(
        "a domain gap exists between the natural text pre-training of diffusion LLMs and the heterogeneous"
        " signals in BBO (prompts, designs, and labels)",
        "motivation; the remedy (delimiters, domain adaptation) is tested under delimiters_for_adaptation",
    ),
    Background(
        "The first stage performs supervised fine-tuning on the unified dataset via masked-response"
        " prediction, and the second stage adopts reinforcement learning with rewards defined by label"
        " improvements",
        "a description of the two stages (built as DiBO.sft and DiBO.rl); their effect is tested under"
        " rl_aligns_to_high_labels",
    ),
    Background("Code for our work is available here", "a pointer to the official code"),
)

# The first build (75a1345) measured the quick tests with a 0.40M-parameter model (the cores were shared by
# eight jobs), pretraining 300 steps and quick RL 40 steps, and judged `sota_mean` against ridge and
# evolution only; record 20261201T161453316691Z (quick, 2 inner seeds), since removed.
_FIRST_BUILD = "0.40M-parameter model, pretraining 300 steps, quick RL 40 steps"
_RUN = "75a1345 (record 20261201T161453316691Z, quick, 2 inner seeds)"
_WHY_TF = (
    "the issue's ~1M model (0.88M) on free cores, pretraining 1000 steps, RL 100 steps (the paper's 128)"
)
_WHY_EH = (
    "the issue's ~1M model (0.88M) on free cores, pretraining 1000 steps, Ehrlich SFT weights from DA 200 +"
    " SFT 300 steps (were 100 + 100)"
)


def _first_build(verdict: str, measured: str, why: str = _WHY_TF, old: str = _FIRST_BUILD) -> tuple:
    return (Revision("2026-12-01", f"{old}; measured {measured}", verdict, why, _RUN),)


TESTS = (
    Claim(
        "sota_mean",
        _REF + ": DiBO above the strongest offline baseline we run (ridge, GP-EI, CbAS, COMs, evolution)",
        "state of the art on TFBind8 (Table 1; judged here on mean-of-128)",
        "tf_mean",
        ">",
        0.0,
        kind="paper",
        relative_to=("ridge_tf_mean", "gpei_tf_mean", "cbas_tf_mean", "coms_tf_mean", "evolution_tf_mean"),
        form="difference",
        controls=("random_tf_mean",),
        context=("tf_best",),
        title="TFBind8 mean-of-128: DiBO above the strongest offline baseline",
        supports="state_of_the_art",
        revisions=_first_build(
            "refuted",
            "DiBO - exhaustive ridge -0.299 [-0.319, -0.279]",
            _WHY_TF
            + ", GP-EI/CbAS/COMs added to the baselines (COMs then moved, after a standalone measurement of"
            " 0.379 at seed 0 and an uncommitted quick run's 0.398, from design-baselines' continuous-task"
            " particle lr 0.05, alpha0 1, tau 0.5 to its final discrete-task 2.0, 0.1, 2.0: a faithfulness"
            " fix of the second review, made before any committed record measured COMs)",
            _FIRST_BUILD + ", strongest of ridge and evolution",
        ),
    ),
    Claim(
        "tf_mean_target",
        _REF + " >= 0.60 (random 0.464, exhaustive ridge 0.676 in the notes)",
        "(issue target)",
        "tf_mean",
        ">=",
        0.60,
        kind="check",
        controls=("random_tf_mean",),
        title="TFBind8 mean-of-128 >= 0.60 (issue target)",
        revisions=_first_build("refuted", "mean-of-128 0.435 [0.414, 0.455]"),
    ),
    Claim(
        "tf_best_paper",
        "TFBind8 best-of-{n_candidates} >= 0.946 (v3), reported beside random's",
        "0.965 (v1), 0.946 ± 0.043 (v3)",
        "tf_best",
        ">=",
        0.946,
        kind="paper",
        paper_figure=0.946,
        controls=(
            "random_tf_best",
            "ridge_tf_best",
            "gpei_tf_best",
            "cbas_tf_best",
            "coms_tf_best",
            "evolution_tf_best",
        ),
        title="TFBind8 best-of-128 >= 0.946 (the paper's v3 figure)",
        supports="state_of_the_art",
        revisions=_first_build("inconclusive", "best-of-128 0.882 [0.697, 1.066]"),
    ),
    Claim(
        "tf_best_target",
        "TFBind8 best-of-{n_candidates} >= 0.93 (never a win over random's)",
        "(issue target)",
        "tf_best",
        ">=",
        0.93,
        kind="check",
        controls=("random_tf_best",),
        title="TFBind8 best-of-128 >= 0.93 (issue target)",
        revisions=_first_build("inconclusive", "best-of-128 0.882 [0.697, 1.066]"),
    ),
    Claim(
        "tf_validity",
        ">= 95% of one-step fills parse as valid designs",
        "(issue target)",
        "tf_validity",
        ">=",
        0.95,
        kind="check",
        context=("tf_unique",),
        title=">= 95% of one-step fills parse as valid designs",
        revisions=_first_build("toy-verified", "validity 1.00 [1.00, 1.00]"),
    ),
    Claim(
        "rl_helps",
        "RL stage raises TFBind8 mean-of-{n_candidates} (full vs no-RL ablation)",
        "RL improves over SFT (ablation)",
        "tf_mean",
        ">",
        0.0,
        kind="paper",
        relative_to=("norl_tf_mean",),
        form="difference",
        title="RL raises TFBind8 mean-of-128 over the no-RL ablation",
        supports="rl_aligns_to_high_labels",
        revisions=_first_build("inconclusive", "full - no-RL 0.033 [-0.007, 0.072]"),
    ),
    Claim(
        "rl_gain_target",
        "full >= no-RL + 0.02 (mean-of-{n_candidates})",
        "(issue target)",
        "tf_mean",
        ">=",
        0.02,
        kind="check",
        relative_to=("norl_tf_mean",),
        form="difference",
        title="RL gain >= 0.02 in mean-of-128 (issue target)",
        revisions=_first_build("inconclusive", "full - no-RL 0.033 [-0.007, 0.072]"),
    ),
    Claim(
        "pretraining_helps",
        "pretraining raises TFBind8 mean-of-{n_candidates}",
        "pretrained dLLM beats training from scratch (ablation)",
        "tf_mean",
        ">",
        0.0,
        kind="paper",
        relative_to=("nopre_tf_mean",),
        form="difference",
        title="Pretraining raises TFBind8 mean-of-128",
        supports="adapting_diffusion_llms",
    ),
    Claim(
        "pretraining_gain_target",
        "full >= no-pretraining + 0.03 (mean-of-{n_candidates})",
        "(issue target)",
        "tf_mean",
        ">=",
        0.03,
        kind="check",
        relative_to=("nopre_tf_mean",),
        form="difference",
        title="Pretraining gain >= 0.03 in mean-of-128 (issue target)",
    ),
    Claim(
        "adaptation_helps",
        "domain adaptation raises TFBind8 mean-of-{n_candidates}",
        "DA helps (ablation)",
        "tf_mean",
        ">",
        0.0,
        kind="paper",
        relative_to=("noda_tf_mean",),
        form="difference",
        title="Domain adaptation raises TFBind8 mean-of-128",
        supports="delimiters_for_adaptation",
    ),
    Claim(
        "special_tokens_help",
        "delimiter tokens beat natural-language markers (mean-of-{n_candidates})",
        "special tokens help (ablation)",
        "tf_mean",
        ">",
        0.0,
        kind="paper",
        relative_to=("natural_tf_mean",),
        form="difference",
        title="Delimiter tokens beat natural-language markers (mean-of-128)",
        supports="delimiters_for_adaptation",
    ),
    Claim(
        "diffusion_vs_ar",
        "diffusion >= matched AR on TFBind8 best-of-{n_candidates} (v3 Table 2)",
        "0.946 ± 0.043 vs 0.915 ± 0.008",
        "tf_best",
        ">=",
        0.0,
        kind="paper",
        relative_to=("ar_tf_best",),
        form="difference",
        context=("tf_mean", "ar_tf_mean"),
        title="TFBind8 best-of-128: diffusion >= matched AR",
        supports="bidirectional_over_autoregressive",
    ),
    Claim(
        "tfbind10_vs_ar",
        "diffusion >= matched AR on TFBind10 (v3 Table 2)",
        "0.741 vs 0.682",
        "tfbind10_best",
        ">=",
        0.0,
        kind="paper",
        relative_to=("tfbind10_ar_best",),
        form="difference",
        title="TFBind10: diffusion >= matched AR",
        supports="bidirectional_over_autoregressive",
    ),
    Claim(
        "ant_vs_ar",
        "diffusion >= matched AR on Ant (v3 Table 2)",
        "0.932 vs 0.930",
        "ant_best",
        ">=",
        0.0,
        kind="paper",
        relative_to=("ant_ar_best",),
        form="difference",
        title="Ant: diffusion >= matched AR",
        supports="bidirectional_over_autoregressive",
    ),
    Claim(
        "dkitty_vs_ar",
        "diffusion >= matched AR on D'Kitty (v3 Table 2)",
        "0.912 vs 0.912",
        "dkitty_best",
        ">=",
        0.0,
        kind="paper",
        relative_to=("dkitty_ar_best",),
        form="difference",
        title="D'Kitty: diffusion >= matched AR",
        supports="bidirectional_over_autoregressive",
    ),
    Claim(
        "ehrlich_gain",
        "Ehrlich best-of-{n_candidates} >= pool maximum + 0.2",
        "(issue target)",
        "eh_best_gain",
        ">=",
        0.2,
        kind="check",
        controls=("random_eh_best_gain", "evolution_eh_best_gain"),
        context=("eh_pool_max",),
        title="Ehrlich best-of-128 >= pool maximum + 0.2 (issue target)",
        revisions=_first_build("refuted", "best-of-128 - pool max -0.125", _WHY_EH),
    ),
    Claim(
        "ehrlich_feasible",
        "Ehrlich: >= 80% of the candidates feasible",
        "(issue target)",
        "eh_feasible",
        ">=",
        0.8,
        kind="check",
        controls=("random_eh_feasible", "evolution_eh_feasible"),
        title="Ehrlich: >= 80% of the candidates feasible (issue target)",
        revisions=_first_build("refuted", "feasible fraction 0.00", _WHY_EH),
    ),
)


NAMES = {
    "ridge_tf_mean": "exhaustive one-hot ridge",
    "evolution_tf_mean": "nevergrad pool evolution (ridge surrogate)",
    "gpei_tf_mean": "GP-EI on one-hot (botorch)",
    "cbas_tf_mean": "CbAS (position-wise generative model)",
    "coms_tf_mean": "COMs (conservative MLP)",
    "random_tf_mean": "random 128",
    "random_tf_best": "random 128 (best)",
    "norl_tf_mean": "no-RL ablation",
    "nopre_tf_mean": "no-pretraining ablation",
    "noda_tf_mean": "no-DA ablation",
    "natural_tf_mean": "natural-marker ablation",
    "ar_tf_best": "matched causal transformer (best)",
    "random_eh_best_gain": "random 128",
    "evolution_eh_best_gain": "nevergrad pool evolution",
    "random_eh_feasible": "random 128",
    "evolution_eh_feasible": "nevergrad pool evolution",
}
