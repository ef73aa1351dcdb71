"""charts.subgroup_gaps: the spec draws each group's interval and value and the overall rule."""

from __future__ import annotations

import polars as pl
import pytest

import frameeval as fe
from frameeval import charts
from frameeval.exceptions import InvalidParameterError


def _data() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "model": ["a"] * 8 + ["b"] * 8,
            "sex": ["F", "M"] * 8,
            "y": [1, 1, 0, 1, 1, 0, 1, 0] * 2,
            "p": [1, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 0, 1, 1],
        }
    )


def test_layers_encodings_and_the_overall_rule() -> None:
    df = _data()
    common = {"sensitive": "sex", "by": "model", "measures": ["recall", "selection_rate"]}
    values = fe.subgroups.by_group(df, "y", "p", ci=0.9, **common)
    gaps = fe.subgroups.gaps(df, "y", "p", **common)
    spec = charts.subgroup_gaps(values, gaps, sensitive="sex", color="model").to_dict()
    assert spec["facet"]["field"] == "measure"
    interval, point, overall = spec["spec"]["layer"]
    assert interval["mark"]["type"] == "rule" and interval["encoding"]["x"]["field"] == "low"
    assert interval["encoding"]["x2"]["field"] == "high"
    assert point["mark"]["type"] == "point" and point["encoding"]["x"]["field"] == "value"
    assert point["encoding"]["color"]["field"] == "model"
    assert overall["mark"]["strokeDash"] == [4, 3]
    assert overall["encoding"]["x"]["field"] == "overall"
    rows = spec["datasets"][spec["data"]["name"]]
    drawn = sorted(r["overall"] for r in rows if r.get("overall") is not None)
    assert drawn == sorted(gaps["overall"].to_list())
    assert sum(r.get("value") is not None for r in rows) == values.height


def test_without_intervals_a_point_per_group_and_bad_color() -> None:
    values = fe.subgroups.by_group(_data(), "y", "p", sensitive="sex", measures=["recall"])
    spec = charts.subgroup_gaps(values, sensitive="sex").to_dict()
    assert [layer["mark"]["type"] for layer in spec["spec"]["layer"]] == ["point"]
    with pytest.raises(InvalidParameterError, match="color= must name a by= key"):
        charts.subgroup_gaps(values, sensitive="sex", color="x")
