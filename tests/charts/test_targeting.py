"""Charts of gains, lift and KS: layers, fields and the companion frame's keys."""

from __future__ import annotations

import polars as pl
import pytest

import frameeval as fe
from frameeval.exceptions import ColumnNotFoundError

DF = pl.DataFrame(
    {
        "m": ["a"] * 6 + ["b"] * 6,
        "y": [1, 0, 1, 1, 0, 0] * 2,
        "s": [0.9, 0.8, 0.8, 0.4, 0.3, 0.1, 0.2, 0.9, 0.5, 0.6, 0.1, 0.7],
    }
)


def test_gains_and_lift_draw_one_line_per_key_over_the_random_reference() -> None:
    for chart, value, level in (
        (fe.charts.gains(fe.gains_curve(DF, "y", "s", by="m")), "gain", [0.0, 1.0]),
        (fe.charts.lift(fe.lift_curve(DF, "y", "s", by="m")), "lift", [1.0, 1.0]),
    ):
        spec = chart.to_dict()
        guide, line = spec["layer"]
        assert line["encoding"]["x"]["field"] == "fraction"
        assert line["encoding"]["y"]["field"] == value
        assert line["encoding"]["color"]["field"] == "m"
        assert [row["y"] for row in spec["datasets"][guide["data"]["name"]]] == level


def test_ks_marks_the_statistic_per_panel() -> None:
    roc = fe.roc_curve(DF, "y", "s", by="m")
    stat = fe.ks_statistic(DF, "y", "s", by="m")
    spec = fe.charts.ks(roc, stat).to_dict()
    assert spec["facet"]["field"] == "m"
    rows = spec["datasets"][spec["data"]["name"]]
    labels = sorted(r["__fe_label"] for r in rows if r.get("__fe_layer") == "ks")
    assert labels == ["KS 0.667 at 0.4", "KS 0.667 at 0.7"]
    assert all(r["threshold"] != float("inf") for r in rows if r.get("__fe_layer") == "curve")
    with pytest.raises(ColumnNotFoundError, match=r"ks\(\): statistic= frame lacks key"):
        fe.charts.ks(roc, stat.drop("m"))
