"""The ``frameeval`` command: help, version, the report, and one-line errors."""

from __future__ import annotations

import subprocess
import sys

import polars as pl

import frameeval as fe


def run(*args: str, cwd=None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "frameeval", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=300)


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
    assert html.startswith("<!DOCTYPE html>") and "Friedman" in html and "McNemar" in html
    second = run("report", str(results), "-o", str(target))
    assert second.returncode == 1
    assert second.stderr.strip().count("\n") == 0  # one line, no traceback
    assert "exists; refusing to overwrite" in second.stderr
    assert run("report", str(results), "-o", str(target), "--force", "-q").returncode == 0


def test_report_errors_are_one_line(tmp_path) -> None:
    missing = run("report", str(tmp_path / "nope.parquet"), "-o", str(tmp_path / "r.html"))
    assert missing.returncode == 1 and "must exist" in missing.stderr
    assert "Traceback" not in missing.stderr
    csv = tmp_path / "r.csv"
    pl.DataFrame({"a": [1, 2], "b": [0, 1]}).write_csv(csv)
    no_truth = run("report", str(csv), "-o", str(tmp_path / "r.html"))
    assert no_truth.returncode == 1 and "a truth column is required" in no_truth.stderr
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
