"""The rank of every learner on every block as a heatmap (Table 2.5 as a picture)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import altair as alt
import polars as pl

from frameeval._frame import as_keys
from frameeval._roles import resolve as resolve_roles
from frameeval.charts import _base as b
from frameeval.charts import _theme as theme

__all__ = ["rank_heatmap"]


def rank_heatmap(
    ranks: Any,
    average: Any = None,
    *,
    learner: str | None = None,
    rank: str = "rank",
    block: str | Sequence[str] | None = None,
    facet: str | Sequence[str] | None = None,
    title: str | None = "Ranks per block",
    width: int | None = None,
    height: int | None = None,
) -> alt.TopLevelMixin:
    """Heatmap of the rank of every learner on every block (Table 2.5 as a picture).

    Parameters
    ----------
    ranks
        Output of ``fe.rank_table``: ``*block, learner, rank`` (rank 1 = best on the block; ties
        share the mean rank).
    average
        Optional output of ``fe.average_ranks`` (``learner, average_rank``, joined on the shared
        keys): drawn as a last row "average rank", like the table's bottom line.
    learner, rank
        Column names.
    block
        Block column(s) (data sets or folds), rows of the heatmap; default every column other
        than ``learner``, ``rank`` and ``facet`` that is not a float (``fe.rank_table`` also
        returns the metric itself, which is shown in the tooltip). Several are combined into one
        label.
    facet, title, width, height
        Panels, title and size in pixels (default 56 px per learner up to a width that fits a
        1,100 px page, 24 px per block); long learner names are angled.

    Returns
    -------
    alt.LayerChart or alt.FacetChart

    Notes
    -----
    Learners are ordered left to right by their mean rank over the blocks shown (a sort order
    computed by Vega-Lite; no value is recomputed). Darker = better rank.

    Examples
    --------
    >>> ranks = pl.DataFrame({"dataset": ["D1", "D1", "D2", "D2"], "learner": ["A", "B"] * 2,
    ...                       "rank": [1.0, 2.0, 1.5, 1.5]})
    >>> [layer["mark"]["type"] for layer in fe.charts.rank_heatmap(ranks).to_dict()["layer"]]
    ['rect', 'text']
    """
    func = "rank_heatmap"
    (learner,) = resolve_roles(ranks, func, [rank, block, facet], learner=learner)
    lf = b.lazy(ranks, func)
    schema = b.columns(lf, func, numeric={"rank": rank}, learner=learner)
    facets = b.facet_columns(facet, schema, func)
    blocks = (
        as_keys(block)
        if block is not None
        else [
            c
            for c in schema.names()
            if c not in {learner, rank, *facets} and not schema[c].is_float()
        ]
    )
    values = [c for c in schema.names() if c not in {learner, rank, *facets, *blocks}]
    b.check_plotted(schema, func, block=blocks)
    df = b.gather(lf, func, "ranks=")
    row = "__fe_block"
    df = df.with_columns(
        pl.concat_str([b.as_text(c) for c in blocks], separator=" · ").alias(row)
        if blocks
        else pl.lit("").alias(row)
    )
    block_order = (
        df.sort(blocks or row, nulls_last=True)
        .get_column(row)
        .unique(maintain_order=True)
        .to_list()
    )
    df = df.with_columns(pl.col(rank).cast(pl.Float64).alias("__fe_value"))
    if average is not None:
        df = pl.concat([df, _average_row(average, learner, row, func)], how="diagonal_relaxed")
        block_order.append("average rank")
    k = df.get_column(learner).n_unique()
    df = df.with_columns((pl.col("__fe_value") <= (k + 1) / 2).alias("__fe_dark"))
    data, panel = b.add_facet(b.sanitize(df), facets)
    # learners by their mean rank over the blocks shown (layout): an explicit order, as a sort
    # by field on the layered rect + text would be dropped by Vega-Lite ("unioned domains")
    shown = data.filter(pl.col(row) != "average rank") if average is not None else data
    order = b.ordered_by(shown, learner, pl.col("__fe_value").mean())
    # 56 px per learner, narrower when many learners would not fit next to the block labels
    # and the legend on a 1,100 px page
    panel_width = width or max(160, min(56 * k, theme.PAGE - theme.LEGEND - 150))
    x = alt.X(
        field=b.field(learner),
        type="nominal",
        sort=order,
        axis=b.band_axis(learner, order, panel_width / max(k, 1), orient="top"),
    )
    y = alt.Y(
        field=row, type="nominal", sort=block_order, axis=theme.axis(" · ".join(blocks) or None)
    )
    tips = [
        *b.key_tooltips(facets),
        b.tooltip(row, label=" · ".join(blocks) or "block"),
        b.tooltip(learner),
        b.tooltip("__fe_value", "quantitative", ".3~f", "rank"),
        *[b.tooltip(c, "quantitative", ".4~g") for c in values if schema[c].is_numeric()],
    ]
    color = b.value_color("__fe_value", "rank", reverse=True, domain=[1, k])
    text = alt.Text(field="__fe_value", type="quantitative", format=".3~f")
    layers = [b.cell_rect(x, y, color, tips), b.cell_text(x, y, text)]
    subtitle = "rank 1 = best; learners ordered by mean rank"
    height = height or max(60, 24 * len(block_order))
    return b.panels(
        layers, data, panel, title, subtitle, panel_width, height, panel_width=panel_width
    )


def _average_row(average: Any, learner: str, row: str, func: str) -> pl.DataFrame:
    """The average ranks as one more row of the heatmap, "average rank"."""
    alf = b.lazy(average, func)
    b.columns(alf, func, numeric={"average_rank": "average_rank"}, learner=learner)
    return b.gather(alf, func, "average=").with_columns(
        pl.lit("average rank").alias(row),
        pl.col("average_rank").cast(pl.Float64).alias("__fe_value"),
    )
