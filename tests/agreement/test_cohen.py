"""fe.agreement.cohen_kappa against scikit-learn's ``cohen_kappa_score`` (unweighted, linear,
quadratic), every pair of raters per group; properties; bad input."""

from __future__ import annotations

import itertools
import warnings

import polars as pl
import pytest
from hypothesis import given, settings
from polars.testing import assert_frame_equal

import frameeval as fe
from frameeval.exceptions import InvalidParameterError, UnknownLabelError
from tests.agreement.strategies import ratings
from tests.helpers.examples import budget


def _oracle(part: pl.DataFrame, a: str, b: str, weights: str | None) -> tuple[float | None, int]:
    import numpy as np
    from sklearn.metrics import cohen_kappa_score

    both = (
        part.filter(pl.col("rater") == a)
        .join(part.filter(pl.col("rater") == b), on="item")
        .drop_nulls(["rating", "rating_right"])
    )
    if both.height == 0:
        return None, 0
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scikit-learn warns on 0/0 before returning nan
        value = cohen_kappa_score(both["rating"], both["rating_right"], weights=weights)
    return (None if value != value else float(value)), both.height


@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
@settings(max_examples=budget(12))
@given(df=ratings(categories=5))
def test_equals_scikit_learn_for_every_pair(weights: str | None, df: pl.DataFrame) -> None:
    got = fe.agreement.cohen_kappa(df, by="group", weights=weights)
    expected_rows = 0
    for part in df.partition_by("group"):
        raters = sorted(part["rater"].unique().to_list())
        for a, b in itertools.combinations(raters, 2):  # loop-ok: the oracle
            value, n = _oracle(part, a, b, weights)
            row = got.filter(
                (pl.col("group") == part["group"][0])
                & (pl.col("rater_a") == a)
                & (pl.col("rater_b") == b)
            )
            if n == 0:
                assert row.height == 0
                continue
            expected_rows += 1
            assert row["n_items"][0] == n
            if value is None:
                assert row["cohen_kappa"][0] is None
            else:
                assert row["cohen_kappa"][0] == pytest.approx(value, abs=1e-9)
    assert got.height == expected_rows


def test_one_pair_in_the_given_order_and_string_labels() -> None:
    df = pl.DataFrame(
        {
            "rater": ["judge_x", "judge_y", "judge_z"] * 4,
            "item": [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4],
            "rating": ["good", "good", "bad", "bad", "bad", "bad", "ok", "good", "ok",
                       "ok", "ok", "bad"],
        }
    )  # fmt: skip
    from sklearn.metrics import cohen_kappa_score

    out = fe.agreement.cohen_kappa(df, raters=("judge_y", "judge_x"))
    assert out.select("rater_a", "rater_b").row(0) == ("judge_y", "judge_x")
    y = df.filter(pl.col("rater") == "judge_y")["rating"]
    x = df.filter(pl.col("rater") == "judge_x")["rating"]
    assert out["cohen_kappa"][0] == pytest.approx(cohen_kappa_score(y, x), abs=1e-12)
    lazy = fe.collect(fe.agreement.cohen_kappa(df.lazy(), raters=("judge_y", "judge_x")))
    assert_frame_equal(out, lazy)


def test_interval_and_bad_input() -> None:
    df = pl.DataFrame(
        {"rater": ["a", "b"] * 6, "item": [i for i in range(6) for _ in range(2)],
         "rating": [1, 1, 2, 2, 3, 2, 1, 1, 2, 2, 3, 3]}
    )  # fmt: skip
    out = fe.agreement.cohen_kappa(df, ci=0.9, n_resamples=200, weights="linear")
    assert out["ci_low"][0] <= out["cohen_kappa"][0] <= out["ci_high"][0]
    with pytest.raises(UnknownLabelError, match=r"raters= must name raters .*got 'c'"):
        fe.agreement.cohen_kappa(df.with_columns(pl.col("rater")), raters=("a", "c"))
    with pytest.raises(InvalidParameterError, match=r"raters must be a pair"):
        fe.agreement.cohen_kappa(df, raters="ab")
    with pytest.raises(InvalidParameterError, match=r"weights must be one of"):
        fe.agreement.cohen_kappa(df, weights="cubic")
