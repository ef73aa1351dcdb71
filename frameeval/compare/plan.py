"""Plan helpers of the comparison tests shared with other packages: keys, joins, pairs of
blocks, scalar checks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from frameeval._params import ALPHA, Number
from frameeval._typing import FrameT
from frameeval._validate import check_parameter, enforce, failure, group_text
from frameeval.exceptions import InsufficientDataError


def agg_by_keys(lf: pl.LazyFrame, keys: Sequence[str], exprs: Sequence[pl.Expr]) -> pl.LazyFrame:
    return lf.group_by(list(keys)).agg(exprs) if keys else lf.select(exprs)


def per_group(
    lf: pl.LazyFrame, keys: Sequence[str], exprs: Sequence[pl.Expr], count: str
) -> pl.LazyFrame:
    """``exprs`` per group (:func:`agg_by_keys`); without keys the one row of the whole frame,
    dropped when its ``count`` column is 0 (an empty frame has no group to test)."""
    out = agg_by_keys(lf, keys, exprs)
    return out if keys else out.filter(pl.col(count) > 0)


def check_choice(value: Any, choices: Sequence[Any], func: str, name: str) -> None:
    """``value`` must be one of ``choices``: ``<func>(): <name> must be 'a', 'b' or None, got
    <value!r>.`` (the choices in their order)."""
    words = [repr(c) for c in choices]
    text = f"{', '.join(words[:-1])} or {words[-1]}" if len(words) > 1 else words[0]
    check_parameter(value in choices, func, f"{name} must be {text}, got {value!r}.")


def at_least(column: str, minimum: int, func: str, what: str, keys: Sequence[str]) -> pl.Expr:
    """The in-plan failure of a group whose count ``column`` is below ``minimum``:
    ``<func>(): needs at least <minimum> <what>, got <count><group>.``"""
    return failure(
        pl.col(column) < minimum,
        InsufficientDataError,
        f"{func}(): needs at least {minimum} {what}, got {{}}{{}}.",
        pl.col(column),
        group_text(keys),
    )


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


def block_grid(frame: FrameT, keys: Sequence[str], block: str, learner: str) -> FrameT:
    """``*keys, <learner>, <block>``: every learner of a group with every block of the group
    (the complete block × learner table ``frame``'s cells belong to)."""
    learners = frame.select(*keys, learner).unique()
    blocks = frame.select(*keys, block).unique()
    if keys:
        return learners.join(blocks, on=list(keys), how="inner", nulls_equal=True)
    return learners.join(blocks, how="cross")


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
