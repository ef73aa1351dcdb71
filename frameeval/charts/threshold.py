"""Measures against the decision threshold, with the chosen operating point marked."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from frameeval.charts import _base as b
from frameeval.charts import _theme as theme
from frameeval.exceptions import InvalidParameterError

COUNTS = ("threshold", "tp", "fp", "tn", "fn")
MEASURE = "measure"
VALUE = "value"


def threshold(
    table: Any,
    measures: Sequence[str] | None = None,
    best: Any = None,
    *,
    by: str | Sequence[str] | None = None,
    color: str | None = None,
    facet: str | Sequence[str] | None = None,
    title: str | None = "Measures by threshold",
    width: int = theme.SQUARE,
    height: int = theme.SQUARE,
) -> Any:
    """Chosen measures against the threshold ("positive iff score ≥ threshold"), one line per
    measure and group, with the operating point of :func:`frameeval.best_threshold` marked.

    Parameters
    ----------
    table
        Output of ``fe.threshold_table``: ``*by, threshold, tp, fp, tn, fn, <measure>...``
        (DataFrame or LazyFrame; collected here).
    measures
        Measure columns of ``table`` to draw; default every one.
    best
        Optional output of ``fe.best_threshold`` on the same keys (``*by, threshold, …``): a
        vertical rule at each group's chosen threshold, and a point on every drawn measure
        there. Groups whose row is null (infeasible) get no mark.
    by
        Key columns of ``table``; by default every column other than the counts and measures.
    color
        ``None``: the measures are coloured (and every key is a panel of ``facet``, by
        default). A key column: the groups are coloured, the measures drawn with different
        dashes.
    facet
        Key column(s) giving one panel each; default the keys not used by ``color``.
    title, width, height
        Chart title and the size of one panel in pixels.

    Returns
    -------
    alt.LayerChart or alt.FacetChart
        Layers: the measure lines (``x`` = threshold, ``y`` = value), then, with ``best``, the
        rules and points of the chosen operating points.

    Notes
    -----
    The start row of a threshold table (``threshold`` = +inf, nothing predicted positive) has no
    place on a numeric axis and is not drawn; nothing is recomputed.

    Examples
    --------
    >>> df = fe.datasets.binary_scores()
    >>> table = fe.threshold_table(df, truth="y", score="s", measures=["f1", "mcc"])
    >>> chart = fe.charts.threshold(table, best=fe.best_threshold(df, truth="y", score="s"))
    >>> [layer["mark"]["type"] for layer in chart.to_dict()["layer"]]
    ['line', 'rule', 'point']
    """
    import altair as alt

    func = "threshold"
    lf = b.lazy(table, func)
    schema = b.columns(lf, func, numeric={"threshold": "threshold"})
    values = _measure_columns(schema, measures, by, func)
    keys = b.key_columns(schema, [*COUNTS, *values], by, func)
    keys = [k for k in keys if k not in COUNTS and k not in values and not schema[k].is_float()]
    facets = b.facet_columns(facet, schema, func)
    if color is not None:
        color = b.resolve_color(color, keys, facets, func)
    if facet is None:
        facets = [k for k in keys if k != color]
    df = b.gather(lf.select(*keys, "threshold", *values), func, "table=")
    long = df.unpivot(
        index=[*keys, "threshold"], on=values, variable_name=MEASURE, value_name=VALUE
    ).filter(pl.col("threshold").is_finite())
    long = long.sort(*keys, MEASURE, "threshold", nulls_last=True)
    data, panel = b.add_facet(b.sanitize(long), facets)

    encoding = b.series_encodings(MEASURE, "measure", values, color, data)
    tips = [
        *b.key_tooltips(keys),
        b.tooltip(MEASURE, label="measure"),
        b.tooltip("threshold", "quantitative", ".4~g", "threshold"),
        b.tooltip(VALUE, "quantitative", ".4f", "value"),
    ]
    x = alt.X(field="threshold", type="quantitative", axis=theme.axis("Threshold (score ≥)"))
    y = alt.Y(field=VALUE, type="quantitative", axis=theme.axis("Value"))
    frames: list[pl.DataFrame] = [data.with_columns(pl.lit("line").alias(b.LAYER))]
    if best is not None:
        frames += _best_frames(best, keys, long, values, facets, func)
    combined = b.combine(frames)
    base = alt.Chart()
    layers: list[Any] = [
        base.transform_filter(b.layer_filter("line"))
        .mark_line(strokeWidth=1.5, interpolate="step-after")
        .encode(x=x, y=y, tooltip=tips, **encoding, **b.details(keys, [color, *facets], MEASURE))
    ]
    if best is not None:
        layers += _best_layers(x, y, keys, tips, encoding["color"], color is not None)
    subtitle = "dashed rule: the chosen operating point" if best is not None else None
    return b.panels(layers, combined, panel, title, subtitle, width, height, panel_width=width)


def _measure_columns(
    schema: pl.Schema, measures: Sequence[str] | str | None, by: Any, func: str
) -> list[str]:
    """The measures drawn: as given (checked numeric), else every float column but the keys."""
    if measures is None:
        values = [c for c in schema.names() if c not in COUNTS and schema[c].is_float()]
        if by is not None:
            values = [c for c in values if c not in b.as_keys(by)]
    else:
        values = list(measures) if not isinstance(measures, str) else [measures]
        b.check_plotted(schema, func, {"measures": values})
    if not values:
        raise InvalidParameterError(
            f"{func}(): table must hold at least one measure column, got {schema.names()}."
        )
    return values


def _best_frames(
    best: Any, keys: list[str], long: pl.DataFrame, values: list[str], facets: list[str], func: str
) -> list[pl.DataFrame]:
    """The chosen thresholds (layer "rule") and the measures there (layer "point")."""
    best_lf = b.lazy(best, func)
    best_schema = b.columns(best_lf, func, numeric={"best": "threshold"})
    b.require_keys(best_schema, func, "best=", keys)
    chosen = b.gather(best_lf.select(*keys, "threshold"), func, "best=").filter(
        pl.col("threshold").is_finite()
    )
    order = {m: i for i, m in enumerate(values)}
    rank = pl.col(MEASURE).replace_strict(order, default=len(order))
    marks = (
        chosen.join(long, on=[*keys, "threshold"], how="inner", nulls_equal=True)
        .sort(*keys, rank, nulls_last=True)
        .with_columns(pl.lit("point").alias(b.LAYER))
    )
    rules = (chosen.sort(*keys, nulls_last=True) if keys else chosen).with_columns(
        pl.lit("rule").alias(b.LAYER)
    )
    return [b.add_facet(b.sanitize(f), facets)[0] for f in (rules, marks)]


def _best_layers(
    x: Any, y: Any, keys: list[str], tips: list[Any], color: Any, keyed: bool
) -> list[Any]:
    """The chosen operating point: a dashed rule at its threshold and the measures there."""
    import altair as alt

    rule_tips = [
        *b.key_tooltips(keys),
        b.tooltip("threshold", "quantitative", ".4~g", "chosen threshold"),
    ]
    rule_color = color if keyed else alt.value(theme.INK)
    return [
        alt.Chart()
        .transform_filter(b.layer_filter("rule"))
        .mark_rule(strokeWidth=1, strokeDash=[4, 3])
        .encode(
            x=alt.X(field="threshold", type="quantitative"), tooltip=rule_tips, color=rule_color
        ),
        alt.Chart()
        .transform_filter(b.layer_filter("point"))
        .mark_point(filled=True, size=60)
        .encode(x=x, y=y, tooltip=tips, color=color),
    ]
