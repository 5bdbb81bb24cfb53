"""Bad input gets one clear message, before anything runs."""

from __future__ import annotations

import subprocess
import sys

import pytest
import torch

from icml26.flow_sampling import FlowSampler, Lorentz, Sphere, make_target
from icml26.flow_sampling.experiment import EXPERIMENT, check


def test_an_energy_returning_non_finite_values_or_the_wrong_shape_is_rejected_before_training():
    calls = []

    def bad(x):
        calls.append(len(x))
        return torch.full((len(x),), float("nan"))

    with pytest.raises(ValueError, match="non-finite"):
        FlowSampler(bad, dim=2).fit(1000)
    assert calls == [4]  # only the probe ran
    with pytest.raises(ValueError, match=r"shape \(n,\)"):
        FlowSampler(lambda x: x.sum(), dim=2).fit(1000)
    with pytest.raises(ValueError, match="dim="):
        FlowSampler(lambda x: x.sum(-1))


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"gamma": 0.0}, "gamma"),
        ({"gamma": -1.0}, "gamma"),
        ({"n_steps": 0}, "n_steps"),
        ({"samples_per_refresh": 0}, "samples_per_refresh"),
        ({"lr": float("nan")}, "lr"),
        ({"network": "transformer"}, "network"),
        ({"network": "egnn"}, "particle"),
    ],
)
def test_bad_hyperparameters_are_rejected(kwargs, match):
    with pytest.raises(ValueError, match=match):
        FlowSampler(make_target("gauss2d"), **kwargs)


def test_bad_calls_are_rejected():
    fs = FlowSampler(
        make_target("gauss2d"), samples_per_refresh=100, steps_per_refresh=1, hidden=8, n_steps=4
    )
    with pytest.raises(ValueError, match="not fitted"):
        fs.sample(10)
    with pytest.raises(ValueError, match="energy_budget"):
        fs.fit(50)
    fs.fit(100)
    with pytest.raises(ValueError, match="gamma"):
        fs.sample(10, gamma=-0.5)
    with pytest.raises(ValueError, match=r"shape \(n, 2\)"):
        fs.log_prob(torch.zeros(3, 5))
    with pytest.raises(ValueError, match="non-finite"):
        fs.log_prob(torch.tensor([[0.0, float("inf")]]))


def test_points_off_the_manifold_and_a_mismatched_manifold_are_rejected():
    vmf = make_target("vmf_s2")
    with pytest.raises(ValueError, match="differs"):
        FlowSampler(vmf, manifold=Sphere(3))
    with pytest.raises(ValueError, match="Sphere, Lorentz"):
        FlowSampler(vmf, manifold="sphere")
    fs = FlowSampler(vmf, hidden=8)
    with pytest.raises(ValueError, match="off the manifold"):
        fs.fit_buffer(torch.tensor([[1.0, 1.0, 0.0]], dtype=torch.float64), 1)
    with pytest.raises(ValueError, match="lives in R\\^3"):
        FlowSampler(make_target("gauss2d"), manifold=Lorentz(2))


@pytest.mark.parametrize(
    ("key", "value", "match"),
    [
        ("targets", ["nope"], "targets"),
        ("gamma", -1.0, "gamma"),
        ("budget", 10, "budget"),
        ("seeds", 0, "seeds"),
    ],
)
def test_bad_configs_are_rejected(key, value, match):
    with pytest.raises(ValueError, match=match):
        check({**EXPERIMENT.profiles["smoke"], key: value})


def test_cli_rejects_a_bad_setting_with_exit_2_and_no_traceback():
    out = subprocess.run(
        [sys.executable, "-m", "icml26", "run", "flow_sampling", "--profile", "smoke", "--set", "gamma=-1"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 2
    assert "gamma" in out.stderr and "Traceback" not in out.stderr
