"""The abstract's claims and the tests that decide them (verdict contract v3); declarations only.

Only the abstract of the paper is public (no text, tables or code of Lottery Prior were found), so every
test is a proxy at laptop scale built from the abstract's words; rules and settings were written before
any run. Intervals: Student-t over images (each with its own lottery seeds).
"""

from icml26.common import Background, Claim, PaperClaim

PAPER_CLAIMS = (
    PaperClaim(
        "lightweight_suffices",
        "a lightweight neural network, when combined with entropy and complexity regularization in a "
        "compression-based formulation, is sufficient for high-quality restoration",
        "all",
        title="A lightweight compressed network restores as well as deep priors",
    ),
    PaperClaim(
        "ensemble_through_randomness",
        "induces a family of implicit priors through randomness, enabling ensemble-based refinement",
        "all",
        title="Different random networks give priors whose ensemble refines the estimate",
    ),
    PaperClaim(
        "rate_regularizes",
        "revealing how rate–distortion constraints act as implicit regularizers",
        "all",
        title="The rate constraint acts as a regulariser (best PSNR at an interior rate)",
    ),
    PaperClaim(
        "sota_fewer_params",
        "our method achieves state-of-the-art with significantly fewer effective parameters",
        "all",
        title="State of the art with fewer effective parameters",
    ),
)

BACKGROUND = (
    Background(
        "We study zero-shot inverse problems, where a clean signal is recovered from a single degraded "
        "observation without external training data.",
        "definition of the setting",
    ),
    Background(
        "Contrary to the common belief that such problems require highly complex models",
        "motivation (prior belief, not a claim of the paper)",
    ),
    Background(
        "We propose Lottery Prior, a compression-based inverse solver that leverages architectural priors "
        "from random networks",
        "what the method is (built in the library; its consequences are tested under ensemble_through_randomness)",
    ),
    Background(
        "We further derive non-asymptotic error bounds for compression-based maximum-likelihood inverse solvers",
        "a theorem whose text is not public; a reconstructed bound is checked on random codes (check bound_holds)",
    ),
    Background("Project page: https://eedavidwu.github.io/LotteryPrior/", "a link"),
)

NAMES = {
    "bm3d_psnr": "BM3D",
    "nlm_psnr": "NL-means",
    "tv_psnr": "TV (Chambolle, self-calibrated)",
    "wavelet_psnr": "wavelet (BayesShrink)",
    "dip_psnr": "DIP at LP's CPU seconds",
    "dip_fixed_psnr": "DIP at its fixed step budget",
    "dip_best_psnr": "DIP at its oracle best step",
    "dd_psnr": "Deep Decoder at LP's CPU seconds",
    "lp_shared_psnr": "LP ensemble sharing one W0",
    "lp_single_psnr": "LP single draws (mean)",
    "dd_params": "Deep Decoder",
    "dip_params": "DIP",
    "sweep_lam0_psnr": "lambda = 0",
    "sweep_lam_top_psnr": "largest lambda",
    "bicubic_sr_psnr": "bicubic",
    "biharmonic_psnr": "biharmonic",
    "dip_es_gap": "DIP (same definition)",
    "lp_k1_psnr": "LP K = 1",
}

_DENOISE = "denoising sigma = {sigma}/255, {images} at {size}^2, K = {members} draws, {steps} steps"

TESTS = (
    # --- sota_fewer_params -------------------------------------------------------------------------
    Claim(
        "denoise_sota_proxy",
        f"Mean PSNR of LP's ensemble >= the strongest of BM3D, NL-means, DIP (at LP's CPU seconds and at its "
        f"fixed {{dip_steps}}-step budget) and Deep Decoder (at LP's CPU seconds); {_DENOISE}",
        "state-of-the-art (no numbers public)",
        "lp_psnr",
        ">=",
        1.0,
        kind="paper",
        supports="sota_fewer_params",
        title="Denoising PSNR: LP >= strongest baseline (BM3D, NLM, DIP, DD)",
        relative_to=("bm3d_psnr", "nlm_psnr", "dip_psnr", "dip_fixed_psnr", "dd_psnr"),
        form="ratio",
        context=("dip_best_psnr", "lp_ssim", "lp_s15_psnr", "bm3d_s15_psnr"),
        unit="dB",
    ),
    Claim(
        "denoise_sota_paper_scale",
        "State of the art on the paper's benchmarks at the paper's budgets",
        "state-of-the-art",
        "lp_psnr_paper_scale",
        ">=",
        1.0,
        kind="paper",
        supports="sota_fewer_params",
        title="SOTA at the paper's scale (benchmarks and GPU budgets)",
        relative_to=("strongest_baseline_paper_scale",),
        form="ratio",
    ),
    Claim(
        "fewer_effective_params",
        "Effective parameters of LP (latents + ModNet + ARM + upsampler + kept mask entries x H_b(keep)/32) "
        "below the Deep Decoder's (6 layers, 64 channels) and the DIP's trainable parameters, at {size}^2",
        "significantly fewer effective parameters",
        "lp_params",
        "<",
        1.0,
        kind="paper",
        supports="sota_fewer_params",
        title="Effective parameters: LP < Deep Decoder and < DIP",
        relative_to=("dd_params", "dip_params"),
        form="ratio",
        deterministic=True,
        context=("lp_bpp",),
    ),
    # --- lightweight_suffices ----------------------------------------------------------------------
    Claim(
        "lightweight_vs_deep_priors",
        f"Mean PSNR of LP >= the stronger of DIP and Deep Decoder given LP's CPU seconds; {_DENOISE}",
        "sufficient for high-quality restoration",
        "lp_psnr",
        ">=",
        1.0,
        kind="paper",
        supports="lightweight_suffices",
        title="Denoising PSNR: LP >= DIP and Deep Decoder at equal CPU time",
        relative_to=("dip_psnr", "dd_psnr"),
        form="ratio",
        unit="dB",
    ),
    # --- ensemble_through_randomness ---------------------------------------------------------------
    Claim(
        "ensemble_vs_shared_w0",
        f"LP's ensemble over K different frozen networks W0 beats K draws sharing one W0 (only scores and "
        f"module initialisation differ), equal steps; {_DENOISE}",
        "a family of implicit priors through randomness",
        "lp_psnr",
        ">",
        1.0,
        kind="paper",
        supports="ensemble_through_randomness",
        title="Ensemble over different W0 beats one over a shared W0",
        relative_to=("lp_shared_psnr",),
        form="ratio",
        unit="dB",
    ),
    Claim(
        "ensemble_gain",
        f"Ensemble PSNR exceeds the mean single-draw PSNR by >= 0.3 dB; {_DENOISE}",
        "enabling ensemble-based refinement",
        "lp_psnr",
        ">=",
        0.3,
        kind="check",
        title="Ensemble gain over single draws >= 0.3 dB",
        relative_to=("lp_single_psnr",),
        form="difference",
        unit="dB",
    ),
    Claim(
        "k2_over_k1",
        f"Ensemble of the first 2 draws >= the first draw alone; {_DENOISE}",
        "(issue target)",
        "lp_k2_psnr",
        ">=",
        0.0,
        kind="check",
        title="PSNR with K = 2 >= K = 1 (subsets of one run)",
        relative_to=("lp_k1_psnr",),
        form="difference",
        unit="dB",
    ),
    # --- rate_regularizes --------------------------------------------------------------------------
    Claim(
        "rate_interior_max",
        "PSNR over lambda in {sweep_lams} (K = 1, {sweep_images} at {sweep_size}^2, {sweep_seeds} draws each, "
        "{sweep_steps} steps): the best interior lambda beats both lambda = 0 and the largest lambda",
        "rate-distortion constraints act as implicit regularizers",
        "sweep_interior_best_psnr",
        ">",
        0.0,
        kind="paper",
        supports="rate_regularizes",
        title="PSNR peaks at an interior rate weight (beats lambda = 0 and the largest)",
        relative_to=("sweep_lam0_psnr", "sweep_lam_top_psnr"),
        form="difference",
        context=("sweep_best_lam",),
        unit="dB",
    ),
    Claim(
        "bpp_decreasing",
        "Latent bits per pixel strictly decrease along lambda in {sweep_lams} (smallest drop between neighbours > 0)",
        "(issue target)",
        "sweep_bpp_min_drop",
        ">",
        0.0,
        kind="check",
        title="Bits per pixel decrease as lambda grows",
        unit="bpp",
    ),
    Claim(
        "bound_holds",
        "The reconstructed bound (B) holds for the ML decoder of random 64-word codes with eta = 0.05: "
        "coverage >= 0.95 over {bound_trials} trials",
        "non-asymptotic error bounds",
        "bound_coverage",
        ">=",
        0.95,
        kind="check",
        title="Reconstructed ML error bound holds w.p. >= 1 - eta on random codes",
    ),
    # --- checks of the issue -----------------------------------------------------------------------
    Claim(
        "beats_tv_wavelet",
        f"Mean PSNR of LP >= TV and wavelet denoising; {_DENOISE}",
        "(issue target)",
        "lp_psnr",
        ">=",
        1.0,
        kind="check",
        title="Denoising PSNR: LP >= TV and wavelet",
        relative_to=("tv_psnr", "wavelet_psnr"),
        form="ratio",
        unit="dB",
    ),
    Claim(
        "no_early_stopping",
        "PSNR at 3x the step budget minus the best PSNR up to 1x >= -0.3 dB (LP, {es_draws} one-draw runs on "
        "each of the first {es_images} images); DIP with the same definition is the control",
        "(issue target: no early stopping needed)",
        "lp_es_gap",
        ">=",
        -0.3,
        kind="check",
        title="No early stopping: LP loses <= 0.3 dB from 1x to 3x the budget",
        controls=("dip_es_gap",),
        unit="dB",
    ),
    Claim(
        "sr_above_bicubic",
        "Super-resolution x{sr_factor} (blur + decimation, sigma = {sr_sigma}/255, {task_images}): LP >= bicubic "
        "+ 0.5 dB",
        "(issue target)",
        "lp_sr_psnr",
        ">=",
        0.5,
        kind="check",
        title="Super-resolution x4: LP >= bicubic + 0.5 dB",
        relative_to=("bicubic_sr_psnr",),
        form="difference",
        unit="dB",
    ),
    Claim(
        "inpaint_above_biharmonic",
        "Inpainting of {inpaint_keep} random pixels ({task_images}): LP >= biharmonic - 0.5 dB",
        "(issue target)",
        "lp_inpaint_psnr",
        ">=",
        -0.5,
        kind="check",
        title="Inpainting 50%: LP >= biharmonic - 0.5 dB",
        relative_to=("biharmonic_psnr",),
        form="difference",
        context=("lp_inpaint_block_psnr", "biharmonic_block_psnr"),
        unit="dB",
    ),
    Claim(
        "batched_members_faster",
        "K members batched in one solve take less CPU time than K one-member solves ({perf_steps} steps)",
        "(engineering)",
        "batched_speedup",
        ">",
        1.0,
        kind="check",
        title="Batched members faster than one after another",
        context=("lp_seconds_per_image", "dip_seconds_per_step", "dd_seconds_per_step", "bm3d_seconds"),
        unit="x",
    ),
)
