"""Charts of the Bayesian comparisons and the multiple comparison matrix
(frameeval/charts/bayes.py, frameeval/charts/matrix.py): assertions on ``chart.to_dict()``."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

import frameeval as fe
from frameeval import charts
from frameeval.exceptions import ColumnNotFoundError, InvalidParameterError


def _table(groups: int = 1) -> pl.DataFrame:
    rng = np.random.default_rng(0)
    rows = [
        (g, f"d{i}", learner, float(rng.normal(0.7 + 0.03 * "ABC".index(learner), 0.05)))
        for g in range(groups)
        for i in range(8)
        for learner in "ABC"
    ]
    return pl.DataFrame(rows, schema=["g", "block", "learner", "accuracy"], orient="row")


def _data(spec: dict) -> list[dict]:
    return spec["datasets"][spec["data"]["name"]]


def test_posterior_simplex_points_guides_and_labels():
    df = _table()
    kw = {"rope": 0.01, "n_samples": 500, "seed": 3, "a": "A", "b": "C"}
    samples = fe.compare.bayes_signed_rank_samples(df, "accuracy", **kw)
    result = fe.bayes_signed_rank(df, "accuracy", **kw)
    spec = charts.posterior_simplex(samples, result).to_dict()
    marks = [layer["mark"]["type"] for layer in spec["layer"]]
    assert marks == ["rule", "circle", "text"]
    rows = _data(spec)
    points = [r for r in rows if r["__fe_layer"] == "points"]
    assert len(points) == 500
    first = samples.row(0, named=True)
    assert points[0]["__fe_x"] == pytest.approx(first["b_better"] + 0.5 * first["rope"])
    assert points[0]["__fe_y"] == pytest.approx(np.sqrt(3) / 2 * first["rope"])
    assert len([r for r in rows if r["__fe_layer"] == "guide"]) == 6
    labels = sorted(r["__fe_text"] for r in rows if r["__fe_layer"] == "labels")
    p = result.row(0, named=True)
    assert labels == sorted(
        [
            f"A better: p = {p['p_a_better']:.3f}",
            f"C better: p = {p['p_b_better']:.3f}",
            f"rope: p = {p['p_rope']:.3f}",
        ]
    )


def test_posterior_simplex_facets_pairs_and_thins():
    samples = fe.compare.bayes_signed_rank_samples(
        _table(2), "accuracy", rope=0.01, n_samples=400, by="g"
    )
    spec = charts.posterior_simplex(samples, max_points=600).to_dict()
    assert "facet" in spec
    rows = _data(spec)
    assert len([r for r in rows if r["__fe_layer"] == "points"]) == 6 * 100  # 6 panels
    with pytest.raises(InvalidParameterError, match="max_points must be a positive integer"):
        charts.posterior_simplex(samples, max_points=0)
    with pytest.raises(ColumnNotFoundError):
        charts.posterior_simplex(samples.drop("rope"))


def test_bayes_matrix_mirrors_pairs():
    result = fe.bayes_correlated_t(_table(), "accuracy", fold="block", rope=0.01)
    spec = charts.bayes_matrix(result).to_dict()
    assert [layer["mark"]["type"] for layer in spec["layer"]] == ["rect", "text"]
    assert spec["layer"][0]["encoding"]["color"]["field"] == "p_a_better"
    rows = {(r["a"], r["b"]): r for r in _data(spec)}
    assert len(rows) == 6
    for row in result.iter_rows(named=True):
        mirror = rows[(row["b"], row["a"])]
        assert mirror["p_a_better"] == pytest.approx(row["p_b_better"])
        assert mirror["p_b_better"] == pytest.approx(row["p_a_better"])
        text = rows[(row["a"], row["b"])]["__fe_text"]
        assert text.count(" / ") == 2
    faceted = charts.bayes_matrix(
        fe.bayes_signed_rank(_table(2), "accuracy", rope=0.01, n_samples=200, by="g")
    ).to_dict()
    assert faceted["facet"]["field"] == "g"


def test_comparison_matrix_chart_cells():
    mcm = fe.comparison_matrix(_table(), "accuracy")
    spec = charts.comparison_matrix(mcm, alpha=0.05).to_dict()
    layers = spec["layer"]
    assert [layer["mark"]["type"] for layer in layers] == ["rect", "text", "text"]
    assert layers[0]["encoding"]["color"]["field"] == "mean_difference"
    assert layers[0]["encoding"]["color"]["scale"]["reverse"] is False
    assert [layer["mark"]["fontWeight"] for layer in layers[1:]] == ["normal", "bold"]
    rows = _data(spec)
    assert len(rows) == 6
    for row in rows:
        lines = row["__fe_text"].split("\n")
        assert lines[1] == f"{row['wins']} / {row['ties']} / {row['losses']}"
        assert row["__fe_significant"] == (row["p_adjusted"] < 0.05)
    lower = charts.comparison_matrix(mcm, higher_is_better=False).to_dict()
    assert lower["layer"][0]["encoding"]["color"]["scale"]["reverse"] is True
    with pytest.raises(InvalidParameterError, match=r"alpha must be in \(0, 1\)"):
        charts.comparison_matrix(mcm, alpha=2)


def test_comparison_matrix_chart_reads_the_direction_from_the_frame():
    """Without higher_is_better= the colours follow the matrix's own wins (counted in the
    metric's better direction): an error-rate matrix is not drawn with reversed colours."""
    df = pl.DataFrame(
        {
            "block": list("abcde") * 2,
            "learner": ["A"] * 5 + ["B"] * 5,
            "err": [0.1, 0.2, 0.3, 0.4, 0.2, 0.2, 0.3, 0.3, 0.5, 0.4],
        }
    )

    def reverse(matrix, **kw):
        spec = charts.comparison_matrix(matrix, **kw).to_dict()
        return spec["layer"][0]["encoding"]["color"]["scale"]["reverse"]

    lower = fe.comparison_matrix(df, "err", higher_is_better=False)
    higher = fe.comparison_matrix(df, "err", higher_is_better=True)
    assert reverse(lower) is True
    assert reverse(higher) is False
    assert reverse(lower, higher_is_better=True) is False  # an explicit direction wins
    ties = fe.comparison_matrix(df.with_columns(err=pl.lit(0.3)), "err", higher_is_better=False)
    assert reverse(ties) is False  # nothing tells: higher is better
    with pytest.raises(InvalidParameterError, match="higher_is_better must be None, True or"):
        charts.comparison_matrix(lower, higher_is_better="yes")
