"""Shared plumbing of the comparison tests: door checks, in-plan guards, the long → paired /
block × learner reshapes, and the one scipy step.

The scipy step
--------------
Every test aggregates its statistic with Polars into a small frame (one row per group, or per
group × learner pair) and then applies scipy's distributions to whole columns of it in **one**
vectorised call, through ``map_batches`` on a struct of the needed columns. The call sits inside
the lazy plan: a LazyFrame input gives a LazyFrame output and scipy runs when the user collects
it, on the small statistics frame only; nothing is collected behind the user's back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import polars as pl

from frameeval._deprecation import renamed_argument  # noqa: F401 - re-exported
from frameeval._frame import as_keys, to_lazy
from frameeval._params import ALPHA, Number
from frameeval._typing import FrameT
from frameeval._validate import (
    Checks,
    check_not_empty_eager,
    check_numeric_or_decimal,
    check_parameter,
    check_unique,
    dtype_family,
    enforce,
    failure,
    group_text,
    require_columns,
)
from frameeval.exceptions import (
    InsufficientDataError,
    InvalidDtypeError,
    InvalidParameterError,
    MissingValueError,
)

Arrays = Mapping[str, np.ndarray]


# ---------------------------------------------------------------------------------------------
# door checks (schema only)
# ---------------------------------------------------------------------------------------------
def check_distinct(func: str, keys: Sequence[str], **roles: str | None) -> None:
    """Role columns must differ from each other and from the ``by=`` keys."""
    named = {role: column for role, column in roles.items() if column is not None}
    seen: dict[str, str] = {}
    for role, column in named.items():
        check_parameter(
            column not in seen,
            func,
            f"{seen.get(column)}= and {role}= must name different columns, got {column!r} "
            "for both.",
        )
        seen[column] = role
        check_parameter(
            column not in keys, func, f"by= must not contain the {role}= column, got by={keys}."
        )


def check_outputs(
    func: str, keys: Sequence[str], outputs: Sequence[str], **roles: str | None
) -> None:
    """Key columns (``by=``) and kept role columns (``block=``, ``learner=``…) must not share a
    name with an output column."""
    clash = sorted(set(keys) & set(outputs))
    check_parameter(not clash, func, f"by= must not use output column names, got {clash}.")
    for role, column in roles.items():
        check_parameter(
            column is None or column not in outputs,
            func,
            f"{role}= must not name an output column, got {column!r}.",
        )


def resolve_direction(func: str, metric: str, higher_is_better: bool | None) -> bool:
    """``higher_is_better``, or the direction of the registered measure named like ``metric``."""
    if higher_is_better is not None:
        check_parameter(
            isinstance(higher_is_better, bool),
            func,
            f"higher_is_better must be True, False or None, got {higher_is_better!r}.",
        )
        return higher_is_better
    from frameeval.metrics import MEASURES

    measure = MEASURES.get(metric)
    if measure is None:
        raise InvalidParameterError(
            f"{func}(): higher_is_better= is required for metric column {metric!r} (not the name "
            "of a registered measure), got None.\nHint: higher_is_better=True for accuracy, AUC "
            "or F1; False for an error rate, a cost or MSE."
        )
    return measure.higher_is_better


def check_learner_value(schema: pl.Schema, func: str, learner: str, value: Any, role: str) -> None:
    """A learner name passed as ``a=``, ``b=`` or ``control=`` must match the column's dtype."""
    if value is None:
        raise InvalidParameterError(f"{func}(): {role}= must name a learner, got None.")
    dtype = schema[learner]
    family = dtype_family(dtype)
    ok = {
        "string": isinstance(value, str),
        "boolean": isinstance(value, bool),
        "numeric": isinstance(value, int | float | np.integer | np.floating)
        and not isinstance(value, bool),
    }[family]
    if not ok:
        raise InvalidDtypeError(
            f"{func}(): {role}= must match the dtype of column {learner!r} ({dtype}), "
            f"got {value!r} ({type(value).__name__})."
        )


def learner_expr(learner: str, schema: pl.Schema) -> pl.Expr:
    """The learner column as frameeval compares it (categoricals / enums as strings)."""
    if isinstance(schema[learner], pl.Categorical | pl.Enum):
        return pl.col(learner).cast(pl.String)
    return pl.col(learner)


def is_learner(learner: str, schema: pl.Schema, value: Any) -> pl.Expr:
    return learner_expr(learner, schema) == pl.lit(value)


def open_frame(data: Any, func: str, by: Any) -> tuple[pl.LazyFrame, bool, list[str], pl.Schema]:
    lf, eager = to_lazy(data, func)
    keys = as_keys(by)
    schema = lf.collect_schema()
    require_columns(schema, func, by=keys)
    check_not_empty_eager(data, eager, lf, func)
    return lf, eager, keys, schema


# ---------------------------------------------------------------------------------------------
# in-plan guards
# ---------------------------------------------------------------------------------------------
def not_null_rows(
    lf: pl.LazyFrame, func: str, keys: Sequence[str], roles: Mapping[str, str]
) -> pl.LazyFrame:
    """Raise on a null in a key role column (block, learner, fold, instance…) before the
    uniqueness check groups by it."""
    return enforce(
        lf,
        *[
            failure(
                pl.col(column).is_null(),
                MissingValueError,
                f"{func}(): column {column!r} ({role}=) must not contain nulls, got null{{}}.",
                group_text(keys),
            )
            for role, column in roles.items()
        ],
    )


def value_text(column: str) -> pl.Expr:
    return pl.col(column).cast(pl.String).fill_null("null")


def per_group_list(
    frame: pl.LazyFrame, keys: Sequence[str], text: pl.Expr, limit: int = 5
) -> pl.LazyFrame:
    """``*keys, __n, __list``: how many rows ``frame`` has per group and the first ``limit``
    descriptions (sorted, comma separated). Without keys: one row (``__n`` = 0 when empty)."""
    aggs = [
        pl.len().cast(pl.Int64).alias("__n"),
        text.sort().head(limit).str.join(", ").alias("__list"),
    ]
    if keys:
        return frame.group_by(keys).agg(aggs)
    return frame.select(aggs)


def attach(stats: pl.LazyFrame, extra: pl.LazyFrame, keys: Sequence[str]) -> pl.LazyFrame:
    """Left-join a per-group frame (or cross-join a one-row frame when there are no keys)."""
    if keys:
        return stats.join(extra, on=list(keys), how="left", nulls_equal=True)
    return stats.join(extra, how="cross")


# ---------------------------------------------------------------------------------------------
# reshapes
# ---------------------------------------------------------------------------------------------
#: The hint of a NaN metric value where a null is a missing cell.
NAN_HINT = "a failed run is a missing cell: make it null (fill_nan(None)) or drop its row."


def metric_checks(func: str, schema: pl.Schema, metric: str, *, nulls: bool = False) -> Checks:
    """The metric column's checks: numeric, no NaN or ±inf, and no null unless ``nulls`` (a
    null is then a missing cell, and the NaN error says how to write one)."""
    check_numeric_or_decimal(schema, func, metric=metric)  # every caller reads it as Float64
    checks = Checks(func)
    checks.finite(
        metric, "metric", schema[metric], nulls=nulls, nan_hint=NAN_HINT if nulls else None
    )
    return checks


#: The hint of a missing cell in a test of all learners over blocks.
MISSING_HINT = "skillings_mack() tests all learners at once with missing cells allowed."
#: … and in a comparison of pairs of learners.
PAIR_MISSING_HINT = (
    "compare on the blocks both learners have (drop the others first), or test all learners "
    "at once with skillings_mack(), which allows missing cells."
)


def cells(
    lf: pl.LazyFrame,
    schema: pl.Schema,
    func: str,
    keys: list[str],
    block: str,
    learner: str,
    metric: str,
    *,
    complete: bool = True,
    hint: str | None = MISSING_HINT,
) -> pl.LazyFrame:
    """``*keys, <block>, <learner>, __value``: one value per group × block × learner.

    A null metric value is a missing cell (a failed run, as a wide results table unpivoted
    gives it), the same as an absent row. Raises in-plan on NaN/inf metric values, null block
    or learner, duplicate (block, learner) rows, and (unless ``complete=False``) on missing
    cells: every learner of a group must have a value on every block of the group (the
    complete N × k table of Table 2.5); the message lists the first missing (block, learner)
    cells and ends with ``hint``.
    """
    require_columns(schema, func, metric=metric, block=block, learner=learner)
    check_distinct(func, keys, metric=metric, block=block, learner=learner)
    checks = metric_checks(func, schema, metric, nulls=True)
    lf = not_null_rows(lf, func, keys, {"block": block, "learner": learner})
    lf = check_unique(lf, [*keys, block, learner], func, "one metric value per learner and block")
    cell = lf.group_by(*keys, block, learner).agg(
        pl.col(metric).first().cast(pl.Float64).alias("__value"), *checks.aggs()
    )
    cell = checks.enforce(cell, keys).with_columns(learner_expr(learner, schema))
    valued = cell.filter(pl.col("__value").is_not_null())
    if not complete:
        # a group whose values are all null would vanish from the result: refuse it
        count = [pl.col("__value").is_not_null().sum().cast(pl.Int64).alias("__values")]
        per_group = cell.group_by(keys).agg(count) if keys else cell.select(count)
        checked = enforce(
            per_group,
            failure(
                pl.col("__values") == 0,
                InsufficientDataError,
                f"{func}(): needs metric values, got none (every {metric!r} value is null){{}}.",
                group_text(keys),
            ),
        )
        return tie_to_checks(valued, checked, keys)

    present = valued.select(*keys, block, learner)
    learners = cell.select(*keys, learner).unique()
    blocks = cell.select(*keys, block).unique()
    grid = (
        learners.join(blocks, on=keys, how="inner", nulls_equal=True)
        if keys
        else learners.join(blocks, how="cross")
    )
    missing = grid.join(present, on=[*keys, block, learner], how="anti", nulls_equal=True)
    text = pl.concat_str(
        [pl.lit(f"{learner}="), value_text(learner), pl.lit(f" on {block}="), value_text(block)]
    )
    gaps = per_group_list(missing, keys, text)
    # checked per group of ``cell``, so that a group whose values are all null is not lost
    groups = cell.select(keys).unique() if keys else cell.select(pl.len().alias("__rows"))
    checked = enforce(
        attach(groups, gaps, keys),
        failure(
            pl.col("__n") > 0,
            InsufficientDataError,
            f"{func}(): every learner must have a value on every block (a complete {block} × "
            f"{learner} table; a null value is a missing cell), got {{}} missing: {{}}{{}}."
            + (f" Hint: {hint}" if hint else ""),
            pl.col("__n"),
            pl.col("__list"),
            group_text(keys),
        ),
    )
    return tie_to_checks(valued, checked, keys)


def paired(
    lf: pl.LazyFrame,
    schema: pl.Schema,
    func: str,
    keys: list[str],
    roles: Mapping[str, str],
    learner: str,
    metric: str,
    a: Any,
    b: Any,
) -> pl.LazyFrame:
    """``*keys, *pair, __a, __b``: the metric of learners ``a`` and ``b`` side by side, paired on
    the ``roles`` columns (``{"pair": "fold"}``, ``{"repeat": ..., "fold": ...}``…).

    Raises in-plan on bad metric values, duplicate rows per (pair, learner), a pair value that
    has a value for only one of the two learners, and a group with no row of ``a`` or ``b``.
    """
    require_columns(schema, func, metric=metric, learner=learner, **roles)
    check_distinct(func, keys, metric=metric, learner=learner, **roles)
    checks = metric_checks(func, schema, metric)
    return pair_up(
        lf,
        schema,
        func,
        keys,
        roles,
        learner,
        a,
        b,
        value=pl.col(metric).cast(pl.Float64),
        checks=checks,
        what="metric value",
    )


def pair_up(
    lf: pl.LazyFrame,
    schema: pl.Schema,
    func: str,
    keys: list[str],
    roles: Mapping[str, str],
    learner: str,
    a: Any,
    b: Any,
    *,
    value: pl.Expr,
    checks: Checks,
    what: str,
    extra: Sequence[pl.Expr] = (),
) -> pl.LazyFrame:
    """The pairing kernel of :func:`paired` (and of McNemar's pairing on ``instance``): ``value``
    of ``a`` and ``b`` as ``__a``, ``__b`` per ``*keys, *roles``, plus the ``extra``
    aggregations, with the data ``checks`` enforced.

    Built from the stages below, which the Dask backend also uses on partitions holding whole
    pair values (:func:`pair_rows`), merging the per-group parts (:func:`learner_rows`, the
    gap list) before enforcing the same guards (:func:`rows_guard`, :func:`gap_guard`)."""
    check_learner_value(schema, func, learner, a, "a")
    check_learner_value(schema, func, learner, b, "b")
    check_parameter(a != b, func, f"a= and b= must be different learners, got {a!r} for both.")
    rows = learner_rows(schema, learner, a, b)
    counts = lf.group_by(keys).agg(rows) if keys else lf.select(rows)
    piv = pair_rows(
        lf,
        schema,
        func,
        keys,
        roles,
        learner,
        a,
        b,
        value=value,
        checks=checks,
        what=what,
        extra=extra,
    )
    piv = checks.enforce(piv, keys)
    gaps = per_group_list(piv.filter(is_gap()), keys, gap_text(roles, a, b))
    piv = attach(piv, gaps, keys)
    piv = enforce(piv, gap_guard(func, roles, a, b, keys)).drop("__n", "__list")
    counts = enforce(counts, rows_guard(func, a, b, keys))
    # joining the checked counts makes their guard part of the plan
    if keys:
        return piv.join(counts.select(keys), on=keys, how="semi", nulls_equal=True)
    return piv.join(counts, how="cross").drop("__rows_a", "__rows_b")


def learner_rows(schema: pl.Schema, learner: str, a: Any, b: Any) -> list[pl.Expr]:
    """``__rows_a``, ``__rows_b`` (Int64): the rows of learners ``a`` and ``b`` (per group;
    partial counts merge by summing)."""
    return [
        is_learner(learner, schema, a).sum().cast(pl.Int64).alias("__rows_a"),
        is_learner(learner, schema, b).sum().cast(pl.Int64).alias("__rows_b"),
    ]


def rows_guard(func: str, a: Any, b: Any, keys: Sequence[str]) -> pl.Expr:
    """Both learners must have rows in the group (on ``__rows_a``, ``__rows_b``)."""
    return failure(
        (pl.col("__rows_a") == 0) | (pl.col("__rows_b") == 0),
        InsufficientDataError,
        f"{func}(): learners a={a!r} and b={b!r} must both have rows, got {{}} rows of a "
        f"and {{}} rows of b{{}}.",
        pl.col("__rows_a"),
        pl.col("__rows_b"),
        group_text(keys),
    )


def pair_rows(
    lf: pl.LazyFrame,
    schema: pl.Schema,
    func: str,
    keys: list[str],
    roles: Mapping[str, str],
    learner: str,
    a: Any,
    b: Any,
    *,
    value: pl.Expr,
    checks: Checks,
    what: str,
    extra: Sequence[pl.Expr] = (),
) -> pl.LazyFrame:
    """``*keys, *pair, __a, __b, *extra`` and the per-pair counts of ``checks`` (not enforced):
    one row per pair value of ``a``'s and ``b``'s rows. Raises in-plan on a null pair value and
    on duplicate (pair, learner) rows — checks that need all rows of a pair value together."""
    pair = list(roles.values())
    is_a, is_b = is_learner(learner, schema, a), is_learner(learner, schema, b)
    mine = not_null_rows(lf.filter(is_a | is_b), func, keys, roles)
    mine = check_unique(
        mine, [*keys, *pair, learner], func, f"one {what} per learner and {'/'.join(pair)}"
    )
    return mine.group_by(*keys, *pair).agg(
        value.filter(is_a).first().alias("__a"),
        value.filter(is_b).first().alias("__b"),
        *extra,
        *checks.aggs(),
    )


def is_gap() -> pl.Expr:
    """A pair value (a row of :func:`pair_rows`) that lacks ``a``'s or ``b``'s value."""
    return pl.col("__a").is_null() | pl.col("__b").is_null()


def gap_text(roles: Mapping[str, str], a: Any, b: Any) -> pl.Expr:
    """``instance=7 has no value for b='B'``: a gap described (on :func:`pair_rows` rows)."""
    where = pl.concat_str(
        [pl.concat_str([pl.lit(f"{p}="), value_text(p)]) for p in roles.values()], separator=" "
    )
    side = pl.when(pl.col("__a").is_null()).then(pl.lit(f"a={a!r}")).otherwise(pl.lit(f"b={b!r}"))
    return pl.concat_str([where, pl.lit(" has no value for "), side])


def gap_guard(func: str, roles: Mapping[str, str], a: Any, b: Any, keys: Sequence[str]) -> pl.Expr:
    """No gaps in the group (on ``__n``, ``__list`` of :func:`per_group_list`)."""
    pair = "/".join(roles.values())
    return failure(
        pl.col("__n") > 0,
        InsufficientDataError,
        f"{func}(): learners a={a!r} and b={b!r} must both have a value for every "
        f"{pair}, got {{}} missing: {{}}{{}}.",
        pl.col("__n"),
        pl.col("__list"),
        group_text(keys),
    )


# ---------------------------------------------------------------------------------------------
# the scipy step
# ---------------------------------------------------------------------------------------------
def scipy_step(
    frame: pl.LazyFrame,
    compute: Callable[..., Mapping[str, np.ndarray]],
    inputs: Sequence[str],
    outputs: Sequence[str],
) -> pl.LazyFrame:
    """Add Float64 ``outputs`` computed by ``compute(*arrays)`` (one float ndarray per input, in
    order) in one vectorised call.

    Nulls arrive as NaN; NaN results leave as null. The call runs inside the plan (when the
    frame is collected) on the whole statistics column at once.
    """
    names = list(outputs)

    def run(series: pl.Series, **_: Any) -> pl.Series:  # polars passes return_dtype=
        arrays = [series.struct.field(name).cast(pl.Float64).to_numpy() for name in inputs]
        with np.errstate(all="ignore"):
            result = compute(*arrays)
        columns = {n: np.asarray(result[n], dtype=np.float64).reshape(-1) for n in names}
        out = pl.DataFrame(columns, schema={n: pl.Float64 for n in names})
        return out.with_columns(pl.all().fill_nan(None)).to_struct("__scipy")

    dtype = pl.Struct({n: pl.Float64 for n in names})
    step = pl.struct(list(inputs)).map_batches(run, return_dtype=dtype).alias("__scipy")
    return frame.with_columns(step).unnest("__scipy")


def per_unique(fn: Callable[..., np.ndarray], *arrays: np.ndarray) -> np.ndarray:
    """``fn`` evaluated once per distinct combination of the (finite) argument rows."""
    if arrays[0].size == 0:
        return np.empty(0)
    stacked = np.column_stack([np.asarray(x, dtype=float) for x in arrays])
    out = np.full(stacked.shape[0], np.nan)
    ok = np.isfinite(stacked).all(axis=1)
    if not ok.any():
        return out
    unique, inverse = np.unique(stacked[ok], axis=0, return_inverse=True)
    values = np.asarray(fn(*unique.T), dtype=float)
    out[ok] = values[inverse.reshape(-1)]
    return out


def mean_std(value: pl.Expr) -> tuple[pl.Expr, pl.Expr]:
    """Sample mean and standard deviation (ddof = 1) of a group, exact for a constant sample
    (mean = the value, std = 0: floating-point noise must not turn 0/0 into a huge statistic)."""
    constant = value.min() == value.max()
    mean = pl.when(constant).then(value.min()).otherwise(value.mean())
    std = pl.when(constant).then(pl.lit(0.0)).otherwise(value.std(ddof=1))
    return mean, std


def better_expr(
    a_better: pl.Expr, b_better: pl.Expr, a_col: str = "a", b_col: str = "b"
) -> pl.Expr:
    """The better learner of a rejected comparison, null otherwise."""
    return (
        pl.when(pl.col("reject") & a_better)
        .then(pl.col(a_col))
        .when(pl.col("reject") & b_better)
        .then(pl.col(b_col))
        .alias("better")
    )


def decide(p_value: pl.Expr, alpha: float | pl.Expr) -> pl.Expr:
    """``reject``, the one rule that turns a p-value into a decision: ``p_value < alpha``.

    Strict: a p-value equal to α does not reject (the documented ``reject`` = p_value < α of
    every p-value based test, and of the adjusted p-values of the multiple-comparison
    procedures). A null p-value (or a null α) gives a null ``reject``: the test is undefined
    there, neither rejected nor not rejected. Tests whose documented rule compares the
    statistic with a critical value (statistic > critical_value) keep that rule where they
    decide; the two agree wherever the p-value and the critical value come from the same
    distribution, except at the boundary."""
    return (p_value < alpha).alias("reject")


def literal(value: Any, schema: pl.Schema, learner: str) -> pl.Expr:
    """A learner name as a literal of the (compared) learner dtype."""
    dtype = pl.String if isinstance(schema[learner], pl.Categorical | pl.Enum) else schema[learner]
    return pl.lit(value).cast(dtype)


# ---------------------------------------------------------------------------------------------
# plan helpers shared with frameeval.uncertainty
# ---------------------------------------------------------------------------------------------
def agg_by_keys(lf: pl.LazyFrame, keys: Sequence[str], exprs: Sequence[pl.Expr]) -> pl.LazyFrame:
    return lf.group_by(list(keys)).agg(exprs) if keys else lf.select(exprs)


def over_keys(expr: pl.Expr, keys: Sequence[str]) -> pl.Expr:
    return expr.over(list(keys)) if keys else expr


def join_on_keys(left: pl.LazyFrame, right: pl.LazyFrame, keys: Sequence[str]) -> pl.LazyFrame:
    if keys:
        return left.join(right, on=list(keys), how="left", nulls_equal=True)
    return left.join(right, how="cross")


def block_pairs(
    frame: FrameT, keys: Sequence[str], block: str, sides: Mapping[str, tuple[str, str]]
) -> FrameT:
    """The learner pairs of each block: ``frame`` (one row per keys × block × learner) joined
    with itself on ``*keys, block`` (inner; null keys match), as ``*keys, <block>`` and each
    column of ``sides`` under its a-side and b-side names (``sides`` maps a column to them, e.g.
    ``{learner: ("a", "b"), "__value": ("__va", "__vb")}``). Every ordered pair of the block's
    rows, a learner with itself included: the caller keeps the pairs it needs (a < b, a ≠ b,
    one given pair)."""
    on = [*keys, block]
    left = frame.select(*on, *(pl.col(c).alias(a) for c, (a, _) in sides.items()))
    right = frame.select(*on, *(pl.col(c).alias(b) for c, (_, b) in sides.items()))
    return left.join(right, on=on, how="inner", nulls_equal=True)


def tie_to_checks(frame: pl.LazyFrame, checked: pl.LazyFrame, keys: Sequence[str]) -> pl.LazyFrame:
    """``frame`` restricted to the groups of ``checked`` (a frame whose plan enforces data
    checks), so that collecting ``frame`` runs those checks."""
    if keys:
        return frame.join(checked.select(keys), on=list(keys), how="semi", nulls_equal=True)
    # a one-row ``checked``: cross join its real columns (a literal-only projection would let
    # the optimiser replace the checked plan by a constant)
    names = checked.collect_schema().names()
    renamed = checked.select(pl.col(n).alias(f"__fe_tie_{i}") for i, n in enumerate(names))
    return frame.join(renamed, how="cross").drop(f"__fe_tie_{i}" for i in range(len(names)))


def sort_by_keys(lf: pl.LazyFrame, keys: Sequence[str], *more: str) -> pl.LazyFrame:
    order = [*keys, *more]
    return lf.sort(order, nulls_last=True) if order else lf


def signed_ratio(numerator: pl.Expr, denominator: pl.Expr) -> pl.Expr:
    """numerator / denominator with x/0 = ±inf and 0/0 = null (never NaN)."""
    return (
        pl.when((denominator == 0) & (numerator == 0))
        .then(None)
        .otherwise(numerator / denominator)
        .cast(pl.Float64)
    )


#: digits= of a rank-based procedure
DIGITS = Number(low=1, high=15, integer=True, none=True)


def check_level(value: float, func: str, name: str) -> float:
    return float(ALPHA(func, name, value))


def check_int(value: Any, func: str, name: str, minimum: int) -> int:
    return int(Number(low=minimum, integer=True)(func, name, value))


def check_learners(schema: pl.Schema, func: str, learner: str, a: Any, b: Any) -> None:
    family = dtype_family(schema[learner])
    for role, value in (("a", a), ("b", b)):
        if value is None:
            raise InvalidParameterError(f"{func}(): {role}= must name a learner, got None.")
        ok = {
            "string": isinstance(value, str),
            "boolean": isinstance(value, bool),
            "numeric": isinstance(value, int | float) and not isinstance(value, bool),
        }[family]
        if not ok:
            raise InvalidDtypeError(
                f"{func}(): {role}= must match the dtype of column {learner!r} "
                f"({schema[learner]}), got {value!r} ({type(value).__name__})."
            )
    check_parameter(a != b, func, f"a= and b= must be different learners, got {a!r} for both.")


def both_present(
    frame: pl.LazyFrame,
    keys: list[str],
    func: str,
    where: pl.Expr,
    a: Any,
    b: Any,
    what: str,
    missing_a: pl.Expr,
    missing_b: pl.Expr,
) -> pl.LazyFrame:
    """Raise in-plan when a row of ``frame`` (one per pairing unit) has no value of learner a
    (``missing_a``) or b, listing up to five units."""
    side = pl.when(missing_a).then(pl.lit(f"a={a!r}")).otherwise(pl.lit(f"b={b!r}"))
    text = pl.concat_str([where, pl.lit(" has no value for "), side])
    missing = frame.filter(missing_a | missing_b)
    gaps = agg_by_keys(
        missing,
        keys,
        [
            pl.len().cast(pl.Int64).alias("__fe_gaps"),
            text.sort().head(5).str.join(", ").alias("__fe_list"),
        ],
    )
    frame = join_on_keys(frame, gaps, keys)
    frame = enforce(
        frame,
        failure(
            pl.col("__fe_gaps") > 0,
            InsufficientDataError,
            f"{func}(): learners a={a!r} and b={b!r} must both have a value for every {what}, "
            "got {} missing: {}{}.",
            pl.col("__fe_gaps"),
            pl.col("__fe_list"),
            group_text(keys),
        ),
    )
    return frame.drop("__fe_gaps", "__fe_list")


# ---------------------------------------------------------------------------------------------
# the precision at which rank-based procedures compare values
# ---------------------------------------------------------------------------------------------
#: Significant digits kept before values (and differences of values) are ranked.
RANK_DIGITS = 12


def check_digits(digits: Any, func: str) -> int | None:
    """``digits=`` of a rank-based procedure: an integer in [1, 15], or None (no rounding)."""
    value: int | None = DIGITS(func, "digits", digits)
    return value


def rounded(value: pl.Expr, digits: int | None, scale: pl.Expr | None = None) -> pl.Expr:
    """``value`` rounded to ``digits`` significant digits of ``scale`` (default: of ``value``).

    The one place where rank-based procedures round what they rank. With
    e = ⌊log₁₀ |scale|⌋ and s = digits − 1 − e,

        rounded(x) = round(x · 10^s) / 10^s           (10^−s · round(x / 10^−s) when s < 0)

    an integer count of units of 10^−s, divided by an exact power of ten: the correctly rounded
    double of that decimal. Two values equal as decimals (0.63 − 0.62 and 0.68 − 0.67, or
    0.69 · 100 and 69) therefore give the same double even when their floating-point forms
    differ in the last bits. A difference takes the scale of its operands (max(|a|, |b|)):
    its floating-point error is relative to them, not to itself. ``digits=None`` returns
    ``value`` unchanged; a zero (or null) scale leaves the value as it is.
    """
    if digits is None:
        return value
    reference = (value if scale is None else scale).abs()
    exponent = (pl.lit(digits - 1, dtype=pl.Float64) - reference.log10().floor()).clip(-300, 300)
    power = pl.lit(10.0).pow(exponent.abs())
    up = (value * power).round(0) / power
    down = (value / power).round(0) * power
    out = pl.when(exponent >= 0).then(up).otherwise(down)
    return pl.when(reference > 0).then(out).otherwise(value)


def rounded_difference(a: pl.Expr, b: pl.Expr, digits: int | None) -> pl.Expr:
    """a − b as rank-based procedures compare it: the difference of the values rounded to
    ``digits`` significant digits, itself rounded to ``digits`` significant digits of
    max(|a|, |b|) (:func:`rounded`), so 0.63 − 0.62 and 0.68 − 0.67 are one difference, 0.01."""
    a, b = rounded(a, digits), rounded(b, digits)
    return rounded(a - b, digits, pl.max_horizontal(a.abs(), b.abs()))


# ---------------------------------------------------------------------------------------------
# words
# ---------------------------------------------------------------------------------------------
def format_p(p: float | None) -> str:
    """A p-value in words, the one rule every sentence of ``frameeval.compare`` uses:
    ``"p < 0.001"`` below 0.001, otherwise ``"p = "`` and three significant digits
    (``"p = 0.0123"``, ``"p = 0.500"``; never ``"p = 0.0"``); ``"p undefined"`` for a null or
    NaN."""
    if p is None or not np.isfinite(p):
        return "p undefined"
    return "p < 0.001" if p < 0.001 else f"p = {p:#.3g}"


#: Digits after the decimal point of a metric value or an average rank, in the results table
#: and in every sentence that cites one (the verdict, the headline): one rounding for both.
DECIMALS = 3


def value_decimals(x: float | None) -> int:
    """The display rule's digits after the point, by the value's scale: :data:`DECIMALS` (3)
    below 10 (accuracies, AUCs, average ranks: ``0.923``, ``1.625``), then four significant
    digits — 2 below 100, 1 below 1,000, none above (an RMSE of ``123.4``, not ``123.456``)."""
    a = abs(x) if x is not None and np.isfinite(x) else 0.0
    return DECIMALS if a < 10 else 2 if a < 100 else 1 if a < 1000 else 0


def decimals_expr(x: pl.Expr) -> pl.Expr:
    """``x`` rounded as :func:`format_value` prints it (by :func:`value_decimals`)."""
    a = x.abs()
    return (
        pl.when(a < 10)
        .then(x.round(DECIMALS))
        .when(a < 100)
        .then(x.round(2))
        .when(a < 1000)
        .then(x.round(1))
        .otherwise(x.round(0))
    )


def format_value(x: float | None, decimals: int | None = None) -> str:
    """A metric value or an average rank as every table, verdict and headline prints it:
    ``decimals`` digits after the point, by default by the value's scale
    (:func:`value_decimals`: ``1.625`` → ``"1.625"``, never ``"1.62"``; ``123.456`` →
    ``"123.5"``); ``"undefined"`` for a null or NaN, ``"∞"`` / ``"−∞"`` for an infinity."""
    if x is None or np.isnan(x):
        return "undefined"
    if not np.isfinite(x):
        return "∞" if x > 0 else "−∞"
    return f"{x:.{value_decimals(x) if decimals is None else decimals}f}"


def format_interval(
    x: float | None, low: float | None, high: float | None, decimals: int | None = None
) -> str:
    """A value with its interval as the results table prints it: ``"0.912 [0.887, 0.934]"``
    (the bounds with the value's digits); the value alone when either bound is null or NaN."""
    digits = value_decimals(x) if decimals is None else decimals
    value = format_value(x, digits)
    if low is None or high is None or np.isnan(low) or np.isnan(high):
        return value
    return f"{value} [{format_value(low, digits)}, {format_value(high, digits)}]"


def format_p_expr(p: pl.Expr) -> pl.Expr:
    """:func:`format_p` on a column of p-values (String), for sentences built in a plan."""

    def words(series: pl.Series) -> pl.Series:
        # loop-ok: words, one per group, after the statistics
        return pl.Series([format_p(x) for x in series.to_list()], dtype=pl.String)

    return p.cast(pl.Float64).map_batches(words, return_dtype=pl.String)
