"""The subgroup gap chart: each group's value with its interval and the overall line.

Draws the frames of :mod:`frameeval.subgroups` as they are: ``fe.subgroups.by_group`` (with
``ci=`` for the intervals) and, for the overall line, ``fe.subgroups.gaps``. Nothing is
recomputed.
"""

from __future__ import annotations

from typing import Any

import altair as alt
import polars as pl

from frameeval.charts import _base as b
from frameeval.charts import _theme as theme
from frameeval.exceptions import InvalidParameterError

__all__ = ["subgroup_gaps"]

#: columns of ``by_group`` that are values, not keys
_VALUES = {"measure", "value", "low", "high", "n", "undefined"}
_GROUP = "__fe_group"


def subgroup_gaps(
    values: Any,
    gaps: Any = None,
    *,
    sensitive: str | list[str],
    color: str | None = None,
    title: str | None = None,
    width: int = theme.WIDE,
) -> alt.TopLevelMixin:
    """Each group's value (a point, its interval a bar) per measure, with the overall value
    as a dashed line: how far apart the groups are and how sure that is.

    Parameters
    ----------
    values
        Output of ``fe.subgroups.by_group`` (``*by, *sensitive, measure, value, [low, high,]
        n, undefined``); DataFrame or LazyFrame (collected here). An undefined value is
        not drawn.
    gaps
        Optional output of ``fe.subgroups.gaps`` on the same data: its ``overall`` is drawn
        as a vertical dashed rule per measure (and per ``color`` key).
    sensitive
        The sensitive column(s) of ``values`` (the groups on the y axis; several are joined
        "F · old").
    color
        A ``by`` key coloured by (e.g. ``"model"``); default none.
    title, width
        Title and panel width.

    Returns
    -------
    alt.FacetChart: one panel per measure (independent x scales).

    Examples
    --------
    >>> from frameeval.charts import subgroup_gaps
    >>> v = pl.DataFrame({"sex": ["F", "M"], "measure": ["recall"] * 2, "value": [0.5, 1.0],
    ...                   "low": [0.1, 0.3], "high": [0.9, 1.0], "n": [3, 3],
    ...                   "undefined": [False, False]})
    >>> spec = subgroup_gaps(v, sensitive="sex").to_dict()
    >>> [layer["mark"]["type"] for layer in spec["spec"]["layer"]]
    ['rule', 'point']
    """
    func = "subgroup_gaps"
    lf = b.lazy(values, func)
    groups = [sensitive] if isinstance(sensitive, str) else list(sensitive)
    schema = b.columns(lf, func, numeric={"value": "value"})
    missing = [g for g in [*groups, "measure"] if g not in schema.names()]
    if missing:
        raise InvalidParameterError(
            f"{func}(): values must hold the sensitive= columns and 'measure' (the output of "
            f"fe.subgroups.by_group), got no {missing}; columns: {schema.names()}."
        )
    keys = [c for c in schema.names() if c not in _VALUES and c not in groups]
    if color is not None and color not in keys:
        raise InvalidParameterError(
            f"{func}(): color= must name a by= key of values (one of {keys}), got {color!r}."
        )
    df = b.gather(lf, func, "values=").filter(pl.col("value").is_not_null())
    label = pl.concat_str([b.as_text(g) for g in groups], separator=" · ")
    df = df.with_columns(label.alias(_GROUP))
    order = list(dict.fromkeys(df.get_column(_GROUP).to_list()))
    interval = "low" in df.columns and "high" in df.columns
    y = alt.Y(field=_GROUP, type="nominal", sort=order, axis=theme.axis(" · ".join(groups)))
    x_axis = theme.axis("value in the group" + (" and interval" if interval else ""), tickCount=6)
    scale = alt.Scale(zero=False)
    colors, ink = b.key_colors(color, b.sanitize(df))
    tips = _tips([*keys, *groups], interval)
    offset: dict[str, Any] = {"yOffset": alt.YOffset(field=color)} if color else {}
    enc = {"y": y, "tooltip": tips, **colors, **offset}
    valid = alt.Chart().transform_filter("isValid(datum.value)")
    fields = ("value", "low", "high")
    layers = b.interval_marks(valid, fields, x_axis, scale, ink, interval=interval, **enc)
    data = b.sanitize(df)
    if gaps is not None:
        lines, on = _overall(gaps, keys, func)
        data = pl.concat([data, b.sanitize(lines)], how="diagonal_relaxed")
        layers.append(_overall_rule(on, scale, colors))
    chart = alt.layer(*layers).properties(width=width, height=max(60, 26 * len(order)))
    return alt.FacetChart(
        data=data,
        spec=chart,
        facet=alt.Facet(field="measure", type="nominal", header=theme.header(), title=None),
        columns=1,
        title=theme.title(title or "Each group's value and the overall value"),
        resolve=alt.Resolve(scale=alt.ScaleResolveMap(x="independent")),
    )


def _tips(keys: list[str], interval: bool) -> list[Any]:
    bounds = ("low", "high") if interval else ()
    return [
        *b.key_tooltips(keys),
        b.tooltip("measure"),
        b.tooltip("value", "quantitative", ".4f"),
        *[b.tooltip(c, "quantitative", ".4f") for c in bounds],
        b.tooltip("n", "quantitative", ","),
    ]


def _overall(gaps: Any, keys: list[str], func: str) -> tuple[pl.DataFrame, list[str]]:
    """The overall value of each measure (and key) from the gaps frame."""
    lines = b.gather(b.lazy(gaps, func), func, "gaps=")
    on = [k for k in keys if k in lines.columns]
    return lines.select(*on, "measure", "overall").filter(pl.col("overall").is_not_null()), on


def _overall_rule(on: list[str], scale: Any, colors: dict[str, Any]) -> Any:
    """A dashed rule at the overall value."""

    guide: dict[str, Any] = {} if colors else {"color": theme.GUIDE}
    return (
        alt.Chart()
        .transform_filter("isValid(datum.overall)")
        .mark_rule(strokeDash=[4, 3], **guide)
        .encode(
            x=alt.X(field="overall", type="quantitative", scale=scale),
            tooltip=[*b.key_tooltips(on), b.tooltip("overall", "quantitative", ".4f")],
            **colors,
        )
    )
