"""The report's "ROC, P-R and cost curves" section: ranking quality per binary data set with
scores × learner (AUC, average precision, break-even point, expected total cost, cost error)
and the three pictures, from the score count table with its counts as frequency weights."""

from __future__ import annotations

from typing import Any

import polars as pl

from frameeval import charts
from frameeval.curves import (
    break_even_point,
    cost_curve,
    cost_lines,
    expected_total_cost,
    pr_curve,
    roc_curve,
)
from frameeval.metrics import cost_error
from frameeval.report.classification import ClassificationStudy, section
from frameeval.report.sections import lacking
from frameeval.report.tables import (
    REFERENCES,
    STEPS,
    N,
    estimated_cells,
    keys_of,
    null_scores_line,
    positive,
    unscored,
)

__all__ = ["CURVES"]

#: The side of a single (unfaceted) ROC, P-R or cost chart: with its legend it fills the page.
CURVE_SIZE = 460
#: More learners than this: curve charts carry no in-panel numbers (they are in the table).
MAX_ANNOTATED = 6


def _notes(page: Any, study: ClassificationStudy) -> None:
    """How the scores were read: on a threshold grid, or rounded (before the heading)."""
    counts, decimals = study.counts, study.options.score_decimals
    if counts.grid is not None:
        page.text(
            f"{estimated_cells(counts, study.roles):,} distinct (data set, learner, class, "
            "score) cells: the curves, operating points and reliability diagrams use "
            f"thresholds on a grid of step {counts.grid:g} (scores floored to it, so "
            "every point drawn is an exact point of the curve of the rows, but points "
            "between grid values are not drawn); AUC, rank loss, average precision, the "
            "P-R area, log loss and Brier score are exact, from the rows "
            "(pass --score-decimals to round instead).",
            css="note",
        )
    if decimals is not None and counts.scores is not None:
        page.text(
            f"Scores are rounded to {decimals} decimals for the ROC, AUC, "
            "P-R, cost and calibration analysis (score_decimals / --score-decimals).",
            css="note",
        )


def skipped_lines(page: Any, study: ClassificationStudy, what: str) -> None:
    """The rows whose score is null (a note), and the data sets without ``what`` (a skip
    line), under a score section's heading."""
    skipped = null_scores_line(study.counts, study.roles)
    if skipped:  # beside the section it affects (and on stderr from the CLI)
        page.text(f"{skipped[0].upper()}{skipped[1:]}.", css="note")
    why = unscored(study.counts, study.roles)
    if why:
        page.text(f"{what}: binary data sets with scores only; {why}.", css="skip")


def _curves(page: Any, study: ClassificationStudy) -> None:
    _notes(page, study)
    page.heading("ROC, P-R and cost curves", REFERENCES["curves"])
    skipped_lines(page, study, "ROC, P-R and cost curves")
    if study.counts.scores is None:
        return
    kw: dict[str, Any] = dict(
        truth=study.roles.truth, score=study.roles.score, by=keys_of(study.roles), weight=N,
        **positive(study.options.pos_label),
    )  # fmt: skip
    bep = break_even_point(study.counts.scores, **kw)
    etc = expected_total_cost(study.counts.scores, **kw)
    _table(page, study, bep, etc)
    _charts(page, study, kw, bep, etc)


def _table(page: Any, study: ClassificationStudy, bep: pl.DataFrame, etc: pl.DataFrame) -> None:
    """Ranking quality per learner: AUC, AP, BEP, expected total cost and the cost error."""
    counts, roles, o = study.counts, study.roles, study.options
    assert study.ranking is not None  # the section draws this with scores
    keys = keys_of(roles)
    table = (
        study.ranking.select(*keys, "roc_auc", "average_precision")
        .join(bep, on=keys)
        .join(etc, on=keys)
    )
    if roles.pred is not None:
        labels = counts.labels.filter(pl.col(roles.dataset).is_in(counts.scored))
        costs = dict(cost01=o.cost01, cost10=o.cost10, weight=N) | positive(o.pos_label)
        costly = labels.group_by(keys).agg(cost_error(roles.truth, roles.pred, **costs))
        table = table.join(costly, on=keys)
    page.table(
        table.sort(keys),
        caption="Ranking quality per learner (pooled over folds); "
        f"cost error is eq 2.23 at cost01 = {o.cost01:g}, cost10 = {o.cost10:g}",
    )


def _charts(
    page: Any, study: ClassificationStudy, kw: dict[str, Any], bep: pl.DataFrame, etc: pl.DataFrame
) -> None:
    """The ROC, P-R and cost curves: one data set, curves by learner with the numbers in the
    legend; several, a panel per data set with the numbers in the panels while they fit (else
    in the table above)."""
    roles, scores, ranking = study.roles, study.counts.scores, study.ranking
    assert scores is not None and ranking is not None
    learners = scores[roles.learner].n_unique()
    one = len(study.counts.scored) == 1
    by = [roles.learner] if one else keys_of(roles)
    if one:
        scores = scores.drop(roles.dataset)
        kw["by"] = by
        ranking, bep, etc = (f.drop(roles.dataset) for f in (ranking, bep, etc))
    facet = None if one else roles.dataset
    annotate = one or learners <= MAX_ANNOTATED
    note = "" if annotate else " (AUC, BEP and expected cost per learner: see the table above)"
    # one panel: a large square that, with its legend, fills the page; panels: the default
    common: dict[str, Any] = dict(color=roles.learner, facet=facet)
    if facet is None:
        common |= {"width": CURVE_SIZE, "height": CURVE_SIZE}
    auc = ranking.select(*by, "roc_auc") if annotate else None
    page.chart(charts.roc(roc_curve(scores, **kw), auc=auc, title=f"ROC curves{note}", **common))
    page.chart(
        charts.pr(
            pr_curve(scores, **kw),
            break_even=bep if annotate else None,
            title="Precision–recall curves",
            **common,
        )  # fmt: skip
    )
    page.chart(
        charts.cost_curve(
            cost_curve(scores, **kw),
            lines=cost_lines(scores, **kw),
            expected_cost=etc if annotate else None,
            title="Cost curves and expected total cost",
            **common,
        )  # fmt: skip
    )


WHAT = "ROC, P-R and cost curves"
CURVES = section("curves", _curves, STEPS.curves, WHAT, lacking("score", WHAT))
