"""dbs and astro_k (closed forms and invariants), the RL baselines' maps and penalty, the evaluation's
hierarchical bootstrap and Pareto domination."""

import dataclasses

import numpy as np
import pytest

from icml26.neuronctrl.benchmarks import AstroK, AstroKSpec, Dbs, DbsSpec
from icml26.neuronctrl.controller import pad_history
from icml26.neuronctrl.env import AGGRESSIVE, make_env
from icml26.neuronctrl.evaluation import dominated, dominated_by, draws
from icml26.neuronctrl.morphology import branching_morphology
from icml26.neuronctrl.plant import make_plant
from icml26.neuronctrl.rl import PENALTY_EXCESS, PENALTY_STEP, PenaltyEnv, features, to_action, train_rl
from icml26.neuronctrl.shipped import train_config, weights_path


@pytest.fixture(scope="module")
def morph():
    return branching_morphology(3)


def test_astro_k_conserves_total_potassium_without_release_and_sink(morph):
    """With no bistable release (kappa = 0) and no sink, uptake only moves K+ between the extracellular
    space and the astrocytes (J0 cancels): sum_i V_i (c_i + a_i) is conserved, under any action."""
    spec = dataclasses.replace(AstroKSpec(), kappa=0.0, k_sink=0.0)
    plant = AstroK(morph, spec, rig_seed=3)
    rng = np.random.default_rng(0)
    s = plant.puff(plant.rest(), int(plant.far[0]))
    s[plant.n :] += rng.uniform(0, 5, plant.n)
    v = morph.volumes
    total = v @ (s[: plant.n] + s[plant.n :])
    for _ in range(20):
        s = plant.step(s, -rng.uniform(0, 0.6, plant.m))
    assert abs(v @ (s[: plant.n] + s[plant.n :]) - total) <= 1e-10 * total
    assert np.any(s[plant.n :] != s[plant.n : plant.n + 1])  # something moved


def test_astro_k_rest_is_a_fixed_point_and_uptake_saturates(morph):
    plant = AstroK(morph, rig_seed=3)
    rest = plant.rest()
    assert np.allclose(plant.step(rest, np.zeros(plant.m)), rest, rtol=0, atol=1e-12)
    s = plant.spec
    full = plant.uptake(np.full(plant.n, 10.0), np.full(plant.n, s.a_max), np.full(plant.m, -1.0))
    assert np.all(full == 0.0)  # a saturated astrocyte takes no more K+
    over = plant.uptake(np.full(plant.n, 10.0), np.full(plant.n, s.a_max + 5), np.full(plant.m, -1.0))
    assert np.all(over == 0.0)  # nor gives it back through the uptake term
    boosted = plant.uptake(np.full(plant.n, 10.0), np.full(plant.n, s.q0), np.full(plant.m, -1.0))
    base = plant.uptake(np.full(plant.n, 10.0), np.full(plant.n, s.q0), np.zeros(plant.m))
    assert np.all(boosted >= base) and np.max(boosted / base) > 5  # uptake gain raises uptake


def test_dbs_without_diffusion_is_explicit_euler_of_fitzhugh_nagumo(morph):
    """D = 0: each node is the FHN ODE (D1) stepped by explicit Euler (a reference written here)."""
    spec = dataclasses.replace(DbsSpec(), diffusion=0.0)
    plant = Dbs(morph, spec, rig_seed=3)
    rng = np.random.default_rng(1)
    v, w = rng.uniform(-2, 2, plant.n), rng.uniform(-1, 1, plant.n)
    u = -rng.uniform(0, 0.5, plant.m)
    out = plant.step(np.concatenate([v, w]), u)
    i_stim = plant.Phi @ u
    for _ in range(spec.substeps):
        dv = v - v**3 / 3 - w + plant.I + i_stim
        dw = spec.eps * (v + spec.a - spec.b * w)
        v, w = v + spec.dt * dv, w + spec.dt * dw
    assert np.allclose(out, np.concatenate([v, w]), rtol=0, atol=1e-10)


def test_dbs_focus_oscillates_and_rest_holds_elsewhere(morph):
    plant = Dbs(morph, rig_seed=3)
    assert plant.focus.size > 0 and np.all(plant.I[plant.focus] > 0)
    quiet = dataclasses.replace(DbsSpec(), focus_current=0.0)
    calm = Dbs(morph, quiet, rig_seed=3)
    s = calm.rest()
    for _ in range(10):
        s = calm.step(s, np.zeros(calm.m))
    assert np.max(np.abs(s - calm.rest())) < 1e-3  # c0, q0 are the resting point to 4 digits
    s = plant.rest()
    vs = []
    for _ in range(60):
        s = plant.step(s, np.zeros(plant.m))
        vs.append(s[plant.focus].mean())
    assert np.ptp(vs) > 1.0  # a self-sustained oscillation at the focus


def test_two_variable_violation_is_relative_to_the_field_scale(morph):
    plant = Dbs(morph, rig_seed=3)
    s = plant.spec
    scale = s.c_max - s.c0
    z = np.full(plant.n, s.c0)
    assert plant.violation(z) == pytest.approx((s.c_min - s.c0) / scale)  # safe: negative
    z[plant.roi[0]] = s.c_crit + 0.32
    assert plant.violation(z) == pytest.approx(0.32 / scale)
    z = np.full(plant.n, s.c0)
    z[5] = s.c_min - 0.64
    state = np.concatenate([z, np.zeros(plant.n)])
    assert plant.violation(state) == pytest.approx(0.64 / scale)  # the state's field part is judged
    assert plant.task_cost(state) == pytest.approx(plant.task_cost(z))


def test_env_hides_the_second_variable():
    env = make_env("astro_k", 4, horizon=3)
    y, info = env.reset(seed=0)
    n = env.plant.n
    assert info["field"].shape == (n,) and info["state"].shape == (2 * n,)
    assert y.shape == env.rig.sensors.shape and env.rig.morphology.n == n
    _, _, _, _, info = env.step(np.zeros(env.rig.m))
    assert np.array_equal(info["field"], info["state"][:n])


def test_bad_benchmark_and_seed_names_are_rejected():
    with pytest.raises(ValueError, match="accepted: ecs_rd, dbs, astro_k"):
        make_plant("dbs2", 1)
    with pytest.raises(ValueError, match="benchmark"):
        train_config("nope")
    with pytest.raises(ValueError, match="seed"):
        weights_path("ecs_rd", -1)
    assert weights_path("dbs", 0).name == "dbs_seed0.pt" and train_config("dbs")["obs_iters"] == 200


def test_rl_action_map_and_features():
    env = make_env("ecs_rd", 2, horizon=3)
    rig = env.rig
    zero = np.zeros(rig.m)
    assert np.allclose(to_action(np.ones(rig.m), zero, rig), rig.u_high)
    low = to_action(-np.ones(rig.m), zero, rig)  # the box's low end, cut by the rate and the budget
    assert np.all(low < 0) and np.all(low >= -rig.rate - 1e-12) and np.abs(low).sum() <= rig.budget + 1e-12
    prev = np.full(rig.m, -0.5)
    assert np.allclose(to_action(-np.ones(rig.m), prev, rig), -4.0 / rig.m)  # budget 4 binds
    mid = to_action(np.zeros(rig.m), prev, rig)
    assert np.allclose(mid, (rig.u_low + rig.u_high) / 2)
    y = np.full(rig.sensors.size, rig.rest + 0.27 * rig.scale)
    phi = features(rig, y, prev)
    assert phi.shape == (2 * rig.m + 2,)
    assert (
        np.allclose(phi[: rig.m], 0.27)
        and np.allclose(phi[rig.m : 2 * rig.m], -0.5)
        and np.allclose(phi[-2:], 0.27)
    )
    y = rig.rest + rig.scale * np.linspace(-0.1, 0.5, rig.sensors.size)
    phi = features(rig, y, prev)
    assert phi[-2] == pytest.approx(0.2, abs=1e-6) and phi[-1] == pytest.approx(0.5, abs=1e-6)


def test_penalty_env_reward_is_the_cost_minus_the_penalties():
    env = PenaltyEnv("ecs_rd", [1], 5, AGGRESSIVE, seed=0)
    env.reset()
    inner = env.envs[env.k]
    violated = 0
    for k, a in enumerate((np.full(inner.rig.m, -1.0), np.full(inner.rig.m, 1.0), np.zeros(inner.rig.m))):
        if k == 2:
            inner.c = np.full(inner.plant.n, 0.5)  # far below c_min: this step is violated
        u = to_action(a, env.u_prev, inner.rig)
        c_before = inner.c.copy()
        _, r, _, _, info = env.step(a)
        assert np.allclose(info["state"], inner.plant.step(c_before, u)) or inner.t - 1 in inner.puffs
        cost = info["task"] * AGGRESSIVE[0] + info["energy"] * AGGRESSIVE[1] + info["smooth"] * AGGRESSIVE[2]
        expect = -cost - PENALTY_STEP * info["violated"] - PENALTY_EXCESS * max(info["field_violation"], 0)
        assert r == pytest.approx(expect, rel=1e-9, abs=1e-12)
        violated += info["violated"]
    assert violated >= 1


def test_rl_training_and_the_filtered_policy_run_and_obey_the_action_limits():
    from icml26.neuronctrl.rl import FilteredRL, RLController
    from icml26.neuronctrl.shipped import load_shipped

    with pytest.raises(ValueError, match="algo"):
        train_rl("dqn", "ecs_rd", [0], 10, 5, 0)
    with pytest.raises(ValueError, match="timesteps"):
        train_rl("ppo", "ecs_rd", [0], 0, 5, 0)
    policy = train_rl("ppo", "ecs_rd", [0], 64, 8, 0).policy
    multi, _ = load_shipped()
    env = make_env("ecs_rd", 104, horizon=4)
    y, _ = env.reset(seed=0)
    ys, us = [y], []
    for ctrl in (RLController(policy), FilteredRL(policy, multi)):
        u, info = ctrl.act(pad_history(ys, us, env.rig), AGGRESSIVE)
        assert (
            u.shape == (env.rig.m,)
            and np.all(u <= env.rig.u_high + 1e-9)
            and np.all(u >= env.rig.u_low - 1e-9)
        )
        assert np.all(np.abs(u) <= env.rig.rate + 1e-6) and info["latency"] > 0
    with pytest.raises(ValueError, match="History"):
        RLController(policy).act(np.zeros(3), AGGRESSIVE)


def test_hierarchical_draws_resample_whole_training_seeds():
    rng = np.random.default_rng(0)
    groups = np.array([0] * 3 + [1] * 5)
    seen_mixed = False
    for idx in draws(groups, 200, rng):
        assert idx.size in (6, 8, 10)  # two groups drawn with replacement: 3+3, 3+5 or 5+5 items
        g = groups[idx]
        assert np.sum(g == 0) in (0, 3, 6) and np.sum(g == 1) in (0, 5, 10)
        seen_mixed |= bool(np.sum(g == 0) == 6 or np.sum(g == 1) == 10)
    assert seen_mixed
    only = [np.all(groups[i] == 1) for i in draws(groups, 400, np.random.default_rng(2))]
    assert 0.15 <= np.mean(only) <= 0.35  # both draws pick seed 1: probability 1/4
    plain = draws(np.zeros(4, int), 50, np.random.default_rng(1))
    assert all(i.size == 4 for i in plain)
    with pytest.raises(ValueError, match="group"):
        draws([], 3, rng)


def test_pareto_domination_exact_cases():
    a = {"task": 1.0, "viol": 0.1, "latency": 0.02}
    assert dominated(a, {"task": 0.9, "viol": 0.1, "latency": 0.02})
    assert not dominated(a, dict(a))  # equal is not domination
    assert not dominated(a, {"task": 0.5, "viol": 0.2, "latency": 0.001})  # worse in one
    point = {
        "x": a,
        "y": {"task": 0.5, "viol": 0.0, "latency": 0.01},
        "z": {"task": 2, "viol": 0, "latency": 0},
    }
    boot = {k: {m: np.array([v[m]] * 4) for m in v} for k, v in point.items()}
    count, per = dominated_by("x", ["y", "z"], point, boot, 4)
    assert count == 1 and np.all(per == 1)


def test_env_bad_input_and_gymnasium_ids():
    import gymnasium as gym

    from icml26.neuronctrl.morphology import knn_morphology
    from icml26.neuronctrl.plant import EcsRd

    for bad in (0, -3, 2.5, True):
        with pytest.raises(ValueError, match="horizon"):
            make_env("ecs_rd", 1, horizon=bad)
    with pytest.raises(ValueError, match="morphology_seed"):
        make_env("ecs_rd", True)
    env = make_env("ecs_rd", 1, horizon=2)
    with pytest.raises(ValueError, match="reset"):
        env.step(np.zeros(env.rig.m))
    env.reset(seed=0)
    env.step(np.zeros(env.rig.m))
    env.step(np.zeros(env.rig.m))
    with pytest.raises(ValueError, match="over"):
        env.step(np.zeros(env.rig.m))
    tiny = knn_morphology(branching_morphology(100).positions / 1000)  # millimetres by mistake
    with pytest.raises(ValueError, match="micrometres"):
        EcsRd(tiny)
    made = gym.make("icml26/AstroK-v0", morphology_seed=7, horizon=3)
    y, _ = made.reset(seed=1)
    assert y.shape == made.unwrapped.rig.sensors.shape


def test_summaries_pair_controllers_on_the_same_episodes():
    from icml26.neuronctrl.evaluation import summaries

    rng = np.random.default_rng(0)
    eps = [
        {k: rng.random(5) for k in ("cost", "task", "energy", "viol", "vmax", "latency")} for _ in range(6)
    ]
    shifted = [{k: v + 1.0 for k, v in e.items()} for e in eps]
    point, boot = summaries({"a": eps, "b": shifted}, 50, np.random.default_rng(1))
    assert point["b"]["task"] == pytest.approx(point["a"]["task"] + 1.0)
    assert np.allclose(boot["b"]["task"], boot["a"]["task"] + 1.0)  # the same resampled episodes
    bad = [dict(e, group=i % 2) for i, e in enumerate(eps[:5])]
    with pytest.raises(ValueError, match="same test episodes"):
        summaries({"c": bad}, 5, rng)


def test_missing_weights_are_named_before_the_run(monkeypatch, tmp_path):
    from icml26.neuronctrl import experiment

    monkeypatch.setattr(experiment, "weights_path", lambda b, t: tmp_path / f"{b}_{t}.pt")
    with pytest.raises(ValueError, match="dbs seed 0"):
        experiment._require_weights({"train_seeds": 1, "other_benchmarks": True})
