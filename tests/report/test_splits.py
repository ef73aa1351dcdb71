"""Issue 23: the report on one data set's folds — the answer is the split-level comparison
(compare_learners with fold=), and with two learners the drill-down shows the corrected
resampled t test next to the book's paired t test and says which the verdict used."""

from __future__ import annotations

import html

import polars as pl

import frameeval as fe
from frameeval.compare.words import format_value
from tests.report.synthetic import synthetic_results


def _one_data_set_page(tmp_path, learners: int) -> tuple[pl.DataFrame, str, str]:
    """A report on one data set's 5 folds: the data, the page body and its first screen."""
    data = synthetic_results(
        datasets=1, learners=learners, classes=2, binary=1, folds=5, instances=12
    )
    path = tmp_path / "one.html"
    fe.write_report(data, path)
    text = html.unescape(path.read_text(encoding="utf-8"))
    body = text[text.index("<body>") :]
    return data, body, body[body.index('id="the-answer"') : body.index('id="data"')]


def test_two_learners_on_one_data_set_book_and_corrected_side_by_side(tmp_path) -> None:
    data, body, first = _one_data_set_page(tmp_path, learners=2)
    per_fold = data.group_by("learner", "fold").agg(fe.accuracy("truth", "pred").alias("accuracy"))
    result = fe.compare_learners(per_fold, "accuracy", learner="learner", fold="fold")
    assert result.procedure == "corrected_t"
    assert result.verdict.split(" Procedure:")[0] in first
    drill = body[body.index('id="data"') :]
    assert "The book's paired t test over folds next to the corrected test the verdict used" in (
        drill
    )
    assert (
        "The verdict uses the Nadeau–Bengio corrected resampled t test, not the book's paired t "
        "test" in drill
    )
    pair = result.post_hoc.row(0, named=True)
    # the corrected statistic, as the table shows it (the one display rule)
    assert format_value(pair["statistic"]) in drill
    book = fe.paired_t_test(
        per_fold, "accuracy", a=pair["a"], b=pair["b"], learner="learner", block="fold"
    )
    assert format_value(book["statistic"][0]) in drill


def test_split_mean_interval_is_the_corrected_resampled_t_interval() -> None:
    """One data set's table shows the mean over the folds with the Nadeau–Bengio corrected
    interval x̄ ± t_{1−α/2, J−1}·s·√(1/J + n_test/n_train), by hand with scipy; clipped to
    the measure's range; null with one split."""
    import math

    import pytest
    from scipy import stats

    from frameeval.report.answer import corrected_mean_interval

    values = {"a": [0.80, 0.82, 0.85, 0.81, 0.78], "b": [0.97, 1.0, 1.0, 0.99, 1.0], "c": [0.5]}
    per_split = pl.DataFrame(
        {
            "dataset": ["d"] * 11,
            "learner": [k for k, v in values.items() for _ in v],
            "fold": [i for v in values.values() for i in range(len(v))],
            "accuracy": [x for v in values.values() for x in v],
        }
    )
    out = corrected_mean_interval(per_split, "accuracy", "dataset", "learner", 1 / 4, alpha=0.05)
    assert out.columns == ["dataset", "learner", "accuracy", "accuracy_low", "accuracy_high"]
    for row in out.iter_rows(named=True):
        x = values[row["learner"]]
        j = len(x)
        mean = sum(x) / j
        assert row["accuracy"] == pytest.approx(mean, abs=1e-12)
        if j < 2:
            assert row["accuracy_low"] is None and row["accuracy_high"] is None
            continue
        sd = math.sqrt(sum((v - mean) ** 2 for v in x) / (j - 1))
        half = stats.t.ppf(0.975, j - 1) * sd * math.sqrt(1 / j + 1 / 4)
        assert row["accuracy_low"] == pytest.approx(max(mean - half, 0.0), abs=1e-12)
        assert row["accuracy_high"] == pytest.approx(min(mean + half, 1.0), abs=1e-12)
    assert out.filter(pl.col("learner") == "b")["accuracy_high"][0] == 1.0  # clipped


def test_one_data_set_table_shows_the_corrected_interval(tmp_path) -> None:
    """The report's table on one data set's folds: each cell the mean over the folds with its
    corrected resampled t interval (was mean ± sd), named in the footnote."""
    from frameeval.compare.words import format_interval
    from frameeval.report.answer import corrected_mean_interval

    data, _, first = _one_data_set_page(tmp_path, learners=3)
    assert "95% Nadeau–Bengio corrected resampled t interval of the mean over the splits" in first
    per_fold = data.group_by("dataset", "learner", "fold").agg(
        fe.accuracy("truth", "pred").alias("accuracy")
    )
    expected = corrected_mean_interval(per_fold, "accuracy", "dataset", "learner", 1 / 4)
    for row in expected.iter_rows(named=True):
        cell = format_interval(row["accuracy"], row["accuracy_low"], row["accuracy_high"])
        assert cell in first
    assert "mean ± standard deviation" not in first


def test_a_5x2_cv_page_names_only_the_combined_f_test(tmp_path) -> None:
    """Issue 32: on one data set under 5 repeats of 2-fold cross-validation the verdict uses
    Alpaydin's combined F test, but the table's intervals were "Nadeau–Bengio corrected
    resampled t" and the drill-down said "(cv5x2_f: the Nadeau–Bengio corrected resampled t
    test unless the design says otherwise)". Now the verdict, the marks and the drill-down name
    the combined F test and nothing else; no average-rank row; the data set is named by the
    input."""
    base = synthetic_results(datasets=1, learners=3, classes=2, binary=1, folds=2, instances=30)
    parts = []
    for r in range(5):
        flip = pl.int_range(pl.len()).shuffle(seed=r) < pl.len() // 5
        parts.append(
            base.with_columns(
                pl.lit(r).alias("repeat"),
                pl.when(flip).then(1 - pl.col("pred")).otherwise(pl.col("pred")).alias("pred"),
            )
        )
    data = pl.concat(parts).drop("dataset")
    path = tmp_path / "five.html"
    fe.write_report(data, path, source="runs/spam.parquet")
    body = html.unescape(path.read_text(encoding="utf-8"))
    body = body[body.index("<body>") :]
    assert "combined 5×2cv F test (Alpaydin)" in body
    assert "Nadeau–Bengio" not in body and "corrected resampled t" not in body
    first = body[body.index('id="the-answer"') : body.index('id="data"')]
    assert "average rank 1" not in first and ">average rank<" not in first
    assert "spam" in first and ">results<" not in first
