"""fe.agreement.fleiss_kappa against statsmodels' ``fleiss_kappa``, grouped; a hand example;
properties; bad input."""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import given, settings
from polars.testing import assert_frame_equal

import frameeval as fe
from frameeval.exceptions import InvalidDtypeError, InvalidValueError
from tests.agreement.strategies import matrix, ratings
from tests.helpers.examples import budget


def _oracle(part: pl.DataFrame) -> float | None:
    import numpy as np
    from statsmodels.stats.inter_rater import aggregate_raters
    from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss

    counts, _ = aggregate_raters(matrix(part).T.astype(int))
    with np.errstate(all="ignore"):
        value = float(sm_fleiss(counts))
    return None if value != value else value


@settings(max_examples=budget(20))
@given(df=ratings(missing=False))
def test_equals_statsmodels_per_group(df: pl.DataFrame) -> None:
    got = fe.agreement.fleiss_kappa(df, by="group")
    for part in df.partition_by("group"):
        row = got.filter(pl.col("group") == part["group"][0])
        expected = _oracle(part)
        if expected is None:
            assert row["fleiss_kappa"][0] is None
        else:
            assert row["fleiss_kappa"][0] == pytest.approx(expected, abs=1e-9)
        assert row["n_items"][0] == part["item"].n_unique()
        assert row["n_raters"][0] == part["rater"].n_unique()


def test_worked_example_fourteen_raters() -> None:
    """The worked example of Fleiss' κ on Wikipedia ("Fleiss' kappa", 10 subjects, 14 raters,
    5 categories): κ = 0.210; and statsmodels on the same table."""
    table = [
        [0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
        [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7],
    ]  # fmt: skip
    rows = []
    for i, counts in enumerate(table):  # loop-ok: building the table
        labels = [c for c, k in enumerate(counts) for _ in range(k)]
        rows += [(i, f"r{j}", label) for j, label in enumerate(labels)]
    df = pl.DataFrame(rows, schema=["item", "rater", "rating"], orient="row")
    out = fe.agreement.fleiss_kappa(df)
    assert out["fleiss_kappa"][0] == pytest.approx(0.210, abs=5e-4)
    from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss

    assert out["fleiss_kappa"][0] == pytest.approx(sm_fleiss(table), abs=1e-12)
    assert out.select("n_items", "n_raters").row(0) == (10, 14)


def test_fleiss_1971_diagnoses() -> None:
    """Fleiss (1971): 30 patients, 6 psychiatrists each, 5 diagnoses; κ = 0.430 (the table
    ships with statsmodels' tests)."""
    import numpy as np
    from statsmodels.stats.tests.test_inter_rater import diagnoses

    df = pl.DataFrame(
        {
            "item": np.repeat(np.arange(30), 6),
            "rater": np.tile(np.arange(6), 30),
            "rating": diagnoses.reshape(-1),
        }
    )
    out = fe.agreement.fleiss_kappa(df)
    assert out["fleiss_kappa"][0] == pytest.approx(0.430, abs=5e-4)
    assert out["fleiss_kappa"][0] == pytest.approx(_oracle(df.rename({})), abs=1e-12)


@settings(max_examples=budget(10))
@given(df=ratings(missing=False))
def test_row_order_lazy_and_string_labels(df: pl.DataFrame) -> None:
    a = fe.agreement.fleiss_kappa(df, by="group")
    b = fe.agreement.fleiss_kappa(df.sample(fraction=1.0, shuffle=True, seed=1), by="group")
    c = fe.collect(fe.agreement.fleiss_kappa(df.lazy(), by="group"))
    text = df.with_columns(pl.format("c{}", "rating").cast(pl.Categorical).alias("rating"))
    d = fe.agreement.fleiss_kappa(text, by="group")
    for other in (b, c, d):
        assert_frame_equal(a, other, check_exact=False, abs_tol=1e-12)


def test_interval_brackets_estimate() -> None:
    import numpy as np

    rng = np.random.default_rng(0)
    truth = rng.integers(0, 3, 60)
    rows = [
        (i, r, int(truth[i]) if rng.random() < 0.7 else int(rng.integers(0, 3)))
        for i in range(60)
        for r in range(4)
    ]
    df = pl.DataFrame(rows, schema=["item", "rater", "rating"], orient="row")
    out = fe.agreement.fleiss_kappa(df, ci=0.95, n_resamples=400)
    assert out["ci_low"][0] < out["fleiss_kappa"][0] < out["ci_high"][0]


def test_bad_input() -> None:
    uneven = pl.DataFrame(
        {"rater": ["a", "b", "c", "a", "b", "c"], "item": [1, 1, 1, 2, 2, 2],
         "rating": [1, 1, 1, 2, None, 2]}
    )  # fmt: skip
    with pytest.raises(
        InvalidValueError, match=r"every item must have the same number of ratings .*got 2 to 3"
    ):
        fe.agreement.fleiss_kappa(uneven)
    listed = uneven.with_columns(pl.concat_list("rating").alias("rating"))
    with pytest.raises(InvalidDtypeError, match=r"must hold category labels"):
        fe.agreement.fleiss_kappa(listed)
