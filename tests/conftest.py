"""Fixtures shared by every method's tests."""

import pytest
import torch


@pytest.fixture
def one_torch_thread():
    """Run a test on one torch thread (tiny models: extra intra-op threads only contend), then restore."""
    previous = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(previous)


def pytest_collection_modifyitems(config, items):
    """Tests marked ``loopback`` (a local Ray, a stub HTTP server, a Flower simulation: anything that talks to
    itself over 127.0.0.1) are skipped, with the reason, where this machine has no working loopback
    interface (e.g. in a network namespace without one)."""
    from icml26.common.runner import _loopback

    why = _loopback()
    if why:
        skip = pytest.mark.skip(reason=f"needs a loopback interface: {why}")
        for item in items:
            if "loopback" in item.keywords:
                item.add_marker(skip)
