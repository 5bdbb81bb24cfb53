"""CollocationDiffusion: high-accuracy, dimension-free diffusion sampling by low-degree collocation.

Gatmiry, Chen, Salim, "High-accuracy and dimension-free sampling with diffusions", ICML 2026,
arXiv:2601.10708. The probability-flow ODE is solved window by window; on each window the velocity is
replaced by a degree-D Chebyshev interpolant and the collocation equations are solved by Picard rounds
whose D score calls are batched (see ``docs/methods/collocation_sampler.md``).
"""

from icml26.collocation_sampler.api import score_from_diffusers_unet, solve
from icml26.collocation_sampler.baselines import (
    diffusers_sample,
    diffusers_start_time,
    dpm_solver_pp_sample,
    fixed_step_sample,
    reference_solution,
    scipy_sample,
    torchdiffeq_sample,
    unipc_sample,
)
from icml26.collocation_sampler.collocation import chebyshev_nodes, collocation_window, integration_matrix
from icml26.collocation_sampler.sampler import SampleResult, collocation_sample
from icml26.collocation_sampler.schedule import OU, VPSchedule, score_from_denoiser, score_from_epsilon
from icml26.collocation_sampler.targets import GaussianMixture, perturbed_score
from icml26.collocation_sampler.windows import (
    check_windows,
    geometric_windows,
    lipschitz_bound,
    theorem_windows,
)

__all__ = [
    "OU",
    "GaussianMixture",
    "SampleResult",
    "VPSchedule",
    "chebyshev_nodes",
    "check_windows",
    "collocation_sample",
    "collocation_window",
    "diffusers_sample",
    "diffusers_start_time",
    "dpm_solver_pp_sample",
    "fixed_step_sample",
    "geometric_windows",
    "integration_matrix",
    "lipschitz_bound",
    "perturbed_score",
    "reference_solution",
    "score_from_denoiser",
    "score_from_epsilon",
    "score_from_diffusers_unet",
    "scipy_sample",
    "solve",
    "theorem_windows",
    "torchdiffeq_sample",
    "unipc_sample",
]
