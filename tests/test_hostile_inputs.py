"""Hostile inputs (issue 22, part 5): every public family, every face, one expected outcome each.

A case is (function, hostile input, face) and expects exactly one of

* a correct number, checked against scikit-learn / scipy to 1e-9 (per group on a grouped face);
* a documented ``null`` (an undefined 0/0, AUC of a one-class group, an empty frame);
* a typed :class:`frameeval.exceptions.FrameEvalError` whose message starts with ``name(): `` and
  names the column (and the offending value where there is one).

Faces: an expression builder inside ``df.select(...)`` and inside the user's own
``df.group_by("g").agg(...)`` (plain Polars); a frame function on a DataFrame and on a LazyFrame
collected with plain ``.collect()``. Never a raw Polars error, never NaN/inf where null is
documented, never a wrong number (docs/data-contract.md; DESIGN §3 "The guard").
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import numpy as np
import polars as pl
import pytest
import scipy.stats
from sklearn import metrics as skm
from sklearn.calibration import calibration_curve as sk_calibration_curve

import frameeval as fe
from frameeval.exceptions import (
    EmptyFrameError,
    FrameEvalError,
    InsufficientDataError,
    InvalidDtypeError,
    InvalidParameterError,
    InvalidValueError,
    MissingValueError,
    NegativeValueError,
    UnknownLabelError,
)
from tests.helpers.regression import oracle as regression_oracle

TOL = 1e-9
HUGE = 2**64 - 1  # a UInt64 label beyond Int64

# ---------------------------------------------------------------------------------------------
# outcomes
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Num:
    """A correct number: ``oracle(part)`` per group (or on the whole frame)."""

    oracle: Callable[[pl.DataFrame], Any]


@dataclass(frozen=True)
class Null:
    """A documented null."""


@dataclass(frozen=True)
class Err:
    """A typed frameeval error; the message starts with ``name(): `` and contains ``needles``."""

    error: type[FrameEvalError] | tuple[type[FrameEvalError], ...]
    needles: tuple[str, ...] = ()
    names: tuple[str, ...] = ()  # other accepted function names (a measure inside bootstrap_ci)


@dataclass(frozen=True)
class Empty:
    """An empty result: zero rows, or (no ``by=``) one row whose values are all null."""


def err(error: Any, *needles: str) -> Err:
    return Err(error, needles)


# ---------------------------------------------------------------------------------------------
# data
# ---------------------------------------------------------------------------------------------

Y = [1, 0, 1, 1, 0, 0, 1, 0]
P = [1, 0, 0, 1, 1, 0, 1, 0]
S = [0.9, 0.1, 0.4, 0.8, 0.6, 0.3, 0.7, 0.2]
W = [1.0, 2.0, 1.0, 0.5, 1.0, 3.0, 1.0, 1.0]
R = [3.0, -0.5, 2.0, 7.0, 1.0, 0.0, 2.5, 4.0]
F = [2.5, 0.0, 2.0, 8.0, 1.5, -0.5, 2.0, 3.5]


def base(**columns: Any) -> pl.DataFrame:
    data: dict[str, Any] = {"g": ["a"] * 8, "y": Y, "p": P, "s": S, "w": W, "r": R, "f": F}
    frame = pl.DataFrame(data)
    return frame.with_columns(
        **{
            k: (v if isinstance(v, pl.Series | pl.Expr) else pl.Series(k, v))
            for k, v in columns.items()
        }
    )


def put(values: list[Any], index: int, value: Any) -> list[Any]:
    out = list(values)
    out[index] = value
    return out


# two groups: "a" (7 rows, both classes) and "b" (the last row alone: y=0, p=0)
ONE_ROW_GROUP = ["a"] * 7 + ["b"]
# two groups: "a" (5 rows, both classes) and "b" (three rows, truth all 0)
ONE_CLASS_GROUP = ["a", "b", "a", "a", "b", "b", "a", "a"]
# re-ordered so that group "a" keeps both classes: rows 1, 4, 5 (y=0) form group "b"


# ---------------------------------------------------------------------------------------------
# cases
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    name: str  # the public function's name (the message prefix)
    kind: str  # "expr" | "frame"
    slug: str  # the hostile input
    data: pl.DataFrame
    run: Callable[..., Any]  # expr: () -> pl.Expr; frame: (frame) -> frame
    expect: Any  # an outcome, or {face: outcome}
    value: Callable[[pl.DataFrame], Any] | None = None  # frame: the number(s) read off a result
    faces: tuple[str, ...] = field(default=())

    def all_faces(self) -> tuple[str, ...]:
        if self.faces:
            return self.faces
        return ("select", "groupby") if self.kind == "expr" else ("eager", "lazy")

    def outcome(self, face: str) -> Any:
        return self.expect[face] if isinstance(self.expect, dict) else self.expect


def close(got: Any, want: Any) -> bool:
    if want is None or got is None:
        return got is None and want is None
    if isinstance(want, dict):
        return (
            isinstance(got, dict)
            and got.keys() == want.keys()
            and all(close(got[k], want[k]) for k in want)
        )
    if isinstance(want, list | tuple):
        return len(got) == len(want) and all(close(a, b) for a, b in zip(got, want, strict=True))
    if isinstance(want, str | bool):
        return got == want
    g, w = float(got), float(want)
    return math.isfinite(g) and abs(g - w) <= TOL * max(1.0, abs(w))


def check_error(exc: BaseException, name: str, expected: Err) -> None:
    assert isinstance(exc, expected.error), (
        f"expected {expected.error}, got {type(exc).__name__}: {exc}"
    )
    text = str(exc)
    prefixes = tuple(f"{n}(): " for n in (name, *expected.names))
    assert text.startswith(prefixes), f"message must start with {prefixes}, got {text!r}"
    for needle in expected.needles:
        assert needle in text, f"message must name {needle!r}, got {text!r}"


def execute(case: Case, face: str) -> pl.DataFrame:
    if face == "select":
        return case.data.select(case.run().alias("value"))
    if face == "groupby":
        return case.data.group_by("g").agg(case.run().alias("value")).sort("g")
    if face == "eager":
        out = case.run(case.data)
        assert isinstance(out, pl.DataFrame), (
            f"a DataFrame in must give a DataFrame out, got {type(out)}"
        )
        return out
    out = case.run(case.data.lazy())
    assert isinstance(out, pl.LazyFrame), (
        f"a LazyFrame in must give a LazyFrame out, got {type(out)}"
    )
    return out.collect()


def check(case: Case, face: str) -> str:
    """Run ``case`` on ``face`` and assert its outcome; returns the kind of outcome checked."""
    expected = case.outcome(face)
    kind = type(expected).__name__
    if isinstance(expected, Err):
        with pytest.raises(Exception) as info:  # the type is checked below
            execute(case, face)
        check_error(info.value, case.name, expected)
        return kind
    result = execute(case, face)
    if isinstance(expected, Empty):
        # no row, or rows whose measures are all null (counts, support and parameters aside)
        values = result.select(pl.col(pl.Float64).exclude("support", "count", "level", "alpha"))
        assert result.height == 0 or all(
            values.null_count().row(0)[i] == values.height for i in range(values.width)
        ), f"expected an empty result, got {result}"
        return kind
    if case.kind == "expr":
        if face == "select":
            got = {None: result["value"][0]}
            parts = {None: case.data}
        else:
            got = dict(zip(result["g"].to_list(), result["value"].to_list(), strict=True))
            parts = {
                key[0]: part for key, part in case.data.partition_by("g", as_dict=True).items()
            }
        if isinstance(expected, Null):
            want = dict.fromkeys(got)
        else:
            want = {k: expected.oracle(part) for k, part in parts.items()}
        assert got.keys() == want.keys(), f"groups {list(got)} != {list(want)}"
        for key in got:
            value = got[key]
            assert value is None or math.isfinite(value), f"NaN/inf in group {key}: {value}"
            assert close(value, want[key]), f"group {key}: got {value}, expected {want[key]}"
        return kind
    assert case.value is not None
    got = case.value(result)
    want = None if isinstance(expected, Null) else expected.oracle(case.data)
    if isinstance(expected, Null):
        flat = got if isinstance(got, list) else [got]
        assert all(v is None for v in flat), f"expected null, got {got}"
        return kind
    assert close(got, want), f"got {got}, expected {want}"
    return kind


# ---------------------------------------------------------------------------------------------
# oracles (scikit-learn / scipy)
# ---------------------------------------------------------------------------------------------


def nan_to_none(x: float) -> float | None:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else float(x)


def sw(part: pl.DataFrame, weight: str | None) -> Any:
    return None if weight is None else part[weight].cast(pl.Float64).to_numpy()


def counts(
    part: pl.DataFrame, truth: str, pred: str, pos: Any, weight: str | None
) -> tuple[float, ...]:
    t = [v == pos for v in part[truth].to_list()]
    q = [v == pos for v in part[pred].to_list()]
    w = [1.0] * part.height if weight is None else part[weight].cast(pl.Float64).to_list()
    tp = sum(wi for a, b, wi in zip(t, q, w, strict=True) if a and b)
    fp = sum(wi for a, b, wi in zip(t, q, w, strict=True) if not a and b)
    fn = sum(wi for a, b, wi in zip(t, q, w, strict=True) if a and not b)
    tn = sum(wi for a, b, wi in zip(t, q, w, strict=True) if not a and not b)
    return tp, fp, fn, tn


def ratio(a: float, b: float) -> float | None:
    return None if b == 0 else a / b


def strs(d: pl.DataFrame, column: str) -> list[str]:
    """Labels as text for scikit-learn (a UInt64 beyond 2^53 would read as 'continuous')."""
    return [str(v) for v in d[column].to_list()]


def o_accuracy(t: str, p: str, pos: Any, weight: str | None) -> Callable[[pl.DataFrame], Any]:
    return lambda d: skm.accuracy_score(strs(d, t), strs(d, p), sample_weight=sw(d, weight))


def o_precision(t: str, p: str, pos: Any, weight: str | None) -> Callable[[pl.DataFrame], Any]:
    def f(d: pl.DataFrame) -> Any:
        tp, fp, _, _ = counts(d, t, p, pos, weight)
        want = ratio(tp, tp + fp)
        if want is not None:  # the same number from scikit-learn
            labels = [v == pos for v in d[t].to_list()], [v == pos for v in d[p].to_list()]
            assert abs(skm.precision_score(*labels, sample_weight=sw(d, weight)) - want) < TOL
        return want

    return f


def o_f1(t: str, p: str, pos: Any, weight: str | None) -> Callable[[pl.DataFrame], Any]:
    def f(d: pl.DataFrame) -> Any:
        labels = [v == pos for v in d[t].to_list()], [v == pos for v in d[p].to_list()]
        return nan_to_none(skm.f1_score(*labels, sample_weight=sw(d, weight), zero_division=np.nan))

    return f


def o_mcc(t: str, p: str, pos: Any, weight: str | None) -> Callable[[pl.DataFrame], Any]:
    def f(d: pl.DataFrame) -> Any:
        tp, fp, fn, tn = counts(d, t, p, pos, weight)
        if 0 in (tp + fp, tp + fn, tn + fp, tn + fn):
            return None  # undefined: a zero marginal (scikit-learn returns 0)
        labels = [v == pos for v in d[t].to_list()], [v == pos for v in d[p].to_list()]
        return skm.matthews_corrcoef(*labels, sample_weight=sw(d, weight))

    return f


def o_balanced(t: str, p: str, pos: Any, weight: str | None) -> Callable[[pl.DataFrame], Any]:
    def f(d: pl.DataFrame) -> Any:
        if d[t].n_unique() < 2:
            return None  # adjusted=True on one class: the chance level is 1, 0/0
        return skm.balanced_accuracy_score(
            strs(d, t), strs(d, p), sample_weight=sw(d, weight), adjusted=True
        )

    return f


def o_roc_auc(t: str, s: str, pos: Any, weight: str | None) -> Callable[[pl.DataFrame], Any]:
    def f(d: pl.DataFrame) -> Any:
        y = [v == pos for v in d[t].to_list()]
        if len(set(y)) < 2:
            return None
        return skm.roc_auc_score(y, d[s].cast(pl.Float64).to_list(), sample_weight=sw(d, weight))

    return f


def o_average_precision(
    t: str, s: str, pos: Any, weight: str | None
) -> Callable[[pl.DataFrame], Any]:
    def f(d: pl.DataFrame) -> Any:
        y = [v == pos for v in d[t].to_list()]
        if not any(y):
            return None
        return skm.average_precision_score(
            y, d[s].cast(pl.Float64).to_list(), sample_weight=sw(d, weight)
        )

    return f


def o_log_loss(t: str, s: str, pos: Any, weight: str | None) -> Callable[[pl.DataFrame], Any]:
    def f(d: pl.DataFrame) -> Any:
        y = [int(v == pos) for v in d[t].to_list()]
        return skm.log_loss(
            y, d[s].cast(pl.Float64).to_list(), sample_weight=sw(d, weight), labels=[0, 1]
        )

    return f


def o_brier(t: str, s: str, pos: Any, weight: str | None) -> Callable[[pl.DataFrame], Any]:
    def f(d: pl.DataFrame) -> Any:
        y = [int(v == pos) for v in d[t].to_list()]
        return skm.brier_score_loss(
            y, d[s].cast(pl.Float64).to_list(), sample_weight=sw(d, weight), pos_label=1
        )

    return f


def o_regression(metric: Callable[..., float]) -> Callable[..., Callable[[pl.DataFrame], Any]]:
    def make(t: str, p: str, pos: Any, weight: str | None) -> Callable[[pl.DataFrame], Any]:
        return lambda d: metric(
            d[t].cast(pl.Float64).to_list(),
            d[p].cast(pl.Float64).to_list(),
            sample_weight=sw(d, weight),
        )

    return make


def o_measure(name: str, **parameters: Any) -> Callable[..., Callable[[pl.DataFrame], Any]]:
    def make(t: str, p: str, pos: Any, weight: str | None) -> Callable[[pl.DataFrame], Any]:
        return lambda d: regression_oracle(
            name,
            d[t].cast(pl.Float64).to_numpy(),
            d[p].cast(pl.Float64).to_numpy(),
            sw(d, weight),
            **parameters,
        )

    return make


def rmse(y: Any, f: Any, sample_weight: Any = None) -> float:
    return math.sqrt(skm.mean_squared_error(y, f, sample_weight=sample_weight))


# ---------------------------------------------------------------------------------------------
# expression families
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Builder:
    name: str
    role: str  # "label" (truth, pred) | "score" (truth, score) | "regression" (truth, pred)
    binary: bool  # takes pos_label=
    oracle: Callable[..., Callable[[pl.DataFrame], Any]]
    extra: dict[str, Any] = field(default_factory=dict)

    def expr(
        self, truth: str, other: str, pos: Any = None, weight: str | None = None
    ) -> Callable[[], pl.Expr]:
        kw = dict(self.extra)
        if self.binary and pos is not None:
            kw["pos_label"] = pos
        if weight is not None:
            kw["weight"] = weight
        fn = getattr(fe, self.name)
        return lambda: fn(truth, other, **kw)


LABEL = [
    Builder("accuracy", "label", False, o_accuracy),
    Builder("precision", "label", True, o_precision),
    Builder("f1", "label", True, o_f1),
    Builder("mcc", "label", False, o_mcc),
    Builder("balanced_accuracy", "label", False, o_balanced, {"adjusted": True}),
]
SCORE = [
    Builder("roc_auc", "score", True, o_roc_auc),
    Builder("average_precision", "score", True, o_average_precision),
    Builder("log_loss", "score", True, o_log_loss),
    Builder("brier_score", "score", True, o_brier),
]
REGRESSION = [
    Builder("mse", "regression", False, o_regression(skm.mean_squared_error)),
    Builder("rmse", "regression", False, o_regression(rmse)),
    Builder("mae", "regression", False, o_regression(skm.mean_absolute_error)),
    # issue 24: one measure per kind of statistic (moments with min / max, a zero-truth count,
    # a median, a max) gets the whole battery; tests/helpers/regression.py has the oracles; R
    # holds a 0, so MAPE is the documented null there. MSLE and the deviances: DOMAIN below
    *(
        Builder(name, "regression", False, o_measure(name))
        for name in ("r2", "mape", "median_absolute_error", "max_error")
    ),
]
# the other measures of every real share those builders' guard (one expression_guard for
# every regression measure): their values only, on the battery's data
REGRESSION_VALUES = [
    Builder(name, "regression", False, o_measure(name))
    for name in (
        "explained_variance",
        "smape",
        "huber_loss",
        "pinball_loss",
        "tweedie_deviance",
        "pearson_r",
        "ccc",
        "mean_error",
    )
]

CASES: list[Case] = []


def expr_case(
    b: Builder,
    slug: str,
    data: pl.DataFrame,
    expect: Any,
    *,
    truth: str = "y",
    other: str | None = None,
    pos: Any = None,
    weight: str | None = None,
    oracle_pos: Any = 1,
) -> None:
    other = other or {"label": "p", "score": "s", "regression": "f"}[b.role]
    if isinstance(expect, type) and expect is Num:
        expect = Num(b.oracle(truth, other, pos if pos is not None else oracle_pos, weight))
    CASES.append(Case(b.name, "expr", slug, data, b.expr(truth, other, pos, weight), expect))


def label_cases(b: Builder) -> None:
    pos_needed = b.binary
    expr_case(b, "int-labels", base(), Num)
    expr_case(b, "null-truth", base(y=put(Y, 2, None)), err(MissingValueError, "'y'", "null"))
    expr_case(b, "null-pred", base(p=put(P, 0, None)), err(MissingValueError, "'p'", "null"))
    expr_case(
        b,
        "nan-truth",
        base(y=put([float(v) for v in Y], 3, float("nan"))),
        err(MissingValueError, "'y'", "NaN"),
    )
    expr_case(
        b,
        "inf-pred",
        base(p=put([float(v) for v in P], 1, float("inf"))),
        err(MissingValueError, "'p'", "inf"),
    )
    expr_case(
        b,
        "float-fraction-truth",
        base(y=put([float(v) for v in Y], 0, 1.5)),
        err(UnknownLabelError, "'y'", "1.5"),
    )
    expr_case(
        b, "float-integral-labels", base(y=[float(v) for v in Y], p=[float(v) for v in P]), Num
    )
    expr_case(
        b,
        "string-truth-int-pred",
        base(y=[str(v) for v in Y]),
        err(InvalidDtypeError, "'y'", "'p'"),
        pos="1" if pos_needed else None,
    )
    expr_case(
        b, "struct-truth", base().with_columns(y=pl.struct("y")), err(InvalidDtypeError, "'y'")
    )
    expr_case(
        b, "list-truth", base().with_columns(y=pl.concat_list("y")), err(InvalidDtypeError, "'y'")
    )
    expr_case(
        b,
        "date-truth",
        base().with_columns(y=pl.date(2020, 1, 1) + pl.duration(days=pl.col("y"))),
        err(InvalidDtypeError, "'y'"),
    )
    expr_case(
        b,
        "bool-labels",
        base(y=[bool(v) for v in Y], p=[bool(v) for v in P]),
        Num,
        pos=True if pos_needed else None,
        oracle_pos=True,
    )
    enum = pl.Enum(["no", "yes"])
    yes = base().with_columns(
        y=pl.col("y").replace_strict({1: "yes", 0: "no"}, return_dtype=enum),
        p=pl.col("p").replace_strict({1: "yes", 0: "no"}, return_dtype=enum),
    )
    expr_case(b, "enum-labels", yes, Num, pos="yes" if pos_needed else None, oracle_pos="yes")
    expr_case(
        b,
        "categorical-labels",
        yes.with_columns(pl.col("y", "p").cast(pl.String).cast(pl.Categorical)),
        Num,
        pos="yes" if pos_needed else None,
        oracle_pos="yes",
    )
    huge = base(
        y=pl.Series([HUGE if v else 0 for v in Y], dtype=pl.UInt64),
        p=pl.Series([HUGE if v else 0 for v in P], dtype=pl.UInt64),
    )
    expr_case(b, "uint64-huge-labels", huge, Num, pos=HUGE if pos_needed else None, oracle_pos=HUGE)
    expr_case(b, "empty-frame", base().clear(), {"select": Null(), "groupby": Empty()})
    expr_case(b, "one-row-group", base(g=ONE_ROW_GROUP), Num)
    expr_case(b, "one-class-group", base(g=ONE_CLASS_GROUP), Num)
    expr_case(b, "one-class-truth", base(y=[1] * 8), Num)
    expr_case(b, "weighted", base(), Num, weight="w")
    expr_case(
        b,
        "negative-weight",
        base(w=put(W, 4, -1.0)),
        err(NegativeValueError, "'w'", "-1"),
        weight="w",
    )
    expr_case(
        b, "null-weight", base(w=put(W, 4, None)), err(MissingValueError, "'w'", "null"), weight="w"
    )
    expr_case(
        b,
        "nan-weight",
        base(w=put(W, 4, float("nan"))),
        err(MissingValueError, "'w'", "NaN"),
        weight="w",
    )
    expr_case(
        b, "string-weight", base(w=[str(v) for v in W]), err(InvalidDtypeError, "'w'"), weight="w"
    )
    if pos_needed:
        expr_case(
            b,
            "string-labels-no-pos_label",
            yes.with_columns(pl.col("y", "p").cast(pl.String)),
            err(InvalidParameterError, "'y'", "pos_label"),
        )
        expr_case(  # documented: the one-vs-rest value of a class the rows lack (0/0)
            b, "pos_label-absent", base(), Null(), pos=7
        )
        expr_case(b, "pos_label-wrong-type", base(), err(InvalidDtypeError, "'y'", "'1'"), pos="1")


def score_cases(b: Builder) -> None:
    expr_case(b, "float-scores", base(), Num)
    expr_case(
        b,
        "decimal-scores",
        base(s=pl.Series([Decimal(f"{v:.2f}") for v in S], dtype=pl.Decimal(5, 2))),
        Num,
    )
    expr_case(b, "null-score", base(s=put(S, 2, None)), err(MissingValueError, "'s'", "null"))
    expr_case(b, "nan-score", base(s=put(S, 2, float("nan"))), err(MissingValueError, "'s'", "NaN"))
    expr_case(b, "inf-score", base(s=put(S, 2, float("inf"))), err(MissingValueError, "'s'", "inf"))
    expr_case(b, "string-score", base(s=[str(v) for v in S]), err(InvalidDtypeError, "'s'"))
    expr_case(b, "bool-score", base(s=[v > 0.5 for v in S]), err(InvalidDtypeError, "'s'"))
    expr_case(b, "null-truth", base(y=put(Y, 0, None)), err(MissingValueError, "'y'", "null"))
    expr_case(
        b, "struct-truth", base().with_columns(y=pl.struct("y")), err(InvalidDtypeError, "'y'")
    )
    expr_case(
        b,
        "float-fraction-truth",
        base(y=put([float(v) for v in Y], 0, 0.5)),
        err(UnknownLabelError, "'y'", "0.5"),
    )
    if b.name in ("log_loss", "brier_score"):
        expr_case(
            b, "score-above-one", base(s=put(S, 0, 1.5)), err(InvalidValueError, "'s'", "1.5")
        )
        expr_case(
            b, "negative-score", base(s=put(S, 1, -0.25)), err(InvalidValueError, "'s'", "-0.25")
        )
    else:
        expr_case(b, "int-scores", base(s=[int(v * 100) for v in S]), Num)
    expr_case(b, "empty-frame", base().clear(), {"select": Null(), "groupby": Empty()})
    expr_case(b, "one-row-group", base(g=ONE_ROW_GROUP), Num)
    expr_case(b, "one-class-group", base(g=ONE_CLASS_GROUP), Num)
    expr_case(b, "weighted", base(), Num, weight="w")
    expr_case(
        b,
        "negative-weight",
        base(w=put(W, 4, -1.0)),
        err(NegativeValueError, "'w'", "-1"),
        weight="w",
    )
    enum = pl.Enum(["no", "yes"])
    yes = base().with_columns(y=pl.col("y").replace_strict({1: "yes", 0: "no"}, return_dtype=enum))
    expr_case(b, "enum-truth", yes, Num, pos="yes", oracle_pos="yes")
    expr_case(
        b,
        "string-truth-no-pos_label",
        yes.with_columns(pl.col("y").cast(pl.String)),
        err(InvalidParameterError, "'y'", "pos_label"),
    )
    expr_case(b, "bool-truth", base(y=[bool(v) for v in Y]), Num, oracle_pos=True)
    huge = base(y=pl.Series([HUGE if v else 0 for v in Y], dtype=pl.UInt64))
    expr_case(b, "uint64-huge-truth", huge, Num, pos=HUGE, oracle_pos=HUGE)
    expr_case(
        b,
        "pos_label-absent",
        base(),
        err((UnknownLabelError, InvalidParameterError), "'y'", "7"),
        pos=7,
    )


def regression_cases(b: Builder) -> None:
    expr_case(b, "float", base(), Num, truth="r")
    expr_case(
        b, "null-truth", base(r=put(R, 0, None)), err(MissingValueError, "'r'", "null"), truth="r"
    )
    expr_case(
        b,
        "nan-pred",
        base(f=put(F, 1, float("nan"))),
        err(MissingValueError, "'f'", "NaN"),
        truth="r",
    )
    expr_case(
        b,
        "inf-truth",
        base(r=put(R, 1, float("-inf"))),
        err(MissingValueError, "'r'", "inf"),
        truth="r",
    )
    expr_case(
        b, "string-pred", base(f=[str(v) for v in F]), err(InvalidDtypeError, "'f'"), truth="r"
    )
    expr_case(b, "bool-pred", base(f=[v > 1 for v in F]), err(InvalidDtypeError, "'f'"), truth="r")
    expr_case(
        b,
        "date-truth",
        base().with_columns(r=pl.date(2020, 1, 1)),
        err(InvalidDtypeError, "'r'"),
        truth="r",
    )
    expr_case(
        b,
        "decimal-pred",
        base(f=pl.Series([Decimal(str(v)) for v in F], dtype=pl.Decimal(6, 2))),
        Num,
        truth="r",
    )
    expr_case(b, "int-truth", base(r=[int(v * 2) for v in R]), Num, truth="r")
    expr_case(b, "empty-frame", base().clear(), {"select": Null(), "groupby": Empty()}, truth="r")
    expr_case(b, "one-row-group", base(g=ONE_ROW_GROUP), Num, truth="r")
    expr_case(b, "weighted", base(), Num, truth="r", weight="w")
    expr_case(
        b,
        "negative-weight",
        base(w=put(W, 4, -2.0)),
        err(NegativeValueError, "'w'", "-2"),
        truth="r",
        weight="w",
    )


for _b in LABEL:
    label_cases(_b)
for _b in SCORE:
    score_cases(_b)
for _b in REGRESSION:
    regression_cases(_b)
for _b in REGRESSION_VALUES:
    expr_case(_b, "float", base(), Num, truth="r")
    expr_case(_b, "weighted", base(), Num, truth="r", weight="w")
    expr_case(_b, "int-truth", base(r=[int(v * 2) for v in R]), Num, truth="r")
    expr_case(_b, "one-row-group", base(g=ONE_ROW_GROUP), Num, truth="r")
    expr_case(_b, "string-pred", base(f=[str(v) for v in F]), err(InvalidDtypeError, "'f'"),
              truth="r")  # fmt: skip

# issue 24, point 5: values outside a regression measure's domain (scikit-learn's rules)
RP = [3.0, 0.5, 2.0, 7.0, 1.0, 0.25, 2.5, 4.0]  # positive truth
FP = [2.5, 0.25, 2.0, 8.0, 1.5, 0.5, 2.0, 3.5]  # positive prediction
DOMAIN = [
    # (builder, parameters, slug, column, row, value, error, needles)
    ("msle", {}, "pred-at-minus-one", "f", 1, -1.0, InvalidValueError, ("'f'", "> -1", "-1.0")),
    ("rmsle", {}, "truth-below-minus-one", "r", 2, -3.0, InvalidValueError,
     ("'r'", "> -1", "-3.0")),
    ("poisson_deviance", {}, "negative-truth", "r", 2, -2.0, NegativeValueError,
     ("'r'", ">= 0", "-2.0")),
    ("poisson_deviance", {}, "zero-pred", "f", 0, 0.0, InvalidValueError, ("'f'", "> 0", "0.0")),
    ("gamma_deviance", {}, "zero-truth", "r", 3, 0.0, InvalidValueError, ("'r'", "> 0", "0.0")),
    ("tweedie_deviance", {"power": 1.5}, "negative-truth", "r", 4, -1.0, NegativeValueError,
     ("'r'", ">= 0", "power=1.5", "-1.0")),
    ("tweedie_deviance", {"power": -1.0}, "negative-pred", "f", 5, -0.5, InvalidValueError,
     ("'f'", "> 0", "power=-1.0", "-0.5")),
]  # fmt: skip
_positive = pl.DataFrame({"g": ["a"] * 7 + ["b"], "r": RP, "f": FP, "w": W})


def domain_frame(column: str, row: int, value: float) -> pl.DataFrame:
    values = put(RP if column == "r" else FP, row, value)
    return _positive.with_columns(pl.Series(column, values))


_seen: set[str] = set()
for _name, _params, _slug, _column, _row, _value, _error, _needles in DOMAIN:
    _tail = f"-power{_params['power']}" if _params else ""
    _builder = Builder(_name, "regression", False, o_measure(_name, **_params), _params)
    if _name + _tail not in _seen:
        _seen.add(_name + _tail)
        expr_case(_builder, "positive" + _tail, _positive, Num, truth="r")
        expr_case(_builder, "positive-weighted" + _tail, _positive, Num, truth="r", weight="w")
    expr_case(_builder, _slug + _tail, domain_frame(_column, _row, _value),
              err(_error, *_needles), truth="r")  # fmt: skip


# ---------------------------------------------------------------------------------------------
# frame functions
# ---------------------------------------------------------------------------------------------


def frame_case(
    name: str,
    slug: str,
    data: pl.DataFrame,
    run: Callable[[Any], Any],
    expect: Any,
    value: Callable[[pl.DataFrame], Any] | None = None,
) -> None:
    CASES.append(Case(name, "frame", slug, data, run, expect, value))


EMPTY = {"eager": err(EmptyFrameError, "empty"), "lazy": Empty()}
# a test or a split of no row: an empty LazyFrame may also fail, typed, when collected
NEEDS_ROWS = {
    "eager": err(EmptyFrameError, "empty"),
    "lazy": err((EmptyFrameError, InsufficientDataError, InvalidParameterError), "0"),
}


def row_values(*columns: str) -> Callable[[pl.DataFrame], Any]:
    return lambda r: [r[c][0] for c in columns] if r.height == 1 else r.select(columns).rows()


def o_measures(pos: Any = 1) -> Callable[[pl.DataFrame], Any]:
    return lambda d: [
        o_accuracy("y", "p", pos, None)(d),
        o_precision("y", "p", pos, None)(d),
        o_f1("y", "p", pos, None)(d),
    ]


def cm_dict(r: pl.DataFrame) -> dict[Any, Any]:
    return {(a, b): c for a, b, c in r.select("actual", "predicted", "count").rows()}


def o_cm(d: pl.DataFrame) -> dict[Any, Any]:
    labels = sorted(set(d["y"].to_list()) | set(d["p"].to_list()))
    seen = Counter(zip(d["y"].to_list(), d["p"].to_list(), strict=True))
    return {(a, b): seen[(a, b)] for a in labels for b in labels}


def roc_area(r: pl.DataFrame) -> float:
    pts = sorted(
        set(zip(r["fpr"].to_list(), r["tpr"].to_list(), strict=True)) | {(0.0, 0.0), (1.0, 1.0)}
    )
    return float(np.trapezoid([t for _, t in pts], [f for f, _ in pts]))


def o_roc_area(d: pl.DataFrame) -> float:
    return skm.roc_auc_score(d["y"].to_list(), d["s"].cast(pl.Float64).to_list())


def pr_points(r: pl.DataFrame) -> list[Any]:
    r = r.filter(pl.col("threshold").is_finite()).sort("threshold", descending=True)
    return [
        [float(a), float(b), float(c)]
        for a, b, c in r.select("threshold", "recall", "precision").rows()
    ]


def o_pr_points(d: pl.DataFrame) -> list[Any]:
    precision, recall, thresholds = skm.precision_recall_curve(
        d["y"].to_list(), d["s"].cast(pl.Float64).to_list()
    )
    pts = [
        [float(t), float(rc), float(pr)]
        for t, rc, pr in zip(thresholds, recall[:-1], precision[:-1], strict=True)
    ]
    return sorted(pts, key=lambda x: -x[0])


def calib(r: pl.DataFrame) -> list[Any]:
    r = r.filter(pl.col("count") > 0).sort("bin")
    return [r["fraction_positive"].to_list(), r["mean_score"].to_list()]


def o_calib(d: pl.DataFrame) -> list[Any]:
    prob_true, prob_pred = sk_calibration_curve(
        d["y"].to_list(), d["s"].cast(pl.Float64).to_list(), n_bins=5
    )
    return [list(prob_true), list(prob_pred)]


def tt(r: pl.DataFrame) -> list[Any]:
    r = r.filter(pl.col("threshold").is_finite()).sort("threshold", descending=True)
    return r.select("tp", "fp", "tn", "fn").rows()


def o_tt(d: pl.DataFrame) -> list[Any]:
    y = d["y"].to_list()
    s = d["s"].cast(pl.Float64).to_list()
    out = []
    for t in sorted(set(s), reverse=True):
        tp = sum(1 for a, b in zip(y, s, strict=True) if a == 1 and b >= t)
        fp = sum(1 for a, b in zip(y, s, strict=True) if a != 1 and b >= t)
        out.append((tp, fp, y.count(0) - fp, y.count(1) - tp))
    return out


def o_cost_error(d: pl.DataFrame) -> float:
    y, p = d["y"].to_list(), d["p"].to_list()
    return [
        (
            sum(1.0 for a, b in zip(y, p, strict=True) if a == 0 and b == 1)
            + sum(2.0 for a, b in zip(y, p, strict=True) if a == 1 and b == 0)
        )
        / len(y)
    ]


def report_f1(r: pl.DataFrame) -> list[Any]:
    return r.filter(pl.col("average") == "none").sort("label")["f1"].to_list()


def o_report_f1(d: pl.DataFrame) -> list[Any]:
    return list(skm.f1_score(d["y"].to_list(), d["p"].to_list(), average=None))


def label_frame_cases() -> None:
    fns: dict[
        str, tuple[Callable[..., Any], Callable[..., Any] | None, Callable[..., Any] | None]
    ] = {
        "measures": (
            lambda x, **k: fe.measures(
                x, truth="y", pred="p", measures=["accuracy", "precision", "f1"], **k
            ),
            row_values("accuracy", "precision", "f1"),
            o_measures(),
        ),
        "confusion_matrix": (
            lambda x, **k: fe.confusion_matrix(x, truth="y", pred="p", **k),
            cm_dict,
            o_cm,
        ),
        "classification_report": (
            lambda x, **k: fe.classification_report(x, truth="y", pred="p", **k),
            report_f1,
            o_report_f1,
        ),
        "cost_sensitive_error": (
            lambda x, **k: fe.cost_sensitive_error(
                x, truth="y", pred="p", costs={(0, 1): 1.0, (1, 0): 2.0}, **k
            ),
            row_values("cost_sensitive_error"),
            o_cost_error,
        ),
    }
    for name, (fn, value, oracle) in fns.items():
        frame_case(name, "int-labels", base(), fn, Num(oracle), value)
        frame_case(
            name,
            "null-truth",
            base(y=put(Y, 2, None)),
            fn,
            err(MissingValueError, "'y'", "null"),
            value,
        )
        frame_case(
            name,
            "nan-pred",
            base(p=put([float(v) for v in P], 1, float("nan"))),
            fn,
            err(MissingValueError, "'p'", "NaN"),
            value,
        )
        frame_case(
            name,
            "float-fraction-truth",
            base(y=put([float(v) for v in Y], 0, 1.5)),
            fn,
            err(UnknownLabelError, "'y'", "1.5"),
            value,
        )
        frame_case(
            name,
            "string-truth-int-pred",
            base(y=[str(v) for v in Y]),
            fn,
            err(InvalidDtypeError, "'y'", "'p'"),
            value,
        )
        frame_case(
            name,
            "struct-truth",
            base().with_columns(y=pl.struct("y")),
            fn,
            err(InvalidDtypeError, "'y'"),
            value,
        )
        frame_case(
            name,
            "list-truth",
            base().with_columns(y=pl.concat_list("y")),
            fn,
            err(InvalidDtypeError, "'y'"),
            value,
        )
        frame_case(
            name,
            "date-truth",
            base().with_columns(y=pl.date(2020, 1, 1)),
            fn,
            err(InvalidDtypeError, "'y'"),
            value,
        )
        huge = base(
            y=pl.Series([HUGE if v else 0 for v in Y], dtype=pl.UInt64),
            p=pl.Series([HUGE if v else 0 for v in P], dtype=pl.UInt64),
        )
        frame_case(
            name, "uint64-huge-labels", huge, fn, err(UnknownLabelError, "'y'", str(HUGE)), value
        )
        frame_case(name, "empty-frame", base().clear(), fn, EMPTY, value)
        frame_case(
            name,
            "negative-weight",
            base(w=put(W, 4, -1.0)),
            lambda x, fn=fn: fn(x, weight="w"),
            err(NegativeValueError, "'w'", "-1"),
            value,
        )
        frame_case(
            name,
            "null-weight",
            base(w=put(W, 4, None)),
            lambda x, fn=fn: fn(x, weight="w"),
            err(MissingValueError, "'w'", "null"),
            value,
        )
        frame_case(
            name,
            "string-weight",
            base(w=[str(v) for v in W]),
            lambda x, fn=fn: fn(x, weight="w"),
            err(InvalidDtypeError, "'w'"),
            value,
        )
        frame_case(
            name,
            "by-null-truth",
            base(y=put(Y, 2, None)),
            lambda x, fn=fn: fn(x, by="g"),
            err(MissingValueError, "'y'", "null"),
            value,
        )
    # fe.measures: the pos_label / one-class / dtype specifics
    m = fns["measures"][0]
    frame_case(
        "measures",
        "pos_label-absent",
        base(),
        lambda x: fe.measures(x, truth="y", pred="p", pos_label=7, measures=["precision", "f1"]),
        err(UnknownLabelError, "'y'", "7"),
    )
    frame_case(
        "measures",
        "pos_label-wrong-type",
        base(),
        lambda x: m(x, pos_label="1"),
        err(InvalidDtypeError, "'y'", "'1'"),
    )
    enum = pl.Enum(["no", "yes"])
    yes = base().with_columns(
        y=pl.col("y").replace_strict({1: "yes", 0: "no"}, return_dtype=enum),
        p=pl.col("p").replace_strict({1: "yes", 0: "no"}, return_dtype=enum),
    )
    frame_case(
        "measures",
        "enum-labels",
        yes,
        lambda x: m(x, pos_label="yes"),
        Num(o_measures("yes")),
        row_values("accuracy", "precision", "f1"),
    )
    frame_case(
        "measures",
        "categorical-labels",
        yes.with_columns(pl.col("y", "p").cast(pl.String).cast(pl.Categorical)),
        lambda x: m(x, pos_label="yes"),
        Num(o_measures("yes")),
        row_values("accuracy", "precision", "f1"),
    )
    frame_case(
        "measures",
        "string-labels-no-pos_label",
        yes.with_columns(pl.col("y", "p").cast(pl.String)),
        m,
        err(InvalidParameterError, "'y'", "pos_label"),
    )
    frame_case(
        "measures",
        "bool-labels",
        base(y=[bool(v) for v in Y], p=[bool(v) for v in P]),
        m,
        Num(o_measures(True)),
        row_values("accuracy", "precision", "f1"),
    )
    frame_case(
        "measures",
        "float-integral-labels",
        base(y=[float(v) for v in Y], p=[float(v) for v in P]),
        m,
        Num(o_measures(1.0)),
        row_values("accuracy", "precision", "f1"),
    )
    frame_case(
        "measures",
        "one-class-truth",
        base(y=[1] * 8),
        lambda x: fe.measures(
            x, truth="y", pred="p", measures=["tnr", "mcc", "roc_auc"], score="s"
        ),
        Null(),
        row_values("tnr", "mcc", "roc_auc"),
    )
    frame_case(  # documented: the default pos_label 1 absent from a group of two classes
        "measures",
        "default-pos_label-absent",
        base(y=[2 * v for v in Y], p=[2 * v for v in P]),
        lambda x: fe.measures(x, truth="y", pred="p", measures=["recall"]),
        err(UnknownLabelError, "'y'", "1"),
    )
    frame_case(  # 1 is a class (of pred), so recall is 0/0: null (scikit-learn: 0, warned)
        "measures",
        "default-pos_label-in-pred-only",
        base(y=[0] * 8),
        lambda x: fe.measures(x, truth="y", pred="p", measures=["recall"]),
        Null(),
        row_values("recall"),
    )
    frame_case(
        "measures",
        "one-row-group-by",
        base(g=ONE_ROW_GROUP),
        lambda x: m(x, by="g"),
        Num(
            lambda d: [
                [k, *o_measures()(part)]
                for (k,), part in sorted(d.partition_by("g", as_dict=True).items())
            ]
        ),
        lambda r: [
            list(row) for row in r.sort("g").select("g", "accuracy", "precision", "f1").rows()
        ],
    )
    frame_case(
        "measures",
        "decimal-scores",
        base(s=pl.Series([Decimal(f"{v:.2f}") for v in S], dtype=pl.Decimal(5, 2))),
        lambda x: fe.measures(
            x, truth="y", score="s", measures=["roc_auc", "log_loss", "brier_score"]
        ),
        Num(
            lambda d: [
                o_roc_auc("y", "s", 1, None)(d),
                o_log_loss("y", "s", 1, None)(d),
                o_brier("y", "s", 1, None)(d),
            ]
        ),
        row_values("roc_auc", "log_loss", "brier_score"),
    )
    frame_case(
        "measures",
        "string-score",
        base(s=[str(v) for v in S]),
        lambda x: fe.measures(x, truth="y", score="s", measures=["roc_auc"]),
        err(InvalidDtypeError, "'s'"),
    )
    frame_case(
        "confusion_matrix",
        "label-outside-labels",
        base(),
        lambda x: fe.confusion_matrix(x, truth="y", pred="p", labels=[0, 2]),
        err(UnknownLabelError, "'y'", "1"),
    )


# fe.measures on the domain rules: the same typed error, naming the measure and the group
for _name, _params, _slug, _column, _row, _value, _error, _needles in DOMAIN:
    _tail = f"-power{_params['power']}" if _params else ""
    _measure = fe.MEASURES[_name].configure(**_params)
    frame_case(
        "measures",
        f"{_name}-{_slug}{_tail}",
        domain_frame(_column, _row, _value),
        lambda x, m=_measure: fe.measures(x, truth="r", pred="f", by="g", measures=[m]),
        err(_error, *_needles, f"for {_name}", "in group g=a"),
    )
frame_case(
    "measures",
    "regression-positive",
    _positive,
    lambda x: fe.measures(
        x, truth="r", pred="f", by="g", measures=["gamma_deviance", "poisson_deviance", "msle"]
    ),
    Num(
        lambda d: [
            [
                regression_oracle(n, p["r"], p["f"])
                for n in ("gamma_deviance", "poisson_deviance", "msle")
            ]
            for p in d.partition_by("g", maintain_order=True)
        ]
    ),
    lambda r: [
        list(row) for row in r.sort("g").select("gamma_deviance", "poisson_deviance", "msle").rows()
    ],
)


def score_frame_cases() -> None:
    fns: dict[
        str, tuple[Callable[..., Any], Callable[..., Any] | None, Callable[..., Any] | None]
    ] = {
        "roc_curve": (
            lambda x, **k: fe.roc_curve(x, truth="y", score="s", **k),
            roc_area,
            o_roc_area,
        ),
        "pr_curve": (
            lambda x, **k: fe.pr_curve(x, truth="y", score="s", **k),
            pr_points,
            o_pr_points,
        ),
        "calibration_curve": (
            lambda x, **k: fe.calibration_curve(x, truth="y", score="s", bins=5, **k),
            calib,
            o_calib,
        ),
        "threshold_table": (
            lambda x, **k: fe.threshold_table(x, truth="y", score="s", **k),
            tt,
            o_tt,
        ),
        "cost_curve": (lambda x, **k: fe.cost_curve(x, truth="y", score="s", **k), None, None),
    }
    dec = base(s=pl.Series([Decimal(f"{v:.2f}") for v in S], dtype=pl.Decimal(5, 2)))
    for name, (fn, value, oracle) in fns.items():
        if oracle is not None:
            frame_case(name, "float-scores", base(), fn, Num(oracle), value)
            frame_case(name, "decimal-scores", dec, fn, Num(oracle), value)
        else:  # cost_curve: a Decimal score gives the curve of the same scores as Float64
            same = fn(base().with_columns(pl.col("s").cast(pl.Float64))).sort("p_cost").rows()
            frame_case(
                name,
                "decimal-scores",
                dec,
                fn,
                Num(lambda d, same=same: same),
                lambda r: r.sort("p_cost").rows(),
            )
        frame_case(
            name,
            "null-score",
            base(s=put(S, 2, None)),
            fn,
            err(MissingValueError, "'s'", "null"),
            value,
        )
        frame_case(
            name,
            "nan-score",
            base(s=put(S, 2, float("nan"))),
            fn,
            err(MissingValueError, "'s'", "NaN"),
            value,
        )
        frame_case(
            name,
            "inf-score",
            base(s=put(S, 2, float("inf"))),
            fn,
            err(MissingValueError, "'s'", "inf"),
            value,
        )
        frame_case(
            name,
            "string-score",
            base(s=[str(v) for v in S]),
            fn,
            err(InvalidDtypeError, "'s'"),
            value,
        )
        frame_case(
            name,
            "null-truth",
            base(y=put(Y, 0, None)),
            fn,
            err(MissingValueError, "'y'", "null"),
            value,
        )
        frame_case(
            name,
            "struct-truth",
            base().with_columns(y=pl.struct("y")),
            fn,
            err(InvalidDtypeError, "'y'"),
            value,
        )
        frame_case(name, "empty-frame", base().clear(), fn, EMPTY, value)
        frame_case(
            name,
            "pos_label-absent",
            base(),
            lambda x, fn=fn: fn(x, pos_label=7),
            err(UnknownLabelError, "'y'", "7"),
            value,
        )
        frame_case(
            name,
            "negative-weight",
            base(w=put(W, 4, -1.0)),
            lambda x, fn=fn: fn(x, weight="w"),
            err(NegativeValueError, "'w'", "-1"),
            value,
        )
    frame_case(
        "calibration_curve",
        "score-above-one",
        base(s=put(S, 0, 1.5)),
        fns["calibration_curve"][0],
        err(InvalidValueError, "'s'", "1.5"),
    )
    frame_case(
        "calibration_curve",
        "bins-zero",
        base(),
        lambda x: fe.calibration_curve(x, truth="y", score="s", bins=0),
        err(InvalidParameterError, "bins", "0"),
    )
    frame_case(
        "best_threshold",
        "negative-cost",
        base(),
        lambda x: fe.best_threshold(x, truth="y", score="s", costs=(-1.0, 1.0)),
        err((InvalidParameterError, NegativeValueError), "cost", "-1"),
    )


def pairs(**over: Any) -> pl.DataFrame:
    data = {
        "instance": list(range(8)) * 2,
        "learner": ["A"] * 8 + ["B"] * 8,
        "y": Y * 2,
        "p": P + [1, 1, 1, 1, 0, 0, 0, 0],
    }
    data.update(over)
    return pl.DataFrame(data)


def o_mcnemar(d: pl.DataFrame) -> list[float]:
    wide = d.pivot(on="learner", index="instance", values="p").join(
        d.filter(pl.col("learner") == "A").select("instance", "y"), on="instance"
    )
    a_ok = (wide["A"] == wide["y"]).to_list()
    b_ok = (wide["B"] == wide["y"]).to_list()
    n01 = sum(1 for a, b in zip(a_ok, b_ok, strict=True) if a and not b)
    n10 = sum(1 for a, b in zip(a_ok, b_ok, strict=True) if b and not a)
    stat = (abs(n01 - n10) - 1) ** 2 / (n01 + n10)
    return [stat, float(scipy.stats.chi2.sf(stat, 1))]


ACC = [0.8, 0.7, 0.6, 0.9, 0.85, 0.8, 0.7, 0.75, 0.6, 0.6, 0.5, 0.55, 0.9, 0.8, 0.95]


def blocks(**over: Any) -> pl.DataFrame:
    data = {
        "dataset": [d for d in "abcde" for _ in range(3)],
        "learner": ["A", "B", "C"] * 5,
        "accuracy": ACC,
    }
    data.update(over)
    return pl.DataFrame(data)


def o_friedman(d: pl.DataFrame) -> list[float]:
    wide = d.pivot(on="learner", index="dataset", values="accuracy").sort("dataset")
    res = scipy.stats.friedmanchisquare(
        *(wide[c].cast(pl.Float64).to_list() for c in ("A", "B", "C"))
    )
    return [float(res.statistic), float(res.pvalue)]


def compare_cases() -> None:
    mc = lambda x, **k: fe.mcnemar(x, truth="y", pred="p", a="A", b="B", **k)  # noqa: E731
    mv = row_values("statistic", "p_value")
    frame_case("mcnemar", "int-labels", pairs(), mc, Num(o_mcnemar), mv)
    frame_case(
        "mcnemar",
        "null-pred",
        pairs(p=put(P + P, 3, None)),
        mc,
        err(MissingValueError, "'p'", "null"),
    )
    frame_case(
        "mcnemar",
        "null-truth",
        pairs(y=put(Y * 2, 9, None)),
        mc,
        err(MissingValueError, "'y'", "null"),
    )
    frame_case(
        "mcnemar",
        "string-truth-int-pred",
        pairs(y=[str(v) for v in Y * 2]),
        mc,
        err(InvalidDtypeError, "'y'", "'p'"),
    )
    frame_case(
        "mcnemar",
        "learner-absent",
        pairs(),
        lambda x: fe.mcnemar(x, truth="y", pred="p", a="A", b="Z"),
        err(InvalidValueError, "'Z'"),
    )
    frame_case("mcnemar", "empty-frame", pairs().clear(), mc, NEEDS_ROWS)
    frame_case(
        "mcnemar",
        "struct-truth",
        pairs().with_columns(y=pl.struct("y")),
        mc,
        err(InvalidDtypeError, "'y'"),
    )
    frame_case(
        "mcnemar",
        "duplicate-instance",
        pairs(instance=[0] * 8 + list(range(8))),
        mc,
        err(InvalidValueError, "'instance'"),
    )
    fr = lambda x, **k: fe.friedman(x, "accuracy", **k)  # noqa: E731
    fv = row_values("chi2", "chi2_p_value")
    frame_case("friedman", "complete", blocks(), fr, Num(o_friedman), fv)
    frame_case(
        "friedman",
        "missing-cell",
        blocks().filter(~((pl.col("dataset") == "c") & (pl.col("learner") == "B"))),
        fr,
        err(InvalidValueError, "learner=B", "dataset=c"),
    )
    frame_case(
        "friedman",
        "null-metric",
        blocks(accuracy=put(ACC, 4, None)),
        fr,
        err(InvalidValueError, "learner=B", "dataset=b"),  # documented: a null is a missing cell
    )
    frame_case(
        "friedman",
        "nan-metric",
        blocks(accuracy=put(ACC, 4, float("nan"))),
        fr,
        err(MissingValueError, "'accuracy'", "NaN"),
    )
    frame_case(
        "friedman",
        "string-metric",
        blocks(accuracy=[str(v) for v in ACC]),
        fr,
        err(InvalidDtypeError, "'accuracy'"),
    )
    frame_case(
        "friedman",
        "one-block",
        blocks().filter(pl.col("dataset") == "a"),
        fr,
        err(InsufficientDataError, "block"),
    )
    frame_case(
        "friedman",
        "one-learner",
        blocks().filter(pl.col("learner") == "A"),
        fr,
        err(InsufficientDataError, "learner"),
    )
    frame_case("friedman", "empty-frame", blocks().clear(), fr, EMPTY)
    frame_case(
        "friedman",
        "decimal-metric",
        blocks(accuracy=pl.Series([Decimal(str(v)) for v in ACC], dtype=pl.Decimal(5, 2))),
        fr,
        Num(o_friedman),
        fv,
    )


def split_cases() -> None:
    small = base().select("y", "p")
    frame_case(
        "kfold",
        "k-greater-than-n",
        small,
        lambda x: fe.split.kfold(x, k=10),
        err(InvalidParameterError, "k=10", "8"),
    )
    frame_case(
        "kfold",
        "k-one",
        small,
        lambda x: fe.split.kfold(x, k=1),
        err(InvalidParameterError, "k", "1"),
    )
    frame_case(
        "kfold",
        "k-negative",
        small,
        lambda x: fe.split.kfold(x, k=-2),
        err(InvalidParameterError, "k", "-2"),
    )
    frame_case(
        "kfold",
        "repeats-zero",
        small,
        lambda x: fe.split.kfold(x, k=2, repeats=0),
        err(InvalidParameterError, "repeats", "0"),
    )
    frame_case("kfold", "empty-frame", small.clear(), lambda x: fe.split.kfold(x, k=2), NEEDS_ROWS)
    frame_case(
        "kfold",
        "stratify-k-greater-than-class",
        small,
        lambda x: fe.split.kfold(x, k=5, stratify="y"),
        err((InvalidParameterError, InsufficientDataError), "'y'", "5"),
    )
    frame_case(
        "kfold",
        "stratify-null",
        small.with_columns(y=pl.Series(put(Y, 0, None))),
        lambda x: fe.split.kfold(x, k=2, stratify="y"),
        err(MissingValueError, "'y'", "null"),
    )
    frame_case(
        "kfold",
        "partition",
        small.with_row_index("row"),
        lambda x: fe.split.kfold(x, k=4),
        Num(lambda d: [[i, 1] for i in range(8)]),
        lambda r: r.group_by("row").len().sort("row").rows(),
    )
    acc = fe.accuracy("y", "p")
    bc = lambda x, **k: fe.bootstrap_ci(x, acc, repeats=20, **k)  # noqa: E731
    frame_case(
        "bootstrap_ci",
        "null-truth",
        base(y=put(Y, 2, None)),
        bc,
        Err(MissingValueError, ("'y'", "null"), ("accuracy",)),
    )
    frame_case(
        "bootstrap_ci",
        "repeats-zero",
        base(),
        lambda x: fe.bootstrap_ci(x, acc, repeats=0),
        err(InvalidParameterError, "repeats", "0"),
    )
    frame_case(
        "bootstrap_ci",
        "level-above-one",
        base(),
        lambda x: bc(x, level=1.5),
        err(InvalidParameterError, "level", "1.5"),
    )
    frame_case("bootstrap_ci", "empty-frame", base().clear(), bc, EMPTY)
    frame_case(
        "bootstrap_ci",
        "string-truth-int-pred",
        base(y=[str(v) for v in Y]),
        bc,
        Err(InvalidDtypeError, ("'y'", "'p'"), ("accuracy",)),
    )
    frame_case(
        "bootstrap_ci",
        "instance-missing-value",
        base().with_columns(i=pl.Series(put(list(range(8)), 0, None))),
        lambda x: bc(x, instance="i"),
        err(MissingValueError, "'i'", "null"),
    )


label_frame_cases()
score_frame_cases()
compare_cases()
split_cases()

PARAMS = [
    pytest.param(case, face, id=f"{case.name}-{case.kind}-{face}-{case.slug}")
    for case in CASES
    for face in case.all_faces()
]


def test_enough_cases() -> None:
    assert len(PARAMS) >= 200
    assert len({p.id for p in PARAMS}) == len(PARAMS)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(("case", "face"), PARAMS)
def test_hostile(case: Case, face: str) -> None:
    assert check(case, face) == type(case.outcome(face)).__name__
