"""Frame plumbing (frameeval._frame): input kinds, same kind out, lazy stays lazy, fe.collect.

Every frame function takes a polars DataFrame / LazyFrame, a pandas DataFrame or a pyarrow Table;
a LazyFrame comes back lazy and is not collected until the user asks (checked with a column whose
evaluation is counted), eager inputs come back as a polars DataFrame equal to the lazy result,
and ``fe.collect`` turns a data check failing inside the plan into its typed error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest
from polars.testing import assert_frame_equal

import frameeval as fe
from frameeval._frame import as_keys, collect, finish, to_lazy, translate
from frameeval.exceptions import (
    FrameEvalError,
    InvalidParameterError,
    MissingValueError,
    NegativeValueError,
    UnknownLabelError,
)


def data() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "model": ["a"] * 6 + ["b"] * 6,
            "fold": [1, 1, 1, 2, 2, 2] * 2,
            "y": [1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0, 0],
            "p": [1, 0, 0, 1, 1, 0, 1, 1, 1, 0, 0, 0],
            "w": [1.0, 2.0, 0.5, 1.0, 1.0, 3.0, 1.0, 1.0, 1.0, 2.0, 0.0, 1.0],
        }
    )


COSTS = {(1, 0): 5.0, (0, 1): 1.0, (1, 1): 0.5}
FUNCTIONS: dict[str, Callable[..., Any]] = {
    "confusion_matrix": lambda d: fe.confusion_matrix(d, truth="y", pred="p", by="model"),
    "confusion_matrix_labels": lambda d: fe.confusion_matrix(
        d, truth="y", pred="p", by="model", weight="w", labels=[0, 1, 2]
    ),
    "classification_report": lambda d: fe.classification_report(
        d, truth="y", pred="p", by="model", weight="w"
    ),
    "macro_micro": lambda d: fe.macro_micro(d, truth="y", pred="p", by="model", across="fold"),
    "cost_sensitive_error": lambda d: fe.cost_sensitive_error(
        d, truth="y", pred="p", by="model", costs=COSTS, weight="w"
    ),
    "cost_sensitive_error_no_by": lambda d: fe.cost_sensitive_error(
        d,
        truth="y",
        pred="p",
        costs=pl.DataFrame({"actual": [1, 0], "predicted": [0, 1], "cost": [5.0, 1.0]}).lazy(),
    ),
}
functions = pytest.mark.parametrize("func", list(FUNCTIONS))


@functions
def test_lazy_in_lazy_out_equals_eager(func) -> None:
    call = FUNCTIONS[func]
    eager = call(data())
    lazy = call(data().lazy())
    assert isinstance(eager, pl.DataFrame)
    assert isinstance(lazy, pl.LazyFrame)
    assert_frame_equal(fe.collect(lazy), eager)


@functions
@pytest.mark.parametrize("kind", ["pandas", "pyarrow"])
def test_pandas_and_pyarrow_inputs_are_accepted(func, kind) -> None:
    converted = data().to_pandas() if kind == "pandas" else data().to_arrow()
    out = FUNCTIONS[func](converted)
    assert isinstance(out, pl.DataFrame)
    assert_frame_equal(out, FUNCTIONS[func](data()))


def test_pandas_nan_in_an_integer_label_column_is_reported_as_null() -> None:
    frame = data().to_pandas()
    frame["y"] = frame["y"].astype(float)
    frame.loc[7, "y"] = np.nan  # pandas' missing integer: a float NaN, converted to null
    with pytest.raises(
        MissingValueError,
        match=r"'y' \(truth=\) must not contain nulls, got "
        r"null \(1 rows\) in group model=b\.",
    ):
        fe.confusion_matrix(frame, truth="y", pred="p", by="model")


def test_pandas_categorical_and_string_labels() -> None:
    frame = data().to_pandas()
    frame["y"] = frame["y"].map({0: "no", 1: "yes"}).astype("category")
    frame["p"] = frame["p"].map({0: "no", 1: "yes"})
    out = fe.confusion_matrix(frame, truth="y", pred="p", by="model")
    assert out.schema["actual"] == pl.String  # categorical labels come out as strings
    expected = fe.confusion_matrix(data(), truth="y", pred="p", by="model")
    assert out["count"].to_list() == expected["count"].to_list()


@functions
def test_a_lazy_input_is_not_collected(func) -> None:
    """The input's ``y`` column counts its evaluations: building the plan (schema checks
    included) must not evaluate it; fe.collect does."""
    calls = []

    def counted(s: pl.Series) -> pl.Series:
        calls.append(len(s))
        return s

    lazy = data().lazy().with_columns(pl.col("y").map_batches(counted, return_dtype=pl.Int64))
    out = FUNCTIONS[func](lazy)
    assert isinstance(out, pl.LazyFrame)
    assert calls == []
    fe.collect(out)
    assert calls  # the plan did read the column once collected


def test_a_lazy_plan_carries_its_checks_to_collect() -> None:
    bad = data().with_columns(pl.when(pl.col("model") == "b").then(-1.0).otherwise("w").alias("w"))
    out = fe.confusion_matrix(bad.lazy(), truth="y", pred="p", by="model", weight="w")
    assert isinstance(out, pl.LazyFrame)  # nothing raised while building
    # polars' own collect: the same typed error, with frameeval's message
    with pytest.raises(NegativeValueError, match=r"^confusion_matrix\(\): column 'w'"):
        out.collect()
    # fe.collect: the typed error, message exactly frameeval's
    with pytest.raises(NegativeValueError) as info:
        fe.collect(out)
    assert str(info.value) == (
        "confusion_matrix(): column 'w' (weight=) must be >= 0, got -1.0 (6 rows) in group model=b."
    )
    assert info.value.__cause__ is None


def test_fe_collect_translates_string_labels_with_quotes() -> None:
    """A message holding quotes survives the trip through polars' error text."""
    df = pl.DataFrame({"g": ['say "hi"'] * 2, "y": ["a", "b"], "p": ["a", "c"]})
    with pytest.raises(UnknownLabelError) as info:
        fe.collect(fe.confusion_matrix(df.lazy(), truth="y", pred="p", by="g", labels=["a", "b"]))
    assert str(info.value) == (
        "confusion_matrix(): column 'p' (pred=) must hold only the labels ['a', 'b'], got c "
        '(1 rows) in group g=say "hi".'
    )


def test_an_in_plan_hint_survives_on_both_faces() -> None:
    """A failed in-plan check whose message has a ``Hint:`` line keeps it (the translation
    used to stop at the first line break), eager and lazy alike."""
    df = pl.DataFrame({"y": [0, 1, 0, 1, 1, 1, 1, 1, 1, 1]})
    expected = (
        "kfold(): every class of column 'y' (stratify=) must have at least k=3 rows, got 2 rows "
        "for y=0.\nHint: lower k, merge rare classes, or drop stratify=."
    )
    for data in (df, df.lazy()):
        with pytest.raises(InvalidParameterError) as info:
            fe.collect(fe.split.kfold(data, k=3, seed=0, stratify="y"))
        assert str(info.value) == expected
    text = 'x: ["frameeval[InvalidValueError]: f(): bad, got 1.\nHint: do this."]\n\nThis error'
    assert str(translate(RuntimeError(text))) == "f(): bad, got 1.\nHint: do this."
    # a line break that does not start a hint still ends the message
    assert str(translate(RuntimeError("frameeval[InvalidValueError]: f(): bad.\nplan"))) == (
        "f(): bad."
    )


def test_fe_collect_passes_other_errors_and_dataframes_through() -> None:
    df = data()
    assert collect(df) is df
    lazy = df.lazy().select(pl.col("model").cast(pl.Int64))
    with pytest.raises(pl.exceptions.InvalidOperationError):
        fe.collect(lazy)
    assert translate(ValueError("nothing of ours")) is None


def test_translate_falls_back_to_the_base_class_for_unknown_names() -> None:
    err = translate(RuntimeError('x: ["frameeval[NoSuchError]: f(): bad, got 1."]'))
    assert type(err) is FrameEvalError
    assert str(err) == "f(): bad, got 1."


def test_to_lazy_and_finish() -> None:
    df = data()
    lf, eager = to_lazy(df, "f")
    assert eager and isinstance(lf, pl.LazyFrame)
    lf2, eager2 = to_lazy(df.lazy(), "f")
    assert not eager2 and isinstance(lf2, pl.LazyFrame)
    assert isinstance(finish(lf, True), pl.DataFrame)
    assert finish(lf2, False) is lf2
    lf3, eager3 = to_lazy(pa.chunked_array([[1, 2, 3]]), "f")  # a column: a one-column frame
    assert eager3 and lf3.collect().height == 3
    with pytest.raises(InvalidParameterError, match=r"^f\(\): data must be a polars DataFrame"):
        to_lazy([1, 2], "f")
    assert as_keys(None) == [] and as_keys("a") == ["a"] and as_keys(("a", "b")) == ["a", "b"]


@functions
def test_the_input_frame_is_not_modified(func) -> None:
    df = data()
    frame = df.to_pandas()
    FUNCTIONS[func](df)
    FUNCTIONS[func](frame)
    assert_frame_equal(df, data())
    pd.testing.assert_frame_equal(frame, data().to_pandas())


def test_keys_first_in_by_order_and_sorted() -> None:
    df = data().with_columns(pl.col("model").reverse())
    out = fe.confusion_matrix(df, truth="y", pred="p", by=["fold", "model"])
    assert out.columns[:2] == ["fold", "model"]
    assert out.select("fold", "model").to_dicts() == sorted(
        out.select("fold", "model").to_dicts(), key=lambda r: (r["fold"], r["model"])
    )


def test_numeric_label_dtypes_share_int64() -> None:
    df = data().with_columns(pl.col("y").cast(pl.Float32), pl.col("p").cast(pl.UInt8))
    out = fe.confusion_matrix(df, truth="y", pred="p")
    assert out.schema["actual"] == pl.Int64 and out.schema["predicted"] == pl.Int64
    assert_frame_equal(out, fe.confusion_matrix(data(), truth="y", pred="p"))


def test_expressions_work_on_lazy_frames_and_stay_lazy() -> None:
    lazy = data().lazy().group_by("model").agg(fe.f1("y", "p"), fe.mse("y", "p", weight="w"))
    assert isinstance(lazy, pl.LazyFrame)
    eager = data().group_by("model").agg(fe.f1("y", "p"), fe.mse("y", "p", weight="w"))
    assert_frame_equal(fe.collect(lazy).sort("model"), eager.sort("model"))


@functions
def test_a_null_key_is_a_group_sorted_last(func) -> None:
    df = data().with_columns(
        pl.when(pl.col("model") == "a").then(None).otherwise("model").alias("model")
    )
    out = FUNCTIONS[func](df)
    if "model" in out.columns:
        keys = out["model"].to_list()
        assert keys == sorted(keys, key=lambda k: (k is None, k)), keys
        assert keys[-1] is None and keys[0] == "b"


# --------------------------------------------------------------------------------------------
# Dask input at the door (issue 15)
# --------------------------------------------------------------------------------------------
def _dask_frame() -> Any:
    dd = pytest.importorskip("dask.dataframe")
    pdf = pd.DataFrame(
        {
            "model": ["A", "B"] * 4,
            "y": [1, 0, 1, 0, 1, 1, 0, 0],
            "p": [1, 0, 0, 0, 1, 1, 1, 0],
            "s": np.linspace(0.1, 0.8, 8),
        }
    )
    return dd.from_pandas(pdf, npartitions=2), pl.from_pandas(pdf)


def test_a_dask_frame_runs_through_frameeval_dask_where_there_is_a_dask_form() -> None:
    ddf, df = _dask_frame()
    assert_frame_equal(
        fe.confusion_matrix(ddf, "y", "p", by="model"),
        fe.confusion_matrix(df, "y", "p", by="model"),
    )
    assert_frame_equal(
        fe.roc_curve(ddf, truth="y", score="s"), fe.roc_curve(df, truth="y", score="s")
    )


def test_a_dask_frame_elsewhere_is_a_typed_error_naming_frameeval_dask() -> None:
    ddf, _ = _dask_frame()
    with pytest.raises(
        InvalidParameterError,
        match=r"multiclass_roc_auc\(\): data must be a polars DataFrame .*got a "
        r"Dask DataFrame \(dask\.[\w.]+\)\.\nHint: multiclass_roc_auc\(\) has no "
        r"Dask form \(see frameeval\.dask",
    ):
        fe.multiclass_roc_auc(ddf, truth="y", score={0: "s", 1: "s"})
    # a function with a Dask form, called from its module, names its Dask form
    with pytest.raises(
        InvalidParameterError, match=r"Hint: call frameeval\.dask\.confusion_matrix\(data, \.\.\.\)"
    ):
        fe.confusion.confusion_matrix(ddf, "y", "p")


def test_the_dask_forms_are_frameeval_dask_all() -> None:
    import frameeval.dask
    from frameeval._frame import DASK_FORMS

    assert set(frameeval.dask.__all__) == DASK_FORMS
    for name in DASK_FORMS:
        assert getattr(fe, name).__wrapped__.__name__ == name
