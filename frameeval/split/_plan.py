"""What every split method shares: argument checks, the units (rows or groups) with their
stable keys and strata, the seeded order of the units, and the stacking of the repeats.

The public functions of :mod:`frameeval.split` build their assignment on these; the module
docstring of :mod:`frameeval.split` describes the scheme."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import polars as pl

from frameeval._frame import to_lazy
from frameeval._inputs import Column, Inputs
from frameeval._params import FRACTION, Number
from frameeval._split_frame import SPLIT_COLUMNS, key_expr, mix_column, stream_salt
from frameeval._typing import IntoFrame
from frameeval._validate import check_not_empty_eager, check_parameter, check_seed, enforce, failure
from frameeval.exceptions import DuplicateKeyError

__all__ = [
    "HASH",
    "KEY",
    "MAX_DENOMINATOR",
    "N",
    "OFFSET",
    "OK",
    "POS",
    "Plan",
    "RANK",
    "SALT_DRAW",
    "SALT_ORDER",
    "STRATUM",
    "TOTAL",
    "assemble",
    "check_fraction",
    "check_int",
    "check_seed",
    "fraction",
    "positions",
    "prepare",
    "repeated",
    "selected",
    "selected_before",
    "sortable",
    "unique_instance",
    "unit_base",
]


# salts keep the streams of different purposes apart for one seed; hold-out, k-fold and
# train/validation/test share one, so a seed gives nested-compatible orders
SALT_ORDER = 0x5EED_0F0D_5EED_0F0D
SALT_DRAW = 0xB007_57A9_B007_57A9
MAX_DENOMINATOR = 1_000_000

KEY = "__fe_key"
STRATUM = "__fe_stratum"
HASH = "__fe_hash"
POS = "__fe_pos"
N = "__fe_n"
OFFSET = "__fe_offset"
TOTAL = "__fe_total"
RANK = "__fe_rank"
OK = "__fe_ok"


def sortable(column: str, dtype: pl.DataType) -> pl.Expr:
    """A stratum value with a platform-independent order (categoricals compare as strings)."""
    if isinstance(dtype, pl.Categorical | pl.Enum):
        return pl.col(column).cast(pl.String)
    return pl.col(column)


# ---------------------------------------------------------------------------------------------
# shared preparation
# ---------------------------------------------------------------------------------------------
@dataclass
class Plan:
    func: str
    eager: bool
    rows: pl.LazyFrame  # the user's rows (``instance`` added when instance= is not given)
    columns: list[str]  # their column names, in order
    units: pl.LazyFrame  # one row per unit with KEY (and STRATUM when stratified)
    group: str | None
    strata: list[str]  # [] or [STRATUM]
    stratify: str | None
    unit_word: str  # "rows" or "groups"
    key_column: str  # the column behind KEY (instance / row index / group)


#: the columns of a split: the unit (an instance, complete and unique; or a group of rows,
#: complete) and the strata (complete)
SPLIT = Inputs(
    Column("instance"), Column("stratify", "any", "not_null"), Column("group", "any", "not_null")
)
INSTANCE = Inputs(Column("instance", "any", "finite"))
STRATA = Inputs(Column("stratify", "any", "not_null"))


def check_int(value: Any, func: str, name: str, low: int) -> None:
    Number(low=low, integer=True)(func, name, value)


def prepare(
    data: IntoFrame,
    func: str,
    instance: str | None,
    stratify: str | None = None,
    group: str | None = None,
    seed: Any = 0,
    repeats: Any = 1,
) -> Plan:
    lf, eager = to_lazy(data, func)
    schema = lf.collect_schema()
    grouped = SPLIT.compile(schema, func, instance=instance, stratify=stratify, group=group)
    check_seed(seed, func)
    check_int(repeats, func, "repeats", 1)
    for name in SPLIT_COLUMNS:
        check_parameter(
            name not in schema,
            func,
            f"data must not already contain the output column {name!r}, got columns "
            f"{list(schema.names())}.\nHint: rename or drop it.",
        )
    check_not_empty_eager(data, eager, lf, func)
    if instance is None:
        check_parameter(
            "instance" not in schema,
            func,
            "instance= is required when data has a column named 'instance', got None.\n"
            "Hint: pass instance='instance' to use it as the key, or rename it.",
        )
        lf = lf.with_row_index("instance")
        key_column = "instance"
    else:
        key_column = instance
        lf = unique_instance(lf, func, instance, schema[instance])
    schema = lf.collect_schema()
    columns = list(schema.names())
    if group is None:
        units = lf.with_columns(
            key_expr(key_column, schema[key_column], func, "instance").alias(KEY)
        )
        if stratify is not None:
            units = units.with_columns(sortable(stratify, schema[stratify]).alias(STRATUM))
        unit_word = "rows"
    else:
        key = key_expr(group, schema[group], func, "group")  # checks the dtype
        checks = grouped
        aggs: list[pl.Expr] = []
        if stratify is not None:
            # a group's stratum: its most frequent class (the smallest on ties)
            aggs.append(sortable(stratify, schema[stratify]).mode().min().alias(STRATUM))
        units = lf.group_by(group).agg(*aggs, *checks.aggs())
        units = checks.enforce(units, [])
        units = units.with_columns(key.alias(KEY))
        unit_word = "groups"
        key_column = group
    return Plan(
        func=func,
        eager=eager,
        rows=lf,
        columns=columns,
        units=units,
        group=group,
        strata=[STRATUM] if stratify is not None else [],
        stratify=stratify,
        unit_word=unit_word,
        key_column=key_column,
    )


def unique_instance(lf: pl.LazyFrame, func: str, instance: str, dtype: pl.DataType) -> pl.LazyFrame:
    """Instance keys must be complete and unique (checked in the plan by one group-by)."""
    checks = INSTANCE.compile(pl.Schema({instance: dtype}), func, instance=instance)
    stats = lf.group_by(instance).agg(pl.len().cast(pl.Int64).alias(N), *checks.aggs())
    stats = checks.enforce(stats, [])
    dup = pl.col(N) > 1
    summary = stats.select(
        dup.sum().cast(pl.Int64).alias("__fe_dups"),
        pl.col(instance).filter(dup).min().alias("__fe_example"),
    ).pipe(
        enforce,
        failure(
            pl.col("__fe_dups") > 0,
            DuplicateKeyError,
            f"{func}(): column {instance!r} (instance=) must hold unique values, got {{}} "
            f"duplicated values (smallest {{}}).\nHint: use group= for several rows per instance.",
            pl.col("__fe_dups"),
            pl.col("__fe_example"),
        ),
    )
    return lf.join(
        summary.select(pl.col("__fe_dups").alias(OK)), how="cross", maintain_order="left"
    ).drop(OK)


def unit_base(
    plan: Plan, *total_rules: pl.Expr, stratum_rule: pl.Expr | None = None
) -> pl.LazyFrame:
    """The units with their stratum's ``N`` units and ``OFFSET`` (units in earlier strata) and
    the ``TOTAL`` units. ``total_rules`` (:func:`failure` over ``TOTAL``) and ``stratum_rule``
    (over ``N``, with strata) are checked on those small frames, when the joins read them."""
    totals = enforce(plan.units.select(pl.len().cast(pl.Int64).alias(TOTAL)), *total_rules)
    if not plan.strata:
        return plan.units.with_columns(pl.lit(0, pl.Int64).alias(OFFSET)).join(
            totals, how="cross", maintain_order="left"
        )
    stratify = plan.stratify if plan.group is None else None  # a group's: checked per row
    checks = STRATA.compile(plan.units.collect_schema(), plan.func, stratify=stratify)
    sizes = plan.units.group_by(STRATUM).agg(pl.len().cast(pl.Int64).alias(N), *checks.aggs())
    sizes = checks.enforce(sizes, []).sort(STRATUM)
    if stratum_rule is not None:
        sizes = enforce(sizes, stratum_rule)
    sizes = sizes.with_columns((pl.col(N).cum_sum() - pl.col(N)).alias(OFFSET))
    base = plan.units.join(sizes, on=plan.strata, how="left", maintain_order="left")
    return base.join(totals, how="cross", maintain_order="left")


def positions(plan: Plan, base: pl.LazyFrame, seed: int, repeat: int) -> pl.LazyFrame:
    """``POS``: the unit's place in the seeded order, strata laid end to end."""
    salt = stream_salt(seed, SALT_ORDER, repeat)
    lf = base.with_columns((pl.col(KEY) ^ pl.lit(salt, pl.UInt64)).alias(HASH))
    lf = mix_column(lf, HASH)
    rank = pl.col(HASH).rank("ordinal")
    if plan.strata:
        rank = rank.over(plan.strata)
    return lf.with_columns((pl.col(OFFSET) + rank.cast(pl.Int64) - 1).alias(POS))


def repeated(
    plan: Plan,
    base: pl.LazyFrame,
    seed: int,
    repeats: int,
    name: str,
    value: Callable[[int], pl.Expr],
) -> pl.LazyFrame:
    """Every repeat ``r``'s units, their positions drawn per repeat, with ``repeat`` and the
    column ``name`` (``value(r)``, over ``POS``), stacked (:func:`assemble`)."""
    per_repeat = [
        positions(plan, base, seed, r).with_columns(
            pl.lit(r, pl.Int32).alias("repeat"), value(r).alias(name)
        )
        for r in range(repeats)  # loop-ok: one lazy branch per repeat
    ]
    return assemble(plan, per_repeat, ["repeat", name])


def assemble(plan: Plan, per_repeat: list[pl.LazyFrame], outputs: list[str]) -> pl.LazyFrame:
    """Stack the repeats: the user's columns (input order within a repeat) then ``outputs``."""
    frames = []
    for frame in per_repeat:  # loop-ok: one lazy branch per repeat
        if plan.group is None:
            frames.append(frame.select(*plan.columns, *outputs))
        else:
            assigned = frame.select(plan.group, *outputs)
            frames.append(
                plan.rows.join(assigned, on=plan.group, how="left", maintain_order="left")
            )
    return pl.concat(frames, how="vertical")


def fraction(value: float) -> Fraction:
    return Fraction(value).limit_denominator(MAX_DENOMINATOR)


def selected_before(pos: pl.Expr, frac: Fraction) -> pl.Expr:
    """``floor(pos · frac + 1/2)`` in exact integer arithmetic: how many of the positions
    ``0 … pos-1`` the Bresenham sequence of density ``frac`` selects."""
    num, den = frac.numerator, frac.denominator
    return (pos * (2 * num) + den) // (2 * den)


def selected(pos: pl.Expr, frac: Fraction) -> pl.Expr:
    return (selected_before(pos + 1, frac) - selected_before(pos, frac)) == 1


def check_fraction(value: Any, func: str, name: str) -> None:
    FRACTION(func, name, value)
