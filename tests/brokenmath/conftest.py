import os

import pytest

os.environ.setdefault("ICML26_PROGRESS", "0")


def pytest_collection_modifyitems(config, items):
    """Tests marked ``loopback`` (a stub HTTP server on 127.0.0.1) are skipped, with the reason, where this
    machine has no working loopback interface."""
    from icml26.common.runner import _loopback

    why = _loopback()
    if why:
        skip = pytest.mark.skip(reason=f"needs a loopback interface: {why}")
        for item in items:
            if "loopback" in item.keywords:
                item.add_marker(skip)
