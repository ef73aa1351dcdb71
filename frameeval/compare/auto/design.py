"""The block × learner table, the design of every group, the assumption checks, and the choice
of the procedure (Demšar 2006, autorank).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
import polars as pl

from frameeval._validate import check_unique, enforce, failure, group_text
from frameeval.compare.auto.context import FUNC, VALUE, Context, semi, sort
from frameeval.compare.door import learner_expr
from frameeval.compare.guards import not_null_rows
from frameeval.compare.plan import block_grid
from frameeval.compare.results import DESIGN_COLUMNS
from frameeval.compare.words import format_p_expr
from frameeval.exceptions import InsufficientDataError, InvalidValueError

#: Fewest blocks on which normality is checked: Shapiro–Wilk on 3 or 4 values cannot tell a
#: normal sample from most others, so fewer blocks take the rank (nonparametric) path.
MIN_NORMALITY_BLOCKS = 5

__all__ = ["assumption_checks", "cell_table", "choose_procedures", "describe_design"]


# ---------------------------------------------------------------------------------------------
# the block × learner table and the design
# ---------------------------------------------------------------------------------------------
def cell_table(
    lf: pl.LazyFrame, schema: pl.Schema, keys: list[str], block: str, learner: str, metric: str
) -> pl.LazyFrame:
    """``*keys, <block>, <learner> (String), __value``: the full grid of every group's blocks ×
    learners, ``__value`` null for a missing cell (no row, or a null / NaN metric value)."""
    lf = not_null_rows(lf, FUNC, keys, {"block": block, "learner": learner})
    lf = lf.with_columns(learner_expr(learner, schema).cast(pl.String).alias(learner))
    lf = check_unique(lf, [*keys, block, learner], FUNC, "one metric value per learner and block")
    value = pl.col(metric).cast(pl.Float64)
    lf = enforce(
        lf,
        failure(
            value.is_infinite(),
            InvalidValueError,
            f"{FUNC}(): column {metric!r} (metric=) must be finite, got {{}} for {learner}={{}} "
            f"on {block}={{}}{{}}.",
            value.cast(pl.String),
            pl.col(learner),
            pl.col(block).cast(pl.String),
            group_text(keys),
        ),
    )
    cell = lf.select(*keys, block, learner, value.fill_nan(None).alias(VALUE))
    grid = block_grid(cell, keys, block, learner)
    out = grid.join(cell, on=[*keys, block, learner], how="left", nulls_equal=True)
    return out.sort([*keys, block, learner], nulls_last=True)


def describe_design(cells: pl.DataFrame, ctx: Context) -> pl.DataFrame:
    keys, block, learner = ctx.keys, ctx.block, ctx.learner
    spread = cells.group_by(*keys, block).agg(
        (pl.col(VALUE).max() - pl.col(VALUE).min()).alias("__spread")
    )
    tied = (
        spread.group_by(keys).agg((pl.col("__spread").fill_null(0) == 0).all().alias("all_tied"))
        if keys
        else spread.select((pl.col("__spread").fill_null(0) == 0).all().alias("all_tied"))
    )
    aggs = [
        pl.col(learner).n_unique().cast(pl.Int64).alias("n_learners"),
        pl.col(block).n_unique().cast(pl.Int64).alias("n_blocks"),
        pl.col(VALUE).is_null().sum().cast(pl.Int64).alias("n_missing"),
        pl.col(learner).unique().sort().str.join(", ").alias("__learners"),
    ]
    out = cells.group_by(keys).agg(aggs) if keys else cells.select(aggs)
    out = (
        out.join(tied, on=keys, nulls_equal=True)
        if keys
        else pl.concat([out, tied], how="horizontal")
    )
    return sort(out, keys)


# ---------------------------------------------------------------------------------------------
# the assumption checks
# ---------------------------------------------------------------------------------------------
def assumption_checks(cells: pl.DataFrame, design: pl.DataFrame, ctx: Context) -> pl.DataFrame:
    """Shapiro–Wilk per learner (α/k), then Bartlett (all normal) or Levene (k > 2), for the
    complete groups with ≥ :data:`MIN_NORMALITY_BLOCKS` blocks and ≥ 2 learners."""
    from scipy import stats

    keys, learner = ctx.keys, ctx.learner
    schema: dict[str, Any] = {
        **{k: cells.schema[k] for k in keys},
        "check": pl.String,
        "learner": pl.String,
        "statistic": pl.Float64,
        "p_value": pl.Float64,
        "alpha": pl.Float64,
        "passed": pl.Boolean,
    }
    eligible = design.filter(
        (pl.col("n_missing") == 0)
        & (pl.col("n_blocks") >= MIN_NORMALITY_BLOCKS)
        & (pl.col("n_learners") >= 2)
    )
    if eligible.height == 0 or ctx.rope is not None:
        return pl.DataFrame(schema=schema)
    part = semi(cells, eligible.select(keys), keys)
    per = (
        part.sort([*keys, learner, ctx.block])
        .group_by(*keys, learner)
        .agg(pl.col(VALUE).alias("__x"), pl.len().cast(pl.Int64).alias("__n"))
    )
    per = sort(per, keys, learner)
    w = np.full(per.height, np.nan)
    p = np.full(per.height, np.nan)
    sizes = per.get_column("__n").to_numpy()
    for n in np.unique(sizes):  # loop-ok: one vectorised scipy call per distinct block count
        rows = np.flatnonzero(sizes == n)
        arr = np.vstack(per.get_column("__x").gather(rows).to_list()).astype(float)
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            res = stats.shapiro(arr, axis=1)
        w[rows], p[rows] = res.statistic, res.pvalue
    k = (
        per.join(eligible.select(*keys, "n_learners"), on=keys, nulls_equal=True)
        if keys
        else (per.with_columns(pl.lit(eligible.item(0, "n_learners")).alias("n_learners")))
    )
    shapiro = k.with_columns(
        pl.lit("shapiro_wilk").alias("check"),
        pl.Series("statistic", w).fill_nan(None),
        pl.Series("p_value", p).fill_nan(None),
        (ctx.alpha / pl.col("n_learners").cast(pl.Float64)).alias("alpha"),
    ).with_columns((pl.col("p_value") >= pl.col("alpha")).fill_null(False).alias("passed"))
    shapiro = shapiro.rename({learner: "learner"} if learner != "learner" else {}).select(
        list(schema)
    )

    normal = (
        shapiro.group_by(keys).agg(pl.col("passed").all().alias("__normal"))
        if keys
        else shapiro.select(pl.col("passed").all().alias("__normal"))
    )
    homo = _homogeneity(part, normal, eligible, ctx)
    both = [shapiro] if homo is None else [shapiro, homo.select(list(schema))]
    return sort(pl.concat(both), keys, "check", "learner")


def _homogeneity(
    part: pl.DataFrame, normal: pl.DataFrame, eligible: pl.DataFrame, ctx: Context
) -> pl.DataFrame | None:
    """Bartlett's test (groups whose learners all look normal) or Levene's test with the median
    (Brown–Forsythe) for the others, for k > 2 learners, as closed forms over Polars
    aggregates (scipy's ``bartlett`` and ``levene`` formulas)."""
    from scipy import stats

    keys, learner = ctx.keys, ctx.learner
    big = eligible.filter(pl.col("n_learners") > 2)
    if big.height == 0:
        return None
    part = semi(part, big.select(keys), keys)
    if keys:
        part = part.join(normal, on=keys, nulls_equal=True)
    else:
        part = part.with_columns(
            pl.lit(normal.item(0, "__normal") if normal.height else False).alias("__normal")
        )
    x = pl.col(VALUE)
    z = (x - x.median().over([*keys, learner])).abs()
    part = part.with_columns(z.alias("__z"))
    per = part.group_by(*keys, learner).agg(
        pl.len().cast(pl.Float64).alias("__n"),
        x.var(ddof=1).alias("__s2"),
        pl.col("__z").mean().alias("__zbar"),
        ((pl.col("__z") - pl.col("__z").mean()) ** 2).sum().alias("__zss"),
        pl.col("__normal").first(),
    )
    n, s2 = pl.col("__n"), pl.col("__s2")
    aggs = [
        pl.col("__normal").first().alias("__normal"),
        pl.len().cast(pl.Float64).alias("__k"),
        n.sum().alias("__ntot"),
        ((n - 1) * s2).sum().alias("__pooled"),
        ((n - 1) * s2.log()).sum().alias("__logs"),
        (1.0 / (n - 1)).sum().alias("__inv"),
        (pl.col("__zbar") * n).sum().alias("__zsum"),
        pl.col("__zss").sum().alias("__within"),
        (s2 == 0).any().alias("__zero_var"),
        (n * pl.col("__zbar") ** 2).sum().alias("__z2"),
    ]
    g = per.group_by(keys).agg(aggs) if keys else per.select(aggs)
    kk, nt = pl.col("__k"), pl.col("__ntot")
    sp2 = pl.col("__pooled") / (nt - kk)
    bartlett = ((nt - kk) * sp2.log() - pl.col("__logs")) / (
        1 + (pl.col("__inv") - 1 / (nt - kk)) / (3 * (kk - 1))
    )
    between = pl.col("__z2") - pl.col("__zsum") ** 2 / nt
    levene = pl.when(pl.col("__within") > 0).then(
        (nt - kk) / (kk - 1) * between / pl.col("__within")
    )
    g = g.with_columns(
        pl.when(pl.col("__normal"))
        .then(pl.lit("bartlett"))
        .otherwise(pl.lit("levene"))
        .alias("check"),
        pl.when(pl.col("__normal"))
        .then(pl.when(pl.col("__zero_var")).then(float("inf")).otherwise(bartlett))
        .otherwise(levene)
        .alias("statistic"),
    )
    stat = g.get_column("statistic").to_numpy().astype(float)
    k = g.get_column("__k").to_numpy()
    ntot = g.get_column("__ntot").to_numpy()
    is_b = g.get_column("__normal").to_numpy().astype(bool)
    with np.errstate(all="ignore"):
        p = np.where(is_b, stats.chi2.sf(stat, k - 1), stats.f.sf(stat, k - 1, ntot - k))
    return g.with_columns(
        pl.lit(None, dtype=pl.String).alias("learner"),
        pl.Series("p_value", p).fill_nan(None),
        pl.lit(ctx.alpha).alias("alpha"),
    ).with_columns((pl.col("p_value") >= pl.col("alpha")).fill_null(False).alias("passed"))


def choose_procedures(
    design: pl.DataFrame, checks: pl.DataFrame, ctx: Context, procedure: str
) -> pl.DataFrame:
    """Add ``procedure, omnibus_test, post_hoc_test, reason`` per group."""
    keys = ctx.keys
    design = _with_checks(design, checks, keys)
    k, n = pl.col("n_learners"), pl.col("n_blocks")
    if procedure == "auto":
        proc, reason = _auto_rule(ctx, k, n)
    else:
        proc = pl.when((k < 2) | (n < 2)).then(pl.lit("none")).otherwise(pl.lit(procedure))
        reason = (
            pl.when(k < 2)
            .then(
                pl.format(
                    "only one learner ({}): there is nothing to compare", pl.col("__learners")
                )
            )
            .when(n < 2)
            .then(pl.format("only {} block: a comparison needs at least 2", n))
            .otherwise(pl.lit(f"procedure={procedure!r} was requested"))
        )
    design = design.with_columns(proc.alias("procedure"), reason.alias("reason"))
    tests = {
        "t": ("paired_t", "paired_t"),
        "wilcoxon": ("wilcoxon", "wilcoxon"),
        "anova": ("rm_anova", "tukey_hsd"),
        "friedman": ("friedman_iman_davenport", "nemenyi"),
        "skillings_mack": ("skillings_mack", "skillings_mack_holm"),
        "bayes_signed_rank": (None, "bayes_signed_rank"),
    }
    design = design.with_columns(
        pl.col("procedure")
        .replace_strict({p: t[0] for p, t in tests.items()}, default=None, return_dtype=pl.String)
        .alias("omnibus_test"),
        pl.col("procedure")
        .replace_strict({p: t[1] for p, t in tests.items()}, default=None, return_dtype=pl.String)
        .alias("post_hoc_test"),
    )
    _check_forced(design, ctx, procedure)
    out = design.select(*keys, *DESIGN_COLUMNS, "all_tied", "__learners")
    return sort(out, keys)


def _with_checks(design: pl.DataFrame, checks: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """The design with each group's normality summary (``__normal``, the learners that fail,
    the worst p) and its equal-variances check (``__homo*``)."""
    shapiro = checks.filter(pl.col("check") == "shapiro_wilk")
    summary_aggs = [
        pl.when(pl.len() > 0).then(pl.col("passed").all()).alias("__normal"),
        pl.col("learner").filter(~pl.col("passed")).str.join(", ").alias("__not_normal"),
        pl.col("p_value").filter(~pl.col("passed")).min().alias("__worst_p"),
        pl.col("alpha").first().alias("__alpha_n"),
    ]
    normal = shapiro.group_by(keys).agg(summary_aggs) if keys else shapiro.select(summary_aggs)
    homo = checks.filter(pl.col("check") != "shapiro_wilk").select(
        *keys,
        pl.col("check").alias("__homo_test"),
        pl.col("passed").alias("__homo"),
        pl.col("p_value").alias("__homo_p"),
    )
    if keys:
        design = design.join(normal, on=keys, how="left", nulls_equal=True)
        design = design.join(homo, on=keys, how="left", nulls_equal=True)
    else:
        one = normal if normal.height else pl.DataFrame(schema=normal.schema).clear(1)
        two = homo if homo.height else pl.DataFrame(schema=homo.schema).clear(1)
        design = pl.concat([design, one, two], how="horizontal")
    return design


def _check_texts() -> tuple[pl.Expr, pl.Expr, pl.Expr]:
    """The words of the assumption checks: normal, not normal, equal variances or not."""
    fmt = lambda e: e.round_sig_figs(3).cast(pl.String)  # noqa: E731
    alpha_n = fmt(pl.col("__alpha_n"))
    normal_text = pl.format("every learner's values look normal (Shapiro–Wilk, α/k = {})", alpha_n)
    not_normal_text = pl.format(
        "Shapiro–Wilk rejects normality for {} ({} < α/k = {})",
        pl.col("__not_normal"),
        format_p_expr(pl.col("__worst_p")),
        alpha_n,
    )
    homo_name = (
        pl.when(pl.col("__homo_test") == "bartlett")
        .then(pl.lit("Bartlett"))
        .otherwise(pl.lit("Levene"))
    )
    homo_text = (
        pl.when(pl.col("__homo"))
        .then(
            pl.format(
                "{} finds no unequal variances ({})", homo_name, format_p_expr(pl.col("__homo_p"))
            )
        )
        .otherwise(
            pl.format(
                "{} rejects equal variances ({})", homo_name, format_p_expr(pl.col("__homo_p"))
            )
        )
    )
    return normal_text, not_normal_text, homo_text


def _auto_rule(ctx: Context, k: pl.Expr, n: pl.Expr) -> tuple[pl.Expr, pl.Expr]:
    """``procedure="auto"``: each group's procedure and the reason in words (two learners: the
    t test if both look normal, else Wilcoxon; more: ANOVA when every learner looks normal with
    equal variances, else Friedman; Skillings–Mack with missing cells; the Bayesian signed-rank
    test with a ROPE)."""
    checked = pl.col("__normal").is_not_null()
    normal_text, not_normal_text, homo_text = _check_texts()
    proc = (
        pl.when(k < 2)
        .then(pl.lit("none"))
        .when(n < 2)
        .then(pl.lit("none"))
        .when(pl.lit(ctx.rope is not None))
        .then(pl.lit("bayes_signed_rank"))
        .when(pl.col("n_missing") > 0)
        .then(pl.lit("skillings_mack"))
        .when(pl.col("all_tied"))
        .then(pl.lit("none"))
        .when(k == 2)
        .then(pl.when(checked & pl.col("__normal")).then(pl.lit("t")).otherwise(pl.lit("wilcoxon")))
        .when(checked & pl.col("__normal") & pl.col("__homo").fill_null(False))
        .then(pl.lit("anova"))
        .otherwise(pl.lit("friedman"))
    )
    reason = (
        pl.when(k < 2)
        .then(pl.format("only one learner ({}): there is nothing to compare", pl.col("__learners")))
        .when(n < 2)
        .then(pl.format("only {} block: a comparison needs at least 2", n))
        .when(pl.lit(ctx.rope is not None))
        .then(pl.lit(f"a region of practical equivalence was given (rope = {ctx.rope})"))
        .when(pl.col("n_missing") > 0)
        .then(
            pl.format(
                "{} missing (block, learner) {}",
                pl.col("n_missing"),
                pl.when(pl.col("n_missing") == 1).then(pl.lit("cell")).otherwise(pl.lit("cells")),
            )
        )
        .when(pl.col("all_tied"))
        .then(pl.lit("every learner has the same value on every block"))
        .when(~checked)
        .then(
            pl.format(
                "with {} blocks normality cannot be checked (Shapiro–Wilk is not trusted "
                f"on fewer than {MIN_NORMALITY_BLOCKS}), so the rank test is used",
                n,
            )
        )
        .when(k == 2)
        .then(pl.when(pl.col("__normal")).then(normal_text).otherwise(not_normal_text))
        .when(pl.col("__normal"))
        .then(pl.concat_str([normal_text, pl.lit(" and "), homo_text]))
        .otherwise(not_normal_text)
    )
    return proc, reason


def _check_forced(design: pl.DataFrame, ctx: Context, procedure: str) -> None:
    if procedure in ("t", "wilcoxon"):
        bad = design.filter((pl.col("procedure") != "none") & (pl.col("n_learners") != 2))
        if bad.height:
            row = bad.row(0, named=True)
            where = _where(row, ctx.keys)
            raise InsufficientDataError(
                f"{FUNC}(): procedure={procedure!r} compares exactly 2 learners, got "
                f"{row['n_learners']}{where}.\nHint: procedure='friedman' or 'anova' for more."
            )
    if procedure in ("t", "wilcoxon", "anova", "friedman"):
        bad = design.filter((pl.col("procedure") != "none") & (pl.col("n_missing") > 0))
        if bad.height:
            row = bad.row(0, named=True)
            raise InsufficientDataError(
                f"{FUNC}(): procedure={procedure!r} needs every learner to have a value on every "
                f"block, got {row['n_missing']} missing cells{_where(row, ctx.keys)}.\nHint: "
                "procedure='auto' uses the Skillings–Mack test for missing cells."
            )


def _where(row: dict[str, Any], keys: Sequence[str]) -> str:
    if not keys:
        return ""
    return " in group " + ", ".join(f"{k}={row[k]}" for k in keys)
