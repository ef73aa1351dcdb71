"""Shared test configuration: hypothesis profiles and helpers.

Profiles: ``ci`` (derandomized, bounded examples, no deadline — the 2-core CI machine) and
``dev`` (more examples). Select with ``--hypothesis-profile=ci``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=40,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.register_profile("dev", max_examples=150, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(scope="session")
def client() -> Iterator[Any]:
    """A two-process Dask LocalCluster for the whole session: the Dask test modules share it
    (they are one ``xdist_group``, so one xdist worker starts it once)."""
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(
        n_workers=2,
        processes=True,
        threads_per_worker=1,
        dashboard_address=":0",  # a free port: another worker's session may hold one
        memory_limit="1GiB",
    )
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()
