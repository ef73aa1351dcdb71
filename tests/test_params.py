"""frameeval._params: the declared scalar rules accept exactly what they say and word the error
the one way (``<func>(): <name> must be <rule>, got <value!r>.``)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from frameeval._params import (
    A_BOOL,
    ALPHA,
    FLAG,
    LEVEL,
    N_JOBS,
    RESAMPLES,
    SEED,
    Flag,
    Items,
    Number,
    Values,
)
from frameeval.exceptions import InvalidParameterError


@pytest.mark.parametrize(
    ("rule", "text"),
    [
        (Number(low=1, integer=True), "an integer >= 1"),
        (Number(low=0.0, closed="neither"), "a finite number > 0"),
        (Number(high=5), "a finite number <= 5"),
        (Number(low=0.0, high=1.0, closed="right"), "a finite number in (0, 1]"),
        (Number(low=0.0, high=1.0, none=True), "a finite number in [0, 1] or None"),
        (SEED, "an integer in [0, 2**64)"),
        (RESAMPLES, "an integer >= 2"),
        (ALPHA, "in (0, 1)"),
        (LEVEL, "a confidence level in (0, 1)"),
        (Number(), "a finite number"),
    ],
)
def test_a_rule_says_itself_in_words(rule: Number, text: str) -> None:
    assert rule.describe() == text


@pytest.mark.parametrize(
    "value", [True, False, "0.5", None, math.nan, math.inf, -math.inf, [0.5], 0.0, 1.0, 1]
)
def test_alpha_refuses_what_is_not_a_level(value: object) -> None:
    with pytest.raises(InvalidParameterError, match=r"^f\(\): alpha must be in \(0, 1\), got "):
        ALPHA("f", "alpha", value)


@pytest.mark.parametrize("value", [-1, 2**64, 2**64 + 1, 1.0, True, None, "1"])
def test_seed_refuses_anything_outside_its_64_bit_words(value: object) -> None:
    with pytest.raises(InvalidParameterError, match=r"seed must be an integer in \[0, 2\*\*64\)"):
        SEED("bootstrap_ci", "seed", value)


@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_seed_keeps_every_64_bit_word_as_it_is(seed: int) -> None:
    assert SEED("f", "seed", seed) == seed
    assert type(SEED("f", "seed", seed)) is int


@given(
    st.floats(allow_nan=True, allow_infinity=True) | st.integers(-10, 10) | st.booleans(),
    st.floats(-5, 5),
    st.floats(-5, 5),
    st.sampled_from(["both", "left", "right", "neither"]),
)
def test_a_number_rule_holds_exactly_on_its_interval(value, a, b, closed) -> None:
    low, high = min(a, b), max(a, b)
    rule = Number(low=low, high=high, closed=closed)
    inside = (
        not isinstance(value, bool)
        and math.isfinite(value)
        and (low <= value if closed in ("both", "left") else low < value)
        and (value <= high if closed in ("both", "right") else value < high)
    )
    assert rule.holds(value) == inside
    if inside:
        assert rule("f", "x", value) == float(value)
    else:
        with pytest.raises(InvalidParameterError, match=r"^f\(\): x must be a finite number in "):
            rule("f", "x", value)


def test_none_passes_only_where_declared() -> None:
    assert Number(none=True)("f", "x", None) is None
    with pytest.raises(InvalidParameterError, match="got None"):
        Number()("f", "x", None)


@pytest.mark.parametrize(
    ("value", "ok"),
    [(1, True), (8, True), (-1, True), (None, True), (0, False), (-2, False), (-1.0, False)]
    + [(True, False), (2.0, False), ("2", False)],
)
def test_n_jobs_takes_minus_one_beside_its_range(value: object, ok: bool) -> None:
    assert N_JOBS.holds(value) == ok
    if not ok:
        with pytest.raises(
            InvalidParameterError,
            match=r"^evaluate\(\): n_jobs must be an integer >= 1, -1 or None, got ",
        ):
            N_JOBS("evaluate", "n_jobs", value)


@pytest.mark.parametrize("value", [0, 1, None, "yes", np.bool_(True), 1.0])
def test_a_flag_is_true_or_false_only(value: object) -> None:
    message = f"f(): exact must be True or False, got {value!r}."
    with pytest.raises(InvalidParameterError) as raised:
        FLAG("f", "exact", value)
    assert str(raised.value) == message
    assert FLAG("f", "exact", True) is True
    assert Flag(none=True)("f", "exact", None) is None
    with pytest.raises(InvalidParameterError, match=r"^f\(\): exact must be a bool, got 1\.$"):
        A_BOOL("f", "exact", 1)


@pytest.mark.parametrize(
    ("value", "ok"),
    [(math.nan, True), (math.inf, True), (1, True), (np.float64(0.5), True), (True, False),
     (np.int64(1), False), ("1", False), (None, False)],
)  # fmt: skip
def test_a_number_of_given_types_may_leave_finiteness_to_a_later_rule(value, ok) -> None:
    assert Number(types=(int, float), finite=False).holds(value) is ok


def test_items_word_the_whole_sequence() -> None:
    rule = Items(Number(finite=False), 2, "two numbers")
    assert rule("f", "pair", (1, math.inf)) == (1, math.inf)  # inf passes to a later rule
    for bad in ((1,), (1, 2, 3), "12", (1, True), 5):
        with pytest.raises(InvalidParameterError, match=r"^f\(\): pair must be two numbers, got "):
            rule("f", "pair", bad)


def test_values_name_the_key_of_the_first_refused_value() -> None:
    rule = Values(Number(finite=False), ("a", "b"), "weight", "finite")
    assert rule("f", "w", {(0, 1): np.float64(2), (1, 0): math.nan})
    with pytest.raises(
        InvalidParameterError, match=r"^f\(\): w must be finite, got weight True for a=1, b='x'\.$"
    ):
        rule("f", "w", {(0, 1): 1.0, (1, "x"): True, (2, 2): "no"})
    with pytest.raises(
        InvalidParameterError, match=r"^f\(\): w keys must be \(a, b\) pairs, got 3\.$"
    ):
        rule("f", "w", {3: 1.0})
