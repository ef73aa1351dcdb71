"""Murphy's decomposition (frameeval/calibration/decomposition.py): the identity to 1e-12 and
every term against a direct numpy computation over the same sets (distinct forecasts or
scikit-learn's bins).
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import given

import frameeval as fe
from tests.calibration.frames import binary_frames, sk_edges
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
