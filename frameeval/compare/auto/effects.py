"""Average ranks, effect sizes and cliques of the automatic comparison."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from frameeval.compare.auto.context import MEAN_BASED, VALUE, Context, semi, sort
from frameeval.compare.effect_size import CLIFF_THRESHOLDS, COHEN_THRESHOLDS, magnitude
from frameeval.compare.precision import rounded

__all__ = ["clique_table", "effect_sizes", "rank_table"]


# ---------------------------------------------------------------------------------------------
# ranks, effect sizes, cliques
# ---------------------------------------------------------------------------------------------
def rank_table(cells: pl.DataFrame, design: pl.DataFrame, ctx: Context) -> pl.DataFrame:
    """Per learner: average rank over the blocks where it has a value (rank among the learners
    present on the block), mean, std, median, MAD, the Nemenyi CD, and the position."""
    from scipy import stats

    keys, block, learner = ctx.keys, ctx.block, ctx.learner
    x = pl.col(VALUE)
    present = cells.filter(x.is_not_null())
    ranked = present.with_columns(
        rounded(x, ctx.digits)
        .rank("average", descending=ctx.hib)
        .over([*keys, block])
        .cast(pl.Float64)
        .alias("__r")
    )
    med = x.median()
    per = ranked.group_by(*keys, learner).agg(
        pl.col("__r").mean().alias("average_rank"),
        x.mean().alias("mean"),
        x.std(ddof=1).alias("std"),
        med.alias("median"),
        (x - med).abs().median().alias("mad"),
        pl.len().cast(pl.Int64).alias("n_blocks"),
    )
    per = (
        per.join(
            design.select(
                *keys,
                "procedure",
                pl.col("n_learners").alias("__k"),
                pl.col("n_blocks").alias("__n"),
            ),
            on=keys,
            nulls_equal=True,
        )
        if keys
        else per.with_columns(
            pl.lit(design.item(0, "procedure")).alias("procedure"),
            pl.lit(design.item(0, "n_learners")).alias("__k"),
            pl.lit(design.item(0, "n_blocks")).alias("__n"),
        )
    )
    kk = per.get_column("__k").to_numpy().astype(float)
    nn = per.get_column("__n").to_numpy().astype(float)
    ok = (kk >= 2) & (nn >= 2)
    q = np.full(per.height, np.nan)
    if ok.any():
        from frameeval.compare.scipy_step import per_unique

        q[ok] = per_unique(
            lambda k_: stats.studentized_range.ppf(1 - ctx.alpha, k_, np.inf) / np.sqrt(2.0), kk[ok]
        )
    cd = q * np.sqrt(kk * (kk + 1) / (6 * np.maximum(nn, 1)))
    per = per.with_columns(pl.Series("cd", cd).fill_nan(None))
    center = pl.col("mean") if ctx.hib else -pl.col("mean")
    mean_based = pl.col("procedure").is_in(list(MEAN_BASED))
    order = pl.when(mean_based).then(-center).otherwise(pl.col("average_rank"))
    per = per.with_columns(order.alias("__order")).sort([*keys, "__order", "average_rank", learner])
    pos = pl.int_range(1, pl.len() + 1)
    per = per.with_columns((pos.over(keys) if keys else pos).cast(pl.Int64).alias("position"))
    return per.select(
        *keys,
        pl.col(learner).alias("learner"),
        "position",
        "average_rank",
        "mean",
        "std",
        "median",
        "mad",
        "n_blocks",
        "cd",
    )


def _magnitude(value: pl.Expr, method: pl.Expr) -> pl.Expr:
    """autorank's words: |d|, |γ| < 0.2 negligible, < 0.5 small, < 0.8 medium, else large
    (Cohen 1988); Cliff's |δ| < 0.147, 0.33, 0.474 (Romano et al. 2006)."""
    cliff = method == "cliff_delta"
    t1, t2, t3 = (
        pl.when(cliff).then(c).otherwise(d)
        for c, d in zip(CLIFF_THRESHOLDS, COHEN_THRESHOLDS, strict=True)
    )
    return magnitude(value, (t1, t2, t3))


def effect_sizes(
    cells: pl.DataFrame,
    ranks: pl.DataFrame,
    design: pl.DataFrame,
    checks: pl.DataFrame,
    ctx: Context,
) -> pl.DataFrame:
    """Each learner against the best (position 1): Cohen's d = (m_best − m) / s_pooled when the
    group's learners look normal (or the procedure is the t test / ANOVA), else Akinshin's
    γ = (median_best − median) / MAD_pooled (MAD scaled by 1.4826); pooled over the two
    learners' n − 1 weighted variances (autorank's formulas). Oriented: positive = the best is
    better (for a lower-is-better metric the sign is flipped)."""
    keys = ctx.keys
    shapiro = checks.filter(pl.col("check") == "shapiro_wilk")
    normal = (
        shapiro.group_by(keys).agg(pl.col("passed").all().alias("__normal"))
        if keys
        else shapiro.select(pl.when(pl.len() > 0).then(pl.col("passed").all()).alias("__normal"))
    )
    r = ranks.select(*keys, "learner", "position", "mean", "std", "median", "mad", "n_blocks")
    best = r.filter(pl.col("position") == 1).select(
        *keys,
        pl.col("learner").alias("reference"),
        pl.col("mean").alias("__mb"),
        pl.col("std").alias("__sb"),
        pl.col("median").alias("__db"),
        pl.col("mad").alias("__madb"),
        pl.col("n_blocks").alias("__nb"),
    )
    out = r.join(best, on=keys, nulls_equal=True) if keys else r.join(best, how="cross")
    proc = design.select(*keys, "procedure")
    out = (
        out.join(proc, on=keys, nulls_equal=True)
        if keys
        else out.with_columns(pl.lit(design.item(0, "procedure")).alias("procedure"))
    )
    if keys:
        out = out.join(normal, on=keys, how="left", nulls_equal=True)
    else:
        flag = normal.item(0, "__normal") if normal.height else None
        out = out.with_columns(pl.lit(flag, dtype=pl.Boolean).alias("__normal"))
    parametric = pl.col("procedure").is_in(list(MEAN_BASED)) | (
        pl.col("procedure").is_in(["bayes_signed_rank", "skillings_mack"]).not_()
        & pl.col("__normal").fill_null(False)
    )
    n1, n2 = pl.col("__nb").cast(pl.Float64), pl.col("n_blocks").cast(pl.Float64)
    pooled_sd = (
        ((n1 - 1) * pl.col("__sb") ** 2 + (n2 - 1) * pl.col("std") ** 2) / (n1 + n2 - 2)
    ).sqrt()
    scale = 1.4826
    pooled_mad = (
        ((n1 - 1) * (scale * pl.col("__madb")) ** 2 + (n2 - 1) * (scale * pl.col("mad")) ** 2)
        / (n1 + n2 - 2)
    ).sqrt()
    sign = 1.0 if ctx.hib else -1.0
    d = pl.when(pooled_sd > 0).then(sign * (pl.col("__mb") - pl.col("mean")) / pooled_sd)
    g = pl.when(pooled_mad > 0).then(sign * (pl.col("__db") - pl.col("median")) / pooled_mad)
    same = pl.col("learner") == pl.col("reference")
    out = out.with_columns(
        pl.when(parametric)
        .then(pl.lit("cohen_d"))
        .otherwise(pl.lit("akinshin_gamma"))
        .alias("method"),
        pl.when(same).then(0.0).when(parametric).then(d).otherwise(g).alias("effect_size"),
    ).with_columns(_magnitude(pl.col("effect_size"), pl.col("method")).alias("magnitude"))
    out = out.filter(~pl.col("procedure").eq("none"))
    return sort(
        out.select(*keys, "learner", "reference", "effect_size", "method", "magnitude", "position"),
        keys,
        "position",
    ).drop("position")


def clique_table(ranks: pl.DataFrame, post_hoc: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """Maximal runs of learners in ``position`` order with no significantly different pair
    inside (from the post-hoc's ``reject``), as ``*keys, clique, learner``: the cliques of
    :func:`frameeval.compare.cliques` (runs of ≥ 2 learners, ordered by ``position``) plus
    each learner in none of them as a clique of its own, numbered 1, 2, … by first position."""
    from frameeval.compare.cliques import cliques

    schema: dict[str, Any] = {
        **{k: ranks.schema[k] for k in keys},
        "clique": pl.Int64,
        "learner": pl.String,
    }
    pos = ranks.select(*keys, "learner", "position")
    tested = post_hoc.filter(pl.col("reject").is_not_null()).select(keys).unique()
    pos = semi(pos, tested, keys) if keys else (pos if post_hoc.height else pos.clear())
    if pos.height == 0:
        return pl.DataFrame(schema=schema)
    pairs = semi(post_hoc, tested, keys).select(*keys, "a", "b", "reject")
    order = pos.select(*keys, "learner", pl.col("position").cast(pl.Float64).alias("average_rank"))
    runs = cliques(pairs, order, learner="learner", by=keys or None)
    start = runs.group_by(*keys, "clique").agg(pl.col("average_rank").min().alias("__start"))
    members = runs.join(start, on=[*keys, "clique"], nulls_equal=True).select(
        *keys, "learner", "__start", pl.col("average_rank").alias("__pos"), "clique"
    )
    alone = pos.join(
        runs.select(*keys, "learner"), on=[*keys, "learner"], how="anti", nulls_equal=True
    )
    alone = alone.select(
        *keys,
        "learner",
        pl.col("position").cast(pl.Float64).alias("__start"),
        pl.col("position").cast(pl.Float64).alias("__pos"),
        pl.lit(None, dtype=pl.Int64).alias("clique"),
    )
    both = sort(pl.concat([members, alone]), keys, "__start", "__pos")
    new = (pl.col("__start") != pl.col("__start").shift(1)).fill_null(True)
    number = new.cast(pl.Int64).cum_sum()
    number = number.over(keys) if keys else number
    return both.with_columns(number.cast(pl.Int64).alias("clique")).select(
        *keys, "clique", "learner"
    )
