"""The compiler of input declarations (frameeval/_inputs.py): a declaration gives exactly the
checks the hand-written sequence gave (the oracle: ``require_columns`` → dtype checks →
``Checks`` built rule by rule), in the declared order, and one compiled object serves the frame
face, the expression face and the Dask merge."""

from __future__ import annotations

import math
import re
from decimal import Decimal

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from frameeval._inputs import WEIGHT_INPUT, Column, Inputs, check_distinct
from frameeval._validate import Checks, check_labels, check_numeric, require_columns
from frameeval.exceptions import (
    ColumnNotFoundError,
    EmptyFrameError,
    FrameEvalError,
    InvalidDtypeError,
    InvalidParameterError,
    InvalidValueError,
    MissingValueError,
    NegativeValueError,
    UnknownLabelError,
)
from tests.helpers.examples import budget

SCORES = Inputs(
    Column("truth", "label", "label"),
    Column("score", "numeric", "finite", "unit", several=True),
    Column("by"),
    WEIGHT_INPUT,
)


def _frame(**columns: list) -> pl.DataFrame:
    return pl.DataFrame(columns, strict=False)


def _same(a: Checks, b: Checks) -> bool:
    """Whether two Checks hold the same rules: names, errors, messages, hints, scopes and row
    expressions."""
    if a.func != b.func or len(a._checks) != len(b._checks):
        return False
    for x, y in zip(a._checks, b._checks, strict=True):
        fields = (x.name, x.error, x.message, x.scope, x.hint)
        if fields != (y.name, y.error, y.message, y.scope, y.hint) or not x.bad.meta.eq(y.bad):
            return False
        if (x.example is None) != (y.example is None):
            return False
        if x.example is not None and not x.example.meta.eq(y.example):
            return False
    return True


def test_a_declaration_compiles_to_the_hand_written_checks() -> None:
    df = _frame(y=[0, 1], s=[0.2, 0.8], w=[1.0, 2.0], g=["a", "b"])
    compiled = SCORES.compile(df.schema, "auc", truth="y", score="s", by=["g"], weight="w")
    oracle = Checks("auc")
    oracle.label("y", "truth", pl.Int64)
    oracle.finite("s", "score", pl.Float64)
    oracle.within_unit("s", "score")
    oracle.weight("w", pl.Float64)
    assert _same(compiled, oracle)


@pytest.mark.parametrize(
    ("rule", "build"),
    [
        ("label", lambda c: c.label("x", "x", pl.Float64)),
        ("finite", lambda c: c.finite("x", "x", pl.Float64)),
        ("finite_one_count", lambda c: c.finite("x", "x", pl.Float64, one_count=True)),
        ("finite_or_null", lambda c: c.finite("x", "x", pl.Float64, nulls=True)),
        (
            "finite_or_null_one_count",
            lambda c: c.finite("x", "x", pl.Float64, nulls=True, one_count=True),
        ),
        ("not_null", lambda c: c.not_null("x", "x")),
        ("unit", lambda c: c.within_unit("x", "x")),
        ("non_negative", lambda c: c.non_negative("x", "x")),
        ("int64", lambda c: c.fits_int64("x", "x", pl.Float64)),
    ],
)
def test_each_rule_is_its_checks_method(rule: str, build) -> None:
    schema = pl.Schema({"x": pl.Float64})
    oracle = Checks("f")
    build(oracle)
    assert _same(Inputs(Column("x", "any", rule)).compile(schema, "f", x="x"), oracle)  # type: ignore[arg-type]


def test_a_hint_reaches_the_nan_error() -> None:
    schema = pl.Schema({"m": pl.Float64})
    oracle = Checks("f")
    oracle.finite("m", "metric", pl.Float64, nulls=True, nan_hint="make it null")
    column = Column("metric", "numeric", "finite_or_null", hint="make it null")
    assert _same(Inputs(column).compile(schema, "f", metric="m"), oracle)


def test_the_weight_rule_skips_non_negativity_for_an_unsigned_weight() -> None:
    schema = pl.Schema({"w": pl.UInt32})
    oracle = Checks("f")
    oracle.weight("w", pl.UInt32)
    assert _same(Inputs(WEIGHT_INPUT).compile(schema, "f", weight="w"), oracle)


def test_roles_not_passed_and_roles_of_several_columns() -> None:
    schema = pl.Schema({"y": pl.Int64, "a": pl.Float64, "b": pl.Float64})
    compiled = SCORES.compile(schema, "f", truth="y", score=["a", "b"], by=None, weight=None)
    oracle = Checks("f")
    oracle.label("y", "truth", pl.Int64)
    for c in ("a", "b"):
        oracle.finite(c, "score", pl.Float64)
        oracle.within_unit(c, "score")
    assert _same(compiled, oracle)


def test_rules_are_added_to_the_callers_checks() -> None:
    schema = pl.Schema({"x": pl.Float64})
    mine = Checks("f")
    mine.not_null("x", "first")
    out = Inputs(Column("x", "any", "unit")).compile(schema, "f", x="x", checks=mine)
    assert out is mine
    assert [c.message for c in mine._checks] == [
        "f(): column 'x' (first=) must not contain nulls, got null",
        "f(): column 'x' (x=) must be a probability in [0, 1], got",
    ]


# -- schema rules: the hand-written calls' errors, in the declared order ---------------------
def _error(call) -> tuple[type, str]:
    with pytest.raises(FrameEvalError) as info:
        call()
    return type(info.value), str(info.value)


@pytest.mark.parametrize(
    ("columns", "names"),
    [
        ({"y": [0], "s": [0.5]}, {"truth": "y", "score": "zz", "by": ["g"]}),  # score first
        ({"y": [0], "s": [0.5]}, {"truth": "yy", "score": "s", "by": ["g"]}),
        ({"y": [0], "s": [0.5]}, {"truth": "y", "score": "s", "by": ["g"]}),
        ({"y": [0], "s": [0.5]}, {"truth": "y", "score": "s", "weight": "w"}),
        ({"y": [0], "s": [0.5]}, {"truth": "y", "score": "s", "by": [1]}),
    ],
)
def test_missing_columns_are_the_hand_written_errors(columns: dict, names: dict) -> None:
    schema = _frame(**columns).schema
    roles = {r: names.get(r) for r in ("truth", "score", "by", "weight")}
    got = _error(lambda: SCORES.compile(schema, "f", **names))
    assert got == _error(lambda: require_columns(schema, "f", **roles))
    assert got[0] in (ColumnNotFoundError, InvalidParameterError)


@pytest.mark.parametrize(
    "columns",
    [
        {"y": [[0]], "s": [0.5]},  # a list is no label
        {"y": ["a"], "p": [1]},  # two families
        {"y": [0], "p": [1], "s": ["x"]},  # a string score
        {"y": [0], "p": [1], "s": [Decimal("0.5")]},  # a Decimal where only numbers are read
    ],
)
def test_dtype_errors_are_the_hand_written_ones(columns: dict) -> None:
    df = _frame(**{"p": [0], "s": [0.5], **columns})
    inputs = Inputs(
        Column("truth", "label", "label"),
        Column("pred", "label", "label"),
        Column("score", "numeric", "finite"),
    )

    def by_hand() -> None:
        check_labels(df.schema, "f", truth="y", pred="p")
        check_numeric(df.schema, "f", score="s")

    got = _error(lambda: inputs.compile(df.schema, "f", truth="y", pred="p", score="s"))
    assert got == _error(by_hand)
    assert got[0] is InvalidDtypeError


def test_a_decimal_is_a_number_where_it_is_read_as_float() -> None:
    df = _frame(s=[Decimal("0.5")])
    compiled = Inputs(Column("score", "numeric_or_decimal", "finite")).compile(
        df.schema, "f", score="s"
    )
    assert len(compiled._checks) == 1  # complete; a Decimal holds no NaN


def test_outputs_and_distinct_columns() -> None:
    schema = pl.Schema({"y": pl.Int64, "s": pl.Float64, "bin": pl.Int64})
    with pytest.raises(
        InvalidParameterError, match=r"^f\(\): by= must not use the output column name 'bin'\.$"
    ):
        SCORES.compile(schema, "f", truth="y", score="s", by=["bin"], outputs=["bin"])
    distinct = Inputs(Column("truth", "label"), Column("score", "numeric"), distinct=True)
    got = _error(lambda: distinct.compile(schema, "f", truth="s", score="s"))
    assert got == _error(lambda: check_distinct("f", [], truth="s", score="s"))
    got = _error(lambda: distinct.compile(schema, "f", truth="y", score="s", by=["y"]))
    assert got == (
        InvalidParameterError,
        "f(): by= must not contain the truth= column, got by=['y'].",
    )


# -- the door ---------------------------------------------------------------------------------
def test_open_refuses_an_eager_empty_frame_and_finds_the_positive_class() -> None:
    empty = pl.DataFrame(schema={"y": pl.Int64, "s": pl.Float64})
    with pytest.raises(EmptyFrameError, match=r"^auc\(\): data must have at least one row"):
        SCORES.open(empty, "auc", truth="y", score="s")
    df = _frame(y=["no", "yes", "no"], s=[0.1, 0.9, 0.4])
    door = SCORES.open(df, "auc", truth="y", score="s", pos_label="yes", positive_of="y")
    assert (door.eager, door.keys, door.positive) == (True, [], "yes")
    assert door.is_positive is not None
    assert df.select(door.is_positive)["y"].to_list() == [False, True, False]
    with pytest.raises(UnknownLabelError, match=r"pos_label 'maybe' must occur in column 'y'"):
        door = SCORES.open(df, "auc", truth="y", score="s", pos_label="maybe", positive_of="y")
        door.checks.enforce(door.lf.select(*door.checks.aggs()), []).collect()


# -- one object, three faces ------------------------------------------------------------------
rows = st.lists(
    st.tuples(
        st.sampled_from([0, 1, None]),
        st.sampled_from([0.1, 0.5, 0.9, 1.5, -0.2, math.nan, math.inf, None]),
        st.sampled_from([1.0, 2.0, -1.0, None]),
    ),
    min_size=1,
    max_size=8,
)


def _outcome(run) -> tuple[type, str] | None:
    try:
        run()
    except FrameEvalError as e:
        return type(e), str(e).split(" (")[0].split(" in group")[0]
    return None


@settings(max_examples=budget(25), deadline=None)
@given(rows)
def test_frame_face_expression_face_and_merge_agree(data: list) -> None:
    """The compiled checks fail (or pass) alike when enforced on the frame's counts, when
    compiled into an expression (:meth:`Checks.guard`) and when the counts of two halves are
    merged (the Dask form): the same error class and message head."""
    y, s, w = zip(*data, strict=True)
    df = pl.DataFrame(
        {"y": list(y), "s": list(s), "w": list(w)},
        schema={"y": pl.Int64, "s": pl.Float64, "w": pl.Float64},
    )
    checks = SCORES.compile(df.schema, "auc", truth="y", score="s", weight="w")

    def frame() -> None:
        checks.enforce(df.lazy().select(*checks.aggs()), []).collect()

    def expression() -> None:
        guard = checks.guard()
        assert guard is not None
        df.select(guard)

    def merged() -> None:
        half = len(df) // 2
        parts = [df[:half].select(*checks.aggs()), df[half:].select(*checks.aggs())]
        both = pl.concat(parts).lazy().select(*checks.merge())
        checks.enforce(both, []).collect()

    outcome = _outcome(frame)
    assert _outcome(expression) == outcome
    assert _outcome(merged) == outcome
    # the oracle: the declared rules, in order, on the Python values
    if None in y or any(v is None or math.isnan(v) or math.isinf(v) for v in s):
        expected: type | None = MissingValueError
    elif any(v < 0 or v > 1 for v in s):
        expected = InvalidValueError
    elif None in w:
        expected = MissingValueError
    elif any(v < 0 for v in w):
        expected = NegativeValueError
    else:
        expected = None
    assert (outcome[0] if outcome else None) is expected


def test_a_role_of_one_column_refuses_a_list() -> None:
    """A role declared without ``several=`` names one column: a list or tuple is a typed
    error naming the function, the role and the value (it was a TypeError or Polars'
    "column not found" deep in the plan); ``by=`` and a role declared ``several=True`` take
    lists."""
    schema = pl.Schema({"y": pl.Int64, "a": pl.Float64, "b": pl.Float64})
    one = Inputs(Column("truth", "label", "label"), Column("block"), Column("by"))
    with pytest.raises(InvalidParameterError, match=r"^f\(\): block= must name one column, "):
        one.compile(schema, "f", truth="y", block=["a", "b"], by=None)
    with pytest.raises(InvalidParameterError, match=r"block= must name one column, got \('a',\)"):
        one.compile(schema, "f", truth="y", block=("a",), by=None)
    one.compile(schema, "f", truth="y", block="a", by=["a", "b"])
    Inputs(Column("block", several=True)).compile(schema, "f", block=["a", "b"])


def test_the_comparison_tests_refuse_a_list_for_a_one_column_role() -> None:
    """The tests of two or more learners over blocks take one ``block=`` column (the
    resampled t tests take several)."""
    import frameeval as fe

    rows = [
        (k, i, j, 0.8 - 0.1 * (k == "B") + 0.01 * i + 0.003 * j)
        for k in "AB"
        for i in range(5)
        for j in (1, 2)
    ]
    df = pl.DataFrame(rows, schema=["learner", "repeat", "fold", "accuracy"], orient="row")
    runs = {
        "paired_t_test": lambda: fe.paired_t_test(
            df, "accuracy", a="A", b="B", block=["repeat", "fold"]
        ),
        "wilcoxon": lambda: fe.wilcoxon(df, "accuracy", a="A", b="B", block=["repeat", "fold"]),
        "friedman": lambda: fe.friedman(df, "accuracy", block=["repeat", "fold"]),
        "effect_size": lambda: fe.effect_size(
            df, "accuracy", a="A", b="B", block=["repeat", "fold"]
        ),
    }
    for name, run in runs.items():
        with pytest.raises(
            InvalidParameterError, match=rf"^{name}\(\): block= must name one column"
        ):
            run()
    several = fe.corrected_resampled_t_test(
        df, "accuracy", a="A", b="B", n_train=90, n_test=10, block=["repeat", "fold"]
    )
    assert several.height == 1


@pytest.mark.parametrize(
    ("value", "several", "required", "text"),
    [
        (123, False, False, "block= must name a column (a string), got 123."),
        (1.5, True, False, "block= must name a column (a string), got 1.5."),
        (["a", 2], True, False, "block= must name a column (a string), got 2."),
        (None, False, True, "block= must name a column (a string), got None."),
        (("a", "b"), False, False, "block= must name one column, got ('a', 'b')."),
    ],
)
def test_a_role_names_columns_by_strings(value, several: bool, required: bool, text: str) -> None:
    """Column names are strings: a number, a non-string in a list, None for a required role and
    a list for a one-column role are refused before any column is looked up."""
    from frameeval._inputs import check_names

    with pytest.raises(InvalidParameterError, match=f"^f\\(\\): {re.escape(text)}$"):
        check_names("f", "block", value, several, required)
    check_names("f", "block", None, several)  # not passed
    check_names("f", "block", ["a", "b"] if several else "a", several, required)


def test_public_doors_refuse_a_role_that_is_not_a_column_name() -> None:
    """The probe that found them: a number, None or a list where a frame function's role
    names one column gave a TypeError, KeyError or AssertionError from inside; each is now the
    typed error naming the function and the role."""
    import frameeval as fe

    df = pl.DataFrame({"y": [1, 0, 1, 0], "p": [1, 0, 0, 0], "s": [0.9, 0.1, 0.8, 0.3]})
    rows = [(d, k, 0.7 + 0.05 * j + 0.01 * d) for d in range(6) for j, k in enumerate("ABC")]
    res = pl.DataFrame(rows, schema=["block", "learner", "metric"], orient="row")
    cases = {
        "roc_curve(): truth= must name a column": lambda: fe.roc_curve(df, truth=123, score="s"),
        "pr_curve(): truth= must name a column": lambda: fe.pr_curve(df, truth=None, score="s"),
        "confusion_matrix(): pred= must name a column": lambda: fe.confusion_matrix(
            df, truth="y", pred=None
        ),
        "calibration_curve(): score= must name a column": lambda: fe.calibration_curve(
            df, truth="y", score=None
        ),
        "delong_ci(): truth= must name a column": lambda: fe.delong_ci(df, truth=1.5, score="s"),
        "friedman(): metric= must name one column": lambda: fe.friedman(
            res, ["metric"], block="block", learner="learner"
        ),
        "rank_table(): metric= must name one column": lambda: fe.rank_table(
            res, ["metric"], block="block", learner="learner"
        ),
        "effect_size(): metric= must name a column": lambda: fe.effect_size(
            res, None, block="block", learner="learner", a="A", b="B"
        ),
    }
    q = fe.datasets.quantile_forecasts()
    items = pl.DataFrame(
        {"model": ["A", "B"] * 4, "item": [1, 1, 2, 2, 3, 3, 4, 4], "score": [1.0, 0.0] * 4}
    )
    games = pl.DataFrame(
        {"model_a": ["A", "B"], "model_b": ["B", "C"], "winner": ["model_a", "tie"]}
    )
    cases |= {
        "quantile_scores(): quantile= must name a column": lambda: fe.quantile_scores(
            q, "y", "f", None
        ),
        "weighted_interval_score(): quantile= must name a column": lambda: (
            fe.weighted_interval_score(q, truth="y", pred="f", quantile=None, instance="id")
        ),
        "crps(): truth= must name a column": lambda: fe.crps(
            q, truth=None, pred="f", instance="id"
        ),
        "bradley_terry(): a= must name a column": lambda: fe.ratings.bradley_terry(games, a=None),
        "power(): score= must name a column": lambda: fe.items.power(items, None),
        "bias_variance(): instance= must name a column": lambda: fe.bias_variance(
            q, "y", "f", instance=None, repeat="q"
        ),
    }
    for start, run in cases.items():
        with pytest.raises(InvalidParameterError, match=f"^{re.escape(start)}"):
            run()
