"""The self-contained HTML report: :func:`report` assembles frames and charts (it computes no
statistic itself) and writes one offline HTML file atomically."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from frameeval._frame import as_keys, to_lazy
from frameeval._validate import check_alpha, check_rope
from frameeval.report.build import Progress, build_page, build_report
from frameeval.report.page import Page, check_new, write_atomic
from frameeval.report.roles import (
    Resolved,
    Roles,
    check_level,
    infer_roles,
    read_results,
    resolve,
    with_forecast,
)
from frameeval.report.sections import Options

__all__ = ["Page", "Roles", "build_report", "infer_roles", "read_results", "report", "write"]
__all__ += ["check_level"]


def report(
    data: Any,
    path: str | Path,
    *,
    truth: str | None = None,
    pred: str | None = None,
    score: str | None = None,
    learner: str | None = None,
    dataset: str | None = None,
    fold: str | None = None,
    repeat: str | None = None,
    instance: str | None = None,
    alpha: float = 0.05,
    rope: float | None = None,
    cost01: float = 1.0,
    cost10: float = 1.0,
    pos_label: Any = None,
    title: str = "frameeval report",
    force: bool = False,
    progress: Progress | None = None,
    score_decimals: int | None = None,
    task: str | None = None,
    lower: str | None = None,
    upper: str | None = None,
    quantile: str | None = None,
    level: float = 0.9,
    source: str | None = None,
    sensitive: str | list[str] | None = None,
) -> Path:
    """Write a self-contained HTML report of a result frame to ``path``.

    Roles not given are inferred from well-known column names (``y_true``, ``model``, ``fold``…).
    Sections: data summary; label measures per data set and learner (accuracy, macro / micro
    P, R, F1 — both macro-F1 definitions — and confusion matrices); ROC, P-R and cost curves for
    binary tasks with a score; the comparison tests (Friedman, Nemenyi with CD diagrams; paired t
    and McNemar when there are two learners). The first section answers: for each measure
    compared, which learner is best and what the tests allow one to say, the results table (a
    CSV download) and the CD diagram. The input is streamed into small count tables (never held
    in memory): see docs/scale.md. ``score_decimals`` rounds scores before the curve analysis
    (for continuous scores on very large inputs; the page says so). ``rope`` — the half-width
    of a region of practical equivalence in the units of accuracy and AUC (e.g. 0.01, one
    point) — makes the answer the Bayesian signed-rank test's (Benavoli et al. 2017) with a
    matrix of every pair's posterior probabilities.

    ``task`` — ``"classification"`` or ``"regression"``; by default detected (a truth or pred
    column with non-integral numbers is a regression) and said in the Data section. A
    regression report answers on RMSE (lower is better) with the same comparison machinery,
    then shows the regression measures, the residuals and, when the results have them, the
    prediction intervals ``lower``/``upper`` (central ``level`` intervals) and the quantile
    forecasts (``quantile``: the level of each row's predicted quantile ``pred``); those
    columns are inferred from their common names (lower, upper, quantile…) when not given.
    ``source`` names the input on the page (the file the results were read from): results
    without a data-set column are one data set named after it (its stem).
    ``sensitive`` — column(s) whose groups (their intersections, for several) the Subgroups
    section compares: each learner's gaps between groups with intervals, learners' gaps
    compared on the same rows, the slices where the widest-gapped learner errs most
    (classification; see docs/subgroups.md).
    ``progress`` is called with
    each step of :data:`frameeval.report.build.STEPS`. The file works offline (Vega is inlined),
    is written atomically, and is not overwritten unless ``force=True``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "report.html"
    >>> small = fe.datasets.example_results().filter(pl.col("dataset").is_in(["iris", "wine"]))
    >>> fe.write_report(small, out).name
    'report.html'
    """

    check_new(path, force)  # fail before the work, not after it
    check_alpha(alpha, "report")  # before the work: the tests would check them after it
    if rope is not None:
        check_rope(rope, "report")
    lf, _ = to_lazy(data, "report")
    given = Roles(truth, pred, score, learner, dataset, fold, repeat, instance)
    keys = as_keys(sensitive)
    resolved = resolve(lf, given, task=task, sensitive=keys)  # before any work
    forecast = {"lower": lower, "upper": upper, "quantile": quantile}
    resolved = with_forecast(lf, resolved, forecast, level)
    options = Options(
        alpha, rope, cost01, cost10, pos_label, score_decimals, source or "", tuple(keys)
    )
    return write(lf, path, resolved, options, title=title, force=force, progress=progress)


def write(
    data: Any,
    path: str | Path,
    resolved: Resolved,
    options: Options,
    *,
    title: str = "frameeval report",
    force: bool = False,
    progress: Progress | None = None,
) -> Path:
    """Write the report of results whose columns were resolved once
    (:func:`~frameeval.report.roles.resolve`: the roles inferred, the task checked) to
    ``path``: :func:`report` and the command line both end here."""
    lf, _ = to_lazy(data, "report")
    page = build_page(lf, resolved, options, title=title, progress=progress)
    return write_atomic(path, page.render(), force=force)
