"""The classification page's study and its first sections: the answer, the data summary and
the label measures.

:class:`ClassificationStudy` is the context every classification section reads: the shared
tables are its typed attributes, each computed once by the first section that asks — the count
tables (:func:`~frameeval.report.tables.count_tables`), accuracy per split and per data set,
the ranking measures of the binary data sets with scores, and the answers. The curves, the
calibration and the comparison sections are in :mod:`~frameeval.report.curves`,
:mod:`~frameeval.report.calibration` and :mod:`~frameeval.report.comparison`.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from functools import cached_property
from typing import Any

import polars as pl

from frameeval import charts
from frameeval.confusion import classification_report, confusion_matrix, macro_micro
from frameeval.curves import ranking_report
from frameeval.metrics import accuracy, error_rate
from frameeval.report.answer import Answer, answer, draw_answers
from frameeval.report.roles import ReportRoles
from frameeval.report.sections import (
    Section,
    Study,
    applies_always,
    data_lines,
    lacking,
    unused_lines,
)
from frameeval.report.tables import (
    ACCURACY_INTERVAL,
    AUC_INTERVAL,
    AUC_SKIPPED,
    MAX_FACETS,
    REFERENCES,
    STEPS,
    Counts,
    N,
    accuracy_intervals,
    auc_intervals,
    count_tables,
    exact_from_rows,
    keys_of,
    null_scores_line,
    positive,
)

__all__ = ["ANSWER", "DATA", "MEASURES", "ClassificationStudy", "answers_of", "over_datasets"]
__all__ += ["per_dataset", "section"]

#: Tables show at most this many rows (the rest: a CSV download).
MAX_ROWS = 200


class ClassificationStudy(Study):
    """A classification's study: the tables several sections share, as typed attributes
    computed on first use."""

    @cached_property
    def counts(self) -> Counts:
        """The label and score count tables (one streamed scan; the null scores warned of)."""
        counts = count_tables(self.lf, self.roles, self.say, self.options.score_decimals)
        skipped = null_scores_line(counts, self.roles)
        if skipped:
            self.warn(skipped)
        return counts

    @cached_property
    def per_split(self) -> pl.DataFrame | None:
        """Accuracy per data set × learner × split (None without a pred column)."""
        roles, counts = self.roles, self.counts
        if roles.pred is None:
            return None
        keys = [*keys_of(roles), *counts.splits]
        accurate = accuracy(roles.truth, roles.pred, weight=N)
        return counts.labels.group_by(keys).agg(accurate).sort(keys)

    @cached_property
    def accuracy(self) -> pl.DataFrame | None:
        """Accuracy per data set × learner (the mean over the splits) with its Wilson interval
        (None without a pred column)."""
        if self.per_split is None:
            return None
        keys = keys_of(self.roles)
        return (
            self.per_split.group_by(keys)
            .agg(pl.col("accuracy").mean())
            .join(
                accuracy_intervals(self.counts, self.roles), on=keys, how="left", nulls_equal=True
            )
            .sort(keys)
        )

    @cached_property
    def ranking(self) -> pl.DataFrame | None:
        """AUC, rank loss, AP and P-R area per binary data set with scores × learner, with the
        AUC's interval when affordable (None without scores)."""
        counts, roles, pos_label = self.counts, self.roles, self.options.pos_label
        if counts.scores is None or roles.score is None:
            return None
        keys = keys_of(roles)
        if counts.rows is not None:  # a score table on a grid: the exact values from the rows
            measures = ["roc_auc", "rank_loss", "average_precision", "pr_auc"]
            ranking = exact_from_rows(counts, roles, measures, pos_label)
        else:
            ranking = ranking_report(
                counts.scores, truth=roles.truth, score=roles.score, by=keys, weight=N,
                **positive(pos_label),
            )  # fmt: skip
        auc = auc_intervals(counts, roles, pos_label, ranking)
        return ranking if auc is None else ranking.join(auc, on=keys, how="left", nulls_equal=True)

    @cached_property
    def answers(self) -> list[Answer]:
        """The answer for accuracy and for AUC (the measures compared)."""
        o = self.options
        return answers_of(
            self.roles, o.alpha, o.rope,
            accuracy=self.accuracy, per_split=self.per_split, ranking=self.ranking,
        )  # fmt: skip

    def answered(self, metric: str) -> Answer | None:
        """The answer on ``metric``, if it was compared."""
        return next((a for a in self.answers if a.metric == metric), None)


def over_datasets(roles: ReportRoles, alpha: float) -> dict[str, Any]:
    """The keywords of every test over data sets on the page (accuracy and AUC: higher is
    better)."""
    return dict(block=roles.dataset, learner=roles.learner, higher_is_better=True, alpha=alpha)


def answers_of(
    roles: ReportRoles,
    alpha: float,
    rope: float | None,
    *,
    accuracy: pl.DataFrame | None = None,
    per_split: pl.DataFrame | None = None,
    ranking: pl.DataFrame | None = None,
) -> list[Answer]:
    """The answers on accuracy (per data set, with its splits when the results have folds)
    and on AUC (binary data sets with scores, two or more of them)."""
    kw = over_datasets(roles, alpha) | {"rope": rope}
    asked: list[tuple[pl.DataFrame, str, dict[str, Any]]] = []
    if accuracy is not None:
        split = "mean over the folds" if (roles.fold or roles.repeat) else "all predictions"
        more: dict[str, Any] = dict(description=split, interval_name=ACCURACY_INTERVAL)
        if roles.fold is not None:  # the splits are compared too (corrected for their overlap)
            more |= dict(per_split=per_split, fold=roles.fold, repeat=roles.repeat)
        asked.append((accuracy, "accuracy", more))
    if ranking is not None and ranking[roles.dataset].n_unique() >= 2:
        bounds = [c for c in ("roc_auc_low", "roc_auc_high") if c in ranking.columns]
        auc = ranking.select(*keys_of(roles), "roc_auc", *bounds).drop_nulls("roc_auc")
        why = "" if bounds else f"; no intervals: {AUC_SKIPPED}"
        description = f"pooled over the folds; binary data sets with scores{why}"
        asked.append((auc, "roc_auc", dict(description=description, interval_name=AUC_INTERVAL)))
    return [answer(frame, metric, **kw, **more) for frame, metric, more in asked]


def _answer(page: Any, study: ClassificationStudy) -> None:
    study.counts  # noqa: B018 -- the count tables first: their steps come before this one's
    study.say(STEPS.answer)
    nothing = (
        "No hard predictions (pred column) and no binary data set with scores: there "
        f"is no measure to compare learners on ({study.unused.why('pred')})."
    )
    draw_answers(page, study.answers, study.roles, study.unused, nothing)


def _data(page: Any, study: ClassificationStudy) -> None:
    """The Data section: the columns by role (those of the results only), every role without a
    column with what the page leaves out and which unused column might be it, the columns
    that play no role, and a table per data set."""
    counts, roles = study.counts, study.roles
    data_lines(page, study, REFERENCES["summary"], int(counts.summary["predictions"].sum()))
    unused_lines(page, study.unused)
    exprs = [
        pl.col(roles.learner).n_unique().alias("learners"),
        pl.col(roles.truth).n_unique().alias("classes"),
        *[pl.col(c).n_unique().alias(f"{c}s") for c in counts.splits],
    ]
    table = counts.labels.group_by(roles.dataset).agg(exprs).join(counts.summary, on=roles.dataset)
    first = ["instances"] if roles.instance else []
    rest = ["learners", "classes", *[f"{c}s" for c in counts.splits], "predictions"]
    page.table(table.select(roles.dataset, *first, *rest).sort(roles.dataset))


def _measures(page: Any, study: ClassificationStudy) -> None:
    """Accuracy, error rate and the macro / micro averages over classes per data set ×
    learner; the averages over the folds of the binary data sets; the confusion matrices."""
    counts, roles = study.counts, study.roles
    page.heading("Performance measures", REFERENCES["measures"])
    table = _pooled(counts, roles)
    page.table(
        table, caption="Pooled over folds: accuracy, and macro / micro averages over classes"
    )
    if table.height > MAX_ROWS:
        label = f"Download all {table.height} rows as CSV"
        page.download("measures.csv", "text/csv", table.write_csv(), label)
    page.text(
        "macro F1 is F1 of macro-P and macro-R (eq 2.14); mean F1 is the mean of the per-class F1 "
        "(scikit-learn's macro F1). They differ when a class's precision and recall differ."
    )
    _over_folds(page, study)
    _confusion_matrices(page, counts, roles)


def _pooled(counts: Counts, roles: ReportRoles) -> pl.DataFrame:
    """Accuracy, error rate, macro P / R / F1 (both macro F1s) and micro F1 per data set ×
    learner, pooled over the folds."""
    keys, truth, pred, labels = keys_of(roles), roles.truth, roles.pred, counts.labels
    assert pred is not None  # the section applies when there is a pred column
    report = classification_report(labels, truth=truth, pred=pred, by=keys, weight=N)
    wide = (
        report.filter(pl.col("average") != "none")
        .select(*keys, "average", "f1", "precision", "recall")
        .pivot(on="average", index=keys, values=["precision", "recall", "f1"])
    )
    rates = labels.group_by(keys).agg(
        accuracy(truth, pred, weight=N), error_rate(truth, pred, weight=N)
    )
    return (
        rates.join(wide, on=keys)
        .select(
            *keys,
            "accuracy",
            "error_rate",
            pl.col("precision_macro").alias("macro_precision"),
            pl.col("recall_macro").alias("macro_recall"),
            pl.col("f1_macro").alias("macro_f1 (eq 2.14)"),
            pl.col("f1_macro_mean").alias("mean_f1 (per class)"),
            pl.col("f1_micro").alias("micro_f1"),
        )
        .sort(keys)
    )


def _over_folds(page: Any, study: ClassificationStudy) -> None:
    """The macro / micro averages over the per-fold confusion matrices of the binary data
    sets, or why there are none."""
    counts, roles = study.counts, study.roles
    if counts.binary and counts.splits:
        assert roles.pred is not None
        mm = macro_micro(
            counts.labels.filter(pl.col(roles.dataset).is_in(counts.binary)),
            truth=roles.truth, pred=roles.pred, across=counts.splits, by=keys_of(roles),
            pos_label=study.options.pos_label, weight=N,
        )  # fmt: skip
        page.table(
            mm,
            caption="Binary tasks: averages over the per-fold confusion matrices (eqs 2.12–2.17)",
        )
    elif not counts.splits:
        page.text(
            f"Macro / micro averages over folds (eqs 2.12–2.17): {study.unused.why('fold')}.",
            css="skip",
        )
    else:
        page.text(
            "Macro / micro averages over the per-fold binary confusion matrices (eqs "
            "2.12–2.17): binary data sets only; every data set here has 3+ classes — see "
            "the macro / micro averages over classes above.",
            css="skip",
        )


def per_dataset(
    page: Any,
    table: pl.DataFrame,
    dataset: str,
    title: Callable[[Any], str],
    draw: Callable[[pl.DataFrame, str], Any],
) -> None:
    """One chart per data set of ``table`` (sorted): ``draw(its rows, title(data set))``;
    past :data:`MAX_FACETS` data sets each inside a ``<details>`` (opened by its title)."""
    datasets = sorted(table[dataset].unique().to_list())
    fold = len(datasets) > MAX_FACETS
    for value in datasets:  # loop-ok: one chart per data set
        heading = title(value)
        if fold:
            page.raw(f"<details><summary>{html.escape(heading)}</summary>")
        page.chart(draw(table.filter(pl.col(dataset) == value).drop(dataset), heading))
        if fold:
            page.raw("</details>")


def _confusion_matrices(page: Any, counts: Counts, roles: ReportRoles) -> None:
    """Each data set's row-normalised confusion matrices, a panel per learner."""
    assert roles.pred is not None
    matrix = confusion_matrix(
        counts.labels, truth=roles.truth, pred=roles.pred, by=keys_of(roles), weight=N
    )
    n = counts.labels[roles.dataset].n_unique()
    if n > MAX_FACETS:
        page.text(f"Confusion matrices of the {n} data sets: open one below.")
    per_dataset(
        page,
        matrix,
        roles.dataset,
        lambda dataset: f"Confusion matrices (row-normalised): {dataset}",
        lambda rows, title: charts.confusion_heatmap(
            rows, normalize="true", facet=roles.learner, title=title
        ),
    )


def section(
    name: str, render: Any, step: str | None, title: str = "", why_not: Any = applies_always
) -> Section:
    """A section of the classification page: its reference (written under ``title`` with the
    reason it does not apply, ``why_not``) is :data:`REFERENCES`' entry of its ``name``."""
    reference = REFERENCES.get(name)
    return Section(name, render, "classification", (), step, title, reference, why_not)


ANSWER = section("answer", _answer, None)
DATA = section("data", _data, STEPS.summary)
_NO_PRED = lacking("pred", "Label measures and confusion matrices need hard predictions")
MEASURES = section("measures", _measures, STEPS.measures, "Performance measures", _NO_PRED)
