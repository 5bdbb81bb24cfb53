"""Review nc-rev #9 (the convergence premise) and #8 (the scalar trade-off at matched latency)."""

import numpy as np
import pytest
import torch

from icml26.common.claims import conditions_unmet
from icml26.neuronctrl import claims
from icml26.neuronctrl.controller import build_modules
from icml26.neuronctrl.evaluation import LAMBDA, MATCH_TOL, matched_scalar
from icml26.neuronctrl.experiment import convergence_metrics
from icml26.neuronctrl.shipped import TRAIN_CONFIG
from icml26.neuronctrl.training import (
    CONVERGENCE_TOL,
    CURVE_POINTS,
    observer_val_loss,
    plateau,
    rollouts,
    train_observer,
)

BY_NAME = {c.name: c for c in claims.TESTS}
GATED = {
    "observer": ("observer_error", "observer_vs_laplacian"),
    "operator": ("operator_onestep", "operator_20step", "operator_unseen"),
    "distill": ("distilled_cost", "distilled_latency"),
}


def test_plateau_exact_cases():
    flat = [4, 3, 2, 1, 1, 1, 1, 1, 1, 1]
    assert plateau(flat) == 0.0
    assert plateau(np.arange(10, 0, -1)) == pytest.approx(1.0)  # still falling: tail [2, 1], min 1
    assert plateau([5, 4, 3, 2, 1, 1, 1, 1, 1.2, 1.3]) == pytest.approx(0.3)  # rising again
    assert plateau([2, 1, 1, 1, 1]) == 0.0  # tail of 5 points: the last one
    assert plateau([0, 0, 0, 0, 0]) == 0.0


@pytest.mark.parametrize("bad", [[1, 2, 3], [1, 2, np.nan, 1, 1], [1, -1, 1, 1, 1], []])
def test_plateau_rejects_bad_curves(bad):
    with pytest.raises(ValueError, match="plateau needs"):
        plateau(bad)


def test_the_validation_curve_leaves_the_trained_weights_unchanged():
    torch.set_num_threads(1)
    data = rollouts([0], 1, 12, 0)
    val = rollouts([50], 1, 12, 1)
    nets = []
    for curve in (None, []):
        torch.manual_seed(0)
        obs = build_modules({**TRAIN_CONFIG, "hidden": 4, "layers": 1}, data[0]["rig"].m)["observer"]
        train_observer(obs, data, 2 * CURVE_POINTS, 4, 0, val=val, curve=curve)
        nets.append((obs, curve))
    (a, _), (b, curve) = nets
    for pa, pb in zip(a.parameters(), b.parameters(), strict=True):
        assert torch.equal(pa, pb)
    assert len(curve) == CURVE_POINTS
    assert curve[-1] == pytest.approx(observer_val_loss(b, val))


def test_convergence_metrics_take_the_worst_seed_and_need_every_curve():
    good, bad = [4, 3, 2, 1, 1, 1, 1, 1, 1, 1], list(range(10, 0, -1))
    one = {"val_curves": {"observer": good, "operator": bad, "distill": good}}
    two = {"val_curves": {"observer": bad, "operator": good}}
    m = convergence_metrics([one, two])
    assert m["observer_val_plateau"] == pytest.approx(1.0) and m["operator_val_plateau"] == pytest.approx(1.0)
    assert "distill_val_plateau" not in m  # seed two has no curve: the premise stays unmet
    assert convergence_metrics([one])["observer_val_plateau"] == 0.0
    assert convergence_metrics([{}]) == {} and convergence_metrics([]) == {}


@pytest.mark.parametrize("part", sorted(GATED))
def test_unconverged_or_unrecorded_training_makes_the_tests_checks(part):
    key = f"{part}_val_plateau"
    for name in GATED[part]:
        c = BY_NAME[name]
        assert c.kind == "paper"
        assert conditions_unmet(c.requires, {}), name  # no curve stored: unmet
        assert conditions_unmet(c.requires, {key: CONVERGENCE_TOL * 1.5}), name
        assert not conditions_unmet(c.requires, {key: CONVERGENCE_TOL * 0.5}), name
        assert c.revisions[-1].verdict in ("refuted", "inconclusive", "toy-verified")


def test_claims_premise_bound_is_the_training_rule():
    assert claims.PLATEAU_TOL == CONVERGENCE_TOL


def _pt(cost, viol, lat):
    return {"cost": cost, "viol": viol, "latency": lat}


def test_matched_scalar_picks_the_strongest_baseline_at_matched_latency():
    point = {"ours": _pt(0.3, 0.5, 1.0), "fast": _pt(0.4, 0.5, 0.1), "edge": _pt(0.2, 0.8, 1.25),
             "slow": _pt(0.1, 0.1, 1.3)}  # fmt: skip
    boot = {k: {q: np.array([v[q], v[q] * 2]) for q in v} for k, v in point.items()}
    ours, ours_b, best, best_v, best_b, ratio = matched_scalar("ours", ["fast", "edge", "slow"], point, boot)
    assert ours == pytest.approx(0.3 + LAMBDA * 0.5) and LAMBDA == 1.0 and MATCH_TOL == 1.25
    assert best == "fast" and best_v == pytest.approx(0.9)  # slow is cheaper but not matched; edge 1.0
    np.testing.assert_allclose(ours_b, [0.8, 1.6])
    np.testing.assert_allclose(ratio, [0.8 / 0.9, 1.6 / 1.8])
    _, _, best, *_ = matched_scalar("ours", ["fast", "edge", "slow"], point, boot, lam=0.0)
    assert best == "edge"  # without the violation term the cheaper matched one
    none = matched_scalar("ours", ["slow"], point, boot)
    assert none[2] is None and np.isnan(none[3])


@pytest.mark.parametrize(
    ("kw", "msg"), [({"lam": -1}, "lam"), ({"tol": 0.9}, "tol"), ({"lam": np.nan}, "lam")]
)
def test_matched_scalar_rejects_bad_input(kw, msg):
    point = {"a": _pt(1, 0, 1), "b": _pt(1, 0, 1)}
    with pytest.raises(ValueError, match=msg):
        matched_scalar("a", ["b"], point, point, **kw)
    with pytest.raises(ValueError, match="no summary for c"):
        matched_scalar("a", ["c"], point, point)


def test_the_scalar_tests_are_relative_to_the_matched_baseline():
    for name in ("multi", "distilled"):
        c = BY_NAME[f"{name}_scalar_tradeoff"]
        assert c.relative_to == (f"{name}_matched_best_scalar",) and c.op == "<" and c.threshold == 1.0
        assert c.supports == "tradeoffs"


class _Persist:
    """A stub pipeline: a perfect observer (it reads the env's true field), u = 0, F = persistence."""

    def __init__(self, env_box):
        self.box = env_box
        self.operator = lambda x, u, g: x

    def cache(self, rig):
        from icml26.neuronctrl.controller import RigCache

        return RigCache(rig)

    def act(self, history, preference):
        return np.zeros(self.box["m"]), {"field": self.box["field"]}


def test_pipeline_residuals_are_the_per_step_max_over_constrained_nodes(monkeypatch):
    from icml26.neuronctrl import training
    from icml26.neuronctrl.env import make_env

    box, steps = {}, 12
    real = training.make_env

    class Spy:  # the env, reporting its true field to the stub observer
        def __init__(self, *a):
            self.env = real(*a)
            self.rig = self.env.rig

        def reset(self, seed):
            y, info = self.env.reset(seed=seed)
            self.puffs = self.env.puffs
            box.update(field=info["field"], m=self.rig.m)
            return y, info

        def step(self, u):
            out = self.env.step(u)
            box["field"] = out[4]["field"]
            return out

    monkeypatch.setattr(training, "make_env", lambda *a: Spy(*a))
    got = training.pipeline_residuals(_Persist(box), [50], 1, steps, 3, puffs=True)
    env = make_env("ecs_rd", 50, training.AGGRESSIVE, steps)
    _, info = env.reset(seed=int(np.random.default_rng(3).integers(2**31)))
    fields = [info["field"]] + [env.step(np.zeros(env.rig.m))[4]["field"] for _ in range(steps)]
    mask = np.isfinite(env.rig.lower) | np.isfinite(env.rig.upper)
    want = [np.max(np.abs(fields[t] - fields[t + 1])[mask]) for t in range(steps)]
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)
    box.clear()
    free = training.pipeline_residuals(_Persist(box), [50], 1, steps, 3)
    keep = [t for t in range(steps) if t not in env.puffs]
    np.testing.assert_allclose(free, np.asarray(want)[keep], rtol=1e-5, atol=1e-4)
    with pytest.raises(ValueError, match="episodes >= 1"):
        training.pipeline_residuals(_Persist(box), [50], 0, steps, 3)
