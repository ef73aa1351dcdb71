"""The ``frameeval`` command: help, version, the report, and one-line errors."""

from __future__ import annotations

import argparse
import subprocess
import sys

import polars as pl
import pytest

import frameeval as fe


def run(*args: str, cwd=None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "frameeval", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
    )


def test_help_and_version() -> None:
    out = run("--help")
    assert out.returncode == 0 and "report" in out.stdout
    version = run("--version")
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
    missing = run("report", str(tmp_path / "nope.parquet"), "-o", str(tmp_path / "r.html"))
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
        "files, or a CSV file) or --example."
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
