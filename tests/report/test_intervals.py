"""The report's per-data-set values carry intervals, and its first lines (the headline per
measure) give the winner and significance with the same numbers as its results table
(issue 25, points 1 and 5)."""

from __future__ import annotations

import html
import re

import polars as pl
import pytest

import frameeval as fe
from frameeval.report.answer import Answer, procedures_sentence
from frameeval.report.roles import ReportRoles
from frameeval.report.tables import (
    AUC_RESAMPLES,
    accuracy_intervals,
    auc_intervals,
    collect,
    count_tables,
)

ROLES = dict(
    dataset="dataset",
    learner="learner",
    truth="truth",
    pred="pred",
    score="score",
    instance="instance",
    repeat="repeat",
    fold="fold",
)
CELL = re.compile(r"^(\d\.\d{3}) \[(\d\.\d{3}), (\d\.\d{3})\]$")


def _answer_part(path) -> str:
    text = path.read_text(encoding="utf-8")
    body = text[text.index("<body><h1") :]
    return body[body.index('id="the-answer"') : body.index('id="data"')]


def _table(first: str, metric: str) -> tuple[list[str], dict[str, dict[str, str]]]:
    """The results table of ``metric`` on the page: its learners (column order) and its
    cells, row name → learner → text (the average-rank row included)."""
    start = first.index(f'id="results-table-{metric}"')
    table = first[start : first.index("</table>", start)]
    learners = [
        html.unescape(m)
        for m in re.findall(rf'id="results-table-{metric}-c\d+">([^<]*)</th>', table)
    ]
    rows: dict[str, dict[str, str]] = {}
    for row in re.findall(r"<tr>(.*?)</tr>", table, flags=re.S):
        name = re.search(r'class="gt_row gt_left gt_stub">([^<]*)</th>', row)
        cells = re.findall(r"<td[^>]*>([^<]*)</td>", row)
        if name and cells:
            values = [html.unescape(c).replace(" †", "").strip() for c in cells]
            rows[html.unescape(name.group(1))] = dict(zip(learners, values, strict=True))
    return learners, rows


def test_the_headline_gives_winner_and_significance_with_the_tables_numbers(example_report) -> None:
    """Parse the answer's first line and its results table: the winner is the learner with
    the table's lowest average rank, the headline cites that rank exactly as printed (1.625,
    not 1.62), the verdict too, and the learners it is "not significantly better than" are
    those compare_learners' Nemenyi test does not separate from it."""
    first = _answer_part(example_report)
    headline = html.unescape(re.search(r'<p class="headline"><strong>(.*?)</strong>', first)[1])
    assert first.index('class="headline"') < first.index('class="verdict"')
    learners, rows = _table(first, "accuracy")
    ranks = rows["average rank"]
    best = min(learners, key=lambda name: float(ranks[name]))
    assert headline.startswith(f"{best} is best on accuracy (average rank {ranks[best]})")
    assert ranks[best] == "1.625"
    verdict = html.unescape(re.search(r'<p class="verdict">(.*?)</p>', first, re.S)[1])
    assert f"(average rank {ranks[best]})" in verdict and "1.62)" not in verdict
    # significance: the same as compare_learners on the same per-data-set means
    data = fe.datasets.example_results()
    per_fold = data.group_by("dataset", "learner", "repeat", "fold").agg(
        fe.accuracy("truth", "pred")
    )
    per_dataset = per_fold.group_by("dataset", "learner").agg(pl.col("accuracy").mean())
    result = fe.compare_learners(
        per_dataset, "accuracy", block="dataset", learner="learner", higher_is_better=True
    )
    pairs = result.post_hoc.filter((pl.col("a") == best) | (pl.col("b") == best))
    close = {
        a if a != best else b for a, b in pairs.filter(~pl.col("reject")).select("a", "b").rows()
    }
    said = headline.split("not significantly better than ", 1)[1].split(" (")[0]
    assert set(re.split(r", | or ", said)) == close
    assert "(Nemenyi test, α = 0.05)" in headline


def test_the_per_dataset_values_carry_wilson_intervals_equal_to_statsmodels(example_report) -> None:
    """Every cell of the accuracy table is "value [low, high]", and the bounds are
    statsmodels' proportion_confint(method="wilson") of the learner's correct predictions on
    the data set (pooled over the folds; one repeat), rounded as the table rounds."""
    from statsmodels.stats.proportion import proportion_confint

    first = _answer_part(example_report)
    learners, rows = _table(first, "accuracy")
    data = fe.datasets.example_results()
    counts = data.group_by("dataset", "learner").agg(
        (pl.col("truth") == pl.col("pred")).sum().cast(pl.Int64).alias("correct"),
        pl.len().cast(pl.Int64).alias("n"),
    )
    checked = 0
    for dataset, learner, correct, n in counts.rows():
        match = CELL.match(rows[dataset][learner])
        assert match, rows[dataset][learner]
        low, high = proportion_confint(correct, n, alpha=0.05, method="wilson")
        assert match.group(2) == f"{low:.3f}" and match.group(3) == f"{high:.3f}"
        checked += 1
    assert checked == len(learners) * 4
    assert "95% Wilson interval" in first and "Values: one per cell" not in first


def test_accuracy_intervals_equal_statsmodels_to_1e12(small_results) -> None:
    from statsmodels.stats.proportion import proportion_confint

    roles = ReportRoles(**ROLES)
    counts = count_tables(small_results.lazy(), roles)
    got = accuracy_intervals(counts, roles).sort("dataset", "learner")
    want = small_results.group_by("dataset", "learner").agg(
        (pl.col("truth") == pl.col("pred")).sum().alias("correct"), pl.len().alias("n")
    )
    joined = got.join(want, on=["dataset", "learner"])
    assert joined.height == got.height == 6
    for row in joined.iter_rows(named=True):
        low, high = proportion_confint(row["correct"], row["n"], alpha=0.05, method="wilson")
        assert abs(row["accuracy_low"] - low) < 1e-12
        assert abs(row["accuracy_high"] - high) < 1e-12


def test_accuracy_intervals_count_an_instance_once_per_repeat(small_results) -> None:
    """Two repeats of the same predictions: the same interval as one (trials are instances)."""
    roles = ReportRoles(**ROLES)
    twice = pl.concat([small_results, small_results.with_columns(pl.col("repeat") + 1)])
    one = accuracy_intervals(count_tables(small_results.lazy(), roles), roles)
    two = accuracy_intervals(count_tables(twice.lazy(), roles), roles)
    keys = ["dataset", "learner"]
    assert one.sort(keys).equals(two.sort(keys))


def test_auc_intervals_from_the_count_table_equal_the_bootstrap_on_the_rows(small_results) -> None:
    """The score count table's Poisson(n) draws are those fe.measures(ci=) makes on the rows
    (one unit per distinct row): the same interval, not the n · Poisson(1) of a weight."""
    roles = ReportRoles(**ROLES)
    counts = count_tables(small_results.lazy(), roles)
    assert counts.scores is not None
    ranking = fe.ranking_report(
        counts.scores, truth="truth", score="score", by=["dataset", "learner"], weight="__fe_n"
    )
    got = auc_intervals(counts, roles, None, ranking)
    assert got is not None
    rows = small_results.filter(pl.col("dataset") == "breast_cancer")
    (want,) = collect(
        fe.measures(
            rows.lazy(),
            truth="truth",
            score="score",
            by=["dataset", "learner"],
            measures=["roc_auc"],
            ci=0.95,
            n_resamples=AUC_RESAMPLES,
            seed=0,
        )
    )
    keys = ["dataset", "learner"]
    joined = got.join(want, on=keys).sort(keys)
    assert joined.height == 3
    for row in joined.iter_rows(named=True):
        assert abs(row["roc_auc_low"] - row["roc_auc_low_right"]) < 1e-12
        assert abs(row["roc_auc_high"] - row["roc_auc_high_right"]) < 1e-12
        assert row["roc_auc_low"] <= row["roc_auc"] <= row["roc_auc_high"]


def test_different_procedures_are_explained_in_one_sentence() -> None:
    def found(metric: str, procedure: str, reason: str) -> Answer:
        return Answer(metric, "", "", procedure=procedure, reason=reason)

    same = [found("accuracy", "friedman", "a"), found("roc_auc", "friedman", "b")]
    assert procedures_sentence(same) == ""
    differ = [
        found("accuracy", "friedman", "with 4 blocks normality cannot be checked"),
        found("roc_auc", "anova", "the differences look normal"),
    ]
    text = procedures_sentence(differ)
    assert "accuracy by the Friedman test with Nemenyi's post-hoc test" in text
    assert "roc_auc by the repeated-measures ANOVA with Tukey's HSD" in text
    assert "(the differences look normal)" in text


@pytest.mark.parametrize("fmt", ["markdown", "latex"])
def test_a_value_and_its_interval_read_alike_in_every_format(fmt) -> None:
    df = pl.DataFrame(
        {
            "dataset": ["d1", "d1", "d2", "d2"],
            "learner": ["A", "B"] * 2,
            "accuracy": [0.9, 0.8, 0.7, 0.75],
            "accuracy_low": [0.85, 0.74, 0.62, 0.69],
            "accuracy_high": [0.94, 0.85, 0.77, 0.80],
        }
    )
    text = fe.results_table(df, "accuracy", format=fmt, interval_name="95% Wilson interval")
    if fmt == "latex":  # the interval on a second line of the cell (issue 32: the width)
        text = text.replace("\\\\{\\scriptsize ", " ").replace("}\\end{tabular}", "")
        text = text.replace("\\begin{tabular}[t]{@{}r@{}}", "")
    assert "0.900 [0.850, 0.940]" in text and "0.750 [0.690, 0.800]" in text
    assert "95" in text and "Wilson interval" in text


def test_auc_intervals_are_left_out_past_the_budget(small_results, monkeypatch) -> None:
    """A score count table too long for the report's time: no bootstrap, and the answer's
    table title says why (the values are shown alone)."""
    import frameeval.report.tables as tables
    from frameeval.report.classification import answers_of

    roles = ReportRoles(**ROLES)
    counts = count_tables(small_results.lazy(), roles)
    monkeypatch.setattr(tables, "AUC_BUDGET", 0)
    assert auc_intervals(counts, roles, None, pl.DataFrame()) is None
    two = pl.concat(
        [
            small_results.filter(pl.col("dataset") == "breast_cancer"),
            small_results.filter(pl.col("dataset") == "breast_cancer").with_columns(
                pl.lit("breast_cancer_2").alias("dataset")
            ),
        ]
    )
    ranking = fe.ranking_report(two, truth="truth", score="score", by=["dataset", "learner"])
    found = answers_of(roles, 0.05, None, ranking=ranking)
    (auc,) = found
    assert "no intervals: the score count table is too long" in html.unescape(auc.table_html)
    assert "[" not in auc.downloads["results-roc_auc.csv"][1]


def test_a_verdict_that_cites_one_value_cites_its_interval() -> None:
    """One data set, no folds: nothing is tested, the verdict names the best value with its
    interval as the table prints it, and the headline names the winner with its value."""
    from frameeval.report.answer import answer

    per_block = pl.DataFrame(
        {
            "dataset": ["d"] * 3,
            "learner": ["a", "b", "c"],
            "accuracy": [0.9125, 0.85, 0.8],
            "accuracy_low": [0.88749, 0.81, 0.76],
            "accuracy_high": [0.9341, 0.88, 0.83],
        }
    )
    found = answer(per_block, "accuracy", block="dataset", learner="learner")
    assert found.verdict.startswith("a has the best accuracy (0.912 [0.887, 0.934]) on the one")
    assert found.headline.startswith("a is best on accuracy (0.912); one dataset")
    assert "0.912 [0.887, 0.934]" in html.unescape(found.table_html)


def test_the_regression_reports_rmse_carries_the_bootstrap_interval_of_its_value(
    regression_report,
) -> None:
    """Each RMSE cell (the mean over the folds) shows the percentile interval of that mean
    (split_mean_intervals); the interval holds the value."""
    first = _answer_part(regression_report)
    learners, rows = _table(first, "rmse")
    cells = [rows[d][learner] for d in rows if d != "average rank" for learner in learners]
    assert len(cells) == 4 * len(learners)
    for cell in cells:
        value, low, high = map(float, re.match(r"^([\d.]+) \[([\d.]+), ([\d.]+)\]$", cell).groups())
        assert low <= value <= high
    assert "95% bootstrap percentile interval of the mean over the folds" in first


def test_split_mean_intervals_without_splits_equal_the_bootstrap_of_fe_measures() -> None:
    from frameeval.uncertainty.intervals import split_mean_intervals

    data = fe.datasets.regression_results().filter(pl.col("dataset") == "diabetes")
    keys = ["dataset", "learner"]
    got = split_mean_intervals(
        data, "truth", "pred", by=keys, splits=[], measure="rmse", n_resamples=50, seed=4
    ).collect()
    want = fe.measures(
        data,
        truth="truth",
        pred="pred",
        by=keys,
        measures=["rmse"],
        ci=0.95,
        n_resamples=50,
        seed=4,
    )
    joined = got.join(want, on=keys)
    assert joined.height == want.height > 0
    assert (joined["rmse_low"] - joined["rmse_low_right"]).abs().max() < 1e-12
    assert (joined["rmse_high"] - joined["rmse_high_right"]).abs().max() < 1e-12
