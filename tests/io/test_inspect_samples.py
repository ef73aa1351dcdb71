"""fe.io.read_inspect_samples on tables with the columns ``inspect_ai.analysis.samples_df``
writes (sample_id, eval_id, id, epoch, input, target, metadata_*, score_*, model_usage,
total_time, working_time, error, limit, retries; with the eval columns task_name and model),
saved to CSV and Parquet."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

import frameeval as fe
from frameeval.exceptions import FileFormatError


def _samples_df() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "sample_id": ["a1", "a2", "a3", "a4"],
            "eval_id": ["e1"] * 4,
            "id": [1, 1, 2, 2],
            "epoch": [1, 2, 1, 2],
            "input": ["2+2?", "2+2?", "3+3?", "3+3?"],
            "target": ["4", "4", "6", "6"],
            "metadata_level": ["easy"] * 4,
            "score_match": ["C", "I", "P", None],
            "score_model_graded_fact": [1.0, 0.0, 0.5, 1.0],
            "model_usage": ["{}"] * 4,
            "total_time": [1.0, 1.1, 0.9, 1.2],
            "working_time": [1.0, 1.1, 0.9, 1.2],
            "error": [None] * 4,
            "limit": [None] * 4,
            "retries": [0] * 4,
            "task_name": ["arith"] * 4,
            "model": ["openai/gpt-4o-mini"] * 4,
        },
        schema_overrides={"error": pl.String, "limit": pl.String},
    )


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_round_trip(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"samples{suffix}"
    source = _samples_df()
    source.write_csv(path) if suffix == ".csv" else source.write_parquet(path)
    table = fe.io.read_inspect_samples(path)
    assert table.columns == [
        "benchmark", "model", "item", "sample", "target", "match", "model_graded_fact"
    ]  # fmt: skip
    assert table["item"].to_list() == ["1", "1", "2", "2"]
    assert table["sample"].to_list() == [1, 2, 1, 2]
    assert table["match"].to_list() == [1.0, 0.0, 0.5, None]
    assert table["model_graded_fact"].to_list() == [1.0, 0.0, 0.5, 1.0]
    assert set(table["benchmark"]) == {"arith"} and set(table["model"]) == {"openai/gpt-4o-mini"}


def test_without_eval_columns_the_names_are_given(tmp_path: Path) -> None:
    path = tmp_path / "samples.csv"
    _samples_df().drop("task_name", "model").write_csv(path)
    table = fe.io.read_inspect_samples(path, model="m", task="t")
    assert set(table["model"]) == {"m"} and set(table["benchmark"]) == {"t"}
    bare = fe.io.read_inspect_samples(path)
    assert bare["model"].null_count() == 4


def test_malformed(tmp_path: Path) -> None:
    path = tmp_path / "samples.csv"
    _samples_df().with_columns(pl.Series("score_match", ["C", "I", "maybe", "C"])).write_csv(path)
    with pytest.raises(
        FileFormatError,
        match=r"read_inspect_samples\(\): .*samples\.csv, line 4: column 'score_match' must "
        r"hold scores .*got 'maybe'",
    ):
        fe.io.read_inspect_samples(path)
    _samples_df().drop("score_match", "score_model_graded_fact").write_csv(path)
    with pytest.raises(FileFormatError, match=r"line 1: the table must have at least one"):
        fe.io.read_inspect_samples(path)
