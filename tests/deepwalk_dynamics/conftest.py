"""One BLAS/OpenMP thread for this method's tests (the 2 shared cores; k-means and GD oversubscribe otherwise)."""

import pytest
from threadpoolctl import threadpool_limits


@pytest.fixture(autouse=True, scope="session")
def _one_thread():
    with threadpool_limits(1):
        yield
