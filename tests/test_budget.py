"""The hypothesis budget of a test (tests/helpers/examples.py) follows the profile in use."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers.examples import REFERENCE, budget

drawn: list[int] = []


def test_a_budget_scales_with_the_profile() -> None:
    """At the reference the profile's own number; otherwise in proportion, at least 2."""
    assert budget(REFERENCE) == settings.default.max_examples
    assert budget(1) >= 2  # a property is never checked on a single table
    assert budget(2 * REFERENCE) == 2 * settings.default.max_examples


@settings(max_examples=budget(10), derandomize=True)
@given(st.integers())
def _draws(x: int) -> None:
    drawn.append(x)


def test_a_test_draws_its_budget() -> None:
    """A test with ``budget(10)`` runs that many distinct examples under the profile."""
    drawn.clear()
    _draws()
    assert len(drawn) == budget(10)
