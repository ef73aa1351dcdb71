"""Confusion-matrix heatmaps (Table 2.1 as a picture)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import altair as alt
import polars as pl

from frameeval._validate import check_parameter
from frameeval.charts import _base as b
from frameeval.charts import _theme as theme

_NORMALIZE = {
    None: ("count", "Count", None),
    "true": ("share of the actual class", "Row share", "actual"),
    "pred": ("share of the predicted class", "Column share", "predicted"),
    "all": ("share of all", "Share", ""),
}


def confusion_heatmap(
    matrix: Any,
    *,
    normalize: Literal["true", "pred", "all"] | None = None,
    by: str | Sequence[str] | None = None,
    facet: str | Sequence[str] | None = None,
    title: str | None = "Confusion matrix",
    width: int | None = None,
    height: int | None = None,
) -> alt.TopLevelMixin:
    """Heatmap of confusion matrices with every cell annotated.

    Parameters
    ----------
    matrix
        Output of ``fe.confusion_matrix``: ``*by, actual, predicted, count`` (zero cells
        included; counts may be weighted, i.e. float).
    normalize
        ``None`` shows counts; ``"true"`` divides each cell by its row total (the share of the
        actual class: per-class recall on the diagonal), ``"pred"`` by its column total (per-class
        precision on the diagonal), ``"all"`` by the group total. A zero total gives a null
        (blank) cell.
    by
        Key columns; default every column other than ``actual, predicted, count``.
    facet
        Panel column(s); default all keys (one matrix per group).
    title, width, height
        Title and panel size in pixels (default 46 px per class up to 6 classes, then smaller
        cells so a matrix stays within 320 px; below 26 px per cell, past 12 classes, the
        numbers are left to the tooltip). Panels wrap so that the chart fits a 1,100 px page.

    Returns
    -------
    alt.LayerChart or alt.FacetChart

    Notes
    -----
    Rows are the actual class, columns the prediction (Table 2.1 with TP in the top-left for the
    first class). Class order is the sorted label order (numeric labels numerically).

    Examples
    --------
    >>> m = pl.DataFrame({"actual": [0, 0, 1, 1], "predicted": [0, 1, 0, 1], "count": [5, 1, 2, 4]})
    >>> [layer["mark"]["type"] for layer in fe.charts.confusion_heatmap(m).to_dict()["layer"]]
    ['rect', 'text']
    """
    func = "confusion_heatmap"
    check_parameter(
        normalize in _NORMALIZE,
        func,
        f"normalize must be None, 'true', 'pred' or 'all', got {normalize!r}.",
    )
    lf = b.lazy(matrix, func)
    schema = b.columns(lf, func, numeric={"count": "count"}, actual="actual", predicted="predicted")
    keys = b.key_columns(schema, {"actual", "predicted", "count"}, by, func)
    facets = b.facet_columns(facet, schema, func) if facet is not None else keys
    df = b.gather(lf, func, "matrix=")
    labels = (
        pl.concat([df.get_column("actual"), df.get_column("predicted").alias("actual")])
        .unique()
        .sort(nulls_last=True)
        .cast(pl.String)
        .to_list()
    )
    label, legend, within = _NORMALIZE[normalize]
    value = pl.col("count").cast(pl.Float64)
    if within is not None:
        group = [*keys, within] if within else keys
        total = b.over(value.sum(), group)
        value = pl.when(total > 0).then(value / total)
    df = df.with_columns(
        pl.col("actual").cast(pl.String),
        pl.col("predicted").cast(pl.String),
        value.alias("__fe_value"),
    ).with_columns(
        (pl.col("__fe_value") > b.over(pl.col("__fe_value").max(), facets) / 2)
        .fill_null(False)
        .alias("__fe_dark")
    )
    data, panel = b.add_facet(b.sanitize(df), facets)
    fmt = ",.4~g" if normalize is None else ".2f"
    x = alt.X(
        field="predicted",
        type="nominal",
        sort=labels,
        axis=theme.axis("Predicted", orient="top", labelAngle=0),
    )
    y = alt.Y(field="actual", type="nominal", sort=labels, axis=theme.axis("Actual"))
    tips = [
        *b.key_tooltips(keys),
        b.tooltip("actual"),
        b.tooltip("predicted"),
        b.tooltip("count", "quantitative", ",.4~g"),
        *([b.tooltip("__fe_value", "quantitative", ".3f", label)] if normalize else []),
    ]
    color = b.value_color("__fe_value", legend)
    text = alt.Text(field="__fe_value", type="quantitative", format=fmt)
    layers = [b.cell_rect(x, y, color, tips), b.cell_text(x, y, text, theme.FONT_SIZE + 1)]
    cell = _cell_size(len(labels))
    if cell < MIN_TEXT_CELL:  # compact form: too small for numbers; the tooltip has them
        layers = layers[:1]
    size = max(120, cell * len(labels))
    subtitle = "rows: actual class; columns: predicted class"
    if normalize is not None:
        subtitle += f"; cells: {label}"
    if cell < MIN_TEXT_CELL:
        subtitle += "; hover a cell for its value"
    width = width or size
    return b.panels(
        layers, data, panel, title, subtitle, width, height or size, panel_width=width, columns=4
    )


#: Cell size in pixels: 46 up to 6 classes, then shrinking so a matrix stays ≤ 320 px wide
#: (one matrix per learner, wrapped so the panels fit the page), but never below 12.
MAX_CELL, MATRIX, MIN_CELL = 46, 320, 12
#: Below this cell size the numbers are not written in the cells (compact form).
MIN_TEXT_CELL = 26


def _cell_size(n_classes: int) -> int:
    return max(MIN_CELL, min(MAX_CELL, MATRIX // max(n_classes, 1)))
