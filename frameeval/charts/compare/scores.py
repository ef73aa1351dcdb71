"""The per-split scores of each learner: box plots of a metric with the values as dots."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import altair as alt
import polars as pl

from frameeval._roles import resolve as resolve_roles
from frameeval.charts import _base as b
from frameeval.charts import _theme as theme
from frameeval.exceptions import InvalidParameterError

__all__ = ["metric_distribution"]


def metric_distribution(
    scores: Any,
    metric: str | None = None,
    *,
    learner: str | None = None,
    color: str | None = None,
    facet: str | Sequence[str] | None = None,
    points: bool = True,
    title: str | None = None,
    width: int | None = None,
    height: int = theme.TALL,
) -> alt.TopLevelMixin:
    """Box plots of a per-fold (or per-data-set) metric for each learner, with the values as dots.

    Parameters
    ----------
    scores
        Long frame ``block/fold…, learner, <metric>``: one row per learner and evaluation split.
    metric
        The numeric column to show; default the only float column of the frame.
    learner
        Learner column (x axis).
    color
        Column coloured by; default ``learner``.
    facet
        Key column(s) giving one panel each (e.g. ``"dataset"``).
    points
        Overlay the individual values (deterministically jittered) with tooltips of every column.
    title, width, height
        Title and panel size in pixels (width defaults to 70 px per learner).

    Returns
    -------
    alt.LayerChart or alt.FacetChart

    Notes
    -----
    The box is Vega-Lite's: quartiles, whiskers to the furthest value within 1.5 IQR. Learners
    are ordered by the median of their values (all panels together), highest first; long names
    are angled. It is a picture of the given values; comparisons between learners are the tests of ``fe.compare``.

    Examples
    --------
    >>> scores = pl.DataFrame({"fold": [0, 1, 0, 1], "learner": ["A", "A", "B", "B"],
    ...                        "accuracy": [0.8, 0.9, 0.7, 0.75]})
    >>> [layer["mark"]["type"] for layer in
    ...  fe.charts.metric_distribution(scores).to_dict()["layer"]]
    ['boxplot', 'point']
    """
    func = "metric_distribution"
    (learner,) = resolve_roles(scores, func, [metric, color, facet], learner=learner)
    lf = b.lazy(scores, func)
    schema = lf.collect_schema()
    metric = _metric_column(schema, metric, func)
    b.columns(lf, func, numeric={"metric": metric}, learner=learner)
    facets = b.facet_columns(facet, schema, func)
    color = color or learner
    b.check_plotted(schema, func, color=color)
    df = b.gather(lf, func, "scores=")
    # golden-ratio jitter: deterministic, spreads points evenly across the band
    df = df.with_columns(
        (((pl.int_range(pl.len()).over(learner) + 1) * 0.6180339887) % 1.0 - 0.5).alias(
            "__fe_jitter"
        )
    )
    data, panel = b.add_facet(b.sanitize(df), facets)
    # learners by median over all values shown, best (highest) first: an explicit order (layout,
    # not a statistic), since Vega-Lite drops a sort by field on layered marks with a warning
    learners = b.ordered_by(data, learner, pl.col(metric).median(), descending=True)
    panel_width = width or max(160, 70 * len(learners))
    x = alt.X(
        field=b.field(learner),
        type="nominal",
        sort=learners,
        axis=b.band_axis(learner, learners, panel_width / max(len(learners), 1)),
    )
    y = alt.Y(
        field=b.field(metric),
        type="quantitative",
        scale=alt.Scale(zero=False),
        axis=theme.axis(metric),
    )
    col = b.color_encoding(color, color, data)
    layers = [
        alt.Chart()
        .mark_boxplot(
            opacity=0.35,
            size=max(6, min(38, int(0.6 * panel_width / max(len(learners), 1)))),
            median={"color": theme.INK},
            outliers=False,
        )
        .encode(x=x, y=y, color=col)
    ]
    if points:
        others = [c for c in df.columns if c not in {learner, metric, "__fe_jitter"}]
        tips = [*b.key_tooltips([learner, *others]), b.tooltip(metric, "quantitative", ".4f")]
        layers.append(_jittered(x, y, col, tips))
    subtitle = (
        "box: quartiles and 1.5 IQR whiskers; dots: the individual values; "
        "learners by median, best first"
    )
    return b.panels(
        layers, data, panel, title or f"{metric} per learner", subtitle, panel_width, height,
        panel_width=panel_width,
    )  # fmt: skip


def _metric_column(schema: pl.Schema, metric: str | None, func: str) -> str:
    """``metric=``, else the frame's one float column."""
    if metric is not None:
        return metric
    floats = [n for n, t in schema.items() if t.is_float()]
    if len(floats) != 1:
        raise InvalidParameterError(
            f"{func}(): metric= must name the column to show when the frame does not have "
            f"exactly one float column, got float columns {floats}."
        )
    return floats[0]


def _jittered(x: alt.X, y: alt.Y, color: alt.Color, tips: list[Any]) -> alt.Chart:
    """The individual values as dots, spread across the band by ``__fe_jitter``."""
    offset = alt.XOffset(
        field="__fe_jitter", type="quantitative", scale=alt.Scale(domain=[-1.2, 1.2])
    )
    return (
        alt.Chart()
        .mark_point(filled=True, size=28, opacity=0.85)
        .encode(x=x, y=y, xOffset=offset, color=color, tooltip=tips)
    )
