"""The nineteen methods, and where each one's experiment is found.

A method is implemented once ``icml26/<method>/experiment.py`` defines ``EXPERIMENT``. Extra
experiments (the test suite's own) can be added with :func:`register`.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path

from icml26.common.experiment import Experiment


@dataclass(frozen=True)
class Method:
    number: int
    name: str
    title: str


METHODS: tuple[Method, ...] = tuple(
    Method(i + 1, name, title)
    for i, (name, title) in enumerate(
        [
            ("flow_optimizer", "FlowOptimizer: learned optimization by deep-unfolded flows"),
            ("neuronctrl", "NeuronCtrl: safe generative closed-loop control of neuronal microenvironments"),
            ("fedpissa", "FedPissa: personalized federated single-LoRA"),
            ("dibo", "DiBO: diffusion language models for offline black-box optimization"),
            ("deep_flow_networks", "Deep Flow Networks: min-cost-flow function approximators"),
            ("rashomon", "Rashomon sets: robustness-privacy trade-off"),
            ("bfts", "BFTS: Bayesian Forest Thompson Sampling"),
            ("bad_triangles", "Bad Triangle Transversal 2-approximations and correlation clustering"),
            ("flow_sampling", "Flow Sampling: flow matching for unnormalized densities"),
            ("truthful_valuation", "Fair and truthful data valuation for Bayesian collaborative ML"),
            ("mixture_ensemble", "Mixture-model-like Ensemble of LLMs"),
            ("ricci_geometry", "Neural feature geometry evolves as discrete Ricci flow"),
            ("lottery_prior", "Lottery Prior: zero-shot inverse problems"),
            ("deepwalk_dynamics", "Optimization trajectory of DeepWalk embeddings"),
            ("exact_gnn", "Exact learnability of graph algorithms by GNNs"),
            ("digl", "DIGL: OOD graph generalization via invariant barycenters"),
            ("collocation_sampler", "High-accuracy diffusion sampling by low-degree collocation"),
            ("brokenmath", "BrokenMath: sycophancy in theorem proving"),
            ("c2r", "C2R: contrastive curriculum for robust dataset distillation"),
        ]
    )
)
METHOD_NAMES: tuple[str, ...] = tuple(m.name for m in METHODS)

_extra: dict[str, Experiment] = {}
_PACKAGE = Path(__file__).resolve().parents[1]  # src/icml26


def register(experiment: Experiment) -> Experiment:
    """Register an experiment under its ``method`` name (used by the test suite's own experiment)."""
    _extra[experiment.method] = experiment
    return experiment


def unregister(name: str) -> None:
    _extra.pop(name, None)


def is_implemented(name: str) -> bool:
    """Whether ``name`` has an experiment module, by looking for its file (nothing is imported)."""
    if name in _extra:
        return True
    return (_PACKAGE / name / "experiment.py").is_file()


def available() -> list[str]:
    """Names that ``icml26 run`` accepts: implemented methods, then registered extras."""
    return [n for n in METHOD_NAMES if is_implemented(n)] + [n for n in _extra if n not in METHOD_NAMES]


def get_experiment(name: str) -> Experiment:
    """The experiment of method ``name``; ``ValueError`` naming the accepted methods otherwise."""
    if name in _extra:
        return _extra[name]
    if name not in METHOD_NAMES:
        raise ValueError(f"unknown method {name!r}; accepted: {', '.join(available()) or 'none'}")
    if not is_implemented(name):
        raise ValueError(
            f"method {name!r} is not implemented yet; implemented: {', '.join(available()) or 'none'}"
        )
    module = importlib.import_module(f"icml26.{name}.experiment")
    return module.EXPERIMENT
