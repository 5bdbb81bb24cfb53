"""Empirical Bayes (the default prior): the marginal likelihood by hand, the fit, that only the validation
set moves it, scale-equivariance of the values and the verdict, duplication penalised at held-out noise
levels, and bad input."""

import math

import numpy as np
import pytest
from scipy.stats import multivariate_normal

from icml26.truthful_valuation import (
    EmpiricalBayesLinear,
    GaussianLinearModel,
    GaussianProcessLogScore,
    Mechanism,
    fit_linear_prior,
    fixed_prior,
    linear_log_marginal,
    paired_difference,
    run_trials,
    synthetic_trial,
)
from icml26.truthful_valuation.truthfulness import Evaluator


def _data(rng, theta, m, sigma2, shift=0.0):
    X = rng.standard_normal((m, len(theta)))
    return X, shift + X @ theta + math.sqrt(sigma2) * rng.standard_normal(m)


def test_log_marginal_and_its_gradient_by_hand():
    """Mutants: a wrong normaliser ((m - k) log sigma2, the residual), the gradient's sign or factor.
    The value equals scipy's N(0, sigma2 I + tau2 Z Z') density; the gradient equals central differences
    (also with m < k, where the residual term vanishes)."""
    rng = np.random.default_rng(0)
    for m, k in ((30, 3), (4, 6)):
        Z, y = rng.standard_normal((m, k)), rng.standard_normal(m)
        for sigma2, tau2 in ((0.3, 2.0), (5.0, 0.01)):
            value, gradient = linear_log_marginal(math.log(sigma2), math.log(tau2), Z, y)
            cov = sigma2 * np.eye(m) + tau2 * Z @ Z.T
            assert value == pytest.approx(multivariate_normal(np.zeros(m), cov).logpdf(y), rel=1e-10)
            h = 1e-6
            numeric = [
                (
                    linear_log_marginal(math.log(sigma2) + h * e0, math.log(tau2) + h * e1, Z, y)[0]
                    - linear_log_marginal(math.log(sigma2) - h * e0, math.log(tau2) - h * e1, Z, y)[0]
                )
                / (2 * h)
                for e0, e1 in ((1, 0), (0, 1))
            ]
            np.testing.assert_allclose(gradient, numeric, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("sigma2", [1e-4, 1e-2, 1.0, 100.0])
def test_fit_is_the_maximum_and_recovers_the_noise(sigma2):
    """Mutants: min for max (a profile sign), a wrong sigma2(rho) normaliser. At the fit the gradient
    vanishes, every nearby point has a lower marginal likelihood, and sigma2 is within 10% of the truth
    (2000 points)."""
    rng = np.random.default_rng(1)
    theta = rng.standard_normal(4)
    X, y = _data(rng, theta, 2000, sigma2)
    s2, t2 = fit_linear_prior(X, y)
    assert abs(s2 / sigma2 - 1) < 0.1, (s2, sigma2)
    best, gradient = linear_log_marginal(math.log(s2), math.log(t2), X, y)
    assert np.all(np.abs(gradient) < 1e-3 * (1 + abs(best)))
    for d0, d1 in ((0.05, 0), (-0.05, 0), (0, 0.05), (0, -0.05)):
        assert linear_log_marginal(math.log(s2) + d0, math.log(t2) + d1, X, y)[0] < best


def test_fit_matches_a_brute_force_maximum_on_a_small_set():
    """Mutant: a wrong normaliser in sigma2(rho) (m - 1 for m) or a dropped residual. On 9 points the fit
    equals Nelder-Mead on scipy's exact N(0, sigma2 I + tau2 Z Z') density to 1e-4."""
    from scipy import optimize

    rng = np.random.default_rng(6)
    for intercept in (False, True):
        X, y = _data(rng, np.array([0.8, -0.5]), 9, 0.3, shift=1.0 if intercept else 0.0)
        Z = np.hstack([np.ones((9, 1)), X]) if intercept else X

        def minus(p, Z=Z, y=y):
            cov = math.exp(p[0]) * np.eye(9) + math.exp(p[1]) * Z @ Z.T
            return -multivariate_normal(np.zeros(9), cov).logpdf(y)

        ref = optimize.minimize(
            minus, [0.0, 0.0], method="Nelder-Mead", options={"xatol": 1e-9, "fatol": 1e-12}
        )
        s2, t2 = fit_linear_prior(X, y, intercept=intercept)
        np.testing.assert_allclose([math.log(s2), math.log(t2)], ref.x, atol=1e-4)


def test_fit_with_intercept_uses_the_column_of_ones():
    """Mutant: the intercept ignored. y = 50 + x.theta + noise: with the intercept the noise is found
    (~0.01); without it the mean 50 is absorbed as noise or slope variance, not both small."""
    rng = np.random.default_rng(2)
    X, y = _data(rng, np.array([1.0, -1.0]), 500, 0.01, shift=50.0)
    s2, _ = fit_linear_prior(X, y, intercept=True)
    assert 0.008 < s2 < 0.012
    assert fit_linear_prior(X, y)[0] > 100


def test_default_prior_is_fitted_on_the_validation_set_only():
    """Mutant: the prior fitted on the submissions (training) instead of V. The default's model has
    exactly fit_linear_prior(V)'s hyperparameters, and a source duplicating its data leaves them unchanged."""
    rng = np.random.default_rng(3)
    theta = rng.standard_normal(3)
    sources = [_data(rng, theta, m, 0.04) for m in (10, 20, 30)]
    validation = _data(rng, theta, 80, 0.04)
    out = Mechanism().value(sources, validation)
    assert (out.model.sigma2, out.model.tau2) == fit_linear_prior(*validation)
    doubled = [(np.vstack([sources[0][0]] * 2), np.tile(sources[0][1], 2)), *sources[1:]]
    again = Mechanism().value(doubled, validation)
    assert (again.model.sigma2, again.model.tau2) == (out.model.sigma2, out.model.tau2)
    with_intercept = Mechanism(EmpiricalBayesLinear(intercept=True)).value(sources, validation)
    assert (
        with_intercept.model.intercept
        and with_intercept.model.sigma2 == fit_linear_prior(*validation, intercept=True)[0]
    )


@pytest.mark.parametrize("c", [1e-3, 0.1, 10.0, 1e3])
def test_values_are_invariant_to_the_scale_of_y(c):
    """Scale-equivariance: y -> c y (sources and V) leaves every empirical-Bayes value unchanged (the fit
    scales sigma2 and tau2 by c^2); the fixed prior's values move (its prior is in y's units)."""
    rng = np.random.default_rng(4)
    theta = rng.standard_normal(3)
    sources = [_data(rng, theta, m, 0.1) for m in (10, 20, 30)]
    validation = _data(rng, theta, 100, 0.1)

    def scaled(data):
        return data[0], c * data[1]

    base = Mechanism().value(sources, validation)
    moved = Mechanism().value([scaled(s) for s in sources], scaled(validation))
    np.testing.assert_allclose(moved.values, base.values, rtol=1e-5)
    np.testing.assert_allclose(moved.table, base.table, rtol=1e-5, atol=1e-8)
    assert moved.model.sigma2 == pytest.approx(c * c * base.model.sigma2, rel=1e-5)
    fixed = Mechanism(fixed_prior(3))
    assert not np.allclose(
        fixed.value([scaled(s) for s in sources], scaled(validation)).values,
        fixed.value(sources, validation).values,
        rtol=1e-2,
    )


def test_gp_noise_fitted_on_the_validation_set_and_scale_invariant():
    """The GP DVF's default: noise fitted on V (near the truth 0.05 in y's units), the same value under
    y -> 10 y, while a fixed noise of 0.1 gives another value at the two scales."""
    rng = np.random.default_rng(5)

    def draw(m):
        X = rng.uniform(-2, 2, (m, 1))
        return X, np.sin(2 * X[:, 0]) + math.sqrt(0.05) * rng.standard_normal(m)

    coalition, validation = [draw(15), draw(10)], draw(60)
    dvf = GaussianProcessLogScore()
    kernel, noise, s = dvf.prior(validation)
    assert 0.02 < noise * s * s < 0.1
    value = dvf(coalition, validation)
    big = GaussianProcessLogScore()([(X, 10 * y) for X, y in coalition], (validation[0], 10 * validation[1]))
    assert big == pytest.approx(value, rel=1e-4)
    fixed = GaussianProcessLogScore(noise=0.1)
    fixed_big = fixed([(X, 10 * y) for X, y in coalition], (validation[0], 10 * validation[1]))
    assert abs(fixed_big - fixed(coalition, validation)) > 1.0


def test_gp_values_use_the_prior_fitted_on_the_validation_set():
    """Mutant: the GP hyperparameters fitted on the coalition's data. The DVF equals the log score computed
    here by scikit-learn with the kernel and noise of dvf.prior(V), whatever the coalition."""
    from scipy.stats import norm
    from sklearn.gaussian_process import GaussianProcessRegressor

    rng = np.random.default_rng(9)

    def draw(m, noise):
        X = rng.uniform(-2, 2, (m, 1))
        return X, np.cos(X[:, 0]) + math.sqrt(noise) * rng.standard_normal(m)

    validation = draw(40, 0.02)
    dvf = GaussianProcessLogScore()
    kernel, noise, s = dvf.prior(validation)
    for coalition in ([draw(12, 0.02)], [draw(12, 1.0), draw(5, 1.0)]):  # the second far noisier than V
        X = np.concatenate([c[0] for c in coalition])
        y = np.concatenate([c[1] for c in coalition]) / s
        gp = GaussianProcessRegressor(kernel, alpha=noise, optimizer=None).fit(X, y)
        mean, std = gp.predict(validation[0], return_std=True)
        yv = validation[1] / s
        expected = np.sum(
            norm.logpdf(yv, mean, np.sqrt(std**2 + noise))
            - norm.logpdf(yv, 0.0, np.sqrt(kernel.diag(validation[0]) + noise))
        )
        assert dvf(coalition, validation) == pytest.approx(expected, rel=1e-9)


def _trials(truth, evaluators, trials, seed, y_scale=1.0):
    def draw(rng):
        sources, (Xv, yv) = synthetic_trial(truth, [20, 40, 60], 150, rng)
        return [(X, y_scale * y) for X, y in sources], (Xv, y_scale * yv)

    source_model = GaussianLinearModel(
        truth.n_features, sigma2=truth.sigma2 * y_scale**2, tau2=truth.tau2 * y_scale**2
    )
    return run_trials(
        draw,
        source_model,
        evaluators,
        ("truthful", "duplicate"),
        ("shapley",),
        range(trials),
        seed,
        peer=False,
    )


def _dup(out, name):
    return paired_difference(
        out[f"phi/{name}/shapley/duplicate"][:, 0], out[f"phi/{name}/shapley/truthful"][:, 0]
    )


def test_scaling_y_leaves_the_truthfulness_verdict_unchanged():
    """30 paired trials at sigma2 = 1 and the same draws with y scaled by 0.1: the empirical-Bayes
    paired differences are equal (so is the verdict); the fixed NIG prior's differ."""
    truth = GaussianLinearModel(2, sigma2=1.0)
    evaluators = [
        Evaluator("eb", EmpiricalBayesLinear(), "log_score"),
        Evaluator("fixed", fixed_prior(2), "log_score"),
    ]
    base, small = _trials(truth, evaluators, 30, 7), _trials(truth, evaluators, 30, 7, y_scale=0.1)
    a, b = _dup(base, "eb"), _dup(small, "eb")
    assert a.mean == pytest.approx(b.mean, rel=1e-5) and a.z == pytest.approx(b.z, rel=1e-5)
    assert (a.mean < 0 and a.z < -2) == (b.mean < 0 and b.z < -2)
    assert abs(_dup(base, "fixed").mean - _dup(small, "fixed").mean) > 0.1


@pytest.mark.parametrize("sigma2", [1e-4, 1e-2, 1.0, 100.0])
def test_duplication_does_not_pay_at_held_out_noise_levels(sigma2):
    """Held-out sigma2 (none was used to choose anything): 60 paired trials, theta ~ N(0, I), d = 2.
    Under the empirical-Bayes default duplication lowers source 1's expected Shapley value (mean < 0;
    z < -2 where the signal is not buried in noise, sigma2 <= 1); the fixed NIG prior pays at 1e-4, 1e-2."""
    truth = GaussianLinearModel(2, sigma2=sigma2)
    evaluators = [
        Evaluator("eb", EmpiricalBayesLinear(), "log_score"),
        Evaluator("fixed", fixed_prior(2), "log_score"),
    ]
    out = _trials(truth, evaluators, 60, 11)
    eb = _dup(out, "eb")
    assert eb.mean < 0, eb
    if sigma2 <= 1:
        assert eb.z < -2, eb
    if sigma2 <= 1e-2:
        assert _dup(out, "fixed").z > 2


def test_bad_input_names_what_is_wrong():
    rng = np.random.default_rng(8)
    theta = rng.standard_normal(3)
    sources = [_data(rng, theta, m, 0.1) for m in (5, 6)]
    validation = _data(rng, theta, 20, 0.1)
    wide = (rng.standard_normal((4, 4)), rng.standard_normal(4))
    with pytest.raises(ValueError, match="source 1: X has 4 features but the model has 3"):
        Mechanism().value([sources[0], wide], validation)
    with pytest.raises(ValueError, match="validation: X has 4 features"):
        Mechanism().value(sources, wide)
    with pytest.raises(ValueError, match="non-empty validation set"):
        Mechanism().value(sources, (np.empty((0, 3)), np.empty(0)))
    with pytest.raises(ValueError, match="fitted on it"):
        Mechanism(dvf="dataset_size").value(sources, None)
    with pytest.raises(ValueError, match="all zeros"):
        Mechanism().value(sources, (validation[0], np.zeros(20)))
    with pytest.raises(ValueError, match=">= 2 points"):
        fit_linear_prior(validation[0][:1], validation[1][:1])
    with pytest.raises(ValueError, match="peer_prediction.*fixed-prior"):
        Mechanism(dvf="peer_prediction")
    with pytest.raises(TypeError, match="intercept must be True or False"):
        EmpiricalBayesLinear(intercept="yes")
    for bad in (0.0, -1.0):
        with pytest.raises(ValueError, match="sigma2"):
            GaussianLinearModel(3, sigma2=bad)
        with pytest.raises(ValueError, match="noise"):
            GaussianProcessLogScore(noise=bad)
    with pytest.raises(ValueError, match="'empirical_bayes' or a variance"):
        GaussianProcessLogScore(noise="auto")
    with pytest.raises(TypeError, match="EmpiricalBayesLinear"):
        Mechanism(model="empirical_bayes")
    out = Mechanism().value(sources, validation)
    with pytest.raises(ValueError, match=r"integers in 0\.\.1"):
        out.coalition_value([0, 2])
