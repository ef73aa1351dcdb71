"""Bias–variance, learning-curve and validation-curve charts (frameeval/charts/decompose.py)."""

from __future__ import annotations

import polars as pl
import pytest

from frameeval import charts
from frameeval.exceptions import ColumnNotFoundError, InvalidDtypeError, InvalidParameterError
from tests.charts import examples as ex


def _data(spec: dict) -> list[dict]:
    return spec["datasets"][spec["data"]["name"]]


def test_bias_variance_draws_the_given_components():
    frame = ex.bias_variance()
    spec = charts.bias_variance(frame, complexity="degree").to_dict()
    line, points = spec["layer"]
    assert line["mark"]["type"] == "line" and points["mark"]["type"] == "point"
    assert line["encoding"]["x"]["field"] == "degree"
    assert line["encoding"]["x"]["type"] == "quantitative"
    assert line["encoding"]["color"]["sort"] == ["generalisation error", "bias²", "variance"]
    drawn = {(r["degree"], r["__fe_column"]): r["__fe_value"] for r in _data(spec)}
    for row in frame.to_dicts():
        for column in ("error", "bias_squared", "variance"):
            assert drawn[(row["degree"], column)] == row[column]
    assert len(drawn) == 3 * frame.height  # n_instances / n_repeats are not drawn
    assert "facet" not in spec


def test_bias_variance_zero_one_loss_and_extra_keys_facet():
    frame = pl.DataFrame(
        {
            "learner": ["a", "a", "b", "b"],
            "depth": ["1", "2", "1", "2"],
            "n_instances": [5] * 4,
            "error": [0.3, 0.2, 0.4, 0.25],
            "bias": [0.2, 0.1, 0.3, 0.1],
            "variance": [0.1, 0.15, 0.1, 0.2],
            "net_variance": [0.05, 0.1, 0.0, 0.1],
        }
    )
    spec = charts.bias_variance(frame, complexity="depth").to_dict()
    assert spec["facet"]["field"] == "learner"
    enc = spec["spec"]["layer"][0]["encoding"]
    assert enc["x"]["type"] == "ordinal" and enc["x"]["sort"] == ["1", "2"]
    assert enc["color"]["sort"] == ["generalisation error", "bias", "variance"]
    chosen = charts.bias_variance(frame, complexity="depth", components=["net_variance"])
    assert chosen.to_dict()["spec"]["layer"][0]["encoding"]["color"]["sort"] == ["net_variance"]


def test_bias_variance_coloured_by_a_key():
    frame = pl.concat(
        [ex.bias_variance().with_columns(learner=pl.lit(n)) for n in ("poly", "spline")]
    )
    spec = charts.bias_variance(frame, complexity="degree", color="learner").to_dict()
    assert "facet" not in spec
    line, points = spec["layer"]
    assert line["encoding"]["color"]["field"] == "learner"
    assert line["encoding"]["strokeDash"]["field"] == "__fe_component"
    assert points["encoding"]["shape"]["field"] == "__fe_component"
    assert "strokeDash" not in points["encoding"]
    with pytest.raises(InvalidParameterError, match=r"color= must name a key column"):
        charts.bias_variance(frame, complexity="degree", color="error")


def test_bias_variance_errors():
    frame = ex.bias_variance()
    with pytest.raises(ColumnNotFoundError, match=r"column 'complexity' \(complexity=\)"):
        charts.bias_variance(frame)
    with pytest.raises(InvalidParameterError, match=r"components= must name the columns"):
        charts.bias_variance(frame.select("degree", "n_instances"), complexity="degree")
    with pytest.raises(InvalidDtypeError, match=r"must be numeric"):
        charts.bias_variance(
            frame.with_columns(pl.col("error").cast(pl.String)), complexity="degree"
        )


def test_bias_variance_names_the_list_or_its_element():
    """A missing component is named by the list (components=), a non-numeric one by its place
    (components[i]=)."""
    frame = ex.bias_variance()
    with pytest.raises(
        ColumnNotFoundError, match=r"^bias_variance\(\): column 'nope' \(components=\) not found"
    ):
        charts.bias_variance(frame, complexity="degree", components=["error", "nope"])
    bad = frame.with_columns(pl.col("variance").cast(pl.String))
    with pytest.raises(
        InvalidDtypeError,
        match=r"^bias_variance\(\): column 'variance' \(components\[1\]=\) must be numeric "
        r"\(integer or float\), got String\.$",
    ):
        charts.bias_variance(bad, complexity="degree", components=["error", "variance"])


def test_learning_curve_aggregates_mean_and_sd_in_the_spec():
    spec = charts.learning_curve(ex.learning_curve()).to_dict()
    band, line, points = spec["layer"]
    assert [band["mark"]["type"], line["mark"]["type"], points["mark"]["type"]] == [
        "area",
        "line",
        "point",
    ]
    aggregate = band["transform"][0]["aggregate"]
    assert [(a["op"], a.get("field"), a["as"]) for a in aggregate] == [
        ("mean", "score", "__fe_mean"),
        ("stdev", "score", "__fe_sd"),
        ("count", None, "__fe_n"),
    ]
    assert band["transform"][0]["groupby"] == ["train_size", "role"]
    assert (
        band["encoding"]["y"]["field"] == "__fe_lo" and band["encoding"]["y2"]["field"] == "__fe_hi"
    )
    assert line["encoding"]["color"]["sort"] == ["train", "validation"]
    assert line["encoding"]["x"]["axis"]["title"] == "Training-set size"
    assert len(_data(spec)) == ex.learning_curve().height  # every fold row, aggregated by Vega


def test_validation_curve_infers_the_parameter_and_log_axis():
    frame = ex.validation_curve()
    spec = charts.validation_curve(frame, log_x=True).to_dict()
    x = spec["layer"][0]["encoding"]["x"]
    assert x["field"] == "C" and x["scale"]["type"] == "log"
    faceted = charts.validation_curve(
        frame.with_columns(learner=pl.lit("svm")), "C", facet="learner"
    ).to_dict()
    assert faceted["facet"]["field"] == "learner"
    assert faceted["spec"]["layer"][0]["transform"][0]["groupby"] == ["C", "role", "learner"]


def test_validation_curve_errors():
    frame = ex.validation_curve()
    with pytest.raises(InvalidParameterError, match=r"param= must name the hyper-parameter"):
        charts.validation_curve(frame.select("role", "score"))
    with pytest.raises(InvalidParameterError, match=r"score= must name the metric column"):
        charts.validation_curve(frame.select("role", "fold"))
    with pytest.raises(
        InvalidParameterError, match=r"log_x=True needs positive values in column 'C'"
    ):
        charts.validation_curve(frame.with_columns(pl.col("C") - 1), "C", log_x=True)
    with pytest.raises(ColumnNotFoundError, match=r"column 'accuracy' \(score=\)"):
        charts.learning_curve(ex.learning_curve(), score="accuracy")


def test_learning_curve_in_the_layout_of_fe_learning_curve():
    """``fe.learning_curve`` returns ``learner, train_size, repeat, fold, role, <metric>``: the
    metric column is found, and learners become panels (or dashed lines with facet=[])."""
    frame = pl.concat(
        [
            ex.learning_curve().with_columns(learner=pl.lit(name), repeat=pl.lit(0))
            for name in ("tree", "forest")
        ]
    ).select("learner", "train_size", "repeat", "fold", "role", pl.col("score").alias("error_rate"))
    spec = charts.learning_curve(frame).to_dict()
    assert spec["facet"]["field"] == "learner"
    band = spec["spec"]["layer"][0]
    assert band["transform"][0]["aggregate"][0]["field"] == "error_rate"
    assert band["transform"][0]["groupby"] == ["train_size", "role", "learner"]
    single = charts.learning_curve(frame, facet=[]).to_dict()
    line = single["layer"][1]["encoding"]
    assert "facet" not in single
    assert line["strokeDash"]["field"] == "learner"
    assert single["layer"][1]["transform"][0]["groupby"] == ["train_size", "role", "learner"]


def test_validation_curve_in_the_layout_of_fe_validation_curve():
    """``fe.validation_curve`` returns ``<param>, repeat, fold, role, <metric>``: param is the
    first numeric column, the metric the last."""
    frame = (
        ex.validation_curve()
        .with_columns(repeat=pl.lit(0))
        .select("C", "repeat", "fold", "role", pl.col("score").alias("accuracy"))
    )
    spec = charts.validation_curve(frame, log_x=True).to_dict()
    band = spec["layer"][0]
    assert band["encoding"]["x"]["field"] == "C"
    assert band["transform"][0]["aggregate"][0]["field"] == "accuracy"
