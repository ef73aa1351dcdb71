"""Assemble the HTML report from frameeval's frames and charts. Computes no statistic itself:
every number comes from the library's public functions; this module only chooses what to show.

It scales by never holding the predictions. The (lazy) input is scanned with Polars' streaming
engine into two small count tables, and everything else runs on them with ``weight=`` (integer
weights are repeated rows, so every result is the same as on the rows themselves):

* **label counts**: rows per data set × learner × split (repeat, fold) × truth × pred — the
  sufficient statistics of every label measure, confusion matrix, per-fold accuracy and test;
* **score counts**: rows per data set × learner × truth × distinct score, for the binary data
  sets with a score (rows without one skipped, and counted) — the mergeable table behind ROC, AUC, P-R and cost curves
  (built in pieces by :func:`frameeval.curves.score_counts` to bound the streaming memory).

Only McNemar's test (two learners, an ``instance`` column) pairs single predictions; it runs as
its own streamed plan. Curves are thinned by the chart functions before they reach the page.
"""

from __future__ import annotations

import warnings
from typing import Any

import polars as pl

from frameeval._frame import to_lazy
from frameeval.report.answer import reader_caveat
from frameeval.report.calibration import CALIBRATION
from frameeval.report.classification import ANSWER, DATA, MEASURES, ClassificationStudy
from frameeval.report.comparison import COMPARISON
from frameeval.report.curves import CURVES
from frameeval.report.page import Page
from frameeval.report.regression import REGRESSION, RegressionStudy
from frameeval.report.roles import Resolved, Roles, check_task, filled
from frameeval.report.sections import Forecast, Options, Section, Study, render
from frameeval.report.subgroups import SUBGROUPS
from frameeval.report.tables import STEPS, N, Progress, count_tables

__all__ = ["CLASSIFICATION", "SECTIONS", "STEPS", "build_page", "build_report", "input_name"]
__all__ += ["N", "Progress", "count_tables"]  # the count tables, for the tests and docs

#: The classification page, in order.
CLASSIFICATION: tuple[Section, ...] = (ANSWER, DATA, MEASURES, CURVES, CALIBRATION, COMPARISON)
#: Every section of the report, in page order; :func:`build_report` draws those that apply.
SECTIONS: tuple[Section, ...] = CLASSIFICATION + REGRESSION + SUBGROUPS
#: The study each task's sections read (their shared tables as typed attributes).
STUDIES: dict[str, type[Study]] = {
    "classification": ClassificationStudy,
    "regression": RegressionStudy,
}


def build_report(
    data: Any,
    roles: Roles,
    *,
    alpha: float = 0.05,
    rope: float | None = None,
    cost01: float = 1.0,
    cost10: float = 1.0,
    pos_label: Any = None,
    title: str = "frameeval report",
    source: str = "",
    progress: Progress | None = None,
    score_decimals: int | None = None,
    task: str | None = None,
    forecast: Forecast | None = None,
    task_detected: bool | None = None,
    sensitive: tuple[str, ...] = (),
) -> Page:
    """Build the report page for a result frame whose columns are named by ``roles``.

    ``task`` (``"classification"`` or ``"regression"``; None: detected by
    :func:`~frameeval.report.roles.check_task`) chooses the sections: this function only
    builds the :class:`~frameeval.report.sections.Study` and draws, in the order of
    :data:`SECTIONS`, every section that applies to it. ``forecast`` names the interval and
    quantile columns of a regression (their sections appear when they are given).
    ``task_detected=True`` says that ``task`` was detected by the caller (the page says
    "detected").

    ``score_decimals`` rounds the scores before the ROC / P-R / cost analysis (every distinct
    score is a row of its count table: continuous scores on tens of millions of rows make that
    table as long as the input); the page says so. ``None`` keeps them exact — and past
    :data:`~frameeval.report.tables.GRID_CELLS` estimated score cells builds the curves on a
    threshold grid (exact points, :func:`~frameeval.report.tables.on_grid`) while AUC, AP, log
    loss and Brier come exactly from the rows; the page says so too. ``rope`` (a region of
    practical equivalence, in the units of accuracy and AUC) makes the answer Bayesian
    (:func:`frameeval.compare_learners` with ``rope=``)."""
    lf, _ = to_lazy(data, "report")
    found = check_task(lf, roles, "report()", lambda role: f"{role}=", task)
    detected = task is None or bool(task_detected)
    resolved = Resolved(
        roles, found, "detected" if detected else "given", forecast=forecast or Forecast()
    )
    options = Options(
        alpha, rope, cost01, cost10, pos_label, score_decimals, source, tuple(sensitive)
    )
    return build_page(lf, resolved, options, title=title, progress=progress)


def build_page(
    lf: pl.LazyFrame,
    resolved: Resolved,
    options: Options,
    *,
    title: str = "frameeval report",
    progress: Progress | None = None,
) -> Page:
    """The page of results whose columns were resolved once
    (:func:`~frameeval.report.roles.resolve`): no check again, the study of the task, and
    every section of :data:`SECTIONS` that belongs to it, in order."""
    names = lf.collect_schema().names()
    present = resolved.roles  # the columns of the results, as given (never mutated)
    roles = filled(present, names)
    if present.dataset is None:  # one data set: a constant column, named by the input
        lf = lf.with_columns(pl.lit(input_name(options.source)).alias(roles.dataset))
    if present.learner is None:  # one learner: a constant column
        lf = lf.with_columns(pl.lit("model").alias(roles.learner))
    study = STUDIES[resolved.task](
        task=resolved.task,
        lf=lf,
        roles=roles,
        present=present,
        unused=resolved.unused(names),
        forecast=resolved.forecast,
        options=options,
        task_source=resolved.task_source,
        say=progress if progress is not None else (lambda message: None),
        warn=getattr(progress, "warn", lambda message: None),
    )
    page = Page(title=title)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        render(page, study, SECTIONS)
    for note in dict.fromkeys(reader_caveat(str(w.message)) for w in caught):
        page.text(f"Note: {note}", css="note")  # none expected: each section says its own
    return page


def input_name(source: str) -> str:
    """The name of the one data set of results without a data-set column: the input file's
    stem (``runs/iris.parquet`` → ``iris``; a glob → its folder), else ``"one data set"``."""
    from pathlib import PurePath

    if not source:
        return "one data set"
    path = PurePath(source)
    stem = path.parent.name if any(c in path.name for c in "*?[") else path.stem
    return stem or "one data set"
