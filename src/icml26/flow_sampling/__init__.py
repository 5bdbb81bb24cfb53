"""Flow Sampling (Havens, Karrer, Shaul, ICML 2026, arXiv:2605.03984): learning to sample from
unnormalised densities by regressing, conditionally on a noise sample, the denoising drift built from
the energy; with a closed-form conditional drift on spheres and hyperbolic spaces.

``FlowSampler(energy, source=None, manifold=None).fit(energy_budget=...)``, ``.sample(n, g=...)`` (or
``gamma=``), ``.log_prob(x)``, ``.score(x)``.
"""

from icml26.flow_sampling.baselines import AdjointSampler, geodesic_langevin, mala, pt_mala
from icml26.flow_sampling.energies import (
    TARGETS,
    DoubleWellEnergy,
    Energy,
    FunnelEnergy,
    GaussianEnergy,
    GMMEnergy,
    LennardJonesEnergy,
    VMFMixtureEnergy,
    WrappedNormalMixtureEnergy,
    make_target,
)
from icml26.flow_sampling.gaussian import GaussianMarginalField
from icml26.flow_sampling.manifolds import (
    Euclidean,
    Lorentz,
    Sphere,
    conditional_log_density,
    conditional_score,
    conditional_targets,
    geodesic_interpolant,
)
from icml26.flow_sampling.networks import (
    EGNN,
    GaussianSource,
    MeanFreeGaussianSource,
    TwoHeadMLP,
    UniformSphereSource,
    WrappedNormalSource,
)
from icml26.flow_sampling.objective import ReplayBuffer, flow_sampling_loss, interpolant_targets
from icml26.flow_sampling.sampler import FlowSampler, importance_weights, integrate, time_grid

__all__ = [
    "EGNN",
    "TARGETS",
    "AdjointSampler",
    "DoubleWellEnergy",
    "Energy",
    "Euclidean",
    "FlowSampler",
    "FunnelEnergy",
    "GMMEnergy",
    "GaussianEnergy",
    "GaussianMarginalField",
    "GaussianSource",
    "LennardJonesEnergy",
    "Lorentz",
    "MeanFreeGaussianSource",
    "ReplayBuffer",
    "Sphere",
    "TwoHeadMLP",
    "UniformSphereSource",
    "VMFMixtureEnergy",
    "WrappedNormalMixtureEnergy",
    "WrappedNormalSource",
    "conditional_log_density",
    "conditional_score",
    "conditional_targets",
    "flow_sampling_loss",
    "geodesic_interpolant",
    "geodesic_langevin",
    "importance_weights",
    "integrate",
    "interpolant_targets",
    "make_target",
    "mala",
    "pt_mala",
    "time_grid",
]
