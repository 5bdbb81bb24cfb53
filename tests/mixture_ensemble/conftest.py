"""A plain smoke run of the experiment, shared by the tests that read it (one run per session)."""

import pytest

from icml26.mixture_ensemble.experiment import EXPERIMENT


@pytest.fixture(scope="session")
def smoke_result():
    """``EXPERIMENT.run(smoke, seed 0)`` outside any unit store (the run sets one torch thread itself)."""
    return EXPERIMENT.run(dict(EXPERIMENT.profiles["smoke"]), 0)
