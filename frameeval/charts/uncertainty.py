"""Uncertainty charts: a forest plot of intervals and the ROC curve with its confidence band.

Both draw frames of :mod:`frameeval.uncertainty` as they are: :func:`forest` takes the output of
``fe.bootstrap_ci`` or ``fe.delong_ci`` (``estimate, lower, upper``), :func:`roc_band` the
output of ``fe.roc_band`` (``fpr, tpr, lower, upper``). Nothing is recomputed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import altair as alt
import polars as pl

from frameeval._params import Number
from frameeval.charts import _base as b
from frameeval.charts import _theme as theme

__all__ = ["forest", "roc_band"]

#: Columns of the interval frames that are values, not keys.
_INTERVAL_VALUES = {
    "estimate",
    "bias",
    "std_error",
    "variance",
    "lower",
    "upper",
    "level",
    "method",
    "n_replicates",
    "n_pos",
    "n_neg",
}
_BAND_VALUES = {"fpr", "tpr", "std_error", "lower", "upper", "level", "method", "n_replicates"}
_ROW = "__fe_row_label"
_REFERENCE = Number(none=True, text="a number")


def _level_text(df: pl.DataFrame) -> str:
    """ "95 % bootstrap (percentile) interval"-style subtitle from the level/method columns."""
    parts = []
    if "level" in df.columns:
        levels = df.get_column("level").drop_nulls().unique().sort().to_list()
        if len(levels) == 1:
            parts.append(f"{100 * levels[0]:g} %")
    if "method" in df.columns:
        methods = df.get_column("method").drop_nulls().unique().sort().to_list()
        names = {"percentile": "bootstrap percentile", "bca": "bootstrap BCa", "delong": "DeLong"}
        if methods:
            parts.append(" / ".join(names.get(m, m) for m in methods))
    return " ".join(parts) + " intervals" if parts else "intervals"


def forest(
    intervals: Any,
    *,
    label: str | Sequence[str] | None = None,
    color: str | None = None,
    facet: str | Sequence[str] | None = None,
    reference: float | None = None,
    title: str | None = None,
    width: int = theme.WIDE,
    height: int | None = None,
) -> alt.TopLevelMixin:
    """Forest plot: one point estimate with its interval per row (learner, data set, measure…).

    Parameters
    ----------
    intervals
        A frame with ``estimate, lower, upper`` and key columns — the output of
        ``fe.bootstrap_ci`` (``*by, metric, …``) or ``fe.delong_ci``. DataFrame or LazyFrame
        (collected here).
    label
        Key column(s) naming a row on the y axis (several are joined: "iris · svm"). Default:
        every key column not used for ``facet``.
    color
        Key column coloured by (e.g. ``"model"``); default none.
    facet
        Key column(s) giving one panel each. Default: ``"metric"`` when the frame holds more than
        one measure (their scales differ), else none.
    reference
        Optional x value drawn as a dashed vertical line (0.5 for AUC, 0 for a difference).
    title, width, height
        Title; panel width; panel height (default 22 px per row).

    Returns
    -------
    alt.LayerChart or alt.FacetChart

    Notes
    -----
    The interval is drawn from ``lower`` to ``upper`` and the estimate as a point; a row whose
    interval is null (undefined, e.g. BCa on a degenerate replicate distribution) shows the point
    alone, and a null estimate nothing. Rows keep the frame's order (its keys are sorted).

    Examples
    --------
    >>> from frameeval.charts.uncertainty import forest
    >>> ci = pl.DataFrame({"model": ["A", "B"], "metric": ["roc_auc"] * 2,
    ...                    "estimate": [0.81, 0.74], "lower": [0.75, 0.66],
    ...                    "upper": [0.86, 0.81]})
    >>> [layer["mark"]["type"] for layer in forest(ci, reference=0.5).to_dict()["layer"]]
    ['rule', 'point', 'rule']
    """
    func = "forest"
    lf = b.lazy(intervals, func)
    numeric = {"estimate": "estimate", "lower": "lower", "upper": "upper"}
    schema = b.columns(lf, func, numeric=numeric)
    keys = [n for n in schema.names() if n not in _INTERVAL_VALUES]
    df = b.gather(lf, func, "intervals=")
    if facet is None and "metric" in keys and df.get_column("metric").n_unique() > 1:
        facet = "metric"
    facets = b.facet_columns(facet, schema, func)
    labels = b.key_columns(schema, _INTERVAL_VALUES, label, func) if label else None
    labels = labels or [k for k in keys if k not in facets]
    if color is not None:
        b.resolve_color(color, keys, [], func)
    _REFERENCE(func, "reference", reference)
    text = pl.concat_str([b.as_text(k) for k in labels], separator=" · ") if labels else pl.lit("")
    df = df.with_columns(text.alias(_ROW))
    order = list(dict.fromkeys(df.get_column(_ROW).to_list()))
    data, panel = b.add_facet(b.sanitize(df), facets)
    y = alt.Y(
        field=_ROW,
        type="nominal",
        sort=order,
        axis=theme.axis(" · ".join(labels) if labels else None, labelLimit=240),
    )
    x_axis = theme.axis("estimate and interval")
    colors, ink = b.key_colors(color, data)
    extra = [c for c in ("level", "method", "n_replicates") if c in data.columns]
    fields = ("estimate", "lower", "upper")
    tips = [
        *b.key_tooltips(keys),
        *[b.tooltip(c, "quantitative", ".4f") for c in fields],
        *b.key_tooltips(extra),
    ]
    layers = b.interval_marks(
        alt.Chart(), fields, x_axis, alt.Scale(zero=False), ink, y=y, tooltip=tips, **colors
    )
    if reference is not None:
        layers.append(
            alt.Chart()
            .mark_rule(color=theme.GUIDE, strokeDash=[4, 3])
            .encode(x=alt.datum(float(reference)))
        )
    return b.panels(
        layers, data, panel, title or "Estimates with confidence intervals", _level_text(df),
        width, height or max(60, 22 * len(order)), columns=2, resolve={"x": "independent"},
    )  # fmt: skip


def roc_band(
    band: Any,
    *,
    by: str | Sequence[str] | None = None,
    color: str | None = None,
    facet: str | Sequence[str] | None = None,
    title: str | None = "ROC curve with confidence band",
    width: int = theme.SQUARE,
    height: int = theme.SQUARE,
) -> alt.TopLevelMixin:
    """ROC curve (TPR at each FPR of the band) with its pointwise confidence band.

    Parameters
    ----------
    band
        Output of ``fe.roc_band``: ``*by, fpr, tpr, lower, upper, …`` (DataFrame or LazyFrame;
        collected here).
    by
        Key columns; default every column that is not a value of ``fe.roc_band``.
    color
        Key column coloured by; default the last key not used for ``facet``.
    facet
        Key column(s) giving one panel each.
    title, width, height
        Chart title and the size of one panel in pixels.

    Returns
    -------
    alt.LayerChart or alt.FacetChart

    Notes
    -----
    The band is the area between ``lower`` and ``upper`` over ``fpr``, the line the ``tpr``
    column (the group's ROC curve at the band's FPR values, straight lines between them); the
    dashed diagonal is a random guesser. The band is pointwise (see ``fe.roc_band``).

    Examples
    --------
    >>> from frameeval.charts.uncertainty import roc_band
    >>> band = pl.DataFrame({"fpr": [0.0, 0.5, 1.0], "tpr": [0.5, 0.9, 1.0],
    ...                      "lower": [0.2, 0.7, 1.0], "upper": [0.8, 1.0, 1.0]})
    >>> [layer["mark"]["type"] for layer in roc_band(band).to_dict()["layer"]]
    ['area', 'line', 'line']
    """
    func = "roc_band"
    numeric = {"fpr": "fpr", "tpr": "tpr", "lower": "lower", "upper": "upper"}
    k = b.keyed(band, func, numeric, _BAND_VALUES, by, facet, color)
    keys, facets, color = k.keys, k.facets, k.color
    df = b.gather(k.lf.sort([*keys, "fpr"], nulls_last=True), func, "band=")
    data, panel = b.add_facet(b.sanitize(df), facets)
    x = alt.X(
        field="fpr", type="quantitative", scale=b.UNIT, axis=theme.axis("False positive rate (FPR)")
    )
    colors, ink = b.key_colors(color, data)
    detail = b.details(keys, [color, *facets])
    tips = [
        *b.key_tooltips(keys),
        b.tooltip("fpr", "quantitative", ".3f", "FPR"),
        b.tooltip("tpr", "quantitative", ".3f", "TPR"),
        b.tooltip("lower", "quantitative", ".3f"),
        b.tooltip("upper", "quantitative", ".3f"),
    ]
    layers = [
        alt.Chart()
        .mark_area(opacity=0.25, **ink)
        .encode(
            x=x,
            y=alt.Y(
                field="lower",
                type="quantitative",
                scale=b.UNIT,
                axis=theme.axis("True positive rate (TPR)"),
            ),
            y2=alt.Y2(field="upper"),
            **colors,
            **detail,
        ),
        b.hover_line(**ink).encode(
            x=x,
            y=alt.Y(field="tpr", type="quantitative", scale=b.UNIT),
            tooltip=tips,
            **colors,
            **detail,
        ),
        b.guide_line([4, 3], b.UNIT, b.UNIT),
    ]
    subtitle = _level_text(df) + " (pointwise), dashed: chance"
    return b.panels(layers, data, panel, title, subtitle, width, height)
