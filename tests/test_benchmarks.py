"""The benchmark tasks run (at a tiny size) and report frameeval next to its alternatives."""

from __future__ import annotations

import pytest

from benchmarks import tasks
from benchmarks.timing import Measure, peak_memory, report


# the tasks run at a tiny size here: Friedman on 10 blocks warns that its χ² form needs more
@pytest.mark.filterwarnings("ignore:.*chi2_p_value uses the χ² approximation:UserWarning")
@pytest.mark.parametrize("name", sorted(tasks.TASKS))
def test_task_runs_and_reports(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    reported: list[tuple[str, dict[str, Measure | float]]] = []

    def timed(fn, repeat: int = 1) -> Measure:
        fn()
        return Measure(1.0, 1024)

    def record(task: str, rows: dict[str, Measure | float]) -> None:
        reported.append((task, rows))
        report(task, rows)

    tasks.TASKS[name](20_000, 20, record, timed, None)
    assert reported
    for _task, rows in reported:
        assert "frameeval" in rows and len(rows) >= 2
    assert "x  " in capsys.readouterr().out  # ratios printed first


def test_peak_memory_sees_native_allocations() -> None:
    import numpy as np

    peak = peak_memory(lambda: np.ones(50_000_000).sum())  # 400 MB from NumPy's allocator
    if peak is not None:  # Linux only
        assert peak > 300 * 2**20


@pytest.mark.slow
def test_suite_command_prints_times_and_measured_memory(capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m benchmarks`` end to end at the tiny scale, with the child memory pass (one
    child for all the tasks, a JSON line per task)."""
    from benchmarks.run import main

    assert main(["--scale", "tiny", "--only", "label_metrics", "confusion"]) == 0
    out = capsys.readouterr().out
    assert "## grouped label metrics (2 classes)" in out
    assert "## grouped confusion matrices, 10 classes" in out
    assert out.count("MiB  frameeval\n") == 2  # the memory pass reported both frameeval rows
    assert "memory pass of" not in out  # ... and did not fail


def test_a_third_party_panic_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    """A Rust panic in an alternative (pyo3's PanicException, a BaseException) is reported in
    one line and the row is left out; the benchmark goes on (issue 25)."""
    from benchmarks.tasks import _third_party

    class PanicException(BaseException):
        pass

    def panics() -> None:
        raise PanicException("called `Option::unwrap()` on a `None` value\nmore lines")

    assert _third_party("polars-ds query_roc_auc", panics, lambda fn: Measure(1.0)) == {}
    out = capsys.readouterr().out
    assert out == (
        "  (polars-ds query_roc_auc fails here: a Rust panic: called `Option::unwrap()` on a "
        "`None` value)\n"
    )
    assert _third_party("ok", lambda: None, lambda fn: Measure(2.0)) == {"ok": Measure(2.0)}

    calls = []

    def panics_later() -> None:  # the trial run passes, a timed run panics
        calls.append(1)
        if len(calls) > 1:
            raise PanicException("index out of bounds")

    def timed(fn):
        fn()
        return Measure(1.0)

    assert _third_party("polars-ds query_roc_auc", panics_later, timed) == {}
    assert capsys.readouterr().out == (
        "  (polars-ds query_roc_auc fails here: a Rust panic: index out of bounds)\n"
    )


def test_regression_study_is_seeded_and_paired(tmp_path) -> None:
    """The 20M-row regression study of issue 24 at a tiny size: one file per data set, float
    truth and pred, every learner predicting every instance, the same bytes twice."""
    import polars as pl

    from benchmarks.study import generate_regression

    paths = generate_regression(tmp_path / "a", datasets=2, learners=3, folds=2, instances=5)
    again = generate_regression(tmp_path / "b", datasets=2, learners=3, folds=2, instances=5)
    frame = pl.read_parquet(paths)
    assert frame.height == 2 * 3 * 2 * 5
    assert frame.schema["truth"] == pl.Float64 and frame.schema["pred"] == pl.Float64
    counts = frame.group_by("dataset", "instance").len()["len"].unique().to_list()
    assert counts == [3]
    assert frame.equals(pl.read_parquet(again))


@pytest.mark.parametrize("with_polarbearings", [True, False])
def test_polarbearings_protocol_runs_side_by_side(
    with_polarbearings: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    """``benchmarks.bench_polarbearings`` at a tiny size: values checked against polarbearings
    and scikit-learn before timing, one table row per measure with both speed-ups."""
    from benchmarks import bench_polarbearings as bench

    # polarbearings is in the `test` extra too, so the comparison itself runs in CI
    assert not with_polarbearings or bench.polarbearings is not None
    argv = ["--rows", "300", "--repeats", "1", "--group-rows", "300", "--groups", "3"]
    argv += ["--metrics", "rmse", "mape"]
    assert bench.main(argv + ([] if with_polarbearings else ["--no-polarbearings"])) == 0
    out = capsys.readouterr().out
    assert "load average" in out and "## grouped metrics (per segment), 300 rows" in out
    rows = [line for line in out.splitlines() if line.startswith("| `")]
    assert len(rows) == 2  # one row per measure
    rmse = next(line for line in rows if line.startswith("| `rmse` |")).split(" | ")
    assert rmse[1] != "—" and rmse[4].endswith("×")  # scikit-learn time, frameeval speed-up
    assert (rmse[3] == "—") is not with_polarbearings
    assert "`fe.measures(by=)`" in out


def test_items_benchmark_runs_at_a_tiny_size(capsys: pytest.CaptureFixture[str]) -> None:
    """``benchmarks.bench_items`` (issue 34's speed goal) at a tiny size: both rows printed, the
    baseline's McNemar p-values equal fe.items.compare's."""
    import numpy as np
    import polars as pl

    import frameeval as fe
    from benchmarks import bench_items as bench

    assert bench.main(["--models", "3", "--benchmarks", "2", "--items", "50"]) == 0
    out = capsys.readouterr().out
    assert "| frameeval `fe.items.compare` |" in out and "peak RSS" in out
    df = bench.study(3, 2, 50)
    ours = fe.items.compare(df, "correct", by="benchmark", adjust=None)
    matrices = [
        part.sort("model", "item")["correct"].to_numpy().reshape(3, 50).T.astype(np.int64)
        for part in df.partition_by("benchmark", maintain_order=True)
    ]
    theirs = bench.numpy_baseline(matrices)
    for b, p in enumerate(theirs):
        mine = ours.filter(pl.col("benchmark") == f"bench-{b}")["p_value"].to_numpy()
        np.testing.assert_allclose(mine, p[np.triu_indices(3, 1)], rtol=1e-9)


def test_subgroups_benchmark_runs_side_by_side(capsys: pytest.CaptureFixture[str]) -> None:
    """``benchmarks.bench_subgroups`` at a tiny size (issue 36): gaps next to the grouped sums
    they need, slices finding the planted slice first (the sliceline side is left out here:
    tests/subgroups/test_slices.py compares with it)."""
    from benchmarks import bench_subgroups as bench

    argv = ["--rows", "20000", "--slice-rows", "10000", "--repeats", "1", "--no-sliceline"]
    assert bench.main(argv) == 0
    out = capsys.readouterr().out
    assert "x  frameeval gaps" in out and "grouped sums" in out
    assert "(first: f0=1 & f3=2 & f5=0)" in out


def test_every_probe_imports_quietly_and_says_how_to_run_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The probes behind docs/performance.md's figures import without building data or
    printing, and each docstring names the page and its own command."""
    import importlib
    import pkgutil

    import benchmarks.probes as probes

    names = [m.name for m in pkgutil.iter_modules(probes.__path__) if not m.name.startswith("_")]
    assert len(names) >= 9
    for name in names:
        module = importlib.import_module(f"benchmarks.probes.{name}")
        assert callable(module.main)
        assert "docs/performance.md" in module.__doc__
        assert f"python -m benchmarks.probes.{name}" in module.__doc__
    assert capsys.readouterr().out == ""
