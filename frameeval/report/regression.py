"""The report's regression sections: a result table with numeric truth and predictions.

The answer compares learners on RMSE (lower is better) per data set with
:func:`frameeval.compare_learners` — the same verdict, results table and CD diagram as the
classification answer (:func:`frameeval.report.answer.answer`) — then come the Data section,
the measures per data set × learner (:func:`frameeval.measures`), the pictures of the residuals
(binned: aggregates only), and, when the results carry them, the prediction intervals
(``lower``/``upper``) and quantile forecasts (``quantile``). Computes no statistic itself.

With a ``quantile`` column the results hold one row per instance × level (``pred`` is the
predicted quantile): the point measures and the answer use the median's rows (level 0.5).
"""

from __future__ import annotations

import math
from functools import cached_property
from typing import Any

import polars as pl

from frameeval import charts
from frameeval.compare.auto import TEST_NAMES
from frameeval.forecast import interval_coverage, interval_score, interval_width, quantile_scores
from frameeval.measure_set import measures
from frameeval.metrics import MEASURES, rmse
from frameeval.metrics.measure import display_name
from frameeval.report.answer import Answer, answer, draw_answers, split_words
from frameeval.report.page import Page
from frameeval.report.sections import Section, Study, data_lines, named, unused_lines
from frameeval.report.tables import MAX_FACETS, collect, names

__all__ = ["REGRESSION", "REGRESSION_MEASURES", "REGRESSION_STEPS", "RegressionStudy"]

#: The measures of the measures table, in this order (those of :data:`frameeval.MEASURES`).
#: All stream in bounded memory (sums, and the maximum); the median absolute error is left
#: out: it needs every residual of a group at once (on a 20M-row study the page's peak memory
#: went from about 1 to over 3 GiB with it).
REGRESSION_MEASURES = ("rmse", "mae", "r2", "mape", "max_error", "mean_error", "ccc")


REFERENCES = {
    "summary": "Zhou, Machine Learning, §2.2 (evaluation methods: hold-out, cross-validation, "
    "bootstrap).",
    "measures": "§2.3: the mean squared error (eqs 2.2–2.3); R², MAPE, CCC: the regression "
    "measures guide.",
    "residuals": "Binned counts of predicted against actual values and of the residuals: "
    "a 20-million-row study draws kilobytes.",
    "intervals": "Gneiting & Raftery (2007): the interval (Winkler) score of central "
    "(1 − α) prediction intervals.",
    "quantiles": "Pinball loss and coverage per level; the weighted interval score "
    "(Bracher et al. 2021).",
}
#: Bins per axis of the two-dimensional histograms, at most; fewer with many learners, so that
#: a chart's cells (learners × bins²) stay under Altair's 5,000 rows.
MAX_BINS = 30
#: The cells one two-dimensional histogram chart may hold (all its panels).
MAX_CELLS = 4_500
#: A predicted quantile is the median when its level is within this of 0.5.
MEDIAN_TOLERANCE = 1e-9


class RegressionStudy(Study):
    """A regression's study: the tables several sections share, as typed attributes computed
    on first use."""

    @property
    def point(self) -> pl.LazyFrame:
        """The point predictions: every row, or with a quantile column the median's rows."""
        q = self.forecast.quantile
        if q is None:
            return self.lf
        return self.lf.filter((pl.col(q).cast(pl.Float64) - 0.5).abs() <= MEDIAN_TOLERANCE)

    @property
    def splits(self) -> list[str]:
        return [c for c in (self.roles.repeat, self.roles.fold) if c]

    @property
    def keys(self) -> list[str]:
        return [self.roles.dataset, self.roles.learner]

    @cached_property
    def rmse_per_split(self) -> pl.DataFrame | None:
        """RMSE per data set × learner × split, with its row count (None without folds)."""
        if not self.splits:
            return None
        keys = [*self.keys, *self.splits]
        (per_split,) = collect(self.point.group_by(keys).agg(*_rmse(self)).sort(keys))
        return per_split

    @cached_property
    def rmse(self) -> pl.DataFrame:
        """RMSE per data set × learner (the mean over the splits, or over all predictions
        without folds), with its interval when affordable."""
        if self.rmse_per_split is None:
            (counted,) = collect(self.point.group_by(self.keys).agg(*_rmse(self)).sort(self.keys))
            return _with_intervals(self, counted.drop(_ROWS), counted)
        per_dataset = (
            self.rmse_per_split.group_by(self.keys).agg(pl.col("rmse").mean()).sort(self.keys)
        )
        return _with_intervals(self, per_dataset, self.rmse_per_split)

    @cached_property
    def answer(self) -> Answer | None:
        """The answer on RMSE (None when there is no point prediction: a quantile column
        without the median)."""
        if self.rmse.height == 0:
            return None
        roles, o = self.roles, self.options
        splits: dict[str, object] = {}
        if roles.fold is not None and self.rmse_per_split is not None:
            per_split = self.rmse_per_split.drop(_ROWS)
            splits = dict(per_split=per_split, fold=roles.fold, repeat=roles.repeat)
        no_interval = "; no intervals: too many rows " + (
            f"for {RMSE_RESAMPLES} bootstrap replicates in the report's time"
        )
        return answer(
            self.rmse, "rmse", block=roles.dataset, learner=roles.learner,
            higher_is_better=False, alpha=o.alpha, rope=o.rope,
            description=("mean over the folds" if splits else "all predictions")
            + ("" if "rmse_low" in self.rmse.columns else no_interval),
            interval_name=RMSE_INTERVAL,
            **splits,  # type: ignore[arg-type]
        )  # fmt: skip


def _rmse(study: RegressionStudy) -> tuple[pl.Expr, pl.Expr]:
    roles = study.roles
    return rmse(roles.truth, str(roles.pred)), pl.len().cast(pl.Int64).alias(_ROWS)


_ROWS = "__fe_rows"
#: Bootstrap replicates of the RMSE intervals, and the most rows × replicates the report
#: spends on them (past it the table's title says why there are none).
RMSE_RESAMPLES = 200
RMSE_BUDGET = 2_000_000
RMSE_INTERVAL = (
    f"95% bootstrap percentile interval of the mean over the folds ({RMSE_RESAMPLES} "
    "Poisson replicates, seed 0)"
)


def _with_intervals(
    study: RegressionStudy, per_dataset: pl.DataFrame, counted: pl.DataFrame
) -> pl.DataFrame:
    """``per_dataset`` with ``rmse_low, rmse_high`` (:func:`~frameeval.uncertainty.intervals.
    split_mean_intervals`: the interval of the value shown, the mean of the per-split RMSE)
    when the rows (``counted``'s row counts) × :data:`RMSE_RESAMPLES` fit
    :data:`RMSE_BUDGET`."""
    from frameeval.uncertainty.intervals import split_mean_intervals

    total = int(counted[_ROWS].sum() or 0)
    if total * RMSE_RESAMPLES > RMSE_BUDGET:
        return per_dataset
    roles, keys = study.roles, study.keys
    bounds = split_mean_intervals(
        study.point,
        roles.truth,
        str(roles.pred),
        by=keys,
        splits=study.splits,
        measure="rmse",
        n_resamples=RMSE_RESAMPLES,
        seed=0,
    )
    (found,) = collect(bounds.sort(keys))
    return per_dataset.join(found, on=keys, how="left", nulls_equal=True)


def _answer_section(page: Page, study: RegressionStudy) -> None:
    found = study.answer
    nothing = "No point predictions to compare: the quantile column has no median (level 0.5) rows."
    draw_answers(page, [] if found is None else [found], study.roles, study.unused, nothing)
    if found is not None:
        page.text(
            "RMSE: lower is better. The verdict compares the learners on the RMSE of each data "
            "set (the mean over its folds), by the same procedure as for classifiers.",
            css="note",
        )


def _data_section(page: Page, study: RegressionStudy) -> None:
    roles, present, f = study.roles, study.present, study.forecast
    truth = pl.col(roles.truth).cast(pl.Float64)
    exprs = [
        pl.col(roles.learner).n_unique().cast(pl.Int64).alias("learners"),
        *[pl.col(c).n_unique().cast(pl.Int64).alias(f"{c}s") for c in study.splits],
        *[pl.col(c).n_unique().cast(pl.Int64).alias("instances") for c in [roles.instance] if c],
        pl.len().cast(pl.Int64).alias("predictions"),
        truth.mean().alias("truth_mean"),
        truth.std().alias("truth_sd"),
        truth.min().alias("truth_min"),
        truth.max().alias("truth_max"),
    ]
    (table,) = collect(study.lf.group_by(roles.dataset).agg(exprs).sort(roles.dataset))
    extra = named(f.columns())
    total = int(table["predictions"].sum())
    data_lines(page, study, REFERENCES["summary"], total, extra and f"; forecast columns: {extra}")
    if f.lower is not None and f.upper is not None:
        page.text(
            f"Prediction intervals: {f.lower!r} to {f.upper!r}, read as central "
            f"{f.level:.0%} intervals (--level).",
            css="note",
        )
    if present.score is not None:
        page.text(f"The score column {present.score!r} plays no role in a regression.", css="note")
    # a regression has no score; its pred is required
    unused_lines(page, study.unused, skip=("score", "pred"), lost=False)
    page.table(table)


def _measures_section(page: Page, study: RegressionStudy) -> None:
    roles = study.roles
    page.heading("Regression measures", REFERENCES["measures"])
    chosen = [m for m in REGRESSION_MEASURES if m in MEASURES]
    (table,) = collect(
        measures(
            study.point, truth=roles.truth, pred=str(roles.pred), by=study.keys, measures=chosen
        ).sort(study.keys)
    )
    if "mean_error" in table.columns:  # one residual sign on the page: truth − pred
        table = table.with_columns((-pl.col("mean_error")).alias("mean_error")).rename(
            {"mean_error": "mean_residual"}
        )
    shown = [display_name(m) for m in chosen if m != "mean_error"]
    page.text(
        "Per data set and learner, over all its predictions (pooled over the folds): "
        f"{', '.join(shown)} and the mean residual. Lower is better except for R² and CCC "
        "(higher). Residuals on this page are truth − pred (positive: the learner predicted "
        "too low), in the mean residual column and in every residual chart below. An "
        "undefined value (MAPE with a zero truth, R² of a constant truth) is empty. The median "
        "absolute error is left out (it needs every residual in memory at once); frameeval's "
        "median absolute error measure computes it from the rows."
    )
    page.table(table)
    page.download(
        "regression-measures.csv", "text/csv", table.write_csv(), "Download the table as CSV"
    )
    found = study.answer
    if found is not None and found.pairs is not None:
        keys = [roles.dataset] if roles.dataset in found.pairs.columns else []
        wanted = ["a", "b", "test", "difference", "p_value", "p_adjusted", "reject", "better"]
        pairs = found.pairs.with_columns(pl.col("test").replace(TEST_NAMES))
        page.table(
            pairs.select(*keys, *[c for c in wanted if c in pairs.columns]),
            caption=f"Every pair of learners on the folds of each data set (RMSE; the "
            f"{split_words(found.split_procedure)}, Holm-adjusted)",
        )


def _residuals_section(page: Page, study: RegressionStudy) -> None:
    roles = study.roles
    page.heading("Residuals", REFERENCES["residuals"])
    (table,) = collect(study.lf.select(pl.col(roles.dataset).unique().sort()))
    datasets: list[object] = table.to_series().to_list()
    shown = datasets[:MAX_FACETS]
    if len(datasets) > MAX_FACETS:
        page.text(
            f"{len(datasets)} data sets: the pictures show the first {MAX_FACETS} "
            f"({names([str(d) for d in shown])}); the measures table has them all.",
            css="note",
        )
    learners = collect(study.point.select(pl.col(roles.learner).n_unique()))[0].item()
    width = 200 if learners > 3 else 240
    bins = max(5, min(MAX_BINS, math.isqrt(MAX_CELLS // max(learners, 1))))
    pred = str(roles.pred)
    binned: dict[str, Any] = dict(facet=roles.learner, bins=bins, width=width, height=width)
    for dataset in shown:  # loop-ok: at most MAX_FACETS data sets, one chart each
        rows = study.point.filter(pl.col(roles.dataset) == dataset)
        page.heading(f"{dataset}", level=3)
        title = f"Predicted against actual on {dataset} (count per bin; diagonal y = x)"
        page.chart(charts.predicted_actual(rows, roles.truth, pred, title=title, **binned))
        title = f"Residuals against predicted on {dataset}"
        page.chart(charts.residuals(rows, roles.truth, pred, title=title, **binned))
        title = f"Distribution of residuals on {dataset}"
        spread = charts.residual_distribution(
            rows, roles.truth, pred, color=roles.learner, title=title
        )
        page.chart(spread)


def _intervals_section(page: Page, study: RegressionStudy) -> None:
    roles, f = study.roles, study.forecast
    assert f.lower is not None and f.upper is not None  # the section needs them
    page.heading("Prediction intervals", REFERENCES["intervals"])
    keys = study.keys
    (table,) = collect(
        study.point.group_by(keys)
        .agg(
            interval_coverage(roles.truth, f.lower, f.upper),
            interval_width(f.lower, f.upper),
            interval_score(roles.truth, f.lower, f.upper, alpha=1 - f.level),
        )
        .sort(keys)
    )
    page.text(
        f"Coverage (share of truths inside [{f.lower}, {f.upper}]) against the nominal "
        f"{f.level:.0%}, mean width, and the interval score at α = {1 - f.level:.2g} "
        "(width plus 2/α per unit outside; lower is better)."
    )
    page.table(table)


def _quantiles_section(page: Page, study: RegressionStudy) -> None:
    roles, q = study.roles, study.forecast.quantile
    assert q is not None  # the section needs it
    page.heading("Quantile forecasts", REFERENCES["quantiles"])
    keys = study.keys
    (table,) = collect(
        quantile_scores(study.lf, truth=roles.truth, pred=str(roles.pred), quantile=q, by=keys)
    )
    table = table.sort(*keys, "quantile")
    page.text(
        "Pinball loss (lower is better) and coverage (share of truths at or below the "
        "predicted quantile: read it against the level) per data set, learner and level."
    )
    page.table(table)
    page.chart(
        charts.quantile_coverage(
            table,
            by=keys,
            color=roles.learner,
            facet=roles.dataset,
            title="Coverage against the nominal level",
        )
    )


#: The regression page, in order.
REGRESSION: tuple[Section, ...] = tuple(
    Section(name, render, "regression", needs, step)
    for name, render, needs, step in (
        ("regression-answer", _answer_section, (), "comparing regressors on RMSE"),
        ("regression-data", _data_section, (), "data summary"),
        ("regression-measures", _measures_section, (), "regression measures"),
        ("residuals", _residuals_section, (), "residuals"),
        ("intervals", _intervals_section, ("lower", "upper"), "prediction intervals"),
        ("quantiles", _quantiles_section, ("quantile",), "quantile forecasts"),
    )
)
#: The progress steps of a regression report: its sections', in order.
REGRESSION_STEPS: tuple[str, ...] = tuple(str(section.step) for section in REGRESSION)
