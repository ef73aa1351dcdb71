"""ROC, P-R and cost-curve charts (frameeval/charts/curves.py): specs from frames, nothing
recomputed."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest

from frameeval import charts
from frameeval.exceptions import (
    ColumnNotFoundError,
    EmptyFrameError,
    InvalidDtypeError,
    InvalidParameterError,
)
from tests.charts import examples as ex

BY = ["dataset", "learner"]


@pytest.fixture(scope="module")
def frames():
    s = ex.scores()
    roc = ex.roc_curve(s, BY)
    pr = ex.pr_curve(s, BY)
    envelope = ex.cost_envelope(roc, BY)
    return {
        "roc": roc,
        "auc": ex.roc_auc(roc, BY),
        "pr": pr,
        "bep": ex.break_even_point(pr, BY),
        "lines": ex.cost_lines(roc, BY),
        "envelope": envelope,
        "total": ex.expected_total_cost(envelope, BY),
    }


def _data(spec: dict, name: str | None = None) -> list[dict]:
    return spec["datasets"][name or spec["data"]["name"]]


def _layers(spec: dict) -> list[dict]:
    return spec["spec"]["layer"] if "spec" in spec else spec["layer"]


def _one(frame: pl.DataFrame) -> pl.DataFrame:
    return frame.filter(pl.col("dataset") == "breast").drop("dataset")


# --------------------------------------------------------------------------------------------
# ROC
# --------------------------------------------------------------------------------------------
def test_roc_encodings_and_diagonal(frames):
    spec = charts.roc(_one(frames["roc"])).to_dict()
    diagonal, curve = spec["layer"][:2]
    assert diagonal["mark"]["type"] == "line" and diagonal["mark"]["strokeDash"]
    assert [(r["x"], r["y"]) for r in _data(spec, diagonal["data"]["name"])] == [(0, 0), (1, 1)]
    enc = curve["encoding"]
    assert (enc["x"]["field"], enc["y"]["field"]) == ("fpr", "tpr")
    assert enc["x"]["scale"]["domain"] == [0, 1] and enc["y"]["scale"]["domain"] == [0, 1]
    assert enc["x"]["axis"]["title"] == "False positive rate (FPR)"
    assert enc["color"]["field"] == "learner"
    assert enc["order"]["field"] == "__fe_order"
    assert {t["title"] for t in enc["tooltip"]} == {"learner", "threshold", "FPR", "TPR"}
    assert spec["title"]["text"] == "ROC curve"


def test_roc_draws_the_given_points(frames):
    """The curve rows in the spec are the input points (no collinear vertex in this sample
    is dropped unless it adds nothing to the drawing), in path order per learner."""
    curve = _one(frames["roc"])
    spec = charts.roc(curve).to_dict()
    rows = pl.DataFrame(_data(spec)).filter(pl.col("__fe_layer") == "curve")
    drawn = rows.select("learner", "fpr", "tpr")
    assert drawn.join(curve, on=["learner", "fpr", "tpr"], how="anti").height == 0
    ends = rows.group_by("learner").agg(
        pl.col("fpr").sort_by("__fe_order").first(), pl.col("tpr").sort_by("__fe_order").last()
    )
    assert ends.get_column("fpr").to_list() == [0.0] * 3
    assert ends.get_column("tpr").to_list() == [1.0] * 3


def test_roc_infinite_threshold_is_text_and_spec_is_strict_json(frames):
    spec = charts.roc(_one(frames["roc"])).to_dict()
    json.dumps(spec, allow_nan=False)
    first = [r for r in _data(spec) if r["fpr"] == 0 and r["tpr"] == 0]
    assert {r["__fe_threshold"] for r in first} == {"+∞"}


def test_roc_auc_in_legend_when_determined_by_color(frames):
    auc = _one(frames["auc"])
    spec = charts.roc(_one(frames["roc"]), auc).to_dict()
    color = spec["layer"][1]["encoding"]["color"]
    assert color["field"] == "__fe_label" and color["legend"]["title"] == "learner"
    expected = [f"{r['learner']} (AUC {r['roc_auc']:.3f})" for r in auc.sort("learner").to_dicts()]
    assert color["sort"] == expected
    assert len(spec["layer"]) == 2  # no annotation layer


def test_roc_auc_annotated_per_panel_when_faceted(frames):
    spec = charts.roc(frames["roc"], frames["auc"], facet="dataset").to_dict()
    assert spec["facet"]["field"] == "dataset" and spec["columns"] == 2
    text = [layer for layer in _layers(spec) if layer["mark"]["type"] == "text"]
    assert len(text) == 1
    rows = [r for r in _data(spec) if r["__fe_layer"] == "summary"]
    expected = {
        (r["dataset"], f"{r['learner']}: AUC {r['roc_auc']:.3f}") for r in frames["auc"].to_dicts()
    }
    assert {(r["dataset"], r["__fe_text"]) for r in rows} == expected
    # three lines per panel, stacked upwards from the lower right corner
    for dataset in ("breast", "spam"):
        ys = sorted(r["__fe_y"] for r in rows if r["dataset"] == dataset)
        assert ys == pytest.approx([0.05, 0.12, 0.19])


def test_roc_uncoloured_keys_still_draw_separate_curves(frames):
    spec = charts.roc(frames["roc"], color="learner").to_dict()
    enc = spec["layer"][1]["encoding"]
    assert enc["color"]["field"] == "learner"
    assert [d["field"] for d in enc["detail"]] == ["dataset"]


def test_roc_undefined_auc_shows_as_undefined():
    curve = pl.DataFrame({"learner": ["a", "a"], "fpr": [0.0, 1.0], "tpr": [0.0, 1.0]})
    auc = pl.DataFrame(
        {"learner": ["a"], "roc_auc": [None]}, schema_overrides={"roc_auc": pl.Float64}
    )
    spec = charts.roc(curve, auc).to_dict()
    assert spec["layer"][1]["encoding"]["color"]["sort"] == ["a (AUC undefined)"]


def test_roc_lazy_equals_eager_and_row_order_invariance(frames):
    curve = frames["roc"]
    eager = charts.roc(curve, frames["auc"], facet="dataset").to_dict()
    lazy = charts.roc(curve.lazy(), frames["auc"].lazy(), facet="dataset").to_dict()
    shuffled = charts.roc(
        curve.sample(fraction=1.0, shuffle=True, seed=1), frames["auc"], facet="dataset"
    ).to_dict()
    assert eager == lazy == shuffled


def test_roc_accepts_pandas(frames):
    curve = _one(frames["roc"])
    assert charts.roc(curve.to_pandas()).to_dict() == charts.roc(curve).to_dict()


def test_roc_column_names_with_dots_are_escaped():
    curve = pl.DataFrame(
        {"model.name": ["a", "a", "b", "b"], "fpr": [0.0, 1.0] * 2, "tpr": [0.0, 1.0] * 2}
    )
    spec = charts.roc(curve).to_dict()
    assert spec["layer"][1]["encoding"]["color"]["field"] == "model\\.name"
    assert spec["layer"][1]["encoding"]["tooltip"][0]["title"] == "model.name"


def test_roc_errors(frames):
    curve = _one(frames["roc"])
    with pytest.raises(ColumnNotFoundError, match=r"roc\(\): column 'tpr' \(tpr=\) not found"):
        charts.roc(curve.drop("tpr"))
    with pytest.raises(InvalidDtypeError, match=r"roc\(\): column 'fpr' \(fpr=\) must be numeric"):
        charts.roc(curve.with_columns(pl.col("fpr").cast(pl.String)))
    with pytest.raises(
        InvalidParameterError, match=r"roc\(\): color= must name a key column of the frame"
    ):
        charts.roc(curve, color="threshold")
    with pytest.raises(ColumnNotFoundError, match=r"roc\(\): column 'model' \(facet=\) not found"):
        charts.roc(curve, facet="model")
    with pytest.raises(EmptyFrameError, match=r"roc\(\): curve= must have at least one row"):
        charts.roc(curve.clear())
    auc = frames["auc"]  # keyed by dataset too, which the single-dataset curve lacks
    with pytest.raises(
        InvalidParameterError, match=r"roc\(\): auc= frame has key columns the curve frame lacks"
    ):
        charts.roc(curve, auc)


# --------------------------------------------------------------------------------------------
# P-R
# --------------------------------------------------------------------------------------------
def test_pr_layers_iso_f1_and_bep(frames):
    pr, bep = _one(frames["pr"]), _one(frames["bep"])
    spec = charts.pr(pr, bep).to_dict()
    marks = [layer["mark"]["type"] for layer in spec["layer"]]
    assert marks == ["line", "text", "line", "line", "point"]
    iso = _data(spec, spec["layer"][0]["data"]["name"])
    # every iso-F1 point has F1 = 2PR/(P+R) equal to its level (eq 2.10)
    for row in iso:
        level = float(row["line"].split("= ")[1])
        assert 2 * row["x"] * row["y"] / (row["x"] + row["y"]) == pytest.approx(level, abs=1e-12)
    assert {r["line"] for r in iso} == {"F1 = 0.2", "F1 = 0.4", "F1 = 0.6", "F1 = 0.8"}
    curve = spec["layer"][3]["encoding"]
    assert (curve["x"]["field"], curve["y"]["field"]) == ("recall", "precision")
    points = [r for r in _data(spec) if r["__fe_layer"] == "bep"]
    assert {(r["learner"], r["__fe_x"], r["__fe_y"]) for r in points} == {
        (r["learner"], r["break_even_point"], r["break_even_point"]) for r in bep.to_dicts()
    }
    assert spec["layer"][1]["encoding"]["text"]["field"] == "line"


def test_pr_without_iso_lines_and_bep(frames):
    spec = charts.pr(_one(frames["pr"]), f1_lines=()).to_dict()
    assert [layer["mark"]["type"] for layer in spec["layer"]] == ["line", "line"]


def test_pr_path_order_is_recall_up_then_precision_down():
    curve = pl.DataFrame(
        {
            "threshold": [0.9, 0.8, 0.7, 0.6],
            "recall": [0.5, 0.5, 1.0, 1.0],
            "precision": [1.0, 0.5, 2 / 3, 0.5],
        }
    )
    spec = charts.pr(curve.reverse()).to_dict()
    rows = sorted(_data(spec), key=lambda r: r["__fe_order"])
    assert [(r["recall"], r["precision"]) for r in rows] == [
        (0.5, 1.0),
        (0.5, 0.5),
        (1.0, 2 / 3),
        (1.0, 0.5),
    ]


def test_pr_errors(frames):
    with pytest.raises(
        InvalidParameterError, match=r"pr\(\): f1_lines levels must be in \(0, 1\), got 1.5"
    ):
        charts.pr(_one(frames["pr"]), f1_lines=(0.5, 1.5))
    with pytest.raises(ColumnNotFoundError, match=r"pr\(\): column 'recall' \(recall=\) not found"):
        charts.pr(_one(frames["roc"]))


# --------------------------------------------------------------------------------------------
# cost curves
# --------------------------------------------------------------------------------------------
def test_cost_curve_layers_and_encodings(frames):
    spec = charts.cost_curve(
        _one(frames["envelope"]), _one(frames["lines"]), _one(frames["total"])
    ).to_dict()
    marks = [layer["mark"]["type"] for layer in spec["layer"]]
    assert marks == ["line", "area", "line"]
    lines, area, envelope = spec["layer"]
    assert lines["encoding"]["detail"][-1]["field"] == "point"
    assert area["encoding"]["y2"] == {"datum": 0} and area["encoding"]["y"]["stack"] is None
    assert envelope["encoding"]["x"]["axis"]["title"] == "Probability cost P(+)cost"
    assert envelope["encoding"]["y"]["axis"]["title"] == "Normalised expected cost"
    expected = [
        f"{r['learner']} (expected total cost {r['expected_total_cost']:.3f})"
        for r in _one(frames["total"]).sort("learner").to_dicts()
    ]
    assert envelope["encoding"]["color"]["sort"] == expected


def test_cost_lines_are_whole_segments_from_fpr_to_fnr(frames):
    roc = _one(frames["roc"])
    spec = charts.cost_curve(_one(frames["envelope"]), _one(frames["lines"])).to_dict()
    rows = pl.DataFrame([r for r in _data(spec) if r["__fe_layer"] == "lines"])
    ends = rows.group_by("learner", "point").agg(
        pl.col("norm_cost").sort_by("p_cost").first().alias("fpr"),
        (1 - pl.col("norm_cost").sort_by("p_cost").last()).alias("tpr"),
        pl.len(),
    )
    assert ends.get_column("len").to_list() == [2] * ends.height
    # only the segments forming the lower envelope are drawn: by duality (Drummond & Holte
    # 2006) those of the ROC convex hull's vertices — oracle: scipy's ConvexHull of the ROC
    # points plus (1, 0), which closes the hull below the ROC curve
    from scipy.spatial import ConvexHull

    for (learner,), part in roc.partition_by("learner", as_dict=True).items():
        points = part.select("fpr", "tpr").unique().to_numpy()
        closed = np.vstack([points, [[1.0, 0.0]]])
        vertices = {tuple(np.round(closed[i], 12)) for i in ConvexHull(closed).vertices}
        vertices.discard((1.0, 0.0))
        # a trivial classifier's line only touches the envelope at an end when another hull
        # vertex has FPR = 0 (resp. TPR = 1): it forms no piece of it
        if any(f == 0 and t > 0 for f, t in vertices):
            vertices.discard((0.0, 0.0))
        if any(t == 1 and f < 1 for f, t in vertices):
            vertices.discard((1.0, 1.0))
        drawn = ends.filter(pl.col("learner") == learner).select(
            pl.col("fpr").round(12), pl.col("tpr").round(12)
        )
        assert set(drawn.unique().iter_rows()) == vertices, learner


def test_cost_lines_are_thinned_as_whole_segments():
    roc = pl.DataFrame({"fpr": [i / 4000 for i in range(4001)]}).with_columns(
        tpr=pl.col("fpr").sqrt()
    )
    lines = ex.cost_lines(roc.with_columns(g=pl.lit("a")), ["g"]).drop("g")
    # a strictly concave ROC curve: every point is a hull vertex, so every line forms a piece
    # of the envelope and the thinning (not the envelope filter) decides what is drawn
    envelope = ex.cost_envelope(roc.with_columns(g=pl.lit("a")), ["g"]).drop("g")
    spec = charts.cost_curve(envelope, lines, max_points=1000).to_dict()
    rows = pl.DataFrame([r for r in _data(spec) if r["__fe_layer"] == "lines"])
    counts = rows.group_by("point").len().get_column("len")
    assert counts.to_list() == [2] * counts.len()
    assert rows.height <= 500
    kept = set(rows.get_column("point").to_list())
    assert 0 in kept and 4000 in kept


def test_cost_curve_alone_and_errors(frames):
    envelope = _one(frames["envelope"])
    spec = charts.cost_curve(envelope).to_dict()
    assert [layer["mark"]["type"] for layer in spec["layer"]] == ["area", "line"]
    with pytest.raises(
        ColumnNotFoundError, match=r"cost_curve\(\): lines= frame lacks key columns \['learner'\]"
    ):
        charts.cost_curve(envelope, _one(frames["lines"]).drop("learner"))
    with pytest.raises(
        ColumnNotFoundError, match=r"cost_curve\(\): column 'point' \(lines_point=\) not found"
    ):
        charts.cost_curve(envelope, _one(frames["lines"]).drop("point"))


def test_pr_and_cost_labels_sit_beside_the_panels_clear_of_the_curves(frames):
    """Issue 18: the BEP / expected-cost text sat under the curves; now it is drawn right of
    each panel (pixel positions, no data scale), with facet spacing and the legend beyond it."""
    spec = charts.pr(frames["pr"], break_even=frames["bep"], facet="dataset", width=300).to_dict()
    text = [
        layer
        for layer in _layers(spec)
        if layer.get("mark", {}).get("type") == "text"
        and layer["encoding"]["text"]["field"] == "__fe_text"
    ][0]
    assert text["encoding"]["x"]["scale"] is None and text["encoding"]["y"]["scale"] is None
    assert text["mark"]["align"] == "left"
    rows = [r for r in _data(spec) if r["__fe_layer"] == "summary"]
    assert {r["__fe_x"] for r in rows} == {310.0}  # 10 px right of the 300 px panel
    assert spec["spacing"]["column"] >= 20 + 6 * max(len(r["__fe_text"]) for r in rows)
    cost = charts.cost_curve(
        frames["envelope"], expected_cost=frames["total"], facet="dataset"
    ).to_dict()
    rows = [r for r in _data(cost) if r["__fe_layer"] == "summary"]
    assert rows and all(r["__fe_x"] == 330.0 for r in rows)


# --------------------------------------------------------------------------------------------
# Scales that fit the data (issue 25)
# --------------------------------------------------------------------------------------------
def _scale(layer: dict, channel: str) -> dict:
    return layer["encoding"][channel]["scale"]


def test_pr_axes_fit_the_drawn_points(frames):
    """Issue 25: P-R curves that crowd the top-right corner spread over the plot: each axis
    runs from its smallest drawn value (curve or break-even point) rounded down to a tenth to
    its largest rounded up; every layer shares the scale and the guides are clipped to it."""
    curve, bep = _one(frames["pr"]), _one(frames["bep"])
    spec = charts.pr(curve, bep).to_dict()
    low_p = min(curve["precision"].drop_nulls().min(), bep["break_even_point"].min())
    low_r = min(curve["recall"].min(), bep["break_even_point"].min())
    expected_y = [np.floor(low_p * 10) / 10, np.ceil(curve["precision"].max() * 10) / 10]
    expected_x = [np.floor(low_r * 10) / 10, np.ceil(curve["recall"].max() * 10) / 10]
    line = next(layer for layer in spec["layer"] if layer["encoding"]["y"].get("axis"))
    assert _scale(line, "y")["domain"] == pytest.approx(expected_y)
    assert _scale(line, "x")["domain"] == pytest.approx(expected_x)
    assert expected_y[0] > 0  # the fixture's precision never reaches 0: the axis is zoomed
    for layer in spec["layer"]:
        assert _scale(layer, "y") == _scale(line, "y")
        if layer["mark"]["type"] == "line" and "color" in layer["mark"]:  # a guide
            assert layer["mark"]["clip"] is True
    # iso-F1 labels are only drawn where they fall inside the plot
    labels = [layer for layer in spec["layer"] if layer["mark"]["type"] == "text"][0]
    ys = [row["y"] for row in _data(spec, labels["data"]["name"])]
    assert ys and min(ys) >= expected_y[0]
    unit = charts.pr(curve, bep, zoom=False).to_dict()
    assert all(_scale(layer, "y")["domain"] == [0, 1] for layer in unit["layer"])


def test_cost_curve_zooms_to_the_envelopes_and_names_no_field(frames):
    """Issue 25: the y axis runs from 0 to 1.5 × the highest envelope vertex (rounded up to a
    tenth), so the trivial classifiers' cost lines (clipped) no longer squash the envelopes;
    its title names the quantity, not the column (Drummond & Holte's "normalized expected
    cost")."""
    envelope = _one(frames["envelope"])
    spec = charts.cost_curve(envelope, _one(frames["lines"])).to_dict()
    top = np.ceil(1.5 * envelope["norm_cost"].max() * 10) / 10
    assert 0 < top < 1
    lines, area, thick = spec["layer"]
    for layer in (lines, area, thick):
        assert _scale(layer, "y")["domain"] == pytest.approx([0.0, top])
    assert lines["mark"]["clip"] is True
    assert thick["encoding"]["y"]["axis"]["title"] == "Normalised expected cost"
    assert "cost_norm" not in json.dumps(spec) and 'norm_cost"' not in json.dumps(
        thick["encoding"]["y"]["axis"]
    )
    unit = charts.cost_curve(envelope, zoom=False).to_dict()
    assert _scale(unit["layer"][0], "y")["domain"] == [0, 1]
