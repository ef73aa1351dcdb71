"""Quantile forecasts (frameeval/forecast/quantile.py): pinball loss against scikit-learn's
``mean_pinball_loss``, coverage against its definition, WIS against its interval form built
from scoringrules' interval score (Bracher et al. 2021, eq 3), per group; the identity
WIS = 2 × mean pinball loss; crossing quantiles; typed errors."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
import scoringrules as sr
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import mean_pinball_loss

import frameeval as fe
from frameeval.exceptions import (
    ColumnNotFoundError,
    InvalidDtypeError,
    InvalidParameterError,
    InvalidValueError,
    MissingValueError,
)
from tests.forecast.frames import quantile_frame
from tests.helpers.examples import budget
from tests.helpers.oracle import assert_close

LEVEL_SETS = [
    [0.5],
    [0.25, 0.5, 0.75],
    [0.025, 0.1, 0.25, 0.5, 0.75, 0.9, 0.975],
    [0.05, 0.5, 0.95],
]


@settings(max_examples=budget(8))
@given(seed=st.integers(0, 10_000), levels=st.sampled_from(LEVEL_SETS), weighted=st.booleans())
def test_quantile_scores_equal_scikit_learn(seed: int, levels: list[float], weighted: bool) -> None:
    df = quantile_frame(seed, levels).with_columns(
        pl.Series("w", np.random.default_rng(seed).integers(1, 4, size=len(levels) * 24) * 1.0)
    )
    weight = "w" if weighted else None
    out = fe.quantile_scores(df, truth="y", pred="f", quantile="q", by="g", weight=weight)
    assert out.columns == ["g", "quantile", "pinball_loss", "coverage"]
    assert out.height == 2 * len(levels)
    for part in df.partition_by("g", "q", maintain_order=True):
        g, q = part["g"][0], part["q"][0]
        row = out.filter((pl.col("g") == g) & (pl.col("quantile") == q))
        sw = part["w"].to_numpy() if weighted else None
        expected = mean_pinball_loss(part["y"], part["f"], alpha=q, sample_weight=sw)
        covered = np.average(part["y"].to_numpy() <= part["f"].to_numpy(), weights=sw)
        assert_close(row["pinball_loss"].item(), expected)
        assert_close(row["coverage"].item(), covered)


def _wis_interval_form(part: pl.DataFrame) -> float:
    """Bracher et al. (2021) eq 3 per instance — (½|y − m| + Σ_k (α_k/2)·IS_{α_k}) / (K + ½),
    the interval scores from scoringrules — then the mean over instances.

    scoringrules' own ``weighted_interval_score`` is not the oracle: in 0.10.0 its numpy
    backend adds w₀·m (the median itself) where Bracher et al. have w₀·|y − m|
    (``core/interval/_score.py``: ``WIS += w_median * median``)."""
    scores = []
    for inst in part.partition_by("id"):
        inst = inst.sort("q")
        y = inst["y"][0]
        q, f = inst["q"].to_numpy(), inst["f"].to_numpy()
        k = (len(q) - 1) // 2
        median = f[k]
        total = 0.5 * abs(y - median)
        for j in range(k):
            alpha = 2 * q[j]
            total += alpha / 2 * sr.interval_score(y, f[j], f[-1 - j], alpha, backend="numpy")
        scores.append(total / (k + 0.5))
    return float(np.mean(scores))


@settings(max_examples=budget(8))
@given(seed=st.integers(0, 10_000), levels=st.sampled_from(LEVEL_SETS))
def test_wis_equals_its_interval_form(seed: int, levels: list[float]) -> None:
    df = quantile_frame(seed, levels)
    out = fe.weighted_interval_score(df, truth="y", pred="f", quantile="q", instance="id", by="g")
    assert out.columns == ["g", "wis"] and out["g"].to_list() == [0, 1]
    for part in df.partition_by("g", maintain_order=True):
        assert_close(
            out.filter(pl.col("g") == part["g"][0])["wis"].item(), _wis_interval_form(part)
        )


@pytest.mark.parametrize("levels", LEVEL_SETS)
def test_wis_is_twice_the_mean_pinball_loss(levels: list[float]) -> None:
    """The identity of the docstring: with the same 2K + 1 levels for every instance,
    WIS = 2 × the mean over levels of the pinball loss of quantile_scores."""
    df = quantile_frame(5, levels)
    wis = fe.weighted_interval_score(df, truth="y", pred="f", quantile="q", instance="id", by="g")
    pinball = fe.quantile_scores(df, truth="y", pred="f", quantile="q", by="g")
    twice = pinball.group_by("g").agg((2 * pl.col("pinball_loss").mean()).alias("wis")).sort("g")
    assert_close(wis["wis"], twice["wis"], tol=1e-12)


def test_worked_example_and_median_only_is_absolute_error() -> None:
    """By hand (instance 1: y = 3, quantiles 1, 2, 4 at 0.1, 0.5, 0.9): IS_0.2 = 3 + 0 = 3,
    WIS = (½·1 + 0.1·3) / 1.5 = 0.8/1.5; with the median alone WIS = |y − m|."""
    df = pl.DataFrame({"id": [1, 1, 1], "y": [3.0] * 3, "q": [0.1, 0.5, 0.9], "f": [1.0, 2.0, 4.0]})
    wis = fe.weighted_interval_score(df, truth="y", pred="f", quantile="q", instance="id")
    assert wis.item() == pytest.approx(0.8 / 1.5, abs=1e-12)
    median = df.filter(pl.col("q") == 0.5)
    assert fe.weighted_interval_score(median, "y", "f", "q", "id").item() == pytest.approx(1.0)


def test_lazy_in_lazy_out_row_order_and_float_levels() -> None:
    df = quantile_frame(3, [0.1, 0.3, 0.5, 0.7, 0.9])
    # 1 − 0.9 is 0.09999999999999998: levels pair on a 1e-6 grid; so do
    # Float32 levels
    df = df.with_columns(pl.when(pl.col("q") == 0.1).then(1 - 0.9).otherwise("q").alias("q"))
    single = fe.weighted_interval_score(
        df.with_columns(pl.col("q").cast(pl.Float32)), "y", "f", "q", "id", by="g"
    )
    lazy = fe.weighted_interval_score(df.lazy(), "y", "f", "q", "id", by="g")
    assert isinstance(lazy, pl.LazyFrame)
    eager = fe.weighted_interval_score(df, "y", "f", "q", "id", by="g")
    assert_close(lazy.collect()["wis"], eager["wis"], tol=1e-12)
    assert_close(single["wis"], eager["wis"], tol=1e-6)
    shuffled = fe.weighted_interval_score(df.reverse(), "y", "f", "q", "id", by="g")
    assert_close(shuffled["wis"], eager["wis"], tol=1e-12)
    assert isinstance(fe.quantile_scores(df.lazy(), "y", "f", "q", by="g"), pl.LazyFrame)


def _crossed() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "id": [1, 1, 1, 2, 2, 2],
            "y": [3.0, 3.0, 3.0, 5.0, 5.0, 5.0],
            "q": [0.1, 0.5, 0.9, 0.1, 0.5, 0.9],
            "f": [1.0, 2.0, 4.0, 7.0, 6.0, 9.0],
        }
    )


def test_crossing_is_an_error_or_sorted() -> None:
    df = _crossed()
    match = (
        r"^weighted_interval_score\(\): quantiles must not cross: column 'f' \(pred=\) must not "
        r"decrease as column 'q' \(quantile=\) rises within an instance, got a decrease for "
        r"id=2 at level 0.5\.$"
    )
    with pytest.raises(InvalidValueError, match=match):
        fe.weighted_interval_score(df, "y", "f", "q", "id")
    with pytest.raises(InvalidValueError, match=r"^quantile_scores\(\): quantiles must not cross"):
        fe.quantile_scores(df, "y", "f", "q", instance="id")
    # "sort": the monotone rearrangement, equal to scoring the sorted predictions
    rearranged = df.with_columns(pl.col("f").sort().over("id"))
    for func in (fe.weighted_interval_score,):
        a = func(df, "y", "f", "q", "id", crossing="sort")
        b = func(rearranged, "y", "f", "q", "id")
        assert_close(a["wis"], b["wis"], tol=1e-12)
        raw = (
            2
            * df.select(
                ((pl.col("y") - pl.col("f")) * (pl.col("q") - (pl.col("y") < pl.col("f")))).mean()
            ).item()
        )
        assert a["wis"].item() <= raw + 1e-12  # rearranging never raises the score
    a = fe.quantile_scores(df, "y", "f", "q", instance="id", crossing="sort")
    b = fe.quantile_scores(rearranged, "y", "f", "q", instance="id")
    assert a.equals(b)
    # without instance= crossing is not looked for
    assert fe.quantile_scores(df, "y", "f", "q").height == 3


@pytest.mark.parametrize(
    ("at", "column", "value", "pattern"),
    [
        (0.5, "q", 0.4, r"must include the median 0.5 for every instance, got none for id=1"),
        (
            0.9,
            "q",
            0.8,
            r"must hold symmetric levels \(τ and 1 − τ\) for every instance, got an unpaired "
            r"level for id=1",
        ),
        (
            0.9,
            "q",
            0.1,
            r"must not repeat a level within an instance, got a repeated level for id=1",
        ),
        (
            0.9,
            "y",
            9.0,
            r"column 'y' \(truth=\) must hold one value per instance, got several for id=1",
        ),
    ],
)
def test_level_rules_of_wis(at: float, column: str, value: float, pattern: str) -> None:
    """Instance 1 loses its median, its symmetry, a distinct level or its single truth: the
    row at level ``at`` gets ``column`` = ``value``."""
    df = _crossed().with_columns(pl.col("f").sort().over("id"))
    broken = df.with_columns(
        pl.when((pl.col("q") == at) & (pl.col("id") == 1))
        .then(value)
        .otherwise(column)
        .alias(column)
    )
    with pytest.raises(InvalidValueError, match=pattern):
        fe.weighted_interval_score(broken, "y", "f", "q", "id")


@pytest.mark.parametrize("level", [0.0, 1.0, 1.5, -0.2])
def test_level_outside_unit_interval(level: float) -> None:
    df = _crossed().with_columns(pl.when(pl.col("q") == 0.9).then(level).otherwise("q").alias("q"))
    pattern = rf"column 'q' \(quantile=\) must hold levels in \(0, 1\), got {level}"
    with pytest.raises(InvalidValueError, match=r"^quantile_scores\(\): " + pattern):
        fe.quantile_scores(df, "y", "f", "q")
    with pytest.raises(InvalidValueError, match=r"^weighted_interval_score\(\): " + pattern):
        fe.weighted_interval_score(df, "y", "f", "q", "id", crossing="sort")


def test_schema_and_value_errors() -> None:
    df = _crossed()
    with pytest.raises(
        ColumnNotFoundError, match=r"^quantile_scores\(\): column 'qq' \(quantile=\) not found"
    ):
        fe.quantile_scores(df, "y", "f", "qq")
    with pytest.raises(
        InvalidDtypeError, match=r"^quantile_scores\(\): column 'f' \(pred=\) must be numeric"
    ):
        fe.quantile_scores(df.with_columns(pl.col("f").cast(pl.String)), "y", "f", "q")
    with pytest.raises(
        MissingValueError, match=r"^quantile_scores\(\): column 'f' \(pred=\) must not contain NaN"
    ):
        fe.quantile_scores(df.with_columns(pl.col("f") / 0 * 0), "y", "f", "q")
    with pytest.raises(
        InvalidParameterError,
        match=r"^quantile_scores\(\): crossing must be 'error' or 'sort', got 'x'",
    ):
        fe.quantile_scores(df, "y", "f", "q", crossing="x")  # type: ignore[arg-type]
    with pytest.raises(
        InvalidParameterError,
        match=r"^weighted_interval_score\(\): instance= and by= must not share",
    ):
        fe.weighted_interval_score(df, "y", "f", "q", "id", by="id")
    with pytest.raises(
        InvalidParameterError, match=r"by= must not use the output column name 'quantile'"
    ):
        fe.quantile_scores(df.with_columns(quantile=1), "y", "f", "q", by="quantile")


@pytest.mark.parametrize("crossing", ["error", "sort"])
def test_instance_path_equals_row_path_weighted(crossing: str) -> None:
    """With instance= the rows go through a per-instance table and back: on forecasts that do
    not cross, weighted results equal the row path's; integer weights equal repeated rows."""
    df = quantile_frame(21, [0.1, 0.5, 0.9])
    df = df.with_columns(pl.Series("w", np.arange(df.height) % 3 + 1.0))
    rows = fe.quantile_scores(df, "y", "f", "q", by="g", weight="w")
    inst = fe.quantile_scores(
        df, "y", "f", "q", by="g", weight="w", instance="id", crossing=crossing
    )  # type: ignore[arg-type]
    assert_close(inst["pinball_loss"], rows["pinball_loss"], tol=1e-12)
    assert_close(inst["coverage"], rows["coverage"], tol=1e-12)
    repeated = df.select(pl.all().repeat_by(pl.col("w").cast(pl.Int64)).explode())
    plain = fe.quantile_scores(repeated, "y", "f", "q", by="g")
    assert_close(plain["pinball_loss"], rows["pinball_loss"])


def test_crossing_sort_without_instance_is_a_typed_error() -> None:
    """crossing="sort" sorts each instance's quantiles: without instance= it used to do
    nothing, silently."""
    df = _crossed()
    with pytest.raises(
        InvalidParameterError, match=r"^quantile_scores\(\): crossing='sort' needs instance="
    ):
        fe.quantile_scores(df, "y", "f", "q", crossing="sort")
    with pytest.raises(InvalidParameterError, match=r"crossing='sort' needs instance="):
        fe.quantile_scores(df.lazy(), "y", "f", "q", crossing="sort")
