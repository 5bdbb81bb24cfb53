"""Lottery Prior: randomized neural compression for zero-shot inverse problems (Wu, You, Dragotti, Gunduz,
ICML 2026).

One degraded observation ``y = A x + n`` is explained by a compressed representation: multi-scale
quantised latents decoded by a coordinate network whose weights are frozen and random (only a binary
mask over them is learned), fitted by maximum likelihood plus a rate penalty (entropy regularisation)
under a fixed complexity budget; ``K`` random draws of the network give ``K`` estimates that are averaged.
"""

from icml26.lottery_prior.baselines import (
    DeepDecoder,
    DeepImagePrior,
    bicubic,
    biharmonic,
    bm3d_denoise,
    fit_prior,
    nlm_denoise,
    tv_denoise,
    wavelet_denoise,
)
from icml26.lottery_prior.bound import ml_decode, ml_error_bound
from icml26.lottery_prior.entropy import (
    Arm,
    binary_entropy,
    causal_context,
    causal_offsets,
    expgolomb_bits,
    kumaraswamy_noise,
    laplace_bin_mass,
    latent_bits,
    mask_bits,
    quantize,
    softround,
)
from icml26.lottery_prior.network import (
    LotteryNet,
    MaskedLinear,
    ModNet,
    TopKMask,
    Upsampler,
    cosine_basis,
    structured_weight,
)
from icml26.lottery_prior.ops import Denoise, Inpaint, Operator, SuperResolution
from icml26.lottery_prior.solver import LotteryPrior, Solution, ensemble_mean

__all__ = [
    "Arm",
    "DeepDecoder",
    "DeepImagePrior",
    "Denoise",
    "Inpaint",
    "LotteryNet",
    "LotteryPrior",
    "MaskedLinear",
    "ModNet",
    "Operator",
    "Solution",
    "SuperResolution",
    "TopKMask",
    "Upsampler",
    "bicubic",
    "biharmonic",
    "binary_entropy",
    "bm3d_denoise",
    "causal_context",
    "causal_offsets",
    "cosine_basis",
    "ensemble_mean",
    "expgolomb_bits",
    "fit_prior",
    "kumaraswamy_noise",
    "laplace_bin_mass",
    "latent_bits",
    "mask_bits",
    "ml_decode",
    "ml_error_bound",
    "nlm_denoise",
    "quantize",
    "softround",
    "structured_weight",
    "tv_denoise",
    "wavelet_denoise",
]
