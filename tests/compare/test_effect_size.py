"""Tests of frameeval.compare.effect_size: mean difference, Cohen's d_z and Cliff's δ.

Oracles: direct numpy formulas per group and pair (d_z = mean / std(ddof=1); δ = mean of
sign(aᵢ − bⱼ) over all N² pairs) and the thresholds of Cohen (1988) and Romano et al. (2006).
"""

from __future__ import annotations

import itertools

import numpy as np
import polars as pl
import pytest
from hypothesis import given

import frameeval as fe
from frameeval.exceptions import InsufficientDataError, InvalidParameterError
from tests.compare._tables import assert_frames_close, matrix, metric_tables, shuffled


def _word(value: float, thresholds: tuple[float, float, float]) -> str | None:
    if value is None or np.isnan(value):
        return None
    size = abs(value)
    for word, limit in zip(("negligible", "small", "medium"), thresholds, strict=True):
        if size < limit:
            return word
    return "large"


@given(df=metric_tables(ties=True, k_range=(2, 4), n_range=(2, 8)))
def test_effect_size_matches_numpy(df):
    out = fe.effect_size(df, "value", by="g")
    assert out.columns == [
        "g",
        "a",
        "b",
        "n_blocks",
        "mean_difference",
        "cohen_d",
        "cohen_d_magnitude",
        "cliff_delta",
        "cliff_delta_magnitude",
    ]
    rows = []
    for part in df.partition_by("g", maintain_order=True):
        values, learners = matrix(part)
        for i, j in itertools.combinations(range(len(learners)), 2):
            x, y = values[:, i], values[:, j]
            d = x - y
            sd = d.std(ddof=1)
            if d.min() == d.max():
                cohen = None if d[0] == 0 else float(np.sign(d[0]) * np.inf)
            else:
                cohen = d.mean() / sd
            delta = np.sign(x[:, None] - y[None, :]).mean()
            rows.append(
                {
                    "g": part["g"][0],
                    "a": learners[i],
                    "b": learners[j],
                    "n_blocks": d.size,
                    "mean_difference": d.mean(),
                    "cohen_d": cohen,
                    "cohen_d_magnitude": _word(np.nan if cohen is None else cohen, (0.2, 0.5, 0.8)),
                    "cliff_delta": delta,
                    "cliff_delta_magnitude": _word(delta, (0.147, 0.33, 0.474)),
                }
            )
    expected = pl.DataFrame(rows, schema=out.schema)
    assert (
        out.select("g", "a", "b", "n_blocks").rows()
        == expected.select("g", "a", "b", "n_blocks").rows()
    )
    for column in ("mean_difference", "cohen_d", "cliff_delta"):
        assert out[column].is_null().to_list() == expected[column].is_null().to_list()
        np.testing.assert_allclose(
            out[column].drop_nulls(), expected[column].drop_nulls(), rtol=1e-12, atol=1e-12
        )
    assert out["cliff_delta_magnitude"].to_list() == expected["cliff_delta_magnitude"].to_list()
    # words from the computed d (a value at a threshold may differ in the last bit)
    words = [_word(np.nan if v is None else v, (0.2, 0.5, 0.8)) for v in out["cohen_d"]]
    assert out["cohen_d_magnitude"].to_list() == words
    # another row order may move a d_z that sits exactly on a threshold by one bit, and so its
    # word: compare the numbers, and the words of each result against its own numbers (above)
    numbers = pl.exclude("cohen_d_magnitude")
    assert_frames_close(
        fe.effect_size(shuffled(df), "value", by="g").select(numbers), out.select(numbers)
    )
    assert_frames_close(fe.effect_size(df.lazy(), "value", by="g").collect(), out)


def test_effect_size_one_pair_and_errors():
    df = pl.DataFrame(
        {
            "block": list("abcd") * 3,
            "learner": ["A"] * 4 + ["B"] * 4 + ["C"] * 4,
            "acc": [0.875, 0.75, 0.625, 0.5, 0.375, 0.25, 0.125, 0.0, 0.875, 0.75, 0.625, 0.5],
        }
    )
    ba = fe.effect_size(df, "acc", a="B", b="A").row(0, named=True)
    assert ba["cliff_delta"] == pytest.approx(-1.0) and ba["cliff_delta_magnitude"] == "large"
    assert ba["cohen_d"] == float("-inf") and ba["cohen_d_magnitude"] == "large"
    ac = fe.effect_size(df, "acc", a="A", b="C").row(0, named=True)
    assert ac["cohen_d"] is None and ac["cohen_d_magnitude"] is None
    assert ac["cliff_delta"] == 0.0 and ac["cliff_delta_magnitude"] == "negligible"
    with pytest.raises(InvalidParameterError, match=r"effect_size\(\): a= and b= must be given"):
        fe.effect_size(df, "acc", b="A")
    with pytest.raises(InsufficientDataError, match=r"effect_size\(\): needs at least 2 values"):
        fe.effect_size(df.filter(pl.col("block") == "a"), "acc")
