"""One data set, k learners: the comparison over the splits (folds, repeats) of one data set.

The splits of (repeated) cross-validation share training data, so their values are not
independent blocks: the paired t test, the Friedman test or the repeated-measures ANOVA over
folds reject far too often (Dietterich 1998; Nadeau & Bengio 2003; Bouckaert & Frank 2004;
Demšar 2006, §3–4). Here every pair of learners is compared by a test that allows for the
overlap, and the pairs' p-values are adjusted by Holm's (or Shaffer's) step-down procedure:

* ``"corrected_t"`` — the Nadeau–Bengio corrected resampled t test
  (:func:`frameeval.compare.corrected_resampled_t_test`), n_test/n_train = 1/(k − 1) for
  k-fold cross-validation (read from the number of folds per repeat) unless given;
* ``"cv5x2_f"`` — Alpaydin's combined 5×2cv F test (:func:`frameeval.compare.cv5x2_f_test`),
  for r ≥ 2 repeats of 2-fold cross-validation; ``"cv5x2_t"`` (forced only) Dietterich's 5×2cv
  t test (:func:`frameeval.cv5x2_t_test`);
* ``"bayes_correlated_t"`` — with a ROPE, the Bayesian correlated t test
  (:func:`frameeval.compare.bayes_correlated_t`; no adjustment: a posterior is not a p-value).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import polars as pl

from frameeval.compare.auto.context import (
    FUNC,
    PAIR_PROCEDURES,
    POST_HOC_SCHEMA,
    SPLIT_PROCEDURES,
    TEST_NAMES,
    VALUE,
    Context,
    posterior_decision,
    semi,
    sort,
)
from frameeval.compare.auto.design import cell_table, describe_design
from frameeval.compare.guards import not_null_rows, value_text
from frameeval.compare.plan import block_pairs
from frameeval.compare.results import DESIGN_COLUMNS, SPLIT_DESIGN, reject
from frameeval.compare.scipy_step import better_by
from frameeval.compare.words import format_p, format_value
from frameeval.exceptions import InvalidParameterError
from frameeval.metrics.measure import display_name

__all__ = [
    "SplitDesign",
    "choose_split_procedures",
    "describe_splits",
    "run_split_procedures",
    "split_cells",
    "split_verdict",
]


@dataclass(frozen=True)
class SplitDesign:
    """The split columns of one data set's resampling and how its pairs are compared."""

    fold: str
    repeat: str | None
    #: the column identifying a split: ``fold``, or ``"<repeat>/<fold>"`` with repeats
    split: str
    #: n_test / n_train given by the user (None: 1/(k − 1) from the folds per repeat)
    ratio: float | None
    #: the step-down adjustment over the pairs: ``"holm"`` or ``"shaffer"``
    adjust: str
    #: ``block=`` named the folds (the verdict says that they are not independent blocks)
    switched: bool = False
    #: one hold-out split, ``fold`` naming the test instances (McNemar's test of every pair)
    holdout: bool = False


def split_cells(
    lf: pl.LazyFrame, keys: list[str], sd: SplitDesign, learner: str, metric: str
) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """``*keys, <split>, <learner> (String), __value`` (the full split × learner grid of every
    group, null for a missing cell) and ``*keys, <split>, [<repeat>,] <fold>`` (the map from the
    split id back to its repeat and fold)."""
    roles = {"fold": sd.fold} if sd.repeat is None else {"repeat": sd.repeat, "fold": sd.fold}
    lf = not_null_rows(lf, FUNC, keys, roles)
    if sd.repeat is not None:
        lf = lf.with_columns(
            pl.concat_str([value_text(sd.repeat), value_text(sd.fold)], separator="/").alias(
                sd.split
            )
        )
    cells = cell_table(lf, lf.collect_schema(), keys, sd.split, learner, metric)
    columns = [sd.split] if sd.repeat is None else [sd.split, sd.repeat, sd.fold]
    return cells, lf.select(*keys, *columns).unique()


def describe_splits(
    cells: pl.DataFrame, splits: pl.DataFrame, ctx: Context, sd: SplitDesign, dropped: pl.DataFrame
) -> pl.DataFrame:
    """The design of :func:`frameeval.compare.auto.design.describe_design` (``n_blocks`` = the
    number of complete splits) plus ``n_dropped`` (incomplete splits left out), ``n_repeats``,
    ``n_folds`` (per repeat, of the design: all splits; null when the repeats have different
    numbers of folds), ``__fmin``, ``__fmax``."""
    keys = ctx.keys
    design = describe_design(cells, ctx)
    if keys:
        design = design.join(dropped, on=keys, how="left", nulls_equal=True)
    else:
        n = dropped.item(0, "n_dropped") if dropped.height else 0
        design = design.with_columns(pl.lit(n, dtype=pl.Int64).alias("n_dropped"))
    design = design.with_columns(pl.col("n_dropped").fill_null(0))
    if sd.repeat is None:
        aggs = [
            pl.lit(1, dtype=pl.Int64).alias("n_repeats"),
            pl.len().cast(pl.Int64).alias("__fmin"),
            pl.len().cast(pl.Int64).alias("__fmax"),
        ]
        shape = splits.group_by(keys).agg(aggs) if keys else splits.select(aggs)
    else:
        per = splits.group_by(*keys, sd.repeat).agg(pl.len().cast(pl.Int64).alias("__f"))
        aggs = [
            pl.len().cast(pl.Int64).alias("n_repeats"),
            pl.col("__f").min().alias("__fmin"),
            pl.col("__f").max().alias("__fmax"),
        ]
        shape = per.group_by(keys).agg(aggs) if keys else per.select(aggs)
    design = (
        design.join(shape, on=keys, nulls_equal=True)
        if keys
        else pl.concat([design, shape], how="horizontal")
    )
    return sort(
        design.with_columns(
            pl.when(pl.col("__fmin") == pl.col("__fmax")).then(pl.col("__fmin")).alias("n_folds")
        ),
        keys,
    )


def choose_split_procedures(
    design: pl.DataFrame, ctx: Context, sd: SplitDesign, procedure: str
) -> pl.DataFrame:
    """Add ``procedure, omnibus_test, post_hoc_test, test_train_ratio, reason`` per group."""
    k, n = pl.col("n_learners"), pl.col("n_blocks")
    folds = pl.col("n_folds")
    if sd.ratio is not None:
        ratio = pl.lit(sd.ratio, dtype=pl.Float64)
    else:
        ratio = pl.when(folds >= 2).then(1.0 / (folds.cast(pl.Float64) - 1.0))
    if sd.holdout:
        chosen = pl.lit("mcnemar")
    elif procedure in SPLIT_PROCEDURES:
        chosen = pl.lit(procedure)
    else:
        chosen = (
            pl.when(pl.lit(ctx.rope is not None))
            .then(pl.lit("bayes_correlated_t"))
            .when((folds == 2) & (pl.col("n_repeats") >= 2) & pl.lit(sd.ratio is None))
            .then(pl.lit("cv5x2_f"))
            .otherwise(pl.lit("corrected_t"))
        )
    proc = (
        pl.when((k < 2) | (n < 2) | pl.col("all_tied"))
        .then(pl.lit("none"))
        .otherwise(chosen)
        .alias("procedure")
    )
    design = design.with_columns(proc, ratio.alias("test_train_ratio"))
    design = design.with_columns(
        pl.lit(None, dtype=pl.String).alias("omnibus_test"),
        pl.when(pl.col("procedure") != "none")
        .then(pl.col("procedure"))
        .otherwise(None)
        .alias("post_hoc_test"),
    )
    _check(design, ctx, sd)
    reasons = [
        _reason(row, ctx, sd)
        for row in design.iter_rows(named=True)  # loop-ok: words per group
    ]
    design = design.with_columns(pl.Series("reason", reasons, dtype=pl.String))
    return sort(
        design.select(*ctx.keys, *DESIGN_COLUMNS, *SPLIT_DESIGN, "all_tied", "__learners"), ctx.keys
    )


def _where(row: dict[str, Any], keys: list[str]) -> str:
    return " in group " + ", ".join(f"{k}={row[k]}" for k in keys) if keys else ""


def _check(design: pl.DataFrame, ctx: Context, sd: SplitDesign) -> None:
    tested = design.filter(pl.col("procedure") != "none")
    no_ratio = tested.filter(
        pl.col("procedure").is_in(["corrected_t", "bayes_correlated_t"])
        & pl.col("test_train_ratio").is_null()
    )
    if no_ratio.height:
        row = no_ratio.row(0, named=True)
        shape = (
            "one split per repeat (repeated hold-out)"
            if row["__fmax"] == 1
            else f"{row['__fmin']} to {row['__fmax']} folds per {sd.repeat!r}"
        )
        raise InvalidParameterError(
            f"{FUNC}(): test_train_ratio= (n_test/n_train of one split) must be given when it "
            f"cannot be read from the folds, got {shape}{_where(row, ctx.keys)}.\nHint: e.g. "
            "test_train_ratio=0.5 for a hold-out of a third of the data."
        )


def _design_text(row: dict[str, Any], sd: SplitDesign) -> str:
    r, f, n = row["n_repeats"], row["n_folds"], row["n_blocks"]
    if row["n_dropped"]:
        n = f"{n} complete"
    if f is None:
        return f"{n} splits ({r} repeats of {row['__fmin']} to {row['__fmax']} folds)"
    if f == 1:
        return f"{n} hold-out splits"
    if r == 1:
        return f"{n} splits ({f}-fold cross-validation)"
    return f"{n} splits ({r} × {f}-fold cross-validation)"


def _reason(row: dict[str, Any], ctx: Context, sd: SplitDesign) -> str:
    proc = row["procedure"]
    if proc == "none":
        if row["n_learners"] < 2:
            return f"only one learner ({row['__learners']}): there is nothing to compare"
        if row["n_blocks"] < 2:
            return (
                "only one split: the split-level tests need at least 2 (McNemar's test compares "
                "the learners' predictions on a single test set: give its instance column and a "
                "0/1 correctness metric)"
            )
        return f"every learner has the same {ctx.metric} on every split"
    adjust = "Holm's" if sd.adjust == "holm" else "Shaffer's"
    m = row["n_learners"] * (row["n_learners"] - 1) // 2
    pairs = "the pair" if m == 1 else f"each of the {m} pairs"
    if proc == "mcnemar":
        how = (
            f"the values are the {row['n_blocks']} test instances of one hold-out split "
            f"({sd.fold!r}: 1 = correct): {pairs} is compared by McNemar's test on the "
            "instances the two learners disagree on (§2.4.3, eq 2.33; Dietterich 1998)"
        )
        if row["n_dropped"]:
            how += f"; {row['n_dropped']} instances without every learner's value are left out"
        return how + (f", with {adjust} adjustment of the p-values over the pairs" if m > 1 else "")
    lead = (
        f"the values are the {_design_text(row, sd)} of one data set, whose training sets "
        "overlap, so they are not independent blocks (tests over independent blocks — the "
        "paired t test, Friedman, ANOVA over folds — reject far too often: Dietterich 1998, "
        "Nadeau & Bengio 2003)"
    )
    if row["n_dropped"]:
        lead += (
            f"; {row['n_dropped']} incomplete "
            f"{'split (a learner without a value) is' if row['n_dropped'] == 1 else 'splits (a learner without a value) are'} "
            "left out"
        )
    if sd.switched:
        lead = (
            f"block={sd.fold!r} names the folds of one data set, so no Friedman test or ANOVA "
            f"is run over them: {lead}"
        )
    if proc == "corrected_t":
        folds = row["n_folds"]  # k-fold without a given ratio: 1/(k − 1)
        kfold = sd.ratio is None and folds is not None and folds >= 2
        ratio = f"1/(k − 1) = 1/{folds - 1}" if kfold else f"{row['test_train_ratio']:.4g}"
        how = (
            f"{pairs} is compared by the Nadeau–Bengio corrected resampled t test "
            f"(n_test/n_train = {ratio})"
        )
    elif proc == "cv5x2_f":
        how = f"{pairs} is compared by Alpaydin's combined 5×2cv F test"
    elif proc == "cv5x2_t":
        how = f"{pairs} is compared by Dietterich's 5×2cv t test (procedure='cv5x2_t')"
    else:
        return (
            f"{lead}; a region of practical equivalence was given (rope = {ctx.rope:g}), so "
            f"{pairs} is compared by the Bayesian correlated t test (Corani & Benavoli 2015)"
        )
    if m > 1:
        how += f", with {adjust} adjustment of the p-values over the pairs"
    return f"{lead}; {how}"


# ---------------------------------------------------------------------------------------------
# the procedures: every pair of each group at once (one call per distinct ratio / procedure)
# ---------------------------------------------------------------------------------------------
def _pairs_long(cells: pl.DataFrame, ctx: Context, sd: SplitDesign) -> pl.DataFrame:
    """``*keys, __pair_a, __pair_b, <split>, __side ("a" | "b"), __v``: every pair a < b of each group as
    a two-learner table, the learners renamed to their side (the pair is a ``by`` key)."""
    keys = ctx.keys
    sides = {ctx.learner: ("__pair_a", "__pair_b"), VALUE: ("__va", "__vb")}
    pairs = block_pairs(cells, keys, sd.split, sides).filter(
        pl.col("__pair_a") < pl.col("__pair_b")
    )
    return pl.concat(
        [
            pairs.select(
                *keys,
                "__pair_a",
                "__pair_b",
                sd.split,
                pl.lit(s).alias("__side"),
                pl.col(f"__v{s}"),
            ).rename({f"__v{s}": "__v"})
            for s in ("a", "b")  # loop-ok: the two sides of every pair
        ]
    )


def _with_repeat_fold(
    frame: pl.DataFrame, splits: pl.DataFrame, ctx: Context, sd: SplitDesign
) -> tuple[pl.DataFrame, str, str]:
    if sd.repeat is None:
        return frame.with_columns(pl.lit(0, dtype=pl.Int64).alias("__repeat")), "__repeat", sd.fold
    out = frame.join(splits, on=[*ctx.keys, sd.split], how="left", nulls_equal=True)
    return out, sd.repeat, sd.fold


def _run_pair_tests(
    cells: pl.DataFrame,
    splits: pl.DataFrame,
    design: pl.DataFrame,
    proc: str,
    ctx: Context,
    sd: SplitDesign,
) -> pl.DataFrame:
    from frameeval.compare.mcnemar import mcnemar
    from frameeval.compare.multiple import step_down
    from frameeval.compare.resampled import corrected_resampled_t_test, cv5x2_f_test
    from frameeval.compare.two_learners import cv5x2_t_test

    keys = ctx.keys
    by = [*keys, "__pair_a", "__pair_b"]
    long = _pairs_long(cells, ctx, sd)
    common: dict[str, Any] = dict(
        a="a", b="b", learner="__side", by=by, higher_is_better=ctx.hib, alpha=ctx.alpha
    )
    parts = []
    if proc == "corrected_t":
        ratios = design.get_column("test_train_ratio").unique().sort().to_list()
        for ratio in ratios:  # loop-ok: one vectorised call per distinct n_test/n_train
            groups = design.filter(pl.col("test_train_ratio") == ratio).select(keys)
            part = semi(long, groups, keys)
            out = corrected_resampled_t_test(
                part, "__v", n_train=1.0, n_test=float(ratio), block=sd.split, **common
            )
            parts.append(out.with_columns(pl.col("mean").alias("difference")))
    elif proc == "mcnemar":
        correct = pl.col("__v") if ctx.hib else 1.0 - pl.col("__v")
        data = long.with_columns(
            pl.lit(1, dtype=pl.Int64).alias("__truth"), correct.cast(pl.Int64).alias("__pred")
        )
        out = mcnemar(
            data,
            "__truth",
            "__pred",
            a="a",
            b="b",
            learner="__side",
            instance=sd.split,
            by=by,
            alpha=ctx.alpha,
        )
        sign = 1.0 if ctx.hib else -1.0  # mean_difference: a's accuracy minus b's
        parts.append(out.with_columns((sign * pl.col("mean_difference")).alias("difference")))
    else:
        data, repeat, fold = _with_repeat_fold(long, splits, ctx, sd)
        if proc == "cv5x2_f":
            out = cv5x2_f_test(data, "__v", repeat=repeat, fold=fold, **common)
        else:
            out = cv5x2_t_test(
                data, "__v", repeat=repeat, fold=fold, variant="dietterich", **common
            )
        parts.append(out.with_columns(pl.col("mean").alias("difference")))
    res = pl.concat(parts, how="diagonal_relaxed").drop("a", "b", "reject", "better")
    res = res.rename({"__pair_a": "a", "__pair_b": "b"}).with_columns(
        pl.col("p_value").fill_nan(None), pl.col("statistic").fill_nan(None)
    )
    res = (
        res.join(design.select(*keys, "n_learners"), on=keys, nulls_equal=True)
        if keys
        else (res.with_columns(pl.lit(design.item(0, "n_learners")).alias("n_learners")))
    )
    adjusted = step_down(res.lazy(), keys, sd.adjust).collect()
    better = (pl.col("difference") > 0) if ctx.hib else (pl.col("difference") < 0)
    return adjusted.with_columns(
        pl.lit(proc).alias("test"),
        pl.lit(None, dtype=pl.Float64).alias("critical_value"),
        pl.lit(ctx.alpha).alias("alpha"),
        reject("p_adjusted", ctx.alpha),
    ).with_columns(better_by(better))


def _run_bayes(
    cells: pl.DataFrame, splits: pl.DataFrame, ctx: Context, sd: SplitDesign
) -> pl.DataFrame:
    from frameeval.compare.bayes import bayes_correlated_t

    keys = ctx.keys
    data, repeat, fold = cells, None, sd.fold
    if sd.repeat is not None:
        data, repeat, fold = _with_repeat_fold(cells, splits, ctx, sd)
        data = data.drop(sd.split)
    rho = None if sd.ratio is None else sd.ratio / (1.0 + sd.ratio)
    out = bayes_correlated_t(
        data,
        VALUE,
        rope=float(ctx.rope or 0.0),
        learner=ctx.learner,
        fold=fold,
        repeat=repeat,
        rho=rho,
        by=keys or None,
        higher_is_better=ctx.hib,
    )
    return posterior_decision(out, "bayes_correlated_t", ctx.alpha)


def run_split_procedures(
    cells: pl.DataFrame, splits: pl.DataFrame, design: pl.DataFrame, ctx: Context, sd: SplitDesign
) -> pl.DataFrame:
    """The post-hoc frame (:data:`POST_HOC_SCHEMA`) of every tested group: one row per pair
    a < b with the raw and the adjusted p-value, ``reject`` (adjusted p < α by
    :func:`frameeval.compare.results.reject`; for the Bayesian test a region's probability
    ≥ 1 − α), ``better``, ``difference`` (mean a − b over the splits), Cohen's d_z and
    Cliff's δ of the paired split values."""
    keys = ctx.keys
    parts = []
    for proc in PAIR_PROCEDURES:  # loop-ok: one call per procedure, not per group
        groups = design.filter(pl.col("procedure") == proc)
        if groups.height == 0:
            continue
        part = semi(cells, groups.select(keys), keys)
        if proc == "bayes_correlated_t":
            parts.append(_run_bayes(part, splits, ctx, sd))
        else:
            parts.append(_run_pair_tests(part, splits, groups, proc, ctx, sd))
    columns = list(POST_HOC_SCHEMA)
    out = []
    for part in parts:  # loop-ok: one frame per procedure
        missing = [c for c in columns if c not in part.columns]
        part = part.with_columns(pl.lit(None, dtype=POST_HOC_SCHEMA[c]).alias(c) for c in missing)
        out.append(part.select(*keys, *[pl.col(c).cast(POST_HOC_SCHEMA[c]) for c in columns]))
    if not out:
        schema: dict[str, Any] = {**{k: cells.schema[k] for k in keys}, **POST_HOC_SCHEMA}
        return pl.DataFrame(schema=schema)
    return sort(pl.concat(out, how="vertical_relaxed"), keys, "a", "b")


# ---------------------------------------------------------------------------------------------
# the verdict
# ---------------------------------------------------------------------------------------------
def split_verdict(
    row: dict[str, Any], post_hoc: pl.DataFrame, ranks: pl.DataFrame, ctx: Context, sd: SplitDesign
) -> str:
    """The verdict of one group: the best learner by mean, the significant pairs (each naming
    the worse learner), and why this procedure."""
    proc = row["procedure"]
    if proc == "none":
        return f"Nothing can be concluded: {row['reason']}."
    k, n = row["n_learners"], row["n_blocks"]
    a = f"α = {ctx.alpha:g}"
    best = ranks.filter(pl.col("position") == 1).row(0, named=True)
    where = (
        f"the {n} test instances of this hold-out split"
        if sd.holdout
        else f"the {n} splits of this data set"
    )
    sentences = [
        f"{best['learner']} has the best mean {display_name(ctx.metric)} "
        f"({format_value(best['mean'])}) among {k} "
        f"learners over {where}."
    ]
    name = TEST_NAMES[proc]
    order = {r["learner"]: r["position"] for r in ranks.iter_rows(named=True)}  # loop-ok
    differ = post_hoc.filter(pl.col("reject").fill_null(False))
    if proc == "bayes_correlated_t":
        if differ.height == 0:
            sentences.append(
                f"The {name} (rope = {ctx.rope:g}) finds no pair where one learner is better "
                f"with probability ≥ {1 - ctx.alpha:g}."
            )
        else:

            def probable(r: dict[str, Any], worse: Any) -> str:
                p = max(r["p_a_better"], r["p_b_better"])
                return f"{r['better']} is better than {worse} (P = {p:#.3g})"

            found = _pair_phrases(differ, order, probable)
            sentences.append(f"The {name} (rope = {ctx.rope:g}) finds: {found}.")
    else:
        m = post_hoc.height
        adjust = "Holm's" if sd.adjust == "holm" else "Shaffer's"
        by = f"the {name}" + (f" with {adjust} adjustment over the {m} pairs" if m > 1 else "")
        if differ.height == 0:
            smallest = post_hoc.get_column("p_adjusted").min()
            p_text = format_p(smallest if isinstance(smallest, float) else None)
            sentences.append(
                f"No pair differs significantly at {a} by {by} (smallest "
                f"{'adjusted ' if m > 1 else ''}{p_text}): the {'instances' if sd.holdout else 'splits'} do not show that "
                f"{best['learner']} is better than "
                f"{'the others' if k > 2 else 'the other'}."
            )
        else:

            def significant(r: dict[str, Any], worse: Any) -> str:
                diff = abs(r["difference"])
                p = format_p(r["p_value"])
                adj = f", adjusted {format_p(r['p_adjusted'])}" if m > 1 else ""
                return (
                    f"{worse} is significantly worse than {r['better']} (mean difference "
                    f"{diff:.3g}, {p}{adj})"
                )

            found = _pair_phrases(differ, order, significant)
            rest = " No other pair differs significantly." if differ.height < m else ""
            sentences.append(f"By {by} ({a}): {found}.{rest}")
    sentences.append(f"Procedure: {proc}, because {row['reason']}.")
    return " ".join(sentences)


def _pair_phrases(
    differ: pl.DataFrame, order: dict[Any, int], phrase: Callable[[dict[str, Any], Any], str]
) -> str:
    """``phrase(row, worse)`` of each decided pair of ``differ``, joined by "; " in the rank
    order of the better and then of the worse learner."""
    words = []
    for r in differ.iter_rows(named=True):  # loop-ok: words per decided pair
        worse = r["b"] if r["better"] == r["a"] else r["a"]
        words.append((order[r["better"]], order[worse], phrase(r, worse)))
    words.sort()
    return "; ".join(w[2] for w in words)
