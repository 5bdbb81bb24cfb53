"""A fit stopped between refreshes continues from its checkpoint and ends as an uninterrupted fit."""

from __future__ import annotations

import pickle

import pytest
import torch

from icml26.flow_sampling import AdjointSampler, FlowSampler, make_target


class Stopped(Exception):
    pass


class MemoryCheckpoint:
    """Keeps the last saved state (a pickled copy, as a file would); raises after ``stop_after`` saves."""

    def __init__(self, stop_after: int | None = None):
        self.data, self.saves, self.stop_after = None, 0, stop_after

    def save(self, state) -> None:
        self.data = pickle.dumps(state)
        self.saves += 1
        if self.saves == self.stop_after:
            raise Stopped

    def load(self):
        return None if self.data is None else pickle.loads(self.data)


def _params(model) -> list[torch.Tensor]:
    return [p.detach().clone() for p in model.parameters()]


def _flow(name: str, **kw) -> FlowSampler:
    args = {"samples_per_refresh": 100, "steps_per_refresh": 7, "batch_size": 64, "buffer_size": 250}
    return FlowSampler(make_target(name), hidden=16, n_steps=8, seed=4, **{**args, **kw})


@pytest.mark.parametrize("name", ["gauss2d", "dw4"])
def test_flow_sampler_resumed_from_a_checkpoint_equals_an_uninterrupted_fit(name):
    straight = _flow(name).fit(600)
    ckpt = MemoryCheckpoint(stop_after=2)
    with pytest.raises(Stopped):
        _flow(name).fit(600, checkpoint=ckpt)
    assert pickle.loads(ckpt.data)["counters"]["refreshes_"] == 2
    ckpt.stop_after = None
    resumed = _flow(name).fit(600, checkpoint=ckpt)
    assert resumed.refreshes_ == straight.refreshes_ == 6 and ckpt.saves == 2 + 4
    for a, b in zip(_params(straight.model_), _params(resumed.model_), strict=True):
        assert torch.equal(a, b)
    assert resumed.history_ == straight.history_
    for k in FlowSampler._COUNTERS:
        assert getattr(resumed, k) == getattr(straight, k), k
    assert torch.equal(resumed.sample(50, seed=1), straight.sample(50, seed=1))


def test_a_flow_checkpoint_of_other_parameters_is_refused():
    ckpt = MemoryCheckpoint()
    _flow("gauss2d").fit(200, checkpoint=ckpt)
    with pytest.raises(ValueError, match="fit with other parameters"):
        _flow("gauss2d", lr=2e-3).fit(200, checkpoint=ckpt)
    with pytest.raises(ValueError, match="beyond this fit's 1"):
        _flow("gauss2d").fit(100, checkpoint=ckpt)


def _adjoint() -> AdjointSampler:
    energy = make_target("dw4")
    return AdjointSampler(
        energy, samples_per_refresh=100, steps_per_refresh=5, batch_size=50, buffer_size=250, hidden=16,
        n_steps=8, seed=2,
    )  # fmt: skip


def test_adjoint_sampler_resumed_from_a_checkpoint_equals_an_uninterrupted_fit():
    straight = _adjoint().fit(500)
    ckpt = MemoryCheckpoint(stop_after=3)
    with pytest.raises(Stopped):
        _adjoint().fit(500, checkpoint=ckpt)
    ckpt.stop_after = None
    resumed = _adjoint().fit(500, checkpoint=ckpt)
    assert resumed.energy_calls == straight.energy_calls == 500
    for a, b in zip(_params(straight.model), _params(resumed.model), strict=True):
        assert torch.equal(a, b)
    assert torch.equal(resumed.sample(40, seed=3), straight.sample(40, seed=3))
    other = AdjointSampler(make_target("dw4"), samples_per_refresh=100, hidden=16, seed=2)
    with pytest.raises(ValueError, match="fit with other parameters"):
        other.fit(500, checkpoint=ckpt)


def test_an_experiment_part_stopped_mid_fit_resumes_to_the_same_output(tmp_path, monkeypatch):
    from icml26.common.checkpoint import finished_units, unit, units_in
    from icml26.flow_sampling import experiment as X

    cfg = dict(X.EXPERIMENT.profiles["smoke"], budget=2000, n_eval=100, curve_points=3)
    ref = X.reference("gauss2d", make_target("gauss2d"), cfg)
    straight = {part: getattr(X, f"_{part}_part")("gauss2d", cfg, 3, ref) for part in ("fs", "as")}
    for part in ("fs", "as"):
        save, calls = X._PartCheckpoint.save, []

        def stop_after_two(self, state, save=save, calls=calls):
            save(self, state)
            calls.append(1)
            if len(calls) == 2:
                raise Stopped

        monkeypatch.setattr(X._PartCheckpoint, "save", stop_after_two)
        compute = getattr(X, f"_{part}_part")
        with units_in(tmp_path), pytest.raises(Stopped):
            unit(f"p.{part}", lambda compute=compute: compute("gauss2d", cfg, 3, ref))
        assert (tmp_path / f"p.{part}.progress").is_file()
        monkeypatch.setattr(X._PartCheckpoint, "save", save)
        with units_in(tmp_path):
            resumed = unit(f"p.{part}", lambda compute=compute: compute("gauss2d", cfg, 3, ref))
        assert resumed["metrics"] == straight[part]["metrics"] and resumed["curve"] == straight[part]["curve"]
        assert len(resumed["curve"]) == 3 and resumed["seconds"] > 0
        if part == "fs":
            assert resumed["accounting"] == straight[part]["accounting"]
            assert resumed["accounting"]["calls"] == 2000
    assert finished_units(tmp_path) == ["p.as", "p.fs"]
    assert not list(tmp_path.glob("*.progress"))
