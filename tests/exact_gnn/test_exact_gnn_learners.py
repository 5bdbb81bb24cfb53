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
    # the prefix mean, recomputed by hand from each member's weights
    members = [np.maximum(x @ ens.w_[i] / np.sqrt(x.shape[1]), 0) @ ens.v_[i] / np.sqrt(32) for i in range(3)]
    np.testing.assert_allclose(ens.predict(x, 2), (members[0] + members[1]) / 2, atol=1e-12)
    np.testing.assert_allclose(ens.predict(x), sum(members) / 3, atol=1e-12)
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


def test_ntk_formula_matches_the_empirical_ntk_of_a_wide_net() -> None:
    """Independent of the formula: the autograd Jacobian inner product of one wide NTK-parameterised net."""
    import torch

    rng = np.random.default_rng(3)
    d, h = 6, 40_000
    x = rng.normal(size=(5, d))
    x[1] = x[0] * 2.0  # parallel inputs, different norms
    x[2] = -x[0]  # opposite inputs
    gen = torch.Generator().manual_seed(0)
    w = torch.randn(d, h, generator=gen, dtype=torch.float64, requires_grad=True)
    v = torch.randn(h, generator=gen, dtype=torch.float64, requires_grad=True)
    grads = []
    for row in torch.as_tensor(x):
        out = torch.relu(row @ w / np.sqrt(d)) @ v / np.sqrt(h)
        gw, gv = torch.autograd.grad(out, (w, v))
        grads.append(torch.cat([gw.ravel(), gv]).numpy())
    empirical = np.stack(grads) @ np.stack(grads).T
    np.testing.assert_allclose(empirical, ntk_relu(x, x), rtol=0, atol=0.03 * np.abs(ntk_relu(x, x)).max())


def test_learners_reject_bad_input() -> None:
    x, y = training_set(compile_algorithm("flooding", 1, 2))
    model = NTKClosedForm().fit(x, y)
    with pytest.raises(ValueError, match="encoder output"):
        model.predict(np.full((1, x.shape[0]), 0.3))  # not of the form 1_S / sqrt(|S|)
    with pytest.raises(ValueError, match=r"shape \(m, 21\)"):
        model.predict(np.ones(21))
    with pytest.raises(ValueError, match="NaN or infinity"):
        ntk_relu(np.array([[np.nan, 1.0]]), np.eye(2))
    bad = y.copy()
    bad[0, 0] = np.inf
    with pytest.raises(ValueError, match="finite"):
        NTKClosedForm().fit(x, bad)
    with pytest.raises(ValueError, match="NaN or infinity"):
        NTKSolve().fit(x, bad)
    with pytest.raises(ValueError, match="NaN or infinity"):
        MLPEnsemble(members=1, width=8, epochs=1).fit(x, bad)
