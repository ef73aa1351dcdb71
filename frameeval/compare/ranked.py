"""The ranked block × learner cells every rank-based test starts from (Friedman and the omnibus
tests beyond it, their post-hoc comparisons, the rank table): the ranks within blocks, the rank
sums per learner and the design checks (k ≥ 2 learners, N ≥ 2 blocks)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import polars as pl

from frameeval._inputs import check_names
from frameeval._typing import IntoFrame, Keys
from frameeval._validate import enforce, failure, group_text
from frameeval.compare.cells import Long, cells
from frameeval.compare.door import check_outputs, open_frame, resolve_direction
from frameeval.compare.plan import agg_by_keys, at_least, join_on_keys
from frameeval.compare.precision import RANK_DIGITS, check_digits, rounded
from frameeval.exceptions import InsufficientDataError


class RankInput(NamedTuple):
    """The call of a rank-based test: its data, its name, the metric and its block and learner
    columns, the ``by=`` keys as given and the direction as given."""

    data: IntoFrame
    func: str
    metric: str
    block: str
    learner: str
    by: Keys
    higher_is_better: bool | None


def ranked_cells(
    given: RankInput,
    outputs: Sequence[str],
    *,
    complete: bool = True,
    digits: int | None = RANK_DIGITS,
    round_values: bool = True,
) -> tuple[pl.LazyFrame, bool, list[str], bool, pl.Schema]:
    """``*keys, <block>, <learner>, __value, rank`` (within-block rank, 1 = best, ties get the
    mean rank), the eager flag, the keys, the direction and the schema; with ``complete=False``
    missing (block, learner) cells are allowed. What is ranked is the metric rounded to
    ``digits`` significant digits (:func:`rounded`); ``__value`` is that rounded value too
    unless ``round_values=False`` (the rank table shows the values as given)."""
    data, func, metric, block, learner, by, higher_is_better = given
    digits = check_digits(digits, func)
    check_names(func, "metric", metric, required=True)  # before it is read as an output name
    lf, eager, keys, schema = open_frame(data, func, by)
    check_outputs(func, keys, outputs, block=block, learner=learner)
    hib = resolve_direction(func, metric, higher_is_better)
    cell = cells(Long(lf, schema, func, keys, block, learner, metric), complete=complete)
    value = rounded(pl.col("__value"), digits)
    if round_values:
        cell, value = cell.with_columns(value), pl.col("__value")
    rank = value.rank("average", descending=hib).over([*keys, block])
    return cell.with_columns(rank.cast(pl.Float64).alias("rank")), eager, keys, hib, schema


def rank_sums(ranks: pl.LazyFrame, keys: list[str], learner: str) -> pl.LazyFrame:
    """``*keys, <learner>, __rank_sum, n_blocks, average_rank`` per learner."""
    return ranks.group_by(*keys, learner).agg(
        pl.col("rank").sum().alias("__rank_sum"),
        pl.len().cast(pl.Int64).alias("n_blocks"),
        pl.col("rank").mean().alias("average_rank"),
    )


def group_design(cell: pl.LazyFrame, keys: list[str], block: str, learner: str) -> pl.LazyFrame:
    """``*keys, n_learners, n_blocks, __cells`` per group."""
    out = agg_by_keys(
        cell,
        keys,
        [
            pl.col(learner).n_unique().cast(pl.Int64).alias("n_learners"),
            pl.col(block).n_unique().cast(pl.Int64).alias("n_blocks"),
            pl.len().cast(pl.Int64).alias("__cells"),
        ],
    )
    return out if keys else out.filter(pl.col("__cells") > 0)


def check_design(summary: pl.LazyFrame, func: str, keys: list[str], block: str) -> pl.LazyFrame:
    """k ≥ 2 learners and N ≥ 2 blocks per group (columns ``n_learners``, ``n_blocks``)."""
    return enforce(
        summary,
        at_least("n_learners", 2, func, "learners", keys),
        at_least("n_blocks", 2, func, f"blocks ({block!r})", keys),
    )


def control_present(
    design: pl.LazyFrame, per: pl.LazyFrame, keys: list[str], func: str, learner: str, control: Any
) -> pl.LazyFrame:
    """``design`` with the in-plan check that every group has values of the ``control`` (``per``:
    one row per group × learner)."""
    has = agg_by_keys(per, keys, [(pl.col(learner) == pl.lit(control)).any().alias("__has")])
    return enforce(
        join_on_keys(design, has, keys),
        failure(
            ~pl.col("__has"),
            InsufficientDataError,
            f"{func}(): the control learner {control!r} must have values, got none{{}}.",
            group_text(keys),
        ),
    ).drop("__has")


def learner_pairs(
    per: pl.LazyFrame, keys: list[str], sides: Mapping[str, tuple[str, str]], control: Any
) -> pl.LazyFrame:
    """The compared pairs of ``per`` (one row per group × learner): every pair a < b, or every
    learner a against the ``control`` b; each column of ``sides`` (the learner column first,
    named ``a``/``b``) under its a-side and b-side names."""
    left = per.select(*keys, *(pl.col(c).alias(a) for c, (a, _) in sides.items()))
    right = per.select(*keys, *(pl.col(c).alias(b) for c, (_, b) in sides.items()))
    pairs = join_on_keys(left, right, keys)
    if control is None:
        return pairs.filter(pl.col("a") < pl.col("b"))
    return pairs.filter((pl.col("b") == pl.lit(control)) & (pl.col("a") != pl.lit(control)))
