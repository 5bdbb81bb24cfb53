"""What the paper claims (its abstract) and the tests that judge it: declarations only."""

from __future__ import annotations

from icml26.common import Background, Claim, PaperClaim, Revision

# Margins of the accuracy TOSTs, declared before the runs from tost_margin(rows): quick's 4,000 rows
# give 0.0362 (declared 0.04); paper's 60,000 rows give 0.0094, within the paper-level 0.01.
TOST_MARGIN_QUICK = 0.04
TOST_MARGIN_PAPER = 0.01

PAPER_CLAIMS = (
    PaperClaim(
        "equivalent_to_ensemble",
        "ME is mathematically equivalent to sampling from the ensemble distribution",
        "all",
        title="ME samples exactly the ensemble distribution (and so matches its accuracy)",
    ),
    PaperClaim(
        "faster",
        "making it 1.78×-2.68× faster than conventional ensembling",
        "all",
        title="ME is 1.78x-2.68x faster than conventional ensembling",
    ),
)

BACKGROUND = (
    Background(
        "Model ensembling is a well-established technique for improving the performance of machine learning"
        " models",
        "prior work",
    ),
    Background(
        "this involves averaging the output distributions of multiple models and selecting the most probable"
        " label",
        "a definition",
    ),
    Background(
        "yielding improved performance but incurring substantial computational cost",
        "prior work on LLM ensembling; the gain of CE on our task is the check ensemble_gain_ce",
    ),
    Background(
        "This inefficiency stems from directly applying conventional ensemble implementation to LLMs",
        "motivation",
    ),
    Background(
        "ME stochastically selects a single model at each step to generate the next token",
        "the method (built as MixtureEnsemble); its equivalence is the claim equivalent_to_ensemble",
    ),
    Background(
        "this perspective connects LLM ensembling and token-level routing methods, suggesting that LLM"
        " ensembling is a special case of routing methods",
        "a conceptual connection, not tested",
    ),
    Background(
        "Our findings open new avenues for efficient LLM ensembling",
        "outlook",
    ),
    Background("Our code is available", "a pointer to the official code"),
)

_SPEED_NOTE = ("laptop proxy: SmolLM2-135M and perturbed copies on one CPU thread, 2-3 members (paper: 1.5B-7B"
               " models on an H100)")  # fmt: skip
_ACC_NOTE = ("laptop proxy: tiny Llama members trained here on offline addition problems (paper: 1.5B-7B"
             " models on GSM8K, MMLU, BBH, ARC)")  # fmt: skip

# The speed interval's revision (review of issue #20): the verdicts of quick run 20261201T130128 under
# the paired percentile bootstrap of the ratio of medians, which runs narrow at 4 repeats.
_SPEED_INTERVAL_THEN = {"n2_b1": ("inconclusive", "1.477× [1.364, 1.796]"),
                        "n3_b1": ("toy-verified", "2.235× [2.191, 2.365]"),
                        "n2_batched": ("inconclusive", "1.653× [1.507, 2.151]"),
                        "n3_batched": ("inconclusive", "1.879× [1.578, 2.347]")}  # fmt: skip


def _interval_revision(key: str) -> Revision:
    verdict, measured = _SPEED_INTERVAL_THEN[key]
    return Revision(
        "2026-12-01",
        "interval = paired percentile bootstrap of the ratio of median tokens/s over 4 repeats; measured "
        + measured,
        verdict,
        "two quick runs of the same code disagreed beyond those intervals, so the interval is now the wider of"
        " that bootstrap and exp of the t-interval of the per-repeat log-ratios (speed.speedup_ci95); the"
        " bootstrap bounds stay as speedup_*_bootstrap_ci_*",
        "quick run 20261201T130128",
    )


def _setting_48_tokens(verdict: str, measured: str) -> Revision:
    return Revision(
        "2026-12-01",
        "48 new tokens, 11 paired repeats, CE always run before ME, batch 2 as the batched setting; measured "
        + measured
        + " (test speed_*_members_paper_48_tokens until contract v3)",
        verdict,
        "the quick profile had to fit 4 minutes (16 tokens, 4 repeats) and the order now alternates per repeat"
        " (issue #20)",
        "e1ff0c1",
    )


def _speed_paper(n: int, batched: bool, revisions: tuple[Revision, ...] = ()) -> Claim:
    key = f"n{n}_{'batched' if batched else 'b1'}"
    where = "batch {speed_batch}" if batched else "batch 1"
    return Claim(
        f"speed_{n}_members{'_batched' if batched else ''}_paper",
        f"ME/CE tokens per second >= 1.78 with {n} members ({where}), the bottom of the paper's range",
        "1.78–2.68×",
        f"me_tokens_per_s_{key}",
        ">=",
        1.78,
        kind="paper",
        scale_note=_SPEED_NOTE,
        relative_to=(f"ce_tokens_per_s_{key}",),
        form="ratio",
        context=(f"speedup_{key}", f"ideal_fraction_{key}"),
        paper_figure=1.78,
        supports="faster",
        title=f"ME/CE tokens per second >= 1.78, {n} members, {'batched' if batched else 'batch 1'}",
        revisions=(*revisions, _interval_revision(key)),
    )


def _speed_faster(n: int, earlier: tuple[Revision, ...]) -> Claim:
    target = 1.4 if n == 2 else 1.9
    measured = "1.66× [1.63, 1.72]" if n == 2 else "2.29× [2.16, 2.39]"
    return Claim(
        f"speed_{n}_members",
        f"ME is faster than the cached CE with {n} members (batch 1; ME/CE tokens per second > 1)",
        "(our direction check; the paper's bar is speed_*_paper)",
        f"me_tokens_per_s_n{n}_b1",
        ">",
        1.0,
        kind="check",
        scale_note=_SPEED_NOTE,
        relative_to=(f"ce_tokens_per_s_n{n}_b1",),
        form="ratio",
        context=(f"speedup_n{n}_b1", f"ideal_fraction_n{n}_b1", f"speedup_n{n}_batched"),
        title=f"ME faster than the cached CE with {n} members (batch 1)",
        revisions=(
            *earlier,
            Revision(
                "2026-12-01",
                f"ME/CE >= {target} (our CPU target), 48 tokens, 11 repeats, CE first; measured {measured}"
                f" (test speed_{n}_members_target until contract v3)",
                "toy-verified",
                "the target sat below the paper's bar, which the paper tests now judge; this check keeps the"
                " direction only (issue #20)",
                "e1ff0c1",
            ),
            _interval_revision(f"n{n}_b1"),
        ),
    )


def _accuracy_test(
    n: int, margin: float, name: str, kind: str, revisions: tuple[Revision, ...] = ()
) -> Claim:
    pct = f"{100 * margin:g}"
    return Claim(
        name,
        f"ME accuracy equals CE's within {pct} point{'s' if margin > 0.01 else ''}, {n} members: the 95% interval"
        f" of acc_ME − acc_CE over {{test_problems}} independent rows lies in [−{margin:g}, {margin:g}] (TOST)",
        f"GSM8K {'82.97 vs 83.14' if n == 2 else '69.42 vs 69.05'} (every ME − CE gap the paper reports is"
        " under 0.7 points)",
        f"acc_me_n{n}",
        "in",
        (-margin, margin),
        kind=kind,
        scale_note=_ACC_NOTE,
        relative_to=(f"acc_ce_n{n}",),
        form="difference",
        context=(f"acc_ce_truncated_n{n}", f"acc_best_single_n{n}", "tost_margin_80pct_power"),
        supports="equivalent_to_ensemble" if kind == "paper" else "",
        title=f"ME accuracy equals CE's within {pct} point{'s' if margin > 0.01 else ''} (TOST), {n} members",
        revisions=revisions,
    )


def _shared_draws(measured: str) -> tuple[Revision, ...]:
    return (
        Revision(
            "2026-12-01",
            "200 problems x 5 sampling seeds in batches of 50 sharing member draws, interval over seeds;"
            f" measured {measured} (test accuracy_*_members_shared_draws until contract v3)",
            "inconclusive",
            "rows are now independent generations (per-row draws) with the interval over rows, 60,000 rows in"
            " paper so this 1-point TOST has 80% power there (issue #20)",
            "e1ff0c1",
        ),
    )


_GAIN_REVISIONS = (
    Revision(
        "2026-12-01",
        "the answer was the sum a+b, operands in [10, 40), members trained train_steps, rule acc_ME −"
        " acc_member > 0 for each member; measured ME 0.053, members 0.009 and 0.094, CE 0.053 (4,000 rows;"
        " test ensemble_gain_sum_task until contract v3)",
        "refuted",
        "the member noisy on the tens digit never learned the units digit, so CE had no gain either and the"
        " test was untestable",
        "ee122d0 (quick run of the working tree)",
    ),
    Revision(
        "2026-12-01",
        "the sum a+b, operands in [10, 30), members trained 2 x train_steps, same rule; measured −0.048"
        " [−0.0595, −0.0365] (ME 0.0518, members 0.0100 and 0.0998, CE 0.0585; test"
        " ensemble_gain_sum_task_2x until contract v3)",
        "refuted",
        "again no gain for CE; the answer is now two copied digits (a mod 10, b mod 10), each learnable from"
        " one operand",
        "ee122d0 (quick run 20261201T121631 of the working tree)",
    ),
    Revision(
        "2026-12-01",
        "rule acc_ME − acc_member > 0 for each member (the strongest decides), kind paper; measured 0.1938"
        " [0.1778, 0.2097]",
        "toy-verified",
        "any mixture of complementary members passes that, so the paper test is now ME ≈ CE by TOST at the"
        " paper-level margin (tost_margin(60,000 rows) = 0.0094, declared 0.01 as for the accuracy tests;"
        " quick's 4,000 rows: ensemble_gain_tost at 0.04); the old rule is re-measured as the check"
        " ensemble_gain_me_beats_members",
        "quick run 20261201T130128",
    ),
)

TESTS = (
    Claim(
        "exactness",
        "ME samples exactly the CE ensemble distribution (χ² p > 0.001)",
        "mathematically equivalent",
        "exact_chi2_p_min",
        ">",
        1e-3,
        kind="paper",
        scale_note="tiny random 1-layer Llama members (vocabulary 6, length-3 continuations); the paper's"
        " identity is for any members",
        controls=("control_chi2_p",),
        pvalue=("chi-squared", 1e-3),
        supports="equivalent_to_ensemble",
        title="ME's samples pass a chi-squared test against the exact ensemble (p > 0.001)",
        revisions=(
            Revision(
                "2026-12-01",
                "exact_chi2_p_min >= 0.001 judged as an estimate with an interval",
                "inconclusive",
                "contract v3: a p-value is judged by its test's form (p > alpha), with no interval",
                "07dc147 (quick record)",
            ),
        ),
    ),
    Claim(
        "control_rejected",
        "a single member alone is rejected by the same test (p <= 1e-6)",
        "(our negative control)",
        "control_chi2_p",
        "<=",
        1e-6,
        kind="check",
        scale_note="negative control of the exactness test, same tiny members",
        pvalue=("chi-squared", 1e-6),
        title="A single member alone is rejected by the same chi-squared test",
        revisions=(
            Revision(
                "2026-12-01",
                "control_chi2_p <= 1e-6 judged as an estimate with an interval",
                "inconclusive",
                "contract v3: a p-value is judged by its test's form (p <= alpha), with no interval",
                "07dc147 (quick record)",
            ),
        ),
    ),
    Claim(
        "cache_catch_up",
        "lazy KV catch-up logits equal full recomputation (max |Δ| <= 1e-5, float64)",
        "exact (lazy KV sync)",
        "cache_max_abs_diff_fp64",
        "<=",
        1e-5,
        kind="check",
        scale="exact",
        scale_note="checked exactly after every catch-up chunk of one sequence, for a task member and"
        " the speed model, in float64 where rounding is ~1e-14",
        context=("cache_max_abs_diff_task_member_fp64", "cache_max_abs_diff_speed_model_fp64"),
        unit="logit",
        title="Lazy KV catch-up logits equal full recomputation (float64)",
        revisions=(
            Revision(
                "2026-11-30",
                "cache_max_abs_diff (float32, task member and SmolLM2) <= 1e-5; measured 5.05e-5, and"
                " 4.43e-5 in the quick record 20261201T163622 (test cache_catch_up_original until contract v3)",
                "refuted",
                "the float32 gap is rounding as large as transformers' own KV cache (5.2e-5), so the rule"
                " moved to float64",
                "07dc147 (quick record)",
            ),
        ),
    ),
    Claim(
        "cache_catch_up_fp32",
        "in float32, catch-up drifts from recomputation no more than 2x transformers' own KV cache",
        "(our rounding check)",
        "cache_max_abs_diff_speed_model",
        "<=",
        2.0,
        kind="check",
        scale_note="one sequence on the speed model; rounding drift is not a per-instance guarantee",
        relative_to=("cache_hf_incremental_diff_speed_model",),
        form="ratio",
        title="Float32 catch-up drift at most 2x transformers' own KV cache",
    ),
    _speed_paper(2, False, (_setting_48_tokens("refuted", "1.66× [1.63, 1.72]"),)),
    _speed_paper(3, False, (_setting_48_tokens("toy-verified", "2.29× [2.16, 2.39]"),)),
    _speed_paper(2, True),
    _speed_paper(3, True),
    _speed_faster(
        2,
        (
            Revision(
                "2026-11-30",
                "ME/CE >= 1.4, 16 new tokens, 5 paired repeats; measured 1.64 ± 0.32 (median ± t half-width;"
                " test speed_2_members_16_tokens until contract v3)",
                "inconclusive",
                "too few tokens and repeats to decide; 48 tokens",
                "dc7e6ec",
            ),
            Revision(
                "2026-11-30",
                "ME/CE >= 1.4, 48 new tokens, 7 paired repeats; measured 1.63 [1.39, 1.68] (median and its"
                " order-statistic interval; test speed_2_members_7_repeats until contract v3)",
                "inconclusive",
                "11 repeats",
                "facfff9",
            ),
        ),
    ),
    _speed_faster(
        3,
        (
            Revision(
                "2026-11-30",
                "ME/CE >= 1.9, 48 new tokens, 7 paired repeats; measured 2.07 [1.70, 2.30] (median and its"
                " order-statistic interval; test speed_3_members_7_repeats until contract v3)",
                "inconclusive",
                "11 repeats",
                "facfff9",
            ),
        ),
    ),
    _accuracy_test(
        2, TOST_MARGIN_PAPER, "accuracy_2_members", "paper", _shared_draws("−0.003 [−0.029, 0.023]")
    ),
    _accuracy_test(
        3, TOST_MARGIN_PAPER, "accuracy_3_members", "paper", _shared_draws("−0.034 [−0.176, 0.108]")
    ),
    _accuracy_test(2, TOST_MARGIN_QUICK, "accuracy_tost_2_members", "check"),
    _accuracy_test(3, TOST_MARGIN_QUICK, "accuracy_tost_3_members", "check"),
    Claim(
        "ensemble_gain",
        "ME keeps CE's gain: on the gain task ME's accuracy equals CE's within 1 point, the 95% interval of"
        " acc_ME − acc_CE over {test_problems} independent rows lies in [−0.01, 0.01] (TOST)",
        "ME 82.97 vs CE 83.14 (best member 79.77) on GSM8K",
        "acc_me_gain",
        "in",
        (-TOST_MARGIN_PAPER, TOST_MARGIN_PAPER),
        kind="paper",
        scale_note="laptop proxy: two tiny members whose errors are complementary by construction (each"
        " trained with one answer digit randomised)",
        relative_to=("acc_ce_gain",),
        form="difference",
        context=("acc_gain_member0", "acc_gain_member1", "tost_margin_80pct_power"),
        supports="equivalent_to_ensemble",
        title="ME keeps CE's gain: accuracy equal to CE's within 1 point (TOST)",
        revisions=_GAIN_REVISIONS,
    ),
    Claim(
        "ensemble_gain_tost",
        "on the gain task ME's accuracy equals CE's within the quick profile's TOST margin (the 95%"
        " interval of acc_ME − acc_CE lies in [−0.04, 0.04])",
        "ME 82.97 vs CE 83.14 on GSM8K",
        "acc_me_gain",
        "in",
        (-TOST_MARGIN_QUICK, TOST_MARGIN_QUICK),
        kind="check",
        scale_note="the same rows as ensemble_gain, at the margin quick's 4,000 rows can resolve (80% power)",
        relative_to=("acc_ce_gain",),
        form="difference",
        context=("tost_margin_80pct_power",),
        title="Gain task: ME accuracy equals CE's within 4 points (quick's TOST)",
    ),
    Claim(
        "ensemble_gain_me_beats_members",
        "The earlier rule of `ensemble_gain`: on the gain task ME is more accurate than each of its two"
        " members (acc_ME − acc_member > 0, paired over rows)",
        "ME 82.97 vs best member 79.77 on GSM8K",
        "acc_me_gain",
        ">",
        0.0,
        kind="check",
        scale_note="the same two members and rows as ensemble_gain",
        relative_to=("acc_gain_member0", "acc_gain_member1"),
        form="difference",
        context=("acc_ce_gain",),
        title="Gain task: ME more accurate than each of its two members",
    ),
    Claim(
        "ensemble_gain_ce",
        "the gain task has a gain to keep: CE is more accurate than each member",
        "(our check of the task)",
        "acc_ce_gain",
        ">",
        0.0,
        kind="check",
        scale_note="the same two members and rows as ensemble_gain",
        relative_to=("acc_gain_member0", "acc_gain_member1"),
        form="difference",
        title="Gain task: CE more accurate than each member",
    ),
)

NAMES = {
    "control_chi2_p": "member 0 alone (χ² p)",
    "cache_max_abs_diff_task_member_fp64": "task member, float64",
    "cache_max_abs_diff_speed_model_fp64": "speed model, float64",
    "cache_max_abs_diff_task_member": "task member, float32",
    "cache_max_abs_diff_speed_model": "speed model, float32",
    "cache_hf_incremental_diff_speed_model": "transformers' one-token KV cache, float32",
    "ce_tokens_per_s_n2_b1": "CE, 2 members (tok/s)",
    "ce_tokens_per_s_n3_b1": "CE, 3 members (tok/s)",
    "ce_tokens_per_s_n2_batched": "CE, 2 members, batched (tok/s)",
    "ce_tokens_per_s_n3_batched": "CE, 3 members, batched (tok/s)",
    "speedup_n2_b1": "median paired ME/CE, batch 1",
    "speedup_n3_b1": "median paired ME/CE, batch 1",
    "speedup_n2_batched": "median paired ME/CE, batched",
    "speedup_n3_batched": "median paired ME/CE, batched",
    "ideal_fraction_n2_b1": "ME/CE over the ideal 2×, batch 1",
    "ideal_fraction_n3_b1": "ME/CE over the ideal 3×, batch 1",
    "ideal_fraction_n2_batched": "ME/CE over the ideal 2×, batched",
    "ideal_fraction_n3_batched": "ME/CE over the ideal 3×, batched",
    "acc_ce_n2": "CE (exact mixture)",
    "acc_ce_n3": "CE (exact mixture)",
    "acc_ce_truncated_n2": "CE truncated (official code)",
    "acc_ce_truncated_n3": "CE truncated (official code)",
    "acc_best_single_n2": "best single member",
    "acc_best_single_n3": "best single member",
    "tost_margin_80pct_power": "TOST margin at 80% power for these rows",
    "acc_gain_member0": "member 0 alone (noisy first digit)",
    "acc_gain_member1": "member 1 alone (noisy second digit)",
    "acc_ce_gain": "CE on the gain task",
}
