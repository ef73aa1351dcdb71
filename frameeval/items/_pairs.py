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

_SIDE = ["n_items", "__mean", "__var", "__sum", "__odd", "__kmax", "__kmean", "__within", "__inv_k"]


def _sides(frame: pl.LazyFrame, on: list[str], columns: list[str]) -> pl.LazyFrame:
    """``frame`` joined with itself on ``on``: one row per unordered pair of models, named
    ``a`` < ``b``, the other columns suffixed ``_a`` / ``_b`` (in the order the join met them:
    only symmetric sums of them may be taken before :func:`_ordered`).

    The join matches 64-bit hashes of the model names rather than the names (a third faster
    on 2M rows); the names are restored from the hashes after the aggregation. Two model
    names with one hash (probability ~k²/2⁶⁴) would lose their pair."""
    hashed = frame.with_columns(pl.col(MODEL).hash().alias("__h"))
    left = hashed.select(
        *on, pl.col("__h").alias("__ha"), *(pl.col(c).alias(c + "_a") for c in columns)
    )
    right = hashed.select(
        *on, pl.col("__h").alias("__hb"), *(pl.col(c).alias(c + "_b") for c in columns)
    )
    joined = left.join(right, on=on, how="inner", nulls_equal=True)
    return joined.filter(pl.col("__ha") < pl.col("__hb"))


def _ordered(pairs: pl.LazyFrame, columns: list[str]) -> pl.LazyFrame:
    """``pairs`` with the sides swapped where needed so that the model names ``a`` < ``b``."""
    swap = pl.col("a") > pl.col("b")
    exprs = []
    for column in ["a", *columns]:
        left, right = (column, "b") if column == "a" else (f"{column}_a", f"{column}_b")
        exprs.append(pl.when(swap).then(pl.col(right)).otherwise(pl.col(left)).alias(left))
        exprs.append(pl.when(swap).then(pl.col(left)).otherwise(pl.col(right)).alias(right))
    return pairs.with_columns(exprs)


def pair_table(design: Design) -> pl.LazyFrame:
    """``*by, a, b, n_items, n_clusters, __mean_a, __mean_b, __var_a, __var_b, __cov, …``: one
    row per model pair a < b of each group, every data check (complete items included)
    enforced in the plan.

    ``__cov`` = Σ_i (x_ai − x̄_a)(x_bi − x̄_b)/(n − 1), from the centred item values; ``__g`` =
    Σ_i x_ai·x_bi (the both-correct count of a 0/1 score); with ``cluster=``, ``__ssd`` =
    Σ_c (Σ_{i∈c} (d_i − d̄))² over the clusters, d_i = x_ai − x_bi."""
    keys = design.keys
    items, checks = item_table(design)
    models = complete_items(design, items, model_table(design, items, checks))
    models = models.with_columns(pl.col(MODEL).hash().alias("__h"))
    pairs = _sides(items, [*keys, design.item], ["__x", "__xc"])
    out = pairs.group_by([*keys, "__ha", "__hb"]).agg(
        (pl.col("__xc_a") * pl.col("__xc_b")).sum().alias("__sab"),
        (pl.col("__x_a") * pl.col("__x_b")).sum().alias("__g"),
    )
    if design.cluster is not None:
        clusters = _sides(cluster_table(design, items), [*keys, design.cluster], ["__e"])
        per_pair = clusters.group_by([*keys, "__ha", "__hb"]).agg(
            pl.len().cast(pl.Int64).alias("n_clusters"),
            (pl.col("__e_a") - pl.col("__e_b")).pow(2).sum().alias("__ssd"),
        )
        out = out.join(per_pair, on=[*keys, "__ha", "__hb"], how="left", nulls_equal=True)
    for side in ("a", "b"):
        stats = models.select(
            *keys,
            pl.col("__h").alias(f"__h{side}"),
            pl.col(MODEL).alias(side),
            *(pl.col(c).alias(f"{c}_{side}") for c in _SIDE),
        )
        out = out.join(stats, on=[*keys, f"__h{side}"], how="inner", nulls_equal=True)
    out = _ordered(out.drop("__ha", "__hb"), _SIDE)
    n = pl.col("n_items_a").cast(pl.Float64)
    out = out.with_columns(
        pl.col("n_items_a").alias("n_items"),
        pl.when(n > 1).then(pl.col("__sab") / (n - 1.0)).alias("__cov"),
    )
    if design.cluster is None:
        out = out.with_columns(pl.col("n_items").alias("n_clusters"))
    return out
