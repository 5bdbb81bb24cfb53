"""What the paper claims and how each claim is tested (declarations only; read beside the abstract).

The abstract (Deng, Chakraborty, Chen, Tan, ICML 2026) makes four empirical claims that we test at CPU
scale: competitive regret on nonlinear synthetic benchmarks, near-nominal calibration, the best average
rank on classification bandits, and higher policy values in a Drink Less case study. Its regret bound is
for ideal posterior sampling and its robustness sentence is measured only as a check (background).

Issue #17 (2026-12-01) cut the quick profile three times to fit its 4-minute budget; every former quick
setting, and the first release's priors and draw rule, is a Revision of the test it was, with its verdict.
"""

from __future__ import annotations

from icml26.common import Background, Claim, PaperClaim, Revision

FRIEDMAN_OTHERS = ("lints", "linucb", "eps_greedy", "random", "rf_ts", "xgb_ts", "neuralts")
SUITE_OTHERS = ("lints", "linucb", "rf_ts", "xgb_ts", "neuralts", "random")
_QUICK_BUDGET = "for the 4-minute quick budget (issue #17); the paper profile keeps the larger setting"
_DAY = "2026-12-01"
_FIRST = "6593c93 (quick, first release)"  # the first release's runs
_PRE17 = "920dae3 (quick)"  # quick before issue #17
_CUT2 = "19a3412 (quick)"  # after the first and second cuts (150 rows)
_CUT3 = "e6256a1 (quick)"  # before the third cut
_PRIORS = "priors and draw rule changed to the official agent's (bart-playground) after the calibration investigation"

PAPER_CLAIMS = (
    PaperClaim(
        "competitive_regret",
        "BFTS achieves competitive regret on nonlinear synthetic benchmarks",
        "all",
        title="Competitive regret on nonlinear synthetic benchmarks",
    ),
    PaperClaim(
        "near_nominal_calibration",
        "with near-nominal uncertainty calibration",
        "all",
        title="Near-nominal uncertainty calibration",
    ),
    PaperClaim(
        "best_average_rank",
        "attains the best average rank across nine OpenML contextual bandit benchmarks",
        "all",
        title="Best average rank across nine OpenML contextual bandit benchmarks",
    ),
    PaperClaim(
        "higher_policy_value",
        "yields higher estimated policy values than linear, neural, and tree-ensemble baselines in a Drink Less"
        " micro-randomized trial case study",
        "all",
        title="Higher estimated policy value than the baselines in the Drink Less study",
    ),
)

BACKGROUND = (
    Background(
        "We propose Bayesian Forest Thompson Sampling (BFTS), which performs Thompson sampling using arm-wise"
        " Bayesian Additive Regression Trees (BART) to model each action's mean reward and generate MCMC-based"
        " posterior draws for decision-making.",
        "a description of the method (agent.py, bart.py)",
    ),
    Background(
        "We derive an information-theoretic Bayesian regret bound of order $\\widetilde{\\mathcal O}(K\\sqrt{T})$"
        " for ideal posterior sampling under a correctly specified Bayesian design.",
        "a theorem for ideal posterior sampling, which BFTS's MCMC draws are not; the regret's growth is"
        " looked at by the check friedman1_sublinear",
    ),
    Background(
        "Across OpenML benchmarks, BFTS is robust to hyperparameter choices.",
        "the OpenML sets cannot be downloaded here; measured only as the check robustness on Friedman1, which"
        " has no control (the paper names no broken variant), so it cannot be a paper test",
    ),
)

# display names of the metrics the tests compare with, control with or show beside
NAMES = {
    **{
        f"{scenario}_regret_{k}": name
        for scenario in ("friedman1", "friedman2")
        for k, name in zip(
            FRIEDMAN_OTHERS,
            ("LinTS", "LinUCB", "ε-greedy", "Random", "RF-TS", "XGB-TS", "NeuralTS"),
            strict=True,
        )
    },
    "friedman1_regret_lints_first3": "LinTS (first 3 seeds)",
    "friedman1_regret_bfts_first3": "BFTS (first 3 seeds)",
    **{
        f"suite_avg_rank_{k}": name
        for k, name in zip(
            ("bfts", *SUITE_OTHERS),
            ("BFTS", "LinTS", "LinUCB", "RF-TS", "XGB-TS", "NeuralTS", "Random"),
            strict=True,
        )
    },
    **{
        f"suite_{k}_rank_position": f"{name}'s position"
        for k, name in zip(
            SUITE_OTHERS, ("LinTS", "LinUCB", "RF-TS", "XGB-TS", "NeuralTS", "Random"), strict=True
        )
    },
    "calibration_coverage90_lints": "LinTS coverage",
    "mrt_logged_value": "logged policy",
    "mrt_lints_replay_value": "LinTS",
    "mrt_random_replay_value": "Random",
    "mrt_bfts_true_lift": "BFTS true lift",
    "mrt_bfts_replay_bias": "BFTS replay bias",
    "mrt_logged_value_trial0": "logged policy (trial 0)",
    "mrt_bfts_replay_value_trial0": "BFTS (trial 0)",
    "mrt_lints_replay_value_trial0": "LinTS (trial 0)",
    "mrt_random_replay_value_trial0": "Random (trial 0)",
    "openml_magic_regret_lints": "LinTS",
    "openml_magic_regret_random": "Random",
    "drink_less_logged_value": "deployed policy",
    "drink_less_lints_value": "LinTS",
    "drink_less_random_value": "Random",
}


def _competitive(scenario: str, title: str, revisions: tuple[Revision, ...] = ()) -> Claim:
    """The paper's "competitive regret" on a synthetic scenario, by the pre-registered reading of issue #17."""
    return Claim(
        f"{scenario}_competitive",
        f"{title}, T=min(1000, {{friedman_horizon}}), every agent on the same seeds: BFTS mean cumulative regret"
        " <= 1.1x the best other agent's (LinTS, LinUCB, eps-greedy, Random, RF-TS, XGB-TS, NeuralTS)",
        "competitive regret on nonlinear synthetic benchmarks",
        f"{scenario}_regret_bfts",
        "<=",
        1.1,
        kind="paper",
        supports="competitive_regret",
        title=f"{title}: BFTS regret <= 1.1x the strongest other agent's",
        scale_note="laptop proxy: the profile's forest (quick 50 trees / 200 burn-in, T=500, 6 / 2 seeds; paper"
        " 100 / 500, T=1000, 10 seeds); 'competitive' read as <= 1.1x the strongest agent, written down in"
        " issue #17 before the run",
        relative_to=tuple(f"{scenario}_regret_{k}" for k in FRIEDMAN_OTHERS),
        form="ratio",
        revisions=revisions,
    )


TESTS = (
    _competitive("friedman1", "Friedman1"),
    _competitive(
        "friedman2",
        "Friedman2",
        (
            Revision(
                _DAY,
                "3 Friedman2 seeds at T=500 in quick (kept as the stored check friedman2_competitive_3seeds)",
                "inconclusive",
                f"2 seeds in quick (third cut) {_QUICK_BUDGET}",
                f"{_CUT3}: BFTS / XGB-TS 1.252x [0.559, 1.944]",
            ),
        ),
    ),
    Claim(
        "friedman1_vs_lints",
        "Friedman1, T=min(1000, {friedman_horizon}): BFTS mean cumulative regret <= 0.75x LinTS's",
        "BFTS well below LinTS (issue target <= 0.75x; the paper: 'competitive regret')",
        "friedman1_regret_bfts",
        "<=",
        0.75,
        kind="check",
        title="Friedman1: BFTS regret <= 0.75x LinTS's",
        scale_note="laptop proxy: the profile's forest (quick 50 trees / 200 burn-in, T=500, 6 seeds)",
        relative_to=("friedman1_regret_lints",),
        form="ratio",
        context=(
            "friedman1_regret_linucb",
            "friedman1_regret_eps_greedy",
            "friedman1_regret_bfts_first3",
            "friedman1_regret_lints_first3",
        ),
        revisions=(
            Revision(
                "2026-11-30",
                "3 Friedman1 seeds under stochtree's own priors and the first draw rule",
                "toy-verified",
                _PRIORS,
                f"{_FIRST}: 0.654 +- 0.088",
            ),
            Revision(
                "2026-11-30",
                "3 Friedman1 seeds (official priors and draw rule)",
                "inconclusive",
                "raised to 20 seeds after seeing the 3-seed interval, before the 20-seed result was known; the"
                " 3-seed setting re-measured on the run's first 3 seeds (check friedman1_vs_lints_3seeds), whose"
                " figures are shown beside this test (friedman1_regret_*_first3)",
                "0.683 +- 0.373",
            ),
            Revision(
                _DAY,
                "the first 3 seeds at T=1000 (check friedman1_vs_lints_3seeds until contract v3)",
                "inconclusive",
                f"T=500 {_QUICK_BUDGET}; at T=500 the first-3 check stayed inconclusive (quick 0.915 [0.26, 1.57],"
                " paper at T=1000 0.628 [0.33, 0.93])",
                f"{_PRE17}: 0.683 [0.563, 0.856]",
            ),
            Revision(
                _DAY,
                "quick T=1000, 20 seeds (kept as the stored check friedman1_vs_lints_20seeds)",
                "toy-verified",
                f"T=500, 6 seeds {_QUICK_BUDGET}",
                f"{_PRE17}: 0.686 [0.640, 0.726]",
            ),
        ),
    ),
    Claim(
        "friedman1_vs_random",
        "Friedman1, T=min(1000, {friedman_horizon}): BFTS mean cumulative regret <= 0.2x Random's (a sanity"
        " check: LinTS and LinUCB pass it too)",
        "issue target <= 0.2x",
        "friedman1_regret_bfts",
        "<=",
        0.2,
        kind="check",
        title="Friedman1: BFTS regret <= 0.2x Random's (sanity)",
        scale_note="laptop proxy: the profile's forest; LinTS and LinUCB are controls judged by the same bar",
        relative_to=("friedman1_regret_random",),
        form="ratio",
        controls=("friedman1_regret_lints", "friedman1_regret_linucb"),
        revisions=(
            Revision(
                _DAY,
                "quick T=1000, 20 seeds, LinTS the only control (kept as the stored check"
                " friedman1_vs_random_T1000)",
                "non-discriminating",
                f"T=500, 6 seeds {_QUICK_BUDGET}; LinUCB a control too (issue #17)",
                f"{_PRE17}: 0.114 [0.108, 0.120]; LinTS 0.166",
            ),
        ),
    ),
    Claim(
        "friedman1_sublinear",
        "Friedman1: regret in the second half of the horizon <= 60% of the first half (sublinear, O~(sqrt T))",
        "O~(K sqrt T) regret; issue: rounds 1001-2000 <= 60% of rounds 1-1000",
        "friedman1_second_half_ratio",
        "<=",
        0.6,
        kind="check",
        title="Friedman1: second-half regret <= 60% of the first half's",
        unit="×",
        scale_note="the paper's O~(K sqrt T) is a bound for ideal posterior sampling; the 60% is the issue's;"
        " quick compares rounds 251-500 with 1-250, paper 501-1000 with 1-500",
        revisions=(
            Revision(
                _DAY,
                "quick T=1000 (rounds 501-1000 vs 1-500), 20 seeds (kept as the stored check"
                " friedman1_sublinear_T1000)",
                "toy-verified",
                f"T=500, 6 seeds {_QUICK_BUDGET}",
                f"{_PRE17}: 0.226 +- 0.024",
            ),
        ),
    ),
    Claim(
        "suite_rank_first",
        "Classification suite ({suite_seeds} seeds per data set): BFTS has the best average rank (position 1;"
        " interval: bootstrap over the data sets and seeds)",
        "best average rank across nine OpenML contextual bandit benchmarks",
        "suite_bfts_rank_position",
        "<=",
        1.0,
        kind="paper",
        supports="best_average_rank",
        title="Classification suite: BFTS has the best average rank",
        unit="rank",
        scale_note="laptop proxy: bundled scikit-learn sets (quick: 3 x 2 seeds, 100 rows each at most; paper: 7"
        " x 3 seeds, every row) instead of the nine OpenML sets; every other agent's position is a control judged by"
        " the same bar",
        controls=tuple(f"suite_{k}_rank_position" for k in SUITE_OTHERS),
        shown=tuple(f"suite_avg_rank_{k}" for k in ("bfts", *SUITE_OTHERS)),
        revisions=(
            Revision(
                _DAY,
                "quick 3 sets x 3 seeds of at most 150 rows (kept as the stored check suite_rank_first_150rows)",
                "refuted",
                f"100 rows {_QUICK_BUDGET}",
                f"{_CUT2}: position 3 [2, 4]",
            ),
            Revision(
                _DAY,
                "quick 3 seeds per set of at most 100 rows (kept as the stored check suite_rank_first_3seeds)",
                "refuted",
                f"2 seeds in quick (third cut) {_QUICK_BUDGET}",
                f"{_CUT3}: position 4 [3, 5]",
            ),
        ),
    ),
    Claim(
        "suite_rank_best",
        "Classification suite ({suite_seeds} seeds per data set): BFTS's average rank minus every other"
        " agent's <= 0 (pairwise, paired by instance)",
        "best average rank across nine OpenML contextual bandit benchmarks",
        "suite_avg_rank_bfts",
        "<=",
        0.0,
        kind="check",
        title="Classification suite: BFTS's average rank <= every other agent's",
        unit="rank",
        scale_note="laptop proxy: bundled scikit-learn sets instead of the nine OpenML sets; the paper test"
        " is suite_rank_first",
        relative_to=tuple(f"suite_avg_rank_{k}" for k in SUITE_OTHERS),
        form="difference",
        revisions=(
            Revision(
                _DAY,
                "kind paper, 1 seed per data set (kept as the stored check suite_rank_best_1seed)",
                "inconclusive",
                "3 seeds of at most 150 rows (issue #17), and the paper test moved to suite_rank_first",
                f"{_PRE17}: BFTS - NeuralTS 1.333 rank [-0.10, 2.77]",
            ),
            Revision(
                _DAY,
                "3 seeds of at most 150 rows (kept as the stored check suite_rank_best_150rows)",
                "inconclusive",
                f"100 rows in quick (second cut) {_QUICK_BUDGET}",
                f"{_CUT2}: BFTS - NeuralTS 1.389 rank [-0.15, 2.92]",
            ),
            Revision(
                _DAY,
                "3 seeds per set of at most 100 rows (kept as the stored check suite_rank_best_3seeds)",
                "refuted",
                f"2 seeds in quick (third cut) {_QUICK_BUDGET}",
                f"{_CUT3}: BFTS - NeuralTS 2.0 rank [0.65, 3.35]",
            ),
        ),
    ),
    Claim(
        "suite_rank",
        "Classification suite ({suite_seeds} seeds per data set): BFTS has the best or second-best average"
        " rank (looser than the paper's bar)",
        "best average rank over nine OpenML sets (this check is looser: <= 2nd)",
        "suite_bfts_rank_position",
        "<=",
        2.0,
        kind="check",
        title="Classification suite: BFTS has the best or second-best average rank",
        unit="rank",
        scale_note="laptop proxy: bundled scikit-learn sets instead of the nine OpenML sets",
        revisions=(
            Revision(
                _DAY,
                "1 seed per data set (kept as the stored check suite_rank_1seed)",
                "inconclusive",
                "3 seeds of at most 150 rows (issue #17)",
                f"{_PRE17}: position 2 [2, 3]",
            ),
            Revision(
                _DAY,
                "3 seeds of at most 150 rows (kept as the stored check suite_rank_150rows)",
                "inconclusive",
                f"100 rows in quick (second cut) {_QUICK_BUDGET}",
                f"{_CUT2}: position 3 [2, 4]",
            ),
            Revision(
                _DAY,
                "3 seeds per set of at most 100 rows (kept as the stored check suite_rank_3seeds)",
                "refuted",
                f"2 seeds in quick (third cut) {_QUICK_BUDGET}",
                f"{_CUT3}: position 4 [3, 5]",
            ),
        ),
    ),
    Claim(
        "calibration_official_agent",
        "Coverage of central 90% credible intervals of f(x, a) at 200 fixed probes in [0.80, 0.97] (the"
        " agent with the official forest: stochtree, 100 trees, 500 burn-in, official draw rule, last"
        " refit, T=min(1000, {friedman_horizon}), {calibration_official_seeds} seeds); LinTS's posterior"
        " is the control",
        "near-nominal uncertainty calibration",
        "calibration_official_agent_coverage90",
        "in",
        (0.80, 0.97),
        kind="paper",
        supports="near_nominal_calibration",
        title="90% credible intervals of the official forest cover in [0.80, 0.97]",
        scale_note="laptop proxy: the official forest on our Friedman1 runs; the [0.80, 0.97] band is the"
        " project's reading of 'near-nominal', written down before the first run",
        controls=("calibration_coverage90_lints",),
        revisions=(
            Revision(
                _DAY,
                "kind check, quick 10 seeds at T=1000, no control (the same statement at that setting kept as"
                " the stored paper test calibration_official_agent_10seeds, refuted)",
                "refuted",
                f"3 seeds at T=500 {_QUICK_BUDGET}, and LinTS's coverage as the control; the paper profile"
                " measures 10 seeds at T=1000",
                f"{_PRE17}: coverage 0.769 +- 0.021",
            ),
            Revision(
                _DAY,
                "quick: the first 3 seeds at T=500 (kept as the stored check calibration_official_agent_3seeds)",
                "inconclusive",
                f"2 seeds in quick (third cut) {_QUICK_BUDGET}",
                f"{_CUT3}: coverage 0.655 [0.508, 0.802]",
            ),
        ),
    ),
    Claim(
        "calibration",
        "Coverage of central 90% credible intervals of f(x, a) at fixed probes in [0.80, 0.97] (the agent's"
        " stochtree posterior, {n_trees} trees / {n_burnin} burn-in, last refit, every Friedman1 seed)",
        "near-nominal calibration",
        "calibration_coverage90",
        "in",
        (0.80, 0.97),
        kind="check",
        title="90% credible intervals of the profile's forest cover in [0.80, 0.97]",
        scale_note="laptop proxy: quick's forest is 50 trees / 200 burn-in (the official 100 / 500 only in the"
        " paper profile); LinTS's coverage is the control",
        controls=("calibration_coverage90_lints",),
        revisions=(
            Revision(
                "2026-11-30",
                "stochtree's own priors and clip(rounds to the next refit, 100, 500) draws, 3 seeds (kept as the"
                " stored check calibration_original_priors)",
                "refuted",
                _PRIORS,
                f"{_FIRST}: coverage 0.667 +- 0.072",
            ),
            Revision(
                _DAY,
                "quick 20 seeds at T=1000",
                "refuted",
                f"6 seeds at T=500 {_QUICK_BUDGET}",
                f"{_PRE17}: coverage 0.701 +- 0.016",
            ),
        ),
    ),
    Claim(
        "calibration_official",
        "Coverage of central 90% credible intervals of f(x, a) at fixed probes in [0.80, 0.97] (the official "
        "agent's sampler: grow/prune/change BART, {refit_trees} trees, {refit_burnin} burn-in,"
        " {refit_draws} draws (the official 500 / 500 in the paper profile), refit at T, first"
        " {calibration_refit_seeds} seeds)",
        "near-nominal calibration",
        "calibration_official_coverage90",
        "in",
        (0.80, 0.97),
        kind="check",
        title="90% intervals of a fresh official-sampler refit cover in [0.80, 0.97]",
        scale_note="a diagnostic: a fresh refit on the agent's final data, a posterior the agent does not"
        " sample from; LinTS's coverage is the control",
        controls=("calibration_coverage90_lints",),
        revisions=(
            Revision(
                _DAY,
                "refit on the T=1000 data of quick, 3 seeds",
                "inconclusive",
                f"2 seeds on the T=500 data {_QUICK_BUDGET}",
                f"{_PRE17}: coverage 0.792 +- 0.072",
            ),
            Revision(
                _DAY,
                "500 burn-in / 500 draws, first 2 seeds (kept as the stored check calibration_official_500draws)",
                "inconclusive",
                f"200 / 200 in quick (third cut) {_QUICK_BUDGET}",
                f"{_CUT3}: coverage 0.835 [0.771, 0.899]",
            ),
        ),
    ),
    Claim(
        "mrt_lift",
        "MRT simulator: BFTS replay policy value >= 1.15x the logged policy's mean reward (15% lift),"
        " {mrt_trials} pooled trials",
        "> 30% higher engagement than the deployed Drink Less policy (issue target >= 15% on the simulator)",
        "mrt_bfts_replay_value",
        ">=",
        1.15,
        kind="check",
        title="MRT simulator: BFTS replay value >= 1.15x the logged policy's",
        scale_note="a simulator modelled on Drink Less (the trial data are private); 1 trial of 200 users in quick,"
        " 5 in paper",
        relative_to=("mrt_logged_value",),
        form="ratio",
        controls=("mrt_lints_replay_value", "mrt_random_replay_value"),
        context=(
            "mrt_bfts_true_lift",
            "mrt_bfts_replay_bias",
            "mrt_bfts_replay_value_trial0",
            "mrt_logged_value_trial0",
        ),
        revisions=(
            Revision(
                "2026-11-30",
                "one simulated trial (the first release)",
                "inconclusive",
                "raised to 3 trials",
                f"{_FIRST}: +24.8% +- 15.0%",
            ),
            Revision(
                "2026-11-30",
                "3 simulated trials",
                "inconclusive",
                "raised to 5 pooled trials after seeing the one- and three-trial results",
                "+21.9% +- 8.6%",
            ),
            Revision(
                _DAY,
                "the first trial of 300 users alone (check mrt_lift_one_trial, re-measured on every run until"
                " contract v3; the first trial's figures are shown beside this test)",
                "inconclusive",
                f"200 users {_QUICK_BUDGET}; at 200 users it stayed inconclusive (quick 0.996 [0.82, 1.17], paper"
                " 1.131 [0.999, 1.263])",
                f"{_PRE17}: 1.272x [1.121, 1.423]",
            ),
            Revision(
                _DAY,
                "5 pooled trials of 300 users in quick (kept as the stored check mrt_lift_5trials)",
                "toy-verified",
                f"1 trial of 200 users in quick {_QUICK_BUDGET}",
                f"{_PRE17}: 1.235x [1.169, 1.302]",
            ),
        ),
    ),
    Claim(
        "mrt_lift_paper",
        "MRT simulator: BFTS replay policy value > 1.30x the logged policy's mean reward (the paper's 30% bar),"
        " {mrt_trials} pooled trials",
        "> 30% higher engagement than the deployed Drink Less policy",
        "mrt_bfts_replay_value",
        ">",
        1.30,
        kind="paper",
        supports="higher_policy_value",
        title="MRT simulator: BFTS replay value > 1.30x the logged policy's",
        scale_note="a simulator modelled on Drink Less (the trial data are private; its effect sizes are the"
        " project's), not the trial's data",
        relative_to=("mrt_logged_value",),
        form="ratio",
        controls=("mrt_lints_replay_value", "mrt_random_replay_value"),
        context=("mrt_bfts_true_lift",),
        revisions=(
            Revision(
                _DAY,
                "5 pooled trials in quick (kept as the stored check mrt_lift_paper_5trials)",
                "inconclusive",
                f"1 trial of 200 users {_QUICK_BUDGET}",
                f"{_PRE17}: 1.235x [1.169, 1.302]",
            ),
        ),
    ),
    Claim(
        "robustness",
        "Friedman1: regret spread (max - min) / mean <= 20% across the hyperparameter grid ({robust_seeds}"
        " shared seeds, T={robust_horizon}; interval: bootstrap over the seeds)",
        "robust to hyperparameter choices (across OpenML benchmarks)",
        "robust_regret_spread",
        "<=",
        0.20,
        kind="check",
        title="Friedman1: regret spread across the hyperparameter grid <= 20% of the mean",
        unit="× mean",
        scale_note="laptop proxy: Friedman1 instead of OpenML, one change at a time; no control (the paper"
        " names no broken variant to compare with)",
        revisions=(
            Revision(
                "2026-11-30",
                "stochtree's own priors and clip(rounds to the next refit, 100, 500) draws, 2 seeds, T=500 (kept"
                " as the stored check robustness_original_priors)",
                "refuted",
                f"{_PRIORS} (for calibration), after which it read 0.177",
                f"{_FIRST}: spread 0.315",
            ),
            Revision(
                _DAY,
                "2 seeds at T=500, no interval (kept as the stored check robustness_2seeds)",
                "inconclusive",
                f"4 seeds with a bootstrap interval (issue #17), T=250 in quick {_QUICK_BUDGET}",
                f"{_PRE17}: spread 0.177",
            ),
            Revision(
                _DAY,
                "4 shared seeds at T=250 (kept as the stored check robustness_T250)",
                "inconclusive",
                f"T=150 in quick (second cut) {_QUICK_BUDGET}",
                f"{_CUT2}: spread 0.086 [0.063, 0.343]",
            ),
            Revision(
                _DAY,
                "4 shared seeds at T=150 (kept as the stored check robustness_4seeds)",
                "inconclusive",
                f"3 seeds in quick (third cut) {_QUICK_BUDGET}",
                f"{_CUT3}: spread 0.077 [0.052, 0.325]",
            ),
            Revision(
                _DAY,
                "3 shared seeds at T=150 (measured once, at 226 s CPU for the whole run)",
                "inconclusive",
                f"T=100 in quick {_QUICK_BUDGET}",
                "spread 0.076 [0.076, 0.422]",
            ),
        ),
    ),
    Claim(
        "openml_nine",
        "Regret on the nine OpenML benchmarks (e.g. MagicTelescope 1.49e3, Mushroom 53.9 at T=8124)",
        "MagicTelescope 1.49e3, Adult 1.54e3, Mushroom 53.9, Shuttle 106.9",
        "openml_magic_regret",
        "<=",
        1490.0,
        kind="paper",
        supports="best_average_rank",
        title="OpenML: regret at or below the paper's (MagicTelescope 1.49e3)",
        scale_note="blocked: the OpenML sets cannot be downloaded here",
        controls=("openml_magic_regret_lints", "openml_magic_regret_random"),
    ),
    Claim(
        "drink_less_real",
        "Drink Less trial: BFTS engagement > 30% above the deployed policy (replay OPE on real data)",
        "> 30%",
        "drink_less_bfts_value",
        ">",
        1.30,
        kind="paper",
        supports="higher_policy_value",
        title="Drink Less trial data: BFTS engagement > 1.30x the deployed policy's",
        scale_note="blocked: the Drink Less trial data are private",
        relative_to=("drink_less_logged_value",),
        form="ratio",
        controls=("drink_less_lints_value", "drink_less_random_value"),
    ),
)
