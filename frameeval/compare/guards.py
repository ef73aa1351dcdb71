"""In-plan guards of the comparison tests: checks that ride inside the lazy plan."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import polars as pl

from frameeval._validate import enforce, failure, group_text
from frameeval.exceptions import MissingValueError


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
