"""Every pair of models on the items they share, per benchmark: :func:`compare`."""

from __future__ import annotations

import numpy as np
import polars as pl

from frameeval._extensions import provider
from frameeval._frame import is_dask
from frameeval._typing import Frame, IntoFrame, Keys, frame_function
from frameeval.compare.plan import signed_ratio
from frameeval.compare.scipy_step import decide, scipy_step
from frameeval.items._pairs import pair_table
from frameeval.items._sums import Design, OneOf, finish_items, open_design
from frameeval.items.adjust import ADJUSTS, Adjust, adjusted

__all__ = ["adjust_pairs", "compare"]

_OUT = [
    "a",
    "b",
    "n_items",
    "n_clusters",
    "mean_a",
    "mean_b",
    "difference",
    "se",
    "se_unpaired",
    "correlation",
    "test",
    "statistic",
    "df",
    "p_value",
    "p_adjusted",
    "alpha",
    "reject",
    "ci_low",
    "ci_high",
]


def _tests(
    statistic: np.ndarray,
    df: np.ndarray,
    n10: np.ndarray,
    n01: np.ndarray,
    mcnemar: np.ndarray,
    alpha: float,
) -> dict[str, np.ndarray]:
    """Two-sided p-values (Student's t, or McNemar's exact binomial test on the discordant
    items) and the t quantile of the interval."""
    from scipy import stats

    t_p = 2.0 * stats.t.sf(np.abs(statistic), df)
    discordant = n10 + n01
    exact = np.minimum(1.0, 2.0 * stats.binom.cdf(np.minimum(n10, n01), discordant, 0.5))
    p = np.where(mcnemar == 1.0, exact, t_p)
    return {"p_value": p, "__q": stats.t.ppf(1.0 - alpha / 2.0, df)}


def paired_statistics(design: Design, pairs: pl.LazyFrame, alpha: float) -> pl.LazyFrame:
    """The difference, its paired (clustered) SE, the test each row uses and its p-value."""
    n = pl.col("n_items").cast(pl.Float64)
    c = pl.col("n_clusters").cast(pl.Float64)
    var_a, var_b, cov = pl.col("__var_a"), pl.col("__var_b"), pl.col("__cov")
    difference = pl.col("__mean_a") - pl.col("__mean_b")
    if design.cluster is None:
        se = ((var_a + var_b - 2.0 * cov).clip(lower_bound=0.0) / n).sqrt()
        df = n - 1.0
        binary = (pl.col("__odd_a") + pl.col("__odd_b") == 0) & (
            pl.max_horizontal("__kmax_a", "__kmax_b") == 1
        )
        test = pl.when(binary).then(pl.lit("mcnemar")).otherwise(pl.lit("paired t"))
    else:
        se = pl.when(c > 1).then((c / (c - 1.0) * pl.col("__ssd")).sqrt() / n)
        df = c - 1.0
        test = pl.lit("clustered t")
    correlation = pl.when((var_a > 0) & (var_b > 0)).then(cov / (var_a * var_b).sqrt())
    pairs = pairs.with_columns(
        pl.col("__mean_a").alias("mean_a"),
        pl.col("__mean_b").alias("mean_b"),
        difference.alias("difference"),
        se.alias("se"),
        ((var_a + var_b) / n).sqrt().alias("se_unpaired"),
        correlation.alias("correlation"),
        test.alias("test"),
        pl.when(df > 0).then(df).alias("df"),
        (pl.col("__sum_a") - pl.col("__g")).round(0).alias("__n10"),
        (pl.col("__sum_b") - pl.col("__g")).round(0).alias("__n01"),
    )
    is_mcnemar = (pl.col("test") == "mcnemar").cast(pl.Float64)
    t_statistic = signed_ratio(pl.col("difference"), pl.col("se"))
    statistic = (
        pl.when(pl.col("test") == "mcnemar")
        .then(pl.min_horizontal("__n10", "__n01"))
        .otherwise(t_statistic)
    )
    pairs = pairs.with_columns(
        statistic.alias("statistic"),
        is_mcnemar.alias("__mcnemar"),
        pl.when(pl.col("df").is_not_null()).then(t_statistic).alias("__tstat"),
    )
    pairs = scipy_step(
        pairs,
        lambda t, d, n10, n01, m: _tests(t, d, n10, n01, m, alpha),
        ["__tstat", "df", "__n10", "__n01", "__mcnemar"],
        ["p_value", "__q"],
    )
    half = pl.col("__q") * pl.col("se")
    return pairs.with_columns(
        (pl.col("difference") - half).alias("ci_low"),
        (pl.col("difference") + half).alias("ci_high"),
        pl.when(pl.col("test") == "mcnemar").then(None).otherwise(pl.col("df")).alias("df"),
    )


@frame_function
def compare(
    data: IntoFrame,
    score: str,
    *,
    model: str = "model",
    item: str = "item",
    by: Keys = None,
    cluster: str | None = None,
    sample: str | None = None,
    alpha: float = 0.05,
    adjust: Adjust | None = "holm",
) -> Frame:
    """Every pair of models on the items they share, per group: the paired difference of their
    means, its (clustered) standard error, a test and an adjusted p-value.

    Two models scored on the same items are compared item by item: d_i = x_ai − x_bi. The
    per-item correlation of two models' scores (0.3–0.7 between frontier language models,
    Miller 2024) removes 2·Cov(a, b) from the variance of the difference — what an unpaired
    comparison of two means with their own standard errors throws away.

    Parameters
    ----------
    data
        One row per ``*by, model, item`` (``*by, model, item, sample`` with ``sample=``).
        Every model of a group must have a score on every item of the group.
    score
        Numeric score column (a 0/1 correct flag or any number); complete and finite.
    model, item
        The model and item columns.
    by
        Key column(s), e.g. ``"benchmark"``: the pairs are formed within each group.
    cluster
        Column naming each item's cluster: the SE is then clustered (t on C − 1 df).
    sample
        Column numbering the K answers of a model to an item: an item's score is their mean.
    alpha
        Significance level; the intervals have confidence 1 − α.
    adjust
        ``"holm"`` (default), ``"shaffer"`` (Shaffer's static procedure, the logical
        relations of the pairwise hypotheses within each group), ``"bh"`` (Benjamini–Hochberg,
        the false discovery rate) or None: over all pairs × groups as one family.

    Returns
    -------
    Same kind as ``data`` (a Dask DataFrame gives a ``pl.DataFrame``: the same call runs on
    the cluster, :mod:`frameeval.dask.items`): ``*by, a, b`` (a < b), ``n_items``, ``n_clusters`` (the items
    without ``cluster=``), ``mean_a``, ``mean_b``, ``difference`` (mean a − mean b), ``se``
    (paired; clustered with ``cluster=``), ``se_unpaired`` (√((s_a² + s_b²)/n), for
    comparison), ``correlation`` (of the item scores; null for a constant model), ``test``
    (``"mcnemar"``, ``"paired t"`` or ``"clustered t"``), ``statistic`` (McNemar: the smaller
    discordant count; t: difference/se), ``df`` (null for McNemar), ``p_value``,
    ``p_adjusted``, ``alpha``, ``reject`` (p_adjusted < α), ``ci_low``, ``ci_high`` (the
    difference ± t_{1−α/2, df}·se; n − 1 df for McNemar rows too), sorted by the keys.

    Notes
    -----
    * paired t: se = √((s_a² + s_b² − 2 s_ab)/n), t = d̄/se on n − 1 df;
    * clustered t (``cluster=``): se = (1/n)·√(C/(C − 1)·Σ_c(Σ_{i∈c}(d_i − d̄))²), t on C − 1
      df;
    * McNemar's exact test when the score is 0/1, each model answers each item once and no
      cluster is given: p = min(1, 2·F(min(n₀₁, n₁₀); n₀₁ + n₁₀, ½)) with F the binomial CDF
      of the discordant items (Dietterich 1998; statsmodels' ``mcnemar(exact=True)``).

    Undefined values are null: se with one item, t when se = 0 and the difference is 0.

    References
    ----------
    Miller (2024), "Adding Error Bars to Evals", arXiv:2411.00640, §4. McNemar (1947),
    Psychometrika 12. Holm (1979); Shaffer (1986), JASA 81; Benjamini & Hochberg (1995),
    JRSS B 57.

    Examples
    --------
    >>> df = pl.DataFrame({"model": ["a"] * 4 + ["b"] * 4, "item": [1, 2, 3, 4] * 2,
    ...                    "score": [0.9, 0.7, 0.8, 0.6, 0.8, 0.5, 0.8, 0.4]})
    >>> out = fe.items.compare(df, "score")
    >>> out.select("a", "b", pl.col("difference", "se").round(4), "test").rows()
    [('a', 'b', 0.125, 0.0479, 'paired t')]
    """
    if is_dask(data):  # the same call on a Dask cluster: frameeval.dask.items
        return provider("dask_items_compare")(**locals())
    design, checked = open_design("compare", locals(), _OUT, adjust=OneOf(ADJUSTS))
    alpha = checked["alpha"]
    pairs = paired_statistics(design, pair_table(design), alpha)
    return finish_items(adjust_pairs(pairs, design.keys, adjust, alpha), design.eager)


def adjust_pairs(
    pairs: pl.LazyFrame, keys: list[str], adjust: str | None, alpha: float
) -> pl.LazyFrame:
    """The last step of :func:`compare`: ``p_adjusted`` over every row of ``pairs`` (one
    family: all pairs × groups), ``alpha`` and ``reject``; the output columns sorted by
    ``*keys, a, b``. ``pairs`` holds every pair of each group (a group of k models has
    k(k − 1)/2 rows, which gives Shaffer's k). The Dask form runs it on the concatenated
    per-partition results, so the family is the same as on one machine."""
    models = (1.0 + (1.0 + 8.0 * pl.len().cast(pl.Float64)).sqrt()) / 2.0
    pairs = pairs.with_columns((models.over(keys) if keys else models).alias("__models"))
    out = adjusted(pairs, keys, adjust).with_columns(
        pl.lit(alpha).alias("alpha"), decide(pl.col("p_adjusted"), alpha)
    )
    return out.select(*keys, *_OUT).sort([*keys, "a", "b"], nulls_last=True)
