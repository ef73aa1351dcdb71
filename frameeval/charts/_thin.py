"""Thinning of large curves before drawing.

A ROC or P-R curve has one vertex per distinct score, so a group with 200,000 predictions can yield
200,000 vertices: far more than a 320-pixel plot can show, above Altair's 5,000-row limit and
several megabytes of JSON. :func:`thin_curve` keeps the rows that determine the drawing, per
group, in Polars (no Python loop over groups or rows). The rule, in order:

1. **Exact (lossless) pass.** Sort each group along its path; drop a vertex that repeats the
   previous one, and an interior vertex that lies on the straight line through its neighbours
   *and* continues in the same direction (|cross product| ≤ 1e-9·|a|·|b| and a positive dot
   product of the two edge vectors a, b). The drawn polyline is unchanged: on a ROC staircase only
   the corners remain, on a run of tied scores only the ends of the diagonal step.
2. **Pixel pass, only for groups still above their budget.** The budget of a group is
   ``max_points // n_groups`` (at least 16 while ``16 · n_groups ≤ max_points``, else at least 4,
   so that the total stays within the budget up to ``max_points / 4`` groups). Its x range is cut into ``budget // 4`` equal bins
   and within each bin the first, last, lowest and highest vertex are kept (the M4 rule of Jugel
   et al., "M4: a visualization-oriented time series data aggregation", VLDB 2014); where
   several vertices share the lowest or highest y, the first along the path is kept, so the
   same curve always thins to the same rows. The vertical
   extremes of every bin are kept exactly and no vertex moves; a dropped vertex is within one bin
   width (≤ 1/(budget/4) of the x range, below a pixel at the default sizes) of the kept path.
   The exact pass then runs once more on what remains.

The first and last vertex of every group are always kept. Curves whose x is monotone along the
path (ROC: fpr; P-R: recall; the cost envelope: p_cost) are drawn faithfully by this rule.
Thinning selects rows, so every other column (threshold, keys) survives for tooltips.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

#: Row budget of a chart's data. Altair refuses more than 5,000 rows per data set; the rest of the
#: budget is left to annotations and other layers that share the data set.
MAX_ROWS = 4000
#: No group is thinned below this many vertices, however many groups share the budget.
MIN_POINTS = 16

_I = "__fe_i"
_N = "__fe_n"
_BUDGET = "__fe_budget"
_BIN = "__fe_bin"
ORDER = "__fe_order"


def _over(expr: pl.Expr, by: Sequence[str]) -> pl.Expr:
    return expr.over(list(by)) if by else expr


def _drop_duplicates(lf: pl.LazyFrame, x: str, y: str, by: Sequence[str]) -> pl.LazyFrame:
    same = (pl.col(x) == _over(pl.col(x).shift(1), by)) & (
        pl.col(y) == _over(pl.col(y).shift(1), by)
    )
    return lf.filter(~same.fill_null(False))


def _drop_collinear(lf: pl.LazyFrame, x: str, y: str, by: Sequence[str]) -> pl.LazyFrame:
    """Drop interior vertices on the line through their neighbours, continuing in one direction.

    Consecutive duplicates must be gone first: with distinct consecutive vertices, any run of
    dropped vertices lies on one line between the kept ends, so dropping them all at once is exact.
    """
    ax = pl.col(x) - _over(pl.col(x).shift(1), by)
    ay = pl.col(y) - _over(pl.col(y).shift(1), by)
    bx = _over(pl.col(x).shift(-1), by) - pl.col(x)
    by_ = _over(pl.col(y).shift(-1), by) - pl.col(y)
    cross = ax * by_ - ay * bx
    dot = ax * bx + ay * by_
    scale = (ax * ax + ay * ay).sqrt() * (bx * bx + by_ * by_).sqrt()
    collinear = (cross.abs() <= 1e-9 * scale) & (dot > 0)
    return lf.filter(~collinear.fill_null(False))


def thin_curve(
    lf: pl.LazyFrame,
    x: str,
    y: str,
    *,
    by: Sequence[str],
    order: Sequence[str],
    descending: Sequence[bool],
    max_points: int = MAX_ROWS,
    exact: bool = True,
) -> pl.LazyFrame:
    """The rows of ``lf`` that draw each group's curve, in path order, with an ``ORDER`` column.

    ``order``/``descending`` sort each group along its path. ``exact=False`` skips the lossless
    pass (for data whose every row is meant to be drawn unless the budget is exceeded, such as the
    fan of cost lines). The result is sorted by ``by`` and the path; ``ORDER`` numbers the kept
    rows of each group from 0.
    """
    by = list(by)
    lf = lf.sort(
        [*by, *order],
        descending=[False] * len(by) + list(descending),
        nulls_last=True,
        maintain_order=True,
    )
    if exact:
        lf = _drop_collinear(_drop_duplicates(lf, x, y, by), x, y, by)
    n_groups = pl.struct(by).n_unique().cast(pl.Int64) if by else pl.lit(1, pl.Int64)
    share = pl.lit(max_points, pl.Int64) // n_groups
    # the floor applies while the groups can all have it; past that the budget rules (so the
    # chart's data stays under Altair's row limit), with at least a group's ends and extremes
    floor = pl.when(n_groups * MIN_POINTS <= max_points).then(pl.lit(MIN_POINTS)).otherwise(4)
    budget = pl.max_horizontal(share, floor)
    lf = lf.with_columns(
        _over(pl.int_range(pl.len(), dtype=pl.Int64), by).alias(_I),
        _over(pl.len().cast(pl.Int64), by).alias(_N),
        budget.alias(_BUDGET),
    )
    n_bins = (pl.col(_BUDGET) // 4).clip(lower_bound=1)
    low = _over(pl.col(x).min(), by)
    span = _over(pl.col(x).max(), by) - low
    position = pl.when(span > 0).then((pl.col(x) - low) / span).otherwise(0.0)
    lf = lf.with_columns(
        (position * n_bins).floor().clip(upper_bound=n_bins - 1).cast(pl.Int64).alias(_BIN)
    )
    cell = [*by, _BIN]
    index = pl.col(_I)
    keep = (
        (pl.col(_N) <= pl.col(_BUDGET))
        | (index == index.min().over(cell))
        | (index == index.max().over(cell))
        | (index == index.sort_by(y, nulls_last=True, maintain_order=True).first().over(cell))
        | (
            index
            == index.sort_by(y, descending=True, nulls_last=True, maintain_order=True)
            .first()
            .over(cell)
        )
    )
    lf = lf.filter(keep.fill_null(True))
    if exact:
        lf = _drop_collinear(lf, x, y, by)
    return lf.drop(_I, _N, _BUDGET, _BIN).with_columns(
        _over(pl.int_range(pl.len(), dtype=pl.Int64), by).alias(ORDER)
    )
