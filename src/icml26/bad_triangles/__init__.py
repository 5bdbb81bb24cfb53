"""Bad Triangle Transversal: 2-approximations and the transversal-to-clustering pivot.

Adriaens & Tatti, "Simple Algorithms for Bad Triangle Transversals with Applications to Correlation
Clustering", ICML 2026 (arXiv:2602.04463). See docs/methods/bad_triangles.md.
"""

from icml26.bad_triangles.baselines import (
    exact_btt,
    min_stc_matching,
    packing_3approx,
    random_minimal_transversal,
)
from icml26.bad_triangles.datasets import (
    atlas_complete_graphs,
    binding_instances,
    highland_tribes,
    planted_partition,
    random_signed_graph,
)
from icml26.bad_triangles.graph import (
    SignedGraph,
    complete_from_positive,
    from_arrays,
    from_edges,
    from_networkx,
)
from icml26.bad_triangles.lp import LPSolution, cover_matrix, solve_cover_lp, solve_cover_lp_mwu
from icml26.bad_triangles.pivot import (
    Clustering,
    budget_pivot,
    budget_pivot_expected_cost,
    clustering_mistakes,
    disagreements,
    exact_cc,
    flip_pivot,
    flip_pivot_expected_cost,
    kwik_cluster,
    lp_pivot,
    transversal_to_clustering,
)
from icml26.bad_triangles.rounding import (
    Transversal,
    btt_2approx,
    krivelevich_2approx,
    min_stc_2approx,
    round_lp_support,
    round_lp_threshold,
)
from icml26.bad_triangles.triangles import (
    bad_triangles,
    is_transversal,
    iter_bad_triangles,
    uncovered_triangles,
)

__all__ = [
    "Clustering",
    "LPSolution",
    "SignedGraph",
    "Transversal",
    "atlas_complete_graphs",
    "bad_triangles",
    "binding_instances",
    "btt_2approx",
    "budget_pivot",
    "budget_pivot_expected_cost",
    "clustering_mistakes",
    "complete_from_positive",
    "cover_matrix",
    "disagreements",
    "exact_btt",
    "exact_cc",
    "flip_pivot",
    "flip_pivot_expected_cost",
    "from_arrays",
    "from_edges",
    "from_networkx",
    "highland_tribes",
    "is_transversal",
    "iter_bad_triangles",
    "krivelevich_2approx",
    "kwik_cluster",
    "lp_pivot",
    "min_stc_2approx",
    "min_stc_matching",
    "packing_3approx",
    "planted_partition",
    "random_minimal_transversal",
    "random_signed_graph",
    "round_lp_support",
    "round_lp_threshold",
    "solve_cover_lp",
    "solve_cover_lp_mwu",
    "transversal_to_clustering",
    "uncovered_triangles",
]
