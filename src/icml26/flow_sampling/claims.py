"""What the Flow Sampling paper claims (its abstract), and the tests that judge each claim (contract v3).

The paper's text was not available (only the abstract and secondary summaries with Table 1's numbers):
every rule below is the issue's pre-registered rule or, where marked, our own [inferred] setting. The
DW-4 / LJ-13 numbers are Table 1 as quoted by secondary summaries.
"""

from __future__ import annotations

from icml26.common import Background, Claim, PaperClaim, Revision

PAPER_CLAIMS = (
    PaperClaim(
        "noise_conditioned_objective",
        "Our training objective is conditioned on a noise sample and regresses onto a denoising diffusion"
        " drift constructed from the energy function",
        "all",
        title="The noise-conditioned regression recovers the denoising drift",
    ),
    PaperClaim(
        "efficient",
        "resulting in an efficient and scalable method for sampling unnormalized densities",
        "all",
        title="Fewer energy calls than Adjoint Sampling to reach a given quality",
    ),
    PaperClaim(
        "manifold_sampling",
        "enabling diffusion-based sampling in geometries beyond Euclidean space",
        "all",
        title="Samples distributions on the sphere and the hyperbolic plane",
    ),
    PaperClaim(
        "closed_form_drift",
        "We derive a closed-form formula for the conditional drift on constant curvature manifolds, including"
        " hyperspheres and hyperbolic spaces",
        "all",
        title="Closed-form conditional drift on spheres and hyperbolic spaces",
    ),
    PaperClaim(
        "strong_performance",
        "demonstrating strong empirical performance",
        "all",
        title="Matches or beats the strongest baseline at equal energy calls",
    ),
)

BACKGROUND = (
    Background(
        "Sampling from unnormalized densities is analogous to the generative modeling problem, but the target"
        " distribution is defined by a known energy function instead of data samples.",
        "the problem setting",
    ),
    Background(
        "Because evaluating the energy function is often costly, a primary challenge is to learn an efficient"
        " sampler.",
        "motivation",
    ),
    Background(
        "We introduce Flow Sampling, a framework built on diffusion models and flow matching for the data-free"
        " setting.",
        "names the method (built here: FlowSampler)",
    ),
    Background(
        "In contrast, diffusion models' objective is conditioned on a data sample and regresses onto a noising"
        " diffusion drift.",
        "prior work, stated as a contrast",
    ),
    Background(
        "We utilize the interpolant process to minimize the number of energy function evaluations during"
        " training",
        "the mechanism behind the 'efficient' claim (one energy gradient per buffered sample, tested by the"
        " accounting checks)",
    ),
    Background(
        "We evaluate Flow Sampling on synthetic energy benchmarks, small peptides, large-scale amortized"
        " molecular conformer generation, and distributions supported on the sphere",
        "lists the benchmarks; the claim is 'strong empirical performance' (peptides are not built here,"
        " conformers and LJ-55 are blocked)",
    ),
)

_STRONGEST = "the strongest of AS, MALA and PT-MALA at equal energy calls (reverse-KL flow not built)"

TESTS = (
    # ---- closed_form_drift
    Claim(
        "drift_fd",
        "Closed-form conditional score (Eq. M3) equals central finite differences of log p_t(.|x0) on S^2,"
        " S^5, H^2, H^5 at t = 0.2, 0.6, 0.9: max abs error <= 1e-6",
        "closed form (derived in the paper)",
        "fd_max_error",
        "<=",
        1e-6,
        kind="paper",
        supports="closed_form_drift",
        title="Closed-form manifold score = finite differences (<= 1e-6)",
        scale="exact",
        scale_note="every (manifold, t, pair) instance is checked; the max over them is judged",
        deterministic=True,
        controls=("fd_flat_max_error",),
    ),
    Claim(
        "drift_flat_limit",
        "The formula on the flat space returns -grad E(x1) / t (an identity of the formula)",
        "flat limit",
        "fd_flat_limit_error",
        "<=",
        1e-12,
        kind="check",
        title="Flat limit of the manifold formula is -grad E(x1)/t",
        deterministic=True,
    ),
    # ---- noise_conditioned_objective
    Claim(
        "gauss10_drift",
        "Regression of Eq. (6) on a buffer of exact samples of a d = 10 Gaussian ({regression_steps} Adam"
        " steps) recovers the closed-form marginal drift: relative MSE <= 0.05",
        "(no number)",
        "gauss10_drift_rel_mse",
        "<=",
        0.05,
        kind="paper",
        supports="noise_conditioned_objective",
        title="d=10 Gaussian: learned drift within 5% relative MSE of the closed form",
        controls=("gauss10_untrained_drift_rel_mse",),
    ),
    # ---- efficient
    Claim(
        "gauss2d_cost",
        "2-D Gaussian: energy calls for FS to reach W2 <= {cost_threshold} (n = 1000) are fewer than for AS"
        " (censored at the budget {budget})",
        "4-8x lower training cost than AS (secondary summaries)",
        "gauss2d_fs_calls_to_threshold",
        "<",
        1.0,
        kind="paper",
        supports="efficient",
        title="2-D Gaussian: FS needs fewer calls than AS to reach W2 <= 0.5",
        relative_to=("gauss2d_as_calls_to_threshold",),
        form="ratio",
        shown=("gauss2d_fs_seconds", "gauss2d_as_seconds"),
    ),
    Claim(
        "dw4_cost",
        "DW-4: energy calls for FS to reach energy W2 <= {cost_threshold_particles} are at most 1/4 of AS's"
        " (censored at {budget})",
        "4-8x lower training cost",
        "dw4_fs_calls_to_threshold",
        "<=",
        0.25,
        kind="paper",
        supports="efficient",
        title="DW-4: FS reaches energy W2 <= 0.3 with <= 1/4 of AS's calls",
        relative_to=("dw4_as_calls_to_threshold",),
        form="ratio",
        requires=(("budget", ">=", 200_000),),
        shown=("dw4_fs_seconds", "dw4_as_seconds"),
    ),
    Claim(
        "accounting_calls",
        "Energy calls = refreshes x samples per refresh, exactly, on every target",
        "(accounting)",
        "max_calls_mismatch",
        "<=",
        0.0,
        kind="check",
        title="Energy calls = refreshes x samples per refresh",
        deterministic=True,
        revisions=(
            Revision(
                "2026-12-02",
                "calls read from the loop's own counter (energy_calls_, incremented by M per refresh: an"
                " identity that could not fail)",
                "blocked",
                "the outside review: the calls are now read from the energy's own counter (every point it"
                " evaluated a gradient at during fit), so a loop that evaluates more or fewer than refreshes x M"
                " fails; rule unchanged (the old record blocked it by an ordering bug, its value was 0)",
                "182b9d7",
            ),
        ),
    ),
    Claim(
        "accounting_reuse",
        "Each energy gradient serves K * batch / M >= 10 loss terms on average",
        "one gradient per sample serves every t",
        "min_terms_per_gradient",
        ">=",
        10.0,
        kind="check",
        title="Loss terms per energy gradient >= 10",
        deterministic=True,
    ),
    # ---- manifold_sampling
    Claim(
        "vmf_mode_tv",
        "vMF mixture on S^2 (weights 0.4/0.3/0.2/0.1, kappa 30), {budget} energy calls: mode-weight TV <= 0.1"
        " (assignment by responsibility, < 0.5 off-mode)",
        "(no number; spheres in the paper's experiments)",
        "vmf_s2_fs_mode_tv",
        "<=",
        0.1,
        kind="paper",
        supports="manifold_sampling",
        title="S^2 vMF mixture: mode-weight TV <= 0.1",
        controls=("vmf_s2_source_mode_tv", "vmf_s2_gl_mode_tv"),
    ),
    Claim(
        "vmf_mmd",
        "vMF mixture on S^2: biased MMD^2 (geodesic Gaussian kernel, 0.3 rad) over the 95th percentile of"
        " exact-vs-exact MMD^2 (20 draws, n = {n_eval}) <= 1",
        "(no number)",
        "vmf_s2_fs_mmd2_over_p95",
        "<=",
        1.0,
        kind="paper",
        supports="manifold_sampling",
        title="S^2 vMF mixture: MMD^2 within exact-vs-exact's 95th percentile",
        controls=("vmf_s2_source_mmd2_over_p95", "vmf_s2_gl_mmd2_over_p95"),
    ),
    Claim(
        "h2_mode_tv",
        "Wrapped-normal mixture on H^2 (weights 0.5/0.3/0.2) [inferred target]: mode-weight TV <= 0.1",
        "(no number; hyperbolic targets not confirmed as paper benchmarks)",
        "wn_h2_fs_mode_tv",
        "<=",
        0.1,
        kind="paper",
        supports="manifold_sampling",
        title="H^2 wrapped-normal mixture: mode-weight TV <= 0.1",
        controls=("wn_h2_source_mode_tv", "wn_h2_gl_mode_tv"),
    ),
    # ---- strong_performance
    Claim(
        "dw4_energy_w2",
        f"DW-4: energy W2 of FS over {_STRONGEST} <= 1 ({{budget}} calls, n = {{n_eval}} vs a PT-MALA reference)",
        "0.11 +- 0.04 (Table 1; ASBS 0.20)",
        "dw4_fs_energy_w2",
        "<=",
        1.0,
        kind="paper",
        supports="strong_performance",
        title="DW-4 energy W2: FS <= strongest baseline",
        relative_to=("dw4_as_energy_w2", "dw4_mala_energy_w2", "dw4_ptmala_energy_w2"),
        form="ratio",
        requires=(("budget", ">=", 200_000),),
    ),
    Claim(
        "lj13_energy_w2",
        f"LJ-13: energy W2 of FS over {_STRONGEST} <= 1 ({{lj13_budget}} calls)",
        "0.97 +- 0.53 (Table 1)",
        "lj13_fs_energy_w2",
        "<=",
        1.0,
        kind="paper",
        supports="strong_performance",
        title="LJ-13 energy W2: FS <= strongest baseline",
        relative_to=("lj13_as_energy_w2", "lj13_mala_energy_w2", "lj13_ptmala_energy_w2"),
        form="ratio",
        requires=(("lj13_budget", ">=", 100_000),),
    ),
    Claim(
        "gauss2d_w2",
        f"2-D anisotropic Gaussian: W2 of FS over {_STRONGEST} <= 1 ({{budget}} calls)",
        "(synthetic benchmarks; no number)",
        "gauss2d_fs_w2",
        "<=",
        1.0,
        kind="paper",
        supports="strong_performance",
        title="2-D Gaussian W2: FS <= strongest baseline",
        relative_to=("gauss2d_as_w2", "gauss2d_mala_w2", "gauss2d_ptmala_w2"),
        form="ratio",
        revisions=(
            Revision(
                "2026-12-02",
                "mcmc_chains = 200 (MALA 200 chains, PT-MALA 50 chains x 4 temperatures: 50 steps per chain at"
                " 10^4 calls, 25 of them adapting the step from 0.05)",
                "inconclusive",
                "the outside review: 50 steps per chain left MALA and PT-MALA unconverged (their step adaptation"
                " cannot reach the target's scale in 25 steps), so the 'strongest baseline' was a weak one; the"
                " review measured MALA / PT-MALA at 50 chains (W2 0.19-0.27 / 0.24-0.39 on gauss2d, PT-MALA"
                " 0.80-1.96 on grid9, against 0.77-1.07 / 0.44-0.67 and 1.84-2.09 at 200) and set 50 chains"
                " (>= 200 steps per chain), the stronger baseline, against FS; rule unchanged",
                "182b9d7",
            ),
        ),
    ),
    Claim(
        "grid9_w2",
        f"9-mode grid GMM: W2 of FS over {_STRONGEST} <= 1 ({{budget}} calls)",
        "(synthetic benchmarks; no number)",
        "grid9_fs_w2",
        "<=",
        1.0,
        kind="paper",
        supports="strong_performance",
        title="9-mode grid W2: FS <= strongest baseline",
        relative_to=("grid9_as_w2", "grid9_mala_w2", "grid9_ptmala_w2"),
        form="ratio",
        revisions=(
            Revision(
                "2026-12-02",
                "mcmc_chains = 200 (MALA 200 chains, PT-MALA 50 chains x 4 temperatures: 50 steps per chain at"
                " 10^4 calls, 25 of them adapting the step from 0.05)",
                "toy-verified",
                "the outside review: 50 steps per chain left MALA and PT-MALA unconverged (their step adaptation"
                " cannot reach the target's scale in 25 steps), so the 'strongest baseline' was a weak one; the"
                " review measured MALA / PT-MALA at 50 chains (W2 0.19-0.27 / 0.24-0.39 on gauss2d, PT-MALA"
                " 0.80-1.96 on grid9, against 0.77-1.07 / 0.44-0.67 and 1.84-2.09 at 200) and set 50 chains"
                " (>= 200 steps per chain), the stronger baseline, against FS; rule unchanged",
                "182b9d7",
            ),
        ),
    ),
    Claim(
        "lj55_energy_w2",
        "LJ-55: energy W2 of FS <= the strongest baseline",
        "21.32 +- 0.63 (Table 1)",
        "lj55_fs_energy_w2",
        "<=",
        1.0,
        kind="paper",
        supports="strong_performance",
        title="LJ-55 energy W2: FS <= strongest baseline (blocked)",
        relative_to=("lj55_as_energy_w2",),
        form="ratio",
    ),
    Claim(
        "conformer_recall",
        "Amortised conformer generation: recall of FS >= AS's",
        "(numbers not seen)",
        "conformer_fs_recall",
        ">=",
        1.0,
        kind="paper",
        supports="strong_performance",
        title="Amortised conformers: recall FS >= AS (blocked)",
        relative_to=("conformer_as_recall",),
        form="ratio",
    ),
    # ---- checks on DW-4 (issue #36)
    Claim(
        "dw4_geom_w2_check",
        "DW-4: geometric W2 of FS <= 0.5 ({budget} calls)",
        "0.36 +- 0.03 (Table 1)",
        "dw4_fs_geom_w2",
        "<=",
        0.5,
        kind="check",
        title="DW-4 geometric W2 <= 0.5",
        controls=("dw4_ptmala_geom_w2", "dw4_untrained_geom_w2"),
    ),
    Claim(
        "dw4_energy_w2_check",
        "DW-4: energy W2 of FS <= 0.3 ({budget} calls)",
        "0.11 +- 0.04 (Table 1)",
        "dw4_fs_energy_w2",
        "<=",
        0.3,
        kind="check",
        title="DW-4 energy W2 <= 0.3",
        controls=("dw4_ptmala_energy_w2", "dw4_untrained_energy_w2"),
    ),
)
