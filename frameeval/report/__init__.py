"""The self-contained HTML report: :func:`report` assembles frames and charts (it computes no
statistic itself) and writes one offline HTML file atomically."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from frameeval.report.build import Progress, build_report
from frameeval.report.page import Page, write_atomic
from frameeval.report.roles import (
    Roles,
    check_task,
    infer_forecast,
    infer_roles,
    read_results,
)
from frameeval.report.sections import Forecast

__all__ = ["Page", "Roles", "build_report", "infer_roles", "read_results", "report"]


def check_level(level: float, where: str = "report()", flag: str = "level=") -> None:
    """A prediction interval's nominal coverage must lie in (0, 1)."""
    from frameeval.exceptions import InvalidParameterError

    ok = isinstance(level, int | float) and not isinstance(level, bool) and 0 < level < 1
    if not ok:
        raise InvalidParameterError(f"{where}: {flag} must be in (0, 1), got {level!r}.")


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
    >>> import frameeval as fe, polars as pl, tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "report.html"
    >>> small = fe.datasets.example_results().filter(pl.col("dataset").is_in(["iris", "wine"]))
    >>> fe.write_report(small, out).name
    'report.html'
    """
    from frameeval._frame import as_keys, to_lazy
    from frameeval._validate import check_alpha, check_rope, require_columns
    from frameeval.exceptions import InvalidParameterError

    if Path(path).exists() and not force:  # fail before the work, not after it
        raise InvalidParameterError(
            f"report(): output {str(path)!r} exists; refusing to overwrite it, got no --force.\n"
            "Hint: pass --force (force=True) or choose another path."
        )
    check_alpha(alpha, "report")  # before the work: the tests would check them after it
    if rope is not None:
        check_rope(rope, "report")
    lf, _ = to_lazy(data, "report")
    given = Roles(
        truth=truth,
        pred=pred,
        score=score,
        learner=learner,
        dataset=dataset,
        fold=fold,
        repeat=repeat,
        instance=instance,
    )
    roles, _ = infer_roles(lf.collect_schema(), given)
    require_columns(lf.collect_schema(), "report", sensitive=as_keys(sensitive))
    spell = lambda role: f"{role}="  # noqa: E731
    found = check_task(lf, roles, "report()", spell, task)  # before any work
    forecast = Forecast(level=level)
    if found == "regression":
        check_level(level)
        columns, _ = infer_forecast(
            lf.collect_schema(),
            roles,
            {"lower": lower, "upper": upper, "quantile": quantile},
            "report()",
            spell,
        )
        forecast = Forecast(**columns, level=level)
    page = build_report(
        lf,
        roles,
        alpha=alpha,
        rope=rope,
        cost01=cost01,
        cost10=cost10,
        pos_label=pos_label,
        title=title,
        progress=progress,
        score_decimals=score_decimals,
        task=found,
        forecast=forecast,
        task_detected=task is None,
        source=source or "",
        sensitive=tuple(as_keys(sensitive)),
    )
    return write_atomic(path, page.render(), force=force)
