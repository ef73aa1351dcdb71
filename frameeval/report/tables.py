"""The small tables the report is drawn from, and the helpers its sections share.

:func:`count_tables` scans the (lazy) input once, with Polars' streaming engine, into the label
count table (rows per data set × learner × split × truth × pred) and the score count table
(rows per data set × learner × truth × distinct score, binary data sets with a score on every
row); every section then computes on them with ``weight=N`` (integer weights are repeated rows).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

import polars as pl

from frameeval._frame import translate
from frameeval.curves import SCORE_PARTS, ranking_report, score_counts
from frameeval.exceptions import MissingValueError
from frameeval.measure_set import measures as measure_set
from frameeval.report.roles import ReportRoles

Progress = Callable[[str], None]


class Steps(NamedTuple):
    """The steps of a classification report, announced to ``progress`` in this order (the
    CLI's progress bar counts them); a section names its step."""

    counting: str = "counting predictions per data set, learner and split"
    scoring: str = "counting scores per data set and learner"
    answer: str = "comparing learners"
    summary: str = "data summary"
    measures: str = "performance measures"
    curves: str = "ROC, P-R and cost curves"
    calibration: str = "calibration and operating points"
    compare: str = "comparison tests"


#: The steps announced to ``progress`` (in order); the CLI's progress bar counts them.
STEPS = Steps()

#: The weight column of the count tables.
N = "__fe_n"
#: The label count table's rows whose score is null or NaN (dropped once counted).
_NULL_SCORE = "__fe_null_score"
#: More data sets than this: the per-fold box plots become one box plot over data sets.
MAX_FACETS = 6

REFERENCES = {
    "summary": "Zhou, Machine Learning, §2.2 (evaluation methods: hold-out, cross-validation, bootstrap).",
    "measures": "§2.3.1–2.3.2: error rate and accuracy (eqs 2.1–2.5), precision, recall and F1 "
    "(eqs 2.8–2.11), macro and micro averages (eqs 2.12–2.17).",
    "curves": "§2.3.3–2.3.4: ROC and AUC (eqs 2.18–2.22), P-R curves and the break-even point, "
    "cost-sensitive error and cost curves (eqs 2.23–2.25, figure 2.5).",
    "calibration": "§2.3.4 (the cost line that touches the lower envelope picks the "
    "threshold); Murphy (1973), Niculescu-Mizil & Caruana (2005), Naeini et al. (2015).",
    "compare": "§2.4: Friedman test (eqs 2.34–2.35), Nemenyi post-hoc test and critical "
    "difference (eq 2.36, figure 2.8); Demšar (2006).",
    "compare2": "§2.4: paired t test over the folds (eqs 2.30–2.31) and McNemar's test "
    "(eq 2.33); Dietterich (1998); the corrected resampled t test (Nadeau & Bengio 2003).",
    "splits": "Nadeau & Bengio (2003), Bouckaert & Frank (2004): the corrected resampled t "
    "test of every pair on one data set's folds, Holm (1979); Dietterich (1998), Demšar (2006).",
    "splits_5x2": "Dietterich (1998), Alpaydin (1999): the 5×2cv tests of every pair on one "
    "data set's 5 × 2 folds, Holm (1979); Demšar (2006).",
    "missing": "Skillings & Mack (1981): a Friedman-type test that allows missing (block, learner) "
    "cells; its pairwise z tests with Holm's correction (García et al. 2010); Demšar (2006).",
}


def collect(*plans: pl.LazyFrame) -> list[pl.DataFrame]:
    """Collect plans with the streaming engine; failed frameeval checks raise typed errors."""
    try:
        return pl.collect_all(list(plans), engine="streaming")
    except pl.exceptions.PolarsError as err:
        translated = translate(err)
        if translated is None:
            raise
        raise translated from None


@dataclass
class Counts:
    """The small tables the report is drawn from (see the module docstring)."""

    labels: pl.DataFrame  # dataset, learner, *splits, truth[, pred], N
    summary: pl.DataFrame  # dataset, [instances], [missing_scores], predictions
    splits: list[str]
    binary: list[Any]  # data sets with two classes
    scored: list[Any]  # ... and a score on some row (rows without one are skipped)
    scores: pl.DataFrame | None = None  # dataset, learner, truth, score, N
    #: the step of the threshold grid the score table was floored to (None: exact scores)
    grid: float | None = None
    #: the rows of the scored data sets (dataset, learner, truth, score), lazily, for the
    #: measures that stay exact from the rows when the score table is on a grid
    rows: pl.LazyFrame | None = None
    #: ``dataset, learner, rows``: the rows whose score is null or NaN (skipped by the score
    #: sections), only the (data set, learner) cells that have some; None without a score
    null_scores: pl.DataFrame | None = None


class NullRowsError(MissingValueError):
    """Rows with a null truth or pred: the report cannot skip them (every learner's label
    measures and tests would then read different rows). The message counts them per data set
    and learner."""


def null_rows(table: pl.DataFrame, roles: ReportRoles, column: str, what: str) -> str:
    """``"37 rows of 'score' are null (set0: knn 12, rf 25; set1: knn 2)"`` from ``dataset,
    learner, rows`` (at most 6 data sets listed, then "and n more")."""
    total = int(table["rows"].sum())
    per_set: dict[Any, list[str]] = {}
    for d, lrn, n in table.select(roles.dataset, roles.learner, "rows").rows():  # loop-ok: few
        per_set.setdefault(d, []).append(f"{lrn} {n:,}")
    parts = [f"{d}: {', '.join(cells)}" for d, cells in per_set.items()]
    shown = "; ".join(parts[:6]) + (f"; and {len(parts) - 6} more" if len(parts) > 6 else "")
    verb = "is" if total == 1 else "are"
    return f"{total:,} {'row' if total == 1 else 'rows'} of {column!r} {verb} {what} ({shown})"


def null_scores_line(counts: Counts, roles: ReportRoles) -> str:
    """The warning and page note on rows without a score ("" when every row has one)."""
    if counts.null_scores is None or counts.null_scores.height == 0:
        return ""
    return (
        f"{null_rows(counts.null_scores, roles, roles.score or 'score', 'null or NaN')}; the "
        "score sections (ROC, P-R and cost curves, AUC, calibration and operating points) skip "
        "those rows"
    )


def _null_labels(labels: pl.DataFrame, roles: ReportRoles) -> None:
    """Raise :class:`NullRowsError` when a truth or pred is null (counted per data set and
    learner from the label count table, where a null is a key like any other)."""
    keys = [roles.dataset, roles.learner]
    for role, column in (("truth", roles.truth), ("pred", roles.pred)):  # loop-ok: two roles
        if column is None:
            continue
        found = (
            labels.filter(pl.col(column).is_null())
            .group_by(keys)
            .agg(pl.col(N).sum().alias("rows"))
            .sort(keys)
        )
        if found.height:
            raise NullRowsError(
                f"{null_rows(found, roles, column, 'null')}: the label measures and tests cannot "
                f"skip them (every learner must be measured on the same rows); drop those rows "
                f"or fill the {role} column (--{role})."
            )


def count_tables(
    lf: pl.LazyFrame,
    roles: ReportRoles,
    say: Progress = lambda m: None,
    score_decimals: int | None = None,
) -> Counts:
    """Scan ``lf`` (streaming) into the label and score count tables (scores rounded to
    ``score_decimals`` first when given)."""
    dataset, learner, truth = roles.dataset, roles.learner, roles.truth
    splits = [c for c in (roles.repeat, roles.fold) if c]
    say(STEPS.counting)
    label_keys = [dataset, learner, *splits, truth, *([roles.pred] if roles.pred else [])]
    per_dataset = [pl.len().cast(pl.Int64).alias("predictions")]
    counted = [pl.len().cast(pl.Int64).alias(N)]
    if roles.instance:
        per_dataset.insert(0, pl.col(roles.instance).n_unique().cast(pl.Int64).alias("instances"))
    bad = pl.lit(False)
    if roles.score:
        score = pl.col(roles.score)
        bad = score.is_null() | (
            score.is_nan() if lf.collect_schema()[roles.score].is_float() else pl.lit(False)
        )
        counted.append(bad.sum().cast(pl.Int64).alias(_NULL_SCORE))
        finite = score.cast(pl.Float64).filter(score.cast(pl.Float64).is_finite())
        per_dataset += [
            bad.sum().cast(pl.Int64).alias("missing_scores"),
            score.approx_n_unique().cast(pl.Int64).alias("distinct_scores"),
            finite.min().alias(_LOW),
            finite.max().alias(_HIGH),
        ]
    labels_plan = lf.group_by(label_keys).agg(counted)
    labels, summary = collect(
        labels_plan.sort(label_keys, nulls_last=True),
        lf.group_by(dataset).agg(per_dataset).sort(dataset),
    )
    _null_labels(labels, roles)
    classes = labels.group_by(dataset).agg(pl.col(truth).n_unique().alias("classes"))
    binary = sorted(classes.filter(pl.col("classes") == 2)[dataset].to_list())
    null_scores = None
    if roles.score:  # only where a score is read: the binary data sets
        null_scores = (
            labels.filter(pl.col(dataset).is_in(binary))
            .group_by(dataset, learner)
            .agg(pl.col(_NULL_SCORE).sum().alias("rows"))
            .filter(pl.col("rows") > 0)
            .sort(dataset, learner)
        )
        labels = labels.drop(_NULL_SCORE)
    ranges = summary.select(dataset, *(c for c in (_LOW, _HIGH) if c in summary.columns))
    summary = summary.drop(_LOW, _HIGH, strict=False)
    scored: list[Any] = []
    if roles.score:  # a data set with some scores: the score sections skip the rows without
        some = summary.filter(pl.col("missing_scores") < pl.col("predictions"))[dataset]
        scored = [d for d in binary if d in set(some.to_list())]
    counts = Counts(labels, summary, splits, binary, scored, null_scores=null_scores)
    say(STEPS.scoring)
    if scored and roles.score:  # scored data sets exist only with a score column
        keys = [dataset, learner, truth]
        value = pl.col(roles.score)
        rows = lf.filter(pl.col(dataset).is_in(scored) & ~bad).select(*keys, value)
        if score_decimals is not None:
            value = value.cast(pl.Float64).round(score_decimals)
        elif estimated_cells(counts, roles) > GRID_CELLS:
            counts.grid = grid_step(ranges.filter(pl.col(dataset).is_in(scored)))
            counts.rows = rows
            value = on_grid(value, counts.grid)
        rows = rows.select(*keys, value)
        table = score_counts(
            rows,
            keys,
            pl.col(roles.score),
            [pl.len().cast(pl.Int64).alias(N)],
            parts=score_parts(counts, roles),
        )
        (counts.scores,) = collect(table.sort(*keys, roles.score))
    return counts


#: Score-count cells per piece: past this, the score table is built in pieces (see
#: :func:`frameeval.curves.score_counts`) so that the streaming group_by's memory stays bounded.
CELLS_PER_PIECE = 2_500_000


#: Past this many estimated score-count cells (continuous scores on millions of rows), the
#: score table is built on a threshold grid (:func:`grid_step`) and the ranking measures, log
#: loss and Brier are computed from the rows instead.
GRID_CELLS = 1_000_000
#: About this many grid thresholds over the range of the scores.
GRID_POINTS = 1_000
_LOW, _HIGH = "__fe_score_low", "__fe_score_high"


def grid_step(ranges: pl.DataFrame) -> float:
    """The power of ten nearest (largest score − smallest score) / :data:`GRID_POINTS` (so
    ~300–3,000 thresholds over the range; 0.001 for probabilities)."""
    low, high = ranges.select(pl.col(_LOW).min(), pl.col(_HIGH).max()).row(0)
    width = (high - low) if low is not None and high is not None and high > low else 1.0
    return float(10.0 ** round(math.log10(width / GRID_POINTS)))


def on_grid(score: pl.Expr, step: float) -> pl.Expr:
    """``score`` floored to a multiple of ``step``: for a grid threshold t, "floored score ≥ t"
    is "score ≥ t", so every ROC / P-R / cost point of the floored table is an exact point of the
    curve of the rows (the quotient is rounded to 6 decimals before flooring, so a score equal
    to a grid value — 0.3 / 0.001 = 299.99999999999994 — stays on it)."""
    digits = max(0, -math.floor(math.log10(step)))
    cell = (score.cast(pl.Float64) / step).round(6).floor()
    return (cell * step).round(digits)


def estimated_cells(counts: Counts, roles: ReportRoles) -> int:
    """Cells of the exact score count table, estimated from the approximate distinct scores
    per data set (HyperLogLog, from the first scan): at most rows, and at most distinct scores ×
    learners × 2 classes."""
    learners = counts.labels.group_by(roles.dataset).agg(
        pl.col(roles.learner).n_unique().cast(pl.Int64).alias("__fe_k")
    )
    cells = (
        counts.summary.filter(pl.col(roles.dataset).is_in(counts.scored))
        .join(learners, on=roles.dataset)
        .select(
            pl.min_horizontal("predictions", pl.col("distinct_scores") * pl.col("__fe_k") * 2).sum()
        )
        .item()
    )
    return int(cells or 0)


def score_parts(counts: Counts, roles: ReportRoles) -> int:
    """How many pieces the score count table is built in: one while it is small (every piece
    re-reads the input), up to :data:`SCORE_PARTS` for many distinct scores (cells estimated by
    :func:`estimated_cells`; on a grid, at most 2 × 10 × :data:`GRID_POINTS` per data set ×
    learner)."""
    cells = estimated_cells(counts, roles)
    if counts.grid is not None:
        pairs = counts.labels.filter(pl.col(roles.dataset).is_in(counts.scored)).select(
            pl.struct(roles.dataset, roles.learner).n_unique()
        )
        cells = min(cells, int(pairs.item()) * 2 * 10 * GRID_POINTS)
    return int(min(SCORE_PARTS, max(1, -(-cells // CELLS_PER_PIECE))))


def keys_of(roles: ReportRoles) -> list[str]:
    return [roles.dataset, roles.learner]


def missing_cells(per_dataset: pl.DataFrame, roles: ReportRoles) -> pl.DataFrame:
    """``dataset, learner``: the (data set, learner) cells of the data set × learner grid with
    no row in ``per_dataset`` (a failed or missing run), sorted."""
    keys = keys_of(roles)
    grid = (
        per_dataset.select(roles.dataset)
        .unique()
        .join(per_dataset.select(roles.learner).unique(), how="cross")
    )
    return grid.join(per_dataset, on=keys, how="anti", nulls_equal=True).select(keys).sort(keys)


def paired_datasets(per_split: pl.DataFrame, roles: ReportRoles, splits: list[str]) -> pl.DataFrame:
    """``dataset``: the data sets on which every learner has a result on every split (what the
    paired tests of two learners need), sorted."""
    learners = per_split[roles.learner].n_unique()
    cells = per_split.group_by(roles.dataset, *splits).agg(
        pl.col(roles.learner).n_unique().alias("__learners")
    )
    per = cells.group_by(roles.dataset).agg((pl.col("__learners") == learners).all().alias("__ok"))
    return per.filter(pl.col("__ok")).select(roles.dataset).sort(roles.dataset)


def names(values: list[Any], limit: int = 6) -> str:
    shown = ", ".join(str(v) for v in values[:limit])
    return shown + (f" and {len(values) - limit} more" if len(values) > limit else "")


def positive(pos_label: Any) -> dict[str, Any]:
    return {"pos_label": pos_label} if pos_label is not None else {}


def unscored(counts: Counts, roles: ReportRoles) -> str:
    """Why the data sets without curves have none ("" when every data set has them)."""
    every = sorted(counts.summary[roles.dataset].to_list())
    others = [d for d in every if d not in set(counts.scored)]
    multi = [d for d in others if d not in set(counts.binary)]
    missing = [d for d in others if d in set(counts.binary)]
    why = []
    if multi:
        why.append(
            f"{names(multi)} {'has' if len(multi) == 1 else 'have'} 3+ classes — see "
            "the macro / micro table"
        )
    if missing:
        why.append(f"{names(missing)} {'has' if len(missing) == 1 else 'have'} no score on any row")
    return "; ".join(why)


def exact_from_rows(
    counts: Counts, roles: ReportRoles, measures: list[str], pos_label: Any
) -> pl.DataFrame:
    """``dataset, learner, <measure>...`` computed from the rows of the scored data sets
    (:attr:`Counts.rows`) with :func:`frameeval.measures`, one data set at a time (the ranking
    measures sort each learner's rows: a data set's rows are in memory at once, not all of
    them)."""
    assert counts.rows is not None and roles.score is not None
    keys = keys_of(roles)
    plans = [
        measure_set(
            counts.rows.filter(pl.col(roles.dataset) == dataset),
            truth=roles.truth,
            score=roles.score,
            by=keys,
            measures=measures,
            **positive(pos_label),
        )
        for dataset in counts.scored  # loop-ok: one plan per data set, run one after the other
    ]
    (out,) = collect(pl.concat(plans, parallel=False).sort(keys))
    return out


# ---------------------------------------------------------------------------------------------
# The intervals of the answer's per-data-set values (issue 25)
#: The level of the intervals the report shows.
LEVEL = 0.95
#: Bootstrap replicates of the AUC intervals (a percentile interval's bounds move by ~0.005 on
#: a 0.9 AUC between runs of 200 replicates: the report's table prints 3 decimals).
AUC_RESAMPLES = 200
#: Past this many score-count rows × replicates the AUC intervals are left out (the table's
#: title says so): the bootstrap would cost more than the rest of the report (~3 s per million
#: replicate rows on 2 busy cores; the example's one binary data set: ~0.6 million).
AUC_BUDGET = 2_000_000
#: What the intervals are, in the results table's footnote.
ACCURACY_INTERVAL = (
    "95% Wilson interval (the predictions pooled over the folds, each instance counted once "
    "per data set)"
)
AUC_SKIPPED = (
    f"the score count table is too long for {AUC_RESAMPLES} bootstrap replicates in the "
    "report's time (fe.measures(ci=0.95) on the rows gives them)"
)
AUC_INTERVAL = f"95% bootstrap percentile interval ({AUC_RESAMPLES} Poisson replicates, seed 0)"


def accuracy_intervals(counts: Counts, roles: ReportRoles) -> pl.DataFrame:
    """``dataset, learner, accuracy_low, accuracy_high``: the 95 % Wilson interval (Wilson
    1927) of each learner's share of correct predictions on each data set, from the label
    count table. With R repeats every instance is predicted R times: successes and trials are
    divided by R (the predictions of one instance are not independent trials), so the interval
    is that of one pass over the data set's instances."""
    from frameeval.uncertainty.intervals import wilson_interval

    assert roles.pred is not None
    keys = keys_of(roles)
    n = pl.col(N).cast(pl.Float64)
    repeats = pl.col(roles.repeat).n_unique().cast(pl.Float64) if roles.repeat else pl.lit(1.0)
    pooled = counts.labels.group_by(keys).agg(
        (n.filter(pl.col(roles.truth) == pl.col(roles.pred)).sum() / repeats).alias("__s"),
        (n.sum() / repeats).alias("__t"),
    )
    low, high = wilson_interval(pl.col("__s"), pl.col("__t"), LEVEL)
    return pooled.select(*keys, low.alias("accuracy_low"), high.alias("accuracy_high"))


def auc_affordable(counts: Counts) -> bool:
    """Whether the AUC bootstrap fits :data:`AUC_BUDGET` (score-count rows × replicates)."""
    return counts.scores is not None and counts.scores.height * AUC_RESAMPLES <= AUC_BUDGET


def auc_intervals(
    counts: Counts, roles: ReportRoles, pos_label: Any, ranking: pl.DataFrame
) -> pl.DataFrame | None:
    """``dataset, learner, roc_auc_low, roc_auc_high``: the Poisson bootstrap's 95 %
    percentile interval of each AUC, from the score count table
    (:func:`frameeval.uncertainty.intervals.count_table_intervals`, :data:`AUC_RESAMPLES`
    replicates, seed 0); None past :data:`AUC_BUDGET`. With R repeats the half-widths are
    multiplied by √R (an instance's R predictions counted as one: conservative). On a
    threshold grid (:attr:`Counts.grid`) the replicates are of the gridded table's AUC, and
    the interval is moved by the difference to the exact AUC."""
    from frameeval.uncertainty.intervals import count_table_intervals

    if counts.scores is None or roles.score is None or not auc_affordable(counts):
        return None
    keys = keys_of(roles)
    bounds = count_table_intervals(
        counts.scores,
        roles.truth,
        roles.score,
        by=keys,
        count=N,
        measures=["roc_auc"],
        level=LEVEL,
        n_resamples=AUC_RESAMPLES,
        seed=0,
        **positive(pos_label),
    )
    (out,) = collect(bounds.sort(keys))
    repeats = max(1, int(counts.labels[roles.repeat].n_unique())) if roles.repeat else 1
    if repeats > 1 or counts.grid is not None:
        centre = ranking.select(*keys, "roc_auc")
        if counts.grid is not None:  # the gridded table's AUC: the centre of the replicates
            centre = ranking_report(
                counts.scores,
                truth=roles.truth,
                score=roles.score,
                by=keys,
                weight=N,
                **positive(pos_label),
            ).select(*keys, "roc_auc")
        exact = ranking.select(*keys, pl.col("roc_auc").alias("__exact"))
        scale = math.sqrt(repeats)
        a = pl.col("roc_auc")
        out = (
            out.join(centre, on=keys, how="left", nulls_equal=True)
            .join(exact, on=keys, how="left", nulls_equal=True)
            .select(
                *keys,
                *[  # each bound's distance from the replicates' centre, scaled, around the exact
                    (pl.col("__exact") + scale * (pl.col(bound) - a)).clip(0.0, 1.0).alias(bound)
                    for bound in ("roc_auc_low", "roc_auc_high")
                ],
            )
        )
    return out
