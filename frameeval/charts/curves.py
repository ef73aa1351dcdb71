"""Curve charts: ROC (figure 2.4), P-R (figure 2.3) and cost curves (figure 2.5)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, cast

import altair as alt
import polars as pl

from frameeval.charts import _base as b
from frameeval.charts import _theme as theme
from frameeval.charts._thin import MAX_ROWS, ORDER, thin_curve

_UNIT = alt.Scale(domain=[0, 1], nice=False)


def _guide(
    frame: pl.DataFrame, x: alt.Scale = _UNIT, y: alt.Scale = _UNIT, **mark: Any
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
    >>> import polars as pl, frameeval as fe
    >>> curve = pl.DataFrame({"threshold": [float("inf"), 0.8, 0.4, 0.1],
    ...                       "fpr": [0.0, 0.0, 0.5, 1.0], "tpr": [0.0, 0.5, 1.0, 1.0]})
    >>> chart = fe.charts.roc(curve, pl.DataFrame({"roc_auc": [0.875]}))
    >>> [layer["mark"]["type"] for layer in chart.to_dict()["layer"]]
    ['line', 'line', 'text']
    """
    func = "roc"
    lf = b.lazy(curve, func)
    schema = b.columns(lf, func, numeric={"fpr": "fpr", "tpr": "tpr"})
    keys = b.key_columns(schema, {"threshold", "fpr", "tpr"}, by, func)
    facets = b.facet_columns(facet, schema, func)
    color = b.resolve_color(color, keys, facets, func)
    thinned = thin_curve(
        lf.with_columns(b.threshold_text(schema)),
        "fpr",
        "tpr",
        by=keys,
        order=["fpr", "tpr"],
        descending=[False, False],
        max_points=max_points,
    )
    shown = [*keys, "fpr", "tpr", ORDER, *(["__fe_threshold"] if "threshold" in schema else [])]
    df = b.gather(thinned.select(shown), func, "curve=")
    summary = b.summarize(
        df,
        auc,
        value="roc_auc",
        name="AUC",
        func=func,
        role="auc",
        keys=keys,
        color=color,
        facet=facets,
        anchor=(0.98, 0.05, 0.07),
    )
    df = summary.apply(df).with_columns(pl.lit("curve").alias(b.LAYER))
    data, panel = b.add_facet(b.combine([df, summary.rows]), facets)

    diagonal = pl.DataFrame(
        {"x": [0.0, 1.0], "y": [0.0, 1.0], "line": ["chance", "chance"], "order": [0, 1]}
    )
    tips = [
        *b.key_tooltips(keys),
        *([b.tooltip("__fe_threshold", label="threshold")] if "threshold" in schema else []),
        b.tooltip("fpr", "quantitative", ".3f", "FPR"),
        b.tooltip("tpr", "quantitative", ".3f", "TPR"),
    ]
    line = (
        alt.Chart()
        .mark_line(strokeWidth=2, point=alt.OverlayMarkDef(opacity=0, size=40))
        .encode(
            x=alt.X(
                field="fpr",
                type="quantitative",
                scale=_UNIT,
                axis=theme.axis("False positive rate (FPR)"),
            ),
            y=alt.Y(
                field="tpr",
                type="quantitative",
                scale=_UNIT,
                axis=theme.axis("True positive rate (TPR)"),
            ),
            order=alt.Order(field=ORDER, type="quantitative"),
            **b.details(keys, [color, *facets]),
            tooltip=tips,
            **_color(summary, color, data),
        )
        .transform_filter(b.layer_filter("curve"))
    )
    layers = [_guide(diagonal, strokeDash=[5, 4]), line, *b.summary_layer(summary, data, "right")]
    chart = alt.layer(*layers, data=data).properties(width=width, height=height)
    subtitle = "dashed: random guessing (AUC = 0.5)"
    return b.facet_chart(
        chart, panel, theme.title(title, subtitle), panel_width=width, legend=color is not None
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
                y=level * pl.col("x") / (2 * pl.col("x") - level),
                line=pl.lit(f"F1 = {level:g}"),
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
    >>> import polars as pl, frameeval as fe
    >>> curve = pl.DataFrame({"threshold": [0.9, 0.6, 0.3],
    ...                       "recall": [0.5, 0.5, 1.0], "precision": [1.0, 0.5, 0.5]})
    >>> chart = fe.charts.pr(curve, pl.DataFrame({"break_even_point": [0.5]}))
    >>> sorted({layer["mark"]["type"] for layer in chart.to_dict()["layer"]})
    ['line', 'point', 'text']
    """
    func = "pr"
    lf = b.lazy(curve, func)
    schema = b.columns(lf, func, numeric={"recall": "recall", "precision": "precision"})
    keys = b.key_columns(schema, {"threshold", "recall", "precision"}, by, func)
    facets = b.facet_columns(facet, schema, func)
    color = b.resolve_color(color, keys, facets, func)
    for level in f1_lines:
        b.check_level(level, func)
    thinned = thin_curve(
        lf.with_columns(b.threshold_text(schema)),
        "recall",
        "precision",
        by=keys,
        order=["recall", "precision"],
        descending=[False, True],
        max_points=max_points,
    )
    shown = [*keys, "recall", "precision", ORDER]
    shown += ["__fe_threshold"] if "threshold" in schema else []
    df = b.gather(thinned.select(shown), func, "curve=")
    summary = b.summarize(
        df,
        break_even,
        value="break_even_point",
        name="BEP",
        func=func,
        role="break_even",
        keys=keys,
        color=color,
        facet=facets,
        anchor=(0.03, 0.05, 0.07),
    )
    summary = b.beside(summary, width, facets)
    df = summary.apply(df).with_columns(pl.lit("curve").alias(b.LAYER))
    points = None
    if break_even is not None:
        blf = b.lazy(break_even, func)
        bkeys = [c for c in blf.collect_schema().names() if c != "break_even_point"]
        bep = b.gather(blf, func, "break_even=")
        groups = df.select([*dict.fromkeys([*bkeys, *keys])]).unique()
        points = (
            groups.join(bep, on=bkeys, how="inner", nulls_equal=True)
            if bkeys
            else groups.join(bep, how="cross")
        )
        points = summary.apply(points).with_columns(
            pl.col("break_even_point").alias(b.X),
            pl.col("break_even_point").alias(b.Y),
            pl.lit("bep").alias(b.LAYER),
        )
    data, panel = b.add_facet(b.combine([df, points, summary.rows]), facets)
    xs, ys = _UNIT, _UNIT
    if zoom:
        bep_low = None if points is None else points.get_column(b.X).min()
        lows = [v for v in (df.get_column("recall").min(), bep_low) if v is not None]
        xs = _fitted(min(lows, default=None), df.get_column("recall").max())
        lows = [v for v in (df.get_column("precision").min(), bep_low) if v is not None]
        ys = _fitted(min(lows, default=None), df.get_column("precision").max())
    y_low, x_high = ys.domain[0], xs.domain[1]
    # iso-F1 labels sit just right of the plot (clear of the curves), the legend beyond them
    legend_room = max(_beside_room(summary) or 0, 52 if f1_lines else 0) or None
    used = [color, *facets]
    tips = [
        *b.key_tooltips(keys),
        *([b.tooltip("__fe_threshold", label="threshold")] if "threshold" in schema else []),
        b.tooltip("recall", "quantitative", ".3f"),
        b.tooltip("precision", "quantitative", ".3f"),
    ]
    x_axis = theme.axis("Recall")
    y_axis = theme.axis("Precision")
    layers: list[alt.Chart] = []
    if f1_lines:
        layers.append(_guide(_iso_f1(f1_lines), xs, ys, strokeDash=[2, 3], opacity=0.8))
        ends = (
            _iso_f1(f1_lines)
            .group_by("line")
            .agg(pl.col("y").last())
            .sort("line")
            .with_columns(x=1.0)
            .filter((pl.col("y") >= y_low) & pl.lit(x_high >= 1.0))
        )
        layers.append(
            alt.Chart(ends)
            .mark_text(align="left", dx=4, fontSize=theme.FONT_SIZE - 2, color=theme.GUIDE)
            .encode(
                x=alt.X(field="x", type="quantitative", scale=xs),
                y=alt.Y(field="y", type="quantitative", scale=ys),
                text=alt.Text(field="line", type="nominal"),
            )
        )
    diagonal = pl.DataFrame(
        {"x": [0.0, 1.0], "y": [0.0, 1.0], "line": ["P = R", "P = R"], "order": [0, 1]}
    )
    layers.append(_guide(diagonal, xs, ys, strokeDash=[5, 4]))
    layers.append(
        alt.Chart()
        .mark_line(strokeWidth=2, point=alt.OverlayMarkDef(opacity=0, size=40))
        .encode(
            x=alt.X(field="recall", type="quantitative", scale=xs, axis=x_axis),
            y=alt.Y(field="precision", type="quantitative", scale=ys, axis=y_axis),
            order=alt.Order(field=ORDER, type="quantitative"),
            **b.details(keys, used),
            tooltip=tips,
            **_color(summary, color, data, legend_offset=legend_room),
        )
        .transform_filter(b.layer_filter("curve"))
    )
    if points is not None:
        layers.append(
            alt.Chart()
            .mark_point(shape="diamond", size=90, filled=True, stroke="white", strokeWidth=1)
            .encode(
                x=alt.X(field=b.X, type="quantitative", scale=xs),
                y=alt.Y(field=b.Y, type="quantitative", scale=ys),
                **b.details(keys, used),
                tooltip=[
                    *b.key_tooltips(keys),
                    b.tooltip("break_even_point", "quantitative", ".3f", "break-even point"),
                ],
                **_color(summary, color, data, legend_offset=legend_room),
            )
            .transform_filter(b.layer_filter("bep"))
        )
    layers.extend(b.summary_layer(summary, data, "left", pixels=True))
    chart = alt.layer(*layers, data=data).properties(width=width, height=height)
    subtitle = "dashed: P = R (break-even points ◆ lie on it); dotted: iso-F1 lines"
    return b.facet_chart(
        chart,
        panel,
        theme.title(title, subtitle),
        panel_width=width,
        legend=color is not None,
        spacing=legend_room,
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
    >>> import polars as pl, frameeval as fe
    >>> envelope = pl.DataFrame({"p_cost": [0.0, 0.5, 1.0], "norm_cost": [0.0, 0.25, 0.0]})
    >>> chart = fe.charts.cost_curve(envelope, expected_cost=pl.DataFrame(
    ...     {"expected_total_cost": [0.125]}))
    >>> [layer["mark"]["type"] for layer in chart.to_dict()["layer"]]
    ['area', 'line', 'text']
    """
    func = "cost_curve"
    lf = b.lazy(curve, func)
    numeric = {"p_cost": "p_cost", "norm_cost": "norm_cost"}
    schema = b.columns(lf, func, numeric=numeric)
    keys = b.key_columns(schema, {"p_cost", "norm_cost"}, by, func)
    facets = b.facet_columns(facet, schema, func)
    color = b.resolve_color(color, keys, facets, func)
    budget = max_points // 2 if lines is not None else max_points
    envelope = thin_curve(
        lf,
        "p_cost",
        "norm_cost",
        by=keys,
        order=["p_cost", "norm_cost"],
        descending=[False, False],
        max_points=budget,
    )
    df = b.gather(envelope.select(*keys, "p_cost", "norm_cost", ORDER), func, "curve=")
    summary = b.summarize(
        df,
        expected_cost,
        value="expected_total_cost",
        name="expected total cost",
        func=func,
        role="expected_cost",
        keys=keys,
        color=color,
        facet=facets,
        anchor=(0.5, 0.95, -0.07),
    )
    summary = b.beside(summary, width, facets)
    df = summary.apply(df).with_columns(pl.lit("envelope").alias(b.LAYER))
    segments = None
    if lines is not None:
        segments = summary.apply(_thin_lines(lines, keys, budget, func, lf)).with_columns(
            pl.lit("lines").alias(b.LAYER)
        )
    data, panel = b.add_facet(b.combine([df, segments, summary.rows]), facets)
    used = [color, *facets]
    x_axis = theme.axis("Probability cost P(+)cost")
    y_axis = theme.axis("Normalised expected cost")
    y_scale = _UNIT
    if zoom:
        top = df.get_column("norm_cost").max()
        y_scale = _fitted(0.0, None if top is None else 1.5 * cast(float, top))
    x = alt.X(field="p_cost", type="quantitative", scale=_UNIT, axis=x_axis)
    y = alt.Y(field="norm_cost", type="quantitative", scale=y_scale, axis=y_axis, stack=None)
    colors = _color(summary, color, data, legend_offset=_beside_room(summary))
    layers: list[alt.Chart] = []
    if segments is not None:
        layers.append(
            alt.Chart()
            .mark_line(strokeWidth=0.8, opacity=0.35, clip=True, **_ink(colors, theme.GUIDE))
            .encode(
                x=x,
                y=y,
                **b.details(keys, used, "point"),
                order=alt.Order(field="p_cost", type="quantitative"),
                tooltip=[
                    *b.key_tooltips(keys),
                    b.tooltip("point", label="ROC point"),
                    b.tooltip("__fe_fpr", "quantitative", ".3f", "FPR"),
                    b.tooltip("__fe_fnr", "quantitative", ".3f", "FNR"),
                ],
                **colors,
            )
            .transform_filter(b.layer_filter("lines"))
        )
    envelope_tips = [
        *b.key_tooltips(keys),
        b.tooltip("p_cost", "quantitative", ".3f", "P(+)cost"),
        b.tooltip("norm_cost", "quantitative", ".3f", "normalised expected cost"),
    ]
    layers.append(
        alt.Chart()
        .mark_area(opacity=0.18, line=False, **_ink(colors, theme.INK))
        .encode(
            x=x,
            y=y,
            y2=alt.Y2(datum=0),
            **b.details(keys, used),
            **colors,
        )
        .transform_filter(b.layer_filter("envelope"))
    )
    layers.append(
        alt.Chart()
        .mark_line(
            strokeWidth=2.5,
            point=alt.OverlayMarkDef(opacity=0, size=40),
            **_ink(colors, theme.INK),
        )
        .encode(
            x=x,
            y=y,
            **b.details(keys, used),
            order=alt.Order(field=ORDER, type="quantitative"),
            tooltip=envelope_tips,
            **colors,
        )
        .transform_filter(b.layer_filter("envelope"))
    )
    layers.extend(b.summary_layer(summary, data, "center", pixels=True))
    chart = alt.layer(*layers, data=data).properties(width=width, height=height)
    subtitle = "thick: lower envelope; shaded: expected total cost"
    if segments is not None:
        subtitle = "thin: the cost lines forming the envelope (one per ROC hull point); " + subtitle
    return b.facet_chart(
        chart,
        panel,
        theme.title(title, subtitle),
        panel_width=width,
        legend=color is not None,
        spacing=_beside_room(summary),
    )


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
    missing = [k for k in keys if k not in lschema]
    b.require_keys(missing, func, "lines=", keys)
    # one row per segment: its ends (0, FPR) and (1, FNR)
    ends = llf.group_by([*keys, "point"]).agg(
        pl.col("norm_cost").sort_by("p_cost").first().alias("__fe_fpr"),
        pl.col("norm_cost").sort_by("p_cost").last().alias("__fe_fnr"),
    )
    vertices = envelope.select(
        *keys, pl.col("p_cost").alias("__fe_vp"), pl.col("norm_cost").alias("__fe_vc")
    )
    paired = (
        ends.join(vertices, on=keys, how="inner", nulls_equal=True)
        if keys
        else ends.join(vertices, how="cross")
    )
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
