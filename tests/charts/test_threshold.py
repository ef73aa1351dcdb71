"""charts.threshold: measures against the threshold, the chosen operating point marked."""

from __future__ import annotations

import polars as pl
import pytest

import frameeval as fe
from frameeval.exceptions import ColumnNotFoundError, InvalidDtypeError, InvalidParameterError

DF = pl.DataFrame(
    {
        "m": ["a"] * 6 + ["b"] * 6,
        "y": [1, 0, 1, 1, 0, 0] * 2,
        "s": [0.9, 0.8, 0.8, 0.4, 0.3, 0.1, 0.2, 0.9, 0.7, 0.6, 0.5, 0.1],
    }
)


def rows(spec: dict, layer: str) -> list[dict]:
    (data,) = spec["datasets"].values()
    return [r for r in data if r["__fe_layer"] == layer]


def table(**kw):
    return fe.threshold_table(DF, truth="y", score="s", by="m", measures=["f1", "mcc"], **kw)


def test_facets_by_key_and_colours_measures() -> None:
    best = fe.best_threshold(DF, truth="y", score="s", by="m", measure="mcc")
    spec = fe.charts.threshold(table(), best=best).to_dict()
    assert spec["facet"]["field"] == "m"
    layers = spec["spec"]["layer"]
    assert [layer["mark"]["type"] for layer in layers] == ["line", "rule", "point"]
    assert layers[0]["encoding"]["color"]["field"] == "measure"
    assert layers[0]["encoding"]["x"]["field"] == "threshold"
    data = rows(spec, "line")
    assert {r["measure"] for r in data} == {"f1", "mcc"}
    assert all(r["threshold"] is not None for r in data)  # +inf not drawn
    rules = rows(spec, "rule")
    assert [(r["m"], r["threshold"]) for r in rules] == best.select("m", "threshold").rows()
    points = rows(spec, "point")
    expected = best.join(table(), on=["m", "threshold"]).sort("m")
    got = sorted((r["m"], r["measure"], r["value"]) for r in points)
    assert got == sorted(
        [(m, "f1", f) for m, f in expected.select("m", "f1").rows()]
        + [(m, "mcc", v) for m, v in expected.select("m", "mcc_right").rows()]
    )


def test_colour_by_key_dashes_measures_and_subset() -> None:
    spec = fe.charts.threshold(table().lazy(), measures=["mcc"], color="m").to_dict()
    line = spec["layer"][0]
    assert line["encoding"]["color"]["field"] == "m"
    assert line["encoding"]["strokeDash"]["field"] == "measure"
    assert {r["measure"] for r in rows(spec, "line")} == {"mcc"}


def test_errors() -> None:
    with pytest.raises(
        InvalidDtypeError,
        match=r"^threshold\(\): column 'm' \(measures=\) must be numeric \(integer or float\), "
        r"got String\.$",
    ):
        fe.charts.threshold(table(), measures=["f1", "m"])
    with pytest.raises(ColumnNotFoundError, match=r"threshold\(\).*'kappa'"):
        fe.charts.threshold(table(), measures=["kappa"])
    with pytest.raises(InvalidParameterError, match=r"color= must name a key column"):
        fe.charts.threshold(table(), color="f1")
    with pytest.raises(ColumnNotFoundError, match=r"best= frame lacks key columns \['m'\]"):
        fe.charts.threshold(table(), best=pl.DataFrame({"threshold": [0.5]}))
