"""fe.items.power against statsmodels' one-sample normal power and the closed form of Miller
(2024); the K-sample split by hand."""

from __future__ import annotations

import itertools
import math

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings

import frameeval as fe
from frameeval.exceptions import InvalidParameterError
from tests.helpers.examples import budget
from tests.items._data import studies


@settings(max_examples=budget(10))
@given(studies())
def test_mde_and_n_against_statsmodels(data: pl.DataFrame) -> None:
    from statsmodels.stats.power import NormalIndPower

    out = fe.items.power(data, "score", by="benchmark", difference=0.1, power=0.8)
    for (benchmark,), part in data.group_by("benchmark"):
        wide = part.pivot(on="model", index="item", values="score")
        for a, b in itertools.combinations(sorted(part["model"].unique()), 2):
            d = wide[a].to_numpy() - wide[b].to_numpy()
            s = d.std(ddof=1)
            row = out.filter(
                (pl.col("benchmark") == benchmark) & (pl.col("a") == a) & (pl.col("b") == b)
            )
            if s == 0:
                continue
            # one-sample normal test (ratio=0): n at effect size δ/σ
            n = NormalIndPower().solve_power(effect_size=0.1 / s, alpha=0.05, power=0.8, ratio=0)
            assert row["n_required"].item() == math.ceil(n - 1e-9)
            effect = NormalIndPower().solve_power(nobs1=len(d), alpha=0.05, power=0.8, ratio=0)
            # statsmodels' power counts both tails; the closed form keeps one (differs < 1e-6)
            assert row["mde"].item() == pytest.approx(effect * s, rel=1e-5)
            z = 1.959963984540054 + 0.8416212335729143
            assert row["mde"].item() == pytest.approx(z * s / np.sqrt(len(d)), rel=1e-9)


@settings(max_examples=budget(10))
@given(studies(samples=True, models=2))
def test_sample_split_by_hand(data: pl.DataFrame) -> None:
    out = fe.items.power(data, "score", by="benchmark", sample="epoch", samples=10)
    for (benchmark,), part in data.group_by("benchmark"):
        per = part.group_by("model", "item").agg(
            pl.col("score").mean().alias("x"),
            pl.col("score").var(ddof=1).alias("v"),
            pl.len().alias("k"),
        )
        if per["k"].max() < 2:
            continue
        wide = per.pivot(on="model", index="item", values="x").sort("item")
        d = wide["m0"].to_numpy() - wide["m1"].to_numpy()
        sides = {m: per.filter(pl.col("model") == m) for m in ("m0", "m1")}
        within = {m: t["v"].mean() for m, t in sides.items()}
        inv_k = {m: (1.0 / t["k"].to_numpy()).mean() for m, t in sides.items()}
        between = max(0.0, d.var(ddof=1) - within["m0"] * inv_k["m0"] - within["m1"] * inv_k["m1"])
        row = out.filter(pl.col("benchmark") == benchmark)
        assert row["var_between"].item() == pytest.approx(between, rel=1e-9, abs=1e-12)
        variance = between + (within["m0"] + within["m1"]) / 10
        assert row["variance"].item() == pytest.approx(variance, rel=1e-9, abs=1e-12)


def test_bad_parameters() -> None:
    data = pl.DataFrame({"model": ["a", "b"], "item": [1, 1], "score": [1.0, 0.0]})
    with pytest.raises(InvalidParameterError, match=r"power must be in \(0, 1\), got 1.2"):
        fe.items.power(data, "score", power=1.2)
    with pytest.raises(InvalidParameterError, match="difference must be a number > 0, got -0.1"):
        fe.items.power(data, "score", difference=-0.1)
    with pytest.raises(InvalidParameterError, match="samples= needs sample="):
        fe.items.power(data, "score", samples=4)
