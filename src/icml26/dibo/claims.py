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


# The second pass (issue #47) changed the model's rules and quick's setting after the records of 4802836
# (paper 20261201T175959933256Z, 3 inner seeds; quick 20261201T190146574746Z, 2 inner seeds): each revision
# keeps the verdict of the record that spoke (the paper one where it measured the test).
_SECOND_OLD = (
    "quick: both inner seeds start RL from the one shipped SFT file (no training variance); corruption"
    " p = (1 - eps) t + eps; <pad> attended; sigma_r from 10k items"
)
_SECOND_WHY = (
    "issue #47: quick's inner seeds each train DA 30 + SFT 90 steps from the shipped pretrained weights (so"
    " intervals carry training variance); the official code's corruption p = (1 - eps) t, padding mask and"
    " sigma_r from 100k items"
)
_SECOND_RUN = "4802836 (records 20261201T175959933256Z paper, 20261201T190146574746Z quick)"


def _second(verdict: str, measured: str) -> tuple:
    return (Revision("2026-12-02", f"{_SECOND_OLD}; measured {measured}", verdict, _SECOND_WHY, _SECOND_RUN),)


# The third pass (issue #47, helper db3) changed quick's setting after its record of 6384f51: each test that
# record judged keeps its verdict in a third revision.
_THIRD_OLD = (
    "quick: 2 inner seeds, each training DA 30 + SFT 90 steps from shipped pretrained weights made before the"
    " corruption and padding fixes (p = (1 - eps) t + eps, <pad> attended); Ehrlich from an SFT file made"
    " from those weights"
)
_THIRD_WHY = (
    "quick under-trained the model: 59 distinct designs in 1000 prompts (66 in a rerun from the same start,"
    " 610 of the 1000 fills designs of the offline data), SFT loss 2.09 after 90 steps. Quick now uses 3"
    " inner seeds, each starting RL from its own shipped SFT file (seed k: DA 200 + SFT 600, the paper"
    " profile's recipe, made by benchmarks/dibo_pretrain.py, its recipe hash checked at load), every shipped"
    " file retrained under the official corruption rate and padding mask; and (review of this pass) each"
    " mean- or best-of-n test now requires 128 distinct designs per inner seed, so a collapsed run is"
    " reported as a check"
)
_THIRD_RUN = "6384f51 (record 20261202T045452684262Z, quick)"


def _third(verdict: str, measured: str, old: str = "", why: str = "") -> tuple:
    return (
        Revision(
            "2026-12-02", f"{_THIRD_OLD}{old}; measured {measured}", verdict, _THIRD_WHY + why, _THIRD_RUN
        ),
    )


_ALL_CONTROLS = "; controls: random 128 only"
_ALL_WHY = (
    "; and (review of the third pass) every baseline run is a control of this absolute rule, as issue #47"
    " asks: ridge and CbAS clear it too"
)


_BASELINES = ("ridge", "gpei", "cbas", "coms", "evolution")


def _distinct(*prefixes: str) -> tuple:
    """Preconditions: every inner seed of each variant found 128 distinct designs (mean ``*_unique`` = 128)."""
    return tuple((f"{p}_unique", ">=", 128) for p in prefixes)


# the paper-only ablation tests: the paper record of 4802836 judged them before the precondition above
# and before the shipped pretrained weights were retrained under the official rules
_ABL_OLD = (
    "no precondition on the number of distinct designs; shipped pretrained weights trained with"
    " p = (1 - eps) t + eps and <pad> attended"
)
_ABL_WHY = (
    "review of the third pass: a collapsed run's mean/best-of-n is over fewer than 128 designs, so the test"
    " now requires 128 distinct designs per inner seed in both arms; the pretrained weights were retrained"
    " under the official corruption rate and padding mask"
)
_ABL_RUN = "4802836 (record 20261201T175959933256Z, paper)"


def _ablation(verdict: str, measured: str) -> tuple:
    return (Revision("2026-12-02", f"{_ABL_OLD}; measured {measured}", verdict, _ABL_WHY, _ABL_RUN),)


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
        context=("tf_best", "tf_known_frac", "tfnew_mean"),
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
        )
        + _second(
            "refuted", "paper DiBO - exhaustive ridge -0.246 [-0.320, -0.171]; quick -0.284 [-0.305, -0.264]"
        )
        + _third("refuted", "DiBO - exhaustive ridge -0.262 [-0.288, -0.236]"),
        requires=_distinct("tf"),
    ),
    Claim(
        "sota_best",
        "TFBind8 best-of-{n_candidates} (the paper's metric: Design-Bench's 100th-percentile normalised score),"
        " {inner_seeds} inner seeds: DiBO above the strongest offline baseline we run",
        "state of the art on TFBind8 (Table 1: DiBO 0.965 beside OPRO 0.758, DDOM 0.739)",
        "tf_best",
        ">",
        0.0,
        kind="paper",
        relative_to=tuple(f"{b}_tf_best" for b in _BASELINES),
        form="difference",
        controls=("random_tf_best",),
        title="TFBind8 best-of-128 (the paper's metric): DiBO above the strongest baseline",
        supports="state_of_the_art",
        revisions=_third("inconclusive", "DiBO - exhaustive ridge (best) -0.214 [-1.68, 1.26]"),
        requires=_distinct("tf"),
    ),
    Claim(
        "sota_mean_novel",
        _REF + ", known designs filtered out (as every baseline proposes outside the pool): DiBO above the"
        " strongest offline baseline",
        "(ours: eval.py keeps designs of the offline data)",
        "tfnew_mean",
        ">",
        0.0,
        kind="check",
        relative_to=tuple(f"{b}_tf_mean" for b in _BASELINES),
        form="difference",
        controls=("random_tf_mean",),
        context=("tf_known_frac",),
        title="Known designs filtered: TFBind8 mean-of-128 above the strongest baseline",
        revisions=_third("refuted", "DiBO (known filtered) - exhaustive ridge -0.167 [-0.192, -0.142]"),
        requires=_distinct("tfnew"),
    ),
    Claim(
        "sota_best_novel",
        "TFBind8 best-of-{n_candidates}, known designs filtered out: DiBO above the strongest offline baseline",
        "(ours: eval.py keeps designs of the offline data)",
        "tfnew_best",
        ">",
        0.0,
        kind="check",
        relative_to=tuple(f"{b}_tf_best" for b in _BASELINES),
        form="difference",
        controls=("random_tf_best",),
        context=("tf_known_frac",),
        title="Known designs filtered: TFBind8 best-of-128 above the strongest baseline",
        revisions=_third(
            "inconclusive", "DiBO (known filtered) - exhaustive ridge (best) -0.214 [-1.68, 1.26]"
        ),
        requires=_distinct("tfnew"),
    ),
    Claim(
        "tf_mean_target",
        _REF + " >= 0.60 (random 0.464, exhaustive ridge 0.676 in the notes)",
        "(issue target)",
        "tf_mean",
        ">=",
        0.60,
        kind="check",
        controls=("random_tf_mean", *(f"{b}_tf_mean" for b in _BASELINES)),
        title="TFBind8 mean-of-128 >= 0.60 (issue target)",
        revisions=_first_build("refuted", "mean-of-128 0.435 [0.414, 0.455]")
        + _second("refuted", "paper 0.488 [0.413, 0.562]; quick 0.449 [0.429, 0.470]")
        + _third("refuted", "mean-of-128 0.471 [0.445, 0.498]", _ALL_CONTROLS, _ALL_WHY),
        requires=_distinct("tf"),
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
        revisions=_first_build("inconclusive", "best-of-128 0.882 [0.697, 1.066]")
        + _second(
            "refuted",
            "paper 0.892 [0.870, 0.915]; quick 0.972 [0.952, 0.992], toy-verified and non-discriminating (ridge, CbAS, COMs' interval, evolution reach 0.946)",
        )
        + _third("inconclusive", "best-of-128 0.756 [-0.714, 2.23]"),
        requires=_distinct("tf"),
    ),
    Claim(
        "tf_best_target",
        "TFBind8 best-of-{n_candidates} >= 0.93 (never a win over random's)",
        "(issue target)",
        "tf_best",
        ">=",
        0.93,
        kind="check",
        controls=("random_tf_best", *(f"{b}_tf_best" for b in _BASELINES)),
        title="TFBind8 best-of-128 >= 0.93 (issue target)",
        revisions=_first_build("inconclusive", "best-of-128 0.882 [0.697, 1.066]")
        + _second(
            "refuted",
            "paper 0.892 [0.870, 0.915]; quick 0.972 [0.952, 0.992], toy-verified and non-discriminating (random 0.939)",
        )
        + _third(
            "inconclusive",
            "best-of-128 0.756 [-0.714, 2.23]",
            _ALL_CONTROLS,
            _ALL_WHY.replace("ridge and CbAS", "ridge, CbAS and evolution"),
        ),
        requires=_distinct("tf"),
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
        revisions=_first_build("toy-verified", "validity 1.00 [1.00, 1.00]")
        + _second("toy-verified", "paper 1.00 [1.00, 1.00]; quick 1.00")
        + _third("toy-verified", "validity 1.00 [1.00, 1.00]"),
        requires=_distinct("tf"),
    ),
    Claim(
        "tf_distinct",
        "one-step decoding finds {n_candidates} distinct valid TFBind8 designs within {max_attempts} prompts in"
        " every inner seed (the model has not collapsed onto a few designs)",
        "(ours: eval.py deduplicates to 128 within 1000 attempts)",
        "tf_distinct_frac",
        ">=",
        1.0,
        kind="check",
        context=("tf_unique", "tf_attempts", "tf_known_frac"),
        title="No collapse: 128 distinct TFBind8 designs in every inner seed",
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
        revisions=_first_build("inconclusive", "full - no-RL 0.033 [-0.007, 0.072]")
        + _second("inconclusive", "paper full - no-RL 0.029 [-0.187, 0.245]; quick 0.028 [-0.012, 0.067]")
        + _third("inconclusive", "full - no-RL 0.034 [-0.023, 0.090]"),
        requires=_distinct("tf", "norl_tf"),
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
        revisions=_first_build("inconclusive", "full - no-RL 0.033 [-0.007, 0.072]")
        + _second("inconclusive", "paper full - no-RL 0.029 [-0.187, 0.245]; quick 0.028 [-0.012, 0.067]")
        + _third("inconclusive", "full - no-RL 0.034 [-0.023, 0.090]"),
        requires=_distinct("tf", "norl_tf"),
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
        revisions=_second("inconclusive", "paper full - no-pretraining 0.022 [-0.097, 0.141]")
        + _ablation("inconclusive", "paper full - no-pretraining 0.022 [-0.097, 0.141]"),
        requires=_distinct("tf", "nopre_tf"),
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
        revisions=_second("inconclusive", "paper full - no-pretraining 0.022 [-0.097, 0.141]")
        + _ablation("inconclusive", "paper full - no-pretraining 0.022 [-0.097, 0.141]"),
        requires=_distinct("tf", "nopre_tf"),
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
        revisions=_second("inconclusive", "paper full - no-DA 0.038 [-0.088, 0.165]")
        + _ablation("inconclusive", "paper full - no-DA 0.038 [-0.088, 0.165]"),
        requires=_distinct("tf", "noda_tf"),
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
        revisions=_second("inconclusive", "paper full - natural 0.022 [-0.117, 0.161]")
        + _ablation("inconclusive", "paper full - natural 0.022 [-0.117, 0.161]"),
        requires=_distinct("tf", "natural_tf"),
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
        revisions=_second("inconclusive", "paper diffusion - AR best-of-128 -0.048 [-0.262, 0.165]")
        + _ablation("inconclusive", "paper diffusion - AR best-of-128 -0.048 [-0.262, 0.165]"),
        requires=_distinct("tf", "ar_tf"),
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
        revisions=_first_build("refuted", "best-of-128 - pool max -0.125", _WHY_EH)
        + _second("refuted", "paper and quick best-of-128 - pool max -0.125")
        + _third("refuted", "best-of-128 - pool max -0.125"),
        requires=_distinct("eh"),
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
        revisions=_first_build("refuted", "feasible fraction 0.00", _WHY_EH)
        + _second("refuted", "paper and quick feasible fraction 0.00")
        + _third("refuted", "feasible fraction 0.00"),
        requires=_distinct("eh"),
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
    "ridge_tf_best": "exhaustive one-hot ridge (best)",
    "gpei_tf_best": "GP-EI on one-hot (best)",
    "cbas_tf_best": "CbAS (best)",
    "coms_tf_best": "COMs (best)",
    "evolution_tf_best": "nevergrad pool evolution (best)",
    "random_eh_best_gain": "random 128",
    "evolution_eh_best_gain": "nevergrad pool evolution",
    "random_eh_feasible": "random 128",
    "evolution_eh_feasible": "nevergrad pool evolution",
}
