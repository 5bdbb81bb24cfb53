"""NeuronCtrl: safe closed-loop generative control of reaction-diffusion fields on 3-D morphologies.

A history-conditioned observer, a morphology-aware one-step operator, a flow-matching action generator
with preferences, and a barrier-based QP safety filter (Xu et al., ICML 2026), on a scipy.sparse plant.

Usage::

    from icml26.neuronctrl import AGGRESSIVE, load_shipped, make_env, pad_history
    env, (ctrl, distilled) = make_env("ecs_rd", 123), load_shipped()
    u, info = ctrl.act(pad_history([env.reset(seed=0)[0]], [], env.rig), AGGRESSIVE)
"""

from icml26.neuronctrl.controller import History, NeuronCtrl, load_models, pad_history
from icml26.neuronctrl.env import AGGRESSIVE, NeuronEnv, Rig, make_env
from icml26.neuronctrl.morphology import Morphology, branching_morphology, chain_morphology, from_networkx
from icml26.neuronctrl.plant import EcsRd, EcsRdSpec, ReactionDiffusion, make_plant
from icml26.neuronctrl.safety import SafetyFilter, field_rows, naive_filter
from icml26.neuronctrl.shipped import load_shipped

__all__ = [
    "AGGRESSIVE",
    "EcsRd",
    "EcsRdSpec",
    "History",
    "Morphology",
    "NeuronCtrl",
    "NeuronEnv",
    "ReactionDiffusion",
    "Rig",
    "SafetyFilter",
    "branching_morphology",
    "chain_morphology",
    "field_rows",
    "from_networkx",
    "load_models",
    "load_shipped",
    "make_env",
    "make_plant",
    "naive_filter",
    "pad_history",
]
