"""fe.io.read_tsml_results on files in tsml-eval's format (``write_results_to_tsml_format``:
three header lines, then ``actual,predicted[,,probabilities…]`` per case), round-trip over a
directory of estimators and resamples; malformed files."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest

import frameeval as fe
from frameeval.exceptions import FileFormatError


def _write(
    root: Path, estimator: str, dataset: str, resample: int, truth, pred, probs=None
) -> Path:
    """As tsml-eval writes it (full_path=False layout, split TEST, time unit MILLISECONDS)."""
    folder = root / estimator / "Predictions" / dataset
    folder.mkdir(parents=True, exist_ok=True)
    lines = [
        f"{dataset},{estimator},TEST,{resample},MILLISECONDS,",
        "{'n_kernels': 1000}",
        f"{np.mean(np.asarray(truth) == np.asarray(pred))},123,45,-1,-1,,-1,-1",
    ]
    for i, (t, p) in enumerate(zip(truth, pred, strict=True)):  # loop-ok: fixture
        line = f"{t},{p}"
        if probs is not None:
            line += "," + "".join(f",{v}" for v in probs[i])
        lines.append(line)
    path = folder / f"testResample{resample}.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_round_trip_directory(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    truth = rng.integers(0, 2, 6)
    for estimator in ("ROCKET", "HC2"):  # loop-ok: fixture
        for resample in (0, 1):  # loop-ok: fixture
            probs = rng.dirichlet([1, 1], 6)
            _write(tmp_path, estimator, "Chinatown", resample, truth, probs.argmax(1), probs)
    table = fe.io.read_tsml_results(tmp_path)
    assert table.columns == [
        "dataset", "model", "split", "resample", "instance", "truth", "pred",
        "probability_0", "probability_1", "score",
    ]  # fmt: skip
    assert table.height == 24 and table.schema["truth"] == pl.Int64
    assert table.select("model", "resample").unique().height == 4
    one = table.filter((pl.col("model") == "HC2") & (pl.col("resample") == 1))
    assert one["truth"].to_list() == truth.tolist()
    assert (one["score"] == one["probability_1"]).all()
    # the long table works with frameeval directly
    accuracy = table.group_by("model", "resample").agg(fe.accuracy("truth", "pred"))
    assert accuracy.height == 4


def test_regression_and_string_labels(tmp_path: Path) -> None:
    path = _write(tmp_path, "DrCIF", "Covid3Month", 0, [0.5, 1.25], [0.75, 1.0])
    table = fe.io.read_tsml_results(path)
    assert table.schema["truth"] == pl.Float64 and table["pred"].to_list() == [0.75, 1.0]
    assert "score" not in table.columns
    labels = _write(tmp_path, "1NN", "GunPoint", 0, ["gun", "point", "?"], ["gun", "gun", "gun"])
    table = fe.io.read_tsml_results(labels)
    assert table["truth"].to_list() == ["gun", "point", None]


def test_malformed(tmp_path: Path) -> None:
    path = _write(tmp_path, "X", "D", 0, [1, 2], [1, 1], [[0.5, 0.5], [0.1, 0.9]])
    lines = path.read_text().splitlines()
    path.write_text("\n".join([*lines[:4], "2,1,,0.1"]) + "\n")
    with pytest.raises(
        FileFormatError,
        match=r"read_tsml_results\(\): .*testResample0\.csv, line 5: every case line must have "
        r"the same number of probabilities \(2\)",
    ):
        fe.io.read_tsml_results(path)
    path.write_text("\n".join([*lines[:4], "2,1,,0.1,abc"]) + "\n")
    with pytest.raises(FileFormatError, match=r"line 5: a probability must be a number"):
        fe.io.read_tsml_results(path)
    path.write_text("D,X,TEST,zero,MS,\nx\ny\n1,1\n")
    with pytest.raises(FileFormatError, match=r"line 1: the resample .* got 'zero'"):
        fe.io.read_tsml_results(path)
    path.write_text("D,X,TEST,0\n")
    with pytest.raises(FileFormatError, match=r"line 2: a results file starts with three"):
        fe.io.read_tsml_results(path)
