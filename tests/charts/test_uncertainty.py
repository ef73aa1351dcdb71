"""Uncertainty charts (frameeval/charts/uncertainty.py): the forest plot and the ROC band, built
from the real frames of frameeval.uncertainty."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
import vl_convert as vlc

import frameeval as fe
from frameeval.charts.uncertainty import forest, roc_band
from frameeval.exceptions import ColumnNotFoundError, InvalidParameterError


@pytest.fixture(scope="module")
def predictions() -> pl.DataFrame:
    rng = np.random.default_rng(0)
    parts = []
    for dataset in ("iris", "wine"):
        for model, signal in (("svm", 1.2), ("tree", 0.6)):
            y = rng.integers(0, 2, 60)
            s = y * signal + rng.normal(0, 0.6, 60)
            parts.append(
                pl.DataFrame(
                    {
                        "dataset": dataset,
                        "model": model,
                        "i": range(60),
                        "y": y,
                        "s": s,
                        "p": (s > 0.5).astype(int),
                    }
                )
            )
    return pl.concat(parts)


def _layers(spec: dict) -> list[dict]:
    return spec["spec"]["layer"] if "spec" in spec else spec["layer"]


def _rows(spec: dict) -> list[dict]:
    data = spec["data"]["name"] if "data" in spec else None
    return spec["datasets"][data]


def test_forest_draws_bootstrap_ci_as_given(predictions):
    ci = fe.bootstrap_ci(
        predictions,
        [fe.accuracy("y", "p"), fe.roc_auc("y", "s")],
        by=["dataset", "model"],
        instance="i",
        repeats=50,
        stratify="y",
    )
    spec = forest(ci, color="model").to_dict()
    assert spec["facet"]["field"] == "metric"  # two measures: one panel each (scales differ)
    assert spec["resolve"]["scale"]["x"] == "independent"
    rule, point = _layers(spec)
    assert rule["mark"]["type"] == "rule" and point["mark"]["type"] == "point"
    assert rule["encoding"]["x"]["field"] == "lower" and rule["encoding"]["x2"]["field"] == "upper"
    assert point["encoding"]["x"]["field"] == "estimate"
    assert point["encoding"]["color"]["field"] == "model"
    assert point["encoding"]["y"]["sort"] == [
        "iris · svm",
        "iris · tree",
        "wine · svm",
        "wine · tree",
    ]
    rows = pl.DataFrame(_rows(spec))
    drawn = rows.sort("dataset", "model", "metric").select("estimate", "lower", "upper")
    given = ci.sort("dataset", "model", "metric").select("estimate", "lower", "upper")
    assert drawn.equals(given)
    assert spec["title"]["subtitle"] == "95 % bootstrap percentile intervals"
    assert vlc.vegalite_to_svg(forest(ci).to_json()).startswith("<svg")


def test_forest_of_delong_intervals_with_reference_and_one_metric(predictions):
    ci = fe.delong_ci(predictions.lazy(), "y", "s", by=["dataset", "model"])
    spec = forest(ci, reference=0.5, label="model", facet="dataset").to_dict()
    assert spec["facet"]["field"] == "dataset"
    layers = _layers(spec)
    assert [layer["mark"]["type"] for layer in layers] == ["rule", "point", "rule"]
    assert layers[2]["encoding"]["x"] == {"datum": 0.5}
    assert layers[1]["encoding"]["y"]["axis"]["title"] == "model"
    assert spec["title"]["subtitle"] == "95 % DeLong intervals"


def test_forest_errors():
    ci = pl.DataFrame({"model": ["A"], "estimate": [0.8], "lower": [0.7], "upper": [0.9]})
    with pytest.raises(ColumnNotFoundError, match=r"forest\(\): column 'upper' \(upper=\)"):
        forest(ci.drop("upper"))
    with pytest.raises(InvalidParameterError, match=r"color= must name a key column"):
        forest(ci, color="estimate")
    with pytest.raises(InvalidParameterError, match=r"reference must be a number, got 'x'"):
        forest(ci, reference="x")


def test_roc_band_chart(predictions):
    band = fe.roc_band(
        predictions, "y", "s", by=["dataset", "model"], instance="i", repeats=30, points=6
    )
    spec = roc_band(band, facet="dataset").to_dict()
    area, line, chance = _layers(spec)
    assert area["mark"]["type"] == "area"
    assert area["encoding"]["y"]["field"] == "lower" and area["encoding"]["y2"]["field"] == "upper"
    assert line["encoding"]["y"]["field"] == "tpr" and line["encoding"]["color"]["field"] == "model"
    assert chance["mark"]["strokeDash"] == [4, 3]
    rows = pl.DataFrame(_rows(spec)).sort("dataset", "model", "fpr")
    assert rows.select("fpr", "tpr", "lower", "upper").equals(
        band.sort("dataset", "model", "fpr").select("fpr", "tpr", "lower", "upper")
    )
    assert vlc.vegalite_to_svg(roc_band(band.filter(pl.col("dataset") == "iris")).to_json())
