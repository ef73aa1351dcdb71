"""The long → block × learner cells and paired-rows reshapes of the comparison tests, with
their checks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import polars as pl

from frameeval._inputs import Column, Inputs
from frameeval._validate import Checks, check_unique, enforce, failure, group_text
from frameeval.compare.door import check_learners, is_learner, learner_expr
from frameeval.compare.guards import attach, not_null_rows, per_group_list, value_text
from frameeval.compare.plan import block_grid, tie_to_checks
from frameeval.exceptions import InsufficientDataError

#: The hint of a NaN metric value where a null is a missing cell.
NAN_HINT = "a failed run is a missing cell: make it null (fill_nan(None)) or drop its row."
#: the metric column (every caller reads it as Float64): complete and finite, or (``CELL``)
#: finite where not null
METRIC = Inputs(Column("metric", "numeric_or_decimal", "finite", required=True))
CELL = Inputs(
    Column("metric", "numeric_or_decimal", "finite_or_null", hint=NAN_HINT, required=True)
)


def with_roles(metric: Inputs, *roles: str) -> Inputs:
    """``metric`` and the role columns of a long frame (any dtype): the metric, the roles and
    the ``by=`` keys name different columns."""
    return metric + Inputs(*(Column(role) for role in roles), distinct=True)


#: the long frame of :func:`cells`: a metric value (null: a missing cell) per block × learner
CELLS = with_roles(CELL, "block", "learner")


#: The hint of a missing cell in a test of all learners over blocks.
MISSING_HINT = "skillings_mack() tests all learners at once with missing cells allowed."
#: … and in a comparison of pairs of learners.
PAIR_MISSING_HINT = (
    "compare on the blocks both learners have (drop the others first), or test all learners "
    "at once with skillings_mack(), which allows missing cells."
)


class Long(NamedTuple):
    """A long frame of metric values (one row per group × block × learner) with its schema, the
    calling function and the columns of its roles: what :func:`cells` and the pair tables
    read."""

    lf: pl.LazyFrame
    schema: pl.Schema
    func: str
    keys: list[str]
    block: str
    learner: str
    metric: str


def cells(long: Long, *, complete: bool = True, hint: str | None = MISSING_HINT) -> pl.LazyFrame:
    """``*keys, <block>, <learner>, __value``: one value per group × block × learner.

    A null metric value is a missing cell (a failed run, as a wide results table unpivoted
    gives it), the same as an absent row. Raises in-plan on NaN/inf metric values, null block
    or learner, duplicate (block, learner) rows, and (unless ``complete=False``) on missing
    cells: every learner of a group must have a value on every block of the group (the
    complete N × k table of Table 2.5); the message lists the first missing (block, learner)
    cells and ends with ``hint``.
    """
    lf, schema, func, keys, block, learner, metric = long
    checks = CELLS.compile(schema, func, metric=metric, block=block, learner=learner, by=keys)
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
    grid = block_grid(cell, keys, block, learner)
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
    declared = with_roles(METRIC, "learner", *roles)
    checks = declared.compile(schema, func, metric=metric, learner=learner, by=keys, **roles)
    value = pl.col(metric).cast(pl.Float64)
    return pair_up(
        lf, Pairing(schema, func, keys, roles, learner, a, b, value, checks, "metric value")
    )


class Pairing(NamedTuple):
    """Learners ``a`` and ``b`` (of the ``learner`` column) paired per ``*keys, *roles`` (e.g.
    ``{"instance": ...}``): ``value`` of each side, the data ``checks``, ``what`` a row is (in
    messages) and ``extra`` aggregations per pair value."""

    schema: pl.Schema
    func: str
    keys: list[str]
    roles: Mapping[str, str]
    learner: str
    a: Any
    b: Any
    value: pl.Expr
    checks: Checks
    what: str
    extra: Sequence[pl.Expr] = ()


def pair_up(lf: pl.LazyFrame, pairing: Pairing) -> pl.LazyFrame:
    """The pairing kernel of :func:`paired` (and of McNemar's pairing on ``instance``): ``value``
    of ``a`` and ``b`` as ``__a``, ``__b`` per ``*keys, *roles``, plus the ``extra``
    aggregations, with the data ``checks`` enforced.

    Built from the stages below, which the Dask backend also uses on partitions holding whole
    pair values (:func:`pair_rows`), merging the per-group parts (:func:`learner_rows`, the
    gap list) before enforcing the same guards (:func:`rows_guard`, :func:`gap_guard`)."""
    schema, func, keys, roles, learner, a, b, _, checks, _, _ = pairing
    check_learners(schema, func, learner, a, b)
    rows = learner_rows(schema, learner, a, b)
    counts = lf.group_by(keys).agg(rows) if keys else lf.select(rows)
    piv = checks.enforce(pair_rows(lf, pairing), keys)
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


def pair_rows(lf: pl.LazyFrame, pairing: Pairing) -> pl.LazyFrame:
    """``*keys, *pair, __a, __b, *extra`` and the per-pair counts of ``checks`` (not enforced):
    one row per pair value of ``a``'s and ``b``'s rows. Raises in-plan on a null pair value and
    on duplicate (pair, learner) rows — checks that need all rows of a pair value together."""
    schema, func, keys, roles, learner, a, b, value, checks, what, extra = pairing
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
