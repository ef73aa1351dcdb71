"""Interval expressions (frameeval/forecast/interval.py) against scoringrules' interval score
and the definitions, per group, weighted, on every face (select, group_by().agg(), over())."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
import scoringrules as sr
from hypothesis import given, settings
from hypothesis import strategies as st

import frameeval as fe
from frameeval.exceptions import (
    InvalidDtypeError,
    InvalidParameterError,
    InvalidValueError,
    MissingValueError,
    NegativeValueError,
)
from tests.forecast.frames import interval_frame
from tests.helpers.examples import budget
from tests.helpers.oracle import assert_close


def _oracle(part: pl.DataFrame, alpha: float, weighted: bool) -> tuple[float, float, float]:
    y, lo, hi = (part[c].to_numpy() for c in ("y", "lo", "hi"))
    w = part["w"].to_numpy() if weighted else np.ones(len(y))
    if w.sum() == 0:
        return (np.nan, np.nan, np.nan)
    return (
        np.average((lo <= y) & (y <= hi), weights=w),
        np.average(hi - lo, weights=w),
        np.average(sr.interval_score(y, lo, hi, alpha, backend="numpy"), weights=w),
    )


@settings(max_examples=budget(10))
@given(seed=st.integers(0, 10_000), alpha=st.sampled_from([0.05, 0.2, 0.5]), weighted=st.booleans())
def test_equal_scoringrules_per_group(seed: int, alpha: float, weighted: bool) -> None:
    df = interval_frame(seed)
    weight = "w" if weighted else None
    out = (
        df.lazy()
        .group_by("g")
        .agg(
            fe.interval_coverage("y", "lo", "hi", weight=weight),
            fe.interval_width("lo", "hi", weight=weight),
            fe.interval_score("y", "lo", "hi", alpha=alpha, weight=weight),
        )
        .sort("g")
        .collect()
    )
    for part in df.partition_by("g", maintain_order=True):
        row = out.filter(pl.col("g") == part["g"][0])
        expected = _oracle(part, alpha, weighted)
        actual = row.select("interval_coverage", "interval_width", "interval_score").row(0)
        assert_close(actual, expected)


def test_worked_numbers() -> None:
    """By hand: y = 2 below [2.5, 3] at α = 0.2 scores 0.5 + 10·0.5 = 5.5; y = 6 above
    [4, 5] scores 1 + 10·1 = 11; y inside [0, 4] scores its width 4."""
    df = pl.DataFrame({"y": [2.0, 6.0, 3.0], "lo": [2.5, 4.0, 0.0], "hi": [3.0, 5.0, 4.0]})
    out = df.select(
        fe.interval_score("y", "lo", "hi", alpha=0.2).alias("is"),
        fe.interval_coverage("y", "lo", "hi").alias("c"),
        fe.interval_width("lo", "hi").alias("wd"),
    ).row(0)
    assert out == pytest.approx(((5.5 + 11 + 4) / 3, 1 / 3, (0.5 + 1 + 4) / 3), abs=1e-12)
    # the closed interval covers its ends
    ends = pl.DataFrame({"y": [1.0, 2.0], "lo": [1.0, 0.0], "hi": [3.0, 2.0]})
    assert ends.select(fe.interval_coverage("y", "lo", "hi")).item() == 1.0


def test_over_lazy_and_row_order() -> None:
    df = interval_frame(7)
    expr = fe.interval_score("y", "lo", "hi", alpha=0.1, weight="w")
    grouped = df.group_by("g").agg(expr).sort("g")
    windowed = df.select("g", expr.over("g")).unique().sort("g")
    assert_close(windowed["interval_score"], grouped["interval_score"])
    shuffled = df.sample(fraction=1.0, shuffle=True, seed=3).lazy()
    again = shuffled.group_by("g").agg(expr).sort("g").collect()
    assert_close(again["interval_score"], grouped["interval_score"], tol=1e-12)


def test_integer_weights_repeat_rows() -> None:
    df = interval_frame(11).with_columns(pl.col("w") + 1)
    repeated = df.select(pl.all().repeat_by(pl.col("w").cast(pl.Int64)).explode())
    for expr, plain in [
        (
            fe.interval_score("y", "lo", "hi", alpha=0.3, weight="w"),
            fe.interval_score("y", "lo", "hi", alpha=0.3),
        ),
        (fe.interval_coverage("y", "lo", "hi", weight="w"), fe.interval_coverage("y", "lo", "hi")),
    ]:
        assert_close(df.select(expr).item(), repeated.select(plain).item())


def test_undefined_is_null() -> None:
    df = pl.DataFrame({"y": [1.0], "lo": [0.0], "hi": [2.0], "w": [0.0]})
    assert df.select(fe.interval_score("y", "lo", "hi", alpha=0.5, weight="w")).item() is None
    assert df.clear().select(fe.interval_width("lo", "hi")).item() is None


def _frame(**columns: list) -> pl.DataFrame:
    base = {"g": [1, 1, 2], "y": [1.0, 2.0, 3.0], "lo": [0.0, 1.0, 2.0], "hi": [2.0, 3.0, 4.0]}
    return pl.DataFrame({**base, **columns})


@pytest.mark.parametrize(
    ("frame", "error", "match"),
    [
        (
            _frame(lo=[0.0, 3.5, 2.0]),
            InvalidValueError,
            r"^interval_score\(\): column 'lo' \(lower=\) must be <= column 'hi' \(upper=\) in "
            r"every row, got lower 3.5 > upper 3.0\.$",
        ),
        (
            _frame(y=[1.0, float("nan"), 3.0]),
            MissingValueError,
            r"^interval_score\(\): column 'y' \(truth=\) must not contain NaN, got NaN\.$",
        ),
        (
            _frame(hi=[2.0, float("inf"), 4.0]),
            MissingValueError,
            r"^interval_score\(\): column 'hi' \(upper=\) must be finite",
        ),
        (
            _frame(lo=[0.0, None, 2.0]),
            MissingValueError,
            r"^interval_score\(\): column 'lo' \(lower=\) must not contain nulls",
        ),
        (
            _frame(y=["a", "b", "c"]),
            InvalidDtypeError,
            r"^interval_score\(\): column 'y' \(truth=\) must be numeric \(integer or float\), got String",
        ),
        (
            _frame(w=[1.0, -2.0, 1.0]),
            NegativeValueError,
            r"^interval_score\(\): column 'w' \(weight=\) must be >= 0, got -2\.0\.$",
        ),
    ],
)
def test_bad_input_is_a_typed_error_on_every_face(
    frame: pl.DataFrame, error: type, match: str
) -> None:
    weight = "w" if "w" in frame.columns else None
    expr = fe.interval_score("y", "lo", "hi", alpha=0.1, weight=weight)
    with pytest.raises(error, match=match):
        frame.select(expr)
    with pytest.raises(error, match=match):
        frame.lazy().group_by("g").agg(expr).collect()
    with pytest.raises(error, match=match):
        frame.select(expr.over("g"))


def test_other_builders_name_themselves() -> None:
    bad = _frame(lo=[0.0, 3.5, 2.0])
    with pytest.raises(InvalidValueError, match=r"^interval_width\(\): column 'lo' \(lower=\)"):
        bad.select(fe.interval_width("lo", "hi"))
    with pytest.raises(InvalidValueError, match=r"^interval_coverage\(\): column 'lo'"):
        bad.select(fe.interval_coverage("y", "lo", "hi"))


@pytest.mark.parametrize("alpha", [0, 1, 1.5, -0.1, True, "0.1", float("nan")])
def test_alpha_outside_the_unit_interval(alpha: object) -> None:
    with pytest.raises(
        InvalidParameterError, match=r"^interval_score\(\): alpha must be in \(0, 1\)"
    ):
        fe.interval_score("y", "lo", "hi", alpha=alpha)  # type: ignore[arg-type]


def test_column_arguments_must_be_names() -> None:
    with pytest.raises(InvalidParameterError, match=r"^interval_width\(\): lower must be a column"):
        fe.interval_width(1, "hi")  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError, match=r"^interval_coverage\(\): weight must be"):
        fe.interval_coverage("y", "lo", "hi", weight=3)  # type: ignore[arg-type]
