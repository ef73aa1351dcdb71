"""fe.subgroups.power against statsmodels' NormalIndPower with proportion_effectsize."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

import frameeval as fe
from frameeval.exceptions import InvalidParameterError


def _data() -> pl.DataFrame:
    rng = np.random.default_rng(4)
    n = 900
    return pl.DataFrame(
        {
            "age": rng.choice(["young", "middle", "old"], n, p=[0.6, 0.3, 0.1]),
            "y": rng.integers(0, 2, n),
            "p": rng.integers(0, 2, n),
        }
    )


@pytest.mark.parametrize("measure", ["selection_rate", "recall", "fpr"])
def test_sizes_and_detectable_gaps_equal_statsmodels(measure: str) -> None:
    from scipy.stats import norm
    from statsmodels.stats.power import NormalIndPower
    from statsmodels.stats.proportion import proportion_effectsize

    df = _data()
    out = fe.subgroups.power(df, "y", "p", sensitive="age", measure=measure, gap=0.1, power=0.9)
    rates = fe.subgroups.by_group(df, "y", "p", sensitive="age", measures=[measure])
    solver = NormalIndPower()
    total = out["trials"].sum()
    for r in out.iter_rows(named=True):
        p = r["value"]
        assert p == rates.filter(pl.col("age") == r["age"])["value"][0]
        target = p + 0.1 if p + 0.1 <= 1 else p - 0.1
        h = abs(proportion_effectsize(target, p))
        n = solver.solve_power(effect_size=h, alpha=0.05, power=0.9, ratio=1.0)
        assert r["trials_needed"] == math.ceil(n)
        share = r["trials"] / r["n"]
        assert r["rows_needed"] == math.ceil(r["trials_needed"] / share)
        rest = total - r["trials"]
        h_star = solver.solve_power(
            effect_size=None, nobs1=r["trials"], alpha=0.05, power=0.9, ratio=rest / r["trials"]
        )
        expected = math.sin(min(math.pi / 2, math.asin(math.sqrt(p)) + h_star / 2)) ** 2 - p
        # statsmodels' root finder stops at ~1e-6; its power at our gap is the power asked
        assert r["detectable_gap"] == pytest.approx(expected, rel=1e-4)
        ours = abs(proportion_effectsize(p + r["detectable_gap"], p))
        achieved = solver.power(ours, nobs1=r["trials"], alpha=0.05, ratio=rest / r["trials"])
        z_a, z_b = norm.ppf(0.975), norm.ppf(0.9)
        far_tail = norm.cdf(-(z_a + z_b) - z_a)  # the closed form leaves it out (documented)
        assert achieved - far_tail == pytest.approx(0.9, abs=1e-12)


def test_bad_input_is_a_typed_error() -> None:
    df = _data()
    with pytest.raises(InvalidParameterError, match=r"power\(\): gap must be in \(0, 1\)"):
        fe.subgroups.power(df, "y", "p", sensitive="age", gap=0)
    with pytest.raises(InvalidParameterError, match="measure must be a share of counts"):
        fe.subgroups.power(df, "y", "p", sensitive="age", measure="f1")
