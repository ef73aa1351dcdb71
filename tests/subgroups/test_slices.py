"""fe.subgroups.slices against the ``sliceline`` package (oracle: the same top slices and
scores on the same data), a planted weak slice found first, the tests of each slice by hand."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import frameeval as fe
from frameeval.exceptions import InvalidParameterError, MissingValueError
from tests.helpers.examples import budget


def _planted(seed: int, n: int) -> pl.DataFrame:
    """Four categorical features and a number; the model errs 10 % of the time, 60 % on
    colour=red & length=L (the planted weak slice; with SliceLine's default α = 0.6 a ninth
    of the rows scores below 0: the size term dominates, so the tests weigh the error more)."""
    rng = np.random.default_rng(seed)
    df = pl.DataFrame(
        {
            "colour": rng.choice(["red", "green", "blue"], n),
            "length": rng.choice(["S", "M", "L"], n),
            "shape": rng.choice(["round", "square"], n),
            "city": rng.choice(["a", "b", "c", "d"], n),
            "x": rng.normal(size=n),
            "y": rng.integers(0, 2, n),
        }
    )
    weak = (df["colour"] == "red") & (df["length"] == "L")
    wrong = rng.random(n) < np.where(weak.to_numpy(), 0.6, 0.1)
    return df.with_columns(p=pl.Series(np.where(wrong, 1 - df["y"].to_numpy(), df["y"].to_numpy())))


def test_a_planted_weak_slice_is_found_first() -> None:
    df = _planted(0, 3000)
    out = fe.subgroups.slices(
        df, "y", "p", features=["colour", "length", "shape", "city", "x"], alpha=0.95
    )
    first = out.row(0, named=True)
    assert first["slice"] == "colour=red & length=L"
    assert (first["colour"], first["length"], first["shape"]) == ("red", "L", None)
    assert first["p_adjusted"] < 1e-6 and first["difference"] > 0.3
    weak = df.filter((pl.col("colour") == "red") & (pl.col("length") == "L"))
    rest = df.filter(~((pl.col("colour") == "red") & (pl.col("length") == "L")))
    assert first["size"] == weak.height and first["complement_size"] == rest.height
    assert first["value"] == pytest.approx((weak["y"] != weak["p"]).mean(), abs=1e-12)
    assert first["complement_value"] == pytest.approx((rest["y"] != rest["p"]).mean(), abs=1e-12)


def _oracle(df: pl.DataFrame, features: list[str], k: int, level: int, sup: int, alpha: float):
    from sliceline.slicefinder import Slicefinder

    x = df.select(features).to_numpy()
    errors = (df["y"] != df["p"]).cast(pl.Float64).to_numpy()
    finder = Slicefinder(alpha=alpha, k=k, max_l=level, min_sup=sup, verbose=False)
    finder.fit(x, errors)
    return finder.top_slices_, finder.top_slices_statistics_


@settings(max_examples=budget(5))
@given(seed=st.integers(0, 1000), alpha=st.sampled_from([0.8, 0.9, 0.95]), level=st.integers(2, 3))
def test_top_slices_equal_sliceline(seed: int, alpha: float, level: int) -> None:
    df = _planted(seed, 1500)
    features = ["colour", "length", "shape", "city"]
    k = 4
    ours = fe.subgroups.slices(
        df, "y", "p", features=features, top=k, max_level=level, min_support=20, alpha=alpha
    )
    slices, stats = _oracle(df, features, k, level, 20, alpha)
    theirs = [
        (
            " & ".join(f"{f}={v}" for f, v in zip(features, row, strict=True) if v is not None),
            s["slice_score"],
            s["slice_size"],
            s["sum_slice_error"],
        )
        for row, s in zip(slices, stats, strict=True)
    ]
    # the package returns every slice tied with the k-th: compare the scores of the first k,
    # and the slices above the k-th score
    got_scores = ours["score"].to_list()
    assert got_scores == pytest.approx([t[1] for t in theirs][: len(got_scores)], abs=1e-9)
    kth = got_scores[-1]
    above_ours = {r["slice"] for r in ours.iter_rows(named=True) if r["score"] > kth + 1e-12}
    above_theirs = {t[0] for t in theirs if t[1] > kth + 1e-12}
    assert above_ours == above_theirs
    for r in ours.iter_rows(named=True):
        match = [t for t in theirs if t[0] == r["slice"]]
        if match:
            assert (r["size"], r["errors"]) == (match[0][2], match[0][3])


def test_the_test_of_a_slice_by_hand() -> None:
    """The pooled two-proportion z-test (error_rate) and Welch's t (squared_error), by scipy."""
    from scipy import stats

    df = _planted(1, 800)
    noise = np.random.default_rng(9).normal(size=df.height)
    df = df.with_columns(
        truth=pl.col("x"),
        guess=pl.col("x")
        + pl.Series(noise) * pl.when(pl.col("colour") == "red").then(2.0).otherwise(1.0),
    )
    out = fe.subgroups.slices(df, "y", "p", features=["colour"], top=1, alpha=0.95)
    row = out.row(0, named=True)
    inside = df.filter(pl.col("colour") == row["colour"])
    outside = df.filter(pl.col("colour") != row["colour"])
    e1, e2 = (inside["y"] != inside["p"]).sum(), (outside["y"] != outside["p"]).sum()
    n1, n2 = inside.height, outside.height
    pooled = (e1 + e2) / (n1 + n2)
    z = (e1 / n1 - e2 / n2) / np.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    assert row["statistic"] == pytest.approx(z, abs=1e-9)
    assert row["p_value"] == pytest.approx(2 * stats.norm.sf(abs(z)), abs=1e-12)
    reg = fe.subgroups.slices(
        df, "truth", "guess", features=["colour"], measure="squared_error", top=1, alpha=0.95
    ).row(0, named=True)
    assert reg["colour"] == "red"
    err = (df["truth"] - df["guess"]) ** 2
    red = (df["colour"] == "red").to_numpy()
    welch = stats.ttest_ind(err.to_numpy()[red], err.to_numpy()[~red], equal_var=False)
    assert reg["statistic"] == pytest.approx(welch.statistic, rel=1e-9)
    assert reg["p_value"] == pytest.approx(welch.pvalue, rel=1e-6, abs=1e-300)


def test_continuous_features_are_binned_by_quantiles() -> None:
    df = _planted(2, 1000).with_columns(
        p=pl.when(pl.col("x") > 1.3).then(1 - pl.col("y")).otherwise(pl.col("p"))
    )
    out = fe.subgroups.slices(df, "y", "p", features=["x", "shape"], bins=5, top=3, alpha=0.95)
    assert out["x"][0].startswith("[") and out["x"][0].endswith("inf)")
    assert isinstance(fe.subgroups.slices(df.lazy(), "y", "p", features=["x"]), pl.LazyFrame)


def test_bad_input_is_a_typed_error() -> None:
    df = _planted(0, 100)
    with pytest.raises(
        MissingValueError, match=r"column 'city' \(features=\) must not contain nulls"
    ):
        fe.subgroups.slices(
            df.with_columns(pl.when(pl.col("y") == 1).then(pl.col("city"))),
            "y",
            "p",
            features=["city"],
        )
    with pytest.raises(InvalidParameterError, match=r"slices\(\): alpha must be in \(0, 1\]"):
        fe.subgroups.slices(df, "y", "p", features=["city"], alpha=0)
    with pytest.raises(InvalidParameterError, match=r"min_support must be a count >= 1"):
        fe.subgroups.slices(df, "y", "p", features=["city"], min_support=1.5)
    with pytest.raises(InvalidParameterError, match="measure must be one of"):
        fe.subgroups.slices(df, "y", "p", features=["city"], measure="auc")
