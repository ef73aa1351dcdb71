"""The distribution of a test statistic under the null hypothesis with its critical region: the
binomial test (figure 2.6) and the t test (figure 2.7)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import altair as alt
import numpy as np
import polars as pl

from frameeval._params import ABOVE_ZERO, ALPHA
from frameeval._validate import check_parameter
from frameeval.charts import _base as b
from frameeval.charts import _theme as theme
from frameeval.exceptions import InvalidParameterError

__all__ = ["binomial", "t_distribution"]


def _scalar(df: pl.DataFrame, name: str, given: Any) -> Any:
    """A parameter given explicitly, else the column of that name when it holds one value."""
    if given is not None or name not in df.columns:
        return given
    values = df.get_column(name).drop_nulls().unique()
    return values.item() if values.len() == 1 else None


def binomial(
    distribution: Any,
    *,
    critical_count: int | None = None,
    critical_value: float | None = None,
    m: int | None = None,
    eps0: float | None = None,
    alpha: float | None = None,
    observed: int | None = None,
    errors: str = "errors",
    probability: str = "probability",
    facet: str | Sequence[str] | None = None,
    title: str | None = "Binomial test of the error rate",
    width: int = theme.WIDE,
    height: int = theme.TALL,
) -> alt.TopLevelMixin:
    """The distribution of the number of test errors with the rejection region (figure 2.6).

    Parameters
    ----------
    distribution
        Frame with one row per error count: ``errors`` (i = 0…m) and ``probability``
        P(i errors | ε = ε0) = C(m, i) ε0^i (1 − ε0)^(m − i) (eq 2.26), e.g.
        ``fe.binomial_distribution(m, eps0, alpha=...)``, whose ``reject`` column marks the
        region. Columns ``critical_count``, ``critical_value``, ``reject``, ``m``, ``eps0`` and
        ``alpha`` are used when present and the matching parameter is not given.
    critical_count
        The critical number of errors c = ε̄·m: the hypothesis ε ≤ ε0 is rejected when more than
        c errors are observed (bars i > c are the rejection region, total probability < α).
        Precedence: ``critical_count=``, ``critical_value=``, then the columns
        ``critical_count``, ``critical_value``, ``reject`` (c = the largest i not rejected).
    critical_value
        The critical error rate ε̄ (eq 2.27 as corrected in the notes); ε̄·m gives the count.
    m, eps0, alpha
        Test-set size, hypothesised error rate and significance level (``m`` defaults to the
        ``m`` column, else the largest ``errors`` of each panel; ``eps0`` and ``alpha`` only label
        the chart).
    observed
        Optional observed number of errors, marked with a vertical rule.
    errors, probability
        Column names.
    facet
        Optional key column(s), one panel per group (several distributions in one frame).
    title, width, height
        Title and panel size in pixels.

    Returns
    -------
    alt.LayerChart or alt.FacetChart

    Notes
    -----
    Nothing is recomputed: the bars are the given probabilities, the region is i > c.

    Examples
    --------
    >>> dist = pl.DataFrame({"errors": [0, 1, 2, 3], "probability": [0.343, 0.441, 0.189, 0.027]})
    >>> chart = fe.charts.binomial(dist, critical_count=2, eps0=0.3)
    >>> chart.to_dict()["layer"][0]["mark"]["type"]
    'bar'
    """
    func = "binomial"
    lf = b.lazy(distribution, func)
    schema = b.columns(lf, func, numeric={"errors": errors, "probability": probability})
    facets = b.facet_columns(facet, schema, func)
    df = b.gather(lf, func, "distribution=")
    eps0 = _scalar(df, "eps0", eps0)
    alpha = _scalar(df, "alpha", alpha)
    if m is not None:
        size = pl.lit(int(m))
    elif "m" in df.columns:
        size = pl.col("m")
    else:
        size = b.over(pl.col(errors).max(), facets)
    df = df.with_columns(size.cast(pl.Float64).alias("__fe_m"))
    count = _critical_count(df, errors, facets, critical_count, critical_value, func)
    df = df.with_columns(count.cast(pl.Float64).alias("__fe_c")).with_columns(
        pl.when(pl.col(errors) > pl.col("__fe_c"))
        .then(pl.lit(_REJECT))
        .otherwise(pl.lit(_ACCEPT))
        .alias("__fe_region"),
        (pl.col(errors) - 0.38).alias("__fe_lo"),
        (pl.col(errors) + 0.38).alias("__fe_hi"),
        (pl.col(errors) / pl.col("__fe_m")).alias("__fe_rate"),
        pl.lit("bars").alias(b.LAYER),
    )
    sizes = df.get_column("__fe_m").unique()
    m_text = f" (m = {int(sizes.item())})" if sizes.len() == 1 else ""
    data, panel = b.add_facet(b.combine([df, _critical_rule(df, facets)]), facets)
    x_axis = theme.axis(f"Number of misclassified test samples i{m_text}", tickMinStep=1)
    x = alt.X(field="__fe_lo", type="quantitative", axis=x_axis, scale=alt.Scale(nice=False))
    layers = [
        b.only(_binomial_bars(x, errors, probability, facets), "bars"),
        *_rule_label(
            None, b.X, b.TEXT, {"color": theme.INK, "strokeDash": [4, 3]},
            {"align": "left", "dx": 4, "color": theme.INK, "fontSize": theme.FONT_SIZE},
            layer="critical",
        ),
    ]  # fmt: skip
    if observed is not None:
        marker = pl.DataFrame({"x": [float(observed)], "text": [f"observed: {observed} errors"]})
        layers += _observed(marker, "x")
    parts = [m_text.strip(" ()")] if m_text else []
    if eps0 is not None:
        parts.append(f"ε0 = {eps0:g}")
    if alpha is not None:
        parts.append(f"α = {alpha:g}")
    subtitle = "P(ε̂ = i/m | ε = ε0)" + "".join(f", {p}" for p in parts) + " (figure 2.6)"
    return b.panels(layers, data, panel, title, subtitle, width, height)


_ACCEPT = "accept: ε̂ ≤ ε̄"
_REJECT = "reject: ε̂ > ε̄ (probability < α)"


def _critical_count(
    df: pl.DataFrame,
    errors: str,
    facets: list[str],
    critical_count: Any,
    critical_value: Any,
    func: str,
) -> pl.Expr:
    """The critical number of errors c, from the first of the parameters and columns given."""
    if critical_count is not None:
        return pl.lit(float(critical_count))
    if critical_value is not None:
        return (pl.lit(float(critical_value)) * pl.col("__fe_m")).round(9).floor()
    if "critical_count" in df.columns:
        return pl.col("critical_count")
    if "critical_value" in df.columns:
        return (pl.col("critical_value") * pl.col("__fe_m")).round(9).floor()
    if "reject" in df.columns:  # fe.binomial_distribution(..., alpha=): the largest kept count
        return b.over(pl.col(errors).filter(~pl.col("reject").fill_null(False)).max(), facets)
    raise InvalidParameterError(
        f"{func}(): the rejection region needs critical_count= (or critical_value= and m=), "
        "got neither (nor a critical_count, critical_value or reject column)."
    )


def _critical_rule(df: pl.DataFrame, facets: list[str]) -> pl.DataFrame:
    """The rule between the accepted and rejected counts (layer "critical"), per panel."""
    return (
        b.per_group(df, facets, pl.col("__fe_c").first(), pl.col("__fe_m").first())
        .with_columns(
            (pl.col("__fe_c") + 0.5).alias(b.X),
            (
                "ε̄ = "
                + b.fixed(pl.col("__fe_c") / pl.col("__fe_m"), 2)
                + " ("
                + b.fixed(pl.col("__fe_c"), 0)
                + " errors)"
            ).alias(b.TEXT),
            pl.lit("critical").alias(b.LAYER),
        )
        .drop("__fe_m")
    )


def _binomial_bars(x: alt.X, errors: str, probability: str, facets: list[str]) -> alt.Chart:
    """One bar per error count, coloured by its region."""
    return (
        alt.Chart()
        .mark_bar()
        .encode(
            x=x,
            x2=alt.X2(field="__fe_hi"),
            y=alt.Y(
                field=b.field(probability),
                type="quantitative",
                axis=theme.axis("Probability P(i errors | ε = ε0)"),
            ),
            y2=alt.Y2(datum=0),
            color=alt.Color(
                field="__fe_region",
                type="nominal",
                scale=alt.Scale(domain=[_ACCEPT, _REJECT], range=[theme.ACCEPT, theme.REJECT]),
                legend=theme.legend("region", orient="bottom", direction="horizontal"),
            ),
            tooltip=[
                *b.key_tooltips(facets),
                b.tooltip(errors, "quantitative", "d", "errors i"),
                b.tooltip("__fe_rate", "quantitative", ".3f", "error rate i/m"),
                b.tooltip(probability, "quantitative", ".4f", "probability"),
            ],
        )
    )


def _rule_label(
    data: pl.DataFrame | None,
    x: str,
    text: str,
    rule: dict[str, Any],
    label: dict[str, Any],
    *,
    layer: str | None = None,
    y: int = 4,
) -> list[alt.Chart]:
    """A vertical rule at ``x`` and its label (column ``text``) at ``y`` pixels from the top."""
    base = alt.Chart() if data is None else alt.Chart(data)
    at = alt.X(field=x, type="quantitative")
    marks = [
        base.mark_rule(**rule).encode(x=at),
        base.mark_text(baseline="top", y=y, **label).encode(
            x=at, text=alt.Text(field=text, type="nominal")
        ),
    ]
    return marks if layer is None else [b.only(m, layer) for m in marks]


def _observed(marker: pl.DataFrame, x: str) -> list[alt.Chart]:
    """The observed statistic: a bold rule and its label (columns ``x``, ``text``)."""
    rule = {"color": theme.INK, "strokeWidth": 2}
    return _rule_label(
        marker, x, "text", rule, {"align": "left", "dx": 4, "fontWeight": "bold"}, y=22
    )


def t_distribution(
    df: float,
    *,
    alpha: float = 0.05,
    statistic: float | None = None,
    alternative: Literal["two-sided", "less", "greater"] = "two-sided",
    title: str | None = "t test",
    width: int = theme.WIDE,
    height: int = theme.TALL,
) -> alt.TopLevelMixin:
    """The Student t density with its critical regions shaded (figure 2.7).

    Parameters
    ----------
    df
        Degrees of freedom (k − 1 for k error rates, eq 2.30), a positive number.
    alpha
        Significance level in (0, 1); the shaded tails hold probability α in total.
    statistic
        Optional observed statistic τ_t (eq 2.30), marked with a vertical rule.
    alternative
        ``"two-sided"`` (the book's test: tails beyond ±t_{α/2}), ``"less"`` or ``"greater"``.
    title, width, height
        Title and size in pixels.

    Returns
    -------
    alt.LayerChart

    Notes
    -----
    This is a picture of a distribution, not a test: the density and the critical points
    t_{α/2} = F⁻¹(1 − α/2; df) are evaluated with scipy for display. The test itself (statistic,
    p-value, decision) comes from ``fe.t_test``.

    Examples
    --------
    >>> chart = fe.charts.t_distribution(9, alpha=0.05, statistic=1.2)
    >>> sorted({layer["mark"]["type"] for layer in chart.to_dict()["layer"]})
    ['area', 'line', 'rule', 'text']
    """
    from scipy import stats

    func = "t_distribution"
    ABOVE_ZERO(func, "df", df)
    ALPHA(func, "alpha", alpha)
    check_parameter(
        alternative in ("two-sided", "less", "greater"),
        func,
        f"alternative must be 'two-sided', 'less' or 'greater', got {alternative!r}.",
    )
    crit, cuts = _t_critical(df, alpha, alternative)
    reach = max(4.0, abs(crit) + 1.5, abs(statistic) + 0.8 if statistic is not None else 0.0)
    grid = np.linspace(-reach, reach, 401)
    grid = np.unique(np.concatenate([grid, cuts]))
    density = pl.DataFrame({"t": grid, "density": stats.t.pdf(grid, df)})
    tails = []
    if alternative in ("two-sided", "less"):
        tails.append(density.filter(pl.col("t") <= -crit).with_columns(tail=pl.lit("lower")))
    if alternative in ("two-sided", "greater"):
        tails.append(density.filter(pl.col("t") >= crit).with_columns(tail=pl.lit("upper")))
    share = f"α/2 = {alpha / 2:g} each" if alternative == "two-sided" else f"α = {alpha:g}"
    label = "t(α/2)" if alternative == "two-sided" else "t(α)"
    marks = pl.DataFrame(
        {
            "t": [float(c) for c in cuts],
            "text": [f"{'−' if c < 0 else ''}{label} = {c:.3f}".replace("-", "−") for c in cuts],
        }
    )
    x = alt.X(
        field="t",
        type="quantitative",
        axis=theme.axis("t"),
        scale=alt.Scale(domain=[-reach, reach], nice=False),
    )
    y = alt.Y(field="density", type="quantitative", axis=theme.axis("Density"), stack=None)
    tips = [b.tooltip("t", "quantitative", ".3f"), b.tooltip("density", "quantitative", ".4f")]
    layers = [
        alt.Chart(pl.concat(tails))
        .mark_area(color=theme.REJECT, opacity=0.55)
        .encode(
            x=x, y=y, y2=alt.Y2(datum=0), detail=alt.Detail(field="tail", type="nominal"),
            tooltip=tips,
        ),
        alt.Chart(density).mark_line(color=theme.INK, strokeWidth=2).encode(x=x, y=y),
        *_rule_label(
            marks, "t", "text", {"color": theme.REJECT, "strokeDash": [4, 3]},
            {"align": "center", "color": theme.REJECT, "fontSize": theme.FONT_SIZE},
        ),
    ]  # fmt: skip
    if statistic is not None:
        layers += _observed(
            pl.DataFrame({"t": [float(statistic)], "text": [f"τ_t = {statistic:.3f}"]}), "t"
        )
    subtitle = f"df = {df:g}; shaded: critical region ({share}) (figure 2.7)"
    return alt.layer(*layers).properties(
        width=width, height=height, title=theme.title(title, subtitle)
    )


def _t_critical(df: float, alpha: float, alternative: str) -> tuple[float, list[float]]:
    """The critical value t(α/2) or t(α) and the cut points of the critical region."""
    from scipy import stats

    if alternative == "two-sided":
        crit = float(stats.t.ppf(1 - alpha / 2, df))
        return crit, [-crit, crit]
    crit = float(stats.t.ppf(1 - alpha, df))
    return crit, [crit] if alternative == "greater" else [-crit]
