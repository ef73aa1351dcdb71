"""Plumbing shared by the chart builders: frames in, Altair layers out.

Charts are a boundary: they collect the (possibly lazy) frames they are given (after thinning, so
only the rows that are drawn are materialised), never compute statistics, and hand Altair a clean
``pl.DataFrame`` (non-finite floats as null, categoricals as strings) so the spec is valid JSON.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import altair as alt
import polars as pl

from frameeval._frame import as_keys, collect, to_lazy
from frameeval._inputs import Column, Inputs
from frameeval.charts import _theme as theme
from frameeval.charts._thin import ORDER, thin_curve
from frameeval.exceptions import ColumnNotFoundError, EmptyFrameError, InvalidParameterError

LAYER = "__fe_layer"
LABEL = "__fe_label"
FACET = "__fe_facet"
TEXT = "__fe_text"
X = "__fe_x"
Y = "__fe_y"


def lazy(data: Any, func: str) -> pl.LazyFrame:
    """Any supported frame as a LazyFrame (charts accept DataFrame, LazyFrame, pandas, pyarrow)."""
    return to_lazy(data, func)[0]


def gather(lf: pl.LazyFrame, func: str, what: str = "data") -> pl.DataFrame:
    """Collect at the chart boundary; an empty result is an error (there is nothing to draw)."""
    df = collect(lf)
    if df.height == 0:
        raise EmptyFrameError(f"{func}(): {what} must have at least one row, got an empty frame.")
    return df


def columns(
    lf: pl.LazyFrame, func: str, numeric: dict[str, str] | None = None, **roles: Any
) -> pl.Schema:
    """The schema, after checking that every named role column exists (and numeric ones are)."""
    schema = lf.collect_schema()
    check_plotted(schema, func, numeric, **roles)
    return schema


def check_plotted(
    schema: pl.Schema, func: str, numeric: dict[str, Any] | None = None, /, **roles: Any
) -> None:
    """The columns a chart reads, declared and compiled (schema only: a chart has no row rule):
    every role column exists (``numeric``'s first), those of ``numeric`` are integer or float;
    a role may name several (``facet=``, ``measures=``…)."""
    numeric = numeric or {}
    declared = Inputs(
        *(Column(r, "numeric", several=True) for r in numeric),
        *(Column(r, several=True) for r in roles),
    )
    declared.compile(schema, func, **numeric, **roles)


def key_columns(
    schema: pl.Schema, values: Iterable[str], by: str | Sequence[str] | None, func: str
) -> list[str]:
    """The key columns of a frame: ``by=`` if given, else every column that is not a value."""
    if by is not None:
        keys = as_keys(by)
        check_plotted(schema, func, by=keys)
        return keys
    values = set(values)
    return [name for name in schema.names() if name not in values]


def over(expr: pl.Expr, keys: Sequence[str]) -> pl.Expr:
    """``expr`` per group of ``keys`` (over the whole frame when there are none)."""
    return expr.over(keys) if keys else expr


def per_group(df: pl.DataFrame, keys: Sequence[str], *aggs: Any, **options: Any) -> pl.DataFrame:
    """``aggs`` per group of ``keys`` (one row for the whole frame when there are none)."""
    by: list[Any] = list(keys) or [pl.lit(0).alias("__fe_all")]
    return df.group_by(*by, **options).agg(*aggs).drop("__fe_all", strict=False)


def join_on(left: Any, right: Any, keys: Sequence[str], how: Any = "inner", **extra: Any) -> Any:
    """Join two frames on ``keys`` (nulls equal), or cross-join them when there are no keys."""
    if keys:
        return left.join(right, on=keys, how=how, nulls_equal=True, **extra)
    return left.join(right, how="cross", **extra)


@dataclass
class Keyed:
    """A chart's main frame after the checks every curve chart makes, in this order: its
    columns, key columns, facet columns and colour key."""

    lf: pl.LazyFrame
    schema: pl.Schema
    keys: list[str]
    facets: list[str]
    color: str | None


def keyed(
    data: Any,
    func: str,
    numeric: dict[str, str],
    values: Iterable[str],
    by: str | Sequence[str] | None,
    facet: str | Sequence[str] | None,
    color: str | None,
) -> Keyed:
    """Check a curve frame (numeric value columns, ``by=``, ``facet=``, ``color=``)."""
    lf = lazy(data, func)
    schema = columns(lf, func, numeric=numeric)
    keys = key_columns(schema, values, by, func)
    facets = facet_columns(facet, schema, func)
    return Keyed(lf, schema, keys, facets, resolve_color(color, keys, facets, func))


def curve_rows(
    k: Keyed,
    x: str,
    y: str,
    order: Sequence[str],
    descending: Sequence[bool],
    max_points: int,
    func: str,
    lf: pl.LazyFrame | None = None,
) -> pl.DataFrame:
    """A curve's rows to draw (``k.lf``, or ``lf`` derived from it), thinned along
    ``order``, with the threshold as text for tooltips when the curve has one."""
    extra = threshold_text(k.schema)
    thinned = thin_curve(
        (k.lf if lf is None else lf).with_columns(extra),
        x,
        y,
        by=k.keys,
        order=order,
        descending=descending,
        max_points=max_points,
    )
    shown = [*k.keys, x, y, ORDER, *(["__fe_threshold"] if extra else [])]
    return gather(thinned.select(shown), func, "curve=")


def facet_columns(facet: str | Sequence[str] | None, schema: pl.Schema, func: str) -> list[str]:
    cols = as_keys(facet)
    check_plotted(schema, func, facet=cols)
    return cols


def resolve_color(
    color: str | None, keys: Sequence[str], facet: Sequence[str], func: str, role: str = "key"
) -> str | None:
    """``color=`` if given (it must be a key column), else the last key not used for facets."""
    if color is not None:
        if color not in keys:
            raise InvalidParameterError(
                f"{func}(): color= must name a {role} column of the frame (one of "
                f"{list(keys)}), got {color!r}."
            )
        return color
    rest = [k for k in keys if k not in facet]
    return rest[-1] if rest else None


def field(name: str) -> str:
    """A column name as a Vega-Lite field (dots and brackets would otherwise mean nesting)."""
    for char in ("\\", ".", "[", "]"):
        name = name.replace(char, "\\" + char)
    return name


def sanitize(df: pl.DataFrame) -> pl.DataFrame:
    """Make a frame JSON-safe for Vega: non-finite floats → null, categoricals/temporal → string."""
    exprs = []
    for name, dtype in df.schema.items():
        col = pl.col(name)
        if dtype.is_float():
            exprs.append(pl.when(col.is_finite()).then(col).otherwise(None).alias(name))
        elif isinstance(dtype, pl.Categorical | pl.Enum) or dtype.is_temporal():
            exprs.append(col.cast(pl.String))
        elif isinstance(dtype, pl.Decimal):
            exprs.append(col.cast(pl.Float64))
        elif dtype in (pl.Object, pl.Binary) or dtype.is_nested():
            exprs.append(col.cast(pl.String, strict=False))
    return df.with_columns(exprs) if exprs else df


def fixed(expr: pl.Expr, digits: int = 3) -> pl.Expr:
    """A number as text with ``digits`` decimals ("0.912"); null/NaN → "undefined"."""
    factor = 10**digits
    finite = pl.when(expr.is_finite()).then(expr).otherwise(0.0)
    scaled = (finite.abs() * factor).round(0).cast(pl.Int64, strict=False)
    whole = (scaled // factor).cast(pl.String)
    frac = (scaled % factor).cast(pl.String).str.zfill(digits)
    sign = pl.when((finite < 0) & (scaled > 0)).then(pl.lit("-")).otherwise(pl.lit(""))
    text = (
        pl.concat_str([sign, whole, pl.lit("."), frac]) if digits else pl.concat_str([sign, whole])
    )
    return (
        pl.when(expr.is_null() | expr.is_nan())
        .then(pl.lit("undefined"))
        .when(expr.is_infinite())
        .then(pl.when(expr > 0).then(pl.lit("+∞")).otherwise(pl.lit("−∞")))
        .otherwise(text)
    )


def significant(expr: pl.Expr, digits: int = 4) -> pl.Expr:
    """A number as text with ``digits`` significant digits ("0.1235", "1e-7"); ±inf as "±∞"."""
    return (
        pl.when(expr.is_infinite())
        .then(pl.when(expr > 0).then(pl.lit("+∞")).otherwise(pl.lit("−∞")))
        .otherwise(expr.round_sig_figs(digits).cast(pl.String))
    )


def as_text(name: str) -> pl.Expr:
    """A key column as display text."""
    return pl.col(name).cast(pl.String).fill_null("null")


def value_order(df: pl.DataFrame, name: str) -> list[Any]:
    """The distinct values of a column in sorted order (numbers numerically), as drawn."""
    return df.get_column(name).unique().sort(nulls_last=True).to_list()


def ordered_by(df: pl.DataFrame, name: str, stat: pl.Expr, descending: bool = False) -> list[Any]:
    """The values of column ``name`` ordered by ``stat`` over each value's rows (ties by the
    value): a layout order, written out because Vega-Lite drops a sort by field on layers."""
    return (
        df.group_by(name)
        .agg(stat.alias("__fe_stat"))
        .sort(["__fe_stat", name], descending=[descending, False], nulls_last=True)
        .get_column(name)
        .to_list()
    )


@dataclass
class Facet:
    """A resolved facet: the field to facet on and its title (None = no facet)."""

    field: str | None
    title: str
    count: int


def add_facet(df: pl.DataFrame, cols: Sequence[str]) -> tuple[pl.DataFrame, Facet]:
    """One facet field for ``cols``: the column itself, or a combined label for several."""
    if not cols:
        return df, Facet(None, "", 0)
    if len(cols) == 1:
        return df, Facet(cols[0], cols[0], df.get_column(cols[0]).n_unique())
    df = df.with_columns(
        pl.concat_str([pl.lit(f"{c}=") + as_text(c) for c in cols], separator=", ").alias(FACET)
    )
    return df, Facet(FACET, ", ".join(cols), df.get_column(FACET).n_unique())


def facet_chart(
    chart: Any,
    facet: Facet,
    chart_title: alt.TitleParams | str,
    *,
    columns: int = 3,
    resolve: dict[str, Any] | None = None,
    panel_width: int | None = None,
    spacing: int | None = None,
    legend: bool = True,
) -> alt.TopLevelMixin:
    """Wrap a layer in a facet (when asked) and set the title on the outermost chart.

    With ``panel_width`` the number of columns is also capped so that the panels (plus their
    y axis, ``spacing`` and, with ``legend``, a legend column) fit in :data:`theme.PAGE` pixels.
    ``spacing`` is the gap between columns (rows keep 20 px).
    When the last row is not full, every panel draws its own x axis, so no empty cell shows a
    bare axis.
    """
    if facet.field is None:
        return chart.properties(title=chart_title)
    if panel_width is not None:
        columns = min(columns, fitting(panel_width, legend, 20 if spacing is None else spacing))
    columns = max(1, min(columns, facet.count))
    out = chart.facet(
        facet=alt.Facet(field=field(facet.field), type="nominal", header=theme.header()),
        columns=columns,
        **({"spacing": alt.RowColnumber(row=20, column=spacing)} if spacing is not None else {}),
    ).properties(title=chart_title)
    if resolve:
        out = out.resolve_scale(**resolve)
    if facet.count % columns:
        out = out.resolve_axis(x="independent")
    return out


def fitting(panel_width: int, legend: bool, gap: int = 20) -> int:
    """How many panels ``panel_width`` wide (plus their y axis and ``gap``) fit the page beside
    a legend column (with ``legend``), at least one."""
    room = theme.PAGE - (theme.LEGEND if legend else 0)
    return max(1, (room + gap) // (panel_width + theme.Y_AXIS + gap))


def panels(
    layers: Sequence[Any],
    data: Any,
    panel: Facet,
    title: str | None,
    subtitle: str | list[str] | None,
    width: int,
    height: int,
    **options: Any,
) -> alt.TopLevelMixin:
    """``layers`` drawn from ``data`` in a ``width`` × ``height`` panel, faceted by ``panel``
    under ``title`` and ``subtitle`` (``options``: those of :func:`facet_chart`)."""
    chart = alt.layer(*layers, data=data).properties(width=width, height=height)
    return facet_chart(chart, panel, theme.title(title, subtitle), **options)


def band_axis(
    label: str | None, labels: Sequence[Any], band: float, *, orient: str = "bottom", **extra: Any
) -> alt.Axis:
    """An axis of categories ``band`` pixels apart: labels level while the longest fits its band,
    else angled at 40° (and never truncated below 200 px) so that long names never collide."""
    longest = max((len(str(v)) for v in labels), default=0)
    if longest * 6.5 <= band - 4:
        return theme.axis(label, orient=orient, labelAngle=0, **extra)
    return theme.axis(
        label,
        orient=orient,
        labelAngle=-40,
        labelAlign="left" if orient == "top" else "right",
        labelBaseline="middle",
        labelLimit=200,
        labelOverlap=False,
        **extra,
    )


def tooltip(name: str, kind: str = "nominal", fmt: str | None = None, label: str | None = None):
    """A tooltip entry for column ``name``."""
    params: dict[str, Any] = {"field": field(name), "type": kind, "title": label or name}
    if fmt is not None:
        params["format"] = fmt
    return alt.Tooltip(**params)


def key_tooltips(keys: Iterable[str]) -> list[alt.Tooltip]:
    return [tooltip(k) for k in keys]


def details(keys: Sequence[str], used: Sequence[str | None], *extra: str) -> dict[str, Any]:
    """``detail=`` for the keys neither coloured nor faceted (each still draws its own line)."""
    names = [k for k in keys if k not in set(used)] + list(extra)
    if not names:
        return {}
    return {"detail": [alt.Detail(field=field(k), type="nominal") for k in names]}


def threshold_text(schema: pl.Schema) -> list[pl.Expr]:
    """``__fe_threshold``: the curve's ``threshold`` as short text for tooltips (none without
    a ``threshold`` column)."""
    if "threshold" not in schema:
        return []
    return [significant(pl.col("threshold").cast(pl.Float64)).alias("__fe_threshold")]


def color_encoding(
    name: str,
    label: str,
    df: pl.DataFrame,
    sort: list[Any] | None = None,
    *,
    legend_offset: int | None = None,
    **extra: Any,
) -> alt.Color:
    """A categorical colour encoding on ``name`` with a legend titled ``label`` (``legend_offset``
    pixels right of the plot: room for labels drawn beside it)."""
    order = sort if sort is not None else value_order(df, name)
    offset = {} if legend_offset is None else {"offset": legend_offset}
    return alt.Color(
        field=field(name),
        type="nominal",
        sort=order,
        scale=alt.Scale(scheme=theme.scheme(len(order))),
        legend=theme.legend(label, **offset),
        **extra,
    )


def series_encodings(
    name: str, label: str, order: list[Any], color: str | None, df: pl.DataFrame
) -> dict[str, Any]:
    """Series (measures, components: column ``name``, in ``order``) told apart by colour, or,
    with a colour key ``color``, by dash pattern while the key takes the colour."""
    if color is None:
        return {"color": color_encoding(name, label, df, order)}
    dash = alt.StrokeDash(field=field(name), type="nominal", sort=order, legend=theme.legend(label))
    return {"color": color_encoding(color, color, df), "strokeDash": dash}


def key_colors(color: str | None, df: pl.DataFrame) -> tuple[dict[str, Any], dict[str, Any]]:
    """The ``color=`` encoding on key ``color`` and the marks' fixed ink: one of the two is
    empty (no colour key: every mark in :data:`theme.INK`)."""
    if color is None:
        return {}, {"color": theme.INK}
    return {"color": color_encoding(color, color, df)}, {}


def interval_marks(
    base: alt.Chart,
    fields: tuple[str, str, str],
    axis: alt.Axis,
    scale: alt.Scale,
    ink: dict[str, Any],
    *,
    interval: bool = True,
    **enc: Any,
) -> list[alt.Chart]:
    """Estimates as dots on the rules of their intervals (``fields``: estimate, lower, upper)
    along x; ``enc`` (y, colour, tooltip) is shared by both marks."""
    estimate, lower, upper = fields
    low = alt.X(field=lower, type="quantitative", scale=scale, axis=axis)
    rule = base.mark_rule(strokeWidth=2, **ink).encode(x=low, x2=alt.X2(field=upper), **enc)
    dot = base.mark_point(filled=True, size=60, opacity=1, **ink).encode(
        x=alt.X(field=estimate, type="quantitative", scale=scale, axis=axis), **enc
    )
    return [rule, dot] if interval else [dot]


#: The unit interval, as drawn (ROC, P-R, calibration, gains).
UNIT = alt.Scale(domain=[0, 1], nice=False)


def guide_line(dash: list[int], x_scale: Any, y_scale: Any = alt.Undefined, frame: Any = None):
    """A dashed grey reference line through ``frame``'s (x, y) points, default the diagonal
    from (0, 0) to (1, 1)."""
    if frame is None:
        frame = pl.DataFrame({"x": [0.0, 1.0], "y": [0.0, 1.0]})
    return (
        alt.Chart(frame)
        .mark_line(color=theme.GUIDE, strokeWidth=1, strokeDash=dash)
        .encode(
            x=alt.X(field="x", type="quantitative", scale=x_scale),
            y=alt.Y(field="y", type="quantitative", scale=y_scale),
        )
    )


def key_color(color: str | None, df: pl.DataFrame) -> Any:
    """The colour encoding on key ``color`` (legend titled by its name), or the one ink colour
    when there is no colour key."""
    return color_encoding(color, color, df) if color is not None else alt.value(theme.INK)


def layer_filter(name: str) -> str:
    """A Vega expression keeping the rows of one layer of a combined data set."""
    return f"datum['{LAYER}'] === '{name}'"


def only(chart: alt.Chart, name: str) -> alt.Chart:
    """``chart`` drawing the rows of layer ``name`` of the combined data set only."""
    return chart.transform_filter(layer_filter(name))


def hover_line(width: float = 2, **mark: Any) -> alt.Chart:
    """A curve's line, with invisible points that carry its tooltips."""
    return alt.Chart().mark_line(
        strokeWidth=width, point=alt.OverlayMarkDef(opacity=0, size=40), **mark
    )


def threshold_tooltips(schema: pl.Schema) -> list[alt.Tooltip]:
    """The tooltip of :func:`threshold_text`'s column (none without a ``threshold`` column)."""
    return [tooltip("__fe_threshold", label="threshold")] if "threshold" in schema else []


def curve_tips(k: Keyed, *values: tuple[str, str | None]) -> list[alt.Tooltip]:
    """A curve's tooltips: its keys, its threshold (when it has one) and ``values`` (column,
    label) to three decimals."""
    return [
        *key_tooltips(k.keys),
        *threshold_tooltips(k.schema),
        *[tooltip(name, "quantitative", ".3f", label) for name, label in values],
    ]


@dataclass
class Summary:
    """How a per-group number (AUC, BEP, expected total cost) is shown next to its curve.

    ``legend`` mode (the number is a function of the colour): :meth:`apply` adds a ``LABEL``
    column ("A (AUC 0.912)") that becomes the colour field. Otherwise ``rows`` (layer "summary")
    carry text and positions drawn as a text layer inside each panel.
    """

    color_field: str | None
    color_sort: list[Any] | None
    labels: pl.DataFrame | None = None
    rows: pl.DataFrame | None = None

    def apply(self, df: pl.DataFrame) -> pl.DataFrame:
        """Add the legend label column to a layer's rows (legend mode only)."""
        if self.labels is None:
            return df
        key = self.labels.columns[0]
        return df.join(self.labels, on=key, how="left", nulls_equal=True).with_columns(
            pl.coalesce(LABEL, as_text(key)).alias(LABEL)
        )


def summarize(
    main: pl.DataFrame,
    summary: Any,
    *,
    value: str,
    name: str,
    func: str,
    role: str,
    keys: Sequence[str],
    color: str | None,
    facet: Sequence[str],
    anchor: tuple[float, float, float],
) -> Summary:
    """Attach a per-group number to the curves, as legend labels or in-panel annotations.

    ``main`` holds the drawn rows (for the groups present); ``anchor`` is (x, y of the first
    annotation line, step in y) in data coordinates.
    """
    base_sort = value_order(main, color) if color is not None else None
    if summary is None:
        return Summary(color, base_sort)
    slf = lazy(summary, func)
    schema = slf.collect_schema()
    check_plotted(schema, func, {role: value})
    skeys = [c for c in schema.names() if c != value]
    extra = [c for c in skeys if c not in keys]
    if extra:
        raise InvalidParameterError(
            f"{func}(): {role}= frame has key columns the curve frame lacks, got {extra} "
            f"(curve keys: {list(keys)})."
        )
    sdf = gather(slf.select(*skeys, value), func, f"{role}=")
    sdf = sdf.with_columns(fixed(pl.col(value)).alias(TEXT))
    if color is not None and skeys == [color]:
        present = main.select(color).unique()
        labels = present.join(sdf, on=color, how="left", nulls_equal=True).select(
            color,
            (as_text(color) + f" ({name} " + pl.col(TEXT).fill_null("undefined") + ")").alias(
                LABEL
            ),
        )
        order = labels.sort(color, nulls_last=True).get_column(LABEL).to_list()
        return Summary(LABEL, order, labels=labels)
    # annotation: one text line per group and panel
    group_cols = list(dict.fromkeys([*facet, *skeys, *([color] if color else [])]))
    if not group_cols:
        rows = sdf
    elif skeys:
        rows = main.select(group_cols).unique().join(sdf, on=skeys, how="inner", nulls_equal=True)
    else:
        rows = main.select(group_cols).unique().join(sdf, how="cross")
    shown = [c for c in group_cols if c not in facet]
    prefix = (
        pl.concat_str([as_text(c) for c in shown], separator=" · ") + pl.lit(": ")
        if shown
        else pl.lit("")
    )
    x0, y0, step = anchor
    line = pl.int_range(pl.len()).over(facet) if facet else pl.int_range(pl.len())
    rows = (rows.sort(group_cols, nulls_last=True) if group_cols else rows).with_columns(
        (prefix + pl.lit(f"{name} ") + pl.col(TEXT)).alias(TEXT),
        pl.lit(x0).alias(X),
        (pl.lit(y0) + pl.lit(step) * line).alias(Y),
        pl.lit("summary").alias(LAYER),
    )
    return Summary(color, base_sort, rows=rows.drop(value))


#: Line height (pixels) of summary text placed beside a panel.
LINE = 14


def beside(summary: Summary, width: int, facet: Sequence[str]) -> Summary:
    """Place an annotation-mode summary's text beside the panel (right of it, one line each,
    from the top) instead of inside it, so that no label sits on a curve. Positions become
    pixels (drawn with ``scale=None``); :func:`summary_layer` draws them with ``pixels=True``."""
    if summary.rows is None:
        return summary
    line = pl.int_range(pl.len()).over(facet) if facet else pl.int_range(pl.len())
    summary.rows = summary.rows.with_columns(
        pl.lit(float(width + 10)).alias(X), (LINE * line + LINE / 2).cast(pl.Float64).alias(Y)
    )
    return summary


def summary_layer(
    summary: Summary, df: pl.DataFrame, align: Any, *, pixels: bool = False
) -> list[alt.Chart]:
    """The text layer of an annotation-mode summary (empty in legend mode): inside the panel in
    data coordinates, or with ``pixels`` at pixel positions (see :func:`beside`)."""
    if summary.rows is None:
        return []
    scale: dict[str, Any] = {"scale": None} if pixels else {}
    enc: dict[str, Any] = {
        "x": alt.X(field=X, type="quantitative", **scale),
        "y": alt.Y(field=Y, type="quantitative", **scale),
        "text": alt.Text(field=TEXT, type="nominal"),
    }
    if summary.color_field is not None:
        enc["color"] = color_encoding(
            summary.color_field, summary.color_field, df, summary.color_sort
        )
    return [
        alt.Chart()
        .mark_text(align="left" if pixels else align, baseline="middle", fontSize=theme.FONT_SIZE)
        .encode(**enc)
        .transform_filter(layer_filter("summary"))
    ]


def combine(frames: Sequence[pl.DataFrame | None]) -> pl.DataFrame:
    """One data set for all faceted layers (each tagged by ``LAYER``), JSON-safe."""
    parts = [f for f in frames if f is not None]
    return sanitize(pl.concat(parts, how="diagonal_relaxed"))


def require_keys(schema: pl.Schema, func: str, role: str, keys: Sequence[str]) -> None:
    """A companion frame (``lines=``…, of ``schema``) must carry every key column of the main
    frame."""
    missing = [k for k in keys if k not in schema]
    if missing:
        raise ColumnNotFoundError(
            f"{func}(): {role} frame lacks key columns {list(missing)} of the curve frame, "
            f"got keys {list(keys)}."
        )


def value_color(name: str, label: str, scheme: Any = theme.SEQUENTIAL, **scale: Any) -> alt.Color:
    """A heatmap's colour: column ``name`` on a ``scheme`` scale (``scale``: its other
    properties), the legend titled ``label``."""
    return alt.Color(
        field=name,
        type="quantitative",
        scale=alt.Scale(scheme=scheme, **scale),
        legend=theme.legend(label),
    )


def cell_rect(x: alt.X, y: alt.Y, color: alt.Color, tooltip: list[alt.Tooltip]) -> alt.Chart:
    """A heatmap's cells: one white-edged rectangle per (x, y), coloured by ``color``."""
    return (
        alt.Chart()
        .mark_rect(stroke="white", strokeWidth=1)
        .encode(x=x, y=y, color=color, tooltip=tooltip)
    )


def cell_text(x: alt.X, y: alt.Y, text: alt.Text, size: int = theme.FONT_SIZE, **mark: Any):
    """A heatmap's numbers, white on the dark cells (boolean column ``__fe_dark``)."""
    return (
        alt.Chart()
        .mark_text(fontSize=size, **mark)
        .encode(
            x=x,
            y=y,
            text=text,
            color=alt.condition("datum['__fe_dark']", alt.value("white"), alt.value(theme.INK)),
        )
    )


def pair_axes(df: pl.DataFrame, row: str, column: str) -> tuple[list[Any], alt.X, alt.Y]:
    """The learners of a pairwise matrix (columns ``a``, ``b``) in sorted order and the axes:
    column learner ``b`` on top, row learner ``a`` on the left."""
    learners = sorted(set(df["a"].to_list()) | set(df["b"].to_list()), key=str)
    x_axis = theme.axis(column, orient="top", labelAngle=0)
    x = alt.X(field="b", type="nominal", sort=learners, axis=x_axis)
    return learners, x, alt.Y(field="a", type="nominal", sort=learners, axis=theme.axis(row))
