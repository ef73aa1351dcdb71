"""The reliability diagram: a calibration curve with its intervals over a histogram of counts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from frameeval.calibration.curves import COLUMNS as VALUES
from frameeval.charts import _base as b
from frameeval.charts import _theme as theme


def calibration(
    curve: Any,
    *,
    by: str | Sequence[str] | None = None,
    color: str | None = None,
    facet: str | Sequence[str] | None = None,
    title: str | None = "Reliability diagram",
    width: int = theme.SQUARE,
    height: int = theme.SQUARE,
    histogram_height: int = 80,
) -> Any:
    """Reliability diagram: fraction of positives against mean predicted probability per bin,
    with confidence-interval bars, the diagonal of perfect calibration, and the number of rows
    per bin underneath.

    Parameters
    ----------
    curve
        Output of ``fe.calibration_curve``: ``*by, bin, bin_lower, bin_upper, mean_score,
        fraction_positive, count, ci_low, ci_high`` (DataFrame or LazyFrame; collected here).
    by
        Key columns of ``curve``; by default every column other than the value columns.
    color, facet
        As in :func:`frameeval.charts.roc`.
    title, width, height
        Chart title and the size of one diagram in pixels.
    histogram_height
        Height in pixels of the count histogram under each diagram.

    Returns
    -------
    alt.VConcatChart
        The diagram (layers: diagonal, curve, interval bars, points) above the histogram
        (bars spanning ``bin_lower``–``bin_upper``, height ``count``, or ``weight`` when the
        curve is weighted; overlaid, not stacked, when coloured). With ``facet`` each of the
        two is faceted by the same key.

    Notes
    -----
    A calibrated score puts every point on the dashed diagonal (fraction_positive =
    mean_score); points below it are over-confident bins, above it under-confident ones. The
    vertical bars are ``ci_low``–``ci_high`` (not drawn when they are null, i.e. ``ci=None``);
    the histogram shows how much data each point rests on. Nothing is recomputed.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [0, 0, 1, 0, 1, 1], "p": [0.1, 0.2, 0.3, 0.6, 0.8, 0.9]})
    >>> chart = fe.charts.calibration(fe.calibration_curve(df, truth="y", score="p", bins=2))
    >>> [layer["mark"]["type"] for layer in chart.to_dict()["vconcat"][0]["layer"]]
    ['line', 'line', 'rule', 'point']
    """
    import altair as alt

    func = "calibration"
    numeric = {c: c for c in ("mean_score", "fraction_positive", "count", "bin_lower", "bin_upper")}
    k = b.keyed(curve, func, numeric, VALUES, by, facet, color)
    keys, color = k.keys, k.color
    shown = [*keys, *[c for c in VALUES if c in k.schema]]
    df = b.gather(k.lf.select(shown), func, "curve=")
    missing = [c for c in ("ci_low", "ci_high") if c not in df.columns]
    df = df.with_columns(pl.lit(None, dtype=pl.Float64).alias(c) for c in missing)
    df = df.sort(*keys, "mean_score", nulls_last=True)
    weighted = "weight" in df.columns  # a weighted curve: the histogram shows Σw per bin
    mass, mass_title = ("weight", "Weight") if weighted else ("count", "Rows")
    data, panel = b.add_facet(b.sanitize(df), k.facets)

    unit = b.UNIT
    colors, ink = b.key_colors(color, data)
    tips = _tips(keys, weighted)
    x = alt.X(field="mean_score", type="quantitative", scale=unit, axis=theme.axis("Mean score"))
    y_axis = theme.axis("Fraction of positives")
    diagonal = b.guide_line([5, 4], unit, unit)
    shared: dict[str, Any] = {"x": x, **colors, **b.details(keys, [color, *k.facets])}
    base = alt.Chart().encode(**shared)
    line = base.mark_line(strokeWidth=1.5, **ink).encode(
        y=alt.Y(field="fraction_positive", type="quantitative", scale=unit, axis=y_axis),
        order=alt.Order(field="mean_score", type="quantitative"),
    )
    bars = base.mark_rule(strokeWidth=1.5, **ink).encode(
        y=alt.Y(field="ci_low", type="quantitative", scale=unit),
        y2=alt.Y2(field="ci_high"),
        tooltip=tips,
    )
    points = base.mark_point(filled=True, size=45, **ink).encode(
        y=alt.Y(field="fraction_positive", type="quantitative", scale=unit), tooltip=tips
    )
    diagram = alt.layer(diagonal, line, bars, points, data=data).properties(
        width=width, height=height
    )
    histogram = (
        alt.Chart(data)
        .mark_bar(opacity=0.55 if colors else 0.8, **ink)
        .encode(
            x=alt.X(field="bin_lower", type="quantitative", scale=unit, axis=theme.axis("Score")),
            x2=alt.X2(field="bin_upper"),
            y=alt.Y(field=mass, type="quantitative", stack=None, axis=theme.axis(mass_title)),
            y2=alt.Y2(datum=0),
            tooltip=tips,
            **colors,
        )
        .properties(width=width, height=histogram_height)
    )
    if panel.field is not None:
        diagram, histogram = _facet_both(diagram, histogram, panel, width, bool(colors))
    below = "weight" if weighted else "rows"
    subtitle = f"dashed: perfect calibration; bars: confidence interval; below: {below} per bin"
    return alt.vconcat(diagram, histogram, spacing=6).properties(title=theme.title(title, subtitle))


def _tips(keys: list[str], weighted: bool) -> list[Any]:
    return [
        *b.key_tooltips(keys),
        b.tooltip("bin", "quantitative", label="bin"),
        b.tooltip("bin_lower", "quantitative", ".3f", "from"),
        b.tooltip("bin_upper", "quantitative", ".3f", "to"),
        b.tooltip("mean_score", "quantitative", ".3f", "mean score"),
        b.tooltip("fraction_positive", "quantitative", ".3f", "fraction positive"),
        b.tooltip("ci_low", "quantitative", ".3f", "interval from"),
        b.tooltip("ci_high", "quantitative", ".3f", "interval to"),
        b.tooltip("count", "quantitative", label="rows"),
        *([b.tooltip("weight", "quantitative", ".4g", "weight")] if weighted else []),
    ]


def _facet_both(diagram: Any, histogram: Any, panel: b.Facet, width: int, legend: bool):
    """The diagram and the histogram faceted alike: as many columns as fit the page (up to
    4); a short last row gives every panel its own x axis, so no empty cell shows a bare axis."""
    import altair as alt

    assert panel.field is not None
    columns = max(1, min(4, b.fitting(width, legend), panel.count))
    facet_field = alt.Facet(field=b.field(panel.field), type="nominal", header=theme.header())
    diagram = diagram.facet(facet=facet_field, columns=columns)
    histogram = histogram.facet(
        facet=alt.Facet(field=b.field(panel.field), type="nominal", header=None), columns=columns
    )
    if panel.count % columns:
        diagram = diagram.resolve_axis(x="independent")
        histogram = histogram.resolve_axis(x="independent")
    return diagram, histogram
