"""Ranking charts of the targeting kind: cumulative gains, lift and the KS separation chart."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import altair as alt
import polars as pl

from frameeval.charts import _base as b
from frameeval.charts import _theme as theme
from frameeval.charts._thin import MAX_ROWS, ORDER, thin_curve

#: Per chart: the y column and its title, the guide's y at x = 0 and 1, its scale, the subtitle.
_LINES = {
    "gains": (
        "gain",
        "Share of positives found (gain)",
        [0.0, 1.0],
        b.UNIT,
        "dashed: random targeting",
    ),
    "lift": (
        "lift",
        "Lift (precision / base rate)",
        [1.0, 1.0],
        alt.Scale(zero=True),
        "dashed: random targeting (lift 1)",
    ),
}


def _line_chart(
    func: str,
    curve: Any,
    by: str | Sequence[str] | None,
    color: str | None,
    facet: str | Sequence[str] | None,
    title: str | None,
    width: int,
    height: int,
    max_points: int,
) -> alt.TopLevelMixin:
    y, y_title, guide_y, y_scale, subtitle = _LINES[func]
    numeric = {"fraction": "fraction", y: y}
    k = b.keyed(curve, func, numeric, {"threshold", *numeric}, by, facet, color)
    keys, facets, color = k.keys, k.facets, k.color
    drawn = k.lf.filter(pl.col(y).is_not_null())
    df = b.curve_rows(k, "fraction", y, ["fraction"], [False], max_points, func, drawn)
    data, panel = b.add_facet(df, facets)
    tips = b.curve_tips(k, ("fraction", "share targeted"), (y, y_title))
    encoding: dict[str, Any] = b.details(keys, [color, *facets])
    encoding["color"] = b.key_color(color, data)
    x = alt.X(
        field="fraction",
        type="quantitative",
        scale=b.UNIT,
        axis=theme.axis("Share of rows targeted (highest scores first)"),
    )
    line = b.hover_line().encode(
        x=x,
        y=alt.Y(field=y, type="quantitative", scale=y_scale, axis=theme.axis(y_title)),
        order=alt.Order(field=ORDER, type="quantitative"),
        tooltip=tips,
        **encoding,
    )
    reference = b.guide_line([5, 4], b.UNIT, frame=pl.DataFrame({"x": [0.0, 1.0], "y": guide_y}))
    return b.panels(
        [reference, line], data, panel, title, subtitle, width, height,
        panel_width=width, legend=color is not None,
    )  # fmt: skip


def gains(
    curve: Any,
    *,
    by: str | Sequence[str] | None = None,
    color: str | None = None,
    facet: str | Sequence[str] | None = None,
    title: str | None = "Cumulative gains",
    width: int = theme.SQUARE,
    height: int = theme.SQUARE,
    max_points: int = MAX_ROWS,
) -> alt.TopLevelMixin:
    """Cumulative gains curves with the random-targeting diagonal.

    Parameters
    ----------
    curve
        Output of ``fe.gains_curve``: ``*by, threshold, fraction, gain``.
    by, color, facet, title, width, height, max_points
        As in :func:`frameeval.charts.roc`.

    Returns
    -------
    alt.LayerChart or alt.FacetChart

    Notes
    -----
    x: the share of rows targeted, highest scores first; y: the share of all positives found
    (the TPR, eq 2.18). The dashed diagonal is random targeting. Nothing is recomputed.

    Examples
    --------
    >>> df = fe.datasets.binary_scores()
    >>> chart = fe.charts.gains(fe.gains_curve(df, "y", "s"))
    >>> [layer["mark"]["type"] for layer in chart.to_dict()["layer"]]
    ['line', 'line']
    """
    return _line_chart("gains", curve, by, color, facet, title, width, height, max_points)


def lift(
    curve: Any,
    *,
    by: str | Sequence[str] | None = None,
    color: str | None = None,
    facet: str | Sequence[str] | None = None,
    title: str | None = "Lift",
    width: int = theme.SQUARE,
    height: int = theme.SQUARE,
    max_points: int = MAX_ROWS,
) -> alt.TopLevelMixin:
    """Lift curves with the random-targeting level 1.

    Parameters
    ----------
    curve
        Output of ``fe.lift_curve``: ``*by, threshold, fraction, lift``.
    by, color, facet, title, width, height, max_points
        As in :func:`frameeval.charts.roc`.

    Returns
    -------
    alt.LayerChart or alt.FacetChart

    Notes
    -----
    x: the share of rows targeted; y: the lift, precision of the targeted rows over the base
    rate. The dashed line at 1 is random targeting. Nothing is recomputed.

    Examples
    --------
    >>> df = fe.datasets.binary_scores()
    >>> chart = fe.charts.lift(fe.lift_curve(df, "y", "s"))
    >>> chart.to_dict()["layer"][1]["encoding"]["y"]["field"]
    'lift'
    """
    return _line_chart("lift", curve, by, color, facet, title, width, height, max_points)


def ks(
    curve: Any,
    statistic: Any = None,
    *,
    by: str | Sequence[str] | None = None,
    facet: str | Sequence[str] | None = None,
    title: str | None = "Kolmogorov–Smirnov separation",
    width: int = theme.WIDE,
    height: int = theme.TALL,
    max_points: int = MAX_ROWS,
) -> alt.TopLevelMixin:
    """The share of positives and of negatives scored at or above each threshold, with the KS
    gap marked.

    Parameters
    ----------
    curve
        Output of ``fe.roc_curve``: ``*by, threshold, fpr, tpr``.
    statistic
        Optional output of ``fe.ks_statistic`` (``*by, ks, threshold``) on the same keys: a
        vertical rule at its threshold, labelled with the KS value.
    by
        Key columns of ``curve``; by default every column other than ``threshold, fpr, tpr``.
    facet
        Panel column(s); default all keys (the colour tells positives from negatives).
    title, width, height, max_points
        As in :func:`frameeval.charts.roc`.

    Returns
    -------
    alt.LayerChart or alt.FacetChart

    Notes
    -----
    The two lines are 1 − F⁺ and 1 − F⁻ (TPR and FPR) against the threshold; the widest
    vertical gap between them is the KS statistic. Nothing is recomputed.

    Examples
    --------
    >>> df = fe.datasets.binary_scores()
    >>> chart = fe.charts.ks(fe.roc_curve(df, "y", "s"), fe.ks_statistic(df, "y", "s"))
    >>> [layer["mark"]["type"] for layer in chart.to_dict()["layer"]]
    ['line', 'rule', 'text']
    """
    func = "ks"
    lf = b.lazy(curve, func)
    schema = b.columns(lf, func, numeric={"threshold": "threshold", "fpr": "fpr", "tpr": "tpr"})
    keys = b.key_columns(schema, {"threshold", "fpr", "tpr"}, by, func)
    facets = b.facet_columns(facet, schema, func) if facet is not None else keys
    finite = lf.filter(pl.col("threshold").is_finite())
    thinned = thin_curve(
        finite,
        "fpr",
        "tpr",
        by=keys,
        order=["fpr", "tpr"],
        descending=[False, False],
        max_points=max_points,
    )
    df = b.gather(thinned.select(*keys, "threshold", "fpr", "tpr", ORDER), func, "curve=")
    long = df.unpivot(
        index=[*keys, "threshold", ORDER], on=["tpr", "fpr"], variable_name="__fe_class"
    ).with_columns(
        pl.col("__fe_class")
        .replace_strict({"tpr": "positives (TPR)", "fpr": "negatives (FPR)"})
        .alias("__fe_class"),
        pl.lit("curve").alias(b.LAYER),
    )
    frames = [long] if statistic is None else [long, _ks_marks(statistic, keys, func)]
    data, panel = b.add_facet(b.combine(frames), facets)
    x = alt.X(
        field="threshold",
        type="quantitative",
        scale=alt.Scale(zero=False),
        axis=theme.axis("Threshold (score ≥ threshold is positive)"),
    )
    detail = [k for k in keys if k not in facets]
    layers: list[Any] = [b.only(_ks_lines(x, keys, detail, data), "curve")]
    if statistic is not None:
        layers.append(
            b.only(alt.Chart().mark_rule(color=theme.INK, strokeDash=[4, 3]).encode(x=x), "ks")
        )
        layers.append(
            b.only(
                alt.Chart()
                .mark_text(align="left", dx=4, dy=-4, fontSize=theme.FONT_SIZE, color=theme.INK)
                .encode(x=x, y=alt.value(12), text=alt.Text(field="__fe_label", type="nominal")),
                "ks",
            )
        )
    subtitle = (
        "dashed rule: the KS threshold, where the two shares are farthest apart"
        if statistic is not None
        else None
    )
    return b.panels(layers, data, panel, title, subtitle, width, height)


def _ks_marks(statistic: Any, keys: list[str], func: str) -> pl.DataFrame:
    """The KS statistic of each group at its threshold (layer "ks"), with its label."""
    slf = b.lazy(statistic, func)
    sschema = b.columns(slf, func, numeric={"ks": "ks", "threshold": "threshold"})
    b.require_keys(sschema, func, "statistic=", keys)
    marks = b.gather(slf.select(*keys, "ks", "threshold"), func, "statistic=")
    return marks.filter(pl.col("ks").is_not_null()).with_columns(
        pl.format("KS {} at {}", b.fixed(pl.col("ks")), b.significant(pl.col("threshold"))).alias(
            "__fe_label"
        ),
        pl.lit("ks").alias(b.LAYER),
    )


def _ks_lines(x: alt.X, keys: list[str], detail: list[str], data: pl.DataFrame) -> alt.Chart:
    """The shares of positives and negatives scored at or above each threshold."""
    return (
        alt.Chart()
        .mark_line(strokeWidth=2, interpolate="step-before")
        .encode(
            x=x,
            y=alt.Y(
                field="value",
                type="quantitative",
                scale=b.UNIT,
                axis=theme.axis("Share scored ≥ threshold"),
            ),
            color=b.color_encoding(
                "__fe_class", "class", data, ["positives (TPR)", "negatives (FPR)"]
            ),
            detail=[alt.Detail(field=b.field(k), type="nominal") for k in detail] or alt.Undefined,
            tooltip=[
                *b.key_tooltips(keys),
                b.tooltip("__fe_class", label="class"),
                b.tooltip("threshold", "quantitative", ".4~g"),
                b.tooltip("value", "quantitative", ".3f", "share"),
            ],
        )
    )
