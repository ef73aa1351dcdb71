"""The multiple comparison matrix (Ismail-Fawaz et al. 2023) as a heatmap."""

from __future__ import annotations

from typing import Any

import polars as pl

from frameeval._params import ALPHA, Flag
from frameeval.charts import _base as b
from frameeval.charts import _theme as theme
from frameeval.compare.effect_size import EFFECT_COLUMNS

_VALUES = ["mean_difference", "wins", "ties", "losses", "p_value", "p_adjusted"]


def comparison_matrix(
    matrix: Any,
    *,
    higher_is_better: bool | None = None,
    alpha: float = 0.05,
    facet: str | list[str] | None = None,
    title: str | None = "Multiple comparison matrix",
    width: int | None = None,
    height: int | None = None,
) -> Any:
    """Heatmap of ``fe.comparison_matrix``: one cell per ordered pair (row a, column b).

    Each cell shows the mean difference a − b, the wins / ties / losses of the row learner and
    the corrected p-value (bold when below ``alpha``); the colour is the mean difference on a
    diverging scale centred at 0, blue where the row learner is better.

    Parameters
    ----------
    matrix
        Output of ``fe.comparison_matrix``: ``*by, a, b, mean_difference, wins, ties, losses,
        p_value, p_adjusted``.
    higher_is_better
        Direction of the metric, only to orient the colours (blue = the row is better).
        Default: read from the frame — its wins and losses are counted in the metric's better
        direction, so the direction is the one in which the pairs with both wins ≠ losses and
        a non-zero mean difference mostly agree with the sign of the mean difference (True when
        no pair tells).
    alpha
        Cells with ``p_adjusted`` < α get bold text.
    facet
        Key column(s), one panel per group (default: every column other than the matrix's).
    title, width, height
        Title and panel size in pixels (default 110 px per column, 64 px per row).

    Returns
    -------
    alt.LayerChart or alt.FacetChart

    Notes
    -----
    Learners are ordered by name on both axes; the diagonal is empty. Nothing is recomputed.

    Examples
    --------
    >>> df = pl.DataFrame({"block": list("abcde") * 2, "learner": ["A"] * 5 + ["B"] * 5,
    ...                    "accuracy": [0.9, 0.8, 0.7, 0.6, 0.8, 0.8, 0.7, 0.7, 0.5, 0.6]})
    >>> spec = fe.charts.comparison_matrix(fe.comparison_matrix(df, "accuracy")).to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]]
    ['rect', 'text', 'text']
    """
    import altair as alt

    func = "comparison_matrix"
    Flag(none=True, text="None, True or False")(func, "higher_is_better", higher_is_better)
    ALPHA(func, "alpha", alpha)
    lf = b.lazy(matrix, func)
    schema = b.columns(lf, func, numeric={c: c for c in _VALUES}, a="a", b="b")
    facets = (
        b.facet_columns(facet, schema, func)
        if facet is not None
        else [c for c in schema.names() if c not in {"a", "b", *_VALUES, *EFFECT_COLUMNS}]
    )
    df = b.gather(lf.select(*facets, "a", "b", *_VALUES), func, "matrix=")
    hib = _direction(df) if higher_is_better is None else higher_is_better
    largest = df["mean_difference"].abs().max()
    extent = float(largest) if isinstance(largest, int | float) and largest > 0 else 1.0
    record = pl.concat_str([b.as_text(c) for c in ("wins", "ties", "losses")], separator=" / ")
    df = df.with_columns(
        pl.concat_str(
            [
                b.significant(pl.col("mean_difference"), 3).fill_null("undefined"),
                record,
                pl.lit("p = ") + b.significant(pl.col("p_adjusted"), 3).fill_null("undefined"),
            ],
            separator="\n",
        ).alias(b.TEXT),
        (pl.col("p_adjusted") < alpha).fill_null(False).alias("__fe_significant"),
    )
    df = df.with_columns(
        (pl.col("mean_difference").abs() > 0.6 * extent).fill_null(False).alias("__fe_dark")
    )
    data, panel = b.add_facet(b.sanitize(df), facets)
    learners, x, y = b.pair_axes(df, "row learner (a)", "column learner (b)")
    color = b.value_color(
        "mean_difference", "mean difference (row − column)", "redblue",
        domain=[-extent, extent], reverse=not hib,
    )  # fmt: skip
    tips = [
        *b.key_tooltips(facets),
        b.tooltip("a", label="row (a)"),
        b.tooltip("b", label="column (b)"),
        b.tooltip("mean_difference", "quantitative", ".4~g"),
        *[b.tooltip(c, "quantitative") for c in ("wins", "ties", "losses")],
        b.tooltip("p_value", "quantitative", ".4~g"),
        b.tooltip("p_adjusted", "quantitative", ".4~g"),
    ]
    text = alt.Text(field=b.TEXT, type="nominal")
    layers = [
        b.cell_rect(x, y, color, tips),
        *[
            b.cell_text(
                x, y, text, lineBreak="\n", baseline="middle", dy=-(theme.FONT_SIZE + 2),
                fontWeight="bold" if bold else "normal",
            ).transform_filter("datum['__fe_significant']" if bold else "!datum['__fe_significant']")
            for bold in (False, True)
        ],
    ]  # fmt: skip
    k = len(learners)
    subtitle = (
        f"cell: mean difference row − column; wins / ties / losses of the row; corrected "
        f"p-value (bold: < {alpha:g})"
    )
    width, height = width or max(160, 110 * k), height or max(70, 64 * k)
    return b.panels(layers, data, panel, title, subtitle, width, height)


def _direction(df: pl.DataFrame) -> bool:
    """The metric's direction as the matrix's own counts tell it: wins are counted in the better
    direction, so sign(wins − losses) = sign(mean difference) where higher is better."""
    told = df.filter((pl.col("wins") != pl.col("losses")) & (pl.col("mean_difference") != 0))
    agree = (
        ((pl.col("wins") - pl.col("losses")).sign() == pl.col("mean_difference").sign())
        .cast(pl.Int64)
        .sum()
    )
    votes = told.select(agree.alias("up"), pl.len().cast(pl.Int64).alias("all")).row(0)
    return bool(votes[0] * 2 >= votes[1])
