"""The shared door of the calibration functions (frameeval/calibration/_common.py): typed errors
for bad scores (naming column, group and value, eager and lazy) and bad parameters.
"""

from __future__ import annotations

import polars as pl
import pytest

import frameeval as fe
from frameeval.exceptions import (
    ColumnNotFoundError,
    InvalidDtypeError,
    InvalidParameterError,
    InvalidValueError,
    MissingValueError,
    UnknownLabelError,
)

# ---------------------------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------------------------
FUNCS = {
    "calibration_curve": fe.calibration_curve,
    "calibration_error": fe.calibration_error,
    "brier_decomposition": fe.brier_decomposition,
}


@pytest.mark.parametrize("name", list(FUNCS))
@pytest.mark.parametrize(
    ("value", "error", "text"),
    [
        (1.5, InvalidValueError, r"column 'p' \(score=\) must be a probability in \[0, 1\], got 1.5"),
        (-0.25, InvalidValueError, r"column 'p' \(score=\) must be a probability in \[0, 1\], got -0.25"),
        (float("nan"), MissingValueError, r"column 'p' \(score=\) must not contain NaN, got NaN"),
        (float("inf"), MissingValueError, r"column 'p' \(score=\) must be finite, got inf or -inf"),
        (None, MissingValueError, r"column 'p' \(score=\) must not contain nulls, got null"),
    ],
    ids=["above-1", "below-0", "nan", "inf", "null"],
)  # fmt: skip
def test_bad_scores_name_column_group_and_value(name, value, error, text) -> None:
    df = pl.DataFrame({"g": ["a", "a", "b", "b"], "y": [1, 0, 1, 0], "p": [0.5, 0.2, value, 0.1]})
    with pytest.raises(error, match=rf"^{name}\(\): {text} \(1 rows\) in group g=b\."):
        FUNCS[name](df, truth="y", score="p", by="g")
    lazy = FUNCS[name](df.lazy(), truth="y", score="p", by="g")
    with pytest.raises(error, match=rf"^{name}\(\): {text}"):
        fe.collect(lazy)


def test_schema_errors() -> None:
    df = pl.DataFrame({"y": [1, 0], "p": [0.5, 0.2], "s": ["a", "b"]})
    with pytest.raises(ColumnNotFoundError, match=r"^calibration_curve\(\): column 'q' \(score=\)"):
        fe.calibration_curve(df, truth="y", score="q")
    with pytest.raises(
        InvalidDtypeError, match=r"^calibration_curve\(\): column 's' \(score=\) must be numeric"
    ):
        fe.calibration_curve(df, truth="y", score="s")
    with pytest.raises(
        InvalidParameterError,
        match=r"^calibration_curve\(\): bins must be an integer >= 1, got 0\.",
    ):
        fe.calibration_curve(df, truth="y", score="p", bins=0)
    with pytest.raises(
        InvalidParameterError, match=r"strategy must be 'uniform' or 'quantile', got 'x'"
    ):
        fe.calibration_error(df, truth="y", score="p", strategy="x")
    with pytest.raises(
        InvalidParameterError, match=r"ci must be 'wilson', 'clopper_pearson' or None"
    ):
        fe.calibration_curve(df, truth="y", score="p", ci="exact")
    with pytest.raises(InvalidParameterError, match=r"alpha must be a number in \(0, 1\), got 1"):
        fe.calibration_curve(df, truth="y", score="p", alpha=1)
    with pytest.raises(
        InvalidParameterError, match=r"by= must not use the output column name 'bin'"
    ):
        fe.calibration_curve(df.with_columns(bin=1), truth="y", score="p", by="bin")
    with pytest.raises(UnknownLabelError, match=r"pos_label 2 must occur in column 'y'"):
        fe.calibration_curve(df, truth="y", score="p", pos_label=2)
    with pytest.raises(InvalidParameterError, match=r"bins must be None or an integer >= 1"):
        fe.brier_decomposition(df, truth="y", score="p", bins=2.5)
    with pytest.raises(
        InvalidParameterError, match=r"multiclass must be 'top_label' or 'classwise'"
    ):
        fe.calibration_error(df, truth="y", score="p", multiclass="ovr")
    with pytest.raises(InvalidParameterError, match=r"labels= is for a multiclass score"):
        fe.calibration_error(df, truth="y", score="p", labels=[0, 1])


def test_empty_eager_frame_is_an_error() -> None:
    df = pl.DataFrame({"y": [], "p": []}, schema={"y": pl.Int64, "p": pl.Float64})
    with pytest.raises(
        fe.exceptions.EmptyFrameError,
        match=r"^calibration_error\(\): data must have at least one row",
    ):
        fe.calibration_error(df, truth="y", score="p")


@pytest.mark.parametrize("name", list(FUNCS))
@pytest.mark.parametrize(
    ("value", "error", "text"),
    [
        (-0.5, InvalidValueError, r"column 'w' \(weight=\) must be >= 0, got -0.5"),
        (float("nan"), MissingValueError, r"column 'w' \(weight=\) must not contain NaN, got NaN"),
        (float("inf"), MissingValueError, r"column 'w' \(weight=\) must be finite, got inf or -inf"),
    ],
    ids=["negative", "nan", "inf"],
)  # fmt: skip
def test_bad_weights_name_column_group_and_value(name, value, error, text) -> None:
    df = pl.DataFrame(
        {"g": ["a", "a", "b", "b"], "y": [1, 0, 1, 0], "p": [0.5, 0.2, 0.3, 0.1],
         "w": [1.0, 2.0, value, 1.0]}
    )  # fmt: skip
    with pytest.raises(error, match=rf"^{name}\(\): {text} \(1 rows\) in group g=b\."):
        FUNCS[name](df, truth="y", score="p", by="g", weight="w")
    lazy = FUNCS[name](df.lazy(), truth="y", score="p", by="g", weight="w")
    with pytest.raises(error, match=rf"^{name}\(\): {text}"):
        fe.collect(lazy)


@pytest.mark.parametrize("name", list(FUNCS))
def test_string_weight_is_a_dtype_error(name) -> None:
    df = pl.DataFrame({"y": [1, 0], "p": [0.5, 0.2], "w": ["a", "b"]})
    for data in (df, df.lazy()):  # a schema check: raised at the call on both faces
        with pytest.raises(
            InvalidDtypeError,
            match=rf"^{name}\(\): column 'w' \(weight=\) must be numeric \(integer or float\), "
            "got String\\.",
        ):
            FUNCS[name](data, truth="y", score="p", weight="w")


def test_bad_frequency_weights_parameter() -> None:
    df = pl.DataFrame({"y": [1, 0], "p": [0.5, 0.2], "w": [1.0, 2.0]})
    with pytest.raises(
        InvalidParameterError, match=r"^calibration_curve\(\): frequency_weights must be True or"
    ):
        fe.calibration_curve(df, truth="y", score="p", weight="w", frequency_weights=1)
