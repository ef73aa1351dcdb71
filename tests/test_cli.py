"""The ``frameeval`` command: help, version, the report, and one-line errors."""

from __future__ import annotations

import argparse
import io
import os
import re
import subprocess
import sys
import warnings
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import polars as pl
import pytest

import frameeval as fe
from frameeval.cli import main


def run_process(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m frameeval ARGS`` in a new interpreter: for what only a real process shows
    (the module entry point, its exit code, no traceback reaching the terminal)."""
    return subprocess.run(
        [sys.executable, "-m", "frameeval", *args], capture_output=True, text=True, timeout=300
    )


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``frameeval ARGS`` as ``python -m frameeval`` runs it — ``frameeval.cli.main(ARGS)``, its
    return value the exit code — but in this process: its standard output and error captured,
    an ``argparse`` exit caught, warnings printed rather than raised (as a new interpreter
    would). The tests that need a real process say so (``run_process``); the others save an
    interpreter start and the imports of the report (about 2 s of CPU a call)."""
    out, err = io.StringIO(), io.StringIO()
    here = Path.cwd()
    try:
        if cwd is not None:
            os.chdir(cwd)
        with redirect_stdout(out), redirect_stderr(err), warnings.catch_warnings():
            warnings.simplefilter("default")
            try:
                code = main(list(args))
            except SystemExit as stop:  # argparse: --help, --version, a usage error
                code = stop.code if isinstance(stop.code, int) else int(stop.code is not None)
    finally:
        os.chdir(here)
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


def test_help_and_version() -> None:
    out = run_process("--help")
    assert out.returncode == 0 and "report" in out.stdout
    version = run_process("--version")
    assert version.returncode == 0 and version.stdout.strip() == f"frameeval {fe.__version__}"


def test_report_on_a_parquet_file_infers_roles_and_refuses_to_overwrite(tmp_path) -> None:
    data = fe.datasets.example_results().filter(
        pl.col("dataset").is_in(["breast_cancer", "iris"])
        & pl.col("learner").is_in(["knn", "naive_bayes"])
    )
    results = tmp_path / "results.parquet"
    data.write_parquet(results)
    target = tmp_path / "out.html"
    first = run("report", str(results), "-o", str(target))
    assert first.returncode == 0, first.stderr
    assert "truth='truth' (inferred)" in first.stderr and "wrote" in first.stderr
    html = target.read_text()
    # two learners on two data sets: the answer uses the Wilcoxon test (too few blocks to check
    # normality); the drill-down shows the paired t test and McNemar
    assert html.startswith("<!DOCTYPE html>") and "Wilcoxon" in html and "McNemar" in html
    second = run("report", str(results), "-o", str(target))
    assert second.returncode == 2
    assert second.stderr.strip().count("\n") == 0  # one line, no traceback
    assert "-o/--output" in second.stderr and "pass --force" in second.stderr
    assert run("report", str(results), "-o", str(target), "--force", "-q").returncode == 0


def test_report_errors_are_one_line(tmp_path) -> None:
    # a real process: its exit code and its terminal show no traceback
    missing = run_process("report", str(tmp_path / "nope.parquet"), "-o", str(tmp_path / "r.html"))
    assert missing.returncode == 2 and "RESULTS" in missing.stderr
    assert "Traceback" not in missing.stderr
    csv = tmp_path / "r.csv"
    pl.DataFrame({"a": [1, 2], "b": [0, 1]}).write_csv(csv)
    no_truth = run("report", str(csv), "-o", str(tmp_path / "r.html"))
    assert no_truth.returncode == 2 and "--truth must be given" in no_truth.stderr
    assert not (tmp_path / "r.html").exists()  # nothing partial left behind
    both = run("report", str(csv), "--example")
    assert both.returncode == 2 and "not both" in both.stderr


def test_report_reads_a_glob_of_parquet_files_and_csv(tmp_path) -> None:
    data = fe.datasets.example_results().filter(
        (pl.col("dataset") == "iris") & pl.col("learner").is_in(["knn", "naive_bayes"])
    )
    for fold in (0, 1):  # two files of one table
        part = data.filter((pl.col("fold") % 2) == fold)
        part.write_parquet(tmp_path / f"part-{fold}.parquet")
    target = tmp_path / "glob.html"
    out = run("report", str(tmp_path / "part-*.parquet"), "-o", str(target), "-q")
    assert out.returncode == 0, out.stderr
    assert f"{data.height:,} predictions" in target.read_text()
    data.write_csv(tmp_path / "results.csv")
    csv_out = run("report", str(tmp_path / "results.csv"), "-o", str(tmp_path / "c.html"), "-q")
    assert csv_out.returncode == 0, csv_out.stderr


# --------------------------------------------------------------------------------------------
# a CLI that speaks CLI (issue 15): one line on stderr naming the flag, exit 2, before any work
# --------------------------------------------------------------------------------------------
def _results(tmp_path, name: str = "r.parquet", **changes) -> str:
    import numpy as np

    rng = np.random.default_rng(0)
    n = 80
    df = pl.DataFrame(
        {
            "dataset": np.repeat(["a", "b"], n // 2),
            "model": np.tile(["m1", "m2"], n // 2),
            "y": rng.integers(0, 2, n),
            "p": rng.integers(0, 2, n),
            "s": rng.random(n),
        }
    )
    df = df.with_columns(**changes)
    path = tmp_path / name
    df.write_parquet(path)
    return str(path)


def assert_usage_error(out: subprocess.CompletedProcess[str], *fragments: str) -> str:
    """Exit 2, one line on stderr (no traceback, no progress), containing each fragment."""
    assert out.returncode == 2, out.stderr
    line = out.stderr.strip()
    assert "\n" not in line, line
    assert line.startswith("frameeval report: error: "), line
    for fragment in fragments:
        assert fragment in line, (fragment, line)
    return line


@pytest.mark.parametrize(
    ("flag", "typo", "close"),
    [
        ("--truth", "yy", "y"),
        ("--pred", "pp", "p"),
        ("--score", "ss", "s"),
        ("--learner", "modle", "model"),
        ("--by", "datset", "dataset"),
        ("--fold", "folds", None),
        ("--repeat", "rep", None),
        ("--instance", "row", None),
    ],
)
def test_a_typo_in_each_role_flag_names_the_flag(tmp_path, flag: str, typo: str, close) -> None:
    out = run("report", _results(tmp_path), flag, typo, "-o", str(tmp_path / "r.html"))
    line = assert_usage_error(
        out, f"{flag} must name a column, got {typo!r}", "['dataset', 'model'"
    )
    if close:
        assert line.endswith(f"did you mean {close!r}?")
    assert not (tmp_path / "r.html").exists()


def test_string_labels_need_pos_label(tmp_path) -> None:
    labels = {0: "no", 1: "yes"}
    path = _results(
        tmp_path, y=pl.col("y").replace_strict(labels), p=pl.col("p").replace_strict(labels)
    )
    out = run("report", path, "-o", str(tmp_path / "r.html"))
    assert_usage_error(
        out,
        "--pos-label must name the positive class of the binary data sets when "
        "labels are strings, got labels ['no', 'yes'].",
    )
    wrong = run("report", path, "--pos-label", "maybe", "-o", str(tmp_path / "r.html"))
    assert_usage_error(
        wrong, "--pos-label must be one of the labels of --truth column 'y', got 'maybe'"
    )
    ok = run("report", path, "--pos-label", "yes", "-o", str(tmp_path / "r.html"), "-q")
    assert ok.returncode == 0, ok.stderr


def test_a_pos_label_of_the_wrong_type(tmp_path) -> None:
    out = run("report", _results(tmp_path), "--pos-label", "x", "-o", str(tmp_path / "r.html"))
    assert_usage_error(out, "--pos-label must be a label of the Int64 truth column, got 'x'.")


def test_a_text_score_column_names_the_flag(tmp_path) -> None:
    path = _results(tmp_path, s=pl.col("s").cast(pl.String))
    out = run("report", path, "-o", str(tmp_path / "r.html"))
    assert_usage_error(
        out, "--score column 's' must be numeric (larger = more positive), got String."
    )


def test_pred_labels_of_another_family(tmp_path) -> None:
    path = _results(tmp_path, p=pl.col("p").cast(pl.String))
    out = run("report", path, "-o", str(tmp_path / "r.html"))
    assert_usage_error(
        out, "--pred column 'p' must hold labels like --truth column 'y' (Int64), got String."
    )


def test_ambiguous_inferred_roles_list_the_candidates(tmp_path) -> None:
    path = _results(tmp_path, classifier=pl.col("model"))
    out = run("report", path, "-o", str(tmp_path / "r.html"))
    assert_usage_error(
        out,
        "--learner must be given when several columns have a common learner name, "
        "got candidates ['model', 'classifier'].",
    )
    both = _results(tmp_path, "t.parquet", target=pl.col("y"), label=pl.col("y"))
    assert_usage_error(
        run("report", both, "-o", str(tmp_path / "r.html")),
        "--truth must be given when several columns",
        "['y', 'target', 'label']",
    )


def test_no_inferable_role_names_the_flag(tmp_path) -> None:
    path = _results(tmp_path).replace("r.parquet", "r.parquet")
    pl.read_parquet(path).rename({"y": "outcome"}).write_parquet(tmp_path / "n.parquet")
    out = run("report", str(tmp_path / "n.parquet"), "-o", str(tmp_path / "r.html"))
    assert_usage_error(
        out,
        "--truth must be given when no column has a common truth name (truth, "
        "y_true, y, target, label, actual), got columns",
    )
    pl.read_parquet(path).drop("p", "s").write_parquet(tmp_path / "q.parquet")
    out = run("report", str(tmp_path / "q.parquet"), "-o", str(tmp_path / "r.html"))
    assert_usage_error(
        out, "--pred or --score must be given when no column has a common pred or score name"
    )


def test_y_p_s_model_dataset_are_inferred_and_printed(tmp_path) -> None:
    out = run("report", _results(tmp_path), "-o", str(tmp_path / "r.html"))
    assert out.returncode == 0, out.stderr
    assert (
        "columns: truth='y' (inferred), pred='p' (inferred), score='s' (inferred), "
        "learner='model' (inferred), dataset='dataset' (inferred)"
    ) in out.stderr


def test_report_alone_prints_the_report_usage(tmp_path) -> None:
    out = run("report", cwd=tmp_path)
    assert out.returncode == 2
    assert out.stderr.startswith("usage: frameeval report")
    last = out.stderr.strip().splitlines()[-1]
    assert last == (
        "frameeval report: error: give RESULTS (a Parquet file, a glob of Parquet "
        "files, a CSV file, or lm-evaluation-harness samples files) or --example."
    )
    assert not (tmp_path / "report.html").exists()


def test_help_shows_defaults_and_every_flag_has_help() -> None:
    from frameeval.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, command in sub.choices.items():
        for action in command._actions:
            assert action.help, (name, action.dest)
    text = run("report", "--help").stdout
    for default in (
        "(default: report.html)",
        "(default: 0.05)",
        "(default: frameeval report)",
        "(default: the column named truth, y_true, y",
    ):
        assert default in " ".join(text.split()), default
    assert "Exit codes: 0 success, 2 usage error, 1 data error." in text
    assert "demo" in run("--help").stdout


def test_demo_prints_the_example() -> None:
    out = run("demo")
    assert out.returncode == 0 and "roc_auc" in out.stdout and "random_forest" in out.stdout
    # it says what its numbers are (issue 25)
    text = " ".join(out.stdout.split())
    assert "Breast cancer (Wisconsin diagnostic, scikit-learn): 569 patients" in text
    assert "1 = malignant. 5 learners, 10-fold cross-validation." in text
    assert "pooled over the test folds" in text
    assert "0.977" in text  # logistic regression's accuracy, to 3 decimals


@pytest.mark.parametrize(
    ("flag", "value", "message"),
    [
        ("--alpha", "2", "--alpha must be a number in (0, 1), got 2.0."),
        ("--alpha", "nan", "--alpha must be a number in (0, 1), got nan."),
        ("--cost01", "-1", "--cost01 must be finite >= 0, got -1.0."),
        ("--cost10", "inf", "--cost10 must be finite >= 0, got inf."),
        (
            "--rope",
            "-0.5",
            "--rope must be finite >= 0 (the half-width of the region of practical "
            "equivalence), got -0.5.",
        ),
        ("--score-decimals", "-1", "--score-decimals must be an integer >= 0, got -1."),
    ],
)
def test_a_bad_number_is_a_usage_error_naming_its_flag(tmp_path, flag, value, message) -> None:
    """Checked before any work: exit 2, one line, nothing written."""
    out = run("report", "--example", "-o", str(tmp_path / "r.html"), flag, value)
    assert out.returncode == 2
    assert out.stderr.strip() == f"frameeval report: error: {message}"
    assert not (tmp_path / "r.html").exists()


def test_rope_makes_the_answer_bayesian(tmp_path) -> None:
    """``--rope`` reaches compare_learners: the verdict is the Bayesian signed-rank test's and
    the answer draws the matrix of every pair's posterior probabilities."""
    target = tmp_path / "r.html"
    out = run("report", "--example", "-o", str(target), "--rope", "0.01", "-q")
    assert out.returncode == 0, out.stderr
    html = target.read_text()
    assert "The Bayesian signed-rank test (rope = 0.01) finds:" in html
    assert "because a region of practical equivalence was given (rope = 0.01)" in html
    assert "Bayesian signed-rank test on accuracy: every pair" in html


def test_the_regression_example_as_the_readme_runs_it(tmp_path) -> None:
    """Issue 24: ``frameeval report --example regression -o regression.html --force`` (README)
    exits 0; the task and the inferred interval columns are printed; the page answers on
    RMSE. ``--example`` alone stays the classification study (the tests above)."""
    target = tmp_path / "regression.html"
    target.write_text("old")
    out = run("report", "--example", "regression", "-o", str(target), "--force")
    assert out.returncode == 0, out.stderr
    lines = out.stderr.splitlines()
    assert lines[0].startswith("frameeval: task: regression; columns: truth='truth' (inferred)")
    assert "lower='lower' (inferred), upper='upper' (inferred)" in lines[0]
    assert "frameeval: comparing regressors on RMSE…" in lines
    page = _page(target)
    assert "Which learner is best on RMSE?" in page and "Prediction intervals" in page
    assert "Task: regression (detected" in page
    assert python_names(target) == []  # the CLI page speaks to a reader (issue 32)
    text = visible_text(target)
    assert text.count("truth − pred") == 1 and "pred − truth" not in text  # one sign, once
    bad = run("report", "--example", "regression", "-o", str(tmp_path / "b.html"), "--level", "1.5")
    assert_usage_error(bad, "--level must be in (0, 1), got 1.5.")
    assert run("report", "--example", "ranking").returncode == 2


# --------------------------------------------------------------------------------------------
# no column is ignored silently (issue 22, part 3): a role with no column is said on stderr and
# in the page, with the unused columns and a "did you mean"; a regression table is one line
# --------------------------------------------------------------------------------------------
def _page(path) -> str:
    import html

    return html.unescape(path.read_text())


LEARNER_NAMES = "none is named learner, model, estimator, classifier or algorithm"


def test_a_misspelled_learner_column_is_named_on_stderr_and_in_the_page(tmp_path) -> None:
    """The audit: ``modle`` pooled three models into one learner, said nothing of ``modle``, and
    the Data section listed ``learner = 'learner'``, a column that does not exist."""
    path = _results(tmp_path, modle=pl.col("model"))
    pl.read_parquet(path).drop("model").write_parquet(tmp_path / "m.parquet")
    target = tmp_path / "r.html"
    out = run("report", str(tmp_path / "m.parquet"), "-o", str(target), "-q")
    assert out.returncode == 0, out.stderr
    assert out.stderr.splitlines()[0] == (
        f"frameeval report: warning: no --learner column ({LEARNER_NAMES}): every prediction "
        "counts as one learner's, so there is nothing to compare; did you mean --learner modle?"
    )
    page = _page(target)
    why = f"no learner column ({LEARNER_NAMES}); the unused column 'modle' might be it"
    assert f"One learner only: {why}" in page  # the answer
    assert f"N{why[1:]} (give it with --learner / learner=): every prediction" in page  # Data
    assert f"Only one learner: nothing to compare; {why}" in page  # the tests
    assert "Columns that play no role: 'modle'." in page
    assert "learner = 'learner'" not in page  # roles name only columns that exist
    given = run("report", str(tmp_path / "m.parquet"), "--learner", "modle", "-o", str(target))
    assert given.returncode == 2  # the page exists (no --force): checked before the columns
    given = run(
        "report",
        str(tmp_path / "m.parquet"),
        "--learner",
        "modle",
        "-o",
        str(target),
        "--force",
        "-q",
    )
    assert given.returncode == 0 and "warning" not in given.stderr, given.stderr


def test_a_misspelled_score_column_is_named_where_its_sections_are_skipped(tmp_path) -> None:
    """The audit: ``probs`` made the ROC, P-R, cost and calibration sections vanish silently."""
    path = _results(tmp_path, probs=pl.col("s"))
    pl.read_parquet(path).drop("s").write_parquet(tmp_path / "p.parquet")
    target = tmp_path / "r.html"
    out = run("report", str(tmp_path / "p.parquet"), "-o", str(target), "-q")
    assert out.returncode == 0, out.stderr
    assert out.stderr.splitlines()[0] == (
        "frameeval report: warning: no --score column (none is named score, y_score, s, proba, "
        "prob or probability): no ROC, P-R, cost or calibration analysis; did you mean "
        "--score probs?"
    )
    page = _page(target)
    why = (
        "no score column (none is named score, y_score, s, proba, prob or probability); the "
        "unused column 'probs' might be it (give it with --score / score=)."
    )
    assert f"ROC, P-R and cost curves: {why}" in page
    assert f"Calibration and operating point: {why}" in page


def test_a_regression_table_is_detected_and_reported(tmp_path) -> None:
    """The audit: float, non-integral y_true / y_pred failed with Polars' "conversion from `str`
    to `i8` failed", then was refused in one line; now the task is detected, said in the Data
    section, and the report compares the regressors on RMSE. ``--task classification`` on such
    a table is one line naming the column."""
    path = _results(tmp_path, y=pl.col("s") * 10, p=pl.col("s") * 10 + 0.5)
    pl.read_parquet(path).drop("s").write_parquet(tmp_path / "reg.parquet")
    target = tmp_path / "r.html"
    out = run("report", str(tmp_path / "reg.parquet"), "-o", str(target), "-q")
    assert out.returncode == 0, out.stderr
    page = _page(target)
    assert "Task: regression (detected: the truth or pred column holds non-integral" in page
    assert "Which learner is best on RMSE?" in page
    out = run("report", path, "-o", str(tmp_path / "c.html"), "--task", "classification")
    assert_usage_error(
        out,
        "--truth column 'y' must hold class labels, got non-integral values (e.g. ",
        "); for a regression pass --task regression.",
    )
    assert not (tmp_path / "c.html").exists()
    integral = _results(tmp_path, "i.parquet", y=pl.col("y").cast(pl.Float64))
    pred = run(
        "report",
        integral,
        "-o",
        str(tmp_path / "c.html"),
        "--pred",
        "s",
        "--task",
        "classification",
    )
    assert_usage_error(pred, "--pred column 's' must hold class labels, got non-integral values")
    lone = run("report", path, "-o", str(tmp_path / "c.html"), "--lower", "s")
    assert_usage_error(lone, "--upper must be given with --lower (an interval has two bounds)")


def test_a_study_without_a_learner_column_says_why_it_has_one_learner(tmp_path) -> None:
    path = _results(tmp_path)
    pl.read_parquet(path).drop("model").write_parquet(tmp_path / "one.parquet")
    target = tmp_path / "r.html"
    out = run("report", str(tmp_path / "one.parquet"), "-o", str(target), "-q")
    assert out.returncode == 0, out.stderr
    assert out.stderr.splitlines()[0] == (
        f"frameeval report: warning: no --learner column ({LEARNER_NAMES}): every prediction "
        "counts as one learner's, so there is nothing to compare."
    )
    assert (
        f"One learner only: no learner column ({LEARNER_NAMES}); every prediction counts as "
        "one learner's, shown as 'model'."
    ) in _page(target)


def test_a_misspelled_truth_column_is_a_did_you_mean(tmp_path) -> None:
    path = _results(tmp_path)
    pl.read_parquet(path).rename({"y": "ytrue"}).write_parquet(tmp_path / "t.parquet")
    out = run("report", str(tmp_path / "t.parquet"), "-o", str(tmp_path / "r.html"))
    line = assert_usage_error(out, "--truth must be given when no column has a common truth name")
    assert line.endswith("; did you mean --truth ytrue?")
    pl.read_parquet(path).drop("p").rename({"s": "scores"}).write_parquet(tmp_path / "s.parquet")
    out = run("report", str(tmp_path / "s.parquet"), "-o", str(tmp_path / "r.html"))
    line = assert_usage_error(out, "--pred or --score must be given")
    assert line.endswith("; did you mean --score scores?")


def test_readme_lists_the_common_names_the_help_prints() -> None:
    """README's inferred column names are those of ``frameeval report --help`` (issue 25)."""
    from pathlib import Path

    from frameeval._roles import COMMON_NAMES

    readme = " ".join((Path(__file__).parents[1] / "README.md").read_text("utf-8").split())
    for role, names in COMMON_NAMES.items():
        assert f"`{', '.join(names)}`" in readme, role


def test_learner_and_model_both_present_is_a_usage_error_naming_both(tmp_path) -> None:
    """Issue 32: README says a role with several candidate columns must be given, yet with
    both `learner` and `model` present `learner` won silently. Now exit 2 naming both; the
    flag settles it."""
    path = _results(tmp_path, learner=pl.col("model") + "_x")
    out = run("report", path, "-o", str(tmp_path / "r.html"))
    assert_usage_error(
        out,
        "--learner must be given when several columns have a common learner name, "
        "got candidates ['learner', 'model'].",
    )
    given = run("report", path, "-o", str(tmp_path / "r.html"), "--learner", "model", "-q")
    assert given.returncode == 0, given.stderr


def _null_rows(tmp_path, column: str, rows: dict[str, int]) -> str:
    """The small example with ``rows[learner]`` rows of ``column`` set to null in
    breast_cancer (the binary data set with scores)."""
    data = fe.datasets.example_results().filter(
        pl.col("dataset").is_in(["breast_cancer", "iris"])
        & pl.col("learner").is_in(["decision_tree", "knn", "naive_bayes"])
    )
    index = pl.int_range(pl.len()).over("dataset", "learner")
    hit = pl.lit(False)
    for learner, n in rows.items():
        hit = hit | (
            (pl.col("learner") == learner) & (pl.col("dataset") == "breast_cancer") & (index < n)
        )
    data = data.with_columns(pl.when(hit).then(None).otherwise(pl.col(column)).alias(column))
    path = tmp_path / f"nulls-{column}.parquet"
    data.write_parquet(path)
    return str(path)


def test_a_37_null_score_table_counts_37_on_stderr_and_beside_the_sections(tmp_path) -> None:
    """Issue 32: 1 % null scores made the ROC, P-R, cost and calibration sections of the data
    set vanish, exit 0, nothing on stderr. Now the rows are counted per data set and learner on
    stderr (even with -q) and beside each section they affect, and the sections skip them."""
    path = _null_rows(tmp_path, "score", {"knn": 12, "naive_bayes": 25})
    html_path = tmp_path / "r.html"
    out = run("report", path, "-o", str(html_path), "-q")
    assert out.returncode == 0, out.stderr
    line = (
        "frameeval report: warning: 37 rows of 'score' are null or NaN (breast_cancer: knn 12, "
        "naive_bayes 25); the score sections (ROC, P-R and cost curves, AUC, calibration and "
        "operating points) skip those rows"
    )
    assert line in out.stderr
    page = _page(html_path)
    note = "37 rows of 'score' are null or NaN (breast_cancer: knn 12, naive_bayes 25)"
    assert page.count(note) == 2  # beside the curves and the calibration section
    assert "ROC curves" in page and "lacks a score" not in page


def test_null_preds_exit_1_counted_per_data_set_and_learner_without_function_names(
    tmp_path,
) -> None:
    """Before: exit 1 with ``accuracy(): column 'pred' (pred=) must not contain nulls`` — an
    internal function's name, no count, no data set or learner. Now the report step, the
    column and the counts."""
    path = _null_rows(tmp_path, "pred", {"knn": 5})
    out = run("report", path, "-o", str(tmp_path / "r.html"), "-q")
    assert out.returncode == 1
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert lines[0].startswith(
        "frameeval report: error: while counting predictions per data set, learner and split: "
        "5 rows of 'pred' are null (breast_cancer: knn 5): the label measures and tests cannot "
        "skip them"
    )
    assert "accuracy()" not in out.stderr and "()" not in lines[0]


#: what a page written for a reader must not show: Python attribute paths and calls
#: (``result.per_data_set.verdict``, ``fe.median_absolute_error``, ``friedman():``), docs
#: paths, raw result columns and procedure codes, Python Booleans
PYTHON_NAMES = re.compile(
    r"\b(?:result|fe|frameeval)\.[a-z_]+|docs/|\b[a-z_]+\(\)|\b\w+\.md\b|\bTrue\b|"
    r"\bFalse\b|\b(?:chi2_p_value|p_adjusted|cohen_d|macro_precision|mean_error|corrected_t|"
    r"cv5x2_f|p_value)\b"
)


def visible_text(path) -> str:
    """The text of the page at ``path`` outside the charts (scripts, styles and tags left out
    before the entities are read)."""
    import html

    raw = path.read_text(encoding="utf-8")
    body = raw[raw.rindex("</head><body>") :]  # the head's script writes "<body>" too
    body = re.sub(r"<script\b.*</script>", "", body, flags=re.S)  # the charts' scripts
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def python_names(path) -> list[str]:
    """The Python-isms in the visible text of the page at ``path``."""
    return PYTHON_NAMES.findall(visible_text(path))


def test_a_cli_page_has_no_python_names(tmp_path) -> None:
    """Issue 32: the CLI page said "result.per_data_set.verdict", "docs/regression.md",
    "fe.median_absolute_error computes it", raw headers (chi2_p_value, p_adjusted, cohen_d),
    True / False, and a "friedman(): chi2_p_value uses the χ² approximation" note at the bottom.
    The embedded example (5 learners on 4 data sets' folds) has none of them; the caveat stands
    under the verdict that cites χ²_F and under the Friedman table."""
    target = tmp_path / "example.html"
    out = run("report", "--example", "-o", str(target), "-q")
    assert out.returncode == 0, out.stderr
    page = _page(target)
    assert python_names(target) == []
    caveat = "The p-value of Friedman's χ² form (χ²_F) is an approximation"
    body = page[page.index("<body>") :]
    verdict = body.index("χ²_F =")
    assert body.index(caveat, verdict) - verdict < 1500  # right under the verdict
    assert "Note: " not in body  # no caveat far from its sentence, at the bottom
