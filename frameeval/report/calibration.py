"""The report's "Calibration and operating point" section (issues 16 and 18)."""

from __future__ import annotations

import html
from typing import Any

import polars as pl

from frameeval import charts
from frameeval.calibration import calibration_curve, calibration_error
from frameeval.measure_set import measures
from frameeval.metrics import brier_score, log_loss
from frameeval.report.page import Page
from frameeval.report.roles import ReportRoles, Unused
from frameeval.report.tables import (
    MAX_FACETS,
    REFERENCES,
    Counts,
    N,
    collect,
    keys_of,
    null_scores_line,
    positive,
    unscored,
)
from frameeval.thresholds import best_threshold

#: Bins of the report's calibration curves and errors.
CALIBRATION_BINS = 10
#: Size of one reliability diagram (three fit side by side in the page).
CALIBRATION_SIZE = 230


def calibration_section(
    page: Page,
    counts: Counts,
    roles: ReportRoles,
    unused: Unused,
    pos_label: Any,
    cost01: float,
    cost10: float,
) -> None:
    """Calibration (reliability diagrams, log loss, Brier, ECE) and operating points (best
    threshold by F1 and by cost) per data set × learner, from the score count table with its
    counts as frequency weights: the same numbers as on the rows, and no pass over them."""
    page.heading("Calibration and operating point", REFERENCES["calibration"])
    scores = counts.scores
    if roles.score is None:
        page.text(f"Calibration and operating point: {unused.why('score')}.", css="skip")
        return
    if scores is None:
        page.text(
            "Calibration and operating point: binary data sets with scores only; "
            f"{unscored(counts, roles) or 'there is none'}.",
            css="skip",
        )
        return
    value = pl.col(roles.score).cast(pl.Float64)
    low, high = scores.select(value.min(), value.max().alias("high")).row(0)
    if not (low >= 0 and high <= 1):
        page.text(
            "Calibration and operating point: scores are not probabilities — they range over "
            f"[{low:.4g}, {high:.4g}], outside [0, 1]; see the ROC and cost curves above for "
            "ranking and cost.",
            css="skip",
        )
        return
    skipped = null_scores_line(counts, roles)
    if skipped:
        page.text(f"{skipped[0].upper()}{skipped[1:]}.", css="note")
    why = unscored(counts, roles)
    if why:
        page.text(
            f"Calibration and operating point: binary data sets with scores only; {why}.",
            css="skip",
        )
    keys = keys_of(roles)
    kw: dict[str, Any] = dict(
        truth=roles.truth, score=roles.score, by=keys, weight=N, **positive(pos_label)
    )
    lazy = scores.lazy()
    if counts.rows is not None:  # the table is on a grid: the scoring rules from the rows
        scored = measures(
            counts.rows,
            truth=roles.truth,
            score=roles.score,
            by=keys,
            measures=["log_loss", "brier_score"],
            **positive(pos_label),
        )
    else:
        scored = lazy.group_by(keys).agg(
            log_loss(roles.truth, roles.score, weight=N, **positive(pos_label)),
            brier_score(roles.truth, roles.score, weight=N, **positive(pos_label)),
        )
    curve, errors, scoring, by_f1, by_cost = collect(
        calibration_curve(lazy, bins=CALIBRATION_BINS, frequency_weights=True, **kw),
        calibration_error(lazy, bins=CALIBRATION_BINS, **kw),
        scored,
        best_threshold(lazy, measure="f1", **kw),
        best_threshold(lazy, costs=(cost01, cost10), **kw),
    )
    table = scoring.join(errors, on=keys).sort(keys)
    page.table(
        table,
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
        f"and of least expected cost at cost01 = {cost01:g}, cost10 = {cost10:g} with the "
        "observed class prior (normalised, eq 2.25)",
    )
    page.text(
        "Thresholds are chosen on the same predictions they are scored on, pooled over the "
        "folds: an optimistic estimate — tune the threshold on a validation split (§2.2)."
    )
    # the count table's weights are rows: the histogram shows rows per bin
    shown = curve.drop("count").rename({"weight": "count"})
    datasets = sorted(shown[roles.dataset].unique().to_list())
    folded = len(datasets) > MAX_FACETS
    for dataset in datasets:  # loop-ok: one chart per data set
        sub = shown.filter(pl.col(roles.dataset) == dataset).drop(roles.dataset)
        title = f"Reliability diagrams (Wilson 95% intervals): {dataset}"
        if folded:
            page.raw(f"<details><summary>{html.escape(title)}</summary>")
        page.chart(
            charts.calibration(
                sub,
                facet=roles.learner,
                title=title,
                width=CALIBRATION_SIZE,
                height=CALIBRATION_SIZE,
                histogram_height=60,
            )
        )
        if folded:
            page.raw("</details>")
