"""The claims of ``collocation_sampler``, beside the abstract: declarations only, no computation.

The paper is a theory paper with no experiments: every test's setting and bar is ours (proxy scale,
exact-score Gaussian mixtures). ``PAPER_CLAIMS`` are the abstract's two claims about the solver,
``BACKGROUND`` the other sentences, ``TESTS`` the tests and checks, ``NAMES`` the display names.
"""

from icml26.collocation_sampler.accuracy import LADDER_BASELINES, POWER_LAW_CONTROLS, ROUND_BUDGET
from icml26.common import Background, Claim, PaperClaim, Revision

_LABELS = {
    "collocation": "collocation",
    "rk4": "RK4",
    "dpmpp2m": "DPM-Solver++(2M) float64",
    "dpmpp3m": "DPM-Solver++(3M) float64",
    "unipc2": "UniPC-2 float64",
    "unipc3": "UniPC-3 float64",
    "dop853": "DOP853 (scipy)",
    "dopri5": "dopri5 (torchdiffeq)",
    "dopri8": "dopri8 (torchdiffeq)",
}
_PROXY = (
    "laptop proxy: 64 samples (paper profile) of an exact-score 8-component Gaussian mixture,"
    " R/sigma=10; the paper has no experiments"
)
_DIM_WHY = (
    "the d=2 error sat at the reference's 1e-13 floor, whose per-sample size grows like sqrt(d), so the"
    " sweep moved to D=6 (dim_degree); the original setting was kept as the test {orig} until v3 folded it"
    " here (its metric is still measured and shown as context)"
)
_DIM_RUN = "c5f0fd0 (the 2026-11-30 quick run; its commit was not recorded)"
_RECORDS = "0bc40d9 records 20261201T135058594476Z (quick), 20261201T135058602980Z (paper)"
_UNIPC_WHY = (
    "the float64 UniPC-2/-3 ladders (issue #49: the strongest UniPC, diffusers' UniP/UniC update on the"
    " continuous lambda-uniform grid in float64) joined the float64 baselines"
)

PAPER_CLAIMS = (
    PaperClaim(
        "polylog_iterations",
        "we prove that its iteration complexity scales *polylogarithmically* in $1/\\varepsilon$",
        "all",
        title="Score calls to reach accuracy eps grow polylogarithmically in 1/eps",
    ),
    PaperClaim(
        "dimension_through_radius",
        "the dimension affects the complexity of our solver only through the *effective radius* of the"
        " support of the target distribution",
        "all",
        title="The dimension enters the complexity only through the effective radius",
    ),
)

BACKGROUND = (
    Background(
        "Diffusion models have shown remarkable empirical success in sampling from rich multi-modal"
        " distributions.",
        "prior work",
    ),
    Background(
        "Their inference relies on numerically solving a certain differential equation.", "background"
    ),
    Background(
        "its resolution via discretization typically requires many small iterations to produce *high-quality*"
        " samples",
        "motivation",
    ),
    Background(
        "prior works have shown that the iteration complexity of discretization methods for diffusion models"
        " scales polynomially in the ambient dimension and the inverse accuracy $1/\\varepsilon$",
        "prior work (the fixed-order baselines' power laws are the controls of the polylog tests)",
    ),
    Background(
        "we propose a new solver for diffusion models relying on a subtle interplay between low-degree"
        " approximation and the collocation method",
        "what the paper builds (the solver we implement)",
    ),
    Background(
        'yielding the first "high-accuracy" guarantee for a diffusion-based sampler that only uses'
        " (approximate) access to the scores of the data distribution",
        "a novelty statement about the literature; the error's growth with a score error is our check"
        " score_error_linear",
    ),
    Background(
        "our bound does not depend explicitly on the ambient dimension",
        "restated precisely by the next clause, the PaperClaim dimension_through_radius",
    ),
)

TESTS = (
    Claim(
        "polylog_calls_slope_ratio",
        "score calls to reach eps grow polylogarithmically in 1/eps (eps 1e-2..1e-10, d=2,"
        " W={spectral_windows}, D varied): the log-log slope of calls vs 1/eps on the smaller-eps half"
        " of the reached range is <= 0.75 x its slope on the larger-eps half (a power law keeps it at 1)",
        "O~((R/sigma)^2 polylog(1/eps)) score calls (main theorem)",
        "collocation_calls_slope_ratio",
        "<=",
        0.75,
        kind="paper",
        supports="polylog_iterations",
        title="Calls to eps: late log-log slope <= 0.75 x early slope (power law: 1)",
        scale_note=_PROXY + "; eps to 1e-10 on [t_end, T] against a reference validated to ~1e-13",
        controls=tuple(f"{b}_calls_slope_ratio" for b in POWER_LAW_CONTROLS),
        revisions=(
            Revision(
                "2026-12-02",
                "controls rk4, dpmpp2m, dpmpp3m, dop853 (no UniPC)",
                "refuted",
                _UNIPC_WHY + " as controls; the rule is unchanged (paper 1.107 [0.928, 1.18])",
                _RECORDS,
            ),
        ),
        shown=(
            "collocation_calls_slope",
            "dop853_calls_slope",
            "rk4_calls_slope",
            "dpmpp2m_calls_slope",
        ),
    ),
    Claim(
        "polylog_calls_loglog",
        "score calls to reach eps are at most quadratic in log(1/eps): the slope of log calls against"
        " log log(1/eps) over eps 1e-2..1e-10 is <= 2 (a power law of order p gives about log(1/eps)/p)",
        "polylog(1/eps) score calls (main theorem; degree 2 is our reading of D x K = Theta(log^2 1/eps))",
        "collocation_calls_loglog_slope",
        "<=",
        2.0,
        kind="paper",
        supports="polylog_iterations",
        title="Calls to eps: slope against log log(1/eps) <= 2",
        scale_note=_PROXY + "; eps to 1e-10 on [t_end, T] against a reference validated to ~1e-13",
        controls=tuple(f"{b}_calls_loglog_slope" for b in POWER_LAW_CONTROLS),
        revisions=(
            Revision(
                "2026-12-02",
                "controls rk4, dpmpp2m, dpmpp3m, dop853 (no UniPC)",
                "non-discriminating",
                _UNIPC_WHY + " as controls; the rule is unchanged (paper 1.103 [0.989, 1.18])",
                _RECORDS,
            ),
        ),
    ),
    Claim(
        "dimension_through_radius_only",
        "score calls to reach eps={aniso_eps} spread <= 1.5x over d={aniso_dims} on a mixture of d+1"
        " anisotropic components (sd {sigma}..{aniso_sigma_max}, R/sigma_min fixed): its effective"
        " dimension grows with d",
        "complexity depends on d only through the effective radius (1.5x is our reading of 'the same')",
        "aniso_collocation_calls_spread",
        "<=",
        1.5,
        kind="paper",
        supports="dimension_through_radius",
        title="Anisotropic mixture: calls to eps spread <= 1.5x over d",
        scale_note=_PROXY + "; the means and covariances span all d directions",
        controls=("aniso_dop853_calls_spread", "aniso_rk4_calls_spread"),
        unit="×",
    ),
    Claim(
        "equal_calls_vs_float64_baselines",
        "at equal score calls (collocation W={spectral_windows} D={equal_degree}), collocation's error is"
        " no larger than every float64 baseline's (ratio <= 1; baseline errors interpolated on their ladders)",
        "(our check; the paper states no comparison)",
        "ladder_collocation_error",
        "<=",
        1.0,
        kind="check",
        title="Equal score calls: error <= every float64 baseline's",
        scale_note=_PROXY,
        relative_to=tuple(f"{b}_error_at_equal_calls" for b in LADDER_BASELINES),
        form="ratio",
        revisions=(
            Revision(
                "2026-12-02",
                "relative to rk4, dpmpp2m, dpmpp3m, dop853, dopri5, dopri8 (no UniPC)",
                "refuted",
                _UNIPC_WHY + "; paper 71.34x [4.92, 211] against DOP853",
                _RECORDS,
            ),
        ),
        context=("ladder_collocation_calls",),
    ),
    Claim(
        "equal_rounds_vs_float64_baselines",
        "at equal sequential rounds (collocation W={spectral_windows} D={equal_degree}), collocation's error"
        " is <= 0.01x every float64 baseline's",
        "(our check; parallel depth W x K is the collocation's advantage)",
        "ladder_collocation_error",
        "<=",
        0.01,
        kind="check",
        title="Equal rounds: error <= 0.01x every float64 baseline's",
        scale_note=_PROXY,
        relative_to=tuple(f"{b}_error_at_equal_rounds" for b in LADDER_BASELINES),
        form="ratio",
        revisions=(
            Revision(
                "2026-12-02",
                "relative to rk4, dpmpp2m, dpmpp3m, dop853, dopri5, dopri8 (no UniPC)",
                "toy-verified",
                _UNIPC_WHY + "; paper 1.121e-05x [8.55e-07, 2.87e-05] against dopri5",
                _RECORDS,
            ),
        ),
        context=("ladder_collocation_rounds",),
    ),
    Claim(
        "reference_validated",
        "the DOP853 reference (ref_tol={ref_tol}) and collocation at D=24 agree to <= 1e-11 on [t_end, T]"
        " (10x below the smallest eps of the ladders)",
        "(our check of the experiment's error floor)",
        "ladder_reference_disagreement",
        "<=",
        1e-11,
        kind="check",
        title="DOP853 reference and collocation at D=24 agree to <= 1e-11",
        scale_note=_PROXY,
    ),
    Claim(
        "theorem_windows_calls_within_bound",
        "collocation on theorem_windows (D={theorem_degree}) end to end: log-log slope of score calls vs"
        " R/sigma over sigma={theorem_sigmas} is <= 2.5 (the theorem gives an upper bound, not a rate)",
        "O~((R/sigma)^2) score calls (main theorem: an upper bound; 2.5 leaves 0.5 for the O~'s logs)",
        "theorem_calls_slope",
        "<=",
        2.5,
        kind="check",
        title="Theorem's windows: slope of calls vs R/sigma <= 2.5",
        scale_note=_PROXY + "; window rule [inferred], so this checks calls stay within (R/sigma)^2",
        revisions=(
            Revision(
                "2026-12-01",
                "theorem_calls_slope in [1.5, 2.5] (a band)",
                "refuted",
                "the band read the bound as a rate (1.37 +- 0.08 in quick); the theorem states an upper bound,"
                " so the check is one-sided; the band was kept as the test theorem_windows_calls_scale"
                " (refuted again at 0bc40d9: quick 1.376 [1.294, 1.457], paper 1.370 [1.317, 1.423]) until"
                " v3 kept one test per metric",
                "5273213; 0bc40d9 records 20261201T135058594476Z, 20261201T135058602980Z",
            ),
        ),
        context=("theorem_windows_slope",),
    ),
    Claim(
        "spectral_in_degree",
        "error falls exponentially in the degree D at fixed windows (W={spectral_windows},"
        " D={degrees}), >= 0.4 decades per added node",
        "polylog(1/eps) score calls, i.e. exponential in D (no number; 0.4 decades is our bar)",
        "decades_per_node",
        ">=",
        0.4,
        kind="check",
        title="Error falls >= 0.4 decades per added collocation node",
        scale_note=_PROXY,
        unit="decades/node",
    ),
    Claim(
        "high_accuracy_depth",
        f"error <= 1e-10 within <= {ROUND_BUDGET} sequential rounds (d=2, R/sigma=10)",
        "high accuracy: polylog(1/eps) rounds (1e-10 in 200 rounds is the issue's target)",
        f"best_error_within_{ROUND_BUDGET}_rounds",
        "<=",
        1e-10,
        kind="check",
        title="Error <= 1e-10 within 200 sequential rounds",
        scale_note=_PROXY,
        controls=tuple(
            f"{b}_best_error_within_{ROUND_BUDGET}_rounds"
            for b in ("rk4", "dop853", "rk45", "dpmpp", "unipc")
        ),
    ),
    Claim(
        "dimension_free_rounds",
        "rounds at fixed W={depth_windows} and D={dim_degree} spread <= 1.5x over"
        " d={dims} (isotropic 8-component target, at most 8-dimensional: see"
        " dimension_through_radius_only)",
        "no explicit dependence on d (1.5x is our reading of 'the same')",
        "dim_rounds_ratio",
        "<=",
        1.5,
        kind="check",
        title="Isotropic target: rounds spread <= 1.5x over d",
        scale_note=_PROXY + "; the 8 means span at most 8 of the d dimensions",
        revisions=(
            Revision(
                "2026-11-30",
                "D=12 (depth_degree, W=17): dim_rounds_ratio 1.13x",
                "toy-verified",
                _DIM_WHY.format(orig="dimension_free_rounds_depth_degree")
                + "; at 0bc40d9 it measured 1.105 [1.053, 1.157] quick, 1.072 [1.007, 1.137] paper (toy-verified)",
                _DIM_RUN,
            ),
            Revision(
                "2026-12-01",
                "the rounds ratio of one batch, with no interval",
                "inconclusive",
                "no interval made it inconclusive for ever; now the mean and t-interval over"
                " dim_round_repeats draws of the samples",
                "5273213",
            ),
        ),
        context=("dim_max_error", "dim_rounds_ratio_depth_degree", "dim_max_error_depth_degree"),
        unit="×",
    ),
    Claim(
        "dimension_free_error",
        "error within 10x over d={dims} at fixed settings"
        " (W={depth_windows}, D={dim_degree}; isotropic target, at most 8-dimensional)",
        "no explicit dependence on d (10x is our bar)",
        "dim_error_ratio",
        "<=",
        10.0,
        kind="check",
        title="Isotropic target: error within 10x over d",
        scale_note=_PROXY + "; the 8 means span at most 8 of the d dimensions",
        revisions=(
            Revision(
                "2026-11-30",
                "D=12 (depth_degree, W=17): dim_error_ratio 44x",
                "refuted",
                _DIM_WHY.format(orig="dimension_free_error_depth_degree")
                + "; at 0bc40d9 it measured 43.8 [6.9, 182] quick, 94.4 [7.3, 605] paper (inconclusive)",
                _DIM_RUN,
            ),
        ),
        context=("dim_max_error", "dim_error_ratio_depth_degree", "dim_max_error_depth_degree"),
        unit="×",
    ),
    Claim(
        "beats_dpm_solver",
        "at equal sequential rounds, error >= 100x below diffusers' DPM-Solver++ as shipped (float32"
        " schedule, final step to sigma=0: a ~2e-4 library floor; float64 rows: equal_rounds_vs_float64_baselines)",
        ">= 100x (our target; the paper has no experiments)",
        "collocation_error",
        "<=",
        0.01,
        kind="check",
        title="Equal rounds: error >= 100x below diffusers' DPM-Solver++",
        scale_note=_PROXY + "; diffusers' scheduler on its own 1000-step grid (the review: a library floor)",
        relative_to=("dpmpp_error_equal_rounds",),
        form="ratio",
        context=("collocation_rounds", "collocation_nfe", "dop853_nfe", "rk45_nfe"),
    ),
    Claim(
        "beats_unipc",
        "at equal sequential rounds (collocation W={spectral_windows} D={equal_degree} on [t_end, T]), error"
        " >= 100x below the strongest UniPC: UniPC-2 and UniPC-3 in float64 on the continuous schedule"
        " (diffusers' UniP/UniC update, lambda-uniform steps; errors interpolated on their ladders)",
        ">= 100x (our target; the paper has no experiments)",
        "ladder_collocation_error",
        "<=",
        0.01,
        kind="check",
        title="Equal rounds: error >= 100x below float64 UniPC",
        scale_note=_PROXY + "; UniPC-p in float64 on [t_end, T]; diffusers' shipped UniPC is context",
        relative_to=("unipc2_error_at_equal_rounds", "unipc3_error_at_equal_rounds"),
        form="ratio",
        revisions=(
            Revision(
                "2026-12-02",
                "collocation_error <= 0.01 x unipc_error_equal_rounds: diffusers' UniPC as shipped (float32"
                " internals, its own 1000-step linear-beta grid ending at sigma=0: a ~1e-3 library floor)",
                "toy-verified",
                "a comparison must be against the strongest baseline; the shipped scheduler measures the"
                " library's float32 floor, not UniPC. Its ratio (paper 2.015e-10x [6.06e-11, 4.63e-10]) is"
                " still measured and shown as context (unipc_error_equal_rounds)",
                _RECORDS,
            ),
        ),
        context=("ladder_collocation_rounds", "unipc_error_equal_rounds", "collocation_error"),
    ),
    Claim(
        "gpu_wall_clock",
        "on a GPU (--set device=cuda), collocation (W={spectral_windows}) reaches mean error <= 1e-10 on"
        " [t_end, T] (d=2) in no more wall-clock than the fastest torch-native float64 baseline on the"
        " same device (torchdiffeq dopri5 / dopri8, UniPC-3; each at the cheapest setting of its ladder"
        " that reaches 1e-10; ratio <= 1)",
        "(our check; the paper's advantage is depth: batched score calls on a parallel device)",
        "wall_clock_collocation_s",
        "<=",
        1.0,
        kind="check",
        title="GPU: wall-clock to 1e-10 <= the fastest float64 baseline's",
        scale_note=_PROXY + "; one timing per solver after a warm-up call, on the device of the run",
        relative_to=("wall_clock_dopri5_s", "wall_clock_dopri8_s", "wall_clock_unipc3_s"),
        form="ratio",
    ),
    Claim(
        "score_error_linear",
        "error grows in proportion to the injected score error: log-log slope of error vs delta"
        " (delta={noise_deltas}) in [0.8, 1.2]",
        "error = O(delta) (log-log slope 1; our reading of Assumption 2)",
        "noise_slope",
        "in",
        (0.8, 1.2),
        kind="check",
        title="Error grows in proportion to an injected score error",
        scale_note=_PROXY + "; a fixed smooth injected error, not a learned score's",
        context=("noise_error_over_delta_max",),
    ),
)

NAMES = {
    f"rk4_best_error_within_{ROUND_BUDGET}_rounds": f"RK4 (best within {ROUND_BUDGET} rounds)",
    f"dop853_best_error_within_{ROUND_BUDGET}_rounds": f"DOP853 (best within {ROUND_BUDGET} rounds)",
    f"rk45_best_error_within_{ROUND_BUDGET}_rounds": f"RK45 (best within {ROUND_BUDGET} rounds)",
    f"dpmpp_best_error_within_{ROUND_BUDGET}_rounds": f"DPM-Solver++ (best within {ROUND_BUDGET} rounds)",
    f"unipc_best_error_within_{ROUND_BUDGET}_rounds": f"UniPC (best within {ROUND_BUDGET} rounds)",
    "dpmpp_error_equal_rounds": "DPM-Solver++ (equal rounds)",
    "unipc_error_equal_rounds": "diffusers' UniPC as shipped (equal rounds, float32)",
    "wall_clock_collocation_s": "collocation wall-clock to 1e-10",
    "wall_clock_dopri5_s": "dopri5 wall-clock to 1e-10",
    "wall_clock_dopri8_s": "dopri8 wall-clock to 1e-10",
    "wall_clock_unipc3_s": "UniPC-3 float64 wall-clock to 1e-10",
    "collocation_rounds": "collocation rounds",
    "collocation_error": "collocation error on [0, T] (depth setting)",
    "collocation_nfe": "collocation score calls",
    "dop853_nfe": "DOP853 score calls (tightest tol)",
    "rk45_nfe": "RK45 score calls (tightest tol)",
    "dim_max_error": "largest error over d",
    "dim_max_error_depth_degree": "largest error over d (D=depth_degree)",
    "dim_rounds_ratio_depth_degree": "rounds spread over d at D=depth_degree (the original setting)",
    "dim_error_ratio_depth_degree": "error spread over d at D=depth_degree (the original setting)",
    "noise_error_over_delta_max": "largest error / delta",
    **{f"{b}_calls_slope_ratio": f"{_LABELS[b]} slope ratio" for b in LADDER_BASELINES},
    **{f"{b}_calls_loglog_slope": f"{_LABELS[b]} slope vs log log(1/eps)" for b in LADDER_BASELINES},
    **{f"{b}_calls_slope": f"{_LABELS[b]} slope vs log(1/eps)" for b in ("collocation", *LADDER_BASELINES)},
    **{f"{b}_error_at_equal_calls": f"{_LABELS[b]} (equal calls)" for b in LADDER_BASELINES},
    **{f"{b}_error_at_equal_rounds": f"{_LABELS[b]} (equal rounds)" for b in LADDER_BASELINES},
    "aniso_dop853_calls_spread": "DOP853 calls spread over d",
    "aniso_rk4_calls_spread": "RK4 calls spread over d",
    "ladder_collocation_calls": "collocation score calls (equal_degree)",
    "ladder_collocation_rounds": "collocation rounds (equal_degree)",
    "theorem_windows_slope": "slope of window count vs R/sigma",
}
