"""Confusion-matrix heatmaps (frameeval/charts/confusion.py)."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from frameeval import charts
from frameeval.exceptions import ColumnNotFoundError, InvalidParameterError
from tests.charts import examples as ex


def _data(spec: dict) -> list[dict]:
    return spec["datasets"][spec["data"]["name"]]


def _cells(spec: dict) -> dict[tuple, float | None]:
    return {(r["learner"], r["actual"], r["predicted"]): r["__fe_value"] for r in _data(spec)}


def test_counts_annotated_and_faceted_by_the_keys():
    matrix = ex.confusion_matrix()
    spec = charts.confusion_heatmap(matrix).to_dict()
    assert spec["facet"]["field"] == "learner"
    rect, text = spec["spec"]["layer"]
    assert rect["mark"]["type"] == "rect" and text["mark"]["type"] == "text"
    assert rect["encoding"]["x"]["field"] == "predicted"
    assert rect["encoding"]["y"]["field"] == "actual"
    assert rect["encoding"]["x"]["axis"]["orient"] == "top"
    assert text["encoding"]["text"]["field"] == "__fe_value"
    assert _cells(spec) == {
        (r["learner"], r["actual"], r["predicted"]): r["count"] for r in matrix.to_dicts()
    }


@pytest.mark.parametrize("normalize", ["true", "pred", "all"])
def test_normalized_shares_match_numpy(normalize):
    matrix = ex.confusion_matrix()
    spec = charts.confusion_heatmap(matrix, normalize=normalize).to_dict()
    cells = _cells(spec)
    labels = ["setosa", "versicolor", "virginica"]
    for learner in ("tree", "forest"):
        table = np.array(
            [[cells_count(matrix, learner, a, p) for p in labels] for a in labels], dtype=float
        )
        if normalize == "true":
            expected = table / table.sum(axis=1, keepdims=True)
        elif normalize == "pred":
            expected = table / table.sum(axis=0, keepdims=True)
        else:
            expected = table / table.sum()
        for i, a in enumerate(labels):
            for j, p in enumerate(labels):
                assert cells[(learner, a, p)] == pytest.approx(expected[i, j], abs=1e-12)


def cells_count(matrix: pl.DataFrame, learner: str, actual: str, predicted: str) -> float:
    return (
        matrix.filter(
            (pl.col("learner") == learner)
            & (pl.col("actual") == actual)
            & (pl.col("predicted") == predicted)
        )
        .get_column("count")
        .item()
    )


def test_zero_row_is_null_and_numeric_labels_sort_numerically():
    matrix = pl.DataFrame(
        {"actual": [2, 2, 10, 10], "predicted": [2, 10, 2, 10], "count": [0, 0, 3, 1]}
    )
    spec = charts.confusion_heatmap(matrix, normalize="true").to_dict()
    values = {(r["actual"], r["predicted"]): r["__fe_value"] for r in _data(spec)}
    assert values[("2", "2")] is None and values[("2", "10")] is None
    assert values[("10", "2")] == 0.75
    assert spec["layer"][0]["encoding"]["x"]["sort"] == ["2", "10"]
    assert "facet" not in spec


def test_errors():
    with pytest.raises(InvalidParameterError, match=r"confusion_heatmap\(\): normalize must be"):
        charts.confusion_heatmap(ex.confusion_matrix(), normalize="rows")
    with pytest.raises(ColumnNotFoundError, match=r"column 'count' \(count=\) not found"):
        charts.confusion_heatmap(ex.confusion_matrix().drop("count"))


def test_many_classes_fit_the_page_one_matrix_per_learner_wrapped():
    """Issue 18: a 10-class grid of three learners was ~1,300 px wide in a 1,100 px page."""
    import polars as pl

    from frameeval.charts import _theme

    labels = list(range(10))
    matrix = pl.DataFrame(
        {
            "learner": [f"learner_{k}" for k in range(3) for _ in labels for _ in labels],
            "actual": [a for _ in range(3) for a in labels for _ in labels],
            "predicted": [p for _ in range(3) for _ in labels for p in labels],
            "count": [1] * 300,
        }
    )
    spec = charts.confusion_heatmap(matrix, normalize="true", facet="learner").to_dict()
    width = spec["spec"]["width"]
    assert width <= 320
    columns = spec["columns"]
    assert columns * (width + _theme.Y_AXIS + 20) + _theme.LEGEND <= 1100
    assert [layer["mark"]["type"] for layer in spec["spec"]["layer"]] == ["rect", "text"]
    compact = charts.confusion_heatmap(
        matrix.with_columns(pl.col("actual") * 2, pl.col("predicted") * 2 + 1)
    ).to_dict()  # 20 classes: numbers only in the tooltip
    assert [layer["mark"]["type"] for layer in compact["spec"]["layer"]] == ["rect"]
    assert "hover a cell" in compact["title"]["subtitle"]
