"""What the agreement statistics share: the door checks of a long ratings table, the per-item
tables, the cluster bootstrap by replicate weights and its percentile interval.

A ratings table holds one row per (``by`` keys, item, rater) with the rating; a null rating is a
missing one. Every statistic is written over *item-level contributions* carrying a weight
column ``__fe_w``: the estimate gives every item weight 1, bootstrap replicate ``b`` gives each
item the Poisson(1) weight of its resampling unit (the item, or its cluster with ``cluster=``),
drawn by :func:`frameeval.uncertainty.intervals.replicate_frame`. The statistic is then computed
per group × replicate in the same grouped plan as the estimate: no loop over groups or
replicates.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import polars as pl

from frameeval._frame import as_keys, finish, to_lazy
from frameeval._inputs import Column, Inputs
from frameeval._params import NUMPY_SEED
from frameeval._validate import (
    Checks,
    check_not_empty_eager,
    check_parameter,
    enforce,
    failure,
    group_text,
)
from frameeval.compare.plan import check_int, check_level, sort_by_keys
from frameeval.exceptions import DuplicateKeyError, InvalidParameterError, InvalidValueError
from frameeval.uncertainty.intervals import replicate_frame

#: the key of a frame given without ``by=`` (dropped from the result)
ALL = "__fe_all"
#: the weight of an item's contribution (1 for the estimate, a replicate weight otherwise)
W = "__fe_w"
#: the replicate number
B = "__fe_b"


@dataclass
class Ratings:
    """A checked ratings table, split into the frames the statistics read."""

    func: str
    eager: bool
    keys: list[str]  # the user's by= keys
    groups: list[str]  # keys, or [ALL] without by=
    rater: str
    item: str
    rating: str
    unit_is_item: bool  # no cluster=: the unit is the item
    items: pl.LazyFrame  # *groups, item, __fe_unit, __fe_m (non-null ratings), checked
    rows: pl.LazyFrame  # *groups, item, rater, rating: the non-null ratings
    info: pl.LazyFrame  # *groups, n_raters (data checks enforced)
    ci: float | None
    n_resamples: int
    seed: int


#: the columns of a ratings table (the rating's dtype and domain are the statistic's ``rule``)
RATINGS = Inputs(
    Column("rater", "any", "not_null"),
    Column("item", "any", "not_null"),
    Column("rating"),
    Column("by"),
    Column("cluster", "any", "not_null"),
    distinct=True,
)


def open_ratings(
    data: Any,
    func: str,
    rule: Callable[[pl.Schema, Checks], pl.Expr],
    rater: str,
    item: str,
    rating: str,
    by: Any,
    ci: Any,
    n_resamples: Any,
    seed: Any,
    cluster: str | None,
) -> Ratings:
    """Door checks (schema, arguments) and the in-plan data checks of a ratings table (the
    arguments the statistics share, in their order).

    ``rule(schema, checks)`` checks the rating column's dtype (raising at the door), adds its
    data rules (its domain) to ``checks`` and returns the rating as the statistic reads it."""
    lf, eager = to_lazy(data, func)
    keys = as_keys(by)
    schema = lf.collect_schema()
    checks = RATINGS.compile(
        schema, func, rater=rater, item=item, rating=rating, by=keys, cluster=cluster
    )
    value = rule(schema, checks)
    check_not_empty_eager(data, eager, lf, func)
    level = None if ci is None else check_level(ci, func, "ci")
    n_resamples = check_int(n_resamples, func, "n_resamples", 1)
    NUMPY_SEED(func, "seed", seed)
    clash = sorted(set(keys) & set(OUTPUTS))
    check_parameter(not clash, func, f"by= keys must not use output column names, got {clash}.")

    groups = keys or [ALL]
    if not keys:
        lf = lf.with_columns(pl.lit(0, dtype=pl.Int8).alias(ALL))
    given = pl.col(rating).is_not_null()
    info = lf.group_by(groups).agg(
        pl.col(rater).filter(given).n_unique().cast(pl.Int64).alias("n_raters"), *checks.aggs()
    )
    info = checks.enforce(info, groups, one_row=True)

    info = _unique_triples(lf, info, func, keys, groups, item, rater)
    items = _items(lf, func, keys, groups, item, cluster, given)
    rows = lf.filter(given).select(*groups, item, rater, value.alias(rating))
    return Ratings(
        func, eager, keys, groups, rater, item, rating, cluster is None, items, rows, info,
        level, n_resamples, int(seed),
    )  # fmt: skip


def _unique_triples(
    lf: pl.LazyFrame,
    info: pl.LazyFrame,
    func: str,
    keys: list[str],
    groups: list[str],
    item: str,
    rater: str,
) -> pl.LazyFrame:
    """``info`` with the check of one row per (group, item, rater): the repeated triples
    (usually none), summarised per group and checked with the group's other rules."""
    triples = lf.group_by([*groups, item, rater]).agg(pl.len().alias("__fe_rows"))
    repeated = (
        triples.filter(pl.col("__fe_rows") > 1)
        .sort([*groups, item, rater], nulls_last=True)
        .group_by(groups)
        .agg(
            pl.col(item).first().cast(pl.String).alias("__fe_dup_item"),
            pl.col(rater).first().cast(pl.String).alias("__fe_dup_rater"),
        )
    )
    info = info.join(repeated, on=groups, how="left", nulls_equal=True)
    return enforce(
        info,
        failure(
            pl.col("__fe_dup_item").is_not_null(),
            DuplicateKeyError,
            f"{func}(): rows must be unique per {[*keys, item, rater]} (one rating per rater "
            "and item), got rater {} twice for item {}{}.",
            pl.col("__fe_dup_rater"),
            pl.col("__fe_dup_item"),
            group_text(keys),
        ),
    ).drop("__fe_dup_item", "__fe_dup_rater")


def _items(
    lf: pl.LazyFrame,
    func: str,
    keys: list[str],
    groups: list[str],
    item: str,
    cluster: str | None,
    given: pl.Expr,
) -> pl.LazyFrame:
    """Per (group, item): its resampling unit and its number of ratings (an item in one
    cluster)."""
    per_item = [given.sum().cast(pl.Int64).alias("__fe_m")]
    if cluster is not None:
        per_item += [
            pl.col(cluster).n_unique().cast(pl.Int64).alias("__fe_clusters"),
            pl.col(cluster).first().alias("__fe_unit"),
        ]
    items = lf.group_by([*groups, item]).agg(*per_item)
    if cluster is None:
        items = items.with_columns(pl.col(item).alias("__fe_unit"))
    else:
        items = enforce(
            items,
            failure(
                pl.col("__fe_clusters") > 1,
                InvalidValueError,
                f"{func}(): every item must lie in one cluster (cluster={cluster!r}), got "
                "{} clusters for item {}{}.",
                pl.col("__fe_clusters"),
                pl.col(item),
                group_text(keys),
            ),
        )
    return items.select(*groups, item, "__fe_unit", "__fe_m")


OUTPUTS = ("n_items", "n_raters", "ci_low", "ci_high", "rater_a", "rater_b")


def weighted(
    r: Ratings, frame: pl.LazyFrame, replicates: bool, extra: list[str] | None = None
) -> tuple[pl.LazyFrame, list[str]]:
    """``frame`` (one or more rows per item, with ``__fe_unit``) with the weight column ``W``,
    and the columns that now name a group: ``*groups`` for the estimate (weight 1), ``*groups,
    B`` for the replicates (``frame`` repeated per replicate with the unit's Poisson weight).

    ``extra`` are further columns of the rows (e.g. a rater pair) that stay part of the group;
    without ``cluster=`` each of their values is resampled on its own (a rater pair's items,
    for its own κ).

    Replicates: without ``cluster=`` the items of a group whose rows are identical (apart from
    the item's name) contribute identically to every statistic, so each distinct *profile* is
    kept once, with the weight Poisson(number of such items) — the sum of their Poisson(1)
    weights, exactly — as ``replicate_frame`` draws a unit of multiplicity n. The replicate
    table then holds (distinct profiles × replicates) units instead of (items × replicates).
    With ``cluster=`` every cluster is its own unit."""
    extra = extra or []
    if not replicates:
        return frame.with_columns(pl.lit(1.0).alias(W)), [*r.groups, *extra]
    unit = "__fe_unit"
    frame = frame.cache()  # read twice below (the profiles, the kept rows)
    if r.unit_is_item:
        at = [*r.groups, *extra]
        content = [c for c in frame.collect_schema().names() if c not in {*at, r.item, unit}]
        row = pl.struct(content).hash(0)
        profiles = frame.group_by([*at, unit]).agg(row.sort().alias("__fe_sig"))
        profiles = profiles.with_columns(pl.col("__fe_sig").hash(0))
        units = profiles.group_by([*at, "__fe_sig"]).agg(
            pl.len().cast(pl.Int64).alias("__fe_mult"), pl.col(unit).min().alias(unit)
        )
        draws = replicate_frame(
            units, at, ["__fe_sig"], None, r.n_resamples, r.seed, count="__fe_mult"
        )
        kept = frame.join(
            units.select(*at, unit, "__fe_sig"), on=[*at, unit], how="inner", nulls_equal=True
        )
        on = [*at, "__fe_sig"]
    else:
        units = r.items.select(*r.groups, unit).unique()
        draws = replicate_frame(units, r.groups, [unit], None, r.n_resamples, r.seed)
        kept = frame
        on = [*r.groups, unit]
    draws = draws.rename({"__fe_b": B, "__fe_rw": W}).filter(pl.col(W) > 0)
    out = kept.join(draws, on=on, how="inner", nulls_equal=True)
    return out, [*r.groups, *extra, B]


def percentile(
    r: Ratings, reps: pl.LazyFrame, name: str, extra: list[str] | None = None
) -> pl.LazyFrame:
    """``*groups, *extra, ci_low, ci_high``: the percentile interval of the replicates of
    ``name`` (linear interpolation, numpy's default; undefined replicates left out)."""
    assert r.ci is not None
    tail = (1.0 - r.ci) / 2.0
    v = pl.col(name)
    return reps.group_by([*r.groups, *(extra or [])]).agg(
        v.quantile(tail, interpolation="linear").alias("ci_low"),
        v.quantile(1.0 - tail, interpolation="linear").alias("ci_high"),
    )


def category_counts(r: Ratings, least: int) -> pl.LazyFrame:
    """``*groups, item, rating, __fe_n, __fe_unit, __fe_m``: the count of each rating of every
    item with at least ``least`` ratings, beside the item's unit and number of ratings (Float64
    counts)."""
    counts = r.rows.group_by([*r.groups, r.item, r.rating]).agg(
        pl.len().cast(pl.Float64).alias("__fe_n")
    )
    m = pl.col("__fe_m")
    rated = r.items.filter(m >= least).with_columns(m.cast(pl.Float64))
    return counts.join(rated, on=[*r.groups, r.item], how="inner", nulls_equal=True)


def estimates(
    r: Ratings,
    frame: pl.LazyFrame,
    statistic: Callable[[pl.LazyFrame, list[str]], pl.LazyFrame],
    extra: list[str] | None = None,
) -> tuple[pl.LazyFrame, pl.LazyFrame | None]:
    """``statistic(table, groups)`` of ``frame`` as it is (every item weight 1) and, with
    ``ci``, of its bootstrap replicates (see :func:`weighted`)."""
    estimate = statistic(*weighted(r, frame, False, extra))
    return estimate, (statistic(*weighted(r, frame, True, extra)) if r.ci is not None else None)


def finish_result(
    r: Ratings,
    estimate: pl.LazyFrame,
    name: str,
    reps: pl.LazyFrame | None,
    columns: list[str],
    extra: list[str] | None = None,
) -> Any:
    """The result: ``*by, *extra, <name>, *columns, [ci_low, ci_high]`` sorted by the keys,
    with the data checks of ``r.info`` in its plan (a group without items has ``n_items`` 0);
    the same kind as the input."""
    extra = extra or []
    out = r.info.join(estimate, on=r.groups, how="left" if not extra else "inner", nulls_equal=True)
    wanted = [*r.keys, *extra, name, *columns]
    if reps is not None:
        ci = percentile(r, reps, name, extra)
        out = out.join(ci, on=[*r.groups, *extra], how="left", nulls_equal=True)
        wanted += ["ci_low", "ci_high"]
    out = sort_by_keys(out.select(wanted), [*r.keys, *extra])
    return finish(out.with_columns(pl.col("n_items").fill_null(0)), r.eager)


def divide(numerator: pl.Expr, denominator: pl.Expr) -> pl.Expr:
    """numerator / denominator, null when the denominator is 0 (never NaN or inf)."""
    return pl.when(denominator != 0).then(numerator / denominator).cast(pl.Float64)


def bad_level(func: str, name: str, allowed: tuple[Any, ...], value: Any) -> InvalidParameterError:
    return InvalidParameterError(f"{func}(): {name} must be one of {list(allowed)}, got {value!r}.")
