"""fe.pass_at_k / pass_hat_k / g_pass_at_k against Chen et al.'s numpy form, exact fractions
(math.comb) and scipy's hypergeometric tail; grouped = per group; bad input."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import frameeval as fe
from frameeval.exceptions import (
    InsufficientDataError,
    InvalidDtypeError,
    InvalidParameterError,
    InvalidValueError,
    MissingValueError,
)
from tests.helpers.examples import budget


def chen(n: int, c: int, k: int) -> float:
    """Chen et al. (2021), figure 3: the numerically stable unbiased estimator."""
    if n - c < k:
        return 1.0
    return 1.0 - float(np.prod(1.0 - k / np.arange(n - c + 1, n + 1)))


@st.composite
def samples(draw):
    groups = draw(st.integers(1, 4))
    k = draw(st.integers(1, 5))
    rows = []
    for g in range(groups):
        n = draw(st.integers(k, 30))
        flags = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
        rows += [(g, f) for f in flags]
    return pl.DataFrame(rows, schema=["item", "ok"], orient="row"), k


@settings(max_examples=budget(30))
@given(samples(), st.sampled_from([0.25, 0.5, 0.7, 1.0]))
def test_family_against_oracles(case, tau) -> None:
    data, k = case
    out = data.group_by("item").agg(
        fe.pass_at_k("ok", k), fe.pass_hat_k("ok", k), fe.g_pass_at_k("ok", k, tau)
    )
    for (item,), part in data.group_by("item"):
        n, c = part.height, int(part["ok"].sum())
        row = out.filter(pl.col("item") == item)
        assert row["pass_at_k"].item() == pytest.approx(chen(n, c, k), abs=1e-12)
        exact = Fraction(math.comb(c, k), math.comb(n, k))
        assert row["pass_hat_k"].item() == pytest.approx(float(exact), abs=1e-12)
        low = math.ceil(tau * k)
        tail = stats.hypergeom(n, c, k).sf(low - 1)
        assert row["g_pass_at_k"].item() == pytest.approx(tail, abs=1e-9)


def test_large_n_is_exact() -> None:
    """n = 5000 samples, c = 37: the product form against exact rational arithmetic."""
    n, c, k = 5000, 37, 100
    data = pl.DataFrame({"ok": [1] * c + [0] * (n - c)})
    got = data.select(fe.pass_at_k("ok", k), fe.pass_hat_k("ok", 10), fe.g_pass_at_k("ok", k, 0.02))
    exact = 1 - Fraction(math.comb(n - c, k), math.comb(n, k))
    assert got["pass_at_k"].item() == pytest.approx(float(exact), rel=1e-12)
    hat = Fraction(math.comb(c, 10), math.comb(n, 10))
    assert got["pass_hat_k"].item() == pytest.approx(float(hat), rel=1e-9)
    g = sum(
        Fraction(math.comb(c, j) * math.comb(n - c, k - j), math.comb(n, k))
        for j in range(2, k + 1)
    )
    assert got["g_pass_at_k"].item() == pytest.approx(float(g), rel=1e-9)


def test_tau_extremes_are_pass_at_k_and_pass_hat_k() -> None:
    data = pl.DataFrame({"ok": [1, 0, 1, 1, 0, 0, 1, 0]})
    out = data.select(
        fe.g_pass_at_k("ok", 3, 0.01).alias("g0"),
        fe.g_pass_at_k("ok", 3, 1.0).alias("g1"),
        fe.pass_at_k("ok", 3),
        fe.pass_hat_k("ok", 3),
    )
    assert out["g0"].item() == pytest.approx(out["pass_at_k"].item(), abs=1e-12)
    assert out["g1"].item() == pytest.approx(out["pass_hat_k"].item(), abs=1e-12)


def test_boolean_flags_and_lazy() -> None:
    data = pl.LazyFrame({"m": ["a"] * 4, "ok": [True, False, True, False]})
    out = data.group_by("m").agg(fe.pass_at_k("ok", 2)).collect()
    assert out["pass_at_k"].item() == pytest.approx(1 - 1 / 6)


def test_bad_input() -> None:
    data = pl.DataFrame({"item": [1, 1, 2], "ok": [1, 0, 1]})
    with pytest.raises(
        InsufficientDataError,
        match=r"pass_at_k\(\): k must not exceed the number of samples n of a group, got k=2 and n=1\.",
    ):
        data.group_by("item").agg(fe.pass_at_k("ok", 2))
    with pytest.raises(
        InvalidValueError, match=r"column 'ok' \(correct=\) must hold 0/1 flags, got 2"
    ):
        data.with_columns(pl.col("ok") * 2).select(fe.pass_hat_k("ok", 1))
    with pytest.raises(MissingValueError, match="must not contain nulls"):
        pl.DataFrame({"ok": [1, None, 0]}).select(fe.pass_at_k("ok", 1))
    with pytest.raises(InvalidDtypeError, match="must be boolean or numeric 0/1"):
        pl.DataFrame({"ok": ["yes"]}).select(fe.pass_at_k("ok", 1))
    with pytest.raises(InvalidParameterError, match="k must be an integer >= 1, got 0"):
        fe.pass_at_k("ok", 0)
    with pytest.raises(InvalidParameterError, match=r"tau must be in \(0, 1\], got 1.5"):
        fe.g_pass_at_k("ok", 2, 1.5)
