"""Bias–variance (figure 2.9), learning curves and validation curves."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import altair as alt
import polars as pl

from frameeval._inputs import Column, Inputs
from frameeval.charts import _base as b
from frameeval.charts import _theme as theme
from frameeval.evaluate import learning_curve_diagnosis
from frameeval.exceptions import InvalidParameterError

#: Components looked for by default, in legend order, with their display names.
COMPONENTS = {
    "error": "generalisation error",
    "bias_squared": "bias²",
    "bias": "bias",
    "variance": "variance",
    "noise": "noise",
}
_NOT_KEYS = {
    "n_instances",
    "n_repeats",
    "remainder",
    "unbiased_variance",
    "biased_variance",
    "net_variance",
    "main_prediction",
    "actual",
}


def bias_variance(
    decomposition: Any,
    *,
    complexity: str = "complexity",
    components: Sequence[str] | None = None,
    by: str | Sequence[str] | None = None,
    color: str | None = None,
    facet: str | Sequence[str] | None = None,
    title: str | None = "Bias–variance decomposition",
    width: int = theme.WIDE,
    height: int = theme.TALL,
) -> alt.TopLevelMixin:
    """Bias², variance and error against model complexity (figure 2.9).

    Parameters
    ----------
    decomposition
        One row per complexity level (and group): the output of ``fe.bias_variance(...,
        by=[complexity, ...])``, e.g. ``degree, n_instances, n_repeats, error, bias_squared,
        variance``.
    complexity
        The column on the x axis (training degree / model complexity: a polynomial degree, tree
        depth, 1/λ…). Numeric columns give a quantitative axis, others an ordinal one in sorted
        order.
    components
        Columns drawn as lines; default those present among ``error, bias_squared, bias,
        variance, noise``.
    by
        Further key columns; default every column that is neither ``complexity``, a component nor
        a bookkeeping column of ``fe.bias_variance`` (``n_instances``, ``n_repeats``, …).
    color
        A key column to colour by (e.g. ``"learner"``, to compare learners in one panel); the
        component is then shown by the dash pattern. Default: colour shows the component.
    facet
        Panel column(s); default the further keys not used for ``color``.
    title, width, height
        Title and panel size in pixels.

    Returns
    -------
    alt.LayerChart or alt.FacetChart

    Notes
    -----
    For squared loss E(f; D) = bias²(x) + var(x) + ε² (eq 2.42): with little training (low
    complexity) bias dominates the error, with much training variance does (figure 2.9). The
    values are drawn as given.

    References
    ----------
    Domingos, P. (2000). A unified bias-variance decomposition. ICML.

    Examples
    --------
    >>> bv = pl.DataFrame({"degree": [1, 2, 3], "error": [0.9, 0.5, 0.7],
    ...                    "bias_squared": [0.8, 0.3, 0.1], "variance": [0.05, 0.15, 0.55]})
    >>> chart = fe.charts.bias_variance(bv, complexity="degree")
    >>> chart.to_dict()["layer"][0]["encoding"]["color"]["field"]
    '__fe_component'
    """
    func = "bias_variance"
    lf = b.lazy(decomposition, func)
    schema = b.columns(lf, func, complexity=complexity)
    components = _components(schema, components, func)
    values = {complexity, *components, *COMPONENTS, *_NOT_KEYS}
    keys = b.key_columns(schema, values, by, func)
    if color is not None:
        color = b.resolve_color(color, keys, [], func)
    facets = (
        b.facet_columns(facet, schema, func)
        if facet is not None
        else [k for k in keys if k != color]
    )
    df = b.gather(lf, func, "decomposition=")
    names = {c: COMPONENTS.get(c, c) for c in components}
    long = df.select(*keys, complexity, *components).unpivot(
        on=components,
        index=[*keys, complexity],
        variable_name="__fe_column",
        value_name="__fe_value",
    )
    long = long.with_columns(
        pl.col("__fe_column").replace_strict(names, return_dtype=pl.String).alias("__fe_component")
    )
    data, panel = b.add_facet(b.sanitize(long), facets)
    numeric = schema[complexity].is_numeric()
    sort: dict[str, Any] = {} if numeric else {"sort": b.value_order(df, complexity)}
    x = alt.X(
        field=b.field(complexity),
        type="quantitative" if numeric else "ordinal",
        axis=theme.axis(f"{complexity} (model complexity →)"),
        **sort,
    )
    order = [names[c] for c in components]
    # components told apart by colour, or (with a colour key) by dash and point shape
    encodings = b.series_encodings("__fe_component", "component", order, color, data)
    y = alt.Y(field="__fe_value", type="quantitative", axis=theme.axis("Value"))
    tips = [
        *b.key_tooltips(keys),
        b.tooltip(complexity),
        b.tooltip("__fe_component", label="component"),
        b.tooltip("__fe_value", "quantitative", ".4f", "value"),
    ]
    encodings.update(b.details(keys, [*facets, color]))
    line = alt.Chart().mark_line(strokeWidth=2.2).encode(x=x, y=y, **encodings)
    marks = {k: v for k, v in encodings.items() if k != "strokeDash"}
    if color is not None:
        marks["shape"] = alt.Shape(field="__fe_component", type="nominal", sort=order, legend=None)
    points = alt.Chart().mark_point(filled=True, size=36).encode(x=x, y=y, tooltip=tips, **marks)
    subtitle = "E(f; D) = bias² + variance + noise (eq 2.42, figure 2.9)"
    return b.panels([line, points], data, panel, title, subtitle, width, height)


def _components(schema: pl.Schema, components: Sequence[str] | None, func: str) -> list[str]:
    """The component columns drawn (default: those of ``COMPONENTS`` present), checked numeric."""
    if components is None:
        components = [c for c in COMPONENTS if c in schema]
        if not components:
            raise InvalidParameterError(
                f"{func}(): components= must name the columns to draw when none of "
                f"{list(COMPONENTS)} is present, got columns {schema.names()}."
            )
    components = list(components)
    # the list as one role (a missing column), each element as its own (a dtype)
    each = {f"components[{i}]": c for i, c in enumerate(components)}
    declared = Inputs(
        Column("components", several=True), *(Column(role, "numeric") for role in each)
    )
    declared.compile(schema, func, components=components, **each)
    return components


_SPLIT_COLUMNS = {"repeat", "fold", "seed", "split", "instance"}


def _score_curve(
    func: str,
    frame: Any,
    x: str | None,
    score: str | None,
    role: str,
    color: str | None,
    facet: str | Sequence[str] | None,
    log_x: bool,
    x_title: str | None,
    title: str | None,
    width: int,
    height: int,
) -> alt.TopLevelMixin:
    lf = b.lazy(frame, func)
    schema = lf.collect_schema()
    facets = b.facet_columns(facet, schema, func) if facet is not None else None
    if color is not None:
        b.check_plotted(schema, func, color=color)
    color = color or (role if role in schema else None)
    skip = {role, color, *(facets or []), *_SPLIT_COLUMNS}
    x, score = _x_and_score(schema, x, score, skip, func)
    # key columns (e.g. learner): panels by default, else separate dashed lines
    keys = [c for c in schema.names() if c not in {x, score, *skip} and not schema[c].is_numeric()]
    if facets is None:
        facets = keys
    extra = [k for k in keys if k not in facets]
    df = b.gather(lf, func, "frame=")
    if log_x:
        bad = df.filter(pl.col(x) <= 0).height
        if bad:
            raise InvalidParameterError(
                f"{func}(): log_x=True needs positive values in column {x!r}, got {bad} "
                "value(s) <= 0."
            )
    data, panel = b.add_facet(b.sanitize(df), facets)
    group: list[Any] = [
        b.field(c)
        for c in dict.fromkeys(
            [x, *([color] if color else []), *([panel.field] if panel.field else []), *extra]
        )
    ]
    x_enc = alt.X(
        field=b.field(x),
        type="quantitative",
        scale=alt.Scale(type="log") if log_x else alt.Scale(zero=False),
        axis=theme.axis(x_title or x),
    )
    y_axis = theme.axis(f"{score} (mean ± sd over folds)")
    base = _mean_sd(score, group).encode(x=x_enc, **_split_encodings(extra, color, data))
    mean = alt.Y(field="__fe_mean", type="quantitative")
    tips = [
        *b.key_tooltips(extra),
        *([b.tooltip(color)] if color else []),
        b.tooltip(x, "quantitative", ",.4~g"),
        b.tooltip("__fe_mean", "quantitative", ".4f", f"mean {score}"),
        b.tooltip("__fe_sd", "quantitative", ".4f", "sd"),
        b.tooltip("__fe_n", "quantitative", "d", "folds"),
    ]
    layers = [
        base.mark_area(opacity=0.18).encode(
            y=alt.Y(field="__fe_lo", type="quantitative", scale=alt.Scale(zero=False), axis=y_axis),
            y2=alt.Y2(field="__fe_hi"),
        ),
        base.mark_line(strokeWidth=2.2).encode(y=mean),
        base.mark_point(filled=True, size=40).encode(y=mean, tooltip=tips),
    ]
    subtitle = "line: mean over folds; band: ± 1 sd"
    return b.panels(layers, data, panel, title, subtitle, width, height)


def _x_and_score(
    schema: pl.Schema, x: str | None, score: str | None, skip: set[Any], func: str
) -> tuple[str, str]:
    """The hyper-parameter and score columns: as given, else inferred among the numeric
    columns ("score", else the last one; the parameter is the first other one)."""
    numeric = [c for c in schema.names() if c not in skip and schema[c].is_numeric()]
    if score is None:
        rest = [c for c in numeric if c != x]
        score = "score" if "score" in rest else (rest[-1] if rest else None)
        if score is None:
            raise InvalidParameterError(
                f"{func}(): score= must name the metric column when it cannot be inferred, "
                f"got columns {schema.names()}."
            )
    if x is None:
        rest = [c for c in numeric if c != score]
        if not rest:
            raise InvalidParameterError(
                f"{func}(): param= must name the hyper-parameter column when it cannot be "
                f"inferred, got columns {schema.names()}."
            )
        x = rest[0]
    b.check_plotted(schema, func, {"x": x, "score": score})
    return x, score


def _split_encodings(extra: list[str], color: str | None, data: pl.DataFrame) -> dict[str, Any]:
    """Keys not faceted as dashes (and details); the split (train/validation/test) as colour."""
    encodings: dict[str, Any] = {}
    if extra:
        encodings["strokeDash"] = alt.StrokeDash(
            field=b.field(extra[0]), type="nominal", legend=theme.legend(extra[0])
        )
        encodings["detail"] = [alt.Detail(field=b.field(k), type="nominal") for k in extra]
    if color is not None:
        order = b.value_order(data, color)
        preferred = [v for v in ("train", "validation", "test") if v in order]
        order = preferred + [v for v in order if v not in preferred]
        encodings["color"] = b.color_encoding(color, color, data, order)
    return encodings


def _mean_sd(score: str, group: list[Any]) -> alt.Chart:
    """A chart of the mean ± sd of ``score`` over the folds of each point (Vega aggregates)."""
    return (
        alt.Chart()
        .transform_aggregate(
            aggregate=[
                alt.AggregatedFieldDef(op="mean", field=b.field(score), **{"as": "__fe_mean"}),
                alt.AggregatedFieldDef(op="stdev", field=b.field(score), **{"as": "__fe_sd"}),
                alt.AggregatedFieldDef(op="count", **{"as": "__fe_n"}),
            ],
            groupby=group,
        )
        .transform_calculate(
            __fe_lo="datum.__fe_sd == null ? datum.__fe_mean : datum.__fe_mean - datum.__fe_sd",
            __fe_hi="datum.__fe_sd == null ? datum.__fe_mean : datum.__fe_mean + datum.__fe_sd",
        )
    )


def learning_curve(
    curve: Any,
    *,
    train_size: str = "train_size",
    score: str | None = None,
    role: str = "role",
    color: str | None = None,
    facet: str | Sequence[str] | None = None,
    log_x: bool = False,
    title: str | None = "Learning curve",
    width: int = theme.WIDE,
    height: int = theme.TALL,
    diagnosis: bool | Any = False,
) -> alt.TopLevelMixin:
    """Training and validation score against training-set size, mean ± sd over folds.

    Parameters
    ----------
    curve
        Tidy frame with one row per training size, role and fold, as returned by
        ``fe.learning_curve``: ``learner, train_size, repeat, fold, role, <metric>``.
    train_size, role
        Column names. ``role`` holds ``"train"`` / ``"validation"``.
    score
        The metric column; default ``"score"`` if present, else the last numeric column that is
        not ``train_size`` or a split column (``repeat``, ``fold``, ``seed``…).
    color
        Column coloured by; default ``role``.
    facet
        Panel column(s); default the remaining non-numeric key columns (e.g. ``learner``).
        ``facet=[]`` draws them in one panel instead, told apart by dash patterns.
    log_x
        Logarithmic x axis.
    title, width, height
        Title and panel size in pixels.
    diagnosis
        ``True`` writes the reading of ``fe.learning_curve_diagnosis(curve)`` (default
        thresholds) under the chart, one line per learner; a frame of that function (with
        thresholds of your own) is written as given; ``False`` (default) draws the chart alone.

    Returns
    -------
    alt.LayerChart or alt.FacetChart; with ``diagnosis``, an ``alt.VConcatChart`` of the chart
    and the text.

    Notes
    -----
    The line is the mean over the rows of each (size, role) and the band mean ± one standard
    deviation (Vega-Lite aggregates the rows it draws; a single row gives no band). A wide gap
    between train and validation that closes slowly suggests high variance; two low curves that
    meet early suggest high bias (the diagnostics of section 2.5, which
    ``fe.learning_curve_diagnosis`` applies).

    Examples
    --------
    >>> lc = pl.DataFrame({"train_size": [10, 10, 20, 20], "fold": [0, 0, 0, 0],
    ...                    "role": ["train", "validation"] * 2,
    ...                    "error_rate": [0.1, 0.3, 0.12, 0.2]})
    >>> [layer["mark"]["type"] for layer in fe.charts.learning_curve(lc).to_dict()["layer"]]
    ['area', 'line', 'point']
    >>> len(fe.charts.learning_curve(lc, diagnosis=True).to_dict()["vconcat"])
    2
    """
    chart = _score_curve(
        "learning_curve", curve, train_size, score, role, color, facet, log_x,
        "Training-set size", title, width, height,
    )  # fmt: skip
    return _with_diagnosis("learning_curve", chart, curve, diagnosis, score, train_size, role)


def validation_curve(
    curve: Any,
    param: str | None = None,
    *,
    score: str | None = None,
    role: str = "role",
    color: str | None = None,
    facet: str | Sequence[str] | None = None,
    log_x: bool = False,
    title: str | None = "Validation curve",
    width: int = theme.WIDE,
    height: int = theme.TALL,
) -> alt.TopLevelMixin:
    """Training and validation score against a hyper-parameter, mean ± sd over folds.

    Parameters
    ----------
    curve
        Tidy frame with one row per parameter value, role and fold, as returned by
        ``fe.validation_curve``: ``<param>, repeat, fold, role, <metric>``.
    param
        The hyper-parameter column (x axis); default the first numeric column that is not the
        score, ``role``, a facet/colour column or a split column (``repeat``, ``fold``,
        ``seed``…), i.e. the first column of ``fe.validation_curve``'s output.
    score
        The metric column; default ``"score"`` if present, else the last remaining numeric
        column (the last column of ``fe.validation_curve``'s output).
    role, color, facet, title, width, height
        As in :func:`learning_curve`.
    log_x
        Logarithmic x axis (for grids such as C = 10⁻³…10³).

    Returns
    -------
    alt.LayerChart or alt.FacetChart

    Notes
    -----
    As in :func:`learning_curve`: the line is the mean over the rows of each (value, role), the
    band ± one standard deviation. The parameter value where the validation curve peaks is the
    one model selection would pick (section 2.5: too little capacity underfits, too much
    overfits).

    Examples
    --------
    >>> vc = pl.DataFrame({"C": [0.1, 0.1, 1.0, 1.0], "fold": [0, 0, 0, 0],
    ...                    "role": ["train", "validation"] * 2, "score": [0.8, 0.7, 0.95, 0.8]})
    >>> chart = fe.charts.validation_curve(vc, "C", log_x=True)
    >>> chart.to_dict()["layer"][0]["encoding"]["x"]["scale"]["type"]
    'log'
    """
    return _score_curve(
        "validation_curve", curve, param, score, role, color, facet, log_x, None, title,
        width, height,
    )  # fmt: skip


def _with_diagnosis(
    func: str,
    chart: alt.TopLevelMixin,
    curve: Any,
    diagnosis: Any,
    score: str | None,
    train_size: str,
    role: str,
) -> alt.TopLevelMixin:
    """``chart`` over the diagnosis sentences (one wrapped text block per key group)."""
    if diagnosis is False or diagnosis is None:
        return chart
    if diagnosis is True:
        frame = b.gather(b.lazy(curve, func), func, "curve=")
        read = learning_curve_diagnosis(frame, metric=score, train_size=train_size, role=role)
    else:
        read = b.gather(b.lazy(diagnosis, func), func, "diagnosis=")
    b.check_plotted(read.collect_schema(), func, diagnosis=["diagnosis", "explanation"])
    keys = [
        c
        for c in read.columns
        if c not in {train_size, "train", "validation", "gap", "slope", "diagnosis", "explanation"}
    ]
    label = (
        pl.concat_str([pl.col(k).cast(pl.String) for k in keys], separator=", ") + pl.lit(": ")
        if keys
        else pl.lit("")
    )
    lines = read.select(
        (
            label
            + pl.col("diagnosis").fill_null("no diagnosis")
            + pl.lit(" — ")
            + pl.col("explanation")
        ).alias("text")
    )["text"]
    import textwrap

    wrapped = [textwrap.wrap(t, 110) for t in lines.to_list()]  # loop-ok: one line per learner
    text = pl.DataFrame(
        {
            "__fe_row": list(range(len(wrapped))),
            "__fe_text": wrapped,
            "__fe_dy": [sum(len(w) for w in wrapped[:i]) for i in range(len(wrapped))],
        }
    )
    height = 16 * max(1, sum(len(w) for w in wrapped))
    notes = (
        alt.Chart(text)
        .mark_text(align="left", baseline="top", fontSize=theme.FONT_SIZE, color=theme.INK)
        .encode(
            x=alt.value(0),
            y=alt.Y(
                field="__fe_dy",
                type="quantitative",
                scale=alt.Scale(domain=[0, max(1, height // 16)], range=[0, height]),
                axis=None,
            ),
            text=alt.Text(field="__fe_text", type="nominal"),
        )
        .properties(
            height=height,
            width=theme.WIDE,
            title=theme.title("Diagnosis (notes §2.5.3)"),
            view=alt.ViewBackground(strokeWidth=0),
        )
    )
    return alt.vconcat(cast(Any, chart), notes, spacing=8)
