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
