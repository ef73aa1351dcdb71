"""Charts of the Bayesian comparisons: the posterior simplex of a pair (Benavoli et al. 2017,
figure 6 style) and the pairwise matrix of the three region probabilities for k learners."""

from __future__ import annotations

import math
from typing import Any

import polars as pl

from frameeval._params import Number
from frameeval.charts import _base as b
from frameeval.charts import _theme as theme
from frameeval.compare.effect_size import EFFECT_COLUMNS

_REGIONS = ["a_better", "rope", "b_better"]
_PROBS = ["p_a_better", "p_rope", "p_b_better"]
_HEIGHT = math.sqrt(3.0) / 2.0
_MAX_POINTS = Number(low=1, integer=True, text="a positive integer")


def _pair_keys(schema: pl.Schema, values: list[str]) -> list[str]:
    """The ``by`` keys of a Bayesian result: every column but a, b and the value columns."""
    return [c for c in schema.names() if c not in {"a", "b", *values}]


def posterior_simplex(
    samples: Any,
    result: Any = None,
    *,
    max_points: int = 4000,
    title: str | None = "Posterior of the Bayesian signed-rank test",
    width: int = theme.SQUARE,
) -> Any:
    """The posterior samples of a pair in the probability simplex (a triangle).

    Each posterior sample of ``fe.compare.bayes_signed_rank_samples`` is a point (θ_a, θ_rope,
    θ_b) with θ_a + θ_rope + θ_b = 1, drawn in barycentric coordinates: the bottom-left corner
    is "a better" (θ_a = 1), the bottom-right "b better", the top "rope". The three lines from
    the centre split the triangle into the regions where each θ is the largest; the share of
    points in a region is that region's ``p_*`` of ``fe.bayes_signed_rank`` (same seed and
    ``n_samples``).

    Parameters
    ----------
    samples
        Output of ``fe.compare.bayes_signed_rank_samples``: ``*by, a, b, sample, a_better,
        rope, b_better``. One panel per group × pair.
    result
        Optional output of ``fe.bayes_signed_rank`` (joined on the keys, a and b): the corners
        are labelled with its ``p_a_better``, ``p_rope``, ``p_b_better``.
    max_points
        At most this many points in all, split evenly between the panels (the first samples of
        each pair; the samples are independent draws, so any subset is a sample).
    title, width
        Title and panel width in pixels (the height follows the triangle).

    Returns
    -------
    alt.LayerChart or alt.FacetChart

    Notes
    -----
    Nothing is recomputed: points are the given samples, labels the given probabilities.

    Examples
    --------
    >>> s = pl.DataFrame({"a": ["A"] * 3, "b": ["B"] * 3, "sample": [0, 1, 2],
    ...                   "a_better": [0.8, 0.7, 0.9], "rope": [0.2, 0.2, 0.1],
    ...                   "b_better": [0.0, 0.1, 0.0]})
    >>> spec = fe.charts.posterior_simplex(s).to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]]
    ['rule', 'circle', 'text']
    """
    import altair as alt

    func = "posterior_simplex"
    _MAX_POINTS(func, "max_points", max_points)
    lf = b.lazy(samples, func)
    schema = b.columns(lf, func, numeric=dict(zip(_REGIONS, _REGIONS, strict=True)), a="a", b="b")
    keys = _pair_keys(schema, [*_REGIONS, "sample"])
    panel_cols = [*keys, "a", "b"]
    order = [*panel_cols, "sample"] if "sample" in schema.names() else panel_cols
    df = b.gather(lf, func, "samples=").sort(order, nulls_last=True)
    per_panel = max(1, max_points // df.select(panel_cols).n_unique())
    df = df.filter(pl.int_range(pl.len()).over(panel_cols) < per_panel)
    points = df.select(
        *panel_cols,
        (pl.col("b_better") + 0.5 * pl.col("rope")).alias(b.X),
        (_HEIGHT * pl.col("rope")).alias(b.Y),
        *[pl.col(c) for c in _REGIONS],
        pl.lit("points").alias(b.LAYER),
    )
    panels = df.select(panel_cols).unique().sort(panel_cols, nulls_last=True)
    guides = panels.join(_simplex_guide(), how="cross")
    labels = _corner_labels(panels, result, keys, panel_cols, func)
    # one pair: a single panel (the corners name the learners); several: one panel each
    data, panel = b.add_facet(
        b.combine([guides, points, labels]), panel_cols if panels.height > 1 else []
    )
    x = alt.X(field=b.X, type="quantitative", scale=alt.Scale(domain=[-0.15, 1.15]), axis=None)
    y = alt.Y(
        field=b.Y, type="quantitative", scale=alt.Scale(domain=[-0.15, _HEIGHT + 0.12]), axis=None
    )
    tips = [
        *b.key_tooltips(panel_cols),
        *[b.tooltip(c, "quantitative", ".3f", f"θ {c}") for c in _REGIONS],
    ]
    ends = {"x2": alt.X2(field="__fe_x2"), "y2": alt.Y2(field="__fe_y2")}
    layers = [
        b.only(
            alt.Chart().mark_rule(color=theme.GUIDE, strokeWidth=1).encode(x=x, y=y, **ends),
            "guide",
        ),
        b.only(
            alt.Chart()
            .mark_circle(size=9, opacity=0.25, color=theme.ACCEPT)
            .encode(x=x, y=y, tooltip=tips),
            "points",
        ),
        b.only(
            alt.Chart()
            .mark_text(fontSize=theme.FONT_SIZE, color=theme.INK)
            .encode(x=x, y=y, text=alt.Text(field=b.TEXT, type="nominal")),
            "labels",
        ),
    ]
    subtitle = "each point is one posterior sample (θ_a, θ_rope, θ_b)"
    height = round(width * (_HEIGHT + 0.27) / 1.3)
    return b.panels(layers, data, panel, title, subtitle, width, height)


def _simplex_guide() -> pl.DataFrame:
    """The triangle's sides and the three lines from its centre that bound the regions."""
    centre = (0.5, _HEIGHT / 3.0)
    segments = [
        ((0.0, 0.0), (1.0, 0.0)),
        ((1.0, 0.0), (0.5, _HEIGHT)),
        ((0.5, _HEIGHT), (0.0, 0.0)),
        (centre, (0.5, 0.0)),
        (centre, (0.25, _HEIGHT / 2.0)),
        (centre, (0.75, _HEIGHT / 2.0)),
    ]
    return pl.DataFrame(
        {
            b.X: [s[0][0] for s in segments],
            b.Y: [s[0][1] for s in segments],
            "__fe_x2": [s[1][0] for s in segments],
            "__fe_y2": [s[1][1] for s in segments],
        }
    ).with_columns(pl.lit("guide").alias(b.LAYER))


def _corner_labels(
    panels: pl.DataFrame, result: Any, keys: list[str], panel_cols: list[str], func: str
) -> pl.DataFrame:
    """The corners' names ("A better", "rope", "B better"), with the result's posterior
    probability of each region when ``result`` is given."""
    corners = pl.DataFrame(
        {"__fe_region": _REGIONS, b.X: [0.0, 0.5, 1.0], b.Y: [-0.07, _HEIGHT + 0.05, -0.07]}
    )
    labels = panels.join(corners, how="cross")
    region = pl.col("__fe_region")
    text = (
        pl.when(region == "a_better")
        .then(b.as_text("a") + pl.lit(" better"))
        .when(region == "b_better")
        .then(b.as_text("b") + pl.lit(" better"))
        .otherwise(pl.lit("rope"))
    )
    if result is not None:
        rlf = b.lazy(result, func)
        rschema = b.columns(rlf, func, numeric=dict(zip(_PROBS, _PROBS, strict=True)), a="a", b="b")
        b.require_keys(rschema, func, "result=", keys)
        probs = b.gather(rlf.select(*panel_cols, *_PROBS), func, "result=")
        labels = labels.join(probs, on=panel_cols, how="left", nulls_equal=True)
        p = (
            pl.when(region == "a_better")
            .then(pl.col("p_a_better"))
            .when(region == "b_better")
            .then(pl.col("p_b_better"))
            .otherwise(pl.col("p_rope"))
        )
        text = text + pl.lit(": p = ") + b.fixed(p)
    labels = labels.with_columns(text.alias(b.TEXT), pl.lit("labels").alias(b.LAYER))
    return labels.drop(_PROBS, strict=False)


def bayes_matrix(
    result: Any,
    *,
    facet: str | list[str] | None = None,
    title: str | None = "Bayesian comparison of every pair",
    width: int | None = None,
    height: int | None = None,
) -> Any:
    """Pairwise matrix of the three posterior probabilities for k learners.

    Row learner r, column learner c: the cell is coloured by P(r practically better than c)
    and shows "P(r better) / P(rope) / P(c better)". Both triangles are filled: the result's
    (a, b) rows give the cells (a, b) and, with the two outer probabilities swapped, (b, a).

    Parameters
    ----------
    result
        Output of ``fe.bayes_signed_rank`` or ``fe.bayes_correlated_t`` (every pair, or any
        subset): ``*by, a, b, …, p_a_better, p_rope, p_b_better``.
    facet
        Key column(s) of the result, one panel per group (default: every column that is not a
        learner, a probability or another output column of the two tests).
    title, width, height
        Title and panel size in pixels (default 120 px per learner).

    Returns
    -------
    alt.LayerChart or alt.FacetChart

    Examples
    --------
    >>> res = pl.DataFrame({"a": ["A"], "b": ["B"], "p_a_better": [0.9], "p_rope": [0.08],
    ...                     "p_b_better": [0.02]})
    >>> spec = fe.charts.bayes_matrix(res).to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]]
    ['rect', 'text']
    """
    import altair as alt

    func = "bayes_matrix"
    lf = b.lazy(result, func)
    schema = b.columns(lf, func, numeric=dict(zip(_PROBS, _PROBS, strict=True)), a="a", b="b")
    outputs = {"n_blocks", "mean_a_better", "mean_rope", "mean_b_better", *EFFECT_COLUMNS}
    facets = (
        b.facet_columns(facet, schema, func)
        if facet is not None
        else _pair_keys(schema, [*_PROBS, *outputs])
    )
    df = b.gather(lf.select(*facets, "a", "b", *_PROBS), func, "result=")
    mirrored = df.select(
        *facets,
        pl.col("b").alias("a"),
        pl.col("a").alias("b"),
        pl.col("p_b_better").alias("p_a_better"),
        "p_rope",
        pl.col("p_a_better").alias("p_b_better"),
    )
    cells = pl.concat([df, mirrored]).unique([*facets, "a", "b"], keep="first", maintain_order=True)
    cells = cells.with_columns(
        pl.concat_str([b.fixed(pl.col(c), 2) for c in _PROBS], separator=" / ").alias(b.TEXT),
        (pl.col("p_a_better") > 0.6).alias("__fe_dark"),
    )
    data, panel = b.add_facet(b.sanitize(cells), facets)
    learners, x, y = b.pair_axes(cells, "row learner", "column learner")
    color = b.value_color("p_a_better", "P(row better)", domain=[0, 1])
    tips = [
        *b.key_tooltips(facets),
        b.tooltip("a", label="row"),
        b.tooltip("b", label="column"),
        *[b.tooltip(c, "quantitative", ".3f") for c in _PROBS],
    ]
    layers = [
        b.cell_rect(x, y, color, tips),
        b.cell_text(x, y, alt.Text(field=b.TEXT, type="nominal")),
    ]
    k = len(learners)
    subtitle = "cell: P(row better) / P(rope) / P(column better)"
    width, height = width or max(160, 120 * k), height or max(60, 36 * k)
    return b.panels(layers, data, panel, title, subtitle, width, height)
