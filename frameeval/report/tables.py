"""The small tables the report is drawn from, and the helpers its sections share.

:func:`count_tables` scans the (lazy) input once, with Polars' streaming engine, into the label
count table (rows per data set × learner × split × truth × pred) and the score count table
(rows per data set × learner × truth × distinct score, binary data sets with a score on every
row); every section then computes on them with ``weight=N`` (integer weights are repeated rows).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import polars as pl

from frameeval._frame import translate
from frameeval.curves import SCORE_PARTS, score_counts
from frameeval.report.roles import ReportRoles

Progress = Callable[[str], None]

#: The steps announced to ``progress`` (in order); the CLI's progress bar counts them.
STEPS = (
    "counting predictions per data set, learner and split",
    "counting scores per data set and learner",
    "comparing learners",
    "data summary",
    "performance measures",
    "ROC, P-R and cost curves",
    "calibration and operating points",
    "comparison tests",
)

#: The weight column of the count tables.
N = "__fe_n"
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
    "(eq 2.33); Dietterich (1998).",
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
    scored: list[Any]  # ... and a score on every row
    scores: pl.DataFrame | None = None  # dataset, learner, truth, score, N


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
    say(STEPS[0])
    label_keys = [dataset, learner, *splits, truth, *([roles.pred] if roles.pred else [])]
    labels_plan = lf.group_by(label_keys).agg(pl.len().cast(pl.Int64).alias(N))
    per_dataset = [pl.len().cast(pl.Int64).alias("predictions")]
    if roles.instance:
        per_dataset.insert(0, pl.col(roles.instance).n_unique().cast(pl.Int64).alias("instances"))
    if roles.score:
        score = pl.col(roles.score)
        bad = score.is_null() | (
            score.is_nan() if lf.collect_schema()[roles.score].is_float() else pl.lit(False)
        )
        per_dataset.append(bad.sum().cast(pl.Int64).alias("missing_scores"))
        per_dataset.append(score.approx_n_unique().cast(pl.Int64).alias("distinct_scores"))
    labels, summary = collect(
        labels_plan.sort(label_keys, nulls_last=True),
        lf.group_by(dataset).agg(per_dataset).sort(dataset),
    )
    classes = labels.group_by(dataset).agg(pl.col(truth).n_unique().alias("classes"))
    binary = sorted(classes.filter(pl.col("classes") == 2)[dataset].to_list())
    scored: list[Any] = []
    if roles.score:
        complete = summary.filter(pl.col("missing_scores") == 0)[dataset].to_list()
        scored = [d for d in binary if d in set(complete)]
    counts = Counts(labels, summary, splits, binary, scored)
    say(STEPS[1])
    if scored and roles.score:  # scored data sets exist only with a score column
        keys = [dataset, learner, truth]
        value = pl.col(roles.score)
        if score_decimals is not None:
            value = value.cast(pl.Float64).round(score_decimals)
        rows = lf.filter(pl.col(dataset).is_in(scored)).select(*keys, value)
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


def score_parts(counts: Counts, roles: ReportRoles) -> int:
    """How many pieces the score count table is built in: one while it is small (every piece
    re-reads the input), up to :data:`SCORE_PARTS` for many distinct scores. The number of cells
    is estimated from the approximate distinct scores per data set (HyperLogLog, from the first
    scan): at most rows, and at most distinct scores × learners × 2 classes."""
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
    return int(min(SCORE_PARTS, max(1, -(-(cells or 0) // CELLS_PER_PIECE))))


def keys_of(roles: ReportRoles) -> list[str]:
    return [roles.dataset, roles.learner]


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
        why.append(
            f"{names(missing)} {'lacks' if len(missing) == 1 else 'lack'} a score on some rows"
        )
    return "; ".join(why)
