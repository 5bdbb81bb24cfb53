"""Solver sensitivities, the DFN's definition, gadgets, minimisation and bad input."""

import copy
import itertools
import math

import numpy as np
import pytest
from sklearn.exceptions import NotFittedError

from icml26.deep_flow_networks import (
    DFN,
    FlowFunction,
    FlowNetwork,
    HighsFlowSolver,
    MaxAffineRegressor,
    MLPRegressor,
    SolverError,
    layered_network,
    linprog_flow,
    log_sqrt_det,
    midpoint_convexity_violations,
    separable_convex_gadget,
)


@pytest.fixture(scope="module")
def small_net():
    rng = np.random.default_rng(3)
    graph = layered_network((2, 5, 2))
    net = graph.network
    cost = np.where(graph.learnable, rng.normal(size=net.n_arcs), 1e3)
    cap = np.where(graph.learnable, rng.uniform(0.5, 2.0, size=net.n_arcs), 1e6)
    return net, cost, cap


def _supplies(net, x):
    s = np.zeros(net.n_nodes)
    s[: len(x)] = x
    return s


def test_highs_matches_linprog_values_and_duals(small_net):
    net, cost, cap = small_net
    S = np.array([_supplies(net, x) for x in itertools.product(range(-3, 4), repeat=2)], dtype=float)
    a = HighsFlowSolver(net, cost, cap).solve(S)
    b = linprog_flow(net, cost, cap, S)
    assert np.abs(a.value - b.value).max() < 1e-9
    assert np.abs(a.potential - b.potential).max() < 1e-9


def test_lp_dual_gradients_match_central_differences(small_net):
    """dV/dc = flow, dV/ds = potential, dV/du = capacity dual: rel. error < 1e-4 at a non-degenerate point."""
    net, cost, cap = small_net
    s = _supplies(net, [2.3, -1.1])
    solver = HighsFlowSolver(net, cost, cap)
    sol = solver.solve(s)
    h = 1e-6

    def value(c=cost, u=cap, sup=s):
        solver.update(c, u)
        return solver.solve(sup).value[0]

    num_c = np.array([(value(c=cost + h * e) - value(c=cost - h * e)) / (2 * h) for e in np.eye(net.n_arcs)])
    num_s = np.array([(value(sup=s + h * e) - value(sup=s - h * e)) / (2 * h) for e in np.eye(net.n_nodes)])
    num_u = np.array([(value(u=cap + h * e) - value(u=cap - h * e)) / (2 * h) for e in np.eye(net.n_arcs)])
    for analytic, numeric in ((sol.flow[0], num_c), (sol.potential[0], num_s), (sol.capacity_dual[0], num_u)):
        assert np.linalg.norm(analytic - numeric) <= 1e-4 * max(1.0, np.linalg.norm(numeric))
    assert np.any(sol.capacity_dual[0] < 0)  # some arc is saturated: the capacity gradient is exercised


@pytest.fixture(scope="module")
def fitted():
    g = np.array(list(itertools.product(range(-4, 5), repeat=2)))
    y = (g**2).sum(1) + g[:, 0] * g[:, 1]
    return DFN(2, (2, 6, 2), seed=1, learn_A=True, epochs=4, batch_size=8).fit(g, y), g, y


def test_dfn_loss_gradient_matches_finite_differences(fitted):
    model, g, y = fitted
    z = model.standardise(y[:10])
    grads, _ = model._batch_gradient(g[:10], z)
    h = 1e-6

    def loss():
        return model._batch_gradient(g[:10], z)[1]

    for name, idx in (("cost_", 3), ("log_cap_", 5), ("b_", 0)):
        arr = getattr(model, name)
        arr[idx] += h
        up = loss()
        arr[idx] -= 2 * h
        down = loss()
        arr[idx] += h
        assert grads[name][idx] == pytest.approx((up - down) / (2 * h), rel=1e-4, abs=1e-7), name
    for name in ("log_alpha_", "beta_"):
        base = getattr(model, name)
        setattr(model, name, base + h)
        up = loss()
        setattr(model, name, base - h)
        down = loss()
        setattr(model, name, base)
        assert float(grads[name]) == pytest.approx((up - down) / (2 * h), rel=1e-4, abs=1e-7), name


def test_straight_through_A_gradient_is_the_real_A_derivative(fitted):
    """dL/dA = sum_n r_n alpha pi_n x_n^T: with A read as a real matrix (no rounding) it equals central
    differences of the loss in A's entries (the straight-through gradient of the latent matrix)."""
    model, g, y = fitted

    class RealA(DFN):
        A_ = property(lambda self: self.A_latent_)

    real = copy.copy(model)
    real.__class__ = RealA
    real.A_latent_ = model.A_.copy() + np.array([[0.13, -0.07], [0.05, 0.11]])  # a generic point
    real._highs = None
    z = real.standardise(y[:12])
    grads, _ = real._batch_gradient(g[:12], z)
    h = 1e-6
    for idx in itertools.product(range(2), range(2)):
        real.A_latent_[idx] += h
        up = real._batch_gradient(g[:12], z)[1]
        real.A_latent_[idx] -= 2 * h
        down = real._batch_gradient(g[:12], z)[1]
        real.A_latent_[idx] += h
        assert grads["A_latent_"][idx] == pytest.approx((up - down) / (2 * h), rel=1e-4, abs=1e-7), idx


def test_training_leaves_the_fixed_slack_arcs_alone(fitted):
    model, _, _ = fitted
    fixed = ~model.graph_.learnable
    assert np.all(model.arc_cost_[fixed] == pytest.approx(model.big_cost))
    assert np.all(model.capacity_[fixed] == pytest.approx(model.big_cap))


def test_midpoint_check_detects_a_non_convex_function():
    rng = np.random.default_rng(0)
    lb, ub = np.array([-5, -5]), np.array([5, 5])
    bad, pairs = midpoint_convexity_violations(lambda X: -(X**2).sum(1).astype(float), lb, ub, 400, rng)
    assert pairs == 400 and bad > 100  # every pair with x != y violates for a strictly concave g
    assert midpoint_convexity_violations(lambda X: (X**2).sum(1).astype(float), lb, ub, 400, rng)[0] == 0


def test_dfn_output_equals_an_independent_lp_solve(fitted):
    model, g, _ = fitted
    net = model.graph_.network
    ref = linprog_flow(net, model.arc_cost_, model.capacity_, model.supplies(g)).value
    expected = model.unstandardise(math.exp(model.log_alpha_) * ref + model.beta_)
    assert np.abs(model.predict(g) - expected).max() < 1e-8


def test_every_integer_input_is_feasible_and_convex(fitted):
    model, _, _ = fitted
    far = np.array([[10**6, -(10**6)], [-5000, 7], [0, 0]])
    assert np.all(np.isfinite(model.predict(far)))
    bad, pairs = midpoint_convexity_violations(
        model.predict, np.array([-50, -50]), np.array([50, 50]), 500, np.random.default_rng(0)
    )
    assert bad == 0 and pairs == 500


def test_standardisation_round_trips(fitted):
    model, _, y = fitted
    assert np.allclose(model.unstandardise(model.standardise(y)), y)
    assert abs(model.standardise(y).mean()) < 1e-12 and model.standardise(y).std() == pytest.approx(1.0)


def test_save_load_round_trip(fitted, tmp_path):
    model, g, _ = fitted
    model.save(tmp_path / "m.npz")
    again = DFN.load(tmp_path / "m.npz")
    assert np.array_equal(again.A_, model.A_) and again.learn_A
    assert np.abs(again.predict(g) - model.predict(g)).max() < 1e-9


def test_minimize_is_the_brute_force_minimum(fitted):
    model, _, _ = fitted
    box = np.array(list(itertools.product(range(-3, 4), repeat=2)))
    for budget in (None, 2):
        res = model.minimize([-3, -3], [3, 3], budget)
        pts = box if budget is None else box[box.sum(1) == budget]
        assert res.value == pytest.approx(model.predict(pts).min(), abs=1e-6)
        assert budget is None or res.x.sum() == budget


def test_lp_relaxation_integral_with_identity_and_integer_data():
    """[N | -A] with A a selection is a network matrix: with integer capacities and b the LP vertex is integral."""
    rng = np.random.default_rng(5)
    g = np.array(list(itertools.product(range(-3, 4), repeat=3)))
    model = DFN(3, (3, 6, 3), seed=2, learn_A=False, A_init="selection", epochs=2).fit(
        g, np.abs(g - 0.3).sum(1) ** 1.3
    )
    model.log_cap_ = np.log(np.maximum(1.0, np.round(model.capacity_)) / model.input_scale_)
    model.b_ = np.round(model.offset_) / model.input_scale_
    model._highs = None
    for budget in rng.integers(-6, 7, size=4):
        assert model.minimize([-3] * 3, [3] * 3, int(budget)).lp_relaxation_integral
    # the control: with A = 2 (not a selection) the supply 2x is even, and the relaxation can halve x
    one = DFN(1, (1, 3, 1), seed=0, learn_A=False, epochs=30).fit(
        np.arange(-4, 5)[:, None], (np.arange(-4, 5) - 1.0) ** 2
    )
    one.log_cap_ = np.log(np.maximum(1.0, np.round(one.capacity_)) / one.input_scale_)
    one.b_ = np.round(one.offset_) / one.input_scale_
    one._highs = None
    assert one.minimize([-4], [4]).lp_relaxation_integral
    one.A_int_ = np.full((1, 1), 2.0)
    assert one.minimize([-4], [4]).lp_fractionality > 1e-3


def test_gadgets_reproduce_convex_functions_exactly():
    x = np.arange(-6, 7)
    t1, t2 = (x - 1.5) ** 2, np.maximum(0, x) * 3 - x
    f = separable_convex_gadget([t1, t2], [-6, -6])
    X = np.array(list(itertools.product(range(-6, 7), repeat=2)))
    assert np.abs(f.value(X) - (t1[X[:, 0] + 6] + t2[X[:, 1] + 6])).max() < 1e-9
    assert np.abs(f.value(X[:20], reference=True) - f.value(X[:20])).max() < 1e-9
    with pytest.raises(ValueError, match="not convex"):
        separable_convex_gadget([-(x**2.0)], [-6])


def test_baseline_milps_match_brute_force():
    rng = np.random.default_rng(1)
    X = rng.integers(-4, 5, size=(80, 2))
    y = (X**2).sum(1) + 3 * X[:, 0]
    box = np.array(list(itertools.product(range(-4, 5), repeat=2)))
    for model in (MLPRegressor(2, (6, 6), seed=0), MaxAffineRegressor(2, 5, seed=0)):
        model.fit(X, y, epochs=5)
        res = model.minimize([-4, -4], [4, 4], budget=1)
        pts = box[box.sum(1) == 1]
        assert res.value == pytest.approx(model.predict(pts).min(), abs=1e-5), type(model).__name__


def test_log_sqrt_det():
    assert log_sqrt_det(np.eye(3, 2)) == 0.0
    assert log_sqrt_det(np.array([[2.0, 0.0], [0.0, 3.0]])) == pytest.approx(math.log(6.0))
    assert log_sqrt_det(np.array([[1.0, 1.0], [1.0, 1.0]])) == -math.inf


def test_bad_input_is_rejected(fitted):
    model, g, y = fitted
    with pytest.raises(ValueError, match="integer values"):
        model.predict(np.array([[0.5, 1.0]]))
    with pytest.raises(ValueError, match=r"shape \(N, 2\)"):
        model.predict(np.zeros((3, 3), dtype=int))
    with pytest.raises(TypeError, match="integers"):
        model.predict(np.array([["a", "b"]]))
    with pytest.raises(ValueError, match=r"lb must be a scalar or have shape \(2,\)"):
        model.minimize([0, 0, 0], [1, 1])
    with pytest.raises(ValueError, match="integer values"):
        model.minimize([0.5, 0], [1, 1])
    with pytest.raises(ValueError, match="lb must be <= ub"):
        model.minimize([2, 0], [1, 3])
    with pytest.raises(ValueError, match="budget 50 is infeasible"):
        model.minimize([-3, -3], [3, 3], budget=50)
    with pytest.raises(ValueError, match="finite"):
        DFN(2, (2, 4, 2)).fit(g, np.where(np.arange(len(y)) == 0, np.nan, y))
    with pytest.raises(ValueError, match="one target per row"):
        DFN(2, (2, 4, 2)).fit(g, y[:-1])
    with pytest.raises(ValueError, match="layer_sizes"):
        DFN(3, (2, 4)).fit(np.zeros((2, 3), int), [0.0, 1.0])
    with pytest.raises(ValueError, match="input_dim"):
        DFN(0).initialise()
    with pytest.raises(NotFittedError, match="not fitted"):
        DFN(2, (2, 4)).predict(g)
    with pytest.raises(ValueError, match="NaN or inf"):
        model.predict(np.array([[np.nan, 1.0]]))
    with pytest.raises(ValueError, match="NaN or inf"):
        DFN(2, (2, 4)).fit(np.array([[np.nan, 1.0], [0.0, 0.0]]), [0.0, 1.0])
    with pytest.raises(ValueError, match="X has 3 columns but this DFN was built with input_dim = 2"):
        DFN(2, (2, 4)).fit(np.zeros((4, 3), int), np.arange(4.0))
    with pytest.raises(ValueError, match="integer values"):
        DFN(2, (2, 4)).fit(np.array([[0.5, 1.0], [0.0, 0.0]]), [0.0, 1.0])
    for key, value in (
        ("lr", -1.0),
        ("lr_A", float("nan")),
        ("epochs", -1),
        ("A_init", "eye"),
        ("big_cap", 0),
    ):
        with pytest.raises(ValueError, match=key):
            DFN(2, (2, 4), **{key: value}).fit(g, y)
    with pytest.raises(ValueError, match="budget must be an integer"):
        model.minimize([-3, -3], [3, 3], budget="2")
    with pytest.raises(ValueError, match="time_limit"):
        model.minimize([-3, -3], [3, 3], time_limit=-1.0)
    with pytest.raises(RuntimeError, match="not fitted"):
        MLPRegressor(2).minimize([0, 0], [1, 1])
    with pytest.raises(ValueError, match="2-D"):
        log_sqrt_det(np.ones(3))
    with pytest.raises(TypeError, match="complex"):
        model.predict(np.array([[1 + 2j, 0]]))
    with pytest.raises(ValueError, match="2\\^63"):
        model.predict(np.array([[2.0**63, 0.0]]))
    with pytest.raises(ValueError, match="big_cap = 1e\\+06"):
        model.predict(np.array([[2_000_000, 0]]))
    small = DFN(2, (2, 4), big_cap=100.0, epochs=1).fit(g, y)
    with pytest.raises(ValueError, match="big_cap = 100"):
        small.predict(np.array([[10**4, 0]]))
    assert np.isfinite(small.predict(np.array([[90, 0]]))).all()  # within big_cap: feasible
    with pytest.raises(
        ValueError, match=r"initialise\(d=3\) asks for d = 3 but this DFN was built with input_dim = 2"
    ):
        DFN(2, (2, 4)).initialise(3)


def test_solver_failure_names_the_instance():
    net = FlowNetwork(2, np.array([0]), np.array([1]))  # no slack arcs: a supply at node 0 beyond cap 1 fails
    f = FlowFunction(net, np.array([1.0]), np.array([1.0]), np.eye(2), np.zeros(2))
    with pytest.raises(SolverError, match="instance 1 of 2"):
        f.value(np.array([[0, 0], [5, 0]]))
    with pytest.raises(ValueError, match="capacities"):
        HighsFlowSolver(net, np.array([1.0]), np.array([0.0]))
    with pytest.raises(ValueError, match="capacities"):
        linprog_flow(net, np.array([1.0]), np.array([-2.0]), np.zeros((1, 2)))


def test_hierarchical_interval_carries_the_seed_variance():
    """Two seeds whose means differ: the seed-then-point interval is wider than one that pools the points
    as if from one seed; one seed resamples points only; a ratio of equal arrays is the point 1."""
    from icml26.deep_flow_networks import hierarchical_ci

    rng = np.random.default_rng(0)
    a, b = rng.normal(1.0, 0.1, 200), rng.normal(3.0, 0.1, 200)
    low, high = hierarchical_ci([a, b], n_resamples=500)
    plow, phigh = hierarchical_ci([np.r_[a, b]], n_resamples=500)
    assert low < 2.0 < high and high - low > 5 * (phigh - plow)
    assert plow < np.r_[a, b].mean() < phigh
    assert hierarchical_ci([a, b], [a, b], n_resamples=50) == (1.0, 1.0)
    with pytest.raises(ValueError, match="per seed"):
        hierarchical_ci([a], [b[:3]])
