"""Shared strategies and scikit-learn binning spelled out, for the calibration tests."""

from __future__ import annotations

import numpy as np
import polars as pl
from hypothesis import strategies as st

GRID = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]


@st.composite
def binary_frames(draw, max_groups: int = 3, max_rows: int = 25):
    """Columns g (Int64), y (Int64 0/1), p (Float64 in [0, 1]); one-class groups occur."""
    g, y, p = [], [], []
    for group in range(draw(st.integers(1, max_groups))):
        n = draw(st.integers(1, max_rows))
        truth = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
        if draw(st.integers(0, 3)) == 0:
            truth = [truth[0]] * n
        values = draw(
            st.lists(st.one_of(st.sampled_from(GRID), st.floats(0.0, 1.0)), min_size=n, max_size=n)
        )
        g += [group] * n
        y += truth
        p += values
    if 1 not in y:  # pos_label must occur somewhere in the frame (one-class groups stay)
        y[-1] = 1
    return pl.DataFrame({"g": g, "y": y, "p": p})


@st.composite
def multiclass_frames(draw, k: int = 3, max_groups: int = 3, max_rows: int = 15):
    """Columns g, y (Int64 in 0..k−1), p0..p{k−1} (a probability vector per row), w."""
    g, y, w, rows = [], [], [], []
    for group in range(draw(st.integers(1, max_groups))):
        n = draw(st.integers(1, max_rows))
        y += draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
        for _ in range(n):
            raw = draw(st.lists(st.integers(0, 6), min_size=k, max_size=k))
            if sum(raw) == 0:
                raw[0] = 1
            rows.append([v / sum(raw) for v in raw])
        w += draw(st.lists(st.sampled_from([0.5, 1.0, 2.0, 3.0]), min_size=n, max_size=n))
        g += [group] * n
    data = {"g": g, "y": y, **{f"p{i}": [r[i] for r in rows] for i in range(k)}, "w": w}
    return pl.DataFrame(data)


def sk_edges(p: np.ndarray, bins: int, strategy: str) -> np.ndarray:
    if strategy == "quantile":
        return np.percentile(p, np.linspace(0, 1, bins + 1) * 100)
    return np.linspace(0.0, 1.0, bins + 1)


def sk_bins(y: np.ndarray, p: np.ndarray, bins: int, strategy: str):
    """scikit-learn's binning, spelled out: (bin ids, counts, mean score, fraction positive)."""
    edges = sk_edges(p, bins, strategy)
    ids = np.searchsorted(edges[1:-1], p)
    total = np.bincount(ids, minlength=bins)
    sums = np.bincount(ids, weights=p, minlength=bins)
    trues = np.bincount(ids, weights=y, minlength=bins)
    nz = total != 0
    return edges, np.flatnonzero(nz), total[nz], sums[nz] / total[nz], trues[nz] / total[nz]


@st.composite
def weighted_binary_frames(draw, weights=(0.0, 0.5, 1.0, 2.0, 3.0), max_groups: int = 3):
    """binary_frames with a weight column w drawn from ``weights`` (zero weights occur)."""
    df = draw(binary_frames(max_groups=max_groups))
    w = draw(st.lists(st.sampled_from(weights), min_size=df.height, max_size=df.height))
    return df.with_columns(w=pl.Series(w, dtype=pl.Float64))


def weighted_bins(y: np.ndarray, p: np.ndarray, w: np.ndarray, bins: int, strategy: str):
    """The weighted bins spelled out with numpy: (edges, bin ids, counts, Σw, Σw², weighted mean
    score, weighted fraction positive) of the bins of positive weight."""
    if strategy == "quantile":
        q = np.linspace(0, 1, bins + 1) * 100
        edges = np.percentile(p, q, weights=w, method="inverted_cdf")
    else:
        edges = np.linspace(0.0, 1.0, bins + 1)
    ids = np.searchsorted(edges[1:-1], p)
    rows = np.bincount(ids, minlength=bins)
    mass = np.bincount(ids, weights=w, minlength=bins)
    mass2 = np.bincount(ids, weights=w * w, minlength=bins)
    sums = np.bincount(ids, weights=w * p, minlength=bins)
    trues = np.bincount(ids, weights=w * y, minlength=bins)
    nz = mass > 0
    return (
        edges,
        np.flatnonzero(nz),
        rows[nz],
        mass[nz],
        mass2[nz],
        sums[nz] / mass[nz],
        trues[nz] / mass[nz],
    )


def repeat_rows(df: pl.DataFrame, weight: str = "w") -> pl.DataFrame:
    """Each row repeated as many times as its (integer) weight; the weight column dropped."""
    idx = np.repeat(np.arange(df.height), df[weight].cast(pl.Int64).to_numpy())
    return df[idx.tolist()].drop(weight) if idx.size else df.clear().drop(weight)
