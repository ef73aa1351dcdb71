"""frameeval.compare._common's in-plan guards are the one guard primitive of ``_validate``."""

from __future__ import annotations

import polars as pl
import pytest

import frameeval as fe
from frameeval.compare._common import enforce, guard
from frameeval.exceptions import MissingValueError


def test_a_guard_fires_when_the_value_it_prints_is_null():
    """``pl.format`` gives null when any argument is null, so a guard built on it alone would
    pass silently exactly when the offending value is missing; the shared primitive prints
    ``null`` instead and raises."""
    lf = pl.LazyFrame({"x": [1.0, None]})
    checked = enforce(
        lf,
        guard(
            pl.col("x").is_null(),
            "MissingValueError",
            "f(): column 'x' must not contain nulls, got {}.",
            pl.col("x"),
        ),
    )
    with pytest.raises(
        MissingValueError, match=r"^f\(\): column 'x' must not contain nulls, got null\.$"
    ):
        fe.collect(checked)


def test_passing_guards_keep_every_row():
    lf = pl.LazyFrame({"x": [1.0, 2.0]})
    checked = enforce(lf, guard(pl.col("x") < 0, "InvalidValueError", "f(): {}", pl.col("x")))
    assert fe.collect(checked)["x"].to_list() == [1.0, 2.0]
