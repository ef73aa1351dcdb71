"""Regression measures (mse, rmse, mae) against scikit-learn, grouped.

Oracle: ``sklearn.metrics.mean_squared_error``, ``root_mean_squared_error`` and
``mean_absolute_error`` (with ``sample_weight``) on each ``partition_by`` part, compared with the
expressions inside ``group_by().agg()``; tolerance 1e-9. A group whose weights are all 0 is 0/0:
null here, an error in scikit-learn.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import mean_absolute_error, mean_squared_error, root_mean_squared_error

import frameeval as fe
from frameeval.exceptions import MissingValueError, NegativeValueError
from tests.helpers.oracle import assert_close

SKLEARN = {
    "mse": mean_squared_error,
    "rmse": root_mean_squared_error,
    "mae": mean_absolute_error,
}
BUILDERS = {"mse": fe.mse, "rmse": fe.rmse, "mae": fe.mae}


@st.composite
def regression_frames(draw) -> pl.DataFrame:
    """Columns g, y, f (Float64, or Int64 for integer targets) and w (0..3 or floats, zeros in)."""
    value = st.floats(-1e3, 1e3, allow_nan=False)
    integer = draw(st.booleans())
    if integer:
        value = st.integers(-50, 50)
    g, y, f, w = [], [], [], []
    for group in range(draw(st.integers(1, 3))):
        n = draw(st.integers(1, 8))
        truth = draw(st.lists(value, min_size=n, max_size=n))
        pred = (
            list(truth)
            if draw(st.booleans()) and n < 3
            else draw(st.lists(value, min_size=n, max_size=n))
        )
        weight = draw(
            st.lists(st.one_of(st.just(0.0), st.floats(0.01, 10.0)), min_size=n, max_size=n)
        )
        g += [group] * n
        y += truth
        f += pred
        w += weight
    dtype = pl.Int64 if integer else pl.Float64
    return pl.DataFrame(
        {"g": g, "y": y, "f": f, "w": w},
        schema={"g": pl.Int64, "y": dtype, "f": dtype, "w": pl.Float64},
    )


@given(regression_frames())
def test_regression_measures_match_sklearn(df: pl.DataFrame) -> None:
    exprs = [b("y", "f").alias(n) for n, b in BUILDERS.items()]
    exprs += [b("y", "f", weight="w").alias(f"{n}_w") for n, b in BUILDERS.items()]
    out = df.group_by("g").agg(exprs).sort("g")
    for name, oracle in SKLEARN.items():
        plain, weighted = [], []
        for part in sorted(df.partition_by("g"), key=lambda p: p["g"][0]):
            y, f, w = (part[c].to_numpy().astype(float) for c in ("y", "f", "w"))
            plain.append(oracle(y, f))
            weighted.append(oracle(y, f, sample_weight=w) if w.sum() > 0 else None)
        assert_close(out[name].to_list(), plain)
        assert_close(out[f"{name}_w"].to_list(), weighted)


def test_rmse_is_root_of_mse_and_perfect_prediction_is_zero() -> None:
    df = pl.DataFrame({"y": [1.0, 2.0, 4.0], "f": [1.0, 2.0, 4.0], "e": [0.0, 3.0, 1.0]})
    out = df.select(fe.mse("y", "f"), fe.rmse("y", "f"), fe.mae("y", "f"))
    assert out.row(0) == (0.0, 0.0, 0.0)
    out = df.select(fe.mse("y", "e"), fe.rmse("y", "e"))
    assert out["rmse"].item() == pytest.approx(np.sqrt(out["mse"].item()), abs=1e-12)


def test_zero_total_weight_is_null() -> None:
    df = pl.DataFrame({"y": [1.0, 2.0], "f": [0.0, 2.0], "w": [0.0, 0.0]})
    out = df.select(*(b("y", "f", weight="w") for b in BUILDERS.values()))
    assert out.row(0) == (None, None, None)


@pytest.mark.parametrize("name", list(BUILDERS))
@pytest.mark.parametrize(
    ("column", "value", "error", "text"),
    [
        ("y", None, MissingValueError, r"column 'y' \(truth=\) must not contain nulls, got null"),
        (
            "f",
            float("nan"),
            MissingValueError,
            r"column 'f' \(pred=\) must not contain NaN, got NaN",
        ),
        (
            "f",
            float("inf"),
            MissingValueError,
            r"column 'f' \(pred=\) must be finite, got inf or -inf",
        ),
        ("w", -1.0, NegativeValueError, r"column 'w' \(weight=\) must be >= 0, got -1\.0"),
        ("w", float("nan"), MissingValueError, r"column 'w' \(weight=\) must not contain NaN"),
    ],
    ids=["null-truth", "nan-pred", "inf-pred", "negative-weight", "nan-weight"],
)
def test_invalid_values_raise(name, column, value, error, text) -> None:
    df = pl.DataFrame({"y": [1.0, 2.0, 3.0], "f": [1.5, 2.0, 2.5], "w": [1.0, 1.0, 2.0]})
    df = df.with_columns(pl.Series(column, [1.0, value, 3.0], dtype=pl.Float64))
    lazy = df.lazy().select(BUILDERS[name]("y", "f", weight="w"))
    with pytest.raises(error, match=rf"^{name}\(\): {text}"):
        fe.collect(lazy)
