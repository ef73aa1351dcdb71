"""CRPS of ensemble forecasts (frameeval/forecast/ensemble.py) against properscoring,
scoringrules and a brute-force O(m²) numpy CRPS, per group; ties, one member, typed errors."""

from __future__ import annotations

import numpy as np
import polars as pl
import properscoring as ps
import pytest
import scoringrules as sr
from hypothesis import given, settings
from hypothesis import strategies as st

import frameeval as fe
from frameeval.exceptions import InvalidParameterError, InvalidValueError, MissingValueError
from tests.forecast.frames import ensemble_frame
from tests.helpers.examples import budget
from tests.helpers.oracle import assert_close


def _brute(y: float, x: np.ndarray, fair: bool = False) -> float:
    """E|X − y| − ½ E|X − X′| over all m² pairs (m(m − 1) for the fair estimator)."""
    m = len(x)
    pairs = np.abs(x[:, None] - x[None, :]).sum()
    return float(np.abs(x - y).mean() - 0.5 * pairs / (m * (m - 1) if fair else m * m))


@settings(max_examples=budget(8))
@given(seed=st.integers(0, 10_000))
def test_crps_equals_properscoring_scoringrules_and_brute_force(seed: int) -> None:
    df = ensemble_frame(seed)
    out = fe.crps(df, truth="y", pred="x", instance="id", by="g")
    fair = fe.crps(df, truth="y", pred="x", instance="id", by="g", estimator="fair")
    assert out.columns == ["g", "crps"] and out["g"].to_list() == [0, 1, 2]
    for part in df.partition_by("g", maintain_order=True):
        per, per_sr, per_brute, per_fair, per_fair_sr = [], [], [], [], []
        for inst in part.partition_by("id"):
            y, x = inst["y"][0], inst["x"].to_numpy()
            per.append(ps.crps_ensemble(y, x))
            per_sr.append(sr.crps_ensemble(y, x, estimator="nrg", backend="numpy"))
            per_brute.append(_brute(y, x))
            if len(x) > 1:
                per_fair.append(_brute(y, x, fair=True))
                per_fair_sr.append(sr.crps_ensemble(y, x, estimator="fair", backend="numpy"))
        row = out.filter(pl.col("g") == part["g"][0])["crps"].item()
        assert_close(row, np.mean(per))
        assert_close(row, np.mean(per_sr))
        assert_close(row, np.mean(per_brute))
        # fair: a one-member instance is null and left out of the mean
        assert_close(fair.filter(pl.col("g") == part["g"][0])["crps"].item(), np.mean(per_fair))
        assert_close(np.mean(per_fair), np.mean(per_fair_sr))


def test_one_member_is_the_absolute_error_and_ties() -> None:
    df = pl.DataFrame({"id": [1, 2, 2, 2], "y": [3.0, 1.0, 1.0, 1.0], "x": [5.0, 1.0, 1.0, 1.0]})
    per = fe.crps(df, "y", "x", "id", by=None)
    assert per.item() == pytest.approx((2.0 + 0.0) / 2, abs=1e-12)
    one = df.filter(pl.col("id") == 1)
    assert fe.crps(one, "y", "x", "id", estimator="fair").item() is None


def test_lazy_in_lazy_out_and_row_order() -> None:
    df = ensemble_frame(1)
    lazy = fe.crps(df.lazy(), "y", "x", "id", by="g")
    assert isinstance(lazy, pl.LazyFrame)
    eager = fe.crps(df, "y", "x", "id", by="g")
    assert_close(lazy.collect()["crps"], eager["crps"], tol=1e-12)
    assert_close(fe.crps(df.reverse(), "y", "x", "id", by="g")["crps"], eager["crps"], tol=1e-12)


def test_errors() -> None:
    df = pl.DataFrame(
        {"g": ["a"] * 4, "id": [1, 1, 2, 2], "y": [1.0, 1.0, 2.0, 3.0], "x": [0.0, 1.0, 2.0, 2.5]}
    )
    with pytest.raises(
        InvalidValueError,
        match=r"^crps\(\): column 'y' \(truth=\) must hold one value per instance, got several for id=2 in group g=a\.$",
    ):
        fe.crps(df, "y", "x", "id", by="g")
    with pytest.raises(
        MissingValueError, match=r"^crps\(\): column 'x' \(pred=\) must be finite, got inf or -inf"
    ):
        fe.crps(df.with_columns(x=pl.lit(float("inf"))), "y", "x", "id")
    with pytest.raises(
        InvalidParameterError, match=r"^crps\(\): estimator must be 'ecdf' or 'fair', got 'pwm'"
    ):
        fe.crps(df, "y", "x", "id", estimator="pwm")  # type: ignore[arg-type]
    with pytest.raises(
        InvalidParameterError, match=r"^crps\(\): instance= must name at least one column"
    ):
        fe.crps(df, "y", "x", [])


def test_a_lazy_plan_raises_the_typed_error_on_plain_collect() -> None:
    """LazyFrame in, LazyFrame out: nothing is checked until the plan runs; then a plain
    ``.collect()`` raises frameeval's typed error (the guard rides inside the plan)."""
    bad = pl.LazyFrame({"id": [1, 1], "y": [1.0, 2.0], "x": [0.0, 1.0]})
    plan = fe.crps(bad, "y", "x", "id")
    assert isinstance(plan, pl.LazyFrame)
    with pytest.raises(InvalidValueError, match=r"^crps\(\): column 'y' \(truth=\) must hold"):
        plan.collect()
    levels = pl.LazyFrame({"id": [1, 1], "y": [1.0, 1.0], "q": [0.5, 1.5], "f": [0.0, 1.0]})
    with pytest.raises(InvalidValueError, match=r"^weighted_interval_score\(\): column 'q'"):
        fe.weighted_interval_score(levels, "y", "f", "q", "id").collect()
