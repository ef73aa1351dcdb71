"""Multiclass proper scoring rules (frameeval/calibration/scoring.py) against scikit-learn 1.9
``log_loss`` / ``brier_score_loss`` with a probability matrix, per group (1e-9), in every input form.
"""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import given
from sklearn.metrics import brier_score_loss, log_loss

import frameeval as fe
from frameeval.exceptions import (
    InvalidDtypeError,
    InvalidParameterError,
    InvalidValueError,
    MissingValueError,
    UnknownLabelError,
)
from tests.calibration.frames import multiclass_frames
from tests.helpers.oracle import assert_close


# ---------------------------------------------------------------------------------------------
# multiclass proper scoring rules
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("form", ["mapping", "columns", "list", "array"])
@pytest.mark.parametrize("weighted", [False, True])
@given(df=multiclass_frames())
def test_multiclass_scores_equal_scikit_learn(df: pl.DataFrame, form: str, weighted: bool) -> None:
    labels = [0, 1, 2]
    columns = ["p0", "p1", "p2"]
    if form == "mapping":
        score, kw = dict(zip(labels, columns, strict=True)), {}
    elif form == "columns":
        score, kw = columns, {"labels": labels}
    else:
        df = df.with_columns(pl.concat_list(columns).alias("pl"))
        if form == "array":
            df = df.with_columns(pl.col("pl").cast(pl.Array(pl.Float64, 3)))
        score, kw = "pl", {"labels": labels}
    weight = "w" if weighted else None
    ll = fe.multiclass_log_loss(df, truth="y", score=score, by="g", weight=weight, **kw)
    bs = fe.multiclass_brier_score(df, truth="y", score=score, by="g", weight=weight, **kw)
    assert ll.columns == ["g", "log_loss"] and bs.columns == ["g", "brier_score"]
    for part in df.partition_by("g", maintain_order=True):
        group = part["g"][0]
        proba = part.select(columns).to_numpy()
        sw = part["w"].to_numpy() if weighted else None
        expected_ll = log_loss(part["y"], proba, labels=labels, sample_weight=sw)
        expected_bs = brier_score_loss(part["y"], proba, labels=labels, sample_weight=sw)
        assert_close(ll.filter(pl.col("g") == group)["log_loss"].item(), expected_ll)
        assert_close(bs.filter(pl.col("g") == group)["brier_score"].item(), expected_bs)


def test_two_class_brier_is_halved_like_the_binary_measure() -> None:
    df = pl.DataFrame({"y": [1, 0, 1, 0], "p1": [0.8, 0.3, 0.4, 0.9]})
    df = df.with_columns((1 - pl.col("p1")).alias("p0"))
    two = fe.multiclass_brier_score(df, truth="y", score={0: "p0", 1: "p1"}).item()
    assert two == pytest.approx(df.select(fe.brier_score("y", "p1")).item(), abs=1e-12)
    full = fe.multiclass_brier_score(df, truth="y", score={0: "p0", 1: "p1"}, scale_by_half=False)
    assert full.item() == pytest.approx(2 * two, abs=1e-12)
    loss = fe.multiclass_log_loss(df, truth="y", score={0: "p0", 1: "p1"}).item()
    assert loss == pytest.approx(df.select(fe.log_loss("y", "p1")).item(), abs=1e-12)


def test_multiclass_string_labels_and_lazy() -> None:
    """scikit-learn's log_loss docstring example: 0.21616 (rounded)."""
    df = pl.LazyFrame(
        {
            "y": ["spam", "ham", "ham", "spam"],
            "p": [[0.1, 0.9], [0.9, 0.1], [0.8, 0.2], [0.35, 0.65]],
        }
    )
    out = fe.multiclass_log_loss(df, truth="y", score="p", labels=["ham", "spam"])
    assert isinstance(out, pl.LazyFrame)
    assert out.collect().item() == pytest.approx(0.21616, abs=5e-6)


def test_multiclass_errors() -> None:
    df = pl.DataFrame(
        {"g": [0, 0, 1], "y": [0, 1, 2], "p0": [0.5, 0.2, 0.1], "p1": [0.3, 0.7, 0.2],
         "p2": [0.2, 0.1, 0.7]}
    )  # fmt: skip
    mapping = {0: "p0", 1: "p1", 2: "p2"}
    bad_sum = df.with_columns(pl.when(pl.col("g") == 1).then(0.8).otherwise("p2").alias("p2"))
    with pytest.raises(
        InvalidValueError,
        match=r"^multiclass_log_loss\(\): probabilities in columns \['p0', 'p1', 'p2'\] \(score=\) "
        r"must sum to 1 within 1e-06 per row, got a sum of 1.1 \(1 rows\) in group g=1\.",
    ):
        fe.multiclass_log_loss(bad_sum, truth="y", score=mapping, by="g")
    loose = fe.multiclass_log_loss(bad_sum, truth="y", score=mapping, by="g", tolerance=0.2)
    assert loose.height == 2
    with pytest.raises(
        UnknownLabelError, match=r"column 'y' \(truth=\) must hold only the labels \[0, 1\], got 2"
    ):
        fe.multiclass_brier_score(df, truth="y", score=["p0", "p1"], labels=[0, 1])
    with pytest.raises(InvalidParameterError, match=r"labels= is required when score= is a list"):
        fe.multiclass_log_loss(df, truth="y", score=["p0", "p1", "p2"])
    with pytest.raises(
        InvalidParameterError, match=r"labels= must name one class per score column"
    ):
        fe.multiclass_log_loss(df, truth="y", score=["p0", "p1"], labels=[0, 1, 2])
    with pytest.raises(
        InvalidParameterError, match=r"labels= must be None when score= is a mapping"
    ):
        fe.multiclass_log_loss(df, truth="y", score=mapping, labels=[0, 1, 2])
    listed = df.select("g", "y", pl.concat_list("p0", "p1").alias("pl"))
    with pytest.raises(
        InvalidValueError,
        match=r"column 'pl' \(score=\) must hold 3 probabilities per row \(one per label\), got 2",
    ):
        fe.calibration_error(listed, truth="y", score="pl", labels=[0, 1, 2])
    with pytest.raises(
        InvalidDtypeError, match=r"column 'y' \(score=\) must be a numeric List or Array"
    ):
        fe.multiclass_log_loss(df, truth="g", score="y", labels=[0, 1])
    nan = df.with_columns(pl.concat_list("p0", "p1", "p2").alias("pl")).with_columns(
        pl.when(pl.col("g") == 1).then(pl.lit([float("nan"), 0.5, 0.5])).otherwise("pl").alias("pl")
    )
    with pytest.raises(
        MissingValueError,
        match=r"column 'pl' \(score=\) must be finite, got NaN or inf \(1 rows\) in group g=1",
    ):
        fe.multiclass_brier_score(nan, truth="y", score="pl", labels=[0, 1, 2], by="g")
    with pytest.raises(InvalidParameterError, match=r"scale_by_half must be True, False or 'auto'"):
        fe.multiclass_brier_score(df, truth="y", score=mapping, scale_by_half="yes")
