"""The leaderboard of an item-level study: :func:`leaderboard` draws the frame of
:func:`frameeval.items.leaderboard` as it is (nothing is recomputed)."""

from __future__ import annotations

from typing import Any

import altair as alt
import polars as pl

from frameeval.charts import _base as b
from frameeval.charts import _theme as theme
from frameeval.items.leaderboard import COLUMNS

__all__ = ["leaderboard"]


def leaderboard(board: Any, *, model: str = "model", width: int = 420) -> alt.FacetChart:
    """Each model's mean with its interval, one panel per benchmark, models in leaderboard order
    and coloured by tie group.

    Parameters
    ----------
    board
        The output of :func:`frameeval.items.leaderboard` (DataFrame or LazyFrame): ``model``,
        ``mean``, ``ci_low``, ``ci_high``, ``position``, ``rank``, ``rank_low``,
        ``rank_high``, ``tie_group`` and any key columns (each key combination a panel).
    model
        The model column.
    width
        Width of a panel in pixels.

    Returns
    -------
    An Altair chart: a rule from ``ci_low`` to ``ci_high`` and a point at ``mean`` per model
    (y, sorted by ``position``), colour = ``tie_group``; a tooltip with the rank and its
    interval. Faceted by the key columns (one row of panels per benchmark).

    Examples
    --------
    >>> board = pl.DataFrame({"model": ["a", "b"], "mean": [0.8, 0.6], "ci_low": [0.7, 0.5],
    ...     "ci_high": [0.9, 0.7], "position": [1, 2], "rank": [1, 2], "rank_low": [1, 2],
    ...     "rank_high": [1, 2], "tie_group": [1, 2]})
    >>> spec = fe.charts.leaderboard(board).to_dict()
    >>> spec["spec"]["layer"][0]["mark"]["type"]
    'rule'
    """
    func = "leaderboard"
    lf = b.lazy(board, func)
    b.columns(lf, func, model=model)
    df = b.gather(lf, func)
    keys = [c for c in df.columns if c not in COLUMNS and c != model]
    facet = "__fe_panel"
    label = (
        pl.concat_str([pl.col(k).cast(pl.String) for k in keys], separator=" · ")
        if keys
        else pl.lit("all items")
    )
    df = df.with_columns(
        label.alias(facet),
        pl.col(model).cast(pl.String).alias("__fe_model"),
        pl.format("{} [{}, {}]", pl.col("rank"), pl.col("rank_low"), pl.col("rank_high")).alias(
            "__fe_rank"
        ),
    )
    y = alt.Y("__fe_model:N", sort=alt.EncodingSortField("position", order="ascending"), title=None)
    color = alt.Color("tie_group:O", title="tie group", scale=alt.Scale(scheme="category10"))
    tips = [
        alt.Tooltip("__fe_model:N", title="model"),
        alt.Tooltip("mean:Q", format=".3f"),
        alt.Tooltip("ci_low:Q", format=".3f", title="low"),
        alt.Tooltip("ci_high:Q", format=".3f", title="high"),
        alt.Tooltip("__fe_rank:N", title="rank [interval]"),
    ]
    base = alt.Chart().encode(y=y, color=color, tooltip=tips)
    rule = base.mark_rule(strokeWidth=2).encode(
        x=alt.X("ci_low:Q", title="mean score (interval)", scale=alt.Scale(zero=False)),
        x2="ci_high:Q",
    )
    point = base.mark_point(filled=True, size=60, color=theme.INK).encode(x="mean:Q")
    return (
        alt.layer(rule, point, data=b.sanitize(df))
        .properties(width=width)
        .facet(row=alt.Row(f"{facet}:N", title=None))
        .resolve_scale(y="independent")
    )
