"""charts.leaderboard: marks, encodings and fields of the spec (the frame drawn as it is)."""

from __future__ import annotations

import polars as pl
import pytest

import frameeval as fe
from frameeval.exceptions import ColumnNotFoundError


def _board() -> pl.DataFrame:
    data = fe.datasets.items_results().filter(pl.col("benchmark").is_in(["iris", "wine"]))
    return fe.items.leaderboard(data, "correct", by="benchmark", sample="epoch", n_resamples=50)


def test_leaderboard_spec() -> None:
    board = _board()
    spec = fe.charts.leaderboard(board).to_dict()
    rule, point = spec["spec"]["layer"]
    assert rule["mark"]["type"] == "rule" and point["mark"]["type"] == "point"
    assert (
        rule["encoding"]["x"]["field"] == "ci_low" and rule["encoding"]["x2"]["field"] == "ci_high"
    )
    assert point["encoding"]["x"]["field"] == "mean"
    assert rule["encoding"]["color"]["field"] == "tie_group"
    assert rule["encoding"]["y"]["sort"] == {"field": "position", "order": "ascending"}
    assert spec["facet"]["row"]["field"] == "__fe_panel"
    rows = spec["datasets"][spec["data"]["name"]]
    assert len(rows) == board.height
    assert {r["__fe_panel"] for r in rows} == {"iris", "wine"}
    assert sorted(r["mean"] for r in rows) == pytest.approx(sorted(board["mean"].to_list()))


def test_leaderboard_needs_the_model_column() -> None:
    with pytest.raises(ColumnNotFoundError, match="column 'system'"):
        fe.charts.leaderboard(_board(), model="system")
