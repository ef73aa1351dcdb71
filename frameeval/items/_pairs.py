"""The paired statistics of every model pair of a group, from one self-join of the item table
on ``*by, item`` (and one of the cluster table on ``*by, cluster`` with ``cluster=``)."""

from __future__ import annotations

import polars as pl

from frameeval.items._sums import (
    MODEL,
    Design,
    cluster_table,
    complete_items,
    item_table,
    model_table,
)

__all__ = ["pair_table"]

_SIDE = ["n_items", "__mean", "__var", "__sum", "__odd", "__kmax", "__kmean", "__within",
         "__inv_k"]


def _sides(frame: pl.LazyFrame, on: list[str], columns: list[str]) -> pl.LazyFrame:
    """``frame`` joined with itself on ``on``: every pair a < b, columns suffixed _a / _b."""
    left = frame.select(*on, pl.col(MODEL).alias("a"), *(pl.col(c).alias(c + "_a") for c in columns))
    right = frame.select(*on, pl.col(MODEL).alias("b"), *(pl.col(c).alias(c + "_b") for c in columns))
    joined = left.join(right, on=on, how="inner", nulls_equal=True)
    return joined.filter(pl.col("a") < pl.col("b"))


def pair_table(design: Design) -> pl.LazyFrame:
    """``*by, a, b, n_items, n_clusters, mean_a, mean_b, var_a, var_b, cov, odd, kmax, …``: one
    row per model pair a < b of each group, every data check (complete items included)
    enforced in the plan.

    ``cov`` = Σ_i (x_ai − x̄_a)(x_bi − x̄_b)/(n − 1), from the centred item values; ``__g`` =
    Σ_i x_ai·x_bi (the both-correct count of a 0/1 score); with ``cluster=``, ``__ssd`` =
    Σ_c (Σ_{i∈c} (d_i − d̄))² over the clusters, d_i = x_ai − x_bi."""
    keys = design.keys
    items, checks = item_table(design)
    models = complete_items(design, items, model_table(design, items, checks))
    pairs = _sides(items, [*keys, design.item], ["__x", "__xc"]).group_by([*keys, "a", "b"]).agg(
        (pl.col("__xc_a") * pl.col("__xc_b")).sum().alias("__sab"),
        (pl.col("__x_a") * pl.col("__x_b")).sum().alias("__g"),
    )
    out = pairs
    for side in ("a", "b"):
        stats = models.select(
            *keys, pl.col(MODEL).alias(side), *(pl.col(c).alias(f"{c}_{side}") for c in _SIDE)
        )
        out = out.join(stats, on=[*keys, side], how="inner", nulls_equal=True)
    n = pl.col("n_items_a").cast(pl.Float64)
    out = out.with_columns(
        pl.col("n_items_a").alias("n_items"),
        pl.when(n > 1).then(pl.col("__sab") / (n - 1.0)).alias("__cov"),
    )
    if design.cluster is None:
        return out.with_columns(pl.col("n_items").alias("n_clusters"))
    clusters = _sides(cluster_table(design, items), [*keys, design.cluster], ["__e"])
    per_pair = clusters.group_by([*keys, "a", "b"]).agg(
        pl.len().cast(pl.Int64).alias("n_clusters"),
        (pl.col("__e_a") - pl.col("__e_b")).pow(2).sum().alias("__ssd"),
    )
    return out.join(per_pair, on=[*keys, "a", "b"], how="left", nulls_equal=True)
