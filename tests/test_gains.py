"""fe.gains_curve, fe.lift_curve, fe.ks_statistic against independent computations: NumPy for
gains and lift, scipy.stats.ks_2samp for KS; grouped, with ties, weights, lazy and streaming."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal
from scipy.stats import ks_2samp

import frameeval as fe
from frameeval.exceptions import ColumnNotFoundError, InvalidDtypeError
from tests.helpers.examples import budget


def _data(seed: int, n: int = 300, groups: int = 3, levels: int = 12) -> pl.DataFrame:
    """Grouped scores on a coarse grid (many ties), positives shifted up."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    s = np.round(rng.normal(y * 0.8, 1.0) * levels / 4) / (levels / 4)
    return pl.DataFrame({"g": rng.integers(0, groups, n), "y": y, "s": s})


def _gains_oracle(y: np.ndarray, s: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """NumPy: per distinct score (descending), the share of rows and of positives at ≥ it."""
    thresholds = np.unique(s)[::-1]
    taken = np.array([(s >= t).sum() for t in thresholds], dtype=float)
    found = np.array([((s >= t) & (y == 1)).sum() for t in thresholds], dtype=float)
    return thresholds, taken / len(s), found / (y == 1).sum()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_gains_and_lift_equal_numpy_per_group(seed: int) -> None:
    df = _data(seed)
    gains = fe.gains_curve(df, truth="y", score="s", by="g")
    lift = fe.lift_curve(df, truth="y", score="s", by="g")
    assert gains.columns == ["g", "threshold", "fraction", "gain"]
    assert lift.columns == ["g", "threshold", "fraction", "lift"]
    for (g,), part in df.partition_by("g", as_dict=True).items():
        y, s = part["y"].to_numpy(), part["s"].to_numpy()
        thresholds, fraction, gain = _gains_oracle(y, s)
        got = gains.filter(pl.col("g") == g)
        assert got.row(0) == (g, float("inf"), 0.0, 0.0)
        np.testing.assert_allclose(got["threshold"][1:].to_numpy(), thresholds, rtol=0, atol=0)
        np.testing.assert_allclose(got["fraction"][1:].to_numpy(), fraction, rtol=0, atol=1e-12)
        np.testing.assert_allclose(got["gain"][1:].to_numpy(), gain, rtol=0, atol=1e-12)
        got_lift = lift.filter(pl.col("g") == g)
        np.testing.assert_allclose(got_lift["threshold"].to_numpy(), thresholds, atol=0)
        want = gain / fraction
        np.testing.assert_allclose(got_lift["lift"].to_numpy(), want, rtol=1e-12)
        assert got_lift["lift"][-1] == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_ks_equals_scipy_two_sample_statistic_per_group(seed: int) -> None:
    df = _data(seed, levels=[4, 12, 40, 10_000][seed])
    got = fe.ks_statistic(df, truth="y", score="s", by="g")
    assert got.columns == ["g", "ks", "threshold"]
    assert got["g"].to_list() == sorted(got["g"].to_list())
    for row in got.iter_rows(named=True):
        part = df.filter(pl.col("g") == row["g"])
        pos = part.filter(pl.col("y") == 1)["s"].to_numpy()
        neg = part.filter(pl.col("y") == 0)["s"].to_numpy()
        assert row["ks"] == pytest.approx(ks_2samp(pos, neg).statistic, abs=1e-12)
        # the threshold reaches it: |TPR - FPR| of "positive iff s >= threshold"
        tpr = (pos >= row["threshold"]).mean()
        fpr = (neg >= row["threshold"]).mean()
        assert abs(tpr - fpr) == pytest.approx(row["ks"], abs=1e-12)
        # and is the highest such score
        higher = np.unique(part["s"].to_numpy())
        for t in higher[higher > row["threshold"]]:
            assert abs((pos >= t).mean() - (neg >= t).mean()) < row["ks"] - 1e-12


def test_worked_example_and_textbook_extremes() -> None:
    perfect = pl.DataFrame({"y": [1, 1, 0, 0, 0], "s": [5, 4, 3, 2, 1]})
    assert fe.ks_statistic(perfect, "y", "s").row(0) == (1.0, 4.0)
    lift = fe.lift_curve(perfect, "y", "s")
    assert lift["lift"].to_list()[:2] == [pytest.approx(2.5), pytest.approx(2.5)]
    gains = fe.gains_curve(perfect, "y", "s")
    assert gains.filter(pl.col("threshold") == 4.0)["gain"].item() == 1.0
    # all rows tied: one step from (0, 0) to (1, 1), KS 0
    tied = pl.DataFrame({"y": [1, 0, 1, 0], "s": [0.5] * 4})
    assert fe.gains_curve(tied, "y", "s").select("fraction", "gain").rows() == [
        (0.0, 0.0),
        (1.0, 1.0),
    ]
    assert fe.ks_statistic(tied, "y", "s")["ks"].item() == 0.0


def test_a_group_with_one_class_is_null() -> None:
    df = pl.DataFrame({"g": ["a", "a", "b", "b"], "y": [1, 0, 0, 0], "s": [0.9, 0.1, 0.5, 0.4]})
    ks = fe.ks_statistic(df, "y", "s", by="g")
    assert ks.rows() == [("a", 1.0, 0.9), ("b", None, None)]
    assert fe.gains_curve(df, "y", "s", by="g").filter(pl.col("g") == "b")["gain"].null_count() == 3
    assert fe.lift_curve(df, "y", "s", by="g").filter(pl.col("g") == "b")["lift"].null_count() == 2


@settings(max_examples=budget(20))
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 40))
def test_properties_order_weights_lazy(seed: int, n: int) -> None:
    rng = np.random.default_rng(seed)
    df = pl.DataFrame(
        {
            "g": rng.integers(0, 2, n),
            "y": np.r_[[0, 1], rng.integers(0, 2, n - 2)],
            "s": rng.integers(0, 5, n).astype(float),
            "w": rng.integers(1, 4, n),
        }
    )
    shuffled = df.sample(fraction=1.0, shuffle=True, seed=seed % 997)
    repeated = df.select(pl.all().repeat_by("w").explode()).drop("w")
    for fn in (fe.gains_curve, fe.lift_curve, fe.ks_statistic):
        base = fn(df, "y", "s", by="g")
        assert_frame_equal(fn(shuffled, "y", "s", by="g"), base, abs_tol=1e-12)
        assert_frame_equal(fn(df.lazy(), "y", "s", by="g").collect(), base)
        weighted = fn(df, "y", "s", by="g", weight="w")  # integer weights = repeated rows
        assert_frame_equal(weighted, fn(repeated, "y", "s", by="g"), abs_tol=1e-12)


def test_streaming_lazy_input_gives_the_same_frames() -> None:
    df = _data(5, n=2000, levels=500)
    for fn in (fe.gains_curve, fe.lift_curve, fe.ks_statistic):
        lazy = fn(df.lazy(), "y", "s", by="g")
        assert isinstance(lazy, pl.LazyFrame)
        assert_frame_equal(lazy.collect(engine="streaming"), fn(df, "y", "s", by="g"))


def test_bad_input_is_a_typed_error() -> None:
    df = pl.DataFrame({"y": [1, 0], "s": ["a", "b"]})
    for fn in (fe.gains_curve, fe.lift_curve, fe.ks_statistic):
        with pytest.raises(ColumnNotFoundError, match=rf"{fn.__name__}\(\): column 'x'"):
            fn(df, "y", "x")
        with pytest.raises(InvalidDtypeError, match=rf"{fn.__name__}\(\): column 's'"):
            fn(df, "y", "s")


def test_an_exact_tie_of_the_ks_distance_returns_the_highest_threshold() -> None:
    """y = [0,1,0,1,0], s = [5,4,3,2,1]: |TPR − FPR| is 1/3 at thresholds 5 (0 − 1/3) and 2
    (1 − 2/3), which float division rounds differently; the documented rule picks 5. The same
    tie inside a group of a grouped call, and on an integer-weighted count table."""
    df = pl.DataFrame({"y": [0, 1, 0, 1, 0], "s": [5.0, 4.0, 3.0, 2.0, 1.0]})
    out = fe.ks_statistic(df, "y", "s")
    assert out["threshold"].to_list() == [5.0]
    assert out["ks"][0] == pytest.approx(1 / 3, abs=1e-15)
    two = pl.concat(
        [df.with_columns(g=pl.lit("a")), df.with_columns(g=pl.lit("b"), y=1 - pl.col("y"))]
    )
    grouped = fe.ks_statistic(two, "y", "s", by="g")
    assert grouped["threshold"].to_list() == [5.0, 5.0]
    counts = df.with_columns(w=pl.lit(3))
    assert fe.ks_statistic(counts, "y", "s", weight="w")["threshold"].to_list() == [5.0]
