"""Second pass: exact cases that kill the review's four mutants, the sigma2 handling, the intercept, the
user DVF protocol (GP and Laplace-logistic), relative gains, and bad input."""

import math

import numpy as np
import pytest
from scipy import optimize, special
from scipy.stats import norm

from icml26.common.experiment import comparison_key
from icml26.truthful_valuation import (
    EmpiricalBayesLinear,
    GaussianLinearModel,
    GaussianProcessLogScore,
    LaplaceLogisticLogScore,
    Mechanism,
    NaiveBayesModel,
    NormalInverseGammaModel,
    coalition_values,
    fit_linear_prior,
    manipulate,
    peer_prediction_scores,
    run_trials,
    synthetic_trial,
)
from icml26.truthful_valuation.experiment import _paired_relative, _record, _worst_coalition
from icml26.truthful_valuation.mechanism import DEFAULT_TAU2
from icml26.truthful_valuation.truthfulness import Evaluator, paired_difference


def _gaussian_data(rng, theta, m, sigma2):
    X = rng.standard_normal((m, len(theta)))
    return X, X @ theta + math.sqrt(sigma2) * rng.standard_normal(m)


# ---- the review's four mutants -----------------------------------------------------------------


def test_fabricated_labels_follow_the_sources_posterior_not_the_prior():
    """Mutant: fabricating from the prior. With 400 own points, the fabricated half's least-squares
    coefficients sit near the true theta (the posterior), not at a fresh prior draw."""
    rng = np.random.default_rng(0)
    theta = np.array([2.0, -1.5, 0.5])
    model = GaussianLinearModel(3, sigma2=0.1)
    data = _gaussian_data(rng, theta, 400, 0.1)
    for seed in range(5):
        X, y = manipulate(data, "fabricate", np.random.default_rng(seed), model=model)
        fitted = np.linalg.lstsq(X[400:], y[400:], rcond=None)[0]
        assert np.max(np.abs(fitted - theta)) < 0.15, fitted
    nb = NaiveBayesModel(4)
    pi, p = np.array([0.9, 0.1]), np.full((2, 4), 0.5)
    Xc, yc = nb.sample_data((pi, p), 500, rng)
    _, yf = manipulate((Xc, yc), "fabricate", np.random.default_rng(1), model=nb)
    assert abs(yf[500:].mean() - yc.mean()) < 0.06  # the own class share (~0.1), not a prior draw's


def test_worst_coalition_is_the_one_with_the_highest_upper_bound():
    """Mutant: min for max. Columns = coalitions with mean differences -5, -1, +2: the judged one is +2."""
    rng = np.random.default_rng(0)
    truthful = rng.standard_normal((50, 3))
    manipulated = truthful + np.array([-5.0, -1.0, 2.0]) + 0.01 * rng.standard_normal((50, 3))
    metrics: dict = {}
    _worst_coalition(metrics, "k", manipulated, truthful)
    expected = paired_difference(manipulated[:, 2], truthful[:, 2])
    assert metrics["k"] == pytest.approx(expected.mean) and metrics["k"] > 1.9
    assert metrics["k_ci"] == pytest.approx(2 * expected.se) and metrics["k_paid"] == 1.0


def test_peer_prediction_scores_the_other_sources_data_by_hand():
    """Mutant: scoring the source's own data. Two 1-D sources: s_0 is the log predictive of D_1 under
    the posterior of D_0, minus the prior's, computed here from the scalar formulas."""
    sigma2, tau2 = 0.5, 2.0
    model = GaussianLinearModel(1, sigma2=sigma2, tau2=tau2)
    x0, y0 = np.array([1.0, -2.0, 0.5]), np.array([0.7, -1.1, 0.4])
    x1, y1 = np.array([0.3, 1.5]), np.array([0.2, 1.0])
    precision = 1 / tau2 + x0 @ x0 / sigma2
    mean = (x0 @ y0 / sigma2) / precision
    posterior = norm.logpdf(y1, mean * x1, np.sqrt(sigma2 + x1**2 / precision))
    prior = norm.logpdf(y1, 0.0, np.sqrt(sigma2 + tau2 * x1**2))
    scores = peer_prediction_scores(model, [(x0[:, None], y0), (x1[:, None], y1)])
    assert scores[0] == pytest.approx(float(np.sum(posterior - prior)), rel=1e-10)
    assert scores[0] != pytest.approx(scores[1])


def test_validation_mse_dvf_by_hand_is_positive_for_informative_data():
    """Mutant: the MSE DVF's sign. v(C) = MSE(prior mean 0) - MSE(posterior mean), by hand in 1-D."""
    sigma2, tau2 = 0.25, 1.0
    model = GaussianLinearModel(1, sigma2=sigma2, tau2=tau2)
    x, y = np.array([1.0, 2.0, -1.0, 0.5]), np.array([2.1, 3.9, -2.2, 1.1])
    xv, yv = np.array([0.4, -1.5, 2.0]), np.array([0.9, -2.8, 4.1])
    slope = (x @ y / sigma2) / (1 / tau2 + x @ x / sigma2)
    expected = np.mean(yv**2) - np.mean((yv - slope * xv) ** 2)
    value = coalition_values(model, model.statistics(x[:, None], y), "validation_mse", (xv[:, None], yv))
    assert expected > 0 and float(value) == pytest.approx(expected, rel=1e-12)


# ---- sigma2: stated or estimated, and the trap ------------------------------------------------


def test_gaussian_model_refuses_an_unstated_sigma2_and_the_mechanism_estimates_it():
    with pytest.raises(ValueError, match="needs the noise variance stated.*empirical Bayes"):
        GaussianLinearModel(3)
    for bad in (0.0, -1.0, math.nan):
        with pytest.raises(ValueError, match="sigma2"):
            GaussianLinearModel(3, sigma2=bad)
    rng = np.random.default_rng(0)
    theta = rng.standard_normal(3)
    sources = [_gaussian_data(rng, theta, m, 0.25) for m in (10, 20)]
    validation = _gaussian_data(rng, theta, 50, 0.25)
    default = Mechanism().value(sources, validation)
    sigma2, tau2 = fit_linear_prior(*validation)
    explicit = Mechanism(GaussianLinearModel(3, sigma2=sigma2, tau2=tau2)).value(sources, validation)
    np.testing.assert_allclose(default.values, explicit.values, rtol=1e-12)
    assert default.model.sigma2 == sigma2 and default.model.tau2 == tau2
    assert 0.1 < sigma2 < 0.5  # the noise it estimates from 50 validation points of sigma2 = 0.25
    estimate = NormalInverseGammaModel(3, tau2=DEFAULT_TAU2).noise_estimate(
        sum(NormalInverseGammaModel(3).statistics(*s) for s in sources)
    )
    assert 0.1 < estimate < 0.5  # the fixed-prior NIG's noise estimate from 30 points


def test_wrong_sigma2_makes_duplication_pay_and_the_default_estimate_does_not():
    """The trap (fixed seed, 40 paired trials): data with sigma2 = 0.25, theta ~ N(0, I), valued at
    sigma2 = 1 reward duplication; so does NIG with a tight slope prior (tau2 = 1: a wrong common prior);
    the fixed-prior option (NIG, tau2 = 100), the empirical-Bayes default and the stated sigma2 penalise it."""
    truth = GaussianLinearModel(3, sigma2=0.25)
    evaluators = [
        Evaluator("wrong", GaussianLinearModel(3, sigma2=1.0), "log_score"),
        Evaluator("tight", NormalInverseGammaModel(3), "log_score"),
        Evaluator("nig", NormalInverseGammaModel(3, tau2=DEFAULT_TAU2), "log_score"),
        Evaluator("stated", truth, "log_score"),
        Evaluator("eb", EmpiricalBayesLinear(), "log_score"),
    ]
    out = run_trials(
        lambda rng: synthetic_trial(truth, [20, 40, 60], 150, rng),
        truth,
        evaluators,
        ("truthful", "duplicate"),
        ("shapley",),
        range(40),
        seed=3,
    )
    diff = {
        e.name: paired_difference(
            out[f"phi/{e.name}/shapley/duplicate"][:, 0], out[f"phi/{e.name}/shapley/truthful"][:, 0]
        )
        for e in evaluators
    }
    assert diff["wrong"].z > 3 and diff["wrong"].paid_share > 0.8
    assert diff["tight"].z > 2
    assert diff["nig"].z < -2 and diff["stated"].z < -2 and diff["eb"].z < -2


# ---- the intercept, sharpen, relative gains ---------------------------------------------------


@pytest.mark.parametrize("cls", [GaussianLinearModel, NormalInverseGammaModel])
def test_intercept_equals_a_column_of_ones(cls):
    kwargs = {"sigma2": 0.5} if cls is GaussianLinearModel else {}
    rng = np.random.default_rng(0)
    X, y = rng.standard_normal((15, 2)), 3.0 + rng.standard_normal(15)
    Xv, yv = rng.standard_normal((7, 2)), 3.0 + rng.standard_normal(7)
    ones = lambda A: np.hstack([np.ones((len(A), 1)), A])  # noqa: E731
    with_intercept, plain = cls(2, intercept=True, **kwargs), cls(3, **kwargs)
    np.testing.assert_allclose(with_intercept.statistics(X, y), plain.statistics(ones(X), y))
    stats = with_intercept.statistics(X, y)
    np.testing.assert_allclose(
        with_intercept.log_predictive(stats, Xv, yv), plain.log_predictive(stats, ones(Xv), yv), rtol=1e-12
    )
    # a shifted target is predicted far better with the intercept
    assert (
        with_intercept.log_predictive(stats, Xv, yv).sum()
        > cls(2, **kwargs).log_predictive(cls(2, **kwargs).statistics(X, y), Xv, yv).sum()
    )


def test_sharpen_appends_the_sources_own_point_predictions_without_noise():
    rng = np.random.default_rng(0)
    model = GaussianLinearModel(2, sigma2=1.0)
    data = _gaussian_data(rng, np.array([1.0, -1.0]), 12, 1.0)
    X, y = manipulate(data, "sharpen", np.random.default_rng(4), model=model)
    assert X.shape == (24, 2)
    np.testing.assert_array_equal(X[:12], data[0])
    np.testing.assert_allclose(y[12:], model.point_prediction(model.statistics(*data), X[12:]), rtol=1e-12)
    assert all(any(np.array_equal(row, r) for r in data[0]) for row in X[12:])  # resampled own covariates


def test_relative_gain_and_its_paired_interval_by_hand():
    metrics: dict = {}
    manipulated, truthful = np.array([1.0, 3.0, 2.0, 7.0]), np.array([2.0, 2.0, 4.0, 4.0])
    _record(metrics, [], "a_diff", manipulated, truthful)
    diff = manipulated - truthful
    assert metrics["a_rel"] == pytest.approx(diff.mean() / 3.0)
    assert metrics["a_rel_ci"] == pytest.approx(2 * diff.std(ddof=1) / 2 / 3.0)
    trials = {
        "phi/log/shapley/s": manipulated[:, None],
        "phi/log/shapley/truthful": truthful[:, None],
        "phi/mse/shapley/s": (2 * manipulated)[:, None],
        "phi/mse/shapley/truthful": -truthful[:, None],
    }
    _paired_relative(metrics, "x_rel", "y_rel", trials, "p", "mse", "shapley", "s")
    gap = diff / 3.0 - (2 * manipulated + truthful) / 3.0
    half = metrics[comparison_key("x_rel", "y_rel", "difference") + "_ci"]
    assert half == pytest.approx(2 * gap.std(ddof=1) / 2)


# ---- user DVFs ---------------------------------------------------------------------------------


def test_a_user_dvf_reimplementing_the_log_score_matches_the_builtin_one():
    model = NormalInverseGammaModel(2)
    rng = np.random.default_rng(1)
    sources, validation = synthetic_trial(model, [5, 9, 14], 30, rng)

    def dvf(coalition, V):
        stats = sum((model.statistics(X, y) for X, y in coalition), np.zeros(model.n_statistics))
        return float(coalition_values(model, stats, "log_score", V))

    builtin = Mechanism(model).value(sources, validation)
    custom = Mechanism(dvf=dvf).value(sources, validation)
    np.testing.assert_allclose(custom.values, builtin.values, rtol=1e-10)
    assert custom.coalition_value([2, 0]) == pytest.approx(builtin.coalition_value((0, 2)))


def _negative_log_posterior(w, Z, y, tau2):
    return -np.sum(y * special.log_expit(Z @ w) + (1 - y) * special.log_expit(-(Z @ w))) + w @ w / (2 * tau2)


def test_laplace_logistic_map_hessian_and_predictive():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((60, 2))
    y = (rng.random(60) < special.expit(X @ np.array([1.5, -2.0]) + 0.5)).astype(float)
    dvf = LaplaceLogisticLogScore(tau2=2.0)
    w, hessian = dvf.posterior(X, y)
    Z = np.hstack([np.ones((60, 1)), X])
    reference = optimize.minimize(
        _negative_log_posterior, np.zeros(3), args=(Z, y, 2.0), method="BFGS", tol=1e-12
    )
    np.testing.assert_allclose(w, reference.x, atol=1e-5)
    p = special.expit(Z @ w)
    np.testing.assert_allclose(hessian, Z.T @ (Z * (p * (1 - p))[:, None]) + np.eye(3) / 2.0, rtol=1e-10)
    Xv, yv = rng.standard_normal((5, 2)), np.array([1.0, 0.0, 1.0, 1.0, 0.0])
    Zv = np.hstack([np.ones((5, 1)), Xv])
    s2 = np.array([z @ np.linalg.solve(hessian, z) for z in Zv])
    p1 = special.expit((Zv @ w) / np.sqrt(1 + math.pi * s2 / 8))
    np.testing.assert_allclose(
        dvf.log_predictive(X, y, Xv, yv), np.where(yv == 1, np.log(p1), np.log(1 - p1)), rtol=1e-10
    )
    assert dvf([], (Xv, yv)) == 0.0


def test_laplace_logistic_dvf_penalises_label_flips_in_expectation():
    """Fixed seed, 60 paired trials of three sources: flipping 30% of source 0's labels lowers its Shapley
    value (duplication is not shown: -0.06 +- 0.12 over 200 trials, the Laplace posterior is approximate)."""
    dvf = LaplaceLogisticLogScore(tau2=1.0)
    mechanism = Mechanism(dvf=dvf)
    diffs = []
    for t in range(60):
        rng = np.random.default_rng([7, t])
        w = rng.standard_normal(3)

        def draw(m, rng=rng, w=w):
            X = rng.standard_normal((m, 2))
            return X, (rng.random(m) < special.expit(w[0] + X @ w[1:])).astype(float)

        sources, validation = [draw(m) for m in (10, 20, 30)], draw(100)
        truthful = mechanism.value(sources, validation).values[0]
        X0, y0 = sources[0]
        flipped = (X0, np.where(rng.random(len(y0)) < 0.3, 1 - y0, y0))
        diffs.append(mechanism.value([flipped, *sources[1:]], validation).values[0] - truthful)
    diffs = np.array(diffs)
    assert diffs.mean() + 2 * diffs.std(ddof=1) / math.sqrt(len(diffs)) < 0


def test_gp_dvf_with_one_training_point_by_hand():
    from sklearn.gaussian_process.kernels import RBF

    dvf = GaussianProcessLogScore(RBF(1.0), noise=0.1)
    x, y = np.array([[0.0]]), np.array([1.0])
    xv, yv = np.array([[0.5], [2.0]]), np.array([0.8, -0.1])
    k = np.exp(-0.5 * xv[:, 0] ** 2)
    mean, var = k * y[0] / 1.1, 1.0 - k**2 / 1.1
    expected = norm.logpdf(yv, mean, np.sqrt(var + 0.1)) - norm.logpdf(yv, 0.0, np.sqrt(1.1))
    assert dvf([(x, y)], (xv, yv)) == pytest.approx(float(expected.sum()), rel=1e-8)
    assert dvf([], (xv, yv)) == 0.0


# ---- bad input ---------------------------------------------------------------------------------


def test_second_pass_bad_input_gets_one_clear_error():
    rng = np.random.default_rng(0)
    model = GaussianLinearModel(2, sigma2=1.0)
    sources, validation = synthetic_trial(model, [4, 5], 10, rng)
    valuation = Mechanism(model).value(sources, validation)
    with pytest.raises(ValueError, match=r"integers in 0\.\.1"):
        valuation.coalition_value([0, 2])
    with pytest.raises(ValueError, match="must not repeat"):
        valuation.coalition_value([1, 1])
    with pytest.raises(TypeError, match="collection of source indices"):
        valuation.coalition_value("01")
    mismatched = [sources[0], (np.zeros((3, 3)), np.zeros(3))]
    with pytest.raises(ValueError, match="source 1: X has 3 features but the model has 2"):
        Mechanism(model).value(mismatched, validation)
    with pytest.raises(ValueError, match="same number of features"):
        Mechanism(dvf=GaussianProcessLogScore()).value(mismatched, validation)
    with pytest.raises(ValueError, match="non-empty validation set"):
        Mechanism().value(sources, (np.zeros((0, 2)), np.zeros(0)))
    with pytest.raises(ValueError, match="non-empty validation set"):
        Mechanism(dvf=LaplaceLogisticLogScore()).value(sources, None)
    with pytest.raises(ValueError, match="leave model=None"):
        Mechanism(model, dvf=GaussianProcessLogScore())
    with pytest.raises(TypeError, match="DVF name .* or a callable"):
        Mechanism(dvf=3)
    with pytest.raises(ValueError, match="binary labels"):
        LaplaceLogisticLogScore()([(np.zeros((2, 2)), np.array([0.0, 2.0]))], (np.zeros((1, 2)), np.ones(1)))
    with pytest.raises(TypeError, match="intercept must be True or False"):
        NormalInverseGammaModel(2, intercept=1)
    draw = lambda r: synthetic_trial(model, [3, 3], 5, r)  # noqa: E731
    with pytest.raises(ValueError, match=r"manipulator must be a source index in 0\.\.1"):
        run_trials(
            draw,
            model,
            [Evaluator("log", model, "log_score")],
            ("truthful",),
            ("shapley",),
            [0],
            0,
            manipulator=2,
        )
    with pytest.raises(ValueError, match="copy_from must name another source"):
        run_trials(
            draw,
            model,
            [Evaluator("log", model, "log_score")],
            ("truthful",),
            ("shapley",),
            [0],
            0,
            copy_from=0,
        )
