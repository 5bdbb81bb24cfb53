"""NeuronCtrl's claims, beside its abstract (verdict contract v3): what the paper says, how we test it.

No full text and no official code could be read (the repository is not reachable from here); the
benchmark (``ecs_rd`` on synthetic morphologies) and every setting are reconstructions, so every
measured test is a proxy. Rules and settings below were written before any run (issue #41's
pre-registered definitions): a step is violated if any constrained node exceeds its bound by more
than 1e-6 relative on the true field (or an action limit is broken); the evaluation preference is the
"aggressive" one, weight 0.9 on task cost; oracle MPC: horizon 10, 20 optimiser iterations.
"""

from icml26.common import Background, Claim, PaperClaim, Revision

NOTE = (
    "ecs_rd (bistable extracellular K+ on seeded synthetic 3-D morphologies, scipy.sparse) stands in for the"
    " paper's three high-fidelity 3-D benchmarks; the method is reconstructed from the abstract"
    " (docs/methods/neuronctrl.md). dbs and astro_k are smaller stand-ins (a hidden second variable) run in"
    " the paper profile only, as are PPO/SAC and the training-seed intervals (quick: training seed 0 only)."
)
PAPER_RUN = "20261202T040720686074Z"  # the paper record that measured the verdicts the revisions keep
_SEEDS_OLD = "paper profile: the learned parts of training seed 0 only, intervals over test episodes only"
_SEEDS_WHY = (
    "intervals must carry training-seed variance: the paper profile now runs the shipped training seeds"
    " (train_seeds) on the same test episodes and pools them, with a hierarchical bootstrap (seeds, then"
    " episodes), paired across controllers on the same episodes, a pair with CEM-MPC compared on its"
    " episodes (review nc-rev #4, #5); quick keeps"
    " training seed 0"
)


def _seeds(verdict: str) -> tuple[Revision, ...]:
    return (Revision("2026-12-02", _SEEDS_OLD, verdict, _SEEDS_WHY, PAPER_RUN),)


# the latest quick record before the convergence premise (review nc-rev #9)
QUICK_RUN = "20261202T083220178594Z"
PLATEAU_TOL = 0.05  # = training.CONVERGENCE_TOL (the rule written before any run) [inferred]


def _converged(part: str) -> tuple[tuple[str, str, float], ...]:
    """The premise that the part's training converged: every validation loss of the last 20% of its stored
    curve within 5% of the curve's minimum, for every training seed run (training.plateau)."""
    return ((f"{part}_val_plateau", "<=", PLATEAU_TOL),)


def _unconverged(verdict: str, part: str, what: str) -> Revision:
    return Revision(
        "2026-12-02",
        "no precondition: judged whatever the training of the learned parts reached",
        verdict,
        f"review nc-rev #9: on under-trained {what} a failed rule refutes the budget, not the paper; the test now"
        f" requires that the {part}'s training converged (its validation loss of the last 20% of iterations"
        f" within {PLATEAU_TOL:g} relative of the curve's minimum, every training seed), else it is a check;"
        " weights without a stored validation curve leave the premise unmet",
        QUICK_RUN,
    )


BASELINES = ("none", "open", "pi", "cem", "action_only", "unfiltered")  # the ablations too (review nc-rev #8)

PAPER_CLAIMS = (
    PaperClaim(
        "tradeoffs",
        "demonstrate improved trade-offs among cost, safety, and latency",
        "all",
        title="NeuronCtrl is not Pareto-dominated in cost, safety and latency",
    ),
    PaperClaim(
        "safety",
        "Safety is enforced via complementary barrier-based mechanisms at both the action and field levels,"
        " with minimal intervention",
        "all",
        title="Barrier filters keep the field safe with minimal intervention",
    ),
    PaperClaim(
        "distillation",
        "the multi-step generator is distilled into a single-step policy while retaining the same safety filter",
        "all",
        title="The distilled one-step policy keeps the cost at lower latency",
    ),
    PaperClaim(
        "observer",
        "a history-conditioned observer infers the latent field",
        "all",
        title="The observer recovers the full field from sparse sensors",
    ),
    PaperClaim(
        "operator",
        "a morphology-aware neural operator predicts one-step dynamics",
        "all",
        title="The operator predicts the dynamics, also on unseen morphologies",
    ),
    PaperClaim(
        "preferences",
        "a flow-matching conditional flow proposes actions conditioned on user preferences",
        "all",
        title="The generator follows the user's preference",
    ),
)

BACKGROUND = (
    Background(
        "Neuromodulation can be viewed as closed-loop control of high-dimensional spatiotemporal fields on"
        " irregular 3D morphologies, coupling membrane electrophysiology with ionic reaction--diffusion",
        "the problem's framing; our plant is one instance (docs)",
    ),
    Background(
        "This view supports high-rate feedback and systematic in-silico evaluation, yet is difficult in practice",
        "motivation",
    ),
    Background(
        "Unlike classical PDE control with known equations on regular domains, neuronal microenvironments exhibit"
        " complex, often unknown biophysics on irregular shapes",
        "motivation",
    ),
    Background(
        "High-fidelity simulators are too costly for real-time control with repeated planning",
        "motivation; the oracle-latency check measures it on our plant",
    ),
    Background(
        "The discretized field is sparsely observed and must satisfy hard full-field safety constraints",
        "the problem's definition (4% sensors, field bounds in ecs_rd)",
    ),
    Background(
        "We introduce NeuronCtrl, a modular operator-level framework for safe, closed-loop generative control of"
        " neuronal microenvironment dynamics",
        "the method's description",
    ),
    Background(
        "Code is available at https://github.com/HowieHsu0126/NeuronControl", "a link (not reachable here)"
    ),
)

BLOCKED = {  # the run removes an entry when its profile measures the test
    "hifi_benchmarks": "the paper's three high-fidelity 3-D simulators (likely NEURON + rxd) are not available"
    " here and too slow for repeated planning on 2 CPU cores",
    "rl_not_dominating": "PPO/SAC are trained in the paper profile only (ppo_timesteps = 0 here: their training"
    " does not fit this profile's budget)",
    "rl_not_dominating_distilled": "PPO/SAC are trained in the paper profile only (ppo_timesteps = 0 here)",
    "dbs_astro_k": "dbs and astro_k run in the paper profile only (other_benchmarks false here)",
    "dbs_violations": "dbs runs in the paper profile only (other_benchmarks false here)",
    "astro_k_violations": "astro_k runs in the paper profile only (other_benchmarks false here)",
}
RL_GATED = ("rl_not_dominating", "rl_not_dominating_distilled")
OTHER_GATED = ("dbs_astro_k", "dbs_violations", "astro_k_violations")


def _not_dominated(name: str, who: str, title: str) -> Claim:
    return Claim(
        f"{name}_not_dominated",
        f"on ecs_rd, {{episodes}} unseen morphologies x {{steps}} steps, aggressive preference: the number of"
        f" run baselines (no control, open loop, PI, CEM-MPC on the learned operator, and the ablations:"
        f" action-only filter, unfiltered generator) that Pareto-dominate"
        f" {who} in (mean task cost, violation rate, median latency) < 0.5 (i.e. none); bootstrap over episodes",
        "improved trade-offs among cost, safety, and latency",
        f"{name}_dominated_by",
        "<",
        0.5,
        kind="paper",
        supports="tradeoffs",
        title=title,
        controls=tuple(f"{b}_dominated_by" for b in BASELINES),
        shown=(f"{name}_task", f"{name}_viol_rate", f"{name}_latency"),
        settings=("train_seeds",),
        revisions=(
            *_seeds("inconclusive"),
            Revision(
                "2026-12-02",
                "Pareto set: no control, open loop, PI, CEM-MPC",
                "inconclusive",
                "review nc-rev #8: the paper's own alternatives (the action-only filter and the unfiltered"
                " generator) are competitors too; they join the set (compared on their episodes)",
                PAPER_RUN,
            ),
        ),
    )


def _scalar(name: str, who: str) -> Claim:
    return Claim(
        f"{name}_scalar_tradeoff",
        f"on the first {{baseline_episodes}} episodes (every controller on the same ones, paired bootstrap):"
        f" cost + 1.0 x violation rate of {who} < that of the strongest baseline at matched latency (the"
        " lowest such scalar among the run baselines and ablations whose median latency is <= 1.25x its"
        " own); lambda = 1.0 and the 1.25x tolerance fixed before any run",
        "improved trade-offs among cost, safety, and latency",
        f"{name}_scalar",
        "<",
        1.0,
        kind="paper",
        supports="tradeoffs",
        title=f"{who}: cost + violations below the best latency-matched baseline",
        relative_to=(f"{name}_matched_best_scalar",),
        form="ratio",
        shown=(f"{name}_matched_best_index",),
        settings=("train_seeds",),
    )


def _violations(name: str, who: str) -> Claim:
    return Claim(
        f"{name}_violations",
        f"violation rate of {who} (steps where the true field breaks a bound by > 1e-6 relative, or an action"
        " limit) <= 1%; controls: the unfiltered generator, the action-only filter, CEM-MPC",
        "constraint satisfaction",
        f"{name}_viol_rate",
        "<=",
        0.01,
        kind="paper",
        supports="safety",
        title=f"{who}: violations <= 1% of steps",
        controls=("unfiltered_viol_rate", "action_only_viol_rate", "cem_viol_rate"),
        shown=(f"{name}_viol_max", "oracle_safe_viol_rate"),
        settings=("train_seeds",),
        requires=(("oracle_safe_viol_rate", "<=", 0.01),),
        revisions=(
            *_seeds("refuted"),
            Revision(
                "2026-12-02",
                "no precondition: judged whether or not any controller can keep the bounds on the episodes",
                "refuted",
                "review nc-rev #1: puffs depolarise the protected region at once on some episodes, whatever the"
                " action; the rule is a test of the method only where a safe reference exists, so it now"
                " requires the constrained oracle (true simulator, violation penalty) to violate <= 1% on the"
                " first baseline_episodes episodes",
                PAPER_RUN,
            ),
        ),
    )


def _rl(name: str, who: str, title: str) -> Claim:
    baselines = ("none", "open", "pi", "cem", "ppo", "sac", "ppo_filter")
    old = (
        (
            Revision(
                "2026-12-02",
                "statement 'PPO and SAC with penalties and PPO + the same filter do not Pareto-dominate"
                " NeuronCtrl' (not run), control ppo_dominated_by",
                "blocked",
                "PPO/SAC are trained (paper profile); the statement names the setting, and the controls are the"
                " same count for every other baseline (rule unchanged)",
                PAPER_RUN,
            ),
        )
        if name == "multi"
        else ()
    )
    return Claim(
        "rl_not_dominating" if name == "multi" else f"rl_not_dominating_{name}",
        f"on ecs_rd, {{episodes}} unseen morphologies x {{steps}} steps, aggressive preference: the number of RL"
        f" baselines (PPO and SAC with penalties, {{ppo_timesteps}} and {{sac_timesteps}} steps on the training"
        f" morphologies; PPO + the same QP filter) that Pareto-dominate {who} in (mean task cost, violation"
        f" rate, median latency) < 0.5; bootstrap over training seeds and episodes",
        "improved trade-offs (RL baselines)",
        f"{name}_dominated_by_rl",
        "<",
        0.5,
        kind="paper",
        supports="tradeoffs",
        title=title,
        controls=tuple(f"{b}_dominated_by_rl" for b in baselines),
        shown=(
            "ppo_task",
            "sac_task",
            "ppo_filter_task",
            "ppo_viol_rate",
            "sac_viol_rate",
            "ppo_filter_viol_rate",
        ),
        settings=("train_seeds",),
        revisions=old,
    )


def _bench_violations(bench: str) -> Claim:
    return Claim(
        f"{bench}_violations",
        f"on {bench}, violation rate of multi-step NeuronCtrl (true field beyond a bound by > 1e-6 of the"
        " field's scale, or an action limit) <= 1%; controls: PI on sensors, the unfiltered generator",
        "constraint satisfaction",
        f"{bench}_multi_viol_rate",
        "<=",
        0.01,
        kind="paper",
        supports="safety",
        title=f"{bench}: multi-step NeuronCtrl violates <= 1% of steps",
        controls=(f"{bench}_pi_viol_rate", f"{bench}_unfiltered_viol_rate"),
        shown=(f"{bench}_multi_viol_max",),
    )


TESTS = (
    _not_dominated("multi", "multi-step NeuronCtrl", "Multi-step NeuronCtrl: no baseline dominates it"),
    _not_dominated("distilled", "distilled NeuronCtrl", "Distilled NeuronCtrl: no baseline dominates it"),
    _scalar("multi", "multi-step NeuronCtrl"),
    _scalar("distilled", "distilled NeuronCtrl"),
    _rl(
        "multi",
        "multi-step NeuronCtrl",
        "RL baselines (PPO, SAC, PPO + filter) do not dominate multi-step NeuronCtrl",
    ),
    _rl(
        "distilled",
        "distilled NeuronCtrl",
        "RL baselines (PPO, SAC, PPO + filter) do not dominate distilled NeuronCtrl",
    ),
    Claim(
        "hifi_benchmarks",
        "on the paper's three high-fidelity 3-D benchmarks NeuronCtrl is not Pareto-dominated by any baseline",
        "three high-fidelity 3D neuromodulation benchmarks",
        "hifi_dominated_by",
        "<",
        0.5,
        kind="paper",
        supports="tradeoffs",
        title="The paper's three high-fidelity 3-D benchmarks (not available)",
        controls=("hifi_baseline_dominated_by",),
    ),
    Claim(
        "dbs_astro_k",
        "on our dbs and astro_k stand-ins, {episodes} unseen morphologies x {steps} steps each, aggressive"
        " preference: the number of (PI on sensors, unfiltered generator) that Pareto-dominate multi-step"
        " NeuronCtrl in (mean task cost, violation rate, median latency), summed over the two benchmarks, < 0.5;"
        " bootstrap over episodes",
        "deep brain stimulation ... astrocytic potassium regulation",
        "dbs_astro_dominated_by",
        "<",
        0.5,
        kind="paper",
        supports="tradeoffs",
        title="dbs and astro_k: neither PI nor the unfiltered generator dominates NeuronCtrl",
        controls=("dbs_astro_pi_dominated_by",),
        shown=("dbs_multi_task", "dbs_multi_viol_rate", "astro_k_multi_task", "astro_k_multi_viol_rate"),
        revisions=(
            Revision(
                "2026-12-02",
                "statement 'on our dbs and astro_k benchmarks NeuronCtrl is not Pareto-dominated by PI or the"
                " unfiltered generator' (benchmarks not built)",
                "blocked",
                "the benchmarks are built; the statement names the setting (rule and control unchanged)",
                PAPER_RUN,
            ),
        ),
    ),
    _bench_violations("dbs"),
    _bench_violations("astro_k"),
    _violations("multi", "multi-step NeuronCtrl"),
    _violations("distilled", "distilled NeuronCtrl"),
    Claim(
        "minimal_intervention",
        "mean intervention ratio ||u - u_nom|| / ||u_nom|| of the QP filter over the hard-feasible filtered steps"
        " (no slack) <= 0.5x the naive scale-to-feasible filter's on the same steps (same nominal actions and"
        " rows); needs the QP hard-feasible on at least half the steps",
        "with minimal intervention",
        "qp_intervention_ratio",
        "<=",
        0.5,
        kind="paper",
        supports="safety",
        title="QP intervention <= 0.5x the naive scale-to-feasible filter's",
        relative_to=("naive_intervention_ratio",),
        form="ratio",
        shown=("multi_filtered_fraction",),
        settings=("train_seeds",),
        requires=(("multi_slack_fraction", "<=", 0.5),),
        revisions=(
            *_seeds("refuted"),
            Revision(
                "2026-12-02",
                "over every filtered step, slack steps included; no precondition",
                "refuted",
                "review nc-rev #6: on slack steps the QP minimises ||u - u_nom||^2 + rho sum(xi), not a"
                " minimal-intervention projection, and the naive filter finds no feasible scale; the ratio is"
                " judged on hard-feasible steps, and only when those are at least half the steps",
                PAPER_RUN,
            ),
        ),
    ),
    Claim(
        "distilled_cost",
        "mean cost of distilled NeuronCtrl <= 1.1x the multi-step's (same episodes)",
        "distilled into a single-step policy",
        "distilled_cost",
        "<=",
        1.1,
        kind="paper",
        supports="distillation",
        title="Distilled cost <= 1.1x multi-step",
        relative_to=("multi_cost",),
        form="ratio",
        settings=("train_seeds",),
        requires=_converged("distill"),
        revisions=(*_seeds("inconclusive"), _unconverged("inconclusive", "distill", "student weights")),
    ),
    Claim(
        "distilled_latency",
        "median per-step latency (one thread, filter included) of multi-step over distilled NeuronCtrl >= 5",
        "When latency is critical",
        "multi_latency",
        ">=",
        5.0,
        kind="paper",
        supports="distillation",
        title="Distilled policy >= 5x faster per step than multi-step",
        relative_to=("distilled_latency",),
        form="ratio",
        shown=("multi_propose_latency", "distilled_propose_latency"),
        settings=("train_seeds",),
        requires=_converged("distill"),
        revisions=(*_seeds("refuted"), _unconverged("refuted", "distill", "student weights")),
    ),
    Claim(
        "observer_error",
        "relative L2 of the observer's field deviation (z^ - z_rest vs z - z_rest) on the multi-step episodes"
        " <= 0.15; controls: the resting field and Laplacian interpolation of the last readings",
        "infers the latent field",
        "observer_rel_l2",
        "<=",
        0.15,
        kind="paper",
        supports="observer",
        title="Observer relative L2 <= 0.15",
        controls=("rest_rel_l2", "laplacian_rel_l2"),
        settings=("train_seeds",),
        requires=_converged("observer"),
        revisions=(*_seeds("refuted"), _unconverged("refuted", "observer", "observer weights")),
    ),
    Claim(
        "observer_vs_laplacian",
        "observer relative L2 <= 0.5x Laplacian (harmonic) interpolation's",
        "infers the latent field",
        "observer_rel_l2",
        "<=",
        0.5,
        kind="paper",
        supports="observer",
        title="Observer error <= 0.5x Laplacian interpolation's",
        relative_to=("laplacian_rel_l2",),
        form="ratio",
        settings=("train_seeds",),
        requires=_converged("observer"),
        revisions=(*_seeds("refuted"), _unconverged("inconclusive", "observer", "observer weights")),
    ),
    Claim(
        "operator_onestep",
        "one-step error of the operator over persistence's, ||F(z_t, u_t) - z_t+1|| / ||z_t - z_t+1|| pooled"
        " over puff-free random-action steps on unseen morphologies, <= 0.5",
        "predicts one-step dynamics",
        "operator_onestep_unseen",
        "<=",
        0.5,
        kind="paper",
        supports="operator",
        title="Operator one-step error <= 0.5x persistence's (unseen morphologies)",
        controls=("persistence_onestep_unseen",),
        settings=("train_seeds",),
        requires=_converged("operator"),
        revisions=(*_seeds("refuted"), _unconverged("refuted", "operator", "operator weights")),
    ),
    Claim(
        "operator_20step",
        "20-step rollout relative L2 of the deviation on unseen morphologies <= 0.15 (puff-free windows)",
        "predicts one-step dynamics",
        "operator_20step_unseen",
        "<=",
        0.15,
        kind="paper",
        supports="operator",
        title="Operator 20-step relative L2 <= 0.15 (unseen morphologies)",
        controls=("persistence_20step_unseen",),
        settings=("train_seeds",),
        requires=_converged("operator"),
        revisions=(*_seeds("refuted"), _unconverged("refuted", "operator", "operator weights")),
    ),
    Claim(
        "operator_unseen",
        "20-step relative L2 on unseen morphologies <= 2x that on training morphologies",
        "morphology-aware",
        "operator_20step_unseen",
        "<=",
        2.0,
        kind="paper",
        supports="operator",
        title="Operator error on unseen morphologies <= 2x on training ones",
        relative_to=("operator_20step_seen",),
        form="ratio",
        settings=("train_seeds",),
        requires=_converged("operator"),
        revisions=(*_seeds("toy-verified"), _unconverged("toy-verified", "operator", "operator weights")),
    ),
    Claim(
        "preference_sweep",
        "paired sweep: the 5 preferences on each of {sweep_episodes} fixed episodes ({sweep_steps} steps);"
        " Spearman correlation of the task weight and the episode-averaged realised energy >= 0.9, bootstrap"
        " over episodes; control: the same sweep with the generator told the aggressive preference throughout",
        "conditioned on user preferences",
        "sweep_spearman",
        ">=",
        0.9,
        kind="paper",
        supports="preferences",
        title="Preference sweep: task weight and energy rank-correlate (rho >= 0.9)",
        controls=("sweep_frozen_spearman",),
        shown=("sweep_nominal_spearman", "sweep_frozen_nominal_spearman"),
        revisions=(
            Revision(
                "2026-12-02",
                "each preference on its own episode (morphology 200 + i, env seed 5000 + i), bootstrap over steps",
                "refuted",
                "review nc-rev #2: the episode, not the preference, drove the energy (14x) and the frozen control"
                " ran on the same confounded episodes; now paired (every preference on the same episodes)",
                PAPER_RUN,
            ),
        ),
    ),
    Claim(
        "operator_jacobian",
        "relative Frobenius error of the operator's action Jacobian dF/du (the field barrier's rows) against"
        " the true plant's central finite difference, at closed-loop true fields (u = -0.3), <= 0.3; control:"
        " J = 0 (error 1)",
        "(review nc-rev #3: the barrier is built on this Jacobian)",
        "operator_jacobian_rel_err",
        "<=",
        0.3,
        kind="check",
        title="Operator action Jacobian within 30% of the true plant's",
        controls=("zero_jacobian_rel_err",),
        settings=("train_seeds",),
    ),
    Claim(
        "cost_vs_oracle",
        "mean cost of multi-step NeuronCtrl <= 1.15x the unconstrained oracle MPC's (oracle on the first"
        " {baseline_episodes} episodes)",
        "(issue #41's check)",
        "multi_cost",
        "<=",
        1.15,
        kind="check",
        title="Cost <= 1.15x oracle MPC",
        relative_to=("oracle_cost",),
        form="ratio",
        settings=("train_seeds",),
        revisions=_seeds("inconclusive"),
    ),
    Claim(
        "cost_vs_pi",
        "mean cost of multi-step NeuronCtrl <= 0.75x PI's",
        "(issue #41's check)",
        "multi_cost",
        "<=",
        0.75,
        kind="check",
        title="Cost <= 0.75x PI",
        relative_to=("pi_cost",),
        form="ratio",
        settings=("train_seeds",),
        revisions=_seeds("inconclusive"),
    ),
    Claim(
        "oracle_slower",
        "median per-step latency of oracle MPC (true simulator, horizon 10, 20 iterations) >= 10x multi-step"
        " NeuronCtrl's",
        "High-fidelity simulators are too costly for real-time control",
        "oracle_latency",
        ">=",
        10.0,
        kind="check",
        title="Oracle MPC >= 10x slower than multi-step NeuronCtrl",
        relative_to=("multi_latency",),
        form="ratio",
        settings=("train_seeds",),
        revisions=_seeds("refuted"),
    ),
    Claim(
        "constraints_active",
        "the unconstrained oracle MPC violates on >= 10% of steps (the pre-registered constraint levels bind)",
        "(issue #41's benchmark condition)",
        "oracle_viol_rate",
        ">=",
        0.10,
        kind="check",
        title="Constraints bind: unconstrained oracle violates >= 10% of steps",
    ),
)

NAMES = {
    "multi_matched_best_scalar": "strongest baseline at matched latency",
    "distilled_matched_best_scalar": "strongest baseline at matched latency",
    "zero_jacobian_rel_err": "zero Jacobian",
    "none_dominated_by_rl": "no control",
    "open_dominated_by_rl": "open loop",
    "pi_dominated_by_rl": "PI on sensors",
    "cem_dominated_by_rl": "CEM-MPC (learned operator)",
    "ppo_dominated_by_rl": "PPO with penalties",
    "sac_dominated_by_rl": "SAC with penalties",
    "ppo_filter_dominated_by_rl": "PPO + the QP filter",
    "dbs_astro_pi_dominated_by": "PI on sensors",
    "dbs_pi_viol_rate": "PI on sensors",
    "dbs_unfiltered_viol_rate": "unfiltered generator",
    "astro_k_pi_viol_rate": "PI on sensors",
    "astro_k_unfiltered_viol_rate": "unfiltered generator",
    "none_dominated_by": "no control",
    "open_dominated_by": "open loop",
    "pi_dominated_by": "PI on sensors",
    "cem_dominated_by": "CEM-MPC (learned operator)",
    "unfiltered_viol_rate": "unfiltered generator",
    "action_only_dominated_by": "action-only filter",
    "unfiltered_dominated_by": "unfiltered generator",
    "action_only_viol_rate": "action-only filter",
    "cem_viol_rate": "CEM-MPC (learned operator)",
    "naive_intervention_ratio": "naive scale-to-feasible filter",
    "multi_cost": "multi-step NeuronCtrl",
    "distilled_latency": "distilled NeuronCtrl",
    "rest_rel_l2": "resting field",
    "laplacian_rel_l2": "Laplacian interpolation",
    "persistence_onestep_unseen": "persistence",
    "persistence_20step_unseen": "persistence",
    "operator_20step_seen": "training morphologies",
    "sweep_frozen_spearman": "preference input frozen",
    "oracle_cost": "oracle MPC",
    "pi_cost": "PI on sensors",
    "multi_latency": "multi-step NeuronCtrl",
}
