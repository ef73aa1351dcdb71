"""The report's "Calibration and operating point" section (issues 16 and 18)."""

from __future__ import annotations

from typing import Any

import polars as pl

from frameeval import charts
from frameeval.calibration import calibration_curve, calibration_error
from frameeval.measure_set import measures
from frameeval.metrics import brier_score, log_loss
from frameeval.report.classification import ClassificationStudy, per_dataset, section
from frameeval.report.curves import skipped_lines
from frameeval.report.tables import REFERENCES, STEPS, N, collect, keys_of, positive, unscored
from frameeval.thresholds import best_threshold

#: Bins of the report's calibration curves and errors.
CALIBRATION_BINS = 10
#: Size of one reliability diagram (three fit side by side in the page).
CALIBRATION_SIZE = 230


def _calibration(page: Any, study: ClassificationStudy) -> None:
    """Calibration (reliability diagrams, log loss, Brier, ECE) and operating points (best
    threshold by F1 and by cost) per data set × learner, from the score count table with its
    counts as frequency weights: the same numbers as on the rows, and no pass over them."""
    page.heading("Calibration and operating point", REFERENCES["calibration"])
    skipped_lines(page, study, "Calibration and operating point")
    roles, o, scores = study.roles, study.options, study.counts.scores
    assert scores is not None and roles.score is not None  # else the section does not apply
    keys = keys_of(roles)
    kw: dict[str, Any] = dict(
        truth=roles.truth, score=roles.score, by=keys, weight=N, **positive(o.pos_label)
    )
    lazy = scores.lazy()
    curve, errors, scoring, by_f1, by_cost = collect(
        calibration_curve(lazy, bins=CALIBRATION_BINS, frequency_weights=True, **kw),
        calibration_error(lazy, bins=CALIBRATION_BINS, **kw),
        _scoring_rules(study),
        best_threshold(lazy, measure="f1", **kw),
        best_threshold(lazy, costs=(o.cost01, o.cost10), **kw),
    )
    page.table(
        scoring.join(errors, on=keys).sort(keys),
        caption="Probability quality per learner and data set (pooled over folds; lower is "
        f"better): log loss, Brier score, ECE and MCE over {CALIBRATION_BINS} equal-width bins",
    )
    points = (
        by_f1.select(*keys, pl.col("threshold").alias("threshold_f1"), "f1")
        .join(
            by_cost.select(*keys, pl.col("threshold").alias("threshold_cost"), "expected_cost"),
            on=keys,
        )
        .sort(keys)
    )
    page.table(
        points,
        caption="Operating points (positive iff score ≥ threshold): the threshold of best F1, "
        f"and of least expected cost at cost01 = {o.cost01:g}, cost10 = {o.cost10:g} with the "
        "observed class prior (normalised, eq 2.25)",
    )
    page.text(
        "Thresholds are chosen on the same predictions they are scored on, pooled over the "
        "folds: an optimistic estimate — tune the threshold on a validation split (§2.2)."
    )
    _diagrams(page, study, curve)


def _scoring_rules(study: ClassificationStudy) -> pl.LazyFrame:
    """Log loss and Brier score per data set × learner: from the score count table, or from
    the rows when that table is on a grid."""
    counts, roles, pos_label = study.counts, study.roles, study.options.pos_label
    assert counts.scores is not None and roles.score is not None
    keys = keys_of(roles)
    if counts.rows is not None:  # the table is on a grid: the scoring rules from the rows
        return measures(
            counts.rows, truth=roles.truth, score=roles.score, by=keys,
            measures=["log_loss", "brier_score"], **positive(pos_label),
        )  # fmt: skip
    return (
        counts.scores.lazy()
        .group_by(keys)
        .agg(
            log_loss(roles.truth, roles.score, weight=N, **positive(pos_label)),
            brier_score(roles.truth, roles.score, weight=N, **positive(pos_label)),
        )
    )


def _diagrams(page: Any, study: ClassificationStudy, curve: pl.DataFrame) -> None:
    """The reliability diagrams of each data set, a panel per learner."""
    roles = study.roles
    # the count table's weights are rows: the histogram shows rows per bin
    shown = curve.drop("count").rename({"weight": "count"})
    per_dataset(
        page,
        shown,
        roles.dataset,
        lambda dataset: f"Reliability diagrams (Wilson 95% intervals): {dataset}",
        lambda rows, title: charts.calibration(
            rows,
            facet=roles.learner,
            title=title,
            width=CALIBRATION_SIZE,
            height=CALIBRATION_SIZE,
            histogram_height=60,
        ),
    )


def _why_not(study: ClassificationStudy) -> str | None:
    """Why there is no calibration: no score column, no binary data set with scores, or
    scores that are not probabilities."""
    what = "Calibration and operating point"
    if study.roles.score is None:
        return f"{what}: {study.unused.why('score')}."
    scores = study.counts.scores
    if scores is None:
        why = unscored(study.counts, study.roles) or "there is none"
        return f"{what}: binary data sets with scores only; {why}."
    value = pl.col(study.roles.score).cast(pl.Float64)
    low, high = scores.select(value.min(), value.max().alias("high")).row(0)
    if low >= 0 and high <= 1:
        return None
    return (
        f"{what}: scores are not probabilities — they range over [{low:.4g}, {high:.4g}], "
        "outside [0, 1]; see the ROC and cost curves above for ranking and cost."
    )


CALIBRATION = section(
    "calibration", _calibration, STEPS.calibration, "Calibration and operating point", _why_not
)
