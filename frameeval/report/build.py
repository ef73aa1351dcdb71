"""Assemble the HTML report from frameeval's frames and charts. Computes nothing itself: every
number comes from the library's public functions; this module only chooses what to show."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import polars as pl

import frameeval as fe
from frameeval import charts
from frameeval._frame import collect, to_lazy
from frameeval.report.page import Page
from frameeval.report.roles import Roles

Progress = Callable[[str], None]

REFERENCES = {
    "summary": "Zhou, Machine Learning, §2.2 (evaluation methods: hold-out, cross-validation, bootstrap).",
    "measures": "§2.3.1–2.3.2: error rate and accuracy (eqs 2.1–2.5), precision, recall and F1 "
    "(eqs 2.8–2.11), macro and micro averages (eqs 2.12–2.17).",
    "curves": "§2.3.3–2.3.4: ROC and AUC (eqs 2.18–2.22), P-R curves and the break-even point, "
    "cost-sensitive error and cost curves (eqs 2.23–2.25, figure 2.5).",
    "compare": "§2.4: hypothesis tests — paired t test, McNemar (eq 2.33), Friedman (eqs "
    "2.34–2.35), Nemenyi post-hoc test and critical difference (eq 2.36, figure 2.8); "
    "Demšar (2006).",
}


def _quiet(progress: Progress | None) -> Progress:
    return progress if progress is not None else (lambda message: None)


def build_report(
    data: Any,
    roles: Roles,
    *,
    alpha: float = 0.05,
    cost01: float = 1.0,
    cost10: float = 1.0,
    pos_label: Any = None,
    title: str = "frameeval report",
    source: str = "",
    progress: Progress | None = None,
) -> Page:
    """Build the report page for a result frame whose columns are named by ``roles``."""
    say = _quiet(progress)
    lf, _ = to_lazy(data, "report")
    say("reading results")
    df = collect(lf)
    if roles.dataset is None:
        df = df.with_columns(pl.lit("results").alias("dataset"))
        roles.dataset = "dataset"
    if roles.learner is None:
        df = df.with_columns(pl.lit("model").alias("learner"))
        roles.learner = "learner"
    page = Page(title=title)
    notes: list[str] = []

    say("summary")
    _summary(page, df, roles, source)
    if roles.pred is not None:
        say("performance measures")
        _measures(page, df, roles, pos_label)
    if roles.score is not None:
        say("ROC, P-R and cost curves")
        _curves(page, df, roles, pos_label, cost01, cost10)
    if roles.pred is not None:
        say("comparison tests")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            _compare(page, df, roles, alpha)
        notes.extend(str(w.message) for w in caught)
    for note in dict.fromkeys(notes):
        page.text(f"Note: {note}", css="note")
    return page


# ---------------------------------------------------------------------------------------------
def _keys(roles: Roles) -> list[str]:
    return [roles.dataset, roles.learner]  # type: ignore[list-item]


def _summary(page: Page, df: pl.DataFrame, roles: Roles, source: str) -> None:
    page.heading("Data", REFERENCES["summary"])
    described = ", ".join(
        f"{name} = {value!r}" for name, value in vars(roles).items() if value is not None
    )
    page.text(f"{df.height:,} predictions{f' from {source}' if source else ''}; columns by role: "
              f"{described}.")
    exprs = [
        pl.col(roles.learner).n_unique().alias("learners"),
        pl.col(roles.truth).n_unique().alias("classes"),
    ]
    if roles.instance:
        exprs.insert(0, pl.col(roles.instance).n_unique().alias("instances"))
    if roles.fold:
        exprs.append(pl.col(roles.fold).n_unique().alias("folds"))
    if roles.repeat:
        exprs.append(pl.col(roles.repeat).n_unique().alias("repeats"))
    exprs.append(pl.len().alias("predictions"))
    page.table(df.group_by(roles.dataset).agg(*exprs).sort(roles.dataset))


def _binary_datasets(df: pl.DataFrame, roles: Roles, need_score: bool) -> list[Any]:
    """Data sets with two classes (and, if asked, a score on every row)."""
    stats = df.group_by(roles.dataset).agg(
        pl.col(roles.truth).n_unique().alias("classes"),
        (pl.col(roles.score).null_count() if need_score and roles.score else pl.lit(0))
        .alias("missing"),
    )
    return sorted(stats.filter((pl.col("classes") == 2) & (pl.col("missing") == 0))
                  [roles.dataset].to_list())


def _measures(page: Page, df: pl.DataFrame, roles: Roles, pos_label: Any) -> None:
    page.heading("Performance measures", REFERENCES["measures"])
    keys = _keys(roles)
    truth, pred = roles.truth, roles.pred
    report = fe.classification_report(df, truth=truth, pred=pred, by=keys)
    wide = (
        report.filter(pl.col("average") != "none")
        .select(*keys, "average", pl.col("fbeta").alias("f1"), "precision", "recall")
        .pivot(on="average", index=keys, values=["precision", "recall", "f1"])
    )
    accuracy = df.group_by(keys).agg(fe.accuracy(truth, pred), fe.error_rate(truth, pred))
    table = accuracy.join(wide, on=keys).select(
        *keys,
        "accuracy",
        "error_rate",
        pl.col("precision_macro").alias("macro_precision"),
        pl.col("recall_macro").alias("macro_recall"),
        pl.col("f1_macro").alias("macro_f1 (eq 2.14)"),
        pl.col("f1_macro_mean").alias("mean_f1 (per class)"),
        pl.col("f1_micro").alias("micro_f1"),
    ).sort(keys)
    page.table(table, caption="Pooled over folds: accuracy, and macro / micro averages over classes")
    page.text(
        "macro_f1 is F1 of macro-P and macro-R (eq 2.14); mean_f1 is the mean of the per-class F1 "
        "(scikit-learn's macro F1). They differ when a class's precision and recall differ."
    )
    binary = _binary_datasets(df, roles, need_score=False)
    if binary and roles.fold:
        sub = df.filter(pl.col(roles.dataset).is_in(binary))
        across = [c for c in (roles.repeat, roles.fold) if c]
        mm = fe.macro_micro(sub, truth=truth, pred=pred, across=across, by=keys,
                            pos_label=pos_label)
        page.table(mm, caption="Binary tasks: averages over the per-fold confusion matrices "
                               "(eqs 2.12–2.17)")
    for dataset in sorted(df[roles.dataset].unique().to_list()):
        sub = df.filter(pl.col(roles.dataset) == dataset)
        matrix = fe.confusion_matrix(sub, truth=truth, pred=pred, by=[roles.learner])
        page.chart(charts.confusion_heatmap(
            matrix, normalize="true", facet=roles.learner,
            title=f"Confusion matrices (row-normalised): {dataset}"))


def _curves(page: Page, df: pl.DataFrame, roles: Roles, pos_label: Any, cost01: float,
            cost10: float) -> None:
    binary = _binary_datasets(df, roles, need_score=True)
    page.heading("ROC, P-R and cost curves", REFERENCES["curves"])
    if not binary:
        page.text("No data set has two classes and a score on every row: no curves to draw.")
        return
    keys = _keys(roles)
    sub = df.filter(pl.col(roles.dataset).is_in(binary))
    kw = dict(truth=roles.truth, score=roles.score, by=keys)
    if pos_label is not None:
        kw["pos_label"] = pos_label
    positive = {"pos_label": pos_label} if pos_label is not None else {}
    ranking = sub.group_by(keys).agg(
        fe.roc_auc(roles.truth, roles.score, **positive),
        fe.average_precision(roles.truth, roles.score, **positive),
    )
    bep = fe.break_even_point(sub, **kw)
    etc = fe.expected_total_cost(sub, **kw)
    costly = sub.group_by(keys).agg(
        fe.cost_error(roles.truth, roles.pred, cost01=cost01, cost10=cost10, **positive)
        if roles.pred else pl.lit(None, dtype=pl.Float64).alias("cost_error")
    )
    table = ranking.join(bep, on=keys).join(etc, on=keys).join(costly, on=keys).sort(keys)
    page.table(table, caption="Ranking quality per learner (pooled over folds); cost_error is "
               f"eq 2.23 at cost01 = {cost01:g}, cost10 = {cost10:g}")
    facet = roles.dataset if len(binary) > 1 else None
    page.chart(charts.roc(fe.roc_curve(sub, **kw), auc=ranking.select(*keys, "roc_auc"),
                          color=roles.learner, facet=facet))
    page.chart(charts.pr(fe.pr_curve(sub, **kw), break_even=bep, color=roles.learner,
                         facet=facet))
    page.chart(charts.cost_curve(
        fe.cost_curve(sub, **kw), lines=fe.cost_lines(sub, **kw), expected_cost=etc,
        color=roles.learner, facet=facet, title="Cost curves and expected total cost"))


def _compare(page: Page, df: pl.DataFrame, roles: Roles, alpha: float) -> None:
    page.heading("Comparing learners", REFERENCES["compare"])
    learners = df[roles.learner].n_unique()
    if learners < 2:
        page.text("Only one learner: nothing to compare.")
        return
    folds = [c for c in (roles.repeat, roles.fold) if c]
    per_split = df.group_by(roles.dataset, roles.learner, *folds).agg(
        fe.accuracy(roles.truth, roles.pred)
    ).sort(roles.dataset, roles.learner, *folds)
    if folds:
        page.chart(charts.metric_distribution(
            per_split, "accuracy", learner=roles.learner, facet=roles.dataset,
            title="Accuracy per fold", width=200))
    per_dataset = per_split.group_by(roles.dataset, roles.learner).agg(pl.col("accuracy").mean())
    n_datasets = per_dataset[roles.dataset].n_unique()
    if n_datasets >= 2:
        kw = dict(block=roles.dataset, learner=roles.learner, higher_is_better=True, alpha=alpha)
        page.table(fe.friedman(per_dataset, "accuracy", **kw),
                   caption="Friedman test over data sets (mean accuracy per data set; eqs 2.34–2.35)")
        ranks = fe.average_ranks(per_dataset, "accuracy", block=roles.dataset,
                                 learner=roles.learner, higher_is_better=True)
        nemenyi = fe.nemenyi(per_dataset, "accuracy", **kw)
        page.table(nemenyi.select("a", "b", "average_rank_a", "average_rank_b",
                                  "rank_difference", "critical_value", "reject"),
                   caption="Nemenyi post-hoc test (eq 2.36)")
        cd = nemenyi["critical_value"][0]
        page.chart(charts.cd_diagram(ranks, cd, learner=roles.learner,
                                     title=f"Average ranks with critical difference (α = {alpha})"))
        page.chart(charts.cd_diagram(ranks, cd, style="demsar", learner=roles.learner,
                                     title="Critical-difference diagram (Demšar 2006)"))
        table = fe.rank_table(per_dataset, "accuracy", block=roles.dataset,
                              learner=roles.learner, higher_is_better=True)
        page.chart(charts.rank_heatmap(table, learner=roles.learner, block=roles.dataset,
                                       title="Rank of each learner on each data set"))
    if learners == 2 and folds:
        a, b = sorted(df[roles.learner].unique().to_list())
        pair = roles.fold if roles.fold else folds[-1]
        data = per_split
        if roles.repeat:
            data = per_split.with_columns(
                pl.format("{}-{}", roles.repeat, roles.fold).alias("__split"))
            pair = "__split"
        ttest = fe.paired_t_test(data, "accuracy", a=a, b=b, learner=roles.learner, block=pair,
                                 by=roles.dataset, higher_is_better=True, alpha=alpha)
        page.table(ttest, caption=f"Paired t test per data set over folds ({a} − {b})")
        if roles.instance:
            mc = fe.mcnemar(df, truth=roles.truth, pred=roles.pred, a=a, b=b,
                            learner=roles.learner, instance=roles.instance,
                            by=[roles.dataset, *([roles.repeat] if roles.repeat else [])],
                            alpha=alpha)
            page.table(mc, caption="McNemar test per data set, pooled over the folds (eq 2.33)")
