"""Mechanism, manipulations, relaxations, the paired harness and bad input."""

import numpy as np
import pytest

from icml26.truthful_valuation import (
    STRATEGIES,
    Evaluator,
    GaussianLinearModel,
    Mechanism,
    NaiveBayesModel,
    NormalInverseGammaModel,
    Semivalue,
    budgeted_rewards,
    load_real,
    manipulate,
    paired_difference,
    peer_prediction_scores,
    real_trial,
    run_trials,
    synthetic_trial,
)


@pytest.fixture
def gaussian_trial():
    model = GaussianLinearModel(3, sigma2=1.0)
    sources, validation = synthetic_trial(model, [10, 20, 30], 40, np.random.default_rng(0))
    return model, sources, validation


def test_truthful_sources_with_identical_data_get_equal_values_and_empty_gets_zero(gaussian_trial):
    model, sources, validation = gaussian_trial
    empty = (np.empty((0, 3)), np.empty(0))
    for dvf in ("log_score", "information_gain", "validation_mse", "dataset_size"):
        for sv in ("shapley", "banzhaf", "beta(4,1)"):
            out = Mechanism(model, dvf, sv).value([sources[0], sources[0], empty, sources[1]], validation)
            assert out.values[0] == pytest.approx(out.values[1], rel=1e-12, abs=1e-12)
            assert out.values[2] == 0.0


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_manipulations_shapes_and_inputs_untouched(strategy, gaussian_trial):
    model, sources, _ = gaussian_trial
    X, y = sources[0]
    before = X.copy(), y.copy()
    Xm, ym = manipulate(sources[0], strategy, np.random.default_rng(1), model=model, other=sources[1])
    expected = {"duplicate": 20, "fabricate": 20, "sharpen": 20, "withhold": 5, "copy": 30}.get(strategy, 10)
    assert Xm.shape == (expected, 3) and ym.shape == (expected,)
    np.testing.assert_array_equal(X, before[0])
    np.testing.assert_array_equal(y, before[1])
    if strategy == "truthful":
        np.testing.assert_array_equal(ym, y)
    if strategy == "duplicate":
        np.testing.assert_array_equal(Xm[10:], X)


def test_naive_bayes_manipulations_stay_binary_and_in_range():
    model = NaiveBayesModel(4, n_classes=3)
    rng = np.random.default_rng(2)
    data = model.sample_data(model.sample_parameter(rng), 50, rng)
    for strategy in ("label_noise", "feature_noise", "fabricate"):
        X, y = manipulate(data, strategy, rng, model=model, strength=0.5)
        model.check_data((X, y))  # raises if not binary / labels out of range
    X, y = manipulate(data, "label_noise", np.random.default_rng(3), model=model, strength=1.0)
    assert np.all(y != data[1])  # strength 1: every label moved to another class


def test_same_seed_gives_identical_trials_and_chunks_do_not_matter():
    model = GaussianLinearModel(3, sigma2=1.0)
    evaluators = [Evaluator("log", model, "log_score"), Evaluator("ig", model, "information_gain")]

    def draw(rng):
        return synthetic_trial(model, [5, 10, 15], 30, rng)

    args = (draw, model, evaluators, ("truthful", "duplicate", "fabricate"), ("shapley", "banzhaf"))
    first = run_trials(*args, range(4), seed=11)
    again = run_trials(*args, range(4), seed=11)
    halves = [run_trials(*args, range(0, 2), seed=11), run_trials(*args, range(2, 4), seed=11)]
    other = run_trials(*args, range(4), seed=12)
    for key, value in first.items():
        np.testing.assert_array_equal(value, again[key])
        np.testing.assert_array_equal(value, np.concatenate([h[key] for h in halves]))
    assert not np.array_equal(first["phi/log/shapley/truthful"], other["phi/log/shapley/truthful"])
    # the other sources' coalitions are untouched by source 0's strategy: v(C) for C without 0 is shared
    assert first["coal/log/duplicate"].shape == (4, 4)


def test_paired_trials_reproduce_the_notes_duplication_penalty_and_ig_reward():
    """Fixed seed, 150 trials, d = 5, n = 20/40/60/80, |V| = 200 (the notes' prototype: -0.70 +- 0.12)."""
    model = GaussianLinearModel(5, sigma2=1.0)
    evaluators = [Evaluator("log", model, "log_score"), Evaluator("ig", model, "information_gain")]

    def draw(rng):
        return synthetic_trial(model, [20, 40, 60, 80], 200, rng)

    r = run_trials(
        draw, model, evaluators, ("truthful", "duplicate"), ("shapley",), range(150), seed=0, peer=False
    )
    log = paired_difference(r["phi/log/shapley/duplicate"][:, 0], r["phi/log/shapley/truthful"][:, 0])
    ig = paired_difference(r["phi/ig/shapley/duplicate"][:, 0], r["phi/ig/shapley/truthful"][:, 0])
    assert -1.6 < log.mean < -0.2 and log.z < -2
    assert ig.mean > 0 and ig.paid_share == 1.0  # IG(2 X'X) > IG(X'X) in every trial
    assert 0.1 < log.paid_share < 0.7  # truthfulness in expectation only


def test_budget_rules_and_peer_prediction(gaussian_trial):
    model, sources, validation = gaussian_trial
    values = np.array([3.0, 1.0, -1.0])
    np.testing.assert_allclose(budgeted_rewards(values, 1.5, "scale"), values * 0.5)
    np.testing.assert_allclose(budgeted_rewards(values, 6.0, "cap"), [2.0, 1.0, -1.0])
    np.testing.assert_allclose(budgeted_rewards(values, 100.0, "scale"), values)
    out = Mechanism(model, budget=1.0).value(sources, validation)
    assert out.rewards.sum() == pytest.approx(1.0)
    scores = peer_prediction_scores(model, sources)
    peer = Mechanism(model, dvf="peer_prediction").value(sources)
    np.testing.assert_allclose(peer.values, scores)
    assert peer.coalitions == {}


def test_real_datasets_load_offline_with_expected_shapes():
    shapes = {"diabetes": (442, 10), "breast_cancer": (569, 30), "compas": (7206, 14)}
    for name, shape in shapes.items():
        X, y = load_real(name)
        assert X.shape == shape and len(y) == shape[0] and np.isfinite(X).all()
    X, y = load_real("compas")
    assert set(np.unique(X)) == {0.0, 1.0} and set(np.unique(y)) == {0, 1}
    sources, (Xv, yv) = real_trial(load_real("breast_cancer"), [20, 40], 100, np.random.default_rng(0))
    NaiveBayesModel(30).check_data((Xv, yv))
    assert [len(s[1]) for s in sources] == [20, 40] and len(yv) == 100


# ---- bad input --------------------------------------------------------------------------------------


def test_bad_input_gets_clear_errors(gaussian_trial):
    model, sources, validation = gaussian_trial
    empty_v = (np.empty((0, 3)), np.empty(0))
    with pytest.raises(ValueError, match="non-empty validation set"):
        Mechanism(model).value(sources, empty_v)
    with pytest.raises(ValueError, match="needs a validation set"):
        Mechanism(model).value(sources, None)
    Mechanism(model, dvf="information_gain").value(sources, None)  # IG needs no validation set
    wide = (np.zeros((4, 5)), np.zeros(4))
    with pytest.raises(ValueError, match="source 1: X has 5 features but the model has 3"):
        Mechanism(model).value([sources[0], wide], validation)
    many = [sources[0]] * 11
    with pytest.raises(ValueError, match="method='monte_carlo'"):
        Mechanism(model).value(many, validation)
    with pytest.raises(ValueError, match="alpha must be a finite number > 0"):
        Semivalue("beta", -1.0, 1.0)
    with pytest.raises(ValueError, match="beta must be a finite number > 0"):
        Semivalue.parse("beta(4,0)")
    with pytest.raises(ValueError, match="not one of 'shapley'"):
        Semivalue.parse("owen")
    bad = (sources[0][0].copy(), sources[0][1].copy())
    bad[0][0, 0] = np.nan
    with pytest.raises(ValueError, match="finite"):
        Mechanism(model).value([bad, sources[1]], validation)
    with pytest.raises(ValueError, match="finite"):
        Mechanism(model).value(sources, (validation[0], np.full(len(validation[1]), np.inf)))
    with pytest.raises(ValueError, match="dvf 'accuracy' is not one of"):
        Mechanism(model, dvf="accuracy")
    with pytest.raises(ValueError, match="regression model"):
        Mechanism(NaiveBayesModel(3), dvf="validation_mse")
    with pytest.raises(ValueError, match="linear-regression models only"):
        Mechanism(NaiveBayesModel(3), dvf="information_gain")
    with pytest.raises(ValueError, match="budget must be None or a finite number > 0"):
        Mechanism(model, budget=-1)
    with pytest.raises(TypeError, match="list of \\(X, y\\) datasets"):
        Mechanism(model).value(sources[0], validation)
    with pytest.raises(ValueError, match="strategy 'lie' is not one of"):
        manipulate(sources[0], "lie", np.random.default_rng(0), model=model)
    with pytest.raises(ValueError, match="needs other="):
        manipulate(sources[0], "copy", np.random.default_rng(0), model=model)
    with pytest.raises(ValueError, match="binary features"):
        NaiveBayesModel(3).check_data((np.full((2, 3), 0.5), np.array([0, 1])))
    with pytest.raises(ValueError, match="labels must be integers in 0..1"):
        NaiveBayesModel(3).check_data((np.zeros((2, 3)), np.array([0, 2])))
    with pytest.raises(ValueError, match="sigma2 must be a finite number > 0"):
        GaussianLinearModel(3, sigma2=0.0)
    with pytest.raises(ValueError, match="a0 must be"):
        NormalInverseGammaModel(3, a0=float("nan"))
    with pytest.raises(ValueError, match="needs >= 2 paired trials"):
        paired_difference(np.array([1.0]), np.array([0.0]))


def test_monte_carlo_mechanism_handles_more_than_ten_sources():
    model = GaussianLinearModel(2, sigma2=1.0)
    sources, validation = synthetic_trial(model, [3] * 12, 20, np.random.default_rng(5))
    out = Mechanism(model, method="monte_carlo", n_samples=20).value(sources, validation)
    assert out.values.shape == (12,) and np.all(out.standard_errors >= 0)
    assert out.table.size == 0 and () in out.coalitions


def test_low_level_functions_reject_bad_input():
    from icml26.truthful_valuation import coalition_values, exact_semivalues, monte_carlo_semivalues

    model = GaussianLinearModel(2, sigma2=1.0)
    with pytest.raises(ValueError, match="last axis 8"):
        coalition_values(model, np.zeros(5), "dataset_size")
    with pytest.raises(ValueError, match="2\\^n entries"):
        exact_semivalues(np.zeros(6))
    with pytest.raises(ValueError, match="one finite number"):
        monte_carlo_semivalues(lambda m: np.array([1.0, 2.0]), 3, "shapley", 5, np.random.default_rng(0))
    with pytest.raises(ValueError, match="one finite number"):
        monte_carlo_semivalues(lambda m: float("nan"), 3, "banzhaf", 5, np.random.default_rng(0))
