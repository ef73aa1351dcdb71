"""The report's Subgroups section (``frameeval report --sensitive COL [COL…]``): whom each
learner fails.

It answers first — per data set, the learner whose groups are furthest apart on the first
measure, with the interval of its gap and the paired test against the learner whose groups
are closest ("knn's recall gap across age groups is 0.21 [0.12, 0.30], larger than
logistic_regression's 0.05 (p = 0.003)") — then the table of gaps with their intervals
(:func:`frameeval.subgroups.gaps`), the picture of each group's value
(:func:`frameeval.charts.subgroup_gaps`) and the slices where the widest-gapped learner errs
most (:func:`frameeval.subgroups.slices` over the sensitive columns). Computes no statistic
itself.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from frameeval import charts, subgroups
from frameeval.exceptions import FrameEvalError
from frameeval.report.page import Page
from frameeval.report.sections import Section, Study
from frameeval.report.tables import MAX_FACETS, collect

__all__ = ["SUBGROUPS", "SUBGROUPS_STEP"]

SUBGROUPS_STEP = "subgroups"
#: bootstrap replicates of the gaps' intervals and of the paired comparison
RESAMPLES = 200
#: the measures compared across groups: binary data sets, then any other
BINARY = ("recall", "selection_rate", "accuracy")
MULTICLASS = ("accuracy",)
REFERENCE = (
    "Gaps between groups as in fairlearn's MetricFrame (difference = largest − smallest group "
    "value, ratio = smallest / largest; Weerts et al. 2023), with 95 % intervals from a "
    "bootstrap stratified by group; learners compared on the same rows by a paired "
    "bootstrap, p-values Holm-adjusted over the grid. docs/subgroups.md."
)


def _measures(study: Study) -> tuple[str, ...]:
    roles = study.roles
    (classes,) = collect(
        study.lf.group_by(roles.dataset).agg(pl.col(roles.truth).n_unique().alias("k"))
    )
    return BINARY if classes["k"].max() <= 2 else MULTICLASS  # type: ignore[operator]


def _tables(study: Study) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """Each group's values, the gaps between groups, and the learners' gaps compared."""
    roles, sensitive = study.roles, list(study.options.sensitive)
    assert roles.pred is not None
    common: dict[str, Any] = dict(
        sensitive=sensitive, by=[roles.dataset, roles.learner], pos_label=study.options.pos_label
    )
    measures: tuple[str, ...] = _measures(study)
    try:
        plans = _plans(study, measures, common)
    except FrameEvalError:  # e.g. string labels without a positive class: accuracy only
        measures = MULTICLASS
        plans = _plans(study, measures, common)
    values, gaps, compared = collect(*plans)
    return values, gaps, compared


def _plans(study: Study, measures: tuple[str, ...], common: dict[str, Any]) -> list[pl.LazyFrame]:
    roles = study.roles
    truth, pred = roles.truth, roles.pred
    lf = study.lf
    values = subgroups.by_group(lf, truth, pred, measures=list(measures), ci=0.95, **common)
    gaps = subgroups.gaps(
        lf, truth, pred, measures=list(measures), ci=0.95, n_resamples=RESAMPLES,
        instance=roles.instance, **common,
    )  # fmt: skip
    paired = dict(common, by=[roles.dataset])
    compared = subgroups.compare_gaps(
        lf, truth, pred, model=roles.learner, measures=list(measures), n_resamples=RESAMPLES,
        instance=roles.instance, **paired,
    )  # fmt: skip
    return [values, gaps, compared]


def _number(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def _widest(gaps: pl.DataFrame, roles: Any, dataset: Any) -> pl.DataFrame:
    """The learners of ``dataset`` with a defined gap of the first measure, widest first."""
    return gaps.filter(
        (pl.col(roles.dataset) == dataset)
        & (pl.col("measure") == gaps["measure"][0])
        & pl.col("difference").is_not_null()
    ).sort("difference", roles.learner, descending=[True, False])


def headline(gaps: pl.DataFrame, compared: pl.DataFrame, roles: Any, groups: str) -> list[str]:
    """One sentence per data set: the widest gap of the first measure, its interval, and the
    paired test against the narrowest."""
    out = []
    first = gaps["measure"][0]
    for dataset in gaps[roles.dataset].unique(maintain_order=True).to_list():
        rows = _widest(gaps, roles, dataset)
        if rows.height == 0:
            out.append(f"{dataset}: no learner has two groups with a defined {first}.")
            continue
        worst = rows.row(0, named=True)
        where = f"{dataset}: " if gaps[roles.dataset].n_unique() > 1 else ""
        sentence = (
            f"{where}{worst[roles.learner]}'s {first} gap across {groups} groups is "
            f"{_number(worst['difference'])} [{_number(worst['difference_low'])}, "
            f"{_number(worst['difference_high'])}] ({worst['group_at_min']} lowest, "
            f"{worst['group_at_max']} highest)"
        )
        if rows.height > 1:
            best = rows.row(rows.height - 1, named=True)
            pair = compared.filter(
                (pl.col(roles.dataset) == dataset)
                & (pl.col("measure") == first)
                & pl.col("a").is_in([worst[roles.learner], best[roles.learner]])
                & pl.col("b").is_in([worst[roles.learner], best[roles.learner]])
            )
            p = pair["p_adjusted"][0] if pair.height else None
            if p is not None and p <= 0.05:
                relation = "larger than"
            else:
                relation = "not distinguishable from"
            shown = "—" if p is None else f"{p:.2g}"
            sentence += (
                f", {relation} {best[roles.learner]}'s {_number(best['difference'])} "
                f"(paired bootstrap, Holm-adjusted p = {shown})"
            )
        out.append(sentence + ".")
    return out


def _section(page: Page, study: Study) -> None:
    roles = study.roles
    sensitive = list(study.options.sensitive)
    groups = " × ".join(sensitive)
    page.heading("Subgroups", REFERENCE)
    values, gaps, compared = _tables(study)
    for line in headline(gaps, compared, roles, groups):
        page.text(line, css="headline")
    undefined = gaps.filter(pl.col("undefined").list.len() > 0)
    if undefined.height:
        page.text(
            f"{undefined.height} gap(s) leave out groups whose value is undefined (e.g. recall "
            "of a group without positives): see the undefined column.",
            css="note",
        )
    table = gaps.select(
        roles.dataset, roles.learner, "measure", "difference", "difference_low",
        "difference_high", "ratio", "group_at_min", "group_at_max", "n_min_group",
        "n_max_group", pl.col("undefined").list.join(", "),
    )  # fmt: skip
    page.table(table, f"Gaps across {groups} groups (95 % stratified bootstrap intervals)")
    page.table(
        compared.select(
            roles.dataset,
            "measure",
            "a",
            "b",
            "gap_a",
            "gap_b",
            "difference",
            "ci_low",
            "ci_high",
            "p_adjusted",
            "reject",
        ),  # fmt: skip
        "Learners' gaps compared on the same rows (paired bootstrap; Holm over the grid)",
    )
    datasets = values[roles.dataset].unique(maintain_order=True).to_list()[:MAX_FACETS]
    for dataset in datasets:  # loop-ok: one chart per data set, a few
        mine = values.filter(pl.col(roles.dataset) == dataset).drop(roles.dataset)
        lines = gaps.filter(pl.col(roles.dataset) == dataset).drop(roles.dataset)
        page.chart(
            charts.subgroup_gaps(
                mine,
                lines,
                sensitive=sensitive,
                color=roles.learner,
                title=f"{dataset}: each group's value and the overall value",
            )  # fmt: skip
        )
    _slices(page, study, gaps, datasets)


def _slices(page: Page, study: Study, gaps: pl.DataFrame, datasets: list[Any]) -> None:
    roles = study.roles
    assert roles.pred is not None
    for dataset in datasets:  # loop-ok: one slice search per data set, a few
        ranked = _widest(gaps, roles, dataset)
        if ranked.height == 0:
            continue
        learner = ranked[roles.learner][0]
        # a sensitive column named like an output column of slices() ("size") is renamed
        features = {
            c: c + "_" if c in subgroups.slices_outputs else c for c in study.options.sensitive
        }
        rows = study.lf.filter(
            (pl.col(roles.dataset) == dataset) & (pl.col(roles.learner) == learner)
        ).select(roles.truth, roles.pred, *(pl.col(c).alias(a) for c, a in features.items()))
        searched = subgroups.slices(
            rows, roles.truth, roles.pred, features=list(features.values()), top=5,
            max_level=len(features), alpha=0.95,
        )  # fmt: skip
        (found,) = collect(searched)
        page.table(
            found.select(
                "slice", "size", "value", "complement_value", "difference", "score", "p_adjusted"
            ),  # fmt: skip
            f"{dataset}, {learner}: the slices where it errs most (SliceLine, α = 0.95; error "
            "rate inside and outside the slice; BH-adjusted p)",
            empty="No slice errs more than the rest by SliceLine's score.",
        )


#: The section, drawn for both tasks' classification results when --sensitive is given.
SUBGROUPS: tuple[Section, ...] = (
    Section(
        "subgroups",
        _section,
        task="classification",
        needs=("pred", "sensitive"),
        step=SUBGROUPS_STEP,
    ),
)
