"""Deep Flow Networks (Candogan & Foussoul, ICML 2026): min-cost-flow value functions as discrete
function approximators that are convex-extendible by construction and fast to optimise."""

from icml26.deep_flow_networks.baselines import ICNNRegressor, MaxAffineRegressor, MLPRegressor, icnn_width
from icml26.deep_flow_networks.datasets import (
    concave_control,
    max_affine,
    mconvex_truth,
    random_quadratic,
    separable_norm,
    uniform_integers,
)
from icml26.deep_flow_networks.evaluation import (
    best_integer_minimum,
    hierarchical_ci,
    midpoint_convexity_violations,
)
from icml26.deep_flow_networks.gadgets import FlowFunction, separable_convex_gadget
from icml26.deep_flow_networks.milp import MilpResult, solve_milp
from icml26.deep_flow_networks.model import (
    DFN,
    DFNNetwork,
    Minimum,
    box_bounds,
    initial_A,
    layered_network,
    linear_constraints,
    log_sqrt_det,
)
from icml26.deep_flow_networks.solver import (
    FlowNetwork,
    FlowSolution,
    HighsFlowSolver,
    SolverError,
    linprog_flow,
)

__all__ = [
    "DFN",
    "DFNNetwork",
    "FlowFunction",
    "FlowNetwork",
    "FlowSolution",
    "HighsFlowSolver",
    "ICNNRegressor",
    "MLPRegressor",
    "MaxAffineRegressor",
    "MilpResult",
    "Minimum",
    "SolverError",
    "best_integer_minimum",
    "box_bounds",
    "icnn_width",
    "initial_A",
    "concave_control",
    "layered_network",
    "linear_constraints",
    "linprog_flow",
    "log_sqrt_det",
    "max_affine",
    "mconvex_truth",
    "hierarchical_ci",
    "midpoint_convexity_violations",
    "random_quadratic",
    "separable_convex_gadget",
    "separable_norm",
    "solve_milp",
    "uniform_integers",
]
