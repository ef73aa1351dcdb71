"""The procedures, one function each, dispatched by the table :data:`PROCEDURES`; each takes
the collected block × learner table and returns the omnibus and post-hoc frames.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import polars as pl

from frameeval.compare.auto.context import (
    N_SAMPLES,
    VALUE,
    Context,
    posterior_decision,
    semi,
    sort,
)
from frameeval.compare.plan import block_pairs
from frameeval.compare.scipy_step import decide

__all__ = ["PROCEDURES", "ProcedureFn", "stack"]


# ---------------------------------------------------------------------------------------------
# the procedures (one function each; the table at the end dispatches them)
# ---------------------------------------------------------------------------------------------
ProcedureFn = Callable[[pl.DataFrame, Context], tuple[pl.DataFrame, pl.DataFrame]]


def _run_friedman(cells: pl.DataFrame, ctx: Context) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Friedman (Iman–Davenport's F decides) + Nemenyi: :func:`frameeval.compare.friedman`,
    :func:`frameeval.compare.nemenyi`."""
    from frameeval.compare.post_hoc import nemenyi
    from frameeval.compare.ranks import friedman

    kw = _kw(ctx)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the χ² form's small-N warning
        fr = friedman(cells, VALUE, alpha=ctx.alpha, digits=ctx.digits, **kw)
    omnibus = fr.with_columns(
        pl.lit("friedman_iman_davenport").alias("test"),
        pl.col("df1").cast(pl.Float64),
        pl.col("df2").cast(pl.Float64),
    )
    ne = nemenyi(cells, VALUE, alpha=ctx.alpha, digits=ctx.digits, **kw)
    post_hoc = ne.with_columns(
        pl.lit("nemenyi").alias("test"), pl.col("rank_difference").alias("difference")
    )
    return omnibus, post_hoc


def _run_wilcoxon(cells: pl.DataFrame, ctx: Context) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Wilcoxon signed-rank test (:func:`frameeval.compare.wilcoxon`, two-sided, zsplit)."""
    from frameeval.compare.two_learners import wilcoxon

    wi = wilcoxon(cells, VALUE, alpha=ctx.alpha, digits=ctx.digits, **_kw(ctx))
    med = _pair_medians(cells, ctx)
    wi = wi.join(med, on=[*ctx.keys, "a", "b"], how="left", nulls_equal=True)
    omnibus = wi.with_columns(
        pl.lit("wilcoxon").alias("test"),
        pl.lit(2, dtype=pl.Int64).alias("n_learners"),
        pl.lit(None, dtype=pl.Float64).alias("df1"),
    )
    post_hoc = wi.with_columns(pl.lit("wilcoxon").alias("test"))
    return omnibus, post_hoc


def _pair_medians(cells: pl.DataFrame, ctx: Context) -> pl.DataFrame:
    keys, block, learner = ctx.keys, ctx.block, ctx.learner
    sides = {learner: ("a", "b"), VALUE: ("__va", "__vb")}
    pairs = block_pairs(cells, keys, block, sides).filter(pl.col("a") < pl.col("b"))
    return pairs.group_by(*keys, "a", "b").agg(
        (pl.col("__va") - pl.col("__vb")).median().alias("difference")
    )


def _run_t(cells: pl.DataFrame, ctx: Context) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Paired t test over the blocks (:func:`frameeval.compare.paired_t_test`, block=block)."""
    from frameeval.compare.two_learners import paired_t_test

    keys, learner = ctx.keys, ctx.learner
    names = (
        cells.group_by(keys or pl.lit(0)).agg(
            pl.col(learner).unique().sort().first().alias("__a"),
            pl.col(learner).unique().sort().last().alias("__b"),
        )
        if keys
        else cells.select(
            pl.col(learner).unique().sort().first().alias("__a"),
            pl.col(learner).unique().sort().last().alias("__b"),
        )
    )
    parts = []
    pairs = names.select("__a", "__b").unique().sort("__a", "__b").rows()  # loop-ok: few pairs
    for a, b in pairs:  # loop-ok: one paired_t_test call per distinct learner pair
        these = names.filter((pl.col("__a") == a) & (pl.col("__b") == b))
        part = semi(cells, these.select(keys), keys) if keys else cells
        out = paired_t_test(
            part,
            VALUE,
            a=a,
            b=b,
            learner=learner,
            block=ctx.block,
            by=keys or None,
            higher_is_better=ctx.hib,
            alpha=ctx.alpha,
        )
        parts.append(out)
    t = pl.concat(parts)
    omnibus = t.with_columns(
        pl.lit("paired_t").alias("test"),
        pl.lit(2, dtype=pl.Int64).alias("n_learners"),
        pl.col("n_pairs").alias("n_blocks"),
        pl.col("df").cast(pl.Float64).alias("df1"),
    )
    post_hoc = t.with_columns(pl.lit("paired_t").alias("test"), pl.col("mean").alias("difference"))
    return omnibus, post_hoc


def _run_anova(cells: pl.DataFrame, ctx: Context) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Repeated-measures ANOVA (one within factor, the learner) + Tukey HSD.

    With x_ij the value of learner j on block i, G the grand mean, m_j the learner means and
    b_i the block means: SS_learner = N Σ_j (m_j − G)², SS_block = k Σ_i (b_i − G)²,
    SS_error = Σ_ij (x_ij − G)² − SS_learner − SS_block, and
    F = (SS_learner / (k − 1)) / (SS_error / ((k − 1)(N − 1))) ~ F(k − 1, (k − 1)(N − 1))
    (statsmodels' ``AnovaRM``). Tukey HSD with the same, repeated-measures error term:
    MS_error = SS_error / ((k − 1)(N − 1)), q = |m_a − m_b| / √(MS_error / N) against the
    studentized range Q(k, (k − 1)(N − 1)), HSD = Q_{1−α} √(MS_error / N). (autorank, through
    statsmodels' ``MultiComparison.tukeyhsd``, uses the one-way error — the pooled
    within-learner variance on kN − k df — which keeps the between-block variation the ANOVA
    removed, and so can contradict its own omnibus test: docs/compare-learners.md.)
    """
    from scipy import stats

    keys, block, learner = ctx.keys, ctx.block, ctx.learner
    x = pl.col(VALUE)
    grand = x.mean().over(keys) if keys else x.mean()
    data = cells.with_columns(
        grand.alias("__g"),
        x.mean().over([*keys, learner]).alias("__m"),
        x.mean().over([*keys, block]).alias("__bm"),
    )
    aggs = [
        pl.col(learner).n_unique().cast(pl.Int64).alias("n_learners"),
        pl.col(block).n_unique().cast(pl.Int64).alias("n_blocks"),
        ((x - pl.col("__g")) ** 2).sum().alias("__sst"),
        ((pl.col("__m") - pl.col("__g")) ** 2).sum().alias("__ssl"),
        ((pl.col("__bm") - pl.col("__g")) ** 2).sum().alias("__ssb"),
    ]
    g = data.group_by(keys).agg(aggs) if keys else data.select(aggs)
    k = pl.col("n_learners").cast(pl.Float64)
    n = pl.col("n_blocks").cast(pl.Float64)
    sse = (pl.col("__sst") - pl.col("__ssl") - pl.col("__ssb")).clip(lower_bound=0.0)
    df1, df2 = k - 1, (k - 1) * (n - 1)
    msl = pl.col("__ssl") / df1
    mse = sse / df2
    f = (
        pl.when(mse > 1e-12 * (pl.col("__sst") + 1e-300) / df2)
        .then(msl / mse)
        .when(pl.col("__ssl") > 0)
        .then(float("inf"))
    )
    g = g.with_columns(
        f.alias("statistic"),
        df1.alias("df1"),
        df2.alias("df2"),
        mse.alias("__mse"),
    )
    stat = g.get_column("statistic").to_numpy().astype(float)
    d1, d2 = g.get_column("df1").to_numpy(), g.get_column("df2").to_numpy()
    with np.errstate(all="ignore"):
        p = stats.f.sf(stat, d1, d2)
        crit = stats.f.isf(ctx.alpha, d1, d2)
    # statistic vs critical value: the documented rule here (not a p-value; see scipy_step.decide)
    omnibus = g.with_columns(
        pl.lit("rm_anova").alias("test"),
        pl.Series("p_value", p).fill_nan(None),
        pl.Series("critical_value", crit).fill_nan(None),
        pl.lit(ctx.alpha).alias("alpha"),
    ).with_columns((pl.col("statistic") > pl.col("critical_value")).alias("reject"))

    means = cells.group_by(*keys, learner).agg(x.mean().alias("__mean"))
    left = means.rename({learner: "a", "__mean": "__ma"})
    right = means.rename({learner: "b", "__mean": "__mb"})
    pairs = (
        left.join(right, on=keys, nulls_equal=True) if keys else left.join(right, how="cross")
    ).filter(pl.col("a") < pl.col("b"))
    pairs = (
        pairs.join(
            g.select(*keys, "n_learners", "n_blocks", "__mse", "df2"),
            on=keys,
            nulls_equal=True,
        )
        if keys
        else pairs.join(g.select("n_learners", "n_blocks", "__mse", "df2"), how="cross")
    )
    se = (pl.col("__mse") / pl.col("n_blocks").cast(pl.Float64)).sqrt()
    pairs = pairs.with_columns(
        (pl.col("__ma") - pl.col("__mb")).alias("difference"),
        se.alias("__se"),
    ).with_columns(
        pl.when(pl.col("__se") > 0)
        .then(pl.col("difference").abs() / pl.col("__se"))
        .when(pl.col("difference") != 0)
        .then(float("inf"))
        .alias("statistic")
    )
    q = pairs.get_column("statistic").to_numpy().astype(float)
    kk = pairs.get_column("n_learners").to_numpy().astype(float)
    dfo = pairs.get_column("df2").to_numpy().astype(float)
    sev = pairs.get_column("__se").to_numpy().astype(float)
    with np.errstate(all="ignore"):
        pq = _per_unique_sr_sf(q, kk, dfo)
        qcrit = _per_unique_sr_ppf(1 - ctx.alpha, kk, dfo)
    post_hoc = pairs.with_columns(
        pl.lit("tukey_hsd").alias("test"),
        pl.Series("p_value", pq).fill_nan(None),
        pl.Series("critical_value", qcrit * sev).fill_nan(None),
        pl.lit(ctx.alpha).alias("alpha"),
    ).with_columns(
        decide(pl.col("p_value"), pl.col("alpha")),
        pl.col("statistic").fill_nan(None),
    )
    better = (pl.col("difference") > 0) if ctx.hib else (pl.col("difference") < 0)
    post_hoc = post_hoc.with_columns(
        pl.when(pl.col("reject"))
        .then(pl.when(better).then(pl.col("a")).otherwise(pl.col("b")))
        .alias("better")
    )
    return omnibus, post_hoc


def _per_unique_sr_sf(q: np.ndarray, k: np.ndarray, df: np.ndarray) -> np.ndarray:
    from scipy import stats

    from frameeval.compare.scipy_step import per_unique

    return per_unique(lambda q_, k_, d_: stats.studentized_range.sf(q_, k_, d_), q, k, df)


def _per_unique_sr_ppf(p: float, k: np.ndarray, df: np.ndarray) -> np.ndarray:
    from scipy import stats

    from frameeval.compare.scipy_step import per_unique

    return per_unique(lambda k_, d_: stats.studentized_range.ppf(p, k_, d_), k, df)


def _run_skillings_mack(cells: pl.DataFrame, ctx: Context) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Skillings–Mack for missing cells (:func:`frameeval.compare.skillings_mack`) + its
    pairwise z tests with Holm's step-down (:func:`frameeval.compare.rank_post_hoc`,
    ``test="skillings_mack"``). The post-hoc ``difference`` is the difference of the mean
    within-block ranks (a − b) over the blocks where each learner has a value, ``p_value`` the
    Holm-adjusted p-value (the one that decides, as Nemenyi's and Tukey's p-values are
    family-wise), ``critical_value`` null (Holm has no single one)."""
    from frameeval.compare.multiple import rank_post_hoc
    from frameeval.compare.omnibus import skillings_mack

    kw = {**_kw(ctx), "alpha": ctx.alpha, "digits": ctx.digits}
    present = cells.filter(pl.col(VALUE).is_not_null())
    sm = skillings_mack(present, VALUE, **kw)
    omnibus = sm.with_columns(
        pl.lit("skillings_mack").alias("test"), pl.col("df").cast(pl.Float64).alias("df1")
    )
    ph = rank_post_hoc(present, VALUE, test="skillings_mack", adjust="holm", **kw)
    first = pl.col("average_rank_a") < pl.col("average_rank_b")
    post_hoc = ph.with_columns(
        pl.lit("skillings_mack_holm").alias("test"),
        (pl.col("average_rank_a") - pl.col("average_rank_b")).alias("difference"),
        pl.col("p_adjusted").alias("p_value"),
        pl.lit(None, dtype=pl.Float64).alias("critical_value"),
        pl.when(pl.col("reject"))
        .then(pl.when(first).then(pl.col("a")).otherwise(pl.col("b")))
        .alias("better"),
    )
    return omnibus, post_hoc


def _run_bayes(cells: pl.DataFrame, ctx: Context) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Bayesian signed-rank test of every pair (:func:`frameeval.compare.bayes_signed_rank`,
    each pair once, a < b, on the blocks where both have a value; a pair with fewer than 2
    such blocks has no row). No omnibus test
    (empty frame). A pair is decided when a region's probability is ≥ 1 − α (autorank's rule);
    ``difference`` is the posterior mean difference a − b."""
    from frameeval.compare.bayes import bayes_signed_rank

    keys, block, learner = ctx.keys, ctx.block, ctx.learner
    present = cells.filter(pl.col(VALUE).is_not_null())
    # one sub-table per pair (a < b) holding the blocks where both have a value: the test
    # needs complete blocks, and each pair's posterior depends on its own values only
    pairs = (
        block_pairs(present, keys, block, {learner: ("__a", "__b")})
        .filter(pl.col("__a") < pl.col("__b"))
        .with_columns(pl.concat_str("__a", pl.lit("\x00"), "__b").alias("__pair"))
        .filter(pl.len().over([*keys, "__pair"]) >= 2)
    )
    both = pl.concat(
        [
            pairs.select(*keys, "__pair", block, pl.col(side).alias(learner))
            for side in ("__a", "__b")  # loop-ok: the two sides of every pair
        ]
    ).join(present, on=[*keys, block, learner], nulls_equal=True)
    if both.height == 0:
        return pl.DataFrame(), pl.DataFrame(schema={k: cells.schema[k] for k in keys})
    out = bayes_signed_rank(
        both,
        VALUE,
        rope=float(ctx.rope or 0.0),
        n_samples=N_SAMPLES,
        seed=ctx.seed,
        **{**_kw(ctx), "by": [*keys, "__pair"]},
    ).drop("__pair")
    return pl.DataFrame(), posterior_decision(out, "bayes_signed_rank", ctx.alpha)


def _kw(ctx: Context) -> dict[str, Any]:
    return {
        "block": ctx.block,
        "learner": ctx.learner,
        "by": ctx.keys or None,
        "higher_is_better": ctx.hib,
    }


#: procedure name → the function running it (the lead may swap or add entries)
PROCEDURES: dict[str, ProcedureFn] = {
    "t": _run_t,
    "wilcoxon": _run_wilcoxon,
    "anova": _run_anova,
    "friedman": _run_friedman,
    "skillings_mack": _run_skillings_mack,
    "bayes_signed_rank": _run_bayes,
}


def stack(
    parts: list[pl.DataFrame], keys: list[str], schema: dict[str, Any], order: list[str]
) -> pl.DataFrame:
    columns = list(schema)
    cast = {k: v for k, v in schema.items()}
    out = []
    for part in parts:  # loop-ok: one frame per procedure
        if part.width == 0:
            continue
        missing = [c for c in columns if c not in part.columns]
        part = part.with_columns(pl.lit(None, dtype=cast[c]).alias(c) for c in missing)
        out.append(part.select(*keys, *[pl.col(c).cast(cast[c]) for c in columns]))
    if not out:
        return pl.DataFrame(schema={**{k: pl.String for k in keys}, **schema})
    return sort(pl.concat(out, how="vertical_relaxed"), keys, *order)
