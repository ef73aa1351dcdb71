"""Models ranked per benchmark with rank intervals and tie groups: :func:`leaderboard`."""

from __future__ import annotations

import polars as pl

from frameeval._typing import Frame, IntoFrame, Keys, frame_function
from frameeval.items._sums import (
    MODEL,
    cluster_table,
    complete_items,
    finish_items,
    item_table,
    model_table,
    open_design,
    replicate_means,
)

__all__ = ["leaderboard"]

#: the output columns after ``*by, <model>`` (:func:`frameeval.charts.leaderboard` reads them)
COLUMNS = (
    "n_items",
    "n_clusters",
    "mean",
    "ci_low",
    "ci_high",
    "position",
    "rank",
    "rank_low",
    "rank_high",
    "tie_group",
)


@frame_function
def leaderboard(
    data: IntoFrame,
    score: str,
    *,
    model: str = "model",
    item: str = "item",
    by: Keys = None,
    cluster: str | None = None,
    sample: str | None = None,
    level: float = 0.95,
    higher_is_better: bool = True,
    n_resamples: int = 1000,
    seed: int = 0,
) -> Frame:
    """Every model of a group ranked by its mean score, with a rank interval and tie groups
    from the paired cluster bootstrap over the items.

    Each bootstrap replicate draws the clusters (the items without ``cluster=``) once for all
    models of the group, so the models are compared on the same resampled items: the
    correlation of their scores narrows the rank intervals as it narrows a paired test.

    Parameters
    ----------
    data
        One row per ``*by, model, item`` (× ``sample``); every model scored on every item of
        its group.
    score, model, item, by, cluster, sample
        As :func:`frameeval.items.compare`.
    level
        Confidence level of the mean and rank intervals.
    higher_is_better
        Whether a larger score is better (rank 1 = largest mean).
    n_resamples, seed
        Bootstrap replicates and seed.

    Returns
    -------
    Same kind as ``data``: ``*by, <model>, n_items, n_clusters, mean, ci_low, ci_high``
    (the bootstrap percentile interval of the mean), ``position`` (1 = best mean; tied means
    share the smaller position), ``rank`` = 1 + #{j : ci_low_j > ci_high_i} (the number of
    models separably better, plus one — Chatbot Arena's rank; reversed when lower is better),
    ``rank_low``, ``rank_high`` (the percentile interval of the model's rank over the
    replicates), ``tie_group`` (1 = the top group: models with the same ``rank`` form a group,
    numbered in order), sorted by the keys and ``position``.

    Notes
    -----
    The replicates are Poisson(1)-weighted clusters (Hanley & MacGibbon 2006), shared by the
    models of a group; a model's replicate mean is Σ_c w_c·S_c / Σ_c w_c·n_c.

    References
    ----------
    Chiang et al. (2024), "Chatbot Arena", ICML (the rank rule); Miller (2024), arXiv:2411.00640.

    Examples
    --------
    >>> df = pl.DataFrame({"model": ["a"] * 6 + ["b"] * 6, "item": list(range(6)) * 2,
    ...                    "score": [1, 1, 1, 1, 0, 1, 0, 1, 0, 0, 1, 0]})
    >>> fe.items.leaderboard(df, "score", n_resamples=200).select("model", "mean", "position").rows()
    [('a', 0.8333333333333334, 1), ('b', 0.3333333333333333, 2)]
    """
    design, checked = open_design("leaderboard", locals(), [model, *COLUMNS])
    level = checked["level"]
    keys = design.keys
    items, checks = item_table(design)
    clusters = cluster_table(design, items)
    models = complete_items(design, items, model_table(design, items, checks))
    n_clusters = clusters.group_by([*keys, MODEL]).agg(pl.len().cast(pl.Int64).alias("n_clusters"))
    sign = 1.0 if higher_is_better else -1.0
    reps = replicate_means(design, clusters, checked["n_resamples"], checked["seed"]).with_columns(
        (sign * pl.col("__rep")).rank("min", descending=True).over([*keys, "__b"]).alias("__r")
    )
    tail = (1.0 - level) / 2.0
    summary = reps.group_by([*keys, MODEL]).agg(
        pl.col("__rep").quantile(tail, "linear").alias("ci_low"),
        pl.col("__rep").quantile(1.0 - tail, "linear").alias("ci_high"),
        pl.col("__r").cast(pl.Float64).quantile(tail, "lower").alias("rank_low"),
        pl.col("__r").cast(pl.Float64).quantile(1.0 - tail, "higher").alias("rank_high"),
    )
    table = (
        models.select(*keys, MODEL, "n_items", pl.col("__mean").alias("mean"))
        .join(n_clusters, on=[*keys, MODEL], how="left", nulls_equal=True)
        .join(summary, on=[*keys, MODEL], how="left", nulls_equal=True)
    )
    over = keys or None
    position = (sign * pl.col("mean")).rank("min", descending=True)
    table = table.with_columns(
        (position.over(over) if over else position).cast(pl.Int64).alias("position")
    )
    table = _ranks(table, keys, higher_is_better)
    out = table.select(*keys, pl.col(MODEL).alias(model), *COLUMNS).with_columns(
        pl.col("rank_low", "rank_high").cast(pl.Int64)
    )
    return finish_items(out.sort([*keys, "position", model], nulls_last=True), design.eager)


def _ranks(table: pl.LazyFrame, keys: list[str], higher_is_better: bool) -> pl.LazyFrame:
    """``rank`` = 1 + #{j : j separably better than i} and ``tie_group``."""
    other = table.select(
        *keys, pl.col("ci_low").alias("__low_j"), pl.col("ci_high").alias("__high_j")
    )
    joined = (
        table.join(other, on=keys, how="inner", nulls_equal=True)
        if keys
        else table.join(other, how="cross")
    )
    if higher_is_better:
        better = pl.col("__low_j") > pl.col("ci_high")
    else:
        better = pl.col("__high_j") < pl.col("ci_low")
    counted = joined.group_by([*keys, MODEL]).agg((better.sum().cast(pl.Int64) + 1).alias("rank"))
    table = table.join(counted, on=[*keys, MODEL], how="left", nulls_equal=True)
    group = pl.col("rank").rank("dense")
    return table.with_columns(
        (group.over(keys) if keys else group).cast(pl.Int64).alias("tie_group")
    )
