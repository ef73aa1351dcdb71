"""Shared test configuration: hypothesis profiles, the suite's order and its shared fixtures.

Profiles: ``ci`` (derandomized, 20 examples a test, no deadline — the 2-core CI machine) and
``dev`` (150 examples a test). Select with ``--hypothesis-profile=ci``. A test with a budget of
its own writes ``max_examples=budget(n)`` (tests/helpers/examples.py): ``n`` at the reference of
40, scaled by the profile — half under ``ci``, 3.75× under ``dev``.

Speed (issue 33, docs/architecture.md "The suite"): tests marked ``slow`` run first, so that
xdist's ``loadgroup`` hands the long ones out before the short ones fill the gaps; once the
tests are collected, the objects alive then (modules, the collected items) are frozen out of the
garbage collector, so a full collection — statsmodels' Holm runs ``gc.collect()`` on every
call — scans only what the tests create.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=20,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.register_profile("dev", max_examples=150, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The ``slow`` tests first (a stable sort: the rest keep their order)."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Freeze what collection left alive out of the garbage collector's full passes."""
    gc.collect()
    gc.freeze()


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
