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
