"""The door of the forecast frame functions: schema checks, in-plan data checks, keys.

Every frame function here reads one row per instance × level (quantile forecasts) or per
instance × member (ensemble forecasts). Row rules (numeric, complete, finite columns; weights
≥ 0; levels in (0, 1)) are :class:`frameeval._validate.Checks` counted in the aggregation
that builds the per-instance table; instance rules (one truth per instance; no repeated level;
no crossing quantiles; for WIS the median and symmetric levels) are Boolean aggregates of that
same aggregation, enforced on the per-instance table with the guard primitive
(:func:`frameeval._validate.failure` / :func:`frameeval._validate.enforce`). A LazyFrame stays
lazy, and a failure is a typed error naming the function, the column, the instance, the group
and the value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import polars as pl
import polars.selectors as cs

from frameeval._frame import as_keys, finish
from frameeval._inputs import WEIGHT_INPUT, Column, Inputs
from frameeval._typing import IntoFrame, Keys
from frameeval._validate import Checks, check_parameter, enforce, failure, group_text
from frameeval.exceptions import InvalidValueError

ALL = "__fe_all"  # constant key when by= is empty
#: the inputs of a forecast: numeric truth, predictions, quantile levels and weight
FORECASTS = Inputs(
    Column("truth", "numeric", "finite", required=True),
    Column("pred", "numeric", "finite", required=True),
    Column("quantile", "numeric", "finite"),
    Column("instance", several=True),
    Column("by"),
    WEIGHT_INPUT,
)
TRUTH, PRED, LEVEL, WEIGHT = "__fe_y", "__fe_x", "__fe_q", "__fe_w"

Crossing = Literal["error", "sort"]

#: levels are compared on a grid of 1e-6 (so that 1 − 0.9 pairs with 0.1, and a Float32 level
#: with its Float64 mirror)
GRID = 1_000_000


def on_grid(level: pl.Expr) -> pl.Expr:
    """The level as an integer multiple of 1/GRID."""
    return (level * GRID).round(0).cast(pl.Int64)


@dataclass
class Door:
    lf: pl.LazyFrame  # with TRUTH, PRED (Float64), LEVEL and WEIGHT when asked
    eager: bool
    keys: list[str]  # the user's by= keys
    gkeys: list[str]  # keys, or a constant column when by= is empty
    instance: list[str]
    checks: Checks
    func: str
    enforced: bool = False  # the row rules were enforced on the per-instance table

    @property
    def within(self) -> list[str]:
        """The keys of one instance: the group keys and the instance columns."""
        return [*self.gkeys, *self.instance]

    def per_instance(self, values: Sequence[pl.Expr], rules: Sequence[Rule]) -> pl.LazyFrame:
        """One row per instance with ``values`` (aggregates over its rows), after the row rules
        and then the instance ``rules`` are enforced in the plan (the instance rules read
        aggregates of the instance, so they cost no window over the rows)."""
        aggs: list[pl.Expr] = []
        failures = []
        for i, rule in enumerate(rules):  # loop-ok: builds one check per rule
            flag, detail = f"__fe_rule_{i}", f"__fe_detail_{i}"
            if rule.bad is not None:
                aggs.append(rule.bad.fill_null(False).alias(flag))
            if rule.detail is not None:
                aggs.append(rule.detail.alias(detail))
            failed = pl.col(flag) if rule.bad is not None else pl.col(detail).is_not_null()
            text = (
                pl.lit(rule.detail_text) + pl.col(detail).cast(pl.String)
                if rule.detail is not None
                else pl.lit("")
            )
            failures.append(
                failure(
                    failed,
                    InvalidValueError,
                    f"{self.func}(): {rule.message} {{}}{{}}{{}}.",
                    instance_text(self.instance),
                    text,
                    group_text(self.keys),
                )
            )
        stats = self.lf.group_by(self.within).agg(*values, *aggs, *self.checks.aggs())
        stats = self.checks.enforce(stats, self.keys)  # row rules first
        self.enforced = True
        stats = enforce(stats, *failures)
        return stats.drop(cs.starts_with("__fe_rule_", "__fe_detail_"))

    def done(self, out: pl.LazyFrame, *columns: str) -> Any:
        if not self.enforced:
            out = self.checks.enforce(out, self.keys)
        if self.keys or columns:
            out = out.sort(*self.keys, *columns, nulls_last=True)
        return finish(out.drop(ALL, strict=False), self.eager)


def open_forecast(
    data: IntoFrame,
    func: str,
    truth: str,
    pred: str,
    by: Keys,
    instance: Keys,
    outputs: Sequence[str],
    quantile: str | None = None,
    weight: str | None = None,
) -> Door:
    """Validated input (the arguments of the entry point, in its order): schema checks now,
    row rules declared for the plan."""
    inst = as_keys(instance)
    door = FORECASTS.open(
        data,
        func,
        truth=truth,
        pred=pred,
        quantile=quantile,
        instance=inst,
        by=by,
        weight=weight,
        outputs=outputs,
    )
    lf, eager, keys, checks = door.lf, door.eager, door.keys, door.checks
    overlap = [c for c in inst if c in keys]
    check_parameter(not overlap, func, f"instance= and by= must not share a column, got {overlap}.")
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
    return Door(lf.with_columns(columns), eager, keys, gkeys, inst, checks, func)


def instance_mean(
    data: IntoFrame,
    func: str,
    value: pl.Expr,
    rules: Sequence[Rule],
    truth: str,
    pred: str,
    by: Keys,
    instance: Keys,
    quantile: str | None = None,
) -> Any:
    """The score of WIS and the CRPS: ``value`` (an aggregate over the rows of one instance,
    named) per instance, after the rule "one truth per instance" and the instance ``rules``,
    then its mean over the instances of each group (``*by, <name>``, sorted by the keys)."""
    name = value.meta.output_name()
    door = open_forecast(data, func, truth, pred, by, instance, (name,), quantile)
    check_parameter(bool(door.instance), func, "instance= must name at least one column, got [].")
    per_instance = door.per_instance([value], [truth_rule(truth), *rules])
    return door.done(per_instance.group_by(door.gkeys).agg(pl.col(name).mean()))


@dataclass(frozen=True)
class Rule:
    """A rule of one instance: ``bad`` (a Boolean aggregate over the instance's rows) breaks
    it — or, without ``bad``, a non-null ``detail`` (an aggregate that is null for a valid
    instance, e.g. the first level at which quantiles cross: one aggregate instead of two).
    The error reads ``<func>(): <message> <instance><detail_text><detail>[ in group …].``"""

    bad: pl.Expr | None
    message: str
    detail: pl.Expr | None = None
    detail_text: str = ""


def truth_rule(truth: str) -> Rule:
    """Every row of an instance carries the same true value."""
    y = pl.col(TRUTH)
    return Rule(
        y.min() != y.max(),
        f"column {truth!r} (truth=) must hold one value per instance, got several for",
    )


def level_rule_list(pred: str, quantile: str, crossing: Crossing) -> list[Rule]:
    """Per-instance rules of quantile forecasts: no repeated level; with ``crossing="error"``
    no prediction below that of a lower level."""
    level, x = pl.col(LEVEL), pl.col(PRED)
    rules = [
        Rule(
            on_grid(level).n_unique() < pl.len(),
            f"column {quantile!r} (quantile=) must not repeat a level within an instance, got "
            "a repeated level for",
        )
    ]
    if crossing == "error":
        drop = x.sort_by(level).diff() < 0
        rules.append(
            Rule(
                None,
                f"quantiles must not cross: column {pred!r} (pred=) must not decrease as column "
                f"{quantile!r} (quantile=) rises within an instance, got a decrease for",
                pl.when(drop).then(level.sort()).min(),
                " at level ",
            )
        )
    return rules


def instance_text(instance: Sequence[str]) -> pl.Expr:
    """``id=3`` (``a=1, b=x`` for several columns): the instance, in an error message."""
    return pl.concat_str(
        [pl.lit(f"{c}=") + pl.col(c).cast(pl.String).fill_null("null") for c in instance],
        separator=", ",
    )


def check_either(func: str, name: str, value: Any, first: str, second: str) -> Any:
    """``value`` of the option ``name``, which must be ``first`` or ``second``."""
    check_parameter(
        value in (first, second), func, f"{name} must be {first!r} or {second!r}, got {value!r}."
    )
    return value


def pinball(y: pl.Expr, x: pl.Expr, level: pl.Expr) -> pl.Expr:
    """ρ_τ(y − x) = (y − x)·(τ − [y < x]), the pinball (quantile) loss of x at level τ."""
    return (y - x) * (level - (y < x).cast(pl.Float64))
