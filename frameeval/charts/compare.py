"""Comparison charts: the binomial and t tests (figures 2.6, 2.7), CD diagrams (figure 2.8 and
Demšar's), rank heatmaps (Table 2.5) and per-fold metric distributions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import altair as alt
import numpy as np
import polars as pl

from frameeval._frame import as_keys
from frameeval._roles import resolve as resolve_roles
from frameeval._validate import check_parameter, require_columns
from frameeval.charts import _base as b
from frameeval.charts import _theme as theme
from frameeval.exceptions import InvalidParameterError


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
    >>> import polars as pl, frameeval as fe
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
    over = (lambda e: e.over(facets)) if facets else (lambda e: e)
    if m is not None:
        size = pl.lit(int(m))
    elif "m" in df.columns:
        size = pl.col("m")
    else:
        size = over(pl.col(errors).max())
    df = df.with_columns(size.cast(pl.Float64).alias("__fe_m"))
    if critical_count is not None:
        count = pl.lit(float(critical_count))
    elif critical_value is not None:
        count = (pl.lit(float(critical_value)) * pl.col("__fe_m")).round(9).floor()
    elif "critical_count" in df.columns:
        count = pl.col("critical_count")
    elif "critical_value" in df.columns:
        count = (pl.col("critical_value") * pl.col("__fe_m")).round(9).floor()
    elif "reject" in df.columns:  # fe.binomial_distribution(..., alpha=): the largest kept count
        count = over(pl.col(errors).filter(~pl.col("reject").fill_null(False)).max())
    else:
        raise InvalidParameterError(
            f"{func}(): the rejection region needs critical_count= (or critical_value= and m=), "
            "got neither (nor a critical_count, critical_value or reject column)."
        )
    accept_label = "accept: ε̂ ≤ ε̄"
    reject_label = "reject: ε̂ > ε̄ (probability < α)"
    df = df.with_columns(count.cast(pl.Float64).alias("__fe_c")).with_columns(
        pl.when(pl.col(errors) > pl.col("__fe_c"))
        .then(pl.lit(reject_label))
        .otherwise(pl.lit(accept_label))
        .alias("__fe_region"),
        (pl.col(errors) - 0.38).alias("__fe_lo"),
        (pl.col(errors) + 0.38).alias("__fe_hi"),
        (pl.col(errors) / pl.col("__fe_m")).alias("__fe_rate"),
        pl.lit("bars").alias(b.LAYER),
    )
    rule = (
        df.group_by(facets or pl.lit(0).alias("__fe_all"))
        .agg(pl.col("__fe_c").first(), pl.col("__fe_m").first())
        .drop("__fe_all", strict=False)
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
    sizes = df.get_column("__fe_m").unique()
    m_text = f" (m = {int(sizes.item())})" if sizes.len() == 1 else ""
    data, panel = b.add_facet(b.combine([df, rule]), facets)
    x_axis = theme.axis(f"Number of misclassified test samples i{m_text}", tickMinStep=1)
    x = alt.X(field="__fe_lo", type="quantitative", axis=x_axis, scale=alt.Scale(nice=False))
    layers = [
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
                scale=alt.Scale(
                    domain=[accept_label, reject_label], range=[theme.ACCEPT, theme.REJECT]
                ),
                legend=theme.legend("region", orient="bottom", direction="horizontal"),
            ),
            tooltip=[
                *b.key_tooltips(facets),
                b.tooltip(errors, "quantitative", "d", "errors i"),
                b.tooltip("__fe_rate", "quantitative", ".3f", "error rate i/m"),
                b.tooltip(probability, "quantitative", ".4f", "probability"),
            ],
        )
        .transform_filter(b.layer_filter("bars")),
        alt.Chart()
        .mark_rule(color=theme.INK, strokeDash=[4, 3])
        .encode(x=alt.X(field=b.X, type="quantitative"))
        .transform_filter(b.layer_filter("critical")),
        alt.Chart()
        .mark_text(
            align="left", dx=4, baseline="top", y=4, color=theme.INK, fontSize=theme.FONT_SIZE
        )
        .encode(
            x=alt.X(field=b.X, type="quantitative"), text=alt.Text(field=b.TEXT, type="nominal")
        )
        .transform_filter(b.layer_filter("critical")),
    ]
    if observed is not None:
        marker = pl.DataFrame({"x": [float(observed)], "text": [f"observed: {observed} errors"]})
        layers.append(
            alt.Chart(marker)
            .mark_rule(color=theme.INK, strokeWidth=2)
            .encode(x=alt.X(field="x", type="quantitative"))
        )
        layers.append(
            alt.Chart(marker)
            .mark_text(align="left", dx=4, baseline="top", y=22, fontWeight="bold")
            .encode(
                x=alt.X(field="x", type="quantitative"), text=alt.Text(field="text", type="nominal")
            )
        )
    chart = alt.layer(*layers, data=data).properties(width=width, height=height)
    parts = [m_text.strip(" ()")] if m_text else []
    if eps0 is not None:
        parts.append(f"ε0 = {eps0:g}")
    if alpha is not None:
        parts.append(f"α = {alpha:g}")
    subtitle = "P(ε̂ = i/m | ε = ε0)" + "".join(f", {p}" for p in parts) + " (figure 2.6)"
    return b.facet_chart(chart, panel, theme.title(title, subtitle))


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
    >>> import frameeval as fe
    >>> chart = fe.charts.t_distribution(9, alpha=0.05, statistic=1.2)
    >>> sorted({layer["mark"]["type"] for layer in chart.to_dict()["layer"]})
    ['area', 'line', 'rule', 'text']
    """
    from scipy import stats

    func = "t_distribution"
    is_number = isinstance(df, int | float) and not isinstance(df, bool)
    check_parameter(is_number and np.isfinite(df) and df > 0, func, f"df must be > 0, got {df!r}.")
    check_parameter(
        isinstance(alpha, int | float) and 0 < alpha < 1,
        func,
        f"alpha must be in (0, 1), got {alpha!r}.",
    )
    check_parameter(
        alternative in ("two-sided", "less", "greater"),
        func,
        f"alternative must be 'two-sided', 'less' or 'greater', got {alternative!r}.",
    )
    if alternative == "two-sided":
        crit = float(stats.t.ppf(1 - alpha / 2, df))
        cuts = [-crit, crit]
    else:
        crit = float(stats.t.ppf(1 - alpha, df))
        cuts = [crit] if alternative == "greater" else [-crit]
    reach = max(4.0, abs(crit) + 1.5, abs(statistic) + 0.8 if statistic is not None else 0.0)
    grid = np.linspace(-reach, reach, 401)
    grid = np.unique(np.concatenate([grid, cuts]))
    density = pl.DataFrame({"t": grid, "density": stats.t.pdf(grid, df)})
    tails = []
    if alternative in ("two-sided", "less"):
        tails.append(density.filter(pl.col("t") <= -crit).with_columns(tail=pl.lit("lower")))
    if alternative in ("two-sided", "greater"):
        tails.append(density.filter(pl.col("t") >= crit).with_columns(tail=pl.lit("upper")))
    tail = pl.concat(tails)
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
    layers = [
        alt.Chart(tail)
        .mark_area(color=theme.REJECT, opacity=0.55)
        .encode(
            x=x,
            y=y,
            y2=alt.Y2(datum=0),
            detail=alt.Detail(field="tail", type="nominal"),
            tooltip=[
                b.tooltip("t", "quantitative", ".3f"),
                b.tooltip("density", "quantitative", ".4f"),
            ],
        ),
        alt.Chart(density).mark_line(color=theme.INK, strokeWidth=2).encode(x=x, y=y),
        alt.Chart(marks)
        .mark_rule(color=theme.REJECT, strokeDash=[4, 3])
        .encode(x=alt.X(field="t", type="quantitative")),
        alt.Chart(marks)
        .mark_text(
            align="center", baseline="top", y=4, color=theme.REJECT, fontSize=theme.FONT_SIZE
        )
        .encode(
            x=alt.X(field="t", type="quantitative"), text=alt.Text(field="text", type="nominal")
        ),
    ]
    if statistic is not None:
        observed = pl.DataFrame({"t": [float(statistic)], "text": [f"τ_t = {statistic:.3f}"]})
        layers.append(
            alt.Chart(observed)
            .mark_rule(color=theme.INK, strokeWidth=2)
            .encode(x=alt.X(field="t", type="quantitative"))
        )
        layers.append(
            alt.Chart(observed)
            .mark_text(align="left", dx=4, baseline="top", y=22, fontWeight="bold")
            .encode(
                x=alt.X(field="t", type="quantitative"), text=alt.Text(field="text", type="nominal")
            )
        )
    subtitle = f"df = {df:g}; shaded: critical region ({share}) (figure 2.7)"
    return alt.layer(*layers).properties(
        width=width, height=height, title=theme.title(title, subtitle)
    )


def _cd_frame(
    ranks: Any, cd: Any, learner: str, average_rank: str, by: Any, func: str
) -> tuple[pl.DataFrame, list[str]]:
    """Average ranks joined with their CD (a number, a frame ``*by, cd``, or a ``cd`` column)."""
    lf = b.lazy(ranks, func)
    schema = b.columns(lf, func, numeric={"average_rank": average_rank}, learner=learner)
    values = {learner, average_rank, "cd", "critical_value", "n_blocks", "n_learners"}
    keys = b.key_columns(schema, values, by, func)
    df = b.gather(lf, func, "ranks=")
    if cd is None:
        if "cd" not in df.columns and "critical_value" in df.columns:
            df = df.rename({"critical_value": "cd"})
        if "cd" not in df.columns:
            raise InvalidParameterError(
                f"{func}(): cd= is required (a number or a frame with a 'critical_value' column, "
                "e.g. the output of fe.nemenyi), got None."
            )
    elif isinstance(cd, int | float) and not isinstance(cd, bool):
        check_parameter(np.isfinite(cd) and cd > 0, func, f"cd must be > 0, got {cd!r}.")
        df = df.with_columns(pl.lit(float(cd)).alias("cd"))
    else:
        clf = b.lazy(cd, func)
        names = clf.collect_schema().names()
        if "cd" not in names and "critical_value" in names:  # fe.nemenyi's CD column
            clf = clf.rename({"critical_value": "cd"})
        cschema = b.columns(clf, func, numeric={"cd": "cd"})
        ckeys = [k for k in keys if k in cschema]
        cdf = b.gather(clf.select(*ckeys, "cd").unique(), func, "cd=")
        df = df.drop("cd", strict=False)
        df = (
            df.join(cdf, on=ckeys, how="left", nulls_equal=True)
            if ckeys
            else df.join(cdf.head(1), how="cross")
        )
    return df.with_columns(
        pl.col("cd").cast(pl.Float64), pl.col(average_rank).cast(pl.Float64)
    ), keys


def cliques(df: pl.DataFrame, learner: str, average_rank: str, keys: Sequence[str]) -> pl.DataFrame:
    """Maximal runs of learners (in rank order) whose ranks differ by at most CD.

    Layout, not statistics: with learners sorted by average rank, learner i's run ends at the last
    j with r_j − r_i ≤ cd. A run is kept when it has two or more learners and is not inside the
    previous one (its end moves right). Output: ``*keys, clique, low, high``.
    """
    keys = list(keys)
    ordered = df.sort([*keys, average_rank, learner], nulls_last=True).with_columns(
        (pl.int_range(pl.len()).over(keys) if keys else pl.int_range(pl.len())).alias("__fe_i")
    )
    pairs = (
        ordered.join(ordered, on=keys, how="inner", suffix="_j", nulls_equal=True)
        if keys
        else ordered.join(ordered, how="cross", suffix="_j")
    )
    pairs = pairs.filter(
        (pl.col("__fe_i_j") >= pl.col("__fe_i"))
        & (pl.col(f"{average_rank}_j") - pl.col(average_rank) <= pl.col("cd") + 1e-12)
    )
    runs = (
        pairs.group_by([*keys, "__fe_i"])
        .agg(
            pl.col("__fe_i_j").max().alias("__fe_end"),
            pl.col(average_rank).first().alias("low"),
            pl.col(f"{average_rank}_j").max().alias("high"),
        )
        .sort([*keys, "__fe_i"], nulls_last=True)
    )
    previous = pl.col("__fe_end").shift(1)
    previous = previous.over(keys) if keys else previous
    runs = runs.filter(
        (pl.col("__fe_end") > pl.col("__fe_i")) & (pl.col("__fe_end") > previous.fill_null(-1))
    )
    number = pl.int_range(pl.len()).over(keys) if keys else pl.int_range(pl.len())
    return runs.with_columns(number.alias("clique")).select(*keys, "clique", "low", "high")


_CD_TESTS = ("nemenyi", "wilcoxon_holm", "bonferroni_dunn")
_CD_TEST_TEXT = {
    "nemenyi": "Nemenyi test",
    "wilcoxon_holm": "Wilcoxon signed-rank tests, Holm-corrected",
    "bonferroni_dunn": "Bonferroni–Dunn test",
}


def cd_diagram(
    ranks: Any,
    cd: Any = None,
    *,
    style: Literal["interval", "demsar"] | None = None,
    test: Literal["nemenyi", "wilcoxon_holm", "bonferroni_dunn"] | None = None,
    control: Any = None,
    learner: str | None = None,
    average_rank: str = "average_rank",
    by: str | Sequence[str] | None = None,
    facet: str | Sequence[str] | None = None,
    title: str | None = None,
    width: int = theme.WIDE,
    height: int | None = None,
) -> alt.TopLevelMixin:
    """Critical-difference diagram of average ranks (figure 2.8, or Demšar's Figure 1 style).

    Parameters
    ----------
    ranks
        Output of ``fe.average_ranks``: ``*by, learner, average_rank[, n_blocks]``.
    cd
        The critical difference CD = q_α √(k(k+1)/6N) (eq 2.36): a number, or a frame with a
        ``cd`` column such as ``fe.nemenyi``'s output (one CD per group; joined on the key
        columns the two frames share). Optional when ``ranks`` has a ``cd`` column.
    style
        ``"interval"`` (figure 2.8; the default without ``test``): one row per learner, its
        average rank as a dot and a segment of length CD centred on it; two learners differ
        significantly when their segments do not overlap. ``"demsar"`` (the default and only
        layout with ``test``): an axis of ranks, learners labelled on the left and right, thick
        bars joining groups (cliques) of learners not significantly different, and a CD bar for
        scale (Demšar 2006, figure 1).
    test
        Draw the cliques from the decisions of a pairwise procedure, passed as ``cd``:
        ``"nemenyi"`` (``fe.nemenyi``'s frame), ``"wilcoxon_holm"`` (``fe.wilcoxon(...,
        adjust="holm")``'s frame: every pair, Holm-corrected — the CD diagram of Benavoli et
        al. 2016 and aeon, without a CD bar since there is no single critical difference) or
        ``"bonferroni_dunn"`` (``fe.bonferroni_dunn``'s frame, against its control). The bars
        are :func:`frameeval.cliques` of the frame's ``reject`` column; the CD bar is its
        ``critical_value`` (Nemenyi, Bonferroni–Dunn). Default None: cliques from the CD alone,
        as before (for Nemenyi the two agree).
    control
        A learner: draw the comparisons against it only (Demšar 2006, figure 2) — one bar
        joining the control with every learner not significantly different from it; its label
        is marked "(control)". With ``test="bonferroni_dunn"`` it defaults to the frame's
        control (its ``b`` column).
    learner, average_rank
        Column names.
    by
        Key columns; default every column other than ``learner, average_rank, cd, n_blocks,
        n_learners``. Several groups are drawn in panels (``facet`` defaults to all keys).
    facet, title, width, height
        Panels, title and panel size in pixels (height defaults to the number of learners).

    Returns
    -------
    alt.LayerChart or alt.FacetChart

    Notes
    -----
    Lower rank = better (rank 1 is the best learner on a block, Table 2.5). Nothing is recomputed:
    the dots are ``average_rank`` and the interval half-width CD/2; the Demšar cliques are the
    layout of "no two learners in the group differ by more than CD" on the given ranks (see
    :func:`cliques`). Ties at exactly CD count as not significantly different, as the Nemenyi
    test rejects only when the difference exceeds CD.

    References
    ----------
    Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets. JMLR 7, 1–30.

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> ranks = pl.DataFrame({"learner": ["A", "B", "C"], "average_rank": [1.0, 2.125, 2.875]})
    >>> chart = fe.charts.cd_diagram(ranks, cd=1.657)
    >>> sorted({layer["mark"]["type"] for layer in chart.to_dict()["layer"]})
    ['point', 'rule']
    """
    func = "cd_diagram"
    (learner,) = resolve_roles(
        ranks, func, [average_rank, by, "cd", "n_blocks", "n_learners"], learner=learner
    )
    check_parameter(
        style in ("interval", "demsar", None),
        func,
        f"style must be 'interval' or 'demsar', got {style!r}.",
    )
    check_parameter(
        test in (*_CD_TESTS, None),
        func,
        f"test must be 'nemenyi', 'wilcoxon_holm', 'bonferroni_dunn' or None, got {test!r}.",
    )
    if test is not None or control is not None:
        check_parameter(
            style in ("demsar", None),
            func,
            f"test= and control= draw the 'demsar' layout, got style={style!r}.",
        )
        return _cd_from_test(
            ranks, cd, test, control, learner, average_rank, by, facet, title, width, height
        )
    df, keys = _cd_frame(ranks, cd, learner, average_rank, by, func)
    facets = as_keys(facet) if facet is not None else keys
    require_columns(df.schema, func, facet=facets)
    k_max = int(df.group_by(keys or pl.lit(0)).len().get_column("len").max())  # type: ignore[arg-type]
    if style in ("interval", None):
        return _cd_interval(df, keys, facets, learner, average_rank, title, width, height, k_max)
    return _cd_demsar(df, keys, facets, learner, average_rank, title, width, height, k_max)


def _cd_from_test(
    ranks, pairwise, test, control, learner, average_rank, by, facet, title, width, height
):
    """The Demšar layout with cliques read from a pairwise procedure's ``reject`` column."""
    from frameeval.compare.cliques import cliques as compute_cliques

    func = "cd_diagram"
    if pairwise is None or isinstance(pairwise, int | float):
        raise InvalidParameterError(
            f"{func}(): test= and control= need the pairwise frame of the procedure as cd= "
            f"(columns a, b, reject), got {pairwise!r}."
        )
    lf = b.lazy(ranks, func)
    schema = b.columns(lf, func, numeric={"average_rank": average_rank}, learner=learner)
    values = {learner, average_rank, "cd", "critical_value", "n_blocks", "n_learners"}
    keys = b.key_columns(schema, values, by, func)
    df = b.gather(lf, func, "ranks=").with_columns(pl.col(average_rank).cast(pl.Float64))
    plf = b.lazy(pairwise, func)
    pschema = b.columns(plf, func, a="a", b="b", reject="reject")
    pkeys = [k for k in keys if k in pschema]
    check_parameter(
        pkeys == keys,
        func,
        f"the pairwise frame (cd=) must have the key columns of ranks {keys}, got "
        f"{[k for k in keys if k not in pkeys]} missing.",
    )
    pw = b.gather(plf, func, "cd=")
    if test == "wilcoxon_holm":
        check_parameter(
            "p_adjusted" in pw.columns,
            func,
            "test='wilcoxon_holm' needs Holm-corrected comparisons (a p_adjusted column, "
            "fe.wilcoxon(..., adjust='holm')), got none.",
        )
    if test == "bonferroni_dunn" and control is None:
        controls = pw.get_column("b").unique()
        check_parameter(
            controls.len() == 1,
            func,
            f"test='bonferroni_dunn' needs one control (column b), got {controls.to_list()}.",
        )
        control = controls.item()
    show_cd = test in ("nemenyi", "bonferroni_dunn")
    if show_cd:
        column = "critical_value" if "critical_value" in pw.columns else "cd"
        require_columns(pw.schema, func, critical_value=column)
        cds = pw.select(*pkeys, pl.col(column).cast(pl.Float64).alias("cd"))
        cds = cds.unique(pkeys, keep="first") if pkeys else cds.head(1)
        df = (
            df.drop("cd", strict=False).join(cds, on=pkeys, how="left", nulls_equal=True)
            if pkeys
            else df.drop("cd", strict=False).with_columns(
                pl.lit(cds.get_column("cd")[0], dtype=pl.Float64).alias("cd")
            )
        )
    else:
        df = df.with_columns(pl.lit(None, dtype=pl.Float64).alias("cd"))
    side = df.select(*keys, learner, pl.col(average_rank).alias("average_rank"))
    if control is None:
        members = compute_cliques(
            pw.select(*pkeys, "a", "b", "reject"), side, learner=learner, by=pkeys or None
        )
    else:
        against = pw.filter((pl.col("a") == control) | (pl.col("b") == control))
        others = against.filter(~pl.col("reject").fill_null(False)).select(
            *pkeys,
            pl.when(pl.col("a") == control).then(pl.col("b")).otherwise(pl.col("a")).alias(learner),
        )
        chosen = pl.concat(
            [others, side.filter(pl.col(learner) == control).select(*pkeys, learner)],
            how="vertical_relaxed",
        )
        members = side.join(chosen.unique(), on=[*pkeys, learner], how="semi", nulls_equal=True)
        size = pl.len().over(pkeys) if pkeys else pl.len()
        members = members.with_columns(pl.lit(1, dtype=pl.Int64).alias("clique")).filter(size >= 2)
        df = df.with_columns(
            pl.when(b.as_text(learner) == str(control))
            .then(pl.lit(" (control)"))
            .otherwise(pl.lit(""))
            .alias("__fe_mark")
        )
    clq = (
        members.group_by(*pkeys, "clique")
        .agg(pl.col("average_rank").min().alias("low"), pl.col("average_rank").max().alias("high"))
        .sort([*pkeys, "clique"])
        .select(*pkeys, (pl.col("clique") - 1).alias("clique"), "low", "high")
    )
    facets = as_keys(facet) if facet is not None else keys
    require_columns(df.schema, func, facet=facets)
    k_max = int(df.group_by(keys or pl.lit(0)).len().get_column("len").max())
    name = _CD_TEST_TEXT[test] if test is not None else "pairwise tests"
    subtitle = (
        "axis: average rank (1 = best); thick bars join learners not significantly different "
        + (f"from the control {control} " if control is not None else "")
        + f"({name})"
    )
    return _cd_demsar(
        df,
        keys,
        facets,
        learner,
        average_rank,
        title,
        width,
        height,
        k_max,
        clq=clq,
        show_cd=show_cd,
        subtitle=subtitle,
    )


def _cd_interval(df, keys, facets, learner, average_rank, title, width, height, k_max):
    df = df.with_columns(
        (pl.col(average_rank) - pl.col("cd") / 2).alias("__fe_lo"),
        (pl.col(average_rank) + pl.col("cd") / 2).alias("__fe_hi"),
        pl.lit("rank").alias(b.LAYER),
    )
    best = (
        df.sort(average_rank)
        .group_by(keys or pl.lit(0).alias("__fe_all"), maintain_order=True)
        .first()
    )
    best = best.drop("__fe_all", strict=False).select(
        *keys, pl.col("__fe_hi").alias(b.X), pl.lit("best").alias(b.LAYER)
    )
    data, panel = b.add_facet(b.combine([df, best]), facets)
    order = df.sort(average_rank).get_column(learner).unique(maintain_order=True).to_list()
    low = float(df.get_column("__fe_lo").min())
    high = float(df.get_column("__fe_hi").max())
    pad = 0.05 * (high - low)
    x_scale = alt.Scale(domain=[low - pad, high + pad], nice=False, zero=False)
    x_axis = theme.axis("Average rank (lower is better)")
    y = alt.Y(
        field=b.field(learner), type="nominal", sort=order, axis=theme.axis(learner, labelLimit=200)
    )
    tips = [
        *b.key_tooltips(keys),
        b.tooltip(learner),
        b.tooltip(average_rank, "quantitative", ".3f", "average rank"),
        b.tooltip("cd", "quantitative", ".3f", "CD"),
    ]
    layers = [
        alt.Chart()
        .mark_rule(color=theme.GUIDE, strokeDash=[2, 3])
        .encode(x=alt.X(field=b.X, type="quantitative", scale=x_scale))
        .transform_filter(b.layer_filter("best")),
        alt.Chart()
        .mark_rule(strokeWidth=2.5, color=theme.INK)
        .encode(
            x=alt.X(field="__fe_lo", type="quantitative", scale=x_scale, axis=x_axis),
            x2=alt.X2(field="__fe_hi"),
            y=y,
            tooltip=tips,
        )
        .transform_filter(b.layer_filter("rank")),
        alt.Chart()
        .mark_point(filled=True, size=90, color=theme.INK, opacity=1)
        .encode(
            x=alt.X(field=b.field(average_rank), type="quantitative", scale=x_scale),
            y=y,
            tooltip=tips,
        )
        .transform_filter(b.layer_filter("rank")),
    ]
    height = height or max(90, 34 * k_max)
    chart = alt.layer(*layers, data=data).properties(width=width, height=height)
    subtitle = (
        "dot: average rank; segment: CD wide, centred on it; learners whose segments do not "
        "overlap differ significantly (figure 2.8)"
    )
    resolve = {"y": "independent"} if panel.field is not None else None
    return b.facet_chart(
        chart,
        panel,
        theme.title(title or "Friedman test: average ranks with CD", subtitle),
        resolve=resolve,
    )


_ROW = 1.0  # label row height (y units)
_CLIQUE = 0.4  # clique row height


def _cd_demsar(
    df,
    keys,
    facets,
    learner,
    average_rank,
    title,
    width,
    height,
    k_max,
    clq=None,
    show_cd=True,
    subtitle=None,
):
    over = (lambda e: e.over(keys)) if keys else (lambda e: e)
    groups = keys or []
    ranked = df.sort([*groups, average_rank, learner], nulls_last=True).with_columns(
        over(pl.int_range(pl.len())).alias("__fe_i"),
        over(pl.len()).cast(pl.Int64).alias("__fe_k"),
    )
    if clq is None:
        clq = cliques(df, learner, average_rank, keys)
    n_cliques = (
        clq.group_by(groups or pl.lit(0).alias("__fe_all")).len().drop("__fe_all", strict=False)
        if clq.height
        else None
    )
    ranked = ranked.with_columns(
        ((pl.col("__fe_k") + 1) // 2).alias("__fe_half"),
    )
    if n_cliques is not None and groups:
        ranked = ranked.join(
            n_cliques.rename({"len": "__fe_nc"}), on=groups, how="left", nulls_equal=True
        ).with_columns(pl.col("__fe_nc").fill_null(0))
    else:
        ranked = ranked.with_columns(
            pl.lit(0 if n_cliques is None else int(n_cliques.get_column("len")[0])).alias("__fe_nc")
        )
    left = pl.col("__fe_i") < pl.col("__fe_half")
    row = pl.when(left).then(pl.col("__fe_i")).otherwise(pl.col("__fe_k") - 1 - pl.col("__fe_i"))
    k = pl.col("__fe_k").cast(pl.Float64)
    label_x = (
        pl.when(left).then(pl.lit(1.0) - 0.15 * (k - 1) - 0.05).otherwise(k + 0.15 * (k - 1) + 0.05)
    )
    label_y = -(pl.lit(0.5) + pl.col("__fe_nc") * _CLIQUE + 0.5 + row * _ROW)
    learners = ranked.with_columns(
        label_y.alias(b.Y),
        label_x.alias(b.X),
        pl.when(left).then(pl.lit("left")).otherwise(pl.lit("right")).alias(b.LAYER),
        pl.concat_str(
            [
                b.as_text(learner),
                pl.lit(" ("),
                b.fixed(pl.col(average_rank), 2),
                pl.lit(")"),
                *([pl.col("__fe_mark")] if "__fe_mark" in ranked.columns else []),
            ]
        ).alias(b.TEXT),
    )
    # the axis: a line from 1 to k, integer ticks with labels, and the CD bar above it
    ks = (
        ranked.group_by(groups or pl.lit(0).alias("__fe_all"))
        .agg(pl.col("__fe_k").first(), pl.col("cd").first())
        .drop("__fe_all", strict=False)
    )
    axis_line = ks.select(
        *groups,
        pl.lit(1.0).alias(b.X),
        pl.col("__fe_k").cast(pl.Float64).alias("__fe_x2"),
        pl.lit(0.0).alias(b.Y),
        pl.lit("axis").alias(b.LAYER),
    )
    ticks = (
        ks.with_columns(pl.int_ranges(1, pl.col("__fe_k") + 1).alias("__fe_tick"))
        .explode("__fe_tick")
        .select(
            *groups,
            pl.col("__fe_tick").cast(pl.Float64).alias(b.X),
            pl.lit(0.0).alias(b.Y),
            pl.col("__fe_tick").cast(pl.String).alias(b.TEXT),
            pl.lit("tick").alias(b.LAYER),
        )
    )
    cd_bar = ks.select(
        *groups,
        pl.lit(1.0).alias(b.X),
        (1.0 + pl.col("cd")).alias("__fe_x2"),
        pl.lit(1.35).alias(b.Y),
        ("CD = " + b.fixed(pl.col("cd"), 2)).alias(b.TEXT),
        (1.0 + pl.col("cd") / 2).alias("__fe_xm"),
        pl.lit("cd").alias(b.LAYER),
    )
    bars = clq.select(
        *groups,
        (pl.col("low") - 0.03).alias(b.X),
        (pl.col("high") + 0.03).alias("__fe_x2"),
        (-(pl.lit(0.5) + pl.col("clique") * _CLIQUE)).alias(b.Y),
        pl.lit("clique").alias(b.LAYER),
        pl.col("low").alias("__fe_low"),
        pl.col("high").alias("__fe_high"),
    )
    if not show_cd:
        cd_bar = None
    data, panel = b.add_facet(b.combine([learners, axis_line, ticks, cd_bar, bars]), facets)
    k_f = float(k_max)
    span = 0.15 * (k_f - 1) + 0.05
    x_scale = alt.Scale(
        domain=[1 - span - 0.05 * k_f, k_f + span + 0.05 * k_f], nice=False, zero=False
    )
    y_min = float(data.get_column(b.Y).min())
    y_scale = alt.Scale(domain=[y_min - 0.6, 2.0], nice=False, zero=False)
    x = alt.X(field=b.X, type="quantitative", scale=x_scale, axis=None)
    y = alt.Y(field=b.Y, type="quantitative", scale=y_scale, axis=None)
    tips = [
        *b.key_tooltips(keys),
        b.tooltip(learner),
        b.tooltip(average_rank, "quantitative", ".3f", "average rank"),
    ]
    layers = [
        alt.Chart()
        .mark_rule(color=theme.INK, strokeWidth=1.2)
        .encode(x=x, x2=alt.X2(field="__fe_x2"), y=y)
        .transform_filter(b.layer_filter("axis")),
        alt.Chart()
        .mark_tick(color=theme.INK, orient="vertical", size=8, thickness=1.2)
        .encode(x=x, y=y)
        .transform_filter(b.layer_filter("tick")),
        alt.Chart()
        .mark_text(dy=-12, fontSize=theme.FONT_SIZE, color=theme.INK)
        .encode(x=x, y=y, text=alt.Text(field=b.TEXT, type="nominal"))
        .transform_filter(b.layer_filter("tick")),
        alt.Chart()
        .mark_rule(color=theme.INK, strokeWidth=2)
        .encode(x=x, x2=alt.X2(field="__fe_x2"), y=y)
        .transform_filter(b.layer_filter("cd")),
        alt.Chart()
        .mark_text(dy=-9, fontSize=theme.FONT_SIZE, color=theme.INK)
        .encode(
            x=alt.X(field="__fe_xm", type="quantitative", scale=x_scale, axis=None),
            y=y,
            text=alt.Text(field=b.TEXT, type="nominal"),
        )
        .transform_filter(b.layer_filter("cd")),
        alt.Chart()
        .mark_rule(color=theme.INK, strokeWidth=4.5)
        .encode(
            x=x,
            x2=alt.X2(field="__fe_x2"),
            y=y,
            tooltip=[
                *b.key_tooltips(keys),
                b.tooltip("__fe_low", "quantitative", ".3f", "lowest rank"),
                b.tooltip("__fe_high", "quantitative", ".3f", "highest rank"),
            ],
        )
        .transform_filter(b.layer_filter("clique")),
    ]
    for side in ("left", "right"):
        elbow_v = (
            alt.Chart()
            .mark_rule(color=theme.GUIDE)
            .encode(
                x=alt.X(field=b.field(average_rank), type="quantitative", scale=x_scale, axis=None),
                y=y,
                y2=alt.Y2(datum=0),
            )
        )
        elbow_h = (
            alt.Chart()
            .mark_rule(color=theme.GUIDE)
            .encode(
                x=alt.X(field=b.field(average_rank), type="quantitative", scale=x_scale, axis=None),
                x2=alt.X2(field=b.X),
                y=y,
            )
        )
        name = (
            alt.Chart()
            .mark_text(
                align="right" if side == "left" else "left",
                dx=-4 if side == "left" else 4,
                fontSize=theme.FONT_SIZE + 1,
                color=theme.INK,
            )
            .encode(x=x, y=y, text=alt.Text(field=b.TEXT, type="nominal"), tooltip=tips)
        )
        layers += [m.transform_filter(b.layer_filter(side)) for m in (elbow_v, elbow_h, name)]
    rows = (k_max + 1) // 2
    n_max = int(data.filter(pl.col(b.LAYER) == "clique").height)
    height = height or int(40 + 26 * (rows + 2.5 + _CLIQUE * n_max))
    chart = alt.layer(*layers, data=data).properties(
        width=width, height=height, view=alt.ViewBackground(stroke=None)
    )
    subtitle = subtitle or (
        "axis: average rank (1 = best); thick bars join learners whose ranks differ by at most "
        "CD (not significantly different)"
    )
    resolve = {"x": "independent", "y": "independent"} if panel.field is not None else None
    return b.facet_chart(
        chart, panel, theme.title(title or "Critical difference diagram", subtitle), resolve=resolve
    )


def rank_heatmap(
    ranks: Any,
    average: Any = None,
    *,
    learner: str | None = None,
    rank: str = "rank",
    block: str | Sequence[str] | None = None,
    facet: str | Sequence[str] | None = None,
    title: str | None = "Ranks per block",
    width: int | None = None,
    height: int | None = None,
) -> alt.TopLevelMixin:
    """Heatmap of the rank of every learner on every block (Table 2.5 as a picture).

    Parameters
    ----------
    ranks
        Output of ``fe.rank_table``: ``*block, learner, rank`` (rank 1 = best on the block; ties
        share the mean rank).
    average
        Optional output of ``fe.average_ranks`` (``learner, average_rank``, joined on the shared
        keys): drawn as a last row "average rank", like the table's bottom line.
    learner, rank
        Column names.
    block
        Block column(s) (data sets or folds), rows of the heatmap; default every column other
        than ``learner``, ``rank`` and ``facet`` that is not a float (``fe.rank_table`` also
        returns the metric itself, which is shown in the tooltip). Several are combined into one
        label.
    facet, title, width, height
        Panels, title and size in pixels (default 56 px per learner up to a width that fits a
        1,100 px page, 24 px per block); long learner names are angled.

    Returns
    -------
    alt.LayerChart or alt.FacetChart

    Notes
    -----
    Learners are ordered left to right by their mean rank over the blocks shown (a sort order
    computed by Vega-Lite; no value is recomputed). Darker = better rank.

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> ranks = pl.DataFrame({"dataset": ["D1", "D1", "D2", "D2"], "learner": ["A", "B"] * 2,
    ...                       "rank": [1.0, 2.0, 1.5, 1.5]})
    >>> [layer["mark"]["type"] for layer in fe.charts.rank_heatmap(ranks).to_dict()["layer"]]
    ['rect', 'text']
    """
    func = "rank_heatmap"
    (learner,) = resolve_roles(ranks, func, [rank, block, facet], learner=learner)
    lf = b.lazy(ranks, func)
    schema = b.columns(lf, func, numeric={"rank": rank}, learner=learner)
    facets = b.facet_columns(facet, schema, func)
    blocks = (
        as_keys(block)
        if block is not None
        else [
            c
            for c in schema.names()
            if c not in {learner, rank, *facets} and not schema[c].is_float()
        ]
    )
    values = [c for c in schema.names() if c not in {learner, rank, *facets, *blocks}]
    require_columns(schema, func, block=blocks)
    df = b.gather(lf, func, "ranks=")
    row = "__fe_block"
    if blocks:
        df = df.with_columns(
            pl.concat_str([b.as_text(c) for c in blocks], separator=" · ").alias(row)
        )
    else:
        df = df.with_columns(pl.lit("").alias(row))
    block_order = (
        df.sort(blocks or row, nulls_last=True)
        .get_column(row)
        .unique(maintain_order=True)
        .to_list()
    )
    df = df.with_columns(pl.col(rank).cast(pl.Float64).alias("__fe_value"))
    if average is not None:
        alf = b.lazy(average, func)
        b.columns(alf, func, numeric={"average_rank": "average_rank"}, learner=learner)
        avg = b.gather(alf, func, "average=").with_columns(
            pl.lit("average rank").alias(row),
            pl.col("average_rank").cast(pl.Float64).alias("__fe_value"),
        )
        df = pl.concat([df, avg], how="diagonal_relaxed")
        block_order.append("average rank")
    k = df.get_column(learner).n_unique()
    df = df.with_columns((pl.col("__fe_value") <= (k + 1) / 2).alias("__fe_dark"))
    data, panel = b.add_facet(b.sanitize(df), facets)
    # learners by their mean rank over the blocks shown (layout): an explicit order, as a sort
    # by field on the layered rect + text would be dropped by Vega-Lite ("unioned domains")
    shown = data.filter(pl.col(row) != "average rank") if average is not None else data
    order = (
        shown.group_by(learner)
        .agg(pl.col("__fe_value").mean().alias("__fe_mean"))
        .sort(["__fe_mean", learner], nulls_last=True)
        .get_column(learner)
        .to_list()
    )
    # 56 px per learner, narrower when many learners would not fit next to the block labels
    # and the legend on a 1,100 px page
    panel_width = width or max(160, min(56 * k, theme.PAGE - theme.LEGEND - 150))
    x = alt.X(
        field=b.field(learner),
        type="nominal",
        sort=order,
        axis=b.band_axis(learner, order, panel_width / max(k, 1), orient="top"),
    )
    y = alt.Y(
        field=row, type="nominal", sort=block_order, axis=theme.axis(" · ".join(blocks) or None)
    )
    tips = [
        *b.key_tooltips(facets),
        b.tooltip(row, label=" · ".join(blocks) or "block"),
        b.tooltip(learner),
        b.tooltip("__fe_value", "quantitative", ".3~f", "rank"),
        *[b.tooltip(c, "quantitative", ".4~g") for c in values if schema[c].is_numeric()],
    ]
    layers = [
        alt.Chart()
        .mark_rect(stroke="white", strokeWidth=1)
        .encode(
            x=x,
            y=y,
            color=alt.Color(
                field="__fe_value",
                type="quantitative",
                scale=alt.Scale(scheme=theme.SEQUENTIAL, reverse=True, domain=[1, k]),
                legend=theme.legend("rank"),
            ),
            tooltip=tips,
        ),
        alt.Chart()
        .mark_text(fontSize=theme.FONT_SIZE)
        .encode(
            x=x,
            y=y,
            text=alt.Text(field="__fe_value", type="quantitative", format=".3~f"),
            color=alt.condition("datum['__fe_dark']", alt.value("white"), alt.value(theme.INK)),
        ),
    ]
    n_rows = len(block_order)
    chart = alt.layer(*layers, data=data).properties(
        width=panel_width, height=height or max(60, 24 * n_rows)
    )
    return b.facet_chart(
        chart,
        panel,
        theme.title(title, "rank 1 = best; learners ordered by mean rank"),
        panel_width=panel_width,
    )


def metric_distribution(
    scores: Any,
    metric: str | None = None,
    *,
    learner: str | None = None,
    color: str | None = None,
    facet: str | Sequence[str] | None = None,
    points: bool = True,
    title: str | None = None,
    width: int | None = None,
    height: int = theme.TALL,
) -> alt.TopLevelMixin:
    """Box plots of a per-fold (or per-data-set) metric for each learner, with the values as dots.

    Parameters
    ----------
    scores
        Long frame ``block/fold…, learner, <metric>``: one row per learner and evaluation split.
    metric
        The numeric column to show; default the only float column of the frame.
    learner
        Learner column (x axis).
    color
        Column coloured by; default ``learner``.
    facet
        Key column(s) giving one panel each (e.g. ``"dataset"``).
    points
        Overlay the individual values (deterministically jittered) with tooltips of every column.
    title, width, height
        Title and panel size in pixels (width defaults to 70 px per learner).

    Returns
    -------
    alt.LayerChart or alt.FacetChart

    Notes
    -----
    The box is Vega-Lite's: quartiles, whiskers to the furthest value within 1.5 IQR. Learners
    are ordered by the median of their values (all panels together), highest first; long names
    are angled. It is a picture of the given values; comparisons between learners are the tests of ``fe.compare``.

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> scores = pl.DataFrame({"fold": [0, 1, 0, 1], "learner": ["A", "A", "B", "B"],
    ...                        "accuracy": [0.8, 0.9, 0.7, 0.75]})
    >>> [layer["mark"]["type"] for layer in
    ...  fe.charts.metric_distribution(scores).to_dict()["layer"]]
    ['boxplot', 'point']
    """
    func = "metric_distribution"
    (learner,) = resolve_roles(scores, func, [metric, color, facet], learner=learner)
    lf = b.lazy(scores, func)
    schema = lf.collect_schema()
    if metric is None:
        floats = [n for n, t in schema.items() if t.is_float()]
        if len(floats) != 1:
            raise InvalidParameterError(
                f"{func}(): metric= must name the column to show when the frame does not have "
                f"exactly one float column, got float columns {floats}."
            )
        metric = floats[0]
    b.columns(lf, func, numeric={"metric": metric}, learner=learner)
    facets = b.facet_columns(facet, schema, func)
    color = color or learner
    require_columns(schema, func, color=color)
    df = b.gather(lf, func, "scores=")
    # golden-ratio jitter: deterministic, spreads points evenly across the band
    df = df.with_columns(
        (((pl.int_range(pl.len()).over(learner) + 1) * 0.6180339887) % 1.0 - 0.5).alias(
            "__fe_jitter"
        )
    )
    data, panel = b.add_facet(b.sanitize(df), facets)
    # learners by median over all values shown, best (highest) first: an explicit order (layout,
    # not a statistic), since Vega-Lite drops a sort by field on layered marks with a warning
    learners = (
        data.group_by(learner)
        .agg(pl.col(metric).median().alias("__fe_median"))
        .sort(["__fe_median", learner], descending=[True, False], nulls_last=True)
        .get_column(learner)
        .to_list()
    )
    panel_width = width or max(160, 70 * len(learners))
    x = alt.X(
        field=b.field(learner),
        type="nominal",
        sort=learners,
        axis=b.band_axis(learner, learners, panel_width / max(len(learners), 1)),
    )
    y = alt.Y(
        field=b.field(metric),
        type="quantitative",
        scale=alt.Scale(zero=False),
        axis=theme.axis(metric),
    )
    col = b.color_encoding(color, color, data)
    layers = [
        alt.Chart()
        .mark_boxplot(
            opacity=0.35,
            size=max(6, min(38, int(0.6 * panel_width / max(len(learners), 1)))),
            median={"color": theme.INK},
            outliers=False,
        )
        .encode(x=x, y=y, color=col),
    ]
    if points:
        others = [c for c in df.columns if c not in {learner, metric, "__fe_jitter"}]
        layers.append(
            alt.Chart()
            .mark_point(filled=True, size=28, opacity=0.85)
            .encode(
                x=x,
                y=y,
                xOffset=alt.XOffset(
                    field="__fe_jitter", type="quantitative", scale=alt.Scale(domain=[-1.2, 1.2])
                ),
                color=col,
                tooltip=[
                    *b.key_tooltips([learner, *others]),
                    b.tooltip(metric, "quantitative", ".4f"),
                ],
            )
        )
    chart = alt.layer(*layers, data=data).properties(width=panel_width, height=height)
    return b.facet_chart(
        chart,
        panel,
        theme.title(
            title or f"{metric} per learner",
            "box: quartiles and 1.5 IQR whiskers; dots: the individual values; "
            "learners by median, best first",
        ),
        panel_width=panel_width,
    )
