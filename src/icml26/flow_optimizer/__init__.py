"""FlowOptimizer: learning to optimize with deep-unfolded flows over a population (ICML 2026).

Public API::

    from icml26.flow_optimizer import FlowOptimizer, ProblemClass
    opt = FlowOptimizer.pretrained("rastrigin-10")
    res = opt.minimize(f, bounds=[(-5.12, 5.12)] * 10, budget=3200, seed=0)   # a scipy OptimizeResult

    # ask/tell with the gradient-free weights, for any numpy objective
    opt = FlowOptimizer.pretrained("rastrigin-10-gradfree").start([(-5.12, 5.12)] * 10, budget=3200)
    while not opt.stop():
        X = opt.ask()
        opt.tell(X, objective(X))
    res = opt.result()
"""

from icml26.flow_optimizer.baselines import (
    BASELINES,
    adam_multistart,
    cma_es,
    cma_ipop,
    differential_evolution,
    l2o_multistart,
    ngopt,
)
from icml26.flow_optimizer.l2o import PRETRAINED_L2O, CoordinatewiseLSTM, L2OOptimizer, preprocess_gradient
from icml26.flow_optimizer.optimizer import PRETRAINED, FlowOptimizer, OptimizeResult, parse_bounds
from icml26.flow_optimizer.power_grid import CASES, DCOPFClass, DCOPFInstances
from icml26.flow_optimizer.problems import BENCHMARKS, PRIORS, Instances, ProblemClass
from icml26.flow_optimizer.robotics import IKClass, IKInstances, forward_kinematics, two_link_ik
from icml26.flow_optimizer.supply_chain import (
    SupplyChainClass,
    SupplyChainInstances,
    brute_force,
    concave_cost,
)
from icml26.flow_optimizer.targets import SAMPLERS, global_targets, local_targets, sample_targets
from icml26.flow_optimizer.training import (
    TrainLog,
    rollout,
    stage1_displacement_matching,
    stage2_deep_unfolding,
    unfolded_loss,
)
from icml26.flow_optimizer.velocity import VelocityField, flow_step, population_features, rank_weights

__all__ = [
    "BASELINES",
    "BENCHMARKS",
    "CASES",
    "CoordinatewiseLSTM",
    "L2OOptimizer",
    "PRETRAINED_L2O",
    "DCOPFClass",
    "DCOPFInstances",
    "PRETRAINED",
    "PRIORS",
    "SAMPLERS",
    "SupplyChainClass",
    "SupplyChainInstances",
    "FlowOptimizer",
    "IKClass",
    "IKInstances",
    "Instances",
    "OptimizeResult",
    "ProblemClass",
    "TrainLog",
    "VelocityField",
    "adam_multistart",
    "brute_force",
    "cma_es",
    "cma_ipop",
    "concave_cost",
    "differential_evolution",
    "flow_step",
    "forward_kinematics",
    "global_targets",
    "l2o_multistart",
    "local_targets",
    "ngopt",
    "parse_bounds",
    "population_features",
    "preprocess_gradient",
    "rank_weights",
    "rollout",
    "sample_targets",
    "stage1_displacement_matching",
    "stage2_deep_unfolding",
    "two_link_ik",
    "unfolded_loss",
]
