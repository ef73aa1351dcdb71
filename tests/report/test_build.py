"""The report's numbers: the streamed count tables (rows per data set × learner × split × truth ×
pred, and per data set × learner × truth × distinct score) carry every result exactly — the
library's functions with ``weight=`` on them equal the same functions on the rows (oracle: the
rows themselves, and scikit-learn for AUC), grouped, on randomized data."""

from __future__ import annotations

import html
import json
import re

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

import frameeval as fe
from frameeval.compare.words import format_p, format_value
from frameeval.report.build import STEPS, N, build_report, count_tables
from frameeval.report.page import header
from frameeval.report.roles import Roles
from tests.helpers.examples import budget

ROLES = dict(
    truth="truth",
    pred="pred",
    score="score",
    learner="learner",
    dataset="dataset",
    fold="fold",
    instance="instance",
)


def _frame(seed: int, datasets: int, learners: int, rows: int) -> pl.DataFrame:
    """Random grouped results: data set 0 has 3 classes (no curves), the others are binary."""
    rng = np.random.default_rng(seed)
    n = datasets * learners * rows
    d = np.repeat(np.arange(datasets), learners * rows)
    k = np.where(d == 0, 3, 2) if datasets > 1 else np.full(n, 2)
    truth = rng.integers(0, 1 << 20, n) % k
    pred = np.where(rng.random(n) < 0.7, truth, rng.integers(0, 1 << 20, n) % k)
    return pl.DataFrame(
        {
            "dataset": [f"d{x}" for x in d],
            "learner": [f"l{x}" for x in np.tile(np.repeat(np.arange(learners), rows), datasets)],
            "fold": np.tile(np.arange(rows) % 3, datasets * learners),
            "instance": np.tile(np.arange(rows), datasets * learners),
            "truth": truth,
            "pred": pred,
            "score": rng.integers(0, 12, n) / 11.0,  # ties, as real scores have
        }
    ).sample(fraction=1.0, shuffle=True, seed=seed)  # row order must not matter


@settings(max_examples=budget(12))
@given(
    seed=st.integers(0, 10_000),
    datasets=st.integers(1, 3),
    learners=st.integers(1, 3),
    rows=st.integers(6, 40),
)
def test_count_tables_carry_every_result_exactly(seed, datasets, learners, rows) -> None:
    df = _frame(seed, datasets, learners, rows)
    counts = count_tables(df.lazy(), Roles(**ROLES))
    keys = ["dataset", "learner"]
    assert counts.labels[N].sum() == df.height  # every row counted once
    weighted = fe.classification_report(
        counts.labels, truth="truth", pred="pred", by=keys, weight=N
    )
    plain = fe.classification_report(df, truth="truth", pred="pred", by=keys)
    assert_frame_equal(
        weighted.drop("support"), plain.drop("support"), rel_tol=1e-12, abs_tol=1e-12
    )
    assert (weighted["support"] == plain["support"].cast(weighted["support"].dtype)).all()
    matrix = fe.confusion_matrix(counts.labels, truth="truth", pred="pred", by=keys, weight=N)
    expected = fe.confusion_matrix(df, truth="truth", pred="pred", by=keys)
    assert matrix["count"].cast(pl.Int64).equals(expected["count"].cast(pl.Int64))
    binary = sorted(
        df.filter(pl.col("truth").n_unique().over("dataset") == 2)["dataset"].unique().to_list()
    )
    assert counts.binary == counts.scored == binary
    if not binary:
        assert counts.scores is None
        return
    rows_binary = df.filter(pl.col("dataset").is_in(binary))
    got = fe.ranking_report(counts.scores, truth="truth", score="score", by=keys, weight=N)
    want = fe.ranking_report(rows_binary, truth="truth", score="score", by=keys)
    assert_frame_equal(got, want, rel_tol=1e-12, abs_tol=1e-12)
    from sklearn.metrics import roc_auc_score

    for (dataset, learner), part in rows_binary.partition_by(keys, as_dict=True).items():
        if part["truth"].n_unique() == 2:  # the oracle, per group
            auc = got.filter((pl.col("dataset") == dataset) & (pl.col("learner") == learner))
            assert abs(auc["roc_auc"][0] - roc_auc_score(part["truth"], part["score"])) < 1e-9
    # the calibration section's numbers: counts as frequency weights = the rows
    kw = dict(truth="truth", score="score", by=keys)
    curve = fe.calibration_curve(counts.scores, weight=N, frequency_weights=True, **kw)
    rows_curve = fe.calibration_curve(rows_binary, **kw)
    assert curve.select(*keys, "bin").equals(rows_curve.select(*keys, "bin"))
    assert (curve["weight"] == rows_curve["count"].cast(pl.Float64)).all()
    for c in ("mean_score", "fraction_positive", "ci_low", "ci_high"):
        assert np.allclose(curve[c], rows_curve[c], rtol=1e-12, atol=1e-12)
    errors = fe.calibration_error(counts.scores, weight=N, **kw)
    assert_frame_equal(
        errors, fe.calibration_error(rows_binary, **kw), rel_tol=1e-12, abs_tol=1e-12
    )
    for objective in ({"measure": "f1"}, {"costs": (1.0, 5.0)}):
        assert_frame_equal(
            fe.best_threshold(counts.scores, weight=N, **kw, **objective),
            fe.best_threshold(rows_binary, **kw, **objective),
            rel_tol=1e-12,
            abs_tol=1e-12,
        )


def test_lazy_and_eager_input_give_the_same_page(small_results) -> None:
    lazy = build_report(small_results.lazy(), Roles(**ROLES, repeat="repeat")).render()
    eager = build_report(small_results, Roles(**ROLES, repeat="repeat")).render()
    assert lazy == eager


def test_progress_is_told_every_step_in_order(small_results) -> None:
    said: list[str] = []
    build_report(small_results, Roles(**ROLES, repeat="repeat"), progress=said.append)
    assert said == list(STEPS)


def test_sections_that_do_not_apply_say_why(small_results) -> None:
    text = build_report(small_results, Roles(**ROLES, repeat="repeat")).render()
    assert (
        "ROC, P-R and cost curves: binary data sets with scores only; iris "
        "has 3+ classes — see the macro / micro table."
    ) in text
    assert (
        "Paired t test and McNemar&#x27;s test (§2.4.1–2.4.2) compare exactly two learners; "
        "here there are 3" in text
    )
    # the §2.4 heading promises only the tests it shows
    assert "Comparing learners: Friedman and Nemenyi tests</h2>" in text
    two = small_results.filter(pl.col("learner").is_in(["knn", "naive_bayes"]))
    text = build_report(two, Roles(**ROLES, repeat="repeat")).render()
    assert "Comparing two learners: paired t test and McNemar&#x27;s test</h2>" in text
    assert "McNemar test per data set" in text


def test_score_decimals_round_the_scores_and_say_so(small_results) -> None:
    text = build_report(small_results, Roles(**ROLES, repeat="repeat"), score_decimals=1).render()
    assert "Scores are rounded to 1 decimals" in text


def test_the_page_has_a_table_of_contents_with_anchors(small_results) -> None:
    text = build_report(small_results, Roles(**ROLES, repeat="repeat")).render()
    toc = re.search(r'<nav class="toc">(.*?)</nav>', text).group(1)
    anchors = re.findall(r'href="#([\w-]+)"', toc)
    assert anchors[:3] == ["the-answer", "which-learner-is-best-on-accuracy", "data"]
    for anchor in anchors:
        assert text.count(f'id="{anchor}"') == 1


def test_the_csv_download_is_the_results_table(small_results) -> None:
    from urllib.parse import unquote

    text = build_report(small_results, Roles(**ROLES, repeat="repeat")).render()
    href = re.search(
        r'download="results-accuracy.csv" href="data:text/csv;charset=utf-8,([^"]*)"', text
    ).group(1)
    csv = pl.read_csv(unquote(href).encode())
    assert csv.columns == [
        "dataset",
        "learner",
        "accuracy",
        "accuracy_low",
        "accuracy_high",
        "average_rank",
    ]
    assert (csv["accuracy_low"] <= csv["accuracy_high"]).all()
    per_fold = small_results.group_by("dataset", "learner", "repeat", "fold").agg(
        fe.accuracy("truth", "pred")
    )
    expected = per_fold.group_by("dataset", "learner").agg(pl.col("accuracy").mean())
    joined = csv.join(expected, on=["dataset", "learner"], suffix="_rows")
    assert joined.height == expected.height == 6
    assert (joined["accuracy"] - joined["accuracy_rows"]).abs().max() < 1e-12


def test_a_200k_row_partitioned_study_streams_into_a_small_page(tmp_path) -> None:
    """The main job at a suite-friendly size (the 20M-row run is in benchmarks/): Parquet
    files, no per-row data in the page, every chart's data under Altair's 5,000-row limit."""
    from benchmarks.study import generate

    paths = generate(tmp_path / "study", datasets=4, learners=5, folds=5, instances=2_000)
    assert pl.scan_parquet(paths).select(pl.len()).collect().item() == 200_000
    out = fe.write_report(pl.scan_parquet(paths), tmp_path / "report.html")
    text = out.read_text(encoding="utf-8")
    assert len(text.encode()) < 5 * 2**20
    specs = json.loads(re.search(r'id="frameeval-specs">(.*?)</script>', text, re.S).group(1))
    for spec in specs:
        for rows in spec.get("datasets", {}).values():
            assert len(rows) <= 5_000
    assert '<h2 id="roc-p-r-and-cost-curves">' in text and "200,000 predictions" in text


def _section(text: str, anchor: str) -> str:
    """The HTML of one section: from its heading to the next level-2 heading."""
    start = text.index(f'<h2 id="{anchor}">')
    end = text.find("<h2 ", start + 1)
    return text[start : end if end > 0 else len(text)]


def test_the_example_report_has_calibration_and_operating_points(example_report) -> None:
    """Issue 18 point 3 / issue 16 point 5: scores in [0, 1] → a section after the curves with
    the reliability diagrams, log loss / Brier / ECE per learner and the best thresholds; its
    numbers are those of the rows (breast_cancer, pooled over the folds)."""
    text = example_report.read_text(encoding="utf-8")
    toc = re.search(r'<nav class="toc">(.*?)</nav>', text).group(1)
    anchors = re.findall(r'href="#([\w-]+)"', toc)
    assert "calibration-and-operating-point" in anchors
    where = anchors.index("calibration-and-operating-point")
    assert anchors[where - 1] == "roc-p-r-and-cost-curves"
    assert anchors[where + 1].startswith("comparing-")
    section = _section(text, "calibration-and-operating-point")
    assert "digits, iris, wine have 3+ classes" in section  # why only breast_cancer
    for column in ("log_loss", "brier_score", "ece", "threshold_f1", "expected_cost"):
        assert f">{header(column)}</th>" in section  # headers in words (issue 32)
    assert section.count('class="chart"') == 1  # one data set: one faceted diagram
    rows = fe.datasets.example_results().filter(pl.col("dataset") == "breast_cancer")
    kw = dict(truth="truth", score="score", by="learner")
    ece = fe.calibration_error(rows, **kw).filter(pl.col("learner") == "logistic_regression")
    best = fe.best_threshold(rows, **kw).filter(pl.col("learner") == "logistic_regression")
    assert f"<td>{format_value(ece['ece'].item())}</td>" in section
    assert f"<td>{format_value(best['threshold'].item())}</td>" in section
    spec = json.loads(re.search(r'id="frameeval-specs">(.*?)</script>', text, re.S).group(1))
    titles = json.dumps(spec)
    assert "Reliability diagrams (Wilson 95% intervals): breast_cancer" in titles


def test_non_probability_scores_say_why(small_results) -> None:
    logits = small_results.with_columns(pl.col("score") * 10 - 5)
    text = build_report(logits, Roles(**ROLES, repeat="repeat")).render()
    section = _section(text, "calibration-and-operating-point")
    assert (
        "Calibration and operating point: scores are not probabilities — they range over "
        "[-5, 5], outside [0, 1]"
    ) in section
    assert 'class="chart"' not in section and "<table" not in section
    assert 'class="chart"' in _section(text, "roc-p-r-and-cost-curves")  # curves still drawn


def test_no_binary_data_set_says_why(small_results) -> None:
    iris = small_results.filter(pl.col("dataset") == "iris")
    text = build_report(iris, Roles(**ROLES, repeat="repeat")).render()
    section = _section(text, "calibration-and-operating-point")
    assert (
        "Calibration and operating point: binary data sets with scores only; "
        "iris has 3+ classes — see the macro / micro table."
    ) in section
    assert 'class="chart"' not in section


# ---------------------------------------------------------------------------------------------
# continuous scores: the score table on a threshold grid, the ranking measures from the rows
# ---------------------------------------------------------------------------------------------
def _continuous(seed: int = 5) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    frame = _frame(seed, datasets=3, learners=2, rows=60)
    noise = rng.random(frame.height)
    return frame.with_columns(
        ((pl.col("truth") * 0.3 + pl.Series(noise) * 0.7).clip(0, 1)).alias("score")
    )


def test_many_distinct_scores_use_a_grid_for_curves_and_the_rows_for_ranking(monkeypatch) -> None:
    from frameeval.report import tables

    monkeypatch.setattr(tables, "GRID_CELLS", 10)  # this small frame counts as "many"
    df = _continuous()
    roles = Roles(**ROLES)
    counts = count_tables(df.lazy(), roles)
    assert counts.grid == 0.001 and counts.rows is not None and counts.scores is not None
    # the table holds grid values only (scores floored to multiples of 0.001)
    on = counts.scores["score"].to_numpy()
    assert np.allclose(on, np.round(on, 3)) and counts.scores["score"].n_unique() <= 1001
    # the ranking measures are those of the rows, not of the floored scores
    exact = fe.ranking_report(
        df.filter(pl.col("dataset").is_in(counts.scored)),
        truth="truth",
        score="score",
        by=["dataset", "learner"],
    )
    ranking = tables.exact_from_rows(
        counts, roles, ["roc_auc", "rank_loss", "average_precision", "pr_auc"], None
    )
    assert_frame_equal(ranking, exact, rel_tol=1e-12)
    unpaired = Roles(**{k: v for k, v in ROLES.items() if k != "instance"})  # random truths
    text = build_report(df, unpaired).render()
    assert "thresholds on a grid of step 0.001" in text
    assert "exact, from the rows" in text


@settings(max_examples=budget(25))
@given(
    scores=st.lists(st.floats(-50, 50, allow_nan=False), min_size=1, max_size=30),
    step_exponent=st.integers(-4, 1),
    k=st.integers(-60_000, 60_000),
)
def test_a_floored_score_passes_a_grid_threshold_iff_the_score_does(
    scores, step_exponent, k
) -> None:
    from frameeval.report.tables import on_grid

    step = 10.0**step_exponent
    threshold = round(k * step, 6)
    frame = pl.DataFrame({"s": scores + [threshold]})  # a score exactly on the grid too
    floored = frame.select(on_grid(pl.col("s"), step))["s"].to_list()
    for raw, low in zip(frame["s"].to_list(), floored, strict=True):
        assert low <= raw + 1e-9 and raw - low < step + 1e-9
        assert (low >= threshold) == (raw >= threshold)


def test_the_grid_step_is_the_power_of_ten_near_a_thousandth_of_the_range() -> None:
    from frameeval.report.tables import _HIGH, _LOW, grid_step

    def step(low: float, high: float) -> float:
        return grid_step(pl.DataFrame({_LOW: [low], _HIGH: [high]}))

    assert step(0.0, 1.0) == 0.001
    assert step(0.02, 0.97) == 0.001
    assert step(-5.0, 5.0) == 0.01
    assert step(0.5, 0.5) == 0.001  # one value: the unit range


#: the result columns the drill-down tables below read by name (their headers are words)
HEADER_COLUMNS = ("a", "b", "statistic", "p_value", "p_adjusted", "n_missing", "dataset")


def p_text(p: float) -> str:
    """A p-value as the page's tables print it (the one p rule)."""
    return html.escape(format_p(p).removeprefix("p = ").removeprefix("p "))


def _table_after(text: str, caption: str) -> list[dict[str, str]]:
    """The rows of the page table whose caption starts with ``caption`` (cells as text)."""
    start = text.index(f'<p class="caption"><b>{caption}')
    body = text[start : text.index("</table>", start)]
    head = re.findall(r"<th(?: [^>]*)?>(.*?)</th>", body)
    words = {header(c): c for c in HEADER_COLUMNS}  # the column behind each header
    head = [words.get(html.unescape(h), h) for h in head]
    return [
        dict(zip(head, re.findall(r"<td(?: [^>]*)?>(.*?)</td>", row), strict=True))
        for row in re.findall(r"<tr><td.*?</tr>", body)
    ]


def test_a_failed_run_is_a_missing_cell_tested_by_skillings_mack(small_results) -> None:
    """Issue 17 in the main job: a learner with no result on a data set (a failed run) does
    not stop the report. The answer and the drill-down use the Skillings–Mack test and its
    Holm-corrected z tests, whose numbers are the library's on the per-data-set accuracies;
    the page names the missing cell."""
    gap = small_results.filter(~((pl.col("dataset") == "iris") & (pl.col("learner") == "knn")))
    text = build_report(gap, Roles(**ROLES, repeat="repeat")).render()
    assert "Comparing learners: Skillings–Mack test (missing results)</h2>" in text
    note = "1 (data set, learner) cell has no result (a failed or missing run): knn on iris."
    assert note in text
    assert "Procedure: skillings_mack, because 1 missing (block, learner) cell." in text
    assert "Friedman test over data sets" not in text
    per_fold = gap.group_by("dataset", "learner", "repeat", "fold").agg(
        fe.accuracy("truth", "pred")
    )
    per_dataset = per_fold.group_by("dataset", "learner").agg(pl.col("accuracy").mean())
    kw = dict(block="dataset", learner="learner", higher_is_better=True)
    sm = fe.skillings_mack(per_dataset, "accuracy", **kw).row(0, named=True)
    (shown,) = _table_after(text, "Skillings–Mack test over data sets")
    assert sm["n_missing"] == 1 and shown["n_missing"] == "1"
    assert shown["statistic"] == format_value(sm["statistic"])
    assert shown["p_value"] == p_text(sm["p_value"])
    post_hoc = fe.rank_post_hoc(
        per_dataset, "accuracy", test="skillings_mack", adjust="holm", **kw
    ).sort("a", "b")
    pairs = _table_after(text, "Skillings–Mack pairwise z tests, Holm-corrected")
    assert [(r["a"], r["b"]) for r in pairs] == post_hoc.select("a", "b").rows()
    assert [r["p_adjusted"] for r in pairs] == [p_text(p) for p in post_hoc["p_adjusted"]]


def test_two_learners_pair_only_the_data_sets_where_both_ran(small_results) -> None:
    """With two learners, the paired t and McNemar tests use the data sets where both have a
    result on every split, and the page names the ones left out (a whole data set missing, or
    one fold)."""
    two = small_results.filter(pl.col("learner").is_in(["knn", "naive_bayes"]))
    iris_knn = (pl.col("dataset") == "iris") & (pl.col("learner") == "knn")
    one_fold = two.filter(~(iris_knn & (pl.col("fold") == 3)))
    for data in (two.filter(~iris_knn), one_fold):
        text = build_report(data, Roles(**ROLES, repeat="repeat")).render()
        assert (
            "The paired tests below pair the two learners&#x27; results on every split of a "
            "data set; left out, where a split lacks one of them: iris."
        ) in text
        (ttest,) = _table_after(text, "Paired t test per data set over folds")
        (mcnemar,) = _table_after(text, "McNemar test per data set")
        assert ttest["dataset"] == mcnemar["dataset"] == "breast_cancer"
    alone = fe.paired_t_test(
        one_fold.filter(pl.col("dataset") == "breast_cancer")
        .group_by("learner", "repeat", "fold")
        .agg(fe.accuracy("truth", "pred"))
        .with_columns(pl.format("{}-{}", "repeat", "fold").alias("split")),
        "accuracy",
        a="knn",
        b="naive_bayes",
        block="split",
        higher_is_better=True,
    ).row(0, named=True)
    assert ttest["statistic"] == format_value(alone["statistic"])


def test_a_rope_answers_with_the_bayesian_signed_rank_test(small_results) -> None:
    """``rope=`` reaches the answer: the verdict is the Bayesian signed-rank test's, and the
    matrix drawn carries the library's posterior probabilities of every pair (50,000 samples,
    seed 0, as ``compare_learners`` runs it) on the per-data-set accuracies."""
    text = build_report(small_results, Roles(**ROLES, repeat="repeat"), rope=0.02).render()
    assert "The Bayesian signed-rank test (rope = 0.02)" in text
    specs = json.loads(re.search(r'id="frameeval-specs">(.*?)</script>', text, re.S).group(1))
    (matrix,) = [
        s for s in specs if "Bayesian signed-rank test on accuracy" in json.dumps(s.get("title"))
    ]
    (rows,) = matrix["datasets"].values()
    drawn = {(r["a"], r["b"]): (r["p_a_better"], r["p_rope"], r["p_b_better"]) for r in rows}
    per_fold = small_results.group_by("dataset", "learner", "repeat", "fold").agg(
        fe.accuracy("truth", "pred")
    )
    per_dataset = per_fold.group_by("dataset", "learner").agg(pl.col("accuracy").mean())
    expected = fe.bayes_signed_rank(
        per_dataset, "accuracy", rope=0.02, block="dataset", learner="learner", seed=0
    )
    assert expected.height == 3 and len(drawn) == 6  # both triangles
    for r in expected.iter_rows(named=True):
        got = drawn[(r["a"], r["b"])]
        want = (r["p_a_better"], r["p_rope"], r["p_b_better"])
        assert got == pytest.approx(want, abs=1e-12)
        assert drawn[(r["b"], r["a"])] == pytest.approx(want[::-1], abs=1e-12)
