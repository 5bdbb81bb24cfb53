"""Correctness of the models, DVFs, semivalues and fairness checks: exact small cases and invariants."""

import math

import numpy as np
import pytest
from scipy import stats

from icml26.truthful_valuation import (
    GaussianLinearModel,
    Mechanism,
    NaiveBayesModel,
    NormalInverseGammaModel,
    Semivalue,
    efficiency_gap,
    equal_split,
    exact_semivalues,
    fixed_order_contributions,
    game_table,
    monte_carlo_semivalues,
    null_player_gap,
    refit_game_table,
    symmetric_pairs,
    symmetry_gap,
    synthetic_trial,
    weight_total,
)
from icml26.truthful_valuation.valuation import coalition_values


def regression_data(rng, m=30, d=3):
    X = rng.standard_normal((m, d))
    return X, X @ np.array([1.0, -0.5, 2.0])[:d] + rng.standard_normal(m)


# ---- models ---------------------------------------------------------------------------------------


def test_gaussian_log_predictive_matches_scipy_norm_logpdf():
    rng = np.random.default_rng(0)
    model = GaussianLinearModel(3, sigma2=0.7, tau2=2.0)
    X, y = regression_data(rng)
    Xv, yv = regression_data(rng, 10)
    A = np.eye(3) / 2.0 + X.T @ X / 0.7
    mean = np.linalg.solve(A, X.T @ y / 0.7)
    var = 0.7 + np.einsum("md,dk,mk->m", Xv, np.linalg.inv(A), Xv)
    expected = stats.norm.logpdf(yv, loc=Xv @ mean, scale=np.sqrt(var))
    np.testing.assert_allclose(model.log_predictive(model.statistics(X, y), Xv, yv), expected, rtol=1e-10)


def test_nig_log_predictive_matches_scipy_student_t():
    rng = np.random.default_rng(1)
    model = NormalInverseGammaModel(3, a0=2.0, b0=1.5, tau2=1.0)
    X, y = regression_data(rng)
    Xv, yv = regression_data(rng, 8)
    L = np.eye(3) + X.T @ X
    mu = np.linalg.solve(L, X.T @ y)
    a_n, b_n = 2.0 + len(y) / 2, 1.5 + 0.5 * (y @ y - mu @ L @ mu)
    scale = np.sqrt(b_n / a_n * (1 + np.einsum("md,dk,mk->m", Xv, np.linalg.inv(L), Xv)))
    expected = stats.t.logpdf(yv, df=2 * a_n, loc=Xv @ mu, scale=scale)
    np.testing.assert_allclose(model.log_predictive(model.statistics(X, y), Xv, yv), expected, rtol=1e-10)


def test_naive_bayes_predictive_is_a_distribution_and_matches_hand_count():
    model = NaiveBayesModel(2, n_classes=2, alpha=1.0, beta=1.0)
    X = np.array([[1, 0], [1, 1], [0, 0]], dtype=float)
    y = np.array([1, 1, 0])
    s = model.statistics(X, y)
    x = np.array([[1.0, 0.0]])
    # class 1: prior (1+2)/(2+3), p(x1=1)=(1+2)/(2+2), p(x2=0)=(1+1)/(2+2); class 0: (1+1)/5, 1/3, 2/3
    p1, p0 = 3 / 5 * 3 / 4 * 2 / 4, 2 / 5 * 1 / 3 * 2 / 3
    got = np.exp(model.log_predictive(s, np.vstack([x, x]), np.array([1, 0])))
    np.testing.assert_allclose(got, [p1 / (p1 + p0), p0 / (p1 + p0)], rtol=1e-12)
    assert got.sum() == pytest.approx(1.0)


@pytest.mark.parametrize(
    "model",
    [GaussianLinearModel(3, sigma2=1.0), NormalInverseGammaModel(3), NaiveBayesModel(3, n_classes=3)],
    ids=repr,
)
def test_cached_statistics_equal_refitting_and_are_order_invariant(model):
    rng = np.random.default_rng(2)
    parts = [model.sample_data(model.sample_parameter(rng), m, rng) for m in (5, 9, 14)]
    Xv, yv = model.sample_data(model.sample_parameter(rng), 20, rng)
    summed = sum(model.statistics(X, y) for X, y in parts)
    X = np.concatenate([p[0] for p in parts])
    y = np.concatenate([p[1] for p in parts])
    np.testing.assert_allclose(summed, model.statistics(X, y), rtol=1e-12, atol=1e-12)
    order = rng.permutation(len(y))
    np.testing.assert_allclose(
        model.log_predictive(model.statistics(X[order], y[order]), Xv, yv),
        model.log_predictive(summed, Xv, yv),
        rtol=1e-10,
    )


def test_batched_statistics_give_the_same_values_as_one_at_a_time():
    rng = np.random.default_rng(3)
    model = GaussianLinearModel(4, sigma2=1.0)
    sources, validation = synthetic_trial(model, [6, 7, 8], 15, rng)
    stats_ = np.stack([model.statistics(X, y) for X, y in sources])
    table = game_table(model, stats_, "log_score", validation)
    np.testing.assert_allclose(
        table, refit_game_table(model, sources, "log_score", validation), rtol=1e-9, atol=1e-9
    )


def test_dvfs_are_zero_on_the_empty_coalition_and_information_gain_ignores_labels():
    rng = np.random.default_rng(4)
    model = GaussianLinearModel(3, sigma2=1.0)
    X, y = regression_data(rng)
    validation = regression_data(rng, 10)
    empty = np.zeros(model.n_statistics)
    for dvf in ("log_score", "information_gain", "validation_mse", "dataset_size"):
        assert coalition_values(model, empty, dvf, validation) == pytest.approx(0.0, abs=1e-12)
    ig = coalition_values(model, model.statistics(X, y), "information_gain")
    assert ig == pytest.approx(coalition_values(model, model.statistics(X, -y), "information_gain"))
    assert ig == pytest.approx(0.5 * np.linalg.slogdet(np.eye(3) + X.T @ X)[1])


# ---- semivalues -----------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["shapley", "banzhaf", "beta(4,1)", "beta(0.5,2)", "beta(16,1)"])
@pytest.mark.parametrize("n", [1, 2, 5, 10])
def test_semivalue_weights_sum_to_one(spec, n):
    assert weight_total(Semivalue.parse(spec).weights(n)) == pytest.approx(1.0, rel=1e-12)


def test_shapley_weights_and_beta_one_one_are_shapley():
    n = 5
    expected = [math.factorial(c) * math.factorial(n - c - 1) / math.factorial(n) for c in range(n)]
    np.testing.assert_allclose(Semivalue("shapley").weights(n), expected, rtol=1e-12)
    np.testing.assert_allclose(Semivalue.parse("beta(1,1)").weights(n), expected, rtol=1e-12)
    w = Semivalue.parse("beta(4,1)").weights(n)
    mass = [math.comb(n - 1, c) * w[c] for c in range(n)]
    assert np.all(np.diff(mass) < 0)  # Kwon & Zou: Beta(4,1) puts more mass on small coalitions


def test_exact_semivalues_of_a_small_game_by_hand():
    # v({0}) = 1, v({1}) = 2, v({0,1}) = 4: Shapley (1.5, 2.5), Banzhaf (1.5, 2.5) for 2 players
    table = np.array([0.0, 1.0, 2.0, 4.0])
    np.testing.assert_allclose(exact_semivalues(table, "shapley"), [1.5, 2.5])
    # glove game with 3 players: v = 1 iff player 0 and someone else; Shapley (2/3, 1/6, 1/6)
    glove = np.array([1.0 if (m & 1) and (m & 6) else 0.0 for m in range(8)])
    np.testing.assert_allclose(exact_semivalues(glove, "shapley"), [2 / 3, 1 / 6, 1 / 6])
    np.testing.assert_allclose(exact_semivalues(glove, "banzhaf"), [3 / 4, 1 / 4, 1 / 4])


def test_axioms_hold_on_a_game_with_twins_and_a_null_player_and_break_for_the_controls():
    rng = np.random.default_rng(5)
    model = GaussianLinearModel(3, sigma2=1.0)
    (a, b), validation = synthetic_trial(model, [10, 12], 30, rng)
    empty = (np.empty((0, 3)), np.empty(0))
    sources = [a, a, empty, b]
    table = game_table(model, np.stack([model.statistics(*s) for s in sources]), "log_score", validation)
    assert (0, 1) in symmetric_pairs(table)
    for spec in ("shapley", "banzhaf", "beta(4,1)"):
        phi = exact_semivalues(table, spec)
        assert symmetry_gap(phi, table) <= 1e-9
        assert null_player_gap(phi, table) == 0.0
        assert phi[2] == 0.0
    assert efficiency_gap(exact_semivalues(table, "shapley"), table) <= 1e-9
    assert efficiency_gap(exact_semivalues(table, "banzhaf"), table) > 1e-3
    assert symmetry_gap(fixed_order_contributions(table), table) > 1e-3
    assert null_player_gap(equal_split(table), table) > 1e-3


@pytest.mark.parametrize("spec", ["shapley", "banzhaf", "beta(4,1)"])
def test_monte_carlo_agrees_with_exact_within_three_standard_errors(spec):
    rng = np.random.default_rng(6)
    model = GaussianLinearModel(3, sigma2=1.0)
    sources, validation = synthetic_trial(model, [5, 10, 15, 20, 25, 30], 40, rng)
    table = game_table(model, np.stack([model.statistics(*s) for s in sources]), "log_score", validation)
    exact = exact_semivalues(table, spec)
    estimate, se = monte_carlo_semivalues(lambda m: float(table[m]), 6, spec, 400, np.random.default_rng(7))
    assert np.all(se > 0)
    assert np.all(np.abs(estimate - exact) <= 3 * se), (estimate, exact, se)


def test_mechanism_exact_and_monte_carlo_on_the_same_sources():
    rng = np.random.default_rng(8)
    model = GaussianLinearModel(3, sigma2=1.0)
    sources, validation = synthetic_trial(model, [8, 16, 24], 50, rng)
    exact = Mechanism(model).value(sources, validation)
    assert len(exact.coalitions) == 8 and exact.coalitions[()] == 0.0
    assert exact.values.sum() == pytest.approx(exact.grand_value, rel=1e-12)
    np.testing.assert_array_equal(exact.rewards, exact.values)
    mc = Mechanism(model, method="monte_carlo", n_samples=5000, seed=1).value(sources, validation)
    assert np.all(np.abs(mc.values - exact.values) <= 3 * mc.standard_errors + 1e-9)
