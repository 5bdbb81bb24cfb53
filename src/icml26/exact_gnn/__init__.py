"""Exact GNN execution of graph algorithms learned from local instructions (arXiv 2601.23207).

Step 1 learns a node's local instruction (templates over a finite bit state) with an MLP ensemble or
its closed-form NTK mean; step 2 runs it as the update of a sum-aggregation GNN.
"""

from icml26.exact_gnn.algorithms import ALGORITHMS, check_graph, compile_algorithm, random_bounded_graph
from icml26.exact_gnn.bounds import ensemble_size_bound, theoretical_ensemble_size
from icml26.exact_gnn.compiler import bfs_table, compile_table, flooding_table
from icml26.exact_gnn.ensemble import MLPEnsemble
from icml26.exact_gnn.executor import Execution, Executor, adjacency_with_self_loops, distance2_colouring
from icml26.exact_gnn.ntk import NTKClosedForm, NTKSolve, closed_form_coefficients, ntk_relu
from icml26.exact_gnn.proof import MarginProof, initial_states, prove_ntk_exact, reachable_states
from icml26.exact_gnn.pyg import edge_index_of, exact_gnn_layer
from icml26.exact_gnn.templates import (
    Layout,
    Program,
    Template,
    encode,
    ideal_update,
    match,
    raw_training_set,
    training_set,
)

__all__ = [
    "ALGORITHMS",
    "Execution",
    "Executor",
    "Layout",
    "MLPEnsemble",
    "MarginProof",
    "NTKClosedForm",
    "NTKSolve",
    "Program",
    "Template",
    "adjacency_with_self_loops",
    "bfs_table",
    "check_graph",
    "closed_form_coefficients",
    "compile_algorithm",
    "compile_table",
    "distance2_colouring",
    "edge_index_of",
    "encode",
    "exact_gnn_layer",
    "flooding_table",
    "ensemble_size_bound",
    "ideal_update",
    "initial_states",
    "match",
    "ntk_relu",
    "prove_ntk_exact",
    "random_bounded_graph",
    "raw_training_set",
    "reachable_states",
    "theoretical_ensemble_size",
    "training_set",
]
