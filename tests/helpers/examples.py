"""How many examples a hypothesis test draws, scaled by the profile in use.

A test that needs another number than the profile's own writes ``@settings(max_examples=
budget(n))``: ``n`` is its budget at the reference of 40 examples a test, and the profile
scales it as it scales the others — the ``ci`` profile (20 a test, the 2-core CI machine) runs
half, the ``dev`` profile (150) 3.75×. ``pytest --hypothesis-profile=dev`` therefore checks
every property on more random tables, not only the tests without a budget of their own.
"""

from __future__ import annotations

import math

from hypothesis import settings

#: the examples a test draws under a profile of this many (the budgets are written for it)
REFERENCE = 40


def budget(n: int) -> int:
    """``n`` examples at the reference profile, scaled to the profile loaded now (at least 2)."""
    return max(2, math.ceil(n * settings.default.max_examples / REFERENCE))
