"""Shared door and binning of the calibration functions: validated binary / multiclass input
(probability checks in the plan) and scikit-learn's calibration_curve bins, grouped.

See :mod:`frameeval.calibration` for the conventions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

import numpy as np
import polars as pl

from frameeval._inputs import WEIGHT_INPUT, Column, Inputs
from frameeval._params import Number
from frameeval._typing import IntoFrame, Keys
from frameeval._validate import Checks, check_parameter
from frameeval.curves.multiclass import score_classes, true_class
from frameeval.curves.table import Setup, open_grouped
from frameeval.exceptions import InvalidDtypeError, InvalidValueError, MissingValueError

TOLERANCE = 1e-6
"""Default tolerance of the multiclass check |Σ_k p_k − 1| ≤ tolerance."""

PROB, OUTCOME, TRUE_CLASS, BIN, CLASS = "__fe_p", "__fe_y", "__fe_t", "__fe_bin", "__fe_class"
COUNT, SUM_P, SUM_Y, SUM_SQ, WITHIN_VAR, WITHIN_COV, EDGES, FBAR = (
    "count",
    "__fe_sp",
    "__fe_sy",
    "__fe_sq",
    "__fe_wv",
    "__fe_wc",
    "__fe_edges",
    "__fe_fbar",
)
WEIGHT, SUM_W2, MASS = "__fe_w", "__fe_sw2", "__fe_mass"

Strategy = Literal["uniform", "quantile"]

#: the inputs of a binary task: truth labels, a probability (a Decimal read as Float64), weight
BINARY = Inputs(
    Column("truth", "label", "label", required=True),
    Column("score", "numeric_or_decimal", "finite", "unit", required=True),
    Column("by"),
    WEIGHT_INPUT,
)
#: the inputs of a multiclass task with one probability column per class
MULTICLASS = Inputs(
    Column("truth", "label", "label"),
    Column("score", "numeric", "finite", "unit", several=True),
    Column("by"),
    WEIGHT_INPUT,
)
#: the inputs of a multiclass task with one list column of probabilities (checked per element)
MULTICLASS_LIST = Inputs(
    Column("truth", "label", "label"), Column("score", several=True), Column("by"), WEIGHT_INPUT
)


# ---------------------------------------------------------------------------------------------
# door: frames, keys, checks
# ---------------------------------------------------------------------------------------------
def _probability_rules(checks: Checks, column: str, value: pl.Expr | None = None) -> None:
    """Range rule (and, for a list element ``value``, the completeness rules) of a probability."""
    where = f"column {column!r} (score=)"
    if value is not None:
        checks.rule(value.is_null(), MissingValueError, f"{where} must not contain nulls, got null")
        checks.rule(
            ~value.is_finite(), MissingValueError, f"{where} must be finite, got NaN or inf"
        )
    v = pl.col(column).cast(pl.Float64) if value is None else value
    checks.rule(
        (v < 0) | (v > 1),
        InvalidValueError,
        f"{where} must be a probability in [0, 1], got",
        example=v,
    )


def binary_input(
    data: IntoFrame,
    func: str,
    truth: str,
    score: str,
    by: Keys,
    pos_label: Any,
    outputs: Sequence[str],
    weight: str | None = None,
) -> Setup:
    """Validated input of a binary task with ``PROB`` (the score, Float64), ``OUTCOME`` (1.0 for a
    positive row, else 0.0) and, with ``weight``, ``WEIGHT`` (the weight, Float64; checked finite
    and non-negative in the plan)."""
    inp, door = open_grouped(
        BINARY,
        data,
        func,
        truth=truth,
        score=score,
        by=by,
        weight=weight,
        outputs=outputs,
        pos_label=pos_label,
        positive_of=truth,
    )
    positive = door.is_positive
    assert positive is not None
    inp.lf = inp.lf.with_columns(
        (pl.col(score).cast(pl.Float64) + 0.0).alias(PROB),
        positive.cast(pl.Float64).alias(OUTCOME),
        *([pl.col(weight).cast(pl.Float64).alias(WEIGHT)] if weight else []),
    )
    return inp


def multiclass_input(
    data: IntoFrame,
    func: str,
    truth: str,
    score: Mapping[Any, str] | Sequence[str] | str,
    labels: Sequence[Any] | None,
    by: Keys,
    weight: str | None,
    tolerance: float,
    outputs: Sequence[str],
) -> tuple[Setup, int]:
    """Validated multiclass input with ``__fe_p{k}`` (probability of class k, Float64) and
    ``TRUE_CLASS`` (the index of the row's true class in ``labels``); returns it and the class count."""
    Number(low=0.0, high=1.0, closed="left", text="a number in [0, 1)")(
        func, "tolerance", tolerance
    )
    classes, columns, list_column = score_classes(func, score, labels, list_column=True)
    inputs = MULTICLASS_LIST if list_column is not None else MULTICLASS
    inp, _ = open_grouped(
        inputs, data, func, truth=truth, score=columns, by=by, weight=weight, outputs=outputs
    )
    k = len(classes)
    cast, actual = true_class(inp, func, truth, classes)
    if list_column is not None:
        dtype = inp.schema[list_column]
        inner = dtype.inner if isinstance(dtype, pl.List | pl.Array) else None
        if inner is None or not (inner.is_float() or inner.is_integer()):
            raise InvalidDtypeError(
                f"{func}(): column {list_column!r} (score=) must be a numeric List or Array "
                f"column when score= names one column, got {dtype}.\nHint: for a binary task "
                "pass the probability of the positive class to the binary function."
            )
        as_list = pl.col(list_column).cast(pl.List(pl.Float64))
        inp.checks.not_null(list_column, "score")
        inp.checks.rule(
            as_list.list.len() != k,
            InvalidValueError,
            f"column {list_column!r} (score=) must hold {k} probabilities per row (one per "
            "label), got",
            example=as_list.list.len(),
        )
        probabilities = [as_list.list.get(i, null_on_oob=True) for i in range(k)]
        for p in probabilities:  # loop-ok: one rule set per class, built once
            _probability_rules(inp.checks, list_column, p)
        where = f"column {list_column!r}"
    else:
        probabilities = [pl.col(c).cast(pl.Float64) for c in columns]
        where = f"columns {list(columns)!r}"
    total = pl.sum_horizontal(probabilities)
    inp.checks.rule(
        (total - 1.0).abs() > tolerance,
        InvalidValueError,
        f"probabilities in {where} (score=) must sum to 1 within {tolerance:g} per row, got a "
        "sum of",
        example=total,
    )
    index = actual.replace_strict(cast, pl.Series(range(k)), default=None, return_dtype=pl.Int64)
    inp.lf = inp.lf.with_columns(
        *[(p + 0.0).alias(f"__fe_p{i}") for i, p in enumerate(probabilities)],
        index.alias(TRUE_CLASS),
    )
    return inp, k


def check_bins(func: str, bins: Any, strategy: Any, allow_none: bool = False) -> None:
    rule = "None or an integer >= 1" if allow_none else "an integer >= 1"
    Number(low=1, integer=True, none=allow_none, text=rule)(func, "bins", bins)
    check_parameter(
        strategy in ("uniform", "quantile"),
        func,
        f"strategy must be 'uniform' or 'quantile', got {strategy!r}.",
    )


# ---------------------------------------------------------------------------------------------
# binning (scikit-learn's calibration_curve, grouped)
# ---------------------------------------------------------------------------------------------
def _percentiles(value: pl.Expr, bins: int) -> pl.Expr:
    """Per group: numpy.percentile(value, linspace(0, 1, bins + 1) * 100), method "linear",
    with numpy's arithmetic (virtual index (n − 1)·q, its lerp switching ends at γ = ½)."""
    q = np.true_divide(np.linspace(0.0, 1.0, bins + 1) * 100, 100)
    s = value.sort()
    last = (pl.len() - 1).cast(pl.Float64)
    virtual = pl.lit(pl.Series(q, dtype=pl.Float64)) * last
    previous = virtual.floor()
    above = virtual >= last
    lo = pl.when(above).then(last).otherwise(previous).cast(pl.Int64)
    hi = pl.when(above).then(last).otherwise(previous + 1.0).cast(pl.Int64)
    gamma = pl.when(above).then(virtual + 1.0).otherwise(virtual - previous)
    a, b = s.gather(lo), s.gather(hi)
    diff = b - a
    return pl.when(gamma >= 0.5).then(b - diff * (1.0 - gamma)).otherwise(a + diff * gamma)


def _weighted_percentiles(value: pl.Expr, weight: pl.Expr, bins: int) -> pl.Expr:
    """Per group: numpy.percentile(value, linspace(0, 1, bins + 1) * 100, weights=weight,
    method="inverted_cdf") — the smallest value whose normalised cumulative weight reaches q
    (numpy's arithmetic: cumsum / total, leading zeros of the cdf skipped)."""
    q = np.true_divide(np.linspace(0.0, 1.0, bins + 1) * 100, 100)
    cum = weight.sort_by(value).cum_sum()
    cdf = cum / pl.repeat(cum.last(), pl.len())  # elementwise, as numpy (not x·(1/total))
    cdf = pl.when(cdf == 0.0).then(-1.0).otherwise(cdf)
    index = cdf.search_sorted(pl.lit(pl.Series(q, dtype=pl.Float64)), side="left")
    last = (pl.len() - 1).cast(pl.Int64)
    return value.sort().gather(pl.min_horizontal(index.cast(pl.Int64), last))


def bin_stats(
    inp: Setup, bins: int, strategy: str, extra: Sequence[pl.Expr] = (), weighted: bool = False
) -> pl.LazyFrame:
    """``*gkeys, __fe_bin, bin_lower, bin_upper, count, Σp, Σy, MASS, *extra`` per non-empty bin,
    from ``inp``'s frame with ``PROB`` and ``OUTCOME``; its checks are aggregated (and enforced)
    in the same pass. ``MASS`` is the bin's row count (as Float64), or with ``weighted`` (a ``WEIGHT``
    column) its Σw, and then Σp, Σy are Σwp, Σwy and ``SUM_W2`` = Σw² is added; quantile edges
    are then the weighted percentiles (numpy's ``inverted_cdf``)."""
    lf, gkeys, keys, checks = inp.lf, inp.gkeys, inp.keys, inp.checks
    p = pl.col(PROB)
    if weighted:
        w = pl.col(WEIGHT)
        base = [
            pl.len().cast(pl.Int64).alias(COUNT),
            (w * p).sum().alias(SUM_P),
            (w * pl.col(OUTCOME)).sum().alias(SUM_Y),
            w.sum().alias(MASS),
            (w * w).sum().alias(SUM_W2),
            *extra,
        ]
    else:
        base = [
            pl.len().cast(pl.Int64).alias(COUNT),
            p.sum().alias(SUM_P),
            pl.col(OUTCOME).sum().alias(SUM_Y),
            pl.len().cast(pl.Float64).alias(MASS),
            *extra,
        ]
    if strategy == "uniform":
        edges = pl.Series(np.linspace(0.0, 1.0, bins + 1), dtype=pl.Float64)
        binned = lf.with_columns(
            pl.lit(edges[1:-1]).search_sorted(p, side="left").cast(pl.Int64).alias(BIN)
        )
        stats = checks.enforce(binned.group_by(*gkeys, BIN).agg(*base, *checks.aggs()), keys)
        return stats.with_columns(
            pl.lit(edges).gather(pl.col(BIN)).alias("bin_lower"),
            pl.lit(edges).gather(pl.col(BIN) + 1).alias("bin_upper"),
        )
    edge = _weighted_percentiles(p, pl.col(WEIGHT), bins) if weighted else _percentiles(p, bins)
    carried = [PROB, OUTCOME, *([WEIGHT] if weighted else [])]
    groups = lf.group_by(*gkeys).agg(
        edge.alias(EDGES),
        edge.slice(1, bins - 1).search_sorted(p, side="left").cast(pl.Int64).alias(BIN),
        *carried,
        *checks.aggs(),
    )
    groups = checks.enforce(groups, keys)
    rows = groups.select(*gkeys, BIN, *carried).explode(BIN, *carried)
    stats = rows.group_by(*gkeys, BIN).agg(*base)
    return stats.join(
        groups.select(*gkeys, EDGES), on=list(gkeys), how="left", nulls_equal=True
    ).select(
        pl.exclude(EDGES),
        pl.col(EDGES).list.get(pl.col(BIN)).alias("bin_lower"),
        pl.col(EDGES).list.get(pl.col(BIN) + 1).alias("bin_upper"),
    )
