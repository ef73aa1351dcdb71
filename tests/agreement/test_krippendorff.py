"""fe.agreement.krippendorff_alpha against the ``krippendorff`` package (all four levels,
missing ratings), grouped; hand values; properties; bad input."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from polars.testing import assert_frame_equal

import frameeval as fe
from frameeval.exceptions import (
    DuplicateKeyError,
    InvalidDtypeError,
    InvalidParameterError,
    InvalidValueError,
    MissingValueError,
)
from tests.agreement.strategies import matrix, ratings
from tests.helpers.examples import budget

LEVELS = ["nominal", "ordinal", "interval", "ratio"]


def _oracle(part: pl.DataFrame, level: str) -> float | None:
    import krippendorff

    data = matrix(part)
    pairable = (~np.isnan(data)).sum(axis=0) >= 2
    values = data[:, pairable]
    if np.unique(values[~np.isnan(values)]).size < 2:
        return None  # the package raises: one value in the domain
    return float(krippendorff.alpha(reliability_data=data, level_of_measurement=level))


@pytest.mark.parametrize("level", LEVELS)
@settings(max_examples=budget(15))
@given(df=ratings())
def test_equals_the_krippendorff_package_per_group(level: str, df: pl.DataFrame) -> None:
    got = fe.agreement.krippendorff_alpha(df, level=level, by="group")
    assert got["group"].to_list() == sorted(df["group"].unique().to_list())
    for part in df.partition_by("group"):
        row = got.filter(pl.col("group") == part["group"][0])
        expected = _oracle(part, level)
        value = row["krippendorff_alpha"][0]
        if expected is None:
            assert value is None
        else:
            assert value == pytest.approx(expected, abs=1e-9)
        data = matrix(part)
        assert row["n_items"][0] == int(((~np.isnan(data)).sum(axis=0) >= 2).sum())


def test_hand_example_krippendorff_2011() -> None:
    """Krippendorff (2011): 4 observers, 12 units (values 1–5, missing ratings); α = 0.743
    nominal, 0.815 ordinal, 0.849 interval, 0.797 ratio."""
    nan = None
    table = [
        [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
        [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
        [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan],
    ]
    df = pl.DataFrame(
        {
            "rater": [f"o{i}" for i in range(4) for _ in range(12)],
            "item": list(range(12)) * 4,
            "rating": [v for row in table for v in row],
        }
    )
    nominal = fe.agreement.krippendorff_alpha(df)
    assert nominal["krippendorff_alpha"][0] == pytest.approx(0.743, abs=5e-4)
    assert nominal["n_items"][0] == 11  # unit 12 has a single rating: not pairable
    published = {"interval": 0.849, "ordinal": 0.815, "ratio": 0.797}
    for level, value in published.items():  # loop-ok: three levels
        out = fe.agreement.krippendorff_alpha(df, level=level)
        assert out["krippendorff_alpha"][0] == pytest.approx(value, abs=5e-4)


@settings(max_examples=budget(10))
@given(df=ratings())
def test_row_order_and_lazy(df: pl.DataFrame) -> None:
    a = fe.agreement.krippendorff_alpha(df, level="ordinal", by="group")
    b = fe.agreement.krippendorff_alpha(df.reverse(), level="ordinal", by="group")
    c = fe.collect(fe.agreement.krippendorff_alpha(df.lazy(), level="ordinal", by="group"))
    assert_frame_equal(a, b, check_exact=False, abs_tol=1e-12)
    assert_frame_equal(a, c, check_exact=False, abs_tol=1e-12)


def test_bootstrap_interval_brackets_and_is_reproducible() -> None:
    rng = np.random.default_rng(3)
    truth = rng.integers(0, 3, 40)
    rows = [
        (b, i, r, int(truth[i]) if rng.random() < 0.8 else int(rng.integers(0, 3)))
        for b in ("x", "y")
        for i in range(40)
        for r in range(3)
    ]
    df = pl.DataFrame(rows, schema=["bench", "item", "rater", "rating"], orient="row")
    df = df.with_columns((pl.col("item") // 4).alias("passage"))
    one = fe.agreement.krippendorff_alpha(df, by="bench", ci=0.9, n_resamples=300, seed=1)
    two = fe.agreement.krippendorff_alpha(df, by="bench", ci=0.9, n_resamples=300, seed=1)
    assert one.equals(two)
    assert (one["ci_low"] < one["krippendorff_alpha"]).all()
    assert (one["krippendorff_alpha"] < one["ci_high"]).all()
    clustered = fe.agreement.krippendorff_alpha(
        df, by="bench", ci=0.9, n_resamples=300, seed=1, cluster="passage"
    )
    assert clustered["krippendorff_alpha"].equals(one["krippendorff_alpha"])
    assert not clustered["ci_low"].equals(one["ci_low"])


def test_undefined_is_null() -> None:
    df = pl.DataFrame({"rater": ["a", "b", "a", "b"], "item": [1, 1, 2, 2], "rating": [3] * 4})
    out = fe.agreement.krippendorff_alpha(df)
    assert out["krippendorff_alpha"][0] is None and out["n_items"][0] == 2
    single = pl.DataFrame({"rater": ["a", "b"], "item": [1, 2], "rating": [1, 2]})
    out = fe.agreement.krippendorff_alpha(single)
    assert out["krippendorff_alpha"][0] is None and out["n_items"][0] == 0


def test_bad_input() -> None:
    df = pl.DataFrame({"rater": ["a", "b"], "item": [1, 1], "rating": [1.0, -2.0]})
    with pytest.raises(
        InvalidValueError,
        match=r"krippendorff_alpha\(\): column 'rating' \(rating=\) must be >= 0 for "
        r"level='ratio' .*got -2\.0",
    ):
        fe.agreement.krippendorff_alpha(df, level="ratio")
    text = df.with_columns(pl.col("rating").cast(pl.String))
    with pytest.raises(InvalidDtypeError, match=r"must be numeric .* level='interval', got String"):
        fe.agreement.krippendorff_alpha(text, level="interval")
    with pytest.raises(InvalidParameterError, match=r"level must be one of"):
        fe.agreement.krippendorff_alpha(df, level="metric")
    nan = df.with_columns(pl.lit(float("nan")).alias("rating"))
    with pytest.raises(MissingValueError, match=r"must not contain NaN"):
        fe.agreement.krippendorff_alpha(nan, level="interval")
    dup = pl.DataFrame({"rater": ["a", "a"], "item": [1, 1], "rating": [1, 2]})
    with pytest.raises(DuplicateKeyError, match=r"got rater a twice for item 1"):
        fe.agreement.krippendorff_alpha(dup)
    with pytest.raises(InvalidParameterError, match=r"ci must be in \(0, 1\)"):
        fe.agreement.krippendorff_alpha(df, ci=95)


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_bootstraps_with_clusters(level: str) -> None:
    rng = np.random.default_rng(level.__len__())
    truth = rng.integers(1, 5, 30)
    rows = [
        (i, r, int(truth[i]) if rng.random() < 0.75 else int(rng.integers(1, 5)))
        for i in range(30)
        for r in range(3)
    ]
    df = pl.DataFrame(rows, schema=["item", "rater", "rating"], orient="row")
    df = df.with_columns((pl.col("item") // 3).alias("passage"))
    for cluster in (None, "passage"):  # loop-ok: two designs
        out = fe.agreement.krippendorff_alpha(
            df, level=level, ci=0.9, n_resamples=200, cluster=cluster
        )
        low, value, high = out.select("ci_low", "krippendorff_alpha", "ci_high").row(0)
        assert low < value < high


def test_an_item_in_two_clusters_is_an_error() -> None:
    df = pl.DataFrame(
        {"rater": ["a", "b"], "item": [1, 1], "rating": [1, 2], "passage": ["p", "q"]}
    )
    with pytest.raises(
        InvalidValueError,
        match=r"every item must lie in one cluster \(cluster='passage'\), got 2 clusters for "
        r"item 1",
    ):
        fe.agreement.krippendorff_alpha(df, cluster="passage", ci=0.9)
    lazy = fe.agreement.krippendorff_alpha(df.lazy(), cluster="passage", ci=0.9)
    with pytest.raises(InvalidValueError, match=r"every item must lie in one cluster"):
        fe.collect(lazy)
