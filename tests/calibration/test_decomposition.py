"""Murphy's decomposition (frameeval/calibration/decomposition.py): the identity to 1e-12 and
every term against a direct numpy computation over the same sets (distinct forecasts or
scikit-learn's bins).
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import frameeval as fe
from tests.calibration.frames import (
    binary_frames,
    repeat_rows,
    sk_edges,
    weighted_binary_frames,
    weighted_bins,
)
from tests.helpers.oracle import assert_close


# ---------------------------------------------------------------------------------------------
# Murphy decomposition
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("bins", [None, 3, 10])
@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@given(df=binary_frames())
def test_murphy_identity_and_terms(df: pl.DataFrame, bins, strategy: str) -> None:
    out = fe.brier_decomposition(df, truth="y", score="p", by="g", bins=bins, strategy=strategy)
    extra = ["within_bin_variance", "within_bin_covariance"] if bins else []
    assert out.columns == ["g", "brier", "reliability", "resolution", "uncertainty", *extra]
    for row, part in zip(out.iter_rows(named=True), df.partition_by("g", maintain_order=True),
                         strict=True):  # fmt: skip
        y, p = part["y"].to_numpy().astype(float), part["p"].to_numpy()
        assert_close(row["brier"], np.mean((p - y) ** 2), 1e-12)
        total = row["reliability"] - row["resolution"] + row["uncertainty"]
        if bins:
            total += row["within_bin_variance"] - row["within_bin_covariance"]
        assert abs(total - row["brier"]) <= 1e-12
        # terms by hand over the same sets
        if bins is None:
            ids = np.unique(p, return_inverse=True)[1]
        else:
            ids = np.searchsorted(sk_edges(p, bins, strategy)[1:-1], p)
        base = y.mean()
        rel = res = 0.0
        for b in np.unique(ids):
            sel = ids == b
            rel += sel.sum() * (p[sel].mean() - y[sel].mean()) ** 2
            res += sel.sum() * (y[sel].mean() - base) ** 2
        assert_close(row["reliability"], rel / y.size, 1e-12)
        assert_close(row["resolution"], res / y.size, 1e-12)
        assert_close(row["uncertainty"], base * (1 - base), 1e-12)


def test_murphy_one_class_group() -> None:
    df = pl.DataFrame({"y": [1, 1, 1], "p": [0.2, 0.6, 0.6]})
    row = fe.brier_decomposition(df, truth="y", score="p").row(0, named=True)
    assert row["uncertainty"] == 0.0 and row["resolution"] == 0.0
    assert row["reliability"] == pytest.approx(row["brier"], abs=1e-12)


# ---------------------------------------------------------------------------------------------
# weights
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("bins", [None, 3])
@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@given(df=weighted_binary_frames())
def test_weighted_murphy_identity_and_terms(df: pl.DataFrame, bins, strategy: str) -> None:
    """Weighted terms by hand (numpy) over the same sets, and the identity to 1e-12."""
    out = fe.brier_decomposition(
        df, truth="y", score="p", by="g", bins=bins, strategy=strategy, weight="w"
    )
    for row, part in zip(out.iter_rows(named=True), df.partition_by("g", maintain_order=True),
                         strict=True):  # fmt: skip
        y, p, w = (part[c].to_numpy().astype(float) for c in ("y", "p", "w"))
        if w.sum() == 0:
            assert all(v is None for k, v in row.items() if k != "g")
            continue
        total = w.sum()
        assert_close(row["brier"], np.sum(w * (p - y) ** 2) / total, 1e-12)
        identity = row["reliability"] - row["resolution"] + row["uncertainty"]
        if bins:
            identity += row["within_bin_variance"] - row["within_bin_covariance"]
        assert abs(identity - row["brier"]) <= 1e-12
        if bins is None:
            ids = np.unique(p, return_inverse=True)[1]
        else:
            ids = np.searchsorted(weighted_bins(y, p, w, bins, strategy)[0][1:-1], p)
        base = np.sum(w * y) / total
        rel = res = var = cov = 0.0
        for b in np.unique(ids):
            sel = (ids == b) & (w > 0)
            if not sel.any():
                continue
            wb = w[sel]
            pbar, ybar = np.sum(wb * p[sel]) / wb.sum(), np.sum(wb * y[sel]) / wb.sum()
            rel += wb.sum() * (pbar - ybar) ** 2
            res += wb.sum() * (ybar - base) ** 2
            var += np.sum(wb * (p[sel] - pbar) ** 2)
            cov += np.sum(wb * (y[sel] - ybar) * (p[sel] - pbar))
        assert_close(row["reliability"], rel / total, 1e-12)
        assert_close(row["resolution"], res / total, 1e-12)
        assert_close(row["uncertainty"], base * (1 - base), 1e-12)
        if bins:
            assert_close(row["within_bin_variance"], var / total, 1e-12)
            assert_close(row["within_bin_covariance"], 2 * cov / total, 1e-12)


@pytest.mark.parametrize("bins", [None, 4])
@given(df=weighted_binary_frames(weights=(0.0, 1.0, 2.0, 3.0)))
def test_integer_weights_equal_repeated_rows(df: pl.DataFrame, bins) -> None:
    repeated = repeat_rows(df)
    assume(repeated.height > 0 and 1 in repeated["y"].to_list())
    kw = dict(truth="y", score="p", by="g", bins=bins)
    weighted = fe.brier_decomposition(df, weight="w", **kw)
    weighted = weighted.filter(pl.col("g").is_in(repeated["g"].unique().to_list()))
    rows = fe.brier_decomposition(repeated, **kw)
    assert weighted["g"].to_list() == rows["g"].to_list()
    for c in rows.columns[1:]:
        assert_close(weighted[c].to_list(), rows[c].to_list(), 1e-12)


@given(df=weighted_binary_frames(), seed=st.integers(0, 2**16))
def test_weighted_lazy_equals_eager(df: pl.DataFrame, seed: int) -> None:
    kw = dict(truth="y", score="p", by="g", bins=3, strategy="quantile", weight="w")
    eager = fe.brier_decomposition(df, **kw)
    lazy = fe.brier_decomposition(df.sample(fraction=1.0, shuffle=True, seed=seed).lazy(), **kw)
    assert isinstance(lazy, pl.LazyFrame)
    lazy = lazy.collect()
    for c in eager.columns:
        assert_close(lazy[c].to_list(), eager[c].to_list(), 1e-12)
