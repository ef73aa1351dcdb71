"""The door of the forecast frame functions: schema checks, in-plan data checks, keys.

Every frame function here reads one row per instance × level (quantile forecasts) or per
instance × member (ensemble forecasts). Row rules (numeric, complete, finite columns; weights
≥ 0; levels in (0, 1)) and instance rules (one truth per instance; no repeated level; no
crossing quantiles) are :class:`frameeval._validate.Checks` counted in the same pass as the
scores, so a LazyFrame stays lazy and a failure is a typed error naming the function, the
column, the group and the value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import polars as pl

from frameeval._frame import as_keys, finish, to_lazy
from frameeval._typing import IntoFrame, Keys
from frameeval._validate import (
    Checks,
    check_not_empty_eager,
    check_numeric,
    check_parameter,
    require_columns,
)
from frameeval.exceptions import InvalidValueError

ALL = "__fe_all"  # constant key when by= is empty
TRUTH, PRED, LEVEL, WEIGHT = "__fe_y", "__fe_x", "__fe_q", "__fe_w"

Crossing = Literal["error", "sort"]

#: levels are compared on a grid of 1e-9 (so that 1 − 0.9 pairs with 0.1)
GRID = 1_000_000_000


@dataclass
class Door:
    lf: pl.LazyFrame  # with TRUTH, PRED (Float64), LEVEL and WEIGHT when asked
    eager: bool
    keys: list[str]  # the user's by= keys
    gkeys: list[str]  # keys, or a constant column when by= is empty
    instance: list[str]
    checks: Checks

    def flag(self, name: str, expr: pl.Expr) -> pl.Expr:
        """``expr`` (a window over instances) computed as a column of the rows before they are
        grouped — a window inside ``agg`` would see only the rows of the aggregation's group."""
        column = f"__fe_flag_{name}"
        self.lf = self.lf.with_columns(expr.alias(column))
        return pl.col(column)

    def done(self, out: pl.LazyFrame, *columns: str) -> Any:
        out = self.checks.enforce(out, self.keys)
        if self.keys or columns:
            out = out.sort(*self.keys, *columns, nulls_last=True)
        if ALL in out.collect_schema():
            out = out.drop(ALL)
        return finish(out, self.eager)


def open_forecast(
    data: IntoFrame,
    func: str,
    *,
    truth: str,
    pred: str,
    by: Keys,
    instance: Keys,
    outputs: Sequence[str],
    quantile: str | None = None,
    weight: str | None = None,
) -> Door:
    """Validated input: schema checks now, row rules declared for the plan."""
    lf, eager = to_lazy(data, func)
    keys = as_keys(by)
    inst = as_keys(instance)
    schema = lf.collect_schema()
    require_columns(
        schema,
        func,
        truth=truth,
        pred=pred,
        quantile=quantile,
        instance=inst,
        by=keys,
        weight=weight,
    )
    check_numeric(schema, func, truth=truth, pred=pred, quantile=quantile, weight=weight)
    for name in outputs:
        check_parameter(
            name not in keys, func, f"by= must not use the output column name {name!r}."
        )
    overlap = [c for c in inst if c in keys]
    check_parameter(not overlap, func, f"instance= and by= must not share a column, got {overlap}.")
    check_not_empty_eager(data, eager, lf, func)
    checks = Checks(func)
    for column, role in ((truth, "truth"), (pred, "pred"), (quantile, "quantile")):
        if column is not None:
            checks.finite(column, role, schema[column])
    if weight:
        checks.finite(weight, "weight", schema[weight])
        checks.non_negative(weight, "weight")
    columns = [
        pl.col(truth).cast(pl.Float64).alias(TRUTH),
        pl.col(pred).cast(pl.Float64).alias(PRED),
    ]
    if quantile is not None:
        level = pl.col(quantile).cast(pl.Float64)
        checks.rule(
            (level <= 0) | (level >= 1),
            InvalidValueError,
            f"column {quantile!r} (quantile=) must hold levels in (0, 1), got",
            example=level,
        )
        columns.append(level.alias(LEVEL))
    if weight:
        columns.append(pl.col(weight).cast(pl.Float64).alias(WEIGHT))
    gkeys = keys or [ALL]
    if not keys:
        columns.append(pl.lit(0, dtype=pl.Int8).alias(ALL))
    return Door(lf.with_columns(columns), eager, keys, gkeys, inst, checks)


def instance_text(instance: Sequence[str]) -> pl.Expr:
    """``id=3`` (``a=1, b=x`` for several columns): the instance, in an error message."""
    return pl.concat_str(
        [pl.lit(f"{c}=") + pl.col(c).cast(pl.String).fill_null("null") for c in instance],
        separator=", ",
    )


def one_truth(door: Door, truth: str) -> None:
    """Rule: every row of an instance carries the same true value."""
    within = [*door.gkeys, *door.instance]
    y = pl.col(TRUTH)
    door.checks.rule(
        door.flag("truth", (y.min() != y.max()).over(within)),
        InvalidValueError,
        f"column {truth!r} (truth=) must hold one value per instance, got several for",
        example=instance_text(door.instance),
    )


def level_rules(door: Door, pred: str, quantile: str, crossing: Crossing) -> None:
    """Rules of quantile forecasts per instance (no repeated level; with ``crossing="error"``
    no prediction below that of a lower level) and, with ``crossing="sort"``, the monotone
    rearrangement: each instance's predictions sorted and given to its levels in order."""
    within = [*door.gkeys, *door.instance]
    level, x = pl.col(LEVEL), pl.col(PRED)
    where = instance_text(door.instance)
    door.checks.rule(
        door.flag("repeat", level.is_duplicated().over(within)),
        InvalidValueError,
        f"column {quantile!r} (quantile=) must not repeat a level within an instance, got a "
        "repeated level for",
        example=where,
    )
    if crossing == "error":
        drop = x.sort_by(level).diff().over(within) < 0
        door.checks.rule(
            door.flag("cross", drop.fill_null(False)),
            InvalidValueError,
            f"quantiles must not cross: column {pred!r} (pred=) must not decrease as column "
            f"{quantile!r} (quantile=) rises within an instance, got a decrease for",
            example=pl.concat_str(
                [
                    where,
                    pl.lit(" at level "),
                    door.flag("cross_level", level.sort().over(within)).cast(pl.String),
                ]
            ),
        )
    else:
        door.lf = door.lf.with_columns(
            x.sort().over(within).alias(PRED), level.sort().over(within).alias(LEVEL)
        )


def check_crossing(func: str, crossing: Any) -> Crossing:
    check_parameter(
        crossing in ("error", "sort"),
        func,
        f"crossing must be 'error' or 'sort', got {crossing!r}.",
    )
    return crossing


def pinball(y: pl.Expr, x: pl.Expr, level: pl.Expr) -> pl.Expr:
    """ρ_τ(y − x) = (y − x)·(τ − [y < x]), the pinball (quantile) loss of x at level τ."""
    return (y - x) * (level - (y < x).cast(pl.Float64))
