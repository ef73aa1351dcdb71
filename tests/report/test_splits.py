"""Issue 23: the report on one data set's folds — the answer is the split-level comparison
(compare_learners with fold=), and with two learners the drill-down shows the corrected
resampled t test next to the book's paired t test and says which the verdict used."""

from __future__ import annotations

import html

import frameeval as fe
from tests.report.synthetic import synthetic_results


def test_two_learners_on_one_data_set_book_and_corrected_side_by_side(tmp_path) -> None:
    data = synthetic_results(datasets=1, learners=2, classes=2, binary=1, folds=5, instances=12)
    path = tmp_path / "two.html"
    fe.write_report(data, path)
    text = html.unescape(path.read_text(encoding="utf-8"))
    body = text[text.index("<body>") :]
    first = body[body.index('id="the-answer"') : body.index('id="data"')]
    per_fold = data.group_by("learner", "fold").agg(fe.accuracy("truth", "pred").alias("accuracy"))
    result = fe.compare_learners(per_fold, "accuracy", learner="learner", fold="fold")
    assert result.procedure == "corrected_t"
    assert result.verdict.split(" Procedure:")[0] in first
    drill = body[body.index('id="data"') :]
    assert "The book's paired t test over folds next to the corrected test the verdict used" in (
        drill
    )
    assert "The verdict uses the corrected test (corrected_t), not the book's paired t test" in (
        drill
    )
    pair = result.post_hoc.row(0, named=True)
    assert f"{pair['statistic']:.4f}" in drill  # the corrected statistic, as the table shows it
    book = fe.paired_t_test(
        per_fold, "accuracy", a=pair["a"], b=pair["b"], learner="learner", block="fold"
    )
    assert f"{book['statistic'][0]:.4f}" in drill
