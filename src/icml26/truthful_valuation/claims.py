"""What the paper claims (its abstract) and the tests that judge it: declarations only.

The paper's text beyond the abstract and the start of its introduction could not be read (arXiv
2605.11889; searched 2026-12-02): every test below is a reconstruction ([inferred]) of what the
abstract's claims mean on the experiment of ``experiment.py``.

Paper tests: truthfulness on the manipulations that are a function of the source's own data and that a
naive DVF may fail to penalise (duplicate, fabricate, sharpen), each twice: absolutely (the log score
penalises; the naive DVFs are controls) and relative to the strongest naive DVF (the log score's
relative gain below every naive DVF's). Noise, withholding (penalised by every DVF) and copy (outside
the premise) are checks, with their earlier verdicts kept as Revisions; so are the semivalue axioms.
"""

from __future__ import annotations

from icml26.common import Background, Claim, PaperClaim, Revision

MANIPULATIONS = ("duplicate", "label_noise", "feature_noise", "withhold", "fabricate", "copy", "sharpen")
# the manipulations the paper's truthfulness claim is tested on (paper tests): functions of the source's
# own data that a naive DVF can fail to penalise. Noise and withholding are penalised by every DVF, and
# copy is not a function of the source's own data (outside the premise): those are checks.
THEOREM = ("duplicate", "fabricate", "sharpen")
CHECKED = ("label_noise", "feature_noise", "withhold", "copy")
SEMIVALUES = {"shapley": "shapley", "banzhaf": "banzhaf", "beta41": "beta(4,1)"}
# held-out noise levels of the default (empirical-Bayes) mechanism, named by the outside review before
# any run of it in the experiment: none of them was used to choose anything; and y scaled by Y_SCALE
HELDOUT_SIGMA2 = (1e-4, 1e-2, 1.0, 100.0)
Y_SCALE = 0.1
HELDOUT = {f"{v:g}".replace("-", "m").replace(".", "p"): v for v in HELDOUT_SIGMA2}  # tag -> sigma2
HELDOUT_SETTINGS = (*HELDOUT, "yscaled")
# the mediators beside the default in the held-out settings: the fixed-prior options (controls)
FIXED_PRIORS = {
    "fixed": "the fixed NIG prior tau2 = 100 (the old default)",
    "nig1": "NIG tau2 = 1 (the old doc example)",
    "wrong": "a Gaussian prior with sigma2 = tau2 = 1 stated",
}
OTHER_SETTINGS = ("nig", "naive_bayes", "diabetes", "breast_cancer", "compas")
SETTING_NAMES = {
    "gaussian": "synthetic Gaussian linear",
    "nig": "synthetic NIG linear",
    "naive_bayes": "synthetic naive Bayes",
    "diabetes": "diabetes (NIG)",
    "breast_cancer": "breast_cancer (naive Bayes)",
    "compas": "COMPAS (naive Bayes)",
}
# the baselines (other DVFs, a misspecified mediator) beside the log score: the controls of the absolute
# tests, per setting (as locked in v3)
_BASELINES = {
    "nig": ("ig", "mse"),
    "naive_bayes": ("acc", "size", "misspec"),
    "diabetes": ("ig", "mse"),
    "breast_cancer": ("acc", "size"),
    "compas": ("acc", "size"),
}
# the naive DVFs of each setting: the baselines of the relative tests (the strongest decides)
NAIVE = {
    "gaussian": ("ig", "mse", "size"),
    "nig": ("ig", "mse", "size"),
    "naive_bayes": ("acc", "size"),
    "diabetes": ("ig", "mse", "size"),
    "breast_cancer": ("acc", "size"),
    "compas": ("acc", "size"),
}
_V2_RUNS = "6c47915+dirty (paper record), 19a3412+dirty (quick record)"
_V3_RUN = "8ed8bf6 (quick record 20261201T222258058269Z)"
# verdicts (and mean paired differences) in the v3 quick record of the paper tests that became checks
_OLD = {
    "T_gaussian_shapley_label_noise": ("non-discriminating", -5.264),
    "T_gaussian_shapley_feature_noise": ("non-discriminating", -45.641),
    "T_gaussian_shapley_withhold": ("non-discriminating", -7.376),
    "T_gaussian_shapley_copy": ("refuted", 4.787),
    "T_gaussian_banzhaf_label_noise": ("non-discriminating", -3.128),
    "T_gaussian_banzhaf_feature_noise": ("non-discriminating", -32.937),
    "T_gaussian_banzhaf_withhold": ("non-discriminating", -3.961),
    "T_gaussian_banzhaf_copy": ("refuted", 2.652),
    "T_gaussian_beta41_label_noise": ("non-discriminating", -11.275),
    "T_gaussian_beta41_feature_noise": ("non-discriminating", -87.377),
    "T_gaussian_beta41_withhold": ("non-discriminating", -16.474),
    "T_gaussian_beta41_copy": ("refuted", 10.783),
    "T_gaussian_coalitions_label_noise": ("toy-verified", -0.211),
    "T_gaussian_coalitions_feature_noise": ("toy-verified", -6.239),
    "T_gaussian_coalitions_withhold": ("inconclusive", -0.074),
    "T_gaussian_coalitions_copy": ("refuted", 18.352),
    "T_nig_shapley_label_noise": ("non-discriminating", -12.987),
    "T_nig_shapley_feature_noise": ("non-discriminating", -31.813),
    "T_nig_shapley_withhold": ("non-discriminating", -7.477),
    "T_nig_shapley_copy": ("refuted", 4.974),
    "T_naive_bayes_shapley_label_noise": ("non-discriminating", -14.323),
    "T_naive_bayes_shapley_feature_noise": ("non-discriminating", -7.665),
    "T_naive_bayes_shapley_withhold": ("non-discriminating", -2.358),
    "T_naive_bayes_shapley_copy": ("refuted", 1.973),
    "T_diabetes_shapley_label_noise": ("non-discriminating", -16.159),
    "T_diabetes_shapley_feature_noise": ("non-discriminating", -2.617),
    "T_diabetes_shapley_withhold": ("non-discriminating", -6.217),
    "T_diabetes_shapley_copy": ("refuted", 7.36),
    "T_breast_cancer_shapley_label_noise": ("refuted", 15.133),
    "T_breast_cancer_shapley_feature_noise": ("refuted", 37.057),
    "T_breast_cancer_shapley_withhold": ("inconclusive", 1.039),
    "T_breast_cancer_shapley_copy": ("toy-verified", -2.106),
    "T_compas_shapley_label_noise": ("inconclusive", -0.207),
    "T_compas_shapley_feature_noise": ("inconclusive", 0.529),
    "T_compas_shapley_withhold": ("non-discriminating", -5.412),
    "T_compas_shapley_copy": ("refuted", 5.155),
}
_V4_RUN = "ac5662c (paper record 20261202T020230636431Z; the quick record agrees on every verdict)"
# verdicts and measured values (log score's relative gain minus the strongest naive DVF's) of the relative
# tests in that record: their rule was declared after the v3 record's numbers were seen, so they are checks
_OLD_REL = {
    "T_gaussian_shapley_duplicate_vs_naive": ("toy-verified", -0.0136),
    "T_gaussian_shapley_fabricate_vs_naive": ("toy-verified", -0.0803),
    "T_gaussian_shapley_sharpen_vs_naive": ("toy-verified", -0.0106),
    "T_gaussian_banzhaf_duplicate_vs_naive": ("toy-verified", -0.0223),
    "T_gaussian_banzhaf_fabricate_vs_naive": ("toy-verified", -0.1145),
    "T_gaussian_banzhaf_sharpen_vs_naive": ("toy-verified", -0.0193),
    "T_gaussian_beta41_duplicate_vs_naive": ("toy-verified", -0.0101),
    "T_gaussian_beta41_fabricate_vs_naive": ("toy-verified", -0.066),
    "T_gaussian_beta41_sharpen_vs_naive": ("toy-verified", -0.0069),
    "T_nig_shapley_duplicate_vs_naive": ("toy-verified", -0.0356),
    "T_nig_shapley_fabricate_vs_naive": ("toy-verified", -0.0789),
    "T_nig_shapley_sharpen_vs_naive": ("toy-verified", -0.2279),
    "T_naive_bayes_shapley_duplicate_vs_naive": ("toy-verified", -0.0172),
    "T_naive_bayes_shapley_fabricate_vs_naive": ("toy-verified", -0.0591),
    "T_naive_bayes_shapley_sharpen_vs_naive": ("toy-verified", -0.0627),
    "T_diabetes_shapley_duplicate_vs_naive": ("inconclusive", -0.0008),
    "T_diabetes_shapley_fabricate_vs_naive": ("refuted", 0.2666),
    "T_diabetes_shapley_sharpen_vs_naive": ("toy-verified", -0.5984),
    "T_breast_cancer_shapley_duplicate_vs_naive": ("toy-verified", -0.7744),
    "T_breast_cancer_shapley_fabricate_vs_naive": ("inconclusive", 0.0085),
    "T_breast_cancer_shapley_sharpen_vs_naive": ("toy-verified", -1.9733),
    "T_compas_shapley_duplicate_vs_naive": ("toy-verified", -0.7738),
    "T_compas_shapley_fabricate_vs_naive": ("toy-verified", -0.4787),
    "T_compas_shapley_sharpen_vs_naive": ("toy-verified", -2.4679),
}
_WHY = {
    "label_noise": "noise is penalised by every comparator DVF (validation MSE / accuracy too), so it cannot"
    " tell the log score from a naive DVF: a check, not a test of the paper",
    "feature_noise": "noise is penalised by every comparator DVF (validation MSE / accuracy too), so it"
    " cannot tell the log score from a naive DVF: a check, not a test of the paper",
    "withhold": "withholding is penalised by every comparator DVF, dataset size included: a check, not a"
    " test of the paper",
    "copy": "copying another source's data is not a function of the source's own data, outside the"
    " truthfulness argument's premise (the doc said so): a check, not a test of the paper",
}


def _to_check(name: str, s: str) -> tuple[Revision, ...]:
    """The Revision of a test that was a paper test in the v3 record and is a check now."""
    if s not in CHECKED:
        return ()
    verdict, measured = _OLD[name]
    return (
        Revision(
            "2026-12-02",
            f"kind paper (supported a PaperClaim), same rule; measured {measured:+.3f}",
            verdict,
            _WHY[s],
            _V3_RUN,
        ),
    )


PAPER_CLAIMS = (
    PaperClaim(
        "truthful_at_equilibrium",
        "incentivizes (**T**) truthfulness at equilibrium for Bayesian models",
        "all",
        title="(T) no manipulation raises a source's expected Shapley value (Gaussian)",
        conditions="[inferred] a correctly specified Bayesian model (its prior stated correctly, or, for the"
        " default mechanism, fitted on the validation set by empirical Bayes: tested at held-out noise"
        " levels sigma2 in {1e-4, 1e-2, 1, 100} and with y scaled by 0.1), the other sources truthful,"
        " and a submission that depends on the source's own data only",
    ),
    PaperClaim(
        "coalitions_and_semivalues",
        "a source can maximize its expected data values in coalitions and semivalues by submitting a"
        " dataset that captures its true knowledge",
        "all",
        title="(T) truthful data maximise the expected value in coalitions and semivalues",
        conditions="the paper's 'additional condition' (unread); [inferred] as for (T): correct model,"
        " others truthful, a submission that depends on the source's own data only",
    ),
    PaperClaim(
        "validated_on_datasets",
        "Our theoretical findings are validated on synthetic and real-world datasets",
        "all",
        title="(T) holds on other synthetic models and on real datasets (Shapley)",
    ),
)

BACKGROUND = (
    Background(
        "Collaborative machine learning involves training high-quality models using datasets from a"
        " number of sources",
        "definition of the setting",
    ),
    Background(
        "existing data valuation methods fairly reward each source based on its data submitted as is",
        "prior work",
    ),
    Background(
        "the sources can manipulate their data (e.g., by submitting duplicated or noisy data) to"
        " artificially increase their valuations and rewards",
        "motivation about prior DVFs; shown by the checks ig_rewards_duplication and"
        " ig_rewards_fabrication (information gain rewards both) and the relative tests *_vs_naive"
        " (dataset size and information gain pay for duplication)",
    ),
    Background(
        "provably ensures (**F**) collaborative fairness",
        "the fairness axioms (efficiency, symmetry, null player) are identities of the semivalue formula,"
        " true on any game: checked exactly as checks F_efficiency, F_symmetry, F_null_player",
    ),
    Background(
        "Our mechanism combines semivalues (e.g., Shapley value), which ensure fairness, and a truthful"
        " data valuation function (DVF) based on a validation set that is unknown to the sources",
        "a description of the mechanism (built as Mechanism); its fairness is the identity above",
    ),
    Background(
        "we discuss the implications and suitable relaxations of (**F**) and (**T**) when the mediator"
        " has a limited budget for rewards or lacks a validation set",
        "a discussion; the relaxations could not be read and are reconstructed [inferred], judged as"
        " checks (gaussian_budget_*, gaussian_peer_*)",
    ),
)


def _gaussian_test(sk: str, sv: str, s: str) -> Claim:
    key = f"gaussian_{sk}_{s}_diff"
    return Claim(
        f"T_gaussian_{sk}_{s}",
        f"(T) synthetic Gaussian linear, {sv}, log-score DVF: {s} lowers source 1's expected"
        " semivalue (mean paired difference < 0, z > 2; {n_trials} trials)",
        "truthful reporting maximises the expected semivalue (no number given)",
        key,
        "<",
        0.0,
        kind="check" if s in CHECKED else "paper",
        supports=""
        if s in CHECKED
        else "truthful_at_equilibrium"
        if sk == "shapley"
        else "coalitions_and_semivalues",
        title=f"(T) Gaussian, {sv}: {s} lowers source 1's expected value",
        revisions=_to_check(f"T_gaussian_{sk}_{s}", s),
        controls=(
            f"gaussian_ig_{sk}_{s}_diff",
            f"gaussian_misspec_{sk}_{s}_diff",
            f"gaussian_mse_{sk}_{s}_diff",
            f"gaussian_size_{sk}_{s}_diff",
        ),
        shown=(key + "_z", key + "_paid"),
    )


def _coalition_test(s: str) -> Claim:
    key = f"gaussian_coalitions_{s}_diff"
    return Claim(
        f"T_gaussian_coalitions_{s}",
        f"(T) synthetic Gaussian, log score: {s} lowers source 1's expected value in every coalition"
        " holding it (the coalition with the highest upper bound is judged)",
        "a source maximises its expected data values in coalitions by truthful reporting",
        key,
        "<",
        0.0,
        kind="check" if s in CHECKED else "paper",
        supports="" if s in CHECKED else "coalitions_and_semivalues",
        title=f"(T) Gaussian: {s} lowers source 1's expected value in every coalition",
        revisions=_to_check(f"T_gaussian_coalitions_{s}", s),
        controls=(f"gaussian_ig_coalitions_{s}_diff",),
        shown=(key + "_paid",),
    )


def _setting_test(name: str, s: str) -> Claim:
    key = f"{name}_shapley_{s}_diff"
    return Claim(
        f"T_{name}_shapley_{s}",
        f"(T) {SETTING_NAMES[name]}, Shapley, log-score DVF: {s} lowers source 1's expected Shapley value"
        " (mean paired difference < 0, z > 2; {n_trials_other} trials)",
        "validated on synthetic and real-world datasets (no number given)",
        key,
        "<",
        0.0,
        kind="check" if s in CHECKED else "paper",
        supports="" if s in CHECKED else "validated_on_datasets",
        title=f"(T) {SETTING_NAMES[name]}, Shapley: {s} lowers source 1's value",
        revisions=_to_check(f"T_{name}_shapley_{s}", s),
        controls=tuple(f"{name}_{c}_shapley_{s}_diff" for c in _BASELINES[name]),
        shown=(key + "_z", key + "_paid"),
    )


def _relative_test(setting: str, sk: str, s: str) -> Claim:
    """(T) against the naive DVFs: the log score's relative gain minus the strongest naive DVF's, < 0. A
    check: the rule (a magnitude rule on gains divided by each DVF's mean truthful value) was declared
    after the v3 record's absolute differences of every DVF had been seen, so it is not pre-registered."""
    sv = SEMIVALUES[sk]
    if setting != "gaussian":
        supports = "validated_on_datasets"
    else:
        supports = "truthful_at_equilibrium" if sk == "shapley" else "coalitions_and_semivalues"
    trials = "{n_trials}" if setting == "gaussian" else "{n_trials_other}"
    name = f"T_{setting}_{sk}_{s}_vs_naive"
    verdict, measured = _OLD_REL[name]
    return Claim(
        name,
        f"(T) {SETTING_NAMES[setting]}, {sv}: source 1's relative gain from {s} (mean paired difference of"
        " its value / its mean truthful value) is lower under the log score than under every naive DVF"
        f" ({', '.join(NAIVE[setting])}); the strongest decides ({trials} paired trials)",
        "a truthful DVF penalises what a naive DVF rewards (duplicated data; no number given)",
        f"{setting}_{sk}_{s}_rel",
        "<",
        0.0,
        kind="check",
        revisions=(
            Revision(
                "2026-12-02",
                f"kind paper (supported {supports}), same rule; measured {measured:+.4f}",
                verdict,
                "outside review: the relative rule is a post-hoc magnitude rule (declared after the v3"
                " record's numbers of every DVF were seen, the normaliser |mean truthful value| chosen"
                " then); the pre-registered evidence against the naive DVFs is the absolute tests with the"
                " naive DVFs as controls",
                _V4_RUN,
            ),
        ),
        relative_to=tuple(f"{setting}_{ev}_{sk}_{s}_rel" for ev in NAIVE[setting]),
        form="difference",
        title=f"(T) {setting}, {sv}: {s} penalised more than under naive DVFs",
        shown=(f"{setting}_{sk}_{s}_diff", f"{setting}_{sk}_{s}_diff_paid"),
    )


def _trap_check(kind: str, s: str) -> Claim:
    """The sigma2 trap: data with sigma2 = trap_sigma2 valued with sigma2 estimated (NIG), stated, or wrong."""
    key = {
        "estimated": "sigma_trap",
        "vague": "sigma_trap_vague",
        "stated": "sigma_trap_stated",
        "wrong": "sigma_trap_wrong",
    }[kind]
    metric = f"{key}_shapley_{s}_diff"
    if kind == "wrong":
        return Claim(
            f"sigma_trap_wrong_{s}",
            "Control: on data with sigma2 = {trap_sigma2}, a mediator assuming sigma2 = 1 (the old default)"
            f" makes {s} pay (mean paired difference of source 1's Shapley value > 0)",
            "(review: duplication paid +2.66 +- 0.10 in 100% of 200 trials)",
            metric,
            ">",
            0.0,
            kind="check",
            title=f"Control: a wrong sigma2 (1 for 0.25) makes {s} pay",
            shown=(metric + "_paid",),
        )
    how = {
        "estimated": "estimated by the NIG model with the slope prior tau2 = 1 (theta | sigma2 ~ N(0, sigma2 I))",
        "vague": "estimated by the NIG model with the fixed-prior option tau2 = 100 (the Mechanism's default"
        " before empirical Bayes, chosen after a 40-trial unit test on this sigma2 = 0.25 case showed tau2 = 1"
        " letting duplication pay: not a held-out check)",
        "stated": "stated correctly",
    }[kind]
    return Claim(
        f"sigma_trap_{kind}_{s}",
        f"On data with sigma2 = {{trap_sigma2}}, a mediator whose sigma2 is {how} penalises {s}"
        " (mean paired difference of source 1's Shapley value < 0)",
        "(our check of the sigma2 handling)",
        metric,
        "<",
        0.0,
        kind="check",
        title=f"sigma2 {kind}: {s} lowers source 1's value (data sigma2 0.25)",
        controls=(f"sigma_trap_wrong_shapley_{s}_diff",),
        shown=(metric + "_paid",),
    )


def _heldout_label(tag: str) -> str:
    if tag == "yscaled":
        return f"y scaled by {Y_SCALE:g} (data sigma2 = tau2 = 1)"
    return f"data sigma2 = {HELDOUT[tag]:g}"


def _short(tag: str) -> str:
    return f"y x {Y_SCALE:g}" if tag == "yscaled" else f"sigma2 {HELDOUT[tag]:g}"


def _heldout_test(tag: str, s: str) -> Claim:
    """(T) for the default mechanism (prior fitted on V by empirical Bayes) at a held-out noise level."""
    key = f"heldout_{tag}_eb_shapley_{s}_diff"
    return Claim(
        f"T_eb_{tag}_{s}",
        f"(T) default mechanism (sigma2, tau2 fitted on V by type-II ML), synthetic Gaussian, {_heldout_label(tag)},"
        f" theta ~ N(0, I), Shapley: {s} lowers source 1's expected value (mean paired difference < 0,"
        " z > 2; n_trials_heldout paired trials)",
        "truthful reporting maximises the expected value for Bayesian models (no number given)",
        key,
        "<",
        0.0,
        kind="paper",
        supports="truthful_at_equilibrium",
        title=f"(T) empirical Bayes, {_short(tag)}: {s} lowers source 1's value",
        controls=tuple(f"heldout_{tag}_{c}_shapley_{s}_diff" for c in FIXED_PRIORS),
        shown=(key + "_z", key + "_paid", f"heldout_{tag}_stated_shapley_{s}_diff"),
        settings=("n_trials_heldout",),
    )


def _fixed_pays(tag: str, prior: str) -> Claim:
    """The review's finding, as a check: a fixed prior makes duplication pay at this held-out level."""
    key = f"heldout_{tag}_{prior}_shapley_duplicate_diff"
    return Claim(
        f"fixed_{prior}_pays_{tag}_duplicate",
        f"Control: under {FIXED_PRIORS[prior]}, on {_heldout_label(tag)}, duplication raises source 1's"
        " expected Shapley value (mean paired difference > 0)",
        "(outside review: duplication pays +19 in 100% of trials at sigma2 = 1e-2 and with y scaled by 0.1)",
        key,
        ">",
        0.0,
        kind="check",
        title=f"Control: {prior} prior, {_short(tag)}: duplication pays",
        shown=(key + "_paid",),
    )


_EQUIVARIANCE = Claim(
    "eb_scale_equivariance",
    "Scaling y by 0.1 leaves every empirical-Bayes Shapley value unchanged: max over trials and"
    " strategies of |phi(c y) - phi(y)| / (1 + |phi(y)|) on the same draws (sigma2 = 1 vs y scaled)",
    "(our check: the fitted prior scales with y, so the log score is unit-free)",
    "eb_scale_gap",
    "<=",
    1e-5,
    kind="check",
    scale="exact",
    scale_note="every trial's values compared on identical draws",
    title="Empirical Bayes: scaling y leaves every value unchanged",
    controls=("fixed_scale_gap",),
)


def _axiom(name: str, statement: str, paper: str, metric: str, control: str, title: str) -> Claim:
    return Claim(
        name,
        statement,
        paper,
        metric,
        "<=",
        1e-9,
        kind="check",
        scale="exact",
        scale_note="every instance, DVF and semivalue computed exactly from the full coalition table",
        title=title,
        controls=(control,),
        revisions=(
            Revision(
                "2026-12-01",
                "kind paper (supported the abstract's (F) fairness), same rule",
                "verified",
                "contract v3: an axiom of the semivalue formula holds on any game, so it is a check",
                _V2_RUNS,
            ),
        ),
    )


FAIRNESS = (
    _axiom(
        "F_efficiency",
        "(F) Shapley values sum to v(N) (relative gap, every instance and DVF)",
        "Shapley value: efficiency",
        "max_efficiency_gap",
        "banzhaf_efficiency_gap",
        "(F) efficiency: Shapley values sum to v(N)",
    ),
    _axiom(
        "F_symmetry",
        "(F) two sources with identical data receive equal values (Shapley, Banzhaf, Beta(4,1))",
        "symmetry",
        "max_symmetry_gap",
        "fixed_order_symmetry_gap",
        "(F) symmetry: identical sources receive equal values",
    ),
    _axiom(
        "F_null_player",
        "(F) a source with an empty dataset receives 0 (every semivalue)",
        "null player",
        "max_null_player_gap",
        "equal_split_null_player_gap",
        "(F) null player: an empty source receives 0",
    ),
)


def _check(name: str, statement: str, paper: str, metric: str, op: str, threshold: float, title: str):
    return Claim(name, statement, paper, metric, op, threshold, kind="check", title=title)


CHECKS = (
    _check(
        "ig_rewards_duplication",
        "Negative control: under information gain, duplication raises source 1's Shapley value",
        "(notes: 2.18 -> 2.88)",
        "gaussian_ig_shapley_duplicate_diff",
        ">",
        0.0,
        "Negative control: information gain rewards duplication",
    ),
    _check(
        "ig_rewards_fabrication",
        "Negative control: under information gain, fabrication raises source 1's Shapley value",
        "(notes: 2.18 -> 2.94)",
        "gaussian_ig_shapley_fabricate_diff",
        ">",
        0.0,
        "Negative control: information gain rewards fabrication",
    ),
    _check(
        "harness_misspecified_duplication",
        "Harness control: a mediator whose sigma2 is {misspec_factor}x too large rewards duplication"
        " (log score, Shapley); not fixed by algebra",
        "(our control)",
        "gaussian_misspec_shapley_duplicate_diff",
        ">",
        0.0,
        "Harness control: a misspecified mediator rewards duplication",
    ),
    _check(
        "harness_mse_label_noise",
        "Harness control: the validation-MSE DVF penalises label noise (Shapley); not fixed by algebra",
        "(our control)",
        "gaussian_mse_shapley_label_noise_diff",
        "<",
        0.0,
        "Harness control: the validation-MSE DVF penalises label noise",
    ),
    _check(
        "ex_post_duplication_pays",
        "Truthfulness holds in expectation only: ex post, duplication pays in > 5% of trials (Shapley)",
        "(notes: 41%)",
        "gaussian_shapley_duplicate_diff_paid",
        ">",
        0.05,
        "Ex post, duplication pays in > 5% of trials",
    ),
)

_RELAXATIONS = (
    ("budget_scale", "budget B={budget}, scaled rewards", "budget, scaled rewards"),
    ("budget_cap", "budget B={budget}, rewards capped at B/n", "budget, capped rewards"),
    ("peer", "no validation set, peer-prediction score", "peer prediction"),
)
RELAXATIONS = tuple(
    Claim(
        f"gaussian_{r}_{s}",
        f"(inferred) relaxation, {label}: {s} lowers source 1's expected reward (z > 2)",
        "relaxations discussed (no number given)",
        f"gaussian_{r}_{s}_diff",
        "<",
        0.0,
        kind="check",
        title=f"[inferred] relaxation, {short}: {s} lowers the reward",
        context=(f"gaussian_{r}_{s}_diff_paid",),
    )
    for s in MANIPULATIONS[:6]  # the relaxations' tests predate sharpen
    for r, label, short in _RELAXATIONS
)

TESTS = (
    *FAIRNESS,
    *(_gaussian_test(sk, sv, s) for sk, sv in SEMIVALUES.items() for s in MANIPULATIONS),
    *(_coalition_test(s) for s in MANIPULATIONS),
    *(_setting_test(name, s) for name in OTHER_SETTINGS for s in MANIPULATIONS),
    *(_relative_test("gaussian", sk, s) for sk in SEMIVALUES for s in THEOREM),
    *(_relative_test(name, "shapley", s) for name in OTHER_SETTINGS for s in THEOREM),
    *CHECKS,
    *(_trap_check(k, s) for s in THEOREM for k in ("wrong", "estimated", "vague", "stated")),
    *(_heldout_test(tag, s) for tag in HELDOUT_SETTINGS for s in THEOREM),
    *(_fixed_pays(tag, prior) for tag in ("0p01", "yscaled") for prior in ("fixed", "nig1")),
    _EQUIVARIANCE,
    *RELAXATIONS,
)

NAMES = {
    **{f"gaussian_ig_{k}_{s}_diff": f"information gain ({s})" for k in SEMIVALUES for s in MANIPULATIONS},
    **{
        f"gaussian_misspec_{k}_{s}_diff": f"sigma2 x4 mediator ({s})"
        for k in SEMIVALUES
        for s in MANIPULATIONS
    },
    **{
        f"heldout_{tag}_{c}_shapley_{s}_diff": f"{label} ({s})"
        for tag in HELDOUT_SETTINGS
        for c, label in FIXED_PRIORS.items()
        for s in THEOREM
    },
    "fixed_scale_gap": "the fixed NIG prior (tau2 = 100)",
    "banzhaf_efficiency_gap": "Banzhaf (not efficient)",
    "fixed_order_symmetry_gap": "fixed-order contributions",
    "equal_split_null_player_gap": "equal split",
}
