"""The mean score of each model on a benchmark's items, with its standard error and interval:
:func:`means`."""

from __future__ import annotations

from typing import Literal

import polars as pl

from frameeval._extensions import provider
from frameeval._frame import is_dask
from frameeval._typing import Frame, IntoFrame, Keys, frame_function
from frameeval.items._sums import (
    MODEL,
    Design,
    OneOf,
    cluster_table,
    finish_items,
    item_table,
    model_table,
    open_design,
    replicate_means,
    t_quantiles,
)
from frameeval.uncertainty.intervals import wilson_interval

__all__ = ["means"]

Method = Literal["auto", "clt", "clustered", "wilson", "bootstrap"]
METHODS = ("auto", "clt", "clustered", "wilson", "bootstrap")
#: ``method="auto"`` takes Wilson's interval for a 0/1 score on fewer items than this
WILSON_BELOW = 100
_OUT = [
    "n_items",
    "n_clusters",
    "mean",
    "se",
    "ci_low",
    "ci_high",
    "method",
    "k_samples",
    "var_between",
    "var_within",
    "se_at_samples",
]


def _chosen(design: Design, method: str) -> pl.Expr:
    """The method each group uses (``auto`` decided per group, in the plan)."""
    if method != "auto":
        return pl.lit(method)
    if design.cluster is not None:
        return pl.lit("clustered")
    binary = (pl.col("__odd") == 0) & (pl.col("__kmax") == 1)
    few = pl.col("n_items") < WILSON_BELOW
    return pl.when(binary & few).then(pl.lit("wilson")).otherwise(pl.lit("clt"))


def _samples(sample: str | None, at_samples: int | None) -> list[pl.Expr]:
    """The within/between-item variance split (Miller 2024, eq. 6): Var(x̄) =
    (ω² + σ²/K)/n; ``var_within`` σ̂² (mean within-item variance), ``var_between`` ω̂² =
    max(0, s²_x − σ̂²·mean(1/K_i)); ``se_at_samples`` the SE with ``at_samples`` answers per
    item, se · √((ω̂² + σ̂²/K′)/(ω̂² + σ̂²·mean(1/K_i)))."""
    if sample is None:
        return []
    within = pl.col("__within")
    between = (pl.col("__var") - within * pl.col("__inv_k")).clip(lower_bound=0.0)
    out = [
        pl.col("__kmean").alias("k_samples"),
        between.alias("var_between"),
        within.alias("var_within"),
    ]
    if at_samples is not None:
        now = between + within * pl.col("__inv_k")
        then = between + within / float(at_samples)
        ratio = pl.when(now > 0).then((then / now).sqrt())
        out.append((pl.col("se") * ratio).alias("se_at_samples"))
    return out


@frame_function
def means(
    data: IntoFrame,
    score: str,
    *,
    model: str = "model",
    item: str = "item",
    by: Keys = None,
    cluster: str | None = None,
    sample: str | None = None,
    level: float = 0.95,
    method: Method = "auto",
    at_samples: int | None = None,
    n_resamples: int = 1000,
    seed: int = 0,
) -> Frame:
    """The mean score of every model over its items, with a standard error and an interval.

    One row per item (and per answer with ``sample=``): a model's score is the mean of its
    items' scores, an item's score the mean of its K answers. The standard error treats the
    *items* (or, with ``cluster=``, the clusters of items — items that share a passage, a file,
    a template) as the independent draws from the population of items the benchmark stands
    for (Miller 2024). Each model's mean is over its own items (use
    :func:`frameeval.items.compare` to compare models on the items they share).

    Parameters
    ----------
    data
        One row per ``*by, model, item`` (``*by, model, item, sample`` with ``sample=``).
    score
        Numeric score column (a 0/1 correct flag or any number); complete and finite.
    model, item
        The model and item columns.
    by
        Key column(s), e.g. ``"benchmark"``: one result per group and model.
    cluster
        Column naming each item's cluster (constant within an item, never null).
    sample
        Column numbering the K answers of a model to an item (epochs, seeds); adds the
        variance split below.
    level
        Confidence level of the interval, in (0, 1).
    method
        ``"clt"``, ``"clustered"``, ``"wilson"``, ``"bootstrap"`` or ``"auto"``: ``"clustered"``
        when ``cluster=`` is given; otherwise ``"wilson"`` for a 0/1 score (one answer per
        item) on fewer than 100 items; otherwise ``"clt"``. Auto never picks the bootstrap.
    at_samples
        With ``sample=``: also the SE expected with this many answers per item.
    n_resamples, seed
        The cluster bootstrap's number of replicates and seed (``method="bootstrap"``).

    Returns
    -------
    Same kind as ``data`` (a Dask DataFrame gives a ``pl.DataFrame``: the same call runs on
    the cluster, :mod:`frameeval.dask.items`): ``*by, <model>, n_items, n_clusters, mean, se, ci_low, ci_high,
    method`` sorted by the keys — with ``sample=`` also ``k_samples`` (mean answers per
    item), ``var_between`` (ω̂²), ``var_within`` (σ̂²) and, with ``at_samples=``,
    ``se_at_samples``. ``n_clusters`` is the number of clusters (of items without
    ``cluster=``). ``se`` and the interval are null where undefined (one item; one cluster).

    Notes
    -----
    With item scores x_1 … x_n, x̄ = Σx_i/n and s² = Σ(x_i − x̄)²/(n − 1):

    * ``clt``: se = s/√n, interval x̄ ± z_{(1+level)/2}·se;
    * ``clustered``: se = (1/n)·√(C/(C − 1)·Σ_c(Σ_{i∈c}(x_i − x̄))²) over the C clusters (the
      cluster-robust SE of an intercept-only regression with the small-sample factor C/(C − 1):
      statsmodels' ``cov_type="cluster"`` with its default corrections), interval
      x̄ ± t_{C−1}·se;
    * ``wilson``: se = s/√n, the interval Wilson's score interval of Σx_i successes in n trials
      (the score must lie in [0, 1]; for a 0/1 score it is the exact Wilson interval);
    * ``bootstrap``: the clusters (items without ``cluster=``) resampled with Poisson(1)
      weights, se the standard deviation of the replicate means, the interval their
      percentile interval.

    With K answers per item, Var(x̄) = (ω² + σ²/K)/n: ω² the variance of the items' true
    scores, σ² the mean within-item variance, which shrinks with K (Miller 2024, §3).

    References
    ----------
    Miller (2024), "Adding Error Bars to Evals", arXiv:2411.00640. Wilson (1927), JASA 22.
    Bowyer et al. (2025), "Position: Don't use the CLT in LLM evals with fewer than a few
    hundred datapoints". Cameron & Miller (2015), J. Human Resources 50(2).

    Examples
    --------
    >>> df = pl.DataFrame({"model": ["a"] * 3 + ["b"] * 3, "item": [1, 2, 3] * 2,
    ...                    "correct": [1, 0, 1, 1, 1, 1]})
    >>> out = fe.items.means(df, "correct", method="clt")
    >>> out.select("model", "mean", pl.col("se").round(4)).rows()
    [('a', 0.6666666666666666, 0.3333), ('b', 1.0, 0.0)]
    """
    if is_dask(data):  # the same call on a Dask cluster: frameeval.dask.items
        return provider("dask_items_means")(**locals())
    design, checked = open_design("means", locals(), [model, *_OUT], method=OneOf(METHODS))
    level, at_samples = checked["level"], checked["at_samples"]
    items, checks = item_table(design, proportion=method == "wilson")
    models = model_table(design, items, checks)
    clusters = cluster_table(design, items)
    per_model = clusters.group_by([*design.keys, MODEL]).agg(
        pl.len().cast(pl.Int64).alias("n_clusters"), pl.col("__e").pow(2).sum().alias("__ssc")
    )
    stats = models.join(per_model, on=[*design.keys, MODEL], how="left", nulls_equal=True)
    stats = _intervals(design, stats, method, level)
    if method == "bootstrap":
        stats = _bootstrap(design, stats, clusters, level, checked["n_resamples"], checked["seed"])
    stats = stats.with_columns(*_samples(sample, at_samples))
    columns = [c for c in _OUT if c in stats.collect_schema()]
    out = stats.select(*design.keys, pl.col(MODEL).alias(model), *columns)
    return finish_items(out.sort([*design.keys, model], nulls_last=True), design.eager)


def _intervals(design: Design, stats: pl.LazyFrame, method: str, level: float) -> pl.LazyFrame:
    """``mean, se, ci_low, ci_high, method`` for the CLT, clustered and Wilson methods."""
    n = pl.col("n_items").cast(pl.Float64)
    c = pl.col("n_clusters").cast(pl.Float64)
    mean = pl.col("__mean")
    clt_se = (pl.col("__var") / n).sqrt()
    clustered_se = pl.when(c > 1).then((c / (c - 1.0) * pl.col("__ssc")).sqrt() / n)
    stats = stats.with_columns(_chosen(design, method).alias("method"))
    chosen = pl.col("method")
    se = pl.when(chosen == "clustered").then(clustered_se).otherwise(clt_se)
    df = pl.when(chosen == "clustered").then(c - 1.0).otherwise(float("inf"))
    stats = stats.with_columns(mean.alias("mean"), se.alias("se"), df.alias("__df"))
    stats = t_quantiles(stats, "__df", level, "__q")
    wilson_low, wilson_high = wilson_interval(pl.col("__sum"), pl.col("n_items"), level)
    half = pl.col("__q") * pl.col("se")
    is_wilson = chosen == "wilson"
    return stats.with_columns(
        pl.when(is_wilson).then(wilson_low).otherwise(pl.col("mean") - half).alias("ci_low"),
        pl.when(is_wilson).then(wilson_high).otherwise(pl.col("mean") + half).alias("ci_high"),
    )


def _bootstrap(
    design: Design,
    stats: pl.LazyFrame,
    clusters: pl.LazyFrame,
    level: float,
    n_resamples: int,
    seed: int,
) -> pl.LazyFrame:
    reps = replicate_means(design, clusters, n_resamples, seed)
    tail = (1.0 - level) / 2.0
    rep = pl.col("__rep").drop_nulls()
    summary = reps.group_by([*design.keys, MODEL]).agg(
        rep.std(ddof=1).alias("__bse"),
        rep.quantile(tail, "linear").alias("__blow"),
        rep.quantile(1.0 - tail, "linear").alias("__bhigh"),
    )
    joined = stats.join(summary, on=[*design.keys, MODEL], how="left", nulls_equal=True)
    return joined.with_columns(
        pl.col("__bse").alias("se"),
        pl.col("__blow").alias("ci_low"),
        pl.col("__bhigh").alias("ci_high"),
    )
