"""DIGL: OOD graph generalisation via invariant W2 barycenters (Du et al., ICML 2026, OpenReview YI3IpasVw5).

Only the paper's abstract was available: the objective is a reconstruction, "DIGL-style W2-barycenter
invariance" (see ``docs/methods/digl.md``). Graph embeddings of each environment and class are an
empirical distribution; their Wasserstein-2 barycenter is the invariant prototype; the training loss adds
each environment's transport energy to the prototype (its distortion) to the risk.
"""

from icml26.digl.barycenter import (
    BARYCENTERS,
    Prototype,
    barycenter,
    barycentric_energy,
    bures_w2_squared,
    distance_to,
    distortion,
    gaussian_barycenter,
    gaussian_moments,
    geodesic_step,
    sinkhorn_w2_squared,
    w2_squared,
)
from icml26.digl.baselines import ERM, IRM, Coral, GroupDRO, Mixup, VREx
from icml26.digl.datasets import (
    BASES,
    MOTIFS,
    GraphSet,
    Split,
    good_motif,
    load_split,
    motif_graph,
    spurious_motif,
)
from icml26.digl.digl import DIGL, env_risks, invariance_penalty
from icml26.digl.encoder import GINEncoder, GraphOODClassifier, to_pyg

__all__ = [
    "BARYCENTERS",
    "BASES",
    "DIGL",
    "ERM",
    "IRM",
    "MOTIFS",
    "Coral",
    "GINEncoder",
    "GraphOODClassifier",
    "GraphSet",
    "GroupDRO",
    "Mixup",
    "Prototype",
    "Split",
    "VREx",
    "barycenter",
    "barycentric_energy",
    "bures_w2_squared",
    "distance_to",
    "distortion",
    "env_risks",
    "gaussian_barycenter",
    "gaussian_moments",
    "geodesic_step",
    "good_motif",
    "invariance_penalty",
    "load_split",
    "motif_graph",
    "sinkhorn_w2_squared",
    "spurious_motif",
    "to_pyg",
    "w2_squared",
]
