"""The procedures, one function each, dispatched by the table :data:`PROCEDURES`; each takes
the collected block × learner table and returns the omnibus and post-hoc frames.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import polars as pl

from frameeval.compare.auto.context import N_SAMPLES, VALUE, Context, posterior_decision, semi, sort
from frameeval.compare.plan import block_pairs
from frameeval.compare.scipy_step import better_by

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
    """Repeated-measures ANOVA (one within factor, the learner) + Tukey HSD with the same,
    repeated-measures error term: :func:`frameeval.compare.omnibus.rm_anova`,
    :func:`frameeval.compare.post_hoc.tukey_hsd`."""
    from frameeval.compare.omnibus import rm_anova
    from frameeval.compare.post_hoc import tukey_hsd

    keys, learner = ctx.keys, ctx.learner
    anova = rm_anova(cells, keys, ctx.block, learner, VALUE, ctx.alpha)
    post_hoc = tukey_hsd(cells, anova, keys, learner, VALUE, ctx.alpha, ctx.hib)
    return (
        anova.with_columns(pl.lit("rm_anova").alias("test")),
        post_hoc.with_columns(pl.lit("tukey_hsd").alias("test")),
    )


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
        better_by(first),
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
