"""The mixture training class, the BBOB wrapper, the equal-evaluation accounting and the win rule (issue 49)."""

import math

import numpy as np
import pytest
import torch

from icml26.flow_optimizer import FlowOptimizer
from icml26.flow_optimizer.bbob import (
    PRECISION_FLOOR,
    BBOBFunction,
    clustered_interval,
    seed_clustered_interval,
    transfer_pair,
    win_fraction,
    wins,
)
from icml26.flow_optimizer.mixture import FAMILIES, MixtureClass
from icml26.flow_optimizer.optimizer import config_hash
from icml26.flow_optimizer.problems import BENCHMARKS, rastrigin
from icml26.flow_optimizer.transfer import bbob_functions

D = torch.float64


def _draw(n=400, seed=0, **kw):
    return MixtureClass(6, **kw).sample(n, torch.Generator().manual_seed(seed), dtype=D)


# ---------------------------------------------------------------- the mixture class
def test_every_instance_has_minimum_zero_at_its_shift_and_is_nonnegative():
    inst = _draw(120)
    at_shift = inst(inst.shift[:, None, :])
    np.testing.assert_allclose(at_shift.numpy(), 0.0, atol=1e-9)
    X = (torch.rand(120, 50, 6, generator=torch.Generator().manual_seed(1), dtype=D) * 2 - 1) * 5
    assert bool((inst(X) >= -1e-9).all())
    near = inst(inst.shift[:, None, :] + 1e-2)  # a step off the optimum raises f on every instance
    assert bool((near > 0).all())


def test_draw_statistics_families_shifts_rotations_scalings():
    inst = _draw(3000, log10_scale=1.0, rotate_prob=0.5, shift_fraction=0.8)
    counts = np.bincount(inst.family.numpy(), minlength=len(FAMILIES))
    assert counts.min() > 3000 / 6 * 0.85 and counts.max() < 3000 / 6 * 1.15  # uniform over families
    assert float(inst.shift.abs().max()) <= 4.0 and float(inst.shift.abs().max()) > 3.9
    assert abs(float(inst.shift.mean())) < 0.05
    # M = c_k D R: M M^T = c_k^2 D^2, whatever R is; D's entries lie in [10^-b, 10^b]
    c = torch.tensor([BENCHMARKS[f].half_width / 5.0 for f in FAMILIES], dtype=D)[inst.family]
    gram = inst.matrix @ inst.matrix.transpose(1, 2)
    diag = torch.diagonal(gram, dim1=-2, dim2=-1)
    np.testing.assert_allclose((gram - torch.diag_embed(diag)).abs().max().item(), 0.0, atol=1e-8)
    axis = diag.sqrt() / c[:, None]
    assert float(axis.min()) >= 0.1 - 1e-12 and float(axis.max()) <= 10.0 + 1e-12
    assert float(axis.log10().mean().abs()) < 0.02  # u ~ U[-1, 1]: symmetric in log10
    # R = (c D)^-1 M: the identity (separable) on about half the instances
    R = torch.linalg.solve(torch.diag_embed(c[:, None] * axis), inst.matrix)
    identity = (R - torch.eye(6, dtype=D)).abs().amax((1, 2)) < 1e-9
    assert 0.45 < float(identity.double().mean()) < 0.55
    np.testing.assert_allclose(
        (R @ R.transpose(1, 2) - torch.eye(6, dtype=D)).abs().max().item(), 0, atol=1e-9
    )


def test_known_value_separable_unscaled_rastrigin_instance():
    inst = _draw(200, log10_scale=0.0, rotate_prob=0.0)
    b = int(torch.nonzero(inst.family == FAMILIES.index("rastrigin"))[0])
    x = torch.linspace(-4.5, 4.5, 6, dtype=D)
    c = BENCHMARKS["rastrigin"].half_width / 5.0
    want = rastrigin(c * (x - inst.shift[b]))
    got = inst.single(b)(x[None])[0]
    assert got.item() == pytest.approx(want.item(), rel=1e-12)


def test_rotated_instances_evaluate_h_of_m_times_x_minus_s():
    inst = _draw(40, rotate_prob=1.0)
    x = torch.rand(40, 6, generator=torch.Generator().manual_seed(5), dtype=D) * 10 - 5
    got = inst(x[:, None, :])[:, 0]
    for b, name in enumerate(inst.family_names()):
        base = BENCHMARKS[name]
        z = inst.matrix[b] @ (x[b] - inst.shift[b]) + base.z_star
        want = base.fn(z) - base.fn(torch.full((6,), base.z_star, dtype=D))
        assert got[b].item() == pytest.approx(want.item(), rel=1e-10, abs=1e-10), name


def test_subset_single_and_batch_agree_and_draws_repeat():
    inst = _draw(9)
    X = torch.rand(9, 5, 6, generator=torch.Generator().manual_seed(2), dtype=D) * 10 - 5
    full = inst(X)
    idx = torch.tensor([7, 2])
    np.testing.assert_allclose(inst.subset(idx)(X[idx]).numpy(), full[idx].numpy(), rtol=1e-12)
    np.testing.assert_allclose(inst.single(4)(X[4]).numpy(), full[4].numpy(), rtol=1e-12)
    again = _draw(9)
    assert torch.equal(again.matrix, inst.matrix) and torch.equal(again.family, inst.family)


def test_objective_is_differentiable_for_stage2():
    inst = _draw(6)
    X = torch.rand(6, 4, 6, dtype=D, requires_grad=True)
    inst(X).sum().backward()
    assert X.grad is not None and bool(torch.isfinite(X.grad).all()) and float(X.grad.abs().sum()) > 0


def test_field_ignores_the_scale_of_f_so_the_class_needs_no_output_scaling():
    opt = FlowOptimizer.pretrained("mixture-10-gradfree")
    inst = MixtureClass(10).sample(1, torch.Generator().manual_seed(3), dtype=D)
    f = inst.single(0)
    a = opt.minimize(f, [(-5, 5)] * 10, budget=640, seed=0)
    b = opt.minimize(lambda X: 1000.0 * f(X), [(-5, 5)] * 10, budget=640, seed=0)
    # equal up to float32 rounding of the z-scores (the population is float32); raw values would differ
    np.testing.assert_allclose(b.x, a.x, rtol=0, atol=1e-4)
    assert b.fun == pytest.approx(1000.0 * a.fun, rel=1e-4)


@pytest.mark.parametrize(
    ("kw", "match"),
    [
        ({"dim": 1}, "dim"),
        ({"dim": 4, "families": ("nope",)}, "unknown families"),
        ({"dim": 4, "families": ()}, "families"),
        ({"dim": 4, "shift_fraction": 1.0}, "shift_fraction"),
        ({"dim": 4, "rotate_prob": -0.1}, "rotate_prob"),
        ({"dim": 4, "log10_scale": math.nan}, "log10_scale"),
        ({"dim": 4, "half_width": 0}, "half_width"),
    ],
)
def test_mixture_rejects_bad_settings(kw, match):
    with pytest.raises(ValueError, match=match):
        MixtureClass(**kw)


def test_mixture_rejects_bad_batches():
    inst = _draw(3)
    with pytest.raises(ValueError, match="population must have shape"):
        inst(torch.zeros(2, 4, 6, dtype=D))
    with pytest.raises(ValueError, match="instance index"):
        inst.single(3)
    with pytest.raises(ValueError, match="positive integer"):
        MixtureClass(4).sample(0, torch.Generator())


# ---------------------------------------------------------------- the BBOB wrapper
@pytest.mark.parametrize("fid", [1, 3, 8, 15, 24])
def test_bbob_optimum_has_precision_zero_and_counts_evaluations(fid):
    f = BBOBFunction(fid, 2, 5)
    assert f.evaluations == 0
    at = f(torch.tensor(f.x_opt[None], dtype=D))
    assert at.dtype == D and at.item() == pytest.approx(f.f_opt, abs=1e-9)
    assert f.precision(at.item()) == PRECISION_FLOOR
    off = f(torch.tensor(f.x_opt[None] + 0.5, dtype=D)).item()
    assert off > f.f_opt + 1e-6
    assert f.evaluations == 2
    assert f.bounds == [(-5.0, 5.0)] * 5


def test_bbob_sphere_is_the_squared_distance_to_its_optimum():
    f = BBOBFunction(1, 1, 7)
    X = np.random.default_rng(0).uniform(-5, 5, size=(11, 7))
    got = f(torch.tensor(X, dtype=D)).numpy() - f.f_opt
    np.testing.assert_allclose(got, ((X - f.x_opt) ** 2).sum(1), rtol=1e-10)
    assert f.evaluations == 11


@pytest.mark.parametrize("fid", [2, 7, 12, 17, 21, 24])
def test_bbob_wrapper_returns_ioh_values_exactly(fid):
    """At fixed points (a batch, the origin, a box corner) the wrapper returns what ioh's own problem returns,
    bit for bit, in float64, row for row: no cast, transpose or reordering on the way."""
    import ioh

    f = BBOBFunction(fid, 3, 6)
    ref = ioh.get_problem(fid, instance=3, dimension=6, problem_class=ioh.ProblemClass.BBOB)
    X = np.vstack([np.random.default_rng(fid).uniform(-5, 5, size=(5, 6)), np.zeros(6), np.full(6, 5.0)])
    got = f(torch.tensor(X, dtype=D)).numpy()
    want = np.array([ref(x.tolist()) for x in X])
    assert got.dtype == np.float64 and np.array_equal(got, want)
    assert f.f_opt == ref.optimum.y and np.array_equal(f.x_opt, ref.optimum.x)


def test_bbob_rejects_bad_input():
    with pytest.raises(ValueError, match="fid"):
        BBOBFunction(25, 1, 5)
    with pytest.raises(ValueError, match="iid"):
        BBOBFunction(1, 0, 5)
    with pytest.raises(ValueError, match="dim"):
        BBOBFunction(1, 1, 1)
    with pytest.raises(ValueError, match=r"shape \(n, 5\)"):
        BBOBFunction(1, 1, 5)(torch.zeros(3, 4))


def test_quick_slice_covers_every_bbob_group_and_stride_one_is_all():
    assert bbob_functions(1) == list(range(1, 25))
    groups = {
        (f - 1) // 5 if f <= 5 else 1 if f <= 9 else 2 if f <= 14 else 3 if f <= 19 else 4
        for f in bbob_functions(4)
    }
    assert groups == {0, 1, 2, 3, 4}


# ---------------------------------------------------------------- equal evaluations
def test_transfer_pair_accounts_every_evaluation_through_ioh():
    flows = {"flow_mix": FlowOptimizer.pretrained("mixture-10-gradfree")}
    out = transfer_pair(8, 1, 10, 640, flows, seed=0)
    assert set(out) == {"flow_mix", "cma_ipop", "cma_ipop_centre"}
    for r in out.values():
        assert r["nfev"] == r["counted"] <= 640  # what the optimizer says it used is what ioh counted
        assert r["precision"] >= PRECISION_FLOOR
    assert out["flow_mix"]["counted"] == 640  # 10 populations of 64
    assert out["cma_ipop"]["counted"] > 640 - 2 * 64  # IPOP stops only when a population no longer fits


def test_the_count_comes_from_ioh_not_from_the_optimizer(monkeypatch):
    from icml26.flow_optimizer import bbob
    from icml26.flow_optimizer.optimizer import OptimizeResult

    def under_reporting(f, bounds, budget, seed, start="random"):
        X = torch.zeros(30, 10, dtype=D)
        fx = f(X)
        f(X)  # a second, unreported batch
        return OptimizeResult(X[0].numpy(), float(fx[0]), nfev=30, history=[(30, float(fx[0]))])

    monkeypatch.setattr(bbob, "cma_ipop", under_reporting)
    out = transfer_pair(1, 1, 10, 64, {}, seed=0)
    assert out["cma_ipop"]["nfev"] == 30 and out["cma_ipop"]["counted"] == 60


def test_transfer_pair_refuses_gradient_weights():
    with pytest.raises(ValueError, match="gradient-free"):
        transfer_pair(1, 1, 10, 128, {"flow": FlowOptimizer.pretrained("rastrigin-10")}, seed=0)


# ---------------------------------------------------------------- the win rule
def test_wins_needs_both_baselines_beaten_and_ties_count_half():
    ours = np.array([1.0, 1.0, 1e-8, 5.0, 2.0])
    a = np.array([2.0, 0.5, 1e-8, 6.0, 2.0])
    b = np.array([3.0, 3.0, 1e-8, 4.0, 3.0])
    np.testing.assert_array_equal(wins(ours, [a, b]), [1.0, 0.0, 0.5, 0.0, 0.5])
    assert win_fraction(ours, [a, b]) == pytest.approx(2.0 / 5)
    assert win_fraction(ours, [a]) == pytest.approx((1 + 0 + 0.5 + 1 + 0.5) / 5)


def test_clustered_interval_resamples_functions():
    won = np.array([1, 1, 0, 0, 1, 0, 1, 1.0])
    fn = np.array([1, 1, 2, 2, 3, 3, 4, 4])
    low, high = clustered_interval(won, fn, seed=0)
    assert low <= won.mean() <= high and 0 <= low < high <= 1
    same = np.ones(6)
    assert clustered_interval(same, np.array([1, 1, 2, 2, 3, 3])) == (1.0, 1.0)
    assert all(math.isnan(v) for v in clustered_interval(won[:2], fn[:2]))


# ---------------------------------------------------------------- the shipped weights' config hash
def test_shipped_mixture_weights_match_their_training_config(tmp_path, monkeypatch):
    from icml26.flow_optimizer import train

    opt = FlowOptimizer.pretrained("mixture-10-gradfree")
    assert opt.config_hash_ == config_hash(train.TRAIN_CONFIG["mixture-10-gradfree"])
    assert not opt.use_gradients and opt.trained_on_ == "mixture-10"
    changed = {**train.TRAIN_CONFIG["mixture-10-gradfree"], "stage2_iterations": 61}
    monkeypatch.setitem(train.TRAIN_CONFIG, "mixture-10-gradfree", changed)
    with pytest.raises(ValueError, match="trained with another config"):
        FlowOptimizer.pretrained("mixture-10-gradfree")
    with pytest.raises(ValueError, match="trained with another config"):
        FlowOptimizer.pretrained("mixture-10-gradfree-stage1")


def test_a_tampered_config_fails_its_hash(tmp_path):
    opt = FlowOptimizer(hidden=8, population=4, steps=2, use_gradients=False)
    opt._ensure_model()
    opt.save(tmp_path / "w.pt", config={"a": 1})
    assert FlowOptimizer.load(tmp_path / "w.pt").config_hash_ == config_hash({"a": 1})
    blob = torch.load(tmp_path / "w.pt", weights_only=True)
    blob["config"]["a"] = 2
    torch.save(blob, tmp_path / "w.pt")
    with pytest.raises(ValueError, match="does not match its hash"):
        FlowOptimizer.load(tmp_path / "w.pt")


def test_seed_clustered_interval_exact_cases():
    fn = np.array([1, 1, 2, 2])
    # two training seeds that disagree completely: a draw of both seeds 0 gives 1, both 1 gives 0 (1/4 each)
    assert seed_clustered_interval(np.array([[1, 1, 1, 1.0], [0, 0, 0, 0.0]]), fn) == (0.0, 1.0)
    # identical seeds: only the functions move
    same = np.array([[1, 1, 0, 0.0], [1, 1, 0, 0.0]])
    assert seed_clustered_interval(same, fn) == (0.0, 1.0)
    assert seed_clustered_interval(np.ones((3, 4)), fn) == (1.0, 1.0)
    # unequal instances per function: the mean is over pairs (3/4 on a mixed draw), so it never leaves [0, 1]
    low, high = seed_clustered_interval(np.array([[1, 1, 1, 0.0]]), np.array([1, 1, 1, 2]), n_boot=4000)
    assert (low, high) == (0.0, 1.0)
    # one seed, many functions: close to the functions-only bootstrap
    won = np.random.default_rng(1).integers(0, 2, size=48).astype(float)
    fns = np.repeat(np.arange(24), 2)
    a, b = seed_clustered_interval(won[None], fns), clustered_interval(won, fns)
    assert abs(a[0] - b[0]) <= 0.05 and abs(a[1] - b[1]) <= 0.05
    assert all(math.isnan(v) for v in seed_clustered_interval(np.ones((2, 3)), np.array([4, 4, 4])))


def test_seed_clustered_interval_rejects_bad_input():
    fn = np.array([1, 1, 2, 2])
    with pytest.raises(ValueError, match=r"shape \(training seeds, pairs\)"):
        seed_clustered_interval(np.ones(4), fn)
    with pytest.raises(ValueError, match="one entry per pair"):
        seed_clustered_interval(np.ones((2, 4)), fn[:3])
    with pytest.raises(ValueError, match="0, 0.5 or 1"):
        seed_clustered_interval(np.full((2, 4), 0.3), fn)
    with pytest.raises(ValueError, match="n_boot"):
        seed_clustered_interval(np.ones((2, 4)), fn, n_boot=0)
