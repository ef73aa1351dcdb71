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

import html
import warnings
from dataclasses import replace
from typing import Any

import polars as pl

from frameeval import charts
from frameeval._frame import to_lazy
from frameeval.compare import (
    average_ranks,
    friedman,
    mcnemar,
    nemenyi,
    paired_t_test,
    rank_post_hoc,
    rank_table,
    skillings_mack,
)
from frameeval.confusion import classification_report, confusion_matrix, macro_micro
from frameeval.curves import (
    break_even_point,
    cost_curve,
    cost_lines,
    expected_total_cost,
    pr_curve,
    ranking_report,
    roc_curve,
)
from frameeval.metrics import accuracy, cost_error, error_rate
from frameeval.report.answer import Answer, answer, draw_answers, reader_caveat, split_words
from frameeval.report.calibration import calibration_section
from frameeval.report.page import Page
from frameeval.report.regression import REGRESSION
from frameeval.report.roles import (
    WITHOUT,
    ReportRoles,
    Roles,
    Unused,
    check_task,
    quoted,
    unused_columns,
)
from frameeval.report.sections import Forecast, Options, Section, Study, render, task_line
from frameeval.report.subgroups import SUBGROUPS
from frameeval.report.tables import (
    ACCURACY_INTERVAL,
    AUC_INTERVAL,
    AUC_SKIPPED,
    MAX_FACETS,
    REFERENCES,
    STEPS,
    Counts,
    N,
    Progress,
    accuracy_intervals,
    auc_intervals,
    collect,
    count_tables,
    estimated_cells,
    exact_from_rows,
    keys_of,
    missing_cells,
    names,
    null_scores_line,
    paired_datasets,
    positive,
    unscored,
)

#: The side of a single (unfaceted) ROC, P-R or cost chart: with its legend it fills the page.
CURVE_SIZE = 460
#: More learners than this: curve charts carry no in-panel numbers (they are in the table).
MAX_ANNOTATED = 6
#: Tables show at most this many rows (the rest: a CSV download).
MAX_ROWS = 200
#: More pairs than this: the Nemenyi table lists only the pairs that differ.
MAX_PAIRS = 45


def _quiet(progress: Progress | None) -> Progress:
    return progress if progress is not None else (lambda message: None)


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
    "detected", and the truth is not scanned again).

    ``score_decimals`` rounds the scores before the ROC / P-R / cost analysis (every distinct
    score is a row of its count table: continuous scores on tens of millions of rows make that
    table as long as the input); the page says so. ``None`` keeps them exact — and past
    :data:`~frameeval.report.tables.GRID_CELLS` estimated score cells builds the curves on a
    threshold grid (exact points, :func:`~frameeval.report.tables.on_grid`) while AUC, AP, log
    loss and Brier come exactly from the rows; the page says so too. ``rope`` (a region of
    practical equivalence, in the units of accuracy and AUC) makes the answer Bayesian
    (:func:`frameeval.compare_learners` with ``rope=``)."""
    say = _quiet(progress)
    lf, _ = to_lazy(data, "report")
    names = lf.collect_schema().names()
    present = Roles(**vars(roles))  # the columns of the results, as given (never mutated)
    forecast = forecast if forecast is not None else Forecast()
    taken = {c for c in (forecast.lower, forecast.upper, forecast.quantile) if c is not None}
    unused = unused_columns([n for n in names if n not in taken], present)
    detected = task is None or bool(task_detected)
    task = check_task(lf, present, "report()", lambda role: f"{role}=", task)
    filled = vars(present) | {
        "dataset": present.dataset or _free("dataset", names),
        "learner": present.learner or _free("learner", names),
    }
    if present.dataset is None:  # one data set: a constant column, named by the input
        lf = lf.with_columns(pl.lit(input_name(source)).alias(filled["dataset"]))
    if present.learner is None:  # one learner: a constant column
        lf = lf.with_columns(pl.lit("model").alias(filled["learner"]))
    study = Study(
        task=task,
        lf=lf,
        roles=ReportRoles(**filled),
        present=present,
        unused=unused,
        forecast=forecast,
        options=Options(
            alpha, rope, cost01, cost10, pos_label, score_decimals, source, tuple(sensitive)
        ),
        task_source="detected" if detected else "given",
        say=say,
        warn=getattr(progress, "warn", lambda message: None),
    )
    page = Page(title=title)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        render(page, study, tuple(replace(s, render=_caveated(s.render)) for s in SECTIONS))
    for note in dict.fromkeys(reader_caveat(str(w.message)) for w in caught):
        page.text(f"Note: {note}", css="note")  # none expected: each section says its own
    return page


def _caveated(draw: Any) -> Any:
    """A section's ``render`` that prints the warnings of its tests at the end of the section
    (next to the tables they qualify), for a reader, once per page."""

    def render(page: Page, study: Study) -> None:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            draw(page, study)
        said = study.memo("caveats", set)
        for note in dict.fromkeys(reader_caveat(str(w.message)) for w in caught):
            if note not in said:
                said.add(note)
                page.text(note, css="note")

    return render


# ---------------------------------------------------------------------------------------------
# The classification sections: each reads the study's shared count tables and answers.
def _counts(study: Study) -> Counts:
    def make() -> Counts:
        counts = count_tables(study.lf, study.roles, study.say, study.options.score_decimals)
        skipped = null_scores_line(counts, study.roles)
        if skipped:
            study.warn(skipped)
        return counts

    return study.memo("counts", make)


def _tables_of(study: Study) -> dict[str, pl.DataFrame]:
    return study.memo(
        "tables", lambda: _comparison_tables(_counts(study), study.roles, study.options.pos_label)
    )


def _answers_of(study: Study) -> list[Answer]:
    o = study.options
    return study.memo("answers", lambda: _answers(_tables_of(study), study.roles, o.alpha, o.rope))


def _answer_section(page: Page, study: Study) -> None:
    _counts(study)  # the count tables first: their steps come before this one's
    study.say(STEPS[2])
    nothing = (
        "No hard predictions (pred column) and no binary data set with scores: there "
        f"is no measure to compare learners on ({study.unused.why('pred')})."
    )
    draw_answers(page, _answers_of(study), study.roles, study.unused, nothing)


def _summary_section(page: Page, study: Study) -> None:
    _summary(page, _counts(study), study.roles, study.present, study.unused, study)


def _measures_section(page: Page, study: Study) -> None:
    if study.roles.pred is not None:
        _measures(page, _counts(study), study.roles, study.unused, study.options.pos_label)
        return
    page.heading("Performance measures", REFERENCES["measures"])
    page.text(
        f"Label measures and confusion matrices need hard predictions: {study.unused.why('pred')}.",
        css="skip",
    )


def _curves_section(page: Page, study: Study) -> None:
    counts, roles, o = _counts(study), study.roles, study.options
    if roles.score is None:
        page.heading("ROC, P-R and cost curves", REFERENCES["curves"])
        page.text(f"ROC, P-R and cost curves: {study.unused.why('score')}.", css="skip")
        return
    if counts.grid is not None:
        page.text(
            f"{estimated_cells(counts, roles):,} distinct (data set, learner, class, "
            "score) cells: the curves, operating points and reliability diagrams use "
            f"thresholds on a grid of step {counts.grid:g} (scores floored to it, so "
            "every point drawn is an exact point of the curve of the rows, but points "
            "between grid values are not drawn); AUC, rank loss, average precision, the "
            "P-R area, log loss and Brier score are exact, from the rows "
            "(pass --score-decimals to round instead).",
            css="note",
        )
    if o.score_decimals is not None and counts.scores is not None:
        page.text(
            f"Scores are rounded to {o.score_decimals} decimals for the ROC, AUC, "
            "P-R, cost and calibration analysis (score_decimals / --score-decimals).",
            css="note",
        )
    _curves(page, counts, roles, o.pos_label, o.cost01, o.cost10, _tables_of(study))


def _calibration_section(page: Page, study: Study) -> None:
    o = study.options
    calibration_section(
        page, _counts(study), study.roles, study.unused, o.pos_label, o.cost01, o.cost10
    )


def _compare_section(page: Page, study: Study) -> None:
    roles = study.roles
    if roles.pred is None:
        page.heading("Comparing learners", REFERENCES["compare"])
        page.text(
            f"The tests on accuracy need hard predictions: {study.unused.why('pred')}.",
            css="skip",
        )
        return
    _compare(
        page,
        study.lf,
        _counts(study),
        roles,
        study.unused,
        study.options.alpha,
        _tables_of(study),
        _answers_of(study),
    )


#: The classification page, in order.
CLASSIFICATION: tuple[Section, ...] = (
    Section("answer", _answer_section, task="classification"),
    Section("data", _summary_section, task="classification", step=STEPS[3]),
    Section("measures", _measures_section, task="classification", step=STEPS[4]),
    Section("curves", _curves_section, task="classification", step=STEPS[5]),
    Section("calibration", _calibration_section, task="classification", step=STEPS[6]),
    Section("compare", _compare_section, task="classification", step=STEPS[7]),
)
#: Every section of the report, in page order; :func:`build_report` draws those that apply.
SECTIONS: tuple[Section, ...] = CLASSIFICATION + REGRESSION + SUBGROUPS


def input_name(source: str) -> str:
    """The name of the one data set of results without a data-set column: the input file's
    stem (``runs/iris.parquet`` → ``iris``; a glob → its folder), else ``"one data set"``."""
    from pathlib import PurePath

    if not source:
        return "one data set"
    path = PurePath(source)
    stem = path.parent.name if any(c in path.name for c in "*?[") else path.stem
    return stem or "one data set"


def _free(name: str, names: list[str]) -> str:
    """``name``, or ``name_`` (…) when the results have a column of that name playing another
    role: the name of a constant column added for a role with none."""
    while name in names:
        name += "_"
    return name


# ---------------------------------------------------------------------------------------------
def _comparison_tables(
    counts: Counts, roles: ReportRoles, pos_label: Any
) -> dict[str, pl.DataFrame]:
    """Per-split accuracy, per-data-set accuracy and (binary data sets with scores) ranking."""
    out: dict[str, pl.DataFrame] = {}
    keys = keys_of(roles)
    if roles.pred is not None:
        per_split = (
            counts.labels.group_by(*keys, *counts.splits)
            .agg(accuracy(roles.truth, roles.pred, weight=N))
            .sort(*keys, *counts.splits)
        )
        out["per_split"] = per_split
        out["accuracy"] = (
            per_split.group_by(keys)
            .agg(pl.col("accuracy").mean())
            .join(accuracy_intervals(counts, roles), on=keys, how="left", nulls_equal=True)
            .sort(keys)
        )
    if counts.scores is not None and roles.score is not None and counts.rows is not None:
        out["ranking"] = exact_from_rows(
            counts, roles, ["roc_auc", "rank_loss", "average_precision", "pr_auc"], pos_label
        )
    elif counts.scores is not None and roles.score is not None:
        out["ranking"] = ranking_report(
            counts.scores,
            truth=roles.truth,
            score=roles.score,
            by=keys,
            weight=N,
            **positive(pos_label),
        )
    if "ranking" in out:
        auc = auc_intervals(counts, roles, pos_label, out["ranking"])
        if auc is not None:
            out["ranking"] = out["ranking"].join(auc, on=keys, how="left", nulls_equal=True)
    return out


def _answers(
    tables: dict[str, pl.DataFrame], roles: ReportRoles, alpha: float, rope: float | None
) -> list[Answer]:
    kw = _over_datasets(roles, alpha) | {"rope": rope}
    found = []
    split = "mean over the folds" if (roles.fold or roles.repeat) else "all predictions"
    if "accuracy" in tables:
        splits: dict[str, Any] = {}
        if roles.fold is not None:  # the splits are compared too (corrected for their overlap)
            splits = dict(per_split=tables["per_split"], fold=roles.fold, repeat=roles.repeat)
        found.append(
            answer(
                tables["accuracy"],
                "accuracy",
                description=split,
                interval_name=ACCURACY_INTERVAL,
                **kw,
                **splits,
            )
        )
    ranking = tables.get("ranking")
    if ranking is not None and ranking[roles.dataset].n_unique() >= 2:
        bounds = [c for c in ("roc_auc_low", "roc_auc_high") if c in ranking.columns]
        auc = ranking.select(*keys_of(roles), "roc_auc", *bounds).drop_nulls("roc_auc")
        why = "" if bounds else f"; no intervals: {AUC_SKIPPED}"
        found.append(
            answer(
                auc,
                "roc_auc",
                description=f"pooled over the folds; binary data sets with scores{why}",
                interval_name=AUC_INTERVAL,
                **kw,
            )
        )
    return found


def _summary(
    page: Page, counts: Counts, roles: ReportRoles, present: Roles, unused: Unused, study: Study
) -> None:
    """The Data section: the columns by role (those of the results only), every role without a
    column with what the page leaves out and which unused column might be it, the columns
    that play no role, and a table per data set."""
    page.heading("Data", REFERENCES["summary"])
    described = ", ".join(
        f"{name} = {value!r}" for name, value in vars(present).items() if value is not None
    )
    total = int(counts.summary["predictions"].sum())
    source = study.options.source
    page.text(
        f"{total:,} predictions{f' from {source}' if source else ''}; columns by role: {described}."
    )
    page.text(task_line(study), css="task")
    for role in unused.missing:  # loop-ok: at most seven roles
        why = unused.why(role)
        page.text(f"{why[0].upper()}{why[1:]}: {WITHOUT[role]}.", css="note")
    if unused.columns:
        page.text(f"Columns that play no role: {quoted(unused.columns)}.", css="note")
    dataset, labels = roles.dataset, counts.labels
    assert roles.learner is not None and roles.truth is not None  # resolved by the caller
    exprs = [
        pl.col(roles.learner).n_unique().alias("learners"),
        pl.col(roles.truth).n_unique().alias("classes"),
        *[pl.col(c).n_unique().alias(f"{c}s") for c in counts.splits],
    ]
    table = labels.group_by(dataset).agg(exprs).join(counts.summary, on=dataset)
    first = ["instances"] if roles.instance else []
    rest = [c for c in ("learners", "classes", *[f"{c}s" for c in counts.splits], "predictions")]
    page.table(table.select(dataset, *first, *rest).sort(dataset))


def _measures(
    page: Page, counts: Counts, roles: ReportRoles, unused: Unused, pos_label: Any
) -> None:
    page.heading("Performance measures", REFERENCES["measures"])
    keys = keys_of(roles)
    truth, pred, labels = roles.truth, roles.pred, counts.labels
    assert pred is not None  # _measures() runs when there is a pred column
    report = classification_report(labels, truth=truth, pred=pred, by=keys, weight=N)
    wide = (
        report.filter(pl.col("average") != "none")
        .select(*keys, "average", "f1", "precision", "recall")
        .pivot(on="average", index=keys, values=["precision", "recall", "f1"])
    )
    rates = labels.group_by(keys).agg(
        accuracy(truth, pred, weight=N),
        error_rate(truth, pred, weight=N),
    )
    table = (
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
    page.table(
        table, caption="Pooled over folds: accuracy, and macro / micro averages over classes"
    )
    if table.height > MAX_ROWS:
        page.download(
            "measures.csv",
            "text/csv",
            table.write_csv(),
            f"Download all {table.height} rows as CSV",
        )
    page.text(
        "macro F1 is F1 of macro-P and macro-R (eq 2.14); mean F1 is the mean of the per-class F1 "
        "(scikit-learn's macro F1). They differ when a class's precision and recall differ."
    )
    if counts.binary and counts.splits:
        sub = labels.filter(pl.col(roles.dataset).is_in(counts.binary))
        mm = macro_micro(
            sub,
            truth=truth,
            pred=pred,
            across=counts.splits,
            by=keys,
            pos_label=pos_label,
            weight=N,
        )
        page.table(
            mm,
            caption="Binary tasks: averages over the per-fold confusion matrices (eqs 2.12–2.17)",
        )
    elif not counts.splits:
        page.text(
            f"Macro / micro averages over folds (eqs 2.12–2.17): {unused.why('fold')}.",
            css="skip",
        )
    else:
        page.text(
            "Macro / micro averages over the per-fold binary confusion matrices (eqs "
            "2.12–2.17): binary data sets only; every data set here has 3+ classes — see "
            "the macro / micro averages over classes above.",
            css="skip",
        )
    matrix = confusion_matrix(labels, truth=truth, pred=pred, by=keys, weight=N)
    datasets = sorted(labels[roles.dataset].unique().to_list())
    folded = len(datasets) > MAX_FACETS
    if folded:
        page.text(f"Confusion matrices of the {len(datasets)} data sets: open one below.")
    for dataset in datasets:  # loop-ok: one chart per data set
        sub = matrix.filter(pl.col(roles.dataset) == dataset).drop(roles.dataset)
        title = f"Confusion matrices (row-normalised): {dataset}"
        if folded:
            page.raw(f"<details><summary>{html.escape(title)}</summary>")
        page.chart(
            charts.confusion_heatmap(sub, normalize="true", facet=roles.learner, title=title)
        )
        if folded:
            page.raw("</details>")


def _curves(
    page: Page,
    counts: Counts,
    roles: ReportRoles,
    pos_label: Any,
    cost01: float,
    cost10: float,
    tables: dict[str, pl.DataFrame],
) -> None:
    page.heading("ROC, P-R and cost curves", REFERENCES["curves"])
    skipped = null_scores_line(counts, roles)
    if skipped:  # beside the section it affects (and on stderr from the CLI)
        page.text(f"{skipped[0].upper()}{skipped[1:]}.", css="note")
    why = unscored(counts, roles)
    if why:
        page.text(
            f"ROC, P-R and cost curves: binary data sets with scores only; {why}.", css="skip"
        )
    if counts.scores is None:
        return
    keys = keys_of(roles)
    scores = counts.scores
    kw: dict[str, Any] = dict(
        truth=roles.truth, score=roles.score, by=keys, weight=N, **positive(pos_label)
    )
    ranking = tables["ranking"]
    bep = break_even_point(scores, **kw)
    etc = expected_total_cost(scores, **kw)
    table = (
        ranking.select(*keys, "roc_auc", "average_precision").join(bep, on=keys).join(etc, on=keys)
    )
    if roles.pred is not None:
        labels = counts.labels.filter(pl.col(roles.dataset).is_in(counts.scored))
        costly = labels.group_by(keys).agg(
            cost_error(
                roles.truth,
                roles.pred,
                cost01=cost01,
                cost10=cost10,
                weight=N,
                **({"pos_label": pos_label} if pos_label is not None else {}),
            )
        )
        table = table.join(costly, on=keys)
    page.table(
        table.sort(keys),
        caption="Ranking quality per learner (pooled over folds); "
        f"cost error is eq 2.23 at cost01 = {cost01:g}, cost10 = {cost10:g}",
    )
    learners = scores[roles.learner].n_unique()
    one = len(counts.scored) == 1
    # one data set: curves by learner, numbers in the legend; several: a panel per data set,
    # numbers in the panels while they fit (else in the table above)
    by = [roles.learner] if one else keys
    if one:
        scores = scores.drop(roles.dataset)
        kw["by"] = by
        ranking, bep, etc = (f.drop(roles.dataset) for f in (ranking, bep, etc))
    facet = None if one else roles.dataset
    annotate = one or learners <= MAX_ANNOTATED
    note = "" if annotate else " (AUC, BEP and expected cost per learner: see the table above)"
    # one panel: a large square that, with its legend, fills the page; panels: the default
    size: dict[str, Any] = {"width": CURVE_SIZE, "height": CURVE_SIZE} if facet is None else {}
    page.chart(
        charts.roc(
            roc_curve(scores, **kw),
            auc=ranking.select(*by, "roc_auc") if annotate else None,
            color=roles.learner,
            facet=facet,
            title=f"ROC curves{note}",
            **size,
        )
    )
    page.chart(
        charts.pr(
            pr_curve(scores, **kw),
            break_even=bep if annotate else None,
            color=roles.learner,
            facet=facet,
            title="Precision–recall curves",
            **size,
        )
    )
    page.chart(
        charts.cost_curve(
            cost_curve(scores, **kw),
            lines=cost_lines(scores, **kw),
            expected_cost=etc if annotate else None,
            color=roles.learner,
            facet=facet,
            title="Cost curves and expected total cost",
            **size,
        )
    )


def _compare(
    page: Page,
    lf: pl.LazyFrame,
    counts: Counts,
    roles: ReportRoles,
    unused: Unused,
    alpha: float,
    tables: dict[str, pl.DataFrame],
    answers: list[Answer],
) -> None:
    learners = counts.labels[roles.learner].n_unique()
    two = learners == 2
    folds = counts.splits
    per_split, per_dataset = tables["per_split"], tables["accuracy"]
    gaps = missing_cells(per_dataset, roles)
    if two:
        heading, reference = "Comparing two learners: paired t test and McNemar's test", "compare2"
    elif gaps.height:
        heading, reference = "Comparing learners: Skillings–Mack test (missing results)", "missing"
    elif per_dataset[roles.dataset].n_unique() < 2 and roles.fold is not None:
        heading, reference = "Comparing learners on one data set's folds", "splits"
        split = next((a.split_procedure for a in answers if a.metric == "accuracy"), None)
        if "cv5x2" in (split or ""):
            reference = "splits_5x2"
    else:
        heading, reference = "Comparing learners: Friedman and Nemenyi tests", "compare"
    page.heading(heading, REFERENCES[reference])
    if learners < 2:
        why = (
            unused.why("learner")
            if "learner" in unused.missing
            else f"column {roles.learner!r} holds one value"
        )
        page.text(f"Only one learner: nothing to compare; {why}.", css="skip")
        return
    if gaps.height:
        listed = names([f"{learner} on {dataset}" for dataset, learner in gaps.rows()], 10)
        page.text(
            f"{gaps.height} (data set, learner) {'cell has' if gaps.height == 1 else 'cells have'} "
            f"no result (a failed or missing run): {listed}."
            + (
                ""
                if two
                else " Friedman's and Nemenyi's tests need a complete table; the Skillings–Mack "
                "test and its pairwise z tests (Holm-corrected) use every result there is."
            ),
            css="note",
        )
    n_datasets = per_dataset[roles.dataset].n_unique()
    width = max(200, min(1000, 34 * learners))
    if folds and n_datasets <= MAX_FACETS:
        page.chart(
            charts.metric_distribution(
                per_split,
                "accuracy",
                learner=roles.learner,
                facet=roles.dataset,
                title="Accuracy per fold",
                width=min(width, 300) if n_datasets > 1 else width,
            )
        )
    elif n_datasets >= 2:
        page.chart(
            charts.metric_distribution(
                per_dataset,
                "accuracy",
                learner=roles.learner,
                title=f"Accuracy per data set ({n_datasets} data sets, mean over folds)",
                width=width,
            )
        )
    if n_datasets >= 2 and not two:
        if gaps.height:
            _skillings_mack(page, per_dataset, roles, alpha)
        else:
            answered = next((a for a in answers if a.metric == "accuracy"), None)
            drawn = answered is not None and answered.ranks is not None
            _friedman_nemenyi(page, per_dataset, roles, alpha, cd_drawn=drawn)
    elif n_datasets < 2:
        page.text(
            "Friedman and Nemenyi tests (eqs 2.34–2.36) compare learners over data sets: "
            "one data set here.",
            css="skip",
        )
    found = next((a for a in answers if a.metric == "accuracy"), None)
    if not two:
        if found is not None and found.pairs is not None:
            _split_pairs(page, found, roles, n_datasets)
        page.text(
            f"Paired t test and McNemar's test (§2.4.1–2.4.2) compare exactly two learners; "
            f"here there are {learners} — see "
            + (
                "every pair on the folds above."
                if found is not None and found.pairs is not None
                else "the tests over data sets above."
            ),
            css="skip",
        )
        return
    complete = paired_datasets(per_split, roles, folds)
    left_out = (
        per_dataset.select(roles.dataset).unique().join(complete, on=roles.dataset, how="anti")
    )
    if left_out.height:
        page.text(
            "The paired tests below pair the two learners' results on every split of a data "
            "set; left out, where a split lacks one of them: "
            f"{names(sorted(left_out[roles.dataset].to_list(), key=str))}.",
            css="note",
        )
        if complete.height == 0:
            return
        per_split = per_split.join(complete, on=roles.dataset, how="semi")
        lf = lf.filter(pl.col(roles.dataset).is_in(complete[roles.dataset].implode()))
    if not folds:
        page.text(f"Paired t test over folds: {unused.why('fold')}.", css="skip")
    else:
        a, b = sorted(counts.labels[roles.learner].unique().to_list())
        pair = roles.fold if roles.fold else folds[-1]
        data = per_split
        if roles.repeat:
            data = per_split.with_columns(
                pl.format("{}-{}", roles.repeat, roles.fold).alias("__split")
            )
            pair = "__split"
        ttest = paired_t_test(
            data,
            "accuracy",
            a=a,
            b=b,
            learner=roles.learner,
            block=pair,
            by=roles.dataset,
            higher_is_better=True,
            alpha=alpha,
        )
        page.table(ttest, caption=f"Paired t test per data set over folds ({a} − {b})")
        if found is not None and found.pairs is not None:
            _book_and_corrected(page, ttest, found, roles)
    if not roles.instance:
        page.text(f"McNemar's test pairs single predictions: {unused.why('instance')}.", css="skip")
        return
    assert roles.pred is not None  # _compare() runs when there is a pred column
    a, b = sorted(counts.labels[roles.learner].unique().to_list())
    (mc,) = collect(
        mcnemar(
            lf,
            truth=roles.truth,
            pred=roles.pred,
            a=a,
            b=b,
            learner=roles.learner,
            instance=roles.instance,
            by=[roles.dataset, *([roles.repeat] if roles.repeat else [])],
            alpha=alpha,
        )
    )
    page.table(mc, caption="McNemar test per data set, pooled over the folds (eq 2.33)")


def _split_pairs(page: Page, found: Answer, roles: ReportRoles, n_datasets: int) -> None:
    """Every pair of learners on the folds of each data set: the split-level test the verdict
    used (compare_learners with fold=: the corrected resampled t test, Holm-adjusted)."""
    assert found.pairs is not None
    keys = [roles.dataset] if roles.dataset in found.pairs.columns else []
    from frameeval.compare.auto import TEST_NAMES

    shown = found.pairs.select(
        *keys,
        "a",
        "b",
        pl.col("test").replace(TEST_NAMES),
        "difference",
        "statistic",
        "p_value",
        "p_adjusted",
        "reject",
        "better",
        "cohen_d",
    )
    if found.split_procedure == "bayes_correlated_t":
        shown = found.pairs.select(
            *keys, "a", "b", "difference", "p_a_better", "p_rope", "p_b_better", "reject", "better"
        )
    where = "the data set" if n_datasets < 2 else "each data set"
    five = "cv5x2" in (found.split_procedure or "")
    reference = REFERENCES["splits_5x2" if five else "splits"] if n_datasets >= 2 else None
    page.heading("Every pair on the folds of " + where, reference, level=3)
    page.text(
        f"The folds of one data set share training data, so they are not independent blocks: "
        "Friedman's test or an ANOVA over them, or the book's paired t test over folds, rejects "
        "far too often. Every pair is compared on the folds by the test the verdict used, the "
        f"{split_words(found.split_procedure)}, the p-values adjusted over the pairs by Holm's "
        "procedure; reject = adjusted p < α."
    )
    _pairs(page, shown, f"Every pair of learners on the folds of {where}", "split-pairs")


def _book_and_corrected(page: Page, ttest: pl.DataFrame, found: Answer, roles: ReportRoles) -> None:
    """The book's paired t test next to the corrected one, and which the verdict used."""
    assert found.pairs is not None
    corrected = found.pairs
    from frameeval.compare.auto import TEST_NAMES

    if roles.dataset not in corrected.columns:
        corrected = corrected.with_columns(
            pl.lit(ttest[roles.dataset][0]).cast(ttest.schema[roles.dataset]).alias(roles.dataset)
        )
    if found.split_procedure == "bayes_correlated_t":
        page.table(
            corrected.select(
                roles.dataset, "a", "b", "difference", "p_a_better", "p_rope", "p_b_better"
            ).sort(roles.dataset),
            caption="The Bayesian correlated t test the verdict used (a ROPE was given)",
        )
        page.text(
            "The verdict uses the Bayesian correlated t test (Corani & Benavoli 2015), not the "
            "book's paired t test above: a region of practical equivalence was given, and the "
            "test's posterior allows for the correlation of the folds (ρ = n_test/n, Nadeau & "
            "Bengio 2003), which the paired t test ignores.",
            css="note",
        )
        return
    side = ttest.select(
        roles.dataset,
        pl.col("statistic").alias("book_t"),
        pl.col("p_value").alias("book_p"),
        pl.col("reject").alias("book_reject"),
    ).join(
        corrected.select(
            roles.dataset,
            pl.col("test").replace(TEST_NAMES).alias("corrected_test"),
            pl.col("statistic").alias("corrected_statistic"),
            pl.col("p_value").alias("corrected_p"),
            pl.col("reject").alias("corrected_reject"),
        ),
        on=roles.dataset,
        how="left",
    )
    page.table(
        side.sort(roles.dataset),
        caption="The book's paired t test over folds next to the corrected test the verdict used",
    )
    nb = found.split_procedure == "corrected_t"
    page.text(
        f"The verdict uses the {split_words(found.split_procedure)}, not the book's paired t "
        "test (§2.4.2): the folds share training data, so their differences are positively "
        "correlated and the paired t test underestimates the variance of their mean — in a "
        "simulation of 3 × 10-fold cross-validation it rejected a true null hypothesis 25% of "
        "the time at α = 0.05, the corrected test 2.5% (see the guide on comparing learners)."
        + (
            " Its correction multiplies the variance by 1/J + n_test/n_train instead of 1/J "
            "(J splits)."
            if nb
            else ""
        ),
        css="note",
    )


def _pairs(page: Page, shown: pl.DataFrame, caption: str, stem: str) -> None:
    """A post-hoc table of every pair; past :data:`MAX_PAIRS` only the pairs that differ
    (all pairs as a CSV download)."""
    if shown.height <= MAX_PAIRS:
        page.table(shown, caption=caption)
        return
    differ = int(shown["reject"].sum())
    page.table(
        shown.filter(pl.col("reject")) if differ else None,
        caption=f"{caption}: the {differ} of {shown.height} pairs that differ significantly "
        "(all pairs: the CSV)",
        empty="No pair differs significantly.",
    )
    page.download(
        f"{stem}-accuracy.csv", "text/csv", shown.write_csv(), "Download all pairs as CSV"
    )


def _skillings_mack(
    page: Page, per_dataset: pl.DataFrame, roles: ReportRoles, alpha: float
) -> None:
    """Missing (data set, learner) cells: the Skillings–Mack test and its Holm z tests."""
    kw = _over_datasets(roles, alpha)
    page.table(
        skillings_mack(per_dataset, "accuracy", **kw),
        caption="Skillings–Mack test over data sets (mean accuracy per data set; missing "
        "cells allowed; equals Friedman's χ² on a complete table)",
    )
    post_hoc = rank_post_hoc(per_dataset, "accuracy", test="skillings_mack", adjust="holm", **kw)
    shown = post_hoc.select(
        "a", "b", "average_rank_a", "average_rank_b", "statistic", "p_adjusted", "reject"
    )
    _pairs(page, shown, "Skillings–Mack pairwise z tests, Holm-corrected", "skillings-mack")


def _friedman_nemenyi(
    page: Page, per_dataset: pl.DataFrame, roles: ReportRoles, alpha: float, cd_drawn: bool = False
) -> None:
    """A complete table: Friedman, Nemenyi, the CD diagram (unless the answer drew it:
    ``cd_drawn``) and the rank table — the statistics behind the answer's headline, not the
    answer again."""
    kw = _over_datasets(roles, alpha)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = friedman(per_dataset, "accuracy", **kw)
    page.table(
        table, caption="Friedman test over data sets (mean accuracy per data set; eqs 2.34–2.35)"
    )
    for note in dict.fromkeys(reader_caveat(str(w.message)) for w in caught):
        page.text(note, css="note")  # under the table whose χ² column it qualifies
    ranks = average_ranks(
        per_dataset,
        "accuracy",
        block=roles.dataset,
        learner=roles.learner,
        higher_is_better=True,
    )
    pairs = nemenyi(per_dataset, "accuracy", **kw)
    shown = pairs.select(
        "a",
        "b",
        "average_rank_a",
        "average_rank_b",
        "rank_difference",
        "critical_value",
        "reject",
    )
    _pairs(page, shown, "Nemenyi post-hoc test (eq 2.36)", "nemenyi")
    cd = pairs["critical_value"][0]
    if cd_drawn:
        page.text(
            "The average ranks with the critical difference are drawn in the answer above; "
            "below, each learner's rank on each data set.",
            css="note",
        )
    else:
        page.chart(
            charts.cd_diagram(
                ranks,
                cd,
                learner=roles.learner,
                title=f"Average ranks with critical difference (α = {alpha})",
            )
        )
    table = rank_table(
        per_dataset,
        "accuracy",
        block=roles.dataset,
        learner=roles.learner,
        higher_is_better=True,
    )
    page.chart(
        charts.rank_heatmap(
            table,
            learner=roles.learner,
            block=roles.dataset,
            title="Rank of each learner on each data set",
        )
    )


def _over_datasets(roles: ReportRoles, alpha: float) -> dict[str, Any]:
    """The keywords of every test over data sets on the page (accuracy and AUC: higher is
    better)."""
    return dict(block=roles.dataset, learner=roles.learner, higher_is_better=True, alpha=alpha)
