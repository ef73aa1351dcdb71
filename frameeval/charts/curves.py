"""Curve charts: ROC (figure 2.4), P-R (figure 2.3) and cost curves (figure 2.5)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, cast

import altair as alt
import polars as pl

from frameeval._params import INSIDE_UNIT
from frameeval.charts import _base as b
from frameeval.charts import _theme as theme
from frameeval.charts._thin import MAX_ROWS, ORDER, thin_curve

_FPR_TPR = {"fpr": "fpr", "tpr": "tpr"}


def _guide(
    frame: pl.DataFrame, x: alt.Scale = b.UNIT, y: alt.Scale = b.UNIT, **mark: Any
) -> alt.Chart:
    """A reference line drawn in every panel (its own small data set is not faceted), clipped
    to the plot when the scales are narrower than the unit square."""
    return (
        alt.Chart(frame)
        .mark_line(color=theme.GUIDE, strokeWidth=1, clip=True, **mark)
        .encode(
            x=alt.X(field="x", type="quantitative", scale=x),
            y=alt.Y(field="y", type="quantitative", scale=y),
            detail=alt.Detail(field="line", type="nominal"),
            order=alt.Order(field="order", type="quantitative"),
        )
    )


def _color(summary: b.Summary, color: str | None, df: pl.DataFrame, **extra: Any) -> dict[str, Any]:
    if summary.color_field is None or color is None:
        return {}
    return {"color": b.color_encoding(summary.color_field, color, df, summary.color_sort, **extra)}


def _fitted(low: Any, high: Any = 1.0, *, margin: float = 0.0) -> alt.Scale:
    """A scale from ``low`` rounded down to a tenth (less ``margin``) to ``high`` rounded up to
    a tenth, within [0, 1]: the data's range, so curves that crowd one corner of the unit
    square spread over the plot."""
    lo = 0.0 if low is None else max(0.0, math.floor((float(low) - margin) * 10 + 1e-9) / 10)
    hi = 1.0 if high is None else min(1.0, math.ceil((float(high) + margin) * 10 - 1e-9) / 10)
    if hi - lo < 0.1:
        lo, hi = max(0.0, hi - 0.1), max(hi, 0.1)
    return alt.Scale(domain=[lo, hi], nice=False, zero=False)


def _ink(colors: dict[str, Any], default: str) -> dict[str, Any]:
    """A fixed mark colour when the marks are not coloured by a key."""
    return {} if colors else {"color": default}


def roc(
    curve: Any,
    auc: Any = None,
    *,
    by: str | Sequence[str] | None = None,
    color: str | None = None,
    facet: str | Sequence[str] | None = None,
    title: str | None = "ROC curve",
    width: int = theme.SQUARE,
    height: int = theme.SQUARE,
    max_points: int = MAX_ROWS,
) -> alt.TopLevelMixin:
    """ROC curves (figure 2.4) with the chance diagonal and the AUC of each curve.

    Parameters
    ----------
    curve
        Output of ``fe.roc_curve``: ``*by, threshold, fpr, tpr`` (DataFrame or LazyFrame; it is
        collected here, after thinning).
    auc
        Optional frame ``*by, roc_auc`` (a subset of the curve keys). When the AUC is determined
        by the colour key it is written in the legend ("A (AUC 0.912)"), otherwise inside each
        panel at the lower right.
    by
        Key columns of ``curve``; by default every column other than ``threshold, fpr, tpr``.
    color
        Key column coloured by; default the last key not used for ``facet``. Other keys still
        draw separate curves (Vega-Lite ``detail``).
    facet
        Key column(s) giving one panel each (several columns are combined into one label).
    title, width, height
        Chart title and the size of one panel in pixels.
    max_points
        Row budget shared by all curves; larger curves are thinned (see
        :mod:`frameeval.charts._thin` and docs/charts.md).

    Returns
    -------
    alt.LayerChart or alt.FacetChart

    Notes
    -----
    FPR = FP/(TN+FP) on x and TPR = TP/(TP+FN) on y (eqs 2.18–2.19); the dashed diagonal is a
    random guesser (AUC 0.5). The curve is drawn as given: points in the order of increasing FPR,
    then TPR, joined by straight lines (a run of tied scores is one diagonal step). Nothing is
    recomputed; the AUC shown is the ``roc_auc`` column. Null AUC (a one-class group) shows as
    "undefined".

    References
    ----------
    Fawcett, T. (2006). An introduction to ROC analysis. Pattern Recognition Letters 27, 861–874.

    Examples
    --------
    >>> curve = pl.DataFrame({"threshold": [float("inf"), 0.8, 0.4, 0.1],
    ...                       "fpr": [0.0, 0.0, 0.5, 1.0], "tpr": [0.0, 0.5, 1.0, 1.0]})
    >>> chart = fe.charts.roc(curve, pl.DataFrame({"roc_auc": [0.875]}))
    >>> [layer["mark"]["type"] for layer in chart.to_dict()["layer"]]
    ['line', 'line', 'text']
    """
    func = "roc"
    k = b.keyed(curve, func, _FPR_TPR, {"threshold", *_FPR_TPR}, by, facet, color)
    df = b.curve_rows(k, "fpr", "tpr", ["fpr", "tpr"], [False, False], max_points, func)
    summary = b.summarize(
        df, auc, value="roc_auc", name="AUC", func=func, role="auc", keys=k.keys, color=k.color,
        facet=k.facets, anchor=(0.98, 0.05, 0.07),
    )  # fmt: skip
    df = summary.apply(df).with_columns(pl.lit("curve").alias(b.LAYER))
    data, panel = b.add_facet(b.combine([df, summary.rows]), k.facets)
    x_axis = theme.axis("False positive rate (FPR)")
    line = _curve_line(
        k, "fpr", "tpr", b.UNIT, b.UNIT, x_axis, theme.axis("True positive rate (TPR)")
    )
    tips = b.curve_tips(k, ("fpr", "FPR"), ("tpr", "TPR"))
    line = line.encode(tooltip=tips, **_color(summary, k.color, data))
    layers = [
        _guide(_diagonal("chance"), strokeDash=[5, 4]),
        line,
        *b.summary_layer(summary, data, "right"),
    ]
    subtitle = "dashed: random guessing (AUC = 0.5)"
    return b.panels(
        layers, data, panel, title, subtitle, width, height,
        panel_width=width, legend=k.color is not None,
    )  # fmt: skip


def _diagonal(name: str) -> pl.DataFrame:
    """The line from (0, 0) to (1, 1), as a guide."""
    return pl.DataFrame({"x": [0.0, 1.0], "y": [0.0, 1.0], "line": [name, name], "order": [0, 1]})


def _curve_line(
    k: b.Keyed, x: str, y: str, xs: alt.Scale, ys: alt.Scale, x_axis: Any, y_axis: Any
) -> alt.Chart:
    """The curves of layer "curve": one line per key, in the thinned order."""
    return b.only(
        b.hover_line().encode(
            x=alt.X(field=x, type="quantitative", scale=xs, axis=x_axis),
            y=alt.Y(field=y, type="quantitative", scale=ys, axis=y_axis),
            order=alt.Order(field=ORDER, type="quantitative"),
            **b.details(k.keys, [k.color, *k.facets]),
        ),
        "curve",
    )


def _iso_f1(levels: Sequence[float]) -> pl.DataFrame:
    """Iso-F1 lines: P = F·R / (2R − F) for R in [F/(2 − F), 1] (eq 2.10 solved for P)."""
    n = 60
    frames = []
    for level in levels:
        start = level / (2 - level)
        recall = pl.Series([start + (1 - start) * i / (n - 1) for i in range(n)], dtype=pl.Float64)
        frames.append(
            pl.DataFrame({"x": recall, "order": pl.int_range(n, eager=True)}).with_columns(
                y=level * pl.col("x") / (2 * pl.col("x") - level), line=pl.lit(f"F1 = {level:g}")
            )
        )
    return pl.concat(frames).select("x", "y", "line", "order")


def pr(
    curve: Any,
    break_even: Any = None,
    *,
    by: str | Sequence[str] | None = None,
    color: str | None = None,
    facet: str | Sequence[str] | None = None,
    f1_lines: Sequence[float] = (0.2, 0.4, 0.6, 0.8),
    title: str | None = "Precision–recall curve",
    width: int = theme.SQUARE,
    height: int = theme.SQUARE,
    max_points: int = MAX_ROWS,
    zoom: bool = True,
) -> alt.TopLevelMixin:
    """P-R curves (figure 2.3) with break-even points and iso-F1 lines.

    Parameters
    ----------
    curve
        Output of ``fe.pr_curve``: ``*by, threshold, recall, precision``.
    break_even
        Optional output of ``fe.break_even_point``: ``*by, break_even_point``. Each BEP is drawn
        as a point on the line P = R and, when determined by the colour key, written in the
        legend (otherwise inside each panel).
    by, color, facet, title, width, height, max_points
        As in :func:`roc`; ``by`` defaults to every column other than
        ``threshold, recall, precision``.
    f1_lines
        F1 levels of the grey iso-F1 curves (points of equal F1, eq 2.10); ``()`` for none.
    zoom
        Scale each axis to the range of the drawn recall, precision and break-even points
        (rounded out to tenths) rather than the unit square, so curves that crowd the top-right
        corner spread over the plot; ``False`` draws the whole unit square.

    Returns
    -------
    alt.LayerChart or alt.FacetChart

    Notes
    -----
    Recall = TP/(TP+FN) on x and precision = TP/(TP+FP) on y (eqs 2.8–2.9), points in the order of
    increasing recall and, at equal recall, decreasing precision. With ``zoom`` an axis starts
    at its smallest drawn value rounded down to a tenth (the guides are clipped to the plot). The dotted diagonal is P = R, on
    which the break-even points lie. Null precision (no positive prediction yet) is not drawn.

    References
    ----------
    Davis, J. and Goadrich, M. (2006). The relationship between precision-recall and ROC curves.
    ICML.

    Examples
    --------
    >>> curve = pl.DataFrame({"threshold": [0.9, 0.6, 0.3],
    ...                       "recall": [0.5, 0.5, 1.0], "precision": [1.0, 0.5, 0.5]})
    >>> chart = fe.charts.pr(curve, pl.DataFrame({"break_even_point": [0.5]}))
    >>> sorted({layer["mark"]["type"] for layer in chart.to_dict()["layer"]})
    ['line', 'point', 'text']
    """
    func = "pr"
    numeric = {"recall": "recall", "precision": "precision"}
    k = b.keyed(curve, func, numeric, {"threshold", *numeric}, by, facet, color)
    for level in f1_lines:
        INSIDE_UNIT(func, "f1_lines levels", level)
    df = b.curve_rows(
        k, "recall", "precision", ["recall", "precision"], [False, True], max_points, func
    )
    summary = b.summarize(
        df, break_even, value="break_even_point", name="BEP", func=func, role="break_even",
        keys=k.keys, color=k.color, facet=k.facets, anchor=(0.03, 0.05, 0.07),
    )  # fmt: skip
    summary = b.beside(summary, width, k.facets)
    df = summary.apply(df).with_columns(pl.lit("curve").alias(b.LAYER))
    points = None
    if break_even is not None:
        points = _bep_points(break_even, df, k.keys, summary, func)
    data, panel = b.add_facet(b.combine([df, points, summary.rows]), k.facets)
    xs, ys = _pr_scales(df, points) if zoom else (b.UNIT, b.UNIT)
    # iso-F1 labels sit just right of the plot (clear of the curves), the legend beyond them
    legend_room = max(_beside_room(summary) or 0, 52 if f1_lines else 0) or None
    colors = _color(summary, k.color, data, legend_offset=legend_room)
    line = _curve_line(
        k, "recall", "precision", xs, ys, theme.axis("Recall"), theme.axis("Precision")
    )
    tips = b.curve_tips(k, ("recall", None), ("precision", None))
    layers = [
        *_iso_f1_layers(f1_lines, xs, ys),
        _guide(_diagonal("P = R"), xs, ys, strokeDash=[5, 4]),
        line.encode(tooltip=tips, **colors),
        *([] if points is None else [_bep_layer(k, xs, ys, colors)]),
        *b.summary_layer(summary, data, "left", pixels=True),
    ]
    subtitle = "dashed: P = R (break-even points ◆ lie on it); dotted: iso-F1 lines"
    return b.panels(
        layers, data, panel, title, subtitle, width, height,
        panel_width=width, legend=k.color is not None, spacing=legend_room,
    )  # fmt: skip


def _bep_points(
    break_even: Any, df: pl.DataFrame, keys: list[str], summary: b.Summary, func: str
) -> pl.DataFrame:
    """The break-even points (layer "bep") at (BEP, BEP), one per drawn curve."""
    blf = b.lazy(break_even, func)
    bkeys = [c for c in blf.collect_schema().names() if c != "break_even_point"]
    bep = b.gather(blf, func, "break_even=")
    groups = df.select([*dict.fromkeys([*bkeys, *keys])]).unique()
    return summary.apply(b.join_on(groups, bep, bkeys)).with_columns(
        pl.col("break_even_point").alias(b.X),
        pl.col("break_even_point").alias(b.Y),
        pl.lit("bep").alias(b.LAYER),
    )


def _pr_scales(df: pl.DataFrame, points: pl.DataFrame | None) -> tuple[alt.Scale, alt.Scale]:
    """Recall and precision scales fitted to the drawn curves and break-even points."""
    bep_low = None if points is None else points.get_column(b.X).min()

    def fitted(name: str) -> alt.Scale:
        lows = [v for v in (df.get_column(name).min(), bep_low) if v is not None]
        return _fitted(min(lows, default=None), df.get_column(name).max())

    return fitted("recall"), fitted("precision")


def _iso_f1_layers(f1_lines: Sequence[float], xs: alt.Scale, ys: alt.Scale) -> list[alt.Chart]:
    """The dotted iso-F1 lines and their labels right of the plot (none for no levels)."""
    if not f1_lines:
        return []
    ends = (
        _iso_f1(f1_lines)
        .group_by("line")
        .agg(pl.col("y").last())
        .sort("line")
        .with_columns(x=1.0)
        .filter((pl.col("y") >= ys.domain[0]) & pl.lit(xs.domain[1] >= 1.0))
    )
    labels = (
        alt.Chart(ends)
        .mark_text(align="left", dx=4, fontSize=theme.FONT_SIZE - 2, color=theme.GUIDE)
        .encode(
            x=alt.X(field="x", type="quantitative", scale=xs),
            y=alt.Y(field="y", type="quantitative", scale=ys),
            text=alt.Text(field="line", type="nominal"),
        )
    )
    return [_guide(_iso_f1(f1_lines), xs, ys, strokeDash=[2, 3], opacity=0.8), labels]


def _bep_layer(k: b.Keyed, xs: alt.Scale, ys: alt.Scale, colors: dict[str, Any]) -> alt.Chart:
    """The break-even points as diamonds."""
    return b.only(
        alt.Chart()
        .mark_point(shape="diamond", size=90, filled=True, stroke="white", strokeWidth=1)
        .encode(
            x=alt.X(field=b.X, type="quantitative", scale=xs),
            y=alt.Y(field=b.Y, type="quantitative", scale=ys),
            **b.details(k.keys, [k.color, *k.facets]),
            tooltip=[
                *b.key_tooltips(k.keys),
                b.tooltip("break_even_point", "quantitative", ".3f", "break-even point"),
            ],
            **colors,
        ),
        "bep",
    )


def cost_curve(
    curve: Any,
    lines: Any = None,
    expected_cost: Any = None,
    *,
    by: str | Sequence[str] | None = None,
    color: str | None = None,
    facet: str | Sequence[str] | None = None,
    title: str | None = "Cost curve",
    width: int = theme.SQUARE,
    height: int = theme.SQUARE,
    max_points: int = MAX_ROWS,
    zoom: bool = True,
) -> alt.TopLevelMixin:
    """Cost curves (figure 2.5): cost lines, their lower envelope and the expected total cost.

    Parameters
    ----------
    curve
        Output of ``fe.cost_curve``: ``*by, p_cost, norm_cost``, the vertices of the lower
        envelope. Drawn as a thick line over the shaded area under it.
    lines
        Optional output of ``fe.cost_lines``: ``*by, point, p_cost, norm_cost``, two rows per
        ROC point (the segment from (0, FPR) to (1, FNR)). The segments that form the lower
        envelope (the ROC hull points) are drawn as thin lines; the others are left out (the
        subtitle says so).
    expected_cost
        Optional output of ``fe.expected_total_cost``: ``*by, expected_total_cost`` (the shaded
        area, eq 2.25 integrated), shown in the legend or inside each panel.
    by, color, facet, title, width, height
        As in :func:`roc`; ``by`` defaults to every column other than ``p_cost, norm_cost``.
    max_points
        Row budget: half for the envelope, half for the cost lines (a fan of more segments than
        the budget keeps, per pixel bin of FPR, the segments with the extreme FNR; see
        docs/charts.md).
    zoom
        Scale the y axis to the envelopes (from 0 to 1.5 × their highest vertex, rounded up to
        a tenth, at most 1) so that they are not squashed at the bottom by the cost lines of the
        trivial classifiers, which are clipped at the top; ``False`` draws the unit square.

    Returns
    -------
    alt.LayerChart or alt.FacetChart

    Notes
    -----
    x is the probability cost P(+)cost = p·cost01 / (p·cost01 + (1 − p)·cost10) (eq 2.24), y the
    normalised cost cost_norm = (FNR·p·cost01 + FPR·(1 − p)·cost10) / (p·cost01 + (1 − p)·cost10)
    (eq 2.25). Each ROC point is the line from (0, FPR) to (1, FNR); the envelope is their lower
    bound, and the area under it the expected total cost over all class/cost conditions.

    References
    ----------
    Drummond, C. and Holte, R. C. (2006). Cost curves: an improved method for visualizing
    classifier performance. Machine Learning 65, 95–130.

    Examples
    --------
    >>> envelope = pl.DataFrame({"p_cost": [0.0, 0.5, 1.0], "norm_cost": [0.0, 0.25, 0.0]})
    >>> chart = fe.charts.cost_curve(envelope, expected_cost=pl.DataFrame(
    ...     {"expected_total_cost": [0.125]}))
    >>> [layer["mark"]["type"] for layer in chart.to_dict()["layer"]]
    ['area', 'line', 'text']
    """
    func = "cost_curve"
    numeric = {"p_cost": "p_cost", "norm_cost": "norm_cost"}
    k = b.keyed(curve, func, numeric, set(numeric), by, facet, color)
    budget = max_points // 2 if lines is not None else max_points
    envelope = thin_curve(
        k.lf,
        "p_cost",
        "norm_cost",
        by=k.keys,
        order=["p_cost", "norm_cost"],
        descending=[False, False],
        max_points=budget,
    )
    df = b.gather(envelope.select(*k.keys, "p_cost", "norm_cost", ORDER), func, "curve=")
    summary = b.summarize(
        df, expected_cost, value="expected_total_cost", name="expected total cost", func=func,
        role="expected_cost", keys=k.keys, color=k.color, facet=k.facets,
        anchor=(0.5, 0.95, -0.07),
    )  # fmt: skip
    summary = b.beside(summary, width, k.facets)
    df = summary.apply(df).with_columns(pl.lit("envelope").alias(b.LAYER))
    segments = None
    if lines is not None:
        segments = summary.apply(_thin_lines(lines, k.keys, budget, func, k.lf)).with_columns(
            pl.lit("lines").alias(b.LAYER)
        )
    data, panel = b.add_facet(b.combine([df, segments, summary.rows]), k.facets)
    y_scale = b.UNIT
    if zoom:
        top = df.get_column("norm_cost").max()
        y_scale = _fitted(0.0, None if top is None else 1.5 * cast(float, top))
    x_axis = theme.axis("Probability cost P(+)cost")
    y_axis = theme.axis("Normalised expected cost")
    x = alt.X(field="p_cost", type="quantitative", scale=b.UNIT, axis=x_axis)
    y = alt.Y(field="norm_cost", type="quantitative", scale=y_scale, axis=y_axis, stack=None)
    colors = _color(summary, k.color, data, legend_offset=_beside_room(summary))
    layers = [
        *([] if segments is None else [_cost_lines_layer(k, x, y, colors)]),
        *_envelope_layers(k, x, y, colors),
        *b.summary_layer(summary, data, "center", pixels=True),
    ]
    subtitle = "thick: lower envelope; shaded: expected total cost"
    if segments is not None:
        subtitle = "thin: the cost lines forming the envelope (one per ROC hull point); " + subtitle
    return b.panels(
        layers, data, panel, title, subtitle, width, height,
        panel_width=width, legend=k.color is not None, spacing=_beside_room(summary),
    )  # fmt: skip


def _cost_lines_layer(k: b.Keyed, x: alt.X, y: alt.Y, colors: dict[str, Any]) -> alt.Chart:
    """The thin cost lines (layer "lines"), one segment per ROC hull point."""
    return b.only(
        alt.Chart()
        .mark_line(strokeWidth=0.8, opacity=0.35, clip=True, **_ink(colors, theme.GUIDE))
        .encode(
            x=x,
            y=y,
            **b.details(k.keys, [k.color, *k.facets], "point"),
            order=alt.Order(field="p_cost", type="quantitative"),
            tooltip=[
                *b.key_tooltips(k.keys),
                b.tooltip("point", label="ROC point"),
                b.tooltip("__fe_fpr", "quantitative", ".3f", "FPR"),
                b.tooltip("__fe_fnr", "quantitative", ".3f", "FNR"),
            ],
            **colors,
        ),
        "lines",
    )


def _envelope_layers(k: b.Keyed, x: alt.X, y: alt.Y, colors: dict[str, Any]) -> list[alt.Chart]:
    """The lower envelope (layer "envelope"): the shaded area under it and the thick line."""
    detail = b.details(k.keys, [k.color, *k.facets])
    area = (
        alt.Chart()
        .mark_area(opacity=0.18, line=False, **_ink(colors, theme.INK))
        .encode(x=x, y=y, y2=alt.Y2(datum=0), **detail, **colors)
    )
    line = b.hover_line(2.5, **_ink(colors, theme.INK)).encode(
        x=x,
        y=y,
        **detail,
        order=alt.Order(field=ORDER, type="quantitative"),
        tooltip=[
            *b.key_tooltips(k.keys),
            b.tooltip("p_cost", "quantitative", ".3f", "P(+)cost"),
            b.tooltip("norm_cost", "quantitative", ".3f", "normalised expected cost"),
        ],
        **colors,
    )
    return [b.only(area, "envelope"), b.only(line, "envelope")]


def _beside_room(summary: b.Summary) -> int | None:
    """Facet spacing that leaves room for summary text drawn beside each panel."""
    if summary.rows is None:
        return None
    # Series.max() is typed as any Python scalar; the max of len_chars() is an int (or None)
    longest = cast("int | None", summary.rows.get_column(b.TEXT).str.len_chars().max())
    return int(min(320, 20 + 6.5 * (longest or 0)))


def _thin_lines(
    lines: Any, keys: list[str], budget: int, func: str, envelope: pl.LazyFrame
) -> pl.DataFrame:
    """The cost-line rows to draw: the segments that form the lower envelope, whole, thinned as
    points (FPR, FNR) of the ROC path when there are more than the budget.

    A segment from (0, FPR) to (1, FNR) forms the envelope when at least two envelope vertices
    lie on it (within 1e-9): the envelope is made of pieces of such segments (the ROC hull
    points), and every other segment touches it at most at one vertex. The fan of hundreds of
    segments above the envelope is not drawn."""
    llf = b.lazy(lines, func)
    names = llf.collect_schema().names()
    if "point" not in names and "threshold" in names:
        # fe.cost_lines identifies each segment by the threshold of its ROC point
        llf = llf.rename({"threshold": "point"})
    numeric = {"lines_p_cost": "p_cost", "lines_norm_cost": "norm_cost"}
    lschema = b.columns(llf, func, numeric=numeric, lines_point="point")
    b.require_keys(lschema, func, "lines=", keys)
    # one row per segment: its ends (0, FPR) and (1, FNR)
    ends = llf.group_by([*keys, "point"]).agg(
        pl.col("norm_cost").sort_by("p_cost").first().alias("__fe_fpr"),
        pl.col("norm_cost").sort_by("p_cost").last().alias("__fe_fnr"),
    )
    vertices = envelope.select(
        *keys, pl.col("p_cost").alias("__fe_vp"), pl.col("norm_cost").alias("__fe_vc")
    )
    paired = b.join_on(ends, vertices, keys)
    touching = (
        paired.filter(
            (
                pl.col("__fe_fpr")
                + (pl.col("__fe_fnr") - pl.col("__fe_fpr")) * pl.col("__fe_vp")
                - pl.col("__fe_vc")
            ).abs()
            <= 1e-9
        )
        .group_by([*keys, "point"])
        .agg(pl.len().alias("__fe_on"))
        .filter(pl.col("__fe_on") >= 2)
        .select(*keys, "point")
    )
    ends = ends.join(touching, on=[*keys, "point"], how="semi", nulls_equal=True)
    kept = thin_curve(
        ends,
        "__fe_fpr",
        "__fe_fnr",
        by=keys,
        order=["__fe_fpr", "__fe_fnr", "point"],
        descending=[False, True, False],
        max_points=max(budget // 2, 1),
        exact=False,
    ).drop(ORDER)
    rows = llf.select(*keys, "point", "p_cost", "norm_cost").join(
        kept, on=[*keys, "point"], how="inner", nulls_equal=True
    )
    return b.gather(rows.sort([*keys, "point", "p_cost"], nulls_last=True), func, "lines=")
