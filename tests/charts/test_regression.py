"""Charts of regression results and quantile forecasts (frameeval/charts/regression.py): binned
aggregates only, counts equal to a numpy histogram, the diagonal / zero guides, errors."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest

import frameeval as fe
from frameeval import charts
from frameeval.exceptions import (
    ColumnNotFoundError,
    EmptyFrameError,
    InvalidDtypeError,
    InvalidParameterError,
    MissingValueError,
)
from tests.charts.examples import quantile_scores, regression_results


def _values(spec: dict) -> list[dict]:
    return spec["datasets"][spec["data"]["name"]]


def _edges(spec: dict) -> dict[str, str]:
    layer = spec.get("spec", spec)["layer"][0]
    return {t["as"]: t["calculate"] for t in layer["transform"]}


def test_predicted_actual_counts_equal_numpy_histogram() -> None:
    df = regression_results()
    spec = charts.predicted_actual(df.lazy(), "truth", "pred", facet="learner", bins=10).to_dict()
    assert spec["facet"]["field"] == "learner"
    cells, diagonal = spec["spec"]["layer"]
    assert cells["mark"]["type"] == "rect" and diagonal["mark"]["type"] == "line"
    assert diagonal["mark"]["strokeDash"] == [5, 4]
    assert cells["encoding"]["color"]["field"] == "count"
    assert set(_edges(spec)) == {"x_start", "x_end", "y_start", "y_end"}
    rows = pl.DataFrame(_values(spec))
    assert set(rows.columns) == {"learner", "x_bin", "y_bin", "count"}  # aggregates only
    lo = min(df["truth"].min(), df["pred"].min())  # type: ignore[type-var]
    hi = max(df["truth"].max(), df["pred"].max())  # type: ignore[type-var]
    for learner in ("ridge", "knn"):
        part = df.filter(pl.col("learner") == learner)
        expected, _, _ = np.histogram2d(
            part["truth"], part["pred"], bins=10, range=[[lo, hi], [lo, hi]]
        )
        mine = np.zeros((10, 10))
        for r in rows.filter(pl.col("learner") == learner).iter_rows(named=True):
            mine[r["x_bin"], r["y_bin"]] = r["count"]
        np.testing.assert_array_equal(mine, expected)


def test_residuals_and_distribution() -> None:
    df = regression_results()
    spec = charts.residuals(df, "truth", "pred", bins=8).to_dict()
    cells, zero = spec["layer"]
    assert cells["encoding"]["x"]["field"] == "x_start"
    assert zero["mark"]["type"] == "rule" and zero["encoding"]["y"]["field"] == "y"
    assert sum(r["count"] for r in _values(spec)) == df.height
    dist = charts.residual_distribution(df, "truth", "pred", color="learner", bins=12).to_dict()
    steps, _ = dist["layer"]
    assert steps["mark"]["interpolate"] == "step"
    assert steps["encoding"]["color"]["field"] == "learner"
    rows = pl.DataFrame(_values(dist))
    assert rows.height == 3 * 12  # every bin of every learner, empty ones at 0
    shares = rows.group_by("learner").agg(pl.col("share").sum())
    np.testing.assert_allclose(shares["share"], 1.0)
    residual = (df["truth"] - df["pred"]).to_numpy()
    counts, _ = np.histogram(residual, bins=12)
    np.testing.assert_array_equal(
        rows.group_by("residual").agg(pl.col("count").sum()).sort("residual")["count"], counts
    )


def test_a_large_study_draws_kilobytes() -> None:
    rng = np.random.default_rng(0)
    n = 200_000
    truth = rng.normal(size=n)
    df = pl.DataFrame(
        {"learner": rng.integers(0, 4, n), "truth": truth, "pred": truth + rng.normal(size=n)}
    )
    for chart in (
        charts.predicted_actual(df.lazy(), "truth", "pred", facet="learner"),
        charts.residuals(df.lazy(), "truth", "pred", facet="learner"),
        charts.residual_distribution(df.lazy(), "truth", "pred", color="learner"),
    ):
        assert len(json.dumps(chart.to_dict())) < 150_000


def test_quantile_coverage() -> None:
    scores = quantile_scores()
    spec = charts.quantile_coverage(scores.lazy()).to_dict()
    diagonal, line, points = spec["layer"]
    assert diagonal["mark"]["strokeDash"] == [5, 4]
    assert line["encoding"]["x"]["field"] == "quantile"
    assert points["encoding"]["y"]["field"] == "coverage"
    assert points["encoding"]["color"]["field"] == "learner"
    assert len(_values(spec)) == scores.height
    faceted = charts.quantile_coverage(scores, facet="learner").to_dict()
    assert faceted["facet"]["field"] == "learner"
    # straight from quantile_scores
    df = pl.DataFrame(
        {
            "id": [1, 1, 1, 2, 2, 2],
            "y": [3.0] * 3 + [5.0] * 3,
            "q": [0.1, 0.5, 0.9] * 2,
            "f": [1.0, 2.0, 4.0, 4.0, 6.0, 9.0],
        }
    )
    spec = charts.quantile_coverage(fe.quantile_scores(df, "y", "f", "q")).to_dict()
    assert "color" not in spec["layer"][2]["encoding"]


def test_errors() -> None:
    df = regression_results()
    with pytest.raises(
        ColumnNotFoundError, match=r"^predicted_actual\(\): column 'y' \(truth=\) not found"
    ):
        charts.predicted_actual(df, "y", "pred")
    with pytest.raises(
        InvalidDtypeError, match=r"^residuals\(\): column 'learner' \(pred=\) must be numeric"
    ):
        charts.residuals(df, "truth", "learner")
    with pytest.raises(
        InvalidParameterError,
        match=r"^residual_distribution\(\): bins must be an integer in \[2, 500\], got 1",
    ):
        charts.residual_distribution(df, "truth", "pred", bins=1)
    with pytest.raises(
        MissingValueError,
        match=r"^predicted_actual\(\): truth and pred must be finite and not null, got 1 null",
    ):
        charts.predicted_actual(
            df.with_columns(
                pl.when(pl.int_range(pl.len()) == 0).then(None).otherwise("pred").alias("pred")
            ),
            "truth",
            "pred",
        )
    with pytest.raises(EmptyFrameError, match=r"^residuals\(\): data must have at least one row"):
        charts.residuals(df.clear(), "truth", "pred")
    with pytest.raises(ColumnNotFoundError, match=r"^quantile_coverage\(\): column 'coverage'"):
        charts.quantile_coverage(quantile_scores().drop("coverage"))


def test_constant_values_get_a_unit_bin() -> None:
    df = pl.DataFrame({"truth": [2.0, 2.0], "pred": [2.0, 2.0]})
    spec = charts.predicted_actual(df, "truth", "pred", bins=4).to_dict()
    assert sum(r["count"] for r in _values(spec)) == 2
