"""The input contract (frameeval._validate): one test per validation error.

Each test asserts the ``FrameEvalError`` subclass and pins the message with ``match=``: the
function, the column and its role, the offending value and — for data checks of the frame
functions — the group. Every data check is exercised through all four frame functions that run
it, eagerly (DataFrame in) and lazily (the error surfaces at ``fe.collect``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import frameeval as fe
from frameeval._validate import check_unique, enforce, failure
from frameeval.exceptions import (
    ColumnNotFoundError,
    DuplicateKeyError,
    EmptyFrameError,
    FrameEvalError,
    InvalidDtypeError,
    InvalidParameterError,
    InvalidValueError,
    MissingValueError,
    NegativeValueError,
    UnknownLabelError,
)

NAN, INF = float("nan"), float("inf")
COSTS = {(a, b): 1.0 + a + 2 * b for a in (0, 1) for b in (0, 1)}


def base() -> pl.DataFrame:
    """Two groups g=1, g=2 with two folds each; bad values are put in group 2 only."""
    return pl.DataFrame(
        {
            "g": [1, 1, 1, 2, 2, 2],
            "fold": [1, 1, 2, 1, 2, 2],
            "y": [0, 1, 1, 1, 0, 1],
            "p": [1, 1, 0, 0, 0, 1],
            "w": [1.0, 2.0, 1.0, 0.5, 1.0, 3.0],
        }
    )


def with_value(column: str, value: Any, dtype: pl.DataType = pl.Float64) -> pl.DataFrame:
    """``base()`` with row 4 (group g=2) of ``column`` set to ``value``, column cast to dtype."""
    df = base()
    values = df[column].cast(dtype).to_list()
    values[4] = value
    return df.with_columns(pl.Series(column, values, dtype=dtype))


FRAME_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "confusion_matrix": lambda d, **k: fe.confusion_matrix(
        d, **{"truth": "y", "pred": "p", "by": "g", **k}
    ),
    "classification_report": lambda d, **k: fe.classification_report(
        d, **{"truth": "y", "pred": "p", "by": "g", **k}
    ),
    "macro_micro": lambda d, **k: fe.macro_micro(
        d, **{"truth": "y", "pred": "p", "by": "g", "across": "fold", **k}
    ),
    "cost_sensitive_error": lambda d, **k: fe.cost_sensitive_error(
        d, **{"truth": "y", "pred": "p", "by": "g", "costs": COSTS, **k}
    ),
}
functions = pytest.mark.parametrize("func", list(FRAME_FUNCTIONS))


def raises_both_ways(func: str, data: pl.DataFrame, error: type, match: str, **kw: Any) -> None:
    """The same typed error eagerly and, from a LazyFrame, at fe.collect (not before)."""
    call = FRAME_FUNCTIONS[func]
    with pytest.raises(error, match=match):
        call(data, **kw)
    lazy = call(data.lazy(), **kw)  # data checks live in the plan: nothing raised yet
    assert isinstance(lazy, pl.LazyFrame)
    with pytest.raises(error, match=match):
        fe.collect(lazy)


# ---------------------------------------------------------------------------------------------
# schema checks: raised at the call, even for a LazyFrame
# ---------------------------------------------------------------------------------------------
@functions
@pytest.mark.parametrize(
    ("role", "missing", "hint"),
    [("truth", "yy", "y"), ("pred", "pp", "p"), ("by", "gg", "g"), ("weight", "ww", "w")],
)
@pytest.mark.parametrize("lazy", [False, True], ids=["eager", "lazy"])
def test_missing_column_lists_the_available_columns(func, role, missing, hint, lazy) -> None:
    data = base().lazy() if lazy else base()
    match = (
        rf"^{func}\(\): column '{missing}' \({role}=\) not found, got columns "
        rf"\['g', 'fold', 'y', 'p', 'w'\]\.\nHint: did you mean '{hint}'\?$"
    )
    with pytest.raises(ColumnNotFoundError, match=match):
        FRAME_FUNCTIONS[func](data, **{role: missing})


def test_missing_across_column() -> None:
    with pytest.raises(
        ColumnNotFoundError,
        match=r"^macro_micro\(\): column 'fld' \(across=\) "
        r"not found, got columns \['g', 'fold', 'y', 'p', 'w'\]",
    ):
        fe.macro_micro(base(), truth="y", pred="p", across="fld")


def test_missing_column_error_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        fe.confusion_matrix(base(), truth="nope", pred="p")


@functions
def test_string_pred_against_integer_truth(func) -> None:
    """A score-like string prediction ("0.7") next to integer labels: different label families."""
    data = base().with_columns(pl.Series("p", ["0.7", "0.2", "0.9", "0.1", "0.4", "0.8"]))
    match = (
        rf"^{func}\(\): label columns must share one dtype family, got 'y' \(truth=\) is Int64, "
        r"'p' \(pred=\) is String\."
    )
    with pytest.raises(InvalidDtypeError, match=match):
        FRAME_FUNCTIONS[func](data.lazy())


@functions
def test_list_column_is_not_a_label(func) -> None:
    data = base().with_columns(pl.concat_list("p").alias("p"))
    match = rf"^{func}\(\): column 'p' \(pred=\) must be integer, string, .*, got List\(Int64\)\."
    with pytest.raises(InvalidDtypeError, match=match):
        FRAME_FUNCTIONS[func](data)


@functions
def test_string_weight_is_not_numeric(func) -> None:
    data = base().with_columns(pl.col("w").cast(pl.String))
    match = (
        rf"^{func}\(\): column 'w' \(weight=\) must be numeric \(integer or float\), got String\."
    )
    with pytest.raises(InvalidDtypeError, match=match):
        FRAME_FUNCTIONS[func](data, weight="w")


def test_dtype_error_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        fe.confusion_matrix(base().with_columns(pl.col("p").cast(pl.String)), truth="y", pred="p")


@functions
def test_empty_frame(func) -> None:
    match = rf"^{func}\(\): data must have at least one row, got an empty frame\.$"
    with pytest.raises(EmptyFrameError, match=match):
        FRAME_FUNCTIONS[func](base().clear())


@functions
@pytest.mark.parametrize("kind", ["pandas", "pyarrow"])
def test_empty_pandas_or_pyarrow_frame(func, kind) -> None:
    empty = base().clear()
    converted = empty.to_pandas() if kind == "pandas" else empty.to_arrow()
    match = rf"^{func}\(\): data must have at least one row, got an empty frame\.$"
    with pytest.raises(EmptyFrameError, match=match):
        FRAME_FUNCTIONS[func](converted)


@functions
def test_empty_lazy_frame_is_not_collected_and_gives_no_group(func) -> None:
    """An empty LazyFrame cannot be seen to be empty without collecting: no error, no group."""
    out = fe.collect(FRAME_FUNCTIONS[func](base().clear().lazy()))
    assert out.height == 0


# ---------------------------------------------------------------------------------------------
# data checks: counted in the plan, raised with the group named
# ---------------------------------------------------------------------------------------------
DATA_ERRORS = [
    # (id, column, value, dtype, error, message after "<func>(): ")
    (
        "null-truth",
        "y",
        None,
        pl.Int64,
        MissingValueError,
        r"column 'y' \(truth=\) must not contain nulls, got null \(1 rows\) in group g=2\.",
    ),
    (
        "null-pred",
        "p",
        None,
        pl.Int64,
        MissingValueError,
        r"column 'p' \(pred=\) must not contain nulls, got null \(1 rows\) in group g=2\.",
    ),
    (
        "nan-truth",
        "y",
        NAN,
        pl.Float64,
        MissingValueError,
        r"column 'y' \(truth=\) must not contain NaN, got NaN \(1 rows\) in group g=2\.",
    ),
    (
        "inf-pred",
        "p",
        INF,
        pl.Float64,
        MissingValueError,
        r"column 'p' \(pred=\) must be finite, got inf or -inf \(1 rows\) in group g=2\.",
    ),
    (
        "minus-inf-truth",
        "y",
        -INF,
        pl.Float64,
        MissingValueError,
        r"column 'y' \(truth=\) must be finite, got inf or -inf \(1 rows\) in group g=2\.",
    ),
    (
        "non-integral-truth",
        "y",
        0.5,
        pl.Float64,
        UnknownLabelError,
        r"column 'y' \(truth=\) is float, so its labels must be integral, got 0\.5 \(1 rows\) "
        r"in group g=2\.",
    ),
    (
        "non-integral-pred",
        "p",
        -1.25,
        pl.Float64,
        UnknownLabelError,
        r"column 'p' \(pred=\) is float, so its labels must be integral, got -1\.25 \(1 rows\) "
        r"in group g=2\.",
    ),
    (
        "null-weight",
        "w",
        None,
        pl.Float64,
        MissingValueError,
        r"column 'w' \(weight=\) must not contain nulls, got null \(1 rows\) in group g=2\.",
    ),
    (
        "nan-weight",
        "w",
        NAN,
        pl.Float64,
        MissingValueError,
        r"column 'w' \(weight=\) must not contain NaN, got NaN \(1 rows\) in group g=2\.",
    ),
    (
        "inf-weight",
        "w",
        INF,
        pl.Float64,
        MissingValueError,
        r"column 'w' \(weight=\) must be finite, got inf or -inf \(1 rows\) in group g=2\.",
    ),
    (
        "negative-weight",
        "w",
        -2.5,
        pl.Float64,
        NegativeValueError,
        r"column 'w' \(weight=\) must be >= 0, got -2\.5 \(1 rows\) in group g=2\.",
    ),
    (
        "negative-int-weight",
        "w",
        -3,
        pl.Int64,
        NegativeValueError,
        r"column 'w' \(weight=\) must be >= 0, got -3 \(1 rows\) in group g=2\.",
    ),
]


@functions
@pytest.mark.parametrize(
    ("column", "value", "dtype", "error", "message"),
    [case[1:] for case in DATA_ERRORS],
    ids=[case[0] for case in DATA_ERRORS],
)
def test_bad_value_names_column_value_and_group(func, column, value, dtype, error, message):
    data = with_value(column, value, dtype)
    raises_both_ways(func, data, error, rf"^{func}\(\): {message}$", weight="w")


def test_the_group_of_several_keys_is_named() -> None:
    data = with_value("w", -1.0)
    with pytest.raises(NegativeValueError, match=r"got -1\.0 \(1 rows\) in group g=2, fold=2\.$"):
        fe.confusion_matrix(data, truth="y", pred="p", by=["g", "fold"], weight="w")


def test_without_by_no_group_is_named() -> None:
    data = with_value("y", None, pl.Int64)
    with pytest.raises(MissingValueError, match=r"got null \(1 rows\)\.$"):
        fe.classification_report(data, truth="y", pred="p")


def test_every_offending_row_is_counted_and_the_smallest_value_shown() -> None:
    data = base().with_columns(pl.Series("w", [1.0, 1.0, 1.0, -1.0, -7.0, -2.0]))
    with pytest.raises(NegativeValueError, match=r"got -7\.0 \(3 rows\) in group g=2\.$"):
        fe.confusion_matrix(data, truth="y", pred="p", by="g", weight="w")


@pytest.mark.parametrize("func", ["confusion_matrix", "classification_report"])
def test_label_outside_labels(func) -> None:
    match = (
        rf"^{func}\(\): column 'y' \(truth=\) must hold only the labels \[1\], got 0 \(1 rows\) "
        r"in group g=2\.$"
    )
    data = base().with_columns(pl.Series("y", [1, 1, 1, 1, 0, 1]), pl.lit(1).alias("p"))
    raises_both_ways(func, data, UnknownLabelError, match, labels=[1])
    match = match.replace("'y' \\(truth=\\)", "'p' \\(pred=\\)").replace("got 0", "got 2")
    data = base().with_columns(pl.lit(1).alias("y"), pl.Series("p", [1, 1, 1, 1, 2, 1]))
    raises_both_ways(func, data, UnknownLabelError, match, labels=[1])


def test_pos_label_absent_from_the_data() -> None:
    match = r"^macro_micro\(\): pos_label 5 must occur in column 'y' or 'p', got no such row\.$"
    raises_both_ways("macro_micro", base(), UnknownLabelError, match, pos_label=5)
    strings = base().with_columns(pl.col("y", "p").cast(pl.String))
    match = r"pos_label 'yes' must occur in column 'y' or 'p', got no such row\."
    raises_both_ways("macro_micro", strings, UnknownLabelError, match, pos_label="yes")


def test_duplicate_pairing_keys() -> None:
    lf = pl.LazyFrame({"instance": [1, 2, 2, 3], "learner": ["a", "a", "a", "b"]})
    checked = check_unique(lf, ["instance", "learner"], "mcnemar", "one prediction per pair")
    match = (
        r"^mcnemar\(\): rows must be unique per \['instance', 'learner'\] \(one prediction per "
        r"pair\), got 2 rows for instance=2, learner=a\.$"
    )
    with pytest.raises(DuplicateKeyError, match=match):
        fe.collect(checked)
    unique = check_unique(lf.unique(), ["instance", "learner"], "mcnemar", "one per pair")
    assert fe.collect(unique).height == 3


# ---------------------------------------------------------------------------------------------
# the guard of the expression builders (no keys known: column and rule named)
# ---------------------------------------------------------------------------------------------
EXPRESSION_ERRORS = [
    (
        "null-truth",
        "y",
        None,
        pl.Int64,
        MissingValueError,
        r"column 'y' \(truth=\) must not contain nulls, got null\.",
    ),
    (
        "null-pred",
        "p",
        None,
        pl.Int64,
        MissingValueError,
        r"column 'p' \(pred=\) must not contain nulls, got null\.",
    ),
    (
        "null-weight",
        "w",
        None,
        pl.Float64,
        MissingValueError,
        r"column 'w' \(weight=\) must not contain nulls, got null\.",
    ),
    (
        "nan-weight",
        "w",
        NAN,
        pl.Float64,
        MissingValueError,
        r"column 'w' \(weight=\) must not contain NaN, got NaN\.",
    ),
    (
        "inf-weight",
        "w",
        INF,
        pl.Float64,
        MissingValueError,
        r"column 'w' \(weight=\) must be finite, got inf or -inf\.",
    ),
    (
        "negative-weight",
        "w",
        -1.0,
        pl.Float64,
        NegativeValueError,
        r"column 'w' \(weight=\) must be >= 0, got -1\.0\.",
    ),
]
LABEL_BUILDERS = {
    "accuracy": lambda **k: fe.accuracy("y", "p", **k),
    "error_rate": lambda **k: fe.error_rate("y", "p", **k),
    "precision": lambda **k: fe.precision("y", "p", average="macro", **k),
    "recall": lambda **k: fe.recall("y", "p", **k),
    "tpr": lambda **k: fe.tpr("y", "p", **k),
    "fpr": lambda **k: fe.fpr("y", "p", **k),
    "tnr": lambda **k: fe.tnr("y", "p", **k),
    "fnr": lambda **k: fe.fnr("y", "p", **k),
    "f1": lambda **k: fe.f1("y", "p", average="micro", **k),
    "fbeta": lambda **k: fe.fbeta("y", "p", beta=0.5, **k),
    "cost_error": lambda **k: fe.cost_error("y", "p", cost01=2.0, cost10=1.0, **k),
}


@pytest.mark.parametrize("name", list(LABEL_BUILDERS))
@pytest.mark.parametrize(
    ("column", "value", "dtype", "error", "message"),
    [case[1:] for case in EXPRESSION_ERRORS],
    ids=[case[0] for case in EXPRESSION_ERRORS],
)
def test_expression_guard(name, column, value, dtype, error, message) -> None:
    data = with_value(column, value, dtype)
    lazy = data.lazy().group_by("g").agg(LABEL_BUILDERS[name](weight="w"))
    with pytest.raises(error, match=rf"^{name}\(\): {message}$"):
        fe.collect(lazy)
    # collected by polars itself, inside the user's own group_by: the same typed error
    with pytest.raises(error, match=rf"^{name}\(\): {message}$"):
        data.group_by("g").agg(LABEL_BUILDERS[name](weight="w"))
    # the valid groups alone are fine
    assert data.filter(pl.col("g") == 1).group_by("g").agg(LABEL_BUILDERS[name](weight="w")).height


# ---------------------------------------------------------------------------------------------
# parameters
# ---------------------------------------------------------------------------------------------
PARAMETER_ERRORS = [
    (
        "report-beta",
        lambda: fe.classification_report(base(), truth="y", pred="p", beta=0),
        InvalidParameterError,
        r"^classification_report\(\): beta must be a finite number > 0, got 0\.$",
    ),
    (
        "fbeta-beta",
        lambda: fe.fbeta("y", "p", beta=-1.0),
        InvalidParameterError,
        r"^fbeta\(\): beta must be a finite number > 0, got -1\.0\.$",
    ),
    (
        "average",
        lambda: fe.precision("y", "p", average="samples"),
        InvalidParameterError,
        r"^precision\(\): average must be one of \['binary', 'macro', 'macro_mean', 'micro', "
        r"'weighted'\], got 'samples'\.$",
    ),
    (
        "f1-average",
        lambda: fe.f1("y", "p", average="samples"),
        InvalidParameterError,
        r"^f1\(\): average must be .* got 'samples'\.",
    ),
    (
        "cost01",
        lambda: fe.cost_error("y", "p", cost01=-1.0, cost10=1.0),
        InvalidParameterError,
        r"^cost_error\(\): cost01 must be a finite number >= 0, got -1\.0\.$",
    ),
    (
        "cost10",
        lambda: fe.cost_error("y", "p", cost01=1.0, cost10=NAN),
        InvalidParameterError,
        r"^cost_error\(\): cost10 must be a finite number >= 0, got nan\.$",
    ),
    (
        "pos-label-type",
        lambda: fe.macro_micro(base(), truth="y", pred="p", across="fold", pos_label="1"),
        InvalidDtypeError,
        r"^macro_micro\(\): pos_label must match the dtype of column 'y' \(Int64\), got '1' \(str\)",
    ),
    (
        "pos-label-required",
        lambda: fe.macro_micro(
            base().with_columns(pl.col("y", "p").cast(pl.String)),
            truth="y",
            pred="p",
            across="fold",
        ),
        InvalidParameterError,
        r"^macro_micro\(\): pos_label= is required for string labels in column 'y', got None\.",
    ),
    (
        "across-empty",
        lambda: fe.macro_micro(base(), truth="y", pred="p", across=[]),
        InvalidParameterError,
        r"^macro_micro\(\): across= must name at least one column, got none",
    ),
    (
        "by-across-overlap",
        lambda: fe.macro_micro(base(), truth="y", pred="p", across="fold", by=["fold"]),
        InvalidParameterError,
        r"^macro_micro\(\): by= and across= must not share columns",
    ),
    (
        "by-output-name",
        lambda: fe.confusion_matrix(base().rename({"g": "count"}), truth="y", pred="p", by="count"),
        InvalidParameterError,
        r"^confusion_matrix\(\): by= must not use the output column name",
    ),
    (
        "by-not-a-name",
        lambda: fe.confusion_matrix(base(), truth="y", pred="p", by=[1]),
        InvalidParameterError,
        r"^confusion_matrix\(\): by= must name a column \(a string\), got 1\.",
    ),
    (
        "by-scalar-not-a-name",
        lambda: fe.confusion_matrix(base(), truth="y", pred="p", by=1),
        InvalidParameterError,
        r"^confusion_matrix\(\): by= must name a column \(a string\), got 1\.",
    ),
    (
        "zero-division-range",
        lambda: fe.precision("y", "p", zero_division=2.0),
        InvalidParameterError,
        r"^precision\(\): zero_division must be None or a number in \[0, 1\], got 2\.0\.$",
    ),
    (
        "zero-division-type",
        lambda: fe.classification_report(base(), truth="y", pred="p", zero_division="warn"),
        InvalidParameterError,
        r"^classification_report\(\): zero_division must be None or a number in \[0, 1\], "
        r"got 'warn'\.$",
    ),
    (
        "f1-zero-division",
        lambda: fe.f1("y", "p", zero_division=-1),
        InvalidParameterError,
        r"^f1\(\): zero_division must be None or a number in \[0, 1\], got -1\.$",
    ),
    (
        "labels-repeated",
        lambda: fe.confusion_matrix(base(), truth="y", pred="p", labels=[0, 0, 1]),
        InvalidParameterError,
        r"^confusion_matrix\(\): labels= must not repeat a class, got \[0, 0, 1\]\.$",
    ),
    (
        "labels-none",
        lambda: fe.classification_report(base(), truth="y", pred="p", labels=[0, 1, None]),
        InvalidParameterError,
        r"^classification_report\(\): labels= must not contain None, got \[0, 1, None\]\.$",
    ),
    (
        "labels-empty",
        lambda: fe.confusion_matrix(base(), truth="y", pred="p", labels=[]),
        InvalidParameterError,
        r"^confusion_matrix\(\): labels= must name at least one class, got \[\]\.$",
    ),
    (
        "labels-string",
        lambda: fe.confusion_matrix(base(), truth="y", pred="p", labels="01"),
        InvalidParameterError,
        r"^confusion_matrix\(\): labels= must be a list of classes, got '01'\.$",
    ),
    (
        "not-a-frame",
        lambda: fe.confusion_matrix({"y": [1]}, truth="y", pred="p"),
        InvalidParameterError,
        r"^confusion_matrix\(\): data must be a polars DataFrame or LazyFrame \(or a pandas "
        r"DataFrame / pyarrow Table\), got dict\.$",
    ),
]


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [case[1:] for case in PARAMETER_ERRORS],
    ids=[case[0] for case in PARAMETER_ERRORS],
)
def test_parameter_errors(call, error, match) -> None:
    with pytest.raises(error, match=match):
        call()


COST_ERRORS = [
    (
        "missing-cell",
        {(0, 1): 1.0},
        UnknownLabelError,
        r"costs must give a cost for every confusion that occurs, got none for actual=1, "
        r"predicted=0\.$",
    ),
    (
        "negative",
        {(0, 1): -1.0, (1, 0): 1.0},
        InvalidParameterError,
        r"costs must be finite and >= 0, got cost -1\.0 for actual=0, predicted=1\.$",
    ),
    (
        "nan",
        {(0, 1): NAN, (1, 0): 1.0},
        InvalidParameterError,
        r"costs must be finite and >= 0, got cost nan for actual=0, predicted=1\.$",
    ),
    (
        "duplicate",
        pl.DataFrame({"actual": [0, 0, 1], "predicted": [1, 1, 0], "cost": [1.0, 2, 3]}),
        InvalidParameterError,
        r"costs must give one cost per \(actual, predicted\), got 2 for actual=0, predicted=1\.$",
    ),
    (
        "label-dtype",
        {("a", "b"): 1.0},
        InvalidDtypeError,
        r"costs labels must match the data's label dtype Int64, got actual: String, "
        r"predicted: String\.$",
    ),
    (
        "missing-column",
        pl.DataFrame({"actual": [0], "pred": [1], "cost": [1.0]}),
        ColumnNotFoundError,
        r"costs must have a column 'predicted', got columns \['actual', 'pred', 'cost'\]\.$",
    ),
    (
        "string-cost",
        pl.DataFrame({"actual": [0], "predicted": [1], "cost": ["1"]}),
        InvalidDtypeError,
        r"costs column 'cost' must be numeric, got String\.$",
    ),
    (
        "key-not-a-pair",
        {0: 1.0},
        InvalidParameterError,
        r"costs keys must be \(actual, predicted\) pairs, got 0\.$",
    ),
    (
        "key-triple",
        {(0, 1, 2): 1.0},
        InvalidParameterError,
        r"costs keys must be \(actual, predicted\) pairs, got \(0, 1, 2\)\.$",
    ),
    (
        "cost-none",
        {(1, 0): None, (0, 1): 1.0},
        InvalidParameterError,
        r"costs must be finite and >= 0, got cost None for actual=1, predicted=0\.$",
    ),
    (
        "cost-string",
        {(1, 0): "x", (0, 1): 1.0},
        InvalidParameterError,
        r"costs must be finite and >= 0, got cost 'x' for actual=1, predicted=0\.$",
    ),
    (
        "cost-bool",
        {(0, 1): 1.0, (1, 0): True},
        InvalidParameterError,
        r"costs must be finite and >= 0, got cost True for actual=1, predicted=0\.$",
    ),
    (
        "not-a-table",
        [1, 2],
        InvalidParameterError,
        r"costs must be a DataFrame with columns actual, predicted, cost or a mapping "
        r"\{\(actual, predicted\): cost\}, got list\.$",
    ),
]


@pytest.mark.parametrize(
    ("costs", "error", "message"),
    [case[1:] for case in COST_ERRORS],
    ids=[case[0] for case in COST_ERRORS],
)
def test_cost_matrix_errors(costs, error, message) -> None:
    with pytest.raises(error, match=rf"^cost_sensitive_error\(\): {message}"):
        fe.collect(fe.cost_sensitive_error(base(), truth="y", pred="p", by="g", costs=costs))


def test_every_error_is_a_frameeval_error_and_its_builtin() -> None:
    for cls, builtin in [
        (ColumnNotFoundError, KeyError),
        (InvalidDtypeError, TypeError),
        (InvalidParameterError, ValueError),
        (MissingValueError, ValueError),
        (NegativeValueError, ValueError),
        (UnknownLabelError, ValueError),
        (DuplicateKeyError, ValueError),
        (EmptyFrameError, ValueError),
    ]:
        assert issubclass(cls, FrameEvalError)
        assert issubclass(cls, builtin)


@functions
@pytest.mark.parametrize("kind", ["pandas", "pyarrow"])
def test_pandas_and_pyarrow_inputs_are_validated_too(func, kind) -> None:
    bad = with_value("w", -2.5)
    converted = bad.to_pandas() if kind == "pandas" else bad.to_arrow()
    match = (
        rf"^{func}\(\): column 'w' \(weight=\) must be >= 0, got -2\.5 \(1 rows\) in group g=2\.$"
    )
    with pytest.raises(NegativeValueError, match=match):
        FRAME_FUNCTIONS[func](converted, weight="w")
    with pytest.raises(ColumnNotFoundError, match=rf"^{func}\(\): column 'nope' \(truth=\)"):
        FRAME_FUNCTIONS[func](converted, truth="nope")


def test_nan_zero_division_means_none() -> None:
    """scikit-learn spells "leave 0/0 undefined" zero_division=np.nan: here that is None, so
    no NaN reaches a result."""
    df = pl.DataFrame({"g": [1, 1, 1, 2], "y": [0, 0, 1, 2], "p": [1, 1, 1, 2]})

    def exprs(zd: float | None) -> list[pl.Expr]:
        return [
            fe.precision("y", "p", pos_label=0, zero_division=zd),
            fe.recall("y", "p", pos_label=2, zero_division=zd),
            fe.f1("y", "p", average="macro", zero_division=zd),
            fe.precision("y", "p", average="macro", zero_division=zd).alias("macro_precision"),
        ]

    nan = df.group_by("g").agg(exprs(NAN)).sort("g")
    assert_frame_equal(nan, df.group_by("g").agg(exprs(None)).sort("g"))
    report = fe.classification_report(df, truth="y", pred="p", by="g", zero_division=NAN)
    assert_frame_equal(report, fe.classification_report(df, truth="y", pred="p", by="g"))
    assert not report.select(pl.col(pl.Float64).is_nan().any()).row(0).count(True)


# the guard primitive: failure() + enforce()
def test_a_guard_fires_when_the_value_it_prints_is_null():
    """``pl.format`` gives null when any argument is null, so a guard built on it alone would
    pass silently exactly when the offending value is missing; the shared primitive prints
    ``null`` instead and raises."""
    lf = pl.LazyFrame({"x": [1.0, None]})
    checked = enforce(
        lf,
        failure(
            pl.col("x").is_null(),
            MissingValueError,
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
    checked = enforce(lf, failure(pl.col("x") < 0, InvalidValueError, "f(): {}", pl.col("x")))
    assert fe.collect(checked)["x"].to_list() == [1.0, 2.0]


def test_a_failed_check_raises_its_own_type_on_a_plain_collect():
    """The in-plan raise is an element-wise callback: Polars re-raises the exception with its
    own type, so a plain ``LazyFrame.collect()`` (not only ``fe.collect``) gets the typed error,
    and the message is frameeval's alone (Polars' plan context is cut)."""
    lf = pl.LazyFrame({"x": [1.0, None]})
    checked = enforce(
        lf,
        failure(pl.col("x").is_null(), MissingValueError, "f(): column 'x' got {}.", pl.col("x")),
    )
    with pytest.raises(MissingValueError) as info:
        checked.collect()
    assert str(info.value) == "f(): column 'x' got null."


# ---------------------------------------------------------------------------------------------
# one rule, two faces: every input rule of the measures, checked on both
# ---------------------------------------------------------------------------------------------
_MEASURE_FRAME = pl.DataFrame(
    {
        "g": [1, 1, 1, 2, 2, 2],
        "y": [1, 0, 1, 1, 0, 0],
        "p": [1, 0, 0, 1, 1, 0],
        "s": [0.9, 0.2, 0.4, 0.8, 0.7, 0.1],
        "w": [1.0, 2.0, 1.0, 1.0, 1.0, 3.0],
    }
)


def _set(column: str, value: Any, dtype: pl.DataType | None = None) -> pl.DataFrame:
    values = _MEASURE_FRAME[column].to_list()
    values[4] = value
    series = pl.Series(column, values, dtype=dtype or pl.Float64, strict=False)
    return _MEASURE_FRAME.with_columns(series)


# (rule, measure, frame, builder kwargs, error, message text shared by both faces)
RULES = [
    ("Checks.not_null", "accuracy", _set("y", None, pl.Int64), {}, MissingValueError,
     r"column 'y' \(truth=\) must not contain nulls, got null"),
    ("Checks.finite (NaN)", "roc_auc", _set("s", NAN), {}, MissingValueError,
     r"column 's' \(score=\) must not contain NaN, got NaN"),
    ("Checks.finite (inf)", "log_loss", _set("s", INF), {}, MissingValueError,
     r"column 's' \(score=\) must be finite, got inf or -inf"),
    ("Checks.label", "f1", _set("y", 0.5), {}, UnknownLabelError,
     r"column 'y' \(truth=\) is float, so its labels must be integral, got 0\.5"),
    ("Checks.within_unit", "brier_score", _set("s", 1.5), {}, InvalidValueError,
     r"column 's' \(score=\) must be a probability in \[0, 1\], got 1\.5"),
    ("Checks.non_negative", "accuracy", _set("w", -2.0), {"weight": "w"}, NegativeValueError,
     r"column 'w' \(weight=\) must be >= 0, got -2\.0"),
    ("check_labels (dtype)", "accuracy", _MEASURE_FRAME.with_columns(y=pl.struct("y")), {},
     InvalidDtypeError, r"column 'y' \(truth=\) must be integer, string"),
    ("check_labels (family)", "accuracy", _MEASURE_FRAME.with_columns(pl.col("y").cast(pl.String)),
     {}, InvalidDtypeError, r"label columns must share one dtype family"),
    ("check_numeric", "roc_auc", _MEASURE_FRAME.with_columns(pl.col("s").cast(pl.String)), {},
     InvalidDtypeError, r"column 's' \(score=\) must be numeric \(integer or float\), got String"),
    ("resolve_pos_label (type)", "f1", _MEASURE_FRAME, {"pos_label": "1"}, InvalidDtypeError,
     r"pos_label must match the dtype of column 'y' \(Int64\), got '1' \(str\)"),
    ("resolve_pos_label (required)", "precision",
     _MEASURE_FRAME.with_columns(pl.col("y", "p").cast(pl.String)), {}, InvalidParameterError,
     r"pos_label= is required for string labels in column 'y'"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("measure", "data", "kwargs", "error", "text"),
    [r[1:] for r in RULES],
    ids=[r[0] for r in RULES],
)
def test_each_input_rule_holds_on_both_faces(measure, data, kwargs, error, text) -> None:
    """Each rule is declared once (frameeval._validate) and compiled to both faces: the
    frame function names the group, the expression builder (which cannot know it) the same
    function, column, rule and value."""
    m = fe.MEASURES[measure]
    columns = {"truth": "y", m.columns[1]: "p" if m.columns[1] == "pred" else "s"}
    with pytest.raises(error, match=rf"^measures\(\): {text}"):
        fe.collect(fe.measures(data.lazy(), **columns, by="g", measures=[measure], **kwargs))
    builder = m.builder
    expr = builder("y", columns[m.columns[1]], **kwargs)
    with pytest.raises(error, match=rf"^{measure}\(\): {text}"):
        data.group_by("g").agg(expr)
    with pytest.raises(error, match=rf"^{measure}\(\): {text}"):
        data.lazy().select(expr).collect()


def test_a_builder_plans_once_per_set_of_dtypes_and_still_checks_each() -> None:
    """``planned``: an expression collected again reuses its plan for the same dtypes, plans
    afresh for other dtypes, and never remembers a plan that raised."""
    import frameeval as fe

    expr = fe.precision("y", "p")
    ints = pl.DataFrame({"y": [1, 0, 1, 1], "p": [1, 1, 0, 1]})
    floats = ints.cast(pl.Float64)
    strings = ints.cast(pl.String)  # string labels need pos_label=: a schema rule
    assert ints.select(expr).item() == pytest.approx(2 / 3)
    assert ints.select(expr).item() == pytest.approx(2 / 3)
    assert floats.select(expr).item() == pytest.approx(2 / 3)
    with pytest.raises(MissingValueError):  # the data rules of a reused plan still run
        floats.with_columns(y=pl.lit(float("nan"))).select(expr)
    for _ in range(2):  # a schema rule raises each time (a raising plan is not remembered)
        with pytest.raises(InvalidParameterError, match="pos_label= is required"):
            strings.select(expr)
    assert ints.select(expr).item() == pytest.approx(2 / 3)


def _seeded_calls():
    """One call per kind of seeded public function (bootstrap intervals, splits, the Bayesian
    tests, compare_learners): each takes ``seed=`` through ``check_seed``."""
    import frameeval as fe

    df = pl.DataFrame({"y": [0, 1, 0, 1, 1, 0], "p": [0, 1, 1, 1, 0, 0], "id": list(range(6))})
    scores = pl.DataFrame(
        {
            "data": ["a", "a", "b", "b", "c", "c", "d", "d", "e", "e"],
            "learner": ["x", "z"] * 5,
            "acc": [0.8, 0.7, 0.9, 0.85, 0.7, 0.71, 0.6, 0.5, 0.9, 0.8],
        }
    )
    return {
        "measures": lambda s: fe.measures(df, "y", "p", measures=["accuracy"], ci=0.9, seed=s),
        "kfold": lambda s: fe.split.kfold(df, k=2, instance="id", seed=s),
        "bayes_signed_rank": lambda s: fe.bayes_signed_rank(
            scores, "acc", a="x", b="z", block="data", higher_is_better=True, rope=0.01, seed=s
        ),
        "compare_learners": lambda s: fe.compare_learners(
            scores, "acc", block="data", higher_is_better=True, seed=s
        ),
    }


@pytest.mark.parametrize("name", ["measures", "kfold", "bayes_signed_rank", "compare_learners"])
@pytest.mark.parametrize("seed", [2**64, -1, 1.0, True])
def test_a_seed_outside_0_to_2_64_is_refused_everywhere(name: str, seed: object) -> None:
    """seed=2**64 used to give the interval of seed=0 and seed=-1 that of 2**64 − 1."""
    call = _seeded_calls()[name]
    with pytest.raises(InvalidParameterError, match=r"seed must be an integer in \[0, 2\*\*64\)"):
        call(seed)
    call(2**64 - 1)  # the largest seed is taken


def test_a_missing_column_raises_frameevals_error_in_a_frame_function_and_polars_in_an_expression() -> (
    None
):
    """Documented in docs/data-contract.md: Polars resolves an expression's columns before
    frameeval's plan sees them and offers no hook, so the two faces raise different classes
    (both name the missing column); catching both covers both faces."""
    import polars.exceptions as pe

    df = pl.DataFrame({"y": [0, 1, 1], "p": [0, 1, 0]})
    with pytest.raises(ColumnNotFoundError, match=r"column 'nope' \(pred=\) not found"):
        fe.measures(df, "y", "nope", measures=["accuracy"])
    with pytest.raises(pe.ColumnNotFoundError, match="nope"):
        df.select(fe.accuracy("y", "nope"))
    for call in (
        lambda: fe.measures(df, "y", "nope", measures=["accuracy"]),
        lambda: df.select(fe.accuracy("y", "nope")),
    ):
        with pytest.raises((ColumnNotFoundError, pe.ColumnNotFoundError)):
            call()


# ---------------------------------------------------------------------------------------------
# the eager plan (issue 31): each aggregate once, the same values and errors as the lazy plan
# ---------------------------------------------------------------------------------------------
def test_shared_names_each_distinct_aggregate_once() -> None:
    from frameeval._validate import Shared

    shared = Shared()
    total = shared(pl.col("x").sum())
    assert shared(pl.col("x").sum()).meta.eq(total)
    largest = shared(pl.col("x").max())
    assert not largest.meta.eq(total)
    value = shared.bind(total / largest)
    df = pl.DataFrame({"g": [1, 1, 2], "x": [1.0, 3.0, 2.0]})
    assert df.select(value.alias("v")).item() == pytest.approx(6.0 / 3.0)
    grouped = df.group_by("g").agg(value.alias("v")).sort("g")
    assert grouped["v"].to_list() == [4.0 / 3.0, 1.0]
    assert df.select(value.over("g").alias("v"))["v"].to_list() == [4.0 / 3.0, 4.0 / 3.0, 1.0]


def test_planning_eagerly_is_true_only_inside_an_eager_query() -> None:
    from frameeval._validate import planning_eagerly

    seen: list[bool] = []

    def plan(inputs: list[tuple[pl.Expr, pl.DataType]]) -> pl.Expr:
        seen.append(planning_eagerly())
        return inputs[0][0]

    df = pl.DataFrame({"x": [1, 2]})
    df.select(pl.pipe_with_dtype(["x"], plan))
    df.group_by("x").agg(pl.pipe_with_dtype(["x"], plan).sum().alias("total"))
    df.lazy().select(pl.pipe_with_dtype(["x"], plan)).collect()
    assert seen[:2] == [True, True]
    assert seen[2:] and not any(seen[2:])


EAGER_LAZY = {
    "accuracy": lambda **k: fe.accuracy("y", "p", **k),
    "precision": lambda **k: fe.precision("y", "p", **k),
    "f1": lambda **k: fe.f1("y", "p", **k),
    "mcc": lambda **k: fe.mcc("y", "p", **k),
    "rmse": lambda **k: fe.rmse("t", "f", **k),
    "r2": lambda **k: fe.r2("t", "f", **k),
    "mape": lambda **k: fe.mape("t", "f", **k),
    "msle": lambda **k: fe.msle("t", "f", **k),
    "median_absolute_error": lambda **k: fe.median_absolute_error("t", "f", **k),
    "log_loss": lambda **k: fe.log_loss("y", "s", **k),
}


@pytest.mark.parametrize("name", list(EAGER_LAZY))
@pytest.mark.parametrize("weight", [None, "w"])
def test_the_eager_plan_gives_the_lazy_plans_values(name, weight) -> None:
    import numpy as np

    rng = np.random.default_rng(31)
    n = 300
    truth = rng.gamma(2.0, 1.0, n)
    df = pl.DataFrame(
        {
            "g": rng.integers(0, 7, n),
            "y": rng.integers(0, 2, n),
            "p": rng.integers(0, 2, n),
            "s": rng.random(n),
            "t": truth,
            "f": truth + rng.normal(0, 0.5, n).clip(-0.9 * truth, None),
            "w": rng.random(n),
        }
    )
    expr = EAGER_LAZY[name](weight=weight)
    eager = df.group_by("g").agg(expr).sort("g")
    lazy = df.lazy().group_by("g").agg(expr).sort("g").collect()
    assert_frame_equal(eager, lazy, check_exact=False, rel_tol=1e-12, abs_tol=1e-12)
    assert_frame_equal(
        df.select(expr), df.lazy().select(expr).collect(), check_exact=False, rel_tol=1e-12
    )


@pytest.mark.parametrize("lazy", [False, True])
def test_the_eager_plan_raises_the_lazy_plans_errors(lazy) -> None:
    df = pl.DataFrame({"g": [1, 1, 2, 2], "y": [0, 1, 2, 1], "p": [0, 1, 0, 1]})
    frame = df.lazy() if lazy else df
    with pytest.raises(InvalidParameterError, match=r"^precision\(\): average='binary' needs"):
        fe.collect(frame.group_by("g").agg(fe.precision("y", "p")))
    bad = pl.DataFrame({"t": [1.0, float("nan")], "f": [1.0, 2.0]})
    frame = bad.lazy() if lazy else bad
    with pytest.raises(MissingValueError, match=r"^r2\(\): column 't' \(truth=\) must be finite"):
        fe.collect(frame.select(fe.r2("t", "f")))


@pytest.mark.parametrize("dtype", [pl.Float64, pl.Float32])
def test_finite_is_is_finite_exactly(dtype) -> None:
    from frameeval._validate import finite

    values = [1.0, float("nan"), float("inf"), float("-inf"), None, -0.0, 1e308, -1e-320]
    s = pl.Series("x", values, dtype=pl.Float64).cast(dtype)
    frame = s.to_frame()
    got = frame.select(finite(pl.col("x")))["x"]
    assert got.to_list() == s.is_finite().to_list()


FINITE_CASES = {
    "complete": [1.0, -2.5, 0.0],
    "nan": [1.0, float("nan"), 2.0],
    "both infinities": [float("inf"), 1.0, float("-inf")],
    "null": [None, 1.0, float("nan")],
    "sum overflows, every value finite": ["big", "big", -1.0],
    "no row": [],
}


@pytest.mark.parametrize("values", list(FINITE_CASES.values()), ids=list(FINITE_CASES))
@pytest.mark.parametrize("dtype", [pl.Float64, pl.Float32])
def test_a_gated_count_is_the_count(values, dtype) -> None:
    """``gated`` counts NaN, ±inf or either only when the column's sum is not finite: the same
    number as the per-row count over a whole frame, in a group_by and in a window."""
    import math

    from frameeval._validate import finite, gated

    big = 1.7e308 if dtype == pl.Float64 else 3.0e38  # 0.95 × the dtype's largest value
    values = [big if v == "big" else v for v in values]
    df = pl.DataFrame({"g": [i % 2 for i in range(len(values))], "x": values})
    df = df.with_columns(pl.col("x").cast(dtype), pl.col("g").cast(pl.Int64))
    bads = {
        "non-finite": lambda x: ~finite(x),
        "nan": pl.Expr.is_nan,
        "infinite": pl.Expr.is_infinite,
    }
    for name, bad in bads.items():
        want = bad(pl.col("x")).fill_null(False).sum().alias("want")
        got = gated("x", bad).alias("got")
        whole = df.select(got, want)
        assert whole["got"].to_list() == whole["want"].to_list(), name
        grouped = df.group_by("g").agg(got, want)
        assert grouped["got"].to_list() == grouped["want"].to_list(), name
        window = df.select(got.over("g"), want.over("g"))
        assert window["got"].to_list() == window["want"].to_list(), name
    if values and all(v is not None and math.isfinite(v) for v in values):
        assert df.select(gated("x", lambda x: ~finite(x))).item() == 0


def test_an_eager_select_plans_for_the_whole_frame_only_at_the_top_level(monkeypatch) -> None:
    """The whole-frame plan (:attr:`Shared.whole`) serves the builders of an eager ``select``
    / ``with_columns`` of ``WHOLE_ROWS`` rows or more; a smaller frame, a ``group_by``, a lazy
    query and a builder inside a window keep the per-group plan."""
    import frameeval.metrics.builders as builders

    seen: list[bool] = []
    real = builders.statistic_value

    def spy(*args: Any, **kwargs: Any) -> pl.Expr:
        seen.append(kwargs.get("whole", args[5] if len(args) > 5 else False))
        return real(*args, **kwargs)

    monkeypatch.setattr(builders, "statistic_value", spy)
    df = pl.DataFrame({"g": [1, 1, 2], "t": [1.0, 2.0, 3.0], "f": [1.5, 2.0, 2.5]})
    seen.clear()
    df.select(fe.rmse("t", "f"))  # below WHOLE_ROWS: the per-group plan
    assert seen and not any(seen)
    monkeypatch.setattr("frameeval._validate.WHOLE_ROWS", 3)
    runs = {
        "select": (lambda e: df.select(e), True),
        "with_columns": (lambda e: df.with_columns(e), True),
        "renamed": (lambda e: df.select(e.alias("x")), True),
        "group_by": (lambda e: df.group_by("g").agg(e), False),
        "lazy select": (lambda e: df.lazy().select(e).collect(), False),
        "window": (lambda e: df.select(e.over("g")), False),
    }
    for name, (run, whole) in runs.items():
        seen.clear()
        run(fe.rmse("t", "f"))
        assert seen and all(s is whole for s in seen), name


@pytest.mark.parametrize("values", list(FINITE_CASES.values()), ids=list(FINITE_CASES))
def test_a_count_gated_by_a_shared_sum_is_bound_after_it(values) -> None:
    """:meth:`Shared.bind` computes an aggregate that reads another field (a finiteness count
    gated by a sum, :meth:`Shared.prove`) one step after the fields it reads, found through it:
    the same count as the per-row one, over a whole frame and per group."""
    from frameeval._validate import Shared, finite, gated

    values = [1.7e308 if v == "big" else v for v in values]
    df = pl.DataFrame({"g": [i % 2 for i in range(len(values))], "x": values})
    df = df.with_columns(pl.col("x").cast(pl.Float64), pl.col("g").cast(pl.Int64))
    shared = Shared(whole=True)
    shared.prove(["x"], shared(pl.col("x").sum()))
    need = shared.proven("x")
    assert need is not None and shared.proven("y") is None
    count = shared(gated("x", lambda x: ~finite(x), need=need))
    got = shared.bind(count.cast(pl.Int64)).alias("got")
    want = (~finite(pl.col("x"))).fill_null(False).sum().cast(pl.Int64).alias("want")
    whole = df.select(got, want)
    assert whole["got"].to_list() == whole["want"].to_list()
    grouped = df.group_by("g").agg(got, want).sort("g")
    assert grouped["got"].to_list() == grouped["want"].to_list()
