"""Neural feature geometry evolves as discrete Ricci flow (Hehl, von Renesse, Weber; ICML 2026).

Geometric (kNN) graphs of a network's layer representations, their discrete Ricci curvatures, and the
paper's comparison with discrete Ricci flow: local, layer and global Ricci coefficients, plus
community-structure measures of the class partition.
"""

from icml26.ricci_geometry.coefficients import (
    RicciAnalysis,
    analyse,
    expansion,
    global_ricci_coefficient,
    layer_ricci_coefficients,
    local_ricci_coefficients,
    local_ricci_coefficients_loop,
    pearson_columns,
    ricci_coefficients,
    scalar_curvature,
)
from icml26.ricci_geometry.community import class_modularity, curvature_gap, normalized_cut
from icml26.ricci_geometry.curvature import CURVATURES, curvature, triangles_per_edge
from icml26.ricci_geometry.datasets import (
    DATASETS,
    load_dataset,
    octahedral_clusters,
    octahedral_margin,
    unit_ball_points,
)
from icml26.ricci_geometry.graphs import (
    edge_jaccard,
    feature_graphs,
    hop_distances,
    knn_graph,
    knn_margin,
    layer_features,
    linear_preservation_delta,
    linear_preservation_width,
    pair_hop_distances,
    random_layer_features,
    relu_limit_knn_graph,
    relu_limit_sq_distances,
    same_knn_lists,
)
from icml26.ricci_geometry.networks import MLP, TrainResult, train_mlp

__all__ = [
    "CURVATURES",
    "DATASETS",
    "MLP",
    "RicciAnalysis",
    "TrainResult",
    "analyse",
    "class_modularity",
    "curvature",
    "curvature_gap",
    "edge_jaccard",
    "expansion",
    "feature_graphs",
    "global_ricci_coefficient",
    "hop_distances",
    "knn_graph",
    "knn_margin",
    "layer_features",
    "layer_ricci_coefficients",
    "linear_preservation_delta",
    "linear_preservation_width",
    "load_dataset",
    "local_ricci_coefficients",
    "local_ricci_coefficients_loop",
    "normalized_cut",
    "octahedral_clusters",
    "octahedral_margin",
    "pair_hop_distances",
    "pearson_columns",
    "random_layer_features",
    "relu_limit_knn_graph",
    "relu_limit_sq_distances",
    "ricci_coefficients",
    "same_knn_lists",
    "scalar_curvature",
    "train_mlp",
    "triangles_per_edge",
    "unit_ball_points",
]
