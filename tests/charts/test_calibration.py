"""The reliability diagram (frameeval/charts/calibration.py): a spec from the curve frame."""

from __future__ import annotations

import polars as pl
import pytest

import frameeval as fe
from frameeval import charts
from frameeval.exceptions import ColumnNotFoundError, EmptyFrameError, InvalidParameterError


@pytest.fixture(scope="module")
def curve() -> pl.DataFrame:
    df = fe.datasets.example_results().filter(pl.col("dataset") == "breast_cancer")
    return fe.calibration_curve(df, truth="truth", score="score", by="learner", bins=5)


def _values(spec: dict) -> list[dict]:
    return spec["datasets"][spec["data"]["name"]]


def test_layers_encodings_and_histogram(curve: pl.DataFrame) -> None:
    spec = charts.calibration(curve).to_dict()
    top, bottom = spec["vconcat"]
    assert [layer["mark"]["type"] for layer in top["layer"]] == ["line", "line", "rule", "point"]
    diagonal, line, bars, points = top["layer"]
    assert diagonal["mark"]["strokeDash"] == [5, 4]
    assert line["encoding"]["x"]["field"] == "mean_score"
    assert line["encoding"]["y"]["field"] == "fraction_positive"
    assert bars["encoding"]["y"]["field"] == "ci_low"
    assert bars["encoding"]["y2"]["field"] == "ci_high"
    assert points["encoding"]["color"]["field"] == "learner"
    assert bottom["mark"]["type"] == "bar"
    assert bottom["encoding"]["x"]["field"] == "bin_lower"
    assert bottom["encoding"]["x2"]["field"] == "bin_upper"
    assert bottom["encoding"]["y"]["field"] == "count"
    rows = _values(spec)
    assert len(rows) == curve.height  # aggregates only, nothing recomputed
    assert {r["learner"] for r in rows} == set(curve["learner"])


def test_facet_and_lazy_input(curve: pl.DataFrame) -> None:
    two = curve.with_columns(pl.lit("cv").alias("protocol"))
    spec = charts.calibration(two.lazy(), facet="learner", color="protocol").to_dict()
    top, bottom = spec["vconcat"]
    assert top["facet"]["field"] == "learner" and bottom["facet"]["field"] == "learner"
    assert top["spec"]["layer"][3]["encoding"]["color"]["field"] == "protocol"


def test_without_intervals_and_without_keys() -> None:
    df = pl.DataFrame({"y": [0, 0, 1, 0, 1, 1], "p": [0.1, 0.2, 0.3, 0.6, 0.8, 0.9]})
    curve = fe.calibration_curve(df, truth="y", score="p", bins=2, ci=None)
    spec = charts.calibration(curve).to_dict()
    assert "color" not in spec["vconcat"][0]["layer"][3]["encoding"]
    assert all(r["ci_low"] is None for r in _values(spec))


def test_errors(curve: pl.DataFrame) -> None:
    with pytest.raises(ColumnNotFoundError, match=r"^calibration\(\): column 'mean_score'"):
        charts.calibration(curve.drop("mean_score"))
    with pytest.raises(EmptyFrameError, match=r"^calibration\(\): curve= must have at least one"):
        charts.calibration(curve.clear())
    with pytest.raises(InvalidParameterError, match=r"^calibration\(\): color= must name a key"):
        charts.calibration(curve, color="nope")


def test_weighted_curve_histogram_shows_weight() -> None:
    """A weighted curve's ``weight`` column is a value, not a key: the histogram shows Σw."""
    df = pl.DataFrame(
        {"y": [0, 0, 1, 0, 1, 1], "p": [0.1, 0.2, 0.3, 0.6, 0.8, 0.9], "w": [1, 2, 1, 1, 3, 2]}
    )
    curve = fe.calibration_curve(df, truth="y", score="p", bins=2, weight="w")
    spec = charts.calibration(curve).to_dict()
    top, bottom = spec["vconcat"]
    assert bottom["encoding"]["y"]["field"] == "weight"
    assert "color" not in top["layer"][3]["encoding"]  # no key column: one curve
    assert "weight per bin" in spec["title"]["subtitle"]


@pytest.mark.parametrize(("learners", "independent"), [(5, True), (3, False)])
def test_facet_grid_fits_the_page_and_no_empty_cell_shows_a_bare_axis(
    curve: pl.DataFrame, learners: int, independent: bool
) -> None:
    """Issue 25: five panels in rows of three leave an empty cell; each panel then draws its
    own x axis (diagram and histogram) instead of a shared column footer under the empty cell.
    The facet header carries no title (the column name over the grid is a field name)."""
    names = sorted(curve["learner"].unique())[:learners]
    spec = charts.calibration(
        curve.filter(pl.col("learner").is_in(names)), facet="learner", width=230
    ).to_dict()
    top, bottom = spec["vconcat"]
    for part in (top, bottom):
        assert part["columns"] == 3  # (1040 + 20) // (230 + 60 + 20): three fit the page
        axis = part.get("resolve", {}).get("axis", {})
        assert (axis.get("x") == "independent") is independent
    assert top["facet"]["header"]["title"] is None
