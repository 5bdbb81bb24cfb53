import os
import signal

import pytest
import toy_experiment

from icml26.common import registry

os.environ.setdefault("ICML26_PROGRESS", "0")


@pytest.fixture
def toy():
    registry.register(toy_experiment.EXPERIMENT)
    yield toy_experiment.EXPERIMENT
    registry.unregister("toy_pi")


@pytest.fixture
def calls(monkeypatch):
    """Count estimate_pi calls; ``calls["stop_at"] = k`` interrupts the k-th call."""
    counter = {"n": 0, "stop_at": None, "how": "interrupt"}
    real = toy_experiment.estimate_pi

    def counted(points):
        counter["n"] += 1
        if counter["n"] == counter["stop_at"]:
            if counter["how"] == "sigterm":
                os.kill(os.getpid(), signal.SIGTERM)
            raise KeyboardInterrupt
        return real(points)

    monkeypatch.setattr(toy_experiment, "estimate_pi", counted)
    return counter
