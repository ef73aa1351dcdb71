"""Charts of regression results and quantile forecasts, drawn from aggregates only.

A regression result frame has one row per prediction, so a study of millions of rows cannot be
drawn point by point. Each chart here bins the rows with Polars (a LazyFrame is collected only
as the small table of bin counts) and draws the bins: a 20M-row study gives a chart of a few
kilobytes. Bins are shared by every panel and colour of a chart, so they compare directly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from frameeval._frame import as_keys, collect
from frameeval._params import Number
from frameeval.charts import _base as b
from frameeval.charts import _theme as theme
from frameeval.exceptions import MissingValueError

BIN_X, BIN_Y = "x_bin", "y_bin"
X0, X1, Y0, Y1 = "x_start", "x_end", "y_start", "y_end"
_RESIDUAL = (pl.col("__fe_t") - pl.col("__fe_p")).alias("__fe_r")


_BINS = Number(low=2, high=500, integer=True)


def _check_bins(func: str, bins: Any) -> int:
    return int(_BINS(func, "bins", bins))


def _open(
    data: Any, func: str, truth: str, pred: str, keys: Sequence[str]
) -> tuple[pl.LazyFrame, list[str]]:
    lf = b.lazy(data, func)
    schema = b.columns(lf, func, numeric={"truth": truth, "pred": pred})
    keys = list(dict.fromkeys(keys))
    b.check_plotted(schema, func, by=keys)
    lf = lf.select(
        *keys,
        pl.col(truth).cast(pl.Float64).alias("__fe_t"),
        pl.col(pred).cast(pl.Float64).alias("__fe_p"),
    )
    return lf, keys


def _range(
    lf: pl.LazyFrame, func: str, names: dict[str, pl.Expr]
) -> dict[str, tuple[float, float]]:
    """(low, high) of each expression over the whole frame, in one pass; a non-finite or null
    value is an error (it has no bin)."""
    aggs = []
    for name, expr in names.items():
        aggs += [expr.min().alias(f"{name}_lo"), expr.max().alias(f"{name}_hi")]
    bad = pl.sum_horizontal(
        *[(~pl.col(c).is_finite()).fill_null(True).sum() for c in ("__fe_t", "__fe_p")]
    )
    row = collect(lf.select(*aggs, bad.alias("bad"))).row(0, named=True)
    if row["bad"]:
        raise MissingValueError(
            f"{func}(): truth and pred must be finite and not null, got {row['bad']} "
            "null, NaN or infinite values."
        )
    out = {}
    for name in names:
        lo, hi = row[f"{name}_lo"], row[f"{name}_hi"]
        if lo is None:
            raise b.EmptyFrameError(
                f"{func}(): data must have at least one row, got an empty frame."
            )
        if hi <= lo:  # one value: a unit-wide bin around it
            lo, hi = lo - 0.5, hi + 0.5
        out[name] = (float(lo), float(hi))
    return out


def _bin(expr: pl.Expr, lo: float, hi: float, bins: int) -> pl.Expr:
    width = (hi - lo) / bins
    return ((expr - lo) / width).floor().clip(0, bins - 1).cast(pl.Int32)


def _edges(column: str, lo: float, hi: float, bins: int, start: str, end: str) -> list[pl.Expr]:
    width = (hi - lo) / bins
    return [
        (lo + pl.col(column).cast(pl.Float64) * width).alias(start),
        (lo + (pl.col(column).cast(pl.Float64) + 1.0) * width).alias(end),
    ]


def _vega_edges(
    column: str, lo: float, hi: float, bins: int, start: str, end: str
) -> dict[str, str]:
    """The bin edges as Vega expressions of the bin index: the data carry only indices and
    counts (a few bytes per cell)."""
    width = (hi - lo) / bins
    return {
        start: f"{lo!r} + datum['{column}'] * {width!r}",
        end: f"{lo!r} + (datum['{column}'] + 1) * {width!r}",
    }


def _cells(
    lf: pl.LazyFrame,
    facets: list[str],
    bins: int,
    x: tuple[str, float, float],
    y: tuple[str, float, float],
) -> tuple[pl.DataFrame, dict[str, str]]:
    """The non-empty cells of the 2-D histogram of columns ``x`` and ``y`` (each ``(column,
    low, high)``) per panel: ``*facets, x_bin, y_bin, count`` and the Vega expressions of their
    edges."""
    (xc, xlo, xhi), (yc, ylo, yhi) = x, y
    counts = collect(
        lf.group_by(
            *facets,
            _bin(pl.col(xc), xlo, xhi, bins).alias(BIN_X),
            _bin(pl.col(yc), ylo, yhi, bins).alias(BIN_Y),
        )
        .agg(pl.len().cast(pl.Int64).alias("count"))
        .sort(*facets, BIN_X, BIN_Y)
    )
    edges = {
        **_vega_edges(BIN_X, xlo, xhi, bins, X0, X1),
        **_vega_edges(BIN_Y, ylo, yhi, bins, Y0, Y1),
    }
    return counts.select(*facets, BIN_X, BIN_Y, "count"), edges


def _zero(channel: str) -> Any:
    """A dashed rule at 0 on ``channel`` (``"x"`` or ``"y"``), drawn in every panel."""
    import altair as alt

    position = alt.X if channel == "x" else alt.Y
    return (
        alt.Chart(pl.DataFrame({channel: [0.0]}))
        .mark_rule(color=theme.GUIDE, strokeWidth=1, strokeDash=[5, 4])
        .encode(**{channel: position(field=channel, type="quantitative")})
    )


def _binned_2d(
    func: str,
    data: Any,
    truth: str,
    pred: str,
    facet: str | Sequence[str] | None,
    bins: int,
    title: str | None,
    width: int,
    height: int,
) -> Any:
    """:func:`predicted_actual` (pred against truth, the diagonal) or :func:`residuals`
    (truth − pred against pred, the rule at 0): the non-empty cells of the 2-D histogram."""
    import altair as alt

    bins = _check_bins(func, bins)
    lf, facets = _open(data, func, truth, pred, as_keys(facet))
    if func == "residuals":
        lf = lf.with_columns(_RESIDUAL)
        span = _range(lf, func, {"pred": pl.col("__fe_p"), "residual": pl.col("__fe_r")})
        (xlo, xhi), (ylo, yhi) = span["pred"], span["residual"]
        x, y = ("__fe_p", xlo, xhi), ("__fe_r", ylo, yhi)
        x_title, y_title, guide = f"Predicted ({pred})", "Residual", _zero("y")
        note = "residual = truth − pred"
    else:
        both = pl.min_horizontal("__fe_t", "__fe_p"), pl.max_horizontal("__fe_t", "__fe_p")
        span = _range(lf, func, {"low": both[0], "high": both[1]})
        lo, hi = span["low"][0], span["high"][1]
        x, y = ("__fe_t", lo, hi), ("__fe_p", lo, hi)
        x_title, y_title = f"Actual ({truth})", f"Predicted ({pred})"
        scale = alt.Scale(domain=[lo, hi], nice=False, zero=False)
        # the dashed guide y = x on its own data: every panel draws it
        guide = b.guide_line(
            [5, 4], scale, scale, frame=pl.DataFrame({"x": [lo, hi], "y": [lo, hi]})
        )
        note = "dashed: pred = truth"
    df, edges = _cells(lf, facets, bins, x, y)
    data_, panel = b.add_facet(b.sanitize(df), facets)
    tips = [
        *b.key_tooltips(facets),
        b.tooltip(X0, "quantitative", ".4g", f"{x_title} from"),
        b.tooltip(X1, "quantitative", ".4g", "to"),
        b.tooltip(Y0, "quantitative", ".4g", f"{y_title} from"),
        b.tooltip(Y1, "quantitative", ".4g", "to"),
        b.tooltip("count", "quantitative", label="rows"),
    ]
    cells = (
        alt.Chart()
        .mark_rect()
        .transform_calculate(**edges)
        .encode(
            x=alt.X(field=X0, type="quantitative", axis=theme.axis(x_title)),
            x2=alt.X2(field=X1),
            y=alt.Y(field=Y0, type="quantitative", axis=theme.axis(y_title)),
            y2=alt.Y2(field=Y1),
            color=b.value_color("count", "Rows", type="log"),
            tooltip=tips,
        )
    )
    subtitle = f"rows per cell, {bins} × {bins} bins; {note}"
    return b.panels([cells, guide], data_, panel, title, subtitle, width, height, panel_width=width)


def predicted_actual(
    data: Any,
    truth: str,
    pred: str,
    *,
    facet: str | Sequence[str] | None = None,
    bins: int = 30,
    title: str | None = "Predicted against actual",
    width: int = theme.SQUARE,
    height: int = theme.SQUARE,
) -> Any:
    """Predicted against actual values as a two-dimensional histogram, with the diagonal.

    Parameters
    ----------
    data
        Regression result frame, one row per prediction (DataFrame or LazyFrame; only the bin
        counts are collected).
    truth, pred
        Numeric columns with the true and the predicted values (finite, not null).
    facet
        Key column(s) giving one panel each (e.g. the learner).
    bins
        Number of bins along each axis, in [2, 500]; both axes share one range (the smallest to
        the largest of truth and pred), so the diagonal is y = x.
    title, width, height
        Chart title and the size of one panel in pixels.

    Returns
    -------
    alt.LayerChart or alt.FacetChart
        Layers: ``rect`` cells coloured by their number of rows (log scale; empty cells are not
        drawn) and the dashed diagonal ``pred = truth``.

    Notes
    -----
    A perfect regressor puts every row on the diagonal; cells above it are over-predictions,
    below it under-predictions. Only non-empty cells are sent to the chart (at most
    ``bins²`` per panel).

    Examples
    --------
    >>> df = pl.DataFrame({"y": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
    ...                    "f": [1.5, 2.0, 2.0, 4.5, 5.0, 7.0]})
    >>> spec = fe.charts.predicted_actual(df, "y", "f", bins=4).to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]]
    ['rect', 'line']
    """
    return _binned_2d("predicted_actual", data, truth, pred, facet, bins, title, width, height)


def residuals(
    data: Any,
    truth: str,
    pred: str,
    *,
    facet: str | Sequence[str] | None = None,
    bins: int = 30,
    title: str | None = "Residuals against predicted",
    width: int = theme.SQUARE,
    height: int = theme.SQUARE,
) -> Any:
    """Residuals (truth − pred) against the predicted value, as a two-dimensional histogram.

    Parameters
    ----------
    data, truth, pred, facet, title, width, height
        As in :func:`predicted_actual`.
    bins
        Number of bins along each axis, in [2, 500], shared by every panel.

    Returns
    -------
    alt.LayerChart or alt.FacetChart
        Layers: ``rect`` cells coloured by their number of rows (log scale) and a rule at
        residual 0.

    Notes
    -----
    Residual = truth − pred (positive: the model predicted too low). A band centred on 0 of
    constant width is what a well-specified model with constant noise gives; a funnel shows
    heteroscedastic errors, a curve a systematic bias that depends on the prediction.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
    ...                    "f": [1.5, 2.0, 2.0, 4.5, 5.0, 7.0]})
    >>> spec = fe.charts.residuals(df, "y", "f", bins=4).to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]]
    ['rect', 'rule']
    """
    return _binned_2d("residuals", data, truth, pred, facet, bins, title, width, height)


def residual_distribution(
    data: Any,
    truth: str,
    pred: str,
    *,
    color: str | None = None,
    facet: str | Sequence[str] | None = None,
    bins: int = 40,
    title: str | None = "Distribution of residuals",
    width: int = theme.WIDE,
    height: int = theme.TALL,
) -> Any:
    """Histogram of the residuals (truth − pred) per learner, as the share of each learner's
    rows per bin, drawn as overlaid steps.

    Parameters
    ----------
    data, truth, pred
        As in :func:`predicted_actual`.
    color
        Key column with one histogram each (e.g. ``"learner"``); None draws one.
    facet
        Key column(s) giving one panel each (e.g. the data set).
    bins
        Number of bins, in [2, 500], shared by every histogram.
    title, width, height
        Chart title and the size of one panel in pixels.

    Returns
    -------
    alt.LayerChart or alt.FacetChart
        Layers: a ``line`` (step) per colour, the share of its rows (within its panel) in each
        bin, empty bins at 0, and a rule at residual 0.

    Notes
    -----
    Shares rather than counts, so learners (or panels) with different numbers of rows compare.
    A narrow peak at 0 is an accurate learner; a shifted peak a biased one (mean residual ≠ 0);
    heavy tails show where a squared-error measure and an absolute-error one disagree.

    Examples
    --------
    >>> df = pl.DataFrame({"m": ["a", "a", "a", "b", "b", "b"],
    ...                    "y": [1.0, 2.0, 3.0, 1.0, 2.0, 3.0],
    ...                    "f": [1.5, 2.0, 2.0, 0.5, 2.5, 4.0]})
    >>> spec = fe.charts.residual_distribution(df, "y", "f", color="m", bins=4).to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]]
    ['line', 'rule']
    """
    import altair as alt

    func = "residual_distribution"
    bins = _check_bins(func, bins)
    facets = as_keys(facet)
    colors = [color] if color is not None else []
    lf, keys = _open(data, func, truth, pred, [*facets, *colors])
    lf = lf.with_columns(_RESIDUAL)
    (lo, hi) = _range(lf, func, {"residual": pl.col("__fe_r")})["residual"]
    counts = lf.group_by(*keys, _bin(pl.col("__fe_r"), lo, hi, bins).alias(BIN_X)).agg(
        pl.len().cast(pl.Int64).alias("count")
    )
    df = collect(counts)  # one pass over the rows: the bin counts
    groups = df.select(keys).unique() if keys else pl.DataFrame({"__fe_one": [0]})
    grid = groups.join(
        pl.DataFrame({BIN_X: pl.arange(0, bins, eager=True).cast(pl.Int32)}), how="cross"
    )
    df = (
        grid.join(df, on=[*keys, BIN_X], how="left", nulls_equal=True)
        .with_columns(pl.col("count").fill_null(0))
        .with_columns((pl.col("count") / b.over(pl.col("count").sum(), keys)).alias("share"))
        .sort(*keys, BIN_X)
    )
    width_bin = (hi - lo) / bins
    df = df.select(
        *keys,
        (lo + (pl.col(BIN_X).cast(pl.Float64) + 0.5) * width_bin).alias("residual"),
        *_edges(BIN_X, lo, hi, bins, X0, X1),
        "count",
        "share",
    )
    data_, panel = b.add_facet(b.sanitize(df), facets)
    enc: dict[str, Any] = {"color": b.key_color(color, data_), **b.details(keys, [color, *facets])}
    tips = [
        *b.key_tooltips(keys),
        b.tooltip(X0, "quantitative", ".4g", "residual from"),
        b.tooltip(X1, "quantitative", ".4g", "to"),
        b.tooltip("count", "quantitative", label="rows"),
        b.tooltip("share", "quantitative", ".3f", "share"),
    ]
    steps = (
        alt.Chart()
        .mark_line(interpolate="step", strokeWidth=1.5, point=False)
        .encode(
            x=alt.X(
                field="residual", type="quantitative", axis=theme.axis("Residual (truth − pred)")
            ),
            y=alt.Y(
                field="share", type="quantitative", axis=theme.axis("Share of rows", fmt=".0%")
            ),
            order=alt.Order(field="residual", type="quantitative"),
            tooltip=tips,
            **enc,
        )
    )
    zero = _zero("x")
    subtitle = f"share of rows per bin, {bins} bins"
    return b.panels(
        [steps, zero], data_, panel, title, subtitle, width, height,
        panel_width=width, legend=color is not None,
    )  # fmt: skip


def quantile_coverage(
    scores: Any,
    *,
    by: str | Sequence[str] | None = None,
    color: str | None = None,
    facet: str | Sequence[str] | None = None,
    title: str | None = "Coverage of quantile forecasts",
    width: int = theme.SQUARE,
    height: int = theme.SQUARE,
) -> Any:
    """Empirical coverage against the nominal level of quantile forecasts, with the diagonal.

    Parameters
    ----------
    scores
        Output of ``fe.quantile_scores``: ``*by, quantile, pinball_loss, coverage``
        (DataFrame or LazyFrame; collected here).
    by
        Key columns of ``scores``; by default every column other than the value columns.
    color, facet, title, width, height
        As in :func:`frameeval.charts.roc_band`.

    Returns
    -------
    alt.LayerChart or alt.FacetChart
        Layers: the dashed diagonal coverage = level, a line and points per colour.

    Notes
    -----
    A calibrated forecaster has the truth at or below its τ-quantile a share τ of the time:
    points on the diagonal. Points below it at high levels and above it at low levels are
    intervals that are too narrow (over-confident); the reverse, too wide. Nothing is
    recomputed.

    Examples
    --------
    >>> df = fe.datasets.quantile_forecasts()
    >>> spec = fe.charts.quantile_coverage(fe.quantile_scores(df, "y", "f", "q")).to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]]
    ['line', 'line', 'point']
    """
    import altair as alt

    func = "quantile_coverage"
    values = ("quantile", "pinball_loss", "coverage")
    numeric = {"quantile": "quantile", "coverage": "coverage"}
    k = b.keyed(scores, func, numeric, values, by, facet, color)
    keys, facets, color = k.keys, k.facets, k.color
    shown = [*keys, *[c for c in values if c in k.schema]]
    df = b.gather(k.lf.select(shown), func, "scores=").sort(*keys, "quantile", nulls_last=True)
    data, panel = b.add_facet(b.sanitize(df), facets)
    unit = b.UNIT
    enc, ink = b.key_colors(color, data)
    enc.update(b.details(keys, [color, *facets]))
    tips = [
        *b.key_tooltips(keys),
        b.tooltip("quantile", "quantitative", ".3f", "level"),
        b.tooltip("coverage", "quantitative", ".3f", "coverage"),
        *(
            [b.tooltip("pinball_loss", "quantitative", ".4g", "pinball loss")]
            if "pinball_loss" in df.columns
            else []
        ),
    ]
    diagonal = b.guide_line([5, 4], unit, unit)
    base = alt.Chart().encode(
        x=alt.X(
            field="quantile", type="quantitative", scale=unit, axis=theme.axis("Nominal level τ")
        ),
        y=alt.Y(
            field="coverage",
            type="quantitative",
            scale=unit,
            axis=theme.axis("Share of truths ≤ quantile"),
        ),
        **enc,
    )
    line = base.mark_line(strokeWidth=1.5, **ink).encode(
        order=alt.Order(field="quantile", type="quantitative")
    )
    points = base.mark_point(filled=True, size=45, **ink).encode(tooltip=tips)
    return b.panels(
        [diagonal, line, points], data, panel, title, "dashed: coverage = level (calibrated)",
        width, height, panel_width=width, legend=color is not None,
    )  # fmt: skip


__all__ = ["predicted_actual", "quantile_coverage", "residual_distribution", "residuals"]
