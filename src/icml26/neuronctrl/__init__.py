"""NeuronCtrl: safe closed-loop generative control of reaction-diffusion fields on 3-D morphologies.

A history-conditioned observer, a morphology-aware one-step operator, a flow-matching action generator
with preferences, and a barrier-based QP safety filter (Xu et al., ICML 2026), on a scipy.sparse plant.
"""

from icml26.neuronctrl.env import AGGRESSIVE, NeuronEnv, Rig, make_env
from icml26.neuronctrl.morphology import Morphology, branching_morphology, chain_morphology, from_networkx
from icml26.neuronctrl.plant import EcsRd, EcsRdSpec, ReactionDiffusion, make_plant

__all__ = [
    "AGGRESSIVE",
    "EcsRd",
    "EcsRdSpec",
    "Morphology",
    "NeuronEnv",
    "ReactionDiffusion",
    "Rig",
    "branching_morphology",
    "chain_morphology",
    "from_networkx",
    "make_env",
    "make_plant",
]
