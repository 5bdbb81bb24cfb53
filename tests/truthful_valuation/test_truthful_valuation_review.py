"""Review additions: independent exact cases, the no-leakage structure of the game, and bad input."""

import numpy as np
import pytest
from scipy import stats
from sklearn.naive_bayes import BernoulliNB

from icml26.truthful_valuation import (
    GaussianLinearModel,
    Mechanism,
    NaiveBayesModel,
    NormalInverseGammaModel,
    budgeted_rewards,
    exact_semivalues,
    game_table,
    manipulate,
    monte_carlo_semivalues,
    real_trial,
    synthetic_trial,
)


def test_nig_prior_predictive_is_the_student_t_of_the_prior():
    """With no data the NIG predictive is t_{2 a0}(0, (b0 / a0)(1 + tau2 |x|^2)), computed by hand."""
    model = NormalInverseGammaModel(2, a0=3.0, b0=2.0, tau2=0.5)
    X = np.array([[1.0, 2.0], [0.0, -1.0]])
    y = np.array([0.3, -2.0])
    scale = np.sqrt(2.0 / 3.0 * (1 + 0.5 * (X**2).sum(1)))
    expected = stats.t.logpdf(y, df=6.0, loc=0.0, scale=scale)
    np.testing.assert_allclose(model.log_predictive(np.zeros(model.n_statistics), X, y), expected, rtol=1e-12)


def test_naive_bayes_feature_posterior_means_match_sklearn_bernoulli_nb():
    """sklearn's BernoulliNB(alpha=beta) smooths p(x_j = 1 | k) as the Beta(beta, beta) posterior mean does."""
    rng = np.random.default_rng(0)
    model = NaiveBayesModel(6, n_classes=3, beta=0.7)
    X, y = model.sample_data(model.sample_parameter(rng), 200, rng)
    sk = BernoulliNB(alpha=0.7, force_alpha=True).fit(X, y)
    stats_ = model.statistics(X, y)
    counts, ones = stats_[:3], stats_[3:].reshape(3, 6)
    np.testing.assert_allclose(
        np.log((0.7 + ones) / (1.4 + counts[:, None])), sk.feature_log_prob_, rtol=1e-12
    )


@pytest.mark.parametrize("strategy", ["duplicate", "label_noise", "fabricate", "copy"])
def test_coalitions_without_the_manipulator_do_not_depend_on_its_submission(strategy):
    """v(C) for C without source 0 is bit-identical whatever source 0 submits (the game's structure)."""
    rng = np.random.default_rng(1)
    model = GaussianLinearModel(3, sigma2=1.0)
    sources, validation = synthetic_trial(model, [10, 20, 30], 50, rng)
    submitted = [manipulate(sources[0], strategy, rng, model=model, other=sources[1]), *sources[1:]]

    def table(s):
        return game_table(model, np.stack([model.statistics(*d) for d in s]), "log_score", validation)

    truthful, manipulated = table(sources), table(submitted)
    without = np.arange(8)[np.arange(8) % 2 == 0]
    np.testing.assert_array_equal(truthful[without], manipulated[without])
    assert not np.allclose(truthful[1::2], manipulated[1::2])


def test_review_bad_input_gets_clear_errors():
    model = GaussianLinearModel(3, sigma2=1.0)
    sources, validation = synthetic_trial(model, [5, 6], 10, np.random.default_rng(2))
    with pytest.raises(ValueError, match="budget rule must be one of scale, cap"):
        budgeted_rewards(np.ones(3), 1.0, "spread")
    with pytest.raises(ValueError, match="budget must be None or a finite number > 0"):
        budgeted_rewards(np.ones(3), -1.0)
    with pytest.raises(ValueError, match="finite numbers"):
        budgeted_rewards(np.array([1.0, np.nan]), 1.0)
    with pytest.raises(ValueError, match="finite coalition values"):
        exact_semivalues(np.array([0.0, 1.0, np.nan, 2.0]))
    with pytest.raises(TypeError, match="callable"):
        monte_carlo_semivalues([0.0, 1.0], 1, "shapley", 5, np.random.default_rng(0))
    with pytest.raises(ValueError, match="semivalue and method do not apply"):
        Mechanism(model, dvf="peer_prediction", semivalue="banzhaf")
    with pytest.raises(ValueError, match="pass validation=None"):
        Mechanism(model, dvf="peer_prediction").value(sources, validation)
    with pytest.raises(ValueError, match="seed must be an integer >= 0"):
        Mechanism(model, seed=-1)
    with pytest.raises(ValueError, match="sizes must be integers >= 0"):
        synthetic_trial(model, [5, -1], 10, np.random.default_rng(0))
    with pytest.raises(ValueError, match="n_validation must be an integer >= 1"):
        real_trial(sources[0], [1], 0, np.random.default_rng(0))
