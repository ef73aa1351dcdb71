"""The report's comparison section: the tests behind the answer on accuracy.

Over data sets: Friedman and Nemenyi with the CD diagram and the rank table on a complete
table, the Skillings–Mack test and its Holm z tests with missing cells; on one data set's
folds, every pair by the split-level test the verdict used; for exactly two learners, the
paired t test over the folds (beside the corrected test the verdict used) and McNemar's test,
the one test that pairs single predictions (its own streamed plan).
"""

from __future__ import annotations

import warnings
from typing import Any

import polars as pl

from frameeval import charts
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
from frameeval.compare.auto import TEST_NAMES
from frameeval.report.answer import Answer, reader_caveat, split_words
from frameeval.report.classification import ClassificationStudy, over_datasets, section
from frameeval.report.page import Page
from frameeval.report.roles import ReportRoles
from frameeval.report.sections import lacking
from frameeval.report.tables import (
    MAX_FACETS,
    REFERENCES,
    STEPS,
    collect,
    missing_cells,
    names,
    paired_datasets,
)

__all__ = ["COMPARISON"]

#: More pairs than this: the Nemenyi table lists only the pairs that differ.
MAX_PAIRS = 45


def _compare(page: Page, study: ClassificationStudy) -> None:
    assert study.per_split is not None and study.accuracy is not None  # with a pred column
    roles, per_dataset = study.roles, study.accuracy
    learners = study.counts.labels[roles.learner].n_unique()
    gaps = missing_cells(per_dataset, roles)
    page.heading(*_heading(study, learners, gaps.height))
    if learners < 2:
        why = (
            study.unused.why("learner")
            if "learner" in study.unused.missing
            else f"column {roles.learner!r} holds one value"
        )
        page.text(f"Only one learner: nothing to compare; {why}.", css="skip")
        return
    if gaps.height:
        _missing_note(page, gaps, two=learners == 2)
    n_datasets = per_dataset[roles.dataset].n_unique()
    _accuracy_chart(page, study, learners, n_datasets)
    if n_datasets >= 2 and learners != 2:
        if gaps.height:
            _skillings_mack(page, per_dataset, roles, study.options.alpha)
        else:
            found = study.answered("accuracy")
            drawn = found is not None and found.ranks is not None
            _friedman_nemenyi(page, per_dataset, roles, study.options.alpha, cd_drawn=drawn)
    elif n_datasets < 2:
        page.text(
            "Friedman and Nemenyi tests (eqs 2.34–2.36) compare learners over data sets: "
            "one data set here.",
            css="skip",
        )
    if learners == 2:
        _two_learners(page, study)
        return
    found = study.answered("accuracy")
    folds = found is not None and found.pairs is not None
    if found is not None and found.pairs is not None:
        _split_pairs(page, found, roles, n_datasets)
    page.text(
        f"Paired t test and McNemar's test (§2.4.1–2.4.2) compare exactly two learners; "
        f"here there are {learners} — see "
        + ("every pair on the folds above." if folds else "the tests over data sets above."),
        css="skip",
    )


def _heading(study: ClassificationStudy, learners: int, gaps: int) -> tuple[str, str]:
    """The section's heading and its reference: which tests it shows."""
    roles, per_dataset = study.roles, study.accuracy
    assert per_dataset is not None
    if learners == 2:
        return "Comparing two learners: paired t test and McNemar's test", REFERENCES["compare2"]
    if gaps:
        return "Comparing learners: Skillings–Mack test (missing results)", REFERENCES["missing"]
    if per_dataset[roles.dataset].n_unique() < 2 and roles.fold is not None:
        found = study.answered("accuracy")
        procedure = found.split_procedure if found else None
        return "Comparing learners on one data set's folds", _splits_reference(procedure)
    return "Comparing learners: Friedman and Nemenyi tests", REFERENCES["compare"]


def _splits_reference(procedure: str | None) -> str:
    """The reference of the split-level tests (the 5×2cv ones, or the corrected t test)."""
    return REFERENCES["splits_5x2" if "cv5x2" in (procedure or "") else "splits"]


def _missing_note(page: Page, gaps: pl.DataFrame, two: bool) -> None:
    """The (data set, learner) cells without a result, and what the tests do about them."""
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


def _accuracy_chart(page: Page, study: ClassificationStudy, learners: int, n_datasets: int) -> None:
    """Accuracy per fold (a panel per data set, while they fit), else per data set."""
    roles = study.roles
    width = max(200, min(1000, 34 * learners))
    if study.counts.splits and n_datasets <= MAX_FACETS:
        data, facet, title = study.per_split, roles.dataset, "Accuracy per fold"
        width = min(width, 300) if n_datasets > 1 else width
    elif n_datasets >= 2:
        data, facet = study.accuracy, None
        title = f"Accuracy per data set ({n_datasets} data sets, mean over folds)"
    else:
        return
    assert data is not None
    extra: dict[str, Any] = {} if facet is None else {"facet": facet}
    page.chart(
        charts.metric_distribution(
            data, "accuracy", learner=roles.learner, title=title, width=width, **extra
        )
    )


def _two_learners(page: Page, study: ClassificationStudy) -> None:
    """The paired t test over the folds and McNemar's test, on the data sets where every split
    has both learners' results."""
    roles, folds, lf = study.roles, study.counts.splits, study.lf
    per_split, per_dataset = study.per_split, study.accuracy
    assert per_split is not None and per_dataset is not None
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
    a, b = sorted(study.counts.labels[roles.learner].unique().to_list())
    if not folds:
        page.text(f"Paired t test over folds: {study.unused.why('fold')}.", css="skip")
    else:
        _paired_t(page, study, per_split, a, b)
    if not roles.instance:
        page.text(
            f"McNemar's test pairs single predictions: {study.unused.why('instance')}.", css="skip"
        )
        return
    assert roles.pred is not None  # the section applies when there is a pred column
    by = [roles.dataset, *([roles.repeat] if roles.repeat else [])]
    kw: dict[str, Any] = dict(learner=roles.learner, instance=roles.instance, by=by)
    (mc,) = collect(
        mcnemar(lf, truth=roles.truth, pred=roles.pred, a=a, b=b, alpha=study.options.alpha, **kw)
    )
    page.table(mc, caption="McNemar test per data set, pooled over the folds (eq 2.33)")


def _paired_t(
    page: Page, study: ClassificationStudy, per_split: pl.DataFrame, a: Any, b: Any
) -> None:
    """The book's paired t test over the folds, and beside it the test the verdict used."""
    roles = study.roles
    pair = roles.fold if roles.fold else study.counts.splits[-1]
    if roles.repeat:
        per_split = per_split.with_columns(
            pl.format("{}-{}", roles.repeat, roles.fold).alias("__split")
        )
        pair = "__split"
    ttest = paired_t_test(
        per_split, "accuracy", a=a, b=b, learner=roles.learner, block=pair, by=roles.dataset,
        higher_is_better=True, alpha=study.options.alpha,
    )  # fmt: skip
    page.table(ttest, caption=f"Paired t test per data set over folds ({a} − {b})")
    found = study.answered("accuracy")
    if found is not None and found.pairs is not None:
        _book_and_corrected(page, ttest, found, roles)


def _split_pairs(page: Page, found: Answer, roles: ReportRoles, n_datasets: int) -> None:
    """Every pair of learners on the folds of each data set: the split-level test the verdict
    used (compare_learners with fold=: the corrected resampled t test, Holm-adjusted)."""
    assert found.pairs is not None
    keys = [roles.dataset] if roles.dataset in found.pairs.columns else []
    if found.split_procedure == "bayes_correlated_t":
        shown = found.pairs.select(
            *keys, "a", "b", "difference", "p_a_better", "p_rope", "p_b_better", "reject", "better"
        )
    else:
        shown = found.pairs.select(
            *keys, "a", "b", pl.col("test").replace(TEST_NAMES), "difference", "statistic",
            "p_value", "p_adjusted", "reject", "better", "cohen_d",
        )  # fmt: skip
    where = "the data set" if n_datasets < 2 else "each data set"
    reference = _splits_reference(found.split_procedure) if n_datasets >= 2 else None
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


#: the post-hoc columns of the tests over data sets (rank-based pairs)
_RANK_PAIRS = ("a", "b", "average_rank_a", "average_rank_b")


def _skillings_mack(
    page: Page, per_dataset: pl.DataFrame, roles: ReportRoles, alpha: float
) -> None:
    """Missing (data set, learner) cells: the Skillings–Mack test and its Holm z tests."""
    kw = over_datasets(roles, alpha)
    page.table(
        skillings_mack(per_dataset, "accuracy", **kw),
        caption="Skillings–Mack test over data sets (mean accuracy per data set; missing "
        "cells allowed; equals Friedman's χ² on a complete table)",
    )
    post_hoc = rank_post_hoc(per_dataset, "accuracy", test="skillings_mack", adjust="holm", **kw)
    shown = post_hoc.select(*_RANK_PAIRS, "statistic", "p_adjusted", "reject")
    _pairs(page, shown, "Skillings–Mack pairwise z tests, Holm-corrected", "skillings-mack")


def _friedman_nemenyi(
    page: Page, per_dataset: pl.DataFrame, roles: ReportRoles, alpha: float, cd_drawn: bool = False
) -> None:
    """A complete table: Friedman, Nemenyi, the CD diagram (unless the answer drew it:
    ``cd_drawn``) and the rank table — the statistics behind the answer's headline, not the
    answer again."""
    kw = over_datasets(roles, alpha)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = friedman(per_dataset, "accuracy", **kw)
    page.table(
        table, caption="Friedman test over data sets (mean accuracy per data set; eqs 2.34–2.35)"
    )
    for note in dict.fromkeys(reader_caveat(str(w.message)) for w in caught):
        page.text(note, css="note")  # under the table whose χ² column it qualifies
    ranked: dict[str, Any] = dict(block=roles.dataset, learner=roles.learner, higher_is_better=True)
    ranks = average_ranks(per_dataset, "accuracy", **ranked)
    pairs = nemenyi(per_dataset, "accuracy", **kw)
    shown = pairs.select(*_RANK_PAIRS, "rank_difference", "critical_value", "reject")
    _pairs(page, shown, "Nemenyi post-hoc test (eq 2.36)", "nemenyi")
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
                pairs["critical_value"][0],
                learner=roles.learner,
                title=f"Average ranks with critical difference (α = {alpha})",
            )
        )
    page.chart(
        charts.rank_heatmap(
            rank_table(per_dataset, "accuracy", **ranked),
            learner=roles.learner,
            block=roles.dataset,
            title="Rank of each learner on each data set",
        )
    )


_NO_PRED = lacking("pred", "The tests on accuracy need hard predictions")
COMPARISON = section("compare", _compare, STEPS.compare, "Comparing learners", _NO_PRED)
