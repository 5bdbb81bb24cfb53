"""The plant: graph Laplacian, IMEX reaction-diffusion against closed forms, the ecs_rd env."""

import networkx as nx
import numpy as np
import pytest

from icml26.neuronctrl.env import make_env
from icml26.neuronctrl.morphology import (
    Morphology,
    branching_morphology,
    chain_morphology,
    from_networkx,
    knn_morphology,
)
from icml26.neuronctrl.plant import EcsRdSpec, ReactionDiffusion, bistable, front_speed, make_plant


def test_morphology_is_seeded_connected_and_round_trips_networkx():
    a, b = branching_morphology(3), branching_morphology(3)
    assert np.array_equal(a.positions, b.positions) and a.n_components() == 1
    assert not np.array_equal(a.positions[:5], branching_morphology(4).positions[:5])
    c = from_networkx(a.to_networkx())
    assert np.allclose(c.laplacian().toarray(), a.laplacian().toarray())


def test_laplacian_symmetric_psd_with_nullity_equal_to_components():
    m = branching_morphology(1)
    lap = m.laplacian().toarray()
    assert np.allclose(lap, lap.T) and np.allclose(lap @ np.ones(m.n), 0)
    ev = np.linalg.eigvalsh(lap)
    assert ev.min() > -1e-9 and np.sum(ev < 1e-9 * ev.max()) == 1
    # two chains side by side: two components, nullity 2
    two = Morphology(
        np.vstack([chain_morphology(5).positions, chain_morphology(4).positions + 10]),
        np.ones(9), np.array([[0, 1], [1, 2], [2, 3], [3, 4], [5, 6], [6, 7], [7, 8]]), np.arange(1.0, 8.0),
    )  # fmt: skip
    ev2 = np.linalg.eigvalsh(two.laplacian().toarray())
    assert two.n_components() == 2 and np.sum(np.abs(ev2) < 1e-9) == 2


def test_mass_is_conserved_without_reaction_actuation_or_flux():
    m = branching_morphology(2)
    sim = ReactionDiffusion(m, diffusion=4.0, dt=0.5)
    c = np.random.default_rng(0).uniform(0, 10, m.n)
    mass0 = m.volumes @ c
    for _ in range(200):
        c = sim.step(c)
    assert abs(m.volumes @ c - mass0) / mass0 <= 1e-10
    assert np.ptp(c) < 0.5  # and it did diffuse


def test_imex_decays_a_generalised_eigenmode_by_the_closed_form():
    import scipy.linalg

    m = knn_morphology(np.random.default_rng(5).uniform(0, 20, (60, 3)), k=5)
    lam, phi = scipy.linalg.eigh(m.laplacian().toarray(), np.diag(m.volumes))
    d, dt, n = 2.0, 0.3, 7
    sim = ReactionDiffusion(m, d, dt)
    for k in (1, 5, 30):
        c = phi[:, k].copy()
        for _ in range(n):
            c = sim.step(c)
        assert np.allclose(c, phi[:, k] * (1 + dt * d * lam[k]) ** (-n), rtol=1e-9, atol=1e-12)


def test_straight_cable_matches_the_1d_heat_kernel():
    n, h, d, dt, steps = 301, 1.0, 1.0, 0.02, 2500
    m = chain_morphology(n, h)
    sim = ReactionDiffusion(m, d, dt)
    c = np.zeros(n)
    c[n // 2] = 1.0 / h  # unit mass at the centre
    for _ in range(steps):
        c = sim.step(c)
    t = dt * steps
    x = (np.arange(n) - n // 2) * h
    kernel = np.exp(-(x**2) / (4 * d * t)) / np.sqrt(4 * np.pi * d * t)
    assert np.linalg.norm(c - kernel) / np.linalg.norm(kernel) <= 0.02


def test_bistable_front_speed_matches_the_cubic_formula():
    s = EcsRdSpec()
    n, h, dt = 500, 0.25, 0.01
    m = chain_morphology(n, h)
    sim = ReactionDiffusion(m, s.diffusion, dt, lambda c: bistable(c, s.c0, s.c_th, s.c_max, s.k))
    x = np.arange(n) * h
    c = np.where(x < 15, s.c_max, s.c0).astype(float)
    mid = (s.c0 + s.c_max) / 2

    def front(c):
        i = np.flatnonzero(c < mid)[0]
        return x[i - 1] + (c[i - 1] - mid) / (c[i - 1] - c[i]) * h

    for _ in range(1000):  # settle into the travelling profile
        c = sim.step(c)
    x0, steps = front(c), 3000
    for _ in range(steps):
        c = sim.step(c)
    speed = (front(c) - x0) / (steps * dt)
    expected = front_speed(s.diffusion, s.c0, s.c_th, s.c_max, s.k)
    assert abs(speed - expected) / expected <= 0.05


def test_env_steps_and_reports_violations_on_the_true_field():
    env = make_env("ecs_rd", 7, horizon=5)
    y, info = env.reset(seed=0)
    assert y.shape == env.observation_space.shape and info["field"].shape == (env.plant.n,)
    p = env.rig.sensors.size / env.plant.n
    assert 0.03 <= p <= 0.05
    for _ in range(5):
        y, r, term, trunc, info = env.step(np.zeros(env.plant.m))
    assert trunc and not term and np.isfinite(r)
    env.reset(seed=1)
    _, _, _, _, info = env.step(np.full(env.plant.m, 5.0))  # outside the box: clipped and flagged
    assert info["action_violation"] and info["violated"]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda e: e.step(np.zeros(3)), "action must be 6"),
        (lambda e: e.step(np.full(6, np.nan)), "action must be 6 finite"),
    ],
)
def test_bad_actions_are_rejected(call, message):
    env = make_env("ecs_rd", 1, horizon=3)
    env.reset(seed=0)
    with pytest.raises(ValueError, match=message):
        call(env)


def test_bad_plants_are_rejected():
    with pytest.raises(ValueError, match="disconnected"):
        g = nx.Graph()
        for i in range(4):
            g.add_node(i, pos=(i, 0, 0), volume=1.0)
        g.add_edge(0, 1, conductance=1.0)
        g.add_edge(2, 3, conductance=1.0)
        from icml26.neuronctrl.plant import EcsRd

        EcsRd(from_networkx(g))
    with pytest.raises(ValueError, match="benchmark 'heat' is unknown"):
        make_plant("heat", 0)
    with pytest.raises(ValueError, match="morphology_seed"):
        make_plant("ecs_rd", -1)
    with pytest.raises(ValueError, match="volumes"):
        Morphology(np.zeros((3, 3)), np.array([1, -1, 1.0]), np.array([[0, 1]]), np.array([1.0]))


def test_actuation_changes_mass_by_exactly_dt_times_the_source():
    plant = make_plant("ecs_rd", 6)
    plant.sim.reaction = None
    c, u = plant.rest(), np.array([-1.0, -0.5, 0.0, 0.0, -0.25, -1.0])
    c1 = plant.step(c, u)
    v = plant.morphology.volumes
    expected = plant.spec.substeps * plant.spec.dt * (plant.B @ u).sum()
    assert expected < 0 and abs((v @ c1 - v @ c) - expected) <= 1e-10 * abs(v @ c)
    assert np.allclose(plant.B.sum(axis=0), plant.spec.gain)  # u_j = -1 removes `gain` per time unit
