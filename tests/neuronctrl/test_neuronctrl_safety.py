"""The safety filter: minimal intervention, constraints met, slack fallback, forward invariance."""

import numpy as np
import pytest
from scipy.optimize import minimize

from icml26.neuronctrl.morphology import branching_morphology
from icml26.neuronctrl.plant import EcsRd, EcsRdSpec
from icml26.neuronctrl.safety import SafetyFilter, field_rows, naive_filter


def _filter(m=4):
    return SafetyFilter(np.full(m, -1.0), np.zeros(m), rate=0.4, budget=2.0)


def test_a_safe_nominal_action_is_returned_unchanged():
    flt = _filter()
    u_nom, u_prev = np.array([-0.3, -0.1, 0.0, -0.5]), np.array([-0.2, -0.2, -0.2, -0.5])
    g, h = np.array([[1.0, 1.0, 0.0, 0.0]]), np.array([0.0])
    r = flt.filter(u_nom, u_prev, g, h)
    assert not r.intervened and np.linalg.norm(r.u - u_nom) <= 1e-8 and r.slack == 0


@pytest.mark.parametrize("seed", range(6))
def test_an_unsafe_nominal_is_projected_onto_the_constraints_optimally(seed):
    rng = np.random.default_rng(seed)
    flt = _filter()
    u_prev = rng.uniform(-0.5, 0, 4)
    u_nom = rng.uniform(-1.5, 0.5, 4)
    g = rng.normal(size=(3, 4))
    h = g @ u_prev + rng.uniform(0.0, 0.2, 3)  # u_prev is feasible: the QP is feasible
    r = flt.filter(u_nom, u_prev, g, h)
    assert r.slack == 0 and r.residual <= 1e-6
    assert np.all(r.u >= -1 - 1e-6) and np.all(r.u <= 1e-6) and np.all(np.abs(r.u - u_prev) <= 0.4 + 1e-6)
    assert np.abs(r.u).sum() <= 2.0 + 1e-6 and np.all(g @ r.u <= h + 1e-6)
    cons = [
        {"type": "ineq", "fun": lambda u: h - g @ u},
        {"type": "ineq", "fun": lambda u: 2.0 - np.abs(u).sum()},
    ]
    lo, hi = np.maximum(-1, u_prev - 0.4), np.minimum(0, u_prev + 0.4)
    ref = minimize(lambda u: np.sum((u - u_nom) ** 2), np.clip(u_prev, lo, hi), method="SLSQP",
                   bounds=list(zip(lo, hi, strict=True)), constraints=cons, options={"ftol": 1e-12})  # fmt: skip
    assert np.sum((r.u - u_nom) ** 2) <= np.sum((ref.x - u_nom) ** 2) + 1e-6
    naive = naive_filter(flt, u_nom, u_prev, g, h)
    assert naive.residual <= 1e-6 and naive.ratio >= r.ratio - 1e-9


def test_infeasible_field_rows_fall_back_to_slack_and_say_so():
    flt = _filter(2)
    g, h = np.array([[1.0, 0.0]]), np.array([-5.0])  # u_0 <= -5: outside the box
    r = flt.filter(np.array([-0.1, -0.1]), np.zeros(2), g, h)
    assert r.slack > 1 and "slack fallback" in r.message
    assert -1 - 1e-9 <= r.u[0] <= -0.4 + 1e-6  # as far as the rate window allows
    assert r.residual <= 1e-6  # the action rows still hold


def test_contradictory_or_malformed_constraints_are_rejected():
    with pytest.raises(ValueError, match="contradictory box"):
        SafetyFilter(np.zeros(2), -np.ones(2), 0.1, 1.0)
    with pytest.raises(ValueError, match="contradictory constraints"):
        SafetyFilter(np.array([-2.0, -2.0]), np.array([-1.0, -1.0]), 0.1, 1.0)
    with pytest.raises(ValueError, match="rate must be > 0"):
        SafetyFilter(-np.ones(2), np.zeros(2), 0.0, 1.0)
    with pytest.raises(ValueError, match="u_nom and u_prev must have 2"):
        _filter(2).filter(np.zeros(3), np.zeros(2))
    with pytest.raises(ValueError, match="alpha"):
        field_rows(
            np.zeros(2), np.zeros(2), np.zeros((2, 1)), np.zeros(1), np.zeros(2), np.zeros(2), 0.0, 0.0
        )


def test_field_rows_give_the_discrete_barrier_for_a_linear_model():
    rng = np.random.default_rng(1)
    n, m, alpha, margin = 8, 3, 0.3, 0.05
    a, b = np.eye(n) * 0.9, rng.normal(size=(n, m))
    z = rng.uniform(1.5, 2.5, n)
    lower, upper = np.full(n, 1.0), np.where(np.arange(n) < 3, 3.0, np.inf)
    u_nom = rng.normal(size=m)
    g, h = field_rows(z, a @ z + b @ u_nom, b, u_nom, lower, upper, alpha, margin)
    assert g.shape == (n + 3, m)
    for u in rng.normal(size=(50, m)):
        z1 = a @ z + b @ u
        h_next = np.concatenate([z1 - lower, (upper - z1)[:3]])
        h_now = np.concatenate([z - lower, (upper - z)[:3]])
        assert np.array_equal(g @ u <= h, h_next >= (1 - alpha) * h_now + margin - 1e-12)


def test_exact_linear_barrier_keeps_100_random_closed_loop_episodes_safe():
    """Forward invariance: ecs_rd without the reaction (diffusion + clearance, exactly linear in u), the
    exact Jacobian, alpha = 1: random aggressive nominal actions never push any node below c_min."""
    spec = EcsRdSpec(substeps=1, rate=1.0)  # u = 0 always reachable
    plant = EcsRd(branching_morphology(11), spec)
    plant.sim.reaction = None
    s = plant.spec
    flt = SafetyFilter(np.full(plant.m, -s.u_max), np.zeros(plant.m), s.rate, s.budget)
    jac = plant.step(np.zeros((plant.n, plant.m)), np.eye(plant.m))  # exact: the plant is linear
    rng = np.random.default_rng(0)
    violations, filtered = 0, 0
    for _ in range(100):
        c, u_prev = plant.rest() + rng.uniform(-1.0, 0.0, plant.n), np.zeros(plant.m)
        c = np.maximum(c, s.c_min)
        for _ in range(8):
            u_nom = rng.uniform(-s.u_max, 0, plant.m)
            free = plant.step(c, np.zeros(plant.m))
            g, h = field_rows(
                c, free + jac @ u_nom, jac, u_nom, plant.lower, np.full(plant.n, np.inf), 1.0, 0.0
            )
            r = flt.filter(u_nom, u_prev, g, h)
            filtered += r.intervened
            c, u_prev = plant.step(c, r.u), r.u
            violations += bool(np.any(c < s.c_min - 1e-6 * s.c_min))
    assert filtered > 50 and violations == 0
