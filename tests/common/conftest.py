import os

import pytest
import toy_experiment

from icml26.common import registry

os.environ.setdefault("ICML26_PROGRESS", "0")


@pytest.fixture
def toy():
    registry.register(toy_experiment.EXPERIMENT)
    yield toy_experiment.EXPERIMENT
    registry.unregister("toy_pi")


def pytest_collection_modifyitems(config, items):
    """Tests marked ``loopback`` (a local Ray talks to itself over 127.0.0.1) are skipped, with the reason,
    where this machine has no working loopback interface (e.g. in a network namespace without one)."""
    from icml26.common.runner import _loopback

    why = _loopback()
    if why:
        skip = pytest.mark.skip(reason=f"needs a loopback interface: {why}")
        for item in items:
            if "loopback" in item.keywords:
                item.add_marker(skip)
