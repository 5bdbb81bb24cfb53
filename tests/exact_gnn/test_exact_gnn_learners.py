"""The NTK closed form, the kernel solve and the finite ensemble on the |T| one-hot examples."""

import numpy as np
import pytest

from icml26.exact_gnn import (
    MLPEnsemble,
    NTKClosedForm,
    NTKSolve,
    closed_form_coefficients,
    compile_algorithm,
    ensemble_size_bound,
    ntk_relu,
    theoretical_ensemble_size,
    training_set,
)


def _random_encoded(n: int, rng: np.random.Generator, count: int) -> np.ndarray:
    hits = (rng.random((count, n)) < rng.uniform(0.02, 0.5, size=(count, 1))).astype(float)
    hits[0] = 0.0  # no template matched
    return hits / np.sqrt(np.maximum(hits.sum(axis=1, keepdims=True), 1.0))


@pytest.mark.parametrize(("bits", "degree"), [(1, 2), (2, 2), (2, 3)])
def test_closed_form_equals_kernel_solve(bits: int, degree: int) -> None:
    x, y = training_set(compile_algorithm("flooding", bits, degree))
    test = _random_encoded(x.shape[0], np.random.default_rng(bits + degree), 200)
    closed = NTKClosedForm().fit(x, y).predict(test)
    solved = ntk_relu(test, x) @ np.linalg.solve(ntk_relu(x, x), y)
    np.testing.assert_allclose(closed, solved, rtol=0, atol=1e-10)
    np.testing.assert_allclose(NTKSolve().fit(x, y).predict(test), solved, rtol=0, atol=1e-10)


def test_kernel_has_the_one_hot_structure() -> None:
    k = ntk_relu(np.eye(7), np.eye(7))
    a, b = k[0, 0], k[0, 1]
    np.testing.assert_allclose(k, (a - b) * np.eye(7) + b * np.ones((7, 7)), atol=1e-15)
    assert ntk_relu(np.zeros((1, 7)), np.eye(7)).max() == 0.0  # no bias: zero input, zero kernel


def test_coefficients_match_the_notes() -> None:
    assert closed_form_coefficients(21, 1) == pytest.approx((1.0, 0.0), abs=1e-14)
    gamma, delta = closed_form_coefficients(21, 2)
    assert gamma == pytest.approx(0.575, abs=5e-4) and delta == pytest.approx(-0.0057, abs=5e-5)
    gamma, delta = closed_form_coefficients(21, 5)
    assert gamma == pytest.approx(0.324, abs=5e-4) and delta == pytest.approx(-0.0237, abs=5e-5)
    assert all(closed_form_coefficients(21, s)[1] < 0 for s in range(2, 22))
    with pytest.raises(ValueError, match="0 <= s <= n"):
        closed_form_coefficients(3, 4)


def test_training_inputs_reproduced_exactly() -> None:
    x, y = training_set(compile_algorithm("flooding", 2, 2))
    np.testing.assert_allclose(NTKClosedForm().fit(x, y).predict(x), y, atol=1e-12)
    ens = MLPEnsemble(members=4, width=256, epochs=300, seed=0).fit(x, y)
    assert ens.train_loss_ < 0.05  # 0.5 * sum of squares over 42 x 42 targets, worst member
    assert np.array_equal(ens.predict(x) > 0.5, y > 0.5)


def test_ensemble_prefix_and_bad_input() -> None:
    x, y = training_set(compile_algorithm("flooding", 1, 2))
    with pytest.warns(RuntimeWarning, match="did not converge"):  # 5 epochs: deliberately short
        ens = MLPEnsemble(members=3, width=32, epochs=5, seed=1).fit(x, y)
    per_member = [ens.predict(x, m) for m in (1, 2, 3)]
    np.testing.assert_allclose((per_member[0] + 2 * per_member[1] - per_member[0]) / 2, per_member[1])
    with pytest.raises(ValueError, match="members=4 but the ensemble has 3"):
        ens.predict(x, 4)
    with pytest.raises(ValueError, match="inputs need shape"):
        ens.predict(np.ones((2, 5)))
    with pytest.raises(ValueError, match="width must be an integer >= 1"):
        MLPEnsemble(width=0)
    with pytest.raises(ValueError, match="lr must be a positive"):
        MLPEnsemble(lr=-1.0)
    with pytest.warns(RuntimeWarning, match="did not converge"):
        MLPEnsemble(members=1, width=16, lr=1e6, epochs=50).fit(x, y)
    with pytest.raises(ValueError, match="one-hot basis"):
        NTKClosedForm().fit(x[:, :-1], y[:, :-1] @ np.ones((y.shape[1] - 1, 2)))


def test_ensemble_size_bound() -> None:
    value = ensemble_size_bound(2.0, 10, 5)
    assert value == pytest.approx(8 * 2.0 * (np.log(2 * 10 * 5) + 10 * np.log(2)))
    assert theoretical_ensemble_size(10, 5) == pytest.approx(ensemble_size_bound(10.0, 10, 5))
    assert np.isfinite(ensemble_size_bound(1.0, 5000, 100))  # 2^n0 never formed
    with pytest.raises(ValueError, match="rounds must be an integer >= 1"):
        ensemble_size_bound(1.0, 3, 0)
    with pytest.raises(ValueError, match="positive finite"):
        ensemble_size_bound(-1.0, 3, 3)
