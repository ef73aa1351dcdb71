"""Charts fed with the frames of frameeval's own computational functions (the contract in
practice): each renders to SVG and draws what the function returned."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
import vl_convert

import frameeval as fe
from frameeval import charts
from frameeval.charts.save import vegalite_version
from tests.charts import examples as ex


def _render(chart) -> str:
    svg = vl_convert.vegalite_to_svg(chart.to_dict(), vl_version=vegalite_version())
    assert svg.startswith("<svg")
    return svg


def _data(spec: dict) -> list[dict]:
    return spec["datasets"][spec["data"]["name"]]


def test_binomial_from_fe_binomial_distribution():
    dist = fe.binomial_distribution(10, 0.3, alpha=0.05)
    chart = charts.binomial(dist, eps0=0.3, alpha=0.05)
    _render(chart)
    bars = [r for r in _data(chart.to_dict()) if r["__fe_layer"] == "bars"]
    assert [r["__fe_region"].startswith("reject") for r in bars] == dist["reject"].to_list()


@pytest.fixture(scope="module")
def per_block():
    """One accuracy per data set and learner (the blocks of the Friedman test)."""
    return ex.metric_table().filter(pl.col("fold") == 0).drop("fold")


@pytest.mark.parametrize("style", ["interval", "demsar"])
def test_cd_diagram_from_fe_average_ranks_and_fe_nemenyi(per_block, style):
    kwargs = {"metric": "accuracy", "block": "dataset", "learner": "learner"}
    ranks = fe.average_ranks(per_block, **kwargs)
    pairs = fe.nemenyi(per_block, **kwargs)
    chart = charts.cd_diagram(ranks, pairs, style=style)
    _render(chart)
    rows = _data(chart.to_dict())
    cd = pairs["critical_value"][0]
    assert {r["cd"] for r in rows if "cd" in r and r["cd"] is not None} == {cd}
    if style == "demsar":
        drawn = {
            r["learner"]: r["average_rank"] for r in rows if r["__fe_layer"] in ("left", "right")
        }
        assert drawn == dict(ranks.select("learner", "average_rank").iter_rows())


def test_rank_heatmap_from_fe_rank_table(per_block):
    kwargs = {"metric": "accuracy", "block": "dataset", "learner": "learner"}
    table = fe.rank_table(per_block, **kwargs)
    chart = charts.rank_heatmap(table, fe.average_ranks(per_block, **kwargs))
    _render(chart)
    spec = chart.to_dict()
    assert spec["layer"][0]["encoding"]["y"]["axis"]["title"] == "dataset"


def test_confusion_heatmap_from_fe_confusion_matrix():
    rng = np.random.default_rng(0)
    truth = rng.integers(0, 3, 90)
    pred = np.where(rng.random(90) < 0.8, truth, rng.integers(0, 3, 90))
    frame = pl.DataFrame({"learner": ["a", "b"] * 45, "y": truth, "p": pred})
    matrix = fe.confusion_matrix(frame, truth="y", pred="p", by="learner")
    chart = charts.confusion_heatmap(matrix, normalize="true")
    _render(chart)
    assert chart.to_dict()["facet"]["field"] == "learner"


def test_bias_variance_from_fe_bias_variance():
    rng = np.random.default_rng(1)
    rows = []
    for degree in (1, 2, 3):
        for repeat in range(5):
            for instance in range(6):
                truth = float(instance)
                rows.append((degree, repeat, instance, truth, truth + rng.normal(0, degree / 3)))
    frame = pl.DataFrame(rows, schema=["degree", "repeat", "instance", "y", "f"], orient="row")
    decomposition = fe.bias_variance(frame, truth="y", pred="f", instance="instance", by="degree")
    chart = charts.bias_variance(decomposition, complexity="degree")
    _render(chart)
    drawn = {r["__fe_column"] for r in _data(chart.to_dict())}
    assert drawn == {"error", "bias_squared", "variance"}
