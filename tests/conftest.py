"""Shared test configuration: hypothesis profiles and helpers.

Profiles: ``ci`` (derandomized, bounded examples, no deadline — the 2-core CI machine) and
``dev`` (more examples). Select with ``--hypothesis-profile=ci``.
"""

from __future__ import annotations

import os

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
