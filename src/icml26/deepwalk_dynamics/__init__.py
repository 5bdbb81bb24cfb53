"""DeepWalk / SGNS optimisation trajectories (Harker & Bhaskara, ICML 2026): three engines sharing one
``SGNSConfig``, the fixed low-rank matrix M = C − b q q_αᵀ [inferred], and alignment/clustering metrics."""

from icml26.deepwalk_dynamics.baselines import (
    kmeans_ari,
    netmf_embedding,
    normalized_adjacency_embedding,
    spectral_clustering_ari,
)
from icml26.deepwalk_dynamics.config import SGNSConfig
from icml26.deepwalk_dynamics.estimator import DeepWalkDynamics
from icml26.deepwalk_dynamics.graphs import (
    adjacency,
    block_labels,
    degree_correction,
    graph_nodes,
    sbm_graph,
    sparse_sbm,
    two_cliques,
)
from icml26.deepwalk_dynamics.metrics import (
    alignment,
    cluster_scores,
    mean_row_norm,
    sin_theta,
    smoothed_peak,
    trivial_energy,
)
from icml26.deepwalk_dynamics.population import (
    expected_gradient,
    expected_objective,
    initial_embeddings,
    linearised_gd,
    population_gd,
)
from icml26.deepwalk_dynamics.sgns_matrix import (
    Eigenspace,
    block_indicator_basis,
    cooccurrence_matrix,
    expected_sbm_matrix,
    negative_distribution,
    node_frequencies,
    sgns_matrix,
    top_eigenspace,
    trivial_direction,
)
from icml26.deepwalk_dynamics.sparse import SparseSGNSMatrix, sparse_linearised_gd, sparse_top_eigenspace
from icml26.deepwalk_dynamics.trajectory import ENGINES, Trajectory, deepwalk_trajectory

__all__ = [
    "DeepWalkDynamics",
    "ENGINES",
    "Eigenspace",
    "SGNSConfig",
    "SparseSGNSMatrix",
    "Trajectory",
    "adjacency",
    "alignment",
    "block_indicator_basis",
    "block_labels",
    "cluster_scores",
    "cooccurrence_matrix",
    "deepwalk_trajectory",
    "degree_correction",
    "expected_gradient",
    "expected_objective",
    "expected_sbm_matrix",
    "graph_nodes",
    "initial_embeddings",
    "kmeans_ari",
    "linearised_gd",
    "mean_row_norm",
    "negative_distribution",
    "netmf_embedding",
    "node_frequencies",
    "normalized_adjacency_embedding",
    "population_gd",
    "sbm_graph",
    "sgns_matrix",
    "sin_theta",
    "smoothed_peak",
    "sparse_linearised_gd",
    "sparse_sbm",
    "sparse_top_eigenspace",
    "spectral_clustering_ari",
    "top_eigenspace",
    "trivial_direction",
    "trivial_energy",
    "two_cliques",
]
